"""Vaalbara's observer: one seat's view as schema fields.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Other players' VP, hands, clan deck
orders, unrevealed picks, hidden Fighter answers and the land deck's unseen fronts are never
read here.

:func:`view` is the plain reference, written field by field from the state and the rulebook;
:func:`observation` is the per-step encoder (sparse writes, bounded caches of realm summaries
and land values), tested to equal ``SCHEMA.encode(view(...))`` at every step. The two share
no code beyond the spec.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import Field, ObservationSchema, SparseView
from tabletop_envs.core.game import NO_SEAT
from tabletop_envs.vaalbara.spec import (
    CHARACTER_COUNT,
    EMPTY,
    KIND_OF,
    KIND_TYPE_INDEX,
    LAND_CARDS,
    LAND_KINDS,
    LAND_TYPES,
    MAX_PLAYERS,
    OMEN_BACKS,
    RIVER_INITIATIVE_CAP,
    ROUNDS,
    TYPE_OF,
    Character,
    Decision,
    LandKind,
    LandType,
    land_reward,
    omen_order,
)

if TYPE_CHECKING:
    from tabletop_envs.vaalbara.rules import VaalbaraGame

P = MAX_PLAYERS
VP_SCALE = 400
"""VP above this are shown as this (no real game comes close)."""
VALUE_SCALE = 60
"""The most one land can be worth (a River with 5 Rivers at initiative 6, doubled)."""

SCHEMA = ObservationSchema(
    [
        Field("decision", (len(Decision),)),
        Field("decider", (P,)),
        Field("active", (P,)),
        Field("round", (ROUNDS,)),
        Field("players", (P - 1,)),
        Field("hand", (CHARACTER_COUNT,)),
        Field("my_pick", (CHARACTER_COUNT,)),
        Field("my_vp", (1,), VP_SCALE),
        Field("picked", (P,)),
        Field("revealed_picks", (P, CHARACTER_COUNT)),
        Field("turn_position", (P, P)),
        Field("done", (P,)),
        Field("discards", (P, CHARACTER_COUNT)),
        Field("known_in_hand", (P, CHARACTER_COUNT)),
        Field("hand_sizes", (P,), 5),
        Field("clan_deck_sizes", (P,), CHARACTER_COUNT),
        Field("realms", (P, LAND_KINDS), ROUNDS),
        Field("row1", (P, LAND_KINDS)),
        Field("row2", (P, LAND_KINDS)),
        Field("omen_ranks", (P, P)),
        Field("deck_top_known", (LAND_KINDS,)),
        Field("deck_bottom_known", (LAND_KINDS,)),
        Field("land_deck_size", (1,), len(LAND_CARDS)),
        Field("rider_slot", (P,)),
        Field("land_values", (2, P), VALUE_SCALE),
    ]
)


# ----- the plain reference view ---------------------------------------------------------------
def view(game: VaalbaraGame, player: int) -> dict[str, Any]:
    """``player``'s view as the numeric fields of :data:`SCHEMA`, unscaled.

    The reference: each field written straight from the state and the rulebook, one at a
    time, sharing no code with :func:`observation` (only spec constants and the rulebook's
    land rewards, :func:`land_reward`). Seats are counted from ``player``.
    """
    n = game.num_players
    seats = [(player + r) % n for r in range(n)]  # seats[r]: the seat r places to the left
    fields = {field.name: np.zeros(field.shape) for field in SCHEMA.fields}

    # The pending decision, who makes it, whose turn resolves; the round; the player count.
    if not game.is_terminal:
        fields["decision"][game.decision] = 1
        fields["decider"][seats.index(game.decider)] = 1
    if game.revealed and game.turn < n:
        fields["active"][seats.index(game.turn_order[game.turn])] = 1
    fields["round"][game.round] = 1
    fields["players"][n - 2] = 1

    # The observer's own secrets: hand, pick and VP tokens.
    for character in range(CHARACTER_COUNT):
        if game.hands[player] & (1 << character):
            fields["hand"][character] = 1
    if game.picks[player] != EMPTY:
        fields["my_pick"][game.picks[player]] = 1
    fields["my_vp"][0] = min(game.vp[player], VP_SCALE)

    # What the table shows of every seat.
    for r, seat in enumerate(seats):
        pick = game.picks[seat]
        fields["picked"][r] = pick != EMPTY
        if game.revealed:
            fields["revealed_picks"][r, pick] = 1
            position = game.turn_order.index(seat)
            fields["turn_position"][r, position] = 1
            fields["done"][r] = position < game.turn
        for character in range(CHARACTER_COUNT):
            fields["discards"][r, character] = bool(game.discards[seat] & (1 << character))
            fields["known_in_hand"][r, character] = bool(
                game.known_in_hand[seat] & (1 << character)
            )
        fields["hand_sizes"][r] = bin(game.hands[seat]).count("1")
        fields["clan_deck_sizes"][r] = len(game.clan_decks[seat])
        for card in game.realms[seat]:
            fields["realms"][r, LAND_CARDS[card][0]] += 1

    # The land rows, the Omens on the top card's back, the deck's public faces.
    for name, row in (("row1", game.rows[0]), ("row2", game.rows[1])):
        for slot, card in enumerate(row):
            if card != EMPTY:
                fields[name][slot, LAND_CARDS[card][0]] = 1
    top, bottom = game.land_deck[-1], game.land_deck[0]
    best_first = [int(clan) for clan in OMEN_BACKS[game.back_of[top]] if int(clan) < n]
    for r, seat in enumerate(seats):
        fields["omen_ranks"][r, best_first.index(seat)] = 1
    if game.deck_known[-1]:
        fields["deck_top_known"][LAND_CARDS[top][0]] = 1
    if game.deck_known[0]:
        fields["deck_bottom_known"][LAND_CARDS[bottom][0]] = 1
    fields["land_deck_size"][0] = len(game.land_deck)
    if game.rider_slot != EMPTY:
        fields["rider_slot"][game.rider_slot] = 1

    # What taking each row's land would score the observer now (its pick's initiative, or
    # the River cap before it picks; doubled for the Farmer), clipped to the field's scale.
    pick = game.picks[player]
    initiative = RIVER_INITIATIVE_CAP if pick == EMPTY else pick + 1
    neighbours = {seats[1], seats[-1]}
    neighbour_meadows = sum(
        LAND_CARDS[card][0] == LandKind.MEADOW for seat in neighbours for card in game.realms[seat]
    )
    for row_number, row in enumerate(game.rows):
        for slot, card in enumerate(row):
            if card == EMPTY:
                continue
            kind = LAND_CARDS[card][0]
            realm = [LAND_CARDS[owned][0].land_type for owned in game.realms[player]]
            realm.append(kind.land_type)
            counts = [realm.count(land_type) for land_type in LandType]
            value = land_reward(kind, counts, neighbour_meadows, initiative)
            if pick == Character.FARMER:
                value *= 2
            fields["land_values"][row_number, slot] = min(value, VALUE_SCALE)
    return fields


# ----- the fast encoder: sparse writes, cached realm summaries and land values ------------
CARD_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(card for card in range(CHARACTER_COUNT) if mask >> card & 1)
    for mask in range(1 << CHARACTER_COUNT)
)
"""CARD_BITS[mask]: the characters in a 12-bit hand mask, lowest first."""

OMEN_ORDERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(omen_order(back, n)) for back in range(len(OMEN_BACKS))) for n in range(P + 1)
)
"""OMEN_ORDERS[num_players][back]: :func:`omen_order`, looked up."""

_AT = {field.name: SCHEMA.offset(field.name) for field in SCHEMA.fields}
_SEAT_AT = tuple(
    (
        _AT["picked"] + r,
        _AT["revealed_picks"] + r * CHARACTER_COUNT,
        _AT["turn_position"] + r * P,
        _AT["done"] + r,
        _AT["discards"] + r * CHARACTER_COUNT,
        _AT["known_in_hand"] + r * CHARACTER_COUNT,
        _AT["hand_sizes"] + r,
        _AT["clan_deck_sizes"] + r,
        _AT["realms"] + r * LAND_KINDS,
    )
    for r in range(P)
)
"""Where each field of the seat at relative index ``r`` starts."""
_ROW_AT = tuple(
    tuple(_AT[name] + slot * LAND_KINDS for slot in range(P)) for name in ("row1", "row2")
)
_LAND_VALUES_AT = (_AT["land_values"], _AT["land_values"] + P)
REALM_CACHE_SIZE = 4096
_REALMS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
"""Realm summaries by the realm's cards: a realm changes a few times a game."""
WORTH_CACHE_SIZE = 1 << 14
"""Land values by kind are kept for this many (type counts, Meadows, initiative, Farmer)."""


def observation(game: VaalbaraGame, player: int) -> np.ndarray:
    """``SCHEMA.encode(view(player))``, encoded straight from the sparse view."""
    return SCHEMA.encode(sparse_view(game, player))


def sparse_view(game: VaalbaraGame, player: int) -> SparseView:
    """``player``'s view as flat entries of :data:`SCHEMA` (the per-step path)."""
    n = game.num_players
    view = SparseView()
    ones = view.ones
    if game.decision != EMPTY:
        ones += (_AT["decision"] + game.decision, _AT["decider"] + (game.decider - player) % n)
    active = game.active
    if active != NO_SEAT:
        ones.append(_AT["active"] + (active - player) % n)
    ones += (_AT["round"] + game.round, _AT["players"] + n - 2)
    ones += map(_AT["hand"].__add__, CARD_BITS[game.hands[player]])
    pick = game.picks[player]
    if pick != EMPTY:
        ones.append(_AT["my_pick"] + pick)
    view.set(_AT["my_vp"], min(game.vp[player], VP_SCALE))
    type_counts = _public_seats(game, player, view)
    for row_at, cards in zip(_ROW_AT, game.rows, strict=True):
        ones += [row_at[slot] + KIND_OF[card] for slot, card in enumerate(cards) if card >= 0]
    omens = _AT["omen_ranks"]
    for rank, seat in enumerate(OMEN_ORDERS[n][game.back_of[game.land_deck[-1]]]):
        ones.append(omens + (seat - player) % n * P + rank)
    deck, known = game.land_deck, game.deck_known
    if known[-1]:
        ones.append(_AT["deck_top_known"] + KIND_OF[deck[-1]])
    if known[0]:
        ones.append(_AT["deck_bottom_known"] + KIND_OF[deck[0]])
    view.set(_AT["land_deck_size"], len(deck))
    if game.rider_slot != EMPTY:
        ones.append(_AT["rider_slot"] + game.rider_slot)
    meadows = type_counts[1][LandType.MEADOW]
    if n > 2:
        meadows += type_counts[-1][LandType.MEADOW]
    _land_values(game, pick, type_counts[0], meadows, view)
    return view


def _land_values(
    game: VaalbaraGame, pick: int, counts: tuple[int, ...], meadows: int, view: SparseView
) -> None:
    """VP the observer would score taking each row land now: with its pick's initiative and
    Farmer doubling once picked, else at the River cap (public realms and own pick only)."""
    initiative = RIVER_INITIATIVE_CAP if pick == EMPTY else min(pick + 1, RIVER_INITIATIVE_CAP)
    worth = _worth(counts, meadows, initiative, pick == Character.FARMER)
    at, values = view.at, view.values
    for row_at, cards in zip(_LAND_VALUES_AT, game.rows, strict=True):
        for slot, card in enumerate(cards):
            if card != EMPTY:
                at.append(row_at + slot)
                values.append(worth[KIND_OF[card]])


@lru_cache(maxsize=WORTH_CACHE_SIZE)
def _worth(counts: tuple[int, ...], meadows: int, initiative: int, farmer: bool) -> tuple[int, ...]:
    """VP by land kind for one more land in a realm with type ``counts`` (capped for the
    observation; doubled for the Farmer). About 12,000 keys recur over many games."""
    factor = 2 if farmer else 1
    return tuple(
        min(
            factor
            * land_reward(kind, _plus_one(counts, KIND_TYPE_INDEX[kind]), meadows, initiative),
            VALUE_SCALE,
        )
        for kind in range(LAND_KINDS)
    )


def _plus_one(counts: tuple[int, ...], land_type: int) -> list[int]:
    new = list(counts)
    new[land_type] += 1
    return new


def _public_seats(game: VaalbaraGame, player: int, view: SparseView) -> list[tuple[int, ...]]:
    """What everyone sees of each seat, at its relative index; land type counts per seat."""
    ones, at, values = view.ones, view.at, view.values
    n, revealed, turn = game.num_players, game.revealed, game.turn
    type_counts = []
    for r in range(n):
        seat = (player + r) % n
        picked, pick_at, position_at, done, discards, known, hand, deck, realm_at = _SEAT_AT[r]
        pick = game.picks[seat]
        if pick != EMPTY:
            ones.append(picked)
        if revealed:
            position = game.turn_order.index(seat)
            ones += (pick_at + pick, position_at + position)
            if position < turn:
                ones.append(done)
        ones += map(discards.__add__, CARD_BITS[game.discards[seat]])
        ones += map(known.__add__, CARD_BITS[game.known_in_hand[seat]])
        hand_size = game.hands[seat].bit_count()
        if hand_size:
            at.append(hand)
            values.append(hand_size)
        deck_size = len(game.clan_decks[seat])
        if deck_size:
            at.append(deck)
            values.append(deck_size)
        realm = _realm_summary(tuple(game.realms[seat]))
        at += map(realm_at.__add__, realm[0])
        values += realm[1]
        type_counts.append(realm[2])
    return type_counts


def _realm_summary(realm: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """(kinds held, their counts, counts per land type) of a realm (cached)."""
    summary = _REALMS.get(realm)
    if summary is None:
        if len(_REALMS) >= REALM_CACHE_SIZE:
            _REALMS.clear()
        kinds = [KIND_OF[card] for card in realm]
        types = [TYPE_OF[card] for card in realm]
        held = tuple(sorted(set(kinds)))
        summary = _REALMS[realm] = (
            held,
            tuple(kinds.count(kind) for kind in held),
            tuple(types.count(land_type) for land_type in range(LAND_TYPES)),
        )
    return summary
