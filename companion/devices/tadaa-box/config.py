# Per-device settings, copied to the board next to main.py. Edit to match your wiring.
# Buttons are numbered 1..N in the order of BUTTON_PINS (N = 1 for a one-player button).
BUTTON_PINS = [2, 3, 4, 5, 6, 7, 8, 9]
# One LED per button, same order (leave empty for buttons without LEDs).
LED_PINS = [10, 11, 12, 13, 14, 15, 16, 17]
# Lock-out after a press, and how long a button must be released before it counts again.
DEBOUNCE_US = 30000
# Buttons switch the pin to GND and use the internal pull-up.
ACTIVE_LOW = True
