"""Editing keys typed in a burst apply in key order (issue 13, item 3: no lost key).

Found on the tmux tour (docs/tour/scorepad.md): in the score pad's points dialog,
``send-keys BSpace BSpace BSpace 7 Enter`` over "abc" submitted "abc7" and left "a"
in the field. Textual's ``Input`` inserts letters at once but runs backspace, the
arrows, home/end … as bindings only after the key bubbled to the app (Textual
#6605), so the letter typed after them was in first. Failed before ``TextInput``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events
from textual.app import App, ComposeResult

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import PromptDialog
from companion.widgets.text_input import TextInput

KEYS = {"backspace": "\x7f", "enter": "\r", "left": None, "right": None, "home": None, "end": None}


class OneField(App[None]):
    def compose(self) -> ComposeResult:
        yield TextInput(id="field")


def edit(value: str, keys: list[str]) -> str:
    """What a person expects: the keys applied one after the other."""
    text, cursor = value, len(value)
    for key in keys:
        if key == "backspace":
            if cursor:
                text, cursor = text[: cursor - 1] + text[cursor:], cursor - 1
        elif key == "left":
            cursor = max(0, cursor - 1)
        elif key == "right":
            cursor = min(len(text), cursor + 1)
        elif key == "home":
            cursor = 0
        elif key == "end":
            cursor = len(text)
        else:
            text, cursor = text[:cursor] + key + text[cursor:], cursor + 1
    return text


async def burst(app: App[None], pilot, keys: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Post every key before any is handled, as a terminal delivers a burst."""
    for key in keys:
        app.post_message(events.Key(key, KEYS.get(key, key)))
    for _ in range(10):
        await pilot.pause()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(["backspace", "left", "right", "home", "end", "1", "2", "a"]),
        min_size=1,
        max_size=8,
    )
)
async def test_a_burst_edits_the_field_in_key_order(keys: list[str]) -> None:
    app = OneField()
    async with app.run_test() as pilot:
        field = app.query_one(TextInput)
        field.value = "123"
        field.cursor_position = 3
        await pilot.pause()
        await burst(app, pilot, keys)
        assert field.value == edit("123", keys)


async def test_a_corrected_score_is_the_number_typed(tmp_path: Path) -> None:
    """The tour's keys: "12" BSpace "3" Enter in the points dialog scores 13, not 12/123."""
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", ["Ann", "Bo"], {})
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)
        await burst(app, pilot, ["1", "2", "backspace", "3", "enter"])
        await app.settle()
        assert [e.payload["points"] for e in live.entries] == [13]


def test_every_text_field_of_the_app_is_a_text_input() -> None:
    """A bare Textual ``Input`` anywhere would bring the reordering back."""
    import ast

    import companion

    root = Path(companion.__file__).parent
    bare = [
        f"{path.relative_to(root)}:{node.lineno}"
        for path in sorted(root.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Input"
        )
        or (
            isinstance(node, ast.ClassDef)
            and any(isinstance(b, ast.Name) and b.id == "Input" for b in node.bases)
            and node.name != "TextInput"
        )
    ]
    assert bare == []
