"""Guided search (``guide=heuristic``): Valiant Wars' push-your-luck steps searched to the end
of the reveal phase and valued by the heuristic's utility with the Battle decided."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from tabletop_envs.agents.heuristics import search_guide
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.search import (
    InformationSet,
    ISMCTSAgent,
    PIMCAgent,
    SearchAgent,
    heuristic_rollout,
    rollout,
)
from tabletop_envs.agents.valiant_wars_bot import RevealGuide

from benchmarks.search_speed import search_clock
from tabletop_envs.valiant_wars.rules import ValiantWarsGame
from tabletop_envs.valiant_wars.spec import (
    BUYING,
    LOCATIONS,
    OMEN,
    REVEALING,
    STOP,
    Decision,
    Kind,
)

GAME = "valiant_wars_v3"
GUIDED = ["pimc:6,rollouts=1,guide=heuristic", "ismcts:12,guide=heuristic"]


def heuristic_positions(seed: int, to_the_end: bool = False) -> Iterator[ValiantWarsGame]:
    """Every state of a 2-player game between heuristic bots (the game itself, played on;
    ``to_the_end``: the ended game too)."""
    game = ValiantWarsGame(2, seed=seed)
    policy, rng = heuristic_rollout(GAME, seed), np.random.default_rng(seed)
    while not game.is_terminal:
        yield game
        game.apply_unchecked(policy(game, rng))
    if to_the_end:
        yield game


def risky(game: ValiantWarsGame) -> bool:
    """Reference: REVEAL or STOP with an Omen face up and no unused Saint face up."""
    seat = game.current_player
    if game.pending_kind() != Decision.REVEAL_OR_STOP or not game.count_face_up(seat, OMEN):
        return False
    saints = [
        pos
        for pos in game.champion_positions(seat)
        if game.face_up[seat][pos] and game.effect_kind(seat, pos) == Kind.SAINT
    ]
    return all(game.used[seat][pos] for pos in saints)


def choose(bot: SearchAgent, game: ValiantWarsGame) -> int:
    seat = game.current_player
    bot.see(InformationSet(game, seat))
    observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
    return bot.act(observation, f"player_{seat}")


def test_the_guide_searches_exactly_the_risky_reveal_steps() -> None:
    guide, counts, saved_by_saint = RevealGuide(), {True: 0, False: 0}, 0
    for seed in range(12):
        for game in heuristic_positions(seed):
            expected = risky(game)
            assert guide.searches(game.observation(game.current_player)) == expected
            counts[expected] += 1
            seat = game.current_player
            omen_up = game.count_face_up(seat, OMEN) if seat >= 0 else 0
            kind = game.pending_kind()
            saved_by_saint += kind == Decision.REVEAL_OR_STOP and omen_up and not expected
    assert counts[True] > 100 and counts[False] > 1000 and saved_by_saint > 0


def test_the_guide_values_the_battle_that_follows() -> None:
    """When a reveal phase ends, the guide gives each seat its fixed Gold plus 3 per VP of the
    Location if it wins the Battle that follows (30 more if that wins the game), minus the
    other seat's."""
    guide, checked, ties, game_ends = RevealGuide(), 0, 0, 0
    for seed in range(8):
        pending = None
        for game in heuristic_positions(seed, to_the_end=True):
            if pending is None and game.phase == BUYING:
                value = guide.value(game)
                gold = [game.gold(seat) for seat in (0, 1)]
                pending = (game.round, value, gold, LOCATIONS[game.location].vp)
            elif pending is not None and (game.round != pending[0] or game.is_terminal):
                _, value, gold, location_vp = pending
                _, winner, *swords = game.last_battle
                worth = [float(gold[seat]) for seat in (0, 1)]
                if winner in (0, 1):
                    ends = game.vp[winner] >= game.target
                    worth[winner] += 3.0 * location_vp + 30.0 * ends
                    game_ends += ends
                margin = (worth[0] - worth[1]) / 30.0
                assert value.tolist() == pytest.approx([margin, -margin])
                pending, checked = None, checked + 1
                ties += swords[0] == swords[1] > 0
    assert checked >= 30 and ties > 0 and game_ends >= 6


def test_a_guided_rollout_stops_when_the_reveal_phase_ends() -> None:
    """The rollout ends at the first position past the reveal phase, where the heuristic's own
    game goes on from the same start."""
    game = next(g for g in heuristic_positions(3) if risky(g)).clone()
    bot = PIMCAgent(seed=0, guide=RevealGuide(), rollout_policy=heuristic_rollout(GAME, 0))
    world, stepped = game.clone(), game.clone()
    value = rollout(world, bot.rollout_policy, bot.rng, value=bot.value, within=bot._within(game))
    while stepped.round == game.round and stepped.phase == REVEALING:
        stepped.apply_unchecked(bot.rollout_policy(stepped, bot.rng))
    assert world.to_json() == stepped.to_json() and not world.is_terminal
    assert np.array_equal(value, RevealGuide().value(world))


def test_a_sure_battle_is_stopped_not_risked() -> None:
    """The rival is OUT and the seat leads with an Omen up: STOP takes the Location for sure,
    REVEAL may lose it; both guided bots STOP."""
    for seed in range(40):
        spot = next(
            (
                g
                for g in heuristic_positions(seed)
                if risky(g) and g.out[1 - g.current_player] and g.swords(g.current_player) > 0
            ),
            None,
        )
        if spot is not None and spot.decks[spot.current_player].count(OMEN):
            break
    else:
        pytest.fail("no position with the rival OUT and a risky reveal")
    for spec in GUIDED:
        assert choose(agent_factory(spec, GAME)(1), spot) == STOP


@pytest.mark.parametrize("spec", GUIDED)
def test_a_guided_move_depends_only_on_the_seats_view(spec: str) -> None:
    tried = 0
    for index, game in enumerate(heuristic_positions(5)):
        if not risky(game):
            continue
        seat = game.current_player
        redrawn = game.resample_hidden(seat, np.random.default_rng(index))
        make = agent_factory(spec, GAME)
        assert choose(make(index), game) == choose(make(index), redrawn)
        tried += 1
        if tried == 4:
            return
    pytest.fail("too few risky positions")


def test_unsearched_decisions_get_the_heuristics_move() -> None:
    heuristic = heuristic_rollout(GAME, 0)
    bot = agent_factory("ismcts:3,guide=heuristic", GAME)(0)
    compared = 0
    for game in heuristic_positions(6):
        if len(game.legal_actions()) > 1 and not risky(game):
            assert choose(bot, game) == heuristic(game, np.random.default_rng(0))
            compared += 1
    assert compared > 50


def test_guided_specs_build_and_bad_ones_name_the_problem() -> None:
    bot = agent_factory("ismcts:30,guide=heuristic", GAME)(0)
    assert isinstance(bot, ISMCTSAgent) and isinstance(bot.guide, RevealGuide)
    assert bot.value == bot.guide.value
    assert isinstance(search_guide(GAME), RevealGuide)
    for spec, game, message in [
        ("pimc:4,guide=best", GAME, "guide must be 'heuristic'"),
        ("pimc:4,guide=heuristic,rollout=random", GAME, "rollout= does not go with guide"),
        ("ismcts:4,guide=heuristic,value=margin", GAME, "value= does not go with guide"),
        ("pimc:4,guide=heuristic,stages=2", GAME, "stages=2 needs a guide whose stages are"),
        ("pimc:4,rollout=heuristic,stages=2", GAME, "stages=2 needs a guide whose stages are"),
        ("pimc:4,guide=heuristic,stages=0", "spirit_island_v1", "stages=0 must be at least 1"),
        (
            "ismcts:4,guide=heuristic",
            "vaalbara_v1",
            "no search guide .* \\['spirit_island_v1', 'valiant_wars_v3'\\]",
        ),
    ]:
        with pytest.raises(ValueError, match=message):
            agent_factory(spec, game)


def test_the_search_clock_counts_the_moves_the_guide_searched() -> None:
    bot, searched, moves = agent_factory("pimc:2,rollouts=1,guide=heuristic", GAME)(0), 0, 0
    with search_clock() as clock:
        for game in heuristic_positions(7):
            if len(game.legal_actions()) > 1:
                choose(bot, game)
                searched, moves = searched + risky(game), moves + 1
    assert (clock["searched"], clock["moves"]) == (searched, moves)
    assert 0 < searched < moves


def test_a_guided_tree_branches_only_on_the_searching_seats_searched_steps() -> None:
    """The heuristic plays the rival and the seat's unsearched steps inside the tree too."""
    game = next(g for g in heuristic_positions(8) if risky(g))
    seat, trees = game.current_player, []
    bot = agent_factory("ismcts:60,guide=heuristic", GAME)(0)
    descend = bot._descend

    def descend_noted(node, world, within, first=None):
        trees.append(node)
        return descend(node, world, within, first)

    bot._descend = descend_noted
    choose(bot, game)
    nodes, depth = list(trees[0].children.values()), 0
    while nodes:
        assert all(node.seat == seat for node in nodes)
        nodes, depth = [c for node in nodes for c in node.children.values()], depth + 1
    assert depth >= 2, "the seat's later steps of the phase are in the tree"
