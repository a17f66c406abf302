"""The scripted Spirit Island team bot: registered, legal, and ahead of the random team."""

from __future__ import annotations

import numpy as np
import pytest
from tabletop_envs.agents.base import RandomAgent
from tabletop_envs.agents.heuristics import heuristic_agent, search_guide
from tabletop_envs.agents.spirit_island_bot import SpiritIslandHeuristicAgent
from tabletop_envs.agents.spirit_island_guide import NON_TERMINAL

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.invaders import lands_of
from tabletop_envs.spirit_island.rules import SpiritIslandGame


def play(players: int, seed: int, make: type) -> SpiritIslandGame:
    game = SpiritIslandGame(players, seed=seed)
    agents = [make(seed=seed + seat) for seat in range(players)]
    while not game.is_terminal:
        seat = game.current_player
        mask = np.zeros(spec.LAYOUT.total, dtype=np.int8)
        mask[game.legal_actions()] = 1
        observation = {"observation": game.observation(seat), "action_mask": mask}
        action = agents[seat].act(observation, f"player_{seat}")
        assert mask[action], game.action_to_str(action)
        game.apply(action)
    return game


def test_registered_as_the_heuristic() -> None:
    assert isinstance(heuristic_agent("spirit_island_v1"), SpiritIslandHeuristicAgent)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_plays_whole_games_with_legal_actions(players: int) -> None:
    game = play(players, seed=players, make=SpiritIslandHeuristicAgent)
    assert game.outcome in (-1, 1)


def test_holds_out_longer_than_the_random_team() -> None:
    bot = [play(1, seed, SpiritIslandHeuristicAgent).progress() for seed in range(20)]
    rnd = [play(1, seed, RandomAgent).progress() for seed in range(20)]
    assert np.mean(bot) > np.mean(rnd) + 0.03


# ----- the search guide (guide=heuristic) ---------------------------------------------------
def positions(players: int, seed: int) -> list[SpiritIslandGame]:
    """Every decision of a seeded random game, as clones."""
    game, rng, seen = SpiritIslandGame(players, seed=seed), np.random.default_rng(seed), []
    while not game.is_terminal:
        seen.append(game.clone())
        game.apply(int(rng.choice(game.legal_actions())))
    return seen


def test_the_guide_searches_growth_presence_plays_and_targets_only() -> None:
    guide = search_guide("spirit_island_v1")
    searched = {spec.PURPOSE[name] for name in ("growth", "presence_land", "play", "target_land")}
    kinds = set()
    for game in positions(2, 3):
        purpose = game.pending[2]
        kinds.add(purpose)
        seat = game.current_player
        assert guide.searches(game.observation(seat)) == (purpose in searched), purpose
        assert guide.stage(game) == game.turn
    assert searched <= kinds and kinds - searched, "the game shows both kinds"


def calm_before_a_ravage(game: SpiritIslandGame) -> SpiritIslandGame:
    """``game`` with no Invaders in the lands of its Ravage card, 2 Blight on the card and
    Fear left to earn before the next card."""
    calm = game.clone()
    for land in lands_of(calm, calm.invader_slots[0]):
        for kind in spec.INVADER_KINDS:
            calm.pieces[land][kind] = 0
    calm.blight_pool, calm.fear_pool = 2, max(2, calm.fear_pool)
    return calm


def test_the_guide_values_what_wins_and_what_loses() -> None:
    guide = search_guide("spirit_island_v1")
    game = calm_before_a_ravage(next(g for g in positions(1, 4) if g.invader_slots[0] >= 0))
    base = float(guide.value(game)[0])
    assert -NON_TERMINAL < base < NON_TERMINAL
    less_blight = game.clone()
    less_blight.blight_pool -= 1
    assert guide.value(less_blight)[0] < base
    more_fear = game.clone()
    more_fear.fear_pool -= 1
    assert guide.value(more_fear)[0] > base
    threatened = game.clone()
    threatened.pieces[lands_of(threatened, threatened.invader_slots[0])[0]][spec.CITY] = 1
    assert guide.value(threatened)[0] < base  # the next Ravage will Blight that land
    won, lost = game.clone(), game.clone()
    won.outcome, lost.outcome = 1, -1
    assert guide.value(won)[0] == 1.0 and guide.value(lost)[0] == -1.0
    assert (guide.value(game) == base).all(), "one value for the whole team"
