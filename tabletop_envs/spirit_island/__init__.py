"""Spirit Island: 1-4 Spirits defend an island against Invaders (cooperative).

Registered as ``spirit_island_v1``: 1-4 players, one island board and one Spirit each (options
``boards`` and ``spirits``); the action layout is sized for 4 boards and the full card set.
"""

from tabletop_envs.core.registry import register
from tabletop_envs.spirit_island import observer, picture, text
from tabletop_envs.spirit_island.rules import SpiritIslandGame

ENV = register(SpiritIslandGame, observer=observer, text=text, picture=picture, version=1)

__all__ = ["ENV", "SpiritIslandGame"]
