"""``tabletop_envs.tools.ship``: a run folder becomes the shipped policy for its game and count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tabletop_envs.agents.pretrained as pretrained
from policies import random_policy
from tabletop_envs.agents.policy import read_policy
from tabletop_envs.tools.ship import main as ship_main
from tabletop_envs.tools.ship import ship

HOW = {"command": "tabletop-train vaalbara_v1 --players 4", "commit": "abc1234", "minutes": 15}
RESULTS = [
    {"label": "random", "games": 10, "wins": 9.0, "win_rate": 0.9, "low": 0.6, "high": 0.98},
    {"label": "heuristic", "games": 10, "wins": 6.0, "win_rate": 0.6, "low": 0.31, "high": 0.83},
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
        "wins": 6,
        "win_rate": 0.6,
        "interval95": [0.31, 0.83],
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


def eval_results(path: Path, first: str, others: list[str], wins: float) -> Path:
    """A tabletop-eval results file (its summary) with ``first`` in the first seat."""
    specs = [first, *others]
    agents = [
        {
            "spec": spec,
            "games": 40,
            "wins": wins,
            "win_rate": wins / 40,
            "win_low": 0.1,
            "win_high": 0.4,
        }
        for spec in specs
    ]
    path.write_text(json.dumps({"summary": {"seed": 0, "games": 40, "agents": agents}}))
    return path


def test_a_polished_policy_ships_with_its_tournament_evaluations(tmp_path: Path) -> None:
    folder = package(tmp_path / "pretrained", [])
    run = make_run(tmp_path / "run", players=4)
    polished = read_policy(run / "policy.npz")
    polished.meta["polished"] = {"teacher": "heuristic", "kept_kinds": ["select"]}
    polished.save(tmp_path / "polished.npz")
    files = [
        eval_results(tmp_path / "h.json", "polished.npz", ["heuristic"] * 3, 11.0),
        eval_results(tmp_path / "r.json", "polished.npz", ["random"] * 3, 36.0),
    ]
    entry = ship(run, tmp_path / "polished.npz", HOW, folder, files)
    assert entry["polished"] == {"teacher": "heuristic", "kept_kinds": ["select"]}
    assert entry["evaluation"]["games"] == 40
    assert entry["evaluation"]["against"] == {
        "heuristic": {"wins": 11, "win_rate": 0.275, "interval95": [0.1, 0.4], "seed": 0},
        "random": {"wins": 36, "win_rate": 0.9, "interval95": [0.1, 0.4], "seed": 0},
    }


def test_an_advised_policy_says_so_in_its_entry(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", players=2)
    advised = read_policy(run / "policy.npz")
    advised.meta["advice"] = "heuristic"
    advised.save(run / "policy.npz")
    entry = ship(run, run / "policy.npz", HOW, package(tmp_path / "pretrained", []))
    assert entry["advice"] == "heuristic" and "polished" not in entry


def test_ship_refuses_an_evaluation_that_is_not_a_results_file(tmp_path: Path, capsys) -> None:
    run = make_run(tmp_path / "run", players=4)
    flags = ["--command", "c", "--commit", "x", "--minutes", "1", "--machine", "m"]
    for content in ({"summary": {"agents": []}}, [1, 2], {"records": []}):
        (tmp_path / "bad.json").write_text(json.dumps(content))
        assert ship_main([str(run), *flags, "--evaluation", str(tmp_path / "bad.json")]) == 2
        assert "bad.json: not a tabletop-eval results file" in capsys.readouterr().err


def test_ship_refuses_two_evaluations_against_the_same_opponents(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", players=4)
    files = [
        eval_results(tmp_path / f"{seed}.json", "policy.npz", ["heuristic"] * 3, 11.0)
        for seed in (0, 1)
    ]
    with pytest.raises(ValueError, match="a second evaluation against heuristic"):
        ship(run, run / "policy.npz", HOW, package(tmp_path / "pretrained", []), files)


FLAGS = ["--command", "c", "--commit", "x", "--minutes", "1", "--machine", "m", "--move-games", "1"]


def test_an_entry_that_does_not_beat_the_heuristic_is_not_shipped(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", players=4)
    losing = [{**RESULTS[1], "wins": 2.0, "win_rate": 0.2}, RESULTS[0]]
    (run / "final_eval.json").write_text(json.dumps(losing))
    folder = package(tmp_path / "pretrained", [])
    with pytest.raises(
        ValueError,
        match=r"not shipped: 20\.0% against the heuristic, not above "
        r"par \(25%\)",
    ):
        ship(run, run / "policy.npz", HOW, folder)
    assert json.loads((folder / "manifest.json").read_text())["policies"] == []


def test_the_command_records_the_agent_and_its_time_per_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    run = make_run(tmp_path / "run", players=2)
    folder = package(tmp_path / "pretrained", [])
    monkeypatch.setattr(pretrained, "HERE", folder)
    assert ship_main([str(run), *FLAGS]) == 0
    (entry,) = json.loads((folder / "manifest.json").read_text())["policies"]
    assert entry["agent"] == "policy" and 0 < entry["seconds_per_move"] < 1
    assert "vaalbara_v1-2p.npz, the network alone; 60.0% [31.0%, 83.0%]" in capsys.readouterr().out
    assert ship_main([str(run), *FLAGS, "--agent", "ismcts:5"]) == 2
    assert "--agent 'ismcts:5': expected 'policy'" in capsys.readouterr().err


def test_an_expert_iteration_network_ships_with_its_search_and_evaluation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from test_pretrained import exit_network

    run = tmp_path / "run"
    run.mkdir()
    settings = {"algo": "exit", "game": "valiant_wars_v3", "players": 2, "iterations": 4}
    (run / "config.json").write_text(json.dumps(settings))
    network = exit_network(run / "net_1.npz")
    folder = package(tmp_path / "pretrained", [])
    monkeypatch.setattr(pretrained, "HERE", folder)
    flags = [str(run), "--policy", str(network), *FLAGS, "--agent", "az:2"]
    assert ship_main(flags) == 2
    assert "needs --evaluation" in capsys.readouterr().err
    results = eval_results(tmp_path / "h.json", "az:2,net=...", ["heuristic"], 24.0)
    assert ship_main([*flags, "--evaluation", str(results)]) == 0
    (entry,) = json.loads((folder / "manifest.json").read_text())["policies"]
    assert entry["agent"] == "az:2" and entry["rounds"] == 1 and "steps" not in entry
    assert entry["evaluation"]["against"]["heuristic"]["win_rate"] == 0.6
    assert entry["seconds_per_move"] > 0
