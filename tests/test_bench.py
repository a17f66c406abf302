"""``make bench`` (benchmarks.bench) and ``make bench-check`` (benchmarks.speed_check): the
README's speed figures come from RESULTS.md, and a slower game fails the check (no timing
asserts: the measurements are replaced or only smoke-run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import bench, speed_check, throughput
from benchmarks.results_page import read_section, table_rows

THROUGHPUT = """<!-- BEGIN throughput -->
`python -m benchmarks.throughput` at commit `abc1234`, 2026-12-03 09:00 UTC, 2 CPUs; load. \
**Provisional**: shared.

| Game | Players | env() steps/s | x C4 | raw steps/s |
|---|---|---|---|---|
| connect_four_v3 | 2 | 18,771 | 1.00 | 37,985 |
| null_core | 2 | 177,747 | 9.47 | 230,567 |
| texas_holdem_v4 | 2 | 6,041 | 0.32 | 8,508 |
| vaalbara_v1 | 2 | 29,447 | 1.57 | 31,289 |
| vaalbara_v1 | 3 | 28,580 | 2.05 | 31,764 |
| valenor_v2 | 3 | 32,219 | 1.72 | 33,295 |

| Evaluation harness (random agents) | Players | games/s, 1 worker |
|---|---|---|
| vaalbara_v1 | 4 | 285.1 |
<!-- END throughput -->
"""
TRAINING = """<!-- BEGIN training-throughput -->
`python -m benchmarks.training_throughput --steps 10000` at commit `def5678`, 2026-12-04 \
10:00 UTC, 2 CPUs; load.

| setup | env steps/s | ratio |
|---|---|---|
| connect_four_v3, tutorial-style wrapper | 553 | 1.00 |
| vaalbara_v1 2p, snapshots only | 778 | 1.41 |
| vaalbara_v1 2p, config's opponents | 365 | 0.66 |
<!-- END training-throughput -->
"""


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "RESULTS.md"
    path.write_text(f"# Results\n\n{THROUGHPUT}\nprose\n\n{TRAINING}")
    return path


def test_the_readme_states_the_figures_on_the_results_page() -> None:
    assert read_section(bench.SENTENCE, bench.README) == bench.speed_sentence(), (
        "README.md's speed sentence differs from benchmarks/RESULTS.md: rerun make bench"
    )


def test_the_sentence_is_made_from_the_page_alone(page: Path) -> None:
    assert bench.throughput_ratios(page) == {
        "vaalbara_v1": {2: 1.57, 3: 2.05},
        "valenor_v2": {3: 1.72},
    }
    sentence = bench.speed_sentence(page)
    assert "at commit `abc1234` (2026-12-03, provisional: a shared, loaded machine)" in sentence
    assert "`vaalbara_v1` 1.57-2.05x (2-3 players); `valenor_v2` 1.72x (3 players)." in sentence
    assert "1.41x the PettingZoo SB3 tutorial" in sentence and "0.66x with its default" in sentence
    assert "(commit `def5678`, 2026-12-04)" in sentence
    assert "null_core" not in sentence and "texas" not in sentence


def test_a_page_without_its_sections_is_a_clear_error(tmp_path: Path) -> None:
    empty = tmp_path / "RESULTS.md"
    empty.write_text("# Results\n")
    with pytest.raises(ValueError, match="no single section 'throughput'"):
        bench.speed_sentence(empty)
    with pytest.raises(ValueError, match="no table whose first column is 'Game'"):
        table_rows("| other | x |\n|---|---|\n", "Game")


def test_one_command_runs_both_benchmarks_then_writes_the_sentence(
    page: Path, tmp_path: Path, monkeypatch
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Readme\n\n<!-- BEGIN speed -->\nold\n<!-- END speed -->\n\nrest\n")
    calls: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(throughput, "main", lambda flags: calls.append(("speed", flags)) or 0)
    from benchmarks import training_throughput

    monkeypatch.setattr(
        training_throughput, "main", lambda flags: calls.append(("training", flags)) or 0
    )
    monkeypatch.setattr(bench, "README", readme)
    monkeypatch.setattr(bench, "RESULTS_MD", page)
    assert bench.main(["--seconds", "0.2", "--steps", "500"]) == 0
    assert calls == [
        ("speed", ["--seconds", "0.2", "--repeats", "3"]),
        ("training", ["--steps", "500", "--rounds", "3"]),
    ]
    text = readme.read_text()
    assert read_section("speed", readme) == bench.speed_sentence(page)
    assert text.startswith("# Readme\n\n") and text.endswith("<!-- END speed -->\n\nrest\n")
    calls.clear()
    assert bench.main(["--no-training", "--no-write", "--games", "vaalbara"]) == 0
    assert calls == [
        ("speed", ["--seconds", "0.5", "--repeats", "3", "--games", "vaalbara", "--no-write"])
    ]
    assert readme.read_text() == text


def test_a_game_below_its_recorded_ratio_by_more_than_the_noise_fails(
    page: Path, monkeypatch, capsys
) -> None:
    monkeypatch.setattr(speed_check, "throughput_ratios", lambda: bench.throughput_ratios(page))
    measured = {
        "connect_four_v3 2p": [1.0, 1.0, 1.0],
        "vaalbara_v1 2p": [1.50, 1.52, 1.51],  # 4 % under 1.57, inside the margin: ok
        "vaalbara_v1 3p": [1.80, 1.85, 1.90],  # 10 % under 2.05; spread 5.4 %: the margin
        "vaalbara_v1 4p": [1.0, 1.0, 1.0],  # no recorded row: fails
        "vaalbara_v1 5p": [1.0, 1.0, 1.0],  # nor here
    }
    monkeypatch.setattr(speed_check, "env_ratios", lambda targets, *args: measured)
    verdicts = {
        (v.game, v.players): v for v in speed_check.check(["vaalbara"], 3, 0.1, min_margin=0.05)
    }
    assert [v.margin for v in verdicts.values()] == pytest.approx([0.1 / 1.85] * 4)
    assert verdicts[("vaalbara_v1", 2)].passed
    assert not verdicts[("vaalbara_v1", 3)].passed
    assert not verdicts[("vaalbara_v1", 4)].passed and verdicts[("vaalbara_v1", 4)].recorded is None
    assert speed_check.main(["--games", "vaalbara"]) == 1
    out = capsys.readouterr().out
    assert "ok   vaalbara_v1 2p: 1.51x, recorded 1.57x, margin 5%" in out
    assert "FAIL vaalbara_v1 3p: 1.85x, recorded 2.05x" in out
    assert "FAIL vaalbara_v1 4p: 1.00x, no recorded ratio" in out
    assert "1 of 4 at or above their recorded ratio" in out
    # Another game's wide spread in the same run widens every margin: the drop is then noise.
    measured["vaalbara_v1 5p"] = [1.0, 1.6, 1.3]
    assert speed_check.check(["vaalbara"], 3, 0.1, 0.05)[1].passed
    # With every spread small, the floor is the margin.
    measured["vaalbara_v1 5p"] = measured["vaalbara_v1 3p"] = [1.0, 1.0, 1.0]
    assert {v.margin for v in speed_check.check(["vaalbara"], 3, 0.1, 0.05)} == {0.05}


def test_the_check_measures_every_game_against_the_reference_in_one_run() -> None:
    targets = [t for t in throughput.choose_targets(["valenor"]) if t.name != throughput.FLOOR]
    ratios = speed_check.env_ratios(targets, 2, throughput.MeasurementBudget(0.01, "wall"))
    assert ratios["connect_four_v3 2p"] == [1.0, 1.0]
    assert set(ratios) == {t.label for t in targets}
    assert all(len(values) == 2 and min(values) > 0 for values in ratios.values())


def test_a_games_ratio_is_to_the_reference_runs_on_either_side(monkeypatch) -> None:
    targets = [t for t in throughput.choose_targets(["valenor"]) if t.name != throughput.FLOOR]
    calls = iter([100, 300, 200, 150, 100, 120, 60])  # C4, 2p, C4, 3p, C4, 4p, C4
    monkeypatch.setattr(
        throughput, "env_run", lambda target, budget, seed: throughput.PlayRun(1, next(calls), 1.0)
    )
    ratios = speed_check.env_ratios(targets, 1, throughput.MeasurementBudget(0.01))
    assert ratios == {
        "connect_four_v3 2p": [1.0],
        "valenor_v2 2p": [2.0],
        "valenor_v2 3p": [1.0],
        "valenor_v2 4p": [1.5],
    }


def test_bad_check_flags_are_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        speed_check.main(["--min-margin", "1.5"])
    assert "--min-margin" in capsys.readouterr().err
    assert speed_check.main(["--games", "chess", "--quick"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
