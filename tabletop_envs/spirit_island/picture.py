"""Spirit Island as a picture: the island, the Invader board and each Spirit's panel in SVG.

:func:`draw` builds a :class:`Scene` first and draws only from it. For a seat the scene is
read from that seat's plain reference view (``game.view(seat)``, the one its observation is
encoded from) plus public constant data (the island's boards, card names and tracks from the
spec) and the game's public result, so the picture cannot show what the seat cannot see.
For ``None`` ("everything") the scene starts from seat 0's view and then adds what the views
leave out: exact counts past the observation's caps, the cards a Spirit drew, the face-down
Fear cards, the Blight card before it flips and the next Invader cards. Those faces are drawn
dashed, marked with the seats that may see them (``seen_by``, absolute seats: the Spirit that
drew, or nobody), and every card carries a ``slot`` that names where it lies in every view
(``hand/1/0``, ``drawn/0/2``, ``fear/earned/0``, ``deck/invader/next/0``, ``blight``).

The island is drawn as the boards lie on the table (``spec.BOARD_PLACES``): each board its
printed shape, each land a region in its printed arrangement (the shapes below), so lands
that share a border are the game's neighbours, across boards too.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from tabletop_envs.core.svg import INK, SECRET, Box, Canvas, Point, Ring, largest_boxes
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    BLIGHT_CARDS,
    BOARD_PLACES,
    BOARD_SIDES,
    CARDS,
    CITY,
    CITY_1,
    DAHAN,
    EDGE_UNITS,
    ELEMENTS,
    EXPLORER,
    FAST,
    FEAR_CARDS,
    FEAR_DECK_SIZE,
    HEALED,
    HEALTH,
    INVADER_CARDS,
    KIND_NAMES,
    LANDS_PER_BOARD,
    MAX_CARDS,
    PURPOSE_NAMES,
    RECLAIM_ONE,
    SPIRITS,
    TERRAINS,
    TERROR_DIVIDERS,
    TOWN,
    BoardError,
    land_name,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame

TERRAIN_FILL = ("#bdb6aa", "#8fcac2", "#86c06f", "#ecd59a")
"""Mountain, Wetland, Jungle, Sands."""
OCEAN = "#5b8fc9"
SEAT_COLOURS = ("#2a62c9", "#d9480f", "#2b8a3e", "#862e9c")
ELEMENT_FILL = (
    "#f2c12e",
    "#a7adc9",
    "#e4572e",
    "#cfe6f7",
    "#3b7dd8",
    "#8d6e4f",
    "#4caf50",
    "#d6457f",
)
HIGHLIGHT = "#ff9f1c"
RESULT_INK = {1: "#2b8a3e", -1: "#c0392b"}
"""The result's colour: victory, defeat."""
DAMAGE = "#c0392b"
MUTED = "#777"
SLOTS = ("Ravage", "Build", "Explore")

# sizes (pixels)
MARGIN = 16
HEADER = 58
SCALE = 500
"""Pixels per board edge."""
COLUMN_W = 430
PANEL_W, PANEL_GAP = 430, 12
CHIP_W, CHIP_H, CHIP_ROW = (PANEL_W - 24) / 2, 18, 21
TRACK_BOX = 30

# ----- the scene: everything the picture shows, and nothing more ------------------------------


@dataclass
class SpiritPanel:
    """One seat's Spirit as its panel shows it."""

    seat: int
    spirit: int
    energy: int
    energy_track: int
    card_track: int
    plays_left: int
    destroyed: int
    elements: list[int]
    hand: list[int]
    played: list[int]
    discard: list[int]
    unresolved: list[int]


@dataclass
class Pending:
    """The pending decision: who decides, what for, and its context."""

    decider: int
    purpose: str
    land: int | None
    power: int | None
    count: int
    kinds: list[int]


@dataclass
class Scene:
    """What one picture shows (absolute seats; lands by island index)."""

    seat: int | None
    boards: tuple[str, ...]
    turn: int
    terrain: list[int]
    coastal: list[bool]
    pieces: list[list[int]]
    presence: list[list[int]]
    defend: list[int]
    flags: list[list[int]]
    spirits: list[SpiritPanel]
    forgotten: list[int]
    power_discards: int
    deck_sizes: tuple[int, int]
    invader_slots: list[int | None]
    invader_discard: int
    invader_deck: int
    fear_pool: int
    fear_earned: int
    fear_resolved: list[int]
    blight_pool: int
    blight_card: int | None
    decision: Pending | None
    outcome: int
    """The public result: 1 victory, -1 defeat, 0 while the game goes on."""
    result: str
    drawn: list[int] = field(default_factory=list)
    drawn_by: int | None = None
    fear_earned_faces: list[int] | None = None
    blight_face_down: int | None = None
    blight_secret: bool = False
    """Whether the face-down Blight card is unknown to every seat (option ``random``)."""
    invader_next: list[int] = field(default_factory=list)


def _ones(row: np.ndarray) -> list[int]:
    return [int(i) for i in np.flatnonzero(row)]


def _one(row: np.ndarray) -> int | None:
    found = _ones(row)
    return found[0] if found else None


def _numbers(values: np.ndarray) -> list[int]:
    return [round(float(x)) for x in np.ravel(values)]


def _result(game: SpiritIslandGame) -> str:
    """The public result in words once the game is over (every seat's reward shows it)."""
    if game.outcome == 0:
        return ""
    return ("Defeat", "", "Victory")[game.outcome + 1] + f": {game.end_reason}"


def _decision(v: dict[str, Any], to_seat: list[int]) -> Pending | None:
    purpose = _one(v["purpose"])
    if _one(v["decision"]) is None or purpose is None:
        return None
    return Pending(
        decider=to_seat[_one(v["decider"]) or 0],
        purpose=PURPOSE_NAMES[purpose],
        land=_one(v["context_land"]),
        power=_one(v["context_power"]),
        count=round(float(v["context_count"][0])),
        kinds=_ones(v["context_kinds"]),
    )


def scene_from_view(game: SpiritIslandGame, seat: int) -> Scene:
    """The scene of ``seat``'s picture: its view, the island's public layout, the result."""
    v = game.view(seat)
    n = game.num_players
    to_seat = [(seat + row) % n for row in range(n)]
    by_seat = sorted(range(n), key=lambda row: to_seat[row])
    lands = int(np.sum(v["in_play"]))
    island = game.island
    decision = _decision(v, to_seat)
    drawn = [_one(slot) for slot in v["drawn"]]
    return Scene(
        seat=seat,
        boards=island.boards,
        turn=int(v["turn"][0]),
        terrain=[_one(v["terrain"][land]) or 0 for land in range(lands)],
        coastal=[bool(v["coastal"][land]) for land in range(lands)],
        pieces=[_numbers(v["pieces"][land]) for land in range(lands)],
        presence=[_numbers(v["presence"][row][:lands]) for row in by_seat],
        defend=_numbers(v["defend"][:lands]),
        flags=[_ones(v["turn_flags"][land]) for land in range(lands)],
        spirits=[_panel(v, row, to_seat[row]) for row in by_seat],
        forgotten=_ones(v["forgotten"]),
        power_discards=len(_ones(v["power_discards"])),
        deck_sizes=(int(v["power_deck_sizes"][0]), int(v["power_deck_sizes"][1])),
        invader_slots=[_one(slot) for slot in v["invader_slots"]],
        invader_discard=len(_ones(v["invader_discard"])),
        invader_deck=int(v["invader_deck_size"][0]),
        fear_pool=int(v["fear_pool"][0]),
        fear_earned=int(v["fear_earned"][0]),
        fear_resolved=_ones(v["fear_discard"]),
        blight_pool=int(v["blight_pool"][0]),
        blight_card=_one(v["blight_card"]) if v["blighted"][0] else None,
        decision=decision,
        outcome=game.outcome,
        result=_result(game),
        drawn=[card for card in drawn if card is not None],
        drawn_by=seat if any(card is not None for card in drawn) else None,
    )


def _panel(v: dict[str, Any], row: int, seat: int) -> SpiritPanel:
    return SpiritPanel(
        seat=seat,
        spirit=_one(v["spirit"][row]) or 0,
        energy=int(v["energy"][row]),
        energy_track=int(v["energy_track"][row]),
        card_track=int(v["card_track"][row]),
        plays_left=int(v["plays_left"][row]),
        destroyed=int(v["destroyed_presence"][row]),
        elements=_numbers(v["elements"][row]),
        hand=_ones(v["hand"][row]),
        played=_ones(v["played"][row]),
        discard=_ones(v["discard"][row]),
        unresolved=_ones(v["unresolved"][row]),
    )


def scene_of_everything(game: SpiritIslandGame) -> Scene:
    """The whole state: seat 0's scene, exact counts, and every hidden card face up."""
    scene = scene_from_view(game, 0)
    scene.seat = None
    scene.pieces = [list(row) for row in game.pieces]
    scene.presence = [list(row) for row in game.presence]
    scene.defend = list(game.defend)
    scene.blight_pool = game.blight_pool
    for panel in scene.spirits:
        panel.energy = game.energy[panel.seat]
        panel.elements = list(game.elements[panel.seat])
        panel.plays_left = game.plays_left[panel.seat]
        panel.destroyed = game.destroyed_presence[panel.seat]
    scene.drawn = list(game.drawn)
    scene.drawn_by = game.drawn_by if game.drawn else None
    scene.fear_earned_faces = list(game.fear_earned)
    scene.blight_face_down = None if game.blighted else game.blight_card
    scene.blight_secret = game.options["blight_card"] == "random"
    scene.invader_next = list(game.invader_deck[:2])
    return scene


# ----- drawing --------------------------------------------------------------------------------


def draw(game: SpiritIslandGame, seat: int | None) -> str:
    """The table as one standalone ``<svg>``: seen by ``seat``, or everything for ``None``."""
    scene = scene_of_everything(game) if seat is None else scene_from_view(game, seat)
    return picture(scene)


def picture(scene: Scene) -> str:
    """The SVG of a scene."""
    island = island_drawing(scene.boards)
    island_w, island_h = island.size
    panels_w = len(scene.spirits) * (PANEL_W + PANEL_GAP) - PANEL_GAP
    width = 2 * MARGIN + max(island_w + MARGIN + COLUMN_W, panels_w)
    top = HEADER + MARGIN
    column_h = _column(Canvas(1, 1), scene, 0, 0)  # measured on a scratch canvas
    beside_column = panels_w <= island_w  # the panels fit under the island alone
    panels_y = top + (island_h if beside_column else max(island_h, column_h)) + MARGIN
    panels_h = max(_panel_height(scene, p) for p in scene.spirits)
    height = max(panels_y + panels_h, top + column_h) + MARGIN
    who = "everything" if scene.seat is None else f"seen by player_{scene.seat}"
    canvas = Canvas(width, height, title=f"Spirit Island, turn {scene.turn}, {who}")
    _header(canvas, scene, who)
    with canvas.group(MARGIN, top):
        _island(canvas, scene, island)
    _column(canvas, scene, MARGIN + island_w + MARGIN, top)
    for index, panel in enumerate(scene.spirits):
        _spirit_panel(canvas, scene, panel, MARGIN + index * (PANEL_W + PANEL_GAP), panels_y)
    return canvas.to_svg()


def _chars(width: float, size: float) -> int:
    """About how many characters fit in ``width`` pixels at font ``size`` (at least 2)."""
    return max(int(width / (0.55 * size)), 2)


def _fit(words: str, width: float, size: float) -> str:
    """``words`` cut with an ellipsis to about ``width`` pixels at font ``size``."""
    most = _chars(width, size)
    return words if len(words) <= most else words[: most - 1] + "…"


def _wrap(words: list[str], width: float, size: float) -> list[str]:
    """``words`` joined by spaces into lines of about ``width`` pixels at font ``size``."""
    most = _chars(width, size)
    lines = [words[0]]
    for word in words[1:]:
        if len(lines[-1]) + 1 + len(word) > most:
            lines.append(word)
        else:
            lines[-1] += " " + word
    return lines


def terror_level(scene: Scene) -> int:
    earned = scene.fear_earned + len(scene.fear_resolved)
    return 1 + sum(earned >= divider for divider in TERROR_DIVIDERS)


def spirit_name(scene: Scene, seat: int) -> str:
    return SPIRITS[scene.spirits[seat].spirit].name


def power_name(scene: Scene, seat: int, power: int) -> str:
    """A card's name, or an innate Power's (ids past the cards) of ``seat``'s Spirit."""
    if power < MAX_CARDS:
        return CARDS[power].name
    return SPIRITS[scene.spirits[seat].spirit].innates[power - MAX_CARDS].name


# ----- the header: turn, Terror Level, the decision or the result ----------------------------

DECISION_WORDS = {
    "growth": "choose a Growth option",
    "growth_step": "choose the next Growth action",
    "track": "take Presence from a track (range {count})",
    "presence_land": "add Presence to a land (range {count})",
    "play": "play Power cards",
    "power": "use a Power or pass",
    "target_land": "choose a land for {power}",
    "target_spirit": "choose a Spirit for {power}",
    "deck": "gain a Minor or a Major Power",
    "keep": "keep 1 of the drawn Power cards",
    "forget": "forget a Power card",
    "reclaim": "reclaim a card",
    "damage": "deal {count} Damage in {land}",
    "destroy": "destroy up to {count}: {kinds} in {land}",
    "remove": "remove up to {count}: {kinds} from {land}",
    "push_piece": "push up to {count}: {kinds} from {land}",
    "push_dest": "push {kinds} from {land} to a neighbour",
    "gather_piece": "gather up to {count}: {kinds} into {land}",
    "gather_source": "gather {kinds} into {land} from a neighbour",
    "cascade": "Blight cascades from {land}: choose where",
    "spirit_land": "choose a land for an effect",
    "choose": "choose one of the effects",
    "destroy_presence": "destroy {count} of its Presence",
    "presence_more": "move up to {count} Presence into {land}",
    "presence_source": "move Presence to {land}: choose where from",
    "adjacent_land": "choose a land next to {land}",
    "claim_track": "add Presence to {land}: choose the track",
    "remove_health": "remove Invaders worth up to {count} Health from {land}",
    "strike": "{count} Dahan strike Invaders in {land}: choose the next",
    "move_piece": "move up to {count}: {kinds} from {land}",
    "keep_played": "keep a played card in hand instead of discarding it",
    "element": "gain {count} more different Elements",
}


def decision_words(scene: Scene) -> str:
    """The pending decision in words: who, and what for."""
    d = scene.decision
    if d is None:
        return scene.result or "No decision pending"
    words = DECISION_WORDS[d.purpose].format(
        count=d.count,
        land=land_name(d.land, scene.boards) if d.land is not None else "a land",
        power=power_name(scene, d.decider, d.power) if d.power is not None else "a Power",
        kinds=_either([KIND_NAMES[k] for k in d.kinds]),
    )
    return f"player_{d.decider} ({spirit_name(scene, d.decider)}) to decide: {words}"


def _either(names: list[str]) -> str:
    """The names as in "a, b or c" ("pieces" for none)."""
    if len(names) < 2:
        return names[0] if names else "pieces"
    return ", ".join(names[:-1]) + " or " + names[-1]


def _header(canvas: Canvas, scene: Scene, who: str) -> None:
    canvas.text(
        MARGIN,
        MARGIN + 14,
        f"Spirit Island · turn {scene.turn} · Terror Level {terror_level(scene)} · {who}",
        size=18,
        bold=True,
    )
    canvas.text(
        MARGIN,
        MARGIN + 38,
        decision_words(scene),
        size=14,
        fill=HIGHLIGHT if scene.decision else RESULT_INK.get(scene.outcome, INK),
        bold=True,
        data={"decision": scene.decision.purpose if scene.decision else "none"},
    )


# ----- the island's shapes ---------------------------------------------------------------------
# A board is a rhombus of two unit equilateral triangles, in board units with y up: the corner
# by the Ocean at the bottom is (0, 0), then (1, 0), (1.5, H) and (0.5, H), H = sqrt(3)/2. The
# Ocean edge (the left one) bulges out to hold the Ocean; the three land edges are sides 0
# (bottom), 1 (right) and 2 (top) as in spec.BOARD_SIDES, each a notched line (one notch
# out, one in, point-symmetric about the edge's middle) so that any two edges laid against
# each other, running opposite ways, are the same line, as the printed boards fit together.
#
# The lands' inner corners are the points of rettigcd/spiritisland's BoardLayout (its drawing
# of the printed boards A-D, in the same frame), and so is the notch; where lands meet along
# a land edge is spec.BOARD_SIDES' break points, so the borders across boards are exactly the
# game's neighbours across boards (tests/test_picture_spirit_island.py checks every border
# against the island's neighbours, for every order of the boards).

H = math.sqrt(3) / 2
CORNERS: tuple[Point, ...] = ((0.0, 0.0), (1.0, 0.0), (1.5, H), (0.5, H))
"""By the Ocean at the bottom, bottom right, top right, by the Ocean at the top."""
SIDE_ENDS = ((1, 0), (2, 1), (3, 2))
"""Each land side's corners, clockwise (as ``spec.BOARD_SIDES`` lists its lands)."""
NOTCH: tuple[Point, ...] = (
    (0.15, 0.0),
    (0.21, -0.06),
    (0.33, -0.06),
    (0.39, 0.0),
    (0.61, 0.0),
    (0.67, 0.06),
    (0.79, 0.06),
    (0.85, 0.0),
)
"""A land edge's line between its ends: (part of the way along, offset to the left of the
way it runs), in edge lengths; point-symmetric about (0.5, 0)."""

BOARD_POINTS: dict[str, dict[str, Point]] = {
    # rettigcd/spiritisland, BoardLayout: the Ocean's points ("0", "01", "03"), where lands
    # meet inside the board (named by the lands, 0 the Ocean) and a few points of shape
    "A": {
        "01": (0.4, 0.846), "03": (0.01, 0.15), "0": (0.14, 0.67),
        "012": (0.48, 0.756), "023": (0.18, 0.22), "124": (0.55, 0.4),
        "145": (0.69, 0.45), "156": (0.79, 0.57), "234": (0.45, 0.2),
        "568": (1.0, 0.67), "578": (1.17, 0.62),
        "02": (0.34, 0.67), "45": (0.81, 0.35), "56": (0.94, 0.54),
    },
    "B": {
        "01": (0.4, 0.846), "03": (0.01, 0.15), "0": (0.14, 0.67),
        "012": (0.36, 0.6), "023": (0.15, 0.2), "156": (0.7, 0.7),
        "145": (0.67, 0.58), "124": (0.53, 0.57), "234": (0.57, 0.17),
        "457": (0.91, 0.27), "567": (1.05, 0.5), "678": (1.15, 0.6),
    },
    "C": {
        "01": (0.4, 0.846), "03": (0.01, 0.08), "0": (0.14, 0.67),
        "012": (0.29, 0.6), "023": (0.19, 0.2), "125": (0.56, 0.5),
        "156": (0.69, 0.53), "234": (0.53, 0.08), "245": (0.6, 0.2),
        "457": (1.05, 0.25), "567": (0.93, 0.55), "678": (1.15, 0.62),
    },
    "D": {
        "01": (0.4, 0.846), "03": (0.0, 0.15), "0": (0.14, 0.67),
        "012": (0.35, 0.67), "023": (0.15, 0.23), "125": (0.59, 0.66),
        "157": (0.87, 0.68), "178": (1.06, 0.73), "234": (0.42, 0.17),
        "245": (0.56, 0.27), "456": (0.74, 0.31), "567": (0.93, 0.42),
    },
}  # fmt: skip
BOARD_RINGS: dict[str, tuple[tuple[str, ...], ...]] = {
    # per board: the Ocean, then lands 1-8, each clockwise (rettigcd's rings, the runs along
    # a land edge written as the side)
    "A": (
        ("01", "012", "02", "023", "03", "0"),
        ("01", "s2", "156", "145", "124", "012"),
        ("012", "124", "234", "023", "02"),
        ("03", "023", "234", "s0"),
        ("s0", "234", "124", "145", "45"),
        ("s0", "45", "145", "156", "56", "568", "578"),
        ("s2", "568", "56", "156"),
        ("s1", "s0", "578"),
        ("s2", "s1", "578", "568"),
    ),
    "B": (
        ("01", "012", "023", "03", "0"),
        ("01", "s2", "156", "145", "124", "012"),
        ("012", "124", "234", "023"),
        ("03", "023", "234", "s0"),
        ("s0", "234", "124", "145", "457"),
        ("145", "156", "567", "457"),
        ("s2", "678", "567", "156"),
        ("s1", "s0", "457", "567", "678"),
        ("s2", "s1", "678"),
    ),
    "C": (
        ("01", "012", "023", "03", "0"),
        ("01", "s2", "156", "125", "012"),
        ("012", "125", "245", "234", "023"),
        ("03", "023", "234", "s0"),
        ("s1", "s0", "234", "245", "457"),
        ("567", "457", "245", "125", "156"),
        ("s2", "678", "567", "156"),
        ("s1", "457", "567", "678"),
        ("s2", "s1", "678"),
    ),
    "D": (
        ("01", "012", "023", "03", "0"),
        ("01", "s2", "178", "157", "125", "012"),
        ("012", "125", "245", "234", "023"),
        ("03", "023", "234", "s0"),
        ("s0", "234", "245", "456"),
        ("157", "567", "456", "245", "125"),
        ("456", "567", "s1", "s0"),
        ("s1", "567", "157", "178"),
        ("s2", "s1", "178"),
    ),
}
SIDE_TOKENS = ("s0", "s1", "s2")


def _check_rings() -> None:
    """Every board has the Ocean and 8 lands, each ring names only its board's points, and
    each land runs along exactly the sides that list it."""
    for name, rings in BOARD_RINGS.items():
        if len(rings) != LANDS_PER_BOARD + 1:
            raise BoardError(f"board {name}: the Ocean and {LANDS_PER_BOARD} lands, not {rings}")
        for number, ring in enumerate(rings):
            unknown = set(ring) - set(BOARD_POINTS[name]) - set(SIDE_TOKENS)
            if unknown:
                raise BoardError(f"board {name}: region {number} names unknown points {unknown}")
            sides = {int(token[1]) for token in ring if token in SIDE_TOKENS}
            listed = {s for s, (lands, _) in enumerate(BOARD_SIDES[name]) if number in lands}
            if sides != listed:
                raise BoardError(f"board {name}: land {number} runs along sides {listed}")


_check_rings()


def notch_offset(along: float) -> float:
    """How far the edge's line lies to the left of its chord ``along`` the way."""
    points = ((0.0, 0.0), *NOTCH, (1.0, 0.0))
    for (u0, v0), (u1, v1) in itertools.pairwise(points):
        if u0 <= along <= u1:
            return v0 + (v1 - v0) * (along - u0) / (u1 - u0)
    raise ValueError(f"a place along an edge is between 0 and 1, not {along}")


def side_point(side: int, along: float) -> Point:
    """The point ``along`` (0-1) land side ``side`` of a board, on its notched line."""
    (x0, y0), (x1, y1) = (CORNERS[c] for c in SIDE_ENDS[side])
    offset = notch_offset(along)
    left = (-(y1 - y0), x1 - x0)  # the edge is 1 long
    return (
        x0 * (1 - along) + x1 * along + left[0] * offset,
        y0 * (1 - along) + y1 * along + left[1] * offset,
    )


def stretch(name: str, side: int, land: int) -> tuple[float, float]:
    """Where land ``land`` (1-8) lies along ``side`` of board ``name``: from, to (0-1)."""
    lands, breaks = BOARD_SIDES[name][side]
    ends = (0, *breaks, EDGE_UNITS)
    index = lands.index(land)
    return ends[index] / EDGE_UNITS, ends[index + 1] / EDGE_UNITS


def _along(name: str, side: int, land: int) -> list[Point]:
    start, end = stretch(name, side, land)
    inner = [u for u, _ in NOTCH if start < u < end]
    return [side_point(side, u) for u in (start, *inner, end)]


def _ring(name: str, region: int) -> Ring:
    points: list[Point] = []
    for token in BOARD_RINGS[name][region]:
        if token in SIDE_TOKENS:
            run = _along(name, int(token[1]), region)
        else:
            run = [BOARD_POINTS[name][token]]
        points += [p for p in run if not points or p != points[-1]]
    return tuple(points[:-1] if points[-1] == points[0] else points)


def board_outline(name: str) -> Ring:
    """A board's outline, clockwise from its Ocean corner at the bottom."""
    ocean = BOARD_POINTS[name]
    points = [CORNERS[0], ocean["03"], ocean["0"], ocean["01"]]
    for side in (2, 1, 0):
        points += [side_point(side, u) for u, _ in ((0.0, 0), *NOTCH)]
    return tuple(points)


class Shape(NamedTuple):
    """The island drawn: per land (island index) its polygon, per board its Ocean and
    outline, in island units with y up."""

    lands: tuple[Ring, ...]
    oceans: tuple[Ring, ...]
    outlines: tuple[Ring, ...]


def placed(ring: Ring, x: int, d: int, turn: int) -> Ring:
    """``ring`` of a board lying with its Ocean corner at lattice (x, d), turned ``turn``
    sixths of a circle anticlockwise (``spec.BOARD_PLACES``)."""
    angle = turn * math.pi / 3
    cos, sin = math.cos(angle), math.sin(angle)
    ox, oy = x + d / 2, d * H
    return tuple((ox + px * cos - py * sin, oy + px * sin + py * cos) for px, py in ring)


@cache
def island_shape(boards: tuple[str, ...]) -> Shape:
    """The shapes of the island of ``boards`` (seat order) as the layout lays them."""
    if len(boards) not in BOARD_PLACES:
        raise BoardError(f"no layout for {len(boards)} boards: 1 to {len(BOARD_PLACES)}")
    lands: list[Ring] = []
    oceans, outlines = [], []
    for name, place in zip(boards, BOARD_PLACES[len(boards)], strict=True):
        lands += [placed(_ring(name, n), *place) for n in range(1, LANDS_PER_BOARD + 1)]
        oceans.append(placed(_ring(name, 0), *place))
        outlines.append(placed(board_outline(name), *place))
    return Shape(tuple(lands), tuple(oceans), tuple(outlines))


# ----- the island drawn -----------------------------------------------------------------------

ISLAND_PAD = 8
LAND_EDGE, BOARD_EDGE = "#4a4a4a", "#222"
ASPECTS = (0.6, 1.0, 1.6, 2.5, 4.0)
"""The shapes of the boxes a land's pieces are laid out in (width / height)."""
SHRINK = (1.0, 0.85, 0.72, 0.6)
"""How far a land's glyphs may shrink to fit it, tried in turn."""


class IslandDrawing(NamedTuple):
    """The island in pixels (y down, from the island's top left): the shapes, and per land
    and per Ocean the boxes its contents may fill."""

    size: tuple[float, float]
    lands: tuple[Ring, ...]
    oceans: tuple[Ring, ...]
    outlines: tuple[Ring, ...]
    land_boxes: tuple[tuple[Box, ...], ...]
    ocean_boxes: tuple[Box, ...]


@cache
def island_drawing(boards: tuple[str, ...]) -> IslandDrawing:
    """The island of ``boards`` laid out in pixels (public constant data: the layout)."""
    shape = island_shape(boards)
    every = [p for ring in shape.outlines for p in ring]
    left, top = min(x for x, _ in every), max(y for _, y in every)
    width = max(x for x, _ in every) - left
    height = top - min(y for _, y in every)

    def to_pixels(ring: Ring) -> Ring:
        return tuple(
            (ISLAND_PAD + (x - left) * SCALE, ISLAND_PAD + (top - y) * SCALE) for x, y in ring
        )

    lands = tuple(to_pixels(ring) for ring in shape.lands)
    oceans = tuple(to_pixels(ring) for ring in shape.oceans)
    return IslandDrawing(
        size=(width * SCALE + 2 * ISLAND_PAD, height * SCALE + 2 * ISLAND_PAD),
        lands=lands,
        oceans=oceans,
        outlines=tuple(to_pixels(ring) for ring in shape.outlines),
        land_boxes=tuple(largest_boxes(ring, ASPECTS, 3) for ring in lands),
        ocean_boxes=tuple(largest_boxes(ring, (0.45,), 3)[0] for ring in oceans),
    )


def _island(canvas: Canvas, scene: Scene, island: IslandDrawing) -> None:
    """The boards' Oceans and lands, each land with its pieces, then the boards' outlines and
    the pending decision's land outlined in orange."""
    for board, name in enumerate(scene.boards):
        _ocean(canvas, name, board, island.oceans[board], island.ocean_boxes[board])
    for land, ring in enumerate(island.lands):
        terrain = scene.terrain[land]
        data = {
            "land": land_name(land, scene.boards),
            "terrain": TERRAINS[terrain],
            "coastal": int(scene.coastal[land]),
        }
        canvas.polygon(ring, fill=TERRAIN_FILL[terrain], stroke=LAND_EDGE, data=data)
    for ring in island.outlines:
        canvas.polygon(ring, fill="none", stroke=BOARD_EDGE, width=2.5)
    for land, boxes in enumerate(island.land_boxes):
        _land(canvas, scene, land, boxes)
    decision = scene.decision
    if decision is not None and decision.land is not None:
        canvas.polygon(island.lands[decision.land], fill="none", stroke=HIGHLIGHT, width=4)


def _ocean(canvas: Canvas, name: str, seat: int, ring: Ring, box: Box) -> None:
    canvas.polygon(ring, fill=OCEAN, stroke=LAND_EDGE, data={"ocean": name})
    x, y, _, _ = box
    canvas.text(x, y + 2, name, size=24, anchor="middle", bold=True, fill="#fff")
    canvas.text(x, y + 18, f"player_{seat}", size=10, anchor="middle", fill="#fff")


LABEL_H, PIECE_W, PIECE_H, PRESENCE_W, PRESENCE_H, NOTE_H = 15, 34, 22, 22, 21, 11


class LandLayout(NamedTuple):
    """How a land's contents lie: the pieces and Presence per row, the notes' lines."""

    width: float
    height: float
    pieces_per_row: int
    presence_per_row: int
    notes: tuple[str, ...]


def _layout(label: str, pieces: int, presence: int, notes: str, width: float) -> LandLayout:
    """The land's label, then its pieces, its Presence and its notes in rows ``width`` wide."""
    per_row = max(int(width // PIECE_W), 1)
    presence_per_row = max(int(width // PRESENCE_W), 1)
    lines = tuple(_wrap(notes.split(" "), width, 9)) if notes else ()
    rows = -(-pieces // per_row), -(-presence // presence_per_row)
    widest = max(
        _text_width(label, 12),
        min(pieces, per_row) * PIECE_W,
        min(presence, presence_per_row) * PRESENCE_W,
        *(_text_width(line, 9) for line in lines),
    )
    height = LABEL_H + rows[0] * PIECE_H + rows[1] * PRESENCE_H + len(lines) * NOTE_H
    return LandLayout(widest, height, per_row, presence_per_row, lines)


def _text_width(words: str, size: float) -> float:
    return 0.6 * size * len(words)


@cache
def _placement(
    label: str, pieces: int, presence: int, notes: str, boxes: tuple[Box, ...]
) -> tuple[float, float, float, LandLayout]:
    """Where a land's contents go: their top left, their scale and their layout, at the
    largest scale that fits one of the land's boxes (the smallest, in its largest box, if
    none fits)."""
    for scale, box in itertools.product(SHRINK, boxes):
        layout = _layout(label, pieces, presence, notes, 2 * box[2] / scale)
        if layout.height * scale <= 2 * box[3] and layout.width * scale <= 2 * box[2]:
            break
    else:
        scale, box = SHRINK[-1], max(boxes, key=lambda b: b[2] * b[3])
        layout = _layout(label, pieces, presence, notes, 2 * box[2] / scale)
    x, y = box[0] - layout.width * scale / 2, box[1] - layout.height * scale / 2
    return x, y, scale, layout


def _land(canvas: Canvas, scene: Scene, land: int, boxes: tuple[Box, ...]) -> None:
    name = land_name(land, scene.boards)
    shown = [(kind, count) for kind, count in enumerate(scene.pieces[land]) if count]
    present = [(seat, counts[land]) for seat, counts in enumerate(scene.presence) if counts[land]]
    notes = _land_notes(scene, land)
    x, y, scale, layout = _placement(name, len(shown), len(present), notes, boxes)
    with canvas.group(x, y, scale):
        canvas.text(0, 12, name, size=12, bold=True)
        for index, (kind, count) in enumerate(shown):
            px = (index % layout.pieces_per_row) * PIECE_W
            py = LABEL_H + (index // layout.pieces_per_row) * PIECE_H
            _piece_count(canvas, name, kind, count, px, py)
        top = LABEL_H + -(-len(shown) // layout.pieces_per_row) * PIECE_H
        for index, (seat, count) in enumerate(present):
            cx = 10 + (index % layout.presence_per_row) * PRESENCE_W
            cy = top + 10 + (index // layout.presence_per_row) * PRESENCE_H
            data = {"land": name, "presence": f"player_{seat}", "count": count}
            canvas.circle(cx, cy, 9.5, fill=SEAT_COLOURS[seat], stroke="#fff", data=data)
            canvas.text(cx, cy + 4, f"{count}", size=11, anchor="middle", fill="#fff", bold=True)
        top += -(-len(present) // layout.presence_per_row) * PRESENCE_H
        for index, line in enumerate(layout.notes):
            canvas.text(0, top + 9 + index * NOTE_H, line, size=9, fill=DAMAGE, bold=True)


def _land_notes(scene: Scene, land: int) -> str:
    notes = [f"Defend {scene.defend[land]}"] if scene.defend[land] else []
    notes += [f"no {SLOTS[flag]}" for flag in scene.flags[land] if flag < 3]
    notes += ["Isolated"] if 3 in scene.flags[land] else []
    return ", ".join(notes)


def _piece_count(canvas: Canvas, land: str, kind: int, count: int, x: float, y: float) -> None:
    """A piece's glyph and how many there are; a damaged piece its damage under the count."""
    data = {"land": land, "piece": KIND_NAMES[kind], "count": count}
    _piece(canvas, kind, x + 9, y + 10, data)
    canvas.text(x + 19, y + 14, f"{count}", size=11, bold=True)
    if kind in HEALED:
        damage = HEALTH[HEALED[kind]] - HEALTH[kind]
        canvas.text(x + 19, y + 22, f"−{damage}", size=8, fill=DAMAGE, bold=True)


PIECE_FILL = {
    EXPLORER: "#f6e7b8",
    TOWN: "#e3a857",
    CITY: "#b86f2d",
    DAHAN: "#7b4f2c",
    BLIGHT: "#5a4668",
}
PIECE_SHAPE = {
    EXPLORER: ((-3, -7), (3, -7), (6, 7), (-6, 7)),
    TOWN: ((-7, 7), (-7, -1), (0, -8), (7, -1), (7, 7)),
    CITY: ((-8, 7), (-8, -3), (-4, -8), (0, -3), (4, -8), (8, -3), (8, 7)),
    BLIGHT: ((0, -8), (8, 0), (0, 8), (-8, 0)),
}


def _piece(canvas: Canvas, kind: int, x: float, y: float, data: dict[str, object]) -> None:
    """One piece's glyph at (x, y); a damaged piece has a red outline."""
    base = HEALED.get(kind, kind)
    stroke = DAMAGE if kind in HEALED else INK
    if base == DAHAN:
        canvas.circle(x, y, 7, fill=PIECE_FILL[DAHAN], stroke=stroke, data=data)
        return
    points = [(x + dx, y + dy) for dx, dy in PIECE_SHAPE[base]]
    canvas.polygon(points, fill=PIECE_FILL[base], stroke=stroke, data=data)


# ----- the column: Invader cards, Fear, Blight, Power decks -----------------------------------

INVADER_W, INVADER_H = 96, 62
SMALL_CARD_W, SMALL_CARD_H = 30, 42
NEXT_LABEL_W = 80
NEXT_W = (COLUMN_W - NEXT_LABEL_W - 8) / 2


def _rows(count: int) -> int:
    return -(-count // 2)


def _column(canvas: Canvas, scene: Scene, x: float, y: float) -> float:
    """The Invader board, Fear, Blight and the Power decks, top to bottom; their height."""
    bottom = y
    for section in (_invaders, _fear, _blight, _power_decks, _legend):
        bottom = section(canvas, scene, x, bottom) + 12
    return bottom - y


def _section(canvas: Canvas, x: float, y: float, title: str) -> float:
    canvas.text(x, y + 13, title, size=14, bold=True)
    canvas.line(x, y + 18, x + COLUMN_W, y + 18, stroke="#ccc")
    return y + 26


def _invaders(canvas: Canvas, scene: Scene, x: float, y: float) -> float:
    y = _section(canvas, x, y, "Invaders")
    for slot, card in enumerate(scene.invader_slots):
        cx = x + slot * (INVADER_W + 8)
        canvas.text(cx + INVADER_W / 2, y + 11, SLOTS[slot], size=11, anchor="middle", bold=True)
        if card is None:
            canvas.rect(
                cx,
                y + 16,
                INVADER_W,
                INVADER_H,
                fill="#eee",
                stroke="#bbb",
                data={"slot": f"invader/{SLOTS[slot].lower()}"},
            )
            canvas.text(cx + INVADER_W / 2, y + 50, "empty", size=11, anchor="middle", fill=MUTED)
        else:
            _invader_card(canvas, card, cx, y + 16, {"slot": f"invader/{SLOTS[slot].lower()}"})
    dx = x + 3 * (INVADER_W + 8)
    size = {"width": 44, "height": INVADER_H}
    canvas.card_back(dx, y + 16, **size, slot="deck/invader", data={"deck": "invader"})
    canvas.text(
        dx + 22, y + 52, f"{scene.invader_deck}", size=16, anchor="middle", fill="#fff", bold=True
    )
    canvas.text(dx + 50, y + 30, "in deck", size=10)
    canvas.text(dx + 50, y + 46, f"{scene.invader_discard} discarded", size=10)
    if scene.invader_next:  # the everything picture: the deck's next cards, seen by nobody
        canvas.text(x, y + INVADER_H + 33, "next (hidden):", size=10, fill=MUTED)
        for index, card in enumerate(scene.invader_next):
            cx = x + NEXT_LABEL_W + index * (NEXT_W + 8)
            slot = f"deck/invader/next/{index}"
            name = INVADER_CARDS[card].name
            _chip(canvas, cx, y + INVADER_H + 20, name, "", "#fff", {}, NEXT_W, slot, ())
    return y + INVADER_H + 38


def _invader_card(canvas: Canvas, card: int, x: float, y: float, data: dict[str, object]) -> None:
    info = INVADER_CARDS[card]
    terrains = [t for t in info.terrains if t < len(TERRAINS)]
    canvas.rect(
        x,
        y,
        INVADER_W,
        INVADER_H,
        fill=OCEAN if not terrains else "#fff",
        data={"card": info.name, **data},
    )
    for index, terrain in enumerate(terrains):
        part = INVADER_W / len(terrains)
        canvas.rect(
            x + index * part + 2,
            y + 2,
            part - 4,
            INVADER_H - 4,
            fill=TERRAIN_FILL[terrain],
            stroke="none",
        )
    lines = info.name.split(" + ") if terrains else ["Coastal", "Lands"]
    for index, words in enumerate(lines):
        canvas.text(
            x + INVADER_W / 2, y + 26 + index * 16, words, size=12, anchor="middle", bold=True
        )
    canvas.text(x + INVADER_W - 5, y + INVADER_H - 5, "I" * info.stage, size=9, anchor="end")


def _fear(canvas: Canvas, scene: Scene, x: float, y: float) -> float:
    y = _section(canvas, x, y, f"Fear · Terror Level {terror_level(scene)}")
    left = FEAR_DECK_SIZE - scene.fear_earned - len(scene.fear_resolved)
    words = f"Fear pool {scene.fear_pool} · {left} Fear card(s) in the deck"
    canvas.text(x, y + 13, words, size=12, data={"fear-pool": scene.fear_pool})
    canvas.text(x, y + 32, f"earned, face down: {scene.fear_earned}", size=12)
    faces_up = scene.fear_earned_faces is not None  # the everything picture names them below
    backs = 0 if faces_up else scene.fear_earned
    for index in range(backs):
        bx = x + 150 + index * (SMALL_CARD_W + 4)
        size = {"width": SMALL_CARD_W, "height": SMALL_CARD_H}
        canvas.card_back(bx, y + 20, **size, slot=f"fear/earned/{index}", data={"fear": "earned"})
    y += 40 + (SMALL_CARD_H + 6 if backs else 0)
    faces = [(c, "earned", index, ()) for index, c in enumerate(scene.fear_earned_faces or [])]
    faces += [(c, "resolved", index, None) for index, c in enumerate(scene.fear_resolved)]
    for index, (card, state, place, seen_by) in enumerate(faces):
        cx, cy = x + (index % 2) * (CHIP_W + 8), y + (index // 2) * CHIP_ROW
        fill = "#e8e0f5" if state == "resolved" else "#f7e3e3"
        data = {"fear": "resolved" if state == "resolved" else "earned (face down)"}
        slot = f"fear/{state}/{place}"
        _chip(canvas, cx, cy, FEAR_CARDS[card][0], state, fill, data, CHIP_W, slot, seen_by)
    return y + _rows(len(faces)) * CHIP_ROW


def _blight(canvas: Canvas, scene: Scene, x: float, y: float) -> float:
    y = _section(canvas, x, y, "Blight")
    canvas.text(
        x,
        y + 13,
        f"Blight on the card: {scene.blight_pool}",
        size=12,
        data={"blight-pool": scene.blight_pool},
    )
    width = 2 * CHIP_W + 8
    card = scene.blight_card if scene.blight_card is not None else scene.blight_face_down
    if card is None:
        data = {"card": "hidden", "slot": "blight", "blight": "healthy"}  # its back, unflipped
        canvas.rect(x, y + 22, width, CHIP_H, fill="#e6f2e0", data=data)
        canvas.text(x + 6, y + 35, "Healthy Island (the Blight card has not flipped)", size=11)
    elif scene.blight_card is not None:
        data = {"blight": "flipped"}
        _chip(
            canvas, x, y + 22, BLIGHT_CARDS[card][0], "Blighted", "#f3d6d6", data, width, "blight"
        )
    else:  # the everything picture: face down, seen by nobody unless the option named it
        data = {"blight": "face down"}
        seen_by = () if scene.blight_secret else None
        name = BLIGHT_CARDS[card][0]
        _chip(canvas, x, y + 22, name, "not flipped", "#e6f2e0", data, width, "blight", seen_by)
    return y + 22 + CHIP_H


def _power_decks(canvas: Canvas, scene: Scene, x: float, y: float) -> float:
    y = _section(canvas, x, y, "Power decks")
    minor, major = scene.deck_sizes
    words = f"Minor {minor} · Major {major} · {scene.power_discards} discarded"
    canvas.text(x, y + 13, words, size=12)
    if not scene.forgotten:
        return y + 18
    canvas.text(x, y + 32, "forgotten:", size=11, fill=MUTED)
    for index, card in enumerate(scene.forgotten):
        cx, cy = x + (index % 2) * (CHIP_W + 8), y + 38 + (index // 2) * CHIP_ROW
        slot = f"forgotten/{index}"
        _chip(canvas, cx, cy, CARDS[card].name, "", "#eee", {"forgotten": 1}, CHIP_W, slot)
    return y + 38 + _rows(len(scene.forgotten)) * CHIP_ROW


LEGEND = (
    (EXPLORER, "Explorer"),
    (TOWN, "Town"),
    (CITY, "City"),
    (DAHAN, "Dahan"),
    (BLIGHT, "Blight"),
    (CITY_1, "damaged"),
)


def _legend(canvas: Canvas, scene: Scene, x: float, y: float) -> float:
    """What the colours and glyphs mean: the terrains, the pieces, damage, Presence."""
    y = _section(canvas, x, y, "Key")
    for index, (terrain, fill) in enumerate(zip(TERRAINS, TERRAIN_FILL, strict=True)):
        tx = x + index * 84
        canvas.rect(tx, y + 2, 18, 14, fill=fill, stroke=LAND_EDGE, radius=2)
        canvas.text(tx + 23, y + 13, terrain, size=10)
    tx = x + len(TERRAINS) * 84
    canvas.rect(tx, y + 2, 18, 14, fill=OCEAN, stroke=LAND_EDGE, radius=2)
    canvas.text(tx + 23, y + 13, "Ocean", size=10)
    y += 24
    for index, (kind, words) in enumerate(LEGEND):
        gx = x + 8 + index * 70
        _piece(canvas, kind, gx, y + 10, {"legend": words})
        canvas.text(gx + 11, y + 14, words, size=10, fill=DAMAGE if kind == CITY_1 else INK)
    canvas.text(x, y + 40, "Presence of", size=10)
    for seat in range(len(scene.spirits)):
        px = x + 80 + seat * 84
        canvas.circle(px, y + 36, 9, fill=SEAT_COLOURS[seat], stroke="#fff")
        canvas.text(px + 13, y + 40, f"player_{seat}", size=10)
    return y + 48


def _chip(
    canvas: Canvas,
    x: float,
    y: float,
    name: str,
    note: str,
    fill: str,
    data: dict[str, object],
    width: float = CHIP_W,
    slot: str = "",
    seen_by: tuple[int, ...] | None = None,
) -> None:
    """A card shown face up as one line: its name, a short note at the right. ``slot``: where
    it lies; ``seen_by``: the seats that may see it, for a secret in the everything picture
    (outlined dashed), as :meth:`Canvas.card` marks them."""
    marks: dict[str, object] = {"card": name, **({"slot": slot} if slot else {})}
    if seen_by is not None:
        marks["seen-by"] = " ".join(str(seat) for seat in seen_by)
    secret = seen_by is not None
    stroke = SECRET if secret else INK
    canvas.rect(
        x,
        y,
        width,
        CHIP_H,
        fill=fill,
        stroke=stroke,
        radius=3,
        dashed=secret,
        data={**marks, **data},
    )
    room = width - 12 - 0.55 * 9 * len(note)
    canvas.text(x + 5, y + 13, _fit(name, room, 10.5), size=10.5)
    if note:
        canvas.text(x + width - 4, y + 13, note, size=9, anchor="end", fill="#555")


# ----- the Spirit panels ----------------------------------------------------------------------


Chip = tuple[int, str, str]
"""A Power in a panel's list: its id, the note at its right, its fill."""
TO_USE, USED = "#fff1bf", "#eee"


@dataclass
class CardList:
    """One list of a panel: its slot name (``hand`` gives ``hand/<seat>/<index>``), its
    title, its Powers, and who may see them (``None``: public)."""

    key: str
    title: str
    chips: list[Chip]
    seen_by: tuple[int, ...] | None = None


def _card_lists(scene: Scene, panel: SpiritPanel) -> list[CardList]:
    """The lists a panel shows, titled, in order; the hand always, the others when not empty.
    The drawn cards are the drawing Spirit's alone: marked so in the everything picture."""
    waiting = set(panel.unresolved)
    played = [(c, _card_note(c), TO_USE if c in waiting else USED) for c in panel.played]
    lists = [
        CardList(
            "hand", f"Hand ({len(panel.hand)})", [(c, _card_note(c), "#fff") for c in panel.hand]
        ),
        CardList("played", f"Played ({len(panel.played)}; yellow: not used yet)", played),
        CardList(
            "innate",
            "Innate Powers not used yet",
            [(p, "innate", TO_USE) for p in sorted(waiting) if p >= MAX_CARDS],
        ),
        CardList(
            "discard",
            f"Discard ({len(panel.discard)})",
            [(c, _card_note(c), USED) for c in panel.discard],
        ),
    ]
    if scene.drawn and scene.drawn_by == panel.seat:
        chips = [(c, _card_note(c), "#e3f0ff") for c in scene.drawn]
        seen_by = (panel.seat,) if scene.seat is None else None
        lists.append(CardList("drawn", "Drawn: keeps 1", chips, seen_by))
    return [entry for index, entry in enumerate(lists) if entry.chips or index == 0]


def _someone_else_draws(scene: Scene, panel: SpiritPanel) -> bool:
    """Whether this Spirit chooses from drawn cards the picture's seat cannot see."""
    d = scene.decision
    keeping = d is not None and d.purpose == "keep" and d.decider == panel.seat
    return keeping and scene.drawn_by != panel.seat


LISTS_TOP = 172
HIDDEN_DRAW_H = 66


def _panel_height(scene: Scene, panel: SpiritPanel) -> float:
    lists = _card_lists(scene, panel)
    height = LISTS_TOP + sum(22 + _rows(len(entry.chips)) * CHIP_ROW for entry in lists)
    return height + (HIDDEN_DRAW_H if _someone_else_draws(scene, panel) else 0) + 6


def _spirit_panel(canvas: Canvas, scene: Scene, panel: SpiritPanel, x: float, y: float) -> None:
    deciding = scene.decision is not None and scene.decision.decider == panel.seat
    height = _panel_height(scene, panel)
    if deciding:
        canvas.rect(x - 3, y - 3, PANEL_W + 6, height + 6, fill=HIGHLIGHT, stroke="none")
    canvas.rect(x, y, PANEL_W, height, fill="#fff", data={"spirit": f"player_{panel.seat}"})
    canvas.rect(x, y, PANEL_W, 26, fill=SEAT_COLOURS[panel.seat], stroke="none")
    spirit = SPIRITS[panel.spirit]
    title = f"player_{panel.seat} · {spirit.name}" + (" · deciding" if deciding else "")
    canvas.text(x + 8, y + 18, _fit(title, PANEL_W - 16, 13), size=13, bold=True, fill="#fff")
    per_turn = spirit.energy_track[panel.energy_track]
    destroyed = f" · {panel.destroyed} Presence destroyed" if panel.destroyed else ""
    words = f"Energy {panel.energy} (+{per_turn}/turn) · {panel.plays_left} play(s) left"
    canvas.text(x + 8, y + 44, words + destroyed, size=12, bold=True, data={"energy": panel.energy})
    colour = SEAT_COLOURS[panel.seat]
    _track(canvas, x + 8, y + 52, "Energy", spirit.energy_track, panel.energy_track, colour)
    _track(canvas, x + 8, y + 82, "Plays", spirit.card_track, panel.card_track, colour)
    _elements(canvas, x + 8, y + 132, panel.elements)
    cy = y + LISTS_TOP
    for entry in _card_lists(scene, panel):
        canvas.text(x + 8, cy + 12, entry.title, size=11, bold=True, fill="#444")
        cy += 18
        listed = {"seat": f"player_{panel.seat}", "list": entry.title.split(" ")[0].lower()}
        for index, (power, note, fill) in enumerate(entry.chips):
            cx, chip_y = x + 8 + (index % 2) * (CHIP_W + 8), cy + (index // 2) * CHIP_ROW
            name = power_name(scene, panel.seat, power)
            slot = f"{entry.key}/{panel.seat}/{index}"
            _chip(canvas, cx, chip_y, name, note, fill, listed, CHIP_W, slot, entry.seen_by)
        cy += _rows(len(entry.chips)) * CHIP_ROW + 4
    if _someone_else_draws(scene, panel):
        _hidden_draw(canvas, panel, x + 8, cy)


def _hidden_draw(canvas: Canvas, panel: SpiritPanel, x: float, y: float) -> None:
    """The cards another Spirit drew and chooses from: backs only."""
    words = "Drawn: keeps 1 of the cards it drew (face down to you)"
    canvas.text(x, y + 12, words, size=11, bold=True, fill="#444")
    for index in range(4):
        data = {"drawn": f"player_{panel.seat}"}
        slot = f"drawn/{panel.seat}/{index}"
        canvas.card_back(x + index * 36, y + 18, width=30, height=42, slot=slot, data=data)


def _card_note(card: int) -> str:
    power = CARDS[card]
    return f"{power.cost} · {'Fast' if power.speed == FAST else 'Slow'}"


def _track(
    canvas: Canvas,
    x: float,
    y: float,
    label: str,
    track: tuple[int, ...],
    uncovered: int,
    colour: str,
) -> None:
    """A presence track: spaces up to ``uncovered`` open, Presence still on the others."""
    canvas.text(x, y + 19, label, size=11, fill="#444")
    for index, value in enumerate(track):
        bx = x + 48 + index * (TRACK_BOX + 4)
        is_open = index <= uncovered
        stroke = INK if index == uncovered else "#aaa"
        canvas.rect(bx, y + 4, TRACK_BOX, 22, fill="#fff" if is_open else "#f1f1f1", stroke=stroke)
        if not is_open:
            canvas.circle(bx + TRACK_BOX / 2, y + 15, 9, fill=colour, stroke="#fff")
        words, size = ("R1", 9) if value == RECLAIM_ONE else (str(value), 11)
        ink = INK if is_open else "#fff"
        canvas.text(
            bx + TRACK_BOX / 2, y + 19, words, size=size, anchor="middle", bold=True, fill=ink
        )


def _elements(canvas: Canvas, x: float, y: float, counts: list[int]) -> None:
    canvas.text(x, y + 4, "Elements", size=11, fill="#444")
    for index, (name, count) in enumerate(zip(ELEMENTS, counts, strict=True)):
        ex = x + 68 + index * 40
        fill = ELEMENT_FILL[index] if count else "#f1f1f1"
        data = {"element": name, "count": count}
        canvas.circle(ex, y, 11, fill=fill, stroke="#999", data=data)
        ink = INK if count else "#aaa"
        canvas.text(ex, y + 4, str(count), size=11, anchor="middle", bold=bool(count), fill=ink)
        canvas.text(ex, y + 24, name, size=9, anchor="middle", fill="#555")
