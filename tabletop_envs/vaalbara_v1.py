"""``vaalbara_v1``: Vaalbara, 2-5 players exploring lands over 9 rounds with secretly chosen
characters (rules: docs/rules/vaalbara.md)."""

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, wrap
from tabletop_envs.core.parallel import TabletopParallelEnv
from tabletop_envs.core.parallel import parallel_env as to_parallel
from tabletop_envs.vaalbara import VaalbaraGame as Game


class raw_env(TabletopAECEnv):
    """``vaalbara_v1`` without PettingZoo classic's standard wrappers."""

    game_class = Game


def env(**kwargs: Any) -> AECEnv:
    """``vaalbara_v1`` with PettingZoo classic's standard wrappers."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TabletopParallelEnv:
    """``vaalbara_v1`` in PettingZoo's Parallel API (docs/rules page, "Parallel API").
    The character picks and the Fighter poll, simultaneous in the rules,
    are one step for all the seats choosing; every other decision is one seat's step."""
    return to_parallel(raw_env(**kwargs))


__all__ = ["Game", "env", "parallel_env", "raw_env"]
