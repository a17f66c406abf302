"""The Spirit Island search guide (``guide=heuristic``): which decisions a search weighs, where
its rollouts stop and what a position is worth to the team."""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.invaders import lands_of, vitality
from tabletop_envs.spirit_island.observer import SCHEMA
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    BLIGHT_CARDS,
    INVADER_DAMAGE,
    INVADER_KINDS,
    SKIP_BIT,
)

SEARCHED_PURPOSES = frozenset(
    spec.PURPOSE[name] for name in ("growth", "presence_land", "play", "target_land")
)
"""The decisions a guided search weighs: what to grow, where Presence goes, which cards to
play and where each Power lands; the heuristic answers the rest."""
NON_TERMINAL = 0.9
"""The value of a position short of the end lies in [-0.9, 0.9]: below any win and above
any loss."""
WEIGHTS = {"fear": 0.3, "blight": 0.45, "invaders": 0.2, "presence": 0.05}
"""How much each of :func:`value_terms` counts in a position's worth (they sum to 1)."""
INVADER_SCALE = 20
"""Invader Damage per board at which the Invaders term reaches 0 (a board starts near 9)."""
PRESENCE_SCALE = 12
"""Presence on the island per Spirit at which the Presence term reaches 1."""


class IslandGuide:
    """Guides a search team (``guide=heuristic``) two turns ahead.

    It searches growth, Presence placement, card plays and Power targets; the heuristic bot
    answers every other decision and plays the rollouts, which stop when the next turn ends
    (after its Invader Phase: ``stages``). A position is worth, to every seat alike, the
    weighted sum (``WEIGHTS``) of :func:`value_terms`: the way to a Fear victory, the Blight
    left before defeat once the next Ravage has added what it will, the Invaders kept off the
    island and the Presence grown, scaled to [-0.9, 0.9]; a victory is worth 1 and a defeat -1,
    beyond every other position."""

    stages = 2
    """Rollouts play out this turn and the next (stages are turns): the next turn's Ravage is
    the Build card of this one, so a Town or City left standing now shows as Blight then, and
    the Terror Level's victories come into sight. Measured against rollouts cut at the end
    of this turn in benchmarks/log/search.md (issue 33)."""

    rollouts_per_world = 1
    """A guided PIMC's rollouts per world and action unless its spec sets ``rollouts=``: the
    heuristic plays a world's turn the same way every time (the generator only reshuffles an
    empty Power deck), so more rollouts of one world repeat the first."""

    def searches(self, observation: np.ndarray) -> bool:
        purpose = int(np.argmax(SCHEMA.decode(observation)["purpose"]))
        return purpose in SEARCHED_PURPOSES

    def stage(self, game: Any) -> int:
        return game.turn

    def value(self, game: Any) -> np.ndarray:
        if game.outcome:
            return np.full(game.num_players, float(game.outcome))
        terms = value_terms(game)
        worth = sum(WEIGHTS[name] * terms[name] for name in WEIGHTS)
        return np.full(game.num_players, NON_TERMINAL * (2 * worth - 1))


def value_terms(game: Any) -> dict[str, float]:
    """Each in [0, 1], 1 the better end: ``fear`` (:func:`fear_share`); ``blight``, the Blight
    the game can still take before it is lost (the card's side, and the Blighted Island side
    while the card has not flipped) less :func:`ravage_blight`, as a share of the game's
    whole Blight budget (its own Healthy side, which the difficulty sets, and the Blighted
    Island side); ``invaders``, their Damage on the island against ``INVADER_SCALE``
    per board; ``presence``, the Presence on the island against ``PRESENCE_SCALE`` per
    Spirit."""
    n = game.num_players
    blighted_side = BLIGHT_CARDS[game.blight_card][1] * n
    budget = game.healthy_blight() + blighted_side
    left = game.blight_pool + (0 if game.blighted else blighted_side)
    strength = sum(INVADER_DAMAGE[k] * row[k] for row in game.pieces for k in INVADER_KINDS)
    on_island = sum(map(sum, game.presence))
    return {
        "fear": fear_share(game),
        "blight": float(np.clip((left - ravage_blight(game)) / budget, 0, 1)),
        "invaders": 1.0 - min(1.0, strength / (INVADER_SCALE * n)),
        "presence": min(1.0, on_island / (PRESENCE_SCALE * n)),
    }


def fear_share(game: Any) -> float:
    """Fear cards earned, and the share of the next one, of the Fear deck."""
    pool = game.fear_per_card()
    return min(1.0, (game.cards_earned() + 1 - game.fear_pool / pool) / spec.FEAR_DECK_SIZE)


def ravage_blight(game: Any) -> int:
    """The Blight the Ravage card's lands would add if the Invaders there Ravaged now: one in
    each land whose Invaders deal 2 or more Damage past its Defend, and one more where Blight
    lies already (the cascade)."""
    added = 0
    for land in lands_of(game, game.invader_slots[0]):
        row = game.pieces[land]
        if game.skips[land] & SKIP_BIT[0]:
            continue
        damage = sum(INVADER_DAMAGE[k] * row[k] for k in INVADER_KINDS)
        if damage - game.defend[land] - vitality(game, land) >= 2:
            added += 1 + (row[BLIGHT] > 0)
    return added
