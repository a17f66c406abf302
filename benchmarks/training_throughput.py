"""Training throughput: our self-play pipeline against the PettingZoo SB3 tutorial setup.

Both run MaskablePPO with the same settings (rollout size, batch, epochs, network) in the
same process, one after the other. The reference is ``connect_four_v3`` through a
tutorial-style wrapper: one env, the policy called once per single observation for every
move of both sides. Ours is a registered game as ``tabletop-train`` runs it with the game's
config (``tabletop_envs.training.selfplay.selfplay_env``): many games per policy call, spread over
``env_workers`` processes, opponents' forward passes batched in torch, one torch thread while
collecting. The figure is environment steps per second while training (collection and updates
included), measured twice: against snapshots of the learner only (pure self-play), and against
the config's opponent mix, whose scripted bots cost far more per move than a batched forward
pass. With ``--rounds`` the three go round after round: medians of the rates, and of each
round's own ratios.

The table replaces the ``training-throughput`` section of benchmarks/RESULTS.md
(``--no-write``: print it only).

    python -m benchmarks.training_throughput --steps 40000
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Sequence

import gymnasium
import numpy as np
import torch
from pettingzoo.classic import connect_four_v3
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from tabletop_envs.training.config import load_config
from tabletop_envs.training.export import activation_module, export_actor
from tabletop_envs.training.opponents import OpponentPool
from tabletop_envs.training.selfplay import rollout_callbacks, selfplay_env

import tabletop_envs
from benchmarks.results_page import RESULTS_MD, RunLoad, measured_at, publish
from tabletop_envs.cli import OneLineParser, positive_int

PROG = "python -m benchmarks.training_throughput"
SECTION = "training-throughput"


class TutorialStyleEnv(gymnasium.Env):
    """An AEC game as one gymnasium env whose single policy plays every seat, move by move."""

    def __init__(self, aec_env) -> None:
        self.env = aec_env
        self.env.reset()
        agent = self.env.possible_agents[0]
        self.observation_space = self.env.observation_space(agent)["observation"]
        self.action_space = self.env.action_space(agent)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.env.reset(seed=seed)
        return self.env.observe(self.env.agent_selection)["observation"], {}

    def step(self, action: int):
        mover = self.env.agent_selection
        self.env.step(int(action))
        reward = self.env._cumulative_rewards[mover]
        done = self.env.terminations[mover] or self.env.truncations[mover]
        observation = self.env.observe(self.env.agent_selection)["observation"]
        return observation, reward, done, False, {}

    def action_mask(self) -> np.ndarray:
        return self.env.observe(self.env.agent_selection)["action_mask"].astype(bool)


def ppo_settings(game_name: str) -> tuple[dict, int]:
    """MaskablePPO keyword arguments from the game's training config, and its rollout size."""
    config = load_config(tabletop_envs.game_module(game_name).Game.NAME)
    kwargs = {
        "batch_size": config.batch_size,
        "n_epochs": config.n_epochs,
        "learning_rate": config.learning_rate,
        "policy_kwargs": {
            "net_arch": list(config.net_arch),
            "activation_fn": activation_module(config.activation),
        },
        "device": "cpu",
        "seed": 0,
    }
    return kwargs, config.n_envs * config.n_steps


def steps_per_second(model: MaskablePPO, steps: int) -> float:
    callbacks = rollout_callbacks(model.get_env())
    model.learn(min(steps, model.n_steps * model.n_envs), callbacks)  # warm-up rollout, update
    start = time.perf_counter()
    model.learn(steps, callbacks, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def tutorial_rate(kwargs: dict, rollout: int, steps: int) -> float:
    env = ActionMasker(TutorialStyleEnv(connect_four_v3.env()), lambda env: env.action_mask())
    return steps_per_second(MaskablePPO("MlpPolicy", env, n_steps=rollout, **kwargs), steps)


def selfplay_rate(
    game_name: str, players: int, kwargs: dict, steps: int, config_opponents: bool
) -> float:
    """Our rate against snapshots of the learner only, or against the config's opponent mix
    (its random and heuristic bot shares, the rest snapshots) as ``tabletop-train`` plays."""
    config = load_config(tabletop_envs.game_module(game_name).Game.NAME)
    if not config_opponents:
        config = config.replace(random_share=0.0, heuristic_share=0.0)
    config = config.replace(players=players, game_options={})
    pool = OpponentPool.from_config(game_name, config, seed=0)
    env = selfplay_env(game_name, config, pool, seed=0)
    model = MaskablePPO("MlpPolicy", env, n_steps=config.n_steps, **kwargs)
    pool.add_snapshot(export_actor(model.policy, config.activation, {}), "self")
    try:
        return steps_per_second(model, steps)
    finally:
        env.close()


def measure_rounds(
    game_name: str, players: int, steps: int, rounds: int
) -> tuple[list[float], list[float]]:
    """The three setups (the reference, pure self-play, the config's opponents) one after the
    other, ``rounds`` times: each setup's median rate, and each of ours' median ratio to the
    reference measured next to it in the same round (so a load that changes between rounds
    moves both sides of a ratio)."""
    kwargs, rollout = ppo_settings(game_name)
    by_round = []
    for _ in range(rounds):
        by_round.append(
            (
                tutorial_rate(kwargs, rollout, steps),
                selfplay_rate(game_name, players, kwargs, steps, config_opponents=False),
                selfplay_rate(game_name, players, kwargs, steps, config_opponents=True),
            )
        )
    rates = [statistics.median(column) for column in zip(*by_round, strict=True)]
    ratios = [statistics.median(one[setup] / one[0] for one in by_round) for setup in range(3)]
    return rates, ratios


def markdown(
    game_name: str, players: int, rates: Sequence[float], ratios: Sequence[float], provenance: str
) -> str:
    """The section: how it was measured, then the reference's rate and ours (pure self-play,
    then against the config's opponents), each with its ratio to the reference."""
    reference, pure, mixed = rates
    config = load_config(tabletop_envs.game_module(game_name).Game.NAME)
    setup = f"{game_name} {players}p, {config.n_envs} games over {config.env_workers} worker(s)"
    bots = f"{config.random_share:.0%} random, {config.heuristic_share:.0%} heuristic"
    lines = [
        provenance,
        "",
        "| setup | env steps/s | ratio |",
        "|---|---|---|",
        f"| connect_four_v3, tutorial-style wrapper | {reference:.0f} | {ratios[0]:.2f} |",
        f"| {setup}, snapshots only | {pure:.0f} | {ratios[1]:.2f} |",
        f"| {setup}, config's opponents ({bots}) | {mixed:.0f} | {ratios[2]:.2f} |",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="vaalbara", help="the game to train on")
    parser.add_argument("--players", type=positive_int, default=2, help="players")
    parser.add_argument("--steps", type=positive_int, default=40_000, help="steps per measurement")
    parser.add_argument(
        "--rounds", type=positive_int, default=1, help="rounds of the three setups (medians)"
    )
    parser.add_argument(
        "--no-write",
        action="store_true",
        help=f"print the table only; RESULTS.md's {SECTION!r} section stays as it is",
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(2)
    game = tabletop_envs.resolve_name(args.game)
    start = RunLoad.now()
    rates, ratios = measure_rounds(game, args.players, args.steps, args.rounds)
    command = " ".join([PROG, *(sys.argv[1:] if argv is None else argv)])
    text = markdown(game, args.players, rates, ratios, measured_at(command, start))
    publish(SECTION, text, RESULTS_MD, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
