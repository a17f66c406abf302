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

The island is schematic: each board is a block of its 8 lands, the 3 coastal ones in a row
along the Ocean, the 5 inland ones below, every land naming its neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.svg import INK, SECRET, Canvas
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    BLIGHT_CARDS,
    CARDS,
    CITY,
    CITY_1,
    DAHAN,
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
LAND_W, LAND_H, GAP = 128, 112, 6
BOARD_W = 5 * LAND_W + 4 * GAP
COAST_W = (BOARD_W - 2 * GAP) / 3
OCEAN_H = 22
BOARD_H = 20 + OCEAN_H + 2 * LAND_H + GAP
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
    neighbours: tuple[tuple[int, ...], ...]
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
        neighbours=island.neighbours,
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
    boards = len(scene.boards)
    columns = 1 if boards == 1 else 2
    island_w = columns * BOARD_W + (columns - 1) * 2 * GAP
    island_h = -(-boards // columns) * (BOARD_H + 2 * GAP)
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
    for board in range(boards):
        x = MARGIN + (board % columns) * (BOARD_W + 2 * GAP)
        _board(canvas, scene, board, x, top + (board // columns) * (BOARD_H + 2 * GAP))
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


# ----- the island -------------------------------------------------------------------------------


def land_box(number: int, x: float, y: float) -> tuple[float, float, float]:
    """Where land ``number`` (1-8) of a board drawn at (x, y) lies: its x, y and width."""
    inner = y + 20 + OCEAN_H
    if number <= 3:  # the coast, west (land 3) to east (land 1)
        return x + (3 - number) * (COAST_W + GAP), inner, COAST_W
    return x + (number - 4) * (LAND_W + GAP), inner + LAND_H + GAP, LAND_W


def _board(canvas: Canvas, scene: Scene, board: int, x: float, y: float) -> None:
    name = scene.boards[board]
    canvas.text(x, y + 14, f"Board {name} · player_{board}'s start", size=13, bold=True)
    canvas.rect(x, y + 20, BOARD_W, OCEAN_H, fill=OCEAN, stroke="none", radius=2)
    canvas.text(x + BOARD_W / 2, y + 36, "Ocean", size=11, anchor="middle", fill="#fff")
    for number in range(1, LANDS_PER_BOARD + 1):
        land = board * LANDS_PER_BOARD + number - 1
        _land(canvas, scene, land, *land_box(number, x, y))


def _land(canvas: Canvas, scene: Scene, land: int, x: float, y: float, width: float) -> None:
    name = land_name(land, scene.boards)
    decision = scene.decision
    if decision is not None and decision.land == land:
        canvas.rect(x - 3, y - 3, width + 6, LAND_H + 6, fill=HIGHLIGHT, stroke="none")
    terrain = scene.terrain[land]
    data = {"land": name, "terrain": TERRAINS[terrain], "coastal": int(scene.coastal[land])}
    canvas.rect(x, y, width, LAND_H, fill=TERRAIN_FILL[terrain], data=data)
    canvas.text(x + 5, y + 14, name, size=13, bold=True)
    label = TERRAINS[terrain] + (" · coastal" if scene.coastal[land] else "")
    canvas.text(x + 30, y + 14, label, size=10, fill="#333")
    near = ["next to", *(land_name(o, scene.boards) for o in scene.neighbours[land])]
    for index, line in enumerate(_wrap(near, width - 8, 9)):
        canvas.text(x + 5, y + 26 + index * 10, line, size=9, fill="#444")
    _pieces(canvas, scene, land, x + 5, y + 41, width - 10)
    _presence(canvas, scene, land, x + 5, y + LAND_H - 24)
    notes = _land_notes(scene, land)
    if notes:
        canvas.text(x + width - 4, y + LAND_H - 5, notes, size=9, anchor="end", fill=DAMAGE)


def _land_notes(scene: Scene, land: int) -> str:
    notes = [f"Defend {scene.defend[land]}"] if scene.defend[land] else []
    notes += [f"no {SLOTS[flag]}" for flag in scene.flags[land] if flag < 3]
    notes += ["Isolated"] if 3 in scene.flags[land] else []
    return ", ".join(notes)


PIECE_STEP = 38


def _pieces(canvas: Canvas, scene: Scene, land: int, x: float, y: float, width: float) -> None:
    per_line = max(int(width // PIECE_STEP), 1)
    shown = [(kind, count) for kind, count in enumerate(scene.pieces[land]) if count]
    for index, (kind, count) in enumerate(shown):
        px = x + (index % per_line) * PIECE_STEP
        py = y + (index // per_line) * 22
        data = {"land": land_name(land, scene.boards), "piece": KIND_NAMES[kind], "count": count}
        _piece(canvas, kind, px + 8, py + 9, data)
        canvas.text(px + 18, py + 13, f"{count}", size=11, bold=True)
        if kind in HEALED:
            damage = HEALTH[HEALED[kind]] - HEALTH[kind]
            canvas.text(px + 18, py + 22, f"−{damage}", size=8, fill=DAMAGE, bold=True)


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


def _presence(canvas: Canvas, scene: Scene, land: int, x: float, y: float) -> None:
    name = land_name(land, scene.boards)
    placed = 0
    for seat, counts in enumerate(scene.presence):
        if counts[land]:
            cx = x + 9 + placed * 24
            data = {"land": name, "presence": f"player_{seat}", "count": counts[land]}
            canvas.circle(cx, y + 9, 9, fill=SEAT_COLOURS[seat], stroke="#fff", data=data)
            canvas.text(
                cx, y + 13, f"{counts[land]}", size=11, anchor="middle", fill="#fff", bold=True
            )
            placed += 1


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
    """What the glyphs mean: the pieces, damage, Presence."""
    y = _section(canvas, x, y, "Key")
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
