"""Advice: a scripted bot's move given to a policy as part of its input.

An *advised* policy reads its seat's observation followed by a one-hot of the move the game's
heuristic bot would make there (``LAYOUT.total`` more inputs). Training sets a fresh advised
actor to play that move (``tabletop_envs.training.warmstart.start_as_advisor``), so self-play
starts at the bot's level and what it learns are departures from the bot: a residual on the
teacher rather than an imitation of it. The bot reads the same observation the policy sees, so
advice reveals nothing hidden.

A bot may plan from one decision to the next (the Valenor bot readies a placement when it
plays a card), so an :class:`Advisor` holds one bot for one seat and must be asked at every
decision of that seat, in order, as the bot would be at a table.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from tabletop_envs.agents.base import Agent

ADVICE_NAMES = ("heuristic",)
"""The advisors a policy may be trained with; ``""`` is a plain policy."""


def is_advice(value: object) -> bool:
    """Whether ``value`` names an advisor, or none (``""``)."""
    return value in ("", *ADVICE_NAMES)


def check_advice(advice: str) -> str:
    """``advice`` if it names an advisor (or none); else ValueError naming the accepted ones."""
    if not is_advice(advice):
        raise ValueError(f"advice {advice!r} unknown; expected '' (none) or one of {ADVICE_NAMES}")
    return advice


def advised_size(observation_size: int, action_size: int, advice: str) -> int:
    """The input size of a policy with (or without) advice."""
    return observation_size + (action_size if advice else 0)


class Advisor:
    """One seat's advisor: its bot's move on an observation, as a one-hot row."""

    def __init__(self, bot: Agent, action_size: int) -> None:
        self.bot = bot
        self.action_size = action_size

    def advise(self, observation: Mapping[str, np.ndarray]) -> np.ndarray:
        """The bot's move as a one-hot ``float32`` row over the action space."""
        row = np.zeros(self.action_size, dtype=np.float32)
        row[self.bot.act(observation, "advisor")] = 1.0
        return row

    def extend(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """``observation`` followed by the advice for it: an advised policy's input."""
        advice = self.advise({"observation": observation, "action_mask": mask})
        return np.concatenate([np.asarray(observation, dtype=np.float32), advice])


def make_advisor(advice: str, game_name: str, action_size: int, seed: int | None = None) -> Advisor:
    """A fresh advisor for one seat of environment ``game_name`` (a registered name)."""
    from tabletop_envs.agents.heuristics import heuristic_agent

    check_advice(advice)
    if not advice:
        raise ValueError("a plain policy (advice '') has no advisor")
    return Advisor(heuristic_agent(game_name, seed=seed), action_size)


def seat_advisors(advice: str, game_name: str, players: int, action_size: int) -> list[Advisor]:
    """Fresh advisors for every seat of a new game (seat ``s`` seeded ``s``); none for ``''``."""
    if not advice:
        return []
    return [make_advisor(advice, game_name, action_size, seed=seat) for seat in range(players)]
