"""Valiant Wars' rules: the state, the pending decision, transitions, returns, hidden redraws.

A round is SHUFFLE, then REVEAL steps (each player still drawing secretly chooses reveal or
STOP, in a fixed order; then the cards turn over together and resolve through a small task
stack of forced draws and down effects), then BUY (first to STOP first), then BATTLE.
Rulings: docs/rules/valiant_wars.md. This module imports only its spec and ``core``; the
observer (``observer.py``) and the text (``text.py``) are bound to the class by
:func:`tabletop_envs.core.registry.bind_views`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import compress
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.cache import BoundedCache
from tabletop_envs.core.game import NO_SEAT, GameCore, Option
from tabletop_envs.core.rewards import REWARD_MODES, competitive_returns
from tabletop_envs.core.rng import make_rng
from tabletop_envs.core.state import PlainState
from tabletop_envs.valiant_wars.spec import (
    ALL_CARDS,
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    CODE_SWORDS,
    CODE_TYPE,
    CTX_AMOUNT,
    CTX_EFFECT,
    CTX_SOURCE,
    CTX_STAGE,
    CTX_SUBJECT,
    DOWN_KINDS,
    EMPTY,
    GOLD,
    GOLD_BONUS,
    IGNORE,
    KEEP_OMEN,
    LAYOUT,
    LOCATION_BASE,
    LOCATION_TERRAINS,
    LOCATIONS,
    MARKET_SIZE,
    MAX_DECISIONS,
    MAX_PLAYERS,
    MAX_TARGET_VP,
    MERCENARY_CAP,
    MIN_PLAYERS,
    NO_CARD,
    NOBODY,
    NUM_CODES,
    NUM_KINDS,
    NUM_LOCATIONS,
    OMEN,
    OMEN_POS,
    ORACLE_LOOK,
    OVER,
    REVEAL,
    REVEALING,
    SAINT_POS,
    SOLDIER,
    SOLDIER_OPTION,
    STARTING_DECK,
    STOP,
    SUPPLY_GOLD,
    SUPPLY_OMENS,
    SUPPLY_SOLDIERS,
    VP_PER_OMEN,
    VP_TARGET,
    Buy,
    ChampionType,
    Decision,
    Kind,
    Terrain,
    card_name,
    is_champion,
    location_code,
)

# Task-stack entries: [DRAW, player, count], [DOWN, player, line position, effect kind],
# [ASK, player, stage, line position] (the Saboteur's second targeting, still to be posed),
# [OMEN_CHECK, player, line position] (a Dark Omen revealed in a reveal step, still to be
# checked: Saint, then OUT).
DRAW, DOWN, ASK, OMEN_CHECK = 0, 1, 2, 3
# Supply piles.
SOLDIERS_PILE, GOLD_PILE, OMENS_PILE = range(3)
SUPPLY_TOTALS = (SUPPLY_SOLDIERS, SUPPLY_GOLD, SUPPLY_OMENS)

WARRIOR, MYSTIC, ROGUE = (int(t) for t in ChampionType)
REVEAL_OR_STOP, CHOOSE_PLAYER, CHOOSE_CARD, BUY, IGNORE_OMEN = (int(d) for d in Decision)
PLAIN, MARSH, HAUNTED, GUARDED = (int(t) for t in Terrain)
BUY_GOLD, BUY_SOLDIER, BUY_DONE = int(Buy.GOLD), int(Buy.SOLDIER), int(Buy.DONE)
"""The decision kinds, terrains and ``buy`` options as plain ints for the per-step paths (an
enum member read costs many times a constant's)."""
HERO, DANCER, SAINT, GENERAL = Kind.HERO, Kind.DANCER, Kind.SAINT, Kind.GENERAL
HERO_CODE = CHAMPION_BASE + HERO
CHAMPION_COSTS = tuple(champion.cost for champion in CHAMPIONS)
SEGMENT_OFFSETS = tuple(segment.offset for segment in LAYOUT.kind_segments)
"""Each champion kind's cost and each decision kind's first action, as tuples read on the
per-step paths (no attribute reads)."""
PLAYER_EFFECTS = frozenset(
    (
        Kind.APPRENTICE,
        Kind.ASSASSIN,
        Kind.BRIGAND,
        Kind.LUNAR_WITCH,
        Kind.PRIESTESS,
        Kind.PYROMANCER,
        Kind.SABOTEUR,
    )
)
"""Effects that choose a player (``choose_player``)."""
OPTIONAL_TARGETING = frozenset((Kind.ASSASSIN, Kind.PYROMANCER))
"""The player effects that may target nobody: "Targeting is optional unless a card dictates
that targeting must happen", and only these two say "may" (the Assassin "may flip", the
Pyromancer "may choose a player"). The other five dictate a target ("a player you select
must draw", "you force a player to draw", "choose a player. They must flip"): one of the
eligible players must be chosen (docs/rules/valiant_wars.md, ruling 8)."""
CARD_EFFECTS = frozenset((Kind.ASSASSIN, Kind.LUNAR_WITCH, Kind.SHAMAN, Kind.DANCER))
"""Effects that choose a card of a line (``choose_card``)."""


PURCHASE_LIMITS = (None, *range(1, MARKET_SIZE + 1))
"""Values of the ``champion_limit`` and ``soldier_limit`` options."""


class ValiantWarsGame(PlainState, GameCore):
    """One game of Valiant Wars for 2 to 5 players."""

    NAME = "valiant_wars"
    MIN_PLAYERS = MIN_PLAYERS
    MAX_PLAYERS = MAX_PLAYERS
    DEFAULT_PLAYERS = 4
    OPTIONS: ClassVar = {
        "reward": Option("win", REWARD_MODES, "win: +1 winner, -1 others; score: VP margin"),
        "target_vp": Option(
            None,
            (None, *range(1, MAX_TARGET_VP + 1)),
            "VP needed to win; None: the rulebook's 10/9/8/8 for 2/3/4/5 players",
        ),
        "champion_limit": Option(
            None,
            PURCHASE_LIMITS,
            "Champions one player may buy per round; None: any number (ruling 1)",
        ),
        "soldier_limit": Option(
            1,
            PURCHASE_LIMITS,
            "free Soldiers one player may take per round; None: any number (ruling 1)",
        ),
    }
    LAYOUT = LAYOUT
    MAX_DECISIONS = MAX_DECISIONS
    STATE_FIELDS: ClassVar = {
        "target": int,
        "round": int,
        "phase": int,
        "first": int,
        "supply": list[int],
        "champion_deck": list[int],
        "market": list[int],
        "location_deck": list[int],
        "decks": list[list[int]],
        "lines": list[list[int]],
        "face_up": list[list[int]],
        "copies": list[list[int]],
        "used": list[list[int]],
        "vp": list[int],
        "stopped": list[int],
        "out": list[int],
        "stop_step": list[int],
        "stop_gold": list[int],
        "known_top": list[int],
        "step": int,
        "choosers": list[int],
        "choices": list[int],
        "tasks": list[list[int]],
        "decision": int,
        "decider": int,
        "pending": list[int],
        "pending_options": list[int],
        "buyers": list[int],
        "buyer": int,
        "gold_left": int,
        "bought_champion": int,
        "took_soldier": int,
        "last_battle": list[int],
        "winners_list": list[int],
        "decisions_made": int,
    }

    def __init__(self, num_players: int = 4, seed: int | None = None, **options: Any) -> None:
        super().__init__(num_players, seed, **options)
        n = self.num_players
        rng = self.rng
        target = self.options["target_vp"]
        self.target = VP_TARGET[n] if target is None else int(target)
        self.supply = [
            SUPPLY_SOLDIERS - n * STARTING_DECK["soldiers"],
            SUPPLY_GOLD - n * STARTING_DECK["gold"],
            SUPPLY_OMENS - n * STARTING_DECK["omens"],
        ]
        self.champion_deck = [int(c.kind) for c in CHAMPIONS for _ in range(c.copies)]
        rng.shuffle(self.champion_deck)
        self.market = [self.champion_deck.pop() for _ in range(MARKET_SIZE)]
        self.location_deck = list(range(NUM_LOCATIONS))
        rng.shuffle(self.location_deck)
        start = (
            [GOLD] * STARTING_DECK["gold"]
            + [OMEN] * STARTING_DECK["omens"]
            + [SOLDIER] * STARTING_DECK["soldiers"]
        )
        self.decks = [start[:] for _ in range(n)]
        self.lines: list[list[int]] = [[] for _ in range(n)]
        self.face_up: list[list[int]] = [[] for _ in range(n)]
        self.copies: list[list[int]] = [[] for _ in range(n)]
        self.used: list[list[int]] = [[] for _ in range(n)]
        self.vp = [0] * n
        self.first = int(rng.integers(n))
        self.round = 0
        self.decision = EMPTY
        self.decider = NO_SEAT
        self.pending: list[int] = []
        self.pending_options: list[int] = []
        self.last_battle: list[int] = []
        self.winners_list: list[int] = []
        self.decisions_made = 0
        self._start_round()
        self._settle()

    # ----- small queries ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return NO_SEAT if self.phase == OVER else self.decider

    @property
    def location(self) -> int:
        """The Location fought over this round (the top of the Location deck)."""
        return self.location_deck[-1]

    def seat_order(self) -> list[int]:
        """Seats clockwise from the first player."""
        return [*range(self.first, self.num_players), *range(self.first)]

    def effect_kind(self, seat: int, pos: int) -> int:
        """The champion whose text the card at ``pos`` carries (a Dancer: what it copies)."""
        kind = self.lines[seat][pos] - CHAMPION_BASE
        return self.copies[seat][pos] if kind == DANCER else kind

    def champion_positions(self, seat: int) -> list[int]:
        """Line positions of ``seat``'s Champions: option k of ``choose_card`` is the k-th."""
        return [pos for pos, code in enumerate(self.lines[seat]) if is_champion(code)]

    def face_up_effects(self, seat: int) -> list[int]:
        """Effect kinds of the face-up Champions in ``seat``'s line."""
        line, up = self.lines[seat], self.face_up[seat]
        return [
            self.effect_kind(seat, pos)
            for pos, code in enumerate(line)
            if up[pos] and is_champion(code)
        ]

    def count_face_up(self, seat: int, code: int) -> int:
        line, up = self.lines[seat], self.face_up[seat]
        return sum(1 for pos, c in enumerate(line) if c == code and up[pos])

    def count_locations(self, seat: int) -> int:
        line, up = self.lines[seat], self.face_up[seat]
        return sum(1 for pos, c in enumerate(line) if c >= LOCATION_BASE and up[pos])

    def count_type(self, seat: int, champion_type: int) -> int:
        """Face-up cards of a printed type (Soldiers are Warriors)."""
        line, up = self.lines[seat], self.face_up[seat]
        return sum(1 for pos, c in enumerate(line) if up[pos] and CODE_TYPE[c] == champion_type)

    def is_rogue_up(self, seat: int, pos: int) -> bool:
        return bool(self.face_up[seat][pos]) and CODE_TYPE[self.lines[seat][pos]] == ROGUE

    def shielded(self, seat: int) -> bool:
        """Whether a face-up General (or a Dancer copying one) shields ``seat``."""
        return GENERAL in self.face_up_effects(seat)

    def can_target(self, chooser: int, seat: int) -> bool:
        return not self.out[seat] and (seat == chooser or not self.shielded(seat))

    def swords(self, seat: int) -> int:
        """The Battle-line Sword total, terrain included, never below 0."""
        return self.line_totals(seat)[0]

    def gold(self, seat: int) -> int:
        """Gold to spend: fixed when ``seat`` declared STOP ("Gold is only ever calculated
        at the end of your turn when you have declared STOP"), none once OUT; for a seat
        still drawing, what STOP would fix now (:meth:`line_gold`)."""
        if self.out[seat]:
            return 0
        if self.stopped[seat]:
            return self.stop_gold[seat]
        return self.line_totals(seat)[1]

    def line_gold(self, seat: int) -> int:
        """The Gold ``seat``'s line shows now: Gold cards, uncancelled Omens, Sellsword and
        Monk (what STOP fixes)."""
        return self.line_totals(seat)[1]

    def line_totals(self, seat: int) -> tuple[int, int]:
        """:meth:`swords` and :meth:`gold` of ``seat``, from one pass over its line (the
        face-up cards' counts summed as :data:`LINE_TALLY` packs them)."""
        line = self.lines[seat]
        if self.out[seat] or not line:
            return 0, 0
        up = self.face_up[seat]
        tally = sum(map(LINE_TALLY.__getitem__, compress(line, up)))
        gold_cards, omens = tally & TALLY_MASK, tally >> OMENS_AT & TALLY_MASK
        rogues = tally >> ROGUES_AT & TALLY_MASK
        swords, gold = tally >> SWORDS_AT, gold_cards + omens
        if tally >> EFFECTS_AT & TALLY_MASK:
            locations = tally >> LOCATIONS_AT & TALLY_MASK
            mystics = tally >> MYSTICS_AT & TALLY_MASK
            for code, copied in compress(zip(line, self.copies[seat], strict=True), up):
                kind = code - CHAMPION_BASE
                if not 0 <= kind < NUM_KINDS:
                    continue
                if kind == DANCER:
                    kind = copied
                ongoing = ONGOING_SWORDS.get(kind)
                if ongoing is not None:
                    others = rogues - (CODE_TYPE[code] == ROGUE)
                    swords += ongoing(gold_cards, locations, mystics, rogues, others)
                gold += GOLD_BONUS.get(kind, 0)
        if self.location_deck:
            terrain = LOCATION_TERRAINS[self.location_deck[-1]]
            if terrain == MARSH:
                swords -= tally >> WARRIORS_AT & TALLY_MASK
            elif terrain == HAUNTED:
                swords -= 2 * omens
            elif terrain == GUARDED:
                swords -= 2 * rogues
        return max(0, swords), gold

    # ----- the contract -----------------------------------------------------------------
    def pending_kind(self) -> int:
        return self.decision

    def simultaneous_seats(self) -> tuple[int, ...]:
        """A reveal step's REVEAL-or-STOP is simultaneous ("Make sure everyone draws and
        reveals the cards at the same time"): every seat still drawing answers, hidden."""
        if self.decision == REVEAL_OR_STOP and self.decider in self.choosers:
            return tuple(self.choosers[self.choosers.index(self.decider) :])
        return ()

    def legal_options(self) -> list[int]:
        return self.pending_options

    def legal_mask(self) -> np.ndarray:
        """The core's mask, copied from those already met (keyed by the pending decision
        and its options)."""
        if self.phase == OVER:
            return super().legal_mask()
        return _MASKS[(self.decision, *self.pending_options)].copy()

    def apply_unchecked(self, action: int) -> None:
        self.decisions_made += 1
        self._answer(action - SEGMENT_OFFSETS[self.decision])
        self._settle()

    def returns(self) -> np.ndarray:
        if not self.is_terminal:
            return np.zeros(self.num_players)
        return competitive_returns(self.options["reward"], self.vp, self.winners_list)

    def scores(self) -> list[float]:
        """VP per seat."""
        return [float(vp) for vp in self.vp]

    def turns(self) -> int:
        """Rounds completed."""
        return self.round + 1 if self.is_terminal else self.round

    def winners(self) -> Sequence[int]:
        return list(self.winners_list) if self.is_terminal else []

    # ----- the decision loop ------------------------------------------------------------
    def _decide(self, kind: int, seat: int, options: list[int], context: list[int]) -> None:
        self.decision = int(kind)
        self.decider = seat
        self.pending_options = options
        self.pending = list(map(int, context))

    def _answer(self, option: int) -> None:
        """Resolve the pending decision with ``option`` (legal by construction)."""
        kind, seat, context = self.decision, self.decider, self.pending
        self.decision, self.decider, self.pending, self.pending_options = EMPTY, NO_SEAT, [], []
        if kind == REVEAL_OR_STOP:
            self._choose_reveal(seat, option)
        elif kind == IGNORE_OMEN:
            if option == IGNORE:
                self._cancel_omen(seat, context[SAINT_POS], context[OMEN_POS])
        elif kind == CHOOSE_PLAYER:
            self._choose_player(seat, option, context)
        elif kind == CHOOSE_CARD:
            self._choose_card(seat, option, context)
        else:
            self._buy(seat, option)

    def _settle(self) -> None:
        """Advance until a real choice is pending (one-option decisions resolve themselves)."""
        while self.phase != OVER:
            if self.decision != EMPTY:
                if self.decision == REVEAL_OR_STOP or len(self.pending_options) > 1:
                    return
                self._answer(self.pending_options[0])
            elif self.tasks:
                self._execute(self.tasks.pop())
            elif self.phase == REVEALING:
                self._start_step()
            else:
                self._next_purchase()

    # ----- rounds and reveal steps ------------------------------------------------------
    def _start_round(self) -> None:
        n = self.num_players
        for seat in range(n):
            deck = self.decks[seat]
            deck.extend(self.lines[seat])
            self.rng.shuffle(deck)
            self.lines[seat], self.face_up[seat] = [], []
            self.copies[seat], self.used[seat] = [], []
        self.phase = REVEALING
        self.stopped = [0] * n
        self.out = [0] * n
        self.stop_step = [EMPTY] * n
        self.stop_gold = [EMPTY] * n
        self.known_top = [0] * n
        self.step = 0
        self.choosers: list[int] = []
        self.choices = [EMPTY] * n
        self.tasks: list[list[int]] = []
        self.buyers: list[int] = []
        self.buyer = 0
        self.gold_left = 0
        self.bought_champion = 0
        self.took_soldier = 0

    def _start_step(self) -> None:
        """Ask everyone still drawing, clockwise from the first player; or go to buying.
        The round's first step asks no one: "The Round begins by players all revealing
        their first card", so STOP is offered from the second card on."""
        if self.step == 0:
            self.choosers = [seat for seat in self.seat_order() if self.decks[seat]]
            for seat in self.choosers:
                self.choices[seat] = REVEAL
            self._resolve_step()
            return
        self.choosers = []
        for seat in self.seat_order():
            if self.stopped[seat] or self.out[seat]:
                continue
            if self.decks[seat]:
                self.choosers.append(seat)
            else:
                self._stop(seat)
        if self.choosers:
            self._decide(REVEAL_OR_STOP, self.choosers[0], [REVEAL, STOP], [])
        else:
            self._start_buying()

    def _stop(self, seat: int) -> None:
        """STOP: the seat's Gold is calculated now and fixed for the round."""
        self.stopped[seat] = 1
        self.stop_step[seat] = self.step
        self.stop_gold[seat] = self.line_gold(seat)

    def _choose_reveal(self, seat: int, option: int) -> None:
        self.choices[seat] = option
        index = self.choosers.index(seat) + 1
        if index < len(self.choosers):
            self._decide(REVEAL_OR_STOP, self.choosers[index], [REVEAL, STOP], [])
        else:
            self._resolve_step()

    def _resolve_step(self) -> None:
        """Everyone has chosen: STOPs take effect, the cards turn over together and resolve."""
        revealers = []
        for chooser in self.choosers:
            if self.choices[chooser] == STOP:
                self._stop(chooser)
            else:
                revealers.append(chooser)
        self.choosers, self.choices = [], [EMPTY] * self.num_players
        revealed = [(chooser, self._turn_over(chooser)) for chooser in revealers]
        for chooser, pos in reversed(revealed):
            self._queue_down_effect(chooser, pos)
        for chooser, pos in reversed(revealed):
            if self.lines[chooser][pos] == OMEN:
                self.tasks.append([OMEN_CHECK, chooser, pos])
        self.step += 1

    def _turn_over(self, seat: int) -> int:
        """Reveal the top card of ``seat``'s deck into its line; its position there."""
        self.lines[seat].append(self.decks[seat].pop())
        self.face_up[seat].append(1)
        self.copies[seat].append(EMPTY)
        self.used[seat].append(0)
        if self.known_top[seat]:
            self.known_top[seat] -= 1
        return len(self.lines[seat]) - 1

    def _queue_down_effect(self, seat: int, pos: int) -> bool:
        code = self.lines[seat][pos]
        if is_champion(code) and code - CHAMPION_BASE in DOWN_KINDS:
            self.tasks.append([DOWN, seat, pos, code - CHAMPION_BASE])
            return True
        return False

    # ----- Dark Omens -------------------------------------------------------------------
    def _omen_revealed(self, seat: int, pos: int) -> None:
        """A second face-up Omen is OUT unless an unused face-up Saint ignores it (then at
        once: OUT would lose the whole line); a first one meeting an unused Saint asks its
        owner whether the Saint ignores it now."""
        saint = self.unused_saint(seat)
        if self.count_face_up(seat, OMEN) >= 2:
            if saint != EMPTY:
                self._cancel_omen(seat, saint, pos)
            else:
                self._go_out(seat)
        elif saint != EMPTY:
            self._ask_ignore(seat, saint, pos)

    def _ask_ignore(self, seat: int, saint: int, omen: int) -> None:
        """The Saint "allows you to ignore" the Omen: its owner chooses."""
        self._decide(Decision.IGNORE_OMEN, seat, [KEEP_OMEN, IGNORE], [saint, omen])

    def unused_saint(self, seat: int) -> int:
        """The line position of ``seat``'s face-up Saint (or Dancer copying one) that has not
        ignored an Omen yet; EMPTY if none."""
        for pos, code in enumerate(self.lines[seat]):
            if (
                is_champion(code)
                and self.face_up[seat][pos]
                and not self.used[seat][pos]
                and self.effect_kind(seat, pos) == SAINT
            ):
                return pos
        return EMPTY

    def _cancel_omen(self, seat: int, saint: int, omen: int) -> None:
        self.face_up[seat][omen] = 0
        self.used[seat][saint] = 1

    def _go_out(self, seat: int) -> None:
        """Dark Omen OUT: the line turns face down and is shuffled back into the deck."""
        self.out[seat] = 1
        deck = self.decks[seat]
        deck.extend(self.lines[seat])
        self.rng.shuffle(deck)
        self.lines[seat], self.face_up[seat] = [], []
        self.copies[seat], self.used[seat] = [], []
        self.known_top[seat] = 0

    # ----- the task stack ---------------------------------------------------------------
    def _execute(self, task: list[int]) -> None:
        if task[0] == DRAW:
            self._forced_draw(task[1], task[2])
        elif task[0] == OMEN_CHECK:
            if not self.out[task[1]]:
                self._omen_revealed(task[1], task[2])
        elif task[0] == DOWN:
            self._down_effect(task[1], task[2], task[3])
        else:
            _, seat, stage, pos = task
            if not self.out[seat] and self.face_up[seat][pos]:
                self._ask_saboteur(seat, pos, stage)

    def _forced_draw(self, seat: int, count: int) -> None:
        """Draw ``count`` cards one by one; a drawn down effect resolves before the next."""
        for drawn in range(count):
            if self.out[seat] or not self.decks[seat]:
                return
            pos = self._turn_over(seat)
            left = count - drawn - 1
            if self.lines[seat][pos] == OMEN:
                self._omen_revealed(seat, pos)
                if self.decision != EMPTY and left:
                    self.tasks.append([DRAW, seat, left])
                if self.decision != EMPTY:
                    return
                continue
            if self._queue_down_effect(seat, pos):
                if left:
                    self.tasks.insert(len(self.tasks) - 1, [DRAW, seat, left])
                return

    def _down_effect(self, seat: int, pos: int, kind: int) -> None:
        if self.out[seat] or not self.face_up[seat][pos]:
            return
        handler = _DOWN_EFFECTS.get(kind)
        if handler is not None:
            handler(self, seat, pos)

    def _draw_self(self, seat: int, count: int) -> None:
        self.tasks.append([DRAW, seat, count])

    def _ask_target(self, seat: int, kind: int, pos: int, stage: int = 0, amount: int = 0) -> None:
        """Pose ``seat``'s choice of a player for effect ``kind`` (none if no one is eligible)."""
        options = self._player_options(seat, kind)
        if options:
            context = [kind, NO_SEAT, stage, pos, amount]
            self._decide(Decision.CHOOSE_PLAYER, seat, options, context)

    def _player_options(self, seat: int, kind: int) -> list[int]:
        """``choose_player`` options of ``seat`` for effect ``kind``: the eligible seats
        relative to ``seat``, then ``NOBODY`` if the effect is optional; none if no seat is
        eligible (the effect then fizzles)."""
        if kind in (Kind.APPRENTICE, Kind.PRIESTESS):
            targets = self._targets(seat, True)
        elif kind == Kind.PYROMANCER:
            targets = [t for t in self._targets(seat, True) if not self.stopped[t]]
        elif kind == Kind.ASSASSIN:
            targets = [t for t in self._targets(seat, False) if self._flippable(t)]
        else:  # Brigand, Saboteur, Lunar Witch: an opponent
            targets = self._targets(seat, False)
        if not targets:
            return []
        n = self.num_players
        options = [(target - seat) % n for target in targets]
        return [*options, NOBODY] if kind in OPTIONAL_TARGETING else options

    def _card_options(self, kind: int, subject: int, source: int) -> list[int]:
        """``choose_card`` options for effect ``kind`` in ``subject``'s line (``source``:
        the position of the card whose effect it is)."""
        if kind == Kind.SHAMAN:
            # "If you have no other face-up Champions (or only the Hero), you must flip the
            # Shaman": a Soldier is a choice only beside another Champion (ruling 10).
            options = self._flippable(subject, exclude=source)
            if options and self.count_face_up(subject, SOLDIER):
                options.append(SOLDIER_OPTION)
            return options
        if kind == DANCER:
            positions = self.champion_positions(subject)
            return [
                k
                for k in self._flippable(subject, exclude=source)
                if self.effect_kind(subject, positions[k]) != EMPTY
            ]
        return self._flippable(subject)  # Assassin, Lunar Witch

    def _targets(self, seat: int, include_self: bool) -> list[int]:
        return [
            t
            for t in range(self.num_players)
            if (include_self or t != seat) and self.can_target(seat, t)
        ]

    def _flippable(self, seat: int, exclude: int = EMPTY) -> list[int]:
        """``choose_card`` options: ``seat``'s face-up Champions other than the Hero."""
        return [
            k
            for k, pos in enumerate(self.champion_positions(seat))
            if pos != exclude
            and self.face_up[seat][pos]
            and self.lines[seat][pos] - CHAMPION_BASE != HERO
        ]

    def _ask_saboteur(self, seat: int, pos: int, stage: int) -> None:
        self._ask_target(seat, Kind.SABOTEUR, pos, stage)

    # ----- decisions --------------------------------------------------------------------
    def _choose_player(self, seat: int, option: int, context: list[int]) -> None:
        if option == NOBODY:
            return
        target = (seat + option) % self.num_players
        kind = context[CTX_EFFECT]
        if kind in (Kind.APPRENTICE, Kind.BRIGAND):
            self.tasks.append([DRAW, target, 1])
        elif kind == Kind.SABOTEUR:
            self.tasks.append([DRAW, target, 2 if context[CTX_STAGE] == 0 else 1])
        elif kind == Kind.PRIESTESS:
            self.tasks.append([DRAW, target, context[CTX_AMOUNT]])
        elif kind == Kind.PYROMANCER:
            self.tasks.append([DRAW, target, 2])
        elif kind == Kind.ASSASSIN:
            source = context[CTX_SOURCE]
            options = self._card_options(kind, target, source)
            self._decide(Decision.CHOOSE_CARD, seat, options, [kind, target, 0, source, 0])
        else:  # Lunar Witch: the target flips a Champion of their choice, else a Soldier
            champions = self._card_options(kind, target, EMPTY)
            if champions:
                self._decide(Decision.CHOOSE_CARD, target, champions, [kind, target, 0, EMPTY, 0])
            else:
                self._flip_soldier(target)

    def _choose_card(self, seat: int, option: int, context: list[int]) -> None:
        subject = context[CTX_SUBJECT]
        if option == SOLDIER_OPTION:
            self._flip_soldier(subject)
            return
        pos = self.champion_positions(subject)[option]
        if context[CTX_EFFECT] != DANCER:
            self.face_up[subject][pos] = 0
            return
        dancer = context[CTX_SOURCE]
        copied = self.effect_kind(subject, pos)
        self.copies[seat][dancer] = copied
        if copied in DOWN_KINDS:
            self.tasks.append([DOWN, seat, dancer, copied])

    def _flip_soldier(self, seat: int) -> None:
        for pos, code in enumerate(self.lines[seat]):
            if code == SOLDIER and self.face_up[seat][pos]:
                self.face_up[seat][pos] = 0
                return

    # ----- buying -----------------------------------------------------------------------
    def _start_buying(self) -> None:
        self.phase = BUYING
        order = self.seat_order()
        buyers = [seat for seat in order if not self.out[seat]]
        self.buyers = sorted(buyers, key=lambda s: (self.stop_step[s], order.index(s)))
        self.buyer = 0
        self._begin_purchase()

    def _begin_purchase(self) -> None:
        self.bought_champion = 0
        self.took_soldier = 0
        if self.buyer < len(self.buyers):
            self.gold_left = self.gold(self.buyers[self.buyer])

    def _next_purchase(self) -> None:
        if self.buyer >= len(self.buyers):
            self._battle()
            return
        seat = self.buyers[self.buyer]
        self._decide(BUY, seat, self._purchase_options(), [])

    def _purchase_options(self) -> list[int]:
        options = []
        gold = self.gold_left
        if _below(self.bought_champion, self.options["champion_limit"]):
            for slot, kind in enumerate(self.market):
                if kind != NO_CARD and CHAMPION_COSTS[kind] <= gold:
                    options.append(slot)
        if gold >= 1 and self.supply[GOLD_PILE]:
            options.append(BUY_GOLD)
        if _below(self.took_soldier, self.options["soldier_limit"]) and self.supply[SOLDIERS_PILE]:
            options.append(BUY_SOLDIER)
        options.append(BUY_DONE)
        return options

    def _buy(self, seat: int, option: int) -> None:
        """Gains go under the deck (the round's reveals are over; it is shuffled next)."""
        deck = self.decks[seat]
        if option == BUY_DONE:
            self.buyer += 1
            self._begin_purchase()
            return
        elif option == BUY_GOLD:
            self.supply[GOLD_PILE] -= 1
            self.gold_left -= 1
            deck.insert(0, GOLD)
        elif option == BUY_SOLDIER:
            self.supply[SOLDIERS_PILE] -= 1
            self.took_soldier += 1
            deck.insert(0, SOLDIER)
        else:
            kind = self.market[option]
            self.gold_left -= CHAMPIONS[kind].cost
            self.bought_champion += 1
            deck.insert(0, CHAMPION_BASE + kind)
            self.market[option] = self.champion_deck.pop() if self.champion_deck else NO_CARD

    # ----- battle and the end of a round ------------------------------------------------
    def _battle(self) -> None:
        n = self.num_players
        swords = [self.swords(seat) for seat in range(n)]
        best = max(swords)
        leaders = [seat for seat in range(n) if swords[seat] == best]
        winner = leaders[0] if best > 0 and len(leaders) == 1 else NO_SEAT
        location = self.location_deck.pop()
        if winner != NO_SEAT:
            self._score(winner, location)
        self.last_battle = [location, winner, *swords]
        self._pass_token()
        if winner != NO_SEAT and self.vp[winner] >= self.target:
            self._finish([winner])
        elif not self.location_deck:
            best_vp = max(self.vp)
            self._finish([seat for seat in range(n) if self.vp[seat] == best_vp])
        else:
            self.round += 1
            self._start_round()

    def _score(self, winner: int, location: int) -> None:
        """The winner takes the Location into their deck, its VP, and Omens per 3 VP."""
        before = self.vp[winner]
        self.vp[winner] += LOCATIONS[location].vp
        self.decks[winner].insert(0, location_code(location))
        omens = min(self.vp[winner] // VP_PER_OMEN - before // VP_PER_OMEN, self.supply[OMENS_PILE])
        self.supply[OMENS_PILE] -= omens
        self.decks[winner][:0] = [OMEN] * omens

    def _pass_token(self) -> None:
        """To the lowest VP, searching clockwise from the holder's left, the holder last."""
        n = self.num_players
        lowest = min(self.vp)
        for step in range(1, n + 1):
            seat = (self.first + step) % n
            if self.vp[seat] == lowest:
                self.first = seat
                return

    def _finish(self, winners: list[int]) -> None:
        self.phase = OVER
        self.winners_list = winners
        self.decision, self.decider = EMPTY, NO_SEAT

    # ----- invariants (checked when a save is loaded) -----------------------------------
    def check_invariants(self) -> Iterator[tuple[str, str]]:
        """Each broken invariant as (field, problem): the shape of every field first (the
        rest is checked only on a well-shaped state), then values in range, every card
        exactly once, VP and Omens as the Locations won give them, each line as the rules
        leave it, the round's phase, and the pending decision as the rules would pose it."""
        shape = list(self._shape_problems())
        if shape:
            yield from shape
            return
        yield from self._value_problems()
        yield from self._card_problems()
        yield from self._line_problems()
        yield from self._round_problems()
        yield from self._task_problems()
        yield from self._decision_problems()

    def _shape_problems(self) -> Iterator[tuple[str, str]]:
        n = self.num_players
        for name in ("vp", "stopped", "out", "stop_step", "stop_gold", "known_top", "choices"):
            if len(getattr(self, name)) != n:
                yield name, f"needs one entry per seat ({n})"
        for name in ("decks", "lines", "face_up", "copies", "used"):
            if len(getattr(self, name)) != n:
                yield name, f"needs one list per seat ({n})"
        if len(self.supply) != len(SUPPLY_TOTALS):
            yield "supply", "needs 3 piles (Soldiers, Gold, Dark Omens)"
        if len(self.market) != MARKET_SIZE:
            yield "market", f"needs {MARKET_SIZE} slots"
        for seat, line in enumerate(self.lines[:n]):
            for name in ("face_up", "copies", "used"):
                rows = getattr(self, name)
                if seat < len(rows) and len(rows[seat]) != len(line):
                    yield name, f"player_{seat}: needs one entry per card of its line"
        for code in [c for cards in (*self.decks, *self.lines) for c in cards]:
            if not 0 <= code < NUM_CODES:
                yield "decks", f"card code {code} outside 0..{NUM_CODES - 1}"
                break
        if not all(0 <= kind < NUM_KINDS for kind in self.champion_deck):
            yield "champion_deck", f"a champion kind outside 0..{NUM_KINDS - 1}"
        if not all(kind == NO_CARD or 0 <= kind < NUM_KINDS for kind in self.market):
            yield "market", f"a slot neither a champion kind nor empty ({NO_CARD})"
        if not all(0 <= location < NUM_LOCATIONS for location in self.location_deck):
            yield "location_deck", f"a Location outside 0..{NUM_LOCATIONS - 1}"
        if self.phase not in (REVEALING, BUYING, OVER):
            yield "phase", f"{self.phase} is not a phase (0 revealing, 1 buying, 2 over)"
        if self.phase != OVER and not self.location_deck:
            yield "location_deck", "a game that goes on needs a Location to fight over"
        if not (self.decision == EMPTY or 0 <= self.decision < len(Decision)):
            yield "decision", f"{self.decision} is not a decision kind"
        if not (self.decider == NO_SEAT or 0 <= self.decider < n):
            yield "decider", f"{self.decider} is not a seat of {n} players"
        if not 0 <= self.first < n:
            yield "first", f"{self.first} is not a seat of {n} players"

    def _value_problems(self) -> Iterator[tuple[str, str]]:
        n = self.num_players
        target = self.options["target_vp"]
        if self.target != (VP_TARGET[n] if target is None else target):
            yield "target", f"{self.target} is not the target the options give"
        if not 0 <= self.decisions_made <= MAX_DECISIONS:
            yield "decisions_made", f"{self.decisions_made} outside 0..{MAX_DECISIONS}"
        if not 0 <= self.step <= ALL_CARDS:
            yield "step", f"{self.step} outside 0..{ALL_CARDS}"
        flags = {"stopped": self.stopped, "out": self.out}
        for name, values in flags.items():
            if any(value not in (0, 1) for value in values):
                yield name, "flags are 0 or 1"
        limits = (("bought_champion", "champion_limit"), ("took_soldier", "soldier_limit"))
        for name, option in limits:
            limit = self.options[option]
            if getattr(self, name) < 0 or (limit is not None and getattr(self, name) > limit):
                yield name, f"outside 0..{option} ({limit})"
        for name in ("face_up", "used"):
            if any(flag not in (0, 1) for flags in getattr(self, name) for flag in flags):
                yield name, "flags are 0 or 1"
        for seat in range(n):
            if (self.stop_step[seat] == EMPTY) != (not self.stopped[seat]):
                yield "stop_step", f"player_{seat}: a step exactly when it has stopped"
            elif self.stopped[seat] and not 1 <= self.stop_step[seat] <= self.step:
                yield "stop_step", f"player_{seat} stopped before its first card or after now"
            owned = len(self.decks[seat]) + len(self.lines[seat])
            if (self.stop_gold[seat] == EMPTY) != (not self.stopped[seat]):
                yield "stop_gold", f"player_{seat}: Gold fixed exactly when it has stopped"
            elif self.stopped[seat] and not 0 <= self.stop_gold[seat] <= 2 * owned:
                yield "stop_gold", f"player_{seat}: more Gold than its cards can give"
            if not 0 <= self.known_top[seat] <= min(ORACLE_LOOK, len(self.decks[seat])):
                yield "known_top", f"player_{seat}: outside 0..{ORACLE_LOOK} or past its deck"
            if self.choices[seat] not in (EMPTY, REVEAL, STOP):
                yield "choices", f"player_{seat}: {self.choices[seat]} is not reveal or STOP"
        for pile, (left, total) in enumerate(zip(self.supply, SUPPLY_TOTALS, strict=True)):
            if not 0 <= left <= total:
                yield "supply", f"pile {pile} holds {left}, outside 0..{total}"

    def _card_problems(self) -> Iterator[tuple[str, str]]:
        """Every card exactly once: supply piles, the Champion deck and market, the
        Locations still to come (those tied over are set aside), and each seat's cards."""
        owned = [[*deck, *line] for deck, line in zip(self.decks, self.lines, strict=True)]
        cards = [code for codes in owned for code in codes]
        piles = ((SOLDIER, "Soldiers"), (GOLD, "Gold cards"), (OMEN, "Dark Omens"))
        for (code, name), left, total in zip(piles, self.supply, SUPPLY_TOTALS, strict=True):
            if cards.count(code) + left != total:
                held = cards.count(code)
                yield "supply", f"{held} {name} held and {left} in the supply; the game has {total}"
        champions = [0] * NUM_KINDS
        for kind in (*self.champion_deck, *(k for k in self.market if k != NO_CARD)):
            champions[kind] += 1
        for code in cards:
            if is_champion(code):
                champions[code - CHAMPION_BASE] += 1
        for kind, count in enumerate(champions):
            if count != CHAMPIONS[kind].copies:
                yield (
                    "champion_deck",
                    (
                        f"{count} {Kind(kind).title} across decks, lines, market and Champion "
                        f"deck; the game has {CHAMPIONS[kind].copies}"
                    ),
                )
                break
        if NO_CARD in self.market and self.champion_deck:
            yield "market", "an empty slot while the Champion deck still has cards"
        won = [code - LOCATION_BASE for code in cards if code >= LOCATION_BASE]
        places = [*self.location_deck, *won]
        if len(set(places)) != len(places):
            yield "location_deck", "a Location both to come and won, or twice"
        for seat, codes in enumerate(owned):
            vp = sum(LOCATIONS[code - LOCATION_BASE].vp for code in codes if code >= LOCATION_BASE)
            if self.vp[seat] != vp:
                yield "vp", f"player_{seat} has {self.vp[seat]} VP, its Locations give {vp}"
            omens = STARTING_DECK["omens"] + self.vp[seat] // VP_PER_OMEN
            held = codes.count(OMEN)
            if held > omens or (held < omens and self.supply[OMENS_PILE]):
                yield "decks", f"player_{seat} holds {held} Dark Omens; its VP give {omens}"

    def _line_problems(self) -> Iterator[tuple[str, str]]:
        """Each line as the rules leave it: only Omens, Soldiers and Champions other than
        the Hero turn face down, one face-down Omen per used Saint, at most one face-up
        Omen, a copy only on a Dancer (of a Champion in the line), an Oracle for known top
        cards, an empty line once OUT."""
        for seat, line in enumerate(self.lines):
            up, copies, used = self.face_up[seat], self.copies[seat], self.used[seat]
            if self.out[seat] and line:
                yield "lines", f"player_{seat} is OUT: its line went back into its deck"
            for pos, code in enumerate(line):
                if not up[pos] and (code in (GOLD, HERO_CODE) or code >= LOCATION_BASE):
                    yield "face_up", f"player_{seat}: a {card_name(code)} never turns face down"
                if copies[pos] != EMPTY and code != DANCER + CHAMPION_BASE:
                    yield "copies", f"player_{seat}: only a Dancer copies"
                if used[pos] and not (is_champion(code) and self.effect_kind(seat, pos) == SAINT):
                    yield "used", f"player_{seat}: only a Saint's effect is used up"
            for pos in [p for p, code in enumerate(line) if code == DANCER + CHAMPION_BASE]:
                copied = copies[pos]
                if copied == EMPTY:
                    continue
                if not 0 <= copied < NUM_KINDS or copied in (DANCER, HERO):
                    yield "copies", f"player_{seat}: a Dancer cannot copy {copied}"
                elif copied not in [
                    self.effect_kind(seat, other)
                    for other in self.champion_positions(seat)
                    if other != pos
                ]:
                    yield "copies", f"player_{seat}: a Dancer copies a Champion not in its line"
            omens_down = sum(1 for pos, code in enumerate(line) if code == OMEN and not up[pos])
            if omens_down != sum(used):
                yield "used", f"player_{seat}: one cancelled Dark Omen per used Saint"
            unchecked = sum(1 for t in self.tasks if t[:2] == [OMEN_CHECK, seat])
            if self.count_face_up(seat, OMEN) > 1 + unchecked:
                yield "face_up", f"player_{seat} has two face-up Dark Omens and is not OUT"
            if self.known_top[seat] and Kind.ORACLE not in [
                self.effect_kind(seat, pos) for pos in self.champion_positions(seat)
            ]:
                yield "known_top", f"player_{seat} knows top cards with no Oracle in its line"

    def _round_problems(self) -> Iterator[tuple[str, str]]:
        """The round, the phase and what each phase leaves: stopped or OUT seats buying,
        the buyers in their order, the last Battle, the end."""
        n, over = self.num_players, self.phase == OVER
        fought = NUM_LOCATIONS - len(self.location_deck)
        if self.round != fought - over:
            yield "round", f"round {self.round} (from 0) after {fought} Locations fought over"
        if self.phase != REVEALING and not all(self.stopped[s] or self.out[s] for s in range(n)):
            yield "stopped", "everyone has stopped or is OUT once buying starts"
        if self.phase == REVEALING:
            if (
                self.buyers
                or self.buyer
                or self.gold_left
                or self.bought_champion
                or self.took_soldier
            ):
                yield "buyers", "no purchase before the buying phase"
        elif self.phase == BUYING:
            order = self.seat_order()
            buyers = [seat for seat in order if not self.out[seat]]
            expected = sorted(buyers, key=lambda s: (self.stop_step[s], order.index(s)))
            if self.buyers != expected:
                yield "buyers", f"{self.buyers}, but the first to stop buy first: {expected}"
            elif not 0 <= self.buyer < len(self.buyers):
                yield "buyer", f"{self.buyer} is not one of the {len(self.buyers)} buyers"
            elif not 0 <= self.gold_left <= self.gold(self.buyers[self.buyer]):
                yield "gold_left", f"{self.gold_left} outside 0..the buyer's Gold"
        elif self.buyer != len(self.buyers) or len(set(self.buyers)) != len(self.buyers):
            yield "buyer", "a finished game has had every purchase"
        yield from self._battle_problems()

    def _battle_problems(self) -> Iterator[tuple[str, str]]:
        n, over = self.num_players, self.phase == OVER
        battle = self.last_battle
        if not battle:
            if self.round or over:
                yield "last_battle", "a Battle has been fought"
        elif len(battle) != n + 2:
            yield "last_battle", f"needs the Location, the winner and {n} Sword totals"
        else:
            location, winner, swords = battle[0], battle[1], battle[2:]
            best = max(swords)
            leaders = [seat for seat in range(n) if swords[seat] == best]
            expected = leaders[0] if best > 0 and len(leaders) == 1 else NO_SEAT
            if not 0 <= location < NUM_LOCATIONS or location in self.location_deck:
                yield "last_battle", f"{location} is not a Location fought over"
            elif min(swords) < 0 or winner != expected:
                yield "last_battle", "the winner is the one highest Sword total, if above 0"
            elif winner != NO_SEAT and location_code(location) not in (
                self.decks[winner] + self.lines[winner]
            ):
                yield "last_battle", "the winner took the Location into its deck"
        reached = [seat for seat in range(n) if self.vp[seat] >= self.target]
        if not over:
            if reached or self.winners_list:
                yield "winners_list", "a game that goes on has no winner and no one at the target"
        elif reached:
            if self.winners_list != reached or len(reached) != 1 or battle[1:2] != reached:
                yield "winners_list", "the one seat that reached the target in the last Battle wins"
        else:
            best = max(self.vp)
            leaders = [seat for seat in range(n) if self.vp[seat] == best]
            if self.location_deck or self.winners_list != leaders:
                yield "winners_list", "with no Location left the most VP win"

    def _task_problems(self) -> Iterator[tuple[str, str]]:
        """Forced draws and effects waiting only while a choice of an effect is pending."""
        if self.tasks and self.decision not in (
            Decision.CHOOSE_PLAYER,
            Decision.CHOOSE_CARD,
            Decision.IGNORE_OMEN,
        ):
            yield "tasks", "effects wait only while an effect's choice is pending"
        for task in self.tasks:
            if (
                not task
                or task[0] not in (DRAW, DOWN, ASK, OMEN_CHECK)
                or len(task) != (3 if task[0] in (DRAW, OMEN_CHECK) else 4)
            ):
                yield "tasks", f"{task} is not a draw, a down effect, an Omen or a question"
                return
            seat = task[1]
            if not 0 <= seat < self.num_players:
                yield "tasks", f"{task}: {seat} is not a seat"
                return
            if task[0] == OMEN_CHECK:
                line, pos = self.lines[seat], task[2]
                if not self.out[seat] and not (
                    0 <= pos < len(line) and line[pos] == OMEN and self.face_up[seat][pos]
                ):
                    yield "tasks", f"{task}: no face-up Dark Omen there to check"
                continue
            if task[0] == DRAW:
                if not 1 <= task[2] <= ALL_CARDS:
                    yield "tasks", f"{task}: cannot draw {task[2]} cards"
                continue
            pos, kind = (task[2], task[3]) if task[0] == DOWN else (task[3], Kind.SABOTEUR)
            if task[0] == ASK and task[2] != 1:
                yield "tasks", f"{task}: the Saboteur asks again only at stage 1"
            elif task[0] == DOWN and kind not in DOWN_KINDS:
                yield "tasks", f"{task}: {kind} has no down effect"
            elif not self.out[seat] and not self._carries(seat, pos, kind, task[0] == DOWN):
                yield "tasks", f"{task}: no such effect at that place in player_{seat}'s line"

    def _carries(self, seat: int, pos: int, kind: int, own_down: bool) -> bool:
        """Whether the card at ``pos`` of ``seat``'s line carries effect ``kind`` (its own
        down effect, a Dancer's included, if ``own_down``)."""
        line = self.lines[seat]
        if not 0 <= pos < len(line) or not is_champion(line[pos]):
            return False
        printed = line[pos] - CHAMPION_BASE
        return (own_down and printed == kind) or self.effect_kind(seat, pos) == kind

    def _decision_problems(self) -> Iterator[tuple[str, str]]:
        """The pending decision as the rules pose it: its seat, context and options."""
        kind, seat = self.decision, self.decider
        if self.phase == OVER:
            if kind != EMPTY or seat != NO_SEAT or self.pending or self.pending_options:
                yield "decision", "a finished game has no pending decision"
            elif self.choosers or any(choice != EMPTY for choice in self.choices):
                yield "choosers", "a finished game has no one choosing"
            return
        if kind == EMPTY or seat == NO_SEAT:
            yield "decision", "a game that goes on has a pending decision and its seat"
            return
        if self.out[seat]:
            yield "decider", f"player_{seat} is OUT and decides nothing"
            return
        if self.phase != (BUYING if kind == Decision.BUY else REVEALING):
            yield "decision", f"{Decision(kind).name.lower()} in the wrong phase"
            return
        if kind != Decision.REVEAL_OR_STOP and (
            self.choosers or any(choice != EMPTY for choice in self.choices)
        ):
            yield "choosers", "reveal choices are made only while reveal-or-STOP is pending"
            return
        if kind == Decision.REVEAL_OR_STOP:
            yield from self._reveal_problems(seat)
            return
        if kind == Decision.IGNORE_OMEN:
            yield from self._ignore_problems(seat)
            return
        if kind == Decision.BUY:
            if self.pending:
                yield "pending", "buying has no context"
            elif not 0 <= self.buyer < len(self.buyers) or seat != self.buyers[self.buyer]:
                yield "decider", f"player_{seat} is not the buyer"
            else:
                yield from _options_problems(self.pending_options, self._purchase_options())
            return
        if len(self.pending) != 5:
            yield "pending", "an effect's choice needs its 5 entries of context"
        elif kind == Decision.CHOOSE_PLAYER:
            yield from self._player_choice_problems(seat, *self.pending)
        else:
            yield from self._card_choice_problems(seat, *self.pending)

    def _player_choice_problems(
        self, seat: int, effect: int, subject: int, stage: int, source: int, amount: int
    ) -> Iterator[tuple[str, str]]:
        if effect not in PLAYER_EFFECTS:
            yield "pending", f"effect {effect} does not choose a player"
        elif subject != NO_SEAT or stage not in ((0, 1) if effect == Kind.SABOTEUR else (0,)):
            yield "pending", "choosing a player has no subject, and a stage only for the Saboteur"
        elif amount != (self.count_type(seat, MYSTIC) if effect == Kind.PRIESTESS else 0):
            yield "pending", "the Priestess draws one card per face-up Mystic; no other a number"
        elif not self._effect_face_up(seat, source, effect):
            yield "pending", f"player_{seat} has no face-up {Kind(effect).title} effect there"
        else:
            yield from _options_problems(self.pending_options, self._player_options(seat, effect))

    def _card_choice_problems(
        self, seat: int, effect: int, subject: int, stage: int, source: int, amount: int
    ) -> Iterator[tuple[str, str]]:
        if effect not in CARD_EFFECTS:
            yield "pending", f"effect {effect} does not choose a card"
            return
        if stage or amount or not 0 <= subject < self.num_players or self.out[subject]:
            yield "pending", "choosing a card has a subject in the round, no stage, no number"
            return
        if effect == Kind.ASSASSIN:
            if subject == seat or not self.can_target(seat, subject):
                yield "pending", "the Assassin flips a Champion of an opponent it may target"
                return
        elif subject != seat:
            yield "pending", "only the Assassin chooses a card of another line"
            return
        if effect == Kind.LUNAR_WITCH:
            if source != EMPTY:
                yield "pending", "the Lunar Witch's victim flips a card of its choice"
                return
        elif effect == DANCER:
            line = self.lines[seat]
            if not (
                0 <= source < len(line)
                and line[source] == CHAMPION_BASE + DANCER
                and self.face_up[seat][source]
                and self.copies[seat][source] == EMPTY
            ):
                yield "pending", f"player_{seat} has no face-up Dancer still to copy there"
                return
        elif not self._effect_face_up(seat, source, effect):
            yield "pending", f"player_{seat} has no face-up {Kind(effect).title} effect there"
            return
        yield from _options_problems(
            self.pending_options, self._card_options(effect, subject, source)
        )

    def _ignore_problems(self, seat: int) -> Iterator[tuple[str, str]]:
        """A Saint question: an unused face-up Saint and the one face-up Omen it may ignore."""
        if len(self.pending) != 2:
            yield "pending", "a Saint's question needs the Saint's and the Omen's positions"
            return
        saint, omen = self.pending
        line, up = self.lines[seat], self.face_up[seat]
        if not (self._effect_face_up(seat, saint, SAINT) and not self.used[seat][saint]) or not (
            0 <= omen < len(line) and line[omen] == OMEN and up[omen]
        ):
            yield "pending", f"player_{seat} has no unused face-up Saint and face-up Omen there"
        elif self.count_face_up(seat, OMEN) != 1:
            yield "pending", "a second face-up Omen is ignored at once, not asked"
        else:
            yield from _options_problems(self.pending_options, [KEEP_OMEN, IGNORE])

    def _effect_face_up(self, seat: int, pos: int, effect: int) -> bool:
        """Whether the card at ``pos`` of ``seat``'s line is face up with effect ``effect``."""
        return self._carries(seat, pos, effect, False) and bool(self.face_up[seat][pos])

    def _reveal_problems(self, seat: int) -> Iterator[tuple[str, str]]:
        drawing = [s for s in self.seat_order() if not self.stopped[s] and not self.out[s]]
        if self.pending:
            yield "pending", "reveal-or-STOP has no context"
        elif self.choosers != drawing:
            yield "choosers", f"{self.choosers}, but those still drawing are {drawing}"
        elif any(not self.decks[s] for s in drawing):
            yield "decks", "a player with an empty deck is stopped before being asked"
        elif seat not in self.choosers:
            yield "decider", f"player_{seat} is not asked to reveal or STOP"
        elif self.tasks:
            yield "tasks", "effects resolve before the next reveal step"
        elif [self.choices[s] != EMPTY for s in self.choosers] != [
            index < self.choosers.index(seat) for index in range(len(self.choosers))
        ] or any(
            self.choices[s] != EMPTY for s in range(self.num_players) if s not in self.choosers
        ):
            yield "choices", "those asked before the decider have chosen, no one else"
        elif self.pending_options != [REVEAL, STOP]:
            yield "pending_options", "reveal-or-STOP offers both"

    # ----- hidden information -----------------------------------------------------------
    def resample_hidden(self, player: int, rng: np.random.Generator) -> ValiantWarsGame:
        """Reshuffle every unseen deck order and redraw others' hidden reveal choices.

        Each unseen pile is sorted before it is shuffled, so two states that look the same
        to ``player`` give the same world for the same ``rng``; the generator is reseeded.
        """
        game = self.clone()
        for seat, deck in enumerate(game.decks):
            unseen = len(deck) - (self.known_top[seat] if seat == player else 0)
            deck[:unseen] = _shuffled(deck[:unseen], rng)
        game.champion_deck = _shuffled(game.champion_deck, rng)
        if game.location_deck:
            game.location_deck[:-1] = _shuffled(game.location_deck[:-1], rng)
        for seat in game.choosers:
            if seat != player and game.choices[seat] != EMPTY:
                game.choices[seat] = int(rng.integers(2))
        game.rng = make_rng(int(rng.integers(2**63)))
        return game


def _shuffled(cards: list[int], rng: np.random.Generator) -> list[int]:
    """``cards`` in an order drawn from ``rng`` that depends on their multiset alone."""
    pile = sorted(cards)
    rng.shuffle(pile)
    return pile


def _mask_of(key: tuple[int, ...]) -> np.ndarray:
    """The legal mask of decision ``key[0]`` with options ``key[1:]``."""
    mask = np.zeros(LAYOUT.total, dtype=np.int8)
    offset = SEGMENT_OFFSETS[key[0]]
    for option in key[1:]:
        mask[offset + option] = 1
    mask.flags.writeable = False
    return mask


_MASKS: BoundedCache[tuple[int, ...], np.ndarray] = BoundedCache(_mask_of, 4096)
"""The masks met (kept read only: :meth:`ValiantWarsGame.legal_mask` hands out copies)."""


def _below(count: int, limit: int | None) -> bool:
    """Whether a purchase limit (``None``: none) allows one more."""
    return limit is None or count < limit


def _options_problems(options: list[int], expected: list[int]) -> Iterator[tuple[str, str]]:
    """The pending options against those the rules give (a single one is not asked)."""
    if options != expected:
        yield "pending_options", f"{options} are not the options the rules give ({expected})"
    elif len(options) < 2:
        yield "pending_options", "a decision with one option is made automatically"


OngoingSwords = Callable[[int, int, int, int, int], int]
ONGOING_SWORDS: dict[int, OngoingSwords] = {
    Kind.ARCHER: lambda gold_cards, locations, mystics, rogues, others: 3 if locations else 0,
    Kind.BRIGAND: lambda gold_cards, locations, mystics, rogues, others: 1 if others else 0,
    Kind.GUARD: lambda gold_cards, locations, mystics, rogues, others: 2 if rogues else 0,
    Kind.MERCENARY: lambda gold_cards, locations, mystics, rogues, others: min(
        MERCENARY_CAP, gold_cards
    ),
    Kind.PALADIN: lambda gold_cards, locations, mystics, rogues, others: 2 * others,
    Kind.RETAINER: lambda gold_cards, locations, mystics, rogues, others: 2 * mystics,
    Kind.SENTINEL: lambda gold_cards, locations, mystics, rogues, others: 2 * locations,
    Kind.WING_KNIGHT: lambda gold_cards, locations, mystics, rogues, others: mystics,
}
"""The Swords a face-up Champion's ongoing text adds, by kind, from the line's face-up Gold
cards, Locations, Mystics, Rogues and Rogues other than itself (the other kinds add none)."""

TALLY_MASK = 255
OMENS_AT, LOCATIONS_AT, MYSTICS_AT, ROGUES_AT, WARRIORS_AT, EFFECTS_AT, SWORDS_AT = range(8, 64, 8)
"""Where each count sits in a :data:`LINE_TALLY` number (eight bits each from the Gold cards
up: a line holds at most the ``ALL_CARDS`` cards of the game, fewer than 256; the printed
Swords on top, unbounded)."""
assert ALL_CARDS <= TALLY_MASK


def _tally(code: int) -> int:
    """What a face-up ``code`` adds to its line's counts, packed: a Gold card, a Dark Omen, a
    Location, a Mystic, a Rogue, a Warrior (Soldiers are), a Champion whose text may add
    Swords or Gold (a Dancer among them), and its printed Swords."""
    kind, card_type = code - CHAMPION_BASE, CODE_TYPE[code]
    has_effect = 0 <= kind < NUM_KINDS and (
        kind in ONGOING_SWORDS or kind in GOLD_BONUS or kind == DANCER
    )
    counts = (
        code == GOLD,
        code == OMEN,
        code >= LOCATION_BASE,
        card_type == MYSTIC,
        card_type == ROGUE,
        card_type == WARRIOR,
        has_effect,
    )
    return (
        sum(int(count) << (8 * i) for i, count in enumerate(counts))
        | CODE_SWORDS[code] << SWORDS_AT
    )


LINE_TALLY = tuple(_tally(code) for code in range(NUM_CODES))
"""Each card code's :func:`_tally`: a line's face-up tallies summed give all its counts at once."""


# ----- down effects -------------------------------------------------------------------------
G = ValiantWarsGame


def _apprentice(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.APPRENTICE, pos)


def _brigand(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.BRIGAND, pos)


def _saboteur(game: G, seat: int, pos: int) -> None:
    others = game.count_type(seat, ROGUE) - game.is_rogue_up(seat, pos)
    if others:
        game.tasks.append([ASK, seat, 1, pos])
    game._ask_saboteur(seat, pos, 0)


def _priestess(game: G, seat: int, pos: int) -> None:
    mystics = game.count_type(seat, MYSTIC)
    if mystics:
        game._ask_target(seat, Kind.PRIESTESS, pos, amount=mystics)


def _pyromancer(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.PYROMANCER, pos)


def _assassin(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.ASSASSIN, pos)


def _lunar_witch(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.LUNAR_WITCH, pos)


def _oracle(game: G, seat: int, pos: int) -> None:
    game.known_top[seat] = max(game.known_top[seat], min(ORACLE_LOOK, len(game.decks[seat])))


def _saint(game: G, seat: int, pos: int) -> None:
    """Revealed beside a face-up Dark Omen (at most one, or the owner is OUT), the Saint
    asks its owner whether to ignore it now."""
    if game.used[seat][pos]:
        return
    for omen, code in enumerate(game.lines[seat]):
        if code == OMEN and game.face_up[seat][omen]:
            game._ask_ignore(seat, pos, omen)
            return


def _shaman(game: G, seat: int, pos: int) -> None:
    options = game._card_options(Kind.SHAMAN, seat, pos)
    if options:
        game._decide(Decision.CHOOSE_CARD, seat, options, [Kind.SHAMAN, seat, 0, pos, 0])
    else:
        game.face_up[seat][pos] = 0


def _dancer(game: G, seat: int, pos: int) -> None:
    options = game._card_options(DANCER, seat, pos)
    if options:
        game._decide(Decision.CHOOSE_CARD, seat, options, [DANCER, seat, 0, pos, 0])


_DOWN_EFFECTS = {
    Kind.APPRENTICE: _apprentice,
    Kind.BRIGAND: _brigand,
    Kind.SABOTEUR: _saboteur,
    Kind.PRIESTESS: _priestess,
    Kind.PYROMANCER: _pyromancer,
    Kind.ASSASSIN: _assassin,
    Kind.LUNAR_WITCH: _lunar_witch,
    Kind.FIREBRAND: lambda game, seat, pos: game._draw_self(seat, 1),
    Kind.WARLORD: lambda game, seat, pos: game._draw_self(seat, 1),
    Kind.WYRM_LORD: lambda game, seat, pos: game._draw_self(seat, 2),
    Kind.ORACLE: _oracle,
    Kind.SAINT: _saint,
    Kind.SHAMAN: _shaman,
    Kind.DANCER: _dancer,
}

__all__ = ["ValiantWarsGame"]
