"""The Valiant Wars PettingZoo AEC environment (``valiant_wars_v0``)."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, env_metadata, wrap
from tabletop_envs.valiant_wars.rules import ValiantWarsGame


class raw_env(TabletopAECEnv):
    """Valiant Wars for 2 to 5 players; options: ``reward``, ``target_vp``, ``illegal_action``."""

    game_class = ValiantWarsGame
    metadata = env_metadata("valiant_wars_v0")


def env(**kwargs: Any) -> AECEnv:
    return wrap(raw_env(**kwargs))
