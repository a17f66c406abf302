"""``vaalbara_v1``: Vaalbara, 2-5 players exploring lands over 9 rounds with secretly chosen
characters (rules: docs/rules/vaalbara.md)."""

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, wrap
from tabletop_envs.vaalbara import VaalbaraGame as Game


class raw_env(TabletopAECEnv):
    """``vaalbara_v1`` without PettingZoo classic's standard wrappers."""

    game_class = Game


def env(**kwargs: Any) -> AECEnv:
    """``vaalbara_v1`` with PettingZoo classic's standard wrappers."""
    return wrap(raw_env(**kwargs))


__all__ = ["Game", "env", "raw_env"]
