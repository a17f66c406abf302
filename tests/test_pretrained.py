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
