"""The Wilson score interval against published values (Newcombe 1998, Table I, method 3),
and the exact sign test against R's ``binom.test``."""

import pytest
from tabletop_envs.agents.stats import sign_test, wilson_interval


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_published_values(successes, trials, low, high) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_is_symmetric_and_contains_the_estimate() -> None:
    low, high = wilson_interval(30, 100)
    mirror_low, mirror_high = wilson_interval(70, 100)
    assert low == pytest.approx(1 - mirror_high) and high == pytest.approx(1 - mirror_low)
    assert low < 0.3 < high


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes <= trials"):
        wilson_interval(5, 4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_interval_holds_the_estimate_exactly_at_the_edges() -> None:
    for trials in (1, 7, 100, 2000):
        assert wilson_interval(0, trials)[0] == 0.0
        assert wilson_interval(trials, trials)[1] == 1.0


@pytest.mark.parametrize(
    ("wins_a", "wins_b", "p_value"),
    [(9, 1, 0.02148), (8, 2, 0.1094), (0, 5, 0.0625), (3, 3, 1.0), (0, 0, 1.0)],
)
def test_sign_test_matches_binom_test(wins_a, wins_b, p_value) -> None:
    assert sign_test(wins_a, wins_b) == pytest.approx(p_value, abs=5e-5)
    assert sign_test(wins_b, wins_a) == sign_test(wins_a, wins_b)


def test_sign_test_rejects_negative_counts() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        sign_test(-1, 3)
