"""``tabletop-eval --option KEY=VALUE``: game options from the game's options table reach
every game played, and bad keys or values are refused naming the accepted ones."""

from __future__ import annotations

import json

import pytest
from tabletop_envs.agents.arena import MatchSpec, Table
from tabletop_envs.tools.evaluate import main, parse_options

import tabletop_envs.spirit_island  # noqa: F401
from tabletop_envs.cli import UsageError
from tabletop_envs.spirit_island.rules import SpiritIslandGame

GAME = "spirit_island_v1"


def test_options_are_read_as_the_games_values() -> None:
    chosen = parse_options(
        SpiritIslandGame, ["difficulty=easy", "teaching=true", "boards=B", "shaped_reward=False"]
    )
    assert dict(chosen) == {
        "difficulty": "easy",
        "teaching": True,
        "boards": "B",
        "shaped_reward": False,
    }


@pytest.mark.parametrize(("level", "fear"), [("base", 8), ("easy", 6), ("easiest", 4)])
def test_every_game_is_dealt_with_the_options(level: str, fear: int) -> None:
    """A table's games use the match's options: the Fear a card needs at 2 players."""
    table = Table(MatchSpec(GAME, ("random", "random"), seed=0, options=(("difficulty", level),)))
    for index in range(2):
        table.env.reset(seed=index)
        assert table.env.game.fear_pool == fear
    record = table.play(0)
    assert record.turns


def test_cli_plays_at_the_level_asked_and_says_so(tmp_path) -> None:
    out = tmp_path / "out"
    args = [GAME, "--agents", "heuristic", "--games", "2", "--workers", "1", "--out", str(out)]
    assert main([*args, "--option", "difficulty=easiest"]) == 0
    data = json.loads((out / "results.json").read_text())
    assert data["summary"]["options"] == {"difficulty": "easiest"}


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("level=easy", "--option level: unknown option of spirit_island; options: blight_card"),
        ("difficulty=hardest", "--option difficulty=hardest: difficulty accepts base, easy"),
        ("teaching=maybe", "teaching accepts False, True"),
        ("difficulty", "--option 'difficulty': expected KEY=VALUE"),
    ],
)
def test_cli_bad_options_are_one_line_exit_2(tmp_path, capsys, option, message) -> None:
    out = tmp_path / "out"
    assert main([GAME, "--agents", "random", "--option", option, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not out.exists()


def test_an_option_given_twice_is_refused() -> None:
    with pytest.raises(UsageError, match="difficulty given twice"):
        parse_options(SpiritIslandGame, ["difficulty=easy", "difficulty=base"])
