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
    # bottom against bottom: B's (7, 4, 3) at breaks 1, 5 against A's (7, 5, 4, 3) at 1, 3, 7
    # turned round (3 to 6, 4 to 10, 5 to 12, 7 to 13): B7 and B4 end before A3 does
    2: {"A3-B7", "A3-B4", "A3-B3", "A4-B3", "A5-B3", "A7-B3"},
    # B's bottom against A's right (7 to 8, 8 to 13); C's right (8 to 7, 7 to 11, 4 to 13)
    # against A's bottom; C's bottom (4 to 7, 3 to 13) against B's right
    3: {"A7-B7", "A7-B4", "A7-B3", "A8-B3", "A3-C8", "A4-C8", "A4-C7", "A5-C7", "A5-C4",
        "A7-C4", "B7-C4", "B7-C3", "B8-C3"},
    # D's right against A's right; B's bottom against A's top (8 to 6, 6 to 10, 1 to 13);
    # C's right against B's right; D's bottom (6 to 3, 4 to 9, 3 to 13) against C's top
    4: {"A7-D8", "A7-D7", "A8-D7", "A8-D6", "A8-B7", "A8-B4", "A8-B3", "A6-B3", "A1-B3",
        "B7-C8", "B7-C7", "B8-C7", "B8-C4", "C8-D6", "C8-D4", "C6-D4", "C6-D3", "C1-D3"},
}  # fmt: skip
"""The published standard layouts' neighbours across boards, worked by hand from each board's
printed sides (lands and break points in 13ths, ``spec.BOARD_SIDES``) and the sides that meet
(``spec.LAYOUTS``)."""


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


def test_board_sides_follow_each_board() -> None:
    """Each side runs along its board's edge and the sides meet at the corners: the bottom
    ends by the Ocean at land 3, the top starts there at land 1."""
    for name, sides in spec.BOARD_SIDES.items():
        board = spec.BOARDS[name]
        (bottom, _), (right, _), (top, _) = sides
        assert bottom[-1] == 3 and top[0] == 1
        assert bottom[0] == right[-1] and right[0] == top[-1]
        for lands, breaks in sides:
            assert len(breaks) == len(lands) - 1
            for a, b in itertools.pairwise(lands):
                assert b - 1 in board.neighbours[a - 1]


def test_a_broken_side_or_join_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    a = spec.BOARD_SIDES["A"]
    monkeypatch.setitem(spec.BOARD_SIDES, "A", (((7, 3), (1,)), a[1], a[2]))
    with pytest.raises(spec.BoardError, match="board A: side 0 skips from 7 to 3"):
        spec._check_sides()
    monkeypatch.setitem(spec.BOARD_SIDES, "A", (((7, 5, 4, 3), (3, 1, 7)), a[1], a[2]))
    with pytest.raises(spec.BoardError, match="board A: side 0 needs increasing break points"):
        spec._check_sides()
    monkeypatch.setitem(spec.BOARD_SIDES, "A", (a[0], ((8, 6), (5,)), a[2]))
    with pytest.raises(spec.BoardError, match="share their corner lands"):
        spec._check_sides()
    monkeypatch.setitem(spec.BOARD_SIDES, "A", a)
    monkeypatch.setitem(spec.CROSS_BOARD, ("B", "A"), ((0, 5),))
    with pytest.raises(spec.BoardError, match="lies on one board"):
        spec.build_island(("B", "A"))


def test_a_layout_must_join_the_edges_that_meet_where_the_boards_lie(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """2 boards: B turned half round at (1, 0) puts its bottom on A's bottom, the join listed;
    listing B's top instead, or laying B beside A with its Ocean on A's right, is refused."""
    assert spec.board_corners(1, 0, 3) == ((1, 0), (0, 0), (0, -1), (1, -1))
    monkeypatch.setitem(spec.LAYOUTS, 2, ((1, 2, 0, 0),))
    with pytest.raises(spec.BoardError, match="2 boards: the joins listed are not the edges"):
        spec._check_layouts()
    monkeypatch.setitem(spec.LAYOUTS, 2, ())
    monkeypatch.setitem(spec.BOARD_PLACES, 2, ((0, 0, 0), (1, 0, 0)))
    with pytest.raises(spec.BoardError, match="2 boards: boards overlap or cover an Ocean"):
        spec._check_layouts()
    monkeypatch.setitem(spec.BOARD_PLACES, 2, ((0, 0, 0), (0, 0, 0)))
    with pytest.raises(spec.BoardError, match="overlap"):
        spec._check_layouts()


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
