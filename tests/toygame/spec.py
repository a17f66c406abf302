"""High Card's spec: the cards, the decision kinds and the action layout keyed by them."""

from __future__ import annotations

from enum import IntEnum

from tabletop_envs.core.actions import ActionLayout

MAX_PLAYERS = 4
CARDS = 10
"""Cards 0..9, one of each."""
STAKES = (1, 2)


class Decision(IntEnum):
    """The decision kinds, in the order of their action segments."""

    REDRAW = 0
    STAKE = 1


KEEP, SWAP = 0, 1
LAYOUT = ActionLayout.for_decisions(Decision, {Decision.REDRAW: 2, Decision.STAKE: len(STAKES)})
