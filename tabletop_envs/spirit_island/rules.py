"""Spirit Island's rules: the state, setup, what follows from the state, the engine that runs
the turn as a queue of steps, the pending decision, returns and hidden redraws.

The whole game runs as a stack of small integer steps (``queue``, the last entry runs next):
a turn pushes its phases, a phase pushes one step per land or Spirit, a Power pushes its
effect frame, an effect pushes the steps that need choices. A step that needs a choice sets
``pending`` ([kind, seat, purpose, *context]) with its legal options and waits; applying an
option resolves it and the stack runs on until the next choice. Every step and every
pending context is plain integers, so a saved game is the state plus this stack, checked
entry by entry when loaded. A choice with one legal option is taken at once.

The steps and decisions live in modules by topic, found through two tables here: ``STEP_RUN``
(a queued step -> its function) and ``DECISIONS`` (a decision -> the functions giving its
options and carrying out the one chosen): ``phases.py`` (the turn, the Spirit Phase, the
order of the Power phases, Time Passes), ``invaders.py`` (Ravage, Build, Explore),
``effects.py`` (a Power's target and effect, the effect interpreter, piece-by-piece steps),
``blight_fear.py`` (Blight, the Blight card, Fear and Fear cards) and ``invariants.py``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.game import NO_SEAT, GameCore, Option
from tabletop_envs.core.rng import make_rng
from tabletop_envs.core.state import PlainState
from tabletop_envs.spirit_island import blight_fear, effects, invaders, phases, spec
from tabletop_envs.spirit_island.invariants import check_all
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    CARDS,
    CITY_KINDS,
    DAHAN_KINDS,
    DRAWN_BLIGHT_CARDS,
    EXPLORER,
    FEAR_CARDS,
    FEAR_DECK_SIZE,
    HEALTHY_PER_PLAYER,
    INVADER_CARDS,
    INVADER_DECK_STAGES,
    INVADER_KINDS,
    INVADER_STAGE_CARDS,
    LANDS_PER_BOARD,
    LAYOUT,
    MAJORS,
    MAX_CARDS,
    MINORS,
    PURPOSE,
    PURPOSE_NAMES,
    PURPOSES,
    RECLAIM_ONE,
    SPIRITS,
    STEP,
    STEP_NAMES,
    TARGETS_SPIRIT,
    TERROR_DIVIDERS,
    TOWN_KINDS,
    Power,
)

STEP_HANDLERS: dict[str, Callable[..., None]] = {
    "turn": phases.step_turn,
    "growth": phases.step_growth,
    "growth_steps": phases.step_growth_steps,
    "energy": phases.step_energy,
    "play": phases.step_play,
    "powers_start": phases.step_powers_start,
    "powers": phases.step_powers,
    "use": phases.step_use,
    "blighted": blight_fear.step_blighted,
    "fear": blight_fear.step_fear,
    "ravage": invaders.step_ravage,
    "build": invaders.step_build,
    "explore": invaders.step_explore,
    "advance": invaders.step_advance,
    "time_passes": phases.step_time_passes,
    "effect": effects.step_effect,
    "damage": effects.step_damage,
    "destroy": effects.step_destroy,
    "remove": effects.step_remove,
    "push": effects.step_push,
    "gather": effects.step_gather,
    "add_blight": blight_fear.step_add_blight,
    "ravage_land": invaders.step_ravage_land,
    "ravage_dahan": invaders.step_ravage_dahan,
    "dahan_fight": invaders.step_dahan_fight,
    "spirit_land": effects.step_spirit_land,
    "presence": phases.step_presence,
    "gain": phases.step_gain,
    "forget": phases.step_forget,
    "reclaim_one": phases.step_reclaim_one,
    "destroy_presence": effects.step_destroy_presence,
    "gather_presence": effects.step_gather_presence,
    "remove_health": effects.step_remove_health,
    "strike": effects.step_strike,
    "move": effects.step_move,
    "keep_played": phases.step_keep_played,
    "push_then": effects.step_push_then,
    "damage_of": effects.step_damage_of,
    "building_fear": effects.step_building_fear,
}
"""Each step of the queue (``spec.STEPS``) -> the function that runs it (game, *arguments)."""
if STEP_HANDLERS.keys() != spec.STEPS.keys():
    raise RuntimeError(
        f"steps without a handler: {sorted(STEP_HANDLERS.keys() ^ spec.STEPS.keys())}"
    )
STEP_RUN = tuple(STEP_HANDLERS[name] for name in STEP_NAMES)
"""The same functions by step number, as the queue stores them."""

BETWEEN_EFFECTS = frozenset(
    STEP[name]
    for name in (
        "turn",
        "growth",
        "energy",
        "play",
        "powers_start",
        "powers",
        "blighted",
        "fear",
        "ravage",
        "ravage_land",
        "build",
        "explore",
        "advance",
        "time_passes",
        "keep_played",
    )
)
"""The steps that run between effects: when one of them is next (and no decision waits),
the effect before it has resolved, and a defeat it caused ends the game."""

DECISIONS: dict[str, tuple[Callable[..., list[int]], Callable[..., None]]] = {
    "growth": (phases.opt_growth, phases.res_growth),
    "growth_step": (phases.opt_growth_step, phases.res_growth_step),
    "track": (phases.opt_track, phases.res_track),
    "presence_land": (phases.opt_presence_land, phases.res_presence_land),
    "play": (phases.opt_play, phases.res_play),
    "power": (phases.opt_power, phases.res_power),
    "target_land": (effects.opt_target_land, effects.res_target_land),
    "target_spirit": (effects.opt_target_spirit, effects.res_target_spirit),
    "deck": (phases.opt_deck, phases.res_deck),
    "keep": (phases.opt_keep, phases.res_keep),
    "forget": (phases.opt_forget, phases.res_forget),
    "reclaim": (phases.opt_reclaim, phases.res_reclaim),
    "damage": (effects.opt_damage, effects.res_damage),
    "destroy": (effects.opt_destroy, effects.res_destroy),
    "remove": (effects.opt_remove, effects.res_remove),
    "push_piece": (effects.opt_push_piece, effects.res_push_piece),
    "push_dest": (effects.opt_push_dest, effects.res_push_dest),
    "gather_piece": (effects.opt_gather_piece, effects.res_gather_piece),
    "gather_source": (effects.opt_gather_source, effects.res_gather_source),
    "cascade": (blight_fear.opt_cascade, blight_fear.res_cascade),
    "spirit_land": (effects.opt_spirit_land, effects.res_spirit_land),
    "choose": (effects.opt_choose, effects.res_choose),
    "destroy_presence": (effects.opt_destroy_presence, effects.res_destroy_presence),
    "presence_more": (effects.opt_presence_more, effects.res_presence_more),
    "presence_source": (effects.opt_presence_source, effects.res_presence_source),
    "adjacent_land": (effects.opt_adjacent_land, effects.res_adjacent_land),
    "claim_track": (effects.opt_claim_track, effects.res_claim_track),
    "remove_health": (effects.opt_remove_health, effects.res_remove_health),
    "strike": (effects.opt_strike, effects.res_strike),
    "move_piece": (effects.opt_move_piece, effects.res_move_piece),
    "keep_played": (phases.opt_keep_played, phases.res_keep_played),
    "element": (effects.opt_element, effects.res_element),
    "push_then_piece": (effects.opt_push_then_piece, effects.res_push_then_piece),
    "push_then_dest": (effects.opt_push_then_dest, effects.res_push_then_dest),
    "damage_of": (effects.opt_damage_of, effects.res_damage_of),
    "restore_land": (effects.opt_restore_land, effects.res_restore_land),
}
"""Each decision (``spec.PURPOSES``) -> (its legal options: game, seat, *context; carrying out
the chosen one: game, seat, option, *context)."""
if DECISIONS.keys() != PURPOSES.keys():
    raise RuntimeError(f"decisions without handlers: {sorted(DECISIONS.keys() ^ PURPOSES.keys())}")


PROGRESS_WEIGHTS = {
    "fear": 0.4,
    "terror": 0.1,
    "blight": 0.3,
    "invaders": 0.1,
    "presence": 0.05,
    "invader_deck": 0.05,
}
"""How much each of ``progress_terms()`` counts in ``progress()`` (they sum to 1): Fear is
how the game is won, Blight how it is nearly always lost."""
INVADER_STRENGTH_SCALE = 20
"""Invader Damage per board (Explorer 1, Town 2, City 3) at which the Invaders term of
``progress()`` reaches 0; a board starts with about 9."""


def kinds_slice(kinds: tuple[int, ...]) -> slice:
    """``kinds`` as a slice of a land's row of pieces (they must be numbered in a run)."""
    if kinds != tuple(range(kinds[0], kinds[-1] + 1)):
        raise ValueError(f"piece kinds {kinds} are not numbered one after another")
    return slice(kinds[0], kinds[-1] + 1)


INVADER_SLICE = kinds_slice(INVADER_KINDS)
VICTORY_BY_LEVEL = {
    1: (INVADER_SLICE, "Terror Level 1: no Invaders on the island"),
    2: (kinds_slice(TOWN_KINDS + CITY_KINDS), "Terror Level 2: no Towns or Cities on the island"),
    3: (kinds_slice(CITY_KINDS), "Terror Level 3: no Cities on the island"),
}
"""Terror Level -> (the Invader kinds whose absence wins, as a slice of a land's row; why)."""
VICTORY_BY_DECK = tuple(
    VICTORY_BY_LEVEL[1 + bisect_right(TERROR_DIVIDERS, FEAR_DECK_SIZE - left)]
    for left in range(FEAR_DECK_SIZE + 1)
)
"""``VICTORY_BY_LEVEL`` by the Fear cards left in the Fear deck (the Terror Level they mean)."""


_REACH_MASKS: dict[int, tuple[spec.Island, tuple[tuple[int, ...], ...]]] = {}


def reach_masks(island: spec.Island) -> tuple[tuple[int, ...], ...]:
    """``masks[source][d]``: the lands within ``d`` steps of ``source`` as bits (land ``x`` is
    bit ``x``), for ``d`` up to the island's widest distance; worked out once per island."""
    entry = _REACH_MASKS.get(id(island))
    if entry is None or entry[0] is not island:
        widest = max(max(row) for row in island.distance)
        masks = tuple(
            tuple(
                sum(1 << land for land, steps in enumerate(row) if steps <= d)
                for d in range(widest + 1)
            )
            for row in island.distance
        )
        entry = _REACH_MASKS[id(island)] = (island, masks)
    return entry[1]


class SpiritIslandGame(PlainState, GameCore):
    """One game of Spirit Island: 1-4 Spirits, one island board each."""

    NAME = "spirit_island"
    MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 1, len(spec.LAYOUTS), 1
    COOPERATIVE = True
    LAYOUT = LAYOUT
    MAX_DECISIONS = 40_000
    """An upper bound on decisions in one game, for up to 4 boards. A game lasts at most 12
    turns (the Invader deck holds 11 cards after setup; the 12th Explore loses). Each point
    of Damage is one decision and only while an Invader can take it, so a turn asks at most
    the Invaders' total health: each board starts with 5 and gains at most 32 a turn (8
    Explorers, 8 Cities), about 10,000 over a 4-board game. Everything else (growth, card
    plays, Power choices, targets, pushes, gathers, cascades, Fear cards) stays under 200 per
    Spirit per turn, about 9,600. Random games use well under 1% of it (tests)."""
    OPTIONS: ClassVar = {
        "blight_card": Option(
            "random",
            ("random", "first_game", "downward_spiral", "memory_fades"),
            "the Blight card: drawn unseen, or a named one (first_game: the teaching game's)",
        ),
        "boards": Option(
            "",
            None,
            "the island boards by seat, one letter each (e.g. 'AB'); '' for A, B, C, D in order",
        ),
        "spirits": Option(
            "",
            None,
            "the Spirits by seat, names separated by commas (spec.SPIRIT_KEYS); '' for the default",
        ),
        "teaching": Option(
            False,
            (False, True),
            "the teaching game: Powers gained from each Spirit's Power Progression in order, "
            "and the first-game Blight card",
        ),
        "difficulty": Option(
            "base",
            tuple(spec.DIFFICULTY_FEAR_PER_PLAYER),
            "base: the published game (4 Fear per player a Fear card); easy 3, easiest 2 Fear "
            "per player; hard: 4, and 1 Blight per player + 1 on the Healthy side (not 2)",
        ),
        "shaped_reward": Option(
            False, (False, True), "a loss returns -1 + progress()/2 instead of -1"
        ),
    }
    STATE_FIELDS: ClassVar = {
        "queue": list[list[int]],
        "pending": list[int],
        "pending_options": list[int],
        "pieces": list[list[int]],
        "presence": list[list[int]],
        "destroyed_presence": list[int],
        "energy_track": list[int],
        "card_track": list[int],
        "energy": list[int],
        "plays_left": list[int],
        "elements": list[list[int]],
        "hand": list[list[int]],
        "played": list[list[int]],
        "discard": list[list[int]],
        "unresolved": list[list[int]],
        "progression": list[list[int]],
        "resolved": list[list[int]],
        "hastened": list[list[int]],
        "hasten": list[int],
        "repeat_cost": list[int],
        "paid_repeats": list[int],
        "passed": list[int],
        "range_bonus": list[int],
        "keep_cards": list[int],
        "forgotten": list[int],
        "minor_deck": list[int],
        "minor_discard": list[int],
        "major_deck": list[int],
        "major_discard": list[int],
        "drawn": list[int],
        "drawn_by": int,
        "drawn_major": bool,
        "invader_deck": list[int],
        "invader_slots": list[int],
        "invader_discard": list[int],
        "fear_pool": int,
        "fear_deck": list[int],
        "fear_earned": list[int],
        "fear_discard": list[int],
        "blight_card": int,
        "blight_pool": int,
        "blighted": bool,
        "defend": list[int],
        "skips": list[int],
        "isolated": list[bool],
        "turn": int,
        "decisions": int,
        "outcome": int,
        "loss_pending": str,
        "end_reason": str,
    }

    # ----- setup --------------------------------------------------------------------------
    def __init__(self, num_players: int = 1, seed: int | None = None, **options: Any) -> None:
        super().__init__(num_players, seed, **options)
        self.restore_derived()
        n, rng = num_players, self.rng
        lands = len(self.island.terrain)
        # 2. the Invader board: Fear pool, Fear deck, Invader deck, Blight card
        self.fear_pool = self.fear_per_card()
        self.fear_deck = [int(c) for c in rng.permutation(len(FEAR_CARDS))[:FEAR_DECK_SIZE]]
        self.fear_earned: list[int] = []
        self.fear_discard: list[int] = []
        # 3. the Invader deck: 3 Stage I atop 4 Stage II atop 5 Stage III
        deck: list[int] = []
        for stage, count in ((1, 3), (2, 4), (3, 5)):
            cards = INVADER_STAGE_CARDS[stage]
            deck += [int(cards[i]) for i in rng.permutation(len(cards))[:count]]
        self.invader_deck = deck
        self.invader_slots = [-1, -1, -1]
        self.invader_discard: list[int] = []
        choice = self.options["blight_card"]
        if self.options["teaching"]:
            if choice not in ("random", "first_game"):
                raise ValueError(
                    f"option blight_card={choice!r} is not accepted with teaching=True: the "
                    "teaching game uses 'first_game' (or leave it 'random')"
                )
            choice = "first_game"
        if choice == "random":
            self.blight_card = DRAWN_BLIGHT_CARDS[int(rng.integers(len(DRAWN_BLIGHT_CARDS)))]
        else:
            names = ("first_game", "downward_spiral", "memory_fades")
            self.blight_card = names.index(choice)
        self.blight_pool = self.healthy_blight()
        self.blighted = False
        # 4. the island, populated from the boards' setup icons (Blight from the box)
        self.pieces = []
        for name in self.island.boards:
            self.pieces += [list(row) for row in spec.BOARDS[name].setup]
        assert len(self.pieces) == lands
        # 5. the Power decks
        self.minor_deck = [int(MINORS[i]) for i in rng.permutation(len(MINORS))]
        self.major_deck = [int(MAJORS[i]) for i in rng.permutation(len(MAJORS))]
        self.progression = [
            list(spec.PROGRESSIONS[self.spirit_of[s]]) if self.options["teaching"] else []
            for s in range(n)
        ]
        aside = {c for p in self.progression for c in p}
        self.minor_deck = [c for c in self.minor_deck if c not in aside]
        self.major_deck = [c for c in self.major_deck if c not in aside]
        self.minor_discard: list[int] = []
        self.major_discard: list[int] = []
        self.forgotten: list[int] = []
        self.drawn: list[int] = []
        self.drawn_by = NO_SEAT
        self.drawn_major = False
        # 6. the players: a Spirit each, its uniques in hand, its setup Presence
        self.presence = [[0] * lands for _ in range(n)]
        self.destroyed_presence = [0] * n
        self.energy_track = [0] * n
        self.card_track = [0] * n
        self.energy = [0] * n
        self.plays_left = [0] * n
        self.elements = [[0] * len(spec.ELEMENTS) for _ in range(n)]
        self.hand = [list(self.spirit(s).uniques) for s in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[list[int]] = [[] for _ in range(n)]
        self.unresolved: list[list[int]] = [[] for _ in range(n)]
        self.resolved: list[list[int]] = [[] for _ in range(n)]
        self.hastened: list[list[int]] = [[] for _ in range(n)]
        self.hasten = [0] * n
        self.repeat_cost = [-1] * n
        self.paid_repeats = [0] * n
        self.passed = [0] * n
        self.range_bonus = [0] * n
        self.keep_cards = [0] * n
        for seat in range(n):
            for terrain, count in self.spirit(seat).setup:
                board_lands = self.board_lands(seat)
                if terrain < 0:
                    land = board_lands[-terrain - 1]
                else:
                    land = max(x for x in board_lands if self.island.terrain[x] == terrain)
                self.presence[seat][land] += count
        self.defend = [0] * lands
        self.skips = [0] * lands
        self.isolated = [False] * lands
        self.turn = 0
        self.decisions = 0
        self.outcome = 0
        self.loss_pending = ""
        self.end_reason = ""
        self.pending: list[int] = []
        self.pending_options: list[int] = []
        # 7. the Invaders act first: Explore with the top card, which then goes to Build
        card = self.invader_deck.pop(0)
        self.invader_slots[2] = card
        invaders.explore_lands(self, card)
        self.invader_slots = [-1, card, -1]
        self.queue = [[STEP["turn"]]]
        self.run()

    def restore_derived(self) -> None:
        self.island = spec.island_of(self.chosen_boards(self.num_players, self.options["boards"]))
        self.spirit_of = self.chosen_spirits(self.num_players, self.options["spirits"])

    @staticmethod
    def chosen_boards(n: int, value: str) -> tuple[str, ...]:
        """The boards by seat for option ``boards`` ("" for the default, else n letters)."""
        if value == "":
            return spec.BOARD_ORDER[:n]
        boards = tuple(value.upper())
        if len(boards) != n or len(set(boards)) != n or not set(boards) <= set(spec.BOARDS):
            example = "".join(spec.BOARD_ORDER[:n])
            raise ValueError(
                f"option boards={value!r} is not accepted: give {n} different board letter(s) "
                f"among {sorted(spec.BOARDS)}, one per seat (e.g. {example!r}), or '' for the "
                "default"
            )
        return boards

    @staticmethod
    def chosen_spirits(n: int, value: str) -> list[int]:
        """The Spirit of each seat for option ``spirits`` ("" for the default, else n names
        separated by commas)."""
        if value == "":
            return [spec.DEFAULT_SPIRITS[seat] for seat in range(n)]
        names = [name.strip().lower() for name in value.split(",")]
        unknown = [name for name in names if name not in spec.SPIRIT_KEYS]
        if len(names) != n or unknown or (spec.UNIQUE_SPIRITS and len(set(names)) != n):
            raise ValueError(
                f"option spirits={value!r} is not accepted: give {n} "
                f"{'different ' if spec.UNIQUE_SPIRITS else ''}Spirit(s) separated by commas, "
                f"one per seat, among {list(spec.SPIRIT_KEYS)}, or '' for the default"
            )
        return [spec.SPIRIT_KEYS.index(name) for name in names]

    def spirit(self, seat: int) -> spec.Spirit:
        return SPIRITS[self.spirit_of[seat]]

    def board_lands(self, seat: int) -> range:
        return range(LANDS_PER_BOARD * seat, LANDS_PER_BOARD * (seat + 1))

    def owner(self, land: int) -> int:
        """Who decides about a land: the Spirit whose starting board holds it."""
        return land // LANDS_PER_BOARD

    # ----- derived quantities -------------------------------------------------------------
    @property
    def lands(self) -> range:
        return range(len(self.pieces))

    def invaders(self, land: int) -> int:
        return sum(self.pieces[land][INVADER_SLICE])

    def count(self, land: int, kinds: tuple[int, ...]) -> int:
        row = self.pieces[land]
        return sum(row[k] for k in kinds)

    def terror_level(self) -> int:
        return 1 + bisect_right(TERROR_DIVIDERS, FEAR_DECK_SIZE - len(self.fear_deck))

    def cards_earned(self) -> int:
        return FEAR_DECK_SIZE - len(self.fear_deck)

    def energy_per_turn(self, seat: int) -> int:
        return self.spirit(seat).energy_track[self.energy_track[seat]]

    def card_plays(self, seat: int) -> int:
        track = self.spirit(seat).card_track
        return max(v for v in track[: self.card_track[seat] + 1] if v != RECLAIM_ONE)

    def has_reclaim_one(self, seat: int) -> bool:
        return RECLAIM_ONE in self.spirit(seat).card_track[: self.card_track[seat] + 1]

    def sacred_sites(self, seat: int) -> list[int]:
        wetland = self.spirit(seat).wetland_sacred
        return [
            land
            for land in self.lands
            if self.presence[seat][land] >= 2
            or (wetland and self.presence[seat][land] and self.island.terrain[land] == spec.W)
        ]

    def in_range(
        self, seat: int, distance: int, sacred: bool = False, terrain: int = -1
    ) -> list[int]:
        """The lands within ``distance`` of ``seat``'s Presence (or Sacred Sites), counting
        only sources of ``terrain`` when one is given."""
        sources = [
            land
            for land in (
                self.sacred_sites(seat)
                if sacred
                else [land for land in self.lands if self.presence[seat][land]]
            )
            if terrain < 0 or self.island.terrain[land] == terrain
        ]
        if distance < 0:
            return []
        masks = reach_masks(self.island)
        steps = min(distance, len(masks[0]) - 1)
        reached = 0
        for source in sources:
            reached |= masks[source][steps]
        return [land for land in self.lands if reached >> land & 1]

    def land_matches(
        self, land: int, conditions: tuple[tuple[Any, ...], ...], seat: int = -1
    ) -> bool:
        """Whether ``land`` meets every condition (``seat``: the Spirit they speak of)."""
        return all(self.land_condition(land, c, seat) for c in conditions)

    def land_condition(self, land: int, condition: tuple[Any, ...], seat: int = -1) -> bool:
        name = condition[0]
        row = self.pieces[land]
        if name in ("presence", "sacred_site", "any_presence"):
            return self.presence_condition(land, name, seat)
        if name == "coastal":
            return self.island.coastal[land]
        if name == "inland":
            return not self.island.coastal[land]
        if name == "blight":
            return row[BLIGHT] > 0
        if name == "no_blight":
            return row[BLIGHT] == 0
        if name == "invaders":
            return self.invaders(land) > 0
        if name == "no_invaders":
            return self.invaders(land) == 0
        if name == "dahan":
            return self.count(land, DAHAN_KINDS) >= condition[1]
        if name == "explorers":
            return row[EXPLORER] >= condition[1]
        if name == "towns":
            return self.count(land, TOWN_KINDS) >= condition[1]
        if name == "cities":
            return self.count(land, CITY_KINDS) >= condition[1]
        if name == "buildings":
            return self.count(land, TOWN_KINDS + CITY_KINDS) >= condition[1]
        if name == "terrain":
            return self.island.terrain[land] in condition[1]
        if name == "dahan_outnumber":
            invaders = self.invaders(land)
            return 0 < invaders < self.count(land, DAHAN_KINDS)
        if name == "dahan_outnumber_buildings":
            return self.count(land, TOWN_KINDS + CITY_KINDS) < self.count(land, DAHAN_KINDS)
        if name == "no_cities":
            return self.count(land, CITY_KINDS) == 0
        if name == "invaders_at_most":
            return 0 < self.invaders(land) <= condition[1]
        raise ValueError(f"unknown land condition {name!r}")

    def presence_condition(self, land: int, name: str, seat: int) -> bool:
        """The conditions on Presence: any Spirit's, ``seat``'s, ``seat``'s Sacred Site."""
        if name == "any_presence":
            return any(self.presence[s][land] for s in range(self.num_players))
        if seat < 0:
            raise ValueError(f"the condition {name!r} needs a Spirit")
        if name == "presence":
            return self.presence[seat][land] > 0
        return land in self.sacred_sites(seat)

    def condition(self, condition: tuple[Any, ...], land: int, seat: int, target: int) -> bool:
        name = condition[0]
        if name == "elements":
            have = self.elements[seat]
            return all(h >= need for h, need in zip(have, condition[1], strict=True))
        if name == "target_self":
            return target == seat
        if name == "target_other":
            return target not in (seat, NO_SEAT)
        if name == "terror":
            return self.terror_level() >= condition[1]
        if name == "sacred_sites":
            return len(self.sacred_sites(seat)) >= condition[1]
        return land >= 0 and self.land_condition(land, condition, seat)

    def power_of(self, seat: int, option: int) -> Power:
        if option < MAX_CARDS:
            return CARDS[option]
        return self.spirit(seat).innates[option - MAX_CARDS]

    def innate_tiers(self, seat: int, power: Power) -> list[int]:
        """The tiers of an innate Power that apply now (an "instead" tier replaces those below)."""
        have = self.elements[seat]
        chosen: list[int] = []
        for number, (needs, replaces, _) in enumerate(power.tiers):
            if all(h >= n for h, n in zip(have, needs, strict=True)):
                chosen = [number] if replaces else [*chosen, number]
        return chosen

    def targets(self, seat: int, option: int) -> list[int]:
        """Legal targets of a Power: lands (LAND options) or seats (SPIRIT options)."""
        power = self.power_of(seat, option)
        if power.target == TARGETS_SPIRIT:
            seats = range(self.num_players)
            if power.spirit_target == "self":
                return [seat]
            if power.spirit_target == "other":
                return [s for s in seats if s != seat]
            return list(seats)
        lands = set(self.reach(seat, power))
        if self.spirit(seat).special == "shadows" and self.energy[seat] >= 1:
            lands |= {x for x in self.lands if self.count(x, DAHAN_KINDS)}
        if not power.filter:
            return sorted(lands)
        return [land for land in sorted(lands) if self.land_matches(land, power.filter, seat)]

    def reach(self, seat: int, power: Power) -> list[int]:
        """The lands ``power`` reaches from ``seat``'s Presence (or Sacred Sites), counting
        only sources in the card's source terrain and the range its Elements extend to."""
        distance = power.range
        if power.extend and all(
            h >= n for h, n in zip(self.elements[seat], power.extend[0], strict=True)
        ):
            distance = power.extend[1]
        distance += self.range_bonus[seat]
        return self.in_range(seat, distance, power.source_sacred, power.source_terrain)

    def shadows_pay(self, seat: int, option: int, land: int) -> bool:
        """Whether Shadows pays 1 Energy to reach ``land`` (a Dahan land out of range)."""
        power = self.power_of(seat, option)
        if self.spirit(seat).special != "shadows":
            return False
        return land not in self.reach(seat, power)

    def usable(self, seat: int, option: int, speed: int = -1) -> bool:
        power = self.power_of(seat, option)
        if option >= MAX_CARDS and not self.innate_tiers(seat, power):
            return False
        if speed == spec.FAST and power.speed == spec.SLOW and self.swift_left(seat) <= 0:
            return False
        return bool(self.targets(seat, option))

    def swift_left(self, seat: int) -> int:
        """Slow Powers this Spirit may still use as Fast this turn."""
        air = self.elements[seat][spec.ELEMENT_INDEX["air"]]
        own = air if self.spirit(seat).special == "swift" else 0
        return own + self.hasten[seat] - len(self.hastened[seat])

    def candidates(self, seat: int, speed: int) -> list[int]:
        """The Powers this Spirit may resolve now: unresolved ones (Slow ones in the Fast
        phase while it may hasten them) and, with a repeat, cards already resolved; none once
        it has passed in this phase."""
        if self.passed[seat]:
            return []
        options = [o for o in set(self.unresolved[seat]) if self.usable(seat, o, speed)]
        if self.repeat_cost[seat] >= 0 or self.paid_repeats[seat]:
            options += [
                c
                for c in set(self.resolved[seat])
                if c not in options
                and c in self.played[seat]
                and self.repeat_kind(seat, c)
                and self.usable(seat, c)
            ]
        return sorted(options)

    def repeat_kind(self, seat: int, card: int) -> str:
        """How this Spirit may repeat ``card`` now: "free" (Gift of Strength's repeat, used
        first), "paid" (Powerstorm's, paying the cost again; never Powerstorm itself, which
        would pay for its own new repeat without end) or "" (not at all)."""
        if CARDS[card].cost <= self.repeat_cost[seat]:
            return "free"
        if (
            self.paid_repeats[seat]
            and CARDS[card].cost <= self.energy[seat]
            and not spec.GRANTS_PAID_REPEAT[card]
        ):
            return "paid"
        return ""

    # ----- the contract -------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.pending[1] if self.pending else NO_SEAT

    def pending_kind(self) -> int:
        return self.pending[0]

    def legal_options(self) -> list[int]:
        return self.pending_options

    def apply_unchecked(self, action: int) -> None:
        option = action - LAYOUT.kind_segments[self.pending[0]].offset
        _, seat, purpose, *ctx = self.pending
        self.pending = []
        self.pending_options = []
        self.decisions += 1
        self.resolve(PURPOSE_NAMES[purpose], seat, ctx, option)
        self.check_end()
        self.run()

    def returns(self) -> np.ndarray:
        if self.outcome == 0:
            return np.zeros(self.num_players)
        value = float(self.outcome)
        if value < 0 and self.options["shaped_reward"]:
            value += 0.5 * self.progress()
        return np.full(self.num_players, value)

    def progress(self) -> float:
        """1.0 for a victory; otherwise the weighted sum of ``progress_terms()`` (each in
        [0, 1], weights ``PROGRESS_WEIGHTS``), below 1."""
        if self.outcome > 0:
            return 1.0
        terms = self.progress_terms()
        return min(0.99, sum(PROGRESS_WEIGHTS[name] * terms[name] for name in PROGRESS_WEIGHTS))

    def progress_terms(self) -> dict[str, float]:
        """What ``progress()`` weighs, each in [0, 1] with 1 the better end: Fear toward
        victory, Terror Level, Blight kept off, Invaders kept off the island, Presence kept,
        Invader deck left."""
        fear = (self.cards_earned() + 1 - self.fear_pool / self.fear_per_card()) / FEAR_DECK_SIZE
        healthy = self.healthy_blight()
        if self.blighted:
            per_player = spec.BLIGHT_CARDS[self.blight_card][1]
            blight = 0.5 * min(1.0, self.blight_pool / (per_player * self.num_players))
        else:
            blight = 0.5 + 0.5 * min(1.0, self.blight_pool / healthy)
        strength = sum(
            spec.INVADER_DAMAGE[k] * row[k] for row in self.pieces for k in INVADER_KINDS
        )
        on_island = sum(map(sum, self.presence))
        lost = sum(self.destroyed_presence)
        return {
            "fear": min(1.0, fear),
            "terror": (self.terror_level() - 1) / 2,
            "blight": blight,
            "invaders": 1.0 - min(1.0, strength / (INVADER_STRENGTH_SCALE * self.num_players)),
            "presence": on_island / (on_island + lost) if on_island + lost else 0.0,
            "invader_deck": len(self.invader_deck) / len(INVADER_DECK_STAGES),
        }

    def healthy_blight(self) -> int:
        """The Blight the Healthy side holds: 2 per player + 1 (published), 1 per player + 1
        at the ``hard`` difficulty."""
        level = self.options["difficulty"]
        per_player = spec.DIFFICULTY_HEALTHY_PER_PLAYER.get(level, HEALTHY_PER_PLAYER)
        return per_player * self.num_players + 1

    def fear_per_card(self) -> int:
        """The Fear each Fear card needs: the difficulty's Fear per player times the players."""
        return spec.DIFFICULTY_FEAR_PER_PLAYER[self.options["difficulty"]] * self.num_players

    def turns(self) -> int:
        return self.turn

    def ending(self) -> str | None:
        return self.end_reason or None

    def end_facts(self) -> dict[str, float]:
        """Fear cards earned, the Terror Level, Blight on the island and left on the card."""
        return {
            "fear cards earned": float(self.cards_earned()),
            "terror level": float(self.terror_level()),
            "blight on the island": float(sum(row[BLIGHT] for row in self.pieces)),
            "blight left on the card": float(self.blight_pool),
        }

    def winners(self) -> list[int]:
        return list(range(self.num_players)) if self.outcome > 0 else []

    # ----- the engine ---------------------------------------------------------------------
    step_watch: Callable[[list[int]], None] | None = None
    """Called with each queued step before it runs (never saved or cloned): how the text
    narrates the Invader Phase step by step (``text.narrate``)."""

    def run(self) -> None:
        """Run queued steps until a choice is pending or the game is over."""
        while not self.pending and self.outcome == 0:
            if not self.queue:
                self.queue.append([STEP["turn"]])
            step = self.queue.pop()
            if self.step_watch is not None:
                self.step_watch(step)
            STEP_RUN[step[0]](self, *step[1:])
            self.check_end()
        if self.outcome:
            self.pending, self.pending_options = [], []

    def push(self, name: str, *args: int) -> None:
        """Queue step ``name`` (run by ``STEP_RUN``) to run next."""
        self.queue.append([STEP[name], *args])

    def ask(self, purpose: str, seat: int, *ctx: int) -> None:
        """Ask ``seat`` to decide; one legal option is taken at once, none skips."""
        options = self.options_for(purpose, seat, list(ctx))
        if not options:
            return
        if len(options) == 1:
            self.resolve(purpose, seat, list(ctx), options[0])
            return
        kind = PURPOSES[purpose][0]
        self.pending = [int(kind), seat, PURPOSE[purpose], *ctx]
        self.pending_options = options

    def options_for(self, purpose: str, seat: int, ctx: list[int]) -> list[int]:
        """The legal options of decision ``purpose`` (found in ``DECISIONS``)."""
        return DECISIONS[purpose][0](self, seat, *ctx)

    def resolve(self, purpose: str, seat: int, ctx: list[int], option: int) -> None:
        """Carry out ``option`` of decision ``purpose`` (found in ``DECISIONS``)."""
        DECISIONS[purpose][1](self, seat, option, *ctx)

    def check_end(self) -> None:
        """After every step and every decision: victory at once; a defeat once the effect
        that caused it has resolved, so that an effect that both wins and loses wins."""
        if self.outcome:
            return
        victory = self.victory()
        if victory:
            self.outcome, self.end_reason = 1, victory
        elif self.loss_pending and self.effect_resolved():
            self.outcome, self.end_reason = -1, self.loss_pending

    def effect_resolved(self) -> bool:
        """Whether every effect started has resolved: no decision waits and the next step is
        one of the turn's own (a Power, a Fear card, the Blight card, an Invader action in a
        land: each has run to its end)."""
        return not self.pending and (not self.queue or self.queue[-1][0] in BETWEEN_EFFECTS)

    def victory(self) -> str:
        """Why the Spirits have won ("" while they have not)."""
        if not self.fear_deck:
            return "every Fear card earned"
        kinds, reason = VICTORY_BY_DECK[len(self.fear_deck)]
        for row in self.pieces:
            if any(row[kinds]):
                return ""
        return reason

    def lose(self, reason: str) -> None:
        """Record a defeat; it ends the game once the step has run, unless a victory comes
        first."""
        if not self.loss_pending:
            self.loss_pending = reason

    # ----- invariants ----------------------------------------------------------------------
    def check_invariants(self) -> Iterator[tuple[str, str]]:
        return check_all(self)

    # ----- hidden information --------------------------------------------------------------
    def resample_hidden(self, player: int, rng: np.random.Generator) -> SpiritIslandGame:
        """Deck orders (the unrevealed Invader cards by stage, the unearned Fear cards, the
        Power decks), the Blight card while unflipped and unnamed, and cards another Spirit
        drew, redrawn from what ``player`` cannot see; every pool is drawn from in sorted
        order and the generator is reseeded from ``rng``, so the result depends on
        ``player``'s view alone."""
        game = self.clone()
        seen = {c for c in [*self.invader_slots, *self.invader_discard] if c >= 0}
        deck: list[int] = []
        for stage in (1, 2, 3):
            pool = sorted(c for c in INVADER_STAGE_CARDS[stage] if c not in seen)
            count = sum(INVADER_CARDS[c].stage == stage for c in self.invader_deck)
            deck += [int(pool[i]) for i in rng.permutation(len(pool))[:count]]
        game.invader_deck = deck
        # earned Fear cards lie face down until resolved: only the resolved ones are known
        pool = [c for c in range(len(FEAR_CARDS)) if c not in self.fear_discard]
        unseen = [int(pool[i]) for i in rng.permutation(len(pool))]
        game.fear_earned = unseen[: len(self.fear_earned)]
        game.fear_deck = unseen[len(self.fear_earned) : len(self.fear_earned) + len(self.fear_deck)]
        if not self.blighted and self.options["blight_card"] == "random":
            game.blight_card = DRAWN_BLIGHT_CARDS[int(rng.integers(len(DRAWN_BLIGHT_CARDS)))]
        hidden_draw = self.drawn and self.drawn_by != player
        for name in ("minor", "major"):
            mine = hidden_draw and self.drawn_major == (name == "major")
            pool = sorted(getattr(self, f"{name}_deck") + (self.drawn if mine else []))
            shuffled = [pool[i] for i in rng.permutation(len(pool))]
            if mine:
                game.drawn = shuffled[: len(self.drawn)]
                shuffled = shuffled[len(self.drawn) :]
            setattr(game, f"{name}_deck", shuffled)
        game.rng = make_rng(int(rng.integers(2**63)))
        return game
