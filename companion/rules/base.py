"""Shared types of every rules module: players, errors, outcomes, actions, games.

Design decisions:

* A rules module is pure. It knows no clock, no randomness, no files: times and
  dice arrive *inside actions*, so a session's log replays to the same state forever.
* Errors are values a host can act on. A ``RuleError`` carries an English message
  *template* (marked with ``N_`` so the gettext extractor finds it) and its
  parameters; the UI translates the template and fills it in. ``str(error)`` is the
  English sentence, which is what logs, the CLI and tests read.
* Actions are small frozen dataclasses with a ``type`` tag. Their JSON form is
  derived from their fields (``action_to_json`` / ``Game.parse_action``), so the
  format documented in ``docs/games/<id>.md`` is the dataclass itself.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

PlayerId = str
"""A player's id inside one session: ``"p1"`` … ``"pN"`` in seating order."""


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it (gettext's ``N_``)."""
    return message


# --------------------------------------------------------------------------- errors


class RuleError(ValueError):
    """The rules refuse something. Nothing was changed.

    >>> str(RuleError(N_("{name} already voted on this ballot"), name="Bo"))
    'Bo already voted on this ballot'
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(self.render())

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        """The message, translated by ``gettext`` when one is given; a parameter that is
        itself a sentence (a guide's ``Say``, e.g. a ``listing`` of names) is rendered
        in the same language."""
        params = {
            k: v.render(gettext) if callable(getattr(v, "render", None)) else v
            for k, v in self.params.items()
        }
        text = gettext(self.template) if gettext is not None else self.template
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            # A broken translation must never hide the refusal itself.
            return self.template.format(**params)


class SetupError(RuleError):
    """The players or options cannot start this game (e.g. 4 players in 喵喵咪呀)."""


class BadActionError(RuleError):
    """An action is malformed: unknown type, missing or wrongly typed field."""


class IllegalActionError(RuleError):
    """A well-formed action that the rules do not allow now."""


class NotYourTurnError(IllegalActionError):
    """The action names a player whose turn it is not."""


class GameOverError(IllegalActionError):
    """The game has ended; only undo (and end-of-game entries) are accepted."""


class DataFileError(RuleError):
    """A data file (roster, card set) is invalid; the message names file, entry, field."""


# --------------------------------------------------------------------------- players


@dataclass(frozen=True)
class Player:
    """One seat at the table. ``id`` is stable within the session (``p1``…)."""

    id: PlayerId
    name: str
    colour: str | None = None
    birth_date: str | None = None
    """ISO date ``YYYY-MM-DD`` or None; used by tie-breaks such as "youngest"."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return cls(
            id=str(data["id"]),
            name=str(data["name"]),
            colour=data.get("colour"),
            birth_date=data.get("birth_date"),
        )


def seat_players(
    names: Sequence[str],
    colours: Sequence[str | None] | None = None,
    birth_dates: Sequence[str | None] | None = None,
) -> tuple[Player, ...]:
    """Players in seating order with ids ``p1``… (a convenience for tests and setup)."""
    return tuple(
        Player(
            id=f"p{i + 1}",
            name=name,
            colour=colours[i] if colours else None,
            birth_date=birth_dates[i] if birth_dates else None,
        )
        for i, name in enumerate(names)
    )


def check_player_count(players: Sequence[Player], low: int, high: int) -> None:
    """Raise ``SetupError`` unless ``low <= len(players) <= high`` and names are unique."""
    if not low <= len(players) <= high:
        raise SetupError(
            N_("This game takes {low} to {high} players, not {count}."),
            low=low,
            high=high,
            count=len(players),
        )
    seen: set[str] = set()
    for p in players:
        key = p.name.strip().casefold()
        if not key:
            raise SetupError(N_("A player needs a name."))
        if key in seen:
            raise SetupError(
                N_("Two players are called {name}; give them different names."), name=p.name
            )
        seen.add(key)
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise SetupError(N_("Player ids must be unique."))


def player_by_id(players: Sequence[Player], pid: PlayerId) -> Player:
    """The player with id ``pid``, or a ``BadActionError`` naming the unknown id."""
    for p in players:
        if p.id == pid:
            return p
    raise BadActionError(N_("There is no player {player} in this game."), player=pid)


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """How a game ended: winners (ties share the win) and final scores.

    ``termination`` is a short stable code (``"target-reached"``, ``"smuggles"``…)
    and ``summary`` an English template with ``params`` for the banner. A summary that
    names the winners does so with its ``{names}`` field (``params["names"]``, seat order):
    the end banner fills that field itself and then adds no "Winners:" list of its own.
    ``scores`` may be empty for games without points; ``sides`` maps players to a
    side/role (``"police"``, ``"meowfia"``…) where the game has sides; ``characters``
    maps players to the character card each played where the game deals them (Shadow
    Cats): ``{"id": …, "en": English name, "zh": Chinese name}``, so the history can
    name them in either language without the game's roster.
    """

    termination: str
    winners: tuple[PlayerId, ...]
    scores: Mapping[PlayerId, int | Fraction] = field(default_factory=dict)
    sides: Mapping[PlayerId, str] = field(default_factory=dict)
    summary: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    highest_wins: bool = True
    characters: Mapping[PlayerId, Mapping[str, str]] = field(default_factory=dict)

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        text = gettext(self.summary) if gettext is not None else self.summary
        try:
            return text.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.summary.format(**self.params)

    def ranks(self) -> dict[PlayerId, int]:
        """Competition ranking ("1224") by score; winners always rank 1."""
        if not self.scores:
            return {pid: 1 for pid in self.winners}
        ranks = competition_ranks(self.scores.items(), self.highest_wins)
        for pid in self.winners:
            ranks[pid] = 1
        return ranks

    def to_json(self) -> dict[str, Any]:
        return {
            "termination": self.termination,
            "winners": list(self.winners),
            "scores": {k: _number_to_json(v) for k, v in self.scores.items()},
            "sides": dict(self.sides),
            "summary": self.render(),
            "highest_wins": self.highest_wins,
            # Only where the game has characters: other games' outcome JSON is unchanged.
            **(
                {"characters": {k: dict(v) for k, v in self.characters.items()}}
                if self.characters
                else {}
            ),
        }


def _number_to_json(value: int | Fraction) -> int | float | str:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    return value


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """Base of every game action. Subclasses set ``type`` (the JSON tag).

    Field types that the JSON codec understands: ``int``, ``str``, ``bool``,
    ``Fraction`` (as ``"3/2"`` or an int), ``X | None``, ``tuple[X, ...]`` and
    nested ``Action``-free frozen dataclasses (as objects).
    """

    type: ClassVar[str] = ""


A = TypeVar("A", bound=Action)


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": ..., field: value, ...}`` — the stable JSON form of an action."""
    out: dict[str, Any] = {"type": action.type}
    for f in dataclasses.fields(action):
        out[f.name] = _value_to_json(getattr(action, f.name))
    return out


def _value_to_json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return _number_to_json(value)
    if isinstance(value, tuple):
        return [_value_to_json(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _value_to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def action_from_json(action_types: Mapping[str, type[Action]], data: Any) -> Action:
    """Build an action from its JSON form, or raise ``BadActionError`` saying why."""
    if not isinstance(data, Mapping):
        raise BadActionError(
            N_("An action must be a JSON object, not {kind}."), kind=type(data).__name__
        )
    tag = data.get("type")
    cls = action_types.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise BadActionError(N_("Unknown action type {type!r}."), type=tag)
    action: Action = _build(cls, data, str(tag))
    return action


_Schema = tuple[dict[str, Any], tuple[dataclasses.Field[Any], ...], frozenset[str]]
_SCHEMAS: dict[type[Any], _Schema] = {}


def _schema(cls: type[Any]) -> _Schema:
    """Resolved field types of a dataclass, its fields and the keys its JSON may have
    (cached: resolving them is slow)."""
    if cls not in _SCHEMAS:
        fields = dataclasses.fields(cls)
        keys = frozenset(f.name for f in fields) | {"type"}
        _SCHEMAS[cls] = (typing.get_type_hints(cls), fields, keys)
    return _SCHEMAS[cls]


def _build(cls: type[Any], data: Mapping[str, Any], where: str) -> Any:
    hints, fields, keys = _schema(cls)
    kwargs: dict[str, Any] = {}
    extra = set(data) - keys
    if extra:
        raise BadActionError(
            N_("{where}: unknown field {field!r}."), where=where, field=sorted(extra)[0]
        )
    for f in fields:
        if f.name in data:
            kwargs[f.name] = _convert(hints[f.name], data[f.name], f"{where}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise BadActionError(N_("{where}: missing field {field!r}."), where=where, field=f.name)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise BadActionError(N_("{where}: {problem}"), where=where, problem=str(exc)) from exc


_PLAIN: dict[Any, type] = {str: str, int: int, bool: bool}
"""The field types most actions are made of, checked before asking ``typing`` (a replay
converts every field of every action: 450,000 at a club's 10,000 sessions)."""


def _convert(hint: Any, value: Any, where: str) -> Any:
    plain = _PLAIN.get(hint)
    if plain is not None and type(value) is plain:
        return value  # exactly the type: a bool is not taken for an int, nor an int for a bool
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors: list[BadActionError] = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _convert(option, value, where)
            except BadActionError as exc:
                errors.append(exc)
        raise errors[0] if errors else BadActionError(N_("{where}: bad value."), where=where)
    if origin is typing.Literal:
        if value in typing.get_args(hint):
            return value
        raise BadActionError(
            N_("{where}: {value!r} is not one of {choices}."),
            where=where,
            value=value,
            choices=", ".join(map(str, typing.get_args(hint))),
        )
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise BadActionError(N_("{where}: expected a list."), where=where)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise BadActionError(N_("{where}: expected {n} items."), where=where, n=len(args))
        pairs = enumerate(zip(args, value, strict=True))
        return tuple(_convert(a, v, f"{where}[{i}]") for i, (a, v) in pairs)
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise BadActionError(N_("{where}: expected true or false."), where=where)
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise BadActionError(N_("{where}: expected a whole number."), where=where)
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise BadActionError(N_("{where}: expected a number."), where=where)
    if hint is str:
        if isinstance(value, str):
            return value
        raise BadActionError(N_("{where}: expected text."), where=where)
    if hint is Fraction:
        try:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ValueError
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise BadActionError(
                N_('{where}: expected a number like 3 or "3/2".'), where=where
            ) from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            raise BadActionError(N_("{where}: expected an object."), where=where)
        return _build(hint, value, where)
    if isinstance(hint, type) and issubclass(hint, str) and isinstance(value, str):
        return hint(value)  # str-based enums
    raise BadActionError(N_("{where}: unsupported value {value!r}."), where=where, value=value)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionSpec:
    """One session option a game accepts (shown on the new-session form)."""

    name: str
    label: str
    """English label, marked with ``N_`` for translation."""
    kind: type[bool] | type[int] | type[str]
    default: bool | int | str | None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""


def check_options(specs: Sequence[OptionSpec], options: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``options`` against ``specs``; return them complete with defaults."""
    known = {s.name: s for s in specs}
    for name in options:
        if name not in known:
            raise SetupError(N_("Unknown option {name!r}."), name=name)
    out: dict[str, Any] = {}
    for spec in specs:
        value = options.get(spec.name, spec.default)
        if value is None:
            out[spec.name] = None
            continue
        if spec.kind is bool and not isinstance(value, bool):
            raise SetupError(N_("Option {name} must be true or false."), name=spec.name)
        if spec.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise SetupError(N_("Option {name} must be a whole number."), name=spec.name)
            if spec.minimum is not None and value < spec.minimum:
                raise SetupError(
                    N_("Option {name} must be at least {minimum}."),
                    name=spec.name,
                    minimum=spec.minimum,
                )
            if spec.maximum is not None and value > spec.maximum:
                raise SetupError(
                    N_("Option {name} must be at most {maximum}."),
                    name=spec.name,
                    maximum=spec.maximum,
                )
        if spec.kind is str:
            if not isinstance(value, str):
                raise SetupError(N_("Option {name} must be text."), name=spec.name)
            if spec.choices and value not in spec.choices:
                raise SetupError(
                    N_("Option {name} must be one of {choices}."),
                    name=spec.name,
                    choices=", ".join(spec.choices),
                )
        out[spec.name] = value
    return out


# --------------------------------------------------------------------------- games

S = TypeVar("S")


class Game(ABC, Generic[S]):
    """The surface every rules module offers, the same for every game.

    Subclasses are stateless; one instance per game lives in the registry.
    """

    id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    action_types: ClassVar[Mapping[str, type[Action]]]
    highest_wins: ClassVar[bool] = True

    @abstractmethod
    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> S:
        """The initial state, or ``SetupError``. ``options`` are already complete."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> S:
        """The state after ``action``, or a ``RuleError`` (and no change)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` while the game runs; else winners and final scores."""

    legacy_options: ClassVar[Mapping[str, Any]] = {}
    """Options added after sessions were stored without them, each with the value that
    keeps the behaviour those sessions were played with (``stored_options``)."""

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return check_options(self.options, options)

    def stored_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options of a *stored* session (resume, replay, import, history), complete.

        Every session is stored with its options complete, so an option missing from
        a stored session was added by a later version: it takes its ``legacy_options``
        value, and an old log replays exactly as it was played. A new session (no
        stored options yet) takes the defaults (``check_options``)."""
        return check_options(self.options, {**self.legacy_options, **options})

    def parse_action(self, data: Any) -> Action:
        return action_from_json(self.action_types, data)

    def scores(self, state: S) -> Mapping[PlayerId, int | Fraction]:
        """Current scores for history charts (per round/act); empty if none."""
        return {}

    def progress_label(self, state: S) -> str:
        """A short English label of where the game is (round 3, act 2 …) for history."""
        return ""


def action_types_of(*classes: type[A]) -> dict[str, type[A]]:
    """``{cls.type: cls}`` for the given action classes, checking tags are unique."""
    out: dict[str, type[A]] = {}
    for cls in classes:
        if not cls.type or cls.type in out:
            raise TypeError(f"action tag missing or duplicated: {cls.__name__}")
        out[cls.type] = cls
    return out


_K = TypeVar("_K")


def competition_ranks(
    scores: Iterable[tuple[_K, int | float | Fraction]], highest_wins: bool = True
) -> dict[_K, int]:
    """ "1224" ranks by score: equal scores share a rank and the next rank skips."""
    ordered = sorted(scores, key=lambda kv: kv[1], reverse=highest_wins)
    ranks: dict[_K, int] = {}
    previous: int | float | Fraction | None = None
    rank = 0
    for index, (key, score) in enumerate(ordered, start=1):
        if score != previous:
            rank, previous = index, score
        ranks[key] = rank
    return ranks
