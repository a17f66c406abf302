"""The PettingZoo AEC environment for Spirits of Valenor."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from tabletop_envs.core.env import TabletopAECEnv, env_metadata, wrap
from tabletop_envs.valenor.rules import ValenorGame


class raw_env(TabletopAECEnv):
    game_class = ValenorGame
    metadata = env_metadata("valenor_v0")


def env(**kwargs: Any) -> AECEnv:
    return wrap(raw_env(**kwargs))
