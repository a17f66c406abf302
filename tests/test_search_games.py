"""Search over hidden information in Vaalbara, Valiant Wars, Valenor, Spirit Island and the
toy game.

- ``resample_hidden`` depends on the seat's view alone: two states that look the same to a
  seat give the same world for the same generator, so a search bot's move cannot depend on
  anything else (checked directly, and on the bots' moves).
- The strict sampler check: in small positions the laws of the hidden parts are enumerated
  (every arrangement of an unseen pile is equally likely; a hidden pick or Fighter answer
  uniform among the legal ones) and ``resample_hidden``'s frequencies are compared with them
  by a chi-square test at a fixed seed; the same test must reject a deliberately biased
  sampler (one that keeps the true hidden state a quarter of the time).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations, permutations

import numpy as np
import pytest
from tabletop_envs.agents.search import InformationSet, ISMCTSAgent, PIMCAgent
from toygame.rules import HighCard

from tabletop_envs.core.game import GameCore
from tabletop_envs.spirit_island.rules import (
    DRAWN_BLIGHT_CARDS,
    FEAR_CARDS,
    INVADER_CARDS,
    INVADER_STAGE_CARDS,
    SpiritIslandGame,
)
from tabletop_envs.vaalbara.rules import VaalbaraGame
from tabletop_envs.vaalbara.spec import EMPTY, KIND_OF, Decision, bit, cards_in
from tabletop_envs.valenor import spec as valenor_spec
from tabletop_envs.valenor.rules import ValenorGame
from tabletop_envs.valiant_wars.rules import ValiantWarsGame

GAMES = {
    "vaalbara": VaalbaraGame,
    "valiant_wars": ValiantWarsGame,
    "valenor": ValenorGame,
    "spirit_island": SpiritIslandGame,
    "highcard": HighCard,
}
OPTIONS = {"spirit_island": {"shaped_reward": True}}
"""Game options for the move test: random rollouts of Spirit Island nearly always lose, so
its plain returns (-1) would leave a search bot's move blind to the world it searched."""
Sampler = Callable[[GameCore, int, np.random.Generator], GameCore]
Law = dict[object, float]


def positions(
    cls: type[GameCore], players: int, seed: int, every: int, **options: object
) -> Iterator[GameCore]:
    """States of a seeded random game, one every ``every`` decisions."""
    game = cls(players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    step = 0
    while not game.is_terminal:
        if step % every == 0:
            yield game.clone()
        game.apply(int(rng.choice(game.legal_actions())))
        step += 1


# ----- the view alone -------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 4])
def test_the_world_depends_only_on_the_seats_view(name: str, players: int) -> None:
    """Redraw the hidden state, then draw a world from each: the same generator, the same world."""
    cls = GAMES[name]
    players = min(players, cls.MAX_PLAYERS)
    changed = 0
    for index, game in enumerate(positions(cls, players, seed=11, every=9)):
        for seat in range(players):
            other = game.resample_hidden(seat, np.random.default_rng([index, seat]))
            changed += other.state_dict() != game.state_dict()
            first = game.resample_hidden(seat, np.random.default_rng(99)).state_dict()
            again = other.resample_hidden(seat, np.random.default_rng(99)).state_dict()
            assert first == again, f"{name}: seat {seat}'s world depends on more than its view"
    assert changed > index, "the redraws hardly ever changed anything"


def choose(bot, game: GameCore) -> int:
    bot.see(InformationSet(game, game.current_player))
    observation = {"observation": None, "action_mask": game.legal_mask()}
    return bot.act(observation, "player")


@pytest.mark.parametrize("name", ["vaalbara", "valiant_wars", "valenor", "spirit_island"])
@pytest.mark.parametrize(
    "make_bot",
    [
        lambda seed: ISMCTSAgent(seed=seed, iterations=40),
        lambda seed: PIMCAgent(seed=seed, worlds=2, rollouts=1),
    ],
    ids=["ismcts", "pimc"],
)
def test_the_move_depends_only_on_the_seats_view(name: str, make_bot) -> None:
    """Hidden state redrawn with the same view: the same bot seed gives the same move."""
    tried = 0
    games = positions(GAMES[name], 2, seed=5, every=7, **OPTIONS.get(name, {}))
    for index, game in enumerate(games):
        if len(game.legal_actions()) < 2:
            continue
        seat = game.current_player
        redrawn = game.resample_hidden(seat, np.random.default_rng(index))
        assert choose(make_bot(index), game) == choose(make_bot(index), redrawn)
        tried += 1
        if tried == 3:
            return
    pytest.fail("too few positions with a choice")


# ----- the strict sampler check ---------------------------------------------------------------
def wilson_hilferty_p(statistic: float, dof: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty; ample at these levels)."""
    if dof <= 0:
        return 1.0
    z = ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi_square_p(counts: Counter, law: Law) -> float:
    """The p-value of ``counts`` against ``law``; 0 if a world outside the law was drawn."""
    if set(counts) - set(law):
        return 0.0
    total = sum(counts.values())
    statistic = sum((counts[world] - total * p) ** 2 / (total * p) for world, p in law.items())
    return wilson_hilferty_p(statistic, len(law) - 1)


def top_law(pile: list[int], k: int) -> Law:
    """The law of the top ``k`` cards (last first) of a uniformly shuffled ``pile``."""
    law: Law = Counter()
    weight = 1 / math.perm(len(pile), min(k, len(pile)))
    for sequence in permutations(range(len(pile)), min(k, len(pile))):
        law[tuple(pile[i] for i in sequence)] += weight
    return dict(law)


def top(pile: list[int], k: int) -> tuple[int, ...]:
    return tuple(pile[::-1][:k])


def product_law(*laws: Law) -> Law:
    joint: Law = {(): 1.0}
    for law in laws:
        joint = {(*a, b): p * q for a, p in joint.items() for b, q in law.items()}
    return joint


def vaalbara_position(pick_first: bool) -> tuple[VaalbaraGame, int]:
    """2 players at the start of round 6 (7 land cards in the deck, 2 characters in each
    clan deck); with ``pick_first`` seat 0 has picked in secret and seat 1 is to pick."""
    game = VaalbaraGame(2, seed=3)
    rng = np.random.default_rng(3)
    while game.round < 5:
        game.apply(int(rng.choice(game.legal_actions())))
    if pick_first:
        game.apply(game.legal_actions()[0])
    return game, game.current_player


def vaalbara_laws(game: VaalbaraGame, seat: int) -> dict[str, tuple[Callable, Law]]:
    """The hidden parts of a 2-player Vaalbara start-of-round position, each with its law."""
    other = 1 - seat
    held = game.hands[other] | (bit(game.picks[other]) if game.picks[other] != EMPTY else 0)
    known = game.known_in_hand[other]
    free = sorted(c for c in cards_in(held) + game.clan_decks[other] if not known & bit(c))
    size = (held & ~known).bit_count()
    hidden_pick = game.picks[other] != EMPTY
    opponent: Law = Counter()
    for chosen in combinations(free, size):
        rest = [c for c in free if c not in chosen]
        hand = known | sum(bit(c) for c in chosen)
        for order, p in top_law(rest, len(rest)).items():
            picks = cards_in(hand) if hidden_pick else [EMPTY]
            for pick in picks:
                key = (hand & ~bit(pick) if pick != EMPTY else hand, order, pick)
                opponent[key] += p / math.comb(len(free), size) / len(picks)
    unseen = [i for i, seen in enumerate(game.deck_known) if not seen]
    kinds = [KIND_OF[game.land_deck[i]] for i in unseen]
    top_back = game.back_of[game.land_deck[-1]]
    backs = [b for b in range(len(game.back_of)) if b != top_back]
    return {
        "own clan deck": (
            lambda w: tuple(w.clan_decks[seat]),
            top_law(sorted(game.clan_decks[seat]), 12),
        ),
        "opponent's hand, deck and pick": (
            lambda w: (w.hands[other], tuple(w.clan_decks[other][::-1]), w.picks[other]),
            dict(opponent),
        ),
        "land kinds at the top two unseen places": (
            lambda w: tuple(KIND_OF[w.land_deck[i]] for i in unseen[::-1][:2]),
            top_law(kinds, 2),
        ),
        "Omen back of the second land card": (
            lambda w: w.back_of[w.land_deck[-2]],
            {b: 1 / len(backs) for b in backs},
        ),
    }


def valiant_wars_position() -> tuple[ValiantWarsGame, int]:
    """A 2-player game some way in, at a reveal step after the other seat chose in secret."""
    game = ValiantWarsGame(2, seed=1)
    rng = np.random.default_rng(1)
    while not (game.decisions_made > 60 and _waiting_on_a_reveal(game)):
        game.apply(int(rng.choice(game.legal_actions())))
    return game, game.current_player


def _waiting_on_a_reveal(game: ValiantWarsGame) -> bool:
    seat = game.current_player
    return any(s != seat and game.choices[s] != EMPTY for s in game.choosers)


def valiant_wars_laws(game: ValiantWarsGame, seat: int) -> dict[str, tuple[Callable, Law]]:
    other = 1 - seat
    unseen = len(game.decks[seat]) - game.known_top[seat]
    mine, theirs = sorted(game.decks[seat][:unseen]), sorted(game.decks[other])
    below = sorted(game.location_deck[:-1])
    guessed = [s for s in game.choosers if s != seat and game.choices[s] != EMPTY]
    return {
        "own deck below the Oracle's look": (
            lambda w: top(w.decks[seat][:unseen], 2),
            top_law(mine, 2),
        ),
        "opponent's deck and hidden choice": (
            lambda w: (top(w.decks[other], 2), tuple(w.choices[s] for s in guessed)),
            {
                (a, b): p * q
                for a, p in top_law(theirs, 2).items()
                for b, q in product_law(*[{0: 0.5, 1: 0.5}] * len(guessed)).items()
            },
        ),
        "Champion deck": (lambda w: top(w.champion_deck, 2), top_law(game.champion_deck, 2)),
        "Locations below the top": (lambda w: top(w.location_deck[:-1], 2), top_law(below, 2)),
    }


def valenor_position() -> tuple[ValenorGame, int]:
    """2 players, 20 random decisions in: the other hand, the unknown Invaders and both decks
    are hidden."""
    game = ValenorGame(2, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(20):
        game.apply(int(rng.choice(game.legal_actions())))
    return game, game.current_player


Place = tuple[Callable[[GameCore], list[int]], int]


def valenor_laws(game: ValenorGame, seat: int) -> dict[str, tuple[Callable, Law]]:
    """Per card back, the faces at its first two hidden places: any arrangement of the
    hidden faces with that back over its places is equally likely (Spirit cards stay)."""
    places: dict[int, list[Place]] = {}

    def add(pile: Callable[[GameCore], list[int]], indices: range) -> None:
        for index in indices:
            places.setdefault(valenor_spec.BACK[pile(game)[index]], []).append((pile, index))

    for other in range(game.num_players):
        if other != seat:
            add(lambda w, o=other: w.hands[o], range(len(game.hands[other])))
    add(lambda w: w.invader_deck, range(game.known_bottom, len(game.invader_deck)))
    add(lambda w: w.defense_deck, range(len(game.defense_deck)))
    add(lambda w: w.support_deck, range(len(game.support_deck)))
    laws = {}
    for back, where in places.items():
        faces = sorted(pile(game)[index] for pile, index in where)
        if back != valenor_spec.BACK_SPIRIT and len(faces) > 1:
            laws[f"back {back}"] = (_faces_at(where[:2]), top_law(faces, 2))
    return laws


def _faces_at(where: list[Place]) -> Callable[[GameCore], tuple[int, ...]]:
    return lambda w: tuple(pile(w)[index] for pile, index in where)


def spirit_island_position() -> tuple[SpiritIslandGame, int]:
    """2 players, turn 2: seat 0 drew four Minor Powers (hidden from seat 1), the Blight card
    is still face down, three Stage I Invader cards have been seen."""
    game = SpiritIslandGame(2, seed=2)
    rng = np.random.default_rng(2)
    while not (game.drawn and game.invader_discard):
        game.apply(int(rng.choice(game.legal_actions())))
    return game, 1 - game.drawn_by


def spirit_island_laws(game: SpiritIslandGame, seat: int) -> dict[str, tuple[Callable, Law]]:
    """Each unseen pool in a uniformly random order: the Invader cards still to come of each
    stage, the Fear cards not resolved, the Blight card, the Minor Powers with the cards
    another Spirit drew (drawn first, then the deck), the Major Powers."""
    seen = {*game.invader_slots, *game.invader_discard}
    laws: dict[str, tuple[Callable, Law]] = {}
    for stage in (1, 2, 3):
        pool = [c for c in INVADER_STAGE_CARDS[stage] if c not in seen]
        count = sum(INVADER_CARDS[c].stage == stage for c in game.invader_deck)
        if count:
            laws[f"stage {stage} Invaders"] = (
                lambda w, s=stage: tuple(c for c in w.invader_deck if INVADER_CARDS[c].stage == s)[
                    :2
                ],
                top_law(pool, min(count, 2)),
            )
    fear = [c for c in range(len(FEAR_CARDS)) if c not in game.fear_discard]
    laws["Fear cards"] = (lambda w: (*w.fear_earned, *w.fear_deck)[:2], top_law(fear, 2))
    laws["Blight card"] = (
        lambda w: w.blight_card,
        dict.fromkeys(DRAWN_BLIGHT_CARDS, 1 / len(DRAWN_BLIGHT_CARDS)),
    )
    minors = [*game.drawn, *game.minor_deck]
    laws["Minor Powers"] = (lambda w: (*w.drawn, *w.minor_deck)[:2], top_law(minors, 2))
    laws["Major Powers"] = (lambda w: tuple(w.major_deck[:2]), top_law(game.major_deck, 2))
    return laws


def sampler_p_values(
    game: GameCore, seat: int, laws: dict[str, tuple[Callable, Law]], sampler: Sampler, draws: int
) -> dict[str, float]:
    rng = np.random.default_rng(2024)
    counts = {name: Counter() for name in laws}
    for _ in range(draws):
        world = sampler(game, seat, rng)
        for name, (project, _) in laws.items():
            counts[name][project(world)] += 1
    return {name: chi_square_p(counts[name], law) for name, (_, law) in laws.items()}


def true_sampler(game: GameCore, seat: int, rng: np.random.Generator) -> GameCore:
    return game.resample_hidden(seat, rng)


def biased_sampler(game: GameCore, seat: int, rng: np.random.Generator) -> GameCore:
    """Keeps the real hidden state a quarter of the time."""
    return game.clone() if rng.random() < 0.25 else game.resample_hidden(seat, rng)


def small_positions() -> Iterator[tuple[str, GameCore, int, dict]]:
    for pick_first in (False, True):
        game, seat = vaalbara_position(pick_first)
        yield f"vaalbara pick_first={pick_first}", game, seat, vaalbara_laws(game, seat)
    game, seat = valiant_wars_position()
    yield "valiant_wars", game, seat, valiant_wars_laws(game, seat)
    game, seat = valenor_position()
    yield "valenor", game, seat, valenor_laws(game, seat)
    game, seat = spirit_island_position()
    yield "spirit_island", game, seat, spirit_island_laws(game, seat)


SMALL = list(small_positions())


@pytest.mark.parametrize(("label", "game", "seat", "laws"), SMALL, ids=[s[0] for s in SMALL])
def test_resample_hidden_draws_each_consistent_world_as_often_as_it_should(
    label: str, game: GameCore, seat: int, laws: dict
) -> None:
    for name, (_, law) in laws.items():
        assert len(law) > 1 and math.isclose(sum(law.values()), 1), f"{name}: a trivial law"
    p_values = sampler_p_values(game, seat, laws, true_sampler, draws=4000)
    assert min(p_values.values()) > 1e-4, p_values
    biased = sampler_p_values(game, seat, laws, biased_sampler, draws=4000)
    assert all(p < 1e-6 for p in biased.values()), f"the biased sampler passed: {biased}"


def test_the_small_positions_hide_what_they_should() -> None:
    """The positions exercise hidden picks, known cards and a hidden reveal choice."""
    game, seat = vaalbara_position(pick_first=True)
    assert game.decision == Decision.SELECT and game.picks[1 - seat] != EMPTY
    assert len(game.clan_decks[seat]) >= 2 and len(game.land_deck) <= 9
    game, seat = valiant_wars_position()
    assert any(game.choices[s] != EMPTY for s in game.choosers if s != seat)
    game, seat = valenor_position()
    assert game.hands[1 - seat] and game.known_bottom < len(game.invader_deck)
    assert len(valenor_laws(game, seat)) >= 3
    game, seat = spirit_island_position()
    assert game.drawn and game.drawn_by != seat and not game.drawn_major
    assert not game.blighted and game.options["blight_card"] == "random"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_legal_actions_are_the_masks_set_entries(name: str) -> None:
    for game in positions(GAMES[name], 2, seed=3, every=1):
        assert game.legal_actions() == [int(a) for a in np.flatnonzero(game.legal_mask())]
