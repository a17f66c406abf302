"""The published decks' frames against the source table in ``docs/rules/spirit_island.md``.

The docs table is the one written from the sources (oberien's catalogue, rettigcd's engine,
the wiki data); this test reads it and checks every card's cost, speed, range, target and
Elements in ``spirit_island/published.py`` against it, so neither can drift from the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabletop_envs.spirit_island import published, spec
from tabletop_envs.spirit_island.rules import SpiritIslandGame

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules" / "spirit_island.md"
HEADING = "### The published decks"
TERRAIN_NAMES = {"M": "Mountain", "W": "Wetland", "J": "Jungle", "S": "Sands"}
CONDITION_NAMES = {
    "dahan": "Dahan",
    "no_blight": "no Blight",
    "blight": "Blight",
    "invaders": "Invaders",
    "no_invaders": "no Invaders",
    "coastal": "Coastal",
}
CARDS = [("Minor", c) for c in published.MINOR_CARDS] + [
    ("Major", c) for c in published.MAJOR_CARDS
]


def docs_table() -> dict[str, list[str]]:
    """The rows of the Power card table in the docs section, by card name."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :]
    rows: dict[str, list[str]] = {}
    started = False
    for line in section.splitlines():
        if line.startswith("| Card |"):
            started = True
            continue
        if started and line.startswith("|---"):
            continue
        if started and not line.startswith("|"):
            break
        if started:
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return rows


def range_cell(card: dict[str, Any]) -> str:
    if "range" not in card:
        return "-"
    value = card["range"]
    sacred = isinstance(value, tuple)
    text = "Sacred Site" if sacred else "Presence"
    if "source_terrain" in card:
        text += " in " + TERRAIN_NAMES[card["source_terrain"]]
    text += f" {value[1] if sacred else value}"
    if "extend" in card:
        needs, distance = card["extend"]
        words = " ".join(f"{n} {element.title()}" for element, n in needs.items())
        text += f" ({words}: {distance})"
    return text


def target_cell(card: dict[str, Any]) -> str:
    target = card["target"]
    if target in ("spirit", "other"):
        return {"spirit": "any Spirit", "other": "another Spirit"}[target]
    if not target:
        return "any land"
    words = []
    for condition in target:
        if condition[0] == "terrain":
            words.append(" or ".join(TERRAIN_NAMES[t] for t in condition[1:]))
        else:
            words.append(CONDITION_NAMES[condition[0]])
    return ", ".join(words)


def frame_cells(deck: str, card: dict[str, Any]) -> list[str]:
    elements = ", ".join(e.title() for e in card["elements"]) or "none"
    return [
        deck,
        str(card["cost"]),
        card["speed"].title(),
        range_cell(card),
        target_cell(card),
        elements,
    ]


def test_the_decks_have_the_published_sizes() -> None:
    names = [card["name"] for _, card in CARDS]
    assert len(published.MINOR_CARDS) == 36 and len(published.MAJOR_CARDS) == 22
    assert len(published.FEAR_CARDS) == 15
    assert len(set(names)) == len(names)
    assert len({name for name, _ in published.FEAR_CARDS}) == 15


def test_the_docs_table_lists_every_card_once() -> None:
    assert sorted(docs_table()) == sorted(card["name"] for _, card in CARDS)


@pytest.mark.parametrize("deck,card", CARDS, ids=[card["name"] for _, card in CARDS])
def test_each_frame_matches_the_docs_table(deck: str, card: dict[str, Any]) -> None:
    assert frame_cells(deck, card) == docs_table()[card["name"]]


@pytest.mark.parametrize("deck,card", CARDS, ids=[card["name"] for _, card in CARDS])
def test_each_frame_is_a_valid_power(deck: str, card: dict[str, Any]) -> None:
    """The frame (without its effect) passes the same checks as the game's cards."""
    frame = {k: v for k, v in card.items() if k in (*spec.CARD_FIELDS, *spec.FRAME_EXTRAS)}
    power = spec.load_power({**frame, "effect": ()}, spec.MINOR if deck == "Minor" else spec.MAJOR)
    assert power.cost == card["cost"]
    assert sum(power.elements) == len(card["elements"]) == len(set(card["elements"]))
    assert ("unexpressed" in card) == (card["effect"] is None)


def test_the_game_deals_the_published_decks() -> None:
    """The Minor deck is the 36 published Minors, the Major deck every published Major the
    language can say (19: the 3 others each name their reason and are listed in the docs),
    each card as published (its frame and its effect), and every Fear level has its effect."""
    dealt = {spec.CARDS[c].name: spec.CARDS[c] for c in (*spec.MINORS, *spec.MAJORS)}
    minors = [spec.CARDS[c].name for c in spec.MINORS]
    majors = [spec.CARDS[c].name for c in spec.MAJORS]
    assert minors == [card["name"] for card in published.MINOR_CARDS]
    assert majors == [c["name"] for c in published.MAJOR_CARDS if c["effect"] is not None]
    left_out = [c["name"] for c in published.MAJOR_CARDS if c["effect"] is None]
    assert len(majors) == 19 and len(left_out) == 3
    page = DOCS.read_text()
    for name in left_out:
        assert f"- {name}:" in page and "*Not expressible*" in page.split(f"- {name}:")[1][:600]
    for name, power in dealt.items():
        assert power.effect == spec.compile_effect(published.POWER_BY_NAME[name]["effect"], name)
        assert power.cost == published.POWER_BY_NAME[name]["cost"]
    for name, levels in published.FEAR_CARDS:
        assert len(levels) == 3 and all(effect is not None for effect in levels), name


def frame_power(name: str) -> spec.Power:
    card = published.POWER_BY_NAME[name]
    frame = {k: v for k, v in card.items() if k in (*spec.CARD_FIELDS, *spec.FRAME_EXTRAS)}
    return spec.load_power({**frame, "effect": ()}, spec.MAJOR)


@pytest.mark.parametrize(
    "name,elements,lands",
    [
        ("The Jungle Hungers", {}, ["A5", "A6", "A7", "A8"]),  # from A8 (a Jungle) only
        ("Poisoned Land", {}, ["A1", "A4", "A5", "A6", "A7", "A8"]),  # from both lands
        ("Sap the Strength of Multitudes", {}, ["A5", "A8"]),  # range 0
        ("Sap the Strength of Multitudes", {"air": 1}, ["A1", "A4", "A5", "A6", "A7", "A8"]),
        ("Talons of Lightning", {"fire": 3, "air": 2}, ["A1", "A4", "A5", "A6", "A7", "A8"]),
        ("Talons of Lightning", {"fire": 3, "air": 3}, [f"A{n}" for n in range(1, 9)]),
    ],
)
def test_a_frames_source_terrain_and_elements_set_its_reach(
    name: str, elements: dict[str, int], lands: list[str]
) -> None:
    """River with Presence in A5 (a Wetland) and A8 (a Jungle), alone on board A."""
    game = SpiritIslandGame(1, seed=0, spirits="river")
    game.presence[0] = [0] * len(game.lands)
    game.presence[0][4], game.presence[0][7] = 1, 2
    for element, count in elements.items():
        game.elements[0][spec.ELEMENT_INDEX[element]] = count
    reached = [spec.land_name(x) for x in game.reach(0, frame_power(name))]
    assert reached == lands
