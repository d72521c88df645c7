"""The Chinese screens call the shout 「塔达！」 everywhere (docs/tour/meeple-circus.md).

Found on the tmux tour (160x48 zh): the log read "博：在 0:01.802 喊 Tadaa!（有效）"
and the prompt "完成后喊 Tadaa!。" beside "「塔达！」顺序" and "塔达！按钮" — English
inside the Chinese UI. Failed before the fix.
"""

from __future__ import annotations

from babel.messages.pofile import read_po

from companion.i18n import catalog_files, game_domains

CATALOGS = catalog_files("zh", None) + [f for d in game_domains() for f in catalog_files("zh", d)]


def test_no_chinese_string_says_tadaa_in_latin_letters() -> None:
    found = []
    for po in CATALOGS:
        with po.open("rb") as fh:
            for message in read_po(fh):
                if message.id and isinstance(message.string, str) and "Tadaa" in message.string:
                    found.append(f"{po.name}: {message.string}")
    assert found == []
