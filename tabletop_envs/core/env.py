"""One PettingZoo AEC environment that serves every game core.

Illegal actions, terminal handling, reward bookkeeping, seeding and agent selection live
here once; each environment's module (``tabletop_envs/vaalbara_v1.py``) subclasses it as its
``raw_env`` and wraps it in ``env()``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from tabletop_envs.core.game import GameCore, action_index
from tabletop_envs.core.raster import rasterise
from tabletop_envs.core.replay import Replay, record

ILLEGAL_ACTION_MODES = ("terminate", "raise")
RENDER_MODES = ("ansi", "human", "rgb_array")
SEED_RANGE = "None or a whole number from 0 to 2**63 - 1"


def check_seed(seed: object) -> int | None:
    """``seed`` if it is ``None`` or a whole number in :data:`SEED_RANGE`, else a TypeError
    or ValueError naming what is accepted (a list, ``True`` or ``-1`` would fail later)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed={seed!r}; expected {SEED_RANGE}")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed={seed!r}; expected {SEED_RANGE}")
    return int(seed)


ENV_SETTINGS = ("num_players", "render_mode", "illegal_action")


def check_reset_options(options: object, game_class: type[GameCore]) -> None:
    """Refuse reset options that name an env setting or a game option: those are fixed when
    the env is made, so ``reset`` would ignore them. Other keys pass, as PettingZoo's API
    test resets with a key of its own and expects no error."""
    if options is None:
        return
    if not isinstance(options, Mapping):
        raise TypeError(f"reset(options={options!r}); expected None or a dict")
    settings = sorted(set(options) & {*ENV_SETTINGS, "seed", *game_class.OPTIONS})
    if settings:
        raise ValueError(
            f"reset(options=...) cannot change {settings}: give num_players and the game's "
            f"options ({sorted(game_class.OPTIONS)}) to env(), and the seed as reset(seed=...)"
        )


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class TabletopAECEnv(AECEnv):
    """AEC adapter over a :class:`GameCore`; a subclass sets ``game_class``, and its module's
    name (``vaalbara_v1``) becomes the environment's name in ``metadata``."""

    game_class: ClassVar[type[GameCore]]
    metadata: ClassVar[dict[str, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game_class" in cls.__dict__ and "metadata" not in cls.__dict__:
            cls.metadata = env_metadata(cls.__module__.rpartition(".")[2])

    def __init__(
        self,
        num_players: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        **game_options: Any,
    ) -> None:
        super().__init__()
        cls = self.game_class
        self.num_players = cls.check_players(
            cls.DEFAULT_PLAYERS if num_players is None else num_players
        )
        self.game_options = cls.resolve_options(game_options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r}; expected None or one of {RENDER_MODES}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action={illegal_action!r}; expected one of {ILLEGAL_ACTION_MODES}"
            )
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.possible_agents = [agent_name(p) for p in range(self.num_players)]
        self.agent_name_mapping = {name: p for p, name in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=1.0, shape=(cls.SCHEMA.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(cls.LAYOUT.total,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(cls.LAYOUT.total) for a in self.possible_agents}
        self.game: GameCore | None = None
        """The core being played; change it only through :meth:`reset` or :meth:`load_game`."""
        self._no_mask = np.zeros(cls.LAYOUT.total, dtype=np.int8)
        self._mask: np.ndarray | None = None
        """The mover's legal mask, computed once per step (by observe or step) and reused."""
        self._seeds: np.random.Generator | None = None
        """Seeds for unseeded resets, derived from the last ``reset(seed=s)``."""
        self._deal_seed: int | None = None
        """The core's seed: ``Game(num_players, seed=_deal_seed, **options)`` dealt this game."""
        self._actions: list[int] | None = None
        """The actions since the deal, for :meth:`replay`; ``None`` when they are unknown
        (a game continued with :meth:`load_game`)."""
        self._illegal_by: str | None = None
        """The agent whose illegal action ended the game (``illegal_action="terminate"``)."""

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----- lifecycle ------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: dealt from ``seed``; without one, from the next seed of the stream
        that the last seeded reset started (gymnasium's convention), else from a seed drawn
        from fresh entropy. The core is built with that seed, which :meth:`replay` records.
        ``options`` may not name the players or a game option: those are given to ``env()``."""
        seed = check_seed(seed)
        check_reset_options(options, self.game_class)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        elif self._seeds is not None:
            seed = int(self._seeds.integers(2**63))
        else:
            seed = int(np.random.default_rng().integers(2**63))
        self.game = self.game_class(self.num_players, seed=seed, **self.game_options)
        self._deal_seed, self._actions, self._illegal_by = seed, [], None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._mask = None
        self.agent_selection = self.possible_agents[self.game.current_player]

    def load_game(self, game: GameCore) -> None:
        """Continue from a given core (a saved game, a test position); its moves since the
        deal are unknown, so :meth:`replay` refuses (:meth:`load_replay` keeps them)."""
        if not isinstance(game, self.game_class) or game.num_players != self.num_players:
            raise ValueError(f"expected a {self.num_players}-player {self.game_class.NAME} game")
        self.reset()
        self.game = game
        self._actions = None
        if game.is_terminal:
            self._finish(game.returns())
        else:
            self.agent_selection = self.possible_agents[game.current_player]

    def load_replay(self, replay: Replay) -> None:
        """Continue the game of ``replay`` (rebuilt and re-checked; a ValueError says what
        differs), recording on from its actions."""
        game = replay.game()
        if replay.env != self.metadata["name"] or game.options != self.game_options:
            raise ValueError(
                f"the replay is of {replay.env} with options {game.options}; this env is "
                f"{self.metadata['name']} with options {self.game_options}"
            )
        self.load_game(game)
        self._deal_seed, self._actions = replay.seed, list(replay.actions)

    @property
    def recording(self) -> bool:
        """Whether :meth:`replay` can record the game: a game since a reset or a
        :meth:`load_replay`, not continued with :meth:`load_game` nor ended illegally."""
        return self._actions is not None and self._illegal_by is None

    def replay(self, agents: Sequence[str] | None = None) -> Replay:
        """The game since the last reset as a :class:`~tabletop_envs.core.replay.Replay`
        (unfinished games too), seats labelled by ``agents`` (default ``player_i``)."""
        if self.game is None:
            raise ValueError("no game to record: call reset() first")
        if self._actions is None:
            raise ValueError(
                "no replay: this game was continued with load_game(), so its moves since the "
                "deal are unknown (load_replay() continues a game and keeps its record)"
            )
        if self._illegal_by is not None:
            raise ValueError(
                f"no replay: {self._illegal_by} ended the game with an illegal action, "
                "and a replay holds legal games only"
            )
        return record(self.game, self._deal_seed, self._actions, agents)

    def _legal_mask(self) -> np.ndarray:
        """The mover's legal mask, from the core once per step (kept; never handed out)."""
        mask = self._mask
        if mask is None:
            mask = self._mask = self.game.legal_mask()
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        if agent == self.agent_selection and not (
            self.terminations.get(agent, True) or game.is_terminal
        ):
            mask = self._legal_mask().copy()
        else:
            mask = self._no_mask.copy()
        return {
            "observation": game.observation(self.agent_name_mapping[agent]),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        mask = self._legal_mask()
        choice = action_index(action, mask.shape[0])
        if not mask[choice]:
            self._illegal(agent, action, mask)
            return
        self._cumulative_rewards[agent] = 0.0
        game = self.game
        self._mask = None
        game.apply_unchecked(choice)
        if self._actions is not None:
            self._actions.append(choice)
        if game.is_terminal:
            self._finish(game.returns())
        else:
            self.agent_selection = self.possible_agents[game.current_player]
        if self.render_mode == "human":
            self.render()

    def _finish(self, returns: np.ndarray, info: dict[str, Any] | None = None) -> None:
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(returns[seat])
            self.terminations[agent] = True
            if info:
                self.infos[agent] = dict(info)
        self._accumulate_rewards()

    def _illegal(self, agent: str, action: Any, mask: np.ndarray) -> None:
        legal = [int(a) for a in np.flatnonzero(mask)]
        if self.illegal_action == "raise":
            raise ValueError(
                f"{self.metadata['name']}: illegal action {action!r} by {agent}; "
                f"legal actions: {legal}"
            )
        gymnasium.logger.warn(
            f"[{self.metadata['name']}] {agent} played illegal action {action!r}; game ends"
        )
        self._illegal_by = agent
        returns = np.zeros(self.num_players)
        returns[self.agent_name_mapping[agent]] = -1.0
        self._cumulative_rewards[agent] = 0.0
        self._finish(returns, {"illegal_action": agent})

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the table as text; ``human``: that text printed; ``rgb_array``: the
        table's picture (everything, as the replay viewer draws it) as an ``(H, W, 3)`` uint8
        array."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        if self.render_mode == "rgb_array":
            return self._picture()
        text = self.game.render_text() if self.game is not None else "(no game: call reset())"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _picture(self) -> np.ndarray:
        if self.game is None:
            raise ValueError("no game to draw: call reset() first")
        picture = self.game_class.PICTURE
        if picture is None:
            raise ValueError(f"{self.metadata['name']} has no picture, so no rgb_array render")
        return rasterise(picture.draw(self.game, None))

    # ----- the global state, for centralised critics -------------------------------------
    @property
    def state_space(self) -> spaces.Box:
        """Every seat's observation, in seat order: ``num_players * observation size``."""
        size = self.num_players * self.game_class.SCHEMA.size
        return spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32)

    def state(self) -> np.ndarray:
        """The whole table as one vector (the global state that centralised critics such as
        MAPPO's train on): every seat's observation in seat order, so every seat's hidden
        hand is in it; what no seat sees (the order of face-down decks) is not."""
        if self.game is None:
            raise ValueError("no state before the first reset()")
        game = self.game
        return np.concatenate([game.observation(seat) for seat in range(self.num_players)])

    def close(self) -> None:
        pass


HOT_ATTRIBUTES = (
    "agent_selection",
    "agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "_cumulative_rewards",
)
"""Read at every step of an AEC loop (``agent_iter``, ``last``, ``step``)."""


def _read_through(name: str) -> property:
    """``name`` read straight from the unwrapped env."""
    return property(lambda wrapper: getattr(wrapper._raw, name), doc=f"The env's ``{name}``.")


def _read_through_after_reset(name: str) -> property:
    """``name`` read straight from the unwrapped env once it has been reset; before that,
    PettingZoo's ``__getattr__`` answers (its checks, its messages)."""

    def read(wrapper: OrderEnforcing) -> Any:
        if wrapper._has_reset:
            return getattr(wrapper._raw, name)
        return wrappers.OrderEnforcingWrapper.__getattr__(wrapper, name)

    return property(read, doc=f"The env's ``{name}``, once reset.")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the per-step reads made direct.

    The stock wrappers reach ``agent_selection``, ``terminations`` and the rest of the
    per-step state through a ``__getattr__`` per wrapper level, which cost more than a
    whole game step of the env itself. Here they are properties reading the unwrapped env,
    and ``last()`` is the unwrapped env's: the same values, the same checks and errors
    before ``reset()``.
    """

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)
        return self._raw.last(observe)

    def step(self, action: Any) -> None:
        """PettingZoo's checks, except that a step after the game has ended raises (the
        stock wrapper only warns, and the action is lost without a word); once reset, the
        wrapped env's ``step`` is called straight (the stock one goes through two more
        frames to reach it)."""
        if not self._has_reset:
            super().step(action)
            return
        if not self._raw.agents:
            raise ValueError("step() after the game ended: call reset() to deal a new one")
        self._has_updated = True
        self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterable:
        """PettingZoo's ``agent_iter`` (the same checks and messages), each agent read
        straight from the unwrapped env."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class AgentIterable(AECOrderEnforcingIterable):
    """:meth:`OrderEnforcing.agent_iter`'s iterable: its iterator is an :class:`AgentIterator`."""

    def __iter__(self) -> AgentIterator:
        return AgentIterator(self.env, self.max_iter)


class AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator in one frame: it stops when no agent is
    left or after ``max_iter`` agents, and asserts that each agent was stepped (the stock
    iterator reads the env through three frames and two wrapper lookups an agent)."""

    def __init__(self, env: OrderEnforcing, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env._raw

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection


class AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper``, its check left to the env: an action that
    is not an integer in range raises the env's ``ValueError`` naming the accepted range
    (not a bare ``AssertionError``), in both ``illegal_action`` modes."""

    def __init__(self, env: TabletopAECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        self._raw.step(action)


for _name in HOT_ATTRIBUTES:
    setattr(OrderEnforcing, _name, _read_through_after_reset(_name))
    setattr(AssertOutOfBounds, _name, _read_through(_name))


def wrap(raw: TabletopAECEnv) -> AECEnv:
    """PettingZoo classic's wrappers (illegal moves are handled by the env), with direct
    per-step reads: ``OrderEnforcing(AssertOutOfBounds(raw))``."""
    return OrderEnforcing(AssertOutOfBounds(raw))


def env_metadata(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }
