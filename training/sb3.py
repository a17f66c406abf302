"""The SB3 backend of ``tabletop-train``: MaskablePPO in this process against an opponent
pool, with the warm start, periodic evaluation, checkpoints and the budget.

A backend takes a :class:`~tabletop_envs.training.run.Run` (the folder and its settings) and a
:class:`~tabletop_envs.training.budget.TrainingBudget`, trains, and leaves the final
``policy.npz`` in the run folder; ``tabletop_envs.training.rllib.trainer`` is the other one.
"""

from __future__ import annotations

import os
import shlex
import time
from dataclasses import dataclass, replace
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.vec_env import VecEnv
from tabletop_envs.agents.policy import PolicyNetwork, read_policy
from tabletop_envs.training import warmstart
from tabletop_envs.training.budget import Interrupted, StopRequest, TrainingBudget, progress_bar
from tabletop_envs.training.config import TrainConfig
from tabletop_envs.training.evaluation import evaluate, headline
from tabletop_envs.training.export import activation_module, export_actor
from tabletop_envs.training.opponents import OpponentPool
from tabletop_envs.training.run import Run, step_of
from tabletop_envs.training.selfplay import rollout_callbacks, selfplay_env
from tqdm import tqdm

EVAL_SEED_OFFSET = 2
"""Periodic evaluations play the deals of ``seed + 2`` (the final one plays ``seed + 1``)."""


@dataclass
class Session:
    """What this invocation trained, for the final table's title."""

    warm_start: str = ""
    start_steps: int = 0
    end_steps: int = 0
    start_updates: int = 0
    end_updates: int = 0

    def describe(self, n_epochs: int) -> str:
        steps = self.end_steps - self.start_steps
        updates = (self.end_updates - self.start_updates) // n_epochs
        if updates:
            ppo = f"{steps:,} PPO steps ({updates} update{'s' if updates > 1 else ''})"
        else:
            ppo = f"no PPO update ({steps:,} steps collected, less than one rollout)"
        parts = [self.warm_start, ppo] if self.warm_start else [ppo]
        text = " + ".join(parts)
        if self.start_steps:
            text = f"resumed at step {self.start_steps:,}: {text}, {self.end_steps:,} in all"
        return text


class SelfPlayCallback(BaseCallback):
    """Snapshots into the pool, periodic evaluation, checkpoints, the budget, progress."""

    def __init__(self, trainer: Trainer, bar: tqdm, stop: StopRequest) -> None:
        super().__init__()
        self.trainer = trainer
        self.run = trainer.run
        self.bar = bar
        self.stop = stop
        self.rollouts = 0
        self.next_eval = 0
        self.next_eval_time = 0.0
        self.next_checkpoint = 0
        self.latest: dict[str, float] = {}

    def _on_training_start(self) -> None:
        config = self.run.config
        steps = self.num_timesteps
        self.next_eval = steps + config.eval_every
        self.next_eval_time = time.monotonic() + config.eval_every_seconds
        self.next_checkpoint = steps + config.checkpoint_every
        self.trainer.network().save(self.run.start_policy)
        if not self.trainer.pool.snapshots:
            self.add_snapshot()
        if steps == 0:
            self.evaluate()  # the curve's first point: where PPO starts
        self.show_postfix()

    def evaluation_due(self) -> bool:
        """Every ``eval_every_seconds`` of wall-clock time when set, else every ``eval_every``
        steps."""
        if self.run.config.eval_every_seconds > 0:
            return time.monotonic() >= self.next_eval_time
        return self.num_timesteps >= self.next_eval

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        if self.evaluation_due():
            self.evaluate()
        elif self.num_timesteps >= self.next_checkpoint:
            self.checkpoint()
        return not self.stop.requested and self.trainer.budget.seconds_left() > 0

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        if self.rollouts % self.run.config.snapshot_every == 0:
            self.add_snapshot()
        self.show_postfix()

    def show_postfix(self) -> None:
        parts = [f"vs {name} {rate:.0%}" for name, rate in self.latest.items()]
        left = self.trainer.budget.seconds_left()
        if left != float("inf"):
            parts.append(f"ETA {int(left // 60):02d}:{int(left % 60):02d}")
        self.bar.set_postfix_str(", ".join(parts))

    def add_snapshot(self) -> None:
        network = self.trainer.network()
        path = self.run.pool_dir / f"snapshot_{self.num_timesteps}.npz"
        network.save(path)
        self.trainer.pool.add_snapshot(network, path.stem)

    def checkpoint(self) -> None:
        self.next_checkpoint = self.num_timesteps + self.run.config.checkpoint_every
        self.trainer.checkpoint()

    def evaluate(self) -> None:
        """A checkpoint, its policy against the baselines, the curve and the best step."""
        config = self.run.config
        self.next_eval = self.num_timesteps + config.eval_every
        self.next_checkpoint = self.num_timesteps + config.checkpoint_every
        steps = self.num_timesteps
        self.trainer.checkpoint()
        policy = self.run.policy_path(steps)
        seed = self.run.settings.seed + EVAL_SEED_OFFSET  # the same deals at every point
        results = evaluate(policy, self.run.game, config.players, config.eval_games, seed)
        self.run.add_to_curve(steps, self.trainer.minutes(), results)
        for result in results:
            self.logger.record(f"eval/win_rate_{result.label.replace(' ', '_')}", result.win_rate)
            self.latest[result.label] = result.win_rate
        if self.run.record_best(steps, headline(results, self.run.game)):
            self.run.prune(steps)
        self.next_eval_time = time.monotonic() + config.eval_every_seconds
        self.show_postfix()


class Trainer:
    """One session of a run: the model (fresh, or restored from the latest checkpoint), its
    opponents and environments, and the budget."""

    def __init__(self, run: Run, budget: TrainingBudget, resume: bool) -> None:
        self.run = run
        self.budget = budget
        config = run.config
        torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
        self.previous_minutes = 0.0
        seed = run.settings.seed
        if resume:
            latest = run.latest_checkpoint()
            seed = seed + step_of(latest)  # new games and draws in each session
        self.pool = OpponentPool.from_config(run.game, config, seed)
        self.env = selfplay_env(run.game, config, self.pool, seed)
        self.model = build_model(config, self.env, seed, run.out)
        self.session = Session()
        if resume:
            checkpoint = run.load_checkpoint(self.model, latest)
            self.previous_minutes = checkpoint.minutes
            self.session.start_steps = checkpoint.steps
            self.session.start_updates = checkpoint.updates
            self.restore_pool(checkpoint.steps)

    def minutes(self) -> float:
        """Training minutes of the run so far, all sessions together."""
        return self.previous_minutes + (time.monotonic() - self.budget.started) / 60

    def network(self) -> PolicyNetwork:
        steps = self.model.num_timesteps
        return export_actor(self.model.policy, self.run.config.activation, self.run.meta(steps))

    def checkpoint(self) -> Path:
        path = self.run.save_checkpoint(self.model, self.network(), self.minutes())
        best = self.run.best()
        self.run.prune(None if best is None else best["steps"])
        return path

    def resume_command(self) -> str:
        return f"tabletop-train {self.run.game} --resume --out {shlex.quote(str(self.run.out))}"

    def warm_start(self) -> None:
        """Clone ``warm_start_bot``'s play into the fresh policy (off when no bot is named).
        An advised policy starts as its advisor instead, and the bot's games teach only its
        critic (the returns of the play it starts from); it has no DAgger rounds."""
        config, run = self.run.config, self.run
        if config.advice:
            actions = int(self.env.action_space.n)
            warmstart.start_as_advisor(self.model.policy, actions, config.advice_weight)
            print(f"advised policy: starts as the {config.advice} bot's moves")
            self.session.warm_start = f"started as the {config.advice} bot (advice)"
        if not config.warm_start_bot or config.warm_start_decisions <= 0:
            return
        started, bot = time.monotonic(), config.warm_start_bot
        print(self.budget.warm_start_plan(config.warm_start_decisions, bot))
        gathered_by, fitted_by = self.budget.warm_start_deadlines(started)
        cloning = replace(self.cloning(), deadline=fitted_by)
        try:
            data = warmstart.collect(
                replace(cloning, deadline=gathered_by), config.warm_start_decisions
            )
            accuracy = warmstart.clone_into(
                self.model.policy, data, cloning, actor=not config.advice
            )
            agreements: list[float] = []
            if not config.advice:
                data, agreements = warmstart.dagger(
                    self.model.policy,
                    data,
                    cloning,
                    config.warm_start_dagger_rounds,
                    config.warm_start_dagger_decisions,
                )
        except KeyboardInterrupt:
            raise Interrupted(
                f"interrupted during the warm start, before any checkpoint; start again with "
                f"--overwrite to reuse {run.out}"
            ) from None
        decisions = f"{len(data.actions):,} decisions"
        if config.advice:
            print(f"warm start: the critic learnt the returns of {decisions} of {bot}; the")
            print(f"  advised actor, unchanged, plays {bot}'s move on {accuracy:.1%} of them")
            self.session.warm_start += f", critic fitted to {decisions} of {bot}"
        else:
            print(f"warm start: the policy matches {bot} on {accuracy:.1%} of moves")
            if agreements:
                rounds = ", ".join(f"{a:.1%}" for a in agreements)
                print(f"warm start: DAgger rounds, agreement on the policy's own states: {rounds}")
                decisions += f", {len(agreements)} DAgger rounds"
            self.session.warm_start = f"warm start (clone of {bot}, {decisions})"
        print(self.budget.warm_start_report(time.monotonic() - started))

    def cloning(self) -> warmstart.Cloning:
        """The warm start's games and fitting settings."""
        return warmstart.Cloning.from_config(self.run.game, self.run.config, self.run.settings.seed)

    def learn(self) -> None:
        """PPO until the budget is spent or Ctrl-C; then a checkpoint."""
        model, budget, run = self.model, self.budget, self.run
        total = budget.steps if budget.steps is not None else 10**12
        resume = self.session.start_steps > 0
        with progress_bar(budget, run.game) as bar, StopRequest() as stop:
            callback = CallbackList(
                [SelfPlayCallback(self, bar, stop), *rollout_callbacks(self.env)]
            )
            try:
                model.learn(total, callback=callback, reset_num_timesteps=not resume)
            except KeyboardInterrupt:
                steps = run.checkpoint_steps()
                latest = f"the latest is {run.checkpoint_path(steps[-1])}" if steps else "none yet"
                raise Interrupted(f"stopped without saving a checkpoint ({latest})") from None
        path = self.checkpoint()
        self.session.end_steps = int(model.num_timesteps)
        self.session.end_updates = int(model._n_updates)
        if stop.requested:
            raise Interrupted(
                f"interrupted at step {model.num_timesteps:,}: checkpoint saved to {path}\n"
                f"resume with: {self.resume_command()}"
            )

    def finish(self) -> Path:
        """The final policy file."""
        final = self.run.out / "policy.npz"
        self.network().save(final)
        return final

    def restore_pool(self, steps: int) -> None:
        """The pool as it was at ``steps`` (a damaged snapshot file raises ValueError)."""
        snapshots = [p for p in self.run.snapshots() if step_of(p) <= steps]
        for path in snapshots[-self.pool.max_snapshots :]:
            self.pool.add_snapshot(read_policy(path), path.stem)


def build_model(config: TrainConfig, env: VecEnv, seed: int, out: Path) -> MaskablePPO:
    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        learning_rate=config.learning_rate,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        ent_coef=config.ent_coef,
        clip_range=config.clip_range,
        policy_kwargs={
            "net_arch": list(config.net_arch),
            "activation_fn": activation_module(config.activation),
        },
        tensorboard_log=str(out / "tb"),
        seed=seed,
        device="cpu",
        verbose=0,
    )


def run_session(trainer: Trainer, resume: bool) -> Path:
    """Run one session (warm start first on a fresh run); the path of the final policy."""
    run = trainer.run
    try:
        if resume:
            run.drop_after(trainer.session.start_steps)
            print(
                f"resuming {run.out} at step {trainer.session.start_steps:,} "
                f"for {trainer.budget.describe()} more"
            )
        else:
            run.create()
            print(f"training {run.game} into {run.out} for {trainer.budget.describe()}")
            trainer.warm_start()
        trainer.learn()
    finally:
        trainer.env.close()  # the worker processes end quietly, whatever stopped the session
    return trainer.finish()
