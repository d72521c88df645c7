"""The host guide: what every generic consumer asks a game, so none re-derives it.

Design decisions:

* A guide is pure, like the rules: a function of the state (and of an action for
  ``describe``). Screens, the board, the log panel, history and exports ask it instead
  of keeping their own table of keys per phase or guessing from JSON keys.
* ``allowed(state)`` is data (the set of action type tags legal now), in the manner of
  boardgame.io's moves per phase. The property every game's tests check: ``apply``
  accepts an action only if its type is allowed, and refuses every other type.
* Sentences are ``Say`` values: an English template marked with ``N_`` and its
  parameters, translated where they are shown (rules stay free of gettext).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Literal, TypeVar

from companion.rules.base import N_, Action, PlayerId, RuleError

S = TypeVar("S")


@dataclass(frozen=True)
class Say:
    """A sentence for the host: an English ``template`` and its ``params``.

    >>> Say("{name} rolls {dice}", {"name": "Bo", "dice": "3 5"}).render()
    'Bo rolls 3 5'
    """

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        params = {k: v.render(gettext) if isinstance(v, Say) else v for k, v in self.params.items()}
        text = gettext(self.template) if gettext is not None else self.template
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            # A broken translation must never hide the sentence itself.
            return self.template.format(**params)


def say(template: str, **params: Any) -> Say:
    """``Say(template, params)`` with keyword parameters."""
    return Say(template, params)


def accepted(
    apply: Callable[[Any, Action], Any],
    state: Any,
    candidates: Iterable[tuple[Mapping[str, Any], Action]],
) -> tuple[Mapping[str, Any], ...]:
    """The fields of each candidate action ``apply`` accepts in ``state`` (a dry run:
    the state is immutable), in order: how a guide lists a dialog's items exactly."""
    out = []
    for fields, action in candidates:
        try:
            apply(state, action)
        except RuleError:
            continue
        out.append(fields)
    return tuple(out)


def listing(parts: Sequence[Any]) -> Say:
    """Several values (``Say`` or text) as one list in the shown language's punctuation:
    ``Ann +2, Bo +1`` in English, ``茜 +2、安 +1`` in Chinese (a chain of
    ``"{first}, {then}"``, which the zh catalog writes with the enumeration comma; an
    ASCII ", " inside Chinese was a language leak).

    >>> listing(["Ann", "Bo", "Cy"]).render()
    'Ann, Bo, Cy'
    """
    if not parts:
        return Say("")
    chained: Any = parts[0]
    for part in parts[1:]:
        chained = Say(N_("{first}, {then}"), {"first": chained, "then": part})
    return chained if isinstance(chained, Say) else Say("{p0}", {"p0": chained})


class Termination(StrEnum):
    """Base of every game's ``Termination`` enum (how a game ended).

    Members are strings, so the stored and exported form (``"target-reached"``) is the
    member's value and older logs read unchanged. Each game's subclass documents every
    member with a docstring (as python-chess does).
    """


def member_docs(enum: type[Termination]) -> dict[str, str]:
    """Each member's docstring (the string literal under it), read from the source.

    Python keeps no runtime docstring per enum member; the docs and the registry test
    read them here so that every termination is explained where it is defined.
    """
    import ast
    import inspect
    import itertools
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(enum)))
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.targets[0].id] = inspect.cleandoc(after.value.value)
    return docs


def _last_state_memo(owner: type, name: str, compute: Callable[[Any, Any], Any]) -> Any:
    """``compute(self, state)``, remembered for the last ``state`` asked (by identity)."""
    slot = (owner, name)

    def remembered(self: Any, state: Any) -> Any:
        memo: dict[tuple[type, str], tuple[Any, Any]] = self.__dict__.setdefault("_memo", {})
        last = memo.get(slot)
        if last is not None and last[0] is state:
            return last[1]
        answer = compute(self, state)
        memo[slot] = (state, answer)
        return answer

    remembered.__name__ = name
    remembered.__qualname__ = f"{owner.__qualname__}.{name}"
    remembered.__doc__ = compute.__doc__
    return remembered


def _uncached(owner: type, name: str) -> Callable[[Any, Any], Any]:
    """Calls ``owner._<name>_uncached`` as it is when called (a test may count it)."""

    def compute(self: Any, state: Any) -> Any:
        return getattr(owner, f"_{name}_uncached")(self, state)

    compute.__doc__ = getattr(owner, f"_{name}_uncached").__doc__
    return compute


class Guide(ABC, Generic[S]):
    """The host guide of one game. Subclasses are stateless; one instance per game.

    ``allowed`` and ``prompt`` are remembered for the last state asked (states are
    immutable, so the same object has the same answer): one key's re-render asks the
    guide from the screen, its view-model, the footer's ``check_action`` and the help
    several times for the same state (issue 26). Each game's own code runs once per
    state; it stays reachable as ``_allowed_uncached`` / ``_prompt_uncached``.
    """

    MEMO: ClassVar[tuple[str, ...]] = ("allowed", "prompt")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in Guide.MEMO:
            compute = cls.__dict__.get(name)
            if compute is None or getattr(compute, "__isabstractmethod__", False):
                continue
            setattr(cls, f"_{name}_uncached", compute)
            setattr(cls, name, _last_state_memo(cls, name, _uncached(cls, name)))

    summary: ClassVar[str] = ""
    """The rules on one screen (English, marked with ``N_``), shown by ``?`` / F1."""

    start_player_entries: ClassVar[tuple[tuple[str, str], ...]] = ()
    """(action type, field) of the log entries naming the start player, for the
    history's query, which reads thousands of sessions without replaying them; it
    must agree with ``start_player(state)`` (each game's tests check both)."""
    start_player_from: ClassVar[Literal["first", "last"]] = "first"
    """Which of those entries still in effect counts: the first (Meeple Circus names
    a first player every act) or the last (a draft dealt again, a choice changed)."""

    @abstractmethod
    def phase(self, state: S) -> str:
        """A stable id of the current phase (``"roll"``, ``"ballot"``, ``"over"``…)."""

    @abstractmethod
    def allowed(self, state: S) -> frozenset[str]:
        """The action type tags the rules accept now (undo/redo are not actions)."""

    @abstractmethod
    def prompt(self, state: S) -> Say:
        """What the host should do next, as one sentence."""

    @abstractmethod
    def describe(self, action: Action, before: S, after: S) -> Say:
        """A sentence for the log, the history and the board."""

    def turn(self, state: S) -> PlayerId | None:
        """Who acts now, or ``None`` when it is everyone or no one."""
        return None

    def start_player(self, state: S) -> PlayerId | None:
        """The player who started the game (for history and exports), if the game has one."""
        return None

    def title(self, options: Mapping[str, Any]) -> str | None:
        """A name the host gave this session's game (the score pad's "Carcassonne"),
        shown in history and exports instead of the game's own name; None if none."""
        return None

    def choices(self, state: S, action_type: str) -> tuple[Mapping[str, Any], ...]:
        """What a dialog for ``action_type`` may offer now: each item the action's fields
        the host picks from a list (a player, a card, a counter's value), without the
        fields typed afterwards (a reason). Every item is one ``apply`` accepts (with any
        reason), so a dialog never offers what the rules then refuse; ``()`` when the
        type is not allowed, or the game offers no list for it."""
        return ()

    def confirm(self, state: S, action_type: str) -> Say | None:
        """A question to ask the host before an allowed action that the rules text puts
        later ("Only Bob has been questioned; open a building now?"), or None to go on.
        The action stays legal (tables skip steps); the screen asks, the host decides."""
        return None

    def why_not(self, state: S, action_type: str) -> Say:
        """Why ``action_type`` is not allowed now (the screen shows it, never silence)."""
        return Say(N_("Not now. {prompt}"), {"prompt": self.prompt(state)})
