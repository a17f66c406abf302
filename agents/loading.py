"""Agent specs on the command line: ``random``, ``heuristic`` or a path to a trained policy.

Trained policies are loaded by the training package: :data:`POLICY_LOADER` names a function
``load_policy(path, game, seed) -> Agent`` that raises ``ValueError`` for a file it cannot
use (another game's policy, a corrupt file). Until that module exists, a path gives a clear
error instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from agents.base import Agent, RandomAgent
from agents.heuristics import heuristic_agent

BUILTIN_AGENTS = ("random", "heuristic")
POLICY_LOADER = "training.policy:load_policy"
"""``module:function`` that turns a trained policy file into an Agent (the training issue)."""

AgentFactory = Callable[[int | None], Agent]


def describe_accepted() -> str:
    return "'random', 'heuristic', or the path of a trained policy file"


def _policy_loader() -> Callable[[Path, str, int | None], Agent]:
    module_name, function_name = POLICY_LOADER.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        raise ValueError(
            "trained policies need the training extra/loader "
            f"({POLICY_LOADER} is not installed); use 'random' or 'heuristic'"
        ) from None
    return getattr(module, function_name)


def agent_factory(spec: str, game: str) -> AgentFactory:
    """A checked factory ``seed -> Agent`` for ``spec`` playing environment ``game``.

    The spec is validated here (unknown name, missing file, no bot for this game, a policy
    for another game), so that a bad spec fails before any game starts.
    """
    if spec == "random":
        return RandomAgent
    if spec == "heuristic":
        heuristic_agent(game)  # fails now if the game has no bot

        def make_heuristic(seed: int | None) -> Agent:
            return heuristic_agent(game, seed=seed)

        return make_heuristic
    path = Path(spec)
    if not path.is_file():
        raise ValueError(f"unknown agent {spec!r} (no such file); expected {describe_accepted()}")
    load = _policy_loader()
    load(path, game, None)  # fails now for a policy of another game

    def make_policy(seed: int | None) -> Agent:
        return load(path, game, seed)

    return make_policy


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """The agent for ``spec`` in environment ``game`` (ValueError for a bad spec)."""
    return agent_factory(spec, game)(seed)
