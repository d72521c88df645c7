"""Playback of the Meeple Circus music and cues.

``backend`` chooses between a real ALSA device (through ``simpleaudio``) and a silent
backend that only counts down; ``tracks`` is the catalogue of the rendered WAVs in
``companion/audio/sounds/``; ``alsa`` keeps libasound from writing to the terminal.
"""
