"""Spirit Island: 1-4 Spirits defend an island against Invaders (cooperative).

The rules core, observer and text are bound here; the environment joins
``tabletop_envs.GAMES`` (as ``spirit_island_v0``) once the whole conformance suite passes
for it. Until then tests import this package directly.
"""

from tabletop_envs.core.registry import register
from tabletop_envs.spirit_island import observer, text
from tabletop_envs.spirit_island.rules import SpiritIslandGame

ENV = register(SpiritIslandGame, observer=observer, text=text, version=0)

__all__ = ["ENV", "SpiritIslandGame"]
