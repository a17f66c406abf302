"""Spirit Island's observer: what one Spirit's player may know, as schema fields.

The game is cooperative and nearly open: the island, every Spirit's panel, hand, played
cards and discards, the Invader cards face up, the Fear and Blight state are public. Hidden
are the orders of the Invader, Fear and Power decks, the earned Fear cards until they are
resolved (they lie face down), the Blight card's back until it flips, and the 4 cards a
Spirit draws when gaining a Power (seen only by that Spirit until it keeps one). Seats are
relative: row 0 is the observer, row r the seat r places after it; rows past the player
count stay zero.

:func:`view` is the plain reference, written straight from the state; :func:`observation`
is the per-step path, checked against it by the conformance suite: it keeps the view in table
seat order (:class:`~tabletop_envs.core.encoding.KeptObservation`), encodes again only the
blocks whose state changed (the lands one by one, each Spirit's rows part by part), and
writes the pending decision into each observer's vector.
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
from tabletop_envs.spirit_island.spec import (
    BLIGHT_CARDS,
    BLIGHT_SCALE,
    DRAW,
    ELEMENTS,
    FEAR_CARDS,
    FEAR_DECK_SIZE,
    INVADER_CARDS,
    INVADER_DECK_STAGES,
    KINDS,
    MAX_CARDS,
    MAX_INNATES,
    MAX_LANDS,
    MAX_PLAYERS,
    MAX_SPIRITS,
    NO_CITY_BUILD,
    PURPOSE_NAMES,
    PURPOSES,
    SPARE_DAHAN,
    SPIRITS,
    TERRAINS,
    Decision,
    Island,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame

P, L, C = MAX_PLAYERS, MAX_LANDS, MAX_CARDS
POWERS = MAX_CARDS + MAX_INNATES
PURPOSE_COUNT = len(PURPOSE_NAMES)
PIECE_SCALE = 12
"""Pieces of one kind in one land shown up to this many (more are shown as this)."""
ENERGY_SCALE = 30
TRACK_SCALE = max(len(track) for s in SPIRITS for track in (s.energy_track, s.card_track)) - 1
"""The furthest place a presence track can be uncovered to (its last index)."""
MAX_TURNS = len(INVADER_DECK_STAGES) + 1
ALLOWANCE_SCALE = 16
"""Slow Powers still usable as Fast, 1 + the highest cost a repeat allows, the range bonus and
the played cards a Spirit may keep, shown up to this (never reached in random games at 1-4
players: tests)."""
CONTEXT_LAND = ("land",)

SCHEMA = ObservationSchema(
    [
        Field("decision", (len(Decision),)),
        Field("purpose", (PURPOSE_COUNT,)),
        Field("decider", (P,)),
        Field("context_land", (L,)),
        Field("context_power", (POWERS,)),
        Field("context_kinds", (KINDS,)),
        Field("context_count", (1,), 20),
        Field("drawn", (DRAW, C)),
        Field("turn", (1,), MAX_TURNS),
        Field("terrain", (L, len(TERRAINS))),
        Field("coastal", (L,)),
        Field("in_play", (L,)),
        Field("pieces", (L, KINDS), PIECE_SCALE),
        Field("presence", (P, L), 6),
        Field("defend", (L,), 10),
        Field("turn_flags", (L, 4)),
        Field("spirit", (P, MAX_SPIRITS)),
        Field("energy", (P,), ENERGY_SCALE),
        Field("energy_track", (P,), TRACK_SCALE),
        Field("card_track", (P,), TRACK_SCALE),
        Field("plays_left", (P,), 5),
        Field("destroyed_presence", (P,), 13),
        Field("elements", (P, len(ELEMENTS)), 10),
        Field("hand", (P, C)),
        Field("played", (P, C)),
        Field("discard", (P, C)),
        Field("unresolved", (P, POWERS)),
        Field("forgotten", (C,)),
        Field("power_discards", (C,)),
        Field("power_deck_sizes", (2,), 36),
        Field("invader_slots", (3, len(INVADER_CARDS))),
        Field("invader_discard", (len(INVADER_CARDS),)),
        Field("invader_deck_size", (1,), len(INVADER_DECK_STAGES)),
        Field("fear_pool", (1,), 4 * P),
        Field("fear_earned", (1,), FEAR_DECK_SIZE),
        Field("fear_discard", (len(FEAR_CARDS),)),
        Field("blight_pool", (1,), BLIGHT_SCALE),
        Field("blighted", (1,)),
        Field("blight_card", (len(BLIGHT_CARDS),)),
        Field("slow_as_fast", (P,), ALLOWANCE_SCALE),
        Field("repeat_up_to", (P,), ALLOWANCE_SCALE),
        Field("paid_repeats", (P,), ALLOWANCE_SCALE),
        Field("passed", (P,)),
        Field("dahan_spared", (L,)),
        Field("no_city_build", (L,)),
        Field("range_bonus", (P,), ALLOWANCE_SCALE),
        Field("keep_cards", (P,), ALLOWANCE_SCALE),
    ]
)


def _context(names: tuple[str, ...]) -> dict[int, int]:
    """Purpose number -> where the first context entry named one of ``names`` sits."""
    found = {}
    for number, purpose in enumerate(PURPOSE_NAMES):
        for index, name in enumerate(PURPOSES[purpose][1]):
            if name in names:
                found[number] = index
                break
    return found


_LAND_CTX = _context(("land", "land?"))
_COUNT_CTX = _context(("count", "range"))
_MASK_CTX = _context(("mask",))
_KIND_CTX = _context(("kind",))
_POWER_CTX = _context(("power",))


def view(game: SpiritIslandGame, player: int) -> dict[str, Any]:
    """What ``player`` knows, written from the state alone (sharing no code with
    :func:`observation`)."""
    n = game.num_players
    lands = len(game.pieces)
    seats = [(player + offset) % n for offset in range(n)]
    v: dict[str, Any] = {field.name: np.zeros(field.shape) for field in SCHEMA.fields}
    if game.pending:
        kind, seat, purpose, *ctx = game.pending
        v["decision"][kind] = 1
        v["purpose"][purpose] = 1
        v["decider"][(seat - player) % n] = 1
        if purpose in _LAND_CTX and ctx[_LAND_CTX[purpose]] >= 0:
            v["context_land"][ctx[_LAND_CTX[purpose]]] = 1
        if purpose in _POWER_CTX:
            v["context_power"][ctx[_POWER_CTX[purpose]]] = 1
        if purpose in _COUNT_CTX:
            v["context_count"][0] = min(ctx[_COUNT_CTX[purpose]], 20)
        if purpose in _MASK_CTX:
            for k in range(KINDS):
                if ctx[_MASK_CTX[purpose]] >> k & 1:
                    v["context_kinds"][k] = 1
        if purpose in _KIND_CTX:
            v["context_kinds"][:] = 0
            v["context_kinds"][ctx[_KIND_CTX[purpose]]] = 1
    if game.drawn_by == player:
        for slot, card in enumerate(game.drawn):
            v["drawn"][slot][card] = 1
    v["turn"][0] = min(game.turn, MAX_TURNS)
    for land in range(lands):
        v["terrain"][land][game.island.terrain[land]] = 1
        v["coastal"][land] = game.island.coastal[land]
        v["in_play"][land] = 1
        for k in range(KINDS):
            v["pieces"][land][k] = min(game.pieces[land][k], PIECE_SCALE)
        v["defend"][land] = min(game.defend[land], 10)
        for action in range(3):
            v["turn_flags"][land][action] = game.skips[land] >> action & 1
        v["turn_flags"][land][3] = game.isolated[land]
        v["dahan_spared"][land] = game.skips[land] >> 3 & 1
        v["no_city_build"][land] = game.skips[land] >> 4 & 1
    for row, seat in enumerate(seats):
        for land in range(lands):
            v["presence"][row][land] = min(game.presence[seat][land], 6)
        v["spirit"][row][game.spirit_of[seat]] = 1
        v["energy"][row] = min(game.energy[seat], ENERGY_SCALE)
        v["energy_track"][row] = game.energy_track[seat]
        v["card_track"][row] = game.card_track[seat]
        v["plays_left"][row] = min(game.plays_left[seat], 5)
        v["destroyed_presence"][row] = min(game.destroyed_presence[seat], 13)
        for e in range(len(ELEMENTS)):
            v["elements"][row][e] = min(game.elements[seat][e], 10)
        for card in game.hand[seat]:
            v["hand"][row][card] = 1
        for card in game.played[seat]:
            v["played"][row][card] = 1
        for card in game.discard[seat]:
            v["discard"][row][card] = 1
        for power in game.unresolved[seat]:
            v["unresolved"][row][power] = 1
        swift = SPIRITS[game.spirit_of[seat]].special == "swift"
        air = game.elements[seat][ELEMENTS.index("air")] if swift else 0
        allowance = air + game.hasten[seat] - len(game.hastened[seat])
        v["slow_as_fast"][row] = min(allowance, ALLOWANCE_SCALE)
        v["repeat_up_to"][row] = min(game.repeat_cost[seat] + 1, ALLOWANCE_SCALE)
        v["paid_repeats"][row] = min(game.paid_repeats[seat], ALLOWANCE_SCALE)
        v["passed"][row] = game.passed[seat]
        v["range_bonus"][row] = min(game.range_bonus[seat], ALLOWANCE_SCALE)
        v["keep_cards"][row] = min(game.keep_cards[seat], ALLOWANCE_SCALE)
    for card in game.forgotten:
        v["forgotten"][card] = 1
    for card in game.minor_discard + game.major_discard:
        v["power_discards"][card] = 1
    v["power_deck_sizes"][:] = [len(game.minor_deck), len(game.major_deck)]
    for slot, card in enumerate(game.invader_slots):
        if card >= 0:
            v["invader_slots"][slot][card] = 1
    for card in game.invader_discard:
        v["invader_discard"][card] = 1
    v["invader_deck_size"][0] = len(game.invader_deck)
    v["fear_pool"][0] = game.fear_pool
    v["fear_earned"][0] = len(game.fear_earned)
    for card in game.fear_discard:
        v["fear_discard"][card] = 1
    v["blight_pool"][0] = min(game.blight_pool, BLIGHT_SCALE)
    v["blighted"][0] = game.blighted
    if game.blighted:
        v["blight_card"][game.blight_card] = 1
    return v


# ----- the kept view: blocks in table seat order, each re-encoded when its key changes -----
SEAT_FIELDS = (
    "presence",
    "spirit",
    "energy",
    "energy_track",
    "card_track",
    "plays_left",
    "destroyed_presence",
    "elements",
    "hand",
    "played",
    "discard",
    "unresolved",
    "slow_as_fast",
    "repeat_up_to",
    "paid_repeats",
    "passed",
    "range_bonus",
    "keep_cards",
)
"""What everyone sees of one Spirit (rows by seat, turned to face each observer)."""
ISLAND_FIELDS = ("terrain", "coastal", "in_play")
LAND_FIELDS = ("pieces", "defend", "turn_flags", "dahan_spared", "no_city_build")
BOARD_FIELDS = (
    "turn",
    "forgotten",
    "power_discards",
    "power_deck_sizes",
    "invader_slots",
    "invader_discard",
    "invader_deck_size",
    "fear_pool",
    "fear_earned",
    "fear_discard",
    "blight_pool",
    "blighted",
    "blight_card",
)
"""The Invader and Fear boards, the decks and the turn."""
TABLE = TableLayout(SCHEMA, MAX_PLAYERS, dict.fromkeys(SEAT_FIELDS, SEATS))
"""The view stored in table seat order. The pending decision (it changes at nearly every
step) and the cards only the observer has drawn are written into each observer's vector
after the gather."""
ISLAND_BLOCK, LANDS_BLOCK, BOARD_BLOCK, FIRST_SEAT_BLOCK = range(4)
KEPT_BLOCKS = FIRST_SEAT_BLOCK + MAX_PLAYERS
_ISLAND_AT = TABLE.positions(ISLAND_FIELDS)
_BOARD_AT = TABLE.positions(BOARD_FIELDS)
_AT = {name: TABLE.at(name) for name in SCHEMA.slices}
"""Where each field starts when stored (its row for seat 0, for a seat field)."""
_SEAT_STARTS = [{name: TABLE.at(name, seat) for name in SEAT_FIELDS} for seat in range(MAX_PLAYERS)]
_OFFSET = {name: SCHEMA.offset(name) for name in SCHEMA.slices}
"""Where each field starts in an observation."""
_SIZE = SCHEMA.size
# Seat 0's vector is the kept one as it lies (no gather): the view is stored as seat 0 of a
# full table observes it, and the rows of seats past the player count are never written, so
# they stay zero as the gather would make them.
if not np.array_equal(TABLE.gather(MAX_PLAYERS, 0), np.arange(_SIZE)):
    raise AssertionError("the kept view is not stored as seat 0 of a full table observes it")
_INVADER_CARD_COUNT = len(INVADER_CARDS)


def observation(game: SpiritIslandGame, player: int) -> np.ndarray:
    """``SCHEMA.encode(view(game, player))``, gathered from the kept view."""
    return SCHEMA.scale(unscaled_observation(game, player))


def unscaled_observation(game: SpiritIslandGame, player: int) -> np.ndarray:
    """:func:`observation` before scaling: the view's numbers as the schema lays them out (a
    new vector), for a bot that reads the game it is handed (``SCHEMA.decode_unscaled``)."""
    kept = KeptObservation.of(game, TABLE, KEPT_BLOCKS)
    values = kept.values
    if kept.stale(ISLAND_BLOCK, game.island, _ISLAND_AT):
        _put_island(game.island, values)
    _update_lands(game, kept)
    board = _board_key(game)
    if kept.stale(BOARD_BLOCK, board, _BOARD_AT):
        _put_board(board, values)
    for seat in range(game.num_players):
        _update_seat(kept, seat, _seat_key(game, seat))
    if player == 0:
        vector = kept.values[:_SIZE].copy()
    else:
        vector = kept.observed(TABLE, game.num_players, player)
    _put_pending(game, player, vector)
    return vector


def _put_island(island: Island, values: np.ndarray) -> None:
    """Each land's terrain, coast and presence on the table."""
    at = _AT
    for land, terrain in enumerate(island.terrain):
        values[at["terrain"] + len(TERRAINS) * land + terrain] = 1
        values[at["coastal"] + land] = island.coastal[land]
        values[at["in_play"] + land] = 1


def _update_lands(game: SpiritIslandGame, kept: KeptObservation) -> None:
    """The lands' pieces, Defend and turn flags: the entries whose state changed since the
    last call are encoded again (every land's on the first call)."""
    pieces, defend, skips, isolated = game.pieces, game.defend, game.skips, game.isolated
    if kept.keys[LANDS_BLOCK] == (pieces, defend, skips, isolated):
        return
    key = ([row[:] for row in pieces], defend, skips, isolated)
    previous = kept.restamp(LANDS_BLOCK, key)
    values = kept.values
    if type(previous) is not tuple or len(previous[0]) != len(pieces):
        for land, row in enumerate(pieces):
            _put_land(values, land, row, defend[land], skips[land], isolated[land])
        return
    old_pieces, old_defend, old_skips, old_isolated = previous
    for land, row in enumerate(pieces):
        old = old_pieces[land]
        if row != old:
            start = _PIECES_AT + KINDS * land
            for kind, count in enumerate(row):
                if count != old[kind]:
                    values[start + kind] = min(count, PIECE_SCALE)
        if defend[land] != old_defend[land]:
            values[_DEFEND_AT + land] = min(defend[land], 10)
        if skips[land] != old_skips[land] or isolated[land] != old_isolated[land]:
            _put_flags(values, land, skips[land], isolated[land])


_PIECES_AT, _DEFEND_AT, _FLAGS_AT = _AT["pieces"], _AT["defend"], _AT["turn_flags"]
_SPARED_AT, _NO_CITY_AT = _AT["dahan_spared"], _AT["no_city_build"]


def _put_land(
    values: np.ndarray, land: int, row: list[int], defend: int, skips: int, isolated: bool
) -> None:
    """One land's pieces, Defend, skipped actions, isolation and the two other flags."""
    start = _PIECES_AT + KINDS * land
    values[start : start + KINDS] = [min(count, PIECE_SCALE) for count in row]
    values[_DEFEND_AT + land] = min(defend, 10)
    _put_flags(values, land, skips, isolated)


def _put_flags(values: np.ndarray, land: int, skips: int, isolated: bool) -> None:
    """One land's skipped actions, isolation and the two other flags."""
    flags = _FLAGS_AT + 4 * land
    values[flags : flags + 4] = (skips & 1, skips >> 1 & 1, skips >> 2 & 1, isolated)
    values[_SPARED_AT + land] = 1 if skips & SPARE_DAHAN else 0
    values[_NO_CITY_AT + land] = 1 if skips & NO_CITY_BUILD else 0


def _board_key(game: SpiritIslandGame) -> tuple[Any, ...]:
    """What the table shows outside the island and the Spirits' panels."""
    return (
        game.turn,
        game.forgotten,
        game.minor_discard,
        game.major_discard,
        len(game.minor_deck),
        len(game.major_deck),
        game.invader_slots,
        game.invader_discard,
        len(game.invader_deck),
        game.fear_pool,
        len(game.fear_earned),
        game.fear_discard,
        game.blight_pool,
        game.blighted,
        game.blight_card,
    )


def _put_board(board: tuple[Any, ...], values: np.ndarray) -> None:
    """The values of a :func:`_board_key`."""
    (turn, forgotten, minor_discard, major_discard, minors, majors, slots) = board[:7]
    (invader_discard, invaders, fear_pool, earned, fear_discard) = board[7:12]
    blight_pool, blighted, blight_card = board[12:]
    at = _AT
    values[at["turn"]] = min(turn, MAX_TURNS)
    for card in forgotten:
        values[at["forgotten"] + card] = 1
    for card in minor_discard + major_discard:
        values[at["power_discards"] + card] = 1
    values[at["power_deck_sizes"]] = minors
    values[at["power_deck_sizes"] + 1] = majors
    for slot, card in enumerate(slots):
        if card >= 0:
            values[at["invader_slots"] + _INVADER_CARD_COUNT * slot + card] = 1
    for card in invader_discard:
        values[at["invader_discard"] + card] = 1
    values[at["invader_deck_size"]] = invaders
    values[at["fear_pool"]] = fear_pool
    values[at["fear_earned"]] = earned
    for card in fear_discard:
        values[at["fear_discard"] + card] = 1
    values[at["blight_pool"]] = min(blight_pool, BLIGHT_SCALE)
    if blighted:
        values[at["blighted"]] = 1
        values[at["blight_card"] + blight_card] = 1


def _seat_key(game: SpiritIslandGame, seat: int) -> tuple[Any, ...]:
    """What everyone sees of ``seat``'s Spirit: presence, Spirit, Elements, the four card
    lists, then the one-value fields in ``_SEAT_NUMBERS`` order."""
    return (
        game.presence[seat],
        game.spirit_of[seat],
        game.elements[seat],
        game.hand[seat],
        game.played[seat],
        game.discard[seat],
        game.unresolved[seat],
        game.energy[seat],
        game.energy_track[seat],
        game.card_track[seat],
        game.plays_left[seat],
        game.destroyed_presence[seat],
        game.swift_left(seat),
        game.repeat_cost[seat] + 1,
        game.paid_repeats[seat],
        game.passed[seat],
        game.range_bonus[seat],
        game.keep_cards[seat],
    )


CARD_LISTS = ("hand", "played", "discard", "unresolved")
"""The card fields of a seat, in :func:`_seat_key`'s order (its entries 3 to 6)."""
_FIRST_NUMBER = 3 + len(CARD_LISTS)
_SEAT_NUMBERS = (
    ("energy", ENERGY_SCALE),
    ("energy_track", TRACK_SCALE),
    ("card_track", TRACK_SCALE),
    ("plays_left", 5),
    ("destroyed_presence", 13),
    ("slow_as_fast", ALLOWANCE_SCALE),
    ("repeat_up_to", ALLOWANCE_SCALE),
    ("paid_repeats", ALLOWANCE_SCALE),
    ("passed", 1),
    ("range_bonus", ALLOWANCE_SCALE),
    ("keep_cards", ALLOWANCE_SCALE),
)
"""The one-value seat fields, in :func:`_seat_key`'s order, with the most each shows."""
_BLANK_SEAT = ((), -1, (), (), (), (), (), *[0] * len(_SEAT_NUMBERS))
"""The key of a seat whose rows are all zero."""
_SEAT_SLOTS = [[(starts[name], cap) for name, cap in _SEAT_NUMBERS] for starts in _SEAT_STARTS]
_CARD_STARTS = [[starts[name] for name in CARD_LISTS] for starts in _SEAT_STARTS]


def _update_seat(kept: KeptObservation, seat: int, seen: tuple[Any, ...]) -> None:
    """Write into ``seat``'s rows the parts of its key ``seen`` that changed since the last
    call (the first call writes all of it into zeroed rows)."""
    block = FIRST_SEAT_BLOCK + seat
    previous = kept.keys[block]
    if previous == seen:
        return
    kept.restamp(block, seen)
    if type(previous) is not tuple:
        previous = _BLANK_SEAT
    values, starts = kept.values, _SEAT_STARTS[seat]
    presence, spirit, elements = seen[:3]
    if presence != previous[0]:
        base = starts["presence"]
        values[base : base + len(presence)] = [min(count, 6) for count in presence]
    if spirit != previous[1]:
        if previous[1] >= 0:
            values[starts["spirit"] + previous[1]] = 0
        values[starts["spirit"] + spirit] = 1
    if elements != previous[2]:
        base = starts["elements"]
        values[base : base + len(elements)] = [min(count, 10) for count in elements]
    for index, base in enumerate(_CARD_STARTS[seat], 3):
        cards, old = seen[index], previous[index]
        if cards != old:
            for card in old:
                values[base + card] = 0
            for card in cards:
                values[base + card] = 1
    for index, (at, cap) in enumerate(_SEAT_SLOTS[seat], _FIRST_NUMBER):
        if seen[index] != previous[index]:
            values[at] = min(seen[index], cap)


def _put_pending(game: SpiritIslandGame, player: int, vector: np.ndarray) -> None:
    """The pending decision, who takes it and its context, and the cards ``player`` drew."""
    at = _OFFSET
    pending = game.pending
    if pending:
        kind, seat, purpose = pending[0], pending[1], pending[2]
        vector[at["decision"] + kind] = 1
        vector[at["purpose"] + purpose] = 1
        vector[at["decider"] + (seat - player) % game.num_players] = 1
        ctx = pending[3:]
        index = _LAND_CTX.get(purpose)
        if index is not None and ctx[index] >= 0:
            vector[at["context_land"] + ctx[index]] = 1
        index = _POWER_CTX.get(purpose)
        if index is not None:
            vector[at["context_power"] + ctx[index]] = 1
        index = _COUNT_CTX.get(purpose)
        if index is not None:
            vector[at["context_count"]] = min(ctx[index], 20)
        index = _KIND_CTX.get(purpose)
        if index is not None:
            vector[at["context_kinds"] + ctx[index]] = 1
        elif purpose in _MASK_CTX:
            mask = ctx[_MASK_CTX[purpose]]
            base = at["context_kinds"]
            for k in range(KINDS):
                if mask >> k & 1:
                    vector[base + k] = 1
    if game.drawn_by == player:
        base = at["drawn"]
        for slot, card in enumerate(game.drawn):
            vector[base + slot * C + card] = 1
