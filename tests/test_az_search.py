"""Network-guided search (``az:N``): legal and reproducible, led by a network's priors and
values, and its spec checked before any game."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tabletop_envs.agents.arena import MatchSpec, play_games
from tabletop_envs.agents.az import AZAgent, PolicyValueNetwork, _priors
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.agents.search import InformationSet
from test_az_network import exported
from toygame.observer import SCHEMA
from toygame.rules import HighCard
from toygame.spec import KEEP, LAYOUT, SWAP, Decision

REDRAW = LAYOUT.segment_of(Decision.REDRAW).offset
KEEP_ACTION, SWAP_ACTION = REDRAW + KEEP, REDRAW + SWAP


def hand_made(swap_logit: float = 0.0, swapper_wins: float = 0.0) -> PolicyValueNetwork:
    """A High Card network for 2 seats: the policy's logit of SWAP over KEEP is
    ``swap_logit``; each seat's value is about ``+swapper_wins`` if it swapped, else
    about ``-swapper_wins`` (0: no opinion)."""
    swapped = SCHEMA.offset("swapped")
    trunk = np.zeros((2, SCHEMA.size), dtype=np.float32)
    trunk[0, swapped], trunk[1, swapped + 1] = 10.0, 10.0  # relative seats 0 and 1
    logits_bias = np.zeros(LAYOUT.total, dtype=np.float32)
    logits_bias[SWAP_ACTION] = swap_logit
    value_out = np.eye(2, dtype=np.float32) * swapper_wins * 0.8
    policy = PolicyNetwork(
        [trunk, np.zeros((LAYOUT.total, 2), dtype=np.float32)],
        [np.full(2, 0.0, dtype=np.float32), logits_bias],
        "relu",
        {"game": "highcard_v0", "players": 2},
    )
    return PolicyValueNetwork(
        policy,
        [np.eye(2, dtype=np.float32), value_out],
        [np.zeros(2, dtype=np.float32), np.full(2, -4.0 * swapper_wins, dtype=np.float32)],
    )


def redraw_choice(bot: AZAgent, card: int = 5) -> int:
    """The bot's REDRAW choice as seat 0 holding ``card`` at the start of a game."""
    game = HighCard(2, seed=3)
    holder = game.cards if card in game.cards else game.deck
    holder[holder.index(card)], game.cards[0] = game.cards[0], card
    bot.see(InformationSet(game, 0))
    return bot.act({"observation": game.observation(0), "action_mask": game.legal_mask()}, "p0")


def test_hand_made_values_say_what_was_meant() -> None:
    """The network behind the tests below: a seat that swapped is valued +-0.96."""
    net = hand_made(swapper_wins=1.0)
    game = HighCard(2, seed=3)
    game.apply(SWAP_ACTION)  # seat 0 swaps; seat 1 (observer) sees it in relative row 1
    _, values = net.evaluate(game.observation(1))
    assert values[1] > 0.9 and values[0] < -0.9


@pytest.mark.parametrize("action, logit", [(SWAP_ACTION, 4.0), (KEEP_ACTION, -4.0)])
def test_the_search_follows_the_priors_when_values_are_silent(action: int, logit: float) -> None:
    bot = AZAgent(seed=0, iterations=20, network=hand_made(swap_logit=logit))
    assert redraw_choice(bot) == action
    assert bot.last_visits[action] > bot.last_visits[SWAP_ACTION + KEEP_ACTION - action]


@pytest.mark.parametrize("action, swapper_wins", [(SWAP_ACTION, 1.0), (KEEP_ACTION, -1.0)])
def test_a_winning_value_steers_the_search(action: int, swapper_wins: float) -> None:
    """Even against the priors: they favour the other move a little."""
    against = -1.0 if action == SWAP_ACTION else 1.0
    bot = AZAgent(seed=0, iterations=30, network=hand_made(against, swapper_wins))
    assert redraw_choice(bot) == action


def test_without_a_network_rollouts_judge() -> None:
    """Uniform priors and rollouts: holding the top card it keeps, holding the lowest it swaps."""
    assert redraw_choice(AZAgent(seed=1, iterations=200), card=9) == KEEP_ACTION
    assert redraw_choice(AZAgent(seed=1, iterations=200), card=0) == SWAP_ACTION


@pytest.mark.parametrize("share", [0.5, 0.9])
def test_a_policy_prior_leans_on_the_rollout_policys_move(share: float) -> None:
    """Without a network, ``prior=X`` puts X of each prior on the rollout policy's move."""
    bot = AZAgent(seed=0, policy_prior=share, rollout_policy=lambda game, rng: SWAP_ACTION)
    game = HighCard(2, seed=3)
    priors = _priors(bot._policy_logits(game), [KEEP_ACTION, SWAP_ACTION])
    np.testing.assert_allclose(priors, [(1 - share) / 2, share + (1 - share) / 2], rtol=1e-6)
    uniform = AZAgent(seed=0)._policy_logits(game)
    np.testing.assert_allclose(_priors(uniform, [KEEP_ACTION, SWAP_ACTION]), [0.5, 0.5])


def test_games_are_legal_and_reproducible(tmp_path: Path) -> None:
    net = exported(tmp_path / "net.npz")
    spec = f"az:6,net={net}"
    match = MatchSpec("valiant_wars_v3", (spec, "az:4,rollout=heuristic,depth=8"), seed=5)
    first = play_games(match, 1)  # the arena plays with illegal_action="raise"
    again = play_games(match, 1)
    assert [r.to_dict() for r in first] == [r.to_dict() for r in again]
    assert all(r.decisions > 20 for r in first)


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("az:5,net=nowhere.npz", "net= policy file nowhere.npz: no such file"),
        ("az:5,mix=0.5", "mix= blends a network with rollouts; give net="),
        ("az:5,net=pretrained", "the shipped valiant_wars_v3-2p.npz is a policy without a value"),
        ("az:0", "the budget must be at least 1"),
        ("az:5,mix=2", "mix=2.0 must be the rollouts' share"),
        ("az:5,guide=heuristic", "unknown setting 'guide'"),
        ("az:5,prior=0.5", "prior= favours the heuristic's move; it needs rollout=heuristic"),
        ("az:5,prior=1.5,rollout=heuristic", "prior=1.5 must be the heuristic move's share"),
    ],
)
def test_bad_specs_are_refused(spec: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem.replace("(", "\\(")):
        agent_factory(spec, "valiant_wars_v3", 2)


def test_a_network_for_another_game_is_refused(tmp_path: Path) -> None:
    net = exported(tmp_path / "net.npz")
    with pytest.raises(ValueError, match=r"net= policy file .* does not fit: game"):
        agent_factory(f"az:5,net={net}", "vaalbara_v1", 2)
    with pytest.raises(ValueError, match="prior= is for a search without net="):
        agent_factory(f"az:5,net={net},prior=0.5", "valiant_wars_v3", 2)
    with pytest.raises(ValueError, match="give mix="):
        agent_factory(f"az:5,net={net},rollout=heuristic", "valiant_wars_v3", 2)
