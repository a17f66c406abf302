"""Registry of each game's scripted heuristic bot: environment name -> "module:Class"."""

from __future__ import annotations

import importlib
from typing import Any

from tabletop_envs.agents.base import Agent, SearchGuide

HEURISTIC_BOTS: dict[str, str] = {
    "vaalbara_v1": "tabletop_envs.agents.vaalbara_bot:VaalbaraHeuristicAgent",
    "valiant_wars_v3": "tabletop_envs.agents.valiant_wars_bot:ValiantWarsHeuristicAgent",
    "valenor_v2": "tabletop_envs.agents.valenor_bot:ValenorHeuristicAgent",
    "spirit_island_v1": "tabletop_envs.agents.spirit_island_bot:SpiritIslandHeuristicAgent",
}
"""One line per game, e.g. ``"vaalbara_v1":
"tabletop_envs.agents.vaalbara_bot:VaalbaraHeuristicAgent"``."""


SEARCH_GUIDES: dict[str, str] = {
    "valiant_wars_v3": "tabletop_envs.agents.valiant_wars_bot:RevealGuide",
    "spirit_island_v1": "tabletop_envs.agents.spirit_island_guide:IslandGuide",
}
"""Games whose heuristic also guides search bots (``guide=heuristic``, :class:`SearchGuide`)."""


def heuristic_agent(game: str, seed: int | None = None) -> Agent:
    """The scripted bot for environment ``game`` (a registered name, e.g. ``vaalbara_v1``)."""
    return _registered(HEURISTIC_BOTS, game, "heuristic bot")(seed=seed)


def search_guide(game: str) -> SearchGuide:
    """The search guide of environment ``game``; ValueError naming the games with one."""
    return _registered(SEARCH_GUIDES, game, "search guide (guide=heuristic)")()


def _registered(registry: dict[str, str], game: str, what: str) -> Any:
    """The class ``registry`` names for ``game``."""
    try:
        target = registry[game]
    except KeyError:
        raise ValueError(f"no {what} for {game!r}; games with one: {sorted(registry)}") from None
    module_name, class_name = target.split(":")
    return getattr(importlib.import_module(module_name), class_name)
