"""Vaalbara: 2-5 players explore lands over 9 rounds with secretly chosen characters."""

from tabletop_envs.core.registry import register
from tabletop_envs.vaalbara import observer, picture, text
from tabletop_envs.vaalbara.rules import VaalbaraGame

ENV = register(VaalbaraGame, observer=observer, text=text, picture=picture, version=1)

__all__ = ["ENV", "VaalbaraGame"]
