"""Spirit Island's spec: the island, the Invader, Fear and Blight cards, the Spirits, the Power
cards in the effect language, the decision kinds, the steps of the rules' queue and the action
layout.

Everything here is plain data fixed at import and checked when loaded: a board's neighbours
must be symmetric, and every card's effect is parsed by :func:`compile_effect` (the compiler of
``effect_language.py``), so an unknown effect, a bad range or a missing field raises a
:class:`CardError` naming the card. The
action layout is sized for 4 boards and the full card set, so adding content never changes
it. Mechanical data (terrains, neighbours, costs, tracks) follows the published game's public
facts; the Minor, Major and Fear decks are the published base game's (``published.py``).
"""

from __future__ import annotations

import itertools
from enum import IntEnum
from typing import Any, NamedTuple

from tabletop_envs.core.actions import ActionLayout
from tabletop_envs.spirit_island import published
from tabletop_envs.spirit_island.effect_language import (
    CardError,
    EffectCompiler,
    Op,
    Vocabulary,
    nested_effects,
)

# ----- sizes fixed for the full game ----------------------------------------------------------
MAX_PLAYERS = 4
MAX_BOARDS = 4
LANDS_PER_BOARD = 8
MAX_LANDS = MAX_BOARDS * LANDS_PER_BOARD
MAX_CARDS = 96
"""Card ids 0..95: room for 16 uniques, 36 Minors, 22 Majors and more."""
MAX_INNATES = 8
MAX_GROWTH = 8
MAX_SPIRITS = 4
MAX_CHOICE = 4
"""The most effects a "choose" offers."""

# ----- terrains, elements, pieces ---------------------------------------------------------
TERRAINS = ("Mountain", "Wetland", "Jungle", "Sands")
M, W, J, S = range(4)
TERRAIN_CODE = {"M": M, "W": W, "J": J, "S": S}
ELEMENTS = ("sun", "moon", "fire", "air", "water", "earth", "plant", "animal")
ELEMENT_INDEX = {name: i for i, name in enumerate(ELEMENTS)}

# piece kinds in a land: each damaged state of a piece is its own kind (damage heals at
# Time Passes)
EXPLORER, TOWN, TOWN_1, CITY, CITY_1, CITY_2, DAHAN, DAHAN_1, BLIGHT = range(9)
KINDS = 9
KIND_NAMES = (
    "Explorer",
    "Town",
    "damaged Town",
    "City",
    "City (1 damage)",
    "City (2 damage)",
    "Dahan",
    "damaged Dahan",
    "Blight",
)
INVADER_KINDS = (EXPLORER, TOWN, TOWN_1, CITY, CITY_1, CITY_2)
TOWN_KINDS = (TOWN, TOWN_1)
CITY_KINDS = (CITY, CITY_1, CITY_2)
BUILDING_KINDS = TOWN_KINDS + CITY_KINDS
DAHAN_KINDS = (DAHAN, DAHAN_1)
DAMAGED = {
    TOWN: TOWN_1,
    TOWN_1: None,
    CITY: CITY_1,
    CITY_1: CITY_2,
    CITY_2: None,
    EXPLORER: None,
    DAHAN: DAHAN_1,
    DAHAN_1: None,
}
"""The kind a piece becomes after 1 damage (None: destroyed)."""
HEALED = {TOWN_1: TOWN, CITY_1: CITY, CITY_2: CITY, DAHAN_1: DAHAN}
PRINTED_HEALTH = {EXPLORER: 1, TOWN: 2, TOWN_1: 2, CITY: 3, CITY_1: 3, CITY_2: 3}
"""Each Invader's Health as printed, whatever its damage (for "Health worth of Invaders")."""
STRIKE_BITS = 5
"""Bits per Invader kind in a ``strike`` step's count of pieces struck so far."""
HEALTH = {EXPLORER: 1, TOWN: 2, TOWN_1: 1, CITY: 3, CITY_1: 2, CITY_2: 1, DAHAN: 2, DAHAN_1: 1}
"""Health left of each kind (full health: Explorer 1, Town 2, City 3, Dahan 2)."""
INVADER_DAMAGE = {EXPLORER: 1, TOWN: 2, TOWN_1: 2, CITY: 3, CITY_1: 3, CITY_2: 3}
"""Damage each Invader deals when it Ravages (a damaged piece deals its full damage)."""
FEAR_OF = {TOWN: 1, TOWN_1: 1, CITY: 2, CITY_1: 2, CITY_2: 2}
"""Fear generated when a piece of this kind is destroyed."""
PIECE_WORDS = {
    "explorer": (EXPLORER,),
    "town": TOWN_KINDS,
    "city": CITY_KINDS,
    "dahan": DAHAN_KINDS,
    "blight": (BLIGHT,),
    "invader": INVADER_KINDS,
}
"""Words the effect language uses for groups of kinds."""
PIECE_STOP = 15
"""The PIECE option meaning "no more" (only offered where a Power says "up to")."""
PRESENCE_OPTION = 9
"""PIECE options 9..12: one Presence of Spirit 0..3."""

# ----- the island -------------------------------------------------------------------------


class BoardError(ValueError):
    """Board data that is inconsistent (asymmetric neighbours, unknown terrain...)."""


BOARD_DATA: dict[str, dict[str, Any]] = {
    # land number: (terrain, setup pieces, neighbours; 0 is the Ocean)
    "A": {
        1: ("M", "", (0, 2, 4, 5, 6)),
        2: ("W", "CD", (0, 1, 3, 4)),
        3: ("J", "DD", (0, 2, 4)),
        4: ("S", "B", (1, 2, 3, 5)),
        5: ("W", "", (1, 4, 6, 7, 8)),
        6: ("M", "D", (1, 5, 8)),
        7: ("S", "DD", (5, 8)),
        8: ("J", "T", (5, 6, 7)),
    },
    # boards B-D (public data; not in play until their cross-board neighbours are set)
    "B": {
        1: ("W", "D", (0, 2, 4, 5, 6)),
        2: ("M", "C", (0, 1, 3, 4)),
        3: ("S", "DD", (0, 2, 4)),
        4: ("J", "B", (1, 2, 3, 5, 7)),
        5: ("S", "", (1, 4, 6, 7)),
        6: ("W", "T", (1, 5, 7, 8)),
        7: ("M", "D", (4, 5, 6, 8)),
        8: ("J", "DD", (6, 7)),
    },
    "C": {
        1: ("J", "D", (0, 2, 5, 6)),
        2: ("S", "C", (0, 1, 3, 4, 5)),
        3: ("M", "DD", (0, 2, 4)),
        4: ("J", "", (2, 3, 5, 7)),
        5: ("W", "DDB", (1, 2, 4, 6, 7)),
        6: ("S", "D", (1, 5, 7, 8)),
        7: ("M", "T", (4, 5, 6, 8)),
        8: ("W", "", (6, 7)),
    },
    "D": {
        1: ("W", "DD", (0, 2, 5, 7, 8)),
        2: ("J", "CD", (0, 1, 3, 4, 5)),
        3: ("W", "", (0, 2, 4)),
        4: ("S", "", (2, 3, 5, 6)),
        5: ("M", "DB", (1, 2, 4, 6, 7)),
        6: ("J", "", (4, 5, 7)),
        7: ("S", "TDD", (1, 5, 6, 8)),
        8: ("M", "", (1, 7)),
    },
}
SETUP_CODE = {"E": EXPLORER, "T": TOWN, "C": CITY, "D": DAHAN, "B": BLIGHT}


class Board(NamedTuple):
    name: str
    terrain: tuple[int, ...]
    coastal: tuple[bool, ...]
    setup: tuple[tuple[int, ...], ...]
    """Per land: pieces of each kind at setup."""
    neighbours: tuple[tuple[int, ...], ...]
    """Per land (0..7): the neighbouring lands of the same board (0..7), Ocean left out."""


def load_board(name: str, data: dict[int, tuple[str, str, tuple[int, ...]]]) -> Board:
    if sorted(data) != list(range(1, LANDS_PER_BOARD + 1)):
        raise BoardError(f"board {name}: lands must be numbered 1..{LANDS_PER_BOARD}")
    terrain, coastal, setup, neighbours = [], [], [], []
    for number in range(1, LANDS_PER_BOARD + 1):
        kind, pieces, adjacent = data[number]
        if kind not in TERRAIN_CODE:
            raise BoardError(f"board {name}: land {number} has unknown terrain {kind!r}")
        counts = [0] * KINDS
        for code in pieces:
            if code not in SETUP_CODE:
                raise BoardError(f"board {name}: land {number} has unknown setup piece {code!r}")
            counts[SETUP_CODE[code]] += 1
        for other in adjacent:
            if other == number or not 0 <= other <= LANDS_PER_BOARD:
                raise BoardError(f"board {name}: land {number} has bad neighbour {other}")
            if other and number not in data[other][2]:
                raise BoardError(
                    f"board {name}: land {number} lists {other} as a neighbour but "
                    f"{other} does not list {number}"
                )
        terrain.append(TERRAIN_CODE[kind])
        coastal.append(0 in adjacent)
        setup.append(tuple(counts))
        neighbours.append(tuple(sorted(other - 1 for other in adjacent if other)))
    return Board(name, tuple(terrain), tuple(coastal), tuple(setup), tuple(neighbours))


BOARDS = {name: load_board(name, data) for name, data in BOARD_DATA.items()}
BOARD_ORDER = ("A", "B", "C", "D")
"""The default boards by seat: seat s starts on board BOARD_ORDER[s] (option ``boards``)."""

BOARD_SIDES: dict[str, tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]] = {
    # The three land edges of each board (the fourth is the Ocean), as printed: with the Ocean
    # on the left, side 0 is the bottom, 1 the right, 2 the top. Each lists its lands
    # clockwise (side 0 from the far corner to the Ocean, side 1 from the top corner down,
    # side 2 from the Ocean to the top corner) and where along the edge, in 13ths, one land
    # gives way to the next (rettigcd/spiritisland, BoardFactory: its break points).
    "A": (((7, 5, 4, 3), (1, 3, 7)), ((8, 7), (5,)), ((1, 6, 8), (3, 7))),
    "B": (((7, 4, 3), (1, 5)), ((8, 7), (5,)), ((1, 6, 8), (1, 7))),
    "C": (((4, 3), (7,)), ((8, 7, 4), (7, 11)), ((1, 6, 8), (3, 7))),
    "D": (((6, 4, 3), (3, 9)), ((8, 7, 6), (5, 11)), ((1, 8), (11,))),
}
EDGE_UNITS = 13
"""An edge's length in the units of its break points."""
LAYOUTS: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    # The published standard layouts: per player count, (position, side, position, side) for
    # each pair of board edges that meet. Position p is seat p's starting board. 2 boards
    # meet bottom to bottom, their Oceans at opposite ends; 3 and 4 boards close around the
    # island's middle (rettigcd/spiritisland, GameBuilder's board orientations, the edges
    # that meet worked out from their corners).
    1: (),
    2: ((1, 0, 0, 0),),
    3: ((2, 1, 0, 0), (1, 0, 0, 1), (2, 0, 1, 1)),
    4: ((3, 1, 0, 1), (1, 0, 0, 2), (2, 1, 1, 1), (3, 0, 2, 2)),
}

BOARD_PLACES: dict[int, tuple[tuple[int, int, int], ...]] = {
    # Per player count, where each position's board lies on the table: the corner where its
    # Ocean edge meets its bottom, in lattice units (x along 0 degrees, d along 60 degrees; a
    # board's edges are 1 long) and its turn in sixths of a circle (rettigcd/spiritisland,
    # GameBuilder's orientations). Each board is a rhombus of two unit triangles.
    1: ((0, 0, 0),),
    2: ((0, 0, 0), (1, 0, 3)),
    3: ((0, 0, 0), (1, 1, 4), (2, -1, 2)),
    4: ((0, 0, 0), (0, 1, 0), (2, 2, 3), (2, 1, 3)),
}
LATTICE_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""A unit step in each sixth of a circle, in (x, d) lattice units."""


def board_corners(x: int, d: int, turn: int) -> tuple[tuple[int, int], ...]:
    """A placed board's corners: by the Ocean at the bottom, bottom right, top right, by the
    Ocean at the top (sides 0, 1, 2 run between them in turn; the Ocean edge closes)."""
    ahead, up = LATTICE_STEPS[turn % 6], LATTICE_STEPS[(turn + 1) % 6]
    steps = ((0, 0), ahead, (ahead[0] + up[0], ahead[1] + up[1]), up)
    return tuple((x + dx, d + dy) for dx, dy in steps)


def _check_layouts() -> None:
    """Each layout's joins are exactly the board edges that meet where its boards lie, no two
    boards cover the same ground, and no board's Ocean edge is covered by another board."""
    for players, places in BOARD_PLACES.items():
        corners = [board_corners(*place) for place in places]
        edges = [[(c[i], c[i + 1]) for i in range(3)] for c in corners]
        meeting = {
            frozenset(((a, i), (b, j)))
            for a, b in itertools.combinations(range(players), 2)
            for i, j in itertools.product(range(3), repeat=2)
            if edges[a][i] == edges[b][j][::-1]
        }
        listed = {frozenset(((pa, sa), (pb, sb))) for pa, sa, pb, sb in LAYOUTS[players]}
        if meeting != listed:
            raise BoardError(f"{players} boards: the joins listed are not the edges that meet")
        halves = [t for c in corners for t in (frozenset(c[:2] + c[3:]), frozenset(c[1:]))]
        oceans = {(c[3], c[0]) for c in corners}
        if len(set(halves)) != len(halves) or any(
            (b, a) in oceans for edge in edges for a, b in edge
        ):
            raise BoardError(f"{players} boards: boards overlap or cover an Ocean")


def _check_sides() -> None:
    """Each side's lands run along the board's edge, its break points in order, and the
    sides meet at the corners: side 0 ends at the coastal land by the Ocean, side 2 starts
    at the other coastal land, and consecutive sides share their corner land."""
    for name, sides in BOARD_SIDES.items():
        board = BOARDS[name]
        if len(sides) != 3:
            raise BoardError(f"board {name}: 3 land edges, not {len(sides)}")
        for number, (lands, breaks) in enumerate(sides):
            if not all(1 <= x <= LANDS_PER_BOARD for x in lands):
                raise BoardError(f"board {name}: side {number} names a land outside 1-8")
            if len(breaks) != len(lands) - 1 or list(breaks) != sorted(set(breaks)):
                raise BoardError(f"board {name}: side {number} needs increasing break points")
            if breaks and not 0 < breaks[0] <= breaks[-1] < EDGE_UNITS:
                raise BoardError(f"board {name}: side {number} breaks outside 1-{EDGE_UNITS - 1}")
            for a, b in itertools.pairwise(lands):
                if b - 1 not in board.neighbours[a - 1]:
                    raise BoardError(f"board {name}: side {number} skips from {a} to {b}")
        (bottom, _), (right, _), (top, _) = sides
        if not (board.coastal[bottom[-1] - 1] and board.coastal[top[0] - 1]):
            raise BoardError(f"board {name}: sides 0 and 2 must reach the Ocean")
        if bottom[0] != right[-1] or right[0] != top[-1]:
            raise BoardError(f"board {name}: the sides must share their corner lands")


_check_sides()
_check_layouts()


def side_join(
    moving: tuple[tuple[int, ...], tuple[int, ...]], fixed: tuple[tuple[int, ...], tuple[int, ...]]
) -> tuple[tuple[int, int], ...]:
    """The land numbers (one of ``moving``, one of ``fixed``) that touch where two edges meet.
    Both list their lands clockwise round their own board, so they run against each other:
    walking both from one end, a land touches the other edge's current land, and whichever
    stretch ends first gives way to its next land (``fixed``'s on a tie, as rettigcd)."""
    lands, breaks = moving[0], (0, *moving[1], EDGE_UNITS)
    other = fixed[0][::-1]
    other_breaks = tuple(EDGE_UNITS - x for x in (0, *fixed[1], EDGE_UNITS))[::-1]
    i = j = 0
    pairs = [(lands[0], other[0])]
    while i < len(lands) - 1 or j < len(other) - 1:
        if breaks[i + 1] < other_breaks[j + 1]:
            i += 1
        else:
            j += 1
        pairs.append((lands[i], other[j]))
    return tuple(pairs)


def cross_board(boards: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The neighbours across boards for ``boards`` (seat order), as land index pairs."""
    pairs: list[tuple[int, int]] = []
    for pa, sa, pb, sb in LAYOUTS[len(boards)]:
        for x, y in side_join(BOARD_SIDES[boards[pa]][sa], BOARD_SIDES[boards[pb]][sb]):
            pairs.append((LANDS_PER_BOARD * pa + x - 1, LANDS_PER_BOARD * pb + y - 1))
    return tuple(pairs)


class Island(NamedTuple):
    """The lands in play: board b's land n (1..8) is land index 8*b + n - 1."""

    boards: tuple[str, ...]
    terrain: tuple[int, ...]
    coastal: tuple[bool, ...]
    neighbours: tuple[tuple[int, ...], ...]
    distance: tuple[tuple[int, ...], ...]
    """Steps between two lands over the island (the Ocean is no land)."""


CROSS_BOARD: dict[tuple[str, ...], tuple[tuple[int, int], ...]] = {}
"""Overrides of :func:`cross_board` for a layout (tests only); empty in play."""


def build_island(boards: tuple[str, ...]) -> Island:
    terrain, coastal = [], []
    neighbours: list[set[int]] = []
    for b, name in enumerate(boards):
        board = BOARDS[name]
        terrain += board.terrain
        coastal += board.coastal
        neighbours += [{LANDS_PER_BOARD * b + n for n in adj} for adj in board.neighbours]
    joins = CROSS_BOARD[boards] if boards in CROSS_BOARD else cross_board(boards)
    for a, b in joins:
        if a // LANDS_PER_BOARD == b // LANDS_PER_BOARD:
            raise BoardError(f"layout {boards}: a cross-board pair {a, b} lies on one board")
        neighbours[a].add(b)
        neighbours[b].add(a)
    n = len(terrain)
    far = 99
    distance = [[far] * n for _ in range(n)]
    for start in range(n):
        distance[start][start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for land in frontier:
                for other in neighbours[land]:
                    if distance[start][other] == far:
                        distance[start][other] = distance[start][land] + 1
                        nxt.append(other)
            frontier = nxt
    if any(far in row for row in distance):
        raise BoardError(f"layout {boards}: some lands cannot be reached")
    return Island(
        boards,
        tuple(terrain),
        tuple(coastal),
        tuple(tuple(sorted(s)) for s in neighbours),
        tuple(tuple(row) for row in distance),
    )


ISLANDS: dict[tuple[str, ...], Island] = {}
"""Islands built so far, by their boards in seat order."""


def island_of(boards: tuple[str, ...]) -> Island:
    if boards not in ISLANDS:
        ISLANDS[boards] = build_island(boards)
    return ISLANDS[boards]


for _players in range(1, MAX_PLAYERS + 1):
    island_of(BOARD_ORDER[:_players])


def land_name(land: int, boards: tuple[str, ...] = BOARD_ORDER) -> str:
    return f"{boards[land // LANDS_PER_BOARD]}{land % LANDS_PER_BOARD + 1}"


# ----- Invader cards ----------------------------------------------------------------------
COASTAL = 4
"""The pseudo-terrain of the Stage II Coastal Lands card."""


class InvaderCard(NamedTuple):
    stage: int
    terrains: tuple[int, ...]
    """The terrains shown, or (COASTAL,)."""
    name: str


INVADER_CARDS: tuple[InvaderCard, ...] = (
    *(InvaderCard(1, (t,), TERRAINS[t]) for t in (M, W, J, S)),
    *(InvaderCard(2, (t,), TERRAINS[t]) for t in (M, W, J, S)),
    InvaderCard(2, (COASTAL,), "Coastal Lands"),
    *(
        InvaderCard(3, (a, b), f"{TERRAINS[a]} + {TERRAINS[b]}")
        for a, b in ((M, W), (M, J), (M, S), (W, J), (W, S), (J, S))
    ),
)
INVADER_STAGE_CARDS = {
    s: tuple(i for i, c in enumerate(INVADER_CARDS) if c.stage == s) for s in (1, 2, 3)
}
INVADER_DECK_STAGES = (1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3)
"""The Invader deck from the top: 3 Stage I atop 4 Stage II atop 5 Stage III."""

# ----- the effect language (effect_language.py) ---------------------------------------------
ACTIONS = ("ravage", "build", "explore")
"""The Invader actions, numbered as their skip flags."""
EFFECTS = EffectCompiler(Vocabulary(ELEMENT_INDEX, TERRAIN_CODE, PIECE_WORDS, ACTIONS, MAX_CHOICE))
"""The compiler of every effect here, in this game's words."""
compile_effect = EFFECTS.effect


# ----- Power cards --------------------------------------------------------------------------
UNIQUE, MINOR, MAJOR = range(3)
FAST, SLOW = 0, 1
TARGETS_LAND, TARGETS_SPIRIT = 0, 1


class Power(NamedTuple):
    """A Power card or an innate Power, checked and compiled."""

    name: str
    kind: int
    """UNIQUE, MINOR, MAJOR (innates: UNIQUE)."""
    cost: int
    speed: int
    target: int
    """TARGETS_LAND or TARGETS_SPIRIT."""
    source_sacred: bool
    """Range counted from Sacred Sites only."""
    range: int
    spirit_target: str
    """For Spirit targets: "any", "self" or "other"."""
    filter: tuple[tuple[Any, ...], ...]
    """Conditions the target land must meet."""
    elements: tuple[int, ...]
    effect: tuple[Op, ...]
    tiers: tuple[tuple[tuple[int, ...], bool, tuple[Op, ...]], ...] = ()
    """Innates: (element threshold, replaces the tiers below, effect) per tier."""
    source_terrain: int = -1
    """Range counted only from Presence in this terrain (-1: any)."""
    extend: tuple[tuple[int, ...], int] | None = None
    """(Elements needed, the range they give): a range the card's Elements raise."""


MAX_RANGE = 3
CARD_FIELDS = ("name", "cost", "speed", "target", "elements", "effect")
FRAME_EXTRAS = ("range", "tiers", "source_terrain", "extend")
"""Fields a card may have besides CARD_FIELDS."""


def load_power(data: dict[str, Any], kind: int) -> Power:
    name = data.get("name", "<unnamed card>")
    missing = [
        f
        for f in CARD_FIELDS
        if f not in data and not (f in ("cost", "effect") and "tiers" in data)
    ]
    if missing:
        raise CardError(f"{name}: missing field(s) {missing}")
    unknown = sorted(set(data) - {*CARD_FIELDS, *FRAME_EXTRAS})
    if unknown:
        raise CardError(f"{name}: unknown field(s) {unknown}")
    if data["speed"] not in ("fast", "slow"):
        raise CardError(f"{name}: speed must be 'fast' or 'slow', not {data['speed']!r}")
    cost = data.get("cost", 0)
    if not isinstance(cost, int) or cost < 0:
        raise CardError(f"{name}: bad cost {cost!r}")
    target = data["target"]
    source_sacred, distance, spirit_target, land_filter = False, 0, "any", ()
    if isinstance(target, str) and target in ("spirit", "self", "other"):
        if "range" in data:
            raise CardError(f"{name}: a Power targeting a Spirit has no range")
        target_kind = TARGETS_SPIRIT
        spirit_target = "any" if target == "spirit" else target
    else:
        target_kind = TARGETS_LAND
        land_filter = EFFECTS.land_filter(target, name)
        if "range" not in data:
            raise CardError(f"{name}: missing field ['range'] for a land target")
        source = data["range"]
        if isinstance(source, tuple) and len(source) == 2 and source[0] == "sacred":
            source_sacred, distance = True, source[1]
        else:
            distance = source
        if (
            not isinstance(distance, int)
            or isinstance(distance, bool)
            or not 0 <= distance <= MAX_RANGE
        ):
            raise CardError(f"{name}: bad range {data['range']!r} (0..{MAX_RANGE})")
    elements = [0] * len(ELEMENTS)
    for element in data["elements"]:
        if element not in ELEMENT_INDEX:
            raise CardError(f"{name}: unknown element {element!r}")
        elements[ELEMENT_INDEX[element]] += 1
    tiers = []
    for tier in data.get("tiers", ()):
        needs, replaces, ops = tier
        threshold = EFFECTS.elements(needs, name)
        tiers.append((threshold, bool(replaces), compile_effect(ops, name)))
    effect = compile_effect(data.get("effect", ()), name)
    source_terrain, extend = _range_extras(data, name, target_kind)
    return Power(
        name,
        kind,
        cost,
        FAST if data["speed"] == "fast" else SLOW,
        target_kind,
        source_sacred,
        distance,
        spirit_target,
        land_filter,
        tuple(elements),
        effect,
        tuple(tiers),
        source_terrain,
        extend,
    )


def _range_extras(
    data: dict[str, Any], name: str, target_kind: int
) -> tuple[int, tuple[tuple[int, ...], int] | None]:
    """A card's source terrain and range extension, checked."""
    if target_kind != TARGETS_LAND and ("source_terrain" in data or "extend" in data):
        raise CardError(f"{name}: a Power targeting a Spirit has no range to qualify")
    terrain = data.get("source_terrain")
    if terrain is not None and terrain not in TERRAIN_CODE:
        raise CardError(f"{name}: source_terrain must be one of {sorted(TERRAIN_CODE)}")
    extend = None
    if "extend" in data:
        needs, distance = data["extend"]
        if not isinstance(distance, int) or not 0 <= distance <= MAX_RANGE:
            raise CardError(f"{name}: bad extended range {distance!r} (0..{MAX_RANGE})")
        extend = (EFFECTS.elements(needs, name), distance)
    return (-1 if terrain is None else TERRAIN_CODE[terrain]), extend


# ----- the Spirits ------------------------------------------------------------------------
GROWTH_ACTIONS = ("reclaim_all", "reclaim_one", "gain_card", "energy", "presence")


class Spirit(NamedTuple):
    name: str
    energy_track: tuple[int, ...]
    """Energy per turn by the highest uncovered space (index 0 uncovered at the start)."""
    card_track: tuple[int, ...]
    """Card plays by space; -1 is "Reclaim One" (plays stay as the space before)."""
    growth: tuple[tuple[tuple[str, int], ...], ...]
    """Growth groups: (action, amount; for presence the range)."""
    setup: tuple[tuple[int, int], ...]
    """(terrain, count): Presence in the highest-numbered land of that terrain; a terrain of
    -n means land n of the starting board."""
    uniques: tuple[int, ...]
    innates: tuple[Power, ...]
    wetland_sacred: bool
    """River's special rule: its Presence in Wetlands counts as Sacred Sites."""
    special: str = ""
    """Another special rule: "swift" (Lightning: 1 Slow Power as Fast per Air it has),
    "vitality" (Vital Strength: Defend 3 in its Sacred Sites), "shadows" (Shadows: may pay 1
    Energy to target any land with Dahan, whatever the range)."""


RECLAIM_ONE = -1

RIVER_UNIQUES = (
    {
        "name": "Boon of Vigor",
        "cost": 0,
        "speed": "fast",
        "target": "spirit",
        "elements": ("sun", "water", "plant"),
        "effect": (
            ("if", ("target_self",), (("energy", 1),)),
            ("if", ("target_other",), (("energy_per_card",),)),
        ),
    },
    {
        "name": "Flash Floods",
        "cost": 2,
        "speed": "fast",
        "range": 1,
        "target": (),
        "elements": ("sun", "water"),
        "effect": (("damage", 1), ("if", ("coastal",), (("damage", 1),))),
    },
    {
        "name": "River's Bounty",
        "cost": 0,
        "speed": "slow",
        "range": 0,
        "target": (),
        "elements": ("sun", "water", "animal"),
        "effect": (
            ("gather", "dahan", 2, True),
            ("if", ("dahan", 2), (("add", "dahan", 1), ("energy", 1))),
        ),
    },
    {
        "name": "Wash Away",
        "cost": 1,
        "speed": "slow",
        "range": 1,
        "target": (),
        "elements": ("water", "earth"),
        "effect": (("push", ("explorer", "town"), 3, True),),
    },
)

RIVER_INNATE = {
    "name": "Massive Flooding",
    "speed": "slow",
    "range": ("sacred", 1),
    "target": (),
    "elements": (),
    "tiers": (
        ({"sun": 1, "water": 2}, False, (("push", ("explorer", "town"), 1),)),
        (
            {"sun": 2, "water": 3},
            True,
            (("damage", 2), ("push", ("explorer", "town"), 3, True)),
        ),
        ({"sun": 3, "water": 4, "earth": 1}, True, (("damage_each", 2),)),
    ),
}

LIGHTNING_UNIQUES = (
    {
        "name": "Harbingers of the Lightning",
        "cost": 0,
        "speed": "slow",
        "range": 1,
        "target": (),
        "elements": ("fire", "air"),
        "effect": (("push", "dahan", 2, True), ("if", ("buildings", 1), (("fear", 1),))),
    },
    {
        "name": "Lightning's Boon",
        "cost": 1,
        "speed": "fast",
        "target": "spirit",
        "elements": ("fire", "air"),
        "effect": (("hasten", 2),),
    },
    {
        "name": "Raging Storm",
        "cost": 3,
        "speed": "slow",
        "range": 1,
        "target": (),
        "elements": ("fire", "air", "water"),
        "effect": (("damage_each", 1),),
    },
    {
        "name": "Shatter Homesteads",
        "cost": 2,
        "speed": "slow",
        "range": ("sacred", 2),
        "target": (),
        "elements": ("fire", "air"),
        "effect": (("fear", 1), ("destroy", "town", 1)),
    },
)
LIGHTNING_INNATE = {
    "name": "Thundering Destruction",
    "speed": "slow",
    "range": ("sacred", 1),
    "target": (),
    "elements": (),
    "tiers": (
        ({"fire": 3, "air": 2}, False, (("destroy", "town", 1),)),
        ({"fire": 4, "air": 3}, True, (("destroy", ("town", "city"), 1),)),
        ({"fire": 5, "air": 4, "water": 1}, False, (("destroy", ("town", "city"), 1),)),
        ({"fire": 5, "air": 5, "water": 2}, False, (("destroy", ("town", "city"), 1),)),
    ),
}
EARTH_UNIQUES = (
    {
        "name": "Guard the Healing Land",
        "cost": 3,
        "speed": "fast",
        "range": ("sacred", 1),
        "target": (),
        "elements": ("water", "earth", "plant"),
        "effect": (("remove_blight", 1), ("defend", 4)),
    },
    {
        "name": "A Year of Perfect Stillness",
        "cost": 3,
        "speed": "fast",
        "range": 1,
        "target": (),
        "elements": ("sun", "earth"),
        "effect": (("skip", "ravage"), ("skip", "build"), ("skip", "explore")),
    },
    {
        "name": "Rituals of Destruction",
        "cost": 3,
        "speed": "slow",
        "range": ("sacred", 1),
        "target": (("dahan", 1),),
        "elements": ("sun", "moon", "fire", "earth", "plant"),
        "effect": (("damage", 2), ("if", ("dahan", 3), (("damage", 3), ("fear", 2)))),
    },
    {
        "name": "Draw of the Fruitful Earth",
        "cost": 1,
        "speed": "slow",
        "range": 1,
        "target": (),
        "elements": ("earth", "plant", "animal"),
        "effect": (("gather", "explorer", 2, True), ("gather", "dahan", 2, True)),
    },
)
EARTH_INNATE = {
    "name": "Gift of Strength",
    "speed": "fast",
    "target": "spirit",
    "elements": (),
    "tiers": (
        ({"sun": 1, "earth": 2, "plant": 2}, False, (("repeat", 1),)),
        ({"sun": 2, "earth": 3, "plant": 2}, True, (("repeat", 3),)),
        ({"sun": 2, "earth": 4, "plant": 3}, True, (("repeat", 6),)),
    ),
}
SHADOWS_UNIQUES = (
    {
        "name": "Mantle of Dread",
        "cost": 1,
        "speed": "slow",
        "target": "spirit",
        "elements": ("moon", "fire", "air"),
        "effect": (
            ("fear", 2),
            (
                "own_land",
                (("invaders",),),
                (("push", "explorer", 1, True), ("push", "town", 1, True)),
            ),
        ),
    },
    {
        "name": "Favors Called Due",
        "cost": 1,
        "speed": "slow",
        "range": 1,
        "target": (),
        "elements": ("moon", "air", "animal"),
        "effect": (("gather", "dahan", 4, True), ("if", ("dahan_outnumber",), (("fear", 3),))),
    },
    {
        "name": "Crops Wither and Fade",
        "cost": 1,
        "speed": "slow",
        "range": 0,
        "target": (),
        "elements": ("moon", "fire", "plant"),
        "effect": (
            ("fear", 2),
            (
                "choose",
                (("if", ("towns", 1), (("remove", "town", 1), ("add", "explorer", 1))),),
                (("if", ("cities", 1), (("remove", "city", 1), ("add", "town", 1))),),
            ),
        ),
    },
    {
        "name": "Concealing Shadows",
        "cost": 0,
        "speed": "fast",
        "range": 0,
        "target": (),
        "elements": ("moon", "air"),
        "effect": (("fear", 1), ("spare_dahan",)),
    },
)
_EXPLORER_FOR_FEAR = ("if", ("explorers", 1), (("destroy", "explorer", 1), ("fear", 1)))
"""One Explorer destroyed and 1 Fear for it, if an Explorer is there."""
SHADOWS_INNATE = {
    "name": "Darkness Swallows the Unwary",
    "speed": "fast",
    "range": ("sacred", 1),
    "target": (),
    "elements": (),
    "tiers": (
        ({"moon": 2, "fire": 1}, False, (("gather", "explorer", 1, True),)),
        # destroy up to 2 Explorers, 1 Fear per Explorer destroyed
        ({"moon": 3, "fire": 2}, False, (_EXPLORER_FOR_FEAR, _EXPLORER_FOR_FEAR)),
        ({"moon": 4, "fire": 3, "air": 2}, False, (("damage", 3),)),
    ),
}

# ----- Minor and Major Powers: the published decks (published.py) -------------------------
MINOR_DATA = published.MINOR_CARDS
MAJOR_DATA = tuple(card for card in published.MAJOR_CARDS if card["effect"] is not None)
"""The Major deck: the published Majors the effect language can say (the others are listed,
with their reasons, in the docs)."""

SPIRIT_DATA = {
    "River Surges in Sunlight": {
        "energy_track": (1, 2, 2, 3, 4, 4, 5),
        "card_track": (1, 2, 2, 3, RECLAIM_ONE, 4, 5),
        "growth": (
            (("reclaim_all", 0), ("gain_card", 0), ("energy", 1)),
            (("presence", 1), ("presence", 1)),
            (("gain_card", 0), ("presence", 2)),
        ),
        "setup": ((W, 1),),
        "uniques": RIVER_UNIQUES,
        "innates": (RIVER_INNATE,),
        "wetland_sacred": True,
    },
    "Lightning's Swift Strike": {
        "energy_track": (1, 1, 2, 2, 3, 4, 4, 5),
        "card_track": (2, 3, 4, 5, 6),
        "growth": (
            (("reclaim_all", 0), ("gain_card", 0), ("energy", 1)),
            (("presence", 2), ("presence", 0)),
            (("presence", 1), ("energy", 3)),
        ),
        "setup": ((S, 2),),
        "uniques": LIGHTNING_UNIQUES,
        "innates": (LIGHTNING_INNATE,),
        "wetland_sacred": False,
        "special": "swift",
    },
    "Vital Strength of the Earth": {
        "energy_track": (2, 3, 4, 6, 7, 8),
        "card_track": (1, 1, 2, 2, 3, 4),
        "growth": (
            (("reclaim_all", 0), ("presence", 2)),
            (("gain_card", 0), ("presence", 0)),
            (("presence", 1), ("energy", 2)),
        ),
        "setup": ((M, 2), (J, 1)),
        "uniques": EARTH_UNIQUES,
        "innates": (EARTH_INNATE,),
        "wetland_sacred": False,
        "special": "vitality",
    },
    "Shadows Flicker Like Flame": {
        "energy_track": (0, 1, 3, 4, 5, 6),
        "card_track": (1, 2, 3, 3, 4, 5),
        "growth": (
            (("reclaim_all", 0), ("gain_card", 0)),
            (("gain_card", 0), ("presence", 1)),
            (("presence", 3), ("energy", 3)),
        ),
        "setup": ((J, 2), (-5, 1)),
        "uniques": SHADOWS_UNIQUES,
        "innates": (SHADOWS_INNATE,),
        "wetland_sacred": False,
        "special": "shadows",
    },
}
SPECIALS = ("", "swift", "vitality", "shadows")

SPIRIT_KEYS = ("river", "lightning", "earth", "shadows")
"""Option names of the Spirits, in the order of SPIRIT_DATA (the observation's index)."""
DEFAULT_SPIRITS = (0, 1, 2, 3)
"""The Spirit of each seat by default."""
UNIQUE_SPIRITS = True
"""Whether two seats may not play the same Spirit (once there are enough Spirits)."""


def _flat_ops(ops: tuple[Op, ...]) -> list[Op]:
    """Every operation of an effect, nested ones too."""
    found = list(ops)
    for op in ops:
        for nested in nested_effects(op):
            found += _flat_ops(nested)
    return found


# ----- building the card tables -------------------------------------------------------------
POWERS: list[Power] = []
SPIRITS: list[Spirit] = []
for spirit_name, data in SPIRIT_DATA.items():
    first = len(POWERS)
    POWERS += [load_power(card, UNIQUE) for card in data["uniques"]]
    innates = tuple(load_power(card, UNIQUE) for card in data["innates"])
    for track in ("energy_track", "card_track"):
        if not data[track] or data[track][0] < 0:
            raise CardError(f"{spirit_name}: the {track} must start with a number")
    if data.get("special", "") not in SPECIALS:
        raise CardError(f"{spirit_name}: unknown special rule {data['special']!r}")
    for terrain, count in data["setup"]:
        if not -LANDS_PER_BOARD <= terrain < len(TERRAINS) or not count > 0:
            raise CardError(f"{spirit_name}: bad setup place {terrain!r}")
    for group in data["growth"]:
        for action, _ in group:
            if action not in GROWTH_ACTIONS:
                raise CardError(f"{spirit_name}: unknown growth action {action!r}")
    SPIRITS.append(
        Spirit(
            spirit_name,
            data["energy_track"],
            data["card_track"],
            data["growth"],
            data["setup"],
            tuple(range(first, len(POWERS))),
            innates,
            data["wetland_sacred"],
            data.get("special", ""),
        )
    )
MINORS = tuple(range(len(POWERS), len(POWERS) + len(MINOR_DATA)))
POWERS += [load_power(card, MINOR) for card in MINOR_DATA]
MAJORS = tuple(range(len(POWERS), len(POWERS) + len(MAJOR_DATA)))
POWERS += [load_power(card, MAJOR) for card in MAJOR_DATA]
CARDS: tuple[Power, ...] = tuple(POWERS)
GRANTS_PAID_REPEAT = tuple(
    any(op[0] == "repeat_paid" for op in _flat_ops(card.effect)) for card in CARDS
)
"""Per card: its effect grants a paid repeat (Powerstorm), so a paid repeat may not repeat it."""

# ----- Power Progressions for the teaching game (the published ones: docs ruling 28) ----------
PROGRESSION_DATA = {
    "river": ("Uncanny Melting", "Nature's Resilience", "Pull Beneath the Hungry Earth",
              "Accelerated Rot", "Song of Sanctity", "Tsunami", "Encompassing Ward"),
    "lightning": ("Delusions of Danger", "Call to Bloodshed", "Powerstorm", "Purifying Flame",
                  "Pillar of Living Flame", "Entrancing Apparitions", "Call to Isolation"),
    "earth": ("Rouse the Trees and Stones", "Call to Migrate", "Poisoned Land",
              "Devouring Ants", "Vigor of the Breaking Dawn", "Voracious Growth",
              "Savage Mawbeasts"),
    "shadows": ("Dark and Tangled Woods", "Shadows of the Burning Forest", "The Jungle Hungers",
                "Land of Haunts and Embers", "Terrifying Nightmares", "Call of the Dahan Ways",
                "Visions of Fiery Doom"),
}  # fmt: skip
"""Per Spirit (``SPIRIT_KEYS``): the Minor and Major Powers gained in this order in the
teaching game, instead of drawing 4."""
CARD_ID = {card.name: i for i, card in enumerate(CARDS)}
"""Each Power card's name -> its id."""
PROGRESSIONS: list[tuple[int, ...]] = []
if tuple(PROGRESSION_DATA) != SPIRIT_KEYS:
    raise CardError("a Power Progression is needed for each Spirit, in SPIRIT_KEYS order")
for _key, _names in PROGRESSION_DATA.items():
    for _name in _names:
        if _name not in CARD_ID or CARDS[CARD_ID[_name]].kind == UNIQUE:
            raise CardError(f"{_key}'s progression: {_name!r} is no Minor or Major Power")
    PROGRESSIONS.append(tuple(CARD_ID[_name] for _name in _names))
if len({c for p in PROGRESSIONS for c in p}) != sum(len(p) for p in PROGRESSIONS):
    raise CardError("a card is in two Power Progressions")
if len(CARDS) > MAX_CARDS:
    raise CardError(f"{len(CARDS)} Power cards exceed the action layout's {MAX_CARDS}")

# ----- Fear cards: the published deck (published.py), three Terror Levels each ----------------
FEAR_DATA = published.FEAR_CARDS
FEAR_CARDS: tuple[tuple[str, tuple[tuple[Op, ...], ...]], ...] = tuple(
    (name, tuple(compile_effect(tier, name) for tier in tiers)) for name, tiers in FEAR_DATA
)
FEAR_DECK_SIZE = 9
TERROR_DIVIDERS = (3, 6)
"""Terror Level 2 after 3 cards earned, 3 after 6 (the 3|3|3 dividers)."""
FEAR_PER_PLAYER = 4
"""The published Fear each Fear card needs, per player (the ``base`` difficulty)."""
DIFFICULTY_FEAR_PER_PLAYER = {"base": FEAR_PER_PLAYER, "easy": 3, "easiest": 2, "hard": 4}
"""Difficulty level -> the Fear each Fear card needs per player. ``base`` is the published
game; ``easy`` and ``easiest`` are this project's own easier levels (fewer Fear per card),
``hard`` its own harder one (less Blight on the Healthy side: DIFFICULTY_HEALTHY_PER_PLAYER)."""

# ----- Blight cards -------------------------------------------------------------------------
# fmt: off
BLIGHT_DATA = (
    # name, Blight per player on the Blighted Island side, its effect each Invader Phase
    ("A Fragile Balance (first game)", 4, ()),
    ("Downward Spiral", 5, (("each_spirit", (("destroy_presence", 1),)),)),
    ("Memory Fades to Dust", 4,
     (("each_spirit", (("choose", (("forget",),), (("destroy_presence", 1),)),)),)),
)
# fmt: on
BLIGHT_CARDS = tuple(
    (name, per_player, compile_effect(effect, name)) for name, per_player, effect in BLIGHT_DATA
)
HEALTHY_PER_PLAYER = 2
DIFFICULTY_HEALTHY_PER_PLAYER = {"hard": 1}
"""Difficulty level -> the Blight per player on the Healthy side (+ 1), where it is not the
published HEALTHY_PER_PLAYER: ``hard`` is this project's own level of more Blight pressure."""


def blight_in_game(players: int) -> int:
    """The most Blight a game can hold, on the card and the island together: the healthy
    side's 2 per player + 1, 1 per board at setup, and the most a Blighted Island side adds."""
    most_blighted = max(per_player for _, per_player, _ in BLIGHT_CARDS)
    return (HEALTHY_PER_PLAYER + 1 + most_blighted) * players + 1


BLIGHT_SCALE = blight_in_game(MAX_PLAYERS)
"""The observation's scale for Blight on the card: what a 4-player game can hold, so no
reachable count is clipped (removed Blight returns to the card, past what it was filled with)."""
FIRST_GAME_BLIGHT = 0
DRAWN_BLIGHT_CARDS = (1, 2)
"""The Blight cards an unnamed card is drawn from: the two published cards (the first-game
card only in the teaching game or when named)."""

# ----- decisions and the action layout -----------------------------------------------------


class Decision(IntEnum):
    """The decision kinds, in the order of their action segments."""

    GROWTH = 0  # choose a growth group of the Spirit panel
    GROWTH_STEP = 1  # which action of the chosen group to do next
    TRACK = 2  # which presence track to take Presence from
    LAND = 3  # a land (target, destination, source, Blight cascade...)
    CARD = 4  # a card of the hand to play, or done; forgetting; reclaiming one
    POWER = 5  # which played Power (or innate) to resolve now, or pass for the phase
    DECK = 6  # gain a Minor or a Major Power
    KEEP = 7  # which of the 4 drawn cards to keep
    PIECE = 8  # which piece (kind) to damage, push, gather, destroy, remove; or stop
    CHOICE = 9  # which of 2 to 4 effects
    SPIRIT = 10  # which Spirit a Power targets
    ELEMENT = 11  # which Element to gain


# ----- what a pending decision is for: its kind and the kinds of its context ----------------
PURPOSES: dict[str, tuple[Decision, tuple[str, ...]]] = {
    "growth": (Decision.GROWTH, ()),
    "growth_step": (Decision.GROWTH_STEP, ("group", "done")),
    "track": (Decision.TRACK, ("range",)),
    "presence_land": (Decision.LAND, ("range", "track")),
    "play": (Decision.CARD, ()),
    "power": (Decision.POWER, ("speed",)),
    "target_land": (Decision.LAND, ("power",)),
    "target_spirit": (Decision.SPIRIT, ("power",)),
    "deck": (Decision.DECK, ()),
    "keep": (Decision.KEEP, ()),
    "forget": (Decision.CARD, ()),
    "reclaim": (Decision.CARD, ()),
    "damage": (Decision.PIECE, ("land", "count")),
    "destroy": (Decision.PIECE, ("land", "mask", "count")),
    "remove": (Decision.PIECE, ("land", "mask", "count")),
    "push_piece": (Decision.PIECE, ("land", "mask", "count", "push_flags")),
    "push_dest": (Decision.LAND, ("land", "mask", "count", "push_flags", "kind")),
    "gather_piece": (Decision.PIECE, ("land", "mask", "count", "flag")),
    "gather_source": (Decision.LAND, ("land", "mask", "count", "flag", "kind")),
    "cascade": (Decision.LAND, ("land",)),
    "spirit_land": (Decision.LAND, ("block", "pc", "taken")),
    "choose": (Decision.CHOICE, ("block", "pc", "land?", "seat?")),
    "destroy_presence": (Decision.LAND, ("count",)),
    "presence_more": (Decision.PIECE, ("land", "count")),
    "presence_source": (Decision.LAND, ("land", "count")),
    "adjacent_land": (Decision.LAND, ("block", "pc", "land", "seat?")),
    "claim_track": (Decision.TRACK, ("land",)),
    "remove_health": (Decision.PIECE, ("land", "count")),
    "strike": (Decision.PIECE, ("land", "count", "struck")),
    "move_piece": (Decision.PIECE, ("land", "land", "mask", "count")),
    "keep_played": (Decision.CARD, ()),
    "element": (Decision.ELEMENT, ("count", "elements", "seat")),
    "push_then_piece": (Decision.PIECE, ("block", "pc", "land", "count", "taken")),
    "push_then_dest": (Decision.LAND, ("block", "pc", "land", "count", "taken", "kind")),
    "damage_of": (Decision.PIECE, ("land", "mask", "count")),
    "restore_land": (Decision.LAND, ("block", "pc", "seat")),
}
PENDING_OPS = {
    "choose": ("choose",),
    "spirit_land": ("spirit_land", "own_land", "pick_land", "land_in_range", "move_to_land"),
    "adjacent_land": ("adjacent",),
    "push_then_piece": ("push_then", "push_spread"),
    "push_then_dest": ("push_then", "push_spread"),
    "restore_land": ("restore_presence",),
}
"""The decisions (and steps) that point at an operation, and the operations they may name."""
PURPOSE_NAMES = tuple(PURPOSES)
PURPOSE = {name: code for code, name in enumerate(PURPOSE_NAMES)}

# ----- the steps of the rules' queue: each step's name and the kinds of its arguments -------
STEPS: dict[str, tuple[str, ...]] = {
    "turn": (),
    "growth": ("seat",),
    "growth_steps": ("seat", "group", "done"),
    "energy": ("seat",),
    "play": ("seat",),
    "powers_start": ("speed",),
    "powers": ("speed", "seat"),
    "use": ("seat", "power"),
    "blighted": (),
    "fear": (),
    "ravage": (),
    "build": (),
    "explore": (),
    "advance": (),
    "time_passes": (),
    "effect": ("block", "pc", "land?", "seat", "seat?"),
    "damage": ("land", "seat", "count"),
    "destroy": ("land", "seat", "mask", "count"),
    "remove": ("land", "seat", "mask", "count"),
    "push": ("land", "seat", "mask", "count", "push_flags"),
    "gather": ("land", "seat", "mask", "count", "flag"),
    "add_blight": ("land",),
    "ravage_land": ("land",),
    "ravage_dahan": ("land", "count"),
    "dahan_fight": ("land",),
    "spirit_land": ("block", "pc", "seat", "taken"),
    "presence": ("seat", "range"),
    "gain": ("seat",),
    "forget": ("seat",),
    "reclaim_one": ("seat",),
    "destroy_presence": ("seat", "count"),
    "gather_presence": ("land", "seat", "count"),
    "remove_health": ("land", "seat", "count"),
    "strike": ("land", "seat", "count", "struck"),
    "move": ("land", "land", "seat", "mask", "count"),
    "keep_played": ("seat",),
    "push_then": ("block", "pc", "land", "seat", "count", "taken"),
    "damage_of": ("land", "seat", "mask", "count"),
    "building_fear": ("land", "count", "count"),
}
"""A saved queue entry is [its step's number in this order, *its arguments]."""
STEP_NAMES = tuple(STEPS)
STEP = {name: code for code, name in enumerate(STEP_NAMES)}
STEP_ARGS = tuple(STEPS[name] for name in STEP_NAMES)

SKIP_BIT = {0: 1, 1: 2, 2: 4}
"""Per-land skip flags (``ACTIONS`` order): Ravage 1, Build 2, Explore 4."""
SPARE_DAHAN = 8
"""Per-land flag: Ravaging Invaders deal no Damage to the Dahan there this turn."""
NO_CITY_BUILD = 16
"""Per-land flag: a Build there that would add a City adds nothing this turn."""
SKIP_FLAGS = 32
"""One more than the highest value of the per-land skip flags together."""
PUSH_UPTO = 1
"""Push / gather step flag: the Spirit may stop early."""
PUSH_TOWARD_BUILDINGS = 2
"""Push step flag: only into a land with more Towns and Cities than the one left."""


def kinds_mask(kinds: tuple[int, ...]) -> int:
    """Piece kinds as a bit mask (a step's "mask" argument)."""
    mask = 0
    for kind in kinds:
        mask |= 1 << kind
    return mask


def in_mask(mask: int) -> tuple[int, ...]:
    """The piece kinds of a bit mask, in kind order."""
    return tuple(kind for kind in range(KINDS) if mask >> kind & 1)


CARD_DONE = MAX_CARDS
"""CARD option: stop playing cards (or reclaim nothing)."""
POWER_PASS = MAX_CARDS + MAX_INNATES
"""POWER option: resolve nothing more this phase."""
DRAW = 4
LAYOUT = ActionLayout.for_decisions(
    Decision,
    {
        Decision.GROWTH: MAX_GROWTH,
        Decision.GROWTH_STEP: MAX_GROWTH,
        Decision.TRACK: 2,
        Decision.LAND: MAX_LANDS,
        Decision.CARD: MAX_CARDS + 1,
        Decision.POWER: MAX_CARDS + MAX_INNATES + 1,
        Decision.DECK: 2,
        Decision.KEEP: DRAW,
        Decision.PIECE: 16,
        Decision.CHOICE: MAX_CHOICE,
        Decision.SPIRIT: MAX_SPIRITS,
        Decision.ELEMENT: len(ELEMENTS),
    },
)

# ----- effect blocks: every effect (and nested effect) gets a number, for the saved queue ----
BLOCKS: list[tuple[Op, ...]] = []
BLOCK_ID: dict[tuple[Op, ...], int] = {}


def block_of(ops: tuple[Op, ...]) -> int:
    """The number of effect ``ops`` (registered with its nested effects at import)."""
    return BLOCK_ID[ops]


def _register(ops: tuple[Op, ...]) -> None:
    if ops not in BLOCK_ID:
        BLOCK_ID[ops] = len(BLOCKS)
        BLOCKS.append(ops)
    for op in ops:
        for nested in nested_effects(op):
            _register(nested)


for _power in (*CARDS, *(i for s in SPIRITS for i in s.innates)):
    _register(_power.effect)
    for _tier in _power.tiers:
        _register(_tier[2])
for _name, _tiers in FEAR_CARDS:
    for _tier in _tiers:
        _register(_tier)
for _name, _per, _effect in BLIGHT_CARDS:
    _register(_effect)
