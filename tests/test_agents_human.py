"""The terminal human agent, driven through its input stream, and the tabletop-play command."""

from __future__ import annotations

import io
import re

import pytest
from tabletop_envs.agents.human import EnvSeatWindow, HumanAgent, QuitGame
from tabletop_envs.agents.play import Chronicle, main

import tabletop_envs
from tabletop_envs import make
from tabletop_envs.core.replay import Replay
from tabletop_envs.vaalbara_v1 import Game


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
    assert "player_1 (Purple) (you): " in text and "Winner(s)" not in text
    verdicts = [line for line in text.splitlines() if line.startswith(("Winner", "Nobody"))]
    assert len(verdicts) == 1 and " points" in verdicts[0]
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
    assert code == 0 and "You left the game; nothing was saved (--save FILE" in out.getvalue()


def test_save_writes_the_game_and_load_continues_it(tmp_path) -> None:
    saved = tmp_path / "game.json"
    args = ["vaalbara", "--players", "3", "--opponents", "random", "--seed", "4"]
    out = io.StringIO()
    assert main([*args, "--save", str(saved)], stdin=io.StringIO("1\n1\nq\n"), stdout=out) == 0
    assert (
        f"the game is saved in {saved} as a replay (continue it with --load {saved})"
        in out.getvalue()
    )
    game = Replay.load(saved).game()
    assert game.num_players == 3 and not game.is_terminal
    out = io.StringIO()
    assert main([*args, "--load", str(saved)], stdin=io.StringIO("1\n" * 400), stdout=out) == 0
    first_view = out.getvalue().split("Choose")[0]
    hand = dict(game.screen(0).facts)["Your hand"].split(", ")
    assert all(f"play {card}" in first_view for card in hand), "the saved deal goes on"
    assert "Winner" in out.getvalue() or "Nobody wins" in out.getvalue()


def test_ctrl_c_leaves_without_a_traceback_and_keeps_the_game_when_asked(tmp_path, capsys) -> None:
    class CtrlC(io.StringIO):
        def readline(self, *args) -> str:
            raise KeyboardInterrupt

    saved = tmp_path / "game.json"
    out = io.StringIO()
    args = ["vaalbara", "--players", "2", "--seed", "1", "--save", str(saved)]
    assert main(args, stdin=CtrlC(), stdout=out) == 130
    assert "Interrupted: you left the game; the game is saved in" in out.getvalue()
    assert Replay.load(saved).num_players == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_others_moves_are_told_but_secret_choices_stay_secret_until_shown() -> None:
    game = Game(3, seed=6)
    chronicle = Chronicle(2)
    first = game.legal_actions()[0]
    chronicle.record(game, first)
    game.apply(first)
    assert chronicle.lines(game) == ["player_0 (Blue): a choice made in secret"]
    clans = game.screen(2).tables[1]
    assert clans.rows[0][:3] == ("Blue", "hidden", "face down"), "as the table shows it"
    chronicle.record(game, game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    last = game.legal_actions()[-1]
    words = game.action_to_str(last)
    chronicle.record(game, last)
    game.apply(last)
    told = chronicle.lines(game)
    assert told[0] == "player_1 (Purple): play Hunter (3) (chosen in secret, now shown)"
    assert told[1] == f"You: {words}", "the viewer's own move, then what it set off"
    assert told[2].startswith("Characters revealed: Blue Bard (2), Purple Hunter (3), Yellow ")


def news_blocks(text: str) -> list[tuple[list[str], str]]:
    """Each "what happened" block's lines, with the screen printed after it."""
    blocks = []
    for part in text.split("What happened since your last turn:\n")[1:]:
        lines, rest = [], part.splitlines()
        while rest and rest[0].startswith("  "):
            lines.append(rest.pop(0).strip())
        blocks.append((lines, "\n".join(rest).split("Choose")[0]))
    return blocks


@pytest.mark.parametrize("seat", [0, 2])
def test_since_your_last_turn_calls_a_pick_secret_only_while_the_table_hides_it(
    seat: int,
) -> None:
    out = io.StringIO()
    args = ["vaalbara", "--players", "3", "--seat", str(seat), "--seed", "2"]
    main([*args, "--opponents", "random"], stdin=io.StringIO("1\n" * 12 + "q\n"), stdout=out)
    blocks = news_blocks(out.getvalue())
    secret = shown = 0
    for lines, table in blocks:
        for line in lines:
            clan = re.match(r"player_\d \((\w+)\)", line)
            if line.endswith("a choice made in secret"):
                secret += 1
                assert re.search(rf"│ {clan.group(1)}\s+│ hidden\s+│ face down", table), line
            if line.endswith("(chosen in secret, now shown)"):
                shown += 1
                assert not re.search(rf"│ {clan.group(1)}\s+│ hidden\s+│ face down", table)
    assert shown and (secret if seat == 2 else not secret)


def test_valenor_view_is_tables_numbered_as_the_actions_name_locations() -> None:
    out = io.StringIO()
    script = io.StringIO("1\n" * 12 + "q\n")
    main(["valenor", "--opponents", "heuristic", "--seed", "3"], stdin=script, stdout=out)
    text = out.getvalue()
    assert "{" not in text and "terrains:" not in text, "no raw dict dumps"
    assert "place at Location 4" in text
    locations = text.split("Locations")[1]
    assert re.search(r"│ 4 │ Grass, Swamp\s+│", locations)
    assert re.search(r"│ player_1(, playing)?\s+│", text), "one row per player, by name"


def test_human_sees_only_its_own_hand() -> None:
    env = make("vaalbara", num_players=2)
    env.reset(seed=4)
    game = env.unwrapped.game
    out = io.StringIO()
    human = HumanAgent(EnvSeatWindow(env, 0), io.StringIO("1\n"), out)
    human.act(env.observe("player_0"), "player_0")
    own = set(dict(game.screen(0).facts)["Your hand"].split(", "))
    other = set(dict(game.screen(1).facts)["Your hand"].split(", "))
    text = out.getvalue()
    assert other - own
    assert all(card in text for card in own) and not any(card in text for card in other - own)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game 'chess'"),
        (
            ["vaalbara", "--save", "/proc/self/game.json"],
            "--save /proc/self/game.json: cannot write",
        ),
        (["vaalbara", "--load", "/nonexistent.json"], "--load /nonexistent.json: cannot read it"),
        (["vaalbara", "--players", "9"], "takes 2 to 5 players"),
        (["vaalbara", "--players", "3", "--seat", "3"], "--seat 3 is not a seat; expected 0 to 2"),
        (["vaalbara", "--opponents", "nobody"], "unknown agent 'nobody'"),
    ],
)
def test_play_bad_input_is_one_line_exit_2(capsys, args, message) -> None:
    assert main(args, stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_save_refuses_an_existing_file_before_play_unless_overwrite(tmp_path, capsys) -> None:
    saved = tmp_path / "game.json"
    saved.write_text("keep me")
    args = ["vaalbara", "--players", "2", "--seed", "1", "--save", str(saved)]
    assert main(args, stdin=io.StringIO("q\n"), stdout=io.StringIO()) == 2
    assert "exists; pass --overwrite to replace it" in capsys.readouterr().err
    assert saved.read_text() == "keep me"
    assert main([*args, "--overwrite"], stdin=io.StringIO("q\n"), stdout=io.StringIO()) == 0
    assert Replay.load(saved).num_players == 2


def test_save_into_a_missing_folder_makes_it(tmp_path) -> None:
    saved = tmp_path / "new" / "deeper" / "game.json"
    args = ["vaalbara", "--players", "2", "--seed", "1", "--save", str(saved)]
    assert main(args, stdin=io.StringIO("1\nq\n"), stdout=io.StringIO()) == 0
    assert Replay.load(saved).num_players == 2


def test_continuing_a_game_may_save_over_the_file_it_loaded(tmp_path) -> None:
    saved = tmp_path / "game.json"
    args = ["vaalbara", "--players", "2", "--seed", "1", "--save", str(saved)]
    assert main(args, stdin=io.StringIO("1\nq\n"), stdout=io.StringIO()) == 0
    again = ["vaalbara", "--load", str(saved), "--save", str(saved)]
    assert main(again, stdin=io.StringIO("1\nq\n"), stdout=io.StringIO()) == 0


@pytest.mark.parametrize(
    ("game", "players"),
    [("spirit_island", 2), ("valiant_wars", 2), ("vaalbara", 4), ("valenor", 3)],
)
def test_play_defaults_to_a_bot_team_and_a_count_with_a_shipped_policy(
    game: str, players: int
) -> None:
    from tabletop_envs.agents.play import default_players

    assert default_players(tabletop_envs.resolve_name(game)) == players


def test_play_negative_seed_names_the_flag(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["vaalbara", "--seed", "-1"], stdin=io.StringIO(""), stdout=io.StringIO())
    error = capsys.readouterr().err
    assert exit_info.value.code == 2 and "argument --seed: -1 is negative" in error
