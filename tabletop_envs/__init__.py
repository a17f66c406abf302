"""tabletop-envs: PettingZoo AEC environments for tabletop card and board games.

Each environment is a module, as in PettingZoo classic: ``from tabletop_envs import
vaalbara_v1`` gives its ``env()``, ``raw_env`` and ``Game``. ``GAMES`` (the table in
:mod:`tabletop_envs.core.registry`) maps every environment name to its module;
``make(name, **kwargs)`` builds the wrapped environment, and ``make(name, raw=True, ...)`` the
raw one. Every game's single-seat gymnasium env is registered as ``gym_id(name)``, e.g.
``gymnasium.make("tabletop_envs/Vaalbara-v1", num_players=2, opponent="heuristic")``.
"""

from __future__ import annotations

from tabletop_envs.core.gym_ids import gym_id
from tabletop_envs.core.registry import ENVIRONMENTS as GAMES
from tabletop_envs.core.registry import add_game, game_module, make, resolve_name

__version__ = "0.1.0"

__all__ = ["GAMES", "__version__", "add_game", "game_module", "gym_id", "make", "resolve_name"]
