"""tabletop-envs: PettingZoo AEC environments for tabletop card and board games.

``GAMES`` maps each environment name to its module; ``make(name, **kwargs)`` builds the
wrapped environment (``env()``), and ``make(name, raw=True, ...)`` the raw one.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

GAMES: dict[str, str] = {
    "vaalbara_v0": "tabletop_envs.vaalbara_v0",
    "valenor_v0": "tabletop_envs.valenor_v0",
    "valiant_wars_v0": "tabletop_envs.valiant_wars_v0",
}
"""Environment name -> module path; each module has ``env()``, ``raw_env()`` and ``Game``."""


def resolve_name(name: str) -> str:
    """The registered environment name for ``name`` (``vaalbara`` means ``vaalbara_v0``)."""
    if name in GAMES:
        return name
    versioned = sorted(key for key in GAMES if key.rsplit("_v", 1)[0] == name)
    if versioned:
        return versioned[-1]
    raise ValueError(f"unknown game {name!r}; valid games are {sorted(GAMES)}")


def game_module(name: str) -> ModuleType:
    return importlib.import_module(GAMES[resolve_name(name)])


def make(name: str, raw: bool = False, **kwargs: Any) -> Any:
    """Build the environment ``name`` with ``kwargs`` (players, options, render_mode)."""
    module = game_module(name)
    return module.raw_env(**kwargs) if raw else module.env(**kwargs)


__all__ = ["GAMES", "__version__", "game_module", "make", "resolve_name"]
