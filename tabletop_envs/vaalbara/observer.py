"""Vaalbara's observer: one seat's view as schema fields.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Other players' VP, hands, clan deck
orders, unrevealed picks, hidden Fighter answers and the land deck's unseen fronts are never
read here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import Field, ObservationSchema, SparseView
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


def view(game: VaalbaraGame, player: int) -> dict[str, Any]:
    """``player``'s view as the numeric fields of :data:`SCHEMA`."""
    return SCHEMA.expand(sparse_view(game, player))


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
    if active != EMPTY:
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
