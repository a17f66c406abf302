"""The Valenor state machine's vocabulary: decisions, action segments, frames and stages.

Shared by the rules, the observation and the text render.
"""

from __future__ import annotations

from enum import IntEnum

from tabletop_envs.core.actions import ActionLayout
from tabletop_envs.valenor import cards as C

# ----- decisions and actions ---------------------------------------------------------------


class Decision(IntEnum):
    """The pending decision kinds; MOVE_TARGET shares the PLACE segment (a Location)."""

    CHOOSE_SPIRIT = 0
    SIGNAL = 1
    SPIRIT_WINDOW = 2
    PLAY_CARD = 3
    PLACE = 4
    DEVASTATE = 5
    MOVE_DEFENSE = 6
    MOVE_TARGET = 7
    BRING_TO_FRONT = 8


DECISIONS = tuple(kind.name.lower() for kind in Decision)
D_DRAFT, D_SIGNAL, D_WINDOW, D_PLAY, D_PLACE, D_DEVASTATE, D_MOVE_PICK, D_MOVE_TARGET, D_FRONT = (
    range(len(DECISIONS))
)
NO_DECISION = -1

NUM_MESSAGES = 36
"""Signals: 0 none; 1-15 ask for a small/medium/large Defense at a Location; 16-30 announce a
low/medium/high Invader for a terrain; 31-35 claim the Invader at a Location."""
ASK_DEFENSE, ANNOUNCE_INVADER, CLAIM_INVADER = 1, 16, 31
PASS_PLAY = C.NUM_PLAYABLE
"""The last ``play_card`` option: play no (further) card."""

LAYOUT = ActionLayout.for_decisions(
    Decision,
    {
        Decision.CHOOSE_SPIRIT: C.NUM_SPIRITS,
        Decision.SIGNAL: NUM_MESSAGES,
        Decision.SPIRIT_WINDOW: 2,
        Decision.PLAY_CARD: C.NUM_PLAYABLE + 1,
        Decision.PLACE: C.NUM_LOCATIONS,
        Decision.DEVASTATE: C.NUM_LOCATIONS,
        Decision.MOVE_DEFENSE: C.NUM_DEFENDING,
        Decision.MOVE_TARGET: Decision.PLACE,
        Decision.BRING_TO_FRONT: C.NUM_PLAYABLE,
    },
)
SEGMENT_OF_DECISION = tuple(segment.name for segment in LAYOUT.kind_segments)

# ----- frames ------------------------------------------------------------------------------
F_DRAFT, F_TURN, F_WINDOW, F_PLAY, F_SPIRIT = range(5)
# Turn stages: (F_TURN, stage, step, extra)
START, STEP1, STEP1_PLAY, AFTER_PLAY, OPTIONAL, OPTIONAL_DECIDE, DRAW = range(7)
# Window reasons: (F_WINDOW, reason, next_offset)
WINDOW_REASONS = ("before step 1", "before an extra play", "before step 2", "before devastation")
W_STEP1, W_EXTRA, W_STEP2, W_DEVASTATION = range(4)
# Card plays: (F_PLAY, player, card, own_turn, windowed)
# Spirit effects: (F_SPIRIT, player, spirit, stage, picked)
EFFECT, EFFECT_TARGET, EFFECT_DONE = range(3)

# ----- outcomes ----------------------------------------------------------------------------
ONGOING, WON, LOST = 0, 1, -1
LOSS_REASONS = {
    "terrain": "an Invader had to devastate a terrain left only on devastated Locations",
    "defense": "the Defense and Support left cannot add up to the Invaders left",
    "stalled": "no hand holds a card and both draw decks are empty, with Invaders left",
}

HAND_MAX = 40
"""Hand slots in the observation (hands past this length show their first 40 cards)."""
