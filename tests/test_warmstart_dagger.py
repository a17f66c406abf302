"""DAgger rounds of the warm start: the bot labels the states the policy itself reaches."""

from __future__ import annotations

import contextlib
import inspect
import io
import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from tabletop_envs.agents.base import RandomAgent
from tabletop_envs.agents.gym_env import BotOpponent
from tabletop_envs.agents.loading import make_agent
from tabletop_envs.training import warmstart
from tabletop_envs.training.config import config_from_mapping
from tabletop_envs.training.export import export_actor
from tabletop_envs.training.selfplay import SelfPlayVecEnv
from tabletop_envs.training.train import main as train_main

import tabletop_envs


def lowest_legal(_seat: int, _observation: np.ndarray, mask: np.ndarray, _label: int) -> int:
    return int(np.flatnonzero(mask)[0])


def test_labels_are_the_bots_choices_on_the_states_the_driver_reached() -> None:
    """Valenor's heuristic keeps a plan, so it must be asked at every decision of its seat."""
    cloning = warmstart.Cloning("valenor_v2", 3, "heuristic")
    labelled = warmstart.label_games(cloning, 150, 7, lambda _game: lowest_legal)
    data = labelled.data
    state = tabletop_envs.game_module("valenor_v2").Game(3, seed=7 * 100_003)
    bots = [make_agent("heuristic", "valenor_v2", seed=7 + seat, players=3) for seat in range(3)]
    for index in range(len(data.actions)):
        if state.is_terminal:
            break
        seat, mask = state.current_player, state.legal_mask()
        view = {"observation": state.observation(seat), "action_mask": mask}
        assert np.array_equal(data.observations[index], view["observation"]), index
        assert data.actions[index] == bots[seat].act(view, f"player_{seat}"), index
        state.apply(int(np.flatnonzero(mask)[0]))
    assert len(data.actions) >= 150
    assert labelled.agreed == int((data.actions == data.masks.argmax(axis=1)).sum())
    assert 0 < labelled.agreement < 1, "the bot does not always play the lowest action"
    own = warmstart.collect(warmstart.Cloning("valenor_v2", 3, "heuristic", seed=7), 150)
    steps = min(len(own.actions), len(data.actions))
    assert not np.array_equal(own.observations[:steps], data.observations[:steps]), (
        "the labelled states are the driver's, not the bot's own trajectory"
    )


@pytest.fixture
def policy():
    vec = SelfPlayVecEnv("vaalbara_v1", 2, 2, lambda: BotOpponent(RandomAgent(0), "random"))
    return MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0).policy


def test_each_round_plays_the_policy_greedily_and_clones_on_all_data(policy, monkeypatch) -> None:
    """The agreement is the greedy policy's own; every re-clone sees all earlier data."""
    network = export_actor(policy, "tanh", {})
    first = warmstart.collect(warmstart.Cloning("vaalbara_v1", 2, "heuristic"), 60)
    seen: list[warmstart.Demonstrations] = []
    monkeypatch.setattr(warmstart, "clone_into", lambda _p, data, *_: seen.append(data))
    cloning = warmstart.Cloning(
        "vaalbara_v1", 2, "heuristic", activation="tanh", epochs=1, batch_size=32
    )
    data, agreements = warmstart.dagger(policy, first, cloning, rounds=3, decisions=50)
    sizes = [len(d.actions) for d in seen]
    assert len(seen) == 3 and sizes[0] >= len(first.actions) + 50
    assert all(later >= earlier + 50 for earlier, later in itertools.pairwise(sizes))
    assert seen[-1] is data and np.array_equal(data.observations[:60], first.observations[:60])
    start = len(first.actions)
    for agreement, aggregate in zip(agreements, seen, strict=True):
        new = slice(start, len(aggregate.actions))
        chosen = network.choose(aggregate.observations[new], aggregate.masks[new], None)
        assert agreement == pytest.approx((chosen == aggregate.actions[new]).mean())
        start = len(aggregate.actions)


def test_dagger_rounds_run_from_the_config_and_are_reported(tmp_path: Path) -> None:
    (tmp_path / "dagger.toml").write_text(
        'warm_start_bot = "heuristic"\nwarm_start_decisions = 100\nwarm_start_epochs = 1\n'
        "warm_start_dagger_rounds = 2\nwarm_start_dagger_decisions = 50\n"
        "n_envs = 2\nn_steps = 16\nbatch_size = 32\nfinal_eval_games = 2\n"
    )
    out, err = io.StringIO(), io.StringIO()
    args = ["vaalbara", "--steps", "1", "--config", str(tmp_path / "dagger.toml")]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert train_main([*args, "--out", str(tmp_path / "run")]) == 0, err.getvalue()
    assert "DAgger round 2: the policy chose the bot's action on" in out.getvalue()
    assert "agreement on the policy's own states: " in out.getvalue()
    assert "2 DAgger rounds)" in out.getvalue()


@pytest.mark.parametrize(
    ("key", "value", "accepted"),
    [
        ("warm_start_dagger_rounds", -1, "a whole number >= 0"),
        ("warm_start_dagger_rounds", 1.5, "a whole number >= 0"),
        ("warm_start_dagger_decisions", 0, "a whole number >= 1"),
        ("warm_start_dagger_decisions", "many", "a whole number >= 1"),
    ],
)
def test_bad_dagger_settings_are_refused_by_name(key: str, value: object, accepted: str) -> None:
    with pytest.raises(ValueError) as error:
        config_from_mapping({key: value}, "x.toml")
    assert str(error.value) == f"x.toml: {key} = {value!r}; expected {accepted}"


def test_search_bots_can_label_since_each_is_shown_its_information_set() -> None:
    """A search bot refuses to act before ``see``; labelling shows it the seat's view first."""
    driver = warmstart.every_game(warmstart.follow_label)
    labelled = warmstart.label_games(
        warmstart.Cloning("valiant_wars_v3", 2, "pimc:2,rollouts=1"), 40, 1, driver
    )
    data = labelled.data
    assert len(data.actions) >= 40 and labelled.agreement == 1.0
    assert all(data.masks[i, action] for i, action in enumerate(data.actions))


@pytest.mark.parametrize(("game", "players"), [("valenor_v2", 3), ("vaalbara_v1", 2)])
def test_returns_are_discounted_once_per_decision_the_learner_still_makes(
    game: str, players: int
) -> None:
    """PPO's critic target for a decision k learner decisions before the end is gamma^k R: in
    a cooperative game the learner makes every decision, in a competitive one its seat's."""
    driver, gamma = warmstart.every_game(warmstart.follow_label), 0.9
    cloning = warmstart.Cloning(game, players, "heuristic")
    plain = warmstart.label_games(cloning, 300, 3, driver)
    discounted = warmstart.label_games(replace(cloning, gamma=gamma), 300, 3, driver)
    assert np.array_equal(plain.data.actions, discounted.data.actions)
    cooperative = tabletop_envs.game_module(game).Game.COOPERATIVE
    learners = [None] if cooperative else range(players)
    checked = 0
    for index in np.unique(plain.games):
        for seat in learners:
            mine = plain.games == index
            if seat is not None:
                mine &= plain.seats == seat
            final = plain.data.returns[mine]
            assert np.all(final == final[0]), "one final return per learner and game"
            powers = np.arange(mine.sum() - 1, -1, -1)
            assert np.allclose(discounted.data.returns[mine], final * gamma**powers)
            checked += int(mine.sum())
    assert checked == len(plain.data.actions)


def test_a_runs_gamma_discounts_its_warm_start_and_dagger_returns(
    tmp_path: Path, monkeypatch
) -> None:
    gammas: list[float] = []
    label_games = warmstart.label_games

    def spy(*args, **kwargs):
        bound = inspect.signature(label_games).bind(*args, **kwargs)
        gammas.append(bound.arguments["cloning"].gamma)
        return label_games(*args, **kwargs)

    monkeypatch.setattr(warmstart, "label_games", spy)
    (tmp_path / "gamma.toml").write_text(
        'gamma = 0.9\nwarm_start_bot = "heuristic"\nwarm_start_decisions = 60\n'
        "warm_start_epochs = 1\nwarm_start_dagger_rounds = 2\nwarm_start_dagger_decisions = 30\n"
        "n_envs = 2\nn_steps = 16\nbatch_size = 32\nfinal_eval_games = 2\n"
    )
    args = ["vaalbara", "--steps", "1", "--config", str(tmp_path / "gamma.toml")]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert train_main([*args, "--out", str(tmp_path / "run")]) == 0
    assert gammas == [0.9, 0.9, 0.9]
