"""``spirit_island_v1``: Spirit Island, 1-4 Spirits defending an island against Invaders
together (rules: docs/rules/spirit_island.md)."""

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, wrap
from tabletop_envs.spirit_island import SpiritIslandGame as Game


class raw_env(TabletopAECEnv):
    """``spirit_island_v1`` without PettingZoo classic's standard wrappers."""

    game_class = Game


def env(**kwargs: Any) -> AECEnv:
    """``spirit_island_v1`` with PettingZoo classic's standard wrappers."""
    return wrap(raw_env(**kwargs))


__all__ = ["Game", "env", "raw_env"]
