"""Search bots over hidden information: single-observer ISMCTS and determinised Monte Carlo.

Both plan from one seat's information only. They never read the game they are given except
through :class:`InformationSet`, which hands out *worlds*: copies of the game in which
everything the seat cannot see is redrawn consistently with its view
(``GameCore.resample_hidden``) and the random generator is reseeded, so future chance (a
shuffle to come) is not known either. Search then runs on the pure core (``clone``,
``apply``, ``legal_actions``, ``returns``), never through the AEC wrappers.

- :class:`ISMCTSAgent` (Cowling, Powley & Whitehouse 2012, SO-ISMCTS): one tree over the
  seat's information set; each iteration samples a world, descends by UCB1 with availability
  counts among the actions legal in that world, expands one, rolls out, and backs up every
  seat's return (each node is judged by the seat that moves there, so cooperative games plan
  for the team and competitive ones assume each opponent plays for itself).
- :class:`PIMCAgent` (perfect-information Monte Carlo): sample N worlds, score each legal
  action by rollouts in each, pick the best total (a tie keeps the rollout policy's move).

Budgets are iterations (or worlds) per move, optionally capped by milliseconds (ISMCTS stops
between iterations after the first, PIMC after any rollout once every action has one); rollouts
are uniformly random or a callable policy (a scripted bot handed the search's generator),
played to the end or cut off after ``depth`` decisions and valued by :func:`estimate`. With a
game's :class:`SearchGuide` (``guide=heuristic``) the bot searches only the decisions the guide
names (the heuristic bot answers the others), rollouts stop where the guide's stage ends and
the guide values where they stopped; PIMC then plays every action of a world from the same
generator state (common random numbers). Reproducible under the agent's seed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
from tabletop_envs.agents.base import InformationSet, SearchGuide, SeededAgent

from tabletop_envs.core.game import GameCore
from tabletop_envs.core.rewards import score_margin_returns
from tabletop_envs.core.rng import make_rng

NumberT = TypeVar("NumberT", int, float)
RolloutPolicy = Callable[[GameCore, np.random.Generator], int]
Value = Callable[[GameCore], np.ndarray]
Within = Callable[[GameCore], bool]


def random_rollout(game: GameCore, rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    legal = game.legal_actions()
    return legal[int(rng.integers(len(legal)))]


def estimate(game: GameCore) -> np.ndarray:
    """Every seat's value of a position, ended or not, in [-1, 1]: the score margin
    (``score_margin_returns`` of ``scores()``) in a scored game; in a cooperative one +1 for a
    win, -1 + ``progress()`` (the share of the way to victory) for a loss, and for a game
    still going ``progress() / 2``, halfway between losing now and winning, so surviving
    always beats losing; else ``returns()``."""
    scores = game.scores()
    if scores is not None:
        return score_margin_returns(scores)
    progress = game.progress()
    if progress is None or (game.is_terminal and game.returns()[0] > 0):
        return game.returns()
    return np.full(game.num_players, -1.0 + progress if game.is_terminal else progress / 2)


def outcome(game: GameCore) -> np.ndarray:
    """The game's own returns at the end; :func:`estimate` at a cut-off."""
    return game.returns() if game.is_terminal else estimate(game)


VALUES: dict[str, Value] = {"win": outcome, "margin": estimate}
"""``value=`` setting -> what a rollout backs up: the outcome, or the margin/progress."""


def rollout(
    game: GameCore,
    policy: RolloutPolicy,
    rng: np.random.Generator,
    depth: int | None = None,
    value: Value = outcome,
    within: Within | None = None,
) -> np.ndarray:
    """Play ``game`` (in place) with ``policy`` to the end, for at most ``depth`` decisions,
    or while ``within`` holds; every seat's ``value`` of where it stopped."""
    steps = 0
    while not game.is_terminal and steps != depth and (within is None or within(game)):
        game.apply_unchecked(policy(game, rng))
        steps += 1
    return value(game)


class SearchBudget:
    """Iterations per move, optionally capped by wall-clock milliseconds."""

    def __init__(self, iterations: int, milliseconds: float | None = None) -> None:
        if iterations < 1:
            raise ValueError(f"a search needs at least 1 iteration, not {iterations}")
        self.iterations = iterations
        self.milliseconds = None if milliseconds is None else checked_setting("ms", milliseconds)

    def runs(self) -> range | _Timed:
        if self.milliseconds is None:
            return range(self.iterations)
        return _Timed(self.iterations, self.milliseconds_from_now())

    def deadline(self) -> float | None:
        """The ``time.perf_counter()`` at which a search started now must stop (None: none)."""
        return None if self.milliseconds is None else self.milliseconds_from_now()

    def milliseconds_from_now(self) -> float:
        return time.perf_counter() + (self.milliseconds or 0.0) / 1000


class _Timed:
    """Counts up to ``limit`` iterations, stopping early (after at least one) at ``deadline``."""

    def __init__(self, limit: int, deadline: float) -> None:
        self.limit, self.deadline = limit, deadline

    def __iter__(self):
        for index in range(self.limit):
            if index and time.perf_counter() > self.deadline:
                return
            yield index


def checked_depth(depth: int | None) -> int | None:
    if depth is not None and depth < 1:
        raise ValueError(f"a rollout cut-off needs a depth of at least 1 decision, not {depth}")
    return depth


class SearchAgent(SeededAgent):
    """A bot that is handed its :class:`InformationSet` before each move (by the arena and
    ``tabletop-play``) and answers from it; the observation only confirms the legal set."""

    def __init__(
        self,
        seed: int | None = None,
        rollout_policy: RolloutPolicy = random_rollout,
        depth: int | None = None,
        value: str = "win",
        guide: SearchGuide | None = None,
        stages: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.information: InformationSet | None = None
        self.rollout_policy = rollout_policy
        self.depth, self.guide = checked_depth(depth), guide
        self.value = guide.value if guide is not None else VALUES[value]
        self.stages = checked_stages(stages, guide)

    def see(self, information: InformationSet) -> None:
        self.information = information

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        information, self.information = self.information, None
        if information is None:
            raise ValueError(f"{self.name} needs the game: call see(InformationSet) before act")
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        if not legal:
            raise ValueError(f"{agent} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if self.guide is not None and not self.guide.searches(observation["observation"]):
            return self.rollout_policy(information.sample(self.rng), self.rng)
        return self.search(information, legal)

    def search(self, information: InformationSet, legal: list[int]) -> int:
        raise NotImplementedError

    def _policy_move(self, information: InformationSet) -> int:
        """The rollout policy's move in a sampled world: the one kept on a tie, so the search
        departs from that policy only on better evidence."""
        return self.rollout_policy(information.sample(self.rng), self.rng)

    def _within(self, world: GameCore) -> Within | None:
        """While rollouts from ``world`` go on (None: no guide): within its guide stage, or,
        for more than one stage (``stages``: the guide's numbers its stages), within that many
        stages from ``world``'s."""
        if self.guide is None:
            return None
        stage, guide, stages = self.guide.stage(world), self.guide, self.stages
        if stages == 1:
            return lambda game: guide.stage(game) == stage
        return lambda game: guide.stage(game) < stage + stages


def checked_stages(stages: int | None, guide: SearchGuide | None) -> int:
    """The guide stages a rollout plays: ``stages`` (the spec's ``stages=``), else the guide's
    own (1 where it sets none); a ValueError where the setting has no numbered stages to count
    (no guide, or a guide whose stages are not numbered)."""
    own = getattr(guide, "stages", None)
    if stages is None:
        return own or 1
    if own is None:
        raise ValueError(
            f"stages={stages} needs a guide whose stages are numbered "
            "(guide=heuristic in spirit_island_v1, where a stage is a turn)"
        )
    return checked_setting("stages", stages)


@dataclass
class Node:
    """A node of the information-set tree: statistics of the action that leads here."""

    seat: int
    """The seat that chose the action leading here (whose return judges it)."""
    visits: int = 0
    available: int = 0
    total: float = 0.0
    children: dict[int, Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(
            math.log(self.available) / self.visits
        )


class ISMCTSAgent(SearchAgent):
    """Single-observer Information-Set MCTS (UCB1 with availability counts)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 1000,
        milliseconds: float | None = None,
        exploration: float = 1.4,
        rollout_policy: RolloutPolicy = random_rollout,
        depth: int | None = None,
        value: str = "win",
        guide: SearchGuide | None = None,
        stages: int | None = None,
    ) -> None:
        super().__init__(seed, rollout_policy, depth, value, guide, stages)
        self.budget = SearchBudget(iterations, milliseconds)
        self.exploration = checked_setting("c", exploration)

    def search(self, information: InformationSet, legal: list[int]) -> int:
        root = Node(seat=information.seat)
        default = self._policy_move(information)
        for index in self.budget.runs():
            world = information.sample(self.rng)
            within = self._within(world)
            path = self._descend(root, world, within, default if index == 0 else None)
            returns = rollout(world, self.rollout_policy, self.rng, self.depth, self.value, within)
            for node in path:
                node.visits += 1
                node.total += float(returns[node.seat])
        return max(
            legal, key=lambda action: _preference(root.children.get(action), action == default)
        )

    def _descend(
        self, node: Node, world: GameCore, within: Within | None, first: int | None = None
    ) -> list[Node]:
        """Select and expand one path in ``world`` (advanced in place) while ``within`` holds;
        the nodes on it; ``first``, if legal and untried here, is the action expanded.
        ``node`` is the root, whose seat is the one searching."""
        path, seat = [], node.seat
        while not world.is_terminal and (within is None or within(world)):
            if not self._branches(world, seat):
                world.apply_unchecked(self.rollout_policy(world, self.rng))
                continue
            legal = world.legal_actions()
            fresh = []
            for action in legal:
                child = node.children.get(action)
                if child is None:
                    fresh.append(action)
                else:
                    child.available += 1
            if fresh:
                action = first if first in fresh else fresh[int(self.rng.integers(len(fresh)))]
                child = node.children[action] = Node(seat=world.current_player, available=1)
                world.apply_unchecked(action)
                path.append(child)
                return path
            action = max(legal, key=lambda a: node.children[a].ucb(self.exploration))
            world.apply_unchecked(action)
            node = node.children[action]
            path.append(node)
        return path

    def _branches(self, world: GameCore, seat: int) -> bool:
        """Whether the tree branches on the decision pending in ``world``: always, unguided;
        with a guide, only on the searching seat's own decisions that the guide searches (the
        rollout policy plays the others in the tree as in rollouts)."""
        if self.guide is None:
            return True
        return world.current_player == seat and self.guide.searches(world.observation(seat))


def _preference(child: Node | None, default: bool) -> tuple[int, bool]:
    """The root action to play: most visited, then the rollout policy's own choice
    (``default``), so the search departs from that policy only on more visits."""
    return (child.visits if child else 0, default)


DEFAULT_ROLLOUTS = 4
"""PIMC's rollouts per world and action when neither the spec nor the guide names a number
(a guide whose rollouts within one world play out alike sets ``rollouts_per_world``)."""


class PIMCAgent(SearchAgent):
    """Determinised Monte Carlo: rollouts of each legal action in N sampled worlds."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 20,
        rollouts: int | None = None,
        milliseconds: float | None = None,
        rollout_policy: RolloutPolicy = random_rollout,
        depth: int | None = None,
        value: str = "win",
        guide: SearchGuide | None = None,
        stages: int | None = None,
    ) -> None:
        super().__init__(seed, rollout_policy, depth, value, guide, stages)
        self.budget = SearchBudget(worlds, milliseconds)
        if rollouts is None:
            rollouts = getattr(guide, "rollouts_per_world", DEFAULT_ROLLOUTS)
        self.rollouts = checked_setting("rollouts", rollouts)

    def search(self, information: InformationSet, legal: list[int]) -> int:
        """Rounds of one rollout of every action, ``rollouts`` rounds a world; under ``ms=``
        the first round always runs and the round under way at the deadline is dropped, so
        every action is judged on the same rollouts."""
        seat = information.seat
        default = self._policy_move(information)
        totals = dict.fromkeys(legal, 0.0)
        deadline = self.budget.deadline()
        rounds = 0
        for _ in range(self.budget.iterations):
            world = information.sample(self.rng)
            within = self._within(world)
            for _ in range(self.rollouts):
                values = self._round(world, legal, seat, within, deadline if rounds else None)
                if values is None:
                    return _best(totals, default)
                rounds += 1
                for action, value in values.items():
                    totals[action] += value
        return _best(totals, default)

    def _round(
        self,
        world: GameCore,
        legal: list[int],
        seat: int,
        within: Within | None,
        deadline: float | None,
    ) -> dict[int, float] | None:
        """``seat``'s value of one rollout of each action in ``world``; None once ``deadline``
        passes. Guided, every action is played from the same generator state (common random
        numbers, so the values differ by the actions, not by luck)."""
        seed = int(self.rng.integers(2**63)) if self.guide is not None else None
        values = {}
        for action in legal:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            trial = world.clone()
            rng = self.rng
            if seed is not None:
                trial.rng, rng = make_rng(seed), make_rng(seed)
            trial.apply_unchecked(action)
            returns = rollout(trial, self.rollout_policy, rng, self.depth, self.value, within)
            values[action] = float(returns[seat])
        return values


def _best(totals: dict[int, float], default: int) -> int:
    """The action with the best total; a tie keeps the rollout policy's move (``default``)."""
    return max(totals, key=lambda action: (totals[action], action == default))


SEARCH_SPECS = {"ismcts": ISMCTSAgent, "pimc": PIMCAgent}
"""Spec prefix -> search bot; the number after the colon is its budget per move."""
_COMMON = {"ms": float, "rollout": str, "depth": int, "value": str, "guide": str, "stages": int}
_SETTINGS = {
    "ismcts": {**_COMMON, "c": float},
    "pimc": {**_COMMON, "rollouts": int},
    "az": {
        "ms": float,
        "rollout": str,
        "depth": int,
        "value": str,
        "c": float,
        "net": str,
        "mix": float,
        "prior": float,
    },
}
"""Each spec prefix's settings; ``az`` (:mod:`tabletop_envs.agents.az`, network-guided)
is built by its own factory there."""
_KEYWORDS = {"ms": "milliseconds", "c": "exploration"}
"""Settings whose keyword argument has another name."""


NUMBER_RANGES = {
    "ms": (0.0, False, "must be a positive number of milliseconds"),
    "c": (0.0, True, "must be an exploration constant of 0 or more"),
    "rollouts": (1, True, "must be at least 1 rollout"),
    "depth": (1, True, "must be at least 1 decision"),
    "stages": (1, True, "must be at least 1 stage of the guide"),
    "mix": (0.0, True, "must be the rollouts' share of a leaf's value, from 0 to 1"),
    "prior": (0.0, True, "must be the heuristic move's share of a prior, from 0 to 1"),
}
"""Numeric setting -> (bound, whether the bound itself is allowed, what is accepted)."""


def setting_problem(key: str, value: object) -> str:
    """What is wrong with a numeric search setting ('' if nothing): below its bound, or not
    finite."""
    if key not in NUMBER_RANGES:
        return ""
    bound, inclusive, accepted = NUMBER_RANGES[key]
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number) or number < bound or (number == bound and not inclusive):
        return accepted
    if key in ("mix", "prior") and number > 1:
        return accepted
    return ""


def checked_setting(key: str, value: NumberT) -> NumberT:
    """``value`` if it suits the numeric setting ``key`` (a spec's key), else a ValueError
    naming the keyword argument and what it accepts."""
    problem = setting_problem(key, value)
    if problem:
        raise ValueError(f"{_KEYWORDS.get(key, key)}={value} {problem}")
    return value


def heuristic_rollout(game_name: str, seed: int | None) -> RolloutPolicy:
    """A rollout policy playing the game's scripted bot for every seat, drawing from the
    generator it is handed (the search's own, so a seeded search is reproducible) and reading
    the world itself where the bot can (``act_in``), else the seat's observation."""
    from tabletop_envs.agents.heuristics import heuristic_agent

    bot = heuristic_agent(game_name, seed=seed)
    act_in = getattr(bot, "act_in", None)

    def policy(game: GameCore, rng: np.random.Generator) -> int:
        bot.rng = rng
        seat = game.current_player
        if act_in is not None:
            return act_in(game, seat)
        view = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
        return bot.act(view, f"player_{seat}")

    return policy


def parse_search_spec(spec: str) -> tuple[str, int, dict[str, object]]:
    """``ismcts:1000,ms=500`` -> ("ismcts", 1000, {"ms": 500.0}); ValueError naming the part."""
    kind, _, rest = spec.partition(":")
    budget_text, *pairs = rest.split(",")
    keys = sorted(_SETTINGS[kind])
    accepted = f"'{kind}:N' (N a positive whole number), then ',key=value' with keys {keys}"
    try:
        budget = int(budget_text)
    except ValueError:
        raise ValueError(f"bad search bot {spec!r}: expected {accepted}") from None
    if budget < 1:
        raise ValueError(f"bad search bot {spec!r}: the budget must be at least 1")
    settings: dict[str, object] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in _SETTINGS[kind]:
            raise ValueError(
                f"bad search bot {spec!r}: unknown setting {key!r}; expected {accepted}"
            )
        try:
            settings[key] = _SETTINGS[kind][key](value)
        except ValueError:
            raise ValueError(f"bad search bot {spec!r}: {key}={value!r} is not a number") from None
    if settings.get("rollout", "random") not in ("random", "heuristic"):
        raise ValueError(f"bad search bot {spec!r}: rollout must be 'random' or 'heuristic'")
    if settings.get("value", "win") not in VALUES:
        raise ValueError(f"bad search bot {spec!r}: value must be one of {sorted(VALUES)}")
    for key, value in settings.items():
        problem = setting_problem(key, value)
        if problem:
            raise ValueError(f"bad search bot {spec!r}: {key}={value} {problem}")
    if "guide" in settings:
        _check_guided(spec, settings)
    return kind, budget, settings


def _check_guided(spec: str, settings: dict[str, object]) -> None:
    """``guide=heuristic`` plays heuristic rollouts valued by the guide: nothing else."""
    if settings["guide"] != "heuristic":
        raise ValueError(f"bad search bot {spec!r}: guide must be 'heuristic'")
    for key, allowed in (("rollout", "heuristic"), ("value", None)):
        if key in settings and settings[key] != allowed:
            raise ValueError(
                f"bad search bot {spec!r}: {key}= does not go with guide=heuristic "
                "(the guide plays heuristic rollouts and values where they stop)"
            )


def search_factory(spec: str, game_name: str) -> Callable[[int | None], SearchAgent]:
    """A checked factory ``seed -> search bot`` for ``spec`` in environment ``game_name``."""
    from tabletop_envs.agents.heuristics import search_guide

    kind, budget, settings = parse_search_spec(spec)
    guided = settings.pop("guide", None) is not None
    heuristic = settings.pop("rollout", "random") == "heuristic" or guided
    if heuristic:
        heuristic_rollout(game_name, None)  # fails now if the game has no bot
    keywords = {_KEYWORDS.get(key, key): value for key, value in settings.items()}
    if guided:
        keywords["guide"] = search_guide(game_name)
    if "stages" in keywords:
        try:
            checked_stages(keywords["stages"], keywords.get("guide"))  # type: ignore[arg-type]
        except ValueError as error:
            raise ValueError(f"bad search bot {spec!r}: {error}") from None
    keywords["iterations" if kind == "ismcts" else "worlds"] = budget

    def make(seed: int | None) -> SearchAgent:
        policy = heuristic_rollout(game_name, seed) if heuristic else random_rollout
        return SEARCH_SPECS[kind](seed=seed, rollout_policy=policy, **keywords)

    return make
