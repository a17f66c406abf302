"""Throughput and memory of every registered game against PettingZoo classic references.

For each registered game at every player count it supports, and for ``connect_four_v3`` and
``texas_holdem_v4``, in one run on one machine:

- AEC steps (decisions) and games per second under seeded random legal play through
  ``env()`` (wrappers included), ``raw_env()`` and the bare core (observation of the mover,
  legal mask, apply); every path runs the same loop;
- ``clone()``, ``to_json`` and ``from_json`` per second, mean decisions per game;
- peak memory (tracemalloc) of one env playing one game, and of 1,000 live clones;
- games per second of the evaluation harness with 1 and 2 worker processes.

Each figure is the median of ``--repeats`` repetitions, each run for ``--seconds`` of this
process's CPU time (``--clock wall`` for elapsed time; the harness always uses wall time).
A repetition first times ``env()`` bracketed: ``connect_four_v3``, then each other target with
``connect_four_v3`` again right after it (C4, game, C4, game, ..., C4), so each target's
ratio to ``connect_four_v3`` (``x C4``) is to the mean of the two runs either side of it, both
sides seeing the same load; its ``x C4`` is the median of those ratios, not the ratio of the
medians (the reference's ``env() steps/s`` is the median of all its runs). The other figures
follow, round-robin over all targets, so load on a shared machine hits every target alike.

The table replaces the ``throughput`` section of benchmarks/RESULTS.md (``--no-write``: print
only); the full report goes to ``--out`` as JSON (by default benchmarks/throughput.json,
which ``--no-write`` leaves alone unless ``--out`` names a file).

    python -m benchmarks.throughput [--games vaalbara valenor] [--repeats 3] [--seconds 1]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pettingzoo.classic import connect_four_v3, texas_holdem_v4
from tabletop_envs.agents.arena import MatchSpec, play_games
from tabletop_envs.agents.files import check_output_file, write_atomic

import tabletop_envs
from benchmarks.results_page import RESULTS_MD, RunLoad, measured_at, publish
from tabletop_envs.cli import OneLineParser, positive_int
from tabletop_envs.core.env import TabletopAECEnv, env_metadata, wrap
from tabletop_envs.core.game import NO_SEAT, GameCore
from tabletop_envs.vaalbara.rules import VaalbaraGame

REPORT_JSON = Path(__file__).with_name("throughput.json")
REFERENCE = "connect_four_v3"
REFERENCE_MODULES = {REFERENCE: connect_four_v3, "texas_holdem_v4": texas_holdem_v4}
REFERENCE_PLAYERS = {REFERENCE: (2,), "texas_holdem_v4": (2, 4)}
CLONES = 1000
SECTION = "throughput"
"""The section of RESULTS.md this benchmark rewrites (benchmarks.results_page)."""


@dataclass
class Target:
    """One environment at one player count; ``game_class`` is None for the references."""

    name: str
    players: int
    make_env: Callable[[], Any]
    make_raw: Callable[[], Any]
    game_class: type[GameCore] | None = None

    @property
    def label(self) -> str:
        return f"{self.name} {self.players}p"


@dataclass
class Measures:
    """Per-repetition figures of one target; each becomes a median in the report."""

    samples: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, value: float) -> None:
        self.samples.setdefault(name, []).append(value)

    def medians(self) -> dict[str, float]:
        return {name: statistics.median(values) for name, values in self.samples.items()}


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
"""cpu: this process's CPU time (steady on a shared, busy machine); wall: elapsed time."""


@dataclass(frozen=True)
class MeasurementBudget:
    """How long each measurement runs, on which clock."""

    seconds: float
    clock: str = "cpu"

    def now(self) -> float:
        return CLOCKS[self.clock]()


# ----- the measured loops ------------------------------------------------------------------
def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action: the one policy every loop uses."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def play_aec(env: Any, seed: int, rng: np.random.Generator) -> int:
    """One seeded random game through an AEC env; the number of decisions taken."""
    env.reset(seed=seed)
    decisions = 0
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
        else:
            env.step(random_legal(observation["action_mask"], rng))
            decisions += 1
    return decisions


def aec_games(env: Any, seed: int, rng: np.random.Generator) -> Callable[[int], int]:
    """``i -> decisions`` playing game ``i`` of a run seeded ``seed`` through ``env``."""
    return lambda i: play_aec(env, seed + i, rng)


def play_core(game_class: type[GameCore], players: int, seed: int, rng: np.random.Generator) -> int:
    """One seeded random game on the bare core: mover's observation, mask, apply."""
    game = game_class(players, seed=seed)
    decisions = 0
    while not game.is_terminal:
        game.observation(game.current_player)
        game.apply_unchecked(random_legal(game.legal_mask(), rng))
        decisions += 1
    return decisions


def games_for(budget: MeasurementBudget, play: Callable[[int], int]) -> tuple[int, int, float]:
    """Play games ``0, 1, ...`` until the budget is spent: (games, decisions, elapsed)."""
    games = decisions = 0
    start = budget.now()
    while True:
        decisions += play(games)
        games += 1
        elapsed = budget.now() - start
        if elapsed >= budget.seconds:
            return games, decisions, elapsed


def calls_per_second(budget: MeasurementBudget, call: Callable[[int], object]) -> float:
    """How often ``call(i)`` runs per second, in batches until the budget is spent."""
    calls, batch = 0, 16
    start = budget.now()
    while True:
        for i in range(calls, calls + batch):
            call(i)
        calls += batch
        elapsed = budget.now() - start
        if elapsed >= budget.seconds:
            return calls / elapsed


def positions(target: Target, count: int = 24, seed: int = 0) -> list[GameCore]:
    """Cores at ``count`` points spread over seeded random games (for clone and JSON), each
    observed along the way as through the env (so a clone copies any kept view too)."""
    assert target.game_class is not None
    rng = np.random.default_rng(seed)
    found: list[GameCore] = []
    game_seed = 0
    while len(found) < count:
        game = target.game_class(target.players, seed=game_seed)
        while not game.is_terminal and len(found) < count:
            game.observation(game.current_player)
            if rng.random() < 0.1:
                found.append(game.clone())
            game.apply_unchecked(random_legal(game.legal_mask(), rng))
        game_seed += 1
    return found


@dataclass(frozen=True)
class PlayRun:
    """One budget of seeded random games: how many, their decisions, the time they took."""

    games: int
    decisions: int
    elapsed: float

    @property
    def steps_per_s(self) -> float:
        return self.decisions / self.elapsed

    def add_to(self, into: Measures, path: str) -> None:
        """Record this run's rates as ``path``'s (``env`` or ``raw``) figures."""
        into.add(f"{path}_steps_per_s", self.steps_per_s)
        into.add(f"{path}_games_per_s", self.games / self.elapsed)
        into.add("decisions_per_game", self.decisions / self.games)


def play_run(make: Callable[[], Any], budget: MeasurementBudget, seed: int) -> PlayRun:
    """Seeded random games through a fresh env from ``make`` until the budget is spent."""
    return PlayRun(*games_for(budget, aec_games(make(), seed, np.random.default_rng(seed))))


def env_run(target: Target, budget: MeasurementBudget, seed: int) -> PlayRun:
    """One budget of ``target``'s games through ``env()``."""
    return play_run(target.make_env, budget, seed)


@dataclass(frozen=True)
class Bracketed:
    """One repetition of bracketed env() runs: the reference's runs in order (one more than
    the games), and each game's run with its ratio to the reference runs either side of it."""

    references: list[PlayRun]
    games: list[tuple[Target, PlayRun, float]]


def bracketed_env_runs(
    reference: Target,
    games: Sequence[Target],
    budget: MeasurementBudget,
    seed: int,
    status: str = "",
) -> Bracketed:
    """Time env() as reference, game, reference, game, ..., reference; each game's ratio is its
    steps/s over the mean of the reference's runs just before and just after it."""
    before = env_run(reference, budget, seed)
    references, measured = [before], []
    for target in games:
        progress(f"{status}{target.label}")
        run = env_run(target, budget, seed)
        after = env_run(reference, budget, seed)
        measured.append(
            (target, run, run.steps_per_s / ((before.steps_per_s + after.steps_per_s) / 2))
        )
        references.append(after)
        before = after
    return Bracketed(references, measured)


def measure_once(target: Target, budget: MeasurementBudget, seed: int, into: Measures) -> None:
    """One repetition of every throughput figure of ``target`` but its env() run (which
    ``bracketed_env_runs`` times)."""
    play_run(target.make_raw, budget, seed).add_to(into, "raw")
    if target.game_class is None:
        return
    game_class, rng = target.game_class, np.random.default_rng(seed)
    games, decisions, elapsed = games_for(
        budget, lambda i: play_core(game_class, target.players, seed + i, rng)
    )
    into.add("core_steps_per_s", decisions / elapsed)
    into.add("core_games_per_s", games / elapsed)
    cores = positions(target, seed=seed)
    texts = [core.to_json() for core in cores]
    into.add("clone_per_s", calls_per_second(budget, lambda i: cores[i % len(cores)].clone()))
    into.add("to_json_per_s", calls_per_second(budget, lambda i: cores[i % len(cores)].to_json()))
    into.add(
        "from_json_per_s",
        calls_per_second(budget, lambda i: game_class.from_json(texts[i % len(texts)])),
    )


def peak_memory(target: Target, seed: int = 0) -> dict[str, float | None]:
    """Peak traced bytes of one env playing one game, and of 1,000 live clones mid-game."""
    tracemalloc.start()
    try:
        env = target.make_env()
        play_aec(env, seed, np.random.default_rng(seed))
        _, env_peak = tracemalloc.get_traced_memory()
        del env
        if target.game_class is None:
            return {"env_peak_kib": env_peak / 1024, "clones_peak_kib": None}
        middle = positions(target, count=12, seed=seed)[-1]
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        clones = [middle.clone() for _ in range(CLONES)]
        _, clones_peak = tracemalloc.get_traced_memory()
        del clones
        return {"env_peak_kib": env_peak / 1024, "clones_peak_kib": (clones_peak - before) / 1024}
    finally:
        tracemalloc.stop()


def harness_rate(game: str, players: int, workers: int, seconds: float) -> float:
    """Games per second of ``tabletop_envs.agents.arena.play_games`` with random agents."""
    match = MatchSpec(game, ("random",) * players, seed=0)
    probe = max(4, workers * 4)
    start = time.perf_counter()
    play_games(match, probe, workers=1)
    estimate = probe / (time.perf_counter() - start)
    games = max(probe, int(estimate * seconds * workers))
    start = time.perf_counter()
    play_games(match, games, workers=workers)
    return games / (time.perf_counter() - start)


# ----- targets, runs, reports ---------------------------------------------------------------
def registered_targets(names: Iterable[str]) -> list[Target]:
    targets = []
    for name in names:
        module = tabletop_envs.game_module(name)
        game_class = module.Game
        for players in range(game_class.MIN_PLAYERS, game_class.MAX_PLAYERS + 1):
            targets.append(
                Target(
                    name,
                    players,
                    lambda m=module, n=players: m.env(num_players=n),
                    lambda m=module, n=players: m.raw_env(num_players=n),
                    game_class,
                )
            )
    return targets


def reference_targets(names: Iterable[str]) -> list[Target]:
    targets = []
    for name in names:
        module = REFERENCE_MODULES[name]
        for players in REFERENCE_PLAYERS[name]:
            kwargs = {} if name == REFERENCE else {"num_players": players}
            targets.append(
                Target(
                    name,
                    players,
                    lambda m=module, k=kwargs: m.env(**k),
                    lambda m=module, k=kwargs: m.raw_env(**k),
                )
            )
    return targets


FLOOR = "null_core"


class NullCore(VaalbaraGame):
    """Vaalbara's spaces without rules: 60 decisions of a constant mask and observation.

    Through ``env()`` and ``raw_env()`` it shows what a step costs the env and PettingZoo's
    wrappers alone: the floor under every game's figures.
    """

    DECISIONS = 60
    MASK = np.eye(1, VaalbaraGame.LAYOUT.total, dtype=np.int8)[0]
    OBSERVATION = np.zeros(VaalbaraGame.SCHEMA.size, dtype=np.float32)

    def __init__(self, num_players: int = 2, seed: int | None = None, **options: Any) -> None:
        GameCore.__init__(self, num_players, seed, **options)
        self.made = 0

    @property
    def current_player(self) -> int:
        return NO_SEAT if self.made >= self.DECISIONS else self.made % self.num_players

    def legal_mask(self) -> np.ndarray:
        return self.MASK.copy()

    def apply_unchecked(self, action: int) -> None:
        self.made += 1

    def observation(self, player: int) -> np.ndarray:
        return self.OBSERVATION.copy()

    def returns(self) -> np.ndarray:
        return np.zeros(self.num_players)


class NullEnv(TabletopAECEnv):
    game_class = NullCore
    metadata = env_metadata(FLOOR)


def floor_target() -> Target:
    return Target(FLOOR, 2, lambda: wrap(NullEnv(num_players=2)), lambda: NullEnv(num_players=2))


def choose_targets(
    requested: Sequence[str] | None, players: Sequence[int] | None = None
) -> list[Target]:
    """Every registered game and reference, or those named, at every player count they take
    or at ``players`` only; the reference (2 players) and the null-core floor always run."""
    valid = sorted(tabletop_envs.GAMES) + sorted(REFERENCE_MODULES)
    if not requested:
        games, references = sorted(tabletop_envs.GAMES), sorted(REFERENCE_MODULES)
    else:
        games, references = [], [REFERENCE]
        for name in requested:
            if name in REFERENCE_MODULES:
                references.append(name)
                continue
            try:
                games.append(tabletop_envs.resolve_name(name))
            except ValueError:
                raise ValueError(f"unknown game {name!r}; valid names are {valid}") from None
    targets = reference_targets(dict.fromkeys(references)) + registered_targets(
        dict.fromkeys(games)
    )
    if players:
        targets = [t for t in targets if t.players in players or t.name == REFERENCE]
    return [*targets[:1], floor_target(), *targets[1:]]


def progress(message: str) -> None:
    """One status line on stderr, rewritten in place on a terminal."""
    if sys.stderr.isatty():
        print(f"\r\033[K{message}", end="", file=sys.stderr, flush=True)
    elif message:
        print(message, file=sys.stderr, flush=True)


def run(
    targets: list[Target], repeats: int, budget: MeasurementBudget, harness: bool
) -> dict[str, Any]:
    """All figures: per-target medians and ratios, memory, harness scaling, the machine."""
    measures = {target.label: Measures() for target in targets}
    for repeat in range(repeats):
        status = f"repetition {repeat + 1}/{repeats}"
        measure_env_bracketed(targets, budget, 1000 * repeat, measures, f"{status}, env() ")
        for number, target in enumerate(targets, 1):
            progress(f"{status}, [{number}/{len(targets)}] {target.label}")
            measure_once(target, budget, seed=1000 * repeat, into=measures[target.label])
    rows = []
    for number, target in enumerate(targets, 1):
        progress(f"memory [{number}/{len(targets)}] {target.label}")
        rows.append(
            {
                "game": target.name,
                "players": target.players,
                **measures[target.label].medians(),
                **peak_memory(target),
            }
        )
    add_ratios(rows)
    report: dict[str, Any] = {
        "machine": machine(),
        "repeats": repeats,
        "seconds": budget.seconds,
        "clock": budget.clock,
    }
    report["rows"] = rows
    if harness:
        report["harness"] = harness_scaling(sorted({t.name for t in targets if t.game_class}))
    progress("")
    return report


def measure_env_bracketed(
    targets: Sequence[Target],
    budget: MeasurementBudget,
    seed: int,
    measures: dict[str, Measures],
    status: str = "",
) -> None:
    """One repetition of every target's env() figures and ratio to the reference, bracketed
    (``bracketed_env_runs``); the reference's every run counts among its own figures."""
    reference = next((target for target in targets if target.name == REFERENCE), None)
    if reference is None:
        raise ValueError(f"the targets must include the reference {REFERENCE!r}")
    games = [target for target in targets if target is not reference]
    bracket = bracketed_env_runs(reference, games, budget, seed, status)
    for run in bracket.references:
        run.add_to(measures[reference.label], "env")
    measures[reference.label].add("env_vs_reference", 1.0)
    for target, run, ratio in bracket.games:
        run.add_to(measures[target.label], "env")
        measures[target.label].add("env_vs_reference", ratio)


def add_ratios(rows: list[dict[str, Any]]) -> None:
    """Each row's raw_env() steps/s over the reference's (medians), and bare core over its own
    env(); ``env_vs_reference`` is already each row's median bracketed ratio."""
    reference = next(row for row in rows if row["game"] == REFERENCE)
    for row in rows:
        row["raw_vs_reference"] = row["raw_steps_per_s"] / reference["raw_steps_per_s"]
        if "core_steps_per_s" in row:
            row["core_vs_env"] = row["core_steps_per_s"] / row["env_steps_per_s"]
            row["clone_us"] = 1e6 / row["clone_per_s"]


def harness_scaling(games: list[str], seconds: float = 3.0) -> list[dict[str, Any]]:
    """Evaluation harness games/s with 1 and 2 workers, each game at its default count."""
    rows = []
    for number, game in enumerate(games, 1):
        players = tabletop_envs.game_module(game).Game.DEFAULT_PLAYERS
        progress(f"harness [{number}/{len(games)}] {game} {players}p")
        one = harness_rate(game, players, 1, seconds)
        two = harness_rate(game, players, 2, seconds)
        rows.append(
            {
                "game": game,
                "players": players,
                "games_per_s_1_worker": one,
                "games_per_s_2_workers": two,
                "scaling": two / one,
            }
        )
    return rows


def machine() -> dict[str, Any]:
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _number(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def markdown(report: dict[str, Any], provenance: str) -> str:
    """The report as a markdown block: where and how it was measured, one table, harness
    scaling. ``provenance`` is the command, commit and load (``results_page.measured_at``)."""
    info = report["machine"]
    lines = [
        provenance,
        "",
        f"{info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}; "
        f"median of {report['repeats']} repetitions of {report['seconds']:g} s "
        f"({report['clock']} time) each.",
        "",
        "| Game | Players | env() steps/s | x C4 | raw steps/s | core steps/s | core / env "
        "| env() games/s | Decisions/game | clone µs | to_json/s | from_json/s "
        "| env KiB | 1000 clones KiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["rows"]:
        lines.append(
            f"| {row['game']} | {row['players']} | {_number(row['env_steps_per_s'])} "
            f"| {_number(row['env_vs_reference'], 2)} | {_number(row['raw_steps_per_s'])} "
            f"| {_number(row.get('core_steps_per_s'))} | {_number(row.get('core_vs_env'), 2)} "
            f"| {_number(row['env_games_per_s'], 1)} | {_number(row['decisions_per_game'], 1)} "
            f"| {_number(row.get('clone_us'), 1)} | {_number(row.get('to_json_per_s'))} "
            f"| {_number(row.get('from_json_per_s'))} | {_number(row['env_peak_kib'])} "
            f"| {_number(row['clones_peak_kib'])} |"
        )
    if report.get("harness"):
        lines += [
            "",
            "| Evaluation harness (random agents) | Players | games/s, 1 worker "
            "| games/s, 2 workers | Scaling |",
            "|---|---|---|---|---|",
        ]
        for row in report["harness"]:
            lines.append(
                f"| {row['game']} | {row['players']} | {_number(row['games_per_s_1_worker'], 1)} "
                f"| {_number(row['games_per_s_2_workers'], 1)} | {_number(row['scaling'], 2)} |"
            )
    return "\n".join(lines) + "\n"


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{value} is not a positive number of seconds")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = OneLineParser(prog="python -m benchmarks.throughput", description=__doc__)
    valid = ", ".join(sorted(tabletop_envs.GAMES) + sorted(REFERENCE_MODULES))
    parser.add_argument("--games", nargs="+", help=f"only these (default: all): {valid}")
    parser.add_argument(
        "--players", nargs="+", type=positive_int, help="only these player counts (default: all)"
    )
    parser.add_argument("--repeats", type=positive_int, default=3, help="repetitions per figure")
    parser.add_argument(
        "--seconds",
        type=positive_seconds,
        default=1.0,
        help="time budget of each measurement, in seconds",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: rates per CPU-second of this process (default; steady when other jobs "
        "share the machine); wall: per elapsed second",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"the JSON report (default: {REPORT_JSON}, not written under --no-write)",
    )
    parser.add_argument(
        "--no-write",
        "--no-append",
        dest="no_write",
        action="store_true",
        help=f"print the table only; RESULTS.md's {SECTION!r} section and the default JSON "
        "report stay as they are",
    )
    parser.add_argument("--no-harness", action="store_true", help="skip the worker scaling")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        targets = choose_targets(args.games, args.players)
        report_json = args.out or (None if args.no_write else REPORT_JSON)
        if report_json is not None:
            check_output_file(report_json, "--out")
        if not args.no_write:
            check_output_file(RESULTS_MD, "RESULTS.md")
    except ValueError as error:
        print(f"python -m benchmarks.throughput: error: {error}", file=sys.stderr)
        return 2
    budget = MeasurementBudget(args.seconds, args.clock)
    start = RunLoad.now()
    report = run(targets, args.repeats, budget, harness=not args.no_harness)
    command = "python -m benchmarks.throughput " + " ".join(sys.argv[1:] if argv is None else argv)
    text = markdown(report, measured_at(command.strip(), start))
    if report_json is not None:
        report_json.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(report_json, json.dumps(report, indent=2) + "\n")
    publish(SECTION, text, RESULTS_MD, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
