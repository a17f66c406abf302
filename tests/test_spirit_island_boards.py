"""Spirit Island's boards and their joins for 1-4 players, and the options choosing boards
and Spirits. The expected joins are written out by hand from the boards' edges."""

from __future__ import annotations

import itertools

import pytest

import tabletop_envs.spirit_island  # noqa: F401  (binds the observer and the text)
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.rules import SpiritIslandGame

JOINS = {
    1: set(),
    # A's west edge (3, 4, 5, 7) against B's east edge (1, 6, 8)
    2: {"A3-B1", "A4-B1", "A4-B6", "A5-B6", "A5-B8", "A7-B8"},
    # and B's west (3, 4, 7) against C's east (1, 6, 8), C's west (3, 4, 7) against A's east
    3: {"A3-B1", "A4-B1", "A4-B6", "A5-B6", "A5-B8", "A7-B8", "B3-C1", "B4-C6", "B7-C8",
        "C3-A1", "C4-A6", "C7-A8"},
    # a ring: C's west against D's east (1, 8), D's west (3, 4, 6) against A's east
    4: {"A3-B1", "A4-B1", "A4-B6", "A5-B6", "A5-B8", "A7-B8", "B3-C1", "B4-C6", "B7-C8",
        "C3-D1", "C4-D1", "C4-D8", "C7-D8", "D3-A1", "D4-A6", "D6-A8"},
}  # fmt: skip


def cross_pairs(island: spec.Island) -> set[frozenset[str]]:
    """Every pair of neighbouring lands on different boards, by name."""
    names = island.boards
    return {
        frozenset((spec.land_name(a, names), spec.land_name(b, names)))
        for a, adjacent in enumerate(island.neighbours)
        for b in adjacent
        if a // 8 != b // 8
    }


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_default_joins_per_player_count(players: int) -> None:
    island = spec.island_of(spec.BOARD_ORDER[:players])
    assert cross_pairs(island) == {frozenset(p.split("-")) for p in JOINS[players]}
    for land, adjacent in enumerate(island.neighbours):
        for other in adjacent:
            assert land in island.neighbours[other]  # symmetric
    assert max(max(row) for row in island.distance) < 99  # one island


def test_every_board_choice_builds_an_island() -> None:
    for players in (2, 3, 4):
        for boards in itertools.permutations("ABCD", players):
            island = spec.island_of(boards)
            assert len(island.terrain) == 8 * players
            for land, adjacent in enumerate(island.neighbours):
                assert all(land in island.neighbours[o] for o in adjacent)


def test_board_edges_follow_each_board() -> None:
    for name, edges in spec.BOARD_EDGES.items():
        board = spec.BOARDS[name]
        assert edges["west"][0] == 3 and edges["east"][0] == 1
        for lands in edges.values():
            for a, b in itertools.pairwise(lands):
                assert b - 1 in board.neighbours[a - 1]


def test_a_broken_edge_or_join_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(spec.BOARD_EDGES, "A", {"west": (3, 7), "east": (1, 6, 8)})
    with pytest.raises(spec.BoardError, match="board A: edge west skips from 3 to 7"):
        spec._check_edges()
    monkeypatch.setitem(spec.CROSS_BOARD, ("B", "A"), ((0, 5),))
    with pytest.raises(spec.BoardError, match="lies on one board"):
        spec.build_island(("B", "A"))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_per_player_count(players: int) -> None:
    game = SpiritIslandGame(players, seed=3)
    assert game.fear_pool == 4 * players and game.blight_pool == 2 * players + 1
    assert len(game.pieces) == 8 * players
    for seat in range(players):
        board = spec.BOARDS[spec.BOARD_ORDER[seat]]
        lands = game.board_lands(seat)
        assert [game.owner(x) for x in lands] == [seat] * 8
        for n, land in enumerate(lands):
            setup = list(board.setup[n])
            row = game.pieces[land]
            # Dahan, Towns, Cities and Blight from the icons (the first Explore adds Explorers)
            for kind in (spec.TOWN, spec.CITY, spec.DAHAN, spec.BLIGHT):
                assert row[kind] == setup[kind], (seat, n + 1, kind)
        assert sum(game.presence[seat]) == sum(c for _, c in game.spirit(seat).setup)


def test_chosen_boards_and_spirits() -> None:
    game = SpiritIslandGame(2, seed=0, boards="DB")
    assert game.island.boards == ("D", "B")
    assert game.pieces[1][spec.CITY] == 1  # D2 holds the City
    text = game.action_to_str(spec.LAYOUT.segment_of(spec.Decision.LAND).offset + 8)
    assert "B1" in text
    clone = SpiritIslandGame.from_json(game.to_json())
    assert clone.island.boards == ("D", "B")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"boards": "AA"}, "boards='AA' is not accepted: give 2 different board letter"),
        ({"boards": "AE"}, r"among \['A', 'B', 'C', 'D'\]"),
        ({"boards": "ABC"}, "give 2 different"),
        ({"spirits": "river,thunder"}, "spirits='river,thunder' is not accepted"),
        ({"spirits": "river"}, "give 2"),
        ({"boards": 3}, "must be of type str"),
    ],
)
def test_bad_choices_name_the_accepted_values(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SpiritIslandGame(2, seed=0, **options)
