"""The terminal human agent, driven through its input stream, and the tabletop-play command."""

from __future__ import annotations

import io

import pytest

from agents.human import EnvSeatWindow, HumanAgent, QuitGame
from agents.play import main
from tabletop_envs import make


def test_scripted_session_plays_a_whole_game_and_reasks_bad_input() -> None:
    script = io.StringIO("x\n0\n999\n" + "1\n" * 400)
    out = io.StringIO()
    code = main(
        ["vaalbara", "--players", "2", "--seat", "1", "--opponents", "random", "--seed", "5"],
        stdin=script,
        stdout=out,
    )
    text = out.getvalue()
    assert code == 0
    for bad in ("'x'", "'0'", "'999'"):
        assert f"{bad} is not a choice: enter a number from 1 to" in text
    assert "player_1 (you): return" in text
    assert "You win!" in text or "Winner(s): [0]" in text
    assert script.readline() == "1\n"  # the game ended before the script did


def test_end_of_input_quits_and_leaves_the_game_as_it_was() -> None:
    env = make("vaalbara", num_players=3)
    env.reset(seed=2)
    game = env.unwrapped.game
    before = game.state_dict()
    out = io.StringIO()
    human = HumanAgent(EnvSeatWindow(env, 0), io.StringIO("abc\n"), out)
    with pytest.raises(QuitGame):
        human.act(env.observe("player_0"), "player_0")
    assert game.state_dict() == before
    assert "'abc' is not a choice" in out.getvalue()
    assert "end of input" in out.getvalue()


def test_q_quits_the_play_command_cleanly() -> None:
    out = io.StringIO()
    code = main(
        ["vaalbara", "--players", "2", "--opponents", "random", "--seed", "1"],
        stdin=io.StringIO("q\n"),
        stdout=out,
    )
    assert code == 0 and "You left the game" in out.getvalue()


def test_human_sees_only_its_own_hand() -> None:
    env = make("vaalbara", num_players=2)
    env.reset(seed=4)
    game = env.unwrapped.game
    out = io.StringIO()
    human = HumanAgent(EnvSeatWindow(env, 0), io.StringIO("1\n"), out)
    human.act(env.observe("player_0"), "player_0")
    own = game.readable_view(0)["your_hand"]
    other = game.readable_view(1)["your_hand"]
    text = out.getvalue()
    assert own != other
    assert ", ".join(own) in text and ", ".join(other) not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game 'chess'"),
        (["vaalbara", "--players", "9"], "takes 2 to 5 players"),
        (["vaalbara", "--players", "3", "--seat", "3"], "--seat 3 is not a seat; expected 0 to 2"),
        (["vaalbara", "--opponents", "nobody"], "unknown agent 'nobody'"),
    ],
)
def test_play_bad_input_is_one_line_exit_2(capsys, args, message) -> None:
    assert main(args, stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
