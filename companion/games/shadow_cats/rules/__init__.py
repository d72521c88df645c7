"""喵窩暗影 Shadow Cats: hidden identities, HP, a seven-location board, d100 damage tables.

The rules live in :mod:`.game` (flow and checks), :mod:`.board` (locations and
distances), :mod:`.roster` (the editable TOML data) and :mod:`.state`. The shipped
roster is ``default_roster.toml`` beside this file; the session layer reads it (or the
host's file) and passes the text inside the first ``setup`` action.
"""

from __future__ import annotations

from companion.games.shadow_cats.rules.game import ShadowCats

DEFAULT_ROSTER_NAME = "default_roster.toml"

GAME = ShadowCats()

__all__ = ["DEFAULT_ROSTER_NAME", "GAME", "ShadowCats"]
