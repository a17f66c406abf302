"""Self-play over worker processes: the same games as in-process, snapshots reach every worker,
a worker's failure is reported, and ``tabletop-train`` trains with workers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.training.opponents import OpponentPool
from tabletop_envs.training.selfplay import (
    ParallelSelfPlayVecEnv,
    SelfPlayVecEnv,
    WorkerSpec,
    split,
)
from tabletop_envs.training.train import main as train_main

GAME = "vaalbara_v1"


def tiny_network(seed: int, observation_size: int, actions: int) -> PolicyNetwork:
    rng = np.random.default_rng(seed)
    weights = [rng.normal(size=(8, observation_size)), rng.normal(size=(actions, 8))]
    biases = [np.zeros(8, np.float32), np.zeros(actions, np.float32)]
    return PolicyNetwork([w.astype(np.float32) for w in weights], biases, "relu")


def in_process_copies(specs: list[WorkerSpec]) -> list:
    """The workers' vector envs rebuilt here from their specs, each with its pool copy."""
    copies = []
    for spec in specs:
        pool = OpponentPool(**spec.pool)
        copies.append(
            (
                SelfPlayVecEnv(
                    spec.game_name, spec.players, spec.count, pool.draw, spec.options, spec.seed
                ),
                pool,
            )
        )
    return copies


def test_tables_split_evenly() -> None:
    assert split(7, 3) == [3, 2, 2]
    assert split(128, 2) == [64, 64]
    assert sum(split(5, 5)) == 5


def test_workers_play_the_games_their_specs_describe() -> None:
    pool = OpponentPool(GAME, seed=4, random_share=0.3, heuristic_share=0.3)
    env = ParallelSelfPlayVecEnv(GAME, 2, 5, pool, workers=2, seed=9)
    try:
        network = tiny_network(0, env.observation_space.shape[0], env.action_space.n)
        pool.add_snapshot(network, "late")  # after the workers started: it must reach them
        copies = in_process_copies(env.specs)
        for _, copy_pool in copies:
            copy_pool.add_snapshot(network, "late")
        observations = env.reset()
        expected = np.concatenate([copy.reset() for copy, _ in copies])
        np.testing.assert_array_equal(observations, expected)
        rng = np.random.default_rng(0)
        labels = set()
        for _ in range(300):
            masks = env.action_masks()
            np.testing.assert_array_equal(
                masks, np.concatenate([copy.action_masks() for copy, _ in copies])
            )
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
            observations, rewards, dones, infos = env.step(actions)
            start, parts = 0, []
            for (copy, _), spec in zip(copies, env.specs, strict=True):
                copy.step_async(actions[start : start + spec.count])
                parts.append(copy.step_wait())
                start += spec.count
            np.testing.assert_array_equal(observations, np.concatenate([p[0] for p in parts]))
            np.testing.assert_array_equal(rewards, np.concatenate([p[1] for p in parts]))
            np.testing.assert_array_equal(dones, np.concatenate([p[2] for p in parts]))
            labels.update(label for info in infos for label in info.get("opponents", []))
        assert {"random", "heuristic", "late"} <= labels, labels
    finally:
        env.close()
    assert not any(process.is_alive() for process in env.processes)


def test_a_worker_failure_names_the_worker_and_the_error() -> None:
    pool = OpponentPool(GAME, seed=0, random_share=1.0, heuristic_share=0.0)
    env = ParallelSelfPlayVecEnv(GAME, 2, 2, pool, workers=2, seed=0)
    try:
        masks = (env.reset(), env.action_masks())[1]
        actions = np.array([int(np.flatnonzero(~row)[0]) for row in masks])  # illegal
        with pytest.raises(RuntimeError, match=r"self-play worker 0 failed: .*illegal"):
            env.step(actions)
    finally:
        env.close()


def test_worker_count_is_checked() -> None:
    pool = OpponentPool(GAME, seed=0)
    with pytest.raises(ValueError, match="workers must be between 1 and the 2 tables; got 3"):
        ParallelSelfPlayVecEnv(GAME, 2, 2, pool, workers=3)


def test_train_command_trains_with_worker_processes(tmp_path: Path) -> None:
    config = tmp_path / "workers.toml"
    config.write_text(
        "n_envs = 4\nenv_workers = 2\nn_steps = 16\nbatch_size = 32\neval_every = 10000\n"
        "final_eval_games = 4\nwarm_start_decisions = 0\n"
    )
    out = tmp_path / "run"
    code = train_main(
        [GAME, "--players", "2", "--steps", "128", "--config", str(config), "--out", str(out)]
    )
    assert code == 0
    assert json.loads((out / "config.json").read_text())["env_workers"] == 2
    assert (out / "policy.npz").is_file()
