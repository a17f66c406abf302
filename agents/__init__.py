"""Bots behind one small interface: random and scripted baselines, search, learned policies, and a
terminal human player. Installed as ``tabletop_envs.agents`` (the repository folder ``agents/``).

Every agent receives exactly what the environment gives its seat (the observation dict with
its action mask, and the agent name) and returns a legal action.
"""

from tabletop_envs.agents.base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
