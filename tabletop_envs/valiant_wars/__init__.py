"""Valiant Wars: 2-5 players push their luck through their own decks to win Locations."""

from tabletop_envs.valiant_wars.rules import ValiantWarsGame

__all__ = ["ValiantWarsGame"]
