"""Valiant Wars environment, version 0: ``env()``, ``raw_env()`` and the pure core ``Game``."""

from tabletop_envs.valiant_wars.env import env, raw_env
from tabletop_envs.valiant_wars.rules import ValiantWarsGame as Game

__all__ = ["Game", "env", "raw_env"]
