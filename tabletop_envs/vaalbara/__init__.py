"""Vaalbara: 2-5 players explore lands over 9 rounds with secretly chosen characters."""

from tabletop_envs.vaalbara.rules import VaalbaraGame

__all__ = ["VaalbaraGame"]
