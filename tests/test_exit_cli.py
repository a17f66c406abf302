"""``tabletop-train GAME --algo exit``: expert iteration behind the training command line, with
its flags, run folder, resume, Ctrl-C and report. Each run is a tiny Valiant Wars one (rounds
of two games, two search iterations a move) in a temporary folder."""

from __future__ import annotations

import contextlib
import io
import json
import signal
from pathlib import Path

import numpy as np
import pytest
import tabletop_envs.training.budget as budget_module
from tabletop_envs.agents.az import read_network
from tabletop_envs.agents.policy import read_policy
from tabletop_envs.training.budget import RoundBudget
from tabletop_envs.training.exit import loop
from tabletop_envs.training.exit.__main__ import main as exit_main
from tabletop_envs.training.exit.fit import FitReport
from tabletop_envs.training.train import main as train_main

TINY = ["--iterations", "2", "--games", "2", "--gate-games", "2", "--curve-games", "2"]
TINY += ["--epochs", "2", "--rollout-depth", "2"]


def train(*args: str) -> tuple[int, str, str]:
    """``tabletop-train valiant_wars --algo exit ARGS``: exit code, standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = train_main(["valiant_wars", "--algo", "exit", *args])
    return code, out.getvalue(), err.getvalue()


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A one-round run."""
    out = tmp_path_factory.mktemp("exit") / "run"
    code, stdout, stderr = train("--out", str(out), "--rounds", "1", *TINY)
    assert code == 0, stderr
    return out, stdout, stderr


def test_a_round_leaves_its_files_a_table_a_plot_and_a_resume_state(finished) -> None:
    out, stdout, stderr = finished
    assert sorted(files(out)) == [
        "config.json",
        "curve.csv",
        "data/round_1.npz",
        "learning_curve.png",
        "nets/net_1.npz",
        "state.json",
    ]
    assert json.loads((out / "config.json").read_text())["algo"] == "exit"
    state = json.loads((out / "state.json").read_text())
    assert state["rounds"] == 1 and state["latest"] == "nets/net_1.npz"
    row = state["history"][0]
    assert {"gate_score", "searcher_vs_heuristic", "network_vs_heuristic"} <= set(row)
    assert read_network(out / "nets" / "net_1.npz").policy.meta["exit_round"] == 1
    assert "expert iteration" in stdout and "1 round" in stdout
    assert f"{row['searcher_vs_heuristic']:.0%} [" in stdout  # the table with its interval
    assert f"learning curve: {out / 'learning_curve.png'}" in stdout
    assert (out / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    assert "games" in stderr and "round 1" in stderr  # the progress bar


def test_resume_plays_more_rounds_with_the_run_settings(finished, tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    for name, data in files(finished[0]).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    settings = (out / "config.json").read_text()
    code, stdout, stderr = train("--resume", "--out", str(out), "--rounds", "1", "--workers", "2")
    assert code == 0, stderr
    assert "1 round(s) done before" in stdout
    state = json.loads((out / "state.json").read_text())
    assert [row["round"] for row in state["history"]] == [1, 2]
    assert (out / "config.json").read_text() == settings
    assert len((out / "curve.csv").read_text().splitlines()) == 3
    # the older module is the same command
    assert exit_main(["valiant_wars", "--resume", "--out", str(out), "--rounds", "1"]) == 0
    assert json.loads((out / "state.json").read_text())["rounds"] == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--algo", "sarsa"], "invalid choice: 'sarsa' (choose from 'ppo', 'exit')"),
        (["--mix", "1.5"], "--mix 1.5: expected a number in [0, 1]"),
        (["--games", "many"], "argument --games: 'many' is not a whole number"),
        (["--gate-margin", "0.7"], "--gate-margin 0.7: expected a number in [0, 0.5]"),
        (["--steps", "100"], "--steps applies to --algo ppo only"),
        (["--eval-games", "3", "--backend", "sb3"], "--backend, --eval-games apply to --algo ppo"),
        (["--players", "9"], "9"),
    ],
)
def test_bad_flags_are_named_before_any_folder_exists(
    tmp_path: Path, capsys, args: list[str], message: str
) -> None:
    out = tmp_path / "run"
    try:
        code = train_main(["valiant_wars", "--algo", "exit", "--out", str(out), *args])
    except SystemExit as stop:  # argparse's own errors
        code = stop.code
    assert code == 2 and message in capsys.readouterr().err
    assert not out.exists()


def test_ppo_refuses_the_flags_of_expert_iteration(tmp_path: Path, capsys) -> None:
    assert train_main(["valiant_wars", "--iterations", "3", "--out", str(tmp_path / "r")]) == 2
    assert "--iterations applies to --algo exit only" in capsys.readouterr().err


def test_each_algorithm_refuses_to_resume_the_other(finished, tmp_path: Path, capsys) -> None:
    out = finished[0]
    assert train_main(["valiant_wars", "--resume", "--out", str(out)]) == 2
    assert "holds an expert-iteration run; resume it with --algo exit" in capsys.readouterr().err
    ppo = tmp_path / "ppo"
    ppo.mkdir()
    (ppo / "config.json").write_text(json.dumps({"game": "valiant_wars_v3", "seed": 0}))
    assert train("--resume", "--out", str(ppo))[0] == 2
    assert train("--resume", "--out", str(ppo))[2].endswith(
        "holds a PPO run; resume it without --algo exit\n"
    )


def test_resume_refuses_contradicting_flags_and_touches_nothing(finished) -> None:
    out = finished[0]
    before = files(out)
    code, _, err = train("--resume", "--out", str(out), "--iterations", "5", "--seed", "3")
    assert code == 2
    assert "--seed 3 (the run's is 0); --iterations 5 (the run's is 2)" in err
    assert files(out) == before


@pytest.mark.parametrize(
    ("name", "damage", "message"),
    [
        ("state.json", b"{not json", "state.json: damaged (Expecting"),
        (
            "state.json",
            b'{"rounds": 2, "best": null, "latest": null, "history": []}',
            "history row per",
        ),
        ("nets/net_1.npz", b"PK\x03\x04garbage", "cannot resume"),
        ("data/round_1.npz", b"garbage", "round_1.npz are damaged"),
        (
            "config.json",
            b'{"algo": "exit", "game": "valiant_wars_v3", "players": 2, "mix": 7}',
            "mix = 7; expected a number in [0, 1]",
        ),
    ],
)
def test_a_damaged_run_is_refused_with_the_file_named(
    finished, tmp_path: Path, name: str, damage: bytes, message: str
) -> None:
    out = tmp_path / "run"
    for relative, data in files(finished[0]).items():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_bytes(data)
    (out / name).write_bytes(damage)
    before = files(out)
    code, _, err = train("--resume", "--out", str(out), "--rounds", "1")
    assert code == 2 and message in err and "Traceback" not in err, err
    assert err.startswith("tabletop-train: error: ") and len(err.splitlines()) == 1
    assert files(out) == before


def test_a_fresh_run_refuses_a_used_folder_and_overwrite_clears_only_a_run(
    finished, tmp_path: Path
) -> None:
    code, _, err = train("--out", str(finished[0]), *TINY)
    assert code == 2 and "is not empty" in err
    other = tmp_path / "notes"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    code, _, err = train("--out", str(other), "--overwrite", *TINY)
    assert code == 2 and "not a training run" in err
    assert (other / "notes.txt").read_text() == "mine"


def test_ctrl_c_stops_after_the_round_or_at_once_and_the_run_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    presses = {"count": 1}
    original = loop.fit

    def press(*args, **kwargs):  # during the round, before its fit
        for _ in range(presses["count"]):
            signal.raise_signal(signal.SIGINT)
        return original(*args, **kwargs)

    monkeypatch.setattr(loop, "fit", press)
    out = tmp_path / "run"
    code, _, err = train("--out", str(out), "--rounds", "3", *TINY)
    assert code == 130 and "Traceback" not in err
    assert "Ctrl-C: stopping after this round" in err
    assert f"continue with: tabletop-train valiant_wars_v3 --algo exit --resume --out {out}" in err
    assert json.loads((out / "state.json").read_text())["rounds"] == 1
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler

    presses["count"] = 2  # a second Ctrl-C stops at once: the round is not saved
    code, _, err = train("--resume", "--out", str(out), "--rounds", "1")
    assert code == 130 and "Traceback" not in err
    assert "stopped at once" in err and "round 2 is played again" in err
    assert json.loads((out / "state.json").read_text())["rounds"] == 1

    monkeypatch.setattr(loop, "fit", original)
    code, _, err = train("--resume", "--out", str(out), "--rounds", "1")
    assert code == 0, err
    assert json.loads((out / "state.json").read_text())["rounds"] == 2


def test_a_time_budget_starts_a_round_only_when_one_fits(monkeypatch) -> None:
    clock = {"now": 100.0}
    monkeypatch.setattr(budget_module.time, "monotonic", lambda: clock["now"])
    budget = RoundBudget(None, 10.0, started=100.0)  # 600 s
    assert budget.another(0, None)  # the first round always starts
    clock["now"] = 400.0  # 300 s used, 300 left
    assert budget.another(1, 250.0) and not budget.another(1, 350.0)
    clock["now"] = 800.0
    assert not budget.another(2, 1.0)
    assert RoundBudget(2, None).another(1, 1e9) and not RoundBudget(2, None).another(2, 0.0)


SHIPPED = Path(__file__).resolve().parent.parent / "agents" / "pretrained"


def test_a_run_can_start_from_a_shipped_policy(tmp_path: Path, monkeypatch) -> None:
    def unfitted(module, window, settings, seed) -> FitReport:
        return FitReport(0, 0, 0.0, 0.0, 0.0, 0.0, len(window))

    monkeypatch.setattr(loop, "fit", unfitted)  # the first network as it started
    policy = SHIPPED / "valiant_wars_v3-2p.npz"
    out = tmp_path / "run"
    code, _, err = train("--out", str(out), "--rounds", "1", "--init-policy", str(policy), *TINY)
    assert code == 0, err
    config = json.loads((out / "config.json").read_text())
    assert config["init_policy"] == str(policy) and config["hidden"] == [256, 256]
    started, shipped = read_network(out / "nets" / "net_1.npz").policy, read_policy(policy)
    layers = zip(started.weights + started.biases, shipped.weights + shipped.biases, strict=True)
    for got, want in layers:
        np.testing.assert_array_equal(got, want)
    copy = tmp_path / "copy.npz"
    copy.write_bytes(policy.read_bytes())
    code, _, err = train("--resume", "--out", str(out), "--init-policy", str(copy))
    assert code == 2 and "--init-policy" in err and f"(the run's is {policy})" in err


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ("missing.npz", "--init-policy: "),
        (str(SHIPPED / "vaalbara_v1-2p.npz"), "does not fit: game 'vaalbara_v1'"),
    ],
)
def test_a_policy_that_cannot_start_the_run_is_refused(
    tmp_path: Path, policy: str, message: str
) -> None:
    out = tmp_path / "run"
    code, _, err = train("--out", str(out), "--init-policy", policy, *TINY)
    assert code == 2 and message in err, err
    assert not out.exists()
