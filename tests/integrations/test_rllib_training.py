"""Short RLlib runs through ``tabletop-train --backend rllib`` (``make test-rllib``; needs Ray).

One competitive game (Vaalbara, 2 players: the league of snapshots and bots) and one
cooperative game (Valenor, 3 players: one shared module for every seat); each exports a
policy file that ``tabletop-eval`` plays with illegal actions raising. The env raises on an
illegal action too, and a failing env runner stops the run, so a completed run sampled none.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from tabletop_envs.agents.policy import load_policy, read_policy
from tabletop_envs.tools.evaluate import main as eval_main
from tabletop_envs.training.rllib import disconnect
from tabletop_envs.training.rllib.env import TabletopRLlibEnv, agent_id
from tabletop_envs.training.rllib.module import MaskedActorCritic, export_actor
from tabletop_envs.training.train import main as train_main

SMALL = """
n_envs = 4
n_steps = 64
batch_size = 128
n_epochs = 2
net_arch = [32, 32]
snapshot_every = 1
checkpoint_every = 256
final_eval_games = 12
"""


def small_config(tmp_path: Path) -> Path:
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    return path


def train(tmp_path: Path, game: str, players: int, runners: int) -> Path:
    out = tmp_path / "run"
    args = [game, "--players", str(players), "--backend", "rllib", "--steps", "600"]
    args += ["--num-env-runners", str(runners), "--config", str(small_config(tmp_path))]
    assert train_main([*args, "--out", str(out)]) == 0
    return out


def plays_through_eval(policy: Path, game: str, agents: list[str], tmp_path: Path) -> dict:
    """A few games in tabletop-eval (illegal actions raise there); its results.json."""
    out = tmp_path / "eval"
    assert (
        eval_main([game, "--agents", *agents, "--games", "6", "--workers", "1", "--out", str(out)])
        == 0
    )
    return json.loads((out / "results.json").read_text())


def test_competitive_run_trains_against_its_league_and_exports_a_bot(tmp_path: Path) -> None:
    out = train(tmp_path, "vaalbara", 2, runners=1)
    policy = out / "policy.npz"
    network = read_policy(policy)
    assert network.meta["game"] == "vaalbara_v1" and network.meta["players"] == 2
    assert network.meta["trained_steps"] >= 600
    snapshots = sorted(out.glob("pool/snapshot_*.npz"))
    assert len(snapshots) >= 3  # the start, then one per iteration (snapshot_every = 1)
    first = read_policy(out / "pool" / "snapshot_0.npz")
    assert not np.allclose(first.weights[-1], network.weights[-1])  # PPO changed the actor
    assert list(out.glob("checkpoints/policy_*.npz"))
    assert (out / "rllib_checkpoint").is_dir()
    load_policy(policy, "vaalbara", players=2)
    results = plays_through_eval(policy, "vaalbara", [str(policy), "heuristic"], tmp_path)
    assert len(results["records"]) == 6


def test_cooperative_run_shares_one_module_and_exports_a_team_bot(tmp_path: Path, capsys) -> None:
    out = train(tmp_path, "valenor", 3, runners=0)
    assert "3 × trained policy" in capsys.readouterr().out
    assert not list(out.glob("pool/*.npz"))  # no league: every seat is the learner's
    policy = out / "policy.npz"
    load_policy(policy, "valenor", players=3)
    results = plays_through_eval(policy, "valenor", [str(policy)] * 3, tmp_path)
    assert len(results["records"]) == 6


def build_module(env: TabletopRLlibEnv) -> MaskedActorCritic:
    agent = env.possible_agents[0]
    spec = RLModuleSpec(
        module_class=MaskedActorCritic,
        observation_space=env.observation_spaces[agent],
        action_space=env.action_spaces[agent],
        model_config={"hiddens": [16], "activation": "tanh"},
    )
    return spec.build()


def batch_of(observation: dict[str, np.ndarray]) -> dict:
    return {Columns.OBS: {key: torch.from_numpy(value[None]) for key, value in observation.items()}}


@pytest.mark.parametrize(
    ("game", "players"), [("vaalbara", 3), ("valenor", 3), ("spirit_island", 2)]
)
def test_module_samples_only_legal_actions_and_exports_its_actor(game: str, players: int) -> None:
    env = TabletopRLlibEnv({"game": game, "players": players, "seed": 1})
    module = build_module(env)
    network = export_actor(module, "tanh", {})
    observations, _ = env.reset(seed=2)
    for _ in range(300):
        ((agent, observation),) = observations.items()
        batch = batch_of(observation)
        with torch.no_grad():
            logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
            actor = module.pi(batch[Columns.OBS]["observations"]).numpy()[0]
        np.testing.assert_allclose(network.logits(observation["observations"]), actor, atol=1e-5)
        dist = module.get_exploration_action_dist_cls().from_logits(logits)
        action = int(dist.sample()[0])
        assert observation["action_mask"][action] == 1.0
        observations, rewards, terminated, _, _ = env.step({agent: action})
        if terminated["__all__"]:
            assert set(rewards) == set(observations)  # every seat that moved gets its return
            observations, _ = env.reset()
        else:
            assert set(observations) == {agent_id(env.table.game.current_player)}


def test_the_recipe_in_docs_scaling_runs() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "scaling.md").read_text()
    recipe = page.split("A minimal setup")[1].split("```python\n")[1].split("```")[0]
    scope: dict = {}
    try:
        exec(compile(recipe, "docs/scaling.md", "exec"), scope)
    finally:
        disconnect()
    assert scope["result"]["env_runners"]["num_env_steps_sampled_lifetime"] >= 256


def test_envs_of_one_runner_deal_apart_once_rllib_seeds_them() -> None:
    """The envs of a runner share one context; RLlib's first reset (seed + index) parts them."""
    config = {"game": "vaalbara", "players": 3, "seed": 4}
    first, second, again = (TabletopRLlibEnv(config) for _ in range(3))
    deals = [env.reset(seed=seed)[0] for env, seed in ((first, 10), (second, 11), (again, 10))]
    vectors = [next(iter(deal.values()))["observations"] for deal in deals]
    assert not np.array_equal(vectors[0], vectors[1])
    np.testing.assert_array_equal(vectors[0], vectors[2])
    assert first.pool.rng.random() == again.pool.rng.random() != second.pool.rng.random()
