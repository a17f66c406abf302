"""The evaluation harness on the toy game (tests/toygame): rotation, reproducibility,
reports, CLI."""

from __future__ import annotations

import csv
import json
from typing import Any

import numpy as np
import pytest
from toygame.spec import LAYOUT, Decision

from agents.arena import GameRecord, MatchSpec, game_seeds, lineup, play_games
from agents.base import Agent
from agents.heuristics import HEURISTIC_BOTS
from benchmarks.evaluate import main
from benchmarks.report import agent_labels, summarise

TOY = "highcard_v0"


class KeepHighAgent(Agent):
    """Keeps a card of 5 or more and stakes 2 on it; redraws a low card and stakes 1."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, agent: str) -> int:
        card = round(float(observation["observation"][0]) * 9)
        keep_or_low, swap_or_high = np.flatnonzero(observation["action_mask"])
        staking = keep_or_low == LAYOUT.segment_of(Decision.STAKE).offset
        return int(swap_or_high if (card >= 5) == staking else keep_or_low)


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(HEURISTIC_BOTS, TOY, f"{__name__}:KeepHighAgent")


def test_each_agent_plays_each_seat_equally() -> None:
    for players in (2, 3, 4):
        seen = np.zeros((players, players), dtype=int)
        for index in range(players * 5):
            seats = lineup(index, players)
            assert sorted(seats) == list(range(players))
            for seat, agent in enumerate(seats):
                seen[agent, seat] += 1
        assert (seen == 5).all()


def test_every_seating_order_comes_up_equally() -> None:
    arrangements = [tuple(lineup(index, 4)) for index in range(48)]
    assert len(set(arrangements)) == 24  # all 4! seatings
    assert all(arrangements.count(a) == 2 for a in set(arrangements))


def test_game_seeds_depend_only_on_seed_and_index() -> None:
    assert game_seeds(3, 7, 2) == game_seeds(3, 7, 2)
    assert game_seeds(3, 7, 2)[0] != game_seeds(3, 8, 2)[0]
    assert game_seeds(3, 7, 2)[0] != game_seeds(4, 7, 2)[0]


def test_results_do_not_depend_on_worker_count() -> None:
    match = MatchSpec(TOY, ("heuristic", "random", "random"), seed=11)
    serial = play_games(match, 30, workers=1)
    parallel = play_games(match, 30, workers=2)
    assert [r.to_dict() for r in serial] == [r.to_dict() for r in parallel]
    assert [r.index for r in serial] == list(range(30))
    other_seed = play_games(MatchSpec(TOY, match.agents, seed=12), 30)
    assert [r.to_dict() for r in other_seed] != [r.to_dict() for r in serial]


def test_summary_counts_seats_shared_wins_and_ratings() -> None:
    match = MatchSpec(TOY, ("heuristic", "random"), seed=5)
    records = play_games(match, 400)
    summary = summarise(match, records, cooperative=False)
    smart, rand = summary["agents"]
    assert smart["seat_games"] == rand["seat_games"] == [200, 200]
    assert smart["wins"] + rand["wins"] == pytest.approx(400)  # shared wins count 1/2 each
    assert smart["win_low"] < smart["win_rate"] < smart["win_high"]
    assert smart["win_low"] > 0.5 > rand["win_rate"]
    above = summary["head_to_head"]
    assert above[0][1] + above[1][0] == pytest.approx(1.0)
    assert above[0][1] == pytest.approx(smart["win_rate"])
    assert smart["mean_margin"] == pytest.approx(-rand["mean_margin"])


def test_ratings_follow_the_agent_through_seat_rotation() -> None:
    match = MatchSpec(TOY, ("heuristic", "random", "random"), seed=0)
    records = [
        GameRecord(i, 0, lineup(i, 3), [0.0] * 3, [lineup(i, 3).index(0)], None, None, None, 3)
        for i in range(30)
    ]
    agents = summarise(match, records, cooperative=False)["agents"]
    assert agents[0]["win_rate"] == 1.0 and agents[0]["seat_games"] == [10, 10, 10]
    assert agents[0]["rating"]["mu"] > agents[1]["rating"]["mu"] + 5
    assert agents[0]["mean_score"] is None


def test_cooperative_summary_reports_team_and_missing_hooks() -> None:
    match = MatchSpec(TOY, ("random", "random"), seed=1)
    records = play_games(match, 20)
    team = summarise(match, records, cooperative=True)["team"]
    assert team["games"] == 20 and team["wins"] == 20  # someone always holds the best card
    assert team["mean_progress"] is None and team["mean_turns"] is None


def test_labels_are_unique() -> None:
    assert agent_labels(["heuristic", "random", "random", "runs/p.pt"]) == [
        "heuristic",
        "random",
        "random#2",
        "p.pt",
    ]


def test_cli_writes_all_outputs(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    code = main(
        [
            TOY,
            "--agents",
            "heuristic",
            "random",
            "--games",
            "40",
            "--workers",
            "1",
            "--seed",
            "3",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.json", "winrates.png"]
    data = json.loads((out / "results.json").read_text())
    assert data["summary"]["games"] == 40 and len(data["records"]) == 40
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [row["label"] for row in rows] == ["heuristic", "random"]
    assert (out / "winrates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "head to head" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nogame", "--agents", "random", "random"], "unknown game 'nogame'"),
        ([TOY, "--agents", "random", "wizard"], "unknown agent 'wizard'"),
        ([TOY, "--agents", "random", "random", "--players", "5"], "takes 2 to 4 players"),
        ([TOY, "--agents", "random", "random", "--players", "3"], "3 players need 3 agents"),
        ([TOY, "--agents", "random"], "takes 2 to 4 players"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys, args, message) -> None:
    out = tmp_path / "out"
    assert main([*args, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not out.exists()


def test_cli_damaged_policy_file_is_rejected(tmp_path, capsys) -> None:
    policy = tmp_path / "policy.npz"
    policy.write_bytes(b"weights")
    assert main([TOY, "--agents", "random", str(policy), "--out", str(tmp_path / "o")]) == 2
    assert "cannot read policy file" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_cli_bad_flag_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([TOY, "--agents", "random", "random", "--games", "zero"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "'zero' is not a whole number" in error and error.count("\n") == 1


def test_cli_results_are_the_same_for_any_worker_count(tmp_path) -> None:
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        args = ["vaalbara", "--agents", "heuristic", "random", "random", "--games", "6"]
        assert main([*args, "--workers", workers, "--seed", "9", "--out", str(out)]) == 0
        runs.append(json.loads((out / "results.json").read_text()))
    assert runs[0] == runs[1]
    assert [r["lineup"] for r in runs[0]["records"]][:3] == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    assert all(len(r["scores"]) == 3 for r in runs[0]["records"])
