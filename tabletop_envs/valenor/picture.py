"""Spirits of Valenor as a picture (SVG) for the replay viewer: :func:`draw`.

One drawing, fed by a :class:`Scene` built either from a seat's reference view
(``game.view(seat)``, relative seats, plus the spec's constant card data) or, for
"everything", from the whole state: then every hand is face up and the next cards of each
deck are shown in a dashed frame, as no player sees them. A seat's scene reads nothing of
the state but its view and the public outcome (``is_terminal``, ``winners()``), so its
picture cannot show what the seat cannot see.

Every card carries a ``slot``, the same in every view: ``hand/<seat>/<k>`` (front first),
``location/<i>/defense/<k>`` and ``location/<i>/invader`` (i from 0, left to right),
``in-play``, ``deck/<invader|defense|support>`` (a pile's back) and
``deck/<name>/next/<k>`` (the k-th card from the top). In the everything picture a face some
seat cannot see has ``seen_by`` (``data-seen-by``, outlined dashed): a hand card its holder
alone (the others see its back), the next cards of a deck nobody, unless they are Invaders
known at the bottom of the Invader deck (public, as in the views). A spirit in hand is
public: its back says "Spirit" and every seat's spirit is in every view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.svg import (
    HIDDEN_INK,
    SECRET,
    Canvas,
    fit,
    hidden_frame,
    labelled_back,
    meter,
    one_hot,
    panel,
    pile,
    player_name,
    row_step,
    small_card,
)
from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.spec import (
    F_SPIRIT,
    F_WINDOW,
    WINDOW_REASONS,
    Decision,
)

if TYPE_CHECKING:
    from tabletop_envs.valenor.rules import ValenorGame

WIDTH = 1040
CARD_W, CARD_H = 50, 64
MINI_W, MINI_H = 34, 46
LABEL_W = 200
HAND_ROW = 96
NEXT_SHOWN = 4
"""Cards of each deck an "everything" picture shows from the top."""
TERRAIN_INK = ("#8fbf5a", "#9c9186", "#2f7d3b", "#4a90c8", "#6d7b4f")
KIND_FILL = ("#dbe8f6", "#dcf0d8", "#f6dcd6", "#f6ecc4")
BACK_LABELS = ("Def", "Sup", "Inv A", "Inv B", "Inv C", "Spirit")
"""What each back shows (public): its deck, an Invader's letter, a spirit."""
DEFEAT_BAR = "#b5473a"


@dataclass
class SeatScene:
    """One seat as drawn: its hand face up (card ids) or as backs, its spirit, its signal."""

    seat: int
    you: bool
    hand_size: int
    faces: list[int] = field(default_factory=list)
    backs: list[int] = field(default_factory=list)
    spirit: int = -1
    spirit_out: bool = False
    signal: int = 0


@dataclass
class LocationScene:
    large: int
    devastated: bool
    invader: int
    defense: list[int]


@dataclass
class Scene:
    """Everything one picture shows, whichever way it was learnt."""

    title: str
    seats: list[SeatScene]
    active: int
    decider: int
    decision: int
    stage: str
    """Where the turn is, in words (the observer's turn stages)."""
    window: int
    acting_spirit: int
    card_in_play: int
    locations: list[LocationScene]
    discards: list[int]
    deck_sizes: tuple[int, int, int]
    top_letter: int
    bottom: list[int]
    """Invaders known at the bottom of the Invader deck, the bottom card first."""
    outcome: str
    next_cards: dict[str, list[int]] | None = None
    """Everything only: the top cards of each deck, top first (no player sees them)."""
    next_known: int = 0
    """Everything only: how many of the Invader deck's next cards shown (the last ones) are
    known to every seat: Invaders seen going to the bottom, now near the top."""
    everything: bool = False
    """The whole state: faces some seat cannot see are drawn with ``seen_by``."""


def draw(game: ValenorGame, seat: int | None) -> str:
    """The table as one standalone SVG: as ``seat`` sees it, or everything (``None``)."""
    scene = everything_scene(game) if seat is None else seat_scene(game, seat)
    return render(scene)


# ----- scenes ------------------------------------------------------------------------------
def outcome(game: ValenorGame) -> str:
    """The public result: "" while the game goes on, else "won" or "lost"."""
    if not game.is_terminal:
        return ""
    return "won" if game.winners() else "lost"


def by_value(cards: list[int]) -> list[int]:
    """Cards lowest value first (Defense before Support at equal value)."""
    return sorted(cards, key=lambda card: (S.VALUE[card], S.KIND[card], card))


def everything_scene(game: ValenorGame) -> Scene:
    """The whole state: every hand face up, the decks' next cards shown as hidden."""
    seats = [
        SeatScene(
            seat=seat,
            you=False,
            hand_size=len(hand),
            faces=list(hand),
            spirit=game.spirit_of[seat],
            spirit_out=game.spirit_out[seat],
            signal=game.signals[seat],
        )
        for seat, hand in enumerate(game.hands)
    ]
    window = [frame[1] for frame in game.frames if frame[0] == F_WINDOW]
    acting = [frame[2] for frame in game.frames if frame[0] == F_SPIRIT]
    invaders = game.invader_deck
    return Scene(
        title="Spirits of Valenor - everything (all hands face up)",
        seats=seats,
        active=game.active,
        decider=game.decider,
        decision=-1 if game.decision is None else game.decision,
        stage=game.OBSERVER.TURN_STAGES[game.OBSERVER.turn_stage(game)],
        window=window[-1] if window else -1,
        acting_spirit=acting[-1] if acting else -1,
        card_in_play=game.card_in_play(),
        locations=[
            LocationScene(
                game.locations[i], game.devastated[i], game.invader_at[i], by_value(stack)
            )
            for i, stack in enumerate(game.defense_at)
        ],
        discards=by_value(game.discards),
        deck_sizes=(len(game.defense_deck), len(game.support_deck), len(invaders)),
        top_letter=S.CARD_LETTER[invaders[-1]] if invaders else -1,
        bottom=list(invaders[: game.known_bottom]),
        outcome=outcome(game),
        next_cards={
            "Invader": invaders[::-1][:NEXT_SHOWN],
            "Defense": game.defense_deck[::-1][:NEXT_SHOWN],
            "Support": game.support_deck[::-1][:NEXT_SHOWN],
        },
        next_known=max(0, game.known_bottom - max(0, len(invaders) - NEXT_SHOWN)),
        everything=True,
    )


def seat_scene(game: ValenorGame, seat: int) -> Scene:
    """What ``seat`` sees, read from its reference view only (rows relative to it)."""
    view = game.view(seat)
    n = game.num_players
    seats = [view_seat(view, row, (seat + row) % n) for row in range(n)]
    decided = view["decision"].any()
    return Scene(
        title=f"Spirits of Valenor - player_{seat}'s view",
        seats=seats,
        active=(seat + one_hot(view["active"])) % n,
        decider=(seat + one_hot(view["decider"])) % n if decided else -1,
        decision=one_hot(view["decision"]) if decided else -1,
        stage=game.OBSERVER.TURN_STAGES[one_hot(view["turn_stage"])],
        window=one_hot(view["window_reason"]),
        acting_spirit=one_hot(view["acting_spirit"]),
        card_in_play=face_card(view, "card_in_play", (), one_hot(view["spirit_of"][0])),
        locations=[view_location(view, position) for position in range(S.NUM_LOCATIONS)],
        discards=counted_cards(view["discarded_defense"], view["discarded_support"])
        + [S.FIRST_INVADER + i for i in np.flatnonzero(view["discarded_invaders"])],
        deck_sizes=tuple(int(size) for size in view["deck_sizes"]),
        top_letter=one_hot(view["top_invader_letter"]),
        bottom=sorted(
            (S.FIRST_INVADER + int(i) for i in np.flatnonzero(view["invaders_at_bottom"])),
            key=lambda card: view["invaders_at_bottom"][card - S.FIRST_INVADER],
        ),
        outcome=outcome(game),
    )


def face_card(view: dict[str, Any], prefix: str, slot: tuple[int, ...], spirit: int) -> int:
    """A card id with the face the card fields ``prefix`` show at ``slot`` (copies of a
    Defense or Support value are alike: the first is taken), -1 if no card is there."""
    kind = one_hot(view[f"{prefix}_kind"][slot])
    value = int(view[f"{prefix}_value"][slot])
    if kind == S.KIND_DEFENSE:
        return S.defense_ids(value)[0]
    if kind == S.KIND_SUPPORT:
        return next(card for card in S.SUPPORT_IDS if S.VALUE[card] == value)
    if kind == S.KIND_INVADER:
        return S.invader_id(value)
    return S.spirit_card(spirit) if kind == S.KIND_SPIRIT else -1


def counted_cards(defense: np.ndarray, support: np.ndarray) -> list[int]:
    """Cards from counts per Defense value and per Support value, lowest first."""
    cards = [S.defense_ids(v + 1)[0] for v, count in enumerate(defense) for _ in range(int(count))]
    supports = {S.VALUE[card]: card for card in reversed(S.SUPPORT_IDS)}
    cards += [supports[v + 1] for v, count in enumerate(support) for _ in range(int(count))]
    return by_value(cards)


def view_seat(view: dict[str, Any], row: int, seat: int) -> SeatScene:
    """Row ``row`` of the view (0: the viewer, its hand face up; others as backs)."""
    size = int(view["hand_sizes"][row])
    spirit = one_hot(view["spirit_of"][row])
    shown = min(size, S.HAND_MAX)
    scene = SeatScene(
        seat=seat,
        you=row == 0,
        hand_size=size,
        spirit=spirit,
        spirit_out=bool(view["spirit_out"][row]),
        signal=one_hot(view["signals"][row]),
    )
    if row == 0:
        scene.faces = [face_card(view, "hand", (slot,), spirit) for slot in range(shown)]
    else:
        scene.backs = [one_hot(view["hand_backs"][row - 1, slot]) for slot in range(shown)]
    return scene


def view_location(view: dict[str, Any], position: int) -> LocationScene:
    value = int(view["location_invader"][position])
    return LocationScene(
        large=one_hot(view["location_large"][position]),
        devastated=bool(view["location_devastated"][position]),
        invader=S.invader_id(value) if value else -1,
        defense=counted_cards(
            view["location_defense"][position], view["location_support"][position]
        ),
    )


# ----- the drawing -------------------------------------------------------------------------
def render(scene: Scene) -> str:
    """The one drawing of a scene."""
    top = 58
    team_height = 150 if scene.next_cards else 104
    locations_top = top + team_height + 10
    hands_top = locations_top + 262
    height = hands_top + 24 + HAND_ROW * len(scene.seats) + 10
    canvas = Canvas(WIDTH, height, title=scene.title)
    draw_header(canvas, scene)
    draw_team(canvas, scene, top, team_height)
    draw_locations(canvas, scene, locations_top)
    draw_hands(canvas, scene, hands_top)
    return canvas.to_svg()


def draw_header(canvas: Canvas, scene: Scene) -> None:
    """The title, the stage of the turn, whose turn it is and the pending decision."""
    canvas.text(12, 22, scene.title, size=17, bold=True)
    if scene.outcome:
        words = "The team WON" if scene.outcome == "won" else "The team LOST"
        colour = "#2e7d32" if scene.outcome == "won" else DEFEAT_BAR
        canvas.text(
            12,
            44,
            f"Game over: {words}",
            size=14,
            bold=True,
            fill=colour,
            data={"outcome": scene.outcome},
        )
        return
    parts = [scene.stage, f"{player_name(scene.active)}'s turn"]
    if scene.window >= 0:
        parts.append(f"spirit window ({WINDOW_REASONS[scene.window]})")
    if scene.acting_spirit >= 0:
        parts.append(f"{S.SPIRITS[scene.acting_spirit].name} acts")
    canvas.text(12, 44, " · ".join(parts), size=13)
    if scene.decider >= 0:
        kind = Decision(scene.decision).name.lower().replace("_", " ")
        canvas.text(
            WIDTH - 12,
            22,
            f"{player_name(scene.decider)} decides: {kind}",
            size=14,
            anchor="end",
            bold=True,
            data={"decider": scene.decider, "decision": kind},
        )
    if scene.card_in_play >= 0:
        words = f"in play: {S.card_name(scene.card_in_play)}"
        canvas.text(WIDTH - 12 - CARD_W - 8, 48, words, size=12, anchor="end")
        face(
            canvas,
            WIDTH - 12 - CARD_W,
            30,
            scene.card_in_play,
            width=CARD_W,
            height=26,
            slot="in-play",
            data={"in-play": 1},
        )


def face(
    canvas: Canvas,
    x: float,
    y: float,
    card: int,
    *,
    width: float = CARD_W,
    height: float = CARD_H,
    slot: str = "",
    seen_by: tuple[int, ...] | None = None,
    data: dict[str, object] | None = None,
) -> None:
    """A card face up: its kind, value (with a "+") and an Invader's terrain and letter.
    ``slot`` names where it lies; ``seen_by`` (everything only) the seats that may see it,
    for a secret face: marked ``data-seen-by`` and outlined dashed."""
    data = card_marks(slot, seen_by, data)
    draw_face(canvas, x, y, card, width=width, height=height, data=data)
    if seen_by is not None:
        canvas.rect(x, y, width, height, fill="none", stroke=SECRET, dashed=True)


def card_marks(
    slot: str, seen_by: tuple[int, ...] | None, data: dict[str, object] | None
) -> dict[str, object]:
    """The viewer's marks of a card drawn here: ``data-slot`` and ``data-seen-by``."""
    marks: dict[str, object] = {"slot": slot} if slot else {}
    if seen_by is not None:
        marks["seen-by"] = " ".join(str(seat) for seat in seen_by)
    return {**marks, **(data or {})}


def draw_face(
    canvas: Canvas,
    x: float,
    y: float,
    card: int,
    *,
    width: float,
    height: float,
    data: dict[str, object],
) -> None:
    kind, name = S.KIND[card], S.card_name(card)
    if kind == S.KIND_SPIRIT:
        spirit = S.SPIRITS[card - S.FIRST_SPIRIT].name.split(",")[0]
        small_card(
            canvas,
            x,
            y,
            name,
            title="Spirit",
            big="✦",
            note=spirit,
            width=width,
            height=height,
            fill=KIND_FILL[kind],
            data=data,
        )
        return
    big = f"{S.VALUE[card]}{'+' if S.PLUS[card] else ''}"
    narrow = width < 40
    title = (("Def", "Sup", "Inv") if narrow else ("Defense", "Support", "Invader"))[kind]
    note = ""
    if kind == S.KIND_INVADER:
        title = f"Inv. {S.LETTERS[S.CARD_LETTER[card]]}"
        note = S.TERRAINS[S.TERRAIN[card]]
    if height < 40:
        canvas.rect(x, y, width, height, fill=KIND_FILL[kind], data={"card": name, **(data or {})})
        canvas.text(x + width / 2, y + height / 2 + 5, big, size=14, anchor="middle", bold=True)
        return
    small_card(
        canvas,
        x,
        y,
        name,
        title=title,
        big=big,
        note=note,
        width=width,
        height=height,
        fill=KIND_FILL[kind],
        data=data,
    )
    if kind == S.KIND_INVADER:
        canvas.rect(
            x + 3,
            y + height - 18,
            width - 6,
            3,
            fill=TERRAIN_INK[S.TERRAIN[card]],
            stroke="none",
            radius=1,
        )


def draw_team(canvas: Canvas, scene: Scene, top: float, height: float) -> None:
    """The team's progress, the decks with their counts, the discards."""
    panel(canvas, 8, top, WIDTH - 16, height, "The team")
    invaders = [card for card in scene.discards if S.KIND[card] == S.KIND_INVADER]
    meter(
        canvas,
        20,
        top + 26,
        300,
        len(invaders) / S.NUM_INVADERS,
        f"Invaders defeated {len(invaders)} / {S.NUM_INVADERS}",
        data={"defeated": len(invaders)},
    )
    intact = sum(not location.devastated for location in scene.locations)
    meter(
        canvas,
        20,
        top + 48,
        300,
        intact / S.NUM_LOCATIONS,
        f"Locations intact {intact} / {S.NUM_LOCATIONS}",
        fill="#9cc3e6",
        data={"intact": intact},
    )
    defeated = ", ".join(str(S.VALUE[card]) for card in invaders) or "none yet"
    canvas.text(20, top + 82, fit(f"Defeated: Invaders {defeated}", 310, 11), size=11)
    plain = [card for card in scene.discards if S.KIND[card] != S.KIND_INVADER]
    used = " ".join(f"{S.VALUE[card]}{'+' if S.PLUS[card] else ''}" for card in plain)
    canvas.text(20, top + 97, fit(f"Defense used: {used or '-'}", 310, 11), size=11)
    draw_decks(canvas, scene, 350, top + 32)


def draw_decks(canvas: Canvas, scene: Scene, x: float, y: float) -> None:
    """The three draw decks, the top Invader's letter, what is known at the bottom."""
    defense, support, invader = scene.deck_sizes
    for offset, (name, count) in enumerate(
        (("Invader", invader), ("Defense", defense), ("Support", support))
    ):
        slot = {"slot": f"deck/{name.lower()}"}
        pile(canvas, x + 110 * offset, y, name, count, width=46, height=56, data=slot)
    if scene.top_letter >= 0:
        letter = S.LETTERS[scene.top_letter]
        canvas.text(x + 52, y + 50, f"top: {letter}", size=11, bold=True, data={"top": letter})
    bottom = ", ".join(S.card_name(card) for card in scene.bottom)
    if bottom:
        canvas.text(x + 340, y + 10, "Known at the bottom of the Invader deck:", size=11)
        canvas.text(
            x + 340,
            y + 26,
            fit(bottom, WIDTH - x - 360, 11),
            size=11,
            data={"bottom": len(scene.bottom)},
        )
    if scene.next_cards:
        draw_next_cards(canvas, scene.next_cards, scene.next_known, x - 2, y + 62)


def draw_next_cards(
    canvas: Canvas, decks: dict[str, list[int]], known: int, x: float, y: float
) -> None:
    """The top cards of each deck, top first, framed as hidden from every player (but the
    ``known`` last Invaders shown, seen by all going to the bottom of the deck)."""
    hidden_frame(canvas, x, y, WIDTH - x - 16, 50)
    canvas.text(
        x + 8,
        y + 14,
        "Next draws, top first (no player sees these):",
        size=11,
        fill=HIDDEN_INK,
        bold=True,
    )
    for index, (name, cards) in enumerate(decks.items()):
        left = x + 8 + 220 * index
        canvas.text(left, y + 36, f"{name}:", size=11, fill=HIDDEN_INK)
        for k, card in enumerate(cards):
            public = name == "Invader" and k >= len(cards) - known
            face(
                canvas,
                left + 56 + 38 * k,
                y + 20,
                card,
                width=34,
                height=26,
                slot=f"deck/{name.lower()}/next/{k}",
                seen_by=None if public else (),
                data={"hidden-order": k},
            )


def draw_locations(canvas: Canvas, scene: Scene, top: float) -> None:
    """The five Locations left to right: Defense above, the card, the Invader below."""
    panel(canvas, 8, top, WIDTH - 16, 252, "Locations (Defense above, Invader below)")
    column = (WIDTH - 32) / S.NUM_LOCATIONS
    for position, location in enumerate(scene.locations):
        draw_location(canvas, 16 + column * position, top + 24, column - 8, position, location)


def draw_location(
    canvas: Canvas, x: float, y: float, width: float, position: int, location: LocationScene
) -> None:
    total = sum(S.VALUE[card] for card in location.defense)
    need = S.VALUE[location.invader] if location.invader >= 0 else 0
    words = f"total {total}" + (f" / {need} needed" if need else "")
    canvas.text(
        x + width / 2,
        y + 10,
        words,
        size=11,
        anchor="middle",
        data={"defense-sum": total, "location": position + 1},
    )
    step = row_step(len(location.defense), width, MINI_W, 3)
    for k, card in enumerate(location.defense):
        face(
            canvas,
            x + step * k,
            y + 16,
            card,
            width=MINI_W,
            height=MINI_H,
            slot=f"location/{position}/defense/{k}",
            data={"at": position + 1},
        )
    draw_location_card(canvas, x, y + 70, width, position, location)
    if location.invader >= 0:
        face(
            canvas,
            x + width / 2 - CARD_W / 2,
            y + 150,
            location.invader,
            slot=f"location/{position}/invader",
            data={"at": position + 1},
        )
    else:
        canvas.text(x + width / 2, y + 185, "no Invader", size=11, anchor="middle", fill="#888")


def draw_location_card(
    canvas: Canvas, x: float, y: float, width: float, position: int, location: LocationScene
) -> None:
    """The Location card: its large terrain, and its small one unless devastated."""
    fill = "#d9d2c5" if location.devastated else "#f3ecd9"
    canvas.rect(
        x,
        y,
        width,
        72,
        fill=fill,
        stroke="#6b5e46",
        radius=6,
        data={"location": position + 1, "devastated": int(location.devastated)},
    )
    canvas.rect(x + 6, y + 20, 40, 40, fill=TERRAIN_INK[location.large], stroke="none", radius=4)
    canvas.text(x + 54, y + 16, f"Location {position + 1}", size=11, bold=True)
    canvas.text(x + 54, y + 34, S.TERRAINS[location.large], size=13, bold=True)
    if location.devastated:
        canvas.text(x + 54, y + 52, "devastated", size=12, bold=True, fill=DEFEAT_BAR)
    else:
        small = S.SMALL_TERRAIN[location.large]
        canvas.rect(x + 54, y + 44, 12, 12, fill=TERRAIN_INK[small], stroke="none", radius=2)
        canvas.text(x + 70, y + 54, S.TERRAINS[small], size=11)


def draw_hands(canvas: Canvas, scene: Scene, top: float) -> None:
    """One row per seat: who, its spirit and signal, its hand front first."""
    height = 24 + HAND_ROW * len(scene.seats)
    panel(canvas, 8, top, WIDTH - 16, height, "Hands (front first)")
    for index, seat in enumerate(scene.seats):
        draw_seat(canvas, seat, scene, 16, top + 22 + HAND_ROW * index)


def draw_seat(canvas: Canvas, seat: SeatScene, scene: Scene, x: float, y: float) -> None:
    highlight = "#fff3c4" if seat.seat == scene.active else "#fbf8f0"
    canvas.rect(
        x, y, WIDTH - 32, HAND_ROW - 6, fill=highlight, stroke="#d9cfb8", data={"seat": seat.seat}
    )
    name = player_name(seat.seat) + (" (you)" if seat.you else "")
    marks = [
        m
        for m, on in (
            ("▶ turn", seat.seat == scene.active),
            ("★ decides", seat.seat == scene.decider),
        )
        if on
    ]
    canvas.text(x + 8, y + 18, name, size=13, bold=True)
    canvas.text(x + 8, y + 34, " ".join(marks), size=11, fill="#8a5a00")
    canvas.text(x + 8, y + 50, fit(spirit_words(seat), LABEL_W - 12, 11), size=11)
    canvas.text(x + 8, y + 66, f"{seat.hand_size} cards", size=11)
    if seat.signal > 0:
        canvas.text(
            x + 8,
            y + 82,
            fit(f"» {signal_words(seat.signal)}", LABEL_W - 12, 10),
            size=10,
            fill="#555",
        )
    cards = seat.faces or seat.backs
    left, room = x + LABEL_W, WIDTH - 40 - LABEL_W
    step = row_step(len(cards), room, CARD_W, 4)
    for k, card in enumerate(cards):
        slot = f"hand/{seat.seat}/{k}"
        if seat.faces:
            secret = scene.everything and S.KIND[card] != S.KIND_SPIRIT
            face(
                canvas,
                left + step * k,
                y + 12,
                card,
                slot=slot,
                seen_by=(seat.seat,) if secret else None,
                data={"hand": seat.seat},
            )
        else:
            labelled_back(
                canvas,
                left + step * k,
                y + 12,
                BACK_LABELS[card],
                width=CARD_W,
                height=CARD_H,
                data={"hand": seat.seat, "slot": slot},
            )
    if seat.hand_size > len(cards):
        canvas.text(
            WIDTH - 40, y + 86, f"+{seat.hand_size - len(cards)} more", size=11, anchor="end"
        )


def spirit_words(seat: SeatScene) -> str:
    if seat.spirit < 0:
        return "no spirit yet"
    where = "laid out" if seat.spirit_out else "in hand"
    return f"{S.SPIRITS[seat.spirit].name.split(',')[0]} ({where})"


def signal_words(message: int) -> str:
    """A message (table talk about one's own hand) in short words, as the speaker's."""
    if message == S.SAY_SHOWN:
        return "can defeat the shown Invader"
    if message == S.SAY_PLUS:
        return "holds a +"
    if message < S.SAY_INVADER:
        return f"can defeat the Invader at L{message - S.SAY_DEFEAT_AT + 1}"
    level, terrain = divmod(message - S.SAY_INVADER, S.NUM_TERRAINS)
    return f"holds a {S.INVADER_LEVELS[level]} {S.TERRAINS[terrain]} Invader"
