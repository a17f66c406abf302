"""The observation as RLlib's action-masking modules read it (numpy and gymnasium only).

Our envs observe ``{"observation": Box(float32), "action_mask": Box(int8)}``; RLlib's
action-masking RLModules (its example ``ActionMaskingTorchRLModule`` and
``tabletop_envs.training.rllib.module.MaskedActorCritic``) read ``{"observations": ...,
"action_mask": ...}``
and take the mask's logarithm, so the mask must be a float. Without this mapping RLlib
stops
with ``KeyError: 'observations'``. The env that RLlib runs (``tabletop_envs.training.rllib.env``)
needs Ray;
this module does not, so the mapping is tested with the base install.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from gymnasium import spaces

OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"


def rllib_space(space: spaces.Dict) -> spaces.Dict:
    """Our ``Dict(observation, action_mask)`` as RLlib's ``Dict(observations, action_mask)``."""
    missing = {"observation", ACTION_MASK} - set(space.spaces)
    if missing:
        raise ValueError(
            f"observation space lacks {sorted(missing)}; expected a Dict with 'observation' "
            f"and 'action_mask'"
        )
    size = space[ACTION_MASK].shape
    return spaces.Dict(
        {
            OBSERVATIONS: space["observation"],
            ACTION_MASK: spaces.Box(0.0, 1.0, size, dtype=np.float32),
        }
    )


def rllib_observation(observation: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One observation with RLlib's keys: the vector as is, the mask as float32 0/1."""
    return masked_observation(observation["observation"], observation[ACTION_MASK])


def masked_observation(vector: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """An observation vector and its legal-action mask in RLlib's layout."""
    return {
        OBSERVATIONS: np.asarray(vector, dtype=np.float32),
        ACTION_MASK: np.asarray(mask, dtype=np.float32),
    }
