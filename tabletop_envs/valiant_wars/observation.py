"""Valiant Wars observations: one seat's view as schema fields, and the same view in words.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Never read here: any deck's order
(except the top cards the observer's own Oracle showed), the Champion deck's order, the
Location deck below the top, and reveal-or-STOP choices not yet resolved.

What every seat sees is kept once per game in table seat order (:data:`TABLE`), a block per
seat and a few for the table, each encoded again only when its key (the state it shows)
changes; an observer's vector is that store turned to face it plus its own fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import (
    SEATS,
    Field,
    KeptObservation,
    ObservationSchema,
    TableLayout,
)
from tabletop_envs.valiant_wars.cards import (
    ALL_CARDS,
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    GOLD,
    LOCATION_BASE,
    LOCATIONS,
    MARKET_SIZE,
    MAX_PLAYERS,
    MAX_TARGET_VP,
    NO_CARD,
    NUM_CHAMPION_CARDS,
    NUM_CODES,
    NUM_KINDS,
    NUM_LOCATIONS,
    OMEN,
    ORACLE_LOOK,
    REVEALING,
    SOLDIER,
    SUPPLY_GOLD,
    Decision,
    Kind,
    Terrain,
    card_name,
    is_champion,
)

if TYPE_CHECKING:
    from tabletop_envs.valiant_wars.rules import ValiantWarsGame

P = MAX_PLAYERS
SLOTS = NUM_CHAMPION_CARDS
TOTAL_SCALE = 200
"""Sword and Gold totals above this are shown as this (no real line comes close)."""
LINE_COUNTS = ("gold", "omens", "cancelled_omens", "soldiers", "flipped_soldiers", "locations")

SCHEMA = ObservationSchema(
    [
        Field("decision", (len(Decision),)),
        Field("effect", (NUM_KINDS,)),
        Field("subject", (P,)),
        Field("draw_amount", (1,), SLOTS),
        Field("to_move", (P,)),
        Field("players", (P,)),
        Field("first_player", (P,)),
        Field("round", (1,), NUM_LOCATIONS),
        Field("step", (1,), ALL_CARDS),
        Field("buying", (1,)),
        Field("target_vp", (1,), MAX_TARGET_VP),
        Field("vp", (P,), MAX_TARGET_VP),
        Field("drawing", (P,)),
        Field("stopped", (P,)),
        Field("out", (P,)),
        Field("stop_step", (P,), ALL_CARDS),
        Field("swords", (P,), TOTAL_SCALE),
        Field("gold", (P,), TOTAL_SCALE),
        Field("line_counts", (P, len(LINE_COUNTS)), SUPPLY_GOLD),
        Field("line_champions", (P, SLOTS), NUM_KINDS),
        Field("line_champion_up", (P, SLOTS)),
        Field("line_champion_copy", (P, SLOTS), NUM_KINDS),
        Field("line_saint_used", (P, SLOTS)),
        Field("deck", (P, NUM_CODES), SUPPLY_GOLD),
        Field("deck_size", (P,), ALL_CARDS),
        Field("known_top", (P,), ORACLE_LOOK),
        Field("my_top", (ORACLE_LOOK, NUM_CODES)),
        Field("market", (MARKET_SIZE, NUM_KINDS)),
        Field("champion_deck", (NUM_KINDS,), 4),
        Field("supply", (3,), SUPPLY_GOLD),
        Field("location", (NUM_LOCATIONS,)),
        Field("location_vp", (1,), 4),
        Field("terrain", (len(Terrain),)),
        Field("locations_left", (NUM_LOCATIONS,)),
        Field("purchase", (3,), TOTAL_SCALE),
    ]
)


SEAT_FIELDS = (
    "players",
    "vp",
    "drawing",
    "stopped",
    "out",
    "stop_step",
    "swords",
    "gold",
    "line_counts",
    "line_champions",
    "line_champion_up",
    "line_champion_copy",
    "line_saint_used",
    "deck",
    "deck_size",
    "known_top",
)
"""What everyone sees of one seat, kept as that seat's block."""
ROUND_FIELDS = ("first_player", "round", "step", "buying", "target_vp")
MARKET_FIELDS = ("market", "supply")
LOCATION_FIELDS = ("location", "location_vp", "terrain", "locations_left")
TABLE = TableLayout(SCHEMA, P, dict.fromkeys(("first_player", *SEAT_FIELDS), SEATS))
"""The view stored in table seat order; the observer's own fields (``to_move`` among them,
one write) are written after."""
ROUND_BLOCK, MARKET_BLOCK, CHAMPION_DECK_BLOCK, LOCATION_BLOCK = range(P, P + 4)
BLOCKS = P + 4
_SEAT_POSITIONS = tuple(TABLE.positions(SEAT_FIELDS, seat) for seat in range(P))
_ROUND_POSITIONS = TABLE.positions(ROUND_FIELDS)
_MARKET_POSITIONS = TABLE.positions(MARKET_FIELDS)
_CHAMPION_DECK_POSITIONS = TABLE.positions(["champion_deck"])
_LOCATION_POSITIONS = TABLE.positions(LOCATION_FIELDS)
_SEAT_AT = tuple({name: TABLE.at(name, seat) for name in SEAT_FIELDS} for seat in range(P))
"""Where each field of a seat's block starts in the store."""
_FIRST_AT = tuple(TABLE.at("first_player", seat) for seat in range(P))
_STORED_AT = {
    name: TABLE.at(name)
    for name in (*ROUND_FIELDS[1:], *MARKET_FIELDS, "champion_deck", *LOCATION_FIELDS)
}
"""Where each table field starts in the store."""
_AT = {field.name: SCHEMA.offset(field.name) for field in SCHEMA.fields}
"""Where the observer's own fields start in its vector."""


def build_view(game: ValiantWarsGame, player: int) -> dict[str, Any]:
    """``player``'s view as the numeric fields of :data:`SCHEMA`."""
    return SCHEMA.view_of(unscaled_view(game, player))


def encode(game: ValiantWarsGame, player: int) -> np.ndarray:
    """``player``'s observation vector (the per-step path)."""
    return SCHEMA.scale(unscaled_view(game, player))


def unscaled_view(game: ValiantWarsGame, player: int) -> np.ndarray:
    """``player``'s view laid out as :data:`SCHEMA`, before scaling: the kept table view
    turned to face ``player``, then whose move it is, its pending decision, its purchase
    and the top cards it knows."""
    kept = KeptObservation.of(game, TABLE, BLOCKS)
    n = game.num_players
    location_deck = game.location_deck
    terrain = LOCATIONS[location_deck[-1]].terrain if location_deck else Terrain.PLAIN
    revealing = game.phase == REVEALING
    for seat in range(n):
        _keep_seat(game, kept, seat, terrain, revealing)
    _keep_round(game, kept)
    _keep_market(game, kept)
    _keep_location(game, kept)
    if kept.stale(CHAMPION_DECK_BLOCK, tuple(game.champion_deck), _CHAMPION_DECK_POSITIONS):
        _keep_counts(game.champion_deck, _STORED_AT["champion_deck"], NUM_KINDS, kept.values)
    out = kept.observed(TABLE, n, player)
    decider = game.decider
    if decider >= 0:
        out[_AT["to_move"] + (decider - player) % n] = 1.0
    if decider == player:
        _own_decision(game, player, out)
    deck, my_top = game.decks[player], _AT["my_top"]
    for depth in range(game.known_top[player]):
        out[my_top + depth * NUM_CODES + deck[-1 - depth]] = 1.0
    return out


def _own_decision(game: ValiantWarsGame, player: int, out: np.ndarray) -> None:
    """The decision ``player`` faces and its context, or what its purchase has spent."""
    if game.decision >= 0:
        out[_AT["decision"] + game.decision] = 1.0
    if game.decision in (Decision.CHOOSE_PLAYER, Decision.CHOOSE_CARD):
        effect, subject, _, _, amount = game.pending
        out[_AT["effect"] + effect] = 1.0
        if subject >= 0:
            out[_AT["subject"] + (subject - player) % game.num_players] = 1.0
        out[_AT["draw_amount"]] = min(amount, SLOTS)
    if game.phase == BUYING:
        purchase = _AT["purchase"]
        out[purchase] = min(game.gold_left, TOTAL_SCALE)
        out[purchase + 1] = game.bought_champion
        out[purchase + 2] = game.took_soldier


def _keep_seat(
    game: ValiantWarsGame, kept: KeptObservation, seat: int, terrain: int, revealing: bool
) -> None:
    """Encode what everyone sees of ``seat`` again if it changed (``terrain`` sets its
    Sword total; ``revealing``: the round's reveal steps are on)."""
    line, deck = game.lines[seat], game.decks[seat]
    vp, stopped, out = game.vp[seat], game.stopped[seat], game.out[seat]
    stop_step, known_top = game.stop_step[seat], game.known_top[seat]
    face_up, copies, used = game.face_up[seat], game.copies[seat], game.used[seat]
    key = (
        vp,
        stopped,
        out,
        stop_step,
        known_top,
        revealing,
        terrain,
        tuple(line),
        tuple(face_up),
        tuple(copies),
        tuple(used),
        tuple(deck),
    )
    if not kept.stale(seat, key, _SEAT_POSITIONS[seat]):
        return
    values, at = kept.values, _SEAT_AT[seat]
    values[at["players"]] = 1.0
    values[at["vp"]] = min(vp, MAX_TARGET_VP)
    values[at["drawing"]] = revealing and not stopped and not out
    values[at["stopped"]] = stopped
    values[at["out"]] = out
    values[at["stop_step"]] = min(stop_step + 1, ALL_CARDS)
    values[at["deck_size"]] = len(deck)
    values[at["known_top"]] = known_top
    _keep_counts(deck, at["deck"], NUM_CODES, values)
    if line:
        swords, gold = game.line_totals(seat)
        values[at["swords"]] = min(swords, TOTAL_SCALE)
        values[at["gold"]] = min(gold, TOTAL_SCALE)
        _keep_line(line, face_up, copies, used, values, at)


def _keep_counts(cards: list[int], start: int, codes: int, values: np.ndarray) -> None:
    """How many of each of ``codes`` card codes ``cards`` holds, at ``start`` + code."""
    values[start : start + codes] = np.bincount(cards, minlength=codes)


def _keep_line(
    line: list[int],
    face_up: list[int],
    copies: list[int],
    used: list[int],
    values: np.ndarray,
    at: dict[str, int],
) -> None:
    """The counts of plain cards and the Champions, slot by slot, in a seat's line."""
    counts = [0] * len(LINE_COUNTS)
    slot = 0
    for pos, code in enumerate(line):
        up = face_up[pos]
        if CHAMPION_BASE <= code < LOCATION_BASE:
            values[at["line_champions"] + slot] = code - CHAMPION_BASE + 1
            values[at["line_champion_up"] + slot] = up
            values[at["line_champion_copy"] + slot] = copies[pos] + 1
            values[at["line_saint_used"] + slot] = used[pos]
            slot += 1
        elif code == GOLD:
            counts[0] += up
        elif code == OMEN:
            counts[1 if up else 2] += 1
        elif code == SOLDIER:
            counts[3 if up else 4] += 1
        else:
            counts[5] += up
    start = at["line_counts"]
    for index, count in enumerate(counts):
        if count:
            values[start + index] = count


def _keep_round(game: ValiantWarsGame, kept: KeptObservation) -> None:
    """Encode the first player, the round, the reveal step and the phase again if changed."""
    key = (game.first, game.round, game.step, game.phase, game.target)
    if not kept.stale(ROUND_BLOCK, key, _ROUND_POSITIONS):
        return
    values = kept.values
    values[_FIRST_AT[game.first]] = 1.0
    values[_STORED_AT["round"]] = game.round
    values[_STORED_AT["step"]] = min(game.step, ALL_CARDS)
    values[_STORED_AT["buying"]] = game.phase == BUYING
    values[_STORED_AT["target_vp"]] = game.target


def _keep_market(game: ValiantWarsGame, kept: KeptObservation) -> None:
    """Encode the market and the supply again if they changed."""
    key = (tuple(game.market), tuple(game.supply))
    if not kept.stale(MARKET_BLOCK, key, _MARKET_POSITIONS):
        return
    values, market = kept.values, _STORED_AT["market"]
    for slot, kind in enumerate(game.market):
        if kind >= 0:
            values[market + slot * NUM_KINDS + kind] = 1.0
    supply = _STORED_AT["supply"]
    for pile, left in enumerate(game.supply):
        values[supply + pile] = left


def _keep_location(game: ValiantWarsGame, kept: KeptObservation) -> None:
    """Encode this round's Location and the Locations left again if they changed."""
    key = tuple(game.location_deck)
    if not kept.stale(LOCATION_BLOCK, key, _LOCATION_POSITIONS) or not key:
        return
    values, location = kept.values, LOCATIONS[game.location]
    values[_STORED_AT["location"] + game.location] = 1.0
    values[_STORED_AT["terrain"] + location.terrain] = 1.0
    values[_STORED_AT["location_vp"]] = location.vp
    left = _STORED_AT["locations_left"]
    for card in key:
        values[left + card] = 1.0


def line_words(game: ValiantWarsGame, seat: int) -> list[str]:
    words = []
    for pos, code in enumerate(game.lines[seat]):
        name = card_name(code)
        if (
            is_champion(code)
            and code - CHAMPION_BASE == Kind.DANCER
            and game.copies[seat][pos] >= 0
        ):
            name += f" (as {Kind(game.copies[seat][pos]).title})"
        if game.used[seat][pos]:
            name += " (used)"
        words.append(name if game.face_up[seat][pos] else f"[{name}, face down]")
    return words


def _composition(cards: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for code in sorted(cards):
        counts[card_name(code)] = counts.get(card_name(code), 0) + 1
    return counts


def readable_view(game: ValiantWarsGame, player: int) -> dict[str, Any]:
    """The same information as :func:`build_view`, in words, for people."""
    seats = []
    for seat in range(game.num_players):
        status = "out" if game.out[seat] else "stopped" if game.stopped[seat] else "drawing"
        seats.append(
            {
                "seat": seat,
                "vp": game.vp[seat],
                "status": status,
                "line": line_words(game, seat),
                "swords": game.swords(seat),
                "gold": game.gold(seat),
                "deck": _composition(game.decks[seat]),
                "knows_top_cards": game.known_top[seat],
            }
        )
    deck = game.decks[player]
    view: dict[str, Any] = {
        "you": f"player_{player}",
        "round": game.round + 1,
        "first_player": f"player_{game.first}",
        "target_vp": game.target,
        "players": seats,
        "your_known_top_cards": [card_name(deck[-1 - d]) for d in range(game.known_top[player])],
        "market": [
            "-" if kind == NO_CARD else f"{Kind(kind).title} ({CHAMPIONS[kind].cost} Gold)"
            for kind in game.market
        ],
        "champion_deck": len(game.champion_deck),
        "supply": dict(zip(("soldiers", "gold", "omens"), game.supply, strict=True)),
        "locations_left": len(game.location_deck),
    }
    if game.location_deck:
        location = LOCATIONS[game.location]
        view["location"] = f"{location.name} ({location.vp} VP; {location.terrain.text})"
    if game.decider == player and game.decision >= 0:
        view["deciding"] = Decision(game.decision).name.lower()
        if game.decision == Decision.BUY:
            view["gold_left"] = game.gold_left
    return view


view = build_view
observation = encode
