"""One of many apps started at the same moment on a new file: opens it, reports."""

from __future__ import annotations

import sys
import time

from companion.session.store import Store, StoreError


def main() -> None:
    path, at = sys.argv[1], float(sys.argv[2])
    time.sleep(max(0.0, at - time.time()))
    try:
        with Store.open(path) as store:
            print(f"ok {store.schema_version}")
    except StoreError as exc:
        print(f"refused {exc}")


if __name__ == "__main__":
    main()
