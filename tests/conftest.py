"""What every test starts from."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.i18n import set_game_domain, set_language


@pytest.fixture(autouse=True)
def _english_and_no_game_catalog() -> Iterator[None]:
    """Each test starts in English with no game's catalog read first, as the app
    starts. The language is the process's (``make_app(lang=...)`` sets it): a test
    that opened a Chinese app left every later test of its worker in Chinese, and
    tests/audio/test_backend_threads.py failed after tests/games/meeple_circus/test_ui.py
    ("声音已关闭" for "Sound is turned off"), or not, as the workers were given tests."""
    set_language("en")
    set_game_domain(None)
    yield
    set_language("en")
    set_game_domain(None)
