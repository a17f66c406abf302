"""The measuring scripts behind the bots' and env's speed figures: a bot replayed against an
older copy of its module, and seeded env() games for instruction counts."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from tabletop_envs.agents import vaalbara_bot, valenor_bot, valiant_wars_bot

from experiments import bot_replay, env_steps

ARGS = ["valiant_wars", "--players", "2", "--seeds", "2", "--rounds", "1"]


def test_a_bot_replayed_against_a_copy_of_its_module_makes_the_same_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "old_bot.py"
    copy.write_text(Path(inspect.getfile(valiant_wars_bot)).read_text())
    assert bot_replay.main([*ARGS, "--old", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "2p current:" in out and "2p old:" in out and "the same choices" in out


def test_a_module_that_chooses_otherwise_fails_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = Path(inspect.getfile(valiant_wars_bot)).read_text()
    safe_reveal = "            return offset + REVEAL\n"
    assert source.count(safe_reveal) == 1
    copy = tmp_path / "old_bot.py"
    copy.write_text(source.replace(safe_reveal, "            return offset + STOP\n"))
    assert bot_replay.main([*ARGS, "--old", str(copy)]) == 1
    assert "the bots chose differently" in capsys.readouterr().err


def test_env_steps_plays_the_seeded_games_it_is_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert env_steps.main(["valiant_wars", "--players", "3", "--games", "1"]) == 0
    assert env_steps.main(["connect_four_v3", "--games", "0"]) == 0
    assert env_steps.main(["null_core", "--games", "2"]) == 0
    first, second, third = capsys.readouterr().out.splitlines()
    assert first.startswith("valiant_wars 3p games 1 decisions ") and int(first.split()[-1]) > 0
    assert second == "connect_four_v3 2p games 0 decisions 0"
    assert third == "null_core 2p games 2 decisions 120"  # 60 decisions a game


def test_each_decision_meets_the_generator_as_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A module whose bot draws once more after each choice still makes the same choices:
    the replay sets the generator before every decision."""
    extra_draw = (
        "\n_act = VaalbaraHeuristicAgent.act\n\n"
        "def _act_then_draw(self, observation, agent):\n"
        "    choice = _act(self, observation, agent)\n"
        "    self.rng.random()\n"
        "    return choice\n\n"
        "VaalbaraHeuristicAgent.act = _act_then_draw\n"
    )
    copy = tmp_path / "old_bot.py"
    copy.write_text(Path(inspect.getfile(vaalbara_bot)).read_text() + extra_draw)
    args = ["vaalbara", "--players", "3", "--seeds", "2", "--rounds", "1", "--old", str(copy)]
    assert bot_replay.main(args) == 0
    assert "the same choices" in capsys.readouterr().out


def test_fresh_rounds_start_a_new_bot_with_its_modules_caches_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "cached_bot.py"
    module.write_text(
        "import functools\n"
        "from tabletop_envs.core.cache import BoundedCache\n\n"
        "SQUARES = BoundedCache(lambda key: key * key, 8)\n\n"
        "@functools.lru_cache\n"
        "def cube(key):\n"
        "    return key ** 3\n\n"
        "class Bot:\n"
        "    def __init__(self, seed=None):\n"
        "        self.seed = seed\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import cached_bot  # type: ignore[import-not-found]

    bot = cached_bot.Bot(seed=5)
    assert cached_bot.SQUARES[3] == 9 and cached_bot.cube(2) == 8
    new = bot_replay.fresh(bot)
    assert type(new) is cached_bot.Bot and new is not bot and new.seed == 0
    assert len(cached_bot.SQUARES) == 0 and cached_bot.cube.cache_info().currsize == 0

    copy = tmp_path / "old_bot.py"
    copy.write_text(Path(inspect.getfile(valenor_bot)).read_text())
    args = ["valenor", "--players", "2", "--seeds", "2", "--rounds", "2", "--fresh"]
    assert bot_replay.main([*args, "--old", str(copy)]) == 0
    assert "the same choices" in capsys.readouterr().out
