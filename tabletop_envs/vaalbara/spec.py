"""Vaalbara's spec: characters, the 51 Land cards, clans, the Omen card backs, the decision
kinds and the action layout keyed by them.

The rulebook names the land types and rewards but not each card's data; the rulings and
their reasons are in docs/rules/vaalbara.md. Everything here is fixed at import.
"""

from __future__ import annotations

from enum import IntEnum

from tabletop_envs.core.actions import ActionLayout

MAX_PLAYERS = 5
ROUNDS = 9
HAND_SIZE = 5
STARTING_VP = 2
CHARACTER_COUNT = 12


class Character(IntEnum):
    """Character cards; the value + 1 is the initiative."""

    FIGHTER = 0
    BARD = 1
    HUNTER = 2
    ORACLE = 3
    CARPENTER = 4
    FALCONER = 5
    TRACKER = 6
    MIDWIFE = 7
    RIDER = 8
    CRAFTER = 9
    PIONEER = 10
    FARMER = 11

    @property
    def initiative(self) -> int:
        return self.value + 1

    @property
    def title(self) -> str:
        return self.name.capitalize()


class LandType(IntEnum):
    MEADOW = 0
    FIELD = 1
    FOREST = 2
    VILLAGE = 3
    MOUNTAIN = 4
    RIVER = 5


class LandKind(IntEnum):
    """What a land card's face shows: its type, and for Forests the printed value."""

    MEADOW = 0
    FIELD = 1
    VILLAGE = 2
    MOUNTAIN = 3
    RIVER = 4
    FOREST_3 = 5
    FOREST_4 = 6
    FOREST_5 = 7
    FOREST_6 = 8

    @property
    def land_type(self) -> LandType:
        return KIND_TYPE[self]

    @property
    def title(self) -> str:
        if self.land_type is LandType.FOREST:
            return f"Forest {FOREST_VALUE[self]}"
        return self.name.capitalize()


LAND_KINDS = len(LandKind)
LAND_TYPES = len(LandType)
KIND_TYPE = {
    LandKind.MEADOW: LandType.MEADOW,
    LandKind.FIELD: LandType.FIELD,
    LandKind.VILLAGE: LandType.VILLAGE,
    LandKind.MOUNTAIN: LandType.MOUNTAIN,
    LandKind.RIVER: LandType.RIVER,
    LandKind.FOREST_3: LandType.FOREST,
    LandKind.FOREST_4: LandType.FOREST,
    LandKind.FOREST_5: LandType.FOREST,
    LandKind.FOREST_6: LandType.FOREST,
}
KIND_TYPE_INDEX = [int(KIND_TYPE[kind]) for kind in LandKind]
FOREST_VALUE = {
    LandKind.FOREST_3: 3,
    LandKind.FOREST_4: 4,
    LandKind.FOREST_5: 5,
    LandKind.FOREST_6: 6,
}
RIVER_INITIATIVE_CAP = 6
MOUNTAIN_BONUS = {2: 10, 4: 20}
"""Mountain reward by which Mountain of the realm this is (the 2nd, the 4th)."""
TYPE_BONUS = {5: 5, 6: 10}
"""End-of-game bonus by number of different land types in a realm."""
MAX_VP_PER_ROUND = 200
"""More than any seat can gain in one round: a realm holds at most 9 lands, so the richest
land is a River worth 6 per River (54), doubled by the Farmer (108); the Carpenter's Forests
give at most 27, and each other seat's Bard and Fighter 3 (12 with 5 players); a saved VP
above ``STARTING_VP + MAX_VP_PER_ROUND * rounds begun`` cannot come from play."""


def land_reward(kind: int, own_counts: list[int], neighbour_meadows: int, initiative: int) -> int:
    """VP for taking a land of ``kind``.

    ``own_counts`` are the realm's counts per land type with the new land included;
    ``neighbour_meadows`` counts Meadows in the neighbours' realms; ``initiative`` is the
    character played this round.
    """
    land_type = KIND_TYPE_INDEX[kind]
    if land_type == LandType.MEADOW:
        return own_counts[land_type] + neighbour_meadows
    if land_type == LandType.FIELD:
        return 2 * own_counts[land_type]
    if land_type == LandType.FOREST:
        return FOREST_VALUE[LandKind(kind)]
    if land_type == LandType.VILLAGE:
        return 2 * sum(count > 0 for count in own_counts)
    if land_type == LandType.MOUNTAIN:
        return MOUNTAIN_BONUS.get(own_counts[land_type], 0)
    return min(initiative, RIVER_INITIATIVE_CAP) * own_counts[land_type]


_K = LandKind
LAND_CARDS_BY_MARKER: dict[int, list[LandKind]] = {
    2: [_K.MEADOW] * 4
    + [_K.FIELD] * 4
    + [_K.FOREST_3, _K.FOREST_4, _K.FOREST_5, _K.FOREST_6]
    + [_K.VILLAGE] * 3
    + [_K.MOUNTAIN] * 3
    + [_K.RIVER] * 3,
    3: [_K.MEADOW] * 2
    + [_K.FIELD] * 2
    + [_K.FOREST_4, _K.FOREST_5]
    + [_K.VILLAGE]
    + [_K.MOUNTAIN] * 2
    + [_K.RIVER],
    4: [_K.MEADOW] * 4
    + [_K.FIELD] * 4
    + [_K.FOREST_3, _K.FOREST_6]
    + [_K.VILLAGE] * 3
    + [_K.MOUNTAIN] * 3
    + [_K.RIVER] * 4,
}
"""Land card faces by the player-count marker printed on them (2+, 3+, 4+)."""

LAND_CARDS: list[tuple[LandKind, int]] = [
    (kind, marker) for marker, kinds in LAND_CARDS_BY_MARKER.items() for kind in kinds
]
"""All 51 land cards as (face, marker); a card's index is its identity."""


def land_cards_for(num_players: int) -> list[int]:
    """Indices of the land cards kept for ``num_players`` (marker <= players)."""
    return [card for card, (_, marker) in enumerate(LAND_CARDS) if marker <= num_players]


CLANS = ("Blue", "Purple", "Yellow", "Red", "Green")
"""Clan of each seat: seat 0 plays Blue, and so on."""

OMEN_BACKS: tuple[str, ...] = (
    "01234",
    "01342",
    "02143",
    "02341",
    "02413",
    "03142",
    "03214",
    "03412",
    "04213",
    "04321",
    "10324",
    "10432",
    "12340",
    "12403",
    "13024",
    "13204",
    "13402",
    "14023",
    "14203",
    "14320",
    "20134",
    "20314",
    "20431",
    "21043",
    "21430",
    "23014",
    "23401",
    "24013",
    "24130",
    "24310",
    "30124",
    "30241",
    "30421",
    "31042",
    "31240",
    "31420",
    "32041",
    "32104",
    "34012",
    "34120",
    "40123",
    "40231",
    "41032",
    "41230",
    "41302",
    "42031",
    "42103",
    "42301",
    "43102",
    "43210",
    "01243",
)
"""51 distinct card backs, each ranking the five clans from best to worst omen.

Closed under reversal and under cyclic relabelling of clans, so every clan ranks above
every other on 25 or 26 backs, and over any subset of clans each is best about equally
often. Which back a front carries is dealt anew each game.
"""


OMEN_RANK: tuple[tuple[int, ...], ...] = tuple(
    tuple(back.index(str(seat)) for seat in range(MAX_PLAYERS)) for back in OMEN_BACKS
)
"""OMEN_RANK[back][seat]: 0 for the best omen; comparing ranks orders any subset of seats."""


def omen_order(back: int, num_players: int) -> list[int]:
    """Seats in play ranked best omen first, by card back ``back``."""
    return [int(clan) for clan in OMEN_BACKS[back] if int(clan) < num_players]


class Decision(IntEnum):
    """The pending decision kinds; each owns one action segment."""

    SELECT = 0
    FIGHTER = 1
    BARD = 2
    TRACKER = 3
    MIDWIFE = 4
    RIDER_FIRST = 5
    RIDER_SECOND = 6
    PIONEER = 7
    TAKE_LAND = 8


LAYOUT = ActionLayout.for_decisions(
    Decision,
    {
        Decision.SELECT: CHARACTER_COUNT,
        Decision.FIGHTER: 2,
        Decision.BARD: MAX_PLAYERS - 1,
        Decision.TRACKER: 2 * MAX_PLAYERS,
        Decision.MIDWIFE: CHARACTER_COUNT,
        Decision.RIDER_FIRST: MAX_PLAYERS,
        Decision.RIDER_SECOND: MAX_PLAYERS,
        Decision.PIONEER: len(LandKind),
        Decision.TAKE_LAND: MAX_PLAYERS,
    },
)
EMPTY = -1
"""An empty row slot, no pick yet, or no pending decision."""

KIND_OF: tuple[int, ...] = tuple(int(kind) for kind, _ in LAND_CARDS)
"""The face (land kind) of each land card."""

TYPE_OF: tuple[int, ...] = tuple(KIND_TYPE_INDEX[kind] for kind in KIND_OF)
"""The land type of each land card."""


def bit(card: int) -> int:
    return 1 << card


def cards_in(mask: int) -> list[int]:
    """The characters whose bits are set in ``mask``, lowest first."""
    return list(CARDS_IN[mask & (1 << CHARACTER_COUNT) - 1])


CARDS_IN: tuple[tuple[int, ...], ...] = tuple(
    tuple(card for card in range(CHARACTER_COUNT) if mask >> card & 1)
    for mask in range(1 << CHARACTER_COUNT)
)
"""CARDS_IN[mask]: :func:`cards_in` of a 12-bit mask, looked up."""
