"""A scripted Spirits of Valenor team bot that reads only its own observation.

Strategy
--------
The team can only win if almost no Defense is wasted: the Defense and Support cards add up
to 240 against 216 of Invaders, so every point of overshoot is lost for good and Supports
come only from Direct Hits. The bot therefore plays for exact sums.

*Placing Defense* (forced or chosen). Every Location is scored: a Direct Hit scores highest
(bigger Invaders first); a defeat with overshoot scores less the more it wastes (heavily: 150
per point); building up toward an Invader scores by how small and how exactly fillable (by
a card still in hand) the remainder is; using a low card (1-4) for anything but an exact
finish is penalised, since low cards are what makes exact finishes possible. On an empty
Location, Defense that adds up exactly to an Invader in our own hand which may go there
readies an instant Direct Hit when that Invader is played; otherwise less is better.

*Optional plays* (step 2, "+" extra plays). The bot plays a card only when its best use
scores at least ``threshold`` (by default only a Direct Hit, or an Invader landing exactly
on its Location's Defense), or to defeat the Invader that blocks the Invader it must play
next (its frontmost card) from every legal place. Otherwise it keeps its cards: low Defense
waits for an exact match. (Measured: playing more eagerly, e.g. for small-waste defeats or
fillable build-ups, wins less often.)

*Placing Invaders.* Among the legal Locations it keeps the most future Invaders placeable
(each Invader not yet defeated is checked against the table after the placement), prefers
an exact Direct Hit on existing Defense, and avoids overshoot.

*Devastation.* It flips the Location whose lost (small) terrain has the fewest Invaders
still to come and which still shows elsewhere.

*Spirits.* Toni: used for a Direct Hit from anywhere in the hand, to defeat a blocker so
that an Invader about to devastate can be placed, or, while a teammate's Invader is shown face
up, to lay Defense adding up exactly to it where it may land (the placer, this same bot,
then lands it there for a Direct Hit). Brom: used when moving one Defense card makes a Direct
Hit (or unblocks a devastating Invader). Wisp: on its own turn, brings a better card to the
front when the frontmost card would devastate or waste. Fenna: used when the hand holds no
Defense. The draft prefers Toni, Wisp, Brom, Fenna.

*Table talk* (``signalling=True``). At every window it says, honestly, the first of: it can
defeat the shown Invader; it can make a Direct Hit at a Location ("I can defeat the Invader
at Location k"); the level and terrain of its next Invader; it holds a "+". It listens to one
message: Defense that is not a Direct Hit is not built at a Location whose Invader a teammate
said it can defeat (that would spoil the teammate's exact finish).

The bot reads its observation vector (only the entries a decision needs, when it first needs
them), the action mask and the public card data (values and terrains of the printed cards),
and places Invaders by the rules' placement function (``invader_spots``, applied to the table
it read; :func:`placeable_values` is the same rule for many Invaders at once): nothing else.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Container, Iterator, Mapping
from typing import Any, Generic, TypeVar

import numpy as np
from tabletop_envs.agents.base import Agent

from tabletop_envs.core.cache import BoundedCache
from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.observer import MAX_SEATS, SCHEMA
from tabletop_envs.valenor.rules import invader_spots
from tabletop_envs.valenor.spec import (
    HAND_MAX,
    LAYOUT,
    LEVEL_OF_VALUE,
    PASS_PLAY,
    SAY_DEFEAT_AT,
    SAY_INVADER,
    SAY_NOTHING,
    SAY_PLUS,
    SAY_SHOWN,
    W_DEVASTATION,
    W_FACE_UP,
    W_STEP1,
    Decision,
)

DRAFT_ORDER = (S.TONI, S.WISP, S.BROM, S.FENNA)
DIRECT_HIT = 1000
DEFEAT = 500
BUILD = 200
EMPTY = 0
UNPLACEABLE = -1000
WASTE_COST = 150
PLACEABLE = 10
LOW_CARD = 4
INVADER_OF_VALUE = {S.VALUE[c]: c for c in S.INVADER_IDS}
DEFENDING_KINDS = (S.KIND_DEFENSE, S.KIND_SUPPORT)

# ----- where the observation keeps what the bot reads ---------------------------------------
_AT = {name: SCHEMA.offset(name) for name in SCHEMA.slices}
_SCALE = {field.name: float(field.scale) for field in SCHEMA.fields}
_DECISIONS = len(Decision)
_OFFSETS = [LAYOUT.segment_of(decision).offset for decision in range(_DECISIONS)]
_PLAY_CARD, _PLACE = int(Decision.PLAY_CARD), int(Decision.PLACE)
_ONE_HOT = {
    size: {row.tobytes(): index for index, row in enumerate(np.eye(size, dtype=np.float32))}
    for size in {_DECISIONS, 4}
}
"""By size, a float32 one-hot row's bytes -> the index it shows (a quicker argmax)."""
_DECISION_OF_ROW = _ONE_HOT[_DECISIONS]
assert _AT["decision"] == 0
assert _AT["location_small"] == _AT["location_large"] + S.NUM_LOCATIONS * S.NUM_TERRAINS
_DEFENSE_ROW = SCHEMA.fields[[f.name for f in SCHEMA.fields].index("location_defense")].shape[1]
_SUPPORT_ROW = SCHEMA.fields[[f.name for f in SCHEMA.fields].index("location_support")].shape[1]

# ----- Invader placement for many Invaders at once -------------------------------------------
_ALL_INVADERS = sum(1 << value for value in S.INVADER_VALUES)
_ABOVE_ALL = max(S.INVADER_VALUES) + 1
"""Above every Invader value: the bound right of the rightmost Invader."""
_BETWEEN = [
    [
        [
            sum(
                1 << v
                for v in S.INVADER_VALUES
                if low < v < high and S.TERRAIN[INVADER_OF_VALUE[v]] == terrain
            )
            for high in range(_ABOVE_ALL + 1)
        ]
        for low in range(_ABOVE_ALL + 1)
    ]
    for terrain in range(S.NUM_TERRAINS)
]
"""_BETWEEN[terrain][low][high]: bit v for each Invader value v of ``terrain``, low < v < high."""


def placeable_values(invaders: list[int], terrains: list[tuple[int, ...]]) -> int:
    """Bit v set for each Invader value v that ``invader_spots`` gives a Location on this
    table: an empty Location showing its terrain, right of every Invader not higher than v
    and left of every Invader not lower (so v lies strictly between the highest Invader to
    the Location's left and the lowest to its right)."""
    lowest_right = []
    lowest = _ABOVE_ALL
    for value in reversed(invaders):
        lowest_right.append(lowest)
        if value and value < lowest:
            lowest = value
    lowest_right.reverse()
    bits = highest_left = 0
    for position, value in enumerate(invaders):
        if value:
            highest_left = max(highest_left, value)
        else:
            high = lowest_right[position]
            for terrain in terrains[position]:
                bits |= _BETWEEN[terrain][highest_left][high]
    return bits


_T = TypeVar("_T")


class read_once(Generic[_T]):
    """A :class:`Table` part read from the observation on first use, then kept."""

    def __init__(self, read: Callable[[Any], _T]) -> None:
        self.read = read
        self.name = read.__name__
        self.__doc__ = read.__doc__

    def __get__(self, table: Any, owner: type | None = None) -> _T:
        value = table.__dict__[self.name] = self.read(table)
        return value


_LOW_PENALTY = [
    40 * (LOW_CARD + 1 - value) if value <= LOW_CARD else 0 for value in range(max(S.VALUE) + 1)
]
"""By value, what using Defense of that value for anything but an exact finish costs (low
cards only)."""


def _argmax(values: list[float]) -> int:
    """The first index of the largest value (``numpy.argmax`` of a list)."""
    return values.index(max(values))


_TERRAIN_FIELDS = 2 * S.NUM_LOCATIONS * S.NUM_TERRAINS
"""The entries of ``location_large``, then ``location_small``."""
_INVADER_SCALE, _DEFENSE_SCALE = _SCALE["location_invader"], _SCALE["location_defense_sum"]


def _terrains_of(fields: bytes) -> list[tuple[int, ...]]:
    """The terrains each Location still shows, from the bytes of its two terrain fields."""
    size = _TERRAIN_FIELDS // 2
    large, small = [0] * S.NUM_LOCATIONS, {}
    for index in np.frombuffer(fields, np.float32).nonzero()[0].tolist():
        if index < size:
            large[index // S.NUM_TERRAINS] = index % S.NUM_TERRAINS
        else:
            small[index // S.NUM_TERRAINS - S.NUM_LOCATIONS] = index % S.NUM_TERRAINS
    return [(big, small[i]) if i in small else (big,) for i, big in enumerate(large)]


def _invaders_of(fields: bytes) -> list[int]:
    """The Invader value on each Location, from the bytes of ``location_invader``."""
    return [round(x * _INVADER_SCALE) for x in np.frombuffer(fields, np.float32).tolist()]


def _defense_sums_of(fields: bytes) -> list[int]:
    """The Defense sum on each Location, from the bytes of ``location_defense_sum``."""
    return [round(x * _DEFENSE_SCALE) for x in np.frombuffer(fields, np.float32).tolist()]


def _spots_of(key: tuple[bytes, bytes, int]) -> list[int]:
    """``invader_spots`` for (the bytes of the Invader fields, of the terrain fields, the
    value of the Invader to place)."""
    invader_bytes, terrain_bytes, value = key
    terrain = S.TERRAIN[INVADER_OF_VALUE[value]]
    return invader_spots(_INVADERS[invader_bytes], _TERRAINS[terrain_bytes], terrain, value)


_TERRAINS = BoundedCache(_terrains_of, 1024)
_INVADERS = BoundedCache(_invaders_of, 1024)
_DEFENSE_SUMS = BoundedCache(_defense_sums_of, 1024)
_SPOTS = BoundedCache(_spots_of, 4096)
"""What a board's fields decode to, by their bytes, shared by the bots of a process (the
fields change less often than the board as a whole: Defense is added more often than an
Invader; the kept lists are never changed)."""


class Board:
    """The Locations as an observation shows them (terrains, Invaders, Defense), and what the
    bot works out from them alone; kept by the bot for the next decisions on the same board."""

    def __init__(self, key: bytes) -> None:
        """``key``: the bytes of the Location fields (``_BOARD_START`` to ``_BOARD_END``)."""
        self._terrain_bytes = key[_TERRAIN_BYTES]
        self.terrains = _TERRAINS[self._terrain_bytes]
        """The terrains each Location still shows: (large, small), or (large,) devastated."""
        self._invader_bytes = key[_INVADER_BYTES]
        self.invader = _INVADERS[self._invader_bytes]
        """Invader value per Location, 0 if none."""
        self.defense = _DEFENSE_SUMS[key[_DEFENSE_SUM_BYTES]]
        self.exact_needs = frozenset(
            invader - defense
            for invader, defense in zip(self.invader, self.defense, strict=True)
            if invader
        )
        """The Defense values that would make a Direct Hit on an Invader on the table."""
        self._stacks_bytes = key[_STACK_BYTES]
        """The Defense counts by value per Location, then the Support counts (scaled; read
        only for Brom's moves)."""
        self._spots: dict[int, list[int]] = {}
        self._unblocking: dict[int, list[int]] = {}
        self._stacks: dict[int, list[int]] = {}
        self._after: dict[tuple[int, int], int] = {}

    def placements(self, value: int) -> list[int]:
        """Legal Locations for the Invader of ``value``."""
        spots = self._spots.get(value)
        if spots is None:
            spots = self._spots[value] = _SPOTS[self._invader_bytes, self._terrain_bytes, value]
        return spots

    @read_once
    def on_table(self) -> int:
        """Bit v for each Invader value v on the table."""
        return sum(1 << value for value in self.invader if value)

    @read_once
    def exact_landings(self) -> frozenset[int]:
        """The Invader values that may land on a Location whose Defense adds up to them."""
        return frozenset(
            defense
            for position, defense in enumerate(self.defense)
            if defense in INVADER_OF_VALUE and position in self.placements(defense)
        )

    def placeable_after(self, position: int, value: int) -> int:
        """:func:`placeable_values` once the Invader of ``value`` is placed at ``position``
        (defeated at once if the Defense there reaches it)."""
        key = (position, value)
        bits = self._after.get(key)
        if bits is None:
            after = self.invader[:]
            after[position] = 0 if self.defense[position] >= value else value
            bits = self._after[key] = placeable_values(after, self.terrains)
        return bits

    def unblocking_defeats(self, blocked: int) -> list[int]:
        """Locations whose Invader's defeat would let Invader ``blocked`` be placed."""
        result = self._unblocking.get(blocked)
        if result is not None:
            return result
        result = self._unblocking[blocked] = []
        for position, value in enumerate(self.invader):
            if value:
                after = self.invader[:]
                after[position] = 0
                if placeable_values(after, self.terrains) >> blocked & 1:
                    result.append(position)
        return result

    def stack_values(self, position: int) -> list[int]:
        """The values of the Defense, then the Support, cards above ``position`` (each once)."""
        values = self._stacks.get(position)
        if values is None:
            defense = _DEFENSE_ROW * position
            support = _DEFENSE_ROW * S.NUM_LOCATIONS + _SUPPORT_ROW * position
            counts = np.frombuffer(self._stacks_bytes, np.float32).tolist()
            blocks = (
                counts[defense : defense + _DEFENSE_ROW],
                counts[support : support + _SUPPORT_ROW],
            )
            values = [v + 1 for block in blocks for v, count in enumerate(block) if count]
            self._stacks[position] = values
        return values


_STACK_FIELDS = (_DEFENSE_ROW + _SUPPORT_ROW) * S.NUM_LOCATIONS
assert _AT["location_support"] == _AT["location_defense"] + _DEFENSE_ROW * S.NUM_LOCATIONS
_BOARD_START = _AT["location_large"]
_BOARD_END = _AT["location_defense_sum"] + S.NUM_LOCATIONS
"""The Location fields (cards, devastation, Invaders, Defense and Support, sums): one key."""


def _bytes_of(name: str, count: int) -> slice:
    """Where the first ``count`` entries of field ``name`` lie in a board's key."""
    start = 4 * (_AT[name] - _BOARD_START)
    return slice(start, start + 4 * count)


_TERRAIN_BYTES = _bytes_of("location_large", _TERRAIN_FIELDS)
_INVADER_BYTES = _bytes_of("location_invader", S.NUM_LOCATIONS)
_DEFENSE_SUM_BYTES = _bytes_of("location_defense_sum", S.NUM_LOCATIONS)
_STACK_BYTES = _bytes_of("location_defense", _STACK_FIELDS)
_INVADER_IN_PLAY = _AT["card_in_play_kind"] + S.KIND_INVADER
_FACE_UP_WINDOW = _AT["window_reason"] + W_FACE_UP
_DEVASTATION_WINDOW = _AT["window_reason"] + W_DEVASTATION
_BOARDS_KEPT = 256
"""How many boards a bot keeps (it forgets them all when it has more)."""


_HAND_START = _AT["hand_kind"]
_HAND_END = _AT["hand_value"] + HAND_MAX
"""The own hand's kinds and values: one key (a card's kind row is never empty)."""
assert _HAND_END == _HAND_START + 5 * HAND_MAX and _AT["hand_value"] == _HAND_START + 4 * HAND_MAX
_KIND_ROW_BYTES = 4 * 4
"""The bytes of one card's ``hand_kind`` row (4 float32 entries)."""
_VALUE_BYTES_AT = 4 * (_AT["hand_value"] - _HAND_START)


def _kind_of_row(row: bytes) -> int | None:
    """The kind a ``hand_kind`` row shows (by its bytes), None for an empty row (no card)."""
    entries = np.frombuffer(row, np.float32).tolist()
    if not any(entries):
        return None
    if sorted(entries) != [0.0, 0.0, 0.0, 1.0]:
        raise ValueError(f"a hand_kind row must be one-hot or empty, got {entries}")
    return entries.index(1.0)


_KIND_OF_ROW = BoundedCache(_kind_of_row, 64)
"""A ``hand_kind`` row's bytes -> the kind it shows (None: no card)."""
_VALUE_OF = BoundedCache(
    lambda entry: round(np.frombuffer(entry, np.float32).item() * _SCALE["hand_value"]), 64
)
"""A ``hand_value`` entry's bytes -> the card value it shows."""


class Hand:
    """The bot's own hand as an observation shows it, and what the bot works out from it
    alone; kept by the bot, like the board, for the next decisions with the same hand."""

    def __init__(self, key: bytes) -> None:
        """``key``: the bytes of the hand fields (``_HAND_START`` to ``_HAND_END``; the cards
        fill the first slots)."""
        self.cards: list[tuple[int, int]] = []
        """(kind, value) per hand card, front first."""
        self.values: list[int] = []
        """Each card's value if Defense or Support, else 0."""
        self.defense: list[int] = []
        """The values of the Defense and Support cards, front first."""
        self.invaders: list[int] = []
        """The values of the Invader cards, front first."""
        value_at = _VALUE_BYTES_AT
        for at in range(0, _KIND_ROW_BYTES * HAND_MAX, _KIND_ROW_BYTES):
            kind = _KIND_OF_ROW[key[at : at + _KIND_ROW_BYTES]]
            if kind is None:
                break
            value = _VALUE_OF[key[value_at : value_at + 4]]
            value_at += 4
            self.cards.append((kind, value))
            if kind in DEFENDING_KINDS:
                self.values.append(value)
                self.defense.append(value)
            else:
                self.values.append(0)
                if kind == S.KIND_INVADER:
                    self.invaders.append(value)
        self.value_set = frozenset(self.values)
        self.defense_set, self.invader_set = frozenset(self.defense), frozenset(self.invaders)


_HANDS_KEPT = 256
"""How many hands a bot keeps (it forgets them all when it has more)."""
_MASKS_KEPT = 256
"""How many action masks a bot keeps for each decision (likewise)."""


def _options(offset: int, mask: bytes) -> list[int]:
    """The legal options (action minus ``offset``) of an action mask given by its int8 bytes."""
    return [action - offset for action in np.frombuffer(mask, np.int8).nonzero()[0].tolist()]


class Table:
    """The public table and the bot's own hand, each part read from the observation vector
    when a decision first uses it (the unscaled values of :meth:`ObservationSchema.decode`)."""

    def __init__(
        self,
        vector: np.ndarray,
        boards: BoundedCache[bytes, Board] | None = None,
        hands: BoundedCache[bytes, Hand] | None = None,
    ) -> None:
        """``boards``, ``hands``: those read before, by the bytes of their fields (added to)."""
        vector = np.asarray(vector)
        if vector.shape != (SCHEMA.size,):
            raise ValueError(f"observation has shape {vector.shape}, expected ({SCHEMA.size},)")
        self.vector = vector
        self._boards = BoundedCache(Board, _BOARDS_KEPT) if boards is None else boards
        self._hands = BoundedCache(Hand, _HANDS_KEPT) if hands is None else hands
        decision = _DECISION_OF_ROW.get(vector[:_DECISIONS].tobytes())
        self.decision = self._one_hot("decision", 0, _DECISIONS) if decision is None else decision
        """The decision asked for (read at once: every choice needs it)."""

    @read_once
    def board(self) -> Board:
        board = self._boards[self.vector[_BOARD_START:_BOARD_END].tobytes()]
        self.terrains, self.invader, self.defense = board.terrains, board.invader, board.defense
        self.exact_needs = board.exact_needs
        return board

    def _floats(self, name: str, start: int, count: int) -> list[float]:
        """``count`` scaled entries of field ``name`` from its entry ``start``."""
        at = _AT[name] + start
        return self.vector[at : at + count].tolist()

    def _int(self, name: str, index: int = 0) -> int:
        return round(self.vector.item(_AT[name] + index) * _SCALE[name])

    def flag(self, name: str, index: int) -> bool:
        """Whether entry ``index`` of field ``name`` is set."""
        return bool(self.vector.item(_AT[name] + index))

    def _one_hot(self, name: str, start: int, size: int) -> int:
        """The index of the set entry among ``size`` entries of field ``name`` from ``start``
        (the first largest, as ``numpy.argmax``, if they are not one float32 one-hot row)."""
        at = _AT[name] + start
        entries = self.vector[at : at + size]
        index = _ONE_HOT[size].get(entries.tobytes())
        return _argmax(entries.tolist()) if index is None else index

    def _set(self, name: str, count: int) -> list[int]:
        """Which of the first ``count`` entries of field ``name`` are set (from its start)."""
        at = _AT[name]
        return self.vector[at : at + count].nonzero()[0].tolist()

    @read_once
    def cards(self) -> Hand:
        cards = self._hands[self.vector[_HAND_START:_HAND_END].tobytes()]
        self.hand, self.hand_value_set = cards.cards, cards.value_set
        self.hand_defense = cards.defense
        return cards

    @read_once
    def hand(self) -> list[tuple[int, int]]:
        """(kind, value) per hand card, front first."""
        return self.cards.cards

    def hand_terrain(self, slot: int) -> int:
        """The terrain of the Invader in hand ``slot``."""
        at = _AT["hand_terrain"] + S.NUM_TERRAINS * slot
        return _argmax(self.vector[at : at + S.NUM_TERRAINS].tolist())

    @read_once
    def terrains(self) -> list[tuple[int, ...]]:
        return self.board.terrains

    @read_once
    def invader(self) -> list[int]:
        return self.board.invader

    @read_once
    def defense(self) -> list[int]:
        return self.board.defense

    @read_once
    def to_come(self) -> list[int]:
        """Values of the Invaders neither defeated nor on the table."""
        gone = self._floats("discarded_invaders", 0, S.NUM_INVADERS)
        invader = self.invader
        return [
            v for v, out in zip(S.INVADER_VALUES, gone, strict=True) if not out and v not in invader
        ]

    @read_once
    def to_come_bits(self) -> int:
        """Bit v for each value v of :attr:`to_come`."""
        bits = _ALL_INVADERS & ~self.board.on_table
        for index in self._set("discarded_invaders", S.NUM_INVADERS):
            bits &= ~(1 << S.INVADER_VALUES[index])
        return bits

    @read_once
    def card_in_play_kind(self) -> int:
        return self._one_hot("card_in_play_kind", 0, 4)

    @read_once
    def card_in_play_value(self) -> int:
        return self._int("card_in_play_value")

    @read_once
    def shown(self) -> int:
        """The value of an Invader face up in the middle, placeable, in a face-up window; else 0."""
        self._read_invader_in_play()
        return self.shown

    @read_once
    def pending(self) -> int:
        """The value of an Invader about to devastate (the devastation window), else 0."""
        self._read_invader_in_play()
        return self.pending

    def _read_invader_in_play(self) -> None:
        """:attr:`shown` and :attr:`pending` (one read of the card in play for both)."""
        self.shown = self.pending = 0
        if self.vector.item(_INVADER_IN_PLAY):
            if self.vector.item(_FACE_UP_WINDOW):
                self.shown = self.card_in_play_value
            elif self.vector.item(_DEVASTATION_WINDOW):
                self.pending = self.card_in_play_value

    @read_once
    def claimed(self) -> frozenset[int]:
        """Locations whose Invader a teammate said it can defeat (table talk)."""
        at = _AT["signals"] + S.NUM_MESSAGES  # the teammates' rows, one read
        said = self.vector[at : at + S.NUM_MESSAGES * (MAX_SEATS - 1)].nonzero()[0].tolist()
        messages = (index % S.NUM_MESSAGES for index in said)
        return frozenset(
            m - SAY_DEFEAT_AT for m in messages if 0 <= m - SAY_DEFEAT_AT < S.NUM_LOCATIONS
        )

    @read_once
    def spirit(self) -> int:
        """Our own spirit."""
        return self._one_hot("spirit_of", 0, S.NUM_SPIRITS)

    @read_once
    def has_plus(self) -> bool:
        return any(self._floats("hand_plus", 0, len(self.hand)))

    # ----- derived ------------------------------------------------------------------------
    def placements(self, value: int) -> list[int]:
        """Legal Locations for the Invader of ``value`` on this table."""
        return self.board.placements(value)

    @read_once
    def hand_value_set(self) -> frozenset[int]:
        return self.cards.value_set

    def spare(self, index: int) -> frozenset[int]:
        """:attr:`Hand.values` of every hand card but the one at ``index``."""
        values = self.cards.values
        value = values[index]
        if values.count(value) > 1:
            return self.hand_value_set
        return self.hand_value_set - {value}

    @read_once
    def hand_defense(self) -> list[int]:
        return self.cards.defense

    @read_once
    def shown_spots(self) -> list[int]:
        return self.placements(self.shown) if self.shown else []

    @read_once
    def own_invader_spots(self) -> list[tuple[int, list[int]]]:
        """(value, legal Locations) of each Invader in our hand, front first."""
        return [(value, self.placements(value)) for value in self.cards.invaders]

    @read_once
    def exact_needs(self) -> frozenset[int]:
        return self.board.exact_needs

    @read_once
    def landing_fills(self) -> frozenset[int]:
        """The Defense values that would make a Location add up to the shown Invader where it
        may land."""
        return frozenset(self.shown - self.defense[p] for p in self.shown_spots)

    def defense_score(self, value: int, position: int, spare: Container[int]) -> int:
        """How good putting Defense ``value`` at ``position`` is (``spare``: other hand cards)."""
        invader, current = self.invader[position], self.defense[position]
        low_penalty = _LOW_PENALTY[value]
        if not invader:
            return self.prebuild_score(value, position) - low_penalty
        need = invader - current
        if value == need:
            return DIRECT_HIT + invader
        if position in self.claimed:  # a teammate said it can defeat this one: leave it
            low_penalty += 300
        if value > need:
            return DEFEAT - WASTE_COST * (value - need) - low_penalty
        remainder = need - value
        fillable = 150 if remainder in spare else 30 if remainder <= LOW_CARD else 0
        return BUILD - 5 * remainder + fillable - low_penalty

    def prebuild_score(self, value: int, position: int) -> int:
        """Defense on an empty Location: best when it readies an exact landing for an Invader
        in our own hand that may go there."""
        total = self.defense[position] + value
        score = EMPTY - total
        if position in self.shown_spots:
            if total == self.shown:  # the shown Invader will land on it: a Direct Hit
                return DIRECT_HIT + self.shown
            if total > self.shown:
                score -= WASTE_COST * (total - self.shown)
        for invader, spots in self.own_invader_spots:
            if position in spots:
                if total == invader:
                    score = max(score, BUILD + 150)
                elif total < invader:
                    score = max(score, EMPTY + 50 - (invader - total))
        return score

    def best_defense(self, value: int, spare: Container[int]) -> tuple[int, int]:
        """(score, position) of the best place for Defense ``value``."""
        best, where = self.defense_score(value, 0, spare), 0
        for position in range(1, S.NUM_LOCATIONS):
            score = self.defense_score(value, position, spare)
            if score >= best:  # the last of equal scores, as max() of (score, position)
                best, where = score, position
        return best, where

    def invader_score(self, value: int, position: int) -> int:
        """Keep future Invaders placeable; land exactly on Defense; avoid overshoot."""
        current = self.defense[position]
        others = self.to_come_bits & ~(1 << value)
        score = PLACEABLE * (self.board.placeable_after(position, value) & others).bit_count()
        if current == value:
            return score + DIRECT_HIT
        if current > value:
            return score - WASTE_COST * (current - value)
        return score

    def unblocking_defeats(self, blocked: int) -> list[int]:
        return self.board.unblocking_defeats(blocked)


class ValenorHeuristicAgent(Agent):
    """Plans Direct Hits, keeps low Defense for exact matches, avoids devastation."""

    name = "valenor-heuristic"

    def __init__(self, seed: int | None = None, threshold: int = DIRECT_HIT) -> None:
        """Deterministic (``seed`` is accepted for the common interface); ``threshold`` is
        the least score for which an optional play is made."""
        self.threshold = threshold
        self._planned: tuple[int, int, int] | None = None
        """(kind, value, Location) of a Toni play readied for a shown Invader."""
        self._boards = BoundedCache(Board, _BOARDS_KEPT)
        """The boards of earlier decisions, by their fields' bytes (the table changes less
        often than the bot is asked)."""
        self._hands = BoundedCache(Hand, _HANDS_KEPT)
        """The hands of earlier decisions, by their fields' bytes."""
        self._masks = [
            BoundedCache(functools.partial(_options, offset), _MASKS_KEPT) for offset in _OFFSETS
        ]
        """By decision, the legal options of the action masks seen, by their bytes as int8
        (few masks recur: a window's, a play's; the lists are shared, never changed)."""

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        table = Table(observation["observation"], self._boards, self._hands)
        decision = table.decision
        offset = _OFFSETS[decision]
        legal = self._masks[decision][np.asarray(observation["action_mask"], np.int8).tobytes()]
        if not legal:
            raise ValueError(f"{agent} has no legal action for {Decision(decision).name.lower()}")
        planned, self._planned = self._planned, None
        if len(legal) == 1 and (decision != _PLAY_CARD or legal[0] == PASS_PLAY):
            return offset + legal[0]  # nothing to choose, nothing to plan
        if decision == _PLACE and planned is not None:
            kind, value = table.card_in_play_kind, table.card_in_play_value
            if planned[:2] == (kind, value) and planned[2] in legal:
                return offset + planned[2]
        choice = _CHOOSERS[decision](self, table, legal)
        return offset + (choice if choice in legal else legal[0])

    def _draft(self, table: Table, legal: list[int]) -> int:
        return next(s for s in DRAFT_ORDER if s in legal)

    def _window(self, table: Table, legal: list[int]) -> int:
        use = int(1 in legal and self._spirit_plan(table) is not None)
        one_message = legal[0] // 2 == legal[-1] // 2  # the options ascend: 2 x message + use
        return 2 * (SAY_NOTHING if one_message else self._message(table)) + use

    def _move_defense(self, table: Table, legal: list[int]) -> int:
        plan = self._brom_plan(table)
        value = plan[0] if plan is not None else -1
        return next((c for c in legal if S.VALUE[c] == value), legal[0])

    # ----- plays ---------------------------------------------------------------------
    def _card_value_score(self, table: Table, kind: int, value: int, index: int) -> int:
        """The best use of hand card ``index`` now."""
        if kind == S.KIND_SPIRIT:
            return UNPLACEABLE
        if kind == S.KIND_INVADER:
            options = table.placements(value)
            if not options:
                return UNPLACEABLE
            return max(table.invader_score(value, i) for i in options)
        return table.best_defense(value, table.spare(index))[0]

    def _wanted_play(self, table: Table, urgent: int) -> tuple[int, int] | None:
        """(kind, value) of a card worth playing now, or None to keep the hand."""
        if self.threshold >= DIRECT_HIT and not self._would_play(table, urgent):
            return None  # no card is sure, and no other is scored
        best = None
        for index, kind, value, sure in self._candidates(table, urgent):
            score = self._card_value_score(table, kind, value, index)
            if (sure or score >= self.threshold) and (best is None or score > best[0]):
                best = (score, kind, value)
        return None if best is None else (best[1], best[2])

    def _would_play(self, table: Table, urgent: int) -> bool:
        """Whether :meth:`_wanted_play` finds a card (without scoring where it need not)."""
        if self.threshold < DIRECT_HIT:
            return self._wanted_play(table, urgent) is not None
        if self._some_direct_hit(table):
            return True
        blocked = self._blocked_front(table) or urgent
        return bool(blocked) and any(self._unblocks(table, v, blocked) for v in table.hand_defense)

    @staticmethod
    def _some_direct_hit(table: Table) -> bool:
        """Whether :meth:`_direct_hit` holds for some hand card (by sets, not card by card)."""
        cards = table.cards
        if cards.invader_set and not table.board.exact_landings.isdisjoint(cards.invader_set):
            return True
        if cards.defense_set and not table.exact_needs.isdisjoint(cards.defense_set):
            return True
        shown = table.shown
        return bool(shown) and any(
            value in table.landing_fills and shown >= _LOW_PENALTY[value] for value in cards.defense
        )

    def _candidates(self, table: Table, urgent: int) -> Iterator[tuple[int, int, int, bool]]:
        """(index, kind, value, sure) of each hand card that may be worth playing: ``sure``
        when it is (it unblocks, or its best use is a Direct Hit); the others only with a
        threshold below ``DIRECT_HIT``, where their score decides."""
        blocked = self._blocked_front(table) or urgent
        for index, (kind, value) in enumerate(table.hand):
            unblocks = bool(blocked) and kind in DEFENDING_KINDS
            sure = unblocks and self._unblocks(table, value, blocked)
            sure = sure or self._direct_hit(table, kind, value)
            if sure or self.threshold < DIRECT_HIT:
                yield index, kind, value, sure

    @staticmethod
    def _direct_hit(table: Table, kind: int, value: int) -> bool:
        """Whether the card's best use scores at least ``DIRECT_HIT``, which only a Direct Hit
        does: an Invader landing on Defense of its value; Defense meeting an Invader's need,
        or readying the shown Invader's landing where the low-card penalty leaves it that."""
        if kind == S.KIND_INVADER:
            return value in table.board.exact_landings
        if kind == S.KIND_SPIRIT:
            return False
        if value in table.exact_needs:
            return True
        shown = table.shown
        return bool(shown) and value in table.landing_fills and shown >= _LOW_PENALTY[value]

    @staticmethod
    def _blocked_front(table: Table) -> int:
        """The value of the frontmost card if it is an Invader with no legal place, else 0."""
        if table.hand and table.hand[0][0] == S.KIND_INVADER:
            value = table.hand[0][1]
            return 0 if table.placements(value) else value
        return 0

    @staticmethod
    def _unblocks(table: Table, value: int, blocked: int) -> bool:
        """Whether Defense ``value`` defeats an Invader whose defeat lets ``blocked`` in."""
        return any(
            table.defense[p] + value >= table.invader[p]
            and table.defense[p] + value - table.invader[p] <= 6
            for p in table.unblocking_defeats(blocked)
        )

    def _play(self, table: Table, legal: list[int]) -> int:
        wanted = self._wanted_play(table, table.pending)
        if wanted is None:
            return PASS_PLAY if PASS_PLAY in legal else legal[0]
        kind, value = wanted
        for card in legal:
            if card != PASS_PLAY and S.VALUE[card] == value and S.KIND[card] == kind:
                if table.shown and kind != S.KIND_INVADER:
                    position = table.best_defense(value, table.hand_value_set)[1]
                    self._planned = (kind, value, position)
                return card
        return PASS_PLAY if PASS_PLAY in legal else legal[0]

    def _place(self, table: Table, legal: list[int]) -> int:
        value = table.card_in_play_value
        if table.card_in_play_kind == S.KIND_INVADER:
            return max(legal, key=lambda i: table.invader_score(value, i))
        spare = table.hand_value_set
        return max(legal, key=lambda i: table.defense_score(value, i, spare))

    def _devastate(self, table: Table, legal: list[int]) -> int:
        def cost(position: int) -> tuple[int, int]:
            lost = table.terrains[position][1]
            coming = sum(S.TERRAIN[INVADER_OF_VALUE[v]] == lost for v in table.to_come)
            elsewhere = sum(lost in t for i, t in enumerate(table.terrains) if i != position)
            return (coming * (3 - min(elsewhere, 2)), -elsewhere)

        return min(legal, key=cost)

    # ----- table talk ----------------------------------------------------------------
    @staticmethod
    def _message(table: Table) -> int:
        """An honest message about our hand: we can defeat the shown Invader; we can make a
        Direct Hit at a Location (said as "I can defeat the Invader at Location k"); our next
        Invader's level and terrain; we hold a "+"; else nothing."""
        defense = table.hand_defense
        if table.shown and any(
            table.defense[p] + v >= table.shown for p in table.shown_spots for v in defense
        ):
            return SAY_SHOWN
        hits = [
            (table.invader[p], p)
            for p in range(S.NUM_LOCATIONS)
            if table.invader[p] and table.invader[p] - table.defense[p] in defense
        ]
        if hits:
            return SAY_DEFEAT_AT + max(hits)[1]
        for slot, (kind, value) in enumerate(table.hand):
            if kind == S.KIND_INVADER:
                terrain = table.hand_terrain(slot)
                return SAY_INVADER + S.NUM_TERRAINS * LEVEL_OF_VALUE[value] + terrain
        if table.has_plus:
            return SAY_PLUS
        return SAY_NOTHING

    # ----- spirits -------------------------------------------------------------------
    def _spirit_plan(self, table: Table) -> str | None:
        """What our spirit would do now, or None to pass."""
        spirit = table.spirit
        if spirit == S.TONI:
            return "play" if self._would_play(table, table.pending) else None
        if spirit == S.BROM:
            return "move" if self._brom_plan(table) is not None else None
        if spirit == S.WISP:
            my_turn = table.flag("active", 0) and table.flag("window_reason", W_STEP1)
            return "front" if my_turn and self._better_front(table) is not None else None
        return "draw" if not table.hand_defense else None

    @staticmethod
    def _brom_plan(table: Table) -> tuple[int, int] | None:
        """(card value, target) of a move making a Direct Hit or an unblocking defeat."""
        targets = [t for t in range(S.NUM_LOCATIONS) if table.invader[t]]
        sources = [s for s in range(S.NUM_LOCATIONS) if table.defense[s]]
        if not targets or not sources:
            return None
        pending = table.pending
        unblock = table.unblocking_defeats(pending) if pending else []
        best = None
        for source in sources:
            lose_source = table.invader[source] > 0
            for value in table.board.stack_values(source):
                for target in targets:
                    if target == source:
                        continue
                    invader = table.invader[target]
                    total = table.defense[target] + value
                    if total == invader or (target in unblock and total >= invader):
                        score = invader - 100 * lose_source - (total - invader)
                        if best is None or score > best[0]:
                            best = (score, value, target)
        return None if best is None else best[1:]

    def _better_front(self, table: Table) -> int | None:
        """Index of a hand card much better to play first than the frontmost, if any."""
        if len(table.hand) < 2:
            return None
        kind, value = table.hand[0]
        wanted = self._card_value_score(table, kind, value, 0) + 300
        best, best_score = None, wanted - 1
        for index, (kind, value) in enumerate(table.hand[1:], 1):
            if self._most(table, kind, value) >= wanted:
                score = self._card_value_score(table, kind, value, index)
                if score > best_score:
                    best, best_score = index, score
        return best

    def _most(self, table: Table, kind: int, value: int) -> int:
        """An upper bound on the score of the card's best use: short of a Direct Hit, 350
        for Defense (a build-up fillable from the hand, or readying an exact landing) and 150
        for an Invader (every Invader to come still placeable)."""
        if kind == S.KIND_SPIRIT:
            return UNPLACEABLE
        if self._direct_hit(table, kind, value):
            return 2 * DIRECT_HIT
        return BUILD + 150 if kind in DEFENDING_KINDS else PLACEABLE * S.NUM_INVADERS

    def _front(self, table: Table, legal: list[int]) -> int:
        index = self._better_front(table)
        if index is None:
            return legal[0]
        kind, value = table.hand[index]
        return next((c for c in legal if S.VALUE[c] == value and S.KIND[c] == kind), legal[0])


_CHOOSERS: dict[int, Callable[[ValenorHeuristicAgent, Table, list[int]], int]] = {
    Decision.CHOOSE_SPIRIT: ValenorHeuristicAgent._draft,
    Decision.SPIRIT_WINDOW: ValenorHeuristicAgent._window,
    Decision.PLAY_CARD: ValenorHeuristicAgent._play,
    Decision.PLACE: ValenorHeuristicAgent._place,
    Decision.DEVASTATE: ValenorHeuristicAgent._devastate,
    Decision.MOVE_DEFENSE: ValenorHeuristicAgent._move_defense,
    Decision.MOVE_TARGET: ValenorHeuristicAgent._place,
    Decision.BRING_TO_FRONT: ValenorHeuristicAgent._front,
}
"""Each decision's chooser: (bot, table, legal options) -> option."""
