"""What one Valenor player may know, as numeric fields (``SCHEMA``) and in words.

A player sees its own hand in order with values; of the other hands only the sequence of
card backs; the deck sizes and the top Invader's back letter; the Invaders known to lie at
the bottom of the Invader deck (everyone saw them go there); the table, the discards, the
spirits and the signals. Seats are relative: slot 0 is the viewer, then clockwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import Field, ObservationSchema
from tabletop_envs.valenor import cards as C
from tabletop_envs.valenor.flow import (
    DECISIONS,
    F_DRAFT,
    F_PLAY,
    F_SPIRIT,
    F_WINDOW,
    HAND_MAX,
    LOSS_REASONS,
    NUM_MESSAGES,
    START,
    WINDOW_REASONS,
)

if TYPE_CHECKING:
    from tabletop_envs.valenor.rules import ValenorGame

SEATS = 4
MAX_VALUE = max(C.INVADER_VALUES)
TURN_STAGES = ("spirit draft", "turn start", "step 1", "extra play", "step 2")
NUM_DEFENSE_VALUES = 14
NUM_SUPPORT_VALUES = 4
MAX_DEFENSE_SUM = sum(C.DEFENSE_VALUES) + sum(C.SUPPORT_VALUES)


def card_fields(prefix: str, shape: tuple[int, ...]) -> list[Field]:
    """The faces of cards: kind, value, terrain and letter (Invaders), "+" symbol."""
    return [
        Field(f"{prefix}_kind", (*shape, 4)),
        Field(f"{prefix}_value", shape, MAX_VALUE),
        Field(f"{prefix}_terrain", (*shape, C.NUM_TERRAINS)),
        Field(f"{prefix}_letter", (*shape, len(C.LETTERS))),
        Field(f"{prefix}_plus", shape),
    ]


SCHEMA = ObservationSchema(
    [
        Field("decision", (len(DECISIONS),)),
        Field("decider", (SEATS,)),
        Field("active", (SEATS,)),
        Field("turn_stage", (len(TURN_STAGES),)),
        Field("window_reason", (len(WINDOW_REASONS),)),
        Field("acting_spirit", (C.NUM_SPIRITS,)),
        *card_fields("card_in_play", ()),
        *card_fields("hand", (HAND_MAX,)),
        Field("hand_sizes", (SEATS,), C.NUM_CARDS),
        Field("hand_backs", (SEATS - 1, HAND_MAX, C.NUM_BACKS)),
        Field("spirit_of", (SEATS, C.NUM_SPIRITS)),
        Field("spirit_out", (SEATS,)),
        Field("location_large", (C.NUM_LOCATIONS, C.NUM_TERRAINS)),
        Field("location_small", (C.NUM_LOCATIONS, C.NUM_TERRAINS)),
        Field("location_devastated", (C.NUM_LOCATIONS,)),
        Field("location_invader", (C.NUM_LOCATIONS,), MAX_VALUE),
        Field("location_defense", (C.NUM_LOCATIONS, NUM_DEFENSE_VALUES), 2),
        Field("location_support", (C.NUM_LOCATIONS, NUM_SUPPORT_VALUES), 5),
        Field("location_defense_sum", (C.NUM_LOCATIONS,), MAX_DEFENSE_SUM),
        Field("discarded_defense", (NUM_DEFENSE_VALUES,), 2),
        Field("discarded_support", (NUM_SUPPORT_VALUES,), 5),
        Field("discarded_invaders", (C.NUM_INVADERS,)),
        Field("deck_sizes", (3,), C.NUM_DEFENSE),
        Field("top_invader_letter", (len(C.LETTERS),)),
        Field("invaders_at_bottom", (C.NUM_INVADERS,), C.NUM_INVADERS),
        Field("signals", (SEATS, NUM_MESSAGES)),
    ]
)
"""``deck_sizes``: Defense, Support, Invader. ``invaders_at_bottom``: for each Invader known
to lie at the bottom of the Invader deck, its place counted from the bottom (1 = last)."""


def _put_card(view: dict[str, np.ndarray], prefix: str, index: Any, card: int) -> None:
    kind = C.KIND[card]
    view[f"{prefix}_kind"][index][kind] = 1
    view[f"{prefix}_value"][index] = C.VALUE[card]
    view[f"{prefix}_plus"][index] = C.PLUS[card]
    if kind == C.KIND_INVADER:
        view[f"{prefix}_terrain"][index][C.TERRAIN[card]] = 1
        view[f"{prefix}_letter"][index][C.CARD_LETTER[card]] = 1


def card_in_play(game: ValenorGame) -> int:
    """The card being placed or moved (face up on the table), or -1."""
    for frame in reversed(game.frames):
        if frame[0] == F_PLAY:
            return frame[2]
        if frame[0] == F_SPIRIT and frame[4] >= 0:
            return frame[4]
    return -1


def turn_stage(game: ValenorGame) -> int:
    frame = game.frames[0]
    if frame[0] == F_DRAFT:
        return 0
    _, stage, step, extra = frame
    if stage == START:
        return 1
    return 3 if extra else 2 if step == 1 else 4


def build_view(
    game: ValenorGame, player: int, view: dict[str, np.ndarray] | None = None
) -> dict[str, np.ndarray]:
    """``player``'s view, written into ``view`` (zeroed, laid out as SCHEMA) or a new one."""
    view = SCHEMA.new_view() if view is None else view
    n = game.num_players
    _put_pending(game, player, view)
    for index, card in enumerate(game.hands[player][:HAND_MAX]):
        _put_card(view, "hand", index, card)
    for seat in range(n):
        relative = (seat - player) % n
        view["hand_sizes"][relative] = len(game.hands[seat])
        if game.spirit_of[seat] >= 0:
            view["spirit_of"][relative, game.spirit_of[seat]] = 1
        view["spirit_out"][relative] = game.spirit_out[seat]
        view["signals"][relative, game.signals[seat]] = 1
        if relative:
            for index, card in enumerate(game.hands[seat][:HAND_MAX]):
                view["hand_backs"][relative - 1, index, C.BACK[card]] = 1
    _put_table(game, view)
    return view


def _put_pending(game: ValenorGame, player: int, view: dict[str, np.ndarray]) -> None:
    n = game.num_players
    if game.decision >= 0:
        view["decision"][game.decision] = 1
        view["decider"][(game.decider - player) % n] = 1
    view["active"][(game.active - player) % n] = 1
    view["turn_stage"][turn_stage(game)] = 1
    for frame in reversed(game.frames):
        if frame[0] == F_WINDOW:
            view["window_reason"][frame[1]] = 1
            break
    for frame in reversed(game.frames):
        if frame[0] == F_SPIRIT:
            view["acting_spirit"][frame[2]] = 1
            break
    card = card_in_play(game)
    if card >= 0:
        _put_card(view, "card_in_play", (), card)


def _put_table(game: ValenorGame, view: dict[str, np.ndarray]) -> None:
    for position, large in enumerate(game.locations):
        view["location_large"][position, large] = 1
        if game.devastated[position]:
            view["location_devastated"][position] = 1
        else:
            view["location_small"][position, C.SMALL_TERRAIN[large]] = 1
        invader = game.invader_at[position]
        view["location_invader"][position] = C.VALUE[invader] if invader >= 0 else 0
        for card in game.defense_at[position]:
            _count_defense(view, "location_defense", "location_support", card, position)
        view["location_defense_sum"][position] = sum(C.VALUE[c] for c in game.defense_at[position])
    for card in game.discards:
        if C.KIND[card] == C.KIND_INVADER:
            view["discarded_invaders"][card - C.FIRST_INVADER] = 1
        else:
            _count_defense(view, "discarded_defense", "discarded_support", card, ())
    view["deck_sizes"][:] = (
        len(game.defense_deck),
        len(game.support_deck),
        len(game.invader_deck),
    )
    if game.invader_deck:
        view["top_invader_letter"][C.CARD_LETTER[game.invader_deck[-1]]] = 1
    for place, card in enumerate(game.invader_deck[: game.known_bottom]):
        view["invaders_at_bottom"][card - C.FIRST_INVADER] = place + 1


def _count_defense(
    view: dict[str, np.ndarray], defense: str, support: str, card: int, where: Any
) -> None:
    name = defense if C.KIND[card] == C.KIND_DEFENSE else support
    view[name][where][C.VALUE[card] - 1] += 1


def readable_view(game: ValenorGame, player: int) -> dict[str, Any]:
    """The same knowledge in words: names, backs and counts."""
    seats = [(player + offset) % game.num_players for offset in range(game.num_players)]
    return {
        "player": player,
        "active": game.active,
        "decision": DECISIONS[game.decision] if game.decision >= 0 else None,
        "decider": game.decider,
        "card_in_play": _name(card_in_play(game)),
        "hand": [C.card_name(c) for c in game.hands[player]],
        "other_hands": {
            seat: [C.BACK_NAMES[C.BACK[c]] for c in game.hands[seat]] for seat in seats[1:]
        },
        "spirits": {
            seat: {
                "spirit": _spirit_name(game.spirit_of[seat]),
                "laid_out": game.spirit_out[seat],
            }
            for seat in seats
        },
        "locations": [_location_words(game, i) for i in range(C.NUM_LOCATIONS)],
        "deck_sizes": {
            "defense": len(game.defense_deck),
            "support": len(game.support_deck),
            "invader": len(game.invader_deck),
        },
        "top_invader_letter": (
            C.LETTERS[C.CARD_LETTER[game.invader_deck[-1]]] if game.invader_deck else None
        ),
        "invaders_at_bottom": [C.card_name(c) for c in game.invader_deck[: game.known_bottom]],
        "discards": [C.card_name(c) for c in game.discards],
        "signals": {seat: game.signals[seat] for seat in seats},
        "outcome": {1: "won", -1: "lost", 0: None}[game.outcome],
        "loss_reason": LOSS_REASONS.get(game.loss_reason),
    }


def _name(card: int) -> str | None:
    return C.card_name(card) if card >= 0 else None


def _spirit_name(spirit: int) -> str | None:
    return C.SPIRITS[spirit].name if spirit >= 0 else None


def _location_words(game: ValenorGame, position: int) -> dict[str, Any]:
    return {
        "terrains": [C.TERRAINS[t] for t in game.terrains_at(position)],
        "devastated": game.devastated[position],
        "invader": _name(game.invader_at[position]),
        "defense": [C.card_name(c) for c in game.defense_at[position]],
    }
