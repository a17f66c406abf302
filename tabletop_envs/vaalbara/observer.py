"""Vaalbara's observer: one seat's view as schema fields.

Seats in the view are relative: index 0 is the observer, 1 its left neighbour (next seat),
and so on; indices past the player count stay zero. Other players' VP, hands, clan deck
orders, unrevealed picks, hidden Fighter answers and the land deck's unseen fronts are never
read here.

:func:`view` is the plain reference, written field by field from the state and the rulebook;
:func:`observation` is the per-step encoder, tested to equal ``SCHEMA.encode(view(...))`` at
every step: it keeps the view in table seat order in ``game.observer_cache``
(:class:`~tabletop_envs.core.encoding.KeptObservation`), encodes again only the blocks whose
state changed (the land table, the picks and turn order, each seat's cards), and writes what
depends on the observer into its vector (with bounded caches of realm summaries and land
values). The two share no code beyond the spec.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.cache import BoundedCache
from tabletop_envs.core.encoding import (
    SEATS,
    Field,
    KeptObservation,
    ObservationSchema,
    TableLayout,
)
from tabletop_envs.vaalbara.spec import (
    CARDS_IN,
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


# ----- the fast encoder: a kept view in table seat order, blocks encoded when they change ---
OMEN_ORDERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(omen_order(back, n)) for back in range(len(OMEN_BACKS))) for n in range(P + 1)
)
"""OMEN_ORDERS[num_players][back]: :func:`omen_order`, looked up."""


SEAT_FIELDS = ("discards", "known_in_hand", "hand_sizes", "clan_deck_sizes", "realms")
"""What everyone sees of each seat's cards: written again field by field, seat by seat."""
ORDER_FIELDS = ("picked", "revealed_picks", "turn_position", "done")
"""The picks and the turn order: kept together (one pick or turn changes them)."""
TABLE_FIELDS = (
    "round",
    "players",
    "omen_ranks",
    "deck_top_known",
    "deck_bottom_known",
    "land_deck_size",
    "rider_slot",
)
"""The land deck and the round (the land rows are kept apart)."""
TABLE = TableLayout(SCHEMA, P, dict.fromkeys((*SEAT_FIELDS, *ORDER_FIELDS, "omen_ranks"), SEATS))
"""The view stored in table seat order. The pending decision, the active seat and the
observer's own hand, pick, VP and land values are written into each observer's vector after
the gather."""
LAND, ROWS, ORDER, SEATS_BLOCK = range(4)
KEPT_BLOCKS = 4
"""Blocks: the round and land deck, the land rows, the picks and turn order, the seats'
cards. All but the first are kept as one key and written again only where they changed."""
_LAND_AT = TABLE.positions(TABLE_FIELDS)
_ORDER_AT = TABLE.positions(ORDER_FIELDS)
_KEPT = {name: [TABLE.at(name, seat) for seat in range(P)] for name in SCHEMA.slices}
"""Where each field starts when stored, by seat (the same for every seat of a table field)."""
_AT = {field.name: SCHEMA.offset(field.name) for field in SCHEMA.fields}
"""Where each field starts in an observation."""
_ROW_AT = tuple(
    tuple(_KEPT[name][0] + slot * LAND_KINDS for slot in range(P)) for name in ("row1", "row2")
)
_LAND_VALUES_AT = (_AT["land_values"], _AT["land_values"] + P)
_MEADOW, _RIVER, _FARMER = int(LandKind.MEADOW), int(LandKind.RIVER), int(Character.FARMER)
REALM_CACHE_SIZE = WORTH_CACHE_SIZE = 1 << 14
KINDS_CACHE_SIZE = 1 << 13
"""Realm summaries are kept for this many realms (by cards) and land kind multisets, land
worths for this many (realm rewards, neighbour Meadows, pick)."""


def _scaled(name: str, top: int) -> list[float]:
    """Field ``name``'s values 0..``top`` as :meth:`ObservationSchema.scale` leaves them."""
    rows = np.zeros((top + 1, SCHEMA.size), dtype=np.float32)
    rows[:, _AT[name]] = np.arange(top + 1)
    return SCHEMA.scale(rows)[:, _AT[name]].tolist()


_MY_VP, _HAND_SIZES, _DECK_SIZES, _REALM_COUNTS, _LAND_DECK_SIZES, _LAND_VALUES = (
    _scaled("my_vp", VP_SCALE),
    _scaled("hand_sizes", CHARACTER_COUNT),
    _scaled("clan_deck_sizes", CHARACTER_COUNT),
    _scaled("realms", len(LAND_CARDS)),
    _scaled("land_deck_size", len(LAND_CARDS)),
    _scaled("land_values", VALUE_SCALE),
)
"""The scaled fields' values, by the unscaled value, as the observation holds them (every
other field's scale is 1)."""


def observation(game: VaalbaraGame, player: int) -> np.ndarray:
    """``SCHEMA.encode(view(game, player))``: the kept view (what changed encoded again)
    turned to face ``player``, then what only ``player`` sees or depends on it. Values are
    written already scaled (:func:`_scaled`), so the vector needs no scaling pass."""
    kept = KeptObservation.of(game, TABLE, KEPT_BLOCKS)
    values, n = kept.values, game.num_players
    deck, known = game.land_deck, game.deck_known
    land = (
        game.round,
        game.back_of[deck[-1]],
        KIND_OF[deck[-1]] if known[-1] else EMPTY,
        KIND_OF[deck[0]] if known[0] else EMPTY,
        len(deck),
        game.rider_slot,
    )
    cells = memoryview(values)
    if kept.stale(LAND, land, _LAND_AT):
        _put_land(land, n, cells)
    keys = kept.keys
    rows = (game.rows[0], game.rows[1])
    if keys[ROWS] != rows:
        _put_rows(rows, kept.restamp(ROWS, rows), cells)
    order = (game.picks, game.turn_order, game.turn) if game.revealed else (game.picks,)
    if keys[ORDER] != order:
        _put_order(order, kept.restamp(ORDER, order), values, cells)
    realms = [tuple(realm) for realm in game.realms]
    decks = [len(deck) for deck in game.clan_decks]
    seats = (game.discards, game.known_in_hand, game.hands, decks, realms)
    if keys[SEATS_BLOCK] != seats:
        _put_seats(seats, kept.restamp(SEATS_BLOCK, seats), cells)
    vector = kept.observed(TABLE, n, player)
    _put_own(game, player, realms, memoryview(vector))
    return vector


def _put_land(land: tuple[int, ...], n: int, values: memoryview) -> None:
    """The round, the player count, the Omen ranks on the top card's back and the deck's
    public faces and size."""
    round_number, back, top, bottom, deck_size, rider_slot = land
    values[_KEPT["round"][0] + round_number] = 1
    values[_KEPT["players"][0] + n - 2] = 1
    omens = _KEPT["omen_ranks"]
    for rank, seat in enumerate(OMEN_ORDERS[n][back]):
        values[omens[seat] + rank] = 1
    if top != EMPTY:
        values[_KEPT["deck_top_known"][0] + top] = 1
    if bottom != EMPTY:
        values[_KEPT["deck_bottom_known"][0] + bottom] = 1
    values[_KEPT["land_deck_size"][0]] = _LAND_DECK_SIZES[deck_size]
    if rider_slot != EMPTY:
        values[_KEPT["rider_slot"][0] + rider_slot] = 1


def _put_rows(rows: tuple[list[int], ...], before: object, values: memoryview) -> None:
    """The land rows' faces, slot by slot where a card differs from ``before``."""
    was = before if isinstance(before, tuple) else ([EMPTY] * P, [EMPTY] * P)
    for row_at, cards, cards_before in zip(_ROW_AT, rows, was, strict=True):
        for slot, (card, card_before) in enumerate(zip(cards, cards_before, strict=False)):
            if card != card_before:
                if card_before != EMPTY:
                    values[row_at[slot] + KIND_OF[card_before]] = 0
                if card != EMPTY:
                    values[row_at[slot] + KIND_OF[card]] = 1


def _put_order(
    order: tuple[Any, ...], before: object, store: np.ndarray, values: memoryview
) -> None:
    """Who has picked; once the picks are revealed, each pick, turn position and whether its
    turn is over. A pick made, or a turn ended, writes only what it changed (``values`` is a
    memoryview of the ``store``, for the single writes)."""
    picks = order[0]
    if type(before) is tuple and len(before) == len(order):
        if len(order) == 1:
            for seat, (pick, pick_before) in enumerate(zip(picks, before[0], strict=True)):
                if pick != pick_before:
                    values[_KEPT["picked"][seat]] = pick != EMPTY
            return
        if before[:2] == order[:2] and before[2] <= order[2]:
            for seat in order[1][before[2] : order[2]]:
                values[_KEPT["done"][seat]] = 1
            return
    store[_ORDER_AT] = 0.0
    for seat, pick in enumerate(picks):
        if pick != EMPTY:
            values[_KEPT["picked"][seat]] = 1
    if len(order) == 1:
        return
    _, turn_order, turn = order
    for position, seat in enumerate(turn_order):
        values[_KEPT["revealed_picks"][seat] + picks[seat]] = 1
        values[_KEPT["turn_position"][seat] + position] = 1
        if position < turn:
            values[_KEPT["done"][seat]] = 1


def _put_seats(seats: tuple[list[Any], ...], before: object, values: memoryview) -> None:
    """Each seat field again for the seats where it differs from ``before``: the discards,
    the characters known in hand (only the cards that changed), the hand and clan deck
    sizes, the realm. A ``before`` that is not a seats key stands for a view with nothing
    written yet (all zeros)."""
    if not isinstance(before, tuple):
        nothing = [None] * len(seats[0])
        before = ([0] * len(nothing), [0] * len(nothing), nothing, nothing, nothing)
    for write, items, items_before in zip(_SEAT_WRITERS, seats, before, strict=True):
        if items != items_before:
            for seat, (item, was) in enumerate(zip(items, items_before, strict=True)):
                if item != was:
                    write(seat, item, was, values)


def _put_discards(seat: int, mask: int, was: int, values: memoryview) -> None:
    _put_cards(_KEPT["discards"][seat], mask, was, values)


def _put_known(seat: int, mask: int, was: int, values: memoryview) -> None:
    _put_cards(_KEPT["known_in_hand"][seat], mask, was, values)


def _put_cards(at: int, mask: int, was: int, values: memoryview) -> None:
    """A character mask's row from ``at``, where it differs from the mask ``was``."""
    for card in CARDS_IN[mask ^ was]:
        values[at + card] = mask >> card & 1


def _put_hand_size(seat: int, mask: int, _was: object, values: memoryview) -> None:
    values[_KEPT["hand_sizes"][seat]] = _HAND_SIZES[mask.bit_count()]


def _put_deck_size(seat: int, size: int, _was: object, values: memoryview) -> None:
    values[_KEPT["clan_deck_sizes"][seat]] = _DECK_SIZES[size]


def _put_realm(seat: int, realm: tuple[int, ...], _was: object, values: memoryview) -> None:
    at = _KEPT["realms"][seat]
    values[at : at + LAND_KINDS] = _REALMS[realm][0]


_SEAT_WRITERS = (_put_discards, _put_known, _put_hand_size, _put_deck_size, _put_realm)
"""Writers of the seat fields, in the order of the seats key's parts."""


def _put_own(
    game: VaalbaraGame, player: int, realms: list[tuple[int, ...]], vector: memoryview
) -> None:
    """The pending decision, who takes it, the active seat, and the observer's hand, pick,
    VP and land values, written through a memoryview of the observation (a float32 cell
    written so takes the same value as through numpy, at about half the cost)."""
    n = game.num_players
    if game.decision != EMPTY:
        vector[_DECISION_AT + game.decision] = 1
        vector[_DECIDER_AT + (game.decider - player) % n] = 1
    turn_order = game.turn_order
    if game.turn < len(turn_order):
        vector[_ACTIVE_AT + (turn_order[game.turn] - player) % n] = 1
    for card in CARDS_IN[game.hands[player]]:
        vector[_HAND_AT + card] = 1
    pick = game.picks[player]
    if pick != EMPTY:
        vector[_MY_PICK_AT + pick] = 1
    vector[_MY_VP_AT] = _MY_VP[min(game.vp[player], VP_SCALE)]
    meadows = _REALMS[realms[(player + 1) % n]][1]
    if n > 2:
        meadows += _REALMS[realms[player - 1]][1]
    _land_values(game, pick, _REALMS[realms[player]][2], meadows, vector)


_DECISION_AT, _DECIDER_AT, _ACTIVE_AT, _HAND_AT, _MY_PICK_AT, _MY_VP_AT = (
    _AT[name] for name in ("decision", "decider", "active", "hand", "my_pick", "my_vp")
)


def _land_values(
    game: VaalbaraGame, pick: int, rewards: tuple[int, ...], meadows: int, vector: memoryview
) -> None:
    """VP the observer would score taking each row land now (:func:`_worth`), by the kind of
    each row card."""
    worth = _WORTH[rewards, meadows, pick]
    for row_at, cards in zip(_LAND_VALUES_AT, game.rows, strict=True):
        for at, card in enumerate(cards, row_at):
            if card != EMPTY:
                vector[at] = worth[KIND_OF[card]]


def _worth(key: tuple[tuple[int, ...], int, int]) -> tuple[float, ...]:
    """A land's worth by kind, scaled, for ``key`` = (``rewards``, ``meadows``, ``pick``): with
    the pick's initiative and Farmer doubling once picked, else at the River cap (public
    realms and own pick only), clipped to the scale.

    ``rewards`` are the realm's :func:`land_reward` by kind with no neighbour Meadows at
    initiative 1: a Meadow's reward adds the neighbours' Meadows, a River's is multiplied by
    the initiative (at most the River cap); no other kind depends on either."""
    rewards, meadows, pick = key
    initiative = RIVER_INITIATIVE_CAP if pick == EMPTY else min(pick + 1, RIVER_INITIATIVE_CAP)
    worth = list(rewards)
    worth[_MEADOW] += meadows
    worth[_RIVER] *= initiative
    if pick == _FARMER:
        worth = [2 * value for value in worth]
    return tuple(_LAND_VALUES[min(value, VALUE_SCALE)] for value in worth)


def _realm_summary(realm: tuple[int, ...]) -> tuple[Any, ...]:
    """:func:`_kinds_summary` of a realm's cards."""
    return _kinds_summary(tuple(sorted(KIND_OF[card] for card in realm)))


_REALMS = BoundedCache(_realm_summary, REALM_CACHE_SIZE)
"""Realm summaries by the realm's cards, in the order taken: a realm changes a few times a
game."""
_WORTH = BoundedCache(_worth, WORTH_CACHE_SIZE)
"""Scaled land worths by kind, by (realm rewards, neighbour Meadows, pick)."""


@lru_cache(maxsize=KINDS_CACHE_SIZE)
def _kinds_summary(kinds: tuple[int, ...]) -> tuple[Any, ...]:
    """(the count of each land kind as a row, scaled, the Meadows, the :func:`land_reward` of one
    more land by kind with no neighbour Meadows at initiative 1) of a realm holding lands
    of ``kinds`` (sorted)."""
    types = [KIND_TYPE_INDEX[kind] for kind in kinds]
    counts = tuple(types.count(land_type) for land_type in range(LAND_TYPES))
    rewards = tuple(
        land_reward(kind, _plus_one(counts, KIND_TYPE_INDEX[kind]), 0, 1)
        for kind in range(LAND_KINDS)
    )
    row = np.array(
        [_REALM_COUNTS[kinds.count(kind)] for kind in range(LAND_KINDS)], dtype=np.float32
    )
    return row, counts[LandType.MEADOW], rewards


def _plus_one(counts: tuple[int, ...], land_type: int) -> list[int]:
    """Type ``counts`` with one more land of ``land_type``."""
    new = list(counts)
    new[land_type] += 1
    return new
