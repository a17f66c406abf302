"""Spirit Island: 1-4 Spirits defend an island against Invaders (cooperative).

Not registered yet: the engine is being built in layers (see docs/rules/spirit_island.md);
tests import ``tabletop_envs.spirit_island.rules`` directly.
"""
