"""``valenor_v2``: Spirits of Valenor, a cooperative card game of ordered hidden hands for 2-4
players (rules: docs/rules/valenor.md)."""

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, wrap
from tabletop_envs.valenor import ValenorGame as Game


class raw_env(TabletopAECEnv):
    """``valenor_v2`` without PettingZoo classic's standard wrappers."""

    game_class = Game


def env(**kwargs: Any) -> AECEnv:
    """``valenor_v2`` with PettingZoo classic's standard wrappers."""
    return wrap(raw_env(**kwargs))


__all__ = ["Game", "env", "raw_env"]
