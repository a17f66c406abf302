"""The games this package knows: one table from environment name to env module.

Each environment is a module file as in PettingZoo classic (``tabletop_envs/vaalbara_v1.py``
beside ``connect_four_v3.py``'s pattern): a ``raw_env`` class over the game's rules core, an
``env()`` that adds the standard wrappers, and ``Game``. A game package's ``__init__`` binds
its observer, text and picture to its rules core once (:func:`bind_views`). The version of an
environment is its name here, which is also its module's file name (a test checks both agree).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from tabletop_envs.core.game import GameCore
from tabletop_envs.core.gym_ids import register_gym_env

ENVIRONMENTS: dict[str, str] = {
    "vaalbara_v1": "tabletop_envs.vaalbara_v1",
    "valenor_v2": "tabletop_envs.valenor_v2",
    "valiant_wars_v3": "tabletop_envs.valiant_wars_v3",
    "spirit_island_v1": "tabletop_envs.spirit_island_v1",
}
"""Environment name -> the module that defines its ``env``, ``raw_env`` and ``Game``."""

ENV_MODULE_NAMES = ("Game", "env", "raw_env")
OBSERVER_NAMES = ("SCHEMA", "view", "observation")
TEXT_NAMES = ("action_to_str", "readable_view", "render_text", "screen", "narrate")
PICTURE_NAMES = ("draw",)


def _require(module: ModuleType, names: tuple[str, ...], role: str) -> None:
    missing = [name for name in names if not hasattr(module, name)]
    if missing:
        raise TypeError(f"{module.__name__} is no {role}: it lacks {missing}")


def bind_views(
    game: type[GameCore],
    *,
    observer: ModuleType,
    text: ModuleType,
    picture: ModuleType | None = None,
) -> None:
    """Give ``game`` its observer, its text and its picture (``draw(game, seat) -> svg``, for
    the replay viewer); each module is checked for the functions the core calls."""
    _require(observer, OBSERVER_NAMES, "observer")
    _require(text, TEXT_NAMES, "text module")
    if picture is not None:
        _require(picture, PICTURE_NAMES, "picture module")
    game.OBSERVER, game.TEXT, game.SCHEMA = observer, text, observer.SCHEMA
    game.PICTURE = picture


def add_game(name: str, module: str) -> None:
    """Make the environment that ``module`` defines known as ``name`` (a game outside this
    package, e.g. a test game); it then joins ``make``, gymnasium's registry, the command
    lines and the test suites."""
    ENVIRONMENTS[name] = module
    register_gym_env(name)


def resolve_name(name: str) -> str:
    """The registered environment name for ``name`` (``vaalbara`` means ``vaalbara_v1``)."""
    if name in ENVIRONMENTS:
        return name
    versioned = sorted(key for key in ENVIRONMENTS if key.rsplit("_v", 1)[0] == name)
    if versioned:
        return versioned[-1]
    raise ValueError(f"unknown game {name!r}; valid games are {sorted(ENVIRONMENTS)}")


def game_module(name: str) -> ModuleType:
    """The env module of game ``name`` (a bare game name means its registered version)."""
    name = resolve_name(name)
    module = importlib.import_module(ENVIRONMENTS[name])
    _require(module, ENV_MODULE_NAMES, "env module")
    return module


def env_name(game_class: type[GameCore]) -> str:
    """The registered environment name (``vaalbara_v1``) of a rules class."""
    for name in ENVIRONMENTS:
        if game_module(name).Game is game_class:
            return name
    raise ValueError(f"{game_class.__name__} is not a registered game")


def make(name: str, raw: bool = False, **kwargs: Any) -> Any:
    """Build the environment ``name`` with ``kwargs`` (players, options, render_mode)."""
    module = game_module(name)
    return module.raw_env(**kwargs) if raw else module.env(**kwargs)


for _name in ENVIRONMENTS:
    register_gym_env(_name)
