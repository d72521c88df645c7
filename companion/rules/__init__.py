"""Shared pure types of every game: players, errors, outcomes, actions, guides, plug-ins.

Each game's own rules live in ``companion/games/<id>/rules``; this package holds only
what all of them share, and imports nothing but the standard library.
"""
