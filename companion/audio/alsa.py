"""Keep libasound quiet: its errors go to a Python list, not to file descriptor 2.

libasound prints "ALSA lib pcm.c:...: Unknown PCM default" style lines with
``fprintf(stderr, ...)`` from C, below Python's ``sys.stderr``. Under Textual
those bytes land in the middle of the screen. alsa-lib lets a program replace that
printer with ``snd_lib_error_set_handler``; we install a ctypes callback that records
the message instead. It must be installed before the first device is opened, and the
callback object must stay referenced for as long as the library may call it (a
collected ctypes thunk is a crash), hence the module-level ``_HANDLER``.

The handler is process-wide and simpleaudio links the same ``libasound.so.2``, so
installing it here covers the extension's own ``snd_pcm_open`` calls.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from collections import deque

# void (*)(const char *file, int line, const char *function, int err, const char *fmt, ...)
# The variadic tail is not visible to ctypes; the format string alone names the error.
_HANDLER_TYPE = ctypes.CFUNCTYPE(
    None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p
)

_lock = threading.Lock()
_HANDLER: object | None = None
_installed = False
_messages: deque[str] = deque(maxlen=50)


def _record(
    file: bytes | None, line: int, function: bytes | None, err: int, fmt: bytes | None
) -> None:
    # Runs on whatever thread libasound is on (ctypes takes the GIL): keep it tiny.
    where = (function or b"?").decode(errors="replace")
    what = (fmt or b"").decode(errors="replace").strip()
    text = f"{where}: {what}"
    if err:
        text += f" (error {err})"
    _messages.append(text)


def install_error_handler() -> bool:
    """Route libasound's error printer into :func:`messages`. Idempotent.

    Returns False when libasound cannot be loaded (then nothing will print either).
    """
    global _HANDLER, _installed
    with _lock:
        if _installed:
            return True
        name = ctypes.util.find_library("asound") or "libasound.so.2"
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            return False
        handler = _HANDLER_TYPE(_record)
        lib.snd_lib_error_set_handler.argtypes = [_HANDLER_TYPE]
        lib.snd_lib_error_set_handler.restype = ctypes.c_int
        if lib.snd_lib_error_set_handler(handler) != 0:
            return False
        _HANDLER = handler  # keep the thunk alive for the life of the process
        _installed = True
        return True


def messages() -> list[str]:
    """The libasound errors seen so far, oldest first (at most the last 50)."""
    return list(_messages)


def last_message() -> str:
    return _messages[-1] if _messages else ""
