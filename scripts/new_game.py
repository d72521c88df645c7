"""Write a new game's folder: a stub that passes the conformance suite, to build on.

    python scripts/new_game.py skull --en "Skull" --zh "骷髅"

writes ``companion/games/<folder>/`` (rules, guide, view, preparer, screen, board,
testing hook, catalogs in both languages, the docs page ``README.md``), its tests
``tests/games/<folder>/``, and the one registry line in ``companion/games/__init__.py``.
The stub is a real, tiny game: the host ends it (key ``E``), which every registered
game's contract covers, so ``pytest tests/conformance`` passes before any rule is
written. Then ``docs/adding-a-game.md`` walks through replacing each part.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "companion" / "games"
TESTS = ROOT / "tests" / "games"

FILES: dict[str, str] = {
    "__init__.py": '''"""{name_en} ({name_zh}): one folder holds the whole game.

``rules`` (pure), ``guide`` (pure: what is allowed now, what to do next, a sentence
per action), ``view`` (pure: what the screen and the board both show), ``prepare``
(random draws, made on the writer thread), ``screen`` (the host's screen), ``board``
(the players' board), ``testing`` (the conformance suite's hook), ``locale/`` (its
catalogs, read before the shared ones), ``README.md`` (its docs page).
"""

from __future__ import annotations

from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="{id}",
    name_en="{name_en}",
    name_zh="{name_zh}",
    rules_part=Part("companion.games.{folder}.rules", "GAME"),
    screen=Part("companion.games.{folder}.screen", "SCREEN"),
    board=Part("companion.games.{folder}.board", "VIEW"),
    testing_part=Part("companion.games.{folder}.testing", "TESTING"),
    prepare=Part("companion.games.{folder}.prepare"),
    guide_part=Part("companion.games.{folder}.guide", "GUIDE"),
    termination_part=Part("companion.games.{folder}.rules", "Termination"),
)
''',
    "rules.py": '''"""{name_en} rules (pure: no clock, no randomness, no files;
times and draws arrive inside actions). The stub: the host ends the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.rules.base import (
    N_,
    Action,
    Game,
    GameOverError,
    Outcome,
    Player,
    action_types_of,
    check_player_count,
)
from companion.rules.guide import Termination as BaseTermination


class Termination(BaseTermination):
    """How a game of {name_en} ends."""

    HOST_ENDED = "host-ended"
    """The host ended the game."""


@dataclass(frozen=True)
class EndGame(Action):
    """The host ends the game now."""

    type = "end"


@dataclass(frozen=True)
class {cls}State:
    players: tuple[Player, ...]
    ended: bool = False


class {cls}(Game[{cls}State]):
    id = "{id}"
    min_players = 1
    max_players = 12
    action_types = action_types_of(EndGame)

    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> {cls}State:
        check_player_count(players, self.min_players, self.max_players)
        return {cls}State(tuple(players))

    def apply(self, state: {cls}State, action: Action) -> {cls}State:
        if state.ended:
            raise GameOverError(N_("The game is over; undo to change it."))
        if isinstance(action, EndGame):
            return replace(state, ended=True)
        raise self.unknown(action)

    def unknown(self, action: Action) -> Exception:
        from companion.rules.base import BadActionError

        return BadActionError(N_("{name_en} has no action {{type!r}}."), type=action.type)

    def outcome(self, state: {cls}State) -> Outcome | None:
        if not state.ended:
            return None
        return Outcome(Termination.HOST_ENDED, (), summary=N_("The host ended the game."))


GAME = {cls}()
''',
    "guide.py": '''"""{name_en} host guide (pure): phase, what is allowed, what next, sentences."""

from __future__ import annotations

from companion.games.{folder}.rules import EndGame, {cls}State
from companion.rules.base import N_, Action
from companion.rules.guide import Guide, Say


class {cls}Guide(Guide[{cls}State]):
    summary = N_("{name_en}: the host ends the game with E.")

    def phase(self, state: {cls}State) -> str:
        return "over" if state.ended else "play"

    def allowed(self, state: {cls}State) -> frozenset[str]:
        return frozenset() if state.ended else frozenset({{EndGame.type}})

    def prompt(self, state: {cls}State) -> Say:
        if state.ended:
            return Say(N_("The game is over; undo to change it."))
        return Say(N_("Press E to end the game."))

    def describe(self, action: Action, before: {cls}State, after: {cls}State) -> Say:
        return Say(N_("The host ended the game."))


GUIDE = {cls}Guide()
''',
    "view.py": '''"""{name_en} view-model (pure): what the host's screen and the board both show."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.{folder}.rules import {cls}State


@dataclass(frozen=True)
class Row:
    name: str


def rows(state: {cls}State) -> tuple[Row, ...]:
    return tuple(Row(p.name) for p in state.players)
''',
    "prepare.py": '''"""{name_en} preparer (session side): random draws and data files,
made into actions on the writer thread (``GameScreen.submit(callable)``). The stub draws nothing."""

from __future__ import annotations
''',
    "screen.py": '''"""{name_en} host screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType

from companion.games.{folder}.rules import EndGame
from companion.games.{folder}.view import rows
from companion.i18n import N_
from companion.widgets.game_screen import GameScreen
from companion.widgets.shown import Shown


class {cls}Screen(GameScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("E", "end_game", N_("End game"))]
    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {{"end_game": (EndGame.type,)}}

    def compose_game(self) -> ComposeResult:
        # A panel of the game view is a Shown: it repaints only when its text changed.
        yield Shown("", id="{folder}-players")

    def refresh_view(self) -> None:
        names = "\\n".join(r.name for r in rows(self.session.state))
        self.query_one("#{folder}-players", Shown).update(names)

    def action_end_game(self) -> None:
        self.submit(EndGame())


SCREEN = {cls}Screen
''',
    "board.py": '''"""{name_en} on the players' board: what ``view`` shows, nothing hidden."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from companion.games.{folder}.view import rows
from companion.session.follow import Snapshot
from companion.widgets.board_view import BoardView


class {cls}View(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="{folder}-board")

    def panels(self) -> dict[str, RenderableType]:
        """Everything the board shows, as Rich renderables (the conformance suite reads it)."""
        names = "\\n".join(r.name for r in rows(self.state))
        return {{"players": Text(self.outcome_text() or names)}}

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        self.query_one("#{folder}-board", Static).update(self.panels()["players"])


VIEW = {cls}View
''',
    "testing.py": '''"""{name_en} testing hook of the conformance suite (rules/testing.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.{folder}.rules import EndGame, {cls}State
from companion.rules.base import Action
from companion.rules.testing import GameTesting


class {cls}Testing(GameTesting[{cls}State]):
    tables = (1, 4)
    steps = 5

    def candidates(self, state: {cls}State, rng: random.Random) -> Sequence[Action]:
        return [EndGame()]


TESTING = {cls}Testing()
''',
    "README.md": """# {name_en} ({name_zh})

The game's docs page: what the companion does for it, the rule decisions the rules
leave open, and every action's JSON form (the dataclasses in `rules.py`).

## Actions

| type | fields | what |
| --- | --- | --- |
| `end` | — | the host ends the game |
""",
    "locale/zh_CN/LC_MESSAGES/{folder}.po": """# Chinese (Simplified) translations of {name_en}.
msgid ""
msgstr ""
"Language: zh_CN\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"

msgid "The game is over; undo to change it."
msgstr "游戏已结束；如需修改请撤销。"

msgid "The host ended the game."
msgstr "主持人结束了游戏。"

msgid "Press E to end the game."
msgstr "按 E 结束游戏。"

msgid "{name_en}: the host ends the game with E."
msgstr "{name_zh}：主持人按 E 结束游戏。"

msgid "End game"
msgstr "结束游戏"

#, python-brace-format
msgid "{name_en} has no action {{type!r}}."
msgstr "{name_zh}没有动作 {{type!r}}。"
""",
}

TEST_FILE = '''"""{name_en}: its own tests (the conformance suite covers the common contract)."""

from __future__ import annotations

from companion.games import find_game
from companion.games.{folder}.rules import GAME, EndGame
from companion.rules.base import seat_players


def test_the_host_ends_the_game() -> None:
    state = GAME.setup(seat_players(["Ann", "Bo"]), {{}})
    assert GAME.outcome(state) is None
    assert GAME.outcome(GAME.apply(state, EndGame())) is not None
    assert find_game("{id}").rules is GAME
'''


def register(folder: str, const: str) -> None:
    """The one registry line (and its import) in ``companion/games/__init__.py``."""
    path = GAMES / "__init__.py"
    text = path.read_text(encoding="utf-8")
    imports = re.findall(r"^from companion\.games\.\w+ import PLUGIN as \w+$", text, re.M)
    line = f"from companion.games.{folder} import PLUGIN as {const}"
    text = text.replace(imports[-1], imports[-1] + "\n" + line, 1)
    start = text.index("_REGISTERED: tuple[GameInfo, ...] = (\n")
    end = text.index("\n)\n", start)
    text = text[:end] + f"\n    {const}," + text[end:]
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("id", help="the game's id, lowercase with dashes (e.g. skull)")
    parser.add_argument("--en", help="English name (default: from the id)")
    parser.add_argument("--zh", help="Chinese name (default: the English one)")
    args = parser.parse_args(argv)
    game_id = args.id.strip().lower()
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", game_id):
        parser.error(f"{game_id!r}: lowercase letters and digits, words joined by dashes")
    folder = game_id.replace("-", "_")
    if (GAMES / folder).exists():
        parser.error(f"companion/games/{folder} exists already")
    name_en = args.en or game_id.replace("-", " ").title()
    fields = {
        "id": game_id,
        "folder": folder,
        "cls": "".join(w.title() for w in game_id.split("-")),
        "name_en": name_en,
        "name_zh": args.zh or name_en,
    }
    for name, template in FILES.items():
        path = GAMES / folder / name.format(**fields)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**fields), encoding="utf-8")
    tests = TESTS / folder
    tests.mkdir(parents=True, exist_ok=True)
    (tests / f"test_{folder}.py").write_text(TEST_FILE.format(**fields), encoding="utf-8")
    register(folder, folder.upper())
    subprocess.run([sys.executable, str(ROOT / "scripts" / "i18n_update.py")], check=True)
    print(f"companion/games/{folder}/ and tests/games/{folder}/ written; registered.")
    print(f"Next: pytest tests/conformance -k {game_id}; then docs/adding-a-game.md.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
