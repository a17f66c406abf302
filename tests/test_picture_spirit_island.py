"""Spirit Island's picture for the replay viewer (issue 19): well-formed SVG at every player
count, nothing a seat cannot see in its picture (the hidden state redrawn, or changed by hand,
leaves it unchanged; another Spirit's drawn cards never appear), what it shows counted from
its DOM: pieces and Presence per land, the earned Fear cards, the decision; and the island
drawn as its shapes (issue 31, item 4): lands that share a border are exactly the island's
neighbours, the Ocean borders exactly the coastal lands, and no two regions overlap."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from html import escape
from pathlib import Path

import numpy as np
import pytest
from tabletop_envs.agents.heuristics import heuristic_agent

from tabletop_envs import spirit_island_v1
from tabletop_envs.core.svg import Ring, inside, largest_boxes, shared_border
from tabletop_envs.spirit_island import picture
from tabletop_envs.spirit_island.observer import PIECE_SCALE
from tabletop_envs.spirit_island.rules import SpiritIslandGame
from tabletop_envs.spirit_island.spec import (
    BLIGHT_CARDS,
    BOARD_ORDER,
    CARDS,
    EXPLORER,
    FEAR_CARDS,
    KIND_NAMES,
    PURPOSE,
    PURPOSE_NAMES,
    BoardError,
    island_of,
    land_name,
)

SVG = "{http://www.w3.org/2000/svg}"
PLAYER_COUNTS = (1, 2, 3, 4)
SEEDS = range(2)
EVERY = 15
KEEPS = 2


def random_positions(players: int, seed: int) -> Iterator[SpiritIslandGame]:
    """A seeded random game's states: one every EVERY decisions, the first KEEPS decisions to
    keep a drawn card, and the end."""
    game = SpiritIslandGame(players, seed=seed)
    rng = np.random.default_rng(seed)
    step = keeps = 0
    while not game.is_terminal:
        keeping = game.pending[2] == PURPOSE["keep"] and keeps < KEEPS
        if step % EVERY == 0 or keeping:
            yield game.clone()
        keeps += keeping
        game.apply(int(rng.choice(game.legal_actions())))
        step += 1
    yield game


def earn_fear(game: SpiritIslandGame, cards: int) -> SpiritIslandGame:
    """A copy in which ``cards`` more Fear cards were earned (they lie face down)."""
    game = game.clone()
    game.fear_earned += game.fear_deck[:cards]
    game.fear_deck = game.fear_deck[cards:]
    return game


@cache
def positions(players: int) -> tuple[SpiritIslandGame, ...]:
    """Random positions, and some with Fear cards earned (random games seldom earn any)."""
    played = [game for seed in SEEDS for game in random_positions(players, seed)]
    earned = [earn_fear(game, 1 + i % 3) for i, game in enumerate(played[::4])]
    return (*played, *earned)


@cache
def drawn(players: int, index: int, seat: int | None) -> str:
    """The picture of ``positions(players)[index]`` for ``seat``, drawn once per session."""
    return picture.draw(positions(players)[index], seat)


def pictures(players: int) -> Iterator[tuple[int, SpiritIslandGame]]:
    return enumerate(positions(players))


@cache
def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def elements(svg: str, attribute: str) -> list[dict[str, str]]:
    """The attributes of every element of the SVG that carries ``data-<attribute>``."""
    root = parsed(svg)
    return [dict(e.attrib) for e in root.iter() if f"data-{attribute}" in e.attrib]


def counted(svg: str, attribute: str) -> dict[tuple[str, str], int]:
    """(land, value of ``data-<attribute>``) -> the count drawn there."""
    found: dict[tuple[str, str], int] = {}
    for e in elements(svg, attribute):
        key = (e["data-land"], e[f"data-{attribute}"])
        assert key not in found, f"{key} drawn twice"
        found[key] = int(e["data-count"])
    return found


def pieces_of(game: SpiritIslandGame, cap: int | None) -> dict[tuple[str, str], int]:
    boards = game.island.boards
    return {
        (land_name(land, boards), KIND_NAMES[kind]): count if cap is None else min(count, cap)
        for land, row in enumerate(game.pieces)
        for kind, count in enumerate(row)
        if count
    }


def presence_of(game: SpiritIslandGame, cap: int | None) -> dict[tuple[str, str], int]:
    boards = game.island.boards
    return {
        (land_name(land, boards), f"player_{seat}"): count if cap is None else min(count, cap)
        for seat, row in enumerate(game.presence)
        for land, count in enumerate(row)
        if count
    }


def hidden_changed(game: SpiritIslandGame, seat: int) -> SpiritIslandGame:
    """A copy that differs from ``game`` only where ``seat`` cannot see: the Invader and Fear
    decks' order, which unseen Fear cards lie face down, the Blight card before it flips and
    the cards another Spirit drew."""
    other = game.clone()
    other.invader_deck = other.invader_deck[::-1]
    unseen = other.fear_earned + other.fear_deck
    unseen = unseen[1:] + unseen[:1]
    other.fear_earned = unseen[: len(game.fear_earned)]
    other.fear_deck = unseen[len(game.fear_earned) :]
    if not other.blighted:
        other.blight_card = (other.blight_card + 1) % len(BLIGHT_CARDS)
    if other.drawn and other.drawn_by != seat:
        deck = other.major_deck if other.drawn_major else other.minor_deck
        for i in range(min(len(deck), len(other.drawn))):
            other.drawn[i], deck[i] = deck[i], other.drawn[i]
    return other


# ----- registration and well-formed SVG -------------------------------------------------------
def test_the_picture_is_registered_with_the_game() -> None:
    assert spirit_island_v1.Game.PICTURE is picture


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_picture_parses_as_one_svg_naming_who_sees_it(players: int) -> None:
    for index in range(len(positions(players))):
        for seat in [None, *range(players)]:
            root = parsed(drawn(players, index, seat))
            assert root.tag == f"{SVG}svg"
            title = root.find(f"{SVG}title").text
            assert title.endswith("everything" if seat is None else f"seen by player_{seat}")


# ----- nothing hidden reaches a seat's picture ------------------------------------------------
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_seats_picture_is_unchanged_when_what_it_cannot_see_is_redrawn(players: int) -> None:
    rng = np.random.default_rng(players)
    everything_changed = 0
    for index, game in pictures(players):
        for seat in range(players):
            svg = drawn(players, index, seat)
            assert picture.draw(game.resample_hidden(seat, rng), seat) == svg
            changed = hidden_changed(game, seat)
            assert picture.draw(changed, seat) == svg
        everything_changed += picture.draw(changed, None) != drawn(players, index, None)
    # the changes are real: the picture of everything shows them
    assert everything_changed > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_another_spirits_drawn_cards_never_appear_in_a_seats_picture(players: int) -> None:
    keeps = [(i, g) for i, g in pictures(players) if g.pending and g.pending[2] == PURPOSE["keep"]]
    assert keeps, "no Keep decision among the positions: sample more"
    for index, game in keeps:
        names = [escape(CARDS[card].name) for card in game.drawn]
        assert names and all(name in drawn(players, index, None) for name in names)
        for seat in range(players):
            svg = drawn(players, index, seat)
            if seat == game.drawn_by:
                assert all(name in svg for name in names)
                assert not elements(svg, "drawn")
            else:
                assert not any(name in svg for name in names), f"player_{seat} sees a drawn card"
                backs = elements(svg, "drawn")
                assert backs and {e["data-drawn"] for e in backs} == {f"player_{game.drawn_by}"}


@pytest.mark.parametrize("players", [1, 4])
def test_face_down_fear_cards_show_as_backs_to_a_seat_and_by_name_in_everything(
    players: int,
) -> None:
    earned = [(i, g) for i, g in pictures(players) if g.fear_earned]
    assert earned
    for index, game in earned:
        names = [escape(FEAR_CARDS[card][0]) for card in game.fear_earned]
        assert all(name in drawn(players, index, None) for name in names)
        for seat in range(players):
            svg = drawn(players, index, seat)
            assert not any(name in svg for name in names)
            assert len([e for e in elements(svg, "fear") if e["data-fear"] == "earned"]) == len(
                game.fear_earned
            )
            shown = {e["data-card"] for e in elements(svg, "fear") if e["data-fear"] == "resolved"}
            assert shown == {FEAR_CARDS[card][0] for card in game.fear_discard}


def test_the_blight_card_is_named_to_a_seat_only_once_it_flips() -> None:
    game = SpiritIslandGame(2, seed=1)
    name = escape(BLIGHT_CARDS[game.blight_card][0])
    assert not game.blighted
    assert name not in picture.draw(game, 0) and name in picture.draw(game, None)
    game.blighted = True
    assert name in picture.draw(game, 0)


# ----- what the picture shows, counted from its DOM -------------------------------------------
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_each_lands_pieces_and_presence_appear_as_counted(players: int) -> None:
    for index, game in pictures(players):
        everything = drawn(players, index, None)
        assert counted(everything, "piece") == pieces_of(game, None)
        assert counted(everything, "presence") == presence_of(game, None)
        for seat in range(players):
            svg = drawn(players, index, seat)
            assert counted(svg, "piece") == pieces_of(game, PIECE_SCALE)
            assert counted(svg, "presence") == presence_of(game, 6)
            lands = {e["data-land"] for e in elements(svg, "terrain")}
            assert lands == {land_name(i, game.island.boards) for i in range(len(game.pieces))}


def test_counts_past_the_views_cap_show_the_cap_to_a_seat_and_exactly_in_everything() -> None:
    game = SpiritIslandGame(1, seed=0)
    game.pieces[4][EXPLORER] = PIECE_SCALE + 3
    key = ("A5", KIND_NAMES[EXPLORER])
    assert counted(picture.draw(game, 0), "piece")[key] == PIECE_SCALE
    assert counted(picture.draw(game, None), "piece")[key] == PIECE_SCALE + 3


@pytest.mark.parametrize("players", [1, 4])
def test_the_decision_and_its_decider_are_shown(players: int) -> None:
    for index, game in pictures(players):
        for seat in [None, *range(players)]:
            svg = drawn(players, index, seat)
            (header,) = elements(svg, "decision")
            panels = elements(svg, "spirit")
            assert [e["data-spirit"] for e in panels] == [f"player_{s}" for s in range(players)]
            if game.is_terminal:
                assert header["data-decision"] == "none"
                assert ("Victory" if game.outcome > 0 else "Defeat") in svg
                continue
            assert header["data-decision"] == PURPOSE_NAMES[game.pending[2]]
            assert f"player_{game.pending[1]} (" in svg


# ----- the polygon measures the island's tests and layout use (core.svg) ----------------------
SQUARE: Ring = ((0, 0), (0, 2), (2, 2), (2, 0))


def test_shared_border_measures_the_stretch_two_polygons_share() -> None:
    beside = ((2, 1), (2, 5), (4, 5), (4, 1))  # shares x = 2 from y = 1 to 2
    assert shared_border(SQUARE, beside) == pytest.approx(1)
    assert shared_border(beside, SQUARE) == pytest.approx(1)
    corner_only = ((2, 2), (2, 3), (3, 3), (3, 2))
    assert shared_border(SQUARE, corner_only) == 0
    apart = ((2.01, 0), (2.01, 2), (3, 2), (3, 0))
    assert shared_border(SQUARE, apart) == 0 and shared_border(SQUARE, apart, 0.02) > 1.9


def test_inside_and_the_largest_boxes_of_an_l_shape() -> None:
    ell = ((0, 0), (0, 4), (1, 4), (1, 1), (4, 1), (4, 0))
    points = np.array([[0.5, 3.5], [3.5, 0.5], [2, 2], [5, 0.5]])
    assert inside(points, ell).tolist() == [True, True, False, False]
    (tall_x, tall_y, tall_w, tall_h), (wide_x, wide_y, wide_w, wide_h) = largest_boxes(
        ell, (0.25, 4.0), 0.05
    )
    assert (tall_w, tall_h) == pytest.approx((0.5, 2), abs=0.06)  # a 1 x 4 arm
    assert (wide_w, wide_h) == pytest.approx((2, 0.5), abs=0.06)
    assert (tall_x, tall_y, wide_x, wide_y) == pytest.approx((0.5, 2, 2, 0.5), abs=0.06)


# ----- the island drawn as its shapes -----------------------------------------------------------
def bordering(rings: list[Ring], tolerance: float, least: float) -> set[frozenset[int]]:
    """The pairs of rings that share a stretch of border at least ``least`` long, their
    edges lying within ``tolerance`` of each other."""
    return {
        frozenset((a, b))
        for a, b in itertools.combinations(range(len(rings)), 2)
        if shared_border(rings[a], rings[b], tolerance) >= least
    }


def neighbour_pairs(boards: tuple[str, ...]) -> set[frozenset[int]]:
    island = island_of(boards)
    return {frozenset((a, b)) for a, near in enumerate(island.neighbours) for b in near}


def coast_pairs(boards: tuple[str, ...]) -> set[frozenset[int]]:
    """(land, board's Ocean as -1 - board) for every coastal land."""
    coastal = island_of(boards).coastal
    return {frozenset((land, -1 - land // 8)) for land, coast in enumerate(coastal) if coast}


def shape_borders(boards: tuple[str, ...]) -> tuple[set[frozenset[int]], set[frozenset[int]]]:
    """The lands' borders with each other and with the Oceans (an Ocean as -1 - board)."""
    shape = picture.island_shape(boards)
    lands = bordering(list(shape.lands), 1e-9, 1e-6)
    regions = [*shape.lands, *shape.oceans]
    number = [*range(len(shape.lands)), *(-1 - b for b in range(len(shape.oceans)))]
    with_ocean = {
        frozenset(number[i] for i in pair)
        for pair in bordering(regions, 1e-9, 1e-6)
        if min(number[i] for i in pair) < 0
    }
    return lands, with_ocean


def test_board_shapes_that_miss_a_side_or_name_an_unknown_point_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rings = list(picture.BOARD_RINGS["A"])
    rings[7] = ("s1", "578")  # A7 lies on side 0 too
    monkeypatch.setitem(picture.BOARD_RINGS, "A", tuple(rings))
    with pytest.raises(BoardError, match="board A: land 7 runs along sides"):
        picture._check_rings()
    rings[7] = ("s1", "s0", "579")
    monkeypatch.setitem(picture.BOARD_RINGS, "A", tuple(rings))
    with pytest.raises(BoardError, match="unknown points"):
        picture._check_rings()


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_lands_share_a_border_exactly_when_they_are_neighbours_in_every_order_of_boards(
    players: int,
) -> None:
    """Every pair of neighbouring lands shares a stretch of border, and no other pair, for the
    boards in every order (the board shapes and the layouts, drawn, against the neighbour
    lists and the joins the rules build); each board's Ocean borders exactly its coastal
    lands."""
    for boards in itertools.permutations(BOARD_ORDER, players):
        lands, with_ocean = shape_borders(boards)
        assert lands == neighbour_pairs(boards), boards
        assert with_ocean == coast_pairs(boards), boards


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_each_point_of_a_board_lies_in_one_region_and_boards_do_not_overlap(players: int) -> None:
    shape = picture.island_shape(BOARD_ORDER[:players])
    corners = np.array([p for ring in shape.outlines for p in ring])
    (left, bottom), (right, top) = corners.min(axis=0), corners.max(axis=0)
    # a grid off the lattice's lines (a point on a border would lie in both regions)
    xs, ys = np.meshgrid(np.arange(left, right, 0.0123), np.arange(bottom, top, 0.0117))
    xs, ys = xs + 0.00318, ys + 0.00271
    points = np.column_stack([xs.ravel(), ys.ravel()])
    regions = sum(inside(points, ring).astype(int) for ring in (*shape.lands, *shape.oceans))
    boards = sum(inside(points, ring).astype(int) for ring in shape.outlines)
    assert boards.max() == 1 and regions.max() == 1
    assert (regions == boards).all()
    assert (boards == 1).mean() > 0.4  # the grid samples the boards, not only the gaps


def drawn_lands(svg: str) -> dict[str, Ring]:
    """The land polygons drawn (those with a terrain), by land name."""
    return {
        e["data-land"]: tuple(
            (float(x), float(y)) for x, y in (p.split(",") for p in e["points"].split())
        )
        for e in elements(svg, "terrain")
    }


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_lands_drawn_border_exactly_their_neighbours(players: int) -> None:
    """Read from the SVG (coordinates rounded to 0.1 px): the land polygons drawn share a
    border of 2 px or more exactly where the lands are neighbours, and each land is drawn
    once, coloured as its terrain."""
    svg = drawn(players, 0, players - 1)
    game = positions(players)[0]
    boards = game.island.boards
    polygons = drawn_lands(svg)
    names = [land_name(land, boards) for land in range(len(game.pieces))]
    assert sorted(polygons) == sorted(names)
    found = bordering([polygons[name] for name in names], 0.15, 2.0)
    assert found == neighbour_pairs(boards)
    fills = {e["data-land"]: e["fill"] for e in elements(svg, "terrain")}
    assert all(
        fills[n] == picture.TERRAIN_FILL[t] for n, t in zip(names, game.island.terrain, strict=True)
    )


def glyph_corners(svg: str) -> list[tuple[str, np.ndarray]]:
    """(land, corners): the corners of every piece and Presence glyph drawn in a land (a
    circle's bounding box), moved as its group (``translate(x,y) scale(s)``, inside the
    island's group) moves it."""
    found = []
    for group in parsed(svg).iter(f"{SVG}g"):
        words = group.attrib["transform"].translate(str.maketrans("(),", "   ")).split()
        offset = np.array([float(words[1]), float(words[2])])
        scale = float(words[4]) if len(words) > 3 else 1.0
        for e in group:
            if "data-piece" not in e.attrib and "data-presence" not in e.attrib:
                continue
            if "cx" in e.attrib:
                x, y, r = (float(e.attrib[key]) for key in ("cx", "cy", "r"))
                corners = np.array([[x - r, y - r], [x + r, y - r], [x + r, y + r], [x - r, y + r]])
            else:
                corners = np.array([p.split(",") for p in e.attrib["points"].split()], float)
            found.append((e.attrib["data-land"], offset + scale * corners))
    return found


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_piece_and_presence_is_drawn_inside_its_land(players: int) -> None:
    for index in range(len(positions(players))):
        svg = drawn(players, index, None)
        lands = drawn_lands(svg)  # in the island group's frame, as the glyphs' groups
        glyphs = glyph_corners(svg)
        assert len(glyphs) == len(elements(svg, "piece")) + len(elements(svg, "presence"))
        for land, corners in glyphs:
            assert inside(corners, lands[land]).all(), (index, land)


def test_a_crowded_island_still_draws_every_glyph_inside_its_land() -> None:
    """Every kind of piece, 3 of each, every Spirit's Presence and a Defend in every land of
    the 4-board island: the smallest lands shrink their glyphs to keep them inside."""
    game = SpiritIslandGame(4, seed=0)
    for land, row in enumerate(game.pieces):
        row[:] = [3] * len(row)
        game.defend[land] = 2
        for seat in range(4):
            game.presence[seat][land] = 2
    svg = picture.draw(game, None)
    lands = drawn_lands(svg)
    glyphs = glyph_corners(svg)
    assert len(glyphs) == 32 * (len(KIND_NAMES) + 4)
    outside = {land for land, corners in glyphs if not inside(corners, lands[land]).all()}
    assert not outside


# ----- the picture on the rules page ------------------------------------------------------------
def test_the_rules_page_shows_what_the_picture_draws_now() -> None:
    """docs/pictures/spirit_island.svg is made by the snippet on docs/rules/spirit_island.md
    (run it again after changing the picture)."""
    root = Path(__file__).resolve().parents[1]
    page = (root / "docs/rules/spirit_island.md").read_text()
    assert "](../pictures/spirit_island.svg)" in page
    game = SpiritIslandGame(2, seed=3)
    bot = heuristic_agent("spirit_island_v1", seed=3)
    for _ in range(120):
        seat = game.current_player
        observation = {"observation": game.observation(seat), "action_mask": game.legal_mask()}
        game.apply(bot.act(observation, f"player_{seat}"))
    shown = (root / "docs/pictures/spirit_island.svg").read_text()
    assert shown == picture.draw(game, 0) + "\n", "stale: rerun the snippet on the rules page"
