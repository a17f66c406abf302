"""The Valenor heuristic team bot: legal actions only, and it beats the random team."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from tabletop_envs.agents.base import Agent, RandomAgent
from tabletop_envs.agents.valenor_bot import Table, ValenorHeuristicAgent, placeable_values

from benchmarks import heuristic_choices
from tabletop_envs import valenor_v2
from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.observer import SCHEMA
from tabletop_envs.valenor.rules import ValenorGame, invader_spots

GAMES = 200


def team_game(make_agent: type[Agent], players: int, seed: int, **options: object) -> ValenorGame:
    """One game with a whole team of ``make_agent``; illegal actions raise."""
    env = valenor_v2.raw_env(num_players=players, illegal_action="raise", **options)
    env.reset(seed=seed)
    agents = [make_agent(seed=seed * 7 + seat) for seat in range(players)]
    game = env.game
    while not game.is_terminal:
        name = f"player_{game.current_player}"
        observation = env.observe(name)
        action = agents[game.current_player].act(observation, name)
        assert observation["action_mask"][action], "the bot chose a masked action"
        env.step(action)
    return game


def test_bot_plays_only_legal_actions_in_every_setting() -> None:
    for players in (2, 3, 4):
        for scenario, signalling in (("chapter1", True), ("iron_tide", False)):
            for seed in range(3):
                game = team_game(
                    ValenorHeuristicAgent, players, seed, scenario=scenario, signalling=signalling
                )
                assert game.is_terminal and game.decisions <= ValenorGame.MAX_DECISIONS


def test_bot_team_beats_the_random_team() -> None:
    bot = [team_game(ValenorHeuristicAgent, 2, seed) for seed in range(GAMES)]
    rand = [team_game(RandomAgent, 2, seed) for seed in range(GAMES)]
    bot_wins = sum(g.outcome == 1 for g in bot)
    rand_wins = sum(g.outcome == 1 for g in rand)
    assert bot_wins >= rand_wins + GAMES // 10, (bot_wins, rand_wins)
    assert np.mean([g.progress() for g in bot]) > np.mean([g.progress() for g in rand]) + 0.4


def bots_play_until(game: ValenorGame, done: Callable[[ValenorGame], bool]) -> None:
    """Every seat plays the bot until ``done(game)``."""
    bot = ValenorHeuristicAgent()
    while not done(game):
        seat = game.current_player
        observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
        game.apply(bot.act(observation, f"player_{seat}"))


def test_bot_takes_direct_hits_in_step_1_and_step_2() -> None:
    game = ValenorGame(3, seed=0)
    d = S.defense_ids
    game.arrange(
        hands=[[d(10)[0], d(7)[0]], [d(5)[0]], [d(6)[0]]],
        invaders={1: S.invader_id(13), 3: S.invader_id(19)},
        defense={1: [d(6)[1]], 3: [d(9)[0]]},
        spirits=(S.WISP, S.BROM, S.FENNA),
    )
    bots_play_until(game, lambda g: g.active != 0)
    assert {S.invader_id(13), S.invader_id(19)} <= set(game.discards)
    assert len(game.support_deck) == 12, "two Direct Hits, two Supports"


def test_bot_keeps_low_defense_instead_of_wasting_it() -> None:
    game = ValenorGame(3, seed=0)
    d = S.defense_ids
    game.arrange(
        hands=[[d(9)[0], d(2)[0], d(11)[0]], [d(5)[0]], [d(6)[0]]],
        invaders={1: S.invader_id(13), 3: S.invader_id(19)},
        spirits=(S.BROM, S.WISP, S.FENNA),
    )
    bots_play_until(game, lambda g: g.active != 0)
    assert game.defense_at[1] == [d(9)[0]], "9 toward 13 leaves 4 for an exact finish"
    assert d(2)[0] in game.hands[0] and d(11)[0] in game.hands[0], "nothing else is wasted"


def test_placeable_values_agree_with_the_rules_placement() -> None:
    rng = np.random.default_rng(0)
    values = [0, *S.INVADER_VALUES]
    for _ in range(3000):
        invaders = [int(rng.choice(values)) if rng.random() < 0.5 else 0 for _ in range(5)]
        terrains = [
            tuple(
                int(t) for t in rng.choice(S.NUM_TERRAINS, size=rng.integers(1, 3), replace=False)
            )
            for _ in range(5)
        ]
        bits = placeable_values(invaders, terrains)
        for value in S.INVADER_VALUES:
            spots = invader_spots(invaders, terrains, S.TERRAIN[S.invader_id(value)], value)
            assert bool(bits >> value & 1) == bool(spots), (invaders, terrains, value)


CHOICES_AT_C46F8AD = {2: "315d1ba262430901", 3: "2ebe2217dd05e2ed", 4: "09c89b2ea1fdbb99"}
"""``heuristic_choices.fingerprint("valenor_v2", players, 4)`` of the bot before its speed work
(commit ``c46f8ad``): a faster bot must make the same choices."""


def test_the_bot_makes_the_choices_it_made_before_its_speed_work() -> None:
    for players, digest in CHOICES_AT_C46F8AD.items():
        fingerprint = heuristic_choices.fingerprint("valenor_v2", players, 4)
        assert fingerprint.digest.hexdigest()[:16] == digest, players


def test_the_hand_is_read_card_by_card_and_a_malformed_kind_row_is_named() -> None:
    game = ValenorGame(2, seed=0)
    d = S.defense_ids
    game.arrange(hands=[[d(9)[0], S.invader_id(13), d(2)[0]], [d(5)[0]]])
    vector = game.observation(0)
    table = Table(vector)
    assert table.hand == [(S.KIND_DEFENSE, 9), (S.KIND_INVADER, 13), (S.KIND_DEFENSE, 2)]
    assert table.cards.defense == [9, 2] and table.cards.invaders == [13]
    assert table.cards.values == [9, 0, 2]
    at = SCHEMA.offset("hand_kind")
    vector[at : at + 2] = 1.0  # the front card shows two kinds
    with pytest.raises(ValueError, match="hand_kind row must be one-hot or empty"):
        Table(vector).hand  # noqa: B018 (reading the hand decodes it)
