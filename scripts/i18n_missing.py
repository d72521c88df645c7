"""List the user-visible strings that have no Simplified Chinese translation yet.

Strings are found the way ``pybabel extract`` finds them: calls of ``_``, ``N_`` and
``ngettext`` with literal arguments in ``companion/``. Prints ``.po`` stanzas to
paste (with a translation) into ``companion/locale/zh_CN/LC_MESSAGES/<domain>.po``.

    python scripts/i18n_missing.py              # every missing string, by file
    python scripts/i18n_missing.py meowfia      # only files whose path has 'meowfia'
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.i18n_check import missing_translations  # noqa: E402


def main() -> int:
    needle = sys.argv[1] if len(sys.argv) > 1 else ""
    missing = [m for m in missing_translations() if needle in m.path]
    for m in missing:
        print(f"#: {m.path}:{m.line}")
        print(f"msgid {m.quoted()}")
        print('msgstr ""\n')
    print(f"# {len(missing)} missing", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
