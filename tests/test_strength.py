"""``python -m benchmarks.strength``: the rows it plays and the section it writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tabletop_envs.agents.loading import agent_factory

import tabletop_envs
from benchmarks import strength

MANIFEST = Path(__file__).resolve().parent.parent / "agents" / "pretrained" / "manifest.json"


def project_games() -> list[str]:
    """The registered environments, less the toy game the tests register."""
    return sorted(env for env in tabletop_envs.GAMES if env != "highcard_v0")


def test_each_game_has_a_search_spec() -> None:
    names = {tabletop_envs.game_module(env).Game.NAME for env in project_games()}
    assert names == set(strength.SEARCH_SPECS)


def test_every_game_and_player_count_gets_every_bot_against_the_same_opponents() -> None:
    rows = strength.table_rows(project_games())
    for env in project_games():
        game = tabletop_envs.game_module(env).Game
        for players in range(game.MIN_PLAYERS, game.MAX_PLAYERS + 1):
            here = [row for row in rows if (row.env, row.players) == (env, players)]
            subjects = {row.subject for row in here}
            assert {"random", "heuristic", strength.SEARCH_SPECS[game.NAME]} <= subjects
            if game.COOPERATIVE:
                assert all(row.lineup == (row.subject,) * players for row in here)
                assert len(here) == len(subjects)
                continue
            for row in here:
                assert row.lineup == (row.subject,) + (row.opponent,) * (players - 1)
            pairs = {(row.subject, row.opponent) for row in here}
            expected = {(s, o) for s in subjects for o in ("heuristic", "random") if s != o}
            assert pairs == expected and len(here) == len(pairs)


def test_pretrained_rows_are_exactly_the_shipped_policies() -> None:
    shipped = {
        (entry["env"], entry["players"]) for entry in json.loads(MANIFEST.read_text())["policies"]
    }
    rows = strength.table_rows(project_games())
    assert {(row.env, row.players) for row in rows if row.subject == "pretrained"} == shipped


@pytest.mark.parametrize("name", sorted(strength.SEARCH_SPECS))
def test_each_search_spec_loads_for_its_game(name: str) -> None:
    env = tabletop_envs.resolve_name(name)
    agent_factory(strength.SEARCH_SPECS[name], env, 2)
    assert name == tabletop_envs.game_module(env).Game.NAME


def test_a_run_writes_its_section_and_a_rerun_replaces_it(tmp_path, monkeypatch, capsys) -> None:
    page = tmp_path / "RESULTS.md"
    before, after = "# Results\n\n", "\n\n## Later\n\nlater\n"
    page.write_text(before + "<!-- BEGIN strength -->\n<!-- END strength -->" + after)
    monkeypatch.setattr(strength, "RESULTS_MD", page)
    monkeypatch.setattr(
        strength, "SEARCH_SPECS", {**strength.SEARCH_SPECS, "valenor": "ismcts:2,depth=2"}
    )
    flags = ["--only", "valenor", "--games", "2", "--workers", "1"]
    for _ in range(2):
        assert strength.main(flags) == 0
        text = page.read_text()
        assert text.startswith(before + "<!-- BEGIN strength -->\n`python -m benchmarks.strength")
        assert text.endswith("|\n<!-- END strength -->" + after)
        assert text.count("| valenor_v2 | 3 | `heuristic` | (team game) |") == 1
        assert "2 games a row, master seed 0" in text
    capsys.readouterr()
    assert strength.main([*flags, "--no-write"]) == 0
    assert page.read_text() == text and "| valenor_v2 | 4 |" in capsys.readouterr().out


def test_an_unknown_game_is_refused_with_the_valid_names(capsys) -> None:
    assert strength.main(["--only", "chess", "--no-write"]) == 2
    assert "chess" in capsys.readouterr().err
