"""Polish a trained policy: keep its own choices where it beats its teacher, learn the
teacher's everywhere else.

    python -m tabletop_envs.training.distil RUN/policy.npz --keep select --out polished.npz

``experiments.decision_split`` shows on which decision kinds a policy gains games against its
teacher and on which it loses them (Vaalbara at 4 players: its character picks gain, the
lands it takes lose). This step distils the better of the two into the one network, by DAgger
with a composite expert: each round the network plays one seat of seeded games (the seat
rotating) against the teacher at every other seat; every decision of every seat is labelled
by the expert (the original policy's own choice on the ``--keep`` kinds, the teacher's on all
others), and the network, starting from the original weights, is fitted on every round's
decisions (masked cross-entropy). The states are those the polished seat meets when it is
evaluated against the teacher; the kept choices are the original's, so they do not drift.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.policy import PolicyNetwork, read_policy
from tabletop_envs.training import warmstart
from tabletop_envs.training.export import activation_module, export_actor
from torch import nn
from tqdm import tqdm

import tabletop_envs
from tabletop_envs.cli import OneLineParser, fail, positive_int, seed_int
from tabletop_envs.core.actions import ActionLayout

PROG = "python -m tabletop_envs.training.distil"


@dataclass(frozen=True)
class Polish:
    """What the expert is and how much the network is shown and fitted."""

    teacher: str
    keep: frozenset[str]
    rounds: int
    decisions: int
    epochs: int
    batch_size: int
    learning_rate: float
    seed: int


@dataclass(frozen=True)
class Round:
    """One round: the decisions gathered and how often the network already chose as the expert
    did, on all of them and on the polished seat's own."""

    decisions: int
    agreement: float
    seat_agreement: float
    fitted_accuracy: float
    by_kind: dict[str, tuple[int, float]]
    """Per decision kind: its decisions and the network's agreement with the expert."""


class TorchActor(nn.Module):
    """A :class:`PolicyNetwork`'s dense layers as a trainable torch module."""

    def __init__(self, network: PolicyNetwork) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for index, (weight, bias) in enumerate(zip(network.weights, network.biases, strict=True)):
            linear = nn.Linear(weight.shape[1], weight.shape[0])
            with torch.no_grad():
                linear.weight.copy_(torch.as_tensor(weight))
                linear.bias.copy_(torch.as_tensor(bias))
            layers.append(linear)
            if index < len(network.weights) - 1:
                layers.append(activation_module(network.activation)())
        self.policy_net = nn.Sequential(*layers[:-1])
        self.action_net = layers[-1]

    @property
    def mlp_extractor(self) -> TorchActor:
        """``export_actor`` reads ``mlp_extractor.policy_net`` and ``action_net``."""
        return self

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.action_net(self.policy_net(observations))


def one_seat_driver(network: PolicyNetwork, players: int) -> warmstart.DriverPerGame:
    """Game ``g``: the network plays seat ``g % players`` (greedy), the teacher the others."""

    def for_game(game: int) -> warmstart.Driver:
        def drive(seat: int, observation: np.ndarray, mask: np.ndarray, label: int) -> int:
            if seat != game % players:
                return label
            return int(network.choose(observation[None], mask[None], None)[0])

        return drive

    return for_game


def polished_seats(seats: np.ndarray, games: np.ndarray, players: int) -> np.ndarray:
    """Which decisions the network itself made (``one_seat_driver``'s rotation)."""
    return seats == games % players


def decision_kinds(masks: np.ndarray, layout: ActionLayout) -> np.ndarray:
    """The decision kind (segment name) of each legal mask."""
    return np.array([layout.kind_of(mask) for mask in masks])


def expert_labels(
    data: warmstart.Demonstrations,
    kinds: np.ndarray,
    original: PolicyNetwork,
    keep: frozenset[str],
) -> np.ndarray:
    """The original policy's choice on the kept kinds, the teacher's (``data.actions``) on
    the others."""
    kept = np.isin(kinds, sorted(keep))
    own = original.choose(data.observations, data.masks, None)
    return np.where(kept, own, data.actions)


def fit(
    actor: TorchActor,
    data: warmstart.Demonstrations,
    labels: np.ndarray,
    polish: Polish,
    seed: int,
) -> float:
    """Masked cross-entropy on ``labels``; the last epoch's accuracy."""
    generator = torch.Generator().manual_seed(seed)
    observations = torch.as_tensor(data.observations, dtype=torch.float32)
    masks = torch.as_tensor(data.masks)
    targets = torch.as_tensor(labels, dtype=torch.long)
    optimiser = torch.optim.Adam(actor.parameters(), lr=polish.learning_rate)
    accuracy = 0.0
    for _ in range(polish.epochs):
        order = torch.randperm(len(targets), generator=generator)
        hits = 0
        for start in range(0, len(order), polish.batch_size):
            batch = order[start : start + polish.batch_size]
            logits = actor(observations[batch]).masked_fill(~masks[batch], -1e9)
            loss = nn.functional.cross_entropy(logits, targets[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            hits += int((logits.argmax(-1) == targets[batch]).sum())
        accuracy = hits / len(order)
    return accuracy


@dataclass
class Gathered:
    """Every round's decisions so far, with the expert's labels."""

    data: warmstart.Demonstrations | None = None
    labels: np.ndarray | None = None

    def add(self, data: warmstart.Demonstrations, labels: np.ndarray) -> None:
        self.data = data if self.data is None else self.data + data
        self.labels = labels if self.labels is None else np.concatenate([self.labels, labels])


def polish_policy(original: PolicyNetwork, polish: Polish) -> tuple[PolicyNetwork, list[Round]]:
    """The polished network and a report of each round."""
    game, players = original.meta["game"], int(original.meta["players"])
    layout = tabletop_envs.game_module(game).Game.LAYOUT
    actor, gathered, rounds = TorchActor(original), Gathered(), []
    current = original
    for number in range(1, polish.rounds + 1):
        seed = polish.seed + number
        cloning = warmstart.Cloning(game, players, polish.teacher)
        labelled = warmstart.label_games(
            cloning, polish.decisions, seed, one_seat_driver(current, players)
        )
        data = labelled.data
        kinds = decision_kinds(data.masks, layout)
        labels = expert_labels(data, kinds, original, polish.keep)
        agree = current.choose(data.observations, data.masks, None) == labels
        own = polished_seats(labelled.seats, labelled.games, players)
        gathered.add(data, labels)
        accuracy = fit(actor, gathered.data, gathered.labels, polish, seed)
        current = export_actor(actor, original.activation, original.meta)
        rounds.append(round_report(agree, own, kinds, layout.names, accuracy))
        tqdm.write(
            f"round {number}: the network chose as the expert on {rounds[-1].agreement:.1%} of "
            f"{len(labels):,} decisions; fitted on {len(gathered.labels):,} to {accuracy:.1%}"
        )
    meta = {**original.meta, "polished": polish_record(polish)}
    return export_actor(actor, original.activation, meta), rounds


def round_report(
    agree: np.ndarray, own: np.ndarray, kinds: np.ndarray, names: list[str], accuracy: float
) -> Round:
    """A round's figures from which decisions the network already chose as the expert did."""
    by_kind = {
        kind: (int((kinds == kind).sum()), float(agree[kinds == kind].mean()))
        for kind in names
        if (kinds == kind).any()
    }
    return Round(len(agree), float(agree.mean()), float(agree[own].mean()), accuracy, by_kind)


def polish_record(polish: Polish) -> dict:
    """What the policy file records of its polishing."""
    return {
        "teacher": polish.teacher,
        "kept_kinds": sorted(polish.keep),
        "rounds": polish.rounds,
        "decisions_per_round": polish.decisions,
        "epochs": polish.epochs,
        "learning_rate": polish.learning_rate,
        "seed": polish.seed,
    }


def report(rounds: Sequence[Round]) -> str:
    """A markdown table of the rounds."""
    lines = [
        "| round | decisions | network = expert (all seats) | (its own seat) | fitted accuracy |",
        "|---|---|---|---|---|",
    ]
    for number, row in enumerate(rounds, 1):
        lines.append(
            f"| {number} | {row.decisions:,} | {row.agreement:.1%} | {row.seat_agreement:.1%} "
            f"| {row.fitted_accuracy:.1%} |"
        )
    lines += ["", "Before the last fit, per decision kind (the last round's decisions):", ""]
    lines += ["| decision kind | decisions | network = expert |", "|---|---|---|"]
    for kind, (count, share) in rounds[-1].by_kind.items():
        lines.append(f"| {kind} | {count:,} | {share:.1%} |")
    return "\n".join(lines)


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", type=Path, help="a trained policy file (.npz)")
    parser.add_argument("--out", type=Path, required=True, help="where the polished policy goes")
    parser.add_argument(
        "--keep",
        required=True,
        help="decision kinds (action segment names, comma-separated) where the policy's own "
        "choices are kept",
    )
    parser.add_argument("--teacher", default="heuristic", help="the bot that labels the rest")
    parser.add_argument("--rounds", type=positive_int, default=4, help="DAgger rounds")
    parser.add_argument(
        "--decisions", type=positive_int, default=50_000, help="decisions gathered per round"
    )
    parser.add_argument("--epochs", type=positive_int, default=6, help="fitting passes a round")
    parser.add_argument("--batch-size", type=positive_int, default=1024)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--seed", type=seed_int, default=0, help="seeds the games and the fit")
    return parser


def parse_polish_args(argv: Sequence[str] | None) -> tuple[PolicyNetwork, Polish, Path]:
    """The policy, the polishing settings and the output path; ValueError names a bad one."""
    args = build_parser().parse_args(argv)
    if args.out.resolve() == args.policy.resolve():
        raise ValueError(f"--out {args.out} is the policy being polished; choose another file")
    if not 0 < args.learning_rate < 1:
        raise ValueError(f"--learning-rate {args.learning_rate}: expected a number in (0, 1)")
    network = read_policy(args.policy)
    game, players = network.meta.get("game"), network.meta.get("players")
    if not isinstance(game, str) or not isinstance(players, int):
        raise ValueError(f"policy file {args.policy} names no game and player count")
    if network.advice:
        raise ValueError(
            f"policy file {args.policy} is advised ({network.advice!r}); "
            "distil polishes plain policies only"
        )
    game = tabletop_envs.resolve_name(game)
    names = tabletop_envs.game_module(game).Game.LAYOUT.names
    keep = frozenset(name.strip() for name in args.keep.split(","))
    unknown = sorted(keep - set(names))
    if unknown:
        raise ValueError(f"--keep: unknown decision kinds {unknown}; {game}'s are {names}")
    agent_factory(args.teacher, game, players)  # refuses an unknown teacher now
    polish = Polish(
        args.teacher,
        keep,
        args.rounds,
        args.decisions,
        args.epochs,
        args.batch_size,
        args.learning_rate,
        args.seed,
    )
    return network, polish, args.out


def main(argv: Sequence[str] | None = None) -> int:
    try:
        original, polish, out = parse_polish_args(argv)
    except ValueError as error:
        return fail(PROG, str(error))
    polished, rounds = polish_policy(original, polish)
    polished.save(out)
    print(report(rounds))
    print(f"polished policy written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
