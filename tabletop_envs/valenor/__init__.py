"""Spirits of Valenor: a cooperative card game of ordered hidden hands (``valenor_v2``)."""

from tabletop_envs.core.registry import register
from tabletop_envs.valenor import observer, picture, text
from tabletop_envs.valenor.rules import ValenorGame

ENV = register(ValenorGame, observer=observer, text=text, picture=picture, version=2)

__all__ = ["ENV", "ValenorGame"]
