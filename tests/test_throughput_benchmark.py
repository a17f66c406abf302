"""Smoke tests of the throughput benchmark's functions on tiny budgets (no timing asserts)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tabletop_envs
from benchmarks import throughput


def test_targets_cover_every_registered_game_at_every_player_count() -> None:
    targets = throughput.choose_targets(None)
    labels = {(t.name, t.players) for t in targets}
    for name in tabletop_envs.GAMES:
        game = tabletop_envs.game_module(name).Game
        for players in range(game.MIN_PLAYERS, game.MAX_PLAYERS + 1):
            assert (name, players) in labels
    assert ("connect_four_v3", 2) in labels and ("texas_holdem_v4", 4) in labels


def test_named_games_keep_the_reference_and_unknown_names_fail() -> None:
    targets = throughput.choose_targets(["vaalbara"])
    assert {t.name for t in targets} == {"connect_four_v3", "null_core", "vaalbara_v1"}
    only_four = throughput.choose_targets(["valiant_wars"], players=[4])
    assert [(t.name, t.players) for t in only_four] == [
        ("connect_four_v3", 2),
        ("null_core", 2),
        ("valiant_wars_v3", 4),
    ]
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*valid names"):
        throughput.choose_targets(["chess"])


@pytest.mark.parametrize("name", sorted(tabletop_envs.GAMES))
def test_env_raw_and_core_loops_play_whole_games(name: str) -> None:
    target = next(t for t in throughput.choose_targets([name]) if t.name == name)
    rng = np.random.default_rng(0)
    through_env = throughput.play_aec(target.make_env(), 3, rng)
    through_raw = throughput.play_aec(target.make_raw(), 3, np.random.default_rng(0))
    through_core = throughput.play_core(target.game_class, target.players, 3, rng)
    assert through_env == through_raw > 0
    assert 0 < through_core <= target.game_class.MAX_DECISIONS


def test_one_repetition_gives_every_figure_and_ratios() -> None:
    targets = throughput.choose_targets(["valiant_wars"])[:3]
    report = throughput.run(targets, 1, throughput.MeasurementBudget(0.01, "wall"), harness=False)
    reference, floor, game = report["rows"]
    assert floor["decisions_per_game"] == throughput.NullCore.DECISIONS
    assert reference["env_vs_reference"] == 1.0 and "core_steps_per_s" not in reference
    for key in ("core_vs_env", "clone_us", "to_json_per_s", "from_json_per_s"):
        assert game[key] > 0
    assert game["clones_peak_kib"] > game["env_peak_kib"] / 100 > 0
    text = throughput.markdown(report, "where and when")
    assert "| valiant_wars_v3 | 2 |" in text and text.startswith("where and when\n")
    json.dumps(report)


def test_x_c4_is_the_median_ratio_to_the_reference_runs_either_side(monkeypatch) -> None:
    # A fake step counter: env() runs give these steps/s in this order, C4 swinging 30-fold
    # over the run; a ratio to any C4 run but the two around the game (the first, the median,
    # only the one before or after) gives other figures.
    script = [
        ("connect_four_v3 2p", 100),
        ("null_core 2p", 1000),  # 1000 / mean(100, 300) = 5
        ("connect_four_v3 2p", 300),
        ("vaalbara_v1 2p", 400),  # 400 / mean(300, 100) = 2
        ("connect_four_v3 2p", 100),
        ("connect_four_v3 2p", 50),  # repetition 2
        ("null_core 2p", 300),  # 300 / mean(50, 10) = 10
        ("connect_four_v3 2p", 10),
        ("vaalbara_v1 2p", 90),  # 90 / mean(10, 50) = 3
        ("connect_four_v3 2p", 50),
        ("connect_four_v3 2p", 20),  # repetition 3
        ("null_core 2p", 140),  # 140 / mean(20, 20) = 7
        ("connect_four_v3 2p", 20),
        ("vaalbara_v1 2p", 300),  # 300 / mean(20, 280) = 2
        ("connect_four_v3 2p", 280),
    ]
    calls = iter(script)

    def fake_env_run(target, budget, seed) -> throughput.PlayRun:
        label, steps = next(calls)
        assert target.label == label, "env() runs out of the bracketed order"
        return throughput.PlayRun(games=1, decisions=steps, elapsed=1.0)

    monkeypatch.setattr(throughput, "env_run", fake_env_run)
    targets = throughput.choose_targets(["vaalbara"], players=[2])
    report = throughput.run(targets, 3, throughput.MeasurementBudget(0.01, "wall"), harness=False)
    assert next(calls, None) is None
    rows = {row["game"]: row for row in report["rows"]}
    assert rows["connect_four_v3"]["env_vs_reference"] == 1.0
    assert rows["null_core"]["env_vs_reference"] == pytest.approx(7.0)  # of 5, 10, 7
    assert rows["vaalbara_v1"]["env_vs_reference"] == pytest.approx(2.0)  # of 2, 3, 2
    assert rows["connect_four_v3"]["env_steps_per_s"] == 50  # the median of all nine C4 runs
    assert rows["vaalbara_v1"]["env_steps_per_s"] == 300
    assert "| vaalbara_v1 | 2 | 300 | 2.00 |" in throughput.markdown(report, "here")


def test_harness_scaling() -> None:
    rows = throughput.harness_scaling(["vaalbara_v1"], seconds=0.01)
    assert rows[0]["scaling"] > 0 and rows[0]["games_per_s_1_worker"] > 0


def test_a_run_rewrites_its_own_section_of_the_page(tmp_path, monkeypatch) -> None:
    page = tmp_path / "RESULTS.md"
    before, after = "# Results\n\nprose  \n\n", "\n\n## Later\n\nlater\n"
    page.write_text(before + "<!-- BEGIN throughput -->\nold\n<!-- END throughput -->" + after)
    monkeypatch.setattr(throughput, "RESULTS_MD", page)
    flags = ["--games", "vaalbara", "--players", "2", "--repeats", "1", "--seconds", "0.01"]
    flags += ["--no-harness", "--out", str(tmp_path / "throughput.json")]
    for _ in range(2):
        assert throughput.main(flags) == 0
        text = page.read_text()
        assert text.startswith(before + "<!-- BEGIN throughput -->\n`python -m benchmarks.")
        assert text.endswith("|\n<!-- END throughput -->" + after)
        assert text.count("| vaalbara_v1 | 2 |") == 1 and "old" not in text
    assert throughput.main([*flags, "--no-write"]) == 0
    assert page.read_text() == text


def test_no_write_leaves_the_default_report_alone(tmp_path, monkeypatch) -> None:
    report = tmp_path / "throughput.json"
    monkeypatch.setattr(throughput, "REPORT_JSON", report)
    flags = ["--games", "vaalbara", "--players", "2", "--repeats", "1", "--seconds", "0.01"]
    assert throughput.main([*flags, "--no-harness", "--no-write"]) == 0
    assert not report.exists()


def test_bad_flags_exit_with_a_clear_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        throughput.parse_args(["--seconds", "0"])
    assert exit_info.value.code == 2
    assert "positive number of seconds" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        throughput.parse_args(["--clock", "sundial"])
    assert "invalid choice: 'sundial'" in capsys.readouterr().err
    assert throughput.main(["--games", "chess", "--no-write"]) == 2
    assert "valid names" in capsys.readouterr().err


def test_an_unwritable_output_is_refused_before_measuring(tmp_path, capsys) -> None:
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "throughput.json"
    assert throughput.main(["--games", "vaalbara", "--no-write", "--out", str(out)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
