"""The replay viewer without a browser: every game with a picture (the others join when they
register one) draws a seat's picture from what the seat knows, and the page and the
``tabletop-view`` command do what docs/viewer.md says."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
from toygame.rules import HighCard

import tabletop_envs
from tabletop_envs.core.game import GameCore
from tabletop_envs.core.replay import Replay, record
from tabletop_envs.vaalbara.spec import Decision as VaalbaraDecision
from tabletop_envs.viewer import page_html, picture_module, story_of, unpack_story
from tabletop_envs.viewer.cli import main
from tabletop_envs.viewer.story import captions_at, seat_names


def game_class(name: str) -> type[GameCore]:
    return tabletop_envs.game_module(name).Game


PICTURED = sorted(name for name in tabletop_envs.GAMES if game_class(name).PICTURE is not None)
CASES = [
    (name, players)
    for name in PICTURED
    for players in sorted({game_class(name).MIN_PLAYERS, game_class(name).MAX_PLAYERS})
]
IDS = [f"{name}-{players}p" for name, players in CASES]
MAX_STEPS = 150
"""Steps of the seeded games checked at every step (a whole Vaalbara game; quick)."""


def random_replay(name: str, players: int, seed: int, max_steps: int | None = None) -> Replay:
    """A seeded game between random players, as a replay."""
    game = game_class(name)(players, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not game.is_terminal and (max_steps is None or len(actions) < max_steps):
        actions.append(int(rng.choice(game.legal_actions())))
        game.apply(actions[-1])
    return record(game, seed, actions)


def cards(svg: str) -> list[dict[str, str]]:
    """The data attributes of every card the picture draws (parsing it as XML)."""
    root = ElementTree.fromstring(svg)
    return [
        {key[5:]: value for key, value in element.attrib.items() if key.startswith("data-")}
        for element in root.iter()
        if "data-card" in element.attrib
    ]


def leaks(everything: str, seat_pictures: list[str]) -> list[str]:
    """Secret faces of the everything picture (``seen-by``) that a seat's picture shows in
    the same slot although the seat is not among those who see it."""
    shown = [{card.get("slot"): card["card"] for card in cards(p)} for p in seat_pictures]
    found = []
    for secret in (card for card in cards(everything) if "seen-by" in card):
        allowed = {int(seat) for seat in secret["seen-by"].split()}
        for seat, faces in enumerate(shown):
            if seat not in allowed and faces.get(secret["slot"]) == secret["card"]:
                found.append(f"seat {seat} sees {secret['card']} at {secret['slot']}")
    return found


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_a_seats_picture_does_not_change_when_its_hidden_state_is_redrawn(
    name: str, players: int
) -> None:
    """At every step of a seeded game, each seat's picture is the same for the real state and
    a world redrawn from the seat's information, and the picture is well-formed XML; the
    everything picture does change (so the check has hidden things to see)."""
    states = random_replay(name, players, seed=7, max_steps=MAX_STEPS).states()
    rng = np.random.default_rng(0)
    draw = game_class(name).PICTURE.draw
    worlds_differ = 0
    for step, game in enumerate(states):
        everything = draw(game, None)
        ElementTree.fromstring(everything)
        for seat in range(players):
            picture = draw(game, seat)
            ElementTree.fromstring(picture)
            world = game.resample_hidden(seat, rng)
            assert draw(world, seat) == picture, f"step {step}: seat {seat}'s picture changed"
            worlds_differ += seat == step % players and draw(world, None) != everything
    assert worlds_differ > 0, "no step had hidden state to redraw"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_secret_faces_are_marked_and_no_other_seat_sees_them(name: str, players: int) -> None:
    states = random_replay(name, players, seed=8, max_steps=MAX_STEPS).states()
    draw = game_class(name).PICTURE.draw
    secrets = 0
    for step, game in enumerate(states):
        everything = draw(game, None)
        secrets += len([card for card in cards(everything) if "seen-by" in card])
        seats = [draw(game, seat) for seat in range(players)]
        assert not leaks(everything, seats), f"step {step}"
    assert secrets > 0, "the everything pictures mark no secret face (seen_by)"


def test_the_leak_check_finds_a_face_drawn_in_another_seats_view() -> None:
    """The check above can fail: a seat's picture that shows another's hidden card is caught."""
    game = HighCard(3, seed=1)
    draw = HighCard.PICTURE.draw
    seats = [draw(game, seat) for seat in range(3)]
    seats[1] = draw(game, None)  # seat 1 shown everything
    assert leaks(draw(game, None), seats) == [
        "seat 1 sees " + str(game.cards[0]) + " at hand/0",
        "seat 1 sees " + str(game.cards[2]) + " at hand/2",
    ]


def test_the_page_has_one_frame_per_step_and_view() -> None:
    replay = random_replay("vaalbara", 3, seed=2, max_steps=12)
    story = story_of(replay)
    page = page_html(story)
    data = unpack_story(page)
    assert len(data["frames"]) == len(data["captions"]) == 13
    assert data["views"] == ["everything", "player_0", "player_1", "player_2"]
    assert all(len(row) == 4 for row in data["frames"] + data["captions"])
    assert data["pictures"] == story.pictures
    states = replay.states()
    assert data["pictures"][data["frames"][5][2]] == game_class("vaalbara").PICTURE.draw(
        states[5], 1
    )
    assert not re.search(r"(src|href)=|https?://(?!www\.w3\.org/2000/svg)", page), "external"


def test_captions_name_a_secret_pick_only_to_its_player_and_everything() -> None:
    replay = random_replay("vaalbara", 3, seed=2, max_steps=12)
    captions = story_of(replay).captions
    pick = replay.states()[0].action_to_str(replay.actions[0])
    assert captions[1] == [
        f"player_0: {pick}",
        f"player_0: {pick}",
        "player_0: a choice hidden from you",
        "player_0: a choice hidden from you",
    ]
    taken = next(step for step in range(1, 13) if "take row 1" in captions[step][0])
    assert len(set(captions[taken])) == 1, "taking a land is public"


def test_a_forced_hidden_answer_reads_like_a_free_one() -> None:
    """A Fighter answer stays hidden until the poll's last answer reveals them all; a seat
    with one legal answer ('keep hidden') is not named to the others either, or the caption
    would tell them it holds no Fighter."""
    checked = 0
    for seed in range(40):
        replay = random_replay("vaalbara", 4, seed=seed)
        states = replay.states()
        names = seat_names(replay)
        for step, game in enumerate(states[:-1]):
            if game.pending_kind() != VaalbaraDecision.FIGHTER or len(game.legal_actions()) > 1:
                continue
            if len(game.fighter_answers) == len(game.fighter_poll) - 1:
                continue  # the last answer reveals the poll: public
            other = (game.current_player + 1) % 4
            words = captions_at(states, replay.actions, step + 1, names)[1 + other]
            assert words.endswith("a choice hidden from you"), words
            checked += 1
            if checked == 3:
                return
    pytest.fail("fewer than 3 forced Fighter answers in 40 seeded games")


def test_a_game_without_a_picture_is_named(monkeypatch) -> None:
    monkeypatch.setattr(HighCard, "PICTURE", None)
    with pytest.raises(ValueError, match=r"highcard has no picture .*games with one: .*vaalbara"):
        picture_module(HighCard)


# ----- the command ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def replay_file(tmp_path_factory) -> tuple[Replay, str]:
    replay = random_replay("highcard", 3, seed=4)
    path = tmp_path_factory.mktemp("replays") / "highcard.json"
    replay.save(path)
    return replay, str(path)


def test_the_command_writes_one_picture(tmp_path, replay_file) -> None:
    replay, path = replay_file
    out = tmp_path / "table.svg"
    assert main([path, "--svg", str(out), "--step", "2", "--seat", "1"]) == 0
    assert out.read_text() == HighCard.PICTURE.draw(replay.states()[2], 1) + "\n"
    assert main([path, "--svg", str(out)]) == 0
    assert out.read_text() == HighCard.PICTURE.draw(replay.states()[-1], None) + "\n"


def test_the_command_writes_the_page(tmp_path, replay_file, capsys) -> None:
    replay, path = replay_file
    out = tmp_path / "replay.html"
    assert main([path, "--out", str(out)]) == 0
    assert len(unpack_story(out.read_text())["frames"]) == len(replay.actions) + 1
    assert f"{len(replay.actions) + 1} steps, 4 views" in capsys.readouterr().out


def test_a_page_of_one_seat_holds_that_seats_view_alone(tmp_path, replay_file) -> None:
    replay, path = replay_file
    out = tmp_path / "seat.html"
    assert main([path, "--out", str(out), "--seat", "1"]) == 0
    page = out.read_text()
    data = unpack_story(page)
    whole = story_of(replay)
    assert data["views"] == ["player_1"] and str(replay.seed) not in data["title"]
    assert data["captions"] == [row[2:3] for row in whole.captions]
    for step, row in enumerate(data["frames"]):
        assert data["pictures"][row[0]] == whole.pictures[whole.frames[step][2]]
    faces = {(card.get("slot"), card["card"]) for p in data["pictures"] for card in cards(p)}
    assert ("hand/0", str(replay.states()[0].cards[0])) not in faces


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--svg", "OUT", "--step", "7"], r"--step 7 is not a step of this replay: give 0 .* to 6"),
        (["--svg", "OUT", "--step", "-1"], r"--step -1 is not a step .* give 0 \(the deal\) to 6"),
        (
            ["--svg", "OUT", "--seat", "3"],
            r"--seat 3 is not a seat of this 3-player game: .*0 to 2",
        ),
        (["--svg", "OUT", "--seat", "x"], r"--seat x is not a seat .* give 0 to 2, or all"),
        (["--out", "OUT", "--step", "1"], r"--step chooses one picture: use it with --svg"),
        (["--out", "MISSING/x.html"], r"the folder .*MISSING does not exist"),
    ],
)
def test_the_command_names_a_bad_step_seat_or_output(
    tmp_path, replay_file, capsys, arguments, message
) -> None:
    _, path = replay_file
    arguments = [argument.replace("OUT", str(tmp_path / "out")) for argument in arguments]
    assert main([path, *arguments]) == 2
    error = capsys.readouterr().err
    assert re.search(message, error), error
    assert error.startswith("tabletop-view: error: ") and error.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_the_command_names_a_bad_file_or_a_game_without_a_picture(
    tmp_path, replay_file, capsys, monkeypatch
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = str(tmp_path / "x.svg")
    assert main([str(bad), "--svg", out]) == 2
    assert f"{bad}: not a replay: not JSON" in capsys.readouterr().err
    assert main([str(tmp_path / "none.json"), "--svg", out]) == 2
    assert "none.json: cannot read it (No such file or directory)" in capsys.readouterr().err
    monkeypatch.setattr(HighCard, "PICTURE", None)
    assert main([replay_file[1], "--svg", out]) == 2
    assert "highcard has no picture for the viewer" in capsys.readouterr().err
