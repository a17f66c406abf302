"""Gymnasium ids for the single-seat env of every game: ``tabletop_envs/Vaalbara-v1``.

The id tracks the environment's version: ``vaalbara_v1`` is ``tabletop_envs/Vaalbara-v1``,
``spirit_island_v1`` is ``tabletop_envs/SpiritIsland-v1``. Registration names the env class by
an entry-point string (``tabletop_envs.agents.gym_env:SingleSeatEnv``), which gymnasium imports
only in
``gymnasium.make``: this package never imports ``agents`` itself (the layers stay one-way),
yet ``import tabletop_envs`` is enough to make every id known.
"""

from __future__ import annotations

import gymnasium

NAMESPACE = "tabletop_envs"
ENTRY_POINT = "tabletop_envs.agents.gym_env:SingleSeatEnv"


def gym_id(name: str) -> str:
    """``vaalbara_v1`` -> ``tabletop_envs/Vaalbara-v1``."""
    base, version = name.rsplit("_v", 1)
    title = "".join(part.capitalize() for part in base.split("_"))
    return f"{NAMESPACE}/{title}-v{version}"


def register_gym_env(name: str) -> str:
    """Register environment ``name``'s single-seat env with gymnasium (once); its id."""
    env_id = gym_id(name)
    if env_id not in gymnasium.registry:
        gymnasium.register(env_id, entry_point=ENTRY_POINT, kwargs={"game": name})
    return env_id
