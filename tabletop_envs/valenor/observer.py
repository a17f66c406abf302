"""What one Valenor player may know, as numeric fields (``SCHEMA``): the plain reference
:func:`view` and the fast :func:`observation` that equals its encoding.

A player sees its own hand in order with values; of the other hands only the sequence of
card backs; the deck sizes and the top Invader's back letter; the Invaders known to lie at
the bottom of the Invader deck (everyone saw them go there); the table, the discards, the
spirits and the signals; the pending decision with its context. Seats are relative: slot 0 is
the viewer, then clockwise. Derived from what it sees (issue 16, ``valenor_v2``): the value
each Location's Invader still needs, and which of the viewer's cards (and the card in play)
would meet it exactly, a Direct Hit there.

:func:`view` is written field by field from the state and the rulebook. :func:`observation`
shares no code with it: it keeps the view in table seat order in ``game.observer_cache``
(:class:`~tabletop_envs.core.encoding.KeptObservation`), encodes again only the blocks whose
state changed, and writes the pending decision and the viewer's hand into each vector.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_envs.core.encoding import (
    OTHERS,
    SEATS,
    Field,
    KeptObservation,
    ObservationSchema,
    TableLayout,
)
from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.spec import (
    F_DRAFT,
    F_PLAY,
    F_SPIRIT,
    F_WINDOW,
    HAND_MAX,
    MAX_PLAYERS,
    NUM_MESSAGES,
    TURN_START,
    WINDOW_REASONS,
    Decision,
)

if TYPE_CHECKING:
    from tabletop_envs.valenor.rules import ValenorGame

MAX_SEATS = MAX_PLAYERS
MAX_VALUE = max(S.INVADER_VALUES)
TURN_STAGES = ("spirit draft", "turn start", "step 1", "extra play", "step 2")
NUM_DEFENSE_VALUES = 14
NUM_SUPPORT_VALUES = 4
MAX_DEFENSE_SUM = sum(S.DEFENSE_VALUES) + sum(S.SUPPORT_VALUES)


def card_fields(prefix: str, shape: tuple[int, ...]) -> list[Field]:
    """The faces of cards: kind, value, terrain and letter (Invaders), "+" symbol."""
    return [
        Field(f"{prefix}_kind", (*shape, 4)),
        Field(f"{prefix}_value", shape, MAX_VALUE),
        Field(f"{prefix}_terrain", (*shape, S.NUM_TERRAINS)),
        Field(f"{prefix}_letter", (*shape, len(S.LETTERS))),
        Field(f"{prefix}_plus", shape),
    ]


SCHEMA = ObservationSchema(
    [
        Field("decision", (len(Decision),)),
        Field("decider", (MAX_SEATS,)),
        Field("active", (MAX_SEATS,)),
        Field("turn_stage", (len(TURN_STAGES),)),
        Field("window_reason", (len(WINDOW_REASONS),)),
        Field("acting_spirit", (S.NUM_SPIRITS,)),
        *card_fields("card_in_play", ()),
        Field("card_in_play_exact", (S.NUM_LOCATIONS,)),
        *card_fields("hand", (HAND_MAX,)),
        Field("hand_exact", (HAND_MAX, S.NUM_LOCATIONS)),
        Field("hand_sizes", (MAX_SEATS,), S.NUM_CARDS),
        Field("hand_backs", (MAX_SEATS - 1, HAND_MAX, S.NUM_BACKS)),
        Field("spirit_of", (MAX_SEATS, S.NUM_SPIRITS)),
        Field("spirit_out", (MAX_SEATS,)),
        Field("location_large", (S.NUM_LOCATIONS, S.NUM_TERRAINS)),
        Field("location_small", (S.NUM_LOCATIONS, S.NUM_TERRAINS)),
        Field("location_devastated", (S.NUM_LOCATIONS,)),
        Field("location_invader", (S.NUM_LOCATIONS,), MAX_VALUE),
        Field("location_defense", (S.NUM_LOCATIONS, NUM_DEFENSE_VALUES), 2),
        Field("location_support", (S.NUM_LOCATIONS, NUM_SUPPORT_VALUES), 5),
        Field("location_defense_sum", (S.NUM_LOCATIONS,), MAX_DEFENSE_SUM),
        Field("location_needed", (S.NUM_LOCATIONS,), MAX_VALUE),
        Field("discarded_defense", (NUM_DEFENSE_VALUES,), 2),
        Field("discarded_support", (NUM_SUPPORT_VALUES,), 5),
        Field("discarded_invaders", (S.NUM_INVADERS,)),
        Field("deck_sizes", (3,), S.NUM_DEFENSE),
        Field("top_invader_letter", (len(S.LETTERS),)),
        Field("invaders_at_bottom", (S.NUM_INVADERS,), S.NUM_INVADERS),
        Field("signals", (MAX_SEATS, NUM_MESSAGES)),
    ]
)
"""``deck_sizes``: Defense, Support, Invader. ``invaders_at_bottom``: for each Invader known
to lie at the bottom of the Invader deck, its place counted from the bottom (1 = last).
``location_needed``: the Invader's value less the Defense sum below it (0 without an
Invader). ``hand_exact[slot, p]`` and ``card_in_play_exact[p]``: 1 when that card is Defense
or Support whose value equals Location ``p``'s ``location_needed``."""


# ----- the plain reference view ------------------------------------------------------------
def view(game: ValenorGame, player: int) -> dict[str, np.ndarray]:
    """What ``player`` may know, as the fields of :data:`SCHEMA` (unscaled), written field by
    field from the state and the rulebook; the specification :func:`observation` meets."""
    n = game.num_players
    fields = {field.name: np.zeros(field.shape) for field in SCHEMA.fields}
    # the pending decision and its context
    if not game.is_terminal:
        fields["decision"][game.pending_kind()] = 1
        fields["decider"][(game.current_player - player) % n] = 1
    fields["active"][(game.active - player) % n] = 1
    fields["turn_stage"][turn_stage(game)] = 1
    windows = [frame for frame in game.frames if frame[0] == F_WINDOW]
    if windows:
        fields["window_reason"][windows[-1][1]] = 1
    spirits = [frame for frame in game.frames if frame[0] == F_SPIRIT]
    if spirits:
        fields["acting_spirit"][spirits[-1][2]] = 1
    needed = still_needed(game)
    if game.card_in_play() >= 0:
        _show_face(fields, "card_in_play", (), game.card_in_play())
        fields["card_in_play_exact"][:] = exact_hits(game.card_in_play(), needed)
    # the viewer's own hand, front first, faces shown
    for slot, card in enumerate(game.hands[player][:HAND_MAX]):
        _show_face(fields, "hand", (slot,), card)
        fields["hand_exact"][slot] = exact_hits(card, needed)
    # every seat, relative to the viewer: hand sizes, the others' backs, spirits, signals
    for row in range(n):
        seat = (player + row) % n
        hand = game.hands[seat]
        fields["hand_sizes"][row] = len(hand)
        if row > 0:
            for slot, card in enumerate(hand[:HAND_MAX]):
                fields["hand_backs"][row - 1, slot, S.BACK[card]] = 1
        if game.spirit_of[seat] != -1:
            fields["spirit_of"][row, game.spirit_of[seat]] = 1
        fields["spirit_out"][row] = game.spirit_out[seat]
        fields["signals"][row, game.signals[seat]] = 1
    # the Locations, left to right
    for position in range(S.NUM_LOCATIONS):
        large = game.locations[position]
        fields["location_large"][position, large] = 1
        if game.devastated[position]:
            fields["location_devastated"][position] = 1
        else:
            fields["location_small"][position, S.SMALL_TERRAIN[large]] = 1
        invader = game.invader_at[position]
        if invader != -1:
            fields["location_invader"][position] = S.VALUE[invader]
        for card in game.defense_at[position]:
            if S.KIND[card] == S.KIND_DEFENSE:
                fields["location_defense"][position, S.VALUE[card] - 1] += 1
            else:
                fields["location_support"][position, S.VALUE[card] - 1] += 1
            fields["location_defense_sum"][position] += S.VALUE[card]
    fields["location_needed"][:] = needed
    # the discards, counted by value (Defense, Support) or by card (Invaders)
    for card in game.discards:
        if S.KIND[card] == S.KIND_DEFENSE:
            fields["discarded_defense"][S.VALUE[card] - 1] += 1
        elif S.KIND[card] == S.KIND_SUPPORT:
            fields["discarded_support"][S.VALUE[card] - 1] += 1
        else:
            fields["discarded_invaders"][card - S.FIRST_INVADER] = 1
    # the decks: sizes, the top Invader's back, the Invaders seen going to the bottom
    fields["deck_sizes"][:] = [
        len(game.defense_deck),
        len(game.support_deck),
        len(game.invader_deck),
    ]
    if game.invader_deck:
        fields["top_invader_letter"][S.CARD_LETTER[game.invader_deck[-1]]] = 1
    for place, card in enumerate(game.invader_deck[: game.known_bottom], start=1):
        fields["invaders_at_bottom"][card - S.FIRST_INVADER] = place
    return fields


def still_needed(game: ValenorGame) -> list[int]:
    """Per Location, the Defense value its Invader still needs (0 without an Invader)."""
    needed = []
    for invader, stack in zip(game.invader_at, game.defense_at, strict=True):
        defended = sum(S.VALUE[card] for card in stack)
        needed.append(S.VALUE[invader] - defended if invader != -1 else 0)
    return needed


def exact_hits(card: int, needed: list[int]) -> list[int]:
    """Per Location, 1 if ``card`` is Defense or Support of exactly the value needed there."""
    defending = S.KIND[card] in (S.KIND_DEFENSE, S.KIND_SUPPORT)
    return [int(defending and want > 0 and S.VALUE[card] == want) for want in needed]


def turn_stage(game: ValenorGame) -> int:
    """Where the turn is, as an index of ``TURN_STAGES``: the spirit draft, a turn's start,
    step 1, an extra play granted by a "+" card, step 2 (and the draws after it)."""
    bottom = game.frames[0]
    if bottom[0] == F_DRAFT:
        return 0
    _, stage, step, extra = bottom
    if stage == TURN_START:
        return 1
    if extra:
        return 3
    return 2 if step == 1 else 4


def _show_face(
    fields: dict[str, np.ndarray], prefix: str, slot: tuple[int, ...], card: int
) -> None:
    """A card's face in the card fields ``prefix`` (at ``slot``): kind, value, "+", and an
    Invader's terrain and back letter."""
    fields[f"{prefix}_kind"][(*slot, S.KIND[card])] = 1
    fields[f"{prefix}_value"][slot] = S.VALUE[card]
    fields[f"{prefix}_plus"][slot] = S.PLUS[card]
    if S.KIND[card] == S.KIND_INVADER:
        fields[f"{prefix}_terrain"][(*slot, S.TERRAIN[card])] = 1
        fields[f"{prefix}_letter"][(*slot, S.CARD_LETTER[card])] = 1


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
LOCATIONS, DISCARDS, DECKS, SEAT_ROWS = range(4)
KEPT_BLOCKS = 4
"""Blocks: the Locations, the discards, the decks, the seats' public rows. The Locations and
the seats are compared with their previous key part by part: only a Location or a seat that
changed is encoded again."""


def _location_positions(position: int) -> np.ndarray:
    """Where Location ``position``'s entries are stored (its row of every Location field)."""
    spans = []
    for name in LOCATION_FIELDS:
        width = SCHEMA.slices[name].stop - SCHEMA.slices[name].start
        row = width // S.NUM_LOCATIONS
        start = TABLE.at(name) + row * position
        spans.append(np.arange(start, start + row))
    return np.concatenate(spans).astype(np.intp)


_LOCATION_AT = [_location_positions(position) for position in range(S.NUM_LOCATIONS)]
_DISCARDS_AT = TABLE.positions(DISCARD_FIELDS)
_DECKS_AT = TABLE.positions(DECK_FIELDS)
_SEAT_AT = [TABLE.positions(SEAT_FIELDS, seat) for seat in range(MAX_SEATS)]
_AT = {name: TABLE.at(name) for name in SCHEMA.slices}
"""Where each field starts when stored (its row for seat 0, for a seat field)."""
_SEAT_STARTS = [{name: TABLE.at(name, seat) for name in SEAT_FIELDS} for seat in range(MAX_SEATS)]
_OFFSET = {name: SCHEMA.offset(name) for name in SCHEMA.slices}
"""Where each field starts in an observation."""
_LETTER = S.CARD_LETTER.tolist()
Entries = tuple[tuple[int, float], ...]


def _card_entries(prefix: str, slot: int, card: int) -> Entries:
    """(position in the observation, value) of what ``card`` in ``slot`` of the card fields
    ``prefix`` shows, zeros left out."""
    kind, at = S.KIND[card], _OFFSET
    entries = [
        (at[f"{prefix}_kind"] + 4 * slot + kind, 1),
        (at[f"{prefix}_value"] + slot, S.VALUE[card]),
        (at[f"{prefix}_plus"] + slot, S.PLUS[card]),
    ]
    if kind == S.KIND_INVADER:
        entries.append((at[f"{prefix}_terrain"] + S.NUM_TERRAINS * slot + S.TERRAIN[card], 1))
        entries.append((at[f"{prefix}_letter"] + len(S.LETTERS) * slot + _LETTER[card], 1))
    return tuple((where, float(value)) for where, value in entries if value)


def _counted_at(prefix: str, row: int, card: int) -> int:
    """Where ``card`` is counted among ``prefix``'s Defense/Support (row ``row``) or Invaders."""
    if S.KIND[card] == S.KIND_INVADER:
        return _AT[f"{prefix}_invaders"] + card - S.FIRST_INVADER
    if S.KIND[card] == S.KIND_DEFENSE:
        return _AT[f"{prefix}_defense"] + NUM_DEFENSE_VALUES * row + S.VALUE[card] - 1
    return _AT[f"{prefix}_support"] + NUM_SUPPORT_VALUES * row + S.VALUE[card] - 1


def _location_faces(position: int, large: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The positions a Location card shows as one, intact and devastated."""
    at_large = _AT["location_large"] + S.NUM_TERRAINS * position + large
    at_small = _AT["location_small"] + S.NUM_TERRAINS * position + S.SMALL_TERRAIN[large]
    return (at_large, at_small), (at_large, _AT["location_devastated"] + position)


_IN_PLAY = [_card_entries("card_in_play", 0, card) for card in range(S.NUM_CARDS)]
_HAND = [
    [_card_entries("hand", slot, card) for card in range(S.NUM_CARDS)] for slot in range(HAND_MAX)
]
"""_HAND[slot][card]: a card in the observer's hand."""
_FACES = [
    [_location_faces(position, large) for large in range(S.NUM_TERRAINS)]
    for position in range(S.NUM_LOCATIONS)
]
_STACKED = [
    [_counted_at("location", position, card) for card in range(S.NUM_DEFENDING)]
    for position in range(S.NUM_LOCATIONS)
]
_DISCARDED = [_counted_at("discarded", 0, card) for card in range(S.FIRST_SPIRIT)]
_HAND_FACES = [
    [
        (
            np.array([at for at, _ in entries], np.intp),
            np.array([v for _, v in entries], np.float32),
        )
        for entries in slot_entries
    ]
    for slot_entries in _HAND
]
"""_HAND_FACES[slot][card]: (positions, values) of :data:`_HAND`'s entries, one assignment."""


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


def _turn_stage(frames: list[tuple[int, ...]]) -> int:
    """The index of ``TURN_STAGES`` the bottom frame is at."""
    frame = frames[0]
    if frame[0] == F_DRAFT:
        return 0
    _, stage, step, extra = frame
    if stage == TURN_START:
        return 1
    return 3 if extra else 2 if step == 1 else 4


def observation(game: ValenorGame, player: int) -> np.ndarray:
    """``SCHEMA.encode(view(game, player))``, gathered from the kept view."""
    return SCHEMA.scale(unscaled(game, player))


def unscaled(game: ValenorGame, player: int) -> np.ndarray:
    """``player``'s observation before scaling: the kept view (its stale blocks encoded
    again) turned to face ``player``, then the pending decision and ``player``'s hand."""
    kept = KeptObservation.of(game, TABLE, KEPT_BLOCKS)
    values = kept.values
    locations = (game.locations, game.devastated, game.invader_at, *game.defense_at)
    if kept.keys[LOCATIONS] != locations:
        _put_locations(game, kept.restamp(LOCATIONS, locations), values)
    if kept.stale(DISCARDS, game.discards, _DISCARDS_AT):
        for card in game.discards:
            values[_DISCARDED[card]] += 1
    decks = _decks_key(game)
    if kept.stale(DECKS, decks, _DECKS_AT):
        _put_decks(decks, values)
    seats = (game.spirit_of, game.spirit_out, game.signals, *game.hands)
    if kept.keys[SEAT_ROWS] != seats:
        _put_seats(game, kept.restamp(SEAT_ROWS, seats), values)
    vector = kept.observed(TABLE, game.num_players, player)
    needing = _needing(vector)
    _put_pending(game, player, vector, needing)
    for slot, card in enumerate(game.hands[player][:HAND_MAX]):
        where, faces = _HAND_FACES[slot][card]
        vector[where] = faces
    if needing:
        _put_hand_exact(game.hands[player], needing, vector)
    return vector


def _put_seats(game: ValenorGame, previous: object, values: np.ndarray) -> None:
    """Encode again each seat whose public rows changed since the key ``previous`` (spirits,
    laid out, signals, then each hand; not a tuple if never encoded)."""
    spirit_of, spirit_out, signals, hands = (
        game.spirit_of,
        game.spirit_out,
        game.signals,
        game.hands,
    )
    for seat, hand in enumerate(hands):
        if isinstance(previous, tuple):
            was_of, was_out, was_said, *was_held = previous
            seen_before = (was_held[seat], was_of[seat], was_out[seat], was_said[seat])
            if seen_before == (hand, spirit_of[seat], spirit_out[seat], signals[seat]):
                continue
        values[_SEAT_AT[seat]] = 0.0
        _put_seat(seat, (hand, spirit_of[seat], spirit_out[seat], signals[seat]), values)


_NEEDED = _OFFSET["location_needed"]
_HAND_EXACT = _OFFSET["hand_exact"]
_DECISION, _DECIDER, _ACTIVE = _OFFSET["decision"], _OFFSET["decider"], _OFFSET["active"]
_TURN_STAGE, _WINDOW_REASON = _OFFSET["turn_stage"], _OFFSET["window_reason"]
_ACTING_SPIRIT, _CARD_IN_PLAY_EXACT = _OFFSET["acting_spirit"], _OFFSET["card_in_play_exact"]


def _needing(vector: np.ndarray) -> dict[int, list[int]]:
    """From the unscaled ``location_needed``: each value needed -> the Locations needing it."""
    needing: dict[int, list[int]] = {}
    for position, value in enumerate(vector[_NEEDED : _NEEDED + S.NUM_LOCATIONS].tolist()):
        if value:
            needing.setdefault(int(value), []).append(position)
    return needing


def _put_hand_exact(hand: list[int], needing: dict[int, list[int]], vector: np.ndarray) -> None:
    """``hand_exact``: each Defense or Support card of the hand whose value a Location needs."""
    for slot, card in enumerate(hand[:HAND_MAX]):
        for position in _exact_at(card, needing):
            vector[_HAND_EXACT + S.NUM_LOCATIONS * slot + position] = 1


def _exact_at(card: int, needing: dict[int, list[int]]) -> list[int]:
    """The Locations where ``card`` (Defense or Support) meets the value needed exactly."""
    return needing.get(S.VALUE[card], []) if card < S.NUM_DEFENDING else []


def _put_pending(
    game: ValenorGame, player: int, vector: np.ndarray, needing: dict[int, list[int]]
) -> None:
    """The decision, who takes it, whose turn it is, and what the frames show (the card in
    play's exact hits among them)."""
    n, frames = game.num_players, game.frames
    if game.decision is not None:
        vector[_DECISION + game.decision] = 1
        vector[_DECIDER + (game.decider - player) % n] = 1
    vector[_ACTIVE + (game.active - player) % n] = 1
    vector[_TURN_STAGE + _turn_stage(frames)] = 1
    window, spirit, card = _frame_context(frames)
    if window >= 0:
        vector[_WINDOW_REASON + window] = 1
    if spirit >= 0:
        vector[_ACTING_SPIRIT + spirit] = 1
    if card >= 0:
        for where, value in _IN_PLAY[card]:
            vector[where] = value
        for position in _exact_at(card, needing):
            vector[_CARD_IN_PLAY_EXACT + position] = 1


def _put_locations(game: ValenorGame, previous: object, values: np.ndarray) -> None:
    """Encode again each Location that changed since the key ``previous`` (cards, devastated
    flags, Invaders, then each Defense stack; not a tuple if never encoded): its terrains,
    Invader value, Defense/Support counts and sum, and the value still needed."""
    rows = zip(game.locations, game.devastated, game.invader_at, game.defense_at, strict=True)
    for position, (large, devastated, invader, stack) in enumerate(rows):
        if isinstance(previous, tuple):
            was_card, was_devastated, was_invaded, *was_stacked = previous
            seen_before = (
                was_card[position],
                was_devastated[position],
                was_invaded[position],
                was_stacked[position],
            )
            if seen_before == (large, devastated, invader, stack):
                continue
        values[_LOCATION_AT[position]] = 0.0
        for at in _FACES[position][large][devastated]:
            values[at] = 1
        defended = 0
        if stack:
            for card in stack:
                values[_STACKED[position][card]] += 1
            defended = sum(S.VALUE[c] for c in stack)
            values[_AT["location_defense_sum"] + position] = defended
        if invader >= 0:
            values[_AT["location_invader"] + position] = S.VALUE[invader]
            values[_AT["location_needed"] + position] = S.VALUE[invader] - defended


def _decks_key(game: ValenorGame) -> tuple[Any, ...]:
    """The deck sizes, the top Invader's letter (-1: none) and the Invaders known at the bottom."""
    invaders = game.invader_deck
    top = _LETTER[invaders[-1]] if invaders else -1
    sizes = (len(game.defense_deck), len(game.support_deck), len(invaders))
    return (*sizes, top, invaders[: game.known_bottom])


def _put_decks(decks: tuple[Any, ...], values: np.ndarray) -> None:
    """The values of a :func:`_decks_key`."""
    *sizes, top, bottom = decks
    values[_AT["deck_sizes"] : _AT["deck_sizes"] + 3] = sizes
    if top >= 0:
        values[_AT["top_invader_letter"] + top] = 1
    for place, card in enumerate(bottom, 1):
        values[_AT["invaders_at_bottom"] + card - S.FIRST_INVADER] = place


def _put_seat(seat: int, seen: tuple[Any, ...], values: np.ndarray) -> None:
    """A seat's public rows: hand size and backs, spirit, signal."""
    hand, spirit, laid_out, signal = seen
    starts = _SEAT_STARTS[seat]
    values[starts["hand_sizes"]] = len(hand)
    backs = starts["hand_backs"]
    for index, card in enumerate(hand[:HAND_MAX]):
        values[backs + S.NUM_BACKS * index + S.BACK[card]] = 1
    if spirit >= 0:
        values[starts["spirit_of"] + spirit] = 1
    values[starts["spirit_out"]] = laid_out
    values[starts["signals"] + signal] = 1
