"""Valiant Wars: 2-5 players push their luck through their own decks to win Locations."""

from tabletop_envs.core.registry import bind_views
from tabletop_envs.valiant_wars import observer, picture, text
from tabletop_envs.valiant_wars.rules import ValiantWarsGame

bind_views(ValiantWarsGame, observer=observer, text=text, picture=picture)

__all__ = ["ValiantWarsGame"]
