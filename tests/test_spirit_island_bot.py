"""The scripted Spirit Island team bot: registered, legal, and ahead of the random team."""

from __future__ import annotations

import numpy as np
import pytest
from tabletop_envs.agents import spirit_island_bot as bot_module
from tabletop_envs.agents.base import InformationSet, RandomAgent
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.spirit_island_bot import SpiritIslandHeuristicAgent

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
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


@pytest.mark.parametrize(("players", "level"), [(1, "base"), (2, "hard"), (3, "easy"), (4, "base")])
def test_reading_the_game_itself_chooses_as_reading_the_observation(
    players: int, level: str
) -> None:
    """``act_in`` (a search's rollouts: the world itself) against ``act`` (the observation
    and the mask) at every decision of seeded games, the bot's moves mixed with random ones
    so positions the bot would avoid are asked too."""
    bot, rng = SpiritIslandHeuristicAgent(seed=0), np.random.default_rng(players)
    for seed in range(2):
        game = SpiritIslandGame(players, seed=seed, difficulty=level)
        while not game.is_terminal:
            seat = game.current_player
            observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
            action = bot.act(observation, f"player_{seat}")
            assert bot.act_in(game, seat) == action, game.action_to_str(action)
            if rng.random() < 0.3:
                action = int(rng.choice(game.legal_actions()))
            game.apply(action)


@pytest.mark.parametrize(("players", "level"), [(1, "base"), (2, "hard"), (4, "easy")])
def test_what_the_bot_keeps_between_decisions_changes_no_choice(
    players: int, level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The land gains kept between decisions (``GAINS``), the island readings with the
    reaches they keep (``READINGS``) and the views ``act_in`` keeps, against the bot deciding
    afresh from the observation, at every decision of two-turn rollouts in sampled worlds (as
    a guided search meets them) from positions of a seeded game, the bot's moves mixed with
    random ones."""
    keeping, rng = SpiritIslandHeuristicAgent(seed=0), np.random.default_rng(players)

    def afresh(game: SpiritIslandGame, seat: int) -> int:
        kept = bot_module.GAINS, bot_module.READINGS
        monkeypatch.setattr(bot_module, "GAINS", {})
        monkeypatch.setattr(bot_module, "READINGS", {})
        observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
        choice = SpiritIslandHeuristicAgent(seed=0).act(observation, f"player_{seat}")
        monkeypatch.setattr(bot_module, "GAINS", kept[0])
        monkeypatch.setattr(bot_module, "READINGS", kept[1])
        return choice

    game, checked = SpiritIslandGame(players, seed=7, difficulty=level), 0
    while not game.is_terminal:
        if rng.random() < 0.1:
            for _ in range(2):
                world = InformationSet(game, game.current_player).sample(rng)
                turn = world.turn
                while not world.is_terminal and world.turn < turn + 2:
                    seat = world.current_player
                    action = keeping.act_in(world, seat)
                    assert action == afresh(world, seat), world.action_to_str(action)
                    world.apply(action)
                    checked += 1
        action = keeping.act_in(game, game.current_player)
        game.apply(action if rng.random() < 0.7 else int(rng.choice(game.legal_actions())))
    assert checked > 300
