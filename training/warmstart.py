"""Warm start: clone a scripted bot's play into the policy before self-play begins.

The bot plays every seat of seeded games through the pure core; each of its decisions is
kept with the observation, the mask and, once the game ends, that seat's return discounted as
PPO discounts it (``gamma`` once per decision the learner still makes before the end). The
actor learns the bot's choices (masked cross-entropy) and the critic those returns (squared
error), so PPO starts from the bot's level instead of from random play, with a critic whose
values are the ones its own targets will ask for.

A clone that matches most demonstrated moves still drifts into states the bot never shows it.
DAgger rounds (``dagger``) fix that: the cloned policy plays every seat of new seeded games,
the bot of each seat labels every decision the policy faced, and the policy is cloned again
on all the data gathered so far. The policy plays greedily (its most likely legal action), as
the exported policy plays in evaluation and in ``tabletop-eval``, so the states relabelled are
exactly those the warm-started policy reaches when it is measured.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields

import numpy as np
import torch
from tabletop_envs.agents.advice import Advisor, seat_advisors
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.loading import make_agent
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.agents.search import InformationSet
from tabletop_envs.training.config import TrainConfig
from tabletop_envs.training.export import export_actor
from tqdm import tqdm

import tabletop_envs
from tabletop_envs.core.game import GameCore

# The action actually applied, given the deciding seat, its observation, the legal mask and
# the bot's label; ``label_games`` asks for one driver per game (by the game's index).
Driver = Callable[[int, np.ndarray, np.ndarray, int], int]
DriverPerGame = Callable[[int], Driver]


@dataclass
class Demonstrations:
    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __add__(self, other: Demonstrations) -> Demonstrations:
        """Both sets of decisions, this one's first."""
        return Demonstrations(
            *(np.concatenate([getattr(self, f.name), getattr(other, f.name)]) for f in fields(self))
        )


@dataclass
class Labelled:
    """Decisions labelled by the bot, how many of them the driver itself chose alike, and
    per decision its seat and the index of its game."""

    data: Demonstrations
    agreed: int
    seats: np.ndarray
    games: np.ndarray

    @property
    def agreement(self) -> float:
        return self.agreed / len(self.data.actions)


@dataclass
class Step:
    """One decision: what the deciding seat saw, its bot's label, and whether it was played."""

    observation: np.ndarray
    mask: np.ndarray
    label: int
    seat: int
    agreed: bool


def label_game(
    state: GameCore, agents: list[Agent], drive: Driver, advisors: Sequence[Advisor] = ()
) -> list[Step]:
    """One game to its end: each seat's bot labels its every decision, ``drive`` picks the move.

    Every bot is asked at every decision of its seat, in order, so stateful bots (a plan kept
    from one decision to the next) see the whole game; each is shown its seat's information
    set first, as at a table, so search bots can label too. With ``advisors`` (one per seat)
    each observation kept and driven on carries its seat's advice, as an advised policy's does.
    """
    steps = []
    while not state.is_terminal:
        seat = state.current_player
        observation, mask = state.observation(seat), state.legal_mask()
        view = {"observation": observation, "action_mask": mask}
        agents[seat].see(InformationSet(state, seat))
        label = agents[seat].act(view, f"player_{seat}")
        if advisors:
            observation = advisors[seat].extend(observation, mask)
        action = drive(seat, observation, mask, label)
        steps.append(Step(observation, mask, label, seat, action == label))
        state.apply(action)
    return steps


@dataclass(frozen=True)
class Cloning:
    """The warm start's games (``bot`` playing every seat of ``game_name``) and how the policy
    is fitted to them; ``gamma`` is PPO's discount, which the critic's targets follow, and
    ``advice`` the advisor whose move an advised policy's observations carry."""

    game_name: str
    players: int
    bot: str
    options: dict = field(default_factory=dict)
    activation: str = "relu"
    epochs: int = 6
    batch_size: int = 1024
    seed: int = 0
    gamma: float = 1.0
    advice: str = ""
    deadline: float | None = None  # time.monotonic() past which gathering and fitting stop

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    @classmethod
    def from_config(cls, game_name: str, config: TrainConfig, seed: int) -> Cloning:
        """A training run's warm start, from its settings."""
        return cls(
            game_name=game_name,
            players=config.players,
            bot=config.warm_start_bot,
            options=config.game_options,
            activation=config.activation,
            epochs=config.warm_start_epochs,
            batch_size=config.batch_size,
            seed=seed,
            gamma=config.gamma,
            advice=config.advice,
        )


def label_games(cloning: Cloning, decisions: int, seed: int, driver: DriverPerGame) -> Labelled:
    """At least ``decisions`` decisions of games seeded from ``seed``, game ``g`` driven by
    ``driver(g)``, labelled by the cloning's bot; each decision keeps its seat's final return,
    discounted by ``gamma`` per decision the learner makes after it (:func:`decisions_to_go`).
    Past the cloning's deadline it stops after the game in play, with fewer decisions. With
    ``advice`` the observations carry each seat's advice (fresh advisors every game)."""
    game, players, bot = cloning.game_name, cloning.players, cloning.bot
    core = tabletop_envs.game_module(game).Game
    agents = [make_agent(bot, game, seed=seed + seat, players=players) for seat in range(players)]
    steps: list[Step] = []
    returns: list[float] = []
    game_of_step: list[int] = []
    with tqdm(total=decisions, desc=f"{bot} labels", unit="dec") as bar:
        games = 0
        while len(steps) < decisions and not (games and cloning.out_of_time()):
            state = core(players, seed=seed * 100_003 + games, **cloning.options)
            advisors = seat_advisors(cloning.advice, game, players, core.LAYOUT.total)
            played = label_game(state, agents, driver(games), advisors)
            final = state.returns()
            to_go = decisions_to_go([step.seat for step in played], core.COOPERATIVE)
            returns.extend(
                float(final[step.seat]) * cloning.gamma ** int(later)
                for step, later in zip(played, to_go, strict=True)
            )
            game_of_step.extend([games] * len(played))
            steps.extend(played)
            bar.update(len(played))
            games += 1
    data = Demonstrations(
        np.stack([step.observation for step in steps]),
        np.stack([step.mask for step in steps]).astype(bool),
        np.array([step.label for step in steps]),
        np.array(returns),
    )
    seats = np.array([step.seat for step in steps])
    return Labelled(data, sum(step.agreed for step in steps), seats, np.array(game_of_step))


def decisions_to_go(seats: Sequence[int], cooperative: bool) -> np.ndarray:
    """Per decision of one game (``seats``: who made each), how many decisions the learner
    makes after it before the game ends: every later one in a cooperative game, where the
    learner plays every seat (``SeatGame``), else the later ones of the same seat."""
    if cooperative:
        return np.arange(len(seats) - 1, -1, -1)
    later = np.zeros(len(seats), dtype=np.int64)
    made_after: dict[int, int] = {}
    for index in range(len(seats) - 1, -1, -1):
        later[index] = made_after.get(seats[index], 0)
        made_after[seats[index]] = int(later[index]) + 1
    return later


def collect(cloning: Cloning, decisions: int) -> Demonstrations:
    """At least ``decisions`` decisions of the cloning's bot playing every seat of seeded
    games, the returns discounted by its ``gamma`` (:func:`label_games`)."""
    return label_games(cloning, decisions, cloning.seed, every_game(follow_label)).data


def every_game(drive: Driver) -> DriverPerGame:
    """The same driver for every game."""
    return lambda _game: drive


def follow_label(_seat: int, _observation: np.ndarray, _mask: np.ndarray, label: int) -> int:
    """The bot's own choice: demonstrations."""
    return label


@torch.no_grad()
def start_as_advisor(policy, action_size: int, weight: float) -> None:
    """Make a fresh advised actor play its advice: the advice inputs (the last
    ``action_size``) pass unchanged through the first ``action_size`` units of every hidden
    layer to the action head, which adds ``weight`` to the advised action's logit. The rest of
    the network keeps its initialisation (the head's small gain), so the greedy policy is the
    advisor's and self-play samples it with probability about ``e^weight / (e^weight + n - 1)``
    among ``n`` legal moves; what training changes from there is learnt departure from the
    advisor. A hidden layer narrower than the action space raises ValueError."""
    hidden = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    narrow = [layer.out_features for layer in hidden if layer.out_features < action_size]
    if narrow:
        raise ValueError(
            f"advice needs hidden layers at least as wide as the action space ({action_size}); "
            f"net_arch has {narrow}"
        )
    identity = torch.eye(action_size)
    inputs = hidden[0].in_features - action_size
    for index, layer in enumerate(hidden):
        layer.weight[:action_size] = 0.0
        layer.bias[:action_size] = 0.0
        source = inputs if index == 0 else 0
        layer.weight[:action_size, source : source + action_size] = identity
    policy.action_net.weight[:, :action_size] = weight * identity
    policy.action_net.bias.zero_()


def masked_logits(policy, observations: torch.Tensor, masks: torch.Tensor) -> tuple:
    """The actor's logits with illegal actions ruled out, and the critic's values."""
    latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(observations))
    logits = policy.action_net(latent_pi).masked_fill(~masks, -1e9)
    return logits, policy.value_net(latent_vf).squeeze(-1)


def greedy_driver(network: PolicyNetwork) -> Driver:
    """The network's most likely legal action, as the exported policy plays in evaluation."""

    def drive(_seat: int, observation: np.ndarray, mask: np.ndarray, _label: int) -> int:
        return int(network.choose(observation[None], mask[None], None)[0])

    return drive


def clone_into(
    policy, data: Demonstrations, cloning: Cloning, round_: int = 0, actor: bool = True
) -> float:
    """Fit the policy's actor to the actions (unless ``actor`` is False: an advised actor
    already plays them) and its critic to the returns, for the cloning's epochs in batches
    of its size (fewer once past its deadline, at least one), shuffled by its seed plus
    ``round_``; the last epoch's accuracy."""
    batch_size = cloning.batch_size
    generator = torch.Generator().manual_seed(cloning.seed + round_)
    tensors = [
        torch.as_tensor(data.observations, dtype=torch.float32),
        torch.as_tensor(data.masks),
        torch.as_tensor(data.actions, dtype=torch.long),
        torch.as_tensor(data.returns, dtype=torch.float32),
    ]
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    accuracy = 0.0
    for _ in tqdm(range(cloning.epochs), desc="warm start: cloning", unit="epoch"):
        order = torch.randperm(len(tensors[2]), generator=generator)
        hits = 0
        for start in range(0, len(order), batch_size):
            obs, mask, action, target = (t[order[start : start + batch_size]] for t in tensors)
            logits, value = masked_logits(policy, obs, mask)
            loss = 0.5 * torch.nn.functional.mse_loss(value, target)
            if actor:
                loss = loss + torch.nn.functional.cross_entropy(logits, action)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            hits += int((logits.argmax(-1) == action).sum())
        accuracy = hits / len(order)
        if cloning.out_of_time():
            break
    return accuracy


def dagger(
    policy, data: Demonstrations, cloning: Cloning, rounds: int, decisions: int
) -> tuple[Demonstrations, list[float]]:
    """``rounds`` DAgger rounds after a first clone on ``data``: the aggregate, and per round
    the share of the policy's own decisions that matched the bot's label."""
    c = cloning
    agreements = []
    for round_ in range(1, rounds + 1):
        if c.out_of_time():
            tqdm.write(f"DAgger: out of warm-start time after {round_ - 1} of {rounds} rounds")
            break
        drive = greedy_driver(export_actor(policy, c.activation, {}))
        labelled = label_games(c, decisions, c.seed + round_, every_game(drive))
        agreements.append(labelled.agreement)
        tqdm.write(
            f"DAgger round {round_}: the policy chose the bot's action on "
            f"{labelled.agreement:.1%} of its own {len(labelled.data.actions):,} decisions"
        )
        data = data + labelled.data
        clone_into(policy, data, c, round_)
    return data, agreements
