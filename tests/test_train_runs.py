"""``tabletop-train`` runs that cannot go wrong silently: safe resume, run folders, settings,
budgets, Ctrl-C, checkpoints kept, file modes and progress output (issue 15). Every test runs
the real entry point in a temporary folder with a tiny budget."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import signal
import stat
import subprocess
import sys
import time
import warnings
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
import torch
from sb3_contrib import MaskablePPO
from tabletop_envs.agents.base import RandomAgent
from tabletop_envs.agents.gym_env import BotOpponent
from tabletop_envs.agents.policy import read_policy
from tabletop_envs.training import sb3, warmstart
from tabletop_envs.training.budget import WARM_START_SHARE, TrainingBudget
from tabletop_envs.training.run import step_of
from tabletop_envs.training.selfplay import SelfPlayVecEnv
from tabletop_envs.training.train import main as train_main

TINY = """
warm_start_decisions = 0
n_envs = 4
n_steps = 32
batch_size = 64
n_epochs = 1
snapshot_every = 1
max_snapshots = 3
eval_every = 128
eval_games = 2
checkpoint_every = 64
final_eval_games = 2
keep_checkpoints = 2
"""


def tiny_config(folder: Path, extra: str = "") -> Path:
    path = folder / "tiny.toml"
    path.write_text(TINY + extra)
    return path


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time."""
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def run_train(args: list[str]) -> tuple[int, str, str]:
    """The entry point's exit code, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = train_main(args)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str, list]:
    """One finished 512-step run, trained under umask 027."""
    folder = tmp_path_factory.mktemp("finished")
    out = folder / "run"
    previous = os.umask(0o027)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            args = ["vaalbara", "--players", "2", "--steps", "512", "--out", str(out)]
            code, stdout, stderr = run_train([*args, "--config", str(tiny_config(folder))])
    finally:
        os.umask(previous)
    assert code == 0, stderr
    return out, stdout, stderr, [str(w.message) for w in caught]


# ----- resuming loads numbers only ----------------------------------------------------------
class Payload:
    """Unpickling this runs ``touch MARKER``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def write_run_settings(out: Path, **changes) -> None:
    from tabletop_envs.training.config import load_config

    config = load_config("vaalbara").replace(**changes)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(
        json.dumps({"game": "vaalbara_v1", "seed": 0, **config.to_dict()})
    )


def test_resume_refuses_a_tampered_checkpoint_without_running_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    write_run_settings(out, n_envs=2, n_steps=16, batch_size=32, warm_start_decisions=0)
    (out / "checkpoints").mkdir()
    marker = tmp_path / "pwned"
    torch.save(
        {"format": "tabletop-envs-checkpoint", "x": Payload(marker)},
        out / "checkpoints" / "checkpoint_64.pt",
    )
    before = snapshot(out)
    code, _, err = run_train(["vaalbara", "--resume", "--out", str(out), "--steps", "64"])
    assert code == 2 and not marker.exists()
    assert "checkpoint_64.pt: not a readable tabletop-train checkpoint" in err
    assert "weights_only" not in err and err.count("\n") == 1
    assert snapshot(out) == before


def test_resume_refuses_old_stable_baselines_zips(tmp_path: Path) -> None:
    out = tmp_path / "run"
    write_run_settings(out)
    (out / "checkpoints").mkdir()
    with zipfile.ZipFile(out / "checkpoints" / "model_64.zip", "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"")
    code, _, err = run_train(["vaalbara", "--resume", "--out", str(out)])
    assert code == 2 and "stable-baselines3 zips from an older version" in err


# ----- run folders --------------------------------------------------------------------------
def test_a_fresh_run_refuses_a_non_empty_out_and_overwrite_clears_only_a_run(
    tmp_path: Path,
) -> None:
    out = tmp_path / "notes"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    code, _, err = run_train(["vaalbara", "--steps", "64", "--out", str(out)])
    assert code == 2 and "is not empty; continue that run with --resume" in err
    code, _, err = run_train(["vaalbara", "--steps", "64", "--out", str(out), "--overwrite"])
    assert code == 2 and "is not a training run" in err
    assert (out / "mine.txt").read_text() == "keep me"

    run = tmp_path / "run"
    write_run_settings(run)
    (run / "checkpoints").mkdir()
    (run / "checkpoints" / "checkpoint_999.pt").write_bytes(b"old")
    config = tiny_config(tmp_path)
    args = [
        "vaalbara",
        "--players",
        "2",
        "--steps",
        "64",
        "--config",
        str(config),
        "--out",
        str(run),
    ]
    code, _, err = run_train([*args, "--overwrite"])
    assert code == 0, err
    assert not (run / "checkpoints" / "checkpoint_999.pt").exists()
    assert json.loads((run / "config.json").read_text())["n_envs"] == 4


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("n_envs = 0", "n_envs = 0; expected a whole number >= 1"),
        ('net_arch = ["a"]', "net_arch = ['a']; expected a list of whole numbers >= 1"),
        ("learning_rate = -0.1", "learning_rate = -0.1; expected a number in (0, 1]"),
        ('activation = "gelu"', "activation = 'gelu'; expected one of ['relu', 'tanh']"),
        ("random_share = 0.7\nheuristic_share = 0.7", "random_share + heuristic_share = 1.4"),
        ("keep_checkpoints = 0", "keep_checkpoints = 0; expected a whole number >= 1"),
        ('advice = "search"', "advice = 'search'; expected '' (a plain policy) or one of"),
        ("advice_weight = -1", "advice_weight = -1; expected a number in [0, 50]"),
    ],
)
def test_bad_settings_are_named_before_any_folder_exists(
    tmp_path: Path, setting: str, message: str
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(setting + "\n")
    out = tmp_path / "run"
    code, _, err = run_train(["vaalbara", "--config", str(config), "--out", str(out)])
    assert code == 2 and message in err and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--minutes", "nan"], "argument --minutes: nan is not a positive finite number"),
        (["--minutes", "-1"], "argument --minutes: -1 is not a positive finite number"),
        (["--seed", "-1"], "argument --seed: -1 is negative"),
        (["--keep-checkpoints", "0"], "argument --keep-checkpoints: 0 is not a positive"),
    ],
)
def test_bad_numeric_flags_name_the_flag(tmp_path: Path, capsys, flags, message) -> None:
    with pytest.raises(SystemExit) as exit_info:
        train_main(["vaalbara", "--out", str(tmp_path / "run"), *flags])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2 and message in error and error.count("\n") == 1
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    ("where", "message"),
    [("file/run", "is a file, not a folder"), ("/proc/self/run", "cannot write in /proc/self")],
)
def test_an_unwritable_out_is_refused_before_training(tmp_path: Path, where, message) -> None:
    (tmp_path / "file").write_text("")
    out = where if where.startswith("/") else str(tmp_path / where)
    code, _, err = run_train(["vaalbara", "--steps", "64", "--out", out])
    assert code == 2 and message in err and "Traceback" not in err


# ----- resume: the run's own settings -------------------------------------------------------
def test_resume_refuses_flags_that_contradict_the_run_and_touches_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    write_run_settings(out, n_envs=4)
    other = tmp_path / "other.toml"
    other.write_text("n_envs = 8\n")
    before = snapshot(out)
    for flags, message in (
        (["vaalbara", "--players", "3"], "--players 3 (the run's is 2)"),
        (["valiant_wars"], "game valiant_wars_v3 (the run's is vaalbara_v1)"),
        (["vaalbara", "--config", str(other)], "sets n_envs 8 (run: 4)"),
        (["vaalbara", "--seed", "3"], "--seed 3 (the run's is 0)"),
    ):
        code, _, err = run_train([*flags, "--resume", "--out", str(out)])
        assert code == 2 and message in err, err
    assert snapshot(out) == before


def test_ctrl_c_saves_a_checkpoint_and_the_run_resumes_with_its_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = sb3.SelfPlayCallback._on_rollout_end

    def press_ctrl_c(self) -> None:
        original(self)
        if self.rollouts == 3:
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(sb3.SelfPlayCallback, "_on_rollout_end", press_ctrl_c)
    out = tmp_path / "run"
    config = tiny_config(tmp_path)
    args = ["vaalbara", "--players", "2", "--steps", "100000", "--config", str(config)]
    code, _, err = run_train([*args, "--out", str(out)])
    assert code == 130 and "Traceback" not in err
    checkpoint = out / "checkpoints" / "checkpoint_388.pt"
    assert f"checkpoint saved to {checkpoint}" in err
    assert f"resume with: tabletop-train vaalbara_v1 --resume --out {out}" in err
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    settings = (out / "config.json").read_text()

    monkeypatch.setattr(sb3.SelfPlayCallback, "_on_rollout_end", original)
    code, stdout, err = run_train(["vaalbara", "--resume", "--out", str(out), "--steps", "128"])
    assert code == 0, err
    assert "resuming" in stdout and "at step 388 for 128 PPO steps more" in stdout
    assert "resumed at step 388: 128 PPO steps (1 update), 516 in all" in stdout
    assert (out / "config.json").read_text() == settings, "config.json is left as it was"
    assert read_policy(out / "policy.npz").meta["trained_steps"] == 516
    steps = [int(row.split(",")[0]) for row in (out / "learning_curve.csv").read_text().split()[1:]]
    assert steps == sorted(steps) and len(steps) == len(set(steps)) * 2


def test_ctrl_c_during_the_warm_start_exits_130_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sb3.warmstart, "collect", interrupted)
    config = tiny_config(tmp_path, 'warm_start_bot = "random"\n').read_text()
    (tmp_path / "tiny.toml").write_text(
        config.replace("warm_start_decisions = 0", "warm_start_decisions = 50")
    )
    code, _, err = run_train(
        [
            "vaalbara",
            "--steps",
            "64",
            "--config",
            str(tmp_path / "tiny.toml"),
            "--out",
            str(tmp_path / "run"),
        ]
    )
    assert code == 130 and "interrupted during the warm start" in err and "Traceback" not in err


# ----- the budget and what was trained ------------------------------------------------------
def test_the_warm_start_keeps_to_its_share_of_the_minutes() -> None:
    budget = TrainingBudget(None, 4.0)
    gathered_by, fitted_by = budget.warm_start_deadlines(started=100.0)
    assert fitted_by == 100.0 + WARM_START_SHARE * 240 and WARM_START_SHARE <= 0.25
    assert 100.0 < gathered_by < fitted_by
    assert TrainingBudget(1000, None).warm_start_deadlines(100.0) == (None, None)
    plan = budget.warm_start_plan(40_000, "heuristic")
    assert "up to 40,000 decisions, in at most 60 s (25% of the 4-minute budget)" in plan


def test_past_its_deadline_the_warm_start_gathers_one_game_and_fits_one_epoch() -> None:
    late = warmstart.Cloning("vaalbara_v1", 2, "heuristic", epochs=5, batch_size=64)
    late = replace(late, deadline=time.monotonic() - 1)
    one_game = warmstart.collect(replace(late, deadline=None), 1)
    data = warmstart.collect(late, 100_000)
    assert len(data.actions) == len(one_game.actions)
    epochs: list[int] = []
    tqdm_range = warmstart.tqdm

    def counting(iterable, **kwargs):
        for item in tqdm_range(iterable, **kwargs):
            epochs.append(item)
            yield item

    vec = SelfPlayVecEnv("vaalbara_v1", 2, 1, lambda: BotOpponent(RandomAgent(0), "random"))
    policy = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1).policy
    original, warmstart.tqdm = warmstart.tqdm, counting
    try:
        warmstart.clone_into(policy, data, late)
    finally:
        warmstart.tqdm = original
    assert epochs == [0]


def test_a_warm_start_states_its_plan_and_leaves_ppo_the_rest(tmp_path: Path) -> None:
    config = tiny_config(tmp_path).read_text().replace("warm_start_decisions = 0", "")
    (tmp_path / "tiny.toml").write_text(
        config + 'warm_start_bot = "heuristic"\nwarm_start_decisions = 10000000\n'
    )
    args = ["vaalbara", "--minutes", "0.05", "--config", str(tmp_path / "tiny.toml")]
    code, stdout, err = run_train([*args, "--out", str(tmp_path / "run")])
    assert code == 0, err
    plan = stdout.index("warm start: clone heuristic on up to 10,000,000 decisions, in at most")
    assert plan < stdout.index("warm start: the policy matches heuristic")
    assert "s left for PPO" in stdout
    trained = stdout[stdout.index("warm start (clone of heuristic, ") :].split(" decisions")[0]
    assert int(trained.rsplit(" ", 1)[1].replace(",", "")) < 10_000_000


def test_ctrl_c_during_a_warm_start_with_worker_processes_prints_no_traceback(
    tmp_path: Path,
) -> None:
    config = tiny_config(tmp_path).read_text().replace("warm_start_decisions = 0", "")
    (tmp_path / "tiny.toml").write_text(
        config + 'env_workers = 2\nwarm_start_bot = "heuristic"\nwarm_start_decisions = 10000000\n'
    )
    command = [sys.executable, "-m", "tabletop_envs.training.train", "vaalbara", "--steps", "64"]
    command += ["--config", str(tmp_path / "tiny.toml"), "--out", str(tmp_path / "run")]
    unbuffered = {**os.environ, "PYTHONUNBUFFERED": "1"}
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    process = subprocess.Popen(command, text=True, env=unbuffered, **pipes)
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("warm start: clone"):
            break
    time.sleep(1.0)  # the workers are up and the bot's games under way
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "interrupted during the warm start" in err
    assert "Traceback" not in err and "EOFError" not in err, err


# ----- what a finished run leaves -----------------------------------------------------------
def test_only_the_last_checkpoints_and_the_best_are_kept(finished) -> None:
    out = finished[0]
    best = json.loads((out / "checkpoints" / "best.json").read_text())
    kept = sorted(step_of(p) for p in (out / "checkpoints").glob("checkpoint_*.pt"))
    assert kept == sorted({448, 512, best["steps"]}), "checkpoints every 64 steps, 2 kept + best"
    policies = sorted(step_of(p) for p in (out / "checkpoints").glob("policy_*.npz"))
    assert policies == kept
    assert len(list((out / "pool").glob("snapshot_*.npz"))) == 3
    assert best["steps"] % 128 == 0 and (out / "checkpoints" / best["policy"]).is_file()


def test_every_file_has_the_umask_mode_and_no_temporary_is_left(finished) -> None:
    out = finished[0]
    files = [p for p in out.rglob("*") if p.is_file()]
    assert {"policy.npz", "learning_curve.png", "learning_curve.csv", "config.json"} <= {
        p.name for p in files
    }
    modes = {p.relative_to(out).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in files}
    assert set(modes.values()) == {0o640}, modes
    assert not [p for p in files if p.name.endswith(".tmp")]


def test_the_curve_has_one_row_per_evaluation_and_baseline(finished) -> None:
    rows = (finished[0] / "learning_curve.csv").read_text().splitlines()
    assert rows[0] == "steps,minutes,against,games,win_rate,low,high"
    assert [row.split(",")[0] for row in rows[1:]] == [
        "0",
        "0",
        "128",
        "128",
        "256",
        "256",
        "384",
        "384",
        "512",
        "512",
    ]


def test_progress_shows_one_rate_and_no_stable_baselines_warning(finished) -> None:
    _, stdout, stderr, warned = finished
    assert not [w for w in warned if "render_mode" in w]
    progress = stderr.replace("\r", "\n").splitlines()
    last = [line for line in progress if "training vaalbara_v1:" in line][-1]
    assert last.count("/s") == 1 and "steps/s" in last and "512/512 steps" in last
    assert "512 PPO steps (4 updates)" in stdout and "seats rotated" in stdout


def test_a_time_budget_shows_an_eta(tmp_path: Path) -> None:
    config = tiny_config(tmp_path)
    args = ["vaalbara", "--minutes", "0.05", "--config", str(config), "--out", str(tmp_path / "r")]
    code, _, err = run_train(args)
    assert code == 0 and "ETA 00:0" in err


@pytest.mark.parametrize(
    "module",
    ["tabletop_envs.training.train", "tabletop_envs.agents.play", "tabletop_envs.tools.evaluate"],
)
def test_help_shows_every_default_and_no_markup(module: str) -> None:
    parser = importlib.import_module(module).build_parser()
    text = parser.format_help()
    assert "``" not in text and "::" not in text
    formatter = parser._get_formatter()
    for action in parser._actions:
        if action.option_strings and not action.required and action.dest != "help":
            assert "(default" in formatter._get_help_string(action), action.dest


def test_an_advised_run_records_its_advice_and_its_policy_plays(tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = tiny_config(tmp_path, 'advice = "heuristic"\n')
    code, stdout, err = run_train(
        ["vaalbara", "--players", "2", "--steps", "256", "--out", str(out), "--config", str(config)]
    )
    assert code == 0, err
    assert "advised policy: starts as the heuristic bot's moves" in stdout
    network = read_policy(out / "policy.npz")
    assert network.advice == "heuristic"
    assert network.observation_size == 476 + 64  # vaalbara_v1's observation, then its actions
    final = json.loads((out / "final_eval.json").read_text())
    assert {row["label"] for row in final} == {"random", "heuristic"}


def test_evaluations_by_time_start_at_step_zero_and_the_end_compares_with_the_start(
    tmp_path: Path,
) -> None:
    """The curve begins where PPO begins; with eval_every_seconds the points follow the clock,
    not the steps; the last line sets the trained policy beside its start and the shipped one."""
    config = tiny_config(tmp_path, "eval_every_seconds = 0.1\n")
    config.write_text(config.read_text().replace("eval_every = 128", "eval_every = 1000000"))
    out = tmp_path / "run"
    args = ["vaalbara", "--steps", "1024", "--config", str(config), "--out", str(out)]
    code, stdout, err = run_train(args)
    assert code == 0, err
    rows = (out / "learning_curve.csv").read_text().split()[1:]
    steps = sorted({int(row.split(",")[0]) for row in rows})
    assert steps[0] == 0 and len(steps) >= 3, steps  # by steps there would be one point
    assert read_policy(out / "policy_start.npz").meta["trained_steps"] == 0
    last = stdout.strip().splitlines()
    line = next(text for text in last if text.startswith("after "))
    assert "minutes of training:" in line and "against heuristic" in line
    assert "its starting point" in line and "the shipped policy" in line
    assert "(the same 2 games each)" in line
