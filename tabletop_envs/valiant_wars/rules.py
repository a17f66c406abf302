"""Valiant Wars' pure rules core: state, legal decisions, transitions, views, returns.

A round is SHUFFLE, then REVEAL steps (each player still drawing secretly chooses reveal or
STOP, in a fixed order; then the cards turn over together and resolve through a small task
stack of forced draws and down effects), then BUY (first to STOP first), then BATTLE.
Rulings: docs/rules/valiant_wars.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.game import NO_SEAT, GameCore, Option
from tabletop_envs.core.rewards import REWARD_MODES, competitive_returns
from tabletop_envs.core.rng import make_rng
from tabletop_envs.core.state import PlainState
from tabletop_envs.valiant_wars import render
from tabletop_envs.valiant_wars.cards import (
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    CODE_SWORDS,
    CODE_TYPE,
    DOWN_KINDS,
    GOLD,
    GOLD_BONUS,
    LAYOUT,
    LOCATION_BASE,
    LOCATIONS,
    MARKET_SIZE,
    MAX_DECISIONS,
    MAX_PLAYERS,
    MAX_TARGET_VP,
    MERCENARY_CAP,
    MIN_PLAYERS,
    NO_CARD,
    NOBODY,
    NUM_LOCATIONS,
    OMEN,
    ORACLE_LOOK,
    OVER,
    REVEAL,
    REVEALING,
    SEGMENTS,
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
    is_champion,
    location_code,
)
from tabletop_envs.valiant_wars.observation import (
    SCHEMA,
    build_view,
    encode,
    readable_view,
)

EMPTY = -1
"""No pending decision, no choice yet, no copy."""

# Task-stack entries: [DRAW, player, count], [DOWN, player, line position, effect kind],
# [ASK, player, stage, line position] (the Saboteur's second targeting, still to be posed).
DRAW, DOWN, ASK = 0, 1, 2
# Pending-decision context: effect kind, subject seat, stage, source line position, amount.
CTX_EFFECT, CTX_SUBJECT, CTX_STAGE, CTX_SOURCE, CTX_AMOUNT = range(5)
# Supply piles.
SOLDIERS_PILE, GOLD_PILE, OMENS_PILE = range(3)

WARRIOR, MYSTIC, ROGUE = (int(t) for t in ChampionType)
HERO, DANCER, SAINT, GENERAL = Kind.HERO, Kind.DANCER, Kind.SAINT, Kind.GENERAL


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
    }
    LAYOUT = LAYOUT
    SCHEMA = SCHEMA
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
        self.decider = EMPTY
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
        n = self.num_players
        return [(self.first + i) % n for i in range(n)]

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
        """Gold to spend after STOP: Gold cards, uncancelled Omens, Sellsword and Monk."""
        return self.line_totals(seat)[1]

    def line_totals(self, seat: int) -> tuple[int, int]:
        """:meth:`swords` and :meth:`gold` of ``seat``, from one pass over its line."""
        line, up = self.lines[seat], self.face_up[seat]
        if self.out[seat] or not line:
            return 0, 0
        codes = [code for pos, code in enumerate(line) if up[pos]]
        types = [CODE_TYPE[code] for code in codes]
        gold_cards, omens = codes.count(GOLD), codes.count(OMEN)
        locations = sum(code >= LOCATION_BASE for code in codes)
        mystics, rogues = types.count(MYSTIC), types.count(ROGUE)
        swords = sum([CODE_SWORDS[code] for code in codes])
        gold = gold_cards + omens
        for pos, code in enumerate(line):
            if up[pos] and is_champion(code):
                kind = self.effect_kind(seat, pos)
                others = rogues - (CODE_TYPE[code] == ROGUE)
                swords += _ongoing_swords(kind, gold_cards, locations, mystics, rogues, others)
                gold += GOLD_BONUS.get(kind, 0)
        terrain = LOCATIONS[self.location].terrain if self.location_deck else Terrain.PLAIN
        if terrain == Terrain.MARSH:
            swords -= types.count(WARRIOR)
        elif terrain == Terrain.HAUNTED:
            swords -= 2 * omens
        elif terrain == Terrain.GUARDED:
            swords -= 2 * rogues
        return max(0, swords), gold

    # ----- the contract -----------------------------------------------------------------
    def pending_kind(self) -> int:
        return self.decision

    def legal_options(self) -> list[int]:
        return self.pending_options

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(LAYOUT.total, dtype=np.int8)
        if self.decision == EMPTY or self.phase == OVER:
            return mask
        offset = SEGMENTS[self.decision].offset
        for option in self.pending_options:
            mask[offset + option] = 1
        return mask

    def _apply(self, action: int) -> None:
        self.decisions_made += 1
        self._answer(action - SEGMENTS[self.decision].offset)
        self._settle()

    def view(self, player: int) -> dict[str, Any]:
        return build_view(self, player)

    def observation(self, player: int) -> np.ndarray:
        """``SCHEMA.encode(view(player))``, gathered from the kept view."""
        return encode(self, player)

    def readable_view(self, player: int) -> dict[str, Any]:
        return readable_view(self, player)

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

    def action_to_str(self, action: int) -> str:
        segment, option = LAYOUT.locate(action)
        return render.describe_action(self, Decision(SEGMENTS.index(segment)), option)

    def render_text(self, viewer: int | None = None) -> str:
        return render.render_table(self, viewer)

    # ----- the decision loop ------------------------------------------------------------
    def _decide(self, kind: Decision, seat: int, options: list[int], context: list[int]) -> None:
        self.decision = int(kind)
        self.decider = seat
        self.pending_options = options
        self.pending = [int(value) for value in context]

    def _answer(self, option: int) -> None:
        """Resolve the pending decision with ``option`` (legal by construction)."""
        kind, seat, context = self.decision, self.decider, self.pending
        self.decision, self.decider, self.pending, self.pending_options = EMPTY, EMPTY, [], []
        if kind == Decision.REVEAL_OR_STOP:
            self._choose_reveal(seat, option)
        elif kind == Decision.CHOOSE_PLAYER:
            self._choose_player(seat, option, context)
        elif kind == Decision.CHOOSE_CARD:
            self._choose_card(seat, option, context)
        else:
            self._buy(seat, option)

    def _settle(self) -> None:
        """Advance until a real choice is pending (one-option decisions resolve themselves)."""
        while self.phase != OVER:
            if self.decision != EMPTY:
                if self.decision == Decision.REVEAL_OR_STOP or len(self.pending_options) > 1:
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
        """Ask everyone still drawing, clockwise from the first player; or go to buying."""
        self.choosers = []
        for seat in self.seat_order():
            if self.stopped[seat] or self.out[seat]:
                continue
            if self.decks[seat]:
                self.choosers.append(seat)
            else:
                self._stop(seat)
        if self.choosers:
            self._decide(Decision.REVEAL_OR_STOP, self.choosers[0], [REVEAL, STOP], [])
        else:
            self._start_buying()

    def _stop(self, seat: int) -> None:
        self.stopped[seat] = 1
        self.stop_step[seat] = self.step

    def _choose_reveal(self, seat: int, option: int) -> None:
        self.choices[seat] = option
        index = self.choosers.index(seat) + 1
        if index < len(self.choosers):
            self._decide(Decision.REVEAL_OR_STOP, self.choosers[index], [REVEAL, STOP], [])
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
        for chooser, pos in revealed:
            if self.lines[chooser][pos] == OMEN:
                self._omen_revealed(chooser, pos)
        for chooser, pos in reversed(revealed):
            if not self.out[chooser]:
                self._queue_down_effect(chooser, pos)
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
        """An unused face-up Saint cancels the Omen; otherwise a second one is OUT."""
        saint = self._unused_saint(seat)
        if saint != EMPTY:
            self._cancel_omen(seat, saint, pos)
        elif self.count_face_up(seat, OMEN) >= 2:
            self._go_out(seat)

    def _unused_saint(self, seat: int) -> int:
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
            if self.lines[seat][pos] == OMEN:
                self._omen_revealed(seat, pos)
                continue
            left = count - drawn - 1
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

    def _ask_target(
        self,
        seat: int,
        kind: int,
        pos: int,
        targets: list[int],
        optional: bool,
        stage: int = 0,
        amount: int = 0,
    ) -> None:
        if not targets:
            return
        n = self.num_players
        options = [(target - seat) % n for target in targets]
        if optional:
            options.append(NOBODY)
        self._decide(Decision.CHOOSE_PLAYER, seat, options, [kind, EMPTY, stage, pos, amount])

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
        self._ask_target(seat, Kind.SABOTEUR, pos, self._targets(seat, False), False, stage)

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
            card_context = [kind, target, 0, context[CTX_SOURCE], 0]
            self._decide(Decision.CHOOSE_CARD, seat, self._flippable(target), card_context)
        else:  # Lunar Witch: the target flips a Champion of their choice, else a Soldier
            champions = self._flippable(target)
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
        self._decide(Decision.BUY, seat, self._purchase_options(), [])

    def _purchase_options(self) -> list[int]:
        options = []
        if not self.bought_champion:
            options = [
                slot
                for slot, kind in enumerate(self.market)
                if kind != NO_CARD and CHAMPIONS[kind].cost <= self.gold_left
            ]
        if self.gold_left >= 1 and self.supply[GOLD_PILE]:
            options.append(Buy.GOLD)
        if not self.took_soldier and self.supply[SOLDIERS_PILE]:
            options.append(Buy.SOLDIER)
        options.append(Buy.DONE)
        return [int(option) for option in options]

    def _buy(self, seat: int, option: int) -> None:
        """Gains go under the deck (the round's reveals are over; it is shuffled next)."""
        deck = self.decks[seat]
        if option == Buy.DONE:
            self.buyer += 1
            self._begin_purchase()
        elif option == Buy.GOLD:
            self.supply[GOLD_PILE] -= 1
            self.gold_left -= 1
            deck.insert(0, GOLD)
        elif option == Buy.SOLDIER:
            self.supply[SOLDIERS_PILE] -= 1
            self.took_soldier = 1
            deck.insert(0, SOLDIER)
        else:
            kind = self.market[option]
            self.gold_left -= CHAMPIONS[kind].cost
            self.bought_champion = 1
            deck.insert(0, CHAMPION_BASE + kind)
            self.market[option] = self.champion_deck.pop() if self.champion_deck else NO_CARD

    # ----- battle and the end of a round ------------------------------------------------
    def _battle(self) -> None:
        n = self.num_players
        swords = [self.swords(seat) for seat in range(n)]
        best = max(swords)
        leaders = [seat for seat in range(n) if swords[seat] == best]
        winner = leaders[0] if best > 0 and len(leaders) == 1 else EMPTY
        location = self.location_deck.pop()
        if winner != EMPTY:
            self._score(winner, location)
        self.last_battle = [location, winner, *swords]
        self._pass_token()
        if winner != EMPTY and self.vp[winner] >= self.target:
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

    # ----- hidden information -----------------------------------------------------------
    def resample_hidden(self, player: int, rng: np.random.Generator) -> ValiantWarsGame:
        """Reshuffle every unseen deck order and redraw others' hidden reveal choices."""
        game = self.clone()
        for seat, deck in enumerate(game.decks):
            unseen = len(deck) - (self.known_top[seat] if seat == player else 0)
            head = deck[:unseen]
            rng.shuffle(head)
            deck[:unseen] = head
        rng.shuffle(game.champion_deck)
        if game.location_deck:
            below = game.location_deck[:-1]
            rng.shuffle(below)
            game.location_deck[:-1] = below
        for seat in game.choosers:
            if seat != player and game.choices[seat] != EMPTY:
                game.choices[seat] = int(rng.integers(2))
        game.rng = make_rng(int(rng.integers(2**63)))
        return game


def _ongoing_swords(
    kind: int, gold_cards: int, locations: int, mystics: int, rogues: int, other_rogues: int
) -> int:
    """Swords a face-up Champion's ongoing text adds (``other_rogues`` excludes itself)."""
    if kind == Kind.ARCHER:
        return 3 if locations else 0
    if kind == Kind.BRIGAND:
        return 1 if other_rogues else 0
    if kind == Kind.GUARD:
        return 2 if rogues else 0
    if kind == Kind.MERCENARY:
        return min(MERCENARY_CAP, gold_cards)
    if kind == Kind.PALADIN:
        return 2 * other_rogues
    if kind == Kind.RETAINER:
        return 2 * mystics
    if kind == Kind.SENTINEL:
        return 2 * locations
    if kind == Kind.WING_KNIGHT:
        return mystics
    return 0


# ----- down effects -------------------------------------------------------------------------
G = ValiantWarsGame


def _apprentice(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.APPRENTICE, pos, game._targets(seat, True), False)


def _brigand(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.BRIGAND, pos, game._targets(seat, False), False)


def _saboteur(game: G, seat: int, pos: int) -> None:
    others = game.count_type(seat, ROGUE) - game.is_rogue_up(seat, pos)
    if others:
        game.tasks.append([ASK, seat, 1, pos])
    game._ask_saboteur(seat, pos, 0)


def _priestess(game: G, seat: int, pos: int) -> None:
    mystics = game.count_type(seat, MYSTIC)
    if mystics:
        targets = game._targets(seat, True)
        game._ask_target(seat, Kind.PRIESTESS, pos, targets, False, amount=mystics)


def _pyromancer(game: G, seat: int, pos: int) -> None:
    targets = [t for t in game._targets(seat, True) if not game.stopped[t]]
    game._ask_target(seat, Kind.PYROMANCER, pos, targets, True)


def _assassin(game: G, seat: int, pos: int) -> None:
    targets = [t for t in game._targets(seat, False) if game._flippable(t)]
    game._ask_target(seat, Kind.ASSASSIN, pos, targets, True)


def _lunar_witch(game: G, seat: int, pos: int) -> None:
    game._ask_target(seat, Kind.LUNAR_WITCH, pos, game._targets(seat, False), False)


def _oracle(game: G, seat: int, pos: int) -> None:
    game.known_top[seat] = max(game.known_top[seat], min(ORACLE_LOOK, len(game.decks[seat])))


def _saint(game: G, seat: int, pos: int) -> None:
    if game.used[seat][pos]:
        return
    for omen, code in enumerate(game.lines[seat]):
        if code == OMEN and game.face_up[seat][omen]:
            game._cancel_omen(seat, pos, omen)
            return


def _shaman(game: G, seat: int, pos: int) -> None:
    options = game._flippable(seat, exclude=pos)
    if game.count_face_up(seat, SOLDIER):
        options.append(SOLDIER_OPTION)
    if options:
        game._decide(Decision.CHOOSE_CARD, seat, options, [Kind.SHAMAN, seat, 0, pos, 0])
    else:
        game.face_up[seat][pos] = 0


def _dancer(game: G, seat: int, pos: int) -> None:
    options = [
        k
        for k in game._flippable(seat, exclude=pos)
        if game.effect_kind(seat, game.champion_positions(seat)[k]) != EMPTY
    ]
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
