"""The single-seat gymnasium env: one game from the learner's seat, the other seats played by bots.

:class:`SeatGame` is one game from the learner's side: the learner holds one seat (drawn anew
each game), or every seat in a cooperative game (one shared policy, team reward). Opponents
move until the learner must decide or the game ends, so the learner receives every one of
its own transitions, including the last one of a game it loses.

:class:`SingleSeatEnv` is the plain ``gymnasium.Env`` over one such game, registered for every
game as ``tabletop_envs/<Game>-v<N>`` (see :mod:`tabletop_envs.core.gym_ids`). It needs the base
install only (numpy, gymnasium, pettingzoo); training's vector env
(``tabletop_envs.training.selfplay``) reuses :class:`SeatGame` and :func:`advance_opponents`
with torch opponents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from tabletop_envs.agents.advice import Advisor, advised_size, seat_advisors
from tabletop_envs.agents.base import Agent, InformationSet
from tabletop_envs.agents.loading import describe_accepted, make_agent

import tabletop_envs
from tabletop_envs.core.env import ILLEGAL_ACTION_MODES
from tabletop_envs.core.game import GameCore, action_index

ILLEGAL_ACTION_REWARD = -1.0
"""The learner's reward for an unmasked action under ``illegal_action="terminate"``."""


class Opponent:
    """Acts for a batch of seats: ``act(observations, masks) -> actions[n]``, given the ``n``
    seats' observation vectors and legal masks as rows (a sequence of arrays, or one array of
    rows; a batched policy stacks them, a bot reads them one by one); an ``advised`` opponent
    (a snapshot of an advised policy) gets each observation with its seat's advice appended."""

    label: str
    advised: bool = False
    plans: bool = False
    """Whether it is shown the seats' information sets (:meth:`see`) before it acts."""

    def see(self, informations: Sequence[InformationSet]) -> None:
        """The information sets of the seats :meth:`act` is about to be asked for, in its
        row order (only for an opponent that ``plans``)."""

    def act(self, observations: Sequence[np.ndarray], masks: Sequence[np.ndarray]) -> np.ndarray:
        raise NotImplementedError


DrawOpponent = Callable[[], Opponent]


class BotOpponent(Opponent):
    """A bot from ``agents`` (anything with ``act(observation_dict, agent)``), asked row by
    row; shown each seat's information set first only when it plans (its class has its own
    ``see``: :meth:`Agent.see` ignores it)."""

    def __init__(self, agent: Agent, label: str) -> None:
        self.agent = agent
        self.label = label
        self.plans = type(agent).see is not Agent.see
        self.informations: list[InformationSet] = []

    def see(self, informations: Sequence[InformationSet]) -> None:
        self.informations = list(informations)

    def act(self, observations: Sequence[np.ndarray], masks: Sequence[np.ndarray]) -> np.ndarray:
        agent, label, informations = self.agent, self.label, self.informations
        actions = np.empty(len(observations), dtype=np.int64)
        for row, (obs, mask) in enumerate(zip(observations, masks, strict=True)):
            if row < len(informations):
                agent.see(informations[row])  # a search bot plans on it
            actions[row] = agent.act({"observation": obs, "action_mask": mask}, label)
        self.informations = []
        return actions


class SeatGame:
    """One game seen from the learner's seat(s)."""

    render_mode = None  # read by stable-baselines3's VecEnv, which warns when it is missing

    def __init__(
        self,
        game_name: str,
        players: int,
        options: dict[str, Any],
        seed: int | None,
        advice: str = "",
    ) -> None:
        self.game_name = game_name
        self.core_class: type[GameCore] = tabletop_envs.game_module(game_name).Game
        self.players = players
        self.options = options
        self.advice = advice
        self.rng = np.random.default_rng(seed)
        self.cooperative = self.core_class.COOPERATIVE
        self.game: GameCore = self.core_class(players, seed=0, **options)
        self.learner = 0
        self.opponents: dict[int, Opponent] = {}
        self.advisors: list[Advisor] = []

    def new_game(self, draw_opponent: DrawOpponent) -> None:
        """Deal a seeded game, seat the learner, draw an opponent for every other seat."""
        self.game = self.core_class(
            self.players, seed=int(self.rng.integers(2**63)), **self.options
        )
        self.learner = int(self.rng.integers(self.players))
        seats = [] if self.cooperative else range(self.players)
        self.opponents = {seat: draw_opponent() for seat in seats if seat != self.learner}
        total = self.core_class.LAYOUT.total
        self.advisors = seat_advisors(self.advice, self.game_name, self.players, total)

    def waiting_opponent(self) -> Opponent | None:
        """The opponent that must move now, if any."""
        game = self.game
        if game.is_terminal:
            return None
        return self.opponents.get(game.current_player)

    def learner_seat(self) -> int:
        """The seat whose observation the learner sees now."""
        if self.cooperative and not self.game.is_terminal:
            return self.game.current_player
        return self.learner

    def observation(self) -> np.ndarray:
        """The learner's input: its seat's observation, advised when the table gives advice
        (no advice once the game is over: nothing is left to decide)."""
        seat = self.learner_seat()
        observation = self.game.observation(seat)
        if not self.advice:
            return observation
        if self.game.is_terminal:
            return np.concatenate([observation, np.zeros(self.core_class.LAYOUT.total, np.float32)])
        return self.advisors[seat].extend(observation, self.game.legal_mask())

    def mover_observation(self, advised: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The seat to move's observation (with its advice if ``advised``) and legal mask."""
        game = self.game
        seat, mask = game.current_player, game.legal_mask()
        observation = game.observation(seat)
        if advised:
            observation = self.advisors[seat].extend(observation, mask)
        return observation, mask

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions; all ones once the game is over (nothing to mask)."""
        game = self.game
        if game.is_terminal:
            return np.ones(game.LAYOUT.total, dtype=bool)
        return game.legal_mask().astype(bool)

    def final_reward(self) -> float:
        return float(self.game.returns()[self.learner])


def advance_opponents(tables: Sequence[SeatGame]) -> None:
    """Let opponents move, batched per opponent, until every table waits on its learner."""
    pending = list(tables)
    while pending:
        groups: dict[Opponent, list[SeatGame]] = {}
        for table in pending:
            opponent = table.waiting_opponent()
            if opponent is not None:
                groups.setdefault(opponent, []).append(table)
        pending = []
        for opponent, waiting in groups.items():
            observations, masks = zip(
                *(table.mover_observation(opponent.advised) for table in waiting), strict=True
            )
            if opponent.plans:
                opponent.see([InformationSet(t.game, t.game.current_player) for t in waiting])
            actions = opponent.act(observations, masks).tolist()
            for table, action, mask in zip(waiting, actions, masks, strict=True):
                table.game.apply(action, mask)
            pending.extend(waiting)


def spaces_for(game_name: str, advice: str = "") -> tuple[spaces.Box, spaces.Discrete]:
    """The learner's observation (advice appended, if any) and action spaces in ``game_name``."""
    core = tabletop_envs.game_module(game_name).Game
    size = advised_size(core.SCHEMA.size, core.LAYOUT.total, advice)
    observation = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
    return observation, spaces.Discrete(core.LAYOUT.total)


def opponent_agent(opponent: str | Path | Agent, game_name: str, players: int) -> Agent:
    """The bot for the other seats: an Agent, or any spec the commands accept (``random``,
    ``heuristic``, ``pretrained``, a search bot, a policy file); a ValueError names them."""
    if isinstance(opponent, Agent):
        return opponent
    if not isinstance(opponent, (str, Path)):
        raise ValueError(f"opponent={opponent!r}; expected an Agent or {describe_accepted()}")
    return make_agent(str(opponent), game_name, players=players)


def check_illegal_action(mode: str) -> str:
    if mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action={mode!r}; expected one of {ILLEGAL_ACTION_MODES}")
    return mode


class SingleSeatEnv(gymnasium.Env):
    """One game as a gymnasium env for any single-agent learner; masks via ``action_masks()``.

    Observation: the learner's ``Box(0, 1, (N,), float32)`` vector; action: ``Discrete(A)``;
    reward: the learner's return at the end, 0 before. ``info`` holds ``seat`` and the
    learner's ``action_mask``. An unmasked action (legal range, illegal now) ends the episode
    with reward -1 and ``info["illegal_action"] = True`` by default (``illegal_action=
    "terminate"``, as the AEC env), or raises a ValueError naming the legal actions
    (``"raise"``); an action outside the range is bad input and raises in both modes.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str,
        num_players: int | None = None,
        opponent: str | Path | Agent = "random",
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        **game_options: Any,
    ) -> None:
        name = tabletop_envs.resolve_name(game)
        core = tabletop_envs.game_module(name).Game
        players = core.check_players(core.DEFAULT_PLAYERS if num_players is None else num_players)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r}; expected None or 'ansi'")
        self.illegal_action = check_illegal_action(illegal_action)
        self.render_mode = render_mode
        self.table = SeatGame(name, players, core.resolve_options(game_options), seed=None)
        self.opponent = BotOpponent(opponent_agent(opponent, name, players), "opponent")
        self.observation_space, self.action_space = spaces_for(name)
        self.forfeited = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game dealt from ``seed``; unseeded resets continue the last seed's stream."""
        super().reset(seed=seed)
        table = self.table
        if seed is not None:
            table.rng = np.random.default_rng(seed)
        table.new_game(lambda: self.opponent)
        self.opponent.agent.reset(int(table.rng.integers(2**63)))
        self.forfeited = False
        advance_opponents([table])
        return table.observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self.table
        if self.forfeited or table.game.is_terminal:
            raise ValueError("the episode is over; call reset() before step()")
        choice = action_index(action, table.game.LAYOUT.total)
        mask = table.game.legal_mask()
        if not mask[choice]:
            return self._illegal(choice, mask)
        table.game.apply(choice)
        advance_opponents([table])
        done = table.game.is_terminal
        reward = table.final_reward() if done else 0.0
        return table.observation(), reward, done, False, self._info()

    def _illegal(
        self, action: int, mask: np.ndarray
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self.table
        legal = [int(a) for a in np.flatnonzero(mask)]
        if self.illegal_action == "raise":
            raise ValueError(
                f"{table.core_class.NAME}: illegal action {action} by the learner "
                f"(player_{table.learner_seat()}); legal actions: {legal}"
            )
        self.forfeited = True
        info = {**self._info(), "illegal_action": True}
        return table.observation(), ILLEGAL_ACTION_REWARD, True, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool); all ones once the episode is over."""
        if self.forfeited:
            return np.ones(self.action_space.n, dtype=bool)
        return self.table.action_masks()

    def _info(self) -> dict[str, Any]:
        return {"seat": self.table.learner, "action_mask": self.action_masks().astype(np.int8)}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return self.table.game.render_text(self.table.learner_seat())
