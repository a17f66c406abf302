"""Replays: recorded by the env, rebuilt exactly from the core's seed for every game, and
refused with a clear error when tampered with or from another env version."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import numpy as np
import pytest
from tabletop_envs.agents.play import main as play_main
from tabletop_envs.tools.evaluate import main as evaluate
from tabletop_envs.tools.evaluate import replay_sample
from test_conformance import CASES, IDS

import tabletop_envs
from tabletop_envs.core.env import TabletopAECEnv
from tabletop_envs.core.game import GameCore
from tabletop_envs.core.replay import FORMAT, FORMAT_VERSION, Replay, record, state_hash

TOY = "highcard_v0"


def play_env(env: TabletopAECEnv, seed: int, max_steps: int | None = None) -> list[dict]:
    """Random legal actions through the env; the core's state before and after each one."""
    rng = np.random.default_rng(seed)
    states = [env.game.state_dict()]
    while not env.game.is_terminal and (max_steps is None or len(states) <= max_steps):
        env.step(int(rng.choice(env.game.legal_actions())))
        states.append(env.game.state_dict())
    return states


def vaalbara_replay(max_steps: int | None = None) -> Replay:
    env = tabletop_envs.make("vaalbara", raw=True, num_players=3)
    env.reset(seed=5)
    play_env(env, 5, max_steps)
    return env.replay(["heuristic", "random", "ismcts:100"])


@pytest.fixture(scope="module")
def finished() -> Replay:
    return vaalbara_replay()


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_every_game_rebuilds_exactly_from_the_core_seed(name: str, players: int) -> None:
    env = tabletop_envs.make(name, raw=True, num_players=players)
    env.reset(seed=players)
    env.reset()  # the second game of the seeded stream: the core's seed is a derived one
    states = play_env(env, players)
    replay = Replay.from_json(env.replay().to_json())
    assert replay == env.replay() and replay.env == name and len(replay.actions) > 0
    assert replay.agents == tuple(f"player_{seat}" for seat in range(players))
    game_class = tabletop_envs.game_module(name).Game
    dealt = game_class(players, seed=replay.seed, **replay.options)
    assert dealt.state_dict() == states[0], "Game(num_players, seed=seed, **options) deals it"
    rebuilt = replay.states()
    assert [state.state_dict() for state in rebuilt] == states, "every step, chance included"
    assert replay.returns == tuple(env.game.returns()) and replay.final_hash == state_hash(env.game)
    assert game_class.from_replay(replay).state_dict() == states[-1]


def test_the_json_names_format_version_and_every_key(finished: Replay) -> None:
    data = json.loads(finished.to_json())
    assert list(data) == [
        "format",
        "format_version",
        "env",
        "num_players",
        "options",
        "seed",
        "actions",
        "agents",
        "returns",
        "final_hash",
        "scores",
    ]
    assert data["format"] == FORMAT and data["format_version"] == FORMAT_VERSION
    assert data["options"] == {"reward": "win"}, "defaults included"
    assert data["agents"] == ["heuristic", "random", "ismcts:100"]
    assert len(data["scores"]) == 3 and sum(v > 0 for v in data["returns"]) >= 1


def test_an_unfinished_game_has_no_returns_and_rebuilds(finished: Replay) -> None:
    replay = vaalbara_replay(max_steps=10)
    assert replay.returns == () and replay.scores == () and len(replay.actions) == 10
    assert len(replay.states()) == 11
    assert replay.actions == finished.actions[:10], "the same seeds, the same game"


def refusal(replay_or_text: Replay | str) -> str:
    """The error of rebuilding (a Replay) or reading (JSON text)."""
    with pytest.raises(ValueError) as error:
        if isinstance(replay_or_text, str):
            Replay.from_json(replay_or_text).states()
        else:
            replay_or_text.states()
    assert "\n" not in str(error.value)
    return str(error.value)


def test_a_changed_action_is_refused_at_its_step(finished: Replay) -> None:
    seventh = finished.states()[7]
    legal = seventh.legal_actions()
    illegal = next(a for a in range(seventh.LAYOUT.total) if a not in legal)
    actions = (*finished.actions[:7], illegal, *finished.actions[8:])
    message = refusal(replace(finished, actions=actions))
    assert f"replay step 8 of {len(actions)}: action {illegal} refused" in message
    assert "illegal action" in message and "legal actions:" in message


def test_a_changed_hash_seed_or_outcome_is_refused_naming_it(finished: Replay) -> None:
    assert "final_hash" in refusal(replace(finished, final_hash="0" * 64))
    changed_seed = refusal(replace(finished, seed=finished.seed + 1))
    assert changed_seed.startswith("replay step 2 of 62: action 11 refused"), "another deal"
    toy = tabletop_envs.make(TOY, raw=True, num_players=2)
    toy.reset(seed=0)
    play_env(toy, 0, max_steps=2)  # every action stays legal in any deal: only the hash differs
    assert "final_hash" in refusal(replace(toy.replay(), seed=1))
    swapped = tuple(reversed(finished.returns))
    assert f"returns {list(swapped)} recorded" in refusal(replace(finished, returns=swapped))
    scores = tuple(s + 1 for s in finished.scores)
    assert "scores" in refusal(replace(finished, scores=scores))
    short = replace(finished, actions=finished.actions[:-1])
    assert "records final returns but the game goes on" in refusal(short)
    unfinished = replace(finished, returns=(), scores=())
    assert "the game ends after its" in refusal(unfinished)


def edited(replay: Replay, **changes: object) -> str:
    data = json.loads(replay.to_json())
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seed": None}, "missing key(s) ['seed']"),
        ({"seed": "5"}, "seed must be an int >= 0, not '5'"),
        ({"seed": -1}, "seed must be an int >= 0"),
        ({"actions": [1, "2"]}, "actions[1] = '2' is not allowed; actions holds ints"),
        ({"actions": [1.0]}, "actions[0] = 1.0 is not allowed"),
        ({"actions": "1 2"}, "actions must be a list"),
        ({"num_players": True}, "num_players must be a positive int"),
        ({"agents": ["a", "b"]}, "agents has 2 labels for 3 players"),
        ({"returns": [1, -1]}, "returns has 2 values for 3 players (or none)"),
        ({"returns": [1, "x", 0]}, "returns[1] = 'x' is not allowed"),
        ({"final_hash": "abc"}, "final_hash must be 64 lowercase hex digits"),
        ({"options": ["win"]}, "options must be a mapping"),
        ({"options": {"reward": "sometimes"}}, "option reward='sometimes' is not accepted"),
        ({"options": {"colour": 1}}, "unknown option(s) ['colour'] for vaalbara"),
        ({"extra": 1}, "unknown key(s) ['extra']"),
        ({"format_version": 2}, "format_version 2 is not supported; expected 1"),
        ({"format_version": True}, "format_version True is not supported"),
        ({"format": "chess pgn"}, 'not a replay: no "format": "tabletop-envs replay" key'),
        ({"env": "vaalbara"}, "env must be a name with its version such as 'vaalbara_v1'"),
        ({"env": "chess_v0"}, "unknown env 'chess_v0'; registered envs are"),
        ({"env": "vaalbara_v0"}, "the replay is of vaalbara_v0, an older version of the game "),
        ({"env": "vaalbara_v7"}, "the replay is of vaalbara_v7, a newer version of the game "),
    ],
)
def test_broken_records_are_refused_naming_the_problem(
    finished: Replay, changes: dict, message: str
) -> None:
    assert message in refusal(edited(finished, **changes))


def test_another_version_names_the_registered_one(finished: Replay) -> None:
    message = refusal(edited(finished, env="vaalbara_v0"))
    assert "than the registered vaalbara_v1; it cannot be rebuilt" in message
    assert "not JSON" in refusal("{")


def test_save_and_load_round_trip_and_name_the_path(tmp_path, finished: Replay) -> None:
    path = tmp_path / "game.json"
    finished.save(path)
    assert Replay.load(path) == finished and [p.name for p in tmp_path.iterdir()] == ["game.json"]
    path.write_text(edited(finished, seed=None))
    with pytest.raises(ValueError, match=rf"^{path}: replay: missing key\(s\) \['seed'\]$"):
        Replay.load(path)
    with pytest.raises(ValueError, match="cannot read it"):
        Replay.load(tmp_path / "none.json")


def test_env_replay_refuses_what_it_cannot_record() -> None:
    env = tabletop_envs.make(TOY, raw=True, num_players=2)
    with pytest.raises(ValueError, match="call reset"):
        env.replay()
    env.reset()  # no seed: the env draws one and records it
    play_env(env, 0)
    assert env.replay().states()[-1].state_dict() == env.game.state_dict()
    env.load_game(env.game.clone())
    with pytest.raises(ValueError, match="continued with load_game"):
        env.replay()
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="illegal action"):
        env.step(next(a for a in range(env.game.LAYOUT.total) if a not in env.game.legal_actions()))
    with pytest.raises(ValueError, match="player_0 ended the game with an illegal action"):
        env.replay()


def test_load_replay_continues_and_keeps_recording(finished: Replay) -> None:
    env = tabletop_envs.make("vaalbara", raw=True, num_players=3)
    env.load_replay(vaalbara_replay(max_steps=9))
    for action in finished.actions[9:]:
        env.step(action)
    assert env.replay(finished.agents) == finished
    other = tabletop_envs.make("vaalbara", raw=True, num_players=3, reward="score")
    with pytest.raises(ValueError, match="this env is vaalbara_v1 with options"):
        other.load_replay(finished)


def test_record_and_from_replay_check_the_game(finished: Replay) -> None:
    game = finished.game()
    assert record(game, finished.seed, finished.actions, finished.agents) == finished
    toy_class: type[GameCore] = tabletop_envs.game_module(TOY).Game
    with pytest.raises(ValueError, match="the replay is of vaalbara_v1, not of highcard"):
        toy_class.from_replay(finished)


# ----- tabletop-eval --save-replays ---------------------------------------------------------
def eval_replays(tmp_path, name: str, *flags: str) -> dict[str, bytes]:
    """Run a small tournament with ``flags``; its replay files by name (each rebuilt)."""
    out = tmp_path / name
    args = ["vaalbara", "--agents", "heuristic", "random", "--games", "8", "--out", str(out)]
    assert evaluate([*args, *flags]) == 0
    folder = out / "replays" if "--replay-dir" not in flags else tmp_path / "elsewhere"
    files = {path.name: path.read_bytes() for path in sorted(folder.iterdir())}
    for path in folder.iterdir():
        Replay.load(path).states()
    return files


def test_eval_keeps_the_same_sampled_games_for_the_same_seed(tmp_path) -> None:
    pooled = eval_replays(tmp_path, "a", "--save-replays", "3", "--workers", "2")
    alone = eval_replays(tmp_path, "b", "--save-replays", "3", "--workers", "1")
    assert len(pooled) == 3 and pooled == alone, "sampled from --seed, whatever the workers"
    assert replay_sample(8, 3, 0) == [int(n[5:10]) for n in pooled]
    assert replay_sample(8, 3, 9) != replay_sample(8, 3, 0), "another seed, other games"
    assert replay_sample(8, 30, 0) == replay_sample(8, "all", 0) == list(range(8))
    records = {
        r["index"]: r for r in json.loads((tmp_path / "a/results.json").read_text())["records"]
    }
    for name, data in pooled.items():
        replay = Replay.from_json(data.decode())
        record = records[int(name.removeprefix("game-").removesuffix(".json"))]
        assert replay.agents == tuple(("heuristic", "random")[agent] for agent in record["lineup"])
        assert list(replay.returns) == record["returns"] and replay.seed == record["seed"]


def test_eval_keeps_all_games_where_asked(tmp_path) -> None:
    kept = eval_replays(
        tmp_path, "a", "--save-replays", "all", "--replay-dir", str(tmp_path / "elsewhere")
    )
    assert sorted(kept) == [f"game-{index:05d}.json" for index in range(8)]
    assert not (tmp_path / "a/replays").exists()


@pytest.mark.parametrize(
    ("value", "message"),
    [("some", "'some' is not a whole number >= 0 or 'all'"), ("-2", "'-2' is not")],
)
def test_eval_bad_replay_count_is_one_line(capsys, value: str, message: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        evaluate(["vaalbara", "--agents", "random", "random", "--save-replays", value])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2 and message in error and error.count("\n") == 1


# ----- tabletop-play --save / --load --------------------------------------------------------
PLAY = ["vaalbara", "--players", "3", "--opponents", "random", "--seed", "4"]


def play(*args: str, moves: str) -> str:
    out = io.StringIO()
    assert play_main([*PLAY, *args], stdin=io.StringIO(moves), stdout=out) == 0
    return out.getvalue()


def test_play_saves_a_replay_when_stopped_and_when_finished(tmp_path) -> None:
    stopped, finished = tmp_path / "stopped.json", tmp_path / "finished.json"
    assert "as a replay (continue it with --load" in play("--save", str(stopped), moves="1\n1\nq\n")
    early = Replay.load(stopped)
    assert early.returns == () and early.agents == ("you", "random", "random")
    text = play("--load", str(stopped), "--save", str(finished), moves="1\n" * 400)
    assert f"The finished game is saved in {finished} as a replay." in text
    whole = Replay.load(finished)
    assert whole.actions[: len(early.actions)] == early.actions and whole.seed == early.seed
    assert len(whole.returns) == 3 and whole.states()[-1].is_terminal


def test_play_loads_an_old_game_state_and_saves_it_as_one(tmp_path) -> None:
    game_class = tabletop_envs.game_module("vaalbara").Game
    saved = tmp_path / "old.json"
    saved.write_text(game_class(3, seed=4).to_json())
    text = play("--load", str(saved), "--save", str(saved), moves="1\nq\n")
    assert "as a game state (it went on from a game state, so its first moves are unknown)" in text
    assert game_class.from_json(saved.read_text()).num_players == 3


def test_play_refuses_a_replay_of_another_game_or_a_tampered_one(tmp_path, capsys) -> None:
    other = tmp_path / "other.json"
    env = tabletop_envs.make("valenor", raw=True, num_players=3)
    env.reset(seed=1)
    env.replay().save(other)
    tampered = tmp_path / "tampered.json"
    replay = vaalbara_replay()
    tampered.write_text(edited(replay, final_hash="1" * 64))
    for path, message in [
        (other, f"--load {other}: a replay of valenor_v2, not of vaalbara_v1"),
        (tampered, f"--load {tampered}: replay of vaalbara_v1 does not match its game: final_hash"),
    ]:
        assert (
            play_main([*PLAY, "--load", str(path)], stdin=io.StringIO(""), stdout=io.StringIO())
            == 2
        )
        error = capsys.readouterr().err
        assert message in error and error.count("\n") == 1


def test_eval_checks_the_replay_folder_before_playing(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("tabletop_envs.tools.evaluate.play_games", pytest.fail)
    (tmp_path / "file").write_text("")
    args = ["vaalbara", "--agents", "random", "random", "--out", str(tmp_path / "out")]
    assert evaluate([*args, "--save-replays", "2", "--replay-dir", str(tmp_path / "file")]) == 2
    error = capsys.readouterr().err
    assert f"--replay-dir {tmp_path / 'file'}: {tmp_path / 'file'} is a file" in error
    assert error.count("\n") == 1
