"""Spirits of Valenor: a cooperative card game of ordered hidden hands (``valenor_v0``)."""

from tabletop_envs.valenor.rules import ValenorGame

__all__ = ["ValenorGame"]
