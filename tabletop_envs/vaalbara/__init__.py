"""Vaalbara: 2-5 players explore lands over 9 rounds with secretly chosen characters."""

from tabletop_envs.core.registry import bind_views
from tabletop_envs.vaalbara import observer, picture, text
from tabletop_envs.vaalbara.rules import VaalbaraGame

bind_views(VaalbaraGame, observer=observer, text=text, picture=picture)

__all__ = ["VaalbaraGame"]
