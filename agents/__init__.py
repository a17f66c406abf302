"""Bots behind one small interface: random and scripted baselines, and a terminal human player.

Every agent receives exactly what the environment gives its seat (the observation dict with
its action mask, and the agent name) and returns a legal action.
"""

from agents.base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
