"""Spirit Island's observer: what one Spirit's player may know, as schema fields.

The game is cooperative and nearly open: the island, every Spirit's panel, hand, played
cards and discards, the Invader cards face up, the Fear and Blight state are public. Hidden
are the orders of the Invader, Fear and Power decks, the earned Fear cards until they are
resolved (they lie face down), the Blight card's back until it flips, and the 4 cards a
Spirit draws when gaining a Power (seen only by that Spirit until it keeps one). Seats are
relative: row 0 is the observer, row r the seat r places after it; rows past the player
count stay zero.

:func:`view` is the plain reference, written straight from the state; :func:`observation`
is the per-step path, a sparse encoder checked against it by the conformance suite.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import Field, ObservationSchema, SparseView
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


_AT = {field.name: SCHEMA.offset(field.name) for field in SCHEMA.fields}
_ROW = {field.name: field.size // field.shape[0] for field in SCHEMA.fields}


_ISLAND_ONES: dict[int, tuple[Island, list[int]]] = {}


def island_ones(island: Island) -> list[int]:
    """The vector entries that are one for every position on ``island`` (terrains, coasts,
    lands in play), worked out once per island."""
    entry = _ISLAND_ONES.get(id(island))
    if entry is None or entry[0] is not island:
        at = _AT
        ones = []
        for land, terrain in enumerate(island.terrain):
            ones.append(at["terrain"] + 4 * land + terrain)
            if island.coastal[land]:
                ones.append(at["coastal"] + land)
            ones.append(at["in_play"] + land)
        entry = _ISLAND_ONES[id(island)] = (island, ones)
    return entry[1]


def observation(game: SpiritIslandGame, player: int) -> np.ndarray:
    """``SCHEMA.encode(view(game, player))``, written sparsely into the vector."""
    sparse = SparseView()
    ones, put = sparse.ones.append, sparse.set
    at, row_of = _AT, _ROW
    n = game.num_players
    pending = game.pending
    if pending:
        kind, seat, purpose = pending[0], pending[1], pending[2]
        ones(at["decision"] + kind)
        ones(at["purpose"] + purpose)
        ones(at["decider"] + (seat - player) % n)
        ctx = pending[3:]
        index = _LAND_CTX.get(purpose)
        if index is not None and ctx[index] >= 0:
            ones(at["context_land"] + ctx[index])
        index = _POWER_CTX.get(purpose)
        if index is not None:
            ones(at["context_power"] + ctx[index])
        index = _COUNT_CTX.get(purpose)
        if index is not None and ctx[index]:
            put(at["context_count"], min(ctx[index], 20))
        index = _KIND_CTX.get(purpose)
        if index is not None:
            ones(at["context_kinds"] + ctx[index])
        elif purpose in _MASK_CTX:
            mask = ctx[_MASK_CTX[purpose]]
            base = at["context_kinds"]
            for k in range(KINDS):
                if mask >> k & 1:
                    ones(base + k)
    if game.drawn_by == player:
        base = at["drawn"]
        for slot, card in enumerate(game.drawn):
            ones(base + slot * C + card)
    if game.turn:
        put(at["turn"], min(game.turn, MAX_TURNS))
    sparse.ones.extend(island_ones(game.island))
    p_at = at["pieces"]
    counts = np.array(game.pieces, dtype=np.int64).ravel()
    placed = np.flatnonzero(counts)
    sparse.at.extend((placed + p_at).tolist())
    sparse.values.extend(np.minimum(counts[placed], PIECE_SCALE).tolist())
    for land, defend in enumerate(game.defend):
        if defend:
            put(at["defend"] + land, min(defend, 10))
    for land, isolated in enumerate(game.isolated):
        if isolated:
            ones(at["turn_flags"] + 4 * land + 3)
    for land, skips in enumerate(game.skips):
        if skips:
            for action in range(3):
                if skips >> action & 1:
                    ones(at["turn_flags"] + 4 * land + action)
            if skips & SPARE_DAHAN:
                ones(at["dahan_spared"] + land)
            if skips & NO_CITY_BUILD:
                ones(at["no_city_build"] + land)
    for row in range(n):
        seat = (player + row) % n
        base = at["presence"] + row * L
        placed = [(base + land, count) for land, count in enumerate(game.presence[seat]) if count]
        sparse.at.extend([index for index, _ in placed])
        sparse.values.extend([min(count, 6) for _, count in placed])
        ones(at["spirit"] + row * MAX_SPIRITS + game.spirit_of[seat])
        for name, value, cap in (
            ("energy", game.energy[seat], ENERGY_SCALE),
            ("energy_track", game.energy_track[seat], TRACK_SCALE),
            ("card_track", game.card_track[seat], TRACK_SCALE),
            ("plays_left", game.plays_left[seat], 5),
            ("destroyed_presence", game.destroyed_presence[seat], 13),
            ("slow_as_fast", game.swift_left(seat), ALLOWANCE_SCALE),
            ("repeat_up_to", game.repeat_cost[seat] + 1, ALLOWANCE_SCALE),
            ("paid_repeats", game.paid_repeats[seat], ALLOWANCE_SCALE),
            ("passed", game.passed[seat], 1),
            ("range_bonus", game.range_bonus[seat], ALLOWANCE_SCALE),
            ("keep_cards", game.keep_cards[seat], ALLOWANCE_SCALE),
        ):
            if value:
                put(at[name] + row, min(value, cap))
        base = at["elements"] + row * len(ELEMENTS)
        for e, count in enumerate(game.elements[seat]):
            if count:
                put(base + e, min(count, 10))
        for name, cards in (
            ("hand", game.hand[seat]),
            ("played", game.played[seat]),
            ("discard", game.discard[seat]),
            ("unresolved", game.unresolved[seat]),
        ):
            base = at[name] + row * row_of[name]
            for card in set(cards):
                ones(base + card)
    for card in game.forgotten:
        ones(at["forgotten"] + card)
    for card in {*game.minor_discard, *game.major_discard}:
        ones(at["power_discards"] + card)
    if game.minor_deck:
        put(at["power_deck_sizes"], len(game.minor_deck))
    if game.major_deck:
        put(at["power_deck_sizes"] + 1, len(game.major_deck))
    for slot, card in enumerate(game.invader_slots):
        if card >= 0:
            ones(at["invader_slots"] + slot * len(INVADER_CARDS) + card)
    for card in game.invader_discard:
        ones(at["invader_discard"] + card)
    if game.invader_deck:
        put(at["invader_deck_size"], len(game.invader_deck))
    put(at["fear_pool"], game.fear_pool)
    if game.fear_earned:
        put(at["fear_earned"], len(game.fear_earned))
    for card in game.fear_discard:
        ones(at["fear_discard"] + card)
    if game.blight_pool:
        put(at["blight_pool"], min(game.blight_pool, BLIGHT_SCALE))
    if game.blighted:
        ones(at["blighted"])
        ones(at["blight_card"] + game.blight_card)
    return SCHEMA.encode(sparse)
