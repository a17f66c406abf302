"""``valiant_wars_v3``: Valiant Wars, 2-5 players pushing their luck through their own decks to
win Locations (rules: docs/rules/valiant_wars.md)."""

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, wrap
from tabletop_envs.valiant_wars import ValiantWarsGame as Game


class raw_env(TabletopAECEnv):
    """``valiant_wars_v3`` without PettingZoo classic's standard wrappers."""

    game_class = Game


def env(**kwargs: Any) -> AECEnv:
    """``valiant_wars_v3`` with PettingZoo classic's standard wrappers."""
    return wrap(raw_env(**kwargs))


__all__ = ["Game", "env", "raw_env"]
