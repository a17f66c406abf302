"""``experiments.strength_pool``: runs of other seeds summed, cooperative teams compared deal
by deal, and bad folders refused with the reason."""

from pathlib import Path

import pytest
from tabletop_envs.agents.arena import MatchSpec, play_games

from experiments import search_strength
from experiments.strength_pool import PooledRow, load_run, main, paired, pool


def team_row(subject: str, seed: int, won: list[bool]) -> dict:
    """A cooperative row as search_strength writes it, one game per entry of ``won``."""
    wins = sum(won)
    return {
        "row": {"subject": subject, "opponent": "team"},
        "summary": {
            "game": "valenor_v2",
            "players": 3,
            "seed": seed,
            "games": len(won),
            "cooperative": True,
            "team": {"wins": wins},
        },
        "games": [{"index": i, "winners": [0, 1, 2] if w else []} for i, w in enumerate(won)],
    }


def run(seed: int, search: list[bool], baseline: list[bool]) -> dict:
    rows = [team_row("ismcts:5", seed, search), team_row("heuristic", seed, baseline)]
    return {"game": "valenor_v2", "players": 3, "rows": rows}


def test_runs_are_summed_by_subject_and_paired_by_deal() -> None:
    rows = pool(
        [
            run(7, [True, True, False, False], [False, True, False, False]),
            run(8, [True, False, True], [False, False, True]),
        ]
    )
    assert [(r.subject, r.games, r.wins) for r in rows] == [("ismcts:5", 7, 4), ("heuristic", 7, 2)]
    # Deals only one team won: (7, 0) and (8, 0) for the search team, none for the other.
    assert paired(rows[0], rows[1]) == (7, 2, 0, 0.5)


def test_the_same_seed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="two runs of seed 7"):
        pool([run(7, [True], [False]), run(7, [False], [False])])


def test_other_games_are_not_pooled() -> None:
    other = run(8, [True], [True])
    other["players"] = 4
    with pytest.raises(ValueError, match="different games or player counts"):
        pool([run(7, [True], [False]), other])


def test_rows_without_games_are_not_paired() -> None:
    assert paired(PooledRow("a", "team"), PooledRow("b", "team")) is None


def test_a_missing_or_corrupt_folder_is_named(tmp_path: Path, capsys) -> None:
    with pytest.raises(ValueError, match="no such file"):
        load_run(tmp_path)
    (tmp_path / "strength.json").write_text("{not json")
    assert main([str(tmp_path)]) != 0
    assert "not a search_strength result" in capsys.readouterr().err


def test_real_runs_of_two_seeds_pool_into_one_table(tmp_path: Path, capsys) -> None:
    folders, seeds = [], (4, 9)  # deals the heuristic team wins one of each
    for seed in seeds:
        folder = tmp_path / f"s{seed}"
        argv = ["valenor", "--players", "3", "--specs", "ismcts:1,depth=2"]
        argv += ["--opponents", "heuristic", "--games", "2", "--seed", str(seed)]
        assert search_strength.main([*argv, "--jobs", "1", "--out", str(folder)]) == 0
        folders.append(str(folder))
    capsys.readouterr()
    assert main(folders) == 0
    table = capsys.readouterr().out
    assert "| `ismcts:1,depth=2` | team | 4 |" in table
    teams = {"| `ismcts:1,depth=2` | `heuristic` | 4 |", "| `heuristic` | `ismcts:1,depth=2` | 4 |"}
    assert any(pair in table for pair in teams)
    # The heuristic team's wins, played again here: the same deals, outside search_strength.
    heuristic_wins = sum(
        bool(record.winners)
        for seed in seeds
        for record in play_games(MatchSpec("valenor_v2", ("heuristic",) * 3, seed), 2)
    )
    assert heuristic_wins == 2 and f"| `heuristic` | team | 4 | {heuristic_wins} |" in table
