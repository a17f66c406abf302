"""Policy-value networks in numpy, for search guided by a network (``az:N``).

A :class:`PolicyValueNetwork` is a trained policy (:class:`PolicyNetwork`: a trunk of dense
layers and the policy's logits) with a value head branching off the trunk's last hidden
layer: dense layers, ``tanh`` last, one value in [-1, 1] per seat, seats relative to the
observer (row 0 the observer, 1 the next seat, as the games' observations count them). Its
file is a policy file with the value head's layers as extra ``value_weight_i`` and
``value_bias_i`` entries and ``value_layers`` in the header, so the network alone plays
through the ordinary policy path (``tabletop-eval ... --agents net.npz``) and older readers
simply ignore the value head. Only numbers and a JSON header are read, never pickles.

:class:`AZAgent` (``az:N``) searches like :class:`~tabletop_envs.agents.search.ISMCTSAgent`
(one tree over the seat's information set, a sampled world per iteration, availability
counts) but selects by PUCT with the network's priors and values a new leaf by the network
instead of a rollout (``mix=`` blends in a rollout's value, ``rollout=heuristic`` plays it
with the scripted bot); without a network its priors are uniform and its leaves are valued
by rollouts alone (``prior=X``: a share ``X`` of each prior on the heuristic's move): the
searcher expert iteration starts from.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tabletop_envs.agents.base import InformationSet
from tabletop_envs.agents.policy import (
    ACTIVATIONS,
    PolicyFileError,
    PolicyNetwork,
    check_policy_fits,
    read_layers,
    read_policy,
    save_arrays,
)
from tabletop_envs.agents.search import (
    Node,
    RolloutPolicy,
    SearchAgent,
    SearchBudget,
    checked_setting,
    heuristic_rollout,
    parse_search_spec,
    random_rollout,
    rollout,
)

from tabletop_envs.core.game import GameCore

VALUE_PREFIX = "value_"
"""Entry prefix of the value head's layers in the file."""


@dataclass
class PolicyValueNetwork:
    """A policy (trunk and logits) and a value head on the trunk's last hidden layer."""

    policy: PolicyNetwork
    value_weights: list[np.ndarray]
    value_biases: list[np.ndarray]

    def __post_init__(self) -> None:
        if len(self.policy.weights) < 2:
            raise ValueError("a policy-value network needs a hidden layer for its value head")
        if not self.value_weights or len(self.value_weights) != len(self.value_biases):
            raise ValueError("a value head needs at least one layer, each with a weight and bias")
        width = self.policy.weights[-2].shape[0]
        for weight, bias in zip(self.value_weights, self.value_biases, strict=True):
            if weight.ndim != 2 or bias.shape != (weight.shape[0],) or weight.shape[1] != width:
                raise ValueError(
                    f"value head layer of shape {weight.shape} does not take the {width} "
                    "values before it"
                )
            width = weight.shape[0]
        self._activate = ACTIVATIONS[self.policy.activation]
        self._trunk = list(zip(self.policy.weights[:-1], self.policy.biases[:-1], strict=True))
        self._head = (self.policy.weights[-1], self.policy.biases[-1])
        self._value = list(zip(self.value_weights, self.value_biases, strict=True))

    @property
    def seats(self) -> int:
        """How many seats the value head rates."""
        return int(self.value_weights[-1].shape[0])

    def evaluate(self, observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits over every action and each seat's value (relative seats) for one
        observation (or a batch ``[n, observation_size]``)."""
        hidden = np.asarray(observation, dtype=np.float32)
        for weight, bias in self._trunk:
            hidden = self._activate(hidden @ weight.T + bias)
        logits = hidden @ self._head[0].T + self._head[1]
        value = hidden
        last = len(self._value) - 1
        for index, (weight, bias) in enumerate(self._value):
            value = value @ weight.T + bias
            value = np.tanh(value) if index == last else self._activate(value)
        return logits, value

    def save(self, path: Path) -> None:
        """Write the file atomically: the policy's entries, then the value head's."""
        self.policy.meta["value_layers"] = len(self.value_weights)
        arrays = self.policy.arrays()
        for index, (weight, bias) in enumerate(self._value):
            arrays[f"{VALUE_PREFIX}weight_{index}"] = weight.astype(np.float32)
            arrays[f"{VALUE_PREFIX}bias_{index}"] = bias.astype(np.float32)
        save_arrays(path, arrays)


def read_network(path: Path) -> PolicyValueNetwork:
    """The network stored at ``path``; :class:`PolicyFileError` for a missing, damaged or
    foreign file, or a policy file without a value head."""
    path = Path(path)
    policy = read_policy(path)
    count = policy.meta.get("value_layers")
    if count is None:
        raise PolicyFileError(
            path,
            "is a policy without a value head (no 'value_layers' in its header); an az "
            "bot needs a network written by the expert-iteration trainer",
        )
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise PolicyFileError(
            path, f"header 'value_layers' is {count!r}; expected a whole number >= 1"
        )
    weights, biases = read_layers(path, VALUE_PREFIX, count)
    try:
        return PolicyValueNetwork(policy, weights, biases)
    except ValueError as error:
        raise PolicyFileError(path, str(error)) from None


def load_network(path: Path, game_name: str, players: int | None = None) -> PolicyValueNetwork:
    """The network at ``path``, checked against environment ``game_name`` (and ``players``):
    ValueError naming each mismatch."""
    from tabletop_envs import game_module, resolve_name

    name = resolve_name(game_name)
    core = game_module(name).Game
    network = read_network(path)
    if network.policy.advice:
        raise PolicyFileError(path, "is an advised policy; an az bot reads plain observations")
    check_policy_fits(network.policy, name, players, (core.SCHEMA.size, core.LAYOUT.total), path)
    expected_seats = network.policy.meta.get("players")
    if network.seats != expected_seats:
        raise PolicyFileError(
            path,
            f"value head rates {network.seats} seats; its header says {expected_seats} players",
        )
    return network


@dataclass
class PriorNode(Node):
    """A tree node that also keeps the network's logits for the decision pending there
    (met first in the world that reached it; ``None`` until then)."""

    logits: np.ndarray | None = None


class AZAgent(SearchAgent):
    """Information-set search by PUCT, guided by a policy-value network (or by rollouts)."""

    name = "az"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 100,
        milliseconds: float | None = None,
        exploration: float = 1.5,
        network: PolicyValueNetwork | None = None,
        rollout_policy: RolloutPolicy = random_rollout,
        depth: int | None = None,
        value: str = "win",
        mix: float | None = None,
        root_noise: float = 0.0,
        sample_moves: bool = False,
        policy_prior: float = 0.0,
    ) -> None:
        super().__init__(seed, rollout_policy, depth, value)
        self.budget = SearchBudget(iterations, milliseconds)
        self.exploration = checked_setting("c", exploration)
        if network is None and mix not in (None, 1.0):
            raise ValueError("mix= blends the network's value with rollouts: it needs a network")
        if network is not None and policy_prior:
            raise ValueError("a policy prior replaces a network's priors: give one or the other")
        self.network = network
        self.mix = checked_setting("mix", 1.0 if network is None else (mix or 0.0))
        self.policy_prior = checked_setting("prior", policy_prior)
        """Without a network: the share of each node's prior on the rollout policy's move
        (the rest uniform), so the search starts from that policy's play."""
        self.root_noise = root_noise
        """Weight of Dirichlet noise on the root priors (0 in play; training explores)."""
        self.sample_moves = sample_moves
        """Play a move drawn in proportion to the root's visits (training), not the most visited."""
        self.last_visits: dict[int, int] = {}
        """The root's visit counts of the last search (what expert iteration learns from)."""

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        self.last_visits = {}
        return super().act(observation, agent)

    def search(self, information: InformationSet, legal: list[int]) -> int:
        root = PriorNode(seat=information.seat)
        for _ in self.budget.runs():
            self._iterate(root, information.sample(self.rng))
        self.last_visits = {a: root.children[a].visits if a in root.children else 0 for a in legal}
        visits = np.array([self.last_visits[a] for a in legal], dtype=float)
        if self.sample_moves and visits.sum() > 0:
            return legal[int(self.rng.choice(len(legal), p=visits / visits.sum()))]
        priors = _priors(root.logits, legal) if root.logits is not None else np.zeros(len(legal))
        best = max(range(len(legal)), key=lambda index: (visits[index], priors[index]))
        return legal[best]

    def _iterate(self, root: PriorNode, world: GameCore) -> None:
        """One iteration in ``world``: descend by PUCT over branching decisions, value the
        leaf (or the end) and back each node's seat's value up the path."""
        node, path = root, []
        while not world.is_terminal:
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply_unchecked(legal[0])
                continue
            if node.logits is None:
                node.logits, values = self._evaluate(world)
                break
            action = self._select(node, legal, world.current_player, node is root)
            world.apply_unchecked(action)
            node = node.children[action]
            path.append(node)
        else:
            values = self.value(world)
        for child in path:
            child.visits += 1
            child.total += float(values[child.seat])

    def _select(self, node: PriorNode, legal: list[int], seat: int, at_root: bool) -> int:
        """The legal action with the best PUCT score; every legal child counts as available."""
        priors = _priors(node.logits, legal)
        if at_root and self.root_noise > 0:
            noise = self.rng.dirichlet(np.full(len(legal), 0.3))
            priors = (1 - self.root_noise) * priors + self.root_noise * noise
        best, best_score = legal[0], -math.inf
        for action, prior in zip(legal, priors, strict=True):
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = PriorNode(seat=seat)
            child.available += 1
            mean = child.total / child.visits if child.visits else 0.0
            score = mean + self.exploration * prior * math.sqrt(child.available) / (
                1 + child.visits
            )
            if score > best_score:
                best, best_score = action, score
        return best

    def _evaluate(self, world: GameCore) -> tuple[np.ndarray, np.ndarray]:
        """Logits for the pending decision and every seat's value: the network's, blended
        with (or, without a network, replaced by) a rollout's from ``world``."""
        seat = world.current_player
        if self.network is None:
            logits = self._policy_logits(world)
            values = np.zeros(world.num_players)
        else:
            logits, relative = self.network.evaluate(world.observation(seat))
            if relative.shape[0] != world.num_players:
                raise ValueError(
                    f"the network rates {relative.shape[0]} seats; this game has "
                    f"{world.num_players} players"
                )
            values = np.roll(relative.astype(float), seat)
        if self.mix > 0:
            played = rollout(world, self.rollout_policy, self.rng, self.depth, self.value)
            values = (1 - self.mix) * values + self.mix * played
        return logits, values

    def _policy_logits(self, world: GameCore) -> np.ndarray:
        """Uniform logits, or with ``policy_prior`` logits whose softmax over the legal
        actions puts that share on the rollout policy's move on top of a uniform rest."""
        logits = np.zeros(world.LAYOUT.total, dtype=np.float32)
        if self.policy_prior > 0:
            legal = len(world.legal_actions())
            favoured = self.rollout_policy(world, self.rng)
            rest = (1 - self.policy_prior) / legal
            logits[favoured] = math.log((self.policy_prior + rest) / rest)
        return logits


def _priors(logits: np.ndarray, legal: list[int]) -> np.ndarray:
    """The softmax of ``logits`` over the ``legal`` actions."""
    chosen = logits[legal].astype(float)
    chosen = np.exp(chosen - chosen.max())
    return chosen / chosen.sum()


AZ_SPEC = "az"
"""The spec prefix of the network-guided search bot: ``az:ITERATIONS[,net=PATH][,...]``."""


def az_factory(
    spec: str, game_name: str, players: int | None = None
) -> Callable[[int | None], AZAgent]:
    """A checked factory ``seed -> AZAgent`` for ``spec`` in environment ``game_name``: the
    network is read and checked against the game (and ``players``) now."""
    _, budget, settings = parse_search_spec(spec)
    network = _spec_network(spec, settings.pop("net", None), game_name, players)
    mix = settings.pop("mix", None)
    prior = settings.pop("prior", None)
    if prior is not None and network is not None:
        raise ValueError(f"bad search bot {spec!r}: prior= is for a search without net=")
    if network is None and mix is not None:
        raise ValueError(f"bad search bot {spec!r}: mix= blends a network with rollouts; give net=")
    if network is not None and mix is None and {"rollout", "depth", "value"} & set(settings):
        raise ValueError(
            f"bad search bot {spec!r}: with net= and no mix= the network values every leaf; "
            "give mix= (the rollouts' share) to play rollouts too"
        )
    heuristic = settings.pop("rollout", "random") == "heuristic"
    if prior is not None and not heuristic:
        raise ValueError(
            f"bad search bot {spec!r}: prior= favours the heuristic's move; it "
            "needs rollout=heuristic"
        )
    if heuristic:
        heuristic_rollout(game_name, None)  # fails now if the game has no bot
    keywords = {
        "milliseconds" if k == "ms" else "exploration" if k == "c" else k: v
        for k, v in settings.items()
    }

    def make(seed: int | None) -> AZAgent:
        policy = heuristic_rollout(game_name, seed) if heuristic else random_rollout
        return AZAgent(
            seed=seed,
            iterations=budget,
            network=network,
            rollout_policy=policy,
            mix=mix,
            policy_prior=prior or 0.0,
            **keywords,
        )

    return make


def _spec_network(
    spec: str, path: str | None, game_name: str, players: int | None
) -> PolicyValueNetwork | None:
    if path is None:
        return None
    if path == "pretrained":
        path = str(_pretrained_network(spec, game_name, players))
    try:
        return load_network(Path(path), game_name, players)
    except ValueError as error:
        raise ValueError(f"bad search bot {spec!r}: net= {error}") from None


def _pretrained_network(spec: str, game_name: str, players: int | None) -> Path:
    """The shipped network for the game and count, if it has a value head (``net=pretrained``)."""
    from tabletop_envs.agents import pretrained

    from tabletop_envs import resolve_name

    try:
        path = pretrained.pretrained_path(resolve_name(game_name), players)
    except ValueError as error:
        raise ValueError(f"bad search bot {spec!r}: net=pretrained: {error}") from None
    if read_policy(path).meta.get("value_layers") is None:
        raise ValueError(
            f"bad search bot {spec!r}: net=pretrained: the shipped {path.name} is a policy "
            "without a value head (trained by PPO); give net=PATH, a network written by "
            "tabletop-train --algo exit"
        )
    return path
