"""Policy-value networks: torch and numpy agree, the file round-trips, bad files are refused."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
from policies import random_policy
from tabletop_envs.agents.az import load_network, read_network
from tabletop_envs.agents.loading import make_agent
from tabletop_envs.agents.policy import PolicyFileError, read_policy
from tabletop_envs.training.exit.network import PolicyValueModule

import tabletop_envs

GAME = "valiant_wars_v3"


def game_sizes(env: str = GAME) -> tuple[int, int]:
    core = tabletop_envs.game_module(env).Game
    return core.SCHEMA.size, core.LAYOUT.total


def observations(count: int, env: str = GAME, players: int = 2) -> np.ndarray:
    """Observations of real positions, met by playing random legal moves."""
    game = tabletop_envs.game_module(env).Game(players, seed=1)
    rng = np.random.default_rng(2)
    rows = []
    while len(rows) < count and not game.is_terminal:
        rows.append(game.observation(game.current_player))
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return np.array(rows, dtype=np.float32)


def module(players: int = 2, seed: int = 0) -> PolicyValueModule:
    torch.manual_seed(seed)
    return PolicyValueModule(*game_sizes(), seats=players, hidden=(64, 32), value_hidden=16)


def exported(path: Path, players: int = 2) -> Path:
    module(players).export({"game": GAME, "players": players}).save(path)
    return path


def test_numpy_inference_agrees_with_torch() -> None:
    net = module()
    batch = observations(20)
    with torch.no_grad():
        logits, values = net(torch.from_numpy(batch))
    numpy_logits, numpy_values = net.export({"game": GAME, "players": 2}).evaluate(batch)
    np.testing.assert_allclose(numpy_logits, logits.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(numpy_values, values.numpy(), rtol=1e-4, atol=1e-5)
    assert numpy_values.shape == (20, 2) and np.abs(numpy_values).max() < 1
    one_logits, one_values = net.export({}).evaluate(batch[3])
    np.testing.assert_allclose(one_logits, numpy_logits[3], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(one_values, numpy_values[3], rtol=1e-5, atol=1e-6)


def test_file_round_trips_and_plays_alone(tmp_path: Path) -> None:
    net = module()
    path = tmp_path / "net.npz"
    net.export({"game": GAME, "players": 2}).save(path)
    loaded = load_network(path, GAME, players=2)
    batch = observations(5)
    expected = net.export({}).evaluate(batch)
    for got, want in zip(loaded.evaluate(batch), expected, strict=True):
        np.testing.assert_array_equal(got, want)
    with zipfile.ZipFile(path) as archive:
        meta = json.loads(str(np.load(archive.open("meta.npy"))))
    assert meta["value_layers"] == 2 and meta["game"] == GAME
    # the network alone is an ordinary policy: the existing policy path plays it
    agent = make_agent(str(path), GAME, seed=0, players=2)
    assert agent.name == "policy"
    assert read_policy(path).action_size == game_sizes()[1]


def test_policy_without_value_head_is_refused(tmp_path: Path) -> None:
    path = random_policy(tmp_path / "plain.npz", GAME)
    with pytest.raises(PolicyFileError, match="without a value head"):
        read_network(path)


def test_missing_value_entry_is_refused(tmp_path: Path) -> None:
    path = exported(tmp_path / "net.npz")
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files if key != "value_bias_1"}
    broken = tmp_path / "broken.npz"
    np.savez(broken, **arrays)
    with pytest.raises(PolicyFileError, match="has no 'value_bias_1' entry"):
        read_network(broken)


def test_value_head_of_wrong_width_is_refused(tmp_path: Path) -> None:
    path = exported(tmp_path / "net.npz")
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    arrays["value_weight_0"] = arrays["value_weight_0"][:, :5]
    broken = tmp_path / "broken.npz"
    np.savez(broken, **arrays)
    with pytest.raises(PolicyFileError, match="does not take the 32 values"):
        read_network(broken)


def test_network_for_another_game_or_count_is_refused(tmp_path: Path) -> None:
    path = exported(tmp_path / "net.npz")
    with pytest.raises(ValueError, match="game 'valiant_wars_v3' \\(expected 'vaalbara_v1'\\)"):
        load_network(path, "vaalbara_v1")
    with pytest.raises(ValueError, match="players 2 \\(expected 3\\)"):
        load_network(path, GAME, players=3)


def test_value_seats_must_match_players(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    module(players=3).export({"game": GAME, "players": 2}).save(path)
    with pytest.raises(PolicyFileError, match="value head rates 3 seats"):
        load_network(path, GAME, players=2)
