"""The Vaalbara PettingZoo AEC environment (``vaalbara_v0``)."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, env_metadata, wrap
from tabletop_envs.vaalbara.rules import VaalbaraGame


class raw_env(TabletopAECEnv):
    """Vaalbara for 2 to 5 players; options: ``num_players``, ``reward``, ``illegal_action``."""

    game_class = VaalbaraGame
    metadata = env_metadata("vaalbara_v0")


def env(**kwargs: Any) -> AECEnv:
    return wrap(raw_env(**kwargs))
