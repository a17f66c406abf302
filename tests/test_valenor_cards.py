"""Valenor card data: totals, backs, "+" symbols, Location cards and scenarios."""

from __future__ import annotations

from collections import Counter

import pytest

from tabletop_envs.valenor import spec as S


def test_card_totals_match_the_rulebook() -> None:
    assert sum(S.VALUE[c] for c in S.DEFENSE_IDS) == 210
    assert sum(S.VALUE[c] for c in S.INVADER_IDS) == 216
    assert sum(S.VALUE[c] for c in S.SUPPORT_IDS) == 30
    assert Counter(S.VALUE[c] for c in S.DEFENSE_IDS) == dict.fromkeys(range(1, 15), 2)
    assert Counter(S.VALUE[c] for c in S.SUPPORT_IDS) == {1: 5, 2: 4, 3: 3, 4: 2}
    assert sorted(S.VALUE[c] for c in S.INVADER_IDS) == list(range(6, 22))


def test_invader_backs_are_7_a_4_b_5_c_and_escalate() -> None:
    letters = [S.CARD_LETTER[c] for c in S.INVADER_IDS]
    assert Counter(letters) == {0: 7, 1: 4, 2: 5}
    assert letters == sorted(letters), "A values lie below B values, which lie below C values"


def test_plus_symbol_on_defense_1_to_3_and_support_1() -> None:
    plus = {S.card_name(c) for c in range(S.NUM_PLAYABLE) if S.PLUS[c]}
    assert plus == {"Defense 1+", "Defense 2+", "Defense 3+", "Support 1+"}
    assert sum(S.PLUS[c] for c in S.SUPPORT_IDS) == 5
    assert not any(S.PLUS[c] for c in S.INVADER_IDS)


def test_location_cards_cycle_every_terrain_once_large_once_small() -> None:
    assert sorted(S.SMALL_TERRAIN) == list(range(S.NUM_TERRAINS))
    assert sorted(S.SMALL_TERRAIN.values()) == list(range(S.NUM_TERRAINS))
    assert all(large != small for large, small in S.SMALL_TERRAIN.items())


def test_chapter1_layout_fits_the_rulebook_examples() -> None:
    layout = S.SCENARIOS["chapter1"].layout
    shows = [{large, S.SMALL_TERRAIN[large]} for large in layout]
    on = {t: [i + 1 for i, s in enumerate(shows) if t in s] for t in range(S.NUM_TERRAINS)}
    assert on[S.GRASS] == [2, 4]  # Invader 19 example
    assert on[S.MOUNTAIN] == [3, 5]  # Invader 6 example
    assert S.SMALL_TERRAIN[layout[4]] == S.FOREST  # ... where the 5th loses its Forest
    assert on[S.LAKE] == [1, 3]  # out-of-turn spirit example (1st or 3rd Location)
    assert S.TERRAIN[S.invader_id(19)] == S.GRASS
    assert S.TERRAIN[S.invader_id(6)] == S.MOUNTAIN
    assert S.TERRAIN[S.invader_id(14)] in shows[2]  # Invader 14 lies at the 3rd Location


def test_every_terrain_has_invaders_low_and_high() -> None:
    by_terrain = Counter(S.TERRAIN[c] for c in S.INVADER_IDS)
    assert sorted(by_terrain.values()) == [3, 3, 3, 3, 4]
    for terrain in range(S.NUM_TERRAINS):
        values = [S.VALUE[c] for c in S.INVADER_IDS if S.TERRAIN[c] == terrain]
        assert min(values) <= 10 and max(values) >= 17


@pytest.mark.parametrize("name", sorted(S.SCENARIOS))
def test_scenarios_are_consistent(name: str) -> None:
    scenario = S.SCENARIOS[name]
    assert sorted(scenario.layout) == list(range(S.NUM_TERRAINS))
    assert all(0 <= p < S.NUM_LOCATIONS for p in scenario.devastated)
    assert set(scenario.removed_supports) <= set(S.SUPPORT_IDS)
    assert len(scenario.spirits) == S.NUM_SPIRITS


def test_scenarios_rise_in_difficulty() -> None:
    order = ["chapter1", "scarred_valley", "twin_blight", "iron_tide"]
    devastated = [len(S.SCENARIOS[n].devastated) for n in order]
    supports = [len(S.SCENARIOS[n].support_ids) for n in order]
    assert devastated == sorted(devastated) and supports == sorted(supports, reverse=True)
    assert S.DEFAULT_SCENARIO == "chapter1"


def test_card_names() -> None:
    assert S.card_name(S.invader_id(19)) == "Invader 19 (Grass, C)"
    assert S.card_name(S.defense_ids(9)[0]) == "Defense 9"
    assert S.card_name(S.spirit_card(S.TONI)) == "Toni, the Lake Sprite"
