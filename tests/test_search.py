"""Search bots: they plan from the acting seat's information set only, reproducibly."""

from __future__ import annotations

import time

import numpy as np
import pytest
from tabletop_envs.agents.arena import MatchSpec, play_games
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.search import (
    InformationSet,
    ISMCTSAgent,
    PIMCAgent,
    estimate,
    heuristic_rollout,
    outcome,
    random_rollout,
    rollout,
)
from tabletop_envs.tools.report import summarise
from toygame.rules import HighCard
from toygame.spec import LAYOUT, Decision

from tabletop_envs import game_module, resolve_name
from tabletop_envs.core.game import GameCore
from tabletop_envs.core.rewards import score_margin_returns

STAKE_1, STAKE_2 = (LAYOUT.segment_of(Decision.STAKE).offset + option for option in (0, 1))
BOTS = [
    lambda seed: ISMCTSAgent(seed=seed, iterations=300),
    lambda seed: PIMCAgent(seed=seed, worlds=30, rollouts=2),
]


def staking_position(card: int) -> HighCard:
    """Two seats have kept their cards; seat 0, holding ``card``, stakes first."""
    game = HighCard(2, seed=3)
    holder = game.cards if card in game.cards else game.deck
    holder[holder.index(card)], game.cards[0] = game.cards[0], card
    game.apply(0)
    game.apply(0)
    return game


def make_game(name: str, players: int, seed: int) -> GameCore:
    return game_module(resolve_name(name)).Game(players, seed=seed)


def choose(bot, game: HighCard) -> int:
    bot.see(InformationSet(game, game.current_player))
    mask = game.legal_mask()
    return bot.act({"observation": game.observation(game.current_player), "action_mask": mask}, "p")


@pytest.mark.parametrize("make_bot", BOTS)
def test_stakes_high_on_a_sure_win_and_low_on_a_sure_loss(make_bot) -> None:
    assert choose(make_bot(0), staking_position(9)) == STAKE_2
    assert choose(make_bot(0), staking_position(0)) == STAKE_1


@pytest.mark.parametrize("make_bot", BOTS)
def test_the_same_seed_gives_the_same_move_and_the_game_is_untouched(make_bot) -> None:
    game = staking_position(5)
    before = game.to_json()
    assert choose(make_bot(7), game) == choose(make_bot(7), game)
    assert game.to_json() == before


def test_worlds_keep_the_seats_view_and_redraw_the_rest() -> None:
    game = staking_position(4)
    information = InformationSet(game, 0)
    rng = np.random.default_rng(1)
    worlds = [information.sample(rng) for _ in range(20)]
    assert all(np.array_equal(w.observation(0), game.observation(0)) for w in worlds)
    assert len({w.cards[1] for w in worlds}) > 3, "the other seat's card is redrawn"
    assert len({int(w.rng.integers(1 << 30)) for w in worlds}) == 20, "chance is reseeded"


def test_a_bot_without_its_information_set_says_so() -> None:
    game = staking_position(4)
    with pytest.raises(ValueError, match="needs the game"):
        ISMCTSAgent(seed=0).act({"action_mask": game.legal_mask()}, "player_0")
    with pytest.raises(ValueError, match="at least 1 iteration"):
        ISMCTSAgent(iterations=0)


@pytest.mark.parametrize("make_bot", BOTS)
def test_the_move_depends_only_on_the_seats_view(make_bot) -> None:
    """Hidden state redrawn with the same view: the same bot seed gives the same move."""
    for card in range(10):
        game = staking_position(card)
        redrawn = game.resample_hidden(0, np.random.default_rng(card))
        assert redrawn.cards[1] != game.cards[1] or redrawn.deck != game.deck
        assert choose(make_bot(card), game) == choose(make_bot(card), redrawn)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:x", "'ismcts:N' \\(N a positive whole number\\)"),
        ("ismcts:0", "at least 1"),
        ("pimc:10,c=2", "unknown setting 'c'"),
        ("ismcts:10,ms=fast", "ms='fast' is not a number"),
        ("pimc:5,rollout=greedy", "rollout must be 'random' or 'heuristic'"),
        ("ismcts:10,c=-1", "c=-1.0 must be an exploration constant of 0 or more"),
        ("ismcts:10,ms=-5", "ms=-5.0 must be a positive number of milliseconds"),
        ("ismcts:10,ms=nan", "ms=nan must be a positive number"),
        ("pimc:3,rollouts=0", "rollouts=0 must be at least 1 rollout"),
        ("pimc:3,depth=0", "depth=0 must be at least 1 decision"),
    ],
)
def test_bad_search_specs_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        agent_factory(spec, "highcard_v0")


@pytest.mark.parametrize(
    ("make_bot", "message"),
    [
        (lambda: ISMCTSAgent(iterations=5, exploration=-1.0), "exploration=-1.0 must be"),
        (lambda: ISMCTSAgent(iterations=5, milliseconds=0.0), "milliseconds=0.0 must be"),
        (lambda: PIMCAgent(worlds=2, rollouts=0), "rollouts=0 must be at least 1"),
    ],
)
def test_search_bots_built_in_python_refuse_settings_out_of_range(make_bot, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot()


def test_search_specs_build_configured_bots() -> None:
    bot = agent_factory("ismcts:50,ms=200,c=1.5", "highcard_v0")(3)
    assert isinstance(bot, ISMCTSAgent)
    assert (bot.budget.iterations, bot.budget.milliseconds, bot.exploration) == (50, 200.0, 1.5)
    bot = agent_factory("pimc:4,rollouts=2,rollout=heuristic", resolve_name("vaalbara"))(3)
    assert isinstance(bot, PIMCAgent) and (bot.budget.iterations, bot.rollouts) == (4, 2)


def test_a_search_bot_plays_a_reproducible_tournament() -> None:
    match = MatchSpec("highcard_v0", ("ismcts:60", "random"), seed=4)
    first, again = play_games(match, 30, workers=1), play_games(match, 30, workers=1)
    assert [r.to_dict() for r in first] == [r.to_dict() for r in again]
    summary = summarise(match, first, cooperative=False)
    assert summary["agents"][0]["mean_margin"] > summary["agents"][1]["mean_margin"]


def test_a_cut_off_rollout_stops_after_depth_decisions_and_values_the_position() -> None:
    game = make_game("valiant_wars", 2, seed=1)
    cut, full = game.clone(), game.clone()
    rng = np.random.default_rng(0)
    value = rollout(cut, random_rollout, np.random.default_rng(0), depth=80, value=outcome)
    for _ in range(80):
        full.apply_unchecked(random_rollout(full, rng))
    assert cut.to_json() == full.to_json() and not cut.is_terminal
    assert np.array_equal(value, score_margin_returns(cut.scores()))
    assert cut.scores() != [0.0, 0.0], "the position has a margin to value"
    ended = rollout(game.clone(), random_rollout, np.random.default_rng(0), value=outcome)
    assert sorted(ended) == [-1.0, 1.0], "played to the end: the game's own returns"


def test_a_cooperative_position_is_valued_by_its_progress() -> None:
    game = make_game("valenor", 3, seed=0)
    rng = np.random.default_rng(0)
    while game.progress() == 0:
        game.apply_unchecked(random_rollout(game, rng))
    assert np.allclose(estimate(game), game.progress() / 2), "going on: above any loss"
    rollout(game, random_rollout, rng)
    assert game.is_terminal and np.allclose(estimate(game), -1 + game.progress())
    assert np.array_equal(outcome(game), game.returns())


def test_search_specs_take_a_cut_off_and_a_value() -> None:
    bot = agent_factory("pimc:3,depth=12,value=margin", "highcard_v0")(0)
    assert (bot.depth, bot.value) == (12, estimate)
    bot = agent_factory("ismcts:3", "highcard_v0")(0)
    assert (bot.depth, bot.value) == (None, outcome)
    for spec, message in [
        ("ismcts:10,depth=0", "depth=0 must be at least 1 decision"),
        ("ismcts:10,value=score", "value must be one of \\['margin', 'win'\\]"),
        ("pimc:10,depth=x", "depth='x' is not a number"),
    ]:
        with pytest.raises(ValueError, match=message):
            agent_factory(spec, "highcard_v0")


def highest_action(world: GameCore, rng: np.random.Generator) -> int:
    """A rollout policy that differs from the lowest-action default."""
    return max(world.legal_actions())


def tie_position() -> GameCore:
    """A Valenor position with three choices or more, where a one-step rollout of any of
    them returns the same (a game still going, valued 0)."""
    game = make_game("valenor", 3, seed=4)
    while len(game.legal_actions()) < 3:
        game.apply(game.legal_actions()[0])
    return game


def test_the_rollout_policys_move_is_tried_first_and_wins_ties() -> None:
    """One iteration visits only the policy's own move; with returns all equal, the
    policy's move is kept over the lowest action."""
    game = tie_position()
    for iterations in (1, 3):
        bot = ISMCTSAgent(seed=0, iterations=iterations, rollout_policy=highest_action, depth=1)
        assert choose(bot, game) == max(game.legal_actions())


def test_pimc_keeps_the_rollout_policys_move_on_a_tie() -> None:
    """Every action's rollouts return the same: PIMC keeps the rollout policy's move, not
    the lowest action."""
    game = tie_position()
    for worlds in (1, 3):
        bot = PIMCAgent(seed=0, worlds=worlds, rollouts=2, rollout_policy=highest_action, depth=1)
        assert choose(bot, game) == max(game.legal_actions())


def test_a_tie_on_visits_keeps_the_policys_move_over_a_better_mean() -> None:
    """Seat 1 holds the best or the worst card and stakes last: one rollout of each stake
    shows the better one, but one visit each is a tie, which the policy's move keeps."""
    for card, worse in ((9, STAKE_1), (0, STAKE_2)):
        game = HighCard(2, seed=3)
        holder = game.cards if card in game.cards else game.deck
        holder[holder.index(card)], game.cards[1] = game.cards[1], card
        for action in (0, 0, STAKE_1):
            game.apply(action)
        assert game.current_player == 1 and len(game.legal_actions()) == 2

        def policy(world: GameCore, rng: np.random.Generator, worse: int = worse) -> int:
            return worse

        assert choose(ISMCTSAgent(seed=1, iterations=2, rollout_policy=policy), game) == worse
        assert choose(ISMCTSAgent(seed=1, iterations=60), game) != worse


def test_heuristic_rollouts_draw_from_the_generator_they_are_handed() -> None:
    """Vaalbara's bot samples the other seats' picks: a rollout policy used before plays the
    same rollout again from the same generator state (the bot's own generator, advanced by
    the earlier use, must not leak in), so a search reseeded by ``reset`` repeats itself."""
    policy = heuristic_rollout(resolve_name("vaalbara"), 0)
    start = make_game("vaalbara", 3, seed=2)

    def played(seed: int) -> list[int]:
        game, rng, actions = start.clone(), np.random.default_rng(seed), []
        while not game.is_terminal:
            actions.append(policy(game, rng))
            game.apply_unchecked(actions[-1])
        return actions

    first = played(1)
    assert played(1) == first
    assert any(played(seed) != first for seed in range(2, 6)), "the bot's draws matter"


class CutAtOnce:
    """A guide that searches every decision and values every position alike."""

    def searches(self, observation: np.ndarray) -> bool:
        return True

    def stage(self, game: GameCore) -> int:
        return 0

    def value(self, game: GameCore) -> np.ndarray:
        return np.zeros(game.num_players)


class CountingRollouts:
    """A rollout policy that plays the highest action and takes longer than the budget."""

    def __init__(self) -> None:
        self.first_moves = 0

    def __call__(self, game: GameCore, rng: np.random.Generator) -> int:
        self.first_moves += 1
        time.sleep(0.004)
        return max(game.legal_actions())


@pytest.mark.parametrize("guided", [False, True])
def test_pimc_stops_at_its_deadline_once_every_action_has_a_value(guided: bool) -> None:
    """``ms=1`` with rollouts slower than that: one round (a rollout of each action) and no
    more, however many worlds and rollouts a world the budget names."""
    game = tie_position()
    policy = CountingRollouts()
    guide = CutAtOnce() if guided else None
    bot = PIMCAgent(
        seed=0, worlds=5, rollouts=3, milliseconds=1.0, rollout_policy=policy, depth=1, guide=guide
    )
    legal = game.legal_actions()
    bot.search(InformationSet(game, game.current_player), legal)
    assert policy.first_moves == 1 + len(legal)  # the policy's own move, then one a rollout
