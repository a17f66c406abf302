"""The best learned players the package ships: ``pretrained`` in ``tabletop-eval`` and
``tabletop-play``.

``manifest.json`` beside this file lists, per environment (name and version: a network
belongs to one version) and player count, the ``.npz`` file, the agent that plays it
(``agent``: ``"policy"``, the network alone, or an ``az:N[,...]`` search guided by it, to which
``net=`` the file is added), its measured time per move (``seconds_per_move``), how it was
trained (command, commit, minutes, the machine's load) and evaluated. No entry is shipped
whose recorded evaluation against the heuristic is not above par (:func:`beats_heuristic`).
Networks are plain numpy (see :mod:`tabletop_envs.agents.policy`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"


def shipped() -> list[dict[str, Any]]:
    """Every manifest entry, in file order."""
    return json.loads(MANIFEST.read_text())["policies"]


POLICY = "policy"
"""The ``agent`` of an entry played by its network alone (the policy path)."""


def pretrained_entry(env: str, players: int | None) -> dict[str, Any]:
    """The manifest entry for ``env`` (``vaalbara_v1``) at ``players``; ValueError naming what
    is shipped when there is none."""
    entries = shipped()
    for entry in entries:
        if entry["env"] == env and entry["players"] == players:
            return entry
    available = [f"{entry['env']} {entry['players']}p" for entry in entries] or ["none"]
    count = "no player count given" if players is None else f"{players} players"
    raise ValueError(
        f"no pretrained policy for {env} with {count}; shipped: {', '.join(available)}"
    )


def pretrained_path(env: str, players: int | None) -> Path:
    """The network file shipped for ``env`` at ``players`` (ValueError as
    :func:`pretrained_entry`)."""
    return entry_path(pretrained_entry(env, players))


def entry_path(entry: dict[str, Any]) -> Path:
    return MANIFEST.parent / entry["file"]


def entry_spec(entry: dict[str, Any]) -> str:
    """The agent spec that plays ``entry``: its file (the network alone) or its ``az`` search
    with ``net=`` the file."""
    agent = entry.get("agent", POLICY)
    path = entry_path(entry)
    return str(path) if agent == POLICY else f"{agent},net={path}"


def heuristic_score(entry: dict[str, Any]) -> dict[str, Any] | None:
    """The entry's recorded evaluation against the heuristic bot in every other seat."""
    return entry.get("evaluation", {}).get("against", {}).get("heuristic")


def beats_heuristic(entry: dict[str, Any]) -> bool:
    """Whether the recorded win rate against the heuristic is above par (one over the player
    count): the condition for shipping an entry."""
    score = heuristic_score(entry)
    return score is not None and score["win_rate"] > 1 / entry["players"]


def describe(entry: dict[str, Any]) -> str:
    """One line: what ``pretrained`` loaded, how strong and how fast it was measured."""
    agent = entry.get("agent", POLICY)
    how = "the network alone" if agent == POLICY else f"{agent} guided by the network"
    text = f"pretrained {entry['env']} {entry['players']}p: {entry['file']}, {how}"
    score = heuristic_score(entry)
    if score is not None:
        low, high = score["interval95"]
        games = entry["evaluation"]["games"]
        text += (
            f"; {score['win_rate']:.1%} [{low:.1%}, {high:.1%}] against the heuristic "
            f"({games} games, par {1 / entry['players']:.0%})"
        )
    if "seconds_per_move" in entry:
        text += f"; {entry['seconds_per_move'] * 1000:.2g} ms a move"
    return text
