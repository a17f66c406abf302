"""``experiments.search_strength``: the line-ups of the search bots' strength table, and a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.search_strength import Row, lineups, main, margin_or_progress


def test_a_competitive_game_seats_each_spec_against_each_baseline() -> None:
    rows, notes = lineups("vaalbara_v1", 4, ["ismcts:5", "pimc:2"], ["heuristic", "pretrained"])
    assert rows == [
        Row(
            "vaalbara_v1",
            ("ismcts:5", "heuristic", "heuristic", "heuristic"),
            "ismcts:5",
            "heuristic",
        ),
        Row(
            "vaalbara_v1", ("pimc:2", "heuristic", "heuristic", "heuristic"), "pimc:2", "heuristic"
        ),
        Row("vaalbara_v1", ("ismcts:5",) + ("pretrained",) * 3, "ismcts:5", "pretrained"),
        Row("vaalbara_v1", ("pimc:2",) + ("pretrained",) * 3, "pimc:2", "pretrained"),
    ]
    assert notes == []


def test_a_baseline_missing_for_this_count_is_named_and_left_out() -> None:
    rows, notes = lineups("valiant_wars_v3", 4, ["ismcts:5"], ["heuristic", "pretrained"])
    assert [row.opponent for row in rows] == ["heuristic"]
    assert len(notes) == 1 and notes[0].startswith("pretrained left out:")


def test_a_cooperative_game_plays_teams_beside_the_baseline_teams() -> None:
    rows, _ = lineups("valenor_v2", 3, ["ismcts:5"], ["heuristic", "pretrained"])
    assert [(row.lineup, row.opponent) for row in rows] == [
        (("heuristic",) * 3, "team"),
        (("pretrained",) * 3, "team"),
        (("ismcts:5",) * 3, "team"),
    ]


def test_a_bad_spec_fails_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["vaalbara", "--specs", "ismcts:0", "--out", "/nonexistent/never-written"])
    assert code != 0
    assert "ismcts" in capsys.readouterr().err


def test_a_run_reports_every_row_with_its_time(tmp_path: Path) -> None:
    out = tmp_path / "strength"
    argv = ["vaalbara", "--specs", "ismcts:3", "--opponents", "random", "heuristic"]
    assert main([*argv, "--games", "2", "--jobs", "1", "--out", str(out)]) == 0
    payload = json.loads((out / "strength.json").read_text())
    assert [result["row"]["opponent"] for result in payload["rows"]] == ["random", "heuristic"]
    for result in payload["rows"]:
        assert result["summary"]["games"] == 2
        assert result["searched_moves"] > 0 and result["s_per_searched_move"] > 0
        assert [game["index"] for game in result["games"]] == [0, 1]


def test_the_table_shows_a_signed_margin_or_the_team_progress() -> None:
    assert margin_or_progress({"mean_margin": 1.484, "wins": 3}) == "+1.48"
    assert margin_or_progress({"mean_margin": -4.1}) == "-4.10"
    assert margin_or_progress({"mean_progress": 0.7166}) == "0.717"
    assert margin_or_progress({"mean_progress": None}) == "-"
