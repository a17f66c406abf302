"""Expert iteration: recorded search games, fitting with early stop, rounds that resume."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from tabletop_envs.agents.az import read_network
from tabletop_envs.agents.policy import read_policy
from tabletop_envs.training.exit.fit import (
    FitSettings,
    fit,
    hidden_widths,
    module_from_network,
    module_from_policy,
)
from tabletop_envs.training.exit.network import PolicyValueModule
from tabletop_envs.training.exit.selfplay import Samples, SelfPlay, play_game, play_round
from toygame.observer import SCHEMA
from toygame.spec import Decision

TOY = SelfPlay("highcard_v0", 2, "az:8", seed=3, games=6)


def test_recorded_visits_are_shares_of_legal_actions() -> None:
    samples = play_round(TOY)
    assert len(samples) == 6 * 4  # every High Card decision has two options
    np.testing.assert_allclose(samples.visits.sum(axis=1), 1.0, rtol=1e-6)
    assert not (samples.visits[~samples.masks] > 0).any()
    assert samples.observations.shape[1] == SCHEMA.size


def test_outcomes_are_counted_from_the_deciding_seat() -> None:
    """At a stake, the seat's card is final: holding the 9 it has won, and the other lost."""
    samples = Samples.join([play_game(TOY, index) for index in range(30)])
    views = [SCHEMA.decode(row) for row in samples.observations]
    staking = np.array([view["decision"][Decision.STAKE] == 1 for view in views])
    top = np.array([view["card"][0] == 9 for view in views]) & staking
    bottom = np.array([view["card"][0] == 0 for view in views]) & staking
    assert top.sum() >= 3 and bottom.sum() >= 3
    assert (samples.outcomes[top, 0] > 0).all() and (samples.outcomes[top, 1] < 0).all()
    assert (samples.outcomes[bottom, 0] < 0).all()


def test_rounds_do_not_depend_on_the_worker_count(tmp_path: Path) -> None:
    one, two = play_round(TOY, workers=1), play_round(TOY, workers=2)
    for field in ("observations", "visits", "outcomes"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))
    one.save(tmp_path / "round.npz")
    np.testing.assert_array_equal(Samples.load(tmp_path / "round.npz").masks, one.masks)


def learnable(count: int, seed: int = 0) -> Samples:
    """Targets that follow the observation: the visits go to action ``argmax(obs[:4])``."""
    rng = np.random.default_rng(seed)
    observations = rng.random((count, 12)).astype(np.float32)
    best = observations[:, :4].argmax(axis=1)
    visits = np.eye(4, dtype=np.float32)[best]
    outcomes = np.stack([observations[:, 4] * 2 - 1, 1 - observations[:, 4] * 2], axis=1)
    return Samples(observations, np.ones((count, 4), bool), visits, outcomes.astype(np.float32))


def test_fitting_learns_and_stops_early() -> None:
    torch.manual_seed(0)
    module = PolicyValueModule(12, 4, 2, hidden=(32,), value_hidden=8)
    report = fit(module, learnable(2000), FitSettings(epochs=60, patience=3), seed=1)
    assert report.policy_loss < 0.8 and report.value_loss < 0.05  # ln 4 = 1.39 untrained
    noise, draws = learnable(300), np.random.default_rng(2)
    noise.visits = np.eye(4, dtype=np.float32)[draws.integers(4, size=300)]
    noise.outcomes = draws.choice([-1.0, 1.0], size=(300, 2)).astype(np.float32)
    wide = PolicyValueModule(12, 4, 2, hidden=(128,))
    stopped = fit(wide, noise, FitSettings(epochs=60, patience=2, batch=32), seed=3)
    assert stopped.epochs < 60 and stopped.epochs - stopped.best_epoch == 2
    # the module keeps its best epoch's weights, not its last
    assert stopped.validation_loss == pytest.approx(stopped.policy_loss + stopped.value_loss)


def test_a_saved_network_fits_on_from_its_weights(tmp_path: Path) -> None:
    module = PolicyValueModule(12, 4, 2, hidden=(16, 8), value_hidden=4)
    module.export({"game": "x", "players": 2}).save(tmp_path / "n.npz")
    again = module_from_network(read_network(tmp_path / "n.npz"))
    batch = torch.from_numpy(learnable(5).observations)
    with torch.no_grad():
        for got, want in zip(again(batch), module(batch), strict=True):
            torch.testing.assert_close(got, want)


def test_a_policy_file_starts_the_network_with_its_trunk_and_policy_head(tmp_path: Path) -> None:
    trained = PolicyValueModule(12, 4, 2, hidden=(16, 8), value_hidden=4)
    policy = trained.export({"game": "x", "players": 2}).policy
    policy.save(tmp_path / "p.npz")
    started = module_from_policy(read_policy(tmp_path / "p.npz"), seats=3)
    batch = torch.from_numpy(learnable(5).observations)
    with torch.no_grad():
        logits, values = started(batch)
        torch.testing.assert_close(logits, trained(batch)[0])
    assert values.shape == (5, 3)
    assert hidden_widths(policy) == (16, 8)
