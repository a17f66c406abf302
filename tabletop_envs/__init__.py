"""tabletop-envs: PettingZoo AEC environments for tabletop card and board games.

``GAMES`` maps each environment name to the package that registers it;
``from tabletop_envs import vaalbara_v1`` imports that package on first use and gives its
``env()``, ``raw_env()`` and ``Game``. ``make(name, **kwargs)`` builds the wrapped
environment, and ``make(name, raw=True, ...)`` the raw one. Every game's single-seat
gymnasium env is registered as ``gym_id(name)``, e.g. ``gymnasium.make("tabletop_envs/Vaalbara-v1",
num_players=2, opponent="heuristic")``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

from tabletop_envs.gym_ids import gym_id, register_gym_env

__version__ = "0.1.0"

GAMES: dict[str, str] = {
    "vaalbara_v1": "tabletop_envs.vaalbara",
    "valenor_v2": "tabletop_envs.valenor",
    "valiant_wars_v3": "tabletop_envs.valiant_wars",
    "spirit_island_v1": "tabletop_envs.spirit_island",
}
"""Environment name -> the game package whose ``__init__`` registers it."""


def add_game(name: str, package: str) -> None:
    """Make the game that ``package`` registers as ``name`` known (a game outside this
    package, e.g. a test game); it then joins ``make``, gymnasium's registry, the CLIs and the
    test suites."""
    GAMES[name] = package
    register_gym_env(name)


def resolve_name(name: str) -> str:
    """The registered environment name for ``name`` (``vaalbara`` means ``vaalbara_v1``)."""
    if name in GAMES:
        return name
    versioned = sorted(key for key in GAMES if key.rsplit("_v", 1)[0] == name)
    if versioned:
        return versioned[-1]
    raise ValueError(f"unknown game {name!r}; valid games are {sorted(GAMES)}")


def game_module(name: str) -> ModuleType:
    """The env module of game ``name``: ``env()``, ``raw_env`` and ``Game``."""
    name = resolve_name(name)
    importlib.import_module(GAMES[name])
    from tabletop_envs.core.registry import ENV_MODULES

    if name not in ENV_MODULES:
        raise ValueError(f"package {GAMES[name]} does not register {name}")
    return ENV_MODULES[name]


def make(name: str, raw: bool = False, **kwargs: Any) -> Any:
    """Build the environment ``name`` with ``kwargs`` (players, options, render_mode)."""
    module = game_module(name)
    return module.raw_env(**kwargs) if raw else module.env(**kwargs)


class _EnvModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``tabletop_envs.<game>_v<N>``: the module its game package registers."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        parent, _, name = fullname.rpartition(".")
        if parent != __name__ or name not in GAMES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return game_module(spec.name.rpartition(".")[2])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: registration built the module."""


sys.meta_path.append(_EnvModuleFinder())

for _name in GAMES:
    register_gym_env(_name)

__all__ = ["GAMES", "__version__", "add_game", "game_module", "gym_id", "make", "resolve_name"]
