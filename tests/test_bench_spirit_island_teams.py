"""benchmarks/spirit_island_teams.py: teams by player count and level on the same deals,
written as its section of a results page."""

from __future__ import annotations

from pathlib import Path

from benchmarks import spirit_island_teams
from benchmarks.results_page import read_section, table_rows


def run(tmp_path: Path, *args: str) -> int:
    """The script on a page and a store of its own in ``tmp_path``."""
    files = ["--page", str(tmp_path / "RESULTS.md"), "--store", str(tmp_path / "teams.json")]
    return spirit_island_teams.main([*args, *files])


def test_two_games_a_row_fill_one_table_per_level(tmp_path: Path, capsys) -> None:
    page = tmp_path / "RESULTS.md"
    page.write_text("# Benchmark results\n\nkept as it was\n")
    args = ["--games", "2", "1", "--players", "1", "2", "--levels", "base", "easiest"]
    assert run(tmp_path, *args) == 0
    section = read_section(spirit_island_teams.SECTION, page)
    assert "kept as it was" in page.read_text()
    assert section.count("| players | team |") == 2
    assert "**difficulty=base**" in section and "**difficulty=easiest**" in section
    rows = table_rows(section, "players")  # the first table: base
    assert [(row["players"], row["team"]) for row in rows] == [
        ("1", "`random`"),
        ("1", "`heuristic`"),
        ("2", "`random`"),
        ("2", "`heuristic`"),
    ]
    for row in rows:
        assert row["wins"].endswith("/ 2" if row["players"] == "1" else "/ 1")
        assert row["how the games ended"] != "-"
        assert float(row["CPU ms / decision"]) > 0
        assert row["run"] == "1"
    assert "Run 1: `python -m benchmarks.spirit_island_teams --games 2 1" in section
    assert "[8/8] easiest 2p heuristic" in capsys.readouterr().err


def test_a_run_replaces_its_own_rows_and_keeps_the_others(tmp_path: Path) -> None:
    """A later run's team joins the table; a row played again is replaced, and a run no row
    comes from any longer leaves the list of runs."""
    assert run(tmp_path, "--games", "1", "--players", "1", "--levels", "base") == 0
    assert (
        run(tmp_path, "--games", "2", "--players", "1", "--levels", "base", "--teams", "heuristic")
        == 0
    )
    section = read_section(spirit_island_teams.SECTION, tmp_path / "RESULTS.md")
    rows = table_rows(section, "players")
    assert [(row["team"], row["wins"].split("/ ")[1], row["run"]) for row in rows] == [
        ("`random`", "1", "1"),
        ("`heuristic`", "2", "2"),
    ]
    assert "--teams heuristic" in section.split("Run 2: ")[1].splitlines()[0]
    assert (
        run(tmp_path, "--games", "1", "--players", "1", "--levels", "base", "--teams", "random")
        == 0
    )
    section = read_section(spirit_island_teams.SECTION, tmp_path / "RESULTS.md")
    assert [(row["team"], row["run"]) for row in table_rows(section, "players")] == [
        ("`random`", "2"),
        ("`heuristic`", "1"),
    ]
    assert "Run 3:" not in section and "--teams heuristic" in section.split("Run 1: ")[1]


def test_the_kept_rows_refuse_another_seed_and_a_foreign_file(tmp_path: Path, capsys) -> None:
    assert (
        run(tmp_path, "--games", "1", "--players", "1", "--levels", "base", "--teams", "random")
        == 0
    )
    assert run(tmp_path, "--games", "1", "--players", "1", "--levels", "base", "--seed", "3") == 2
    assert "the kept rows are on master seed 0" in capsys.readouterr().err
    assert (
        run(
            tmp_path, "--games", "1", "--players", "1", "--levels", "base", "--seed", "3", "--fresh"
        )
        == 0
    )
    (tmp_path / "teams.json").write_text("[1, 2]")
    assert run(tmp_path, "--games", "1", "--players", "1", "--levels", "base", "--seed", "3") == 2
    assert "not a stored table of Spirit Island teams" in capsys.readouterr().err


def test_every_team_plays_the_same_deals() -> None:
    """Random and heuristic teams at one level and player count meet the same deals."""
    random = spirit_island_teams.play_row("random", 2, "easy", 3, seed=5, workers=1)
    heuristic = spirit_island_teams.play_row("heuristic", 2, "easy", 3, seed=5, workers=1)
    assert random["deals"] == heuristic["deals"] and len(set(random["deals"])) == 3
    other_seed = spirit_island_teams.play_row("random", 2, "easy", 3, seed=6, workers=1)
    assert set(other_seed["deals"]).isdisjoint(random["deals"])


def test_a_row_keeps_which_deals_it_won() -> None:
    """``won`` has one digit per deal, in game order, and as many 1s as the team's wins."""
    row = spirit_island_teams.play_row("heuristic", 1, "easiest", 6, seed=0, workers=2)
    assert 0 < row["stats"]["wins"] < 6  # these deals mix wins and losses
    assert len(row["won"]) == 6 and row["won"].count("1") == row["stats"]["wins"]
    alone = spirit_island_teams.play_row("heuristic", 1, "easiest", 1, seed=0, workers=1)
    assert alone["won"] == row["won"][0]


def test_bad_levels_players_and_teams_are_refused(capsys) -> None:
    for args, message in (
        (["--levels", "brutal"], "--levels brutal: expected some of base, easy, easiest, hard"),
        (["--players", "5"], "--players 5: Spirit Island takes 1-4"),
        (["--teams", "wizard"], "unknown agent 'wizard'"),
        (["--games", "3", "3", "3"], "--games: one number, or one per player count (4), not 3"),
    ):
        assert spirit_island_teams.main([*args, "--no-write"]) == 2
        assert message in capsys.readouterr().err


def test_endings_with_one_short_name_are_counted_together() -> None:
    """Each seat's Spirit losing its last Presence is one "Presence" entry."""
    endings = [
        {"ending": "no Blight left on the Blight card", "games": 5, "mean_turns": 8.0},
        {
            "ending": "player_0's Spirit has no Presence left on the island",
            "games": 3,
            "mean_turns": 3.0,
        },
        {
            "ending": "player_1's Spirit has no Presence left on the island",
            "games": 1,
            "mean_turns": 7.0,
        },
        {
            "ending": "Terror Level 2: no Towns or Cities on the island",
            "games": 1,
            "mean_turns": 9.0,
        },
    ]
    result = {"games": 10, "stats": {"endings": endings}}
    assert spirit_island_teams.endings_cell(result) == (
        "Blight 50 % (turn 8.0), Presence 40 % (turn 4.0), won: Terror Level 2 10 % (turn 9.0)"
    )


def test_rows_another_run_kept_while_this_one_played_stay(tmp_path: Path, monkeypatch) -> None:
    """The kept rows are read again before writing: a run that ended meanwhile keeps its row."""
    play_row = spirit_island_teams.play_row

    def play_while_another_run_ends(team: str, *args) -> dict:
        if team == "heuristic":
            assert (
                run(
                    tmp_path,
                    "--games",
                    "1",
                    "--players",
                    "1",
                    "--levels",
                    "base",
                    "--teams",
                    "random",
                )
                == 0
            )
        return play_row(team, *args)

    monkeypatch.setattr(spirit_island_teams, "play_row", play_while_another_run_ends)
    assert (
        run(tmp_path, "--games", "1", "--players", "1", "--levels", "base", "--teams", "heuristic")
        == 0
    )
    section = read_section(spirit_island_teams.SECTION, tmp_path / "RESULTS.md")
    assert [(row["team"], row["run"]) for row in table_rows(section, "players")] == [
        ("`random`", "1"),
        ("`heuristic`", "2"),
    ]


def test_the_paired_column_compares_each_team_with_the_heuristic_deal_by_deal() -> None:
    """Only the deals both rows played count (the shorter row's), each won by one team alone."""

    def row(team: str, won: str | None, players: int = 1) -> dict:
        kept = {"team": team, "level": "base", "players": players}
        return kept if won is None else {**kept, "won": won}

    heuristic = row("heuristic", "1010000")
    rows = [heuristic, row("pimc:4", "1111"), row("random", None), row("pimc:4", "0101", 2)]
    assert spirit_island_teams.paired_cell(rows[1], rows) == "2 / 0 of 4 (p 0.5)"
    assert spirit_island_teams.paired_cell(heuristic, rows) == "-"
    assert spirit_island_teams.paired_cell(rows[2], rows) == "-"
    assert spirit_island_teams.paired_cell(rows[3], rows) == "-"  # no 2-player heuristic row
    longer = row("pimc:8", "0111011")
    assert spirit_island_teams.paired_cell(longer, [heuristic, longer]) == "4 / 1 of 7 (p 0.38)"
