"""Valiant Wars as a picture (SVG) for the replay viewer: :func:`draw`.

One drawing, fed by a :class:`Scene` built either from a seat's reference view
(``game.view(seat)``, relative seats, plus the spec's constant card data) or, for
"everything", from the whole state: then the pending reveal-or-STOP choices and the next
cards of every deck (each player's, the Champion deck, the Location deck) are shown in
dashed frames, as no player sees them. A seat's scene reads nothing of the state but its
view and the public outcome (``is_terminal``, ``winners()``), so its picture cannot show
what the seat cannot see: no deck order but the top cards its own Oracle showed it, nobody's
choice before the reveal, and the decision's kind only to the seat that takes it.

Every card carries a ``data-slot`` (the same in every view): ``location`` (fought over),
``market/M``, ``line/S/K`` (player S's K-th Champion), ``deck/S`` (its pile) and ``deck/S/K``
(its K-th card from the top), ``deck/location`` and ``deck/champion`` (the piles) with
``deck/location/next`` and ``deck/champion/next``. In the everything picture a deck card's
face is a secret (``data-seen-by``, dashed outline): its owner's where its Oracle showed it,
nobody's otherwise (S is the absolute seat, never a view's relative row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.svg import (
    HIDDEN_INK,
    INK,
    SECRET,
    Canvas,
    fit,
    hidden_frame,
    meter,
    one_hot,
    panel,
    pile,
    player_name,
    row_step,
    small_card,
    wrap_words,
)
from tabletop_envs.valiant_wars.spec import (
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    CTX_EFFECT,
    EMPTY,
    GOLD,
    LOCATION_BASE,
    LOCATIONS,
    NO_CARD,
    NUM_CODES,
    OMEN,
    ORACLE_LOOK,
    OVER,
    REVEALING,
    SOLDIER,
    STOP,
    ChampionType,
    Decision,
    Kind,
    card_name,
)

if TYPE_CHECKING:
    from tabletop_envs.valiant_wars.rules import ValiantWarsGame

WIDTH = 1100
CHAMP_W, CHAMP_H = 72, 70
TOP_W, TOP_H = 47, 30
LABEL_W = 210
SEAT_ROW = 126
NEXT_SHOWN = 5
"""Cards of each player's deck an "everything" picture shows from the top."""
TYPE_FILL = {
    ChampionType.WARRIOR: "#f3d9c9",
    ChampionType.MYSTIC: "#dcd3f1",
    ChampionType.ROGUE: "#d5e8d4",
}
PLAIN_FILL = {GOLD: "#f7e7a1", OMEN: "#c9c3cf", SOLDIER: "#eadfd0"}
FACE_DOWN_FILL = "#d6d1c8"
LINE_COUNTS = (
    "Gold",
    "Dark Omen",
    "Omen (down)",
    "Soldier",
    "Soldier (down)",
    "Location",
)
CHIP_FILL = (
    PLAIN_FILL[GOLD],
    PLAIN_FILL[OMEN],
    FACE_DOWN_FILL,
    PLAIN_FILL[SOLDIER],
    FACE_DOWN_FILL,
    "#efe6cf",
)


@dataclass
class ChampionInLine:
    kind: int
    up: bool
    copied: int
    """The Champion a Dancer copies, -1 if none."""
    used: bool
    """A Saint that has ignored a Dark Omen."""


@dataclass
class SeatScene:
    """One seat as drawn: its score, status, line, deck and what it knows of the deck."""

    seat: int
    you: bool
    vp: int
    status: str
    first: bool
    to_move: bool
    swords: int
    gold: int
    champions: list[ChampionInLine]
    counts: list[int]
    """Face-up Gold, Dark Omens up and down, Soldiers up and down, face-up Locations."""
    deck: list[int]
    """How many of each card code the deck holds (its contents are public, not its order)."""
    deck_size: int
    known_top: int
    top: list[int] = field(default_factory=list)
    """Top cards of the deck, top first: the seat's own known ones (its view), or the next
    cards whoever knows them (everything)."""
    choice: str = ""
    """Everything only: a reveal-or-STOP choice made but not yet shown."""


@dataclass
class Scene:
    """Everything one picture shows, whichever way it was learnt."""

    title: str
    round: int
    step: int
    phase: int
    target: int
    location: int
    locations_left: int
    market: list[int]
    champion_deck: int
    supply: tuple[int, int, int]
    decider: int
    decision: int
    """The pending decision's kind, -1 where the viewer is not told (another seat's)."""
    effect: int
    purchase: tuple[int, int, int] | None
    """The buyer's Gold left, Champion bought, Soldier taken (shown to the buyer)."""
    winners: list[int]
    seats: list[SeatScene]
    next_location: int = -1
    next_champion: int = -1
    """Everything only: the next Location and the next Champion to reach the market."""


def draw(game: ValiantWarsGame, seat: int | None) -> str:
    """The table as one standalone SVG: as ``seat`` sees it, or everything (``None``)."""
    scene = everything_scene(game) if seat is None else seat_scene(game, seat)
    return render(scene)


# ----- scenes ------------------------------------------------------------------------------
def status_words(drawing: bool, stopped: bool, out: bool, stop_step: int) -> str:
    """A seat's state in the round: still drawing, stopped (at which reveal step), OUT."""
    if out:
        return "OUT (second Dark Omen)"
    if stopped:
        return f"stopped at step {stop_step}"
    return "drawing" if drawing else ""


def everything_scene(game: ValiantWarsGame) -> Scene:
    """The whole state: the pending choices and the next cards of every deck shown."""
    seats = [state_seat(game, seat) for seat in range(game.num_players)]
    over = game.is_terminal
    decision = game.decision if not over else -1
    effect = game.pending[CTX_EFFECT] if decision in CHOICE_DECISIONS else -1
    locations = game.location_deck
    return Scene(
        title="Valiant Wars - everything (hidden orders and choices shown)",
        round=game.round,
        step=game.step,
        phase=game.phase,
        target=game.target,
        location=locations[-1] if locations else -1,
        locations_left=len(locations),
        market=list(game.market),
        champion_deck=len(game.champion_deck),
        supply=tuple(game.supply),
        decider=-1 if over else game.decider,
        decision=decision,
        effect=effect,
        purchase=purchase_of(game) if decision == Decision.BUY else None,
        winners=list(game.winners()),
        seats=seats,
        next_location=locations[-2] if len(locations) > 1 else -1,
        next_champion=game.champion_deck[-1] if game.champion_deck else -1,
    )


CHOICE_DECISIONS = (Decision.CHOOSE_PLAYER, Decision.CHOOSE_CARD)


def purchase_of(game: ValiantWarsGame) -> tuple[int, int, int]:
    return (game.gold_left, int(game.bought_champion), int(game.took_soldier))


def state_seat(game: ValiantWarsGame, seat: int) -> SeatScene:
    """A seat from the state, its deck's next cards and its pending choice included."""
    stopped, out = bool(game.stopped[seat]), bool(game.out[seat])
    champions, counts = [], [0] * len(LINE_COUNTS)
    for pos, code in enumerate(game.lines[seat]):
        up = bool(game.face_up[seat][pos])
        if CHAMPION_BASE <= code < LOCATION_BASE:
            copied = game.copies[seat][pos]
            champions.append(
                ChampionInLine(code - CHAMPION_BASE, up, copied, bool(game.used[seat][pos]))
            )
        else:
            index = plain_index(code, up)
            if index >= 0:
                counts[index] += 1
    chosen = game.choices[seat] if seat in game.choosers else EMPTY
    deck = game.decks[seat]
    return SeatScene(
        seat=seat,
        you=False,
        vp=game.vp[seat],
        status=status_words(
            game.phase == REVEALING and not stopped and not out,
            stopped,
            out,
            game.stop_step[seat] + 1,
        ),
        first=seat == game.first,
        to_move=seat == game.current_player,
        swords=game.swords(seat),
        gold=game.gold(seat),
        champions=champions,
        counts=counts,
        deck=np.bincount(deck, minlength=NUM_CODES).tolist(),
        deck_size=len(deck),
        known_top=game.known_top[seat],
        top=deck[::-1][:NEXT_SHOWN],
        choice="" if chosen == EMPTY else "STOP" if chosen == STOP else "reveal",
    )


def plain_index(code: int, up: bool) -> int:
    """Where a line's card that is no Champion is counted (-1: a face-down Location and a
    face-down Gold, which nobody counts)."""
    if code == GOLD:
        return 0 if up else -1
    if code == OMEN:
        return 1 if up else 2
    if code == SOLDIER:
        return 3 if up else 4
    return 5 if up else -1


def seat_scene(game: ValiantWarsGame, seat: int) -> Scene:
    """What ``seat`` sees, read from its reference view only (rows relative to it)."""
    view = game.view(seat)
    n = game.num_players
    over = game.is_terminal
    mover = one_hot(view["to_move"])
    decision = one_hot(view["decision"])
    location = one_hot(view["location"])
    return Scene(
        title=f"Valiant Wars - player_{seat}'s view",
        round=int(view["round"][0]),
        step=int(view["step"][0]),
        phase=OVER if over else BUYING if view["buying"][0] else REVEALING,
        target=int(view["target_vp"][0]),
        location=location,
        locations_left=int(view["locations_left"].sum()),
        market=[one_hot(slot) for slot in view["market"]],
        champion_deck=int(view["champion_deck"].sum()),
        supply=tuple(int(pile) for pile in view["supply"]),
        decider=-1 if mover < 0 else (seat + mover) % n,
        decision=decision,
        effect=one_hot(view["effect"]) if decision in CHOICE_DECISIONS else -1,
        purchase=tuple(int(v) for v in view["purchase"]) if decision == Decision.BUY else None,
        winners=list(game.winners()),
        seats=[view_seat(view, row, (seat + row) % n) for row in range(n)],
    )


def view_seat(view: dict[str, Any], row: int, seat: int) -> SeatScene:
    """Row ``row`` of the view (0: the viewer, with the top cards its Oracle showed it)."""
    champions = [
        ChampionInLine(
            int(kind) - 1,
            bool(view["line_champion_up"][row, slot]),
            int(view["line_champion_copy"][row, slot]) - 1,
            bool(view["line_saint_used"][row, slot]),
        )
        for slot, kind in enumerate(view["line_champions"][row])
        if kind
    ]
    known = int(view["known_top"][row])
    scene = SeatScene(
        seat=seat,
        you=row == 0,
        vp=int(view["vp"][row]),
        status=status_words(
            bool(view["drawing"][row]),
            bool(view["stopped"][row]),
            bool(view["out"][row]),
            int(view["stop_step"][row]),
        ),
        first=bool(view["first_player"][row]),
        to_move=bool(view["to_move"][row]),
        swords=int(view["swords"][row]),
        gold=int(view["gold"][row]),
        champions=champions,
        counts=[int(count) for count in view["line_counts"][row]],
        deck=[int(count) for count in view["deck"][row]],
        deck_size=int(view["deck_size"][row]),
        known_top=known,
    )
    if row == 0:
        scene.top = [one_hot(view["my_top"][depth]) for depth in range(min(known, ORACLE_LOOK))]
    return scene


# ----- the drawing -------------------------------------------------------------------------
def render(scene: Scene) -> str:
    """The one drawing of a scene."""
    table_top, seats_top = 60, 232
    height = seats_top + 24 + SEAT_ROW * len(scene.seats) + 10
    canvas = Canvas(WIDTH, height, title=scene.title)
    draw_header(canvas, scene)
    draw_table(canvas, scene, table_top)
    panel(canvas, 8, seats_top, WIDTH - 16, height - seats_top - 8, "Players")
    for index, seat in enumerate(scene.seats):
        draw_seat(canvas, seat, scene, 16, seats_top + 22 + SEAT_ROW * index)
    return canvas.to_svg()


def phase_words(scene: Scene) -> str:
    if scene.phase == REVEALING:
        return f"reveal step {scene.step}"
    return "buying" if scene.phase == BUYING else "game over"


def draw_header(canvas: Canvas, scene: Scene) -> None:
    """The title, the round and its phase, and who decides what."""
    canvas.text(12, 22, scene.title, size=17, bold=True)
    canvas.text(
        12,
        44,
        f"Round {scene.round + 1} · {phase_words(scene)} · target {scene.target} VP",
        size=13,
    )
    if scene.winners:
        names = ", ".join(player_name(seat) for seat in scene.winners)
        canvas.text(
            WIDTH - 12,
            22,
            f"Winner: {names}",
            size=15,
            anchor="end",
            bold=True,
            fill="#2e7d32",
            data={"winners": names},
        )
    elif scene.decider >= 0:
        canvas.text(
            WIDTH - 12,
            22,
            decision_words(scene),
            size=14,
            anchor="end",
            bold=True,
            data={"decider": scene.decider},
        )
        if scene.purchase is not None:
            gold, champion, soldier = scene.purchase
            words = f"{gold} Gold left" + (", Champion bought" if champion else "")
            words += ", Soldier taken" if soldier else ""
            canvas.text(WIDTH - 12, 44, words, size=12, anchor="end")


def decision_words(scene: Scene) -> str:
    """Who decides, and what where the viewer is told (the decider's own picture)."""
    if scene.decision < 0:
        return f"{player_name(scene.decider)} to move"
    kind = Decision(scene.decision).name.lower().replace("_", " ")
    if scene.effect >= 0:
        kind += f" ({Kind(scene.effect).title})"
    return f"{player_name(scene.decider)} decides: {kind}"


def draw_table(canvas: Canvas, scene: Scene, top: float) -> None:
    """The Location fought over, the Location and Champion decks, the market, the supply."""
    panel(canvas, 8, top, WIDTH - 16, 164, "The table")
    label = "Next Location:" if scene.phase == OVER else "Fought over:"
    draw_location(canvas, scene.location, label, 20, top + 26)
    pile(
        canvas,
        220,
        top + 44,
        "Locations",
        max(scene.locations_left - 1, 0),
        width=50,
        height=70,
        data={"count": max(scene.locations_left - 1, 0), "slot": "deck/location"},
    )
    pile(
        canvas,
        300,
        top + 44,
        "Champions",
        scene.champion_deck,
        width=50,
        height=70,
        data={"count": scene.champion_deck, "slot": "deck/champion"},
    )
    canvas.text(380, top + 36, "Market", size=12, bold=True)
    for slot, kind in enumerate(scene.market):
        x = 380 + (CHAMP_W + 8) * slot
        if kind == NO_CARD:
            canvas.rect(x, top + 44, CHAMP_W, CHAMP_H, fill="none", stroke="#b9ad94")
        else:
            champion(canvas, x, top + 44, kind, data={"market": slot + 1, "slot": f"market/{slot}"})
    soldiers, gold, omens = scene.supply
    supply = (("Soldiers", soldiers), ("Gold", gold), ("Dark Omens", omens))
    canvas.text(800, top + 36, "Supply", size=12, bold=True)
    for index, (name, count) in enumerate(supply):
        canvas.text(
            800,
            top + 58 + 18 * index,
            f"{name}: {count}",
            size=12,
            data={"supply": name, "count": count},
        )
    if scene.next_location >= 0 or scene.next_champion >= 0:
        draw_next_table_cards(canvas, scene, 220, top + 124)


def draw_location(canvas: Canvas, location: int, label: str, x: float, y: float) -> None:
    """The top Location card (fought over this round): name, VP, terrain."""
    if location < 0:
        canvas.rect(x, y, 180, 120, fill="none", stroke="#b9ad94")
        canvas.text(x + 90, y + 64, "no Location left", size=12, anchor="middle")
        return
    card = LOCATIONS[location]
    canvas.rect(
        x,
        y,
        180,
        120,
        fill="#efe6cf",
        stroke="#6b5e46",
        radius=6,
        data={"card": card.name, "location": 1, "slot": "location"},
    )
    canvas.text(x + 90, y + 20, label, size=11, anchor="middle")
    canvas.text(x + 90, y + 40, fit(card.name, 170, 14), size=14, anchor="middle", bold=True)
    canvas.text(x + 90, y + 66, f"{card.vp} VP", size=20, anchor="middle", bold=True)
    canvas.text(x + 90, y + 86, card.terrain.name.title(), size=12, anchor="middle")
    for index, words in enumerate(wrap_words(card.terrain.text, 172, 10)[:2]):
        canvas.text(x + 90, y + 102 + 12 * index, words, size=10, anchor="middle")


def draw_next_table_cards(canvas: Canvas, scene: Scene, x: float, y: float) -> None:
    """Everything only: the next Location and the next Champion, framed as hidden."""
    hidden_frame(canvas, x, y, 560, 26)
    left = x + 8
    if scene.next_location >= 0:
        left = next_table_card(
            canvas, left, y, "next Location:", LOCATIONS[scene.next_location].name, "location"
        )
    if scene.next_champion >= 0:
        name = Kind(scene.next_champion).title
        left = next_table_card(canvas, left, y, "next Champion:", name, "champion")
    canvas.text(
        left,
        y + 17,
        "(no player sees these)",
        size=11,
        fill=HIDDEN_INK,
        data={"hidden-order": "table"},
    )


def next_table_card(canvas: Canvas, x: float, y: float, label: str, name: str, deck: str) -> float:
    """The next card of the Location or Champion deck, a secret of nobody's, as a labelled
    chip; returns where the next thing starts."""
    canvas.text(x, y + 17, label, size=11, fill=HIDDEN_INK)
    x += 6.2 * len(label) + 6
    chip = 6.6 * len(name) + 12
    canvas.rect(
        x,
        y + 3,
        chip,
        20,
        fill="#efe6cf" if deck == "location" else "#fff",
        stroke=SECRET,
        dashed=True,
        data={"card": name, "slot": f"deck/{deck}/next", **secret_marks(())},
    )
    canvas.text(x + chip / 2, y + 17, name, size=11, anchor="middle", bold=True)
    return x + chip + 12


def secret_marks(seen_by: Sequence[int]) -> dict[str, object]:
    """The ``data-seen-by`` of a face that only ``seen_by`` (absolute seats) may see."""
    return {"seen-by": " ".join(str(seat) for seat in seen_by)}


def champion(
    canvas: Canvas,
    x: float,
    y: float,
    kind: int,
    *,
    up: bool = True,
    note: str = "",
    data: dict[str, object] | None = None,
) -> None:
    """A Champion: its name, Swords, cost and type; greyed when flipped face down."""
    card = CHAMPIONS[kind]
    name = Kind(kind).title
    fill = TYPE_FILL[card.type] if up else FACE_DOWN_FILL
    words = note or f"{card.type.name.title()} · {card.cost}g"
    small_card(
        canvas,
        x,
        y,
        name,
        title=name,
        big=f"{card.swords}",
        note=words,
        width=CHAMP_W,
        height=CHAMP_H,
        fill=fill,
        data={"up": int(up), **(data or {})},
    )
    canvas.text(x + CHAMP_W / 2 + 14, y + CHAMP_H / 2 + 8, "sw", size=9, fill="#555")


def champion_note(entry: ChampionInLine) -> str:
    if not entry.up:
        return "face down"
    if entry.copied >= 0:
        return f"as {Kind(entry.copied).title}"
    return "used" if entry.used else ""


def draw_seat(canvas: Canvas, seat: SeatScene, scene: Scene, x: float, y: float) -> None:
    """One player: score and status on the left, its line, then its deck."""
    highlight = "#fff3c4" if seat.to_move else "#fbf8f0"
    canvas.rect(
        x, y, WIDTH - 32, SEAT_ROW - 6, fill=highlight, stroke="#d9cfb8", data={"seat": seat.seat}
    )
    name = player_name(seat.seat) + (" (you)" if seat.you else "")
    marks = [m for m, on in (("★ first", seat.first), ("▶ to move", seat.to_move)) if on]
    canvas.text(x + 8, y + 18, name, size=13, bold=True)
    meter(
        canvas,
        x + 8,
        y + 26,
        LABEL_W - 20,
        seat.vp / max(scene.target, 1),
        f"{seat.vp} / {scene.target} VP",
        fill="#e6c966",
        data={"vp": seat.vp},
    )
    canvas.text(
        x + 8,
        y + 60,
        f"Swords {seat.swords} · Gold {seat.gold}",
        size=12,
        bold=True,
        data={"swords": seat.swords, "gold": seat.gold},
    )
    canvas.text(x + 8, y + 76, seat.status, size=11)
    canvas.text(x + 8, y + 92, "  ".join(marks), size=11, fill="#8a5a00")
    if seat.choice:
        hidden_frame(canvas, x + 4, y + 97, LABEL_W - 20, 20)
        canvas.text(
            x + 10,
            y + 111,
            f"chose {seat.choice} (not yet shown)",
            size=11,
            fill=HIDDEN_INK,
            data={"choice": seat.choice},
        )
    draw_line(canvas, seat, x + LABEL_W, y + 6, 560)
    draw_deck(canvas, seat, x + LABEL_W + 580, y + 20)


def draw_line(canvas: Canvas, seat: SeatScene, x: float, y: float, width: float) -> None:
    """The Battle line: its Champions in order, then its other cards counted."""
    canvas.text(x, y + 10, "Battle line", size=11, fill="#555")
    step = row_step(len(seat.champions), width, CHAMP_W, 4)
    for k, entry in enumerate(seat.champions):
        champion(
            canvas,
            x + step * k,
            y + 16,
            entry.kind,
            up=entry.up,
            note=champion_note(entry),
            data={"line": seat.seat, "slot": f"line/{seat.seat}/{k}"},
        )
    left = x
    for index, count in enumerate(seat.counts):
        if count:
            words = f"{LINE_COUNTS[index]} ×{count}"
            chip = 6.2 * len(words) + 10
            canvas.rect(
                left,
                y + 90,
                chip,
                20,
                fill=CHIP_FILL[index],
                stroke="#8c8170",
                data={"line-card": LINE_COUNTS[index], "count": count},
            )
            canvas.text(left + chip / 2, y + 104, words, size=11, anchor="middle")
            left += chip + 6
    if left == x and not seat.champions:
        canvas.text(x, y + 50, "(empty)", size=11, fill="#888")


def draw_deck(canvas: Canvas, seat: SeatScene, x: float, y: float) -> None:
    """The deck: its size, its contents (public), and its top cards where known."""
    pile(
        canvas,
        x,
        y,
        "Deck",
        seat.deck_size,
        width=44,
        height=60,
        data={"count": seat.deck_size, "slot": f"deck/{seat.seat}"},
    )
    contents = [(card_name(code), count) for code, count in enumerate(seat.deck) if count]
    lines = deck_lines(contents, 34)
    for index, words in enumerate(lines[: 4 if seat.top else 5]):
        canvas.text(x + 52, y + 8 + 13 * index, words, size=10)
    if seat.top:
        draw_top(canvas, seat, x, y + 64)
    elif seat.known_top:
        canvas.text(x, y + 80, f"knows its top {seat.known_top} cards", size=10, fill="#555")


def deck_lines(contents: list[tuple[str, int]], room: int) -> list[str]:
    """``name ×count`` entries packed into lines of about ``room`` characters."""
    lines: list[str] = []
    for name, count in contents:
        entry = f"{name} ×{count}"
        if lines and len(lines[-1]) + len(entry) + 2 <= room:
            lines[-1] += f", {entry}"
        else:
            lines.append(entry)
    if len(lines) > 5:
        lines[4] = fit(lines[4] + " …", room * 6, 10)
    return lines


def draw_top(canvas: Canvas, seat: SeatScene, x: float, y: float) -> None:
    """Top cards of the deck, top first: known to the seat (its view) or hidden (everything)."""
    if not seat.you:
        hidden_frame(canvas, x - 3, y - 3, WIDTH - x - 24, TOP_H + 6)
    label = "top:" if seat.you else "next:"
    canvas.text(x, y + 19, label, size=10, fill="#555" if seat.you else HIDDEN_INK)
    for k, code in enumerate(seat.top):
        known = seat.you or k < seat.known_top
        # Everything: a secret, its owner's where its Oracle showed it, nobody's otherwise.
        seen_by = None if seat.you else (seat.seat,) if known else ()
        slot = f"deck/{seat.seat}/{k}"
        top_card(canvas, x + 30 + (TOP_W + 2) * k, y, code, known, slot, seen_by)


def top_card(
    canvas: Canvas,
    x: float,
    y: float,
    code: int,
    known: bool,
    slot: str,
    seen_by: Sequence[int] | None,
) -> None:
    """A small face of a deck card, ``known`` to its owner or not; ``seen_by`` (the
    everything picture): the seats that may see it, outlined dashed."""
    name = card_name(code)
    if CHAMPION_BASE <= code < LOCATION_BASE:
        fill = TYPE_FILL[CHAMPIONS[code - CHAMPION_BASE].type]
    else:
        fill = PLAIN_FILL.get(code, "#efe6cf")
    data: dict[str, object] = {"card": name, "known": int(known), "slot": slot}
    if seen_by is not None:
        data.update(secret_marks(seen_by))
    canvas.rect(
        x,
        y,
        TOP_W,
        TOP_H,
        fill=fill,
        stroke=SECRET if seen_by is not None else INK,
        dashed=seen_by is not None,
        data=data,
    )
    canvas.text(x + TOP_W / 2, y + 19, fit(short(name), TOP_W - 2, 8), size=8, anchor="middle")


def short(name: str) -> str:
    """A card name short enough for the tiny deck-top cards."""
    return {"Dark Omen": "Omen"}.get(name, name.split()[0])
