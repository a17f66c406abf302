"""``python -m benchmarks.training_throughput`` writes its own section of the results page."""

from __future__ import annotations

from benchmarks import training_throughput


def test_a_run_rewrites_its_section_and_leaves_the_page_else_alone(tmp_path, monkeypatch) -> None:
    page = tmp_path / "RESULTS.md"
    before, after = "# Results\n\n", "\n\nprose after\n"
    begin, end = "<!-- BEGIN training-throughput -->", "<!-- END training-throughput -->"
    page.write_text(f"{before}{begin}\nold\n{end}{after}")
    monkeypatch.setattr(training_throughput, "RESULTS_MD", page)
    monkeypatch.setattr(training_throughput, "tutorial_rate", lambda *args: 500.0)
    rates = {False: 3000.0, True: 1000.0}
    monkeypatch.setattr(
        training_throughput,
        "selfplay_rate",
        lambda *args, config_opponents: rates[config_opponents],
    )
    for _ in range(2):
        assert training_throughput.main(["--steps", "10"]) == 0
        text = page.read_text()
        assert text.startswith(
            f"{before}{begin}\n`python -m benchmarks.training_throughput --steps"
        )
        assert text.endswith(f"|\n{end}{after}") and "old" not in text
        assert text.count("| connect_four_v3, tutorial-style wrapper | 500 | 1.00 |") == 1
        assert "snapshots only | 3000 | 6.00 |" in text and "| 1000 | 2.00 |" in text
    assert training_throughput.main(["--steps", "10", "--no-write"]) == 0
    assert page.read_text() == text


def test_rounds_give_medians_of_each_rounds_own_ratios(monkeypatch) -> None:
    """Each ratio is the median of the rounds' own (3, 4, 2.5 -> 3), not the ratio of the
    medians (250 / 100): a load that changes between rounds moves both of a round's rates."""
    rates_in_call_order = iter([100, 300, 150, 50, 200, 100, 100, 250, 120])
    monkeypatch.setattr(
        training_throughput, "tutorial_rate", lambda *args: next(rates_in_call_order)
    )
    monkeypatch.setattr(
        training_throughput,
        "selfplay_rate",
        lambda *args, config_opponents: next(rates_in_call_order),
    )
    monkeypatch.setattr(training_throughput, "ppo_settings", lambda game: ({}, 1))
    rates, ratios = training_throughput.measure_rounds("vaalbara_v1", 2, 10, rounds=3)
    assert rates == [100, 250, 120]
    assert ratios == [1.0, 3.0, 1.5]
