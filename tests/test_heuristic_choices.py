"""``python -m benchmarks.heuristic_choices``: the hash of every heuristic choice."""

from __future__ import annotations

import dataclasses

import pytest
from tabletop_envs.agents import vaalbara_bot

from benchmarks import heuristic_choices


def test_the_same_games_give_the_same_hash_and_a_changed_bot_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = heuristic_choices.fingerprint("vaalbara_v1", 2, 2)
    again = heuristic_choices.fingerprint("vaalbara_v1", 2, 2)
    assert first.choices == again.choices > 0
    assert first.digest.hexdigest() == again.digest.hexdigest()
    fewer_samples = dataclasses.replace(vaalbara_bot.Tuning(), samples=3)
    monkeypatch.setattr(vaalbara_bot, "Tuning", lambda: fewer_samples)
    changed = heuristic_choices.fingerprint("vaalbara_v1", 2, 2)
    assert changed.digest.hexdigest() != first.digest.hexdigest()


def test_an_unknown_game_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert heuristic_choices.main(["--games", "no_such_game"]) == 2
    assert "no_such_game" in capsys.readouterr().err
