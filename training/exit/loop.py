"""The expert-iteration loop: rounds of search games, fitting, gating, each saved to resume.

A round (a) plays ``games`` games with the current searcher (``az:N`` with the accepted
network; until one is accepted, PUCT with priors leaning to the heuristic's move and
leaves valued by heuristic rollouts), recording visit shares and outcomes; (b) fits the
network, from where the last round left it (the first from ``init_policy``'s trunk and policy
head where one is given), to the newest ``window`` rounds of games (a
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
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import torch
from tabletop_envs.agents.arena import GameRecord, MatchSpec, play_games
from tabletop_envs.agents.az import load_network, read_network
from tabletop_envs.agents.files import write_atomic
from tabletop_envs.agents.policy import PolicyNetwork, check_policy_fits, read_policy
from tabletop_envs.training.config import is_whole, number, setting, whole
from tabletop_envs.training.exit.fit import (
    FitReport,
    FitSettings,
    fit,
    hidden_widths,
    module_from_network,
    module_from_policy,
)
from tabletop_envs.training.exit.network import PolicyValueModule
from tabletop_envs.training.exit.selfplay import Samples, SelfPlay, play_round

import tabletop_envs
from tabletop_envs import GAMES, game_module, resolve_name

CONFIG, STATE, CURVE = "config.json", "state.json", "curve.csv"


def _none() -> None:
    """No progress to report."""


SHARE = number(0, 1)


@dataclass(frozen=True)
class ExitSettings:
    """Everything that decides what a run trains (recorded in config.json). The fields with a
    ``what`` are ``tabletop-train --algo exit`` flags (``--rollout-depth`` for
    ``rollout_depth``)."""

    game: str
    players: int
    seed: int = 0
    iterations: int = setting(30, whole(1), "search iterations per move (az:N), in play and gate")
    rollout_depth: int = setting(
        20, whole(1), "heuristic rollout cut-off in decisions (first searcher, --mix)"
    )
    policy_prior: float = setting(
        0.5, SHARE, "share of the first searcher's priors on the heuristic's move"
    )
    mix: float = setting(
        0.0, SHARE, "rollouts' share of a leaf's value once there is a network (0: none)"
    )
    games: int = setting(40, whole(1), "search games per round")
    heuristic_share: float = setting(
        0.25, SHARE, "share of a round's games one searcher plays against the scripted bots"
    )
    window: int = setting(4, whole(1), "newest rounds of games the network is fitted on")
    gate_games: int = setting(40, whole(1), "games of the new searcher against the current one")
    gate_margin: float = setting(
        0.0, number(0, 0.5), "score above one half a new network needs to be accepted"
    )
    curve_games: int = setting(
        40, whole(0), "games against the heuristic per round for the curve (0: none)"
    )
    hidden: tuple[int, ...] = (128, 128)
    init_policy: str = ""
    """A policy file the first network starts from: its trunk and policy head, a fresh value
    head ("": a fresh network of ``hidden`` widths)."""
    fit: FitSettings = field(default_factory=FitSettings)

    def searcher(self, network: Path | None) -> str:
        """The ``az`` spec of the searcher with ``network`` (None: rollouts alone)."""
        rollouts = f"rollout=heuristic,depth={self.rollout_depth},value=margin"
        if network is None:
            return f"az:{self.iterations},prior={self.policy_prior},{rollouts}"
        mix = f",mix={self.mix},{rollouts}" if self.mix > 0 else ""
        return f"az:{self.iterations},net={network.resolve()}{mix}"

    def starting_policy(self, source: str) -> PolicyNetwork:
        """The ``init_policy`` file, checked to fit this run's game and widths."""
        path = Path(self.init_policy)
        try:
            policy = read_policy(path)
        except (OSError, ValueError) as error:
            raise ValueError(f"{source}: init_policy: {error}") from None
        core = game_module(resolve_name(self.game)).Game
        sizes = (core.SCHEMA.size, core.LAYOUT.total)
        check_policy_fits(policy, resolve_name(self.game), self.players, sizes, path)
        if policy.advice:
            raise ValueError(
                f"{source}: init_policy {path} is an advised policy (it reads the "
                f"{policy.advice} bot's move); expected a plain policy"
            )
        widths = hidden_widths(policy)
        if widths != tuple(self.hidden):
            raise ValueError(
                f"{source}: hidden = {list(self.hidden)} but init_policy {path} has hidden "
                f"widths {list(widths)}"
            )
        return policy

    def to_json(self) -> dict[str, Any]:
        data = {"algo": "exit", **asdict(self)}
        data["hidden"] = list(self.hidden)
        return data

    @staticmethod
    def from_json(data: Any, source: str) -> ExitSettings:
        """Checked settings from ``config.json``'s ``data``; ValueError naming the problem."""
        if not isinstance(data, dict):
            raise ValueError(f"{source}: expected a JSON object of settings")
        data = {key: value for key, value in data.items() if key != "algo"}
        try:
            fit = FitSettings(**data.pop("fit", {}))
            hidden = tuple(data.pop("hidden", ExitSettings.hidden))
            settings = ExitSettings(**data, hidden=hidden, fit=fit)
        except TypeError as error:
            raise ValueError(f"{source}: not expert-iteration settings ({error})") from None
        return settings.checked(source)

    def checked(self, source: str) -> ExitSettings:
        """These settings if each is acceptable, else a ValueError naming the first bad one."""
        if self.game not in tabletop_envs.GAMES:
            raise ValueError(f"{source}: game {self.game!r} is not one of {sorted(GAMES)}")
        if not is_whole(self.players) or not is_whole(self.seed) or self.seed < 0:
            raise ValueError(f"{source}: players and seed must be whole numbers, seed >= 0")
        if not self.hidden or not all(is_whole(width) and width >= 1 for width in self.hidden):
            raise ValueError(f"{source}: hidden = {list(self.hidden)}; expected widths >= 1")
        if self.init_policy:
            self.starting_policy(source)
        for owner in (self, self.fit):
            for item in fields(owner):
                rule, value = item.metadata.get("rule"), getattr(owner, item.name)
                if rule is not None and not rule.test(value):
                    raise ValueError(f"{source}: {item.name} = {value!r}; expected {rule.accepted}")
        return self


class ExitRun:
    """A run folder: its settings, the rounds done and the accepted network."""

    def __init__(self, out: Path, settings: ExitSettings) -> None:
        if "," in str(out.resolve()):
            raise ValueError(f"--out {out}: a run folder's path may not hold a comma (agent specs)")
        self.out, self.settings = out, settings
        self.state: dict[str, Any] = {"rounds": 0, "best": None, "latest": None, "history": []}

    @staticmethod
    def create(out: Path, settings: ExitSettings) -> ExitRun:
        """A fresh run in ``out`` (an earlier run there, checked by the caller, is cleared)."""
        run = ExitRun(out, settings)
        if out.is_dir():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        write_atomic(out / CONFIG, json.dumps(settings.to_json(), indent=2))
        return run

    @staticmethod
    def resume(out: Path) -> ExitRun:
        """The run saved in ``out``, every file it will read checked now: ValueError naming a
        missing or damaged one."""
        path = out / CONFIG
        if not path.is_file():
            raise ValueError(f"--resume: {out} holds no expert-iteration run ({CONFIG})")
        run = ExitRun(out, ExitSettings.from_json(_read_json(path), str(path)))
        if (out / STATE).is_file():
            run.state = _checked_state(_read_json(out / STATE), out / STATE)
        run._check_files()
        return run

    def _check_files(self) -> None:
        """The networks named in the state and the samples the next round fits on."""
        for key in ("best", "latest"):
            network = self.path(key)
            if network is not None:
                try:
                    load_network(network, self.settings.game, self.settings.players)
                except ValueError as error:
                    raise ValueError(f"cannot resume {self.out}: {error}") from None
        self._window(self.state["rounds"])

    def path(self, key: str) -> Path | None:
        return None if self.state[key] is None else self.out / self.state[key]

    def play_round(
        self, workers: int, log: Callable[[str], None] = print, on_game: Callable[[], None] = _none
    ) -> dict[str, Any]:
        """One round (a, b, c); the state is saved at its end. ``on_game`` is called as each
        of its games ends (self-play, gate and curve), for a progress bar."""
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
        samples = play_round(plan, workers, on_game)
        (self.out / "data").mkdir(exist_ok=True)
        samples.save(self.out / "data" / f"round_{number}.npz")
        log(f"round {number}: {settings.games} games, {len(samples)} decisions by {searcher}")
        module, window = self._module(), self._window(number)
        report = fit(module, window, settings.fit, number)
        net_name = f"nets/net_{number}.npz"
        self._export(module, report, net_name, number)
        candidate = settings.searcher(self.out / net_name)
        score = self.score(candidate, searcher, settings.gate_games, plan.seed, workers, on_game)
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
        row.update(self._curve(workers, plan.seed, on_game))
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
        if self.settings.init_policy:
            policy = self.settings.starting_policy(str(self.out / CONFIG))
            return module_from_policy(policy, self.settings.players)
        core = game_module(resolve_name(self.settings.game)).Game
        return PolicyValueModule(
            core.SCHEMA.size, core.LAYOUT.total, self.settings.players, hidden=self.settings.hidden
        )

    def _window(self, number: int) -> Samples:
        """The samples of the newest ``window`` rounds up to round ``number``."""
        first = max(1, number - self.settings.window + 1)
        return Samples.join(
            [Samples.load(self.out / "data" / f"round_{k}.npz") for k in range(first, number + 1)],
            self._game_sizes(),
        )

    def _game_sizes(self) -> tuple[int, int, int]:
        """Observation size, action count and seats of this run's samples."""
        core = game_module(resolve_name(self.settings.game)).Game
        return core.SCHEMA.size, core.LAYOUT.total, self.settings.players

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

    def _curve(self, workers: int, seed: int, on_game: Callable[[], None]) -> dict[str, Any]:
        """The accepted searcher (rollouts alone until a network is accepted) and the newest
        network alone (no search), each against the heuristic bot in every other seat."""
        games = self.settings.curve_games
        if not games:
            return {}
        searcher = self.settings.searcher(self.path("best"))
        latest = str(self.path("latest").resolve())
        return {
            "searcher_vs_heuristic": round(
                self.score(searcher, "heuristic", games, seed, workers, on_game), 4
            ),
            "network_vs_heuristic": round(
                self.score(latest, "heuristic", games, seed, workers, on_game), 4
            ),
        }

    def score(
        self,
        first: str,
        others: str,
        games: int,
        seed: int,
        workers: int,
        on_game: Callable[[], None] = _none,
    ) -> float:
        """``first``'s share of the points against ``others`` in every other seat (a win 1, a
        shared win split), seats rotated, over ``games`` games from ``seed``."""
        agents = (first, *[others] * (self.settings.players - 1))
        match = MatchSpec(self.settings.game, agents, seed)
        records = play_games(match, games, workers, on_record=lambda _: on_game())
        return sum(_points(record, 0) for record in records) / len(records)

    def _save(self) -> None:
        write_atomic(self.out / STATE, json.dumps(self.state, indent=2))
        rows = self.state["history"]
        keys = list(dict.fromkeys(key for row in rows for key in row))
        lines = [",".join(keys)] + [",".join(str(row.get(k, "")) for k in keys) for row in rows]
        write_atomic(self.out / CURVE, "\n".join(lines) + "\n")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot resume from {path}: damaged ({error})") from None


def _checked_state(state: Any, path: Path) -> dict[str, Any]:
    """``state.json``'s content if it has the shape the loop writes, else a ValueError."""
    shaped = (
        isinstance(state, dict)
        and is_whole(state.get("rounds"))
        and state["rounds"] >= 0
        and all(isinstance(state.get(key), (str, type(None))) for key in ("best", "latest"))
        and isinstance(state.get("history"), list)
        and len(state["history"]) == state["rounds"]
    )
    if not shaped:
        raise ValueError(
            f"cannot resume from {path}: damaged (expected rounds, best, latest and one "
            "history row per round)"
        )
    return state


def _points(record: GameRecord, agent: int) -> float:
    seat = record.lineup.index(agent)
    return 1 / len(record.winners) if seat in record.winners else 0.0
