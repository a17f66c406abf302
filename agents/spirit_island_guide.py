"""The Spirit Island search guide (``guide=heuristic``): which decisions a search weighs, where
its rollouts stop and what a position is worth to the team."""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.invaders import lands_of
from tabletop_envs.spirit_island.observer import SCHEMA
from tabletop_envs.spirit_island.spec import INVADER_DAMAGE, INVADER_KINDS

SEARCHED_PURPOSES = frozenset(
    spec.PURPOSE[name] for name in ("growth", "presence_land", "play", "target_land")
)
"""The decisions a guided search weighs: what to grow, where Presence goes, which cards to
play and where each Power lands; the heuristic answers the rest."""
NON_TERMINAL = 0.9
"""The value of a position short of the end lies in [-0.9, 0.9]: below any win and above
any loss."""


class IslandGuide:
    """Guides a search team (``guide=heuristic``) one turn ahead.

    It searches growth, Presence placement, card plays and Power targets; the heuristic bot
    answers every other decision and plays the rollouts, which stop when the turn ends (after
    its Invader Phase). A position is worth, to every seat alike, half the way to a Fear
    victory (Fear cards earned, and the share of the next one) and half the Blight the card
    still holds once the next Ravage has added what it will (each land of the Ravage card
    whose Invaders deal 2 or more Damage), as a share of the card's fill: a search that looks
    only at Fear cannot see a Ravage that is about to end the game. A victory is worth 1 and a
    defeat -1, beyond every other position.
    """

    def searches(self, observation: np.ndarray) -> bool:
        purpose = int(np.argmax(SCHEMA.decode(observation)["purpose"]))
        return purpose in SEARCHED_PURPOSES

    def stage(self, game: Any) -> int:
        return game.turn

    def value(self, game: Any) -> np.ndarray:
        if game.outcome:
            return np.full(game.num_players, float(game.outcome))
        worth = 0.5 * fear_share(game) + 0.5 * blight_share_after_ravage(game)
        return np.full(game.num_players, NON_TERMINAL * (2 * worth - 1))


def fear_share(game: Any) -> float:
    """Fear cards earned, and the share of the next one, of the Fear deck."""
    pool = game.fear_per_card()
    return min(1.0, (game.cards_earned() + 1 - game.fear_pool / pool) / spec.FEAR_DECK_SIZE)


def blight_share_after_ravage(game: Any) -> float:
    """The Blight left on the card once the Ravage card's lands have Blighted, as a share of
    the card's fill (0 when that Ravage would empty it)."""
    threatened = sum(
        1
        for land in lands_of(game, game.invader_slots[0])
        if sum(INVADER_DAMAGE[k] * game.pieces[land][k] for k in INVADER_KINDS) - game.defend[land]
        >= 2
    )
    fill = (spec.HEALTHY_PER_PLAYER + 1) * game.num_players
    return float(np.clip((game.blight_pool - threatened) / fill, 0.0, 1.0))
