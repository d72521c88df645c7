"""The Tadaa buttons: wire protocol, serial link, clock sync, simulator.

* ``tadaa_logic`` — the firmware's own logic (framing, CRC, debounce, ring buffer,
  commands); runs unchanged under MicroPython on the board and here.
* ``protocol`` — strict parsing of device lines, host commands.
* ``clocksync`` — device clock -> host monotonic clock with an honest uncertainty.
* ``link`` — ``TadaaHub``: discovery, one reader thread per port, acks, resend,
  reconnect, the press stream (``DevicePress``).
* ``hid`` — USB HID buttons (keypads, encoders, pedals, gamepads) from Linux evdev:
  kernel stamps on the monotonic clock, ± from the USB polling interval, the same
  ``DevicePress`` as the box's.
* ``feed`` — presses -> the Meeple Circus ``Press`` action and the raw session log.
* ``config`` — the settings file (extra ports, button -> player name).
* ``simulator`` — devices on pseudo-terminals with clocks, transport and faults.

See ``devices/PROTOCOL.md`` and ``docs/hardware.md``.
"""
