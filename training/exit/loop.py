"""The expert-iteration loop: rounds of search games, fitting, gating, each saved to resume.

A round (a) plays ``games`` games with the current searcher (``az:N`` with the accepted
network; until one is accepted, PUCT with priors leaning to the heuristic's move and
leaves valued by heuristic rollouts), recording visit shares and outcomes; (b) fits the
network, from where the last round left it, to the newest ``window`` rounds of games (a
validation split, early stop);
(c) gates: the searcher with the new network plays the current searcher, and the new
network is accepted only when it scores at least one half plus ``gate_margin``. The learning
curve (``curve.csv``) records each round's fit, gate and, with ``curve_games``, the accepted
searcher and the newest network alone against the heuristic bot.

The run folder: ``config.json`` (the settings, checked on resume), ``state.json`` (rounds
done, the accepted network, the history; written last, atomically, so a round stopped midway
is played again), ``data/round_K.npz``, ``nets/net_K.npz`` (each round's fitted network: a
policy file with a value head) and ``curve.csv``.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from tabletop_envs.agents.arena import GameRecord, MatchSpec, play_games
from tabletop_envs.agents.az import read_network
from tabletop_envs.agents.files import write_atomic
from tabletop_envs.training.exit.fit import FitReport, FitSettings, fit, module_from_network
from tabletop_envs.training.exit.network import PolicyValueModule
from tabletop_envs.training.exit.selfplay import Samples, SelfPlay, play_round

import tabletop_envs
from tabletop_envs import game_module, resolve_name

CONFIG, STATE, CURVE = "config.json", "state.json", "curve.csv"


@dataclass(frozen=True)
class ExitSettings:
    """Everything that decides what a run trains (recorded in config.json)."""

    game: str
    players: int
    seed: int = 0
    iterations: int = 30
    """Search iterations per move (``az:N``), in play and in the gate."""
    rollout_depth: int = 20
    """Heuristic rollout cut-off (decisions) of the first round's searcher and of ``mix``."""
    policy_prior: float = 0.5
    """Share of the first searcher's priors on the heuristic's move (before any network)."""
    mix: float = 0.0
    """Rollouts' share of a leaf's value once there is a network (0: the network alone)."""
    games: int = 40
    heuristic_share: float = 0.25
    window: int = 4
    gate_games: int = 40
    gate_margin: float = 0.0
    curve_games: int = 40
    hidden: tuple[int, ...] = (128, 128)
    fit: FitSettings = field(default_factory=FitSettings)

    def searcher(self, network: Path | None) -> str:
        """The ``az`` spec of the searcher with ``network`` (None: rollouts alone)."""
        rollouts = f"rollout=heuristic,depth={self.rollout_depth},value=margin"
        if network is None:
            return f"az:{self.iterations},prior={self.policy_prior},{rollouts}"
        mix = f",mix={self.mix},{rollouts}" if self.mix > 0 else ""
        return f"az:{self.iterations},net={network.resolve()}{mix}"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["hidden"] = list(self.hidden)
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> ExitSettings:
        data = {**data, "hidden": tuple(data["hidden"]), "fit": FitSettings(**data["fit"])}
        return ExitSettings(**data)


class ExitRun:
    """A run folder: its settings, the rounds done and the accepted network."""

    def __init__(self, out: Path, settings: ExitSettings) -> None:
        if "," in str(out.resolve()):
            raise ValueError(f"--out {out}: a run folder's path may not hold a comma (agent specs)")
        self.out, self.settings = out, settings
        self.state: dict[str, Any] = {"rounds": 0, "best": None, "latest": None, "history": []}

    @staticmethod
    def open(out: Path, settings: ExitSettings | None, resume: bool) -> ExitRun:
        """A fresh run in an empty ``out``, or (``resume``) the run saved there."""
        if resume:
            if not (out / CONFIG).is_file():
                raise ValueError(f"--resume: {out} holds no expert-iteration run ({CONFIG})")
            saved = ExitSettings.from_json(json.loads((out / CONFIG).read_text()))
            run = ExitRun(out, saved)
            if (out / STATE).is_file():
                run.state = json.loads((out / STATE).read_text())
            return run
        if settings is None:
            raise ValueError("a fresh run needs its settings")
        if out.exists() and any(out.iterdir()):
            raise ValueError(
                f"--out {out} is not empty; continue it with --resume or choose another"
            )
        run = ExitRun(out, settings)
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(out / CONFIG, json.dumps(settings.to_json(), indent=2))
        return run

    def path(self, key: str) -> Path | None:
        return None if self.state[key] is None else self.out / self.state[key]

    def play_round(self, workers: int, log=print) -> dict[str, Any]:
        """One round (a, b, c); the state is saved at its end."""
        settings, number = self.settings, self.state["rounds"] + 1
        started = time.perf_counter()
        searcher = settings.searcher(self.path("best"))
        plan = SelfPlay(
            settings.game,
            settings.players,
            searcher,
            seed=settings.seed * 100_003 + number,
            games=settings.games,
            heuristic_share=settings.heuristic_share,
        )
        samples = play_round(plan, workers)
        (self.out / "data").mkdir(exist_ok=True)
        samples.save(self.out / "data" / f"round_{number}.npz")
        log(f"round {number}: {settings.games} games, {len(samples)} decisions by {searcher}")
        module, window = self._module(), self._window(number)
        report = fit(module, window, settings.fit, number)
        net_name = f"nets/net_{number}.npz"
        self._export(module, report, net_name, number)
        candidate = settings.searcher(self.out / net_name)
        score = self.score(candidate, searcher, settings.gate_games, plan.seed, workers)
        accepted = score >= 0.5 + settings.gate_margin
        row = {
            "round": number,
            "samples": len(window),
            "fit_epochs": report.epochs,
            "policy_loss": round(report.policy_loss, 4),
            "value_loss": round(report.value_loss, 4),
            "gate_score": round(score, 4),
            "accepted": accepted,
        }
        if accepted:
            self.state["best"] = net_name
        self.state["latest"] = net_name
        row.update(self._curve(workers, plan.seed))
        row["seconds"] = round(time.perf_counter() - started, 1)
        self.state["rounds"] = number
        self.state["history"].append(row)
        self._save()
        log(json.dumps(row))
        return row

    def _module(self) -> PolicyValueModule:
        latest = self.path("latest")
        if latest is not None:
            return module_from_network(read_network(latest))
        torch.manual_seed(self.settings.seed)
        core = game_module(resolve_name(self.settings.game)).Game
        return PolicyValueModule(
            core.SCHEMA.size, core.LAYOUT.total, self.settings.players, hidden=self.settings.hidden
        )

    def _window(self, number: int) -> Samples:
        first = max(1, number - self.settings.window + 1)
        return Samples.join(
            [Samples.load(self.out / "data" / f"round_{k}.npz") for k in range(first, number + 1)]
        )

    def _export(self, module: PolicyValueModule, report: FitReport, name: str, number: int) -> None:
        """Write the fitted network as ``name``."""
        meta = {
            "game": resolve_name(self.settings.game),
            "players": self.settings.players,
            "package_version": tabletop_envs.__version__,
            "exit_round": number,
            "fit": asdict(report),
        }
        (self.out / "nets").mkdir(exist_ok=True)
        module.export(meta).save(self.out / name)

    def _curve(self, workers: int, seed: int) -> dict[str, Any]:
        """The accepted searcher (rollouts alone until a network is accepted) and the newest
        network alone (no search), each against the heuristic bot in every other seat."""
        games = self.settings.curve_games
        if not games:
            return {}
        searcher = self.settings.searcher(self.path("best"))
        latest = str(self.path("latest").resolve())
        return {
            "searcher_vs_heuristic": round(
                self.score(searcher, "heuristic", games, seed, workers), 4
            ),
            "network_vs_heuristic": round(self.score(latest, "heuristic", games, seed, workers), 4),
        }

    def score(self, first: str, others: str, games: int, seed: int, workers: int) -> float:
        """``first``'s share of the points against ``others`` in every other seat (a win 1, a
        shared win split), seats rotated, over ``games`` games from ``seed``."""
        agents = (first, *[others] * (self.settings.players - 1))
        records = play_games(MatchSpec(self.settings.game, agents, seed), games, workers)
        return sum(_points(record, 0) for record in records) / len(records)

    def _save(self) -> None:
        write_atomic(self.out / STATE, json.dumps(self.state, indent=2))
        rows = self.state["history"]
        keys = list(dict.fromkeys(key for row in rows for key in row))
        lines = [",".join(keys)] + [",".join(str(row.get(k, "")) for k in keys) for row in rows]
        write_atomic(self.out / CURVE, "\n".join(lines) + "\n")


def _points(record: GameRecord, agent: int) -> float:
    seat = record.lineup.index(agent)
    return 1 / len(record.winners) if seat in record.winners else 0.0
