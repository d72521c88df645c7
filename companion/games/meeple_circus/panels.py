"""What the Meeple Circus screen shows, as Rich renderables built from the state.

Design decisions:

* Rendering is a set of pure functions of ``CircusState`` (no session, no widgets),
  so the screen module keeps only input, time and sound.
* Whatever the board shows too (press order with gaps, verdicts, standings, the
  phase banner's names) is drawn from the view-model (``view.py``): this module
  only lays it out and translates it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.table import Table
from rich.text import Text

from companion.games.meeple_circus import view
from companion.games.meeple_circus.dialogs import SOURCE_SHORT
from companion.games.meeple_circus.music import Music
from companion.games.meeple_circus.rules.state import (
    CHALLENGE_ACTS,
    GUEST_STAR_ACTS,
    SOURCES,
    SPEED_TOKEN_ACTS,
    CircusState,
)
from companion.games.meeple_circus.rules.timing import Attempt
from companion.games.meeple_circus.units import format_length
from companion.hardware.hid import short_id
from companion.i18n import _
from companion.rules.base import Outcome, Player, PlayerId
from companion.rules.names import MAX_NAME_CELLS, fit_name
from companion.widgets.outcome import outcome_sentence

PLAYER_KEYS = ("1", "2", "3", "4", "5")
"""One key per seat: a player's Tadaa! (and their pick in other phases)."""

STATUS_STYLES = {
    "green": "bold green",
    "red": "bold red",
    "yellow": "bold yellow",
    "magenta": "bold magenta",
    "cyan": "bold cyan",
    "dim": "dim",
}
"""Rich styles for the view-model's colour names."""


def name_text(name: str, colour: str | None) -> Text:
    """The player's name after a dot in their ring colour (plain if Rich cannot draw it)."""
    text = Text()
    if colour:
        try:
            text.append("● ", style=Style.parse(colour.strip().lower()))
        except StyleSyntaxError:
            text.append("● ")
    text.append(name)
    return text


def players_table(state: CircusState, keys: Sequence[str] = PLAYER_KEYS) -> Table:
    table = Table(title=_("Players"), expand=True, show_edge=False, pad_edge=False)
    table.add_column(_("Key"), justify="center", no_wrap=True)
    table.add_column(_("Player"), ratio=1)
    table.add_column(_("Act"), justify="right")
    table.add_column(_("Total"), justify="right")
    for row in view.standings(state):
        name = name_text(row.name, row.colour)
        if row.performer:
            name.append(" ▶", style="bold")
        table.add_row(
            Text(f"[{keys[row.seat - 1]}]", style="bold"),
            name,
            row.this_act,
            Text(str(row.total), style="bold"),
        )
    return table


def first_view(state: CircusState) -> Text:
    return Text(
        _(
            "Who saw a circus most recently? That player starts act 1.\n\n"
            "Press that player's key, or r to let the companion pick at random."
        )
    )


def prep_view(state: CircusState) -> Table:
    act = state.act
    assert act is not None
    table = Table(
        title=_("Preparation: one component tile and one program card each"),
        expand=True,
        show_edge=False,
    )
    table.add_column("", width=2)
    table.add_column(_("Player"))
    table.add_column(_("Done"))
    due = state.next_to_prepare()
    for pid in state.preparation_order():
        player = player_of(state, pid)
        done = pid in act.prepared
        mark = "✓" if done else ("▶" if pid == due else "")
        table.add_row(
            mark,
            name_text(fit_name(player.name), player.colour),
            _("done") if done else (_("now") if pid == due else ""),
        )
    return table


def tadaa_table(state: CircusState, with_tokens: bool) -> Table:
    """Counted presses in Tadaa order (gap to the one before), then the rest: the one
    list of the performance's presses (the photo finish above it draws them on a time
    line). Numbers, times and sources never wrap or shorten; the name gives way first,
    then "counts as", which wraps between words (at 80 columns they had read
    ``coun…``, ``±20… ms``)."""
    table = Table(
        title=_("Tadaa! order"),
        expand=True,
        show_edge=False,
        pad_edge=False,
        padding=(0, 0),
        box=box.SIMPLE_HEAD,  # one space between columns (and a rule under the titles)
    )
    rows = view.press_rows(state)

    def widest(title: str, cells: Sequence[str]) -> int:
        return max([cell_len(title), *(cell_len(c) for c in cells)])

    labels = [_(r.label) for r in rows]
    words = [w for label in labels for w in label.split()] or [_("Counts as")]
    # A Chinese label folds between characters: its shortest line is two of them.
    label_min = max(cell_len(w) if w.isascii() else min(cell_len(w), 4) for w in words)
    sources = [source_cell(r) for r in rows]
    gaps = [r.gap + " ⏱" * r.gap_exact for r in rows]
    table.add_column(_("Place"), justify="right", no_wrap=True)
    table.add_column(_("Player"), no_wrap=True, overflow="ellipsis", ratio=1, min_width=6)
    table.add_column(_("Counts as"), min_width=label_min, overflow="fold")
    # The token column once a token is known (an empty one took the names' room).
    with_tokens = with_tokens and any(r.token for r in rows)
    if with_tokens:
        table.add_column(_("Token"), justify="right", no_wrap=True)
    table.add_column(
        _("Time"),
        justify="right",
        no_wrap=True,
        min_width=widest(_("Time"), [r.time for r in rows]),
    )
    table.add_column(_("Gap"), justify="right", no_wrap=True, min_width=widest(_("Gap"), gaps))
    table.add_column(_("Source"), no_wrap=True, min_width=widest(_("Source"), sources))
    table.add_column("#", justify="right", no_wrap=True)
    for row, source in zip(rows, sources, strict=True):
        cells: list[str | Text] = [
            row.place,
            name_text(row.name, row.colour),
            Text(_(row.label), style=STATUS_STYLES[row.style]),
        ]
        if with_tokens:
            cells.append(Text(f"+{row.token}", style="bold") if row.token else "")
        gap = Text(row.gap, style="bold" if row.gap_exact else "")
        if row.gap_exact:
            gap.append(" ⏱", style="dim")
        cells += [row.time, gap, source, str(row.index + 1)]
        table.add_row(*cells)
    return table


def source_cell(row: view.PressRow) -> str:
    """Where a press came from and how sure its time is: ``⌨ ±20.0 ms``,
    ``🔘 A1B2C3/2 ±0.3 ms``."""
    if row.keyboard:
        return f"⌨ {row.uncertainty}"
    if row.device is None:  # a phone
        return f"📱 {row.uncertainty}"
    device = short_id(row.device) if row.device.startswith("hid:") else row.device[-6:]
    return f"🔘 {device}/{row.button} {row.uncertainty}"


def names_list(value: object) -> object:
    """A list of names as the language writes one (``Ann, Bo``; ``安、博``); any other
    value as it is."""
    if isinstance(value, (list, tuple)):
        return _(", ").join(str(v) for v in value)
    return value


def undecided_text(state: CircusState) -> Text:
    text = Text()
    for group in view.settled_ties(state):
        names = {p.id: fit_name(p.name) for p in state.players}
        order = names[group[0].player]
        for press in group[1:]:
            order = _("{first}, then {second}").format(first=order, second=names[press.player])
        if text:
            text.append("\n")
        text.append(_("Settled by the host: {order}.").format(order=order), style="cyan")
    items = view.undecided(state)
    if not items:
        return text
    if text:
        text.append("\n")
    lead = _("The host must decide (t):")
    # No space after a full-width colon (Chinese).
    text.append(lead if lead.endswith("：") else lead + " ", style="bold magenta")
    text.append(
        _("; ").join(
            _(template).format(**{k: names_list(v) for k, v in params.items()})
            for template, params in items
        )
    )
    return text


def act_sources(number: int) -> tuple[str, ...]:
    """The scoring sources an act can have: no speed tokens in act 3, guest stars from
    act 2, challenges only in act 3 (the others would be a column of dashes)."""
    return tuple(
        s
        for s in SOURCES
        if (s != "speed" or number in SPEED_TOKEN_ACTS)
        and (s != "guest_stars" or number in GUEST_STAR_ACTS)
        and (s != "challenges" or number in CHALLENGE_ACTS)
    )


def evaluation_view(
    state: CircusState, keys: Sequence[str] = PLAYER_KEYS, name_cells: int = MAX_NAME_CELLS
) -> Table:
    """The act's evaluations. The key and the name share one column that never wraps
    or shortens, the act's sources only, so 80 columns keep names and numbers (they
    had read "Pla… Dem… Yel…", "● / Ann" on two lines)."""
    act = state.act
    assert act is not None
    sources = act_sources(act.number)
    table = Table(
        title=_("Evaluation of act {n}").format(n=act.number),
        show_edge=False,
        collapse_padding=True,
        # No rules between the columns: their nine cells let Act and Total keep their
        # numbers at 80 columns (Total was cut to "Tot" with no numbers, issue 22).
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column(_("Player"), no_wrap=True)
    for source in sources:
        # A header wraps between words, never inside a Latin word; Chinese wraps
        # between characters (three a line at least).
        header = _(SOURCE_SHORT[source])
        widest = max(
            cell_len(word) if cell_len(word) == len(word) else min(cell_len(word), 6)
            for word in header.split()
        )
        table.add_column(header, justify="right", min_width=widest, overflow="fold")
    table.add_column(_("Act"), justify="right", no_wrap=True)
    table.add_column(_("Total"), justify="right", no_wrap=True)
    totals = state.totals()
    for index, player in enumerate(state.players):
        score = act.score_of(player.id)
        who = Text(f"[{keys[index]}] ")
        who.append_text(name_text(fit_name(player.name, name_cells), player.colour))
        cells: list[str | Text] = [who]
        if score is None:
            token = act.token_of(player.id)
            cells += [(str(token) if token else "—") if s == "speed" else "—" for s in sources]
            cells += [Text(_("to score"), style="italic"), str(totals[player.id])]
        else:
            breakdown = score.breakdown()
            cells += [str(breakdown[s]) for s in sources]
            cells += [
                Text(str(score.total), style="bold"),
                Text(str(totals[player.id]), style="bold"),
            ]
        table.add_row(*cells)
    return table


def end_view(state: CircusState) -> Group:
    act = state.act
    assert act is not None
    summary = Table(title=_("Act {n} is over").format(n=act.number), expand=True, show_edge=False)
    summary.add_column(_("Player"))
    summary.add_column(_("This act"), justify="right")
    summary.add_column(_("Total"), justify="right")
    totals = state.totals()
    for player in state.players:
        score = act.score_of(player.id)
        summary.add_row(
            name_text(fit_name(player.name), player.colour),
            str(score.total if score else 0),
            str(totals[player.id]),
        )
    prompt = Text()
    if act.next_first_player is not None:
        name = player_of(state, act.next_first_player).name
        prompt.append(
            _("{name} has the fewest points and becomes the first player.").format(name=name)
            + "\n",
            style="bold",
        )
        prompt.append(
            _(
                "{name} removes one public demand card from the game and turns up "
                "the next card of that colour. Then press n for act {n}."
            ).format(name=name, n=act.number + 1)
        )
    elif state.pending_pick is not None:
        names = names_list([player_of(state, p).name for p in state.pending_pick.candidates])
        why = (
            _("no birth dates to find the youngest")
            if state.pending_pick.reason == "no-birth-dates"
            else _("same birth date")
        )
        prompt.append(
            _("Tie for the fewest points: {names} ({why}).").format(names=names, why=why) + "\n",
            style="bold magenta",
        )
        prompt.append(_("The host picks the first player: press h or that player's key."))
    return Group(summary, Text(), prompt)


def final_view(state: CircusState, outcome: Outcome | None) -> Group:
    table = Table(title=_("Final standings"), expand=True, show_edge=False)
    table.add_column(_("Rank"), justify="right")
    table.add_column(_("Player"))
    for n in (1, 2, 3):
        table.add_column(_("Act {n}").format(n=n), justify="right")
    table.add_column(_("Total"), justify="right")
    totals = state.totals()
    ranks = outcome.ranks() if outcome else {}
    shared = {r for r in ranks.values() if list(ranks.values()).count(r) > 1}
    for pid in sorted(totals, key=lambda p: (ranks.get(p, 99), state.player_ids().index(p))):
        player = player_of(state, pid)
        rank = ranks.get(pid, 0)
        label = str(rank) + (" " + _("(shared)") if rank in shared else "")
        per_act = []
        for act in state.acts:
            score = act.score_of(pid)
            per_act.append(str(score.total) if score else "0")
        style = "bold reverse" if outcome and pid in outcome.winners else ""
        table.add_row(
            Text(label, style=style),
            name_text(fit_name(player.name), player.colour),
            *per_act,
            Text(str(totals[pid]), style="bold"),
        )
    message = Text(outcome_sentence(state.players, outcome) if outcome else "", style="bold")
    return Group(table, Text(), message)


def phase_pane(state: CircusState, outcome: Outcome | None) -> RenderableType:
    """The pane of every phase but the performance (which has its own widgets)."""
    if state.phase == "first-player":
        return first_view(state)
    if state.phase == "preparation":
        return prep_view(state)
    if state.phase == "evaluation":
        return evaluation_view(state)
    if state.phase == "end":
        return end_view(state)
    return final_view(state, outcome)


def hint(state: CircusState) -> str:
    phase = state.phase
    if phase == "first-player":
        return _("1-5: that player starts · r: random · ctrl+z: undo")
    if phase == "preparation":
        return _("p: the player marked ▶ has taken a tile and a card · m: music · ctrl+z: undo")
    if phase == "performance":
        return _(
            "s: start the music · 1-5: Tadaa! for that player · x: stop early · "
            "a: abort (then s restarts) · v: void a press · t: settle · "
            "f: finish · o: Tadaa! order · m: music"
        )
    if phase == "evaluation":
        return _("1-5 or e: score a player · ctrl+z: undo")
    if phase == "end":
        return _("n: next act · h: host picks the first player on a tie")
    return _("The game is over. ctrl+z: undo the last evaluation")


def player_of(state: CircusState, pid: PlayerId) -> Player:
    return next(p for p in state.players if p.id == pid)


def banner_text(state: CircusState) -> str:
    """The host's phase banner (the names from the view-model)."""
    b = view.banner(state)
    if b.act is None and state.phase == "over":
        return _(b.phase_name)
    text = _("Act {n} · {name} · {phase}").format(
        n=state.act_number, name=_(b.act_name), phase=_(b.phase_name)
    )
    if b.first_player is not None:
        text += "  ·  " + _("first player: {name}").format(name=b.first_player)
    if b.fun_technical:
        text += "  ·  " + _("with Fun and Technical challenges")
    return text


def performance_order(state: CircusState) -> Text:
    """Act 3: who performs, done and now marked; acts 1–2: everyone at once."""
    order = Text()
    if state.act_number != 3 or state.act is None:
        order.append(
            _("Everyone builds at once; the first two Tadaa! take the 2 and 1 speed tokens.")
        )
        return order
    done = len(state.act.performances) - 1
    order.append(_("Performance order: "), style="bold")
    for i, pid in enumerate(state.performance_order()):
        if i:
            order.append("  ·  ")
        name = player_of(state, pid).name
        if i < done:
            order.append(f"✓ {name}", style="dim")
        elif i == done:
            order.append(f"▶ {name}", style="bold reverse")
        else:
            order.append(name)
    return order


def track_line(music: Music, attempt: Attempt | None, titles: dict[str, str], audio: Any) -> Text:
    """What plays (or will) and through which sound output, or why it is silent."""
    title, length = music.title, format_length(music.length_ns)
    if attempt is not None:
        title = titles.get(attempt.track or "", attempt.track or "")
        if title.startswith("countdown:"):
            title = _("plain countdown")
        length = format_length(attempt.length_ns)
    line = Text(
        "♪ " + _("Music: {title} ({length})").format(title=title, length=length), style="bold"
    )
    if getattr(audio, "available", False):
        line.append("  ·  " + _("sound: {name}").format(name=audio.name))
        latency = getattr(audio, "latency_s", None)
        if isinstance(latency, float):
            line.append(", " + _("output latency ≤ {ms} ms").format(ms=round(latency * 1000)))
    else:
        reason = getattr(audio, "reason", "") or _("no sound")
        line.append("  ·  " + _("silent: {reason}").format(reason=reason), style="yellow")
    if attempt is None and music.note:
        line.append("\n" + music.note, style="yellow")
    return line
