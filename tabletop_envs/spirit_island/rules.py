"""Spirit Island's rules: the state, the turn as a queue of steps, the effect interpreter,
the pending decision, returns and hidden redraws.

The whole game runs as a stack of small integer steps (``queue``, the last entry runs next):
a turn pushes its phases, a phase pushes one step per land or Spirit, a Power pushes its
effect frame, an effect pushes the steps that need choices. A step that needs a choice sets
``pending`` ([kind, seat, purpose, *context]) with its legal options and waits; applying an
option resolves it and the stack runs on until the next choice. Every step and every
pending context is plain integers, so a saved game is the state plus this stack, checked
entry by entry when loaded. A choice with one legal option is taken at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.game import NO_SEAT, GameCore, Option
from tabletop_envs.core.rng import make_rng
from tabletop_envs.core.state import PlainState
from tabletop_envs.spirit_island import (
    published,  # noqa: F401  (numbers its effect blocks)
    spec,
)
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    BLIGHT_CARDS,
    BLOCKS,
    CARD_DONE,
    CARDS,
    CITY_KINDS,
    COASTAL,
    DAHAN,
    DAHAN_1,
    DAHAN_KINDS,
    DAMAGED,
    DRAW,
    EXPLORER,
    FEAR_CARDS,
    FEAR_DECK_SIZE,
    FEAR_OF,
    FEAR_PER_PLAYER,
    HEALED,
    HEALTHY_PER_PLAYER,
    INVADER_CARDS,
    INVADER_DAMAGE,
    INVADER_DECK_STAGES,
    INVADER_KINDS,
    INVADER_STAGE_CARDS,
    KINDS,
    LANDS_PER_BOARD,
    LAYOUT,
    MAJOR,
    MAJORS,
    MAX_CARDS,
    MINOR,
    MINORS,
    PIECE_STOP,
    POWER_PASS,
    PRESENCE_OPTION,
    PURPOSE,
    PURPOSE_NAMES,
    PURPOSES,
    RECLAIM_ONE,
    SPIRITS,
    TARGETS_SPIRIT,
    TERROR_DIVIDERS,
    TOWN,
    TOWN_KINDS,
    Power,
    block_of,
)

# ----- steps on the queue: opcode and the kinds of its arguments ------------------------------
STEPS: dict[str, tuple[str, ...]] = {
    "turn": (),
    "growth": ("seat",),
    "growth_steps": ("seat", "group", "done"),
    "energy": ("seat",),
    "play": ("seat",),
    "powers_start": ("speed",),
    "powers": ("speed", "seat"),
    "use": ("seat", "power"),
    "blighted": (),
    "fear": (),
    "ravage": (),
    "build": (),
    "explore": (),
    "advance": (),
    "time_passes": (),
    "effect": ("block", "pc", "land?", "seat", "seat?"),
    "damage": ("land", "seat", "count"),
    "destroy": ("land", "seat", "mask", "count"),
    "remove": ("land", "seat", "mask", "count"),
    "push": ("land", "seat", "mask", "count", "flag"),
    "gather": ("land", "seat", "mask", "count", "flag"),
    "add_blight": ("land",),
    "ravage_land": ("land",),
    "ravage_dahan": ("land", "count"),
    "dahan_fight": ("land",),
    "spirit_land": ("block", "pc", "seat", "taken"),
    "presence": ("seat", "range"),
    "gain": ("seat",),
    "forget": ("seat",),
    "reclaim_one": ("seat",),
    "destroy_presence": ("seat", "count"),
    "gather_presence": ("land", "seat", "count"),
    "remove_health": ("land", "seat", "count"),
    "strike": ("land", "seat", "count", "struck"),
    "move": ("land", "land", "seat", "mask", "count"),
}
LAND_PICKS = ("spirit_land", "own_land", "pick_land", "land_in_range", "move_to_land")
"""The operations whose land is picked by a ``spirit_land`` step."""
PENDING_OPS = {"choose": ("choose",), "spirit_land": LAND_PICKS, "adjacent_land": ("adjacent",)}
"""The decisions that point at an operation, and the operations each may point at."""
STEP_NAMES = tuple(STEPS)
STEP = {name: code for code, name in enumerate(STEP_NAMES)}
STEP_ARGS = tuple(STEPS[name] for name in STEP_NAMES)


SKIP_BIT = {0: 1, 1: 2, 2: 4}
"""Per-land skip flags: Ravage 1, Build 2, Explore 4."""
SPARE_DAHAN = 8
"""Per-land flag: Ravaging Invaders deal no Damage to the Dahan there this turn."""
MAX_TURNS = len(INVADER_DECK_STAGES) + 1
TRACKS = ("energy", "card plays")


def kinds_mask(kinds: tuple[int, ...]) -> int:
    mask = 0
    for kind in kinds:
        mask |= 1 << kind
    return mask


def in_mask(mask: int) -> tuple[int, ...]:
    return tuple(kind for kind in range(KINDS) if mask >> kind & 1)


class SpiritIslandGame(PlainState, GameCore):
    """One game of Spirit Island: 1 player (board A, River Surges in Sunlight) for now."""

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
        "shaped_reward": Option(
            False, (False, True), "a loss returns -1 + progress()/2 instead of -1"
        ),
    }
    STATE_FIELDS: ClassVar = {
        "queue": list[list[int]],
        "pending": list[int],
        "options_": list[int],
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
        self.fear_pool = FEAR_PER_PLAYER * n
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
            self.blight_card = int(rng.integers(len(BLIGHT_CARDS)))
        else:
            names = ("first_game", "downward_spiral", "memory_fades")
            self.blight_card = names.index(choice)
        self.blight_pool = HEALTHY_PER_PLAYER * n + 1
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
        self.options_: list[int] = []
        # 7. the Invaders act first: Explore with the top card, which then goes to Build
        card = self.invader_deck.pop(0)
        self.invader_slots[2] = card
        self.explore_lands(card)
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
        row = self.pieces[land]
        return sum(row[k] for k in INVADER_KINDS)

    def count(self, land: int, kinds: tuple[int, ...]) -> int:
        row = self.pieces[land]
        return sum(row[k] for k in kinds)

    def terror_level(self) -> int:
        earned = FEAR_DECK_SIZE - len(self.fear_deck)
        return 1 + sum(earned >= d for d in TERROR_DIVIDERS)

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
        table = self.island.distance
        return [land for land in self.lands if any(table[s][land] <= distance for s in sources)]

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
        return [land for land in sorted(lands) if self.land_matches(land, power.filter, seat)]

    def reach(self, seat: int, power: Power) -> list[int]:
        """The lands ``power`` reaches from ``seat``'s Presence (or Sacred Sites), counting
        only sources in the card's source terrain and the range its Elements extend to."""
        distance = power.range
        if power.extend and all(
            h >= n for h, n in zip(self.elements[seat], power.extend[0], strict=True)
        ):
            distance = power.extend[1]
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
        phase while it may hasten them) and, with a repeat, cards already resolved."""
        options = [o for o in set(self.unresolved[seat]) if self.usable(seat, o, speed)]
        if self.repeat_cost[seat] >= 0:
            options += [
                c
                for c in set(self.resolved[seat])
                if c not in options
                and c in self.played[seat]
                and CARDS[c].cost <= self.repeat_cost[seat]
                and self.usable(seat, c)
            ]
        return sorted(options)

    # ----- the contract -------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.pending[1] if self.pending else NO_SEAT

    def pending_kind(self) -> int:
        return self.pending[0]

    def legal_options(self) -> list[int]:
        return self.options_

    def _apply(self, action: int) -> None:
        option = action - LAYOUT.kind_segments[self.pending[0]].offset
        _, seat, purpose, *ctx = self.pending
        self.pending = []
        self.options_ = []
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
        """1.0 for a victory; otherwise how far the team came: half the share of Fear cards
        earned, half the share of the Invader deck survived."""
        if self.outcome > 0:
            return 1.0
        fear = self.cards_earned() / FEAR_DECK_SIZE
        survived = (len(INVADER_DECK_STAGES) - len(self.invader_deck)) / len(INVADER_DECK_STAGES)
        return 0.5 * fear + 0.5 * survived

    def turns(self) -> int:
        return self.turn

    def winners(self) -> list[int]:
        return list(range(self.num_players)) if self.outcome > 0 else []

    # ----- the engine ---------------------------------------------------------------------
    def run(self) -> None:
        """Run queued steps until a choice is pending or the game is over."""
        while not self.pending and self.outcome == 0:
            if not self.queue:
                self.queue.append([STEP["turn"]])
            step = self.queue.pop()
            self.execute(STEP_NAMES[step[0]], step[1:])
            self.check_end()
        if self.outcome:
            self.pending, self.options_ = [], []

    def push(self, name: str, *args: int) -> None:
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
        self.options_ = options

    def check_end(self) -> None:
        """Victory before defeat, after every step and every decision."""
        if self.outcome:
            return
        victory = self.victory()
        if victory:
            self.outcome, self.end_reason = 1, victory
        elif self.loss_pending:
            self.outcome, self.end_reason = -1, self.loss_pending

    def victory(self) -> str:
        if not self.fear_deck:
            return "every Fear card earned"
        level = self.terror_level()
        if level == 1 and not any(self.invaders(land) for land in self.lands):
            return "Terror Level 1: no Invaders on the island"
        if level == 2 and not any(self.count(x, TOWN_KINDS + CITY_KINDS) for x in self.lands):
            return "Terror Level 2: no Towns or Cities on the island"
        if level == 3 and not any(self.count(x, CITY_KINDS) for x in self.lands):
            return "Terror Level 3: no Cities on the island"
        return ""

    def lose(self, reason: str) -> None:
        if not self.loss_pending:
            self.loss_pending = reason

    # ----- steps ---------------------------------------------------------------------------
    def execute(self, name: str, args: list[int]) -> None:
        getattr(self, "step_" + name)(*args)

    def step_turn(self) -> None:
        self.turn += 1
        n = self.num_players
        self.push("turn")
        self.push("time_passes")
        self.push("powers_start", spec.SLOW)
        for name in ("advance", "explore", "build", "ravage", "fear", "blighted"):
            self.push(name)
        self.push("powers_start", spec.FAST)
        for seat in reversed(range(n)):
            self.push("play", seat)
            self.push("energy", seat)
            self.push("growth", seat)

    # Spirit Phase
    def step_growth(self, seat: int) -> None:
        self.ask("growth", seat)

    def step_growth_steps(self, seat: int, group: int, done: int) -> None:
        self.ask("growth_step", seat, group, done)

    def step_energy(self, seat: int) -> None:
        self.energy[seat] += self.energy_per_turn(seat)
        self.plays_left[seat] = self.card_plays(seat)
        if self.has_reclaim_one(seat):
            self.push("reclaim_one", seat)

    def step_play(self, seat: int) -> None:
        self.ask("play", seat)

    def step_reclaim_one(self, seat: int) -> None:
        self.ask("reclaim", seat)

    def step_presence(self, seat: int, distance: int) -> None:
        self.ask("track", seat, distance)

    def step_gain(self, seat: int) -> None:
        if self.progression[seat]:  # the teaching game: the next card of the progression
            card = self.progression[seat].pop(0)
            self.hand[seat].append(card)
            if CARDS[card].kind == MAJOR:
                self.push("forget", seat)
            return
        self.ask("deck", seat)

    def step_forget(self, seat: int) -> None:
        self.ask("forget", seat)

    def step_destroy_presence(self, seat: int, count: int) -> None:
        if count > 0:
            self.ask("destroy_presence", seat, count)

    # Power phases
    def step_powers_start(self, speed: int) -> None:
        for seat in range(self.num_players):
            # the Fast phase lists Slow Powers too: they may be used as Fast (Lightning)
            cards = [c for c in self.played[seat] if CARDS[c].speed == speed or speed == spec.FAST]
            innates = [
                MAX_CARDS + i
                for i, power in enumerate(self.spirit(seat).innates)
                if power.speed == speed or speed == spec.FAST
            ]
            self.unresolved[seat] = [o for o in cards + innates if o not in self.hastened[seat]]
        self.push("powers", speed, 0)

    def step_powers(self, speed: int, start: int) -> None:
        n = self.num_players
        for offset in range(n):
            seat = (start + offset) % n
            if self.candidates(seat, speed):
                self.ask("power", seat, speed)
                return
        for seat in range(n):
            self.unresolved[seat] = []

    def step_use(self, seat: int, option: int) -> None:
        power = self.power_of(seat, option)
        self.ask("target_spirit" if power.target == TARGETS_SPIRIT else "target_land", seat, option)

    # Invader Phase
    def step_blighted(self) -> None:
        if self.blighted:
            self.push("effect", block_of(BLIGHT_CARDS[self.blight_card][2]), 0, -1, 0, -1)

    def step_fear(self) -> None:
        if not self.fear_earned:
            return
        card = self.fear_earned.pop(0)
        self.fear_discard.append(card)
        self.push("fear")
        effect = FEAR_CARDS[card][1][self.terror_level() - 1]
        self.push("effect", block_of(effect), 0, -1, 0, -1)

    def lands_of(self, card: int) -> list[int]:
        if card < 0:
            return []
        terrains = INVADER_CARDS[card].terrains
        if terrains == (COASTAL,):
            return [land for land in self.lands if self.island.coastal[land]]
        return [land for land in self.lands if self.island.terrain[land] in terrains]

    def step_ravage(self) -> None:
        for land in reversed(self.lands_of(self.invader_slots[0])):
            if self.invaders(land) and not self.skips[land] & SKIP_BIT[0]:
                self.push("ravage_land", land)

    def step_ravage_land(self, land: int) -> None:
        if not self.invaders(land):
            return
        row = self.pieces[land]
        damage = sum(INVADER_DAMAGE[k] * row[k] for k in INVADER_KINDS)
        damage = max(0, damage - self.defend[land] - self.vitality(land))
        self.push("dahan_fight", land)
        if not self.skips[land] & SPARE_DAHAN:
            self.push("ravage_dahan", land, damage)
        if damage >= 2:
            self.push("add_blight", land)

    def vitality(self, land: int) -> int:
        """Defend 3 in each Sacred Site of a Spirit with Earth's vitality."""
        return 3 * sum(
            1
            for seat in range(self.num_players)
            if self.spirit(seat).special == "vitality" and land in self.sacred_sites(seat)
        )

    def step_ravage_dahan(self, land: int, damage: int) -> None:
        """Invaders destroy Dahan as efficiently as possible: damaged ones first."""
        row = self.pieces[land]
        kill = min(row[DAHAN_1], damage)
        row[DAHAN_1] -= kill
        damage -= kill
        kill = min(row[DAHAN], damage // 2)
        row[DAHAN] -= kill
        damage -= 2 * kill
        if damage and row[DAHAN]:
            row[DAHAN] -= 1
            row[DAHAN_1] += 1

    def step_dahan_fight(self, land: int) -> None:
        damage = 2 * self.count(land, DAHAN_KINDS)
        if damage and self.invaders(land):
            self.push("damage", land, self.owner(land), damage)

    def step_build(self) -> None:
        for land in self.lands_of(self.invader_slots[1]):
            if self.invaders(land) and not self.skips[land] & SKIP_BIT[1]:
                towns = self.count(land, TOWN_KINDS)
                cities = self.count(land, CITY_KINDS)
                self.pieces[land][spec.CITY if towns > cities else TOWN] += 1

    def step_explore(self) -> None:
        if not self.invader_deck:
            self.lose("the Invader deck ran out: time is up")
            return
        card = self.invader_deck.pop(0)
        self.invader_slots[2] = card
        self.explore_lands(card)

    def explore_lands(self, card: int) -> list[int]:
        """One Explorer in each land of the card's terrain that holds a Town or City, or
        neighbours one or the Ocean; the lands explored, in order."""
        explored = []
        for land in self.lands_of(card):
            if self.skips[land] & SKIP_BIT[2]:
                continue
            if self.explorable(land):
                explored.append(land)
        for land in explored:
            self.pieces[land][EXPLORER] += 1
        return explored

    def explorable(self, land: int) -> bool:
        """Whether Explorers reach ``land``: it is coastal or holds a Town or City, or a
        neighbour holds one (Isolate cuts the neighbours off)."""
        buildings = TOWN_KINDS + CITY_KINDS
        if self.island.coastal[land] or self.count(land, buildings):
            return True
        if self.isolated[land]:
            return False
        return any(
            not self.isolated[other] and self.count(other, buildings)
            for other in self.island.neighbours[land]
        )

    def step_advance(self) -> None:
        ravage, build, explore = self.invader_slots
        if ravage >= 0:
            self.invader_discard.append(ravage)
        self.invader_slots = [build, explore, -1]

    def step_time_passes(self) -> None:
        for seat in range(self.num_players):
            self.discard[seat] += self.played[seat]
            self.played[seat] = []
            self.elements[seat] = [0] * len(spec.ELEMENTS)
            self.plays_left[seat] = 0
            self.unresolved[seat] = []
            self.resolved[seat] = []
            self.hastened[seat] = []
            self.hasten[seat] = 0
            self.repeat_cost[seat] = -1
        for land in self.lands:
            row = self.pieces[land]
            for damaged, healthy in HEALED.items():
                row[healthy] += row[damaged]
                row[damaged] = 0
            self.defend[land] = 0
            self.skips[land] = 0
            self.isolated[land] = False

    # ----- pieces --------------------------------------------------------------------------
    def add_fear(self, amount: int) -> None:
        for _ in range(amount):
            if not self.fear_deck:
                return
            self.fear_pool -= 1
            if self.fear_pool <= 0:
                self.fear_earned.append(self.fear_deck.pop(0))
                self.fear_pool = FEAR_PER_PLAYER * self.num_players

    def destroy_piece(self, land: int, kind: int) -> None:
        self.pieces[land][kind] -= 1
        self.add_fear(FEAR_OF.get(kind, 0))

    def damage_piece(self, land: int, kind: int, amount: int = 1) -> None:
        """``amount`` Damage to one piece of ``kind``; destroyed at no health left."""
        for _ in range(amount):
            after = DAMAGED[kind]
            if after is None:
                self.destroy_piece(land, kind)
                return
            self.pieces[land][kind] -= 1
            self.pieces[land][after] += 1
            kind = after

    def step_add_blight(self, land: int) -> None:
        had = self.pieces[land][BLIGHT] > 0
        self.take_blight()
        self.pieces[land][BLIGHT] += 1
        for seat in range(self.num_players):
            if self.presence[seat][land]:
                self.destroy_presence(seat, land)
        if had:
            self.ask("cascade", self.owner(land), land)

    def take_blight(self) -> None:
        """One Blight off the Blight card: the Healthy side, once empty, flips to Blighted
        Island with its own amount; the Blighted side empty is a defeat."""
        if self.blight_pool > 0:
            self.blight_pool -= 1
        if self.blight_pool == 0:
            if self.blighted:
                self.lose("no Blight left on the Blight card")
            else:
                self.blighted = True
                self.blight_pool = BLIGHT_CARDS[self.blight_card][1] * self.num_players

    def destroy_presence(self, seat: int, land: int) -> None:
        self.presence[seat][land] -= 1
        self.destroyed_presence[seat] += 1
        if not any(self.presence[seat]):
            self.lose(f"player_{seat}'s Spirit has no Presence left on the island")

    # ----- effects -------------------------------------------------------------------------
    def step_effect(self, block: int, pc: int, land: int, seat: int, target: int) -> None:
        ops = BLOCKS[block]
        if pc >= len(ops):
            return
        if pc + 1 < len(ops):
            self.push("effect", block, pc + 1, land, seat, target)
        op = ops[pc]
        getattr(self, "op_" + op[0])(land, seat, target, block, pc, *op[1:])

    def frame(self, ops: tuple[Any, ...], land: int, seat: int, target: int) -> None:
        if ops:
            self.push("effect", block_of(ops), 0, land, seat, target)

    def op_damage(self, land: int, seat: int, target: int, block: int, pc: int, n: int) -> None:
        if land >= 0 and n:
            self.push("damage", land, seat, n)

    def op_damage_each(
        self, land: int, seat: int, target: int, block: int, pc: int, n: int, kinds: Any
    ) -> None:
        if land < 0:
            return
        row = self.pieces[land]
        before = [row[k] for k in kinds]
        for kind, count in zip(kinds, before, strict=True):
            for _ in range(count):
                self.damage_piece(land, kind, n)

    def op_destroy(
        self, land: int, seat: int, target: int, block: int, pc: int, kinds: tuple[int, ...], n: int
    ) -> None:
        if land >= 0:
            self.push("destroy", land, seat, kinds_mask(kinds), n)

    def op_remove(
        self, land: int, seat: int, target: int, block: int, pc: int, kinds: tuple[int, ...], n: int
    ) -> None:
        if land >= 0:
            self.push("remove", land, seat, kinds_mask(kinds), n)

    def op_push(
        self,
        land: int,
        seat: int,
        target: int,
        block: int,
        pc: int,
        kinds: tuple[int, ...],
        n: int,
        upto: bool,
    ) -> None:
        if land >= 0:
            self.push("push", land, seat, kinds_mask(kinds), n, int(upto))

    def op_gather(
        self,
        land: int,
        seat: int,
        target: int,
        block: int,
        pc: int,
        kinds: tuple[int, ...],
        n: int,
        upto: bool,
    ) -> None:
        if land >= 0:
            self.push("gather", land, seat, kinds_mask(kinds), n, int(upto))

    def op_add(
        self, land: int, seat: int, target: int, block: int, pc: int, kind: int, n: int
    ) -> None:
        if land < 0:
            return
        if kind == BLIGHT:
            for _ in range(n):
                self.push("add_blight", land)
        else:
            self.pieces[land][kind] += n

    def op_remove_blight(
        self, land: int, seat: int, target: int, block: int, pc: int, n: int
    ) -> None:
        if land >= 0:
            taken = min(n, self.pieces[land][BLIGHT])
            self.pieces[land][BLIGHT] -= taken
            self.blight_pool += taken

    def op_defend(self, land: int, seat: int, target: int, block: int, pc: int, n: int) -> None:
        if land >= 0:
            self.defend[land] += n

    def op_fear(self, land: int, seat: int, target: int, block: int, pc: int, n: int) -> None:
        self.add_fear(n)

    def op_energy(self, land: int, seat: int, target: int, block: int, pc: int, n: int) -> None:
        self.energy[target if target >= 0 else seat] += n

    def op_energy_per_card(self, land: int, seat: int, target: int, block: int, pc: int) -> None:
        who = target if target >= 0 else seat
        self.energy[who] += len(self.played[who])

    def op_isolate(self, land: int, seat: int, target: int, block: int, pc: int) -> None:
        if land >= 0:
            self.isolated[land] = True

    def op_skip(self, land: int, seat: int, target: int, block: int, pc: int, action: int) -> None:
        if land >= 0:
            self.skips[land] |= SKIP_BIT[action]

    def op_dahan_damage(
        self, land: int, seat: int, target: int, block: int, pc: int, n: int
    ) -> None:
        if land >= 0:
            damage = n * self.count(land, DAHAN_KINDS)
            if damage and self.invaders(land):
                self.push("damage", land, seat, damage)

    def op_if(
        self,
        land: int,
        seat: int,
        target: int,
        block: int,
        pc: int,
        cond: tuple[Any, ...],
        ops: tuple[Any, ...],
        otherwise: tuple[Any, ...],
    ) -> None:
        chosen = ops if self.condition(cond, land, seat, target) else otherwise
        self.frame(chosen, land, seat, target)

    def op_choose(
        self, land: int, seat: int, target: int, block: int, pc: int, *effects: Any
    ) -> None:
        self.ask("choose", seat, block, pc, land, target)

    def op_each_land(
        self, land: int, seat: int, target: int, block: int, pc: int, conditions: Any, ops: Any
    ) -> None:
        for each in reversed([x for x in self.lands if self.land_matches(x, conditions)]):
            self.frame(ops, each, self.owner(each), -1)

    def op_spirit_land(
        self,
        land: int,
        seat: int,
        target: int,
        block: int,
        pc: int,
        conditions: Any,
        ops: Any,
        different: bool,
    ) -> None:
        self.push("spirit_land", block, pc, 0, 0)

    def step_spirit_land(self, block: int, pc: int, seat: int, taken: int) -> None:
        """``seat`` picks its land (``taken``: the lands picked before it, as bits); for
        "each Spirit picks", the next Spirit picks once this one's effect has run."""
        if self.opt_spirit_land(seat, block, pc, taken):
            self.ask("spirit_land", seat, block, pc, taken)
        else:
            self.next_pick(block, pc, seat, taken)

    def next_pick(self, block: int, pc: int, seat: int, taken: int) -> None:
        if BLOCKS[block][pc][0] == "spirit_land" and seat + 1 < self.num_players:
            self.push("spirit_land", block, pc, seat + 1, taken)

    def op_hasten(self, land: int, seat: int, target: int, block: int, pc: int, n: int) -> None:
        who = target if target >= 0 else seat
        self.hasten[who] += n
        fast_phase = any(e[0] == STEP["powers"] and e[1] == spec.FAST for e in self.queue)
        if self.unresolved[who] or who == seat or not fast_phase:
            return
        # a Spirit that passed may use its hastened Slow Powers in this phase after all
        self.unresolved[who] = [
            o
            for o in [
                *self.played[who],
                *(MAX_CARDS + i for i in range(len(self.spirit(who).innates))),
            ]
            if o not in self.hastened[who] and o not in self.resolved[who]
        ]

    def op_repeat(self, land: int, seat: int, target: int, block: int, pc: int, n: int) -> None:
        who = target if target >= 0 else seat
        self.repeat_cost[who] = max(self.repeat_cost[who], n)

    def op_spare_dahan(self, land: int, seat: int, target: int, block: int, pc: int) -> None:
        if land >= 0:
            self.skips[land] |= SPARE_DAHAN

    def op_own_land(
        self, land: int, seat: int, target: int, block: int, pc: int, conditions: Any, ops: Any
    ) -> None:
        self.push("spirit_land", block, pc, target if target >= 0 else seat, 0)

    def op_seat_lands(
        self, land: int, seat: int, target: int, block: int, pc: int, conditions: Any, ops: Any
    ) -> None:
        for each in reversed([x for x in self.lands if self.land_matches(x, conditions, seat)]):
            self.frame(ops, each, seat, target)

    def op_land_in_range(
        self,
        land: int,
        seat: int,
        target: int,
        block: int,
        pc: int,
        conditions: Any,
        ops: Any,
        distance: int,
        sacred: bool,
    ) -> None:
        self.push("spirit_land", block, pc, seat, 0)

    def op_add_presence(self, land: int, seat: int, target: int, block: int, pc: int) -> None:
        if land >= 0:
            self.ask("claim_track", seat, land)

    def op_remove_health(
        self, land: int, seat: int, target: int, block: int, pc: int, n: int, per_presence: bool
    ) -> None:
        if land >= 0:
            self.push(
                "remove_health", land, seat, n * self.presence[seat][land] if per_presence else n
            )

    def op_dahan_strike(self, land: int, seat: int, target: int, block: int, pc: int) -> None:
        if land >= 0:
            self.push("strike", land, seat, self.count(land, DAHAN_KINDS), 0)

    def op_move_to_land(
        self,
        land: int,
        seat: int,
        target: int,
        block: int,
        pc: int,
        conditions: Any,
        ops: Any,
        kinds: Any,
        n: int,
    ) -> None:
        if land >= 0:  # the land the pieces leave is the one "taken" land: no destination
            self.push("spirit_land", block, pc, seat, 1 << land)

    def step_move(self, land: int, to: int, seat: int, mask: int, n: int) -> None:
        if n > 0:
            self.ask("move_piece", seat, land, to, mask, n)

    def op_pick_land(
        self, land: int, seat: int, target: int, block: int, pc: int, conditions: Any, ops: Any
    ) -> None:
        self.push("spirit_land", block, pc, seat, 0)

    def op_per(
        self, land: int, seat: int, target: int, block: int, pc: int, kinds: Any, ops: Any
    ) -> None:
        if land >= 0:
            for _ in range(self.count(land, kinds)):
                self.frame(ops, land, seat, target)

    def op_per_adjacent(
        self, land: int, seat: int, target: int, block: int, pc: int, kinds: Any, ops: Any
    ) -> None:
        if land >= 0:
            for _ in range(sum(self.count(x, kinds) for x in self.island.neighbours[land])):
                self.frame(ops, land, seat, target)

    def op_target_lands(
        self, land: int, seat: int, target: int, block: int, pc: int, ops: Any
    ) -> None:
        who = target if target >= 0 else seat
        for each in reversed([x for x in self.lands if self.presence[who][x] > 0]):
            self.frame(ops, each, seat, target)

    def op_each_adjacent(
        self, land: int, seat: int, target: int, block: int, pc: int, ops: Any
    ) -> None:
        if land >= 0:
            for each in reversed(self.island.neighbours[land]):
                self.frame(ops, each, seat, target)

    def op_adjacent(self, land: int, seat: int, target: int, block: int, pc: int, ops: Any) -> None:
        if land >= 0:
            self.ask("adjacent_land", seat, block, pc, land, target)

    def op_board_lands(
        self, land: int, seat: int, target: int, block: int, pc: int, conditions: Any, ops: Any
    ) -> None:
        if land < 0:
            return
        board = land // LANDS_PER_BOARD
        lands = [
            x
            for x in self.lands
            if x // LANDS_PER_BOARD == board
            and x != land
            and self.land_matches(x, conditions, seat)
        ]
        for each in reversed(lands):
            self.frame(ops, each, seat, target)

    def op_gain_minor(self, land: int, seat: int, target: int, block: int, pc: int) -> None:
        self.res_deck(target if target >= 0 else seat, 0)

    def op_each_spirit(
        self, land: int, seat: int, target: int, block: int, pc: int, ops: Any
    ) -> None:
        for each in reversed(range(self.num_players)):
            self.frame(ops, land, each, -1)

    def op_destroy_presence(
        self, land: int, seat: int, target: int, block: int, pc: int, n: int
    ) -> None:
        self.push("destroy_presence", seat, n)

    def op_gather_presence(
        self, land: int, seat: int, target: int, block: int, pc: int, n: int
    ) -> None:
        if land >= 0:
            self.push("gather_presence", land, seat, n)

    def step_gather_presence(self, land: int, seat: int, n: int) -> None:
        if n > 0:
            self.ask("presence_more", seat, land, n)

    def opt_presence_more(self, seat: int, land: int, n: int) -> list[int]:
        if not self.opt_presence_source(seat, land, n):
            return []
        return [PRESENCE_OPTION + seat, PIECE_STOP]

    def opt_presence_source(self, seat: int, land: int, n: int) -> list[int]:
        return [x for x in self.movable_to(land) if self.presence[seat][x] > 0]

    def res_presence_more(self, seat: int, option: int, land: int, n: int) -> None:
        if option != PIECE_STOP:
            self.ask("presence_source", seat, land, n)

    def res_presence_source(self, seat: int, source: int, land: int, n: int) -> None:
        self.presence[seat][source] -= 1
        self.presence[seat][land] += 1
        self.push("gather_presence", land, seat, n - 1)

    def op_forget(self, land: int, seat: int, target: int, block: int, pc: int) -> None:
        self.push("forget", seat)

    # piece-by-piece steps
    def step_damage(self, land: int, seat: int, n: int) -> None:
        if n > 0:
            self.ask("damage", seat, land, n)

    def step_destroy(self, land: int, seat: int, mask: int, n: int) -> None:
        if n > 0:
            self.ask("destroy", seat, land, mask, n)

    def step_remove_health(self, land: int, seat: int, n: int) -> None:
        if n > 0:
            self.ask("remove_health", seat, land, n)

    def step_strike(self, land: int, seat: int, n: int, struck: int) -> None:
        """Pick the next Invader a Dahan strikes; once all have, deal the Damage (the most
        damaged kinds first, so no piece is struck twice)."""
        if n > 0 and self.opt_strike(seat, land, n, struck):
            self.ask("strike", seat, land, n, struck)
            return
        for index in reversed(range(len(INVADER_KINDS))):
            for _ in range(struck >> spec.STRIKE_BITS * index & (1 << spec.STRIKE_BITS) - 1):
                self.damage_piece(land, INVADER_KINDS[index])

    def step_remove(self, land: int, seat: int, mask: int, n: int) -> None:
        if n > 0:
            self.ask("remove", seat, land, mask, n)

    def step_push(self, land: int, seat: int, mask: int, n: int, upto: int) -> None:
        if n > 0:
            self.ask("push_piece", seat, land, mask, n, upto)

    def step_gather(self, land: int, seat: int, mask: int, n: int, upto: int) -> None:
        if n > 0:
            self.ask("gather_piece", seat, land, mask, n, upto)

    # ----- options of each decision --------------------------------------------------------
    def options_for(self, purpose: str, seat: int, ctx: list[int]) -> list[int]:
        return getattr(self, "opt_" + purpose)(seat, *ctx)

    def opt_growth(self, seat: int) -> list[int]:
        return list(range(len(self.spirit(seat).growth)))

    def opt_growth_step(self, seat: int, group: int, done: int) -> list[int]:
        actions = self.spirit(seat).growth[group]
        options, seen = [], set()
        for i, action in enumerate(actions):
            if not done >> i & 1 and action not in seen:
                seen.add(action)
                options.append(i)
        return options

    def track_open(self, seat: int, track: int) -> bool:
        spirit = self.spirit(seat)
        if track == 0:
            return self.energy_track[seat] < len(spirit.energy_track) - 1
        return self.card_track[seat] < len(spirit.card_track) - 1

    def opt_track(self, seat: int, distance: int) -> list[int]:
        return [t for t in (0, 1) if self.track_open(seat, t)]

    def opt_presence_land(self, seat: int, distance: int, track: int) -> list[int]:
        if not self.track_open(seat, track):
            return []
        return self.in_range(seat, distance)

    def opt_play(self, seat: int) -> list[int]:
        options = []
        if self.plays_left[seat] > 0:
            options = sorted(c for c in self.hand[seat] if CARDS[c].cost <= self.energy[seat])
        return [*options, CARD_DONE]

    def opt_power(self, seat: int, speed: int) -> list[int]:
        usable = self.candidates(seat, speed)
        return [*usable, POWER_PASS] if usable else []

    def opt_target_land(self, seat: int, option: int) -> list[int]:
        return self.targets(seat, option)

    def opt_target_spirit(self, seat: int, option: int) -> list[int]:
        return self.targets(seat, option)

    def opt_deck(self, seat: int) -> list[int]:
        options = []
        if self.minor_deck or self.minor_discard:
            options.append(0)
        if self.major_deck or self.major_discard:
            options.append(1)
        return options

    def opt_keep(self, seat: int) -> list[int]:
        return list(range(len(self.drawn))) if self.drawn_by == seat else []

    def opt_forget(self, seat: int) -> list[int]:
        return sorted(self.hand[seat] + self.played[seat] + self.discard[seat])

    def opt_reclaim(self, seat: int) -> list[int]:
        return [*sorted(self.discard[seat]), CARD_DONE] if self.discard[seat] else []

    def invader_options(self, land: int, mask: int) -> list[int]:
        row = self.pieces[land]
        return [k for k in in_mask(mask) if row[k] > 0]

    def opt_damage(self, seat: int, land: int, n: int) -> list[int]:
        return self.invader_options(land, kinds_mask(INVADER_KINDS))

    def opt_destroy(self, seat: int, land: int, mask: int, n: int) -> list[int]:
        return self.invader_options(land, mask)

    def opt_remove(self, seat: int, land: int, mask: int, n: int) -> list[int]:
        return self.invader_options(land, mask)

    def movable_to(self, land: int) -> list[int]:
        if self.isolated[land]:
            return []
        return [x for x in self.island.neighbours[land] if not self.isolated[x]]

    def opt_push_piece(self, seat: int, land: int, mask: int, n: int, upto: int) -> list[int]:
        if not self.movable_to(land):
            return []
        options = self.invader_options(land, mask)
        return [*options, PIECE_STOP] if options and upto else options

    def opt_push_dest(
        self, seat: int, land: int, mask: int, n: int, upto: int, kind: int
    ) -> list[int]:
        return self.movable_to(land) if self.pieces[land][kind] > 0 else []

    def opt_gather_piece(self, seat: int, land: int, mask: int, n: int, upto: int) -> list[int]:
        sources = self.movable_to(land)
        options = [k for k in in_mask(mask) if any(self.pieces[x][k] for x in sources)]
        return [*options, PIECE_STOP] if options and upto else options

    def opt_gather_source(
        self, seat: int, land: int, mask: int, n: int, upto: int, kind: int
    ) -> list[int]:
        return [x for x in self.movable_to(land) if self.pieces[x][kind] > 0]

    def opt_cascade(self, seat: int, land: int) -> list[int]:
        return list(self.island.neighbours[land])

    def opt_spirit_land(self, seat: int, block: int, pc: int, taken: int) -> list[int]:
        op = BLOCKS[block][pc]
        own = op[0] == "own_land"
        lands = self.in_range(seat, op[3], op[4]) if op[0] == "land_in_range" else self.lands
        return [
            x
            for x in lands
            if self.land_matches(x, op[1], seat)
            and (not own or self.presence[seat][x] > 0)
            and not taken >> x & 1
        ]

    def opt_remove_health(self, seat: int, land: int, n: int) -> list[int]:
        row = self.pieces[land]
        options = [k for k in INVADER_KINDS if row[k] and spec.PRINTED_HEALTH[k] <= n]
        return [*options, PIECE_STOP] if options else []

    def opt_strike(self, seat: int, land: int, n: int, struck: int) -> list[int]:
        row = self.pieces[land]
        width = (1 << spec.STRIKE_BITS) - 1
        return [
            k
            for index, k in enumerate(INVADER_KINDS)
            if min(row[k], width) > struck >> spec.STRIKE_BITS * index & width
        ]

    def opt_move_piece(self, seat: int, land: int, to: int, mask: int, n: int) -> list[int]:
        options = self.invader_options(land, mask)
        return [*options, PIECE_STOP] if options else []

    def opt_claim_track(self, seat: int, land: int) -> list[int]:
        return [t for t in (0, 1) if self.track_open(seat, t)]

    def opt_adjacent_land(
        self, seat: int, block: int, pc: int, land: int, target: int
    ) -> list[int]:
        return list(self.island.neighbours[land])

    def opt_choose(self, seat: int, block: int, pc: int, land: int, target: int) -> list[int]:
        return list(range(len(BLOCKS[block][pc]) - 1))

    def opt_destroy_presence(self, seat: int, n: int) -> list[int]:
        return [x for x in self.lands if self.presence[seat][x] > 0]

    # ----- resolving a decision ------------------------------------------------------------
    def resolve(self, purpose: str, seat: int, ctx: list[int], option: int) -> None:
        getattr(self, "res_" + purpose)(seat, option, *ctx)

    def res_growth(self, seat: int, group: int) -> None:
        self.push("growth_steps", seat, group, 0)

    def res_growth_step(self, seat: int, index: int, group: int, done: int) -> None:
        actions = self.spirit(seat).growth[group]
        done |= 1 << index
        if done != (1 << len(actions)) - 1:
            self.push("growth_steps", seat, group, done)
        action, amount = actions[index]
        if action == "reclaim_all":
            self.hand[seat] += self.discard[seat]
            self.discard[seat] = []
        elif action == "reclaim_one":
            self.push("reclaim_one", seat)
        elif action == "gain_card":
            self.push("gain", seat)
        elif action == "energy":
            self.energy[seat] += amount
        else:
            self.push("presence", seat, amount)

    def res_track(self, seat: int, track: int, distance: int) -> None:
        self.ask("presence_land", seat, distance, track)

    def res_presence_land(self, seat: int, land: int, distance: int, track: int) -> None:
        self.place_presence(seat, land, track)

    def res_remove_health(self, seat: int, kind: int, land: int, n: int) -> None:
        if kind != PIECE_STOP:
            self.pieces[land][kind] -= 1
            self.push("remove_health", land, seat, n - spec.PRINTED_HEALTH[kind])

    def res_strike(self, seat: int, kind: int, land: int, n: int, struck: int) -> None:
        index = INVADER_KINDS.index(kind)
        self.push("strike", land, seat, n - 1, struck + (1 << spec.STRIKE_BITS * index))

    def res_move_piece(self, seat: int, kind: int, land: int, to: int, mask: int, n: int) -> None:
        if kind != PIECE_STOP:
            self.pieces[land][kind] -= 1
            self.pieces[to][kind] += 1
            self.push("move", land, to, seat, mask, n - 1)

    def res_claim_track(self, seat: int, track: int, land: int) -> None:
        self.place_presence(seat, land, track)

    def place_presence(self, seat: int, land: int, track: int) -> None:
        """One Presence from the top of ``track`` (0 Energy, 1 card plays) into ``land``."""
        if track == 0:
            self.energy_track[seat] += 1
        else:
            self.card_track[seat] += 1
        self.presence[seat][land] += 1

    def res_play(self, seat: int, card: int) -> None:
        if card == CARD_DONE:
            return
        self.hand[seat].remove(card)
        self.played[seat].append(card)
        self.energy[seat] -= CARDS[card].cost
        self.plays_left[seat] -= 1
        for i, count in enumerate(CARDS[card].elements):
            self.elements[seat][i] += count
        self.push("play", seat)

    def res_power(self, seat: int, option: int, speed: int) -> None:
        self.push("powers", speed, (seat + 1) % self.num_players)
        if option == POWER_PASS:
            self.unresolved[seat] = []
            return
        if option in self.unresolved[seat] and option not in self.resolved[seat]:
            self.unresolved[seat].remove(option)
            if speed == spec.FAST and self.power_of(seat, option).speed == spec.SLOW:
                self.hastened[seat].append(option)
            if option < MAX_CARDS:
                self.resolved[seat].append(option)
        else:  # a repeat of a card already resolved
            self.repeat_cost[seat] = -1
        self.push("use", seat, option)

    def res_target_land(self, seat: int, land: int, option: int) -> None:
        if self.shadows_pay(seat, option, land):
            self.energy[seat] -= 1
        self.start_power(seat, option, land, -1)

    def res_target_spirit(self, seat: int, target: int, option: int) -> None:
        self.start_power(seat, option, -1, target)

    def start_power(self, seat: int, option: int, land: int, target: int) -> None:
        power = self.power_of(seat, option)
        if option < MAX_CARDS:
            self.frame(power.effect, land, seat, target)
            return
        for tier in reversed(self.innate_tiers(seat, power)):
            self.frame(power.tiers[tier][2], land, seat, target)

    def res_deck(self, seat: int, major: int) -> None:
        deck = self.major_deck if major else self.minor_deck
        discard = self.major_discard if major else self.minor_discard
        drawn = []
        for _ in range(DRAW):
            if not deck and discard:
                deck += [discard[i] for i in self.rng.permutation(len(discard))]
                discard.clear()
            if deck:
                drawn.append(deck.pop(0))
        self.drawn, self.drawn_by, self.drawn_major = drawn, seat, bool(major)
        self.ask("keep", seat)

    def res_keep(self, seat: int, index: int) -> None:
        card = self.drawn[index]
        discard = self.major_discard if self.drawn_major else self.minor_discard
        discard += [c for c in self.drawn if c != card]
        self.hand[seat].append(card)
        major = self.drawn_major
        self.drawn, self.drawn_by, self.drawn_major = [], NO_SEAT, False
        if major:
            self.push("forget", seat)

    def res_forget(self, seat: int, card: int) -> None:
        for pile in (self.hand[seat], self.played[seat], self.discard[seat]):
            if card in pile:
                pile.remove(card)
                break
        kind = CARDS[card].kind
        if kind == MINOR:
            self.minor_discard.append(card)
        elif kind == MAJOR:
            self.major_discard.append(card)
        else:
            self.forgotten.append(card)

    def res_reclaim(self, seat: int, card: int) -> None:
        if card != CARD_DONE:
            self.discard[seat].remove(card)
            self.hand[seat].append(card)

    def res_damage(self, seat: int, kind: int, land: int, n: int) -> None:
        self.damage_piece(land, kind)
        self.push("damage", land, seat, n - 1)

    def res_destroy(self, seat: int, kind: int, land: int, mask: int, n: int) -> None:
        self.destroy_piece(land, kind)
        self.push("destroy", land, seat, mask, n - 1)

    def res_remove(self, seat: int, kind: int, land: int, mask: int, n: int) -> None:
        self.pieces[land][kind] -= 1
        self.push("remove", land, seat, mask, n - 1)

    def res_push_piece(self, seat: int, kind: int, land: int, mask: int, n: int, upto: int) -> None:
        if kind != PIECE_STOP:
            self.ask("push_dest", seat, land, mask, n, upto, kind)

    def res_push_dest(
        self, seat: int, dest: int, land: int, mask: int, n: int, upto: int, kind: int
    ) -> None:
        self.pieces[land][kind] -= 1
        self.pieces[dest][kind] += 1
        self.push("push", land, seat, mask, n - 1, upto)

    def res_gather_piece(
        self, seat: int, kind: int, land: int, mask: int, n: int, upto: int
    ) -> None:
        if kind != PIECE_STOP:
            self.ask("gather_source", seat, land, mask, n, upto, kind)

    def res_gather_source(
        self, seat: int, source: int, land: int, mask: int, n: int, upto: int, kind: int
    ) -> None:
        self.pieces[source][kind] -= 1
        self.pieces[land][kind] += 1
        self.push("gather", land, seat, mask, n - 1, upto)

    def res_cascade(self, seat: int, dest: int, land: int) -> None:
        self.push("add_blight", dest)

    def res_spirit_land(self, seat: int, land: int, block: int, pc: int, taken: int) -> None:
        op = BLOCKS[block][pc]
        different = op[0] == "spirit_land" and op[3]
        self.next_pick(block, pc, seat, taken | (1 << land if different else 0))
        self.frame(op[2], land, seat, -1)
        if op[0] == "move_to_land":  # the pieces move before the effect runs there
            self.push("move", taken.bit_length() - 1, land, seat, kinds_mask(op[3]), op[4])

    def res_adjacent_land(
        self, seat: int, chosen: int, block: int, pc: int, land: int, target: int
    ) -> None:
        self.frame(BLOCKS[block][pc][1], chosen, seat, target)

    def res_choose(
        self, seat: int, which: int, block: int, pc: int, land: int, target: int
    ) -> None:
        self.frame(BLOCKS[block][pc][1 + which], land, seat, target)

    def res_destroy_presence(self, seat: int, land: int, n: int) -> None:
        self.destroy_presence(seat, land)
        self.push("destroy_presence", seat, n - 1)

    # ----- invariants ----------------------------------------------------------------------
    def check_invariants(self) -> Iterator[tuple[str, str]]:
        n, lands = self.num_players, len(self.island.terrain)
        per_seat = {
            "presence": self.presence,
            "destroyed_presence": self.destroyed_presence,
            "energy_track": self.energy_track,
            "card_track": self.card_track,
            "energy": self.energy,
            "plays_left": self.plays_left,
            "elements": self.elements,
            "hand": self.hand,
            "played": self.played,
            "discard": self.discard,
            "unresolved": self.unresolved,
            "progression": self.progression,
            "resolved": self.resolved,
            "hastened": self.hastened,
            "hasten": self.hasten,
            "repeat_cost": self.repeat_cost,
        }
        for name, value in per_seat.items():
            if len(value) != n:
                yield name, f"needs one entry per seat ({n})"
                return
        per_land = {
            "pieces": self.pieces,
            "defend": self.defend,
            "skips": self.skips,
            "isolated": self.isolated,
        }
        for name, value in per_land.items():
            if len(value) != lands:
                yield name, f"needs one entry per land ({lands})"
                return
        if any(len(row) != KINDS or min(row) < 0 for row in self.pieces):
            yield "pieces", f"each land needs {KINDS} counts, none negative"
        if any(len(row) != lands or min(row) < 0 for row in self.presence):
            yield "presence", "each Spirit needs a count per land, none negative"
        if any(len(row) != len(spec.ELEMENTS) or min(row) < 0 for row in self.elements):
            yield "elements", "each Spirit needs a count per element, none negative"
        if min(self.defend) < 0 or any(not 0 <= s < 16 for s in self.skips):
            yield "defend", "Defend and skip flags out of range"
        for seat in range(n):
            spirit = self.spirit(seat)
            if any(not 0 <= c < len(CARDS) for c in self.resolved[seat]):
                yield "resolved", f"player_{seat}: not a Power card"
            if any(
                not (0 <= c < len(CARDS) or 0 <= c - MAX_CARDS < len(spirit.innates))
                for c in self.hastened[seat]
            ):
                yield "hastened", f"player_{seat}: not a Power"
            if not 0 <= self.hasten[seat] <= 2 * len(CARDS):
                yield "hasten", f"player_{seat}: {self.hasten[seat]} out of range"
            if not -1 <= self.repeat_cost[seat] <= 99:
                yield "repeat_cost", f"player_{seat}: {self.repeat_cost[seat]} out of range"
            if not 0 <= self.energy_track[seat] < len(spirit.energy_track):
                yield "energy_track", f"player_{seat}: {self.energy_track[seat]} outside the track"
            if not 0 <= self.card_track[seat] < len(spirit.card_track):
                yield "card_track", f"player_{seat}: {self.card_track[seat]} outside the track"
            setup = sum(count for _, count in spirit.setup)
            on_island = sum(self.presence[seat]) + self.destroyed_presence[seat]
            if on_island != setup + self.energy_track[seat] + self.card_track[seat]:
                yield "presence", f"player_{seat}: Presence is not conserved"
            if self.energy[seat] < 0 or self.plays_left[seat] < 0:
                yield "energy", f"player_{seat}: negative Energy or card plays"
            if self.plays_left[seat] > max(spirit.card_track):
                yield "plays_left", f"player_{seat}: more card plays than the track gives"
            if any(not (c in self.played[seat] or c >= MAX_CARDS) for c in self.unresolved[seat]):
                yield "unresolved", f"player_{seat}: an unresolved Power was not played"
            elif any(c - MAX_CARDS >= len(spirit.innates) for c in self.unresolved[seat]):
                yield "unresolved", f"player_{seat}: no such innate Power"
            elif len(set(self.unresolved[seat])) != len(self.unresolved[seat]):
                yield "unresolved", f"player_{seat}: a Power is listed twice"
        places = [
            *self.progression,
            *self.hand,
            *self.played,
            *self.discard,
            self.forgotten,
            self.minor_deck,
            self.minor_discard,
            self.major_deck,
            self.major_discard,
            self.drawn,
        ]
        cards = sorted(c for pile in places for c in pile)
        expected = sorted(
            [u for s in range(n) for u in self.spirit(s).uniques] + [*MINORS, *MAJORS]
        )
        if cards != expected:
            yield "hand", "the Power cards are not each in exactly one place"
        if self.drawn and (not 0 <= self.drawn_by < n or len(self.drawn) > DRAW):
            yield "drawn", "drawn cards need the seat that drew them"
        if not self.drawn and (self.drawn_by != NO_SEAT or self.drawn_major):
            yield "drawn_by", "no cards are drawn"
        if self.drawn and any((CARDS[c].kind == MAJOR) != self.drawn_major for c in self.drawn):
            yield "drawn_major", "drawn cards come from one deck"
        if len(self.invader_slots) != 3:
            yield "invader_slots", "three slots: Ravage, Build, Explore"
            return
        slots = [c for c in self.invader_slots if c != -1]
        invaders = [*self.invader_deck, *slots, *self.invader_discard]
        if len(set(invaders)) != len(invaders) or any(
            not 0 <= c < len(INVADER_CARDS) for c in invaders
        ):
            yield "invader_deck", "Invader cards must be distinct cards"
        elif [INVADER_CARDS[c].stage for c in self.invader_deck] != list(
            INVADER_DECK_STAGES[len(INVADER_DECK_STAGES) - len(self.invader_deck) :]
        ):
            yield "invader_deck", "the Invader deck's stages are out of order"
        elif len(invaders) != len(INVADER_DECK_STAGES):
            yield "invader_discard", "12 Invader cards in play"
        fear = [*self.fear_deck, *self.fear_earned, *self.fear_discard]
        if (
            len(fear) != FEAR_DECK_SIZE
            or len(set(fear)) != len(fear)
            or any(not 0 <= c < len(FEAR_CARDS) for c in fear)
        ):
            yield "fear_deck", f"{FEAR_DECK_SIZE} distinct Fear cards"
        if not 0 < self.fear_pool <= FEAR_PER_PLAYER * n:
            yield "fear_pool", f"outside 1..{FEAR_PER_PLAYER * n}"
        if not 0 <= self.blight_card < len(BLIGHT_CARDS):
            yield "blight_card", "no such Blight card"
        if self.blight_pool < 0 or (self.blight_pool == 0 and self.outcome == 0):
            yield "blight_pool", "the Blight card is empty while the game goes on"
        if self.outcome not in (-1, 0, 1):
            yield "outcome", "must be -1, 0 or 1"
        if self.outcome == 0 and not self.pending:
            yield "pending", "a game that goes on waits for a decision"
        if self.outcome != 0 and (self.pending or self.options_):
            yield "pending", "a finished game has no decision"
        if self.loss_pending and self.outcome == 0:
            yield "loss_pending", "a defeat that did not end the game"
        if not 0 <= self.turn <= MAX_TURNS or self.decisions < 0:
            yield "turn", f"outside 0..{MAX_TURNS}"
        yield from self.check_queue()
        if self.pending:
            yield from self.check_pending()

    ARG_RANGES: ClassVar = {}

    def arg_ok(self, kind: str, value: int, ctx: list[int]) -> bool:
        n, lands = self.num_players, len(self.pieces)
        if kind == "seat":
            return 0 <= value < n
        if kind == "seat?":
            return -1 <= value < n
        if kind == "land":
            return 0 <= value < lands
        if kind == "land?":
            return -1 <= value < lands
        if kind == "block":
            return 0 <= value < len(BLOCKS)
        if kind == "pc":
            return 0 <= value < 16
        if kind in ("count", "range"):
            return 0 <= value <= 99
        if kind == "taken":
            return 0 <= value < 1 << lands
        if kind == "struck":
            return 0 <= value < 1 << spec.STRIKE_BITS * len(INVADER_KINDS)
        if kind == "mask":
            return 0 < value < 1 << spec.BLIGHT
        if kind == "done":
            return 0 <= value < 1 << spec.MAX_GROWTH
        if kind == "flag":
            return value in (0, 1)
        if kind == "speed":
            return value in (0, 1)
        if kind == "group":
            return 0 <= value < spec.MAX_GROWTH
        if kind == "power":
            return 0 <= value < len(CARDS) or MAX_CARDS <= value < MAX_CARDS + spec.MAX_INNATES
        if kind == "track":
            return value in (0, 1)
        if kind == "kind":
            return value in INVADER_KINDS or value in DAHAN_KINDS
        return False

    def check_step(self, code: int, args: list[int]) -> str:
        if not 0 <= code < len(STEP_NAMES):
            return f"unknown step {code}"
        kinds = STEP_ARGS[code]
        if len(args) != len(kinds):
            return f"{STEP_NAMES[code]} takes {len(kinds)} arguments"
        for kind, value in zip(kinds, args, strict=True):
            if not self.arg_ok(kind, value, args):
                return f"{STEP_NAMES[code]}: {kind} {value} out of range"
        name = STEP_NAMES[code]
        if name in ("effect", "spirit_land", "choose"):
            block, pc = args[0], args[1]
            if pc >= len(BLOCKS[block]):
                return f"{name}: no operation {pc} in effect {block}"
            if name == "spirit_land" and BLOCKS[block][pc][0] not in LAND_PICKS:
                return "spirit_land: the operation picks no land"
        if name == "growth_steps":
            if args[1] >= len(self.spirit(args[0]).growth):
                return "growth_steps: no such group"
            if args[2] >= 1 << len(self.spirit(args[0]).growth[args[1]]):
                return "growth_steps: bad mask"
        innates = len(self.spirit(args[0]).innates) if name == "use" else 0
        if name == "use" and args[1] >= MAX_CARDS and args[1] - MAX_CARDS >= innates:
            return "use: no such innate"
        return ""

    def check_queue(self) -> Iterator[tuple[str, str]]:
        if self.outcome == 0 and not self.queue:
            yield "queue", "a game that goes on has steps to run"
        for step in self.queue:
            if not step:
                yield "queue", "an empty step"
                return
            problem = self.check_step(step[0], step[1:])
            if problem:
                yield "queue", problem
                return
        if self.queue and self.queue[0] != [STEP["turn"]] and self.outcome == 0:
            yield "queue", "the bottom step must be the next turn"

    def check_pending(self) -> Iterator[tuple[str, str]]:
        if len(self.pending) < 3 or not 0 <= self.pending[2] < len(PURPOSE_NAMES):
            yield "pending", "no such decision"
            return
        kind, seat, purpose, *ctx = self.pending
        name = PURPOSE_NAMES[purpose]
        expected_kind, arg_kinds = PURPOSES[name]
        if kind != expected_kind or not 0 <= seat < self.num_players:
            yield "pending", "the decision's kind or seat does not fit"
            return
        if len(ctx) != len(arg_kinds) or not all(
            self.arg_ok(k.replace("?", "?"), v, ctx) for k, v in zip(arg_kinds, ctx, strict=True)
        ):
            yield "pending", f"{name}: context out of range"
            return
        if name in PENDING_OPS:
            block, pc = ctx[0], ctx[1]
            if pc >= len(BLOCKS[block]) or BLOCKS[block][pc][0] not in PENDING_OPS[name]:
                yield "pending", f"{name}: the operation does not match"
                return
        if name == "growth_step" and (
            ctx[0] >= len(self.spirit(seat).growth)
            or ctx[1] >= 1 << len(self.spirit(seat).growth[ctx[0]])
        ):
            yield "pending", "growth_step: no such group"
            return
        if (
            name in ("target_land", "target_spirit")
            and ctx[0] >= MAX_CARDS
            and (ctx[0] - MAX_CARDS >= len(self.spirit(seat).innates))
        ):
            yield "pending", "no such innate"
            return
        if name in ("target_land", "target_spirit") and (
            (CARDS[ctx[0]].target == TARGETS_SPIRIT)
            if ctx[0] < MAX_CARDS
            else (self.power_of(seat, ctx[0]).target == TARGETS_SPIRIT)
        ) != (name == "target_spirit"):
            yield "pending", "the Power's target kind does not fit"
            return
        if name == "keep" and self.drawn_by != seat:
            yield "pending", "keep: the seat did not draw"
            return
        if name in ("push_dest", "gather_source") and not 0 <= ctx[4] < KINDS:
            yield "pending", "no such piece"
            return
        options = self.options_for(name, seat, ctx)
        if options != self.options_ or len(options) < 2:
            yield "options_", "the legal options do not follow from the state"

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
            game.blight_card = int(rng.integers(len(BLIGHT_CARDS)))
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
