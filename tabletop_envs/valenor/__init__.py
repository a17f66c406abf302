"""Spirits of Valenor: a cooperative card game of ordered hidden hands (``valenor_v2``)."""

from tabletop_envs.core.registry import bind_views
from tabletop_envs.valenor import observer, picture, text
from tabletop_envs.valenor.rules import ValenorGame

bind_views(ValenorGame, observer=observer, text=text, picture=picture)

__all__ = ["ValenorGame"]
