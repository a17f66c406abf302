"""What a person at the terminal reads: every game's screen (facts and aligned tables in
words) and its "what happened" lines (``narrate``), checked on known positions and along
random games."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tabletop_envs
from tabletop_envs.core.screen import Screen
from tabletop_envs.spirit_island.spec import INVADER_CARDS, KIND_NAMES, TOWN, land_name

SHIPPED = sorted(
    name for name, module in tabletop_envs.GAMES.items() if module.startswith("tabletop_envs.")
)
RAW = re.compile(r"\b\w+_\w+\b|\bNone\b|\bTrue\b|\bFalse\b|^-?\d+ ?-?\d*$|^-$|^$")
"""A field name (``hand_size``, ``deck_top_known``), a Python value, a bare sentinel number."""
SEAT_NAME = re.compile(r"\bplayer_\d\b")


def words_problems(texts: list[str]) -> list[str]:
    """Labels and headers that are not words for people (seat names like player_1 pass)."""
    return [text for text in texts if RAW.search(SEAT_NAME.sub("player", text))]


def cell_problems(screen: Screen) -> list[str]:
    """Fact texts and cells that are Python values or field names (numbers are fine)."""
    cells = [text for _, text in screen.facts]
    cells += [cell for table in screen.tables for row in table.rows for cell in row]
    return [
        cell
        for cell in cells
        if re.search(r"\b\w+_\w+\b|\bNone\b|\bTrue\b|\bFalse\b", SEAT_NAME.sub("player", cell))
        or cell in ("", "-", "-1")
    ]


def random_positions(name: str, players: int, seed: int, every: int = 7):
    """Positions along a random game (one in ``every``, and the end), with the action taken."""
    game = tabletop_envs.game_module(name).Game(players, seed=seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not game.is_terminal:
        action = int(rng.choice(game.legal_actions()))
        if step % every == 0:
            yield game, action
        game.apply(action)
        step += 1
    yield game, None


def player_counts(name: str) -> list[int]:
    game_class = tabletop_envs.game_module(name).Game
    return sorted({game_class.MIN_PLAYERS, max(2, game_class.MIN_PLAYERS), game_class.MAX_PLAYERS})


@pytest.mark.parametrize("name", SHIPPED)
def test_screens_and_narration_are_words_not_field_dumps(name: str) -> None:
    for players in player_counts(name):
        for game, action in random_positions(name, players, seed=players):
            saved = game.state_dict()
            for viewer in (None, *range(players)):
                screen = game.screen(viewer)
                labels = [label for label, _ in screen.facts]
                labels += [t.title for t in screen.tables]
                labels += [c for t in screen.tables for c in t.columns]
                assert not words_problems(labels), (name, words_problems(labels))
                assert not cell_problems(screen), (name, cell_problems(screen))
                assert screen.facts[-1][0] == "To decide"
                assert screen.plain()
                if viewer is not None and action is not None:
                    told = game.narrate(action, viewer)
                    assert not [line for line in told if RAW.search(SEAT_NAME.sub("p", line))]
            assert game.state_dict() == saved, "screen and narrate leave the game as it was"


@pytest.mark.parametrize("name", SHIPPED)
def test_a_seat_screen_shows_nothing_the_seat_cannot_know(name: str) -> None:
    """Redrawing everything the seat cannot see leaves its screen unchanged."""
    rng = np.random.default_rng(0)
    for game, _ in random_positions(name, 3 if name != "spirit_island_v1" else 2, seed=1):
        for viewer in range(game.num_players):
            redrawn = game.resample_hidden(viewer, rng)
            assert redrawn.screen(viewer) == game.screen(viewer)


def test_a_known_vaalbara_position_reads_in_words() -> None:
    game = tabletop_envs.game_module("vaalbara_v1").Game(4, seed=3)
    text = game.screen(0).plain()
    for line in (
        "Vaalbara, round 1 of 9: Blue (you)",
        "Your hand          Oracle (4), Falconer (6), Tracker (7), Midwife (8), Rider (9)",
        "Your points        2 VP (the others keep theirs face down)",
        "Omens, best first  Yellow, Blue, Red, Purple",
        "To decide          Blue (you): choose a character, face down",
        "  row 1 (taken this round)  Meadow    Meadow  Mountain  River",
        "  Purple      hidden  choosing  5 cards",
    ):
        assert line in text, line
    for raw in ("hand_size", "decider", "deck_top_known", "None", "-1"):
        assert raw not in text


def test_every_spirit_island_decision_is_named_in_words() -> None:
    from tabletop_envs.spirit_island.spec import PURPOSE_NAMES
    from tabletop_envs.spirit_island.text import TO_DECIDE

    assert set(PURPOSE_NAMES) <= set(TO_DECIDE), set(PURPOSE_NAMES) - set(TO_DECIDE)
    assert not [words for words in TO_DECIDE.values() if "_" in words]


def test_spirit_island_shows_one_land_a_line() -> None:
    game = tabletop_envs.game_module("spirit_island_v1").Game(2, seed=3)
    lands = next(t for t in game.screen(0).tables if t.title == "Lands")
    assert [row[0] for row in lands.rows] == [land_name(land) for land in range(16)]
    assert lands.rows[1] == (
        "A2",
        "Wetland, coastal",
        "1 City",
        "1 Dahan",
        "none",
        "none",
        "none",
    )
    assert "  A5    Wetland            none" in game.screen(0).plain()


def first_invader_phase(seed: int):
    """(game before, action, lines) for the first action of a seeded random 2-player game
    that sets off an Invader Phase."""
    game = tabletop_envs.game_module("spirit_island_v1").Game(2, seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        action = int(rng.choice(game.legal_actions()))
        lines = game.narrate(action, 0)
        if any(line.startswith("Build") for line in lines):
            return game, action, lines
        game.apply(action)


def test_the_invader_phase_is_told_step_by_step_as_it_happened() -> None:
    """Each Invader action is a line naming its card and, land by land, what changed; the
    Build and Explore lines agree with the pieces on the island before and after."""
    game, action, lines = first_invader_phase(3)
    order = [re.match(r"\w+", line).group() for line in lines if not line.startswith(" ")]
    assert order == ["Ravage", "Build", "Explore", "Invader"], lines
    build_card, explore_card = game.invader_slots[1], game.invader_deck[0]
    after = game.clone()
    after.apply(action)
    build = next(line for line in lines if line.startswith("Build"))
    assert build.startswith(f"Build in the {INVADER_CARDS[build_card].name} lands: ")
    for land in range(len(game.pieces)):
        grew = after.pieces[land][TOWN] - game.pieces[land][TOWN]
        named = f"{land_name(land)} +1 {KIND_NAMES[TOWN]}"
        assert (named in build) == (grew == 1), (land, build)
    explore = next(line for line in lines if line.startswith("Explore"))
    assert f"Explore in the {INVADER_CARDS[explore_card].name} lands (card revealed)" in explore
    # later turns ravage, and a ravage adds Blight where the Invaders deal 2 Damage or more
    game.apply(action)
    rng = np.random.default_rng(1)
    ravaged = []
    while not game.is_terminal and not ravaged:
        action = int(rng.choice(game.legal_actions()))
        ravaged = [line for line in game.narrate(action, 0) if line.startswith("  Ravage in ")]
        game.apply(action)
    assert ravaged and any("+1 Blight" in line for line in ravaged), ravaged


def test_each_game_tells_what_its_moves_set_off() -> None:
    vaalbara = tabletop_envs.game_module("vaalbara_v1").Game(2, seed=3)
    vaalbara.apply(vaalbara.legal_actions()[0])
    reveal = vaalbara.narrate(vaalbara.legal_actions()[0], 0)
    assert reveal[0] == (
        "Characters revealed: Blue Tracker (7), Purple Oracle (4); turn order Purple, Blue"
    )
    wars = tabletop_envs.game_module("valiant_wars_v3").Game(2, seed=3)
    told = []
    while not any("turns over" in line or "turn over" in line for line in told):
        action = wars.legal_actions()[0]
        told = wars.narrate(action, 0)
        wars.apply(action)
    assert re.search(r"(You turn|player_1 turns) over \w", " ".join(told)), told
