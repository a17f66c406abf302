"""A training session's budget (PPO steps or wall-clock minutes), Ctrl-C and progress bar,
shared by the SB3 and RLlib backends."""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

WARM_START_SHARE = 0.25
"""The most of a --minutes budget the warm start may take: it gathers the bot's games for up to
three fifths of it and fits the policy in the rest, so PPO always has the other three quarters."""
GATHER_SHARE = 0.6


class Interrupted(Exception):
    """Training stopped by Ctrl-C; the message says what was saved and how to go on."""


@dataclass
class TrainingBudget:
    """This session's budget: PPO steps, or wall-clock minutes that include the warm start."""

    steps: int | None
    minutes: float | None
    started: float = field(default_factory=time.monotonic)

    @property
    def deadline(self) -> float | None:
        return None if self.minutes is None else self.started + self.minutes * 60

    def seconds_left(self) -> float:
        deadline = self.deadline
        return float("inf") if deadline is None else max(0.0, deadline - time.monotonic())

    def describe(self) -> str:
        if self.steps is not None:
            return f"{self.steps:,} PPO steps"
        return f"{self.minutes:g} minutes (warm start included)"

    def warm_start_deadlines(self, started: float) -> tuple[float | None, float | None]:
        """When a warm start begun at ``started`` stops gathering games and stops fitting
        (None: no limit, under a --steps budget)."""
        if self.minutes is None:
            return None, None
        window = WARM_START_SHARE * self.minutes * 60
        return started + GATHER_SHARE * window, started + window

    def warm_start_plan(self, decisions: int, bot: str) -> str:
        """What the warm start will do, said before it starts."""
        plan = f"warm start: clone {bot} on up to {decisions:,} decisions"
        if self.minutes is None:
            return f"{plan} (the --steps budget counts PPO steps only)"
        seconds = WARM_START_SHARE * self.minutes * 60
        return (
            f"{plan}, in at most {seconds:.0f} s ({WARM_START_SHARE:.0%} of the "
            f"{self.minutes:g}-minute budget); PPO gets the rest"
        )

    def warm_start_report(self, seconds: float) -> str:
        """The time the warm start took and what it left for PPO."""
        if self.minutes is None:
            return f"warm start: {seconds:.0f} s"
        share = seconds / (self.minutes * 60)
        return (
            f"warm start: {seconds:.0f} s ({share:.0%}); {self.seconds_left():.0f} s left for PPO"
        )


@dataclass
class RoundBudget:
    """An expert-iteration session's budget: rounds, or wall-clock minutes in which a new
    round starts only while the time left could hold one as long as the last (the session's
    first round always starts)."""

    rounds: int | None
    minutes: float | None
    started: float = field(default_factory=time.monotonic)

    def describe(self) -> str:
        if self.rounds is not None:
            return f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        return f"{self.minutes:g} minutes (a round starts while the time left can hold one)"

    def another(self, played: int, last_seconds: float | None) -> bool:
        """Whether to start another round, ``played`` played in this session so far, the
        last of them taking ``last_seconds``."""
        if self.rounds is not None:
            return played < self.rounds
        if played == 0:
            return True
        left = self.minutes * 60 - (time.monotonic() - self.started)
        return left > 0 and left >= (last_seconds or 0.0)


STEP_STOP = "stopping after this step to save a checkpoint"


class StopRequest:
    """The first Ctrl-C asks training to stop after the current step (a checkpoint is then
    saved); a second one stops at once, without saving. ``stopping`` says what the first
    Ctrl-C does."""

    def __init__(self, stopping: str = STEP_STOP) -> None:
        self.requested = False
        self.previous: Any = None
        self.stopping = stopping

    def __enter__(self) -> StopRequest:
        self.previous = signal.signal(signal.SIGINT, self.handle)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self.previous)

    def handle(self, signum: int, frame: object) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        print(
            f"\nCtrl-C: {self.stopping} (Ctrl-C again stops at once, without saving)",
            file=sys.stderr,
        )


def progress_bar(budget: TrainingBudget, game_name: str) -> tqdm:
    """One rate (steps/s) and the time left: tqdm's for --steps, the deadline's for --minutes."""
    if budget.steps is not None:
        layout = "{desc}: {n_fmt}/{total_fmt} steps [{elapsed}<{remaining}, {rate_fmt}{postfix}]"
    else:
        layout = "{desc}: {n_fmt} steps [{elapsed}, {rate_fmt}{postfix}]"
    return tqdm(
        total=budget.steps,
        desc=f"training {game_name}",
        unit=" steps",
        bar_format=layout,
        dynamic_ncols=True,
    )
