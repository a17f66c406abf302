"""``highcard_v0``: High Card, the toy game of the contributor walkthrough
(docs/architecture.md)."""

from typing import Any

from pettingzoo import AECEnv
from toygame import HighCard as Game

from tabletop_envs.core.env import TabletopAECEnv, wrap


class raw_env(TabletopAECEnv):
    """``highcard_v0`` without PettingZoo classic's standard wrappers."""

    game_class = Game


def env(**kwargs: Any) -> AECEnv:
    """``highcard_v0`` with PettingZoo classic's standard wrappers."""
    return wrap(raw_env(**kwargs))


__all__ = ["Game", "env", "raw_env"]
