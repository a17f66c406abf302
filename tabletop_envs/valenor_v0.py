"""Spirits of Valenor as a PettingZoo AEC environment: ``env()``, ``raw_env()``, ``Game``."""

from tabletop_envs.valenor.env import env, raw_env
from tabletop_envs.valenor.rules import ValenorGame as Game

__all__ = ["Game", "env", "raw_env"]
