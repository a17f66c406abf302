"""A game as an RLlib ``MultiAgentEnv``: the learner's seats are the agents, the rest the env plays.

Cooperative games: every seat is an agent and all map to one shared module (shared-policy
self-play, the team's return to every seat). Competitive games: one seat per game, drawn
anew, is the learner's agent; the others are played inside the env by a league
(``tabletop_envs.training.opponents.OpponentPool``: frozen snapshots of the learner, the
random and the heuristic bot). The driver adds snapshots to every env runner's pool with
:func:`add_snapshot_to_live_envs` every few iterations.

Only the seat to move observes, with RLlib's keys (``tabletop_envs.adapters_rllib``); when a
game ends every agent that has moved gets its last observation and its return. The rules
raise on an illegal action, so a run in which the mask let one through stops at once.
"""

from __future__ import annotations

import weakref
from typing import Any

import gymnasium
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from tabletop_envs.agents.gym_env import SeatGame, advance_opponents
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.training.opponents import OpponentPool

import tabletop_envs
from tabletop_envs.adapters_rllib import masked_observation, rllib_space

_LIVE_ENVS: weakref.WeakSet[TabletopRLlibEnv] = weakref.WeakSet()


def agent_id(seat: int) -> str:
    return f"player_{seat}"


class TabletopRLlibEnv(MultiAgentEnv):
    """One table; ``config`` holds game, players, game_options, seed and the league shares."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        game = tabletop_envs.resolve_name(config["game"])
        players = int(config["players"])
        seed = env_seed(config)
        self.table = SeatGame(game, players, dict(config.get("game_options", {})), seed)
        pool_settings = ("newest_prob", "random_share", "heuristic_share", "max_snapshots")
        self.pool = OpponentPool(
            game, seed, **{key: config[key] for key in pool_settings if key in config}
        )
        self.possible_agents = [agent_id(seat) for seat in range(players)]
        self.agents = list(self.possible_agents)
        raw = tabletop_envs.make(game, raw=True, num_players=players)
        space = rllib_space(raw.observation_space(raw.possible_agents[0]))
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(space["action_mask"].shape[0])
            for agent in self.possible_agents
        }
        self.moved: set[int] = set()
        _LIVE_ENVS.add(self)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:  # RLlib seeds each env of a runner apart (seed + index)
            self.table.rng = np.random.default_rng(seed)
            # in place: the league's snapshots share this generator
            self.pool.rng.bit_generator.state = np.random.default_rng([seed, 1]).bit_generator.state
        self.table.new_game(self.pool.draw)
        advance_opponents([self.table])
        self.moved = set()
        return self.mover_observation(), {}

    def step(self, action_dict: dict[str, int]):
        game = self.table.game
        seat = game.current_player
        game.apply(int(action_dict[agent_id(seat)]))
        self.moved.add(seat)
        advance_opponents([self.table])
        if not game.is_terminal:
            observation = self.mover_observation()
            rewards = dict.fromkeys(observation, 0.0)  # RLlib wants a reward with every obs
            return observation, rewards, {"__all__": False}, {"__all__": False}, {}
        returns = game.returns()
        observations = {
            agent_id(s): masked_observation(game.observation(s), self.no_moves())
            for s in self.moved
        }
        rewards = {agent_id(s): float(returns[s]) for s in self.moved}
        return observations, rewards, {"__all__": True}, {"__all__": False}, {}

    def mover_observation(self) -> dict[str, dict[str, np.ndarray]]:
        game = self.table.game
        seat = game.current_player
        return {agent_id(seat): masked_observation(game.observation(seat), game.legal_mask())}

    def no_moves(self) -> np.ndarray:
        """The mask of a finished game: one legal placeholder, so a masked softmax stays finite."""
        mask = np.zeros(self.table.game.LAYOUT.total, dtype=np.float32)
        mask[0] = 1.0
        return mask


def env_seed(config: Any) -> int:
    """A distinct seed per env runner (RLlib's ``EnvContext`` indices); the envs of one runner
    share its context, and RLlib's seeded first reset (seed + index) sets them apart."""
    base = int(config["seed"]) if "seed" in config else 0
    worker = int(getattr(config, "worker_index", 0))
    vector = int(getattr(config, "vector_index", 0))
    return int(np.random.SeedSequence([base, worker, vector]).generate_state(1)[0])


def add_snapshot_to_live_envs(network: PolicyNetwork, label: str) -> int:
    """Add a frozen snapshot to the league of every env of this process; how many envs."""
    envs = list(_LIVE_ENVS)
    for env in envs:
        env.pool.add_snapshot(network, label)
    return len(envs)
