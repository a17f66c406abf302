"""The run folder of ``tabletop-train``: its settings, checkpoints, learning curve and best step.

Everything here is written atomically and read back without unpickling anything: settings,
the curve and the best step are JSON or CSV; a checkpoint is torch tensors and plain numbers,
read with ``torch.load(weights_only=True)``; policies and pool snapshots are ``.npz`` files
of numbers and a JSON header.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from tabletop_envs.agents.files import check_output_folder, write_atomic
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.training.config import TrainConfig, config_from_mapping
from tabletop_envs.training.evaluation import EvalResult

import tabletop_envs

CONFIG_FILE = "config.json"
BEST_FILE = "best.json"
CHECKPOINT_FORMAT = "tabletop-envs-checkpoint"
CHECKPOINT_VERSION = 1
CURVE_FIELDS = ["steps", "minutes", "against", "games", "win_rate", "low", "high"]


@dataclass(frozen=True)
class RunSettings:
    """What ``config.json`` holds: the game, the seed and every training setting."""

    game: str
    seed: int
    config: TrainConfig

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, **self.config.to_dict()}


def step_of(path: Path) -> int:
    """The step number in a run file's name (``checkpoint_N.pt``, ``policy_N.npz``,
    ``snapshot_N.npz``)."""
    return int(path.stem.rpartition("_")[2])


@dataclass(frozen=True)
class Checkpoint:
    """Where a run stands: its steps, training minutes and PPO updates so far."""

    steps: int
    minutes: float
    updates: int


def read_run_settings(out: Path) -> RunSettings:
    """The settings of the run in ``out``; ValueError if there is none or it is damaged."""
    path = out / CONFIG_FILE
    try:
        values = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"nothing to resume: {out} has no {CONFIG_FILE}") from None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read {path}: {error}") from None
    if not isinstance(values, dict):
        raise ValueError(f"{path}: expected a JSON object of settings")
    game, seed = values.pop("game", None), values.pop("seed", None)
    if game not in tabletop_envs.GAMES:
        raise ValueError(f"{path}: game {game!r} is not one of {sorted(tabletop_envs.GAMES)}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"{path}: seed {seed!r} is not a whole number >= 0")
    return RunSettings(game, seed, config_from_mapping(values, str(path)))


def check_fresh_folder(out: Path, overwrite: bool) -> None:
    """A fresh run (either algorithm) needs a new or empty folder; ``overwrite`` accepts one
    holding an earlier run (a ``config.json``), which the run then clears."""
    check_output_folder(out, "--out")
    if not out.is_dir() or not any(out.iterdir()):
        return
    if not overwrite:
        raise ValueError(
            f"--out {out} is not empty; continue that run with --resume, clear it "
            "with --overwrite, or choose another --out"
        )
    if not (out / CONFIG_FILE).is_file():
        raise ValueError(
            f"--overwrite refused: {out} is not a training run (no {CONFIG_FILE}); "
            "choose a new or empty --out"
        )


def run_algorithm(out: Path) -> str | None:
    """``"exit"`` or ``"ppo"``: which algorithm trained the run in ``out`` (None: no readable
    ``config.json``, which the algorithm's own reader then reports)."""
    try:
        values = json.loads((out / CONFIG_FILE).read_text())
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return None
    if not isinstance(values, dict):
        return None
    return "exit" if values.get("algo") == "exit" or "iterations" in values else "ppo"


class Run:
    """Paths and bookkeeping of one training run folder."""

    def __init__(self, out: Path, settings: RunSettings) -> None:
        self.out = out
        self.settings = settings
        self.game = settings.game
        self.config = settings.config
        self.checkpoints = out / "checkpoints"
        self.pool_dir = out / "pool"
        self.curve = out / "learning_curve.csv"
        self.start_policy = out / "policy_start.npz"  # the policy as this session began
        self.curve_rows: list[list[str]] = []

    def meta(self, steps: int) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.config.players,
            "package_version": tabletop_envs.__version__,
            "trained_steps": int(steps),
            **({"advice": self.config.advice} if self.config.advice else {}),
        }

    # ----- the folder ----------------------------------------------------------------
    def check_fresh(self, overwrite: bool) -> None:
        """A fresh run needs a new or empty folder; ``overwrite`` accepts an old run's."""
        check_fresh_folder(self.out, overwrite)

    def create(self) -> None:
        """Clear the folder (an old run, checked by :meth:`check_fresh`) and write the settings."""
        if self.out.is_dir():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True)
        write_atomic(self.out / CONFIG_FILE, json.dumps(self.settings.to_dict(), indent=2))

    # ----- checkpoints ---------------------------------------------------------------
    def checkpoint_path(self, steps: int) -> Path:
        return self.checkpoints / f"checkpoint_{steps}.pt"

    def policy_path(self, steps: int) -> Path:
        return self.checkpoints / f"policy_{steps}.npz"

    def checkpoint_steps(self) -> list[int]:
        return sorted(step_of(p) for p in self.checkpoints.glob("checkpoint_*.pt"))

    def latest_checkpoint(self) -> Path:
        steps = self.checkpoint_steps()
        if steps:
            return self.checkpoint_path(steps[-1])
        if any(self.checkpoints.glob("model_*.zip")):
            raise ValueError(
                f"cannot resume {self.out}: its checkpoints are stable-baselines3 zips from an "
                "older version, which can run code when loaded; they are not loaded. Start a "
                "new run (its policy files, checkpoints/policy_N.npz, are safe to use)"
            )
        raise ValueError(f"nothing to resume: no checkpoints/checkpoint_N.pt under {self.out}")

    def save_checkpoint(self, model: MaskablePPO, network: PolicyNetwork, minutes: float) -> Path:
        """The policy and optimiser tensors with the step count, and the policy file."""
        steps = int(model.num_timesteps)
        state = {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "steps": steps,
            "minutes": float(minutes),
            "updates": int(model._n_updates),
            "policy": model.policy.state_dict(),
            "optimizer": model.policy.optimizer.state_dict(),
        }
        buffer = io.BytesIO()
        torch.save(state, buffer)
        self.checkpoints.mkdir(parents=True, exist_ok=True)
        network.save(self.policy_path(steps))
        path = self.checkpoint_path(steps)
        write_atomic(path, buffer.getvalue())
        return path

    def load_checkpoint(self, model: MaskablePPO, path: Path) -> Checkpoint:
        """Restore ``model`` (built from the run's settings) from ``path``: tensors and numbers
        only, so a damaged or tampered file is refused and nothing in it runs."""
        try:
            state = torch.load(path, map_location="cpu", weights_only=True)
        except Exception:  # torch raises many kinds for a damaged or foreign file
            raise ValueError(
                f"cannot resume from {path}: not a readable tabletop-train checkpoint (damaged, "
                "or it holds more than tensors and numbers; nothing in it was run)"
            ) from None
        if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"cannot resume from {path}: not a tabletop-train checkpoint")
        if state.get("version") != CHECKPOINT_VERSION:
            raise ValueError(
                f"cannot resume from {path}: checkpoint version {state.get('version')!r}; "
                f"this package reads version {CHECKPOINT_VERSION}"
            )
        try:
            model.policy.load_state_dict(state["policy"])
            model.policy.optimizer.load_state_dict(state["optimizer"])
            checkpoint = Checkpoint(
                int(state["steps"]), float(state["minutes"]), int(state["updates"])
            )
        except (KeyError, RuntimeError, ValueError, TypeError) as error:
            message = str(error).splitlines()[0]
            raise ValueError(
                f"cannot resume from {path}: it does not fit the run's settings ({message})"
            ) from None
        model.num_timesteps = checkpoint.steps
        model._n_updates = checkpoint.updates
        return checkpoint

    def prune(self, best_steps: int | None) -> None:
        """Keep the newest ``keep_checkpoints`` checkpoints and the best one; drop the others'
        files, and pool snapshots beyond ``max_snapshots``."""
        steps = self.checkpoint_steps()
        keep = set(steps[-self.config.keep_checkpoints :]) | {best_steps}
        for old in steps:
            if old not in keep:
                self.checkpoint_path(old).unlink(missing_ok=True)
                self.policy_path(old).unlink(missing_ok=True)
        for snapshot in self.snapshots()[: -self.config.max_snapshots]:
            snapshot.unlink(missing_ok=True)

    def snapshots(self) -> list[Path]:
        """Pool snapshot files, oldest first."""
        return sorted(self.pool_dir.glob("snapshot_*.npz"), key=step_of)

    def drop_after(self, steps: int) -> None:
        """Forget what a run wrote after its latest checkpoint (a crash between the two), so a
        resumed run does not record the same steps twice."""
        for snapshot in self.snapshots():
            if step_of(snapshot) > steps:
                snapshot.unlink()
        self.read_curve()
        self.curve_rows = [row for row in self.curve_rows if int(row[0]) <= steps]

    # ----- learning curve and best step --------------------------------------------------
    def read_curve(self) -> None:
        if self.curve.is_file():
            with self.curve.open(newline="") as stream:
                self.curve_rows = list(csv.reader(stream))[1:]

    def add_to_curve(self, steps: int, minutes: float, results: list[EvalResult]) -> None:
        """Add one evaluation's rows and rewrite the CSV at once (never half a row)."""
        for result in results:
            self.curve_rows.append(
                [str(steps), f"{minutes:.2f}", result.label, str(result.games)]
                + [f"{value:.4f}" for value in (result.win_rate, result.low, result.high)]
            )
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerows([CURVE_FIELDS, *self.curve_rows])
        write_atomic(self.curve, text.getvalue())

    def best(self) -> dict[str, Any] | None:
        """The best evaluated step so far (``best.json``), if any."""
        path = self.checkpoints / BEST_FILE
        try:
            best = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        return best if isinstance(best, dict) and isinstance(best.get("steps"), int) else None

    def record_best(self, steps: int, result: EvalResult) -> bool:
        """Remember ``steps`` as the best step if ``result`` beats the best so far."""
        best = self.best()
        if best is not None and best.get("win_rate", -1.0) >= result.win_rate:
            return False
        record = {
            "steps": steps,
            "against": result.label,
            "win_rate": result.win_rate,
            "policy": self.policy_path(steps).name,
            "checkpoint": self.checkpoint_path(steps).name,
        }
        write_atomic(self.checkpoints / BEST_FILE, json.dumps(record, indent=2))
        return True
