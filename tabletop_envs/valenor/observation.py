"""What one Valenor player may know, as numeric fields (``SCHEMA``) and in words.

A player sees its own hand in order with values; of the other hands only the sequence of
card backs; the deck sizes and the top Invader's back letter; the Invaders known to lie at
the bottom of the Invader deck (everyone saw them go there); the table, the discards, the
spirits and the signals. Seats are relative: slot 0 is the viewer, then clockwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import (
    OTHERS,
    SEATS,
    Field,
    FieldView,
    KeptObservation,
    ObservationSchema,
    TableLayout,
)
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

MAX_SEATS = 4
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
        Field("decider", (MAX_SEATS,)),
        Field("active", (MAX_SEATS,)),
        Field("turn_stage", (len(TURN_STAGES),)),
        Field("window_reason", (len(WINDOW_REASONS),)),
        Field("acting_spirit", (C.NUM_SPIRITS,)),
        *card_fields("card_in_play", ()),
        *card_fields("hand", (HAND_MAX,)),
        Field("hand_sizes", (MAX_SEATS,), C.NUM_CARDS),
        Field("hand_backs", (MAX_SEATS - 1, HAND_MAX, C.NUM_BACKS)),
        Field("spirit_of", (MAX_SEATS, C.NUM_SPIRITS)),
        Field("spirit_out", (MAX_SEATS,)),
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
        Field("signals", (MAX_SEATS, NUM_MESSAGES)),
    ]
)
"""``deck_sizes``: Defense, Support, Invader. ``invaders_at_bottom``: for each Invader known
to lie at the bottom of the Invader deck, its place counted from the bottom (1 = last)."""


# ----- the kept view: blocks in table seat order, each re-encoded when its key changes -----
SEAT_FIELDS = ("hand_sizes", "hand_backs", "spirit_of", "spirit_out", "signals")
"""What everyone sees of one seat."""
LOCATION_FIELDS = tuple(f.name for f in SCHEMA.fields if f.name.startswith("location_"))
DISCARD_FIELDS = ("discarded_defense", "discarded_support", "discarded_invaders")
DECK_FIELDS = ("deck_sizes", "top_invader_letter", "invaders_at_bottom")
TABLE = TableLayout(SCHEMA, MAX_SEATS, {**dict.fromkeys(SEAT_FIELDS, SEATS), "hand_backs": OTHERS})
"""The view stored in table seat order. The pending decision (it changes at nearly every
step, so keeping it would save nothing) and the observer's own hand are written into each
observer's vector after the gather."""
LOCATIONS, DISCARDS, DECKS, FIRST_SEAT_BLOCK = range(4)
KEPT_BLOCKS = FIRST_SEAT_BLOCK + MAX_SEATS
"""Blocks: the Locations, the discards, the decks, then each seat's public rows."""
_LOCATIONS_AT = TABLE.positions(LOCATION_FIELDS)
_DISCARDS_AT = TABLE.positions(DISCARD_FIELDS)
_DECKS_AT = TABLE.positions(DECK_FIELDS)
_SEAT_AT = [TABLE.positions(SEAT_FIELDS, seat) for seat in range(MAX_SEATS)]
_AT = {name: TABLE.at(name) for name in SCHEMA.slices}
"""Where each field starts when stored (its row for seat 0, for a seat field)."""
_SEAT_STARTS = [{name: TABLE.at(name, seat) for name in SEAT_FIELDS} for seat in range(MAX_SEATS)]
_OFFSET = {name: SCHEMA.offset(name) for name in SCHEMA.slices}
"""Where each field starts in an observation."""
_LETTER = C.CARD_LETTER.tolist()
Entries = tuple[tuple[int, float], ...]


def _card_entries(prefix: str, slot: int, card: int) -> Entries:
    """(position in the observation, value) of what ``card`` in ``slot`` of the card fields
    ``prefix`` shows, zeros left out."""
    kind, at = C.KIND[card], _OFFSET
    entries = [
        (at[f"{prefix}_kind"] + 4 * slot + kind, 1),
        (at[f"{prefix}_value"] + slot, C.VALUE[card]),
        (at[f"{prefix}_plus"] + slot, C.PLUS[card]),
    ]
    if kind == C.KIND_INVADER:
        entries.append((at[f"{prefix}_terrain"] + C.NUM_TERRAINS * slot + C.TERRAIN[card], 1))
        entries.append((at[f"{prefix}_letter"] + len(C.LETTERS) * slot + _LETTER[card], 1))
    return tuple((where, float(value)) for where, value in entries if value)


def _counted_at(prefix: str, row: int, card: int) -> int:
    """Where ``card`` is counted among ``prefix``'s Defense/Support (row ``row``) or Invaders."""
    if C.KIND[card] == C.KIND_INVADER:
        return _AT[f"{prefix}_invaders"] + card - C.FIRST_INVADER
    if C.KIND[card] == C.KIND_DEFENSE:
        return _AT[f"{prefix}_defense"] + NUM_DEFENSE_VALUES * row + C.VALUE[card] - 1
    return _AT[f"{prefix}_support"] + NUM_SUPPORT_VALUES * row + C.VALUE[card] - 1


def _location_faces(position: int, large: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The positions a Location card shows as one, intact and devastated."""
    at_large = _AT["location_large"] + C.NUM_TERRAINS * position + large
    at_small = _AT["location_small"] + C.NUM_TERRAINS * position + C.SMALL_TERRAIN[large]
    return (at_large, at_small), (at_large, _AT["location_devastated"] + position)


_IN_PLAY = [_card_entries("card_in_play", 0, card) for card in range(C.NUM_CARDS)]
_HAND = [
    [_card_entries("hand", slot, card) for card in range(C.NUM_CARDS)] for slot in range(HAND_MAX)
]
"""_HAND[slot][card]: a card in the observer's hand."""
_FACES = [
    [_location_faces(position, large) for large in range(C.NUM_TERRAINS)]
    for position in range(C.NUM_LOCATIONS)
]
_STACKED = [
    [_counted_at("location", position, card) for card in range(C.NUM_DEFENDING)]
    for position in range(C.NUM_LOCATIONS)
]
_DISCARDED = [_counted_at("discarded", 0, card) for card in range(C.FIRST_SPIRIT)]


def _frame_context(frames: list[tuple[int, ...]]) -> tuple[int, int, int]:
    """From the top frame down: the open window's reason, the acting spirit and the card in
    play (each -1 if none)."""
    window = spirit = card = -1
    for frame in reversed(frames):
        kind = frame[0]
        if kind == F_PLAY:
            card = frame[2] if card < 0 else card
        elif kind == F_SPIRIT:
            spirit = frame[2] if spirit < 0 else spirit
            card = frame[4] if card < 0 else card
        elif kind == F_WINDOW and window < 0:
            window = frame[1]
    return window, spirit, card


def card_in_play(game: ValenorGame) -> int:
    """The card being placed or moved (face up on the table), or -1."""
    return _frame_context(game.frames)[2]


def turn_stage(game: ValenorGame) -> int:
    frame = game.frames[0]
    if frame[0] == F_DRAFT:
        return 0
    _, stage, step, extra = frame
    if stage == START:
        return 1
    return 3 if extra else 2 if step == 1 else 4


def unscaled(game: ValenorGame, player: int) -> np.ndarray:
    """``player``'s observation before scaling: the kept view (its stale blocks encoded
    again) turned to face ``player``, then the pending decision and ``player``'s hand."""
    kept = KeptObservation.of(game, TABLE, KEPT_BLOCKS)
    values = kept.values
    locations = _locations_key(game)
    if kept.stale(LOCATIONS, locations, _LOCATIONS_AT):
        _put_locations(locations, values)
    if kept.stale(DISCARDS, tuple(game.discards), _DISCARDS_AT):
        for card in game.discards:
            values[_DISCARDED[card]] += 1
    decks = _decks_key(game)
    if kept.stale(DECKS, decks, _DECKS_AT):
        _put_decks(decks, values)
    for seat, hand in enumerate(game.hands):
        seen = (tuple(hand), game.spirit_of[seat], game.spirit_out[seat], game.signals[seat])
        if kept.stale(FIRST_SEAT_BLOCK + seat, seen, _SEAT_AT[seat]):
            _put_seat(seat, seen, values)
    vector = kept.observed(TABLE, game.num_players, player)
    _put_pending(game, player, vector)
    for slot, card in enumerate(game.hands[player][:HAND_MAX]):
        for at, value in _HAND[slot][card]:
            vector[at] = value
    return vector


def build_view(game: ValenorGame, player: int) -> FieldView:
    """``player``'s view: the fields of :func:`unscaled`."""
    return SCHEMA.view_of(unscaled(game, player))


def _put_pending(game: ValenorGame, player: int, vector: np.ndarray) -> None:
    """The decision, who takes it, whose turn it is, and what the frames show."""
    n, at = game.num_players, _OFFSET
    if game.decision >= 0:
        vector[at["decision"] + game.decision] = 1
        vector[at["decider"] + (game.decider - player) % n] = 1
    vector[at["active"] + (game.active - player) % n] = 1
    vector[at["turn_stage"] + turn_stage(game)] = 1
    window, spirit, card = _frame_context(game.frames)
    if window >= 0:
        vector[at["window_reason"] + window] = 1
    if spirit >= 0:
        vector[at["acting_spirit"] + spirit] = 1
    if card >= 0:
        for where, value in _IN_PLAY[card]:
            vector[where] = value


def _locations_key(game: ValenorGame) -> tuple[tuple[Any, ...], ...]:
    """Per field, the Locations left to right: card, devastated, Invader, Defense stack."""
    stacks = tuple(map(tuple, game.defense_at))
    return (tuple(game.locations), tuple(game.devastated), tuple(game.invader_at), stacks)


def _put_locations(locations: tuple[tuple[Any, ...], ...], values: np.ndarray) -> None:
    """Each Location's terrains, Invader value and Defense/Support counts and sum."""
    for position, (large, devastated, invader, stack) in enumerate(zip(*locations, strict=True)):
        for at in _FACES[position][large][devastated]:
            values[at] = 1
        if invader >= 0:
            values[_AT["location_invader"] + position] = C.VALUE[invader]
        if stack:
            for card in stack:
                values[_STACKED[position][card]] += 1
            values[_AT["location_defense_sum"] + position] = sum(C.VALUE[c] for c in stack)


def _decks_key(game: ValenorGame) -> tuple[Any, ...]:
    """The deck sizes, the top Invader's letter (-1: none) and the Invaders known at the bottom."""
    invaders = game.invader_deck
    top = _LETTER[invaders[-1]] if invaders else -1
    sizes = (len(game.defense_deck), len(game.support_deck), len(invaders))
    return (*sizes, top, tuple(invaders[: game.known_bottom]))


def _put_decks(decks: tuple[Any, ...], values: np.ndarray) -> None:
    """The values of a :func:`_decks_key`."""
    *sizes, top, bottom = decks
    values[_AT["deck_sizes"] : _AT["deck_sizes"] + 3] = sizes
    if top >= 0:
        values[_AT["top_invader_letter"] + top] = 1
    for place, card in enumerate(bottom, 1):
        values[_AT["invaders_at_bottom"] + card - C.FIRST_INVADER] = place


def _put_seat(seat: int, seen: tuple[Any, ...], values: np.ndarray) -> None:
    """A seat's public rows: hand size and backs, spirit, signal."""
    hand, spirit, laid_out, signal = seen
    starts = _SEAT_STARTS[seat]
    values[starts["hand_sizes"]] = len(hand)
    backs = starts["hand_backs"]
    for index, card in enumerate(hand[:HAND_MAX]):
        values[backs + C.NUM_BACKS * index + C.BACK[card]] = 1
    if spirit >= 0:
        values[starts["spirit_of"] + spirit] = 1
    values[starts["spirit_out"]] = laid_out
    values[starts["signals"] + signal] = 1


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


view = build_view


def observation(game: ValenorGame, player: int) -> np.ndarray:
    """``SCHEMA.encode(view(player))``, gathered from the kept view."""
    return SCHEMA.scale(unscaled(game, player))
