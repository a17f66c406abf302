"""What every game shares: the core contract, action layouts, the AEC env, returns, RNG."""

from tabletop_envs.core.actions import ActionLayout, Segment
from tabletop_envs.core.env import TabletopAECEnv, agent_name, env_metadata, wrap
from tabletop_envs.core.game import NO_SEAT, GameCore, Option, StateError
from tabletop_envs.core.rewards import REWARD_MODES, competitive_returns

__all__ = [
    "NO_SEAT",
    "REWARD_MODES",
    "ActionLayout",
    "GameCore",
    "Option",
    "Segment",
    "StateError",
    "TabletopAECEnv",
    "agent_name",
    "competitive_returns",
    "env_metadata",
    "wrap",
]
