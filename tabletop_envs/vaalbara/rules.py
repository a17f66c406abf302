"""Vaalbara's rules: the state, the pending decision, transitions, returns, hidden redraws.

A round is ASSIGNMENT (every seat, in seat order, secretly picks a character), then
RESOLUTION in initiative order (character action, which may need a decision, then the land
pick), then END OF ROUND (slide the rows, refill, draw to 5). Rulings: docs/rules/vaalbara.md.
A loaded save is checked against what play keeps true (:meth:`VaalbaraGame.check_invariants`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.game import NO_SEAT, GameCore, Option
from tabletop_envs.core.rewards import REWARD_MODES, competitive_returns
from tabletop_envs.core.rng import make_rng
from tabletop_envs.core.state import PlainState
from tabletop_envs.vaalbara.spec import (
    CHARACTER_COUNT,
    EMPTY,
    HAND_SIZE,
    KIND_OF,
    KIND_TYPE_INDEX,
    LAND_CARDS,
    LAND_TYPES,
    LAYOUT,
    MAX_PLAYERS,
    MAX_VP_PER_ROUND,
    OMEN_BACKS,
    OMEN_RANK,
    ROUNDS,
    STARTING_VP,
    TYPE_BONUS,
    TYPE_OF,
    Character,
    Decision,
    LandKind,
    LandType,
    bit,
    cards_in,
    land_cards_for,
    land_reward,
    omen_order,
)

C = Character


class VaalbaraGame(PlainState, GameCore):
    """One game of Vaalbara for 2 to 5 players."""

    NAME = "vaalbara"
    MIN_PLAYERS = 2
    MAX_PLAYERS = MAX_PLAYERS
    DEFAULT_PLAYERS = 4
    OPTIONS: ClassVar = {
        "reward": Option("win", REWARD_MODES, "win: +1 winner, -1 others; score: margin"),
    }
    LAYOUT = LAYOUT
    MAX_DECISIONS = 260
    STATE_FIELDS: ClassVar = {
        "round": int,
        "land_deck": list[int],
        "deck_known": list[bool],
        "back_of": list[int],
        "rows": list[list[int]],
        "realms": list[list[int]],
        "vp": list[int],
        "hands": list[int],
        "clan_decks": list[list[int]],
        "discards": list[int],
        "known_in_hand": list[int],
        "picks": list[int],
        "revealed": bool,
        "turn_order": list[int],
        "turn": int,
        "decision": int,
        "decider": int,
        "fighter_poll": list[int],
        "fighter_answers": list[int],
        "rider_slot": int,
        "decisions_made": int,
    }

    def __init__(self, num_players: int = 4, seed: int | None = None, **options: Any) -> None:
        super().__init__(num_players, seed, **options)
        n = self.num_players
        rng = self.rng
        self.round = 0
        self.back_of = [int(b) for b in rng.permutation(len(OMEN_BACKS))]
        self.land_deck = [int(c) for c in rng.permutation(land_cards_for(n))]
        self.deck_known = [False] * len(self.land_deck)
        self.rows = [self._draw_row(), self._draw_row()]
        self.realms: list[list[int]] = [[] for _ in range(n)]
        self.vp = [STARTING_VP] * n
        self.clan_decks = [[int(c) for c in rng.permutation(CHARACTER_COUNT)] for _ in range(n)]
        self.hands = [0] * n
        self.discards = [0] * n
        self.known_in_hand = [0] * n
        for seat in range(n):
            self._refill_hand(seat)
        self.decisions_made = 0
        self._start_assignment()

    @classmethod
    def from_position(
        cls,
        num_players: int,
        *,
        round_number: int = 1,
        realms: Sequence[Sequence[LandKind]] | None = None,
        row1: Sequence[LandKind] | None = None,
        row2: Sequence[LandKind] | None = None,
        hands: Sequence[Sequence[Character]] | None = None,
        played: Sequence[Sequence[Character]] | None = None,
        vp: Sequence[int] | None = None,
        omens: Sequence[int] | None = None,
        seed: int = 0,
        **options: Any,
    ) -> VaalbaraGame:
        """A game at the start of round ``round_number`` (1-9), at the assignment phase.

        Land faces are given by kind and drawn from this player count's cards; the rest
        form the shuffled land deck. ``omens`` ranks the seats best first and picks the
        back of the top land card. Unlisted parts keep their seeded random setup; a
        player's clan deck holds the characters neither in hand nor played. The position
        is not checked against :meth:`check_invariants` (a test may give a realm more lands
        than the round implies); a save of one that breaks them is refused on loading.
        """
        game = cls(num_players, seed=seed, **options)
        pool = land_cards_for(num_players)
        game.realms = [game._take_kinds(pool, kinds) for kinds in realms or [[]] * num_players]
        rows = [game._take_kinds(pool, kinds) if kinds else None for kinds in (row1, row2)]
        game.land_deck = [int(c) for c in game.rng.permutation(pool)]
        game.deck_known = [False] * len(game.land_deck)
        game.rows = [row if row is not None else game._draw_row() for row in rows]
        if omens is not None:
            game._set_top_omens(list(omens))
        for seat in range(num_players):
            game._set_characters(
                seat, hands[seat] if hands else None, played[seat] if played else []
            )
        if vp is not None:
            game.vp = list(vp)
        game.round = round_number - 1
        game._start_assignment()
        return game

    def _take_kinds(self, pool: list[int], kinds: Sequence[LandKind]) -> list[int]:
        """Remove from ``pool`` one card of each kind in ``kinds``; their indices in order."""
        cards = []
        for kind in kinds:
            match = next((c for c in pool if LAND_CARDS[c][0] == kind), None)
            if match is None:
                raise ValueError(f"no {LandKind(kind).title} card left for this position")
            pool.remove(match)
            cards.append(match)
        return cards

    def _set_top_omens(self, ranking: list[int]) -> None:
        back = next(
            (b for b in range(len(OMEN_BACKS)) if omen_order(b, self.num_players) == ranking), None
        )
        if back is None:
            raise ValueError(f"no Omen card back ranks the seats as {ranking}")
        top = self.land_deck[-1]
        holder = self.back_of.index(back)
        self.back_of[top], self.back_of[holder] = back, self.back_of[top]

    def _set_characters(
        self, seat: int, hand: Sequence[Character] | None, played: Sequence[Character]
    ) -> None:
        if hand is not None:
            self.hands[seat] = sum(bit(card) for card in hand)
        self.discards[seat] = sum(bit(card) for card in played)
        used = self.hands[seat] | self.discards[seat]
        rest = [card for card in range(CHARACTER_COUNT) if not used & bit(card)]
        self.clan_decks[seat] = [int(c) for c in self.rng.permutation(rest)]

    # ----- small queries ------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.decider

    def neighbours(self, seat: int) -> list[int]:
        """Left and right neighbours (one with two players)."""
        return list(_NEIGHBOURS[self.num_players][seat])

    def top_back(self) -> int:
        return self.back_of[self.land_deck[-1]]

    def omen_rank(self, seat: int) -> int:
        """Lower is a better omen on the current top land card (compare, don't count)."""
        return OMEN_RANK[self.top_back()][seat]

    def initiative(self, seat: int) -> int:
        return self.picks[seat] + 1

    def ahead_now(self, a: int, b: int) -> bool:
        """Whether ``a`` counts as playing before ``b`` for the Hunter and the Crafter: a lower
        initiative, or the same one and a better Omen on the top land card *now* (a Tracker
        "changes the Omens for the rest of the round"; the turn order stays as revealed)."""
        if self.picks[a] != self.picks[b]:
            return self.picks[a] < self.picks[b]
        return self.omen_rank(a) < self.omen_rank(b)

    def realm_kinds(self, seat: int) -> list[int]:
        return [KIND_OF[card] for card in self.realms[seat]]

    def count_type(self, seat: int, land_type: int) -> int:
        return [TYPE_OF[card] for card in self.realms[seat]].count(land_type)

    def land_types(self, seat: int) -> int:
        return len({KIND_TYPE_INDEX[kind] for kind in self.realm_kinds(seat)})

    def final_score(self, seat: int) -> int:
        return self.vp[seat] + TYPE_BONUS.get(self.land_types(seat), 0)

    @property
    def active(self) -> int:
        """The seat whose turn is resolving, or NO_SEAT during assignment."""
        return self.turn_order[self.turn] if self.turn < len(self.turn_order) else NO_SEAT

    # ----- the contract ---------------------------------------------------------------
    def pending_kind(self) -> int:
        return self.decision

    def simultaneous_seats(self) -> tuple[int, ...]:
        """Assignment ("Each player simultaneously selects a character card") and the Fighter
        poll ("All players with a Fighter in hand may reveal her") are simultaneous."""
        if self.decision == Decision.SELECT:
            return tuple(range(self.decider, self.num_players))
        if self.decision == Decision.FIGHTER:
            return tuple(self.fighter_poll[len(self.fighter_answers) :])
        return ()

    def legal_options(self) -> list[int]:
        """Legal option indices inside the pending decision's segment."""
        seat, kind = self.decider, self.decision
        n = self.num_players
        if kind == Decision.SELECT:
            return cards_in(self.hands[seat])
        if kind == Decision.FIGHTER:
            return [0, 1] if self.hands[seat] & bit(C.FIGHTER) else [0]
        if kind == Decision.BARD:
            return list(range(n - 1))
        if kind == Decision.TRACKER:
            return [row * MAX_PLAYERS + slot for row in range(2) for slot in self._filled(row)]
        if kind == Decision.MIDWIFE:
            return cards_in(self.discards[seat])
        if kind in (Decision.RIDER_FIRST, Decision.TAKE_LAND):
            return self._filled(0)
        if kind == Decision.RIDER_SECOND:
            return self._filled(1)
        return sorted(set(self.realm_kinds(seat)))

    def legal_mask(self) -> np.ndarray:
        """:meth:`GameCore.legal_mask`, kept by the decision and its legal options (a copy
        is handed out)."""
        if self.decider == NO_SEAT:
            return super().legal_mask()
        key = (self.decision, *self.legal_options())
        mask = _MASKS.get(key)
        if mask is None:
            mask = _MASKS[key] = super().legal_mask()
        return mask.copy()

    def _filled(self, row: int) -> list[int]:
        return [slot for slot, card in enumerate(self.rows[row]) if card != EMPTY]

    def apply_unchecked(self, action: int) -> None:
        self.decisions_made += 1
        option = action - LAYOUT.kind_segments[self.decision].offset
        handler = _HANDLERS[self.decision]
        handler(self, option)

    def returns(self) -> np.ndarray:
        if not self.is_terminal:
            return np.zeros(self.num_players)
        scores = [self.final_score(seat) for seat in range(self.num_players)]
        return competitive_returns(self.options["reward"], scores, [self.winner()])

    def winner(self) -> int:
        """Most points; a tie goes to the best omen on the top land card."""
        best = max(self.final_score(seat) for seat in range(self.num_players))
        tied = [s for s in range(self.num_players) if self.final_score(s) == best]
        return min(tied, key=self.omen_rank)

    def scores(self) -> list[float]:
        return [float(self.final_score(seat)) for seat in range(self.num_players)]

    def turns(self) -> int:
        """Rounds completed."""
        return self.round + 1 if self.is_terminal else self.round

    def winners(self) -> Sequence[int]:
        return [self.winner()] if self.is_terminal else []

    # ----- invariants (checked when a save is loaded) -----------------------------------
    def check_invariants(self) -> Iterator[tuple[str, str]]:
        """What play keeps true, each broken one as (field, problem): the shapes and ranges
        first (later checks index with them), then the land cards and each clan's 12
        characters conserved, the sizes the rounds imply, and the pending decision."""
        shape = list(self._shape_problems())
        if shape:
            yield from shape
            return
        yield from self._land_problems()
        yield from self._character_problems()
        yield from self._turn_problems()

    def _shape_problems(self) -> Iterator[tuple[str, str]]:
        n = self.num_players
        for name in ("realms", "vp", "hands", "clan_decks", "discards", "known_in_hand", "picks"):
            if len(getattr(self, name)) != n:
                yield name, f"needs one entry per seat ({n}), has {len(getattr(self, name))}"
        if len(self.rows) != 2 or any(len(row) != n for row in self.rows):
            yield "rows", f"needs 2 rows of {n} slots"
        if len(self.deck_known) != len(self.land_deck):
            yield "deck_known", "needs one flag per land deck card"
        if not self.land_deck:
            yield "land_deck", "is empty (it always keeps a spare card for the Omens)"
        if sorted(self.back_of) != list(range(len(OMEN_BACKS))):
            yield "back_of", f"is not a permutation of the {len(OMEN_BACKS)} Omen backs"
        if not 0 <= self.round < ROUNDS:
            yield "round", f"{self.round} is outside 0..{ROUNDS - 1}"
        if any(vp < 0 for vp in self.vp):
            yield "vp", "VP cannot be negative"
        reachable = STARTING_VP + MAX_VP_PER_ROUND * (self.round + 1)
        if any(vp > reachable for vp in self.vp):
            yield "vp", f"{max(self.vp)} VP is more than {self.round + 1} rounds can give"
        for name in ("hands", "discards", "known_in_hand"):
            if any(not 0 <= mask < bit(CHARACTER_COUNT) for mask in getattr(self, name)):
                yield name, f"a character set outside 0..{bit(CHARACTER_COUNT) - 1}"
        for seat, deck in enumerate(self.clan_decks):
            if any(not 0 <= card < CHARACTER_COUNT for card in deck):
                yield f"clan_decks[{seat}]", f"a character outside 0..{CHARACTER_COUNT - 1}"
        if any(pick != EMPTY and not 0 <= pick < CHARACTER_COUNT for pick in self.picks):
            yield "picks", f"a pick is neither {EMPTY} (none) nor a character"
        if not 0 <= self.turn <= n:
            yield "turn", f"{self.turn} is outside 0..{n}"
        if self.revealed and EMPTY in self.picks:
            yield "picks", "every seat has picked once the picks are revealed"
        if self.revealed and sorted(self.turn_order) != list(range(n)):
            yield "turn_order", "after the reveal it must order every seat once"
        if not self.revealed and (self.turn_order or self.turn):
            yield "turn_order", "before the reveal there is no turn order and turn is 0"
        if not 0 <= self.decisions_made <= self.MAX_DECISIONS:
            yield "decisions_made", f"{self.decisions_made} is outside 0..{self.MAX_DECISIONS}"

    def _land_problems(self) -> Iterator[tuple[str, str]]:
        n = self.num_players
        in_rows = [card for row in self.rows for card in row if card != EMPTY]
        held = [card for realm in self.realms for card in realm]
        if sorted(self.land_deck + in_rows + held) != land_cards_for(n):
            yield (
                "land_deck",
                (
                    f"the deck, rows and realms must hold each of the {len(land_cards_for(n))} "
                    f"land cards of {n} players exactly once"
                ),
            )
        if any(card == EMPTY for card in self.rows[1]):
            yield "rows", "the second row is refilled whole each round"
        if len(self.rows[0]) - self.rows[0].count(EMPTY) != n - self.turn:
            yield "rows", f"the first row must keep {n - self.turn} lands at turn {self.turn}"
        for seat, realm in enumerate(self.realms):
            expected = self.round + self._done(seat)
            if len(realm) != expected:
                yield f"realms[{seat}]", f"holds {len(realm)} lands, expected {expected}"
        if any(self.deck_known[1:-1]):
            yield "deck_known", "only the deck's top and bottom faces can be public"
        tracked, pioneered = self._resolved(C.TRACKER), self._pioneer_played()
        if len(self.land_deck) == 1:
            tracked = pioneered = tracked or pioneered  # the top card is the bottom card
        if self.deck_known[-1] and not tracked:
            yield "deck_known", "the top's face is public only after a Tracker this round"
        if self.deck_known[0] and not pioneered:
            yield "deck_known", "the bottom's face is public only after a Pioneer played"

    def _resolved(self, character: int) -> bool:
        """Whether a seat playing ``character`` this round has had its character action."""
        return any(
            pick == character
            and (self._done(seat) or (seat == self.active and self.decision == Decision.TAKE_LAND))
            for seat, pick in enumerate(self.picks)
        )

    def _pioneer_played(self) -> bool:
        """Whether any seat has shown its Pioneer: played (discards, a revealed pick) or
        taken back by a Midwife (known in hand)."""
        return any(
            (discards | known | (bit(pick) if self.revealed else 0)) & bit(C.PIONEER)
            for discards, known, pick in zip(
                self.discards, self.known_in_hand, self.picks, strict=True
            )
        )

    def _done(self, seat: int) -> bool:
        """Whether ``seat`` has taken its land this round."""
        return self.revealed and self.turn_order.index(seat) < self.turn

    def _character_problems(self) -> Iterator[tuple[str, str]]:
        everyone = bit(CHARACTER_COUNT) - 1
        for seat in range(self.num_players):
            hand, discards, pick = self.hands[seat], self.discards[seat], self.picks[seat]
            deck = self.clan_decks[seat]
            held_pick = bit(pick) if pick != EMPTY and not self._done(seat) else 0
            parts = [hand, discards, held_pick, *map(bit, deck)]
            union = hand | discards | held_pick | sum(set(map(bit, deck)))
            if union != everyone or sum(map(int.bit_count, parts)) != CHARACTER_COUNT:
                yield (
                    f"hands[{seat}]",
                    (
                        "hand, clan deck, discards and the unresolved pick must hold each of "
                        f"the {CHARACTER_COUNT} characters exactly once"
                    ),
                )
                continue
            if self._done(seat) and not discards & bit(pick):
                yield f"discards[{seat}]", "a resolved pick goes to the discard pile"
            if hand.bit_count() > HAND_SIZE:
                yield f"hands[{seat}]", f"holds more than {HAND_SIZE} characters"
            if pick == EMPTY and deck and hand.bit_count() != HAND_SIZE:
                yield f"hands[{seat}]", f"is drawn up to {HAND_SIZE} while the clan deck lasts"
            if discards.bit_count() > self.round + self._done(seat):
                yield f"discards[{seat}]", "more characters played than turns taken"
            may_know = hand | (bit(pick) if pick != EMPTY and not self.revealed else 0)
            if self.known_in_hand[seat] & ~may_know:
                yield f"known_in_hand[{seat}]", "a character known in hand is not in hand"

    def _turn_problems(self) -> Iterator[tuple[str, str]]:
        n, kind, seat = self.num_players, self.decision, self.decider
        if (kind == EMPTY) != (seat == NO_SEAT):
            yield "decider", f"no seat decides exactly when the game is over ({EMPTY}, {NO_SEAT})"
            return
        if kind not in (EMPTY, *Decision) or not (seat == NO_SEAT or 0 <= seat < n):
            yield "decision", f"{kind!r} by {seat!r} is not a decision of a seat of {n}"
            return
        picked = [pick != EMPTY for pick in self.picks]
        if kind == EMPTY:
            if self.round != ROUNDS - 1 or self.turn != n:
                yield "decision", "the game ends only after the last turn of the last round"
        elif kind == Decision.SELECT:
            if self.revealed or picked != [s < seat for s in range(n)]:
                yield "picks", f"seats before player_{seat}, and only they, have picked"
        elif not self.revealed or self.turn == n:
            yield "revealed", "characters resolve after the reveal, during the round's turns"
            return
        if any(self.picks[a] > self.picks[b] for a, b in pairwise(self.turn_order)):
            yield "turn_order", "the turn order follows initiative"
        elif self.revealed and not (self._resolved(C.TRACKER) or self._resolved(C.PIONEER)):
            by_omens = sorted(range(n), key=lambda s: (self.picks[s], self.omen_rank(s)))
            if self.turn_order != by_omens:  # the top card is the one of the reveal
                yield "turn_order", "ties go to the better Omen on the top land card"
        character = _CHARACTER_OF.get(kind)
        if character is not None and self.picks[self.active] != character:
            yield (
                "decision",
                f"{Decision(kind).name} needs the active seat to play {character.title}",
            )
        if kind not in (EMPTY, Decision.SELECT, Decision.FIGHTER) and seat != self.active:
            yield "decider", f"{Decision(kind).name} is decided by the active seat"
        if kind == Decision.TAKE_LAND and len(self._filled(0)) < 2:
            yield "decision", "the last land of the first row is taken without a decision"
        yield from self._poll_problems()
        if (kind == Decision.RIDER_SECOND) != (self.rider_slot != EMPTY):
            yield "rider_slot", "a first-row slot is kept only while the Rider's swap is pending"
        elif self.rider_slot != EMPTY and self.rider_slot not in self._filled(0):
            yield "rider_slot", f"{self.rider_slot} is not a filled first-row slot"

    def _poll_problems(self) -> Iterator[tuple[str, str]]:
        poll, answers = self.fighter_poll, self.fighter_answers
        if self.decision != Decision.FIGHTER:
            if poll or answers:
                yield "fighter_poll", "a Fighter poll is kept only while it is pending"
            return
        active = self.active
        position = self.turn_order.index(active)
        order = self.turn_order[position + 1 :] + self.turn_order[:position]
        expected = [
            s for s in order if not self.discards[s] & bit(C.FIGHTER) and self.picks[s] != C.FIGHTER
        ]
        if poll != expected:
            yield "fighter_poll", f"asks {poll}, expected the seats {expected}"
        elif len(answers) >= len(poll) or self.decider != poll[len(answers)]:
            yield "fighter_answers", "the next seat of the poll answers"
        elif any(
            answer not in (0, 1) or (answer and not self.hands[s] & bit(C.FIGHTER))
            for s, answer in zip(poll, answers, strict=False)
        ):
            yield "fighter_answers", "an answer is 0 or 1, and 1 only from a Fighter in hand"

    # ----- assignment -----------------------------------------------------------------
    def _start_assignment(self) -> None:
        self.picks = [EMPTY] * self.num_players
        self.revealed = False
        self.turn_order: list[int] = []
        self.turn = 0
        self.fighter_poll: list[int] = []
        self.fighter_answers: list[int] = []
        self.rider_slot = EMPTY
        self._decide(Decision.SELECT, 0)

    def _decide(self, kind: Decision, seat: int) -> None:
        self.decision = int(kind)
        self.decider = seat

    def _select(self, card: int) -> None:
        seat = self.decider
        self.picks[seat] = card
        self.hands[seat] &= ~bit(card)
        if seat + 1 < self.num_players:
            self._decide(Decision.SELECT, seat + 1)
            return
        self.revealed = True
        for player, pick in enumerate(self.picks):
            self.known_in_hand[player] &= ~bit(pick)
        self.turn_order = sorted(
            range(self.num_players), key=lambda s: (self.picks[s], self.omen_rank(s))
        )
        self.turn = 0
        self._start_turn()

    # ----- resolution -----------------------------------------------------------------
    def _start_turn(self) -> None:
        seat = self.active
        character = self.picks[seat]
        if character == C.FIGHTER:
            self._start_fighter_poll(seat)
        elif character == C.BARD:
            self._decide(Decision.BARD, seat)
        elif character == C.TRACKER:
            self._decide(Decision.TRACKER, seat)
        elif character == C.MIDWIFE and self.discards[seat]:
            self._decide(Decision.MIDWIFE, seat)
        elif character == C.RIDER:
            self._decide(Decision.RIDER_FIRST, seat)
        elif character == C.PIONEER and self.realms[seat]:
            self._decide(Decision.PIONEER, seat)
        else:
            self._automatic_effect(seat, character)
            self._land_action()

    def _automatic_effect(self, seat: int, character: int) -> None:
        """Effects that need no decision (Farmer acts during the land pick)."""
        others = self.neighbours(seat)
        if character == C.HUNTER and all(self.ahead_now(seat, n) for n in others):
            self.vp[seat] += 3
        elif character == C.ORACLE:
            self.vp[seat] += 2 * sum(self.initiative(n) % 2 == 1 for n in others)
        elif character == C.CARPENTER:
            self.vp[seat] += 3 * self.count_type(seat, LandType.FOREST)
        elif character == C.FALCONER and self.turn > 0:
            victim = self.turn_order[self.turn - 1]
            stolen = min(2, self.vp[victim])
            self.vp[victim] -= stolen
            self.vp[seat] += stolen
        elif character == C.CRAFTER and all(self.ahead_now(n, seat) for n in others):
            self.vp[seat] += 5

    def _start_fighter_poll(self, seat: int) -> None:
        """Every other seat whose Fighter may be in hand answers, hidden, in turn order."""
        position = self.turn_order.index(seat)
        order = self.turn_order[position + 1 :] + self.turn_order[:position]
        self.fighter_poll = [
            s for s in order if not self.discards[s] & bit(C.FIGHTER) and self.picks[s] != C.FIGHTER
        ]
        self.fighter_answers = []
        self._next_fighter_question()

    def _next_fighter_question(self) -> None:
        asked = len(self.fighter_answers)
        if asked < len(self.fighter_poll):
            self._decide(Decision.FIGHTER, self.fighter_poll[asked])
            return
        for seat, revealed in zip(self.fighter_poll, self.fighter_answers, strict=True):
            if revealed:
                self.vp[seat] += 1
                self.known_in_hand[seat] |= bit(C.FIGHTER)
        self.fighter_poll, self.fighter_answers = [], []
        self._land_action()

    def _answer_fighter(self, reveal: int) -> None:
        self.fighter_answers.append(reveal)
        self._next_fighter_question()

    def _bard(self, offset: int) -> None:
        self.vp[(self.decider + offset + 1) % self.num_players] += 2
        self._land_action()

    def _tracker(self, option: int) -> None:
        row, slot = divmod(option, MAX_PLAYERS)
        self.rows[row][slot], self.land_deck[-1] = self.land_deck[-1], self.rows[row][slot]
        self.deck_known[-1] = True
        self._land_action()

    def _midwife(self, card: int) -> None:
        seat = self.decider
        self.discards[seat] &= ~bit(card)
        self.hands[seat] |= bit(card)
        self.known_in_hand[seat] |= bit(card)
        self._land_action()

    def _rider_first(self, slot: int) -> None:
        self.rider_slot = slot
        self._decide(Decision.RIDER_SECOND, self.decider)

    def _rider_second(self, slot: int) -> None:
        first = self.rider_slot
        self.rows[0][first], self.rows[1][slot] = self.rows[1][slot], self.rows[0][first]
        self.rider_slot = EMPTY
        self._land_action()

    def _pioneer(self, kind: int) -> None:
        seat = self.decider
        realm = self.realms[seat]
        given = max(i for i, card in enumerate(realm) if LAND_CARDS[card][0] == kind)
        realm[given], self.land_deck[0] = self.land_deck[0], realm[given]
        self.deck_known[0] = True
        self.vp[seat] += self.land_reward(seat, realm[given], C.PIONEER.initiative)
        self._land_action()

    def type_counts(self, seat: int) -> list[int]:
        counts = [0] * LAND_TYPES
        for card in self.realms[seat]:
            counts[TYPE_OF[card]] += 1
        return counts

    def neighbour_meadows(self, seat: int) -> int:
        return sum(self.count_type(n, _MEADOW) for n in _NEIGHBOURS[self.num_players][seat])

    def land_reward(self, seat: int, card: int, initiative: int) -> int:
        """VP for ``card``, already in ``seat``'s realm, taken with ``initiative``."""
        kind = KIND_OF[card]
        return land_reward(kind, self.type_counts(seat), self.neighbour_meadows(seat), initiative)

    def _land_action(self) -> None:
        seat = self.active
        filled = self._filled(0)
        if len(filled) == 1:
            self._take_land(filled[0])
        else:
            self._decide(Decision.TAKE_LAND, seat)

    def _take_land(self, slot: int) -> None:
        seat = self.active
        card = self.rows[0][slot]
        self.rows[0][slot] = EMPTY
        self.realms[seat].append(card)
        reward = self.land_reward(seat, card, self.initiative(seat))
        self.vp[seat] += 2 * reward if self.picks[seat] == C.FARMER else reward
        self.discards[seat] |= bit(self.picks[seat])
        self.turn += 1
        if self.turn < self.num_players:
            self._start_turn()
        else:
            self._end_round()

    def _end_round(self) -> None:
        if self.round == ROUNDS - 1:
            self.decision, self.decider = EMPTY, NO_SEAT
            return
        self.round += 1
        self.rows[0] = self.rows[1]
        self.rows[1] = self._draw_row()
        for seat in range(self.num_players):
            self._refill_hand(seat)
        self._start_assignment()

    def _draw_row(self) -> list[int]:
        del self.deck_known[-self.num_players :]
        row = self.land_deck[-self.num_players :][::-1]
        del self.land_deck[-self.num_players :]
        return row

    def _refill_hand(self, seat: int) -> None:
        deck = self.clan_decks[seat]
        while deck and self.hands[seat].bit_count() < HAND_SIZE:
            self.hands[seat] |= bit(deck.pop())

    # ----- hidden information ---------------------------------------------------------
    def resample_hidden(self, player: int, rng: np.random.Generator) -> VaalbaraGame:
        """A copy with everything ``player`` cannot see redrawn from its view alone.

        Every pool is sorted before it is drawn from, so two states that look the same to
        ``player`` give the same world for the same ``rng``: its own clan deck order; each
        other seat's hand (but the characters known in it), clan deck order, hidden pick and
        hidden Fighter answer; the land fronts at unseen deck positions; the Omen backs of
        every card but the top one of the land deck (only that back is seen). The generator is
        reseeded from ``rng``, so no future chance survives from the original.
        """
        game = self.clone()
        for seat in range(self.num_players):
            if seat == player:
                game.clan_decks[seat] = _permuted(sorted(self.clan_decks[seat]), rng)
            else:
                game._resample_characters(seat, rng)
        game._resample_land_deck(rng)
        game.rng = make_rng(int(rng.integers(2**63)))
        return game

    def _resample_characters(self, seat: int, rng: np.random.Generator) -> None:
        """Redraw an opponent's hand, deck order, hidden pick and hidden Fighter answer."""
        hidden_pick = not self.revealed and self.picks[seat] != EMPTY
        held = self.hands[seat] | (bit(self.picks[seat]) if hidden_pick else 0)
        known = self.known_in_hand[seat]
        free = sorted(c for c in cards_in(held) + self.clan_decks[seat] if not known & bit(c))
        size = (held & ~known).bit_count()
        order = _permuted(free, rng)
        new_held = known
        for card in order[:size]:
            new_held |= bit(card)
        self.clan_decks[seat] = order[size:]
        if hidden_pick:
            pick = cards_in(new_held)[int(rng.integers(new_held.bit_count()))]
            self.picks[seat] = pick
            new_held &= ~bit(pick)
        self.hands[seat] = new_held
        if seat in self.fighter_poll[: len(self.fighter_answers)]:
            index = self.fighter_poll.index(seat)
            holds = bool(new_held & bit(C.FIGHTER))
            self.fighter_answers[index] = int(holds and rng.random() < 0.5)

    def _resample_land_deck(self, rng: np.random.Generator) -> None:
        """Deal the unseen land fronts to the unseen deck positions, then the Omen backs but
        the top card's (the one seen) to every other card."""
        deck = self.land_deck
        top_back = self.back_of[deck[-1]]
        positions = [i for i, known in enumerate(self.deck_known) if not known]
        cards = _permuted(sorted(deck[i] for i in positions), rng)
        for position, card in zip(positions, cards, strict=True):
            deck[position] = card
        backs = list(range(len(self.back_of)))
        del backs[top_back]
        self.back_of = _permuted(backs, rng)
        self.back_of.insert(deck[-1], top_back)


def _permuted(items: list[int], rng: np.random.Generator) -> list[int]:
    """``items`` in an order drawn from ``rng``."""
    if len(items) < 2:
        return list(items)
    return [items[i] for i in rng.permutation(len(items)).tolist()]


_CHARACTER_OF = {
    Decision.FIGHTER: C.FIGHTER,
    Decision.BARD: C.BARD,
    Decision.TRACKER: C.TRACKER,
    Decision.MIDWIFE: C.MIDWIFE,
    Decision.RIDER_FIRST: C.RIDER,
    Decision.RIDER_SECOND: C.RIDER,
    Decision.PIONEER: C.PIONEER,
}
"""The character whose action each decision belongs to (the land pick's is any)."""

_NEIGHBOURS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(sorted({(seat - 1) % n, (seat + 1) % n})) for seat in range(n))
    for n in range(MAX_PLAYERS + 1)
)
"""_NEIGHBOURS[num_players][seat]: the left and right neighbours (one with two players)."""
_MEADOW = int(LandType.MEADOW)
_MASKS: dict[tuple[int, ...], np.ndarray] = {}
"""Legal masks by (decision, legal options): at most a few thousand (one per hand)."""

_HANDLERS = {
    Decision.SELECT: VaalbaraGame._select,
    Decision.FIGHTER: VaalbaraGame._answer_fighter,
    Decision.BARD: VaalbaraGame._bard,
    Decision.TRACKER: VaalbaraGame._tracker,
    Decision.MIDWIFE: VaalbaraGame._midwife,
    Decision.RIDER_FIRST: VaalbaraGame._rider_first,
    Decision.RIDER_SECOND: VaalbaraGame._rider_second,
    Decision.PIONEER: VaalbaraGame._pioneer,
    Decision.TAKE_LAND: VaalbaraGame._take_land,
}

__all__ = ["VaalbaraGame"]
