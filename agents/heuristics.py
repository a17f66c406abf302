"""Registry of each game's scripted heuristic bot: environment name -> "module:Class"."""

from __future__ import annotations

import importlib

from agents.base import Agent

HEURISTIC_BOTS: dict[str, str] = {
    "vaalbara_v1": "agents.vaalbara_bot:VaalbaraHeuristicAgent",
    "valiant_wars_v1": "agents.valiant_wars_bot:ValiantWarsHeuristicAgent",
    "valenor_v2": "agents.valenor_bot:ValenorHeuristicAgent",
    "spirit_island_v0": "agents.spirit_island_bot:SpiritIslandHeuristicAgent",
}
"""One line per game, e.g. ``"vaalbara_v1": "agents.vaalbara_bot:VaalbaraHeuristicAgent"``."""


def heuristic_agent(game: str, seed: int | None = None) -> Agent:
    """The scripted bot for environment ``game`` (a registered name, e.g. ``vaalbara_v1``)."""
    try:
        target = HEURISTIC_BOTS[game]
    except KeyError:
        raise ValueError(
            f"no heuristic bot for {game!r}; games with one: {sorted(HEURISTIC_BOTS)}"
        ) from None
    module_name, class_name = target.split(":")
    agent_class = getattr(importlib.import_module(module_name), class_name)
    return agent_class(seed=seed)
