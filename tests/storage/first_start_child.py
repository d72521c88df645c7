"""One of many apps started at the same moment on a new file: opens it, reports.

It opens the file the way ``companion`` does (``companion.cli.app.run_app``): take
the owner lock, or, if another app holds it, open the database read-only beside it.
Prints ``owner N`` (it owns the file, at schema N), ``read-only N`` (another app
owns it; this one reads it at schema N) or ``refused <message>``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from companion.session.owner import DatabaseInUse, OwnerLock
from companion.session.store import Store, StoreError, inspect_file


def main() -> None:
    path, at = sys.argv[1], float(sys.argv[2])
    mode = sys.argv[3] if len(sys.argv) > 3 else "app"
    time.sleep(max(0.0, at - time.time()))
    if mode == "store":  # the store alone, no lock: every app migrates the file itself
        try:
            with Store.open(path) as store:
                print(f"owner {store.schema_version}")
        except StoreError as exc:
            print(f"refused {exc}")
        return
    lock = OwnerLock(path)
    try:
        inspect_file(path)
        lock.acquire()
    except DatabaseInUse:
        try:
            with Store.open(path, readonly=True) as store:
                print(f"read-only {store.schema_version}")
        except StoreError as exc:
            print(f"refused {exc}")
        return
    except StoreError as exc:
        print(f"refused {exc}")
        return
    try:
        with Store.open(path) as store:
            print(f"owner {store.schema_version}")
            sys.stdout.flush()
            # An app stays open: until the test says every other app has reported.
            done, deadline = Path(path + ".done"), time.monotonic() + 300
            while not done.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
    except StoreError as exc:
        print(f"refused {exc}")
    finally:
        lock.release()


if __name__ == "__main__":
    main()
