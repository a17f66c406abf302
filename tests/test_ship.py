"""``benchmarks.ship``: a run folder becomes the shipped policy for its game and count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from policies import random_policy

import agents.pretrained as pretrained
from agents.policy import read_policy
from benchmarks.ship import main as ship_main
from benchmarks.ship import ship

HOW = {"command": "tabletop-train vaalbara_v1 --players 4", "commit": "abc1234", "minutes": 15}
RESULTS = [
    {"label": "random", "games": 10, "wins": 9.0, "win_rate": 0.9, "low": 0.6, "high": 0.98},
    {"label": "heuristic", "games": 10, "wins": 2.0, "win_rate": 0.2, "low": 0.05, "high": 0.5},
]


def make_run(folder: Path, players: int) -> Path:
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"game": "vaalbara_v1", "players": players}))
    (folder / "final_eval.json").write_text(json.dumps(RESULTS))
    trained_policy(folder / "policy.npz", players)
    return folder


def trained_policy(path: Path, players: int) -> Path:
    """A random policy whose header says it was trained (as tabletop-train's do)."""
    policy = read_policy(random_policy(path, players=players))
    policy.meta["trained_steps"] = 4096
    policy.save(path)
    return path


def package(folder: Path, entries: list[dict]) -> Path:
    folder.mkdir()
    (folder / "manifest.json").write_text(json.dumps({"policies": entries}))
    return folder


def test_a_run_is_shipped_beside_the_others_and_replaces_its_own_older_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    older = {"env": "vaalbara_v1", "players": 4, "file": "old.npz", "steps": 1}
    other = {"env": "valenor_v2", "players": 3, "file": "valenor_v2-3p.npz", "steps": 2}
    folder = package(tmp_path / "pretrained", [other, older])
    run = make_run(tmp_path / "run", players=4)
    entry = ship(run, run / "policy.npz", HOW, folder)
    entries = json.loads((folder / "manifest.json").read_text())["policies"]
    assert entries == [entry, other]
    assert entry["file"] == "vaalbara_v1-4p.npz" and entry["players"] == 4
    assert entry["command"] == HOW["command"] and entry["minutes"] == 15
    assert entry["evaluation"]["against"]["heuristic"] == {
        "wins": 2,
        "win_rate": 0.2,
        "interval95": [0.05, 0.5],
    }
    assert (folder / entry["file"]).read_bytes() == (run / "policy.npz").read_bytes()
    monkeypatch.setattr(pretrained, "MANIFEST", folder / "manifest.json")
    assert pretrained.pretrained_path("vaalbara_v1", 4) == folder / "vaalbara_v1-4p.npz"


def test_ship_refuses_a_folder_that_is_not_a_finished_run(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "run", players=2)
    (run / "final_eval.json").unlink()
    flags = ["--command", "c", "--commit", "x", "--minutes", "1", "--machine", "m"]
    assert ship_main([str(run), *flags]) == 2
    assert "final_eval.json" in capsys.readouterr().err
    trained_policy(run / "four.npz", 4)
    folder = package(tmp_path / "pretrained", [])
    (run / "final_eval.json").write_text(json.dumps(RESULTS))
    with pytest.raises(
        ValueError, match=r"is a vaalbara_v1 4p policy, but .* trained vaalbara_v1 2p"
    ):
        ship(run, run / "four.npz", HOW, folder)
    assert json.loads((folder / "manifest.json").read_text())["policies"] == []
