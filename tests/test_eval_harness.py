"""The evaluation harness on the toy game (tests/toygame): rotation, reproducibility,
reports, CLI."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from typing import Any

import numpy as np
import pytest
from tabletop_envs.agents.arena import GameRecord, MatchSpec, game_seeds, lineup, play_games
from tabletop_envs.agents.base import Agent
from tabletop_envs.agents.heuristics import HEURISTIC_BOTS
from tabletop_envs.agents.policy import PolicyNetwork
from tabletop_envs.tools.evaluate import main
from tabletop_envs.tools.report import agent_labels, render_tables, summarise
from toygame.observer import SCHEMA
from toygame.spec import LAYOUT, Decision

from tabletop_envs.core import files as core_files

TOY = "highcard_v0"


class KeepHighAgent(Agent):
    """Keeps a card of 5 or more and stakes 2 on it; redraws a low card and stakes 1."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, agent: str) -> int:
        card = round(float(observation["observation"][0]) * 9)
        keep_or_low, swap_or_high = np.flatnonzero(observation["action_mask"])
        staking = keep_or_low == LAYOUT.segment_of(Decision.STAKE).offset
        return int(swap_or_high if (card >= 5) == staking else keep_or_low)


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(HEURISTIC_BOTS, TOY, f"{__name__}:KeepHighAgent")


def test_each_agent_plays_each_seat_equally() -> None:
    for players in (2, 3, 4):
        seen = np.zeros((players, players), dtype=int)
        for index in range(players * 5):
            seats = lineup(index, players)
            assert sorted(seats) == list(range(players))
            for seat, agent in enumerate(seats):
                seen[agent, seat] += 1
        assert (seen == 5).all()


def test_every_seating_order_comes_up_equally() -> None:
    arrangements = [tuple(lineup(index, 4)) for index in range(48)]
    assert len(set(arrangements)) == 24  # all 4! seatings
    assert all(arrangements.count(a) == 2 for a in set(arrangements))


def test_game_seeds_depend_only_on_seed_and_index() -> None:
    assert game_seeds(3, 7, 2) == game_seeds(3, 7, 2)
    assert game_seeds(3, 7, 2)[0] != game_seeds(3, 8, 2)[0]
    assert game_seeds(3, 7, 2)[0] != game_seeds(4, 7, 2)[0]


def test_results_do_not_depend_on_worker_count() -> None:
    match = MatchSpec(TOY, ("heuristic", "random", "random"), seed=11)
    serial = play_games(match, 30, workers=1)
    parallel = play_games(match, 30, workers=2)
    assert [r.to_dict() for r in serial] == [r.to_dict() for r in parallel]
    assert [r.index for r in serial] == list(range(30))
    other_seed = play_games(MatchSpec(TOY, match.agents, seed=12), 30)
    assert [r.to_dict() for r in other_seed] != [r.to_dict() for r in serial]


def test_summary_counts_seats_shared_wins_and_ratings() -> None:
    match = MatchSpec(TOY, ("heuristic", "random"), seed=5)
    records = play_games(match, 400)
    summary = summarise(match, records, cooperative=False)
    smart, rand = summary["agents"]
    assert smart["seat_games"] == rand["seat_games"] == [200, 200]
    assert smart["wins"] + rand["wins"] == pytest.approx(400)  # shared wins count 1/2 each
    assert smart["win_low"] < smart["win_rate"] < smart["win_high"]
    assert smart["win_low"] > 0.5 > rand["win_rate"]
    above = summary["head_to_head"]
    assert above[0][1] + above[1][0] == pytest.approx(1.0)
    assert above[0][1] == pytest.approx(smart["win_rate"])
    assert smart["mean_margin"] == pytest.approx(-rand["mean_margin"])


def test_ratings_follow_the_agent_through_seat_rotation() -> None:
    match = MatchSpec(TOY, ("heuristic", "random", "random"), seed=0)
    records = [
        GameRecord(i, 0, lineup(i, 3), [0.0] * 3, [lineup(i, 3).index(0)], None, None, None, 3)
        for i in range(30)
    ]
    agents = summarise(match, records, cooperative=False)["agents"]
    assert agents[0]["win_rate"] == 1.0 and agents[0]["seat_games"] == [10, 10, 10]
    assert agents[0]["rating"]["mu"] > agents[1]["rating"]["mu"] + 5
    assert agents[0]["mean_score"] is None


def test_the_rating_column_shows_its_uncertainty_and_says_so_on_few_games() -> None:
    """10-10 between two agents can rate 28 against 22: the table shows σ, the conservative
    μ-3σ, and a note that on few games the ratings are uncertain and the wins decide."""
    from rich.console import Console

    match = MatchSpec(TOY, ("random", "random"), seed=3)

    def shown(games: int) -> tuple[str, list[dict[str, Any]]]:
        summary = summarise(match, play_games(match, games), cooperative=False)
        console = Console(record=True, width=250)
        console.print(render_tables(summary)[0])
        return console.export_text(), summary["agents"]

    text, agents = shown(20)
    assert "rating μ-3σ" in text and "uncertain" in text and "With 20 games" in text
    for entry in agents:
        rating = entry["rating"]
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
        assert f"{rating['mu']:.1f}±{rating['sigma']:.1f}" in text
        assert f"{rating['ordinal']:.1f}" in text
    many, _ = shown(120)
    assert "conservative rating" in many and "uncertain" not in many


def test_cooperative_summary_reports_team_and_missing_hooks() -> None:
    match = MatchSpec(TOY, ("random", "random"), seed=1)
    records = play_games(match, 20)
    team = summarise(match, records, cooperative=True)["team"]
    assert team["games"] == 20 and team["wins"] == 20  # someone always holds the best card
    assert team["mean_progress"] is None and team["mean_turns"] is None


def test_labels_are_unique() -> None:
    assert agent_labels(["heuristic", "random", "random", "runs/p.pt"]) == [
        "heuristic",
        "random",
        "random#2",
        "p.pt",
    ]


def test_search_specs_with_files_or_decimals_are_labelled_whole() -> None:
    specs = ["az:50,net=runs/net.npz", "ismcts:80,ms=0.5", "heuristic"]
    assert agent_labels(specs) == specs
    assert agent_labels([*specs, "runs/net.npz"])[3] == "net.npz"


def test_cli_writes_all_outputs(tmp_path, capsys) -> None:
    out = tmp_path / "out"
    code = main(
        [
            TOY,
            "--agents",
            "heuristic",
            "random",
            "--games",
            "40",
            "--workers",
            "1",
            "--seed",
            "3",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "results.json", "winrates.png"]
    data = json.loads((out / "results.json").read_text())
    assert data["summary"]["games"] == 40 and len(data["records"]) == 40
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert [row["label"] for row in rows] == ["heuristic", "random"]
    assert (out / "winrates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "head to head" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nogame", "--agents", "random", "random"], "unknown game 'nogame'"),
        ([TOY, "--agents", "random", "wizard"], "unknown agent 'wizard'"),
        ([TOY, "--agents", "random", "random", "--players", "5"], "takes 2 to 4 players"),
        ([TOY, "--agents", "random", "random", "--players", "3"], "3 players need 3 agents"),
        ([TOY, "--agents", "random"], "takes 2 to 4 players"),
        (
            [TOY, "--agents", "random", "random", "--workers", "500"],
            "--workers 500 is more than the",
        ),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys, args, message) -> None:
    out = tmp_path / "out"
    assert main([*args, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not out.exists()


def toy_policy() -> PolicyNetwork:
    weight = np.zeros((LAYOUT.total, SCHEMA.size), dtype=np.float32)
    bias = np.zeros(LAYOUT.total, dtype=np.float32)
    return PolicyNetwork([weight], [bias], "relu", {"game": TOY, "players": 2})


def npz_bytes(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def damaged_policies(good: bytes) -> dict[str, tuple[bytes, str]]:
    """File name -> (content, what the error must say)."""
    network = toy_policy()
    header = network.describe()
    arrays = {"weight_0": network.weights[0], "bias_0": network.biases[0]}

    def with_header(meta: object, **extra: np.ndarray) -> bytes:
        return npz_bytes(meta=np.array(json.dumps(meta)), **{**arrays, **extra})

    sb3 = io.BytesIO()
    with zipfile.ZipFile(sb3, "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"")
    no_layers = {key: value for key, value in header.items() if key != "layers"}
    return {
        "empty.npz": (b"", "is empty"),
        "truncated.npz": (good[: len(good) // 2], "is truncated or damaged"),
        "notes.txt": (b"my policy\n", "is not a policy file (not an .npz archive)"),
        "no_field.npz": (with_header(no_layers), "header has no 'layers' field"),
        "list.npz": (with_header([1, 2]), "header is a JSON list, expected an object"),
        "zero.npz": (with_header({**header, "layers": 0}), "header 'layers' is 0"),
        "objects.npz": (
            with_header(header, weight_0=np.array([[object()]], dtype=object)),
            "entry 'weight_0' is not a plain numeric array",
        ),
        "model_64.zip": (sb3.getvalue(), "is a stable-baselines3 model zip, not a policy file"),
    }


def test_cli_damaged_policy_files_are_named_in_one_line(tmp_path, capsys) -> None:
    good = tmp_path / "good.npz"
    toy_policy().save(good)
    assert (
        main(
            [
                TOY,
                "--agents",
                "random",
                str(good),
                "--games",
                "2",
                "--workers",
                "1",
                "--out",
                str(tmp_path / "ok"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    for name, (content, message) in damaged_policies(good.read_bytes()).items():
        policy = tmp_path / name
        policy.write_bytes(content)
        assert main([TOY, "--agents", "random", str(policy), "--out", str(tmp_path / "o")]) == 2
        error = capsys.readouterr().err
        assert f"policy file {policy}: {message}" in error, (name, error)
        assert error.count("\n") == 1 and "allow_pickle" not in error
    assert not (tmp_path / "o").exists()


def test_cli_names_the_checkpoint_a_policy_was_saved_beside(tmp_path, capsys) -> None:
    checkpoint = tmp_path / "checkpoint_64.pt"
    with zipfile.ZipFile(checkpoint, "w") as archive:
        archive.writestr("checkpoint_64/data.pkl", b"")
    toy_policy().save(tmp_path / "policy_64.npz")
    assert main([TOY, "--agents", "random", str(checkpoint)]) == 2
    error = capsys.readouterr().err
    assert "is a tabletop-train checkpoint, not a policy file" in error
    assert f"use the policy saved beside it, {tmp_path / 'policy_64.npz'}" in error


def test_cli_policies_of_two_runs_get_their_folders_as_labels(tmp_path) -> None:
    for run in ("run_a", "run_b"):
        toy_policy().save(tmp_path / run / "policy.npz")
    agents = [str(tmp_path / run / "policy.npz") for run in ("run_a", "run_b")]
    out = tmp_path / "out"
    assert (
        main([TOY, "--agents", *agents, "--games", "2", "--workers", "1", "--out", str(out)]) == 0
    )
    summary = json.loads((out / "results.json").read_text())["summary"]
    assert [a["label"] for a in summary["agents"]] == ["run_a/policy.npz", "run_b/policy.npz"]


@pytest.mark.parametrize(
    ("where", "message"),
    [("file/out", "is a file, not a folder"), ("/proc/self/out", "cannot write in /proc/self")],
)
def test_cli_unwritable_out_is_refused_before_any_game(
    tmp_path, capsys, monkeypatch, where, message
):
    (tmp_path / "file").write_text("")
    monkeypatch.setattr("tabletop_envs.tools.evaluate.play_games", pytest.fail)
    out = where if where.startswith("/") else str(tmp_path / where)
    assert main([TOY, "--agents", "random", "random", "--out", out]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_cli_a_failed_write_keeps_the_previous_results(tmp_path, capsys, monkeypatch) -> None:
    out = tmp_path / "out"
    args = [TOY, "--agents", "heuristic", "random", "--workers", "1", "--out", str(out)]
    assert main([*args, "--games", "4"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = core_files._temporary_copy

    def disk_full(path, data):
        if path.name == "winrates.png":
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(core_files, "_temporary_copy", disk_full)
    assert main([*args, "--games", "6"]) == 1
    assert "cannot write the results" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before, "all three or none"


def test_cli_negative_seed_names_the_flag(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([TOY, "--agents", "random", "random", "--seed", "-1"])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2 and "argument --seed: -1 is negative" in error


def test_cli_bad_flag_exits_2(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([TOY, "--agents", "random", "random", "--games", "zero"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert "'zero' is not a whole number" in error and error.count("\n") == 1


def test_cli_results_are_the_same_for_any_worker_count(tmp_path) -> None:
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        args = ["vaalbara", "--agents", "heuristic", "random", "random", "--games", "6"]
        flags = ["--workers", workers, "--oversubscribe", "--seed", "9", "--out", str(out)]
        assert main([*args, *flags]) == 0
        runs.append(json.loads((out / "results.json").read_text()))
    assert runs[0] == runs[1]
    assert [r["lineup"] for r in runs[0]["records"]][:3] == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    assert all(len(r["scores"]) == 3 for r in runs[0]["records"])


def test_a_team_summary_says_how_the_games_ended() -> None:
    """Spirit Island's lost games counted by cause, with the turn and the end facts averaged
    per cause; the table names them."""
    from rich.console import Console

    from tabletop_envs.spirit_island.rules import SpiritIslandGame

    match = MatchSpec("spirit_island_v1", ("random",), seed=5)
    records = play_games(match, 12)
    endings = summarise(match, records, cooperative=True)["team"]["endings"]
    assert sum(row["games"] for row in endings) == 12
    assert [row["games"] for row in endings] == sorted((r["games"] for r in endings), reverse=True)
    for row in endings:
        own = [r for r in records if r.ending == row["ending"]]
        assert len(own) == row["games"] and row["ending"]
        assert row["mean_turns"] == pytest.approx(np.mean([r.turns for r in own]))
        for name, value in row["facts"].items():
            assert value == pytest.approx(np.mean([r.end_facts[name] for r in own]))
    assert set(records[0].end_facts) == set(SpiritIslandGame(1, seed=0).end_facts())
    console = Console(record=True, width=250)
    for table in render_tables(summarise(match, records, cooperative=True)):
        console.print(table)
    text = console.export_text()
    assert "how the games ended" in text and endings[0]["ending"] in text
    assert "fear cards earned" in text and "blight left on the card" in text


def test_games_that_name_no_ending_show_no_ending_table() -> None:
    match = MatchSpec(TOY, ("random", "random"), seed=1)
    summary = summarise(match, play_games(match, 4), cooperative=True)
    assert summary["team"]["endings"] == [] and len(render_tables(summary)) == 1
