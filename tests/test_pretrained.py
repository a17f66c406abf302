"""The shipped policies (``pretrained``): each loads for its environment version and count,
and a game or count without one is refused, naming what is shipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tabletop_envs.agents.pretrained as pretrained
from policies import random_policy
from tabletop_envs.agents.arena import MatchSpec, play_games
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.policy import load_policy, read_policy

TRAINING_KEYS = {"command", "commit", "steps", "minutes", "evaluation"}


@pytest.mark.parametrize("entry", pretrained.shipped(), ids=lambda e: f"{e['env']}-{e['players']}p")
def test_each_shipped_policy_belongs_to_its_registered_environment(entry: dict) -> None:
    """A policy names one env version: after a version bump this fails until it is retrained."""
    path = pretrained.MANIFEST.parent / entry["file"]
    assert set(entry) >= TRAINING_KEYS, f"manifest entry lacks {TRAINING_KEYS - set(entry)}"
    assert read_policy(path).meta["game"] == entry["env"]
    load_policy(path, entry["env"], players=entry["players"])


def write_manifest(folder: Path, entries: list[dict]) -> Path:
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"policies": entries}))
    return manifest


def test_pretrained_plays_the_policy_shipped_for_the_game_and_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    random_policy(tmp_path / "vaalbara_v1-2p.npz")
    entry = {"env": "vaalbara_v1", "players": 2, "file": "vaalbara_v1-2p.npz"}
    monkeypatch.setattr(pretrained, "MANIFEST", write_manifest(tmp_path, [entry]))
    records = play_games(MatchSpec("vaalbara_v1", ("pretrained", "random"), seed=0), games=4)
    assert len(records) == 4 and all(record.decisions > 0 for record in records)
    with pytest.raises(
        ValueError,
        match=r"no pretrained policy for vaalbara_v1 with 4 players; "
        r"shipped: vaalbara_v1 2p",
    ):
        agent_factory("pretrained", "vaalbara", 4)


def test_pretrained_refuses_a_game_with_none_and_a_policy_of_another_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pretrained, "MANIFEST", write_manifest(tmp_path, []))
    with pytest.raises(
        ValueError, match="no pretrained policy for valenor_v2 with 3 players; shipped: none"
    ):
        agent_factory("pretrained", "valenor", 3)
    random_policy(tmp_path / "old.npz")
    policy = read_policy(tmp_path / "old.npz")
    policy.meta["game"] = "vaalbara_v0"
    policy.save(tmp_path / "old.npz")
    entry = {"env": "vaalbara_v1", "players": 2, "file": "old.npz"}
    monkeypatch.setattr(pretrained, "MANIFEST", write_manifest(tmp_path, [entry]))
    with pytest.raises(ValueError, match=r"game 'vaalbara_v0' \(expected 'vaalbara_v1'\)"):
        agent_factory("pretrained", "vaalbara", 2)


@pytest.mark.parametrize("entry", pretrained.shipped(), ids=lambda e: f"{e['env']}-{e['players']}p")
def test_each_entry_names_its_agent_time_and_beats_its_heuristic(entry: dict) -> None:
    """``pretrained`` is the best learned player shipped: never one that loses to the bot."""
    assert entry["agent"] == pretrained.POLICY or entry["agent"].startswith("az:")
    assert entry["seconds_per_move"] > 0
    score = pretrained.heuristic_score(entry)
    assert score is not None and score["win_rate"] > 1 / entry["players"]
    assert pretrained.beats_heuristic(entry)
    agent_factory(pretrained.entry_spec(entry), entry["env"], entry["players"])


def test_beats_heuristic_is_par_for_the_player_count() -> None:
    def entry(players: int, rate: float) -> dict:
        against = {"heuristic": {"wins": 1, "win_rate": rate, "interval95": [0, 1]}}
        return {"players": players, "evaluation": {"games": 9, "against": against}}

    assert pretrained.beats_heuristic(entry(4, 0.26))
    assert not pretrained.beats_heuristic(entry(4, 0.25))
    assert not pretrained.beats_heuristic(entry(2, 0.49))
    assert not pretrained.beats_heuristic({"players": 2, "evaluation": {"against": {}}})


def exit_network(path: Path) -> Path:
    """An untrained Valiant Wars 2p policy-value network, as the expert-iteration loop writes."""
    from tabletop_envs.training.exit.network import PolicyValueModule

    from tabletop_envs import game_module

    core = game_module("valiant_wars_v3").Game
    module = PolicyValueModule(core.SCHEMA.size, core.LAYOUT.total, 2, hidden=(16,))
    module.export({"game": "valiant_wars_v3", "players": 2, "exit_round": 1}).save(path)
    return path


def test_pretrained_plays_the_entry_agent_and_says_which_it_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop_envs.agents import loading
    from tabletop_envs.agents.az import AZAgent

    exit_network(tmp_path / "valiant_wars_v3-2p.npz")
    random_policy(tmp_path / "vaalbara_v1-2p.npz")
    heuristic = {"wins": 60, "win_rate": 0.6, "interval95": [0.5, 0.69]}
    evaluation = {"games": 100, "against": {"heuristic": heuristic}}
    entries = [
        {
            "env": "valiant_wars_v3",
            "players": 2,
            "file": "valiant_wars_v3-2p.npz",
            "agent": "az:4",
            "seconds_per_move": 0.05,
            "evaluation": evaluation,
        },
        {"env": "vaalbara_v1", "players": 2, "file": "vaalbara_v1-2p.npz", "agent": "policy"},
    ]
    monkeypatch.setattr(pretrained, "MANIFEST", write_manifest(tmp_path, entries))
    monkeypatch.setattr(loading, "ANNOUNCED", set())
    agent = agent_factory("pretrained", "valiant_wars", 2)(0)
    assert isinstance(agent, AZAgent) and agent.network is not None
    said = capsys.readouterr().err
    assert said == (
        "pretrained valiant_wars_v3 2p: valiant_wars_v3-2p.npz, az:4 guided by the network; "
        "60.0% [50.0%, 69.0%] against the heuristic (100 games, par 50%); 50 ms a move\n"
    )
    agent_factory("pretrained", "valiant_wars", 2)
    assert capsys.readouterr().err == ""  # said once a process
    records = play_games(MatchSpec("vaalbara_v1", ("pretrained", "random"), seed=0), games=2)
    assert len(records) == 2
    assert "vaalbara_v1-2p.npz, the network alone" in capsys.readouterr().err
    searcher = agent_factory("az:3,net=pretrained", "valiant_wars", 2)(0)
    assert isinstance(searcher, AZAgent) and searcher.network is not None
    with pytest.raises(ValueError, match=r"vaalbara_v1-2p\.npz is a policy without a value head"):
        agent_factory("az:3,net=pretrained", "vaalbara", 2)
