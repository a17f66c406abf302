"""``valiant_wars_v3``: Valiant Wars, 2-5 players pushing their luck through their own decks to
win Locations (rules: docs/rules/valiant_wars.md)."""

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, wrap
from tabletop_envs.core.parallel import TabletopParallelEnv
from tabletop_envs.core.parallel import parallel_env as to_parallel
from tabletop_envs.valiant_wars import ValiantWarsGame as Game


class raw_env(TabletopAECEnv):
    """``valiant_wars_v3`` without PettingZoo classic's standard wrappers."""

    game_class = Game


def env(**kwargs: Any) -> AECEnv:
    """``valiant_wars_v3`` with PettingZoo classic's standard wrappers."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TabletopParallelEnv:
    """``valiant_wars_v3`` in PettingZoo's Parallel API (docs/rules page, "Parallel API").
    Each reveal step's REVEAL-or-STOP, simultaneous in the rules, is one
    step for all the seats still drawing; every other decision is one seat's step."""
    return to_parallel(raw_env(**kwargs))


__all__ = ["Game", "env", "parallel_env", "raw_env"]
