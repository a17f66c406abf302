"""Registering a game: its rules core, observer and text become ``<game>_v<N>``.

A game package's ``__init__.py`` calls :func:`register` once; that binds the observer and
the text to the core and builds the PettingZoo module users import
(``from tabletop_envs import vaalbara_v1``): ``env()``, ``raw_env`` and ``Game``. No game
writes an env class or an ``env()`` of its own.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, env_metadata, wrap
from tabletop_envs.core.game import GameCore

OBSERVER_NAMES = ("SCHEMA", "view", "observation")
TEXT_NAMES = ("action_to_str", "readable_view", "render_text")
PICTURE_NAMES = ("draw",)

ENV_MODULES: dict[str, ModuleType] = {}
"""Environment name (``vaalbara_v1``) -> its module, for every registered game."""


def _require(module: ModuleType, names: tuple[str, ...], role: str) -> None:
    missing = [name for name in names if not hasattr(module, name)]
    if missing:
        raise TypeError(f"{module.__name__} is no {role}: it lacks {missing}")


def register(
    game: type[GameCore],
    *,
    observer: ModuleType,
    text: ModuleType,
    picture: ModuleType | None = None,
    version: int = 0,
) -> ModuleType:
    """Bind ``observer``, ``text`` and ``picture`` (``draw(game, seat) -> svg``, for the replay
    viewer) to ``game`` and build its env module.

    The module is ``<parent package>.<NAME>_v<version>`` (``tabletop_envs.vaalbara_v1`` for
    a game in ``tabletop_envs/vaalbara``), also placed in ``sys.modules``.
    """
    _require(observer, OBSERVER_NAMES, "observer")
    _require(text, TEXT_NAMES, "text module")
    if picture is not None:
        _require(picture, PICTURE_NAMES, "picture module")
    game.OBSERVER, game.TEXT, game.SCHEMA = observer, text, observer.SCHEMA
    game.PICTURE = picture
    name = f"{game.NAME}_v{version}"
    package = game.__module__.rsplit(".", 1)[0]
    module = ModuleType(f"{package.rsplit('.', 1)[0]}.{name}", f"The {name} environment.")
    raw = type("raw_env", (TabletopAECEnv,), {"game_class": game})
    raw.metadata = env_metadata(name)
    raw.__module__ = module.__name__
    raw.__doc__ = f"{name}, unwrapped: {game.MIN_PLAYERS} to {game.MAX_PLAYERS} players."

    def env(**kwargs: Any) -> AECEnv:
        """The environment with PettingZoo classic's standard wrappers."""
        return wrap(raw(**kwargs))

    env.__module__ = module.__name__
    module.env, module.raw_env, module.Game = env, raw, game
    module.__all__ = ["Game", "env", "raw_env"]
    ENV_MODULES[name] = sys.modules[module.__name__] = module
    parent = sys.modules.get(module.__name__.rpartition(".")[0])
    if parent is not None:
        setattr(parent, name, module)
    return module
