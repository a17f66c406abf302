"""Spirits of Valenor: a cooperative card game of ordered hidden hands (``valenor_v0``)."""

from tabletop_envs.core.registry import register
from tabletop_envs.valenor import observation, render
from tabletop_envs.valenor.rules import ValenorGame

ENV = register(ValenorGame, observer=observation, text=render, version=0)

__all__ = ["ENV", "ValenorGame"]
