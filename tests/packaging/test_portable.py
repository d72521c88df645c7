"""Portable where Python is: no POSIX-only import at module level outside the HID reader,
and the one-owner lock wherever the app starts (fcntl, or msvcrt on Windows)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Hides the POSIX-only modules from the companion's own code: an import of one of
# them by a ``companion`` module fails as it would where the module does not exist.
# Third-party packages keep theirs (pyserial picks its backend per platform, as
# serialwin32 on Windows), so this checks our imports, not theirs.
HIDE = textwrap.dedent(
    """
    import builtins
    HIDDEN = {hidden!r}
    _real_import = builtins.__import__

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        importer = (globals or {{}}).get("__name__") or ""
        if level == 0 and name.split(".")[0] in HIDDEN and (
            importer == "companion" or importer.startswith("companion.")
        ):
            raise ImportError(f"no module named {{name!r}} here (hidden by the test)")
        return _real_import(name, globals, locals, fromlist, level)

    builtins.__import__ = _import
    """
)


def run_hidden(code: str, hidden: tuple[str, ...] = ("fcntl", "termios", "tty", "pty")) -> str:
    script = HIDE.format(hidden=set(hidden)) + textwrap.dedent(code)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=240
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_module_imports_without_fcntl_and_termios() -> None:
    out = run_hidden(
        """
        import importlib, json, pkgutil
        import companion
        bad = {}
        for m in pkgutil.walk_packages(companion.__path__, "companion."):
            if m.name == "companion.__main__":
                continue  # runs the command
            try:
                importlib.import_module(m.name)
            except Exception as exc:
                bad[m.name] = repr(exc)
        print(json.dumps(bad))
        """
    )
    assert json.loads(out) == {}


def test_without_evdev_hid_says_use_a_serial_box() -> None:
    out = run_hidden(
        """
        from companion.hardware import hid
        source = hid.HidSource(lambda info: True).start()
        print(hid.SUPPORTED, hid.list_hid_devices(), source.problems())
        source.stop()
        """
    )
    assert out.startswith("False [] ")
    assert "HID buttons need Linux here; use a serial box" in out


def test_devices_list_says_hid_needs_linux(tmp_path: Path) -> None:
    out = run_hidden(
        f"""
        import os, sys
        os.environ["COMPANION_TADAA_CONFIG"] = {str(tmp_path / "tadaa.json")!r}
        from companion.cli import main
        try:
            main(["--lang", "en", "devices", "list"])
        except SystemExit:
            pass
        """
    )
    assert "HID buttons need Linux here" in out


# A stand-in for Windows' msvcrt on Linux: byte-range locks with the same calls and
# the same failure (EACCES/EDEADLK). POSIX record locks are per process, so the two
# owners below are two processes, as two windows are.
FAKE_MSVCRT = """
import errno, fcntl as _fcntl, os, types, sys  # imported before the hiding starts
# (import subprocess before this: it takes a module named msvcrt for Windows)
msvcrt = types.ModuleType("msvcrt")
msvcrt.LK_NBLCK, msvcrt.LK_UNLCK = 2, 0
def locking(fd, mode, nbytes):
    pos = os.lseek(fd, 0, os.SEEK_CUR)
    if mode == msvcrt.LK_UNLCK:
        _fcntl.lockf(fd, _fcntl.LOCK_UN, nbytes, pos)
        return
    # Windows locks a read-only handle too; lockf needs LOCK_SH for one (it still
    # conflicts with another process's lock, which is all the test needs).
    read_only = _fcntl.fcntl(fd, _fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
    kind = _fcntl.LOCK_SH if read_only else _fcntl.LOCK_EX
    try:
        _fcntl.lockf(fd, kind | _fcntl.LOCK_NB, nbytes, pos)
    except OSError:
        raise OSError(errno.EACCES, "Permission denied") from None
msvcrt.locking = locking
sys.modules["msvcrt"] = msvcrt
"""


def test_the_owner_lock_works_where_there_is_msvcrt_instead_of_fcntl(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    code = (
        FAKE_MSVCRT
        + HIDE.format(hidden={"fcntl"})
        + textwrap.dedent(
            f"""
        import sys
        from companion.session import owner
        assert owner.fcntl is None and owner.LOCKING
        lock = owner.OwnerLock({str(db)!r}).acquire()
        print("held", flush=True)
        sys.stdin.readline()
        lock.release()
        """
        )
    )
    first = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "held"
        second = (
            FAKE_MSVCRT
            + HIDE.format(hidden={"fcntl"})
            + textwrap.dedent(
                f"""
            from companion.session import owner
            print("holder", owner.holder({str(db)!r}))
            try:
                owner.OwnerLock({str(db)!r}).acquire()
                print("acquired")
            except owner.DatabaseInUse as busy:
                print("refused", busy.pid)
            """
            )
        )
        out = subprocess.run(
            [sys.executable, "-c", second], capture_output=True, text=True, cwd=ROOT, timeout=60
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["holder", str(first.pid), "refused", str(first.pid)]
    finally:
        assert first.stdin is not None
        first.stdin.write("\n")
        first.stdin.flush()
        first.wait(30)
    again = subprocess.run(
        [sys.executable, "-c", second], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert again.stdout.split() == ["holder", "None", "acquired"], again.stderr


def test_with_neither_lock_the_platform_says_so() -> None:
    out = run_hidden(
        """
        from companion.session import owner
        print(owner.LOCKING)
        """,
        hidden=("fcntl", "msvcrt"),
    )
    assert out.strip() == "False"
