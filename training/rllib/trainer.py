"""``tabletop-train --backend rllib``: PPO on RLlib's current API stack, on Ray.

The run folder is the SB3 path's (``tabletop_envs.training.run.Run``): config.json, pool/
(the league's snapshots), checkpoints/policy_N.npz (every ``checkpoint_every`` steps) and the
final policy.npz, plus rllib_checkpoint/, RLlib's own checkpoint of the algorithm (it holds
pickles: load only your own). The policy files are the same ``tabletop_envs.agents.policy``
format the SB3 path writes, so the result is a normal bot for ``tabletop-eval`` and
``tabletop-play``.

The training settings are the game's TOML config (``training/configs``): ``n_envs * n_steps``
env steps per PPO iteration, ``batch_size`` minibatches, ``n_epochs``, the network, and for
competitive games the league: a snapshot of the learner every ``snapshot_every`` iterations,
drawn beside the random and heuristic bots with the SB3 path's shares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop_envs.training.rllib import connect, disconnect

if TYPE_CHECKING:
    from ray.rllib.algorithms.algorithm import Algorithm
    from tabletop_envs.agents.policy import PolicyNetwork
    from tabletop_envs.training.budget import TrainingBudget
    from tabletop_envs.training.run import Run

STEPS_KEY = "num_env_steps_sampled_lifetime"


@dataclass(frozen=True)
class Cluster:
    """Where to train: a local Ray instance (``address`` None) or an existing cluster."""

    env_runners: int = 1
    address: str | None = None

    def connect(self) -> None:
        connect("--backend rllib", self.address, self.env_runners)


def module_id(game_name: str) -> str:
    """The learner's module: ``shared`` by every seat (cooperative) or ``main`` (competitive)."""
    from tabletop_envs.training.evaluation import is_cooperative

    return "shared" if is_cooperative(game_name) else "main"


def build_algorithm(run: Run, env_runners: int) -> Algorithm:
    """PPO with :class:`MaskedActorCritic` for the learner's seats and the env's league."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from tabletop_envs.training.rllib.env import TabletopRLlibEnv
    from tabletop_envs.training.rllib.module import MaskedActorCritic

    config, name = run.config, module_id(run.game)
    envs_per_runner = max(1, config.n_envs // max(1, env_runners))
    env_config = {
        "game": run.game,
        "players": config.players,
        "game_options": config.game_options,
        "seed": run.settings.seed,
        "newest_prob": config.newest_prob,
        "random_share": config.random_share,
        "heuristic_share": config.heuristic_share,
        "max_snapshots": config.max_snapshots,
    }
    spec = RLModuleSpec(
        module_class=MaskedActorCritic,
        model_config={"hiddens": list(config.net_arch), "activation": config.activation},
    )
    ppo = (
        PPOConfig()
        .environment(TabletopRLlibEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=envs_per_runner)
        .learners(num_learners=0)
        # A failing env runner stops the run: restarting it would hide an illegal action.
        .fault_tolerance(restart_failed_env_runners=False)
        .multi_agent(
            policies={name},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: name,
            policies_to_train=[name],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={name: spec}))
        .training(
            train_batch_size_per_learner=config.n_envs * config.n_steps,
            minibatch_size=config.batch_size,
            num_epochs=config.n_epochs,
            lr=config.learning_rate,
            gamma=config.gamma,
            lambda_=config.gae_lambda,
            entropy_coeff=config.ent_coef,
            clip_param=config.clip_range,
            # as stable-baselines3's PPO: no KL penalty, half-weighted value loss, clipped grads
            use_kl_loss=False,
            vf_loss_coeff=0.5,
            grad_clip=0.5,
        )
        .debugging(seed=run.settings.seed, log_level="WARN")
    )
    return ppo.build_algo()


class RLlibTrainer:
    """One fresh run: the algorithm, its league snapshots, policy files and the budget."""

    def __init__(self, run: Run, budget: TrainingBudget, cluster: Cluster) -> None:
        self.run = run
        self.budget = budget
        cluster.connect()
        self.algo = build_algorithm(run, cluster.env_runners)
        self.name = module_id(run.game)
        self.steps = 0
        self.iterations = 0

    def network(self) -> PolicyNetwork:
        from tabletop_envs.training.rllib.module import export_actor

        module = self.algo.get_module(self.name)
        return export_actor(module, self.run.config.activation, self.run.meta(self.steps))

    def add_snapshot(self) -> None:
        """A frozen copy of the learner for the league of every env runner (competitive)."""
        from tabletop_envs.training.rllib.env import add_snapshot_to_live_envs

        network = self.network()
        label = f"snapshot_{self.steps}"
        network.save(self.run.pool_dir / f"{label}.npz")
        self.algo.env_runner_group.foreach_env_runner(
            lambda runner: add_snapshot_to_live_envs(network, label)
        )

    def train(
        self,
        on_iteration: Callable[[RLlibTrainer], object] = lambda trainer: None,
        stop_requested: Callable[[], bool] = lambda: False,
    ) -> Path:
        """Iterations until the budget is spent (or a stop is requested); the final policy."""
        config = self.run.config
        competitive = self.name == "main"
        if competitive:
            self.add_snapshot()
        next_checkpoint = config.checkpoint_every
        while self.has_budget() and not stop_requested():
            result = self.algo.train()
            self.iterations += 1
            self.steps = int(result["env_runners"][STEPS_KEY])
            if competitive and self.iterations % config.snapshot_every == 0:
                self.add_snapshot()
            if self.steps >= next_checkpoint:
                next_checkpoint = self.steps + config.checkpoint_every
                self.network().save(self.run.policy_path(self.steps))
            on_iteration(self)
        final = self.run.out / "policy.npz"
        self.network().save(final)
        self.algo.save_to_path(str((self.run.out / "rllib_checkpoint").resolve()))
        return final

    def has_budget(self) -> bool:
        steps = self.budget.steps
        return (steps is None or self.steps < steps) and self.budget.seconds_left() > 0

    def describe(self) -> str:
        return f"{self.steps:,} env steps in {self.iterations} RLlib PPO iterations"

    def stop(self) -> None:
        """Stop the env runners and leave Ray."""
        self.algo.stop()
        disconnect()
