"""A scripted Vaalbara bot that reads only its own observation and plays to win.

Strategy
--------
*Valuing a land.* A land is worth its immediate reward for this realm (the rulebook's
formula, with the initiative cap for Rivers and the Farmer's doubling) plus the change it
makes to the realm's *potential*: what the realm is still expected to earn. The potential
counts, for the rounds left, the expected future Fields (each worth 2 more per Field
owned), Rivers (6 more per River owned), Meadows and Villages; a pending Mountain pair (one
Mountain waits 10 on the next, three wait 20) weighted by the chance of drawing another;
Forests while the Carpenter is unplayed; and the 5- and 6-type end bonus (exact in the last
round, expected before). Future rates come from the lands not yet seen plus the second row.

*Choosing a character.* For each card in hand the bot samples the other seats' hidden picks
(each unplayed card weighted by the chance it is in that hand), orders the round by
initiative and Omens, lets the seats ahead take the land best for them, and scores its own
turn: the character's effect (Hunter and Crafter by position against the neighbours; a
Crafter tie is a coin flip among the tied when a Tracker may change the Omens first; the
Oracle's odd neighbours, the Carpenter's Forests, the Falconer's steal, the Tracker's and
Rider's chance of a better land, the Pioneer's best swap) plus the best land left, valued
with this card's initiative (a River pays up to 6 per River) and the Farmer's doubling. The
same sampled picks are used for every card, and the card with the best mean wins. So the
Farmer is played when a big land (a second or fourth Mountain, a River or Field stack) will
still be there at the end of the round, and a low card when the land wanted is contested.
(Pricing a card by what it would earn in later rounds was tried and measured: it lost to
this one-round view in self-play, so the bot does not hoard.)

*Sub-decisions.* Lands: the best value, plus a share of what the land is worth to the next
seat (denial; all of it with two players). Tracker: the swap with the best expected land
afterwards (a known top card is used as such). Rider: the pair that brings the best second-
row land within reach. Pioneer: the realm land whose swap for the unseen bottom card gains
most. Midwife: the strongest discarded card (Farmer first). Bard: the seat whose realm
looks weakest. Fighter: always revealed (+1).

The bot reads its observation (through one matrix product, :class:`Seen`) and the action
mask: nothing else.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache, reduce
from itertools import accumulate, count, repeat
from operator import add, contains, itemgetter, mul, sub, truediv
from types import SimpleNamespace

import numpy as np
from tabletop_envs.agents.base import SeededAgent

from tabletop_envs.core.cache import BoundedCache
from tabletop_envs.vaalbara.observer import SCHEMA
from tabletop_envs.vaalbara.spec import (
    CHARACTER_COUNT,
    FOREST_VALUE,
    KIND_TYPE_INDEX,
    LAND_CARDS,
    LAND_KINDS,
    LAND_TYPES,
    LAYOUT,
    MAX_PLAYERS,
    MOUNTAIN_BONUS,
    RIVER_INITIATIVE_CAP,
    ROUNDS,
    TYPE_BONUS,
    Character,
    Decision,
    LandKind,
    LandType,
    land_cards_for,
)


def _plain(enum: type[IntEnum]) -> SimpleNamespace:
    """An enum's members as plain ints by name: reading an enum member is about ten times
    slower, and the bot reads them in its inner loops."""
    return SimpleNamespace(**{member.name: int(member) for member in enum})


C = _plain(Character)
T = _plain(LandType)
K = _plain(LandKind)
NONE = -1
CAP = RIVER_INITIATIVE_CAP
"""The initiative beyond which a River pays no more (a conditional is cheaper than ``min``)."""
KIND_FOREST_VALUE = [FOREST_VALUE.get(LandKind(kind), 0) for kind in range(LAND_KINDS)]
DECK_KINDS = {
    players: np.bincount(
        [int(LAND_CARDS[card][0]) for card in land_cards_for(players)], minlength=LAND_KINDS
    )
    for players in range(2, MAX_PLAYERS + 1)
}
"""Land kinds in the deck for each player count (a public fact of the setup)."""

MIDWIFE_PREFERENCE = (
    C.FARMER,
    C.PIONEER,
    C.CRAFTER,
    C.HUNTER,
    C.RIDER,
    C.FALCONER,
    C.ORACLE,
    C.CARPENTER,
    C.TRACKER,
    C.FIGHTER,
    C.BARD,
)
"""Which discarded card the Midwife brings back first: the strongest in self-play."""


@dataclass(frozen=True)
class Tuning:
    """The bot's weights (VP-scale factors).

    Measured in 800-game two-player duels against the defaults: pick_factor 1.2 or 2.2,
    type_chance 0.15 or 0.45 and denial_two_players 0.5 all land within noise (48-52 %).
    """

    samples: int = 24
    """Sampled deals of the other seats' hidden picks per character choice."""
    pick_factor: float = 1.6
    """How much more often than its share of the unseen lands the bot expects to get a type."""
    type_chance: float = 0.3
    """Chance per round left of adding a new land type (for the 5/6-type bonus)."""
    denial_two_players: float = 1.0
    denial_more_players: float = 0.3
    """Weight of a land's value to the next seat when choosing a land."""
    opponent_share: float = 0.5
    """How much VP given to (or taken from) one opponent counts against (for) the bot."""
    row2_tracker_weight: float = 0.3
    """How much a Tracker swap in the second row (next round's lands) counts."""


def type_counts(kinds: Sequence[int]) -> list[int]:
    counts = [0] * LAND_TYPES
    for kind, number in enumerate(kinds):
        counts[KIND_TYPE_INDEX[kind]] += int(number)
    return counts


def river_reward(types: Sequence[int], init: int) -> int:
    """VP for taking a River into a realm of ``types`` with initiative ``init``."""
    return (init if init < CAP else CAP) * (types[T.RIVER] + 1)


def type_bonus(distinct: int) -> int:
    return TYPE_BONUS.get(distinct, 0)


@lru_cache(maxsize=4096)
def rewards_at_no_initiative(types: tuple[int, ...], meadows_next_door: int) -> tuple[int, ...]:
    """VP for taking each land kind into a realm of ``types`` at initiative 0 (a River's,
    :func:`river_reward`, is then 0): the part of a land row that depends on the realm alone."""
    by_type = [0] * LAND_TYPES
    by_type[T.MEADOW] = types[T.MEADOW] + 1 + meadows_next_door
    by_type[T.FIELD] = 2 * (types[T.FIELD] + 1)
    by_type[T.VILLAGE] = 2 * (LAND_TYPES - types.count(0) + (types[T.VILLAGE] == 0))
    by_type[T.MOUNTAIN] = MOUNTAIN_BONUS.get(types[T.MOUNTAIN] + 1, 0)
    return tuple(map(add, map(by_type.__getitem__, KIND_TYPE_INDEX), KIND_FOREST_VALUE))


@lru_cache(maxsize=64)
def bonus_terms(new_type: float) -> tuple[float, ...]:
    """For each number of distinct types, its end bonus and what new types are expected to
    add, each new type coming with chance ``new_type``."""
    terms = []
    for distinct in range(LAND_TYPES + 1):
        gain_one = type_bonus(distinct + 1) - type_bonus(distinct)
        gain_two = type_bonus(distinct + 2) - type_bonus(distinct + 1)
        terms.append(
            type_bonus(distinct) + gain_one * new_type + gain_two * new_type * new_type * 0.5
        )
    return tuple(terms)


def _weights(name: str, row: int, weights: Sequence[float]) -> np.ndarray:
    """A read-out column: ``weights`` on row ``row`` of field ``name``, zero elsewhere."""
    column = np.zeros(SCHEMA.size)
    start = SCHEMA.offset(name) + row * len(weights)
    column[start : start + len(weights)] = weights
    return column


SINGLES = ("decision", "round", "my_pick", "rider_slot", "deck_top_known", "deck_bottom_known")
"""The one-hot fields :class:`Seen` reads as one number each, first in the read-out."""
SEAT_PARTS = ("revealed_picks", "turn_position", "omen_ranks", "row1", "row2")
SEAT_PARTS += ("discards", "known_in_hand", "hand_sizes", "picked")
"""The fields :class:`Seen` reads as one number per seat, next in the read-out in this order."""


def _field_columns(name: str, rows: range) -> tuple[list[np.ndarray], float]:
    """The read-out columns of a field of :data:`SINGLES` or :data:`SEAT_PARTS`, one per row
    in ``rows`` (for the flags of a seat, the seat), and their offset: a one-hot row as its
    index (``NONE`` when none is set, except for the fields always set), card flags as a bit
    mask, a flag per seat as the seat's flag."""
    width = _WIDTHS[name]
    if name in ("discards", "known_in_hand"):
        return [_weights(name, row, _BITS) for row in rows], 0.0
    if name in ("hand_sizes", "picked"):
        return [_weights(name, 0, np.eye(width)[row]) for row in rows], 0.0
    if name in ("decision", "round", "turn_position", "omen_ranks"):
        return [_weights(name, row, np.arange(width)) for row in rows], 0.0
    return [_weights(name, row, np.arange(1, width + 1)) for row in rows], NONE


@dataclass(frozen=True)
class Reading:
    """What :class:`Seen` reads from an observation of ``n`` players: the read-out ``matrix``
    and where each part lies in its product (slices)."""

    n: int
    matrix: np.ndarray
    seat_parts: tuple[slice, ...]
    """One slice per field of :data:`SEAT_PARTS`, in that order (after :data:`SINGLES`)."""
    kinds: slice
    """Seat 0's realm, by land kind."""
    types: tuple[slice, ...]
    """Each seat's realm, by land type."""
    meadows: slice
    """Each seat's Meadows (a strided slice of the types)."""
    unseen: slice
    future: slice
    """The land types still to come: the unseen lands and the second row, by type."""


def _reading(n: int) -> Reading:
    """The read-out for ``n`` players, one matrix applied to the observation: the fields of
    :data:`SINGLES` and :data:`SEAT_PARTS` (:func:`_field_columns`), seat 0's realm by kind,
    every realm by type, ``unseen`` (the deck's count of each land kind less those in sight:
    realms, rows, known deck cards) and ``future`` (the unseen lands plus the second row, by
    type). The fields' scales are folded into the matrix, so every read is a small integer up
    to float32 error (far below 0.5) and rounds to the exact value; the offsets (``NONE``, the
    deck's counts) ride on the row of the players flag of ``n`` players, which is set in every
    observation the matrix reads."""
    columns: list[np.ndarray] = []
    bias: list[float] = []

    def part(parts: list[np.ndarray], offset: Sequence[float] | float = 0.0) -> slice:
        columns.extend(parts)
        bias.extend(np.broadcast_to(offset, len(parts)).tolist())
        return slice(len(columns) - len(parts), len(columns))

    seats, every_seat = range(n), range(MAX_PLAYERS)
    for name in SINGLES:
        part(*_field_columns(name, range(1)))
    seat_parts = tuple(part(*_field_columns(name, seats)) for name in SEAT_PARTS)
    kinds = part([_weights("realms", 0, one) for one in np.eye(LAND_KINDS)])
    of_type = np.eye(LAND_TYPES)[KIND_TYPE_INDEX]
    types = part([_weights("realms", seat, of_type[:, t]) for seat in seats for t in range(6)])
    shown_rows = [(name, seat) for name in ("realms", "row1", "row2") for seat in every_seat]
    shown_rows += [("deck_top_known", 0), ("deck_bottom_known", 0)]
    kind_rows = np.eye(LAND_KINDS)
    shown = [sum(_weights(name, seat, one) for name, seat in shown_rows) for one in kind_rows]
    unseen = part([-column for column in shown], DECK_KINDS[n])
    row2 = [sum(_weights("row2", seat, one) for seat in every_seat) for one in kind_rows]
    to_come = [row2[kind] - shown[kind] for kind in range(LAND_KINDS)]
    of_each = [np.flatnonzero(of_type[:, t]) for t in range(LAND_TYPES)]
    deck_types = np.bincount(KIND_TYPE_INDEX, DECK_KINDS[n], LAND_TYPES)
    future = part([sum(to_come[kind] for kind in kinds_of) for kinds_of in of_each], deck_types)
    matrix = np.stack(columns, axis=1) / SCHEMA.scales.astype(np.float64)[:, None]
    matrix[SCHEMA.offset("players") + n - 2] += bias  # the flag of n players: set, alone
    start, width = types.start, LAND_TYPES
    return Reading(
        n,
        matrix.astype(np.float32),
        seat_parts,
        kinds,
        tuple(slice(start + seat * width, start + (seat + 1) * width) for seat in seats),
        slice(start + T.MEADOW, types.stop, width),
        unseen,
        future,
    )


_WIDTHS = {field.name: field.shape[-1] for field in SCHEMA.fields}
_BITS = [1 << card for card in range(CHARACTER_COUNT)]
_SHAPE = (SCHEMA.size,)
_PLAYERS = SCHEMA.slices["players"]
_READINGS = {
    np.eye(MAX_PLAYERS - 1, dtype=np.float32)[n - 2].tobytes(): _reading(n)
    for n in range(2, MAX_PLAYERS + 1)
}
""":class:`Reading` by the players flags (the observation's bytes): one per player count."""


NEIGHBOURS = {
    n: [sorted({(seat - 1) % n, (seat + 1) % n}) for seat in range(n)]
    for n in range(2, MAX_PLAYERS + 1)
}
"""Each seat's neighbours (one seat with two players), by player count."""


class Seen:
    """One seat's decoded observation, with seats relative to it (0 is itself)."""

    __slots__ = (
        *("n", "decision", "round", "rounds_left", "my_pick", "rider_slot", "top", "bottom"),
        *("picks", "position", "omen", "row1", "row2", "discards", "known", "hand_sizes"),
        *("picked", "own_kinds", "types", "neighbour_seats", "meadows_near", "unseen"),
        *("future", "row1_lands"),
    )

    def __init__(self, observation: np.ndarray) -> None:
        if observation.shape != _SHAPE:
            raise ValueError(f"observation has shape {observation.shape}, expected {_SHAPE}")
        reading = _READINGS.get(observation[_PLAYERS].tobytes())
        if reading is None:
            raise ValueError("the observation sets no player count")
        out = np.rint(observation @ reading.matrix).astype(np.int64).tolist()
        self.n = n = reading.n
        self.decision, self.round, self.my_pick, self.rider_slot, self.top, self.bottom = out[:6]
        self.rounds_left = ROUNDS - 1 - self.round
        (
            self.picks,
            self.position,
            self.omen,
            self.row1,
            self.row2,
            self.discards,
            self.known,
            self.hand_sizes,
            self.picked,
        ) = map(out.__getitem__, reading.seat_parts)
        self.own_kinds = out[reading.kinds]
        self.types = list(map(out.__getitem__, reading.types))
        self.neighbour_seats = NEIGHBOURS[n]
        meadows = out[reading.meadows]
        self.meadows_near = (
            meadows[::-1]  # one neighbour
            if n == 2
            else list(map(add, meadows[-1:] + meadows[:-1], meadows[1:] + meadows[:1]))
        )
        """The Meadows in each seat's neighbours' realms."""
        self.unseen = unseen = out[reading.unseen]
        """Land kinds not visible anywhere: the unknown part of the land deck."""
        self.future = tuple(out[reading.future])
        """Land types still to come: the unseen lands and the second row."""
        if min(unseen) < 0:  # more of a kind in sight than this count's deck holds: none left
            self.unseen = [count if count > 0 else 0 for count in unseen]
            to_come = self.unseen[:]
            for kind in self.row2:
                if kind != NONE:
                    to_come[kind] += 1
            self.future = tuple(type_counts(to_come))
        self.row1_lands = tuple(filter(NONE.__ne__, self.row1))
        """The lands of the first row, in slot order."""

    def meadows_next_door(self, seat: int) -> int:
        return self.meadows_near[seat]


@dataclass(frozen=True)
class Outlook:
    """What the rounds left are expected to bring a realm, from the lands still to come."""

    expected: tuple[float, ...]
    """Lands of each type a realm is expected to add."""
    mountain_terms: dict[int, float]
    """What a realm's Mountains wait for, by how many it has (a pair pays)."""
    bonus_terms: tuple[float, ...]
    """:func:`bonus_terms` for the chance of adding a new type."""
    key: tuple[float, ...]
    """Everything :meth:`LandModel.potential` reads besides the realm."""
    rows: BoundedCache[tuple[object, ...], dict[tuple[int, bool], list[float]]] = field(
        default_factory=lambda: BoundedCache(lambda _realm: {}, ROWS_KEPT)
    )
    """:meth:`LandModel.row` kept by the model's class, a seat's realm, neighbour Meadows and
    Carpenter (then by initiative and Farmer): the bots at a table ask for the same realms
    under the same outlook (at most :data:`ROWS_KEPT` realms)."""

    @staticmethod
    @lru_cache(maxsize=1024)
    def of(future: tuple[int, ...], left: int, pick_factor: float, type_chance: float) -> Outlook:
        """The outlook with ``future`` lands of each type still to come and ``left`` rounds
        to play (kept: every seat at a table sees nearly the same)."""
        total = sum(future) or 1  # at least 1: counts are never negative
        shares = [pick_factor * count / total for count in future]
        rate = [share if share < 0.9 else 0.9 for share in shares]  # min(0.9, share)
        expected = tuple([left * chance for chance in rate])
        mountain = rate[T.MOUNTAIN]
        mountain_one = 1 - (1 - mountain) ** left
        mountain_two = mountain_one - left * mountain * (1 - mountain) ** (
            left - 1 if left > 0 else 0
        )
        new_type = 1 - (1 - type_chance) ** left
        return Outlook(
            expected,
            {1: 10 * mountain_one, 2: 20 * mountain_two, 3: 20 * mountain_one},
            bonus_terms(new_type),
            (*expected, mountain_one, mountain_two, new_type),
        )


ROWS_KEPT = 256
"""How many realms one :class:`Outlook` keeps rows for."""

PICK_VALUES_KEPT = 1 << 12
_PICK_VALUES: BoundedCache[tuple[object, ...], list[float]] = BoundedCache(None, PICK_VALUES_KEPT)
""":meth:`LandModel.pick_values` by the model's class, realm, Carpenter and outlook."""


class LandModel:
    """Land values for every seat: immediate reward plus the change in realm potential."""

    __slots__ = (
        *("seen", "tuning", "expected", "_mountain_terms", "_bonus_terms", "_outlook"),
        *("_kept_rows", "carpenter_left", "_pick_values", "_rows", "_pioneer_gains"),
        *("_unseen_mix", "_lands_after"),
    )

    def __init__(self, seen: Seen, tuning: Tuning) -> None:
        self.seen = seen
        self.tuning = tuning
        outlook = Outlook.of(seen.future, seen.rounds_left, tuning.pick_factor, tuning.type_chance)
        self.expected = outlook.expected
        self._mountain_terms = outlook.mountain_terms
        self._bonus_terms = outlook.bonus_terms
        self._outlook = outlook.key
        self._kept_rows = outlook.rows
        self.carpenter_left = [
            not seen.discards[s] >> C.CARPENTER & 1 and seen.rounds_left > 0 for s in range(seen.n)
        ]
        self._pick_values: list[list[float] | None] = [None] * seen.n
        self._rows: list[dict[tuple[int, bool], list[float]] | None] = [None] * seen.n
        """Each seat's rows, by initiative (capped) and Farmer: from :attr:`Outlook.rows`."""
        self._pioneer_gains: dict[int, float] | None = None
        self._unseen_mix: list[tuple[int, float]] | None = None
        self._lands_after: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = {}

    def potential(self, types: list[int], carpenter: bool) -> float:
        """What a realm of ``types`` is still expected to earn (end bonus included)."""
        e = self.expected
        value = 2.0 * types[T.FIELD] * e[T.FIELD] + 6.0 * types[T.RIVER] * e[T.RIVER]
        value += types[T.MEADOW] * e[T.MEADOW]
        distinct = LAND_TYPES - types.count(0)
        value += 2.0 * distinct * e[T.VILLAGE]
        mountain = self._mountain_terms.get(types[T.MOUNTAIN])
        if mountain is not None:
            value += mountain
        if carpenter:
            value += 3.0 * types[T.FOREST]
        value += self._bonus_terms[distinct]
        return value

    def pick_values(self, seat: int) -> list[float]:
        """What adding each land kind to ``seat``'s realm changes in its potential (kept,
        also across decisions: every seat sees the same public realms and lands, so the bots
        at a table ask for the same realms under the same outlook)."""
        values = self._pick_values[seat]
        if values is None:
            carpenter = self.carpenter_left[seat]
            key = (type(self), tuple(self.seen.types[seat]), carpenter, self._outlook)
            values = _PICK_VALUES.get(key)
            if values is None:
                values = _PICK_VALUES.keep(key, self._seat_deltas(seat))
            self._pick_values[seat] = values
        return values

    def _seat_deltas(self, seat: int) -> list[float]:
        """Potential change of adding each land kind to ``seat``'s realm."""
        types = self.seen.types[seat]
        carpenter = self.carpenter_left[seat]
        base = self.potential(types, carpenter)
        by_type = [grown - base for grown in self.grown_potentials(types, carpenter)]
        return list(map(by_type.__getitem__, KIND_TYPE_INDEX))

    def grown_potentials(self, types: list[int], carpenter: bool) -> list[float]:
        """:meth:`potential` of ``types`` grown by one land of each type, in type order (the
        same arithmetic, without a copy and a call per type)."""
        e = self.expected
        meadow, field = types[T.MEADOW], types[T.FIELD]
        forest, mountain, river = types[T.FOREST], types[T.MOUNTAIN], types[T.RIVER]
        distinct = LAND_TYPES - types.count(0)
        mountain_terms, bonus = self._mountain_terms, self._bonus_terms
        values = []
        for land_type in range(LAND_TYPES):
            value = (
                2.0 * (field + (land_type == T.FIELD)) * e[T.FIELD]
                + 6.0 * (river + (land_type == T.RIVER)) * e[T.RIVER]
            )
            value += (meadow + (land_type == T.MEADOW)) * e[T.MEADOW]
            count = distinct + (types[land_type] == 0)
            value += 2.0 * count * e[T.VILLAGE]
            term = mountain_terms.get(mountain + (land_type == T.MOUNTAIN))
            if term is not None:
                value += term
            if carpenter:
                value += 3.0 * (forest + (land_type == T.FOREST))
            values.append(value + bonus[count])
        return values

    def value(self, seat: int, kind: int, init: int, farmer: bool = False) -> float:
        """What taking ``kind`` now is worth to ``seat`` playing initiative ``init``."""
        return self.row(seat, init, farmer)[kind]

    def row(self, seat: int, init: int, farmer: bool = False) -> list[float]:
        """:meth:`value` of every land kind for ``seat`` at initiative ``init`` (kept)."""
        rows = self._rows[seat] or self._seat_rows(seat)
        key = (init if init < CAP else CAP, farmer)  # the same River beyond the cap
        values = rows.get(key)
        if values is None:
            values = rows[key] = self._fixed_row(seat, farmer)[:]
            river = river_reward(self.seen.types[seat], init) * (2 if farmer else 1)
            values[K.RIVER] = river + self.pick_values(seat)[K.RIVER]
        return values

    def _seat_rows(self, seat: int) -> dict[tuple[int, bool], list[float]]:
        """``seat``'s rows as :attr:`Outlook.rows` keeps them (a new entry if none)."""
        seen = self.seen
        carpenter = self.carpenter_left[seat]
        key = (type(self), tuple(seen.types[seat]), seen.meadows_near[seat], carpenter)
        rows = self._rows[seat] = self._kept_rows[key]
        return rows

    def _fixed_row(self, seat: int, farmer: bool) -> list[float]:
        """:meth:`row` but for the River, the one kind whose reward depends on the initiative
        (its entry is left to :meth:`row`; kept)."""
        rows = self._rows[seat] or self._seat_rows(seat)
        key = (-1, farmer)
        values = rows.get(key)
        if values is None:
            seen = self.seen
            rewards = rewards_at_no_initiative(tuple(seen.types[seat]), seen.meadows_near[seat])
            if farmer:
                rewards = map(mul, rewards, repeat(2))
            values = rows[key] = list(map(add, rewards, self.pick_values(seat)))
        return values

    def lands_after(self, lands: tuple[int, ...], seat: int, init: int) -> tuple[int, ...]:
        """``lands`` once ``seat`` playing initiative ``init`` took the best for it (kept:
        sampled deals share their first turns)."""
        key = (lands, seat, init if init < CAP else CAP)  # the same row beyond the cap
        left = self._lands_after.get(key)
        if left is None:
            best = first_best(self.row(seat, init), lands)
            left = self._lands_after[key] = lands[:best] + lands[best + 1 :]
        return left

    def unseen_draws(self, known: int) -> list[tuple[int, float]]:
        """(kind, probability) of a face-down card: certain if ``known``, else the unseen mix."""
        if known != NONE:
            return [(known, 1.0)]
        if self._unseen_mix is None:
            total = sum(self.seen.unseen)
            self._unseen_mix = [(k, c / total) for k, c in enumerate(self.seen.unseen) if c]
        return self._unseen_mix

    def pioneer_gains(self) -> dict[int, float]:
        """Expected gain of swapping away each realm kind for the deck's bottom card (kept)."""
        if self._pioneer_gains is None:
            self._pioneer_gains = self._swap_gains()
        return self._pioneer_gains

    def _swap_gains(self) -> dict[int, float]:
        """:meth:`pioneer_gains`, computed."""
        seen = self.seen
        types = seen.types[0]
        carpenter = self.carpenter_left[0]
        base = self.potential(types, carpenter)
        draws = self.unseen_draws(seen.bottom)
        by_type: dict[int, float] = {}
        """The gain of swapping away a land of each type: the same for kinds of one type."""
        for land_type in {KIND_TYPE_INDEX[k] for k, held in enumerate(seen.own_kinds) if held}:
            after = list(types)
            after[land_type] -= 1
            rewards = list(rewards_at_no_initiative(tuple(after), seen.meadows_near[0]))
            rewards[K.RIVER] = river_reward(after, C.PIONEER + 1)
            grown_potential: dict[int, float] = {}
            gain = 0.0
            for drawn, probability in draws:
                drawn_type = KIND_TYPE_INDEX[drawn]
                potential = grown_potential.get(drawn_type)
                if potential is None:
                    grown = list(after)
                    grown[drawn_type] += 1
                    potential = grown_potential[drawn_type] = self.potential(grown, carpenter)
                gain += probability * (rewards[drawn] + potential - base)
            by_type[land_type] = gain
        return {
            kind: by_type[KIND_TYPE_INDEX[kind]]
            for kind, count in enumerate(seen.own_kinds)
            if count
        }


def numpy_sum(values: list[float]) -> float:
    """``np.sum`` of up to 128 floats, to the last bit (numpy's pairwise summation below its
    block size): fewer than 8 added in order, more in eight interleaved partial sums that are
    then added pairwise, the values left over added in order."""
    if len(values) < 8:
        return reduce(add, values, 0.0)
    whole = len(values) - len(values) % 8
    sums = values[:8]
    for start in range(8, whole, 8):
        sums = list(map(add, sums, values[start : start + 8]))
    total = ((sums[0] + sums[1]) + (sums[2] + sums[3])) + (
        (sums[4] + sums[5]) + (sums[6] + sums[7])
    )
    return reduce(add, values[whole:], total)


@lru_cache(maxsize=1 << CHARACTER_COUNT)
def unplayed_cards(discarded: int) -> list[int]:
    """The cards not in ``discarded`` (a bit mask), in order (kept: never changed)."""
    return [card for card in range(CHARACTER_COUNT) if not discarded >> card & 1]


@lru_cache(maxsize=4096)
def pick_chances(discarded: int, known: int, in_hand: int) -> tuple[list[int], np.ndarray]:
    """A seat's unplayed cards and the cumulative chance of each being its pick (weighted by
    being in hand), from its discards and known cards (bit masks) and how many it holds (kept:
    never changed). The floats are numpy's for the weights' array (``(weights /
    weights.sum()).cumsum()``, divided by its last value), worked out in Python."""
    unplayed = unplayed_cards(discarded)
    held = (known & ~discarded).bit_count()
    free = len(unplayed) - held
    free_chance = (in_hand - held if in_hand > held else 0) / (free if free > 1 else 1)
    if held:
        weights = [1.0 if known >> card & 1 else free_chance for card in unplayed]
    else:
        weights = [free_chance] * len(unplayed)
    total = numpy_sum(weights)
    if total <= 0:
        weights = [1.0] * len(unplayed)
        total = numpy_sum(weights)
    cumulative = list(accumulate(map(truediv, weights, repeat(total))))
    return unplayed, np.array(cumulative) / cumulative[-1]


def best_of(row: list[float], lands: Sequence[int]) -> float:
    """The best value in ``row`` of the kinds ``lands`` (0 for none), as ``max`` finds it: a
    loop costs less than ``max``'s argument parsing and iteration over a few lands."""
    if not lands:
        return 0.0
    best = row[lands[0]]
    for kind in lands:
        value = row[kind]
        if value > best:
            best = value
    return best


def first_best(row: list[float], lands: Sequence[int]) -> int:
    """Where in ``lands`` (not empty) the first of the best values in ``row`` lies, as
    ``list.index`` of ``max`` finds it."""
    at, best = 0, row[lands[0]]
    for index in range(1, len(lands)):
        value = row[lands[index]]
        if value > best:
            at, best = index, value
    return at


PICKS_MATTER = frozenset((C.CRAFTER, C.ORACLE))
"""The characters whose effect reads the neighbours' picks (and whether a Tracker is played)."""


DEAL_EFFECTS = frozenset((C.HUNTER, C.CRAFTER, C.ORACLE, C.FALCONER, C.TRACKER, C.RIDER))
"""The characters whose effect depends on the deal: on the picks, the order or the lands left."""


def turn_key(card: int, omen: int) -> int:
    """When a seat playing ``card`` with Omen rank ``omen`` resolves, as one number: by
    initiative, then by Omens."""
    return card * MAX_PLAYERS + omen


class Deals:
    """The distinct sampled deals of the other seats' picks, each with those seats'
    :func:`turn_key` in resolution order and the lands each place in that order finds (the
    seats ahead of a card are a prefix of the order, so one chain serves every card)."""

    __slots__ = ("deals", "keys", "lands")

    def __init__(
        self, seen: Seen, model: LandModel, deals: list[tuple[int, ...]], last: int
    ) -> None:
        """``last``: the latest :func:`turn_key` a card will be valued at (the chains stop
        at its place)."""
        self.deals = deals
        omen = seen.omen
        rivals = range(1, seen.n)
        seat_of = dict(zip(omen, count()))  # Omen ranks are distinct
        after = model.lands_after
        first = seen.row1_lands
        self.keys: list[list[int]] = []
        """Per deal, the other seats' turn keys in resolution order."""
        self.lands: list[list[tuple[int, ...]]] = []
        """Per deal, the first row's lands as each place finds them."""
        for picks in deals:
            keys = [picks[seat] * MAX_PLAYERS + omen[seat] for seat in rivals]
            keys.sort()
            lands = [first]
            for key in keys[: bisect_left(keys, last)]:  # card and Omen rank as turn_key made it
                lands.append(after(lands[-1], seat_of[key % MAX_PLAYERS], key // MAX_PLAYERS + 1))
            self.keys.append(keys)
            self.lands.append(lands)

    def lands_found(self, mine: int) -> list[tuple[int, ...]]:
        """Per deal, the lands left to a seat resolving at turn key ``mine``."""
        places = map(bisect_left, self.keys, repeat(mine))
        return list(map(list.__getitem__, self.lands, places))

    def neighbour_first(self, seen: Seen, mine: int) -> list[bool]:
        """Per deal, whether a neighbour resolves before turn key ``mine``."""
        omen = seen.omen
        keys = [
            [picks[seat] * MAX_PLAYERS + omen[seat] for picks in self.deals]
            for seat in seen.neighbour_seats[0]
        ]  # each neighbour's turn_key per deal
        first = keys[0] if len(keys) == 1 else map(min, *keys)
        return list(map(mine.__gt__, first))

    def neighbour_picks(self, seen: Seen) -> list[tuple[object, bool]]:
        """Per deal, the neighbours' picks and whether another seat plays the Tracker."""
        deals = self.deals
        picks = map(itemgetter(*seen.neighbour_seats[0]), deals)
        return list(zip(picks, map(contains, deals, repeat(C.TRACKER)), strict=True))


class VaalbaraHeuristicAgent(SeededAgent):
    """Scripted Vaalbara player; see the module docstring for its strategy."""

    name = "vaalbara_heuristic"
    model_class: type[LandModel] = LandModel

    def __init__(self, seed: int | None = None, tuning: Tuning | None = None) -> None:
        super().__init__(seed)
        self.tuning = tuning or Tuning()

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        legal = observation["action_mask"].nonzero()[0].tolist()
        if not legal:
            raise ValueError(f"{agent} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        seen = Seen(observation["observation"])
        segment = LAYOUT.segment_of(seen.decision)
        options = list(map(sub, legal, repeat(segment.offset)))
        model = self.model_class(seen, self.tuning)
        choose = getattr(self, _CHOOSERS[seen.decision])
        return segment.offset + choose(seen, model, options)

    # ----- assignment -----------------------------------------------------------------
    def choose_character(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        """The card whose turn is worth most on average over sampled picks of the others."""
        samples = self._sample_picks(seen, self.tuning.samples)
        distinct = dict(zip(dict.fromkeys(samples), count()))
        """Each distinct deal's index, in the order of first sampling."""
        deal_of_sample = list(map(distinct.__getitem__, samples))
        deals = Deals(seen, model, list(distinct), turn_key(max(options), seen.omen[0]))

        def expected(card: int) -> float:
            values = self._turn_values(seen, model, deals, card)
            return sum(map(values.__getitem__, deal_of_sample))

        return max(options, key=expected)

    def _turn_values(self, seen: Seen, model: LandModel, deals: Deals, card: int) -> list[float]:
        """The card's turn (its effect plus the best land left) against each distinct deal,
        valued once per distinct (lands left, facts its effect reads)."""
        mine = turn_key(card, seen.omen[0])
        lands = deals.lands_found(mine)
        row = model.row(0, card + 1, card == C.FARMER)
        if card not in DEAL_EFFECTS:
            effect = self._fixed_effect(seen, model, card)
            by_lands = dict.fromkeys(lands)
            for left in by_lands:
                by_lands[left] = best_of(row, left) + effect
            return list(map(by_lands.__getitem__, lands))
        facts: list | None = None
        if card == C.HUNTER:
            facts = deals.neighbour_first(seen, mine)
        elif card in PICKS_MATTER:
            facts = deals.neighbour_picks(seen)
        keys: list = lands if facts is None else list(zip(facts, lands, strict=True))
        values: dict[object, float] = {}
        for deal, key in enumerate(keys):
            if key in values:
                continue
            left = lands[deal]
            best = best_of(row, left)
            picks = deals.deals[deal]
            fact = None if facts is None else facts[deal]
            values[key] = best + self._deal_effect(seen, model, card, picks, fact, left, best)
        return list(map(values.__getitem__, keys))

    def _sample_picks(self, seen: Seen, samples: int) -> list[tuple[int, ...]]:
        """``samples`` guesses at every other seat's pick (seat 0's entry is a placeholder),
        by inverse-CDF sampling: one uniform draw per sample and seat, in that order (a draw
        picks the first card whose cumulative chance exceeds it)."""
        chances = [
            pick_chances(
                seen.discards[seat], seen.known[seat], seen.hand_sizes[seat] + seen.picked[seat]
            )
            for seat in range(1, seen.n)
        ]
        draws = self.rng.random((samples, len(chances))).T
        picks = [
            list(map(cards.__getitem__, cumulative.searchsorted(seat_draws, "right").tolist()))
            for (cards, cumulative), seat_draws in zip(chances, draws, strict=True)
        ]
        return list(zip(repeat(NONE), *picks))

    def _fixed_effect(self, seen: Seen, model: LandModel, card: int) -> float:
        """The effect of a card outside :data:`DEAL_EFFECTS` for this seat."""
        if card == C.CARPENTER:
            return 3.0 * seen.types[0][T.FOREST]
        if card == C.BARD:
            return -2.0 * (self.tuning.opponent_share / (seen.n - 1))
        if card == C.PIONEER:
            return max(model.pioneer_gains().values(), default=0.0)
        return 0.0

    def _deal_effect(
        self,
        seen: Seen,
        model: LandModel,
        card: int,
        picks: tuple[int, ...],
        neighbour_first: object,
        lands: tuple[int, ...],
        best: float,
    ) -> float:
        """The effect of a card in :data:`DEAL_EFFECTS` for this seat: ``picks`` the sampled
        deal (every other seat's pick; seat 0's entry a placeholder), ``neighbour_first`` (for
        the Hunter) whether a neighbour resolves first, ``lands`` the lands left to it and
        ``best`` the best of them."""
        if card == C.HUNTER:
            return 3.0 * (not neighbour_first)
        if card == C.CRAFTER:
            return 5.0 * self._crafter_chance(seen, picks, seen.neighbour_seats[0])
        if card == C.ORACLE:
            odd = 0
            for n in seen.neighbour_seats[0]:  # a loop: sum() over a generator costs more
                odd += (picks[n] + 1) % 2 == 1
            return 2.0 * odd
        if card == C.FALCONER:
            share = self.tuning.opponent_share / (seen.n - 1)
            return (2.0 + 2.0 * share) * (len(lands) < len(seen.row1_lands))
        if card == C.TRACKER:
            return self._tracker_gain(model, lands, best)
        return self._rider_gain(seen, model, lands, best)

    @staticmethod
    def _crafter_chance(seen: Seen, picks: tuple[int, ...], neighbours: list[int]) -> float:
        """Chance that the Crafter gains its 5: every neighbour plays a lower initiative, or
        ties and ranks higher in the Omens as they stand when the Crafter resolves. A Tracker
        this round puts an unseen back on top, so a tie is then won with chance 1 / (ties + 1)."""
        tied = []
        for n in neighbours:  # a loop: any() over a generator costs more
            if picks[n] > C.CRAFTER:
                return 0.0
            if picks[n] == C.CRAFTER:
                tied.append(n)
        if not tied:
            return 1.0
        if C.TRACKER in picks:
            return 1.0 / (len(tied) + 1)
        return float(all(seen.omen[n] < seen.omen[0] for n in tied))

    def _tracker_gain(self, model: LandModel, lands: tuple[int, ...], keep: float) -> float:
        """Swapping the worst of ``lands`` for the top card, then taking the best (or
        ``keep``, the best of them)."""
        if len(lands) < 2:
            return 0.0
        draws = model.unseen_draws(model.seen.top)
        row = model.row(0, C.TRACKER + 1)
        return sum(p * (row[k] - keep if row[k] > keep else 0.0) for k, p in draws)

    def _rider_gain(
        self, seen: Seen, model: LandModel, lands: tuple[int, ...], best: float
    ) -> float:
        """Bringing the best second-row land within reach, over ``best``, the best of
        ``lands``."""
        if len(lands) < 2:
            return 0.0
        init = C.RIDER + 1
        best_row2 = best_of(model.row(0, init), [k for k in seen.row2 if k != NONE])
        return best_row2 - best if best_row2 > best else 0.0

    # ----- resolution -----------------------------------------------------------------
    def choose_land(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        init = seen.my_pick + 1
        farmer = seen.my_pick == C.FARMER
        nxt = self._next_seat(seen)
        denial = self._denial_weight(seen)

        def score(slot: int) -> float:
            kind = seen.row1[slot]
            value = model.value(0, kind, init, farmer)
            if nxt != NONE:
                opponent_farmer = seen.picks[nxt] == C.FARMER
                value += denial * model.value(nxt, kind, seen.picks[nxt] + 1, opponent_farmer)
            return value

        return max(options, key=score)

    def _next_seat(self, seen: Seen) -> int:
        """The seat that resolves right after this one this round, if any."""
        mine = seen.position[0]
        after = [s for s in range(1, seen.n) if seen.position[s] == mine + 1]
        return after[0] if after else NONE

    def _denial_weight(self, seen: Seen) -> float:
        tuning = self.tuning
        return tuning.denial_two_players if seen.n == 2 else tuning.denial_more_players

    def _best_land_after(self, seen: Seen, model: LandModel, row1: list[int]) -> float:
        init = seen.my_pick + 1
        return best_of(model.row(0, init), [k for k in row1 if k != NONE])

    def choose_tracker(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        def gain(option: int) -> float:
            row, slot = divmod(option, MAX_PLAYERS)
            draws = model.unseen_draws(seen.top)
            if row == 0:
                total = 0.0
                for kind, probability in draws:
                    swapped = list(seen.row1)
                    swapped[slot] = kind
                    total += probability * self._best_land_after(seen, model, swapped)
                return total
            here = self._best_land_after(seen, model, seen.row1)
            init = RIVER_INITIATIVE_CAP  # next round's card is unknown: a River in full
            old = model.value(0, seen.row2[slot], init)
            new = sum(p * model.value(0, k, init) for k, p in draws)
            return here + self.tuning.row2_tracker_weight * (new - old)

        return max(options, key=gain)

    def choose_rider_first(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        return self._rider_pair(
            seen, model, options, [s for s, k in enumerate(seen.row2) if k != NONE]
        )[0]

    def choose_rider_second(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        return self._rider_pair(seen, model, [seen.rider_slot], options)[1]

    def _rider_pair(
        self, seen: Seen, model: LandModel, firsts: list[int], seconds: list[int]
    ) -> tuple[int, int]:
        def gain(pair: tuple[int, int]) -> float:
            first, second = pair
            row1 = list(seen.row1)
            row1[first] = seen.row2[second]
            return self._best_land_after(seen, model, row1)

        return max(((a, b) for a in firsts for b in seconds), key=gain)

    def choose_pioneer(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        gains = model.pioneer_gains()
        return max(options, key=lambda kind: gains.get(kind, -np.inf))

    def choose_midwife(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        return min(options, key=MIDWIFE_PREFERENCE.index)

    def choose_bard(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        """Give the 2 VP to the seat whose realm looks weakest (option k is seat k + 1)."""

        def strength(option: int) -> float:
            seat = option + 1
            return model.potential(seen.types[seat], False) + 3.0 * sum(seen.types[seat])

        return min(options, key=strength)

    def choose_fighter(self, seen: Seen, model: LandModel, options: list[int]) -> int:
        return max(options)


_CHOOSERS = {
    Decision.SELECT: "choose_character",
    Decision.FIGHTER: "choose_fighter",
    Decision.BARD: "choose_bard",
    Decision.TRACKER: "choose_tracker",
    Decision.MIDWIFE: "choose_midwife",
    Decision.RIDER_FIRST: "choose_rider_first",
    Decision.RIDER_SECOND: "choose_rider_second",
    Decision.PIONEER: "choose_pioneer",
    Decision.TAKE_LAND: "choose_land",
}
