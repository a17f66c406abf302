"""Vaalbara as a picture (SVG) for the replay viewer: the two land rows, the land deck and the
Omens, then one band per clan (VP, hand, pick, clan deck, played characters, realm).

A seat's picture is drawn from ``game.view(seat)`` alone (the view its observation encodes),
so it shows only what that seat knows; ``seat=None`` draws the whole state, with the faces
some seats cannot see outlined dashed. Both go through one plain record, :class:`Table`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.svg import INK, MUTED, Canvas
from tabletop_envs.vaalbara.spec import (
    CLANS,
    EMPTY,
    LAND_CARDS,
    LAND_KINDS,
    ROUNDS,
    TYPE_BONUS,
    Character,
    Decision,
    LandKind,
    cards_in,
    omen_order,
)

if TYPE_CHECKING:
    from tabletop_envs.core.game import GameCore

WIDTH = 1100
TOP = 292
"""Where the first clan's band starts."""
BAND = 128
CHARACTER_SIZE = (62, 74)
LAND_SIZE = (68, 84)
LAND_GAP = 6
CLAN_COLOURS = ("#2f6fd0", "#8447b0", "#c99a00", "#c8372d", "#2e9a50")
CLAN_TINTS = ("#e6eefb", "#f0e8f6", "#fbf3d8", "#fae6e4", "#e3f3e8")
LAND_COLOURS = {
    "Meadow": "#bfe3a1",
    "Field": "#f2d66b",
    "Forest": "#5f9c5a",
    "Village": "#d9a27c",
    "Mountain": "#b5b5b5",
    "River": "#8cc3ea",
}
ASKS = {
    Decision.SELECT: "pick a character",
    Decision.FIGHTER: "show a Fighter for +1 VP?",
    Decision.BARD: "Bard: who gains 2 VP",
    Decision.TRACKER: "Tracker: swap a land with the deck's top",
    Decision.MIDWIFE: "Midwife: take back a character",
    Decision.RIDER_FIRST: "Rider: a land of row 1",
    Decision.RIDER_SECOND: "Rider: swap it with row 2",
    Decision.PIONEER: "Pioneer: give up a land",
    Decision.TAKE_LAND: "take a land from row 1",
}
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


@dataclass
class Clan:
    """What the picture shows of one seat; ``None`` where the viewer cannot know it."""

    seat: int
    vp: int | None
    hand: list[int] | None
    """The characters in hand, or ``None`` when only the count is known."""
    hand_size: int
    deck_size: int
    pick: int | None
    """The pick's face when the viewer sees it."""
    picked: bool
    pick_secret: bool
    """Whether the pick is face down on the table (the face, if shown, is a secret)."""
    known: list[int]
    played: list[int]
    realm: list[int]
    """How many lands of each kind."""
    position: int | None
    done: bool


@dataclass
class Table:
    """Everything one picture shows, from one seat's view or from the whole state."""

    viewer: int | None
    round: int
    decision: int | None
    decider: int | None
    clans: list[Clan]
    rows: list[list[int | None]]
    omens: list[int]
    deck_size: int
    deck_top: int | None
    deck_top_secret: bool
    deck_bottom: int | None
    rider_slot: int | None
    values: list[list[int | None]] = field(default_factory=list)


def draw(game: GameCore, seat: int | None) -> str:
    """One picture of the table: everything (``seat=None``) or what ``seat`` knows."""
    if seat is None:
        return draw_table(table_of_state(game))
    return draw_table(table_of_view(game.view(seat), seat))


# ----- the record, from a seat's view or from the state ---------------------------------------
def _ones(vector: Any) -> list[int]:
    return [int(i) for i in np.flatnonzero(np.asarray(vector))]


def _one(vector: Any) -> int | None:
    found = _ones(vector)
    return found[0] if found else None


def _row_kinds(field_value: Any, n: int) -> list[int | None]:
    return [_one(field_value[slot]) for slot in range(n)]


def table_of_view(view: dict[str, Any], viewer: int) -> Table:
    """The table as ``viewer`` knows it: its view's relative seats put back in seat order."""
    n = _one(view["players"]) + 2
    relative = [(seat - viewer) % n for seat in range(n)]
    decider = _one(view["decider"])
    clans = [_clan_of_view(view, seat, r, seat == viewer) for seat, r in enumerate(relative)]
    return Table(
        viewer=viewer,
        round=_one(view["round"]),
        decision=_one(view["decision"]),
        decider=None if decider is None else (viewer + decider) % n,
        clans=clans,
        rows=[_row_kinds(view["row1"], n), _row_kinds(view["row2"], n)],
        omens=[(viewer + _ones(ranks)[0]) % n for ranks in _by_rank(view["omen_ranks"], n)],
        deck_size=int(view["land_deck_size"][0]),
        deck_top=_one(view["deck_top_known"]),
        deck_top_secret=False,
        deck_bottom=_one(view["deck_bottom_known"]),
        rider_slot=_one(view["rider_slot"]),
        values=[[int(v) for v in view["land_values"][row][:n]] for row in range(2)],
    )


def _by_rank(omen_ranks: Any, n: int) -> list[Any]:
    """Columns of ``omen_ranks`` (relative seat x rank): for each rank, the seat holding it."""
    return [omen_ranks[:n, rank] for rank in range(n)]


def _clan_of_view(view: dict[str, Any], seat: int, r: int, own: bool) -> Clan:
    revealed = _one(view["revealed_picks"][r])
    position = _one(view["turn_position"][r])
    picked = bool(view["picked"][r])
    pick = _one(view["my_pick"]) if own else revealed
    realm = [int(count) for count in view["realms"][r]]
    return Clan(
        seat=seat,
        vp=int(view["my_vp"][0]) if own else None,
        hand=_ones(view["hand"]) if own else None,
        hand_size=int(view["hand_sizes"][r]),
        deck_size=int(view["clan_deck_sizes"][r]),
        pick=pick,
        picked=picked,
        pick_secret=picked and revealed is None,
        known=_ones(view["known_in_hand"][r]),
        played=_ones(view["discards"][r]),
        realm=realm,
        position=position,
        done=bool(view["done"][r]),
    )


def table_of_state(game: Any) -> Table:
    """The whole table: every hand, pick, VP and the next land card."""
    n = game.num_players
    over = game.is_terminal
    return Table(
        viewer=None,
        round=game.round,
        decision=None if over else game.decision,
        decider=None if over else game.decider,
        clans=[_clan_of_state(game, seat) for seat in range(n)],
        rows=[
            [None if card == EMPTY else LAND_CARDS[card][0] for card in row] for row in game.rows
        ],
        omens=omen_order(game.top_back(), n),
        deck_size=len(game.land_deck),
        deck_top=LAND_CARDS[game.land_deck[-1]][0],
        deck_top_secret=not game.deck_known[-1],
        deck_bottom=LAND_CARDS[game.land_deck[0]][0] if game.deck_known[0] else None,
        rider_slot=None if game.rider_slot == EMPTY else game.rider_slot,
    )


def _clan_of_state(game: Any, seat: int) -> Clan:
    pick = game.picks[seat]
    realm = [0] * LAND_KINDS
    for card in game.realms[seat]:
        realm[LAND_CARDS[card][0]] += 1
    position = game.turn_order.index(seat) if game.revealed else None
    return Clan(
        seat=seat,
        vp=game.vp[seat],
        hand=cards_in(game.hands[seat]),
        hand_size=game.hands[seat].bit_count(),
        deck_size=len(game.clan_decks[seat]),
        pick=None if pick == EMPTY else pick,
        picked=pick != EMPTY,
        pick_secret=pick != EMPTY and not game.revealed,
        known=cards_in(game.known_in_hand[seat]),
        played=cards_in(game.discards[seat]),
        realm=realm,
        position=position,
        done=position is not None and position < game.turn,
    )


# ----- drawing --------------------------------------------------------------------------------
def draw_table(table: Table) -> str:
    n = len(table.clans)
    canvas = Canvas(WIDTH, TOP + n * BAND + 8, title=_title(table))
    _header(canvas, table)
    _lands(canvas, table)
    for index, clan in enumerate(table.clans):
        _band(canvas, table, clan, TOP + index * BAND)
    return canvas.to_svg()


def _title(table: Table) -> str:
    who = "everything" if table.viewer is None else f"{_name(table.viewer)}'s view"
    return f"Vaalbara, round {table.round + 1} of {ROUNDS}: {who}"


def _name(seat: int) -> str:
    return f"player_{seat} ({CLANS[seat]})"


def _header(canvas: Canvas, table: Table) -> None:
    canvas.text(20, 30, f"Vaalbara · round {table.round + 1} of {ROUNDS}", size=20, bold=True)
    if table.viewer is None:
        seen = "everything (dashed cards are hidden from the other players)"
    else:
        seen = f"seen by {_name(table.viewer)}"
    canvas.text(WIDTH - 20, 30, seen, size=13, anchor="end", fill=MUTED)
    canvas.text(20, 56, _status(table), size=14, bold=True)


def _status(table: Table) -> str:
    if table.decision is not None:
        return f"To decide: {_name(table.decider)}: {ASKS[Decision(table.decision)]}"
    if table.viewer is not None:
        own = _score(table.clans[table.viewer])
        return f"Game over: your score is {own} (the other clans' VP stay hidden)"
    scores = [_score(clan) for clan in table.clans]
    best = max(scores)
    winner = next(seat for seat in table.omens if scores[seat] == best)  # ties: best Omen
    return f"Game over: {_name(winner)} wins with {best} points"


def _bonus(clan: Clan) -> int:
    """The end-of-game bonus for the land types in the realm."""
    return TYPE_BONUS.get(sum(count > 0 for count in _types(clan.realm)), 0)


def _score(clan: Clan) -> int:
    return clan.vp + _bonus(clan)


def _lands(canvas: Canvas, table: Table) -> None:
    step = LAND_SIZE[0] + LAND_GAP
    row_width = max(len(table.clans), 4) * step + 24
    labels = ("Row 1: taken this round", "Row 2: row 1 next round")
    for row, kinds in enumerate(table.rows):
        x0 = 20 + row * row_width
        canvas.text(x0, 86, labels[row], size=12, bold=True)
        for slot, kind in enumerate(kinds):
            value = table.values[row][slot] if table.values and kind is not None else None
            rider = row == 0 and slot == table.rider_slot
            _land(canvas, x0 + slot * step, 96, kind, f"row/{row}/{slot}", value, rider)
    if table.values:
        canvas.text(20, 212, "+VP: what the land would score you now", size=11, fill=MUTED)
    _deck(canvas, table, 20 + 2 * row_width)
    _omens(canvas, table)


def _land(
    canvas: Canvas,
    x: float,
    y: float,
    kind: int | None,
    slot: str,
    value: int | None,
    rider: bool = False,
    seen_by: tuple[int, ...] | None = None,
) -> None:
    width, height = LAND_SIZE
    if kind is None:
        canvas.rect(x, y, width, height, fill="none", stroke=MUTED, dashed=True)
        canvas.text(x + width / 2, y + height / 2 + 4, "taken", size=11, anchor="middle")
        return
    name = LandKind(kind).title
    colour = LAND_COLOURS[name.split()[0]]
    detail = name.split()[1] if " " in name else ""
    canvas.card(
        x,
        y,
        name,
        detail=detail,
        width=width,
        height=height,
        fill=colour,
        slot=slot,
        seen_by=seen_by,
    )
    if value is not None:
        canvas.text(x + width / 2, y + height + 14, f"+{value} VP", size=12, anchor="middle")
    if rider:
        canvas.badge(x + 4, y + height - 40, "Rider", fill=INK, ink="#fff")


def _deck(canvas: Canvas, table: Table, x: float) -> None:
    width, height = LAND_SIZE
    canvas.text(x, 86, "Land deck", size=12, bold=True)
    canvas.pile(x, 96, table.deck_size, "cards left", width=width, height=height)
    face_x = x + width + 14
    if table.deck_top is not None:
        seen_by = () if table.deck_top_secret else None
        canvas.text(face_x, 86, "top", size=12, bold=True)
        _land(canvas, face_x, 96, table.deck_top, "deck/top", None, seen_by=seen_by)
    if table.deck_bottom is not None:
        canvas.text(face_x + width + 8, 86, "bottom", size=12, bold=True)
        _land(canvas, face_x + width + 8, 96, table.deck_bottom, "deck/bottom", None)


def _omens(canvas: Canvas, table: Table) -> None:
    y = 224
    canvas.text(20, y + 14, "Omens on the top land card (best first):", size=13)
    x = 290
    for rank, seat in enumerate(table.omens):
        x += (
            canvas.badge(
                x, y, f"{rank + 1}. {CLANS[seat]}", fill=CLAN_COLOURS[seat], ink="#fff", size=12
            )
            + 6
        )
    order = [clan for clan in table.clans if clan.position is not None]
    if order:
        order.sort(key=lambda clan: clan.position)
        words = " > ".join(f"{CLANS[c.seat]} ({c.pick + 1})" for c in order if c.pick is not None)
        canvas.text(20, y + 44, f"Turn order this round: {words}", size=13)
    else:
        canvas.text(20, y + 44, "Assignment: each clan picks a character face down", size=13)


def _band(canvas: Canvas, table: Table, clan: Clan, y: float) -> None:
    seat = clan.seat
    deciding = seat == table.decider
    canvas.rect(
        10,
        y,
        WIDTH - 20,
        BAND - 8,
        fill=CLAN_TINTS[seat],
        stroke=INK if deciding else "none",
        data={"seat": seat},
    )
    canvas.rect(10, y, 8, BAND - 8, fill=CLAN_COLOURS[seat], stroke="none", radius=2)
    canvas.text(28, y + 20, _name(seat), size=14, bold=True, fill=CLAN_COLOURS[seat])
    x = 210
    x += canvas.badge(x, y + 6, _vp_words(table, clan), fill="#fff", size=12) + 8
    for note in _notes(table, clan):
        x += (
            canvas.badge(
                x,
                y + 6,
                note,
                fill=INK if note == "deciding" else "#fff",
                ink="#fff" if note == "deciding" else INK,
                size=12,
            )
            + 8
        )
    _hand(canvas, table, clan, y + 34)
    _pick(canvas, table, clan, 372, y + 34)
    canvas.pile(452, y + 34, clan.deck_size, "clan deck", width=46, height=60)
    _played(canvas, clan, 516, y + 6)
    _realm(canvas, clan, 770, y + 6)


def _vp_words(table: Table, clan: Clan) -> str:
    if clan.vp is None:
        return "VP hidden"
    bonus = _bonus(clan)
    if table.decision is None:
        return f"{clan.vp + bonus} points (VP {clan.vp} + {bonus} for land types)"
    return f"VP {clan.vp}" + (f" (+{bonus} for land types at the end)" if bonus else "")


def _notes(table: Table, clan: Clan) -> list[str]:
    notes = []
    if clan.seat == table.decider:
        notes.append("deciding")
    if clan.position is not None:
        notes.append("done" if clan.done else f"plays {ORDINALS[clan.position]}")
    return notes


def _hand(canvas: Canvas, table: Table, clan: Clan, y: float) -> None:
    width, height = CHARACTER_SIZE
    canvas.text(28, y + height + 14, f"hand: {clan.hand_size}", size=11)
    if clan.hand is None:
        for index in range(clan.hand_size):
            canvas.card_back(
                28 + index * (width + 4),
                y,
                width=width,
                height=height,
                slot=f"hand/{clan.seat}/{index}",
            )
        if clan.known:
            known = ", ".join(Character(card).title for card in clan.known)
            canvas.text(100, y + height + 14, f"known to hold: {known}", size=11)
        return
    for index, card in enumerate(clan.hand):
        secret = None if card in clan.known or table.viewer is not None else (clan.seat,)
        _character(canvas, 28 + index * (width + 4), y, card, f"hand/{clan.seat}/{index}", secret)


def _character(
    canvas: Canvas, x: float, y: float, card: int, slot: str, seen_by: tuple[int, ...] | None
) -> None:
    width, height = CHARACTER_SIZE
    canvas.card(
        x,
        y,
        Character(card).title,
        detail=str(card + 1),
        width=width,
        height=height,
        slot=slot,
        seen_by=seen_by,
    )


def _pick(canvas: Canvas, table: Table, clan: Clan, x: float, y: float) -> None:
    width, height = CHARACTER_SIZE
    canvas.text(x + width / 2, y + height + 14, "pick", size=11, anchor="middle")
    slot = f"pick/{clan.seat}"
    if not clan.picked:
        canvas.rect(x, y, width, height, fill="none", stroke=MUTED, dashed=True)
    elif clan.pick is None:
        canvas.card_back(x, y, width=width, height=height, slot=slot)
    else:
        secret = (clan.seat,) if clan.pick_secret and table.viewer is None else None
        _character(canvas, x, y, clan.pick, slot, secret)


def _played(canvas: Canvas, clan: Clan, x: float, y: float) -> None:
    canvas.text(x, y + 12, "played", size=12, bold=True)
    left, top = x, y + 18
    for card in clan.played:
        words = f"{card + 1} {Character(card).title}"
        width = 0.62 * 11 * len(words) + 10
        if left + width > x + 246:
            left, top = x, top + 21
        canvas.badge(left, top, words, size=11)
        left += width + 3


def _types(realm: list[int]) -> list[int]:
    """Land counts per type from counts per kind (the Forests are one type)."""
    counts: dict[str, int] = {}
    for kind, count in enumerate(realm):
        land_type = LandKind(kind).title.split()[0]
        counts[land_type] = counts.get(land_type, 0) + count
    return list(counts.values())


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _realm(canvas: Canvas, clan: Clan, x: float, y: float) -> None:
    total, types = sum(clan.realm), sum(count > 0 for count in _types(clan.realm))
    canvas.text(
        x, y + 12, f"realm: {_count(total, 'land')}, {_count(types, 'type')}", size=12, bold=True
    )
    held = [(kind, count) for kind, count in enumerate(clan.realm) if count]
    for index, (kind, count) in enumerate(held):
        column, line = index % 4, index // 4
        name = LandKind(kind).title
        left, top = x + column * 80, y + 18 + line * 30
        canvas.rect(
            left,
            top,
            77,
            26,
            fill=LAND_COLOURS[name.split()[0]],
            radius=5,
            data={"land": name, "count": count},
        )
        canvas.text(left + 38, top + 17, f"{name} ×{count}", size=11, anchor="middle")
