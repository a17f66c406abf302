"""Vaalbara environment, version 0: ``env()``, ``raw_env()`` and the pure core ``Game``."""

from tabletop_envs.vaalbara.env import env, raw_env
from tabletop_envs.vaalbara.rules import VaalbaraGame as Game

__all__ = ["Game", "env", "raw_env"]
