"""The agreement benchmark counts how often an agent chooses what a reference bot would."""

from __future__ import annotations

from tabletop_envs.agents.loading import make_agent

from experiments import agreement

GAME = "vaalbara_v1"


def test_a_bot_agrees_with_itself_and_random_play_does_not() -> None:
    heuristic = make_agent("heuristic", GAME, seed=0, players=2)
    twin = make_agent("heuristic", GAME, seed=0, players=2)  # same seed: same tie-breaks
    same = agreement.measure(GAME, twin, heuristic, True, 2, 3, seed=0)
    assert same.decisions > 0 and same.agreed == same.decisions
    random = make_agent("random", GAME, seed=0, players=2)
    led_by_bot = agreement.measure(GAME, random, heuristic, False, 2, 3, seed=0)
    assert 0 < led_by_bot.agreed < led_by_bot.decisions
    assert led_by_bot.driver == "reference" and led_by_bot.games == 3


def test_the_command_prints_a_table_and_names_bad_agents(capsys) -> None:
    assert agreement.main([GAME, "random", "--players", "2", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "| reference |" in out and "| agent |" in out
    assert agreement.main([GAME, "nonsense.npz", "--games", "1"]) == 2
    assert "error" in capsys.readouterr().err
