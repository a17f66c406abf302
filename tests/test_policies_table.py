"""The shipped-policies table reads PPO and expert-iteration entries alike."""

from __future__ import annotations

from typing import Any

from benchmarks.policies import markdown


def entry(**trained: int) -> dict[str, Any]:
    """A manifest entry as tools/ship.py writes it, trained by ``trained``."""
    return {
        "file": "game-2p.npz",
        "players": 2,
        "command": "tabletop-train game",
        "commit": "abc1234",
        "minutes": 12.5,
        "evaluation": {
            "games": 100,
            "against": {"heuristic": {"wins": 55, "interval95": [0.452, 0.644]}},
        },
        **trained,
    }


def test_a_ppo_entry_shows_its_steps() -> None:
    row = markdown([entry(steps=1234567)]).splitlines()[-1]
    assert "| 1,234,567 PPO steps |" in row
    assert "heuristic: 55 / 100 [0.452, 0.644]" in row


def test_an_expert_iteration_entry_shows_its_rounds() -> None:
    row = markdown([entry(rounds=7)]).splitlines()[-1]
    assert "| 7 ExIt rounds |" in row


def test_the_shipped_manifest_makes_a_table() -> None:
    import tabletop_envs.agents.pretrained as pretrained

    shipped = pretrained.shipped()
    assert len(markdown(shipped).splitlines()) == 4 + len(shipped)
