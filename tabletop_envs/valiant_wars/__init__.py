"""Valiant Wars: 2-5 players push their luck through their own decks to win Locations."""

from tabletop_envs.core.registry import register
from tabletop_envs.valiant_wars import observer, picture, text
from tabletop_envs.valiant_wars.rules import ValiantWarsGame

ENV = register(ValiantWarsGame, observer=observer, text=text, picture=picture, version=3)

__all__ = ["ENV", "ValiantWarsGame"]
