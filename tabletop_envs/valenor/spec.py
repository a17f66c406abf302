"""Spirits of Valenor's spec: the cards, the scenarios, the decisions and the action layout.

Every card that can sit in a hand has an integer id: Defense ``0..27``, Support ``28..41``,
Invader ``42..57`` and the Nature Spirits ``58..61``. Tables indexed by id are built once at
import. The rulings behind the data (terrains, back letters, "+" symbols, the spirits and the
scenarios) are written with their reasons in ``docs/rules/valenor.md``.

Below the cards: the decision kinds and the action layout keyed by them, the signals, the
frames of the state machine as far as the observer and the text read them, and the outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from tabletop_envs.core.actions import ActionLayout

MAX_PLAYERS = 4

# ----- terrains and Location cards -------------------------------------------------------
TERRAINS = ("Grass", "Mountain", "Forest", "Lake", "Swamp")
GRASS, MOUNTAIN, FOREST, LAKE, SWAMP = range(5)
NUM_TERRAINS = len(TERRAINS)
NUM_LOCATIONS = 5

SMALL_TERRAIN = {SWAMP: LAKE, LAKE: MOUNTAIN, MOUNTAIN: FOREST, FOREST: GRASS, GRASS: SWAMP}
"""Location card (named by its large terrain) -> the small terrain its front also shows.

The five cards form one cycle, so every terrain is large on one card and small on another.
"""

# ----- hand cards ------------------------------------------------------------------------
NUM_DEFENSE = 28
DEFENSE_VALUES = tuple(value for value in range(1, 15) for _ in range(2))
SUPPORT_VALUES = (1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4)
NUM_SUPPORT = len(SUPPORT_VALUES)
INVADER_VALUES = tuple(range(6, 22))
NUM_INVADERS = len(INVADER_VALUES)
INVADER_TERRAINS = (
    MOUNTAIN, FOREST, LAKE, SWAMP, GRASS,  # 6-10
    MOUNTAIN, FOREST, GRASS, LAKE, SWAMP,  # 11-15
    GRASS, MOUNTAIN, FOREST, GRASS, LAKE,  # 16-20
    SWAMP,  # 21
)  # fmt: skip
LETTERS = ("A", "B", "C")
INVADER_LETTERS = tuple(0 if v <= 12 else 1 if v <= 16 else 2 for v in INVADER_VALUES)
"""Back letter per Invader: A = 6-12 (7 cards), B = 13-16 (4), C = 17-21 (5)."""

FIRST_SUPPORT = NUM_DEFENSE
FIRST_INVADER = FIRST_SUPPORT + NUM_SUPPORT
FIRST_SPIRIT = FIRST_INVADER + NUM_INVADERS
NUM_PLAYABLE = FIRST_SPIRIT
"""Defense, Support and Invader cards: everything that can be played from a hand."""
NUM_DEFENDING = FIRST_INVADER
"""Defense and Support cards: everything that can lie above a Location."""

DEFENSE_IDS = range(0, FIRST_SUPPORT)
SUPPORT_IDS = range(FIRST_SUPPORT, FIRST_INVADER)
INVADER_IDS = range(FIRST_INVADER, FIRST_SPIRIT)

# Card kinds, also the public card backs (an Invader's back shows its letter).
KIND_DEFENSE, KIND_SUPPORT, KIND_INVADER, KIND_SPIRIT = range(4)
BACK_DEFENSE, BACK_SUPPORT, BACK_A, BACK_B, BACK_C, BACK_SPIRIT = range(6)
BACK_NAMES = ("Defense", "Support", "Invader A", "Invader B", "Invader C", "Spirit")
NUM_BACKS = len(BACK_NAMES)


@dataclass(frozen=True)
class Spirit:
    """A Chapter 1 Nature Spirit: its name and ability text."""

    name: str
    ability: str


SPIRITS = (
    Spirit("Toni, the Lake Sprite", "Play 1 card of your choice from your hand now."),
    Spirit("Brom, the Stone Warden", "Move 1 Defense or Support card to another Location."),
    Spirit("Wisp, the Wind Spirit", "Move 1 card of your hand to its front."),
    Spirit("Fenna, the Fern Mother", "Draw 1 Defense card to the back of your hand."),
)
TONI, BROM, WISP, FENNA = range(4)
NUM_SPIRITS = len(SPIRITS)
NUM_CARDS = FIRST_SPIRIT + NUM_SPIRITS


def _table(dtype: type, build: dict[range, object]) -> np.ndarray:
    """An id-indexed table filled range by range."""
    table = np.zeros(NUM_CARDS, dtype=dtype)
    for ids, values in build.items():
        table[ids.start : ids.stop] = values
    return table


CARD_KIND = _table(
    np.int64,
    {
        DEFENSE_IDS: KIND_DEFENSE,
        SUPPORT_IDS: KIND_SUPPORT,
        INVADER_IDS: KIND_INVADER,
        range(FIRST_SPIRIT, NUM_CARDS): KIND_SPIRIT,
    },
)
CARD_VALUE = _table(
    np.int64,
    {DEFENSE_IDS: DEFENSE_VALUES, SUPPORT_IDS: SUPPORT_VALUES, INVADER_IDS: INVADER_VALUES},
)
CARD_TERRAIN = _table(np.int64, {INVADER_IDS: INVADER_TERRAINS})
CARD_LETTER = _table(np.int64, {INVADER_IDS: INVADER_LETTERS})
CARD_BACK = _table(
    np.int64,
    {
        DEFENSE_IDS: BACK_DEFENSE,
        SUPPORT_IDS: BACK_SUPPORT,
        INVADER_IDS: [BACK_A + letter for letter in INVADER_LETTERS],
        range(FIRST_SPIRIT, NUM_CARDS): BACK_SPIRIT,
    },
)
CARD_PLUS = _table(
    np.bool_,
    {
        DEFENSE_IDS: [value <= 3 for value in DEFENSE_VALUES],
        SUPPORT_IDS: [value == 1 for value in SUPPORT_VALUES],
    },
)
"""The "+" symbol: Defense 1-3 and the five Support 1s."""

# Plain-int copies for the per-step path (indexing numpy scalars is slow).
KIND = CARD_KIND.tolist()
VALUE = CARD_VALUE.tolist()
TERRAIN = CARD_TERRAIN.tolist()
BACK = CARD_BACK.tolist()
PLUS = CARD_PLUS.tolist()


def spirit_card(spirit: int) -> int:
    return FIRST_SPIRIT + spirit


def card_name(card: int) -> str:
    """A card in words, e.g. ``Defense 9``, ``Support 1+``, ``Invader 19 (Grass, C)``."""
    kind = KIND[card]
    plus = "+" if PLUS[card] else ""
    if kind == KIND_DEFENSE:
        return f"Defense {VALUE[card]}{plus}"
    if kind == KIND_SUPPORT:
        return f"Support {VALUE[card]}{plus}"
    if kind == KIND_INVADER:
        letter = LETTERS[CARD_LETTER[card]]
        return f"Invader {VALUE[card]} ({TERRAINS[TERRAIN[card]]}, {letter})"
    return SPIRITS[card - FIRST_SPIRIT].name


def invader_id(value: int) -> int:
    return FIRST_INVADER + value - INVADER_VALUES[0]


def defense_ids(value: int) -> tuple[int, int]:
    """The two Defense cards of ``value``."""
    return (2 * (value - 1), 2 * (value - 1) + 1)


# ----- scenarios ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Scenario:
    """A chapter's setup: Location layout, pre-devastated Locations, spirits, deck changes."""

    name: str
    description: str
    layout: tuple[int, ...]
    """Location cards left to right, each named by its large terrain."""
    devastated: tuple[int, ...] = ()
    """Positions (0 = leftmost) whose Location card starts on its devastated side."""
    spirits: tuple[int, ...] = (TONI, BROM, WISP, FENNA)
    """The unlocked Nature Spirits to choose from."""
    removed_supports: tuple[int, ...] = ()
    """Support card ids taken out of the game."""

    @property
    def support_ids(self) -> tuple[int, ...]:
        return tuple(card for card in SUPPORT_IDS if card not in self.removed_supports)


CHAPTER1_LAYOUT = (SWAMP, FOREST, LAKE, GRASS, MOUNTAIN)
SCENARIOS = {
    scenario.name: scenario
    for scenario in (
        Scenario("chapter1", "Chapter 1: all five Locations intact.", CHAPTER1_LAYOUT),
        Scenario(
            "scarred_valley",
            "The Lake Location (3rd) starts devastated: Mountain keeps only one Location.",
            CHAPTER1_LAYOUT,
            devastated=(2,),
        ),
        Scenario(
            "twin_blight",
            "Reversed layout; the Lake and Mountain Locations start devastated.",
            tuple(reversed(CHAPTER1_LAYOUT)),
            devastated=(0, 2),
        ),
        Scenario(
            "iron_tide",
            "As twin_blight, and two Support 1s are removed from the Support deck.",
            tuple(reversed(CHAPTER1_LAYOUT)),
            devastated=(0, 2),
            removed_supports=(FIRST_SUPPORT, FIRST_SUPPORT + 1),
        ),
    )
}
DEFAULT_SCENARIO = "chapter1"


# ----- decisions and actions ---------------------------------------------------------------
class Decision(IntEnum):
    """The decision kinds, in the order of their action segments; MOVE_TARGET (Brom's
    destination) shares the PLACE segment (a Location)."""

    CHOOSE_SPIRIT = 0
    SPIRIT_WINDOW = 1
    PLAY_CARD = 2
    PLACE = 3
    DEVASTATE = 4
    MOVE_DEFENSE = 5
    MOVE_TARGET = 6
    BRING_TO_FRONT = 7


# ----- table talk: the messages a player may say at a spirit window (with ``signalling``) ---
SAY_NOTHING, SAY_SHOWN, SAY_PLUS, SAY_DEFEAT_AT, SAY_INVADER = 0, 1, 2, 3, 8
NUM_MESSAGES = SAY_INVADER + 3 * NUM_TERRAINS
"""Messages about one's own hand, none naming a value: 0 nothing to say; 1 "I can defeat the
shown Invader" (only while an Invader is face up in the middle); 2 "I hold a +"; 3-7 "I can
defeat the Invader at Location k" (only where one stands); 8-22 "I hold a low/medium/high
Invader for terrain t" (8 + 5 * level + terrain). Cheap talk: never checked against the hand."""
INVADER_LEVELS = ("low", "medium", "high")
LEVEL_OF_VALUE = {v: 0 if v <= 11 else 1 if v <= 16 else 2 for v in INVADER_VALUES}
"""Low 6-11, medium 12-16, high 17-21 (the words of an honest speaker)."""
PASS_PLAY = NUM_PLAYABLE
"""The last ``play_card`` option: play no (further) card."""


def window_option(message: int, use: bool) -> int:
    """A ``spirit_window`` option: ``2 * message + use`` (0 pass, 1 use, without talk)."""
    return 2 * message + int(use)


LAYOUT = ActionLayout.for_decisions(
    Decision,
    {
        Decision.CHOOSE_SPIRIT: NUM_SPIRITS,
        Decision.SPIRIT_WINDOW: 2 * NUM_MESSAGES,
        Decision.PLAY_CARD: NUM_PLAYABLE + 1,
        Decision.PLACE: NUM_LOCATIONS,
        Decision.DEVASTATE: NUM_LOCATIONS,
        Decision.MOVE_DEFENSE: NUM_DEFENDING,
        Decision.MOVE_TARGET: Decision.PLACE,
        Decision.BRING_TO_FRONT: NUM_PLAYABLE,
    },
)

HAND_MAX = 40
"""Hand slots in the observation (hands past this length show their first 40 cards)."""

# ----- frames: the state machine's stack, as the observer and the text read it -------------
F_DRAFT, F_TURN, F_WINDOW, F_PLAY, F_SPIRIT = range(5)
"""Frame kinds, each frame a tuple of ints starting with its kind:
``(F_DRAFT,)``: the spirit draft (the bottom frame until every seat has a spirit);
``(F_TURN, stage, step, extra)``: the active seat's turn (the bottom frame after the draft);
``(F_WINDOW, reason, next_offset)``: a spirit window, asking seats from the active one on;
``(F_PLAY, player, card, own_turn, windowed)``: a card being played, face up on the table
(``windowed``: its face-up window was opened; only a play of one's own turn has one);
``(F_SPIRIT, player, spirit, stage, picked)``: a Nature Spirit's effect (``picked``: the
Defense card Brom moves, else -1). The rules own the stages of a turn after ``TURN_START``
and the stages of an effect."""
TURN_START = 0
"""A turn frame's first stage: before step 1."""
WINDOW_REASONS = (
    "before step 1",
    "before an extra play",
    "before step 2",
    "before devastation",
    "a played card face up",
    "after step 2",
)
W_STEP1, W_EXTRA, W_STEP2, W_DEVASTATION, W_FACE_UP, W_AFTER_STEP2 = range(6)
"""A window's reason; ``W_DEVASTATION`` is a face-up window whose Invader cannot be placed."""

# ----- outcomes ----------------------------------------------------------------------------
ONGOING, WON, LOST = 0, 1, -1
LOSS_REASONS = {
    "terrain": "an Invader had to devastate a terrain left only on devastated Locations",
    "defense": "the Defense and Support left cannot add up to the Invaders left",
    "stalled": "no hand holds a card and both draw decks are empty, with Invaders left",
}
