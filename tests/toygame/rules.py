"""High Card's rules: the state, the pending decision, transitions, returns, hidden redraws."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.game import NO_SEAT, GameCore
from tabletop_envs.core.rewards import win_returns
from tabletop_envs.core.state import PlainState
from toygame.spec import CARDS, LAYOUT, MAX_PLAYERS, STAKES, SWAP, Decision


class HighCard(PlainState, GameCore):
    """One game of High Card for 2 to 4 players."""

    NAME = "highcard"
    MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, MAX_PLAYERS, 2
    LAYOUT = LAYOUT
    MAX_DECISIONS = 2 * MAX_PLAYERS
    STATE_FIELDS: ClassVar = {
        "cards": list[int],
        "deck": list[int],
        "discards": list[int],
        "swapped": list[bool],
        "stakes": list[int],
        "turn": int,
    }

    def __init__(self, num_players: int = 2, seed: int | None = None, **options: Any) -> None:
        super().__init__(num_players, seed, **options)
        deck = [int(card) for card in self.rng.permutation(CARDS)]
        self.cards = deck[:num_players]
        self.deck = deck[num_players:]
        self.discards: list[int] = []
        self.swapped = [False] * num_players
        self.stakes = [0] * num_players
        self.turn = 0

    @property
    def current_player(self) -> int:
        return self.turn % self.num_players if self.turn < 2 * self.num_players else NO_SEAT

    def pending_kind(self) -> int:
        return Decision.REDRAW if self.turn < self.num_players else Decision.STAKE

    def legal_options(self) -> list[int]:
        return [0, 1]

    def apply_unchecked(self, action: int) -> None:
        seat = self.current_player
        option = action - LAYOUT.segment_of(self.pending_kind()).offset
        if self.pending_kind() == Decision.STAKE:
            self.stakes[seat] = STAKES[option]
        elif option == SWAP:
            self.discards.append(self.cards[seat])
            self.cards[seat] = self.deck.pop()
            self.swapped[seat] = True
        self.turn += 1

    def winners(self) -> list[int]:
        best = max(self.cards)
        return [seat for seat, card in enumerate(self.cards) if card == best]

    def returns(self) -> np.ndarray:
        if not self.is_terminal:
            return np.zeros(self.num_players)
        return win_returns(self.num_players, self.winners()) * max(self.stakes) / max(STAKES)

    def scores(self) -> list[float]:
        return [float(card) for card in self.cards]

    def check_invariants(self) -> Iterator[tuple[str, str]]:
        n = self.num_players
        if sorted(self.cards + self.deck + self.discards) != list(range(CARDS)):
            yield "cards", "the hands, deck and discards do not hold each card exactly once"
        if len(self.discards) != sum(self.swapped):
            yield "discards", "one discard per seat that swapped"
        if len(self.cards) != n or len(self.swapped) != n or len(self.stakes) != n:
            yield "cards", f"hands, swaps and stakes need one entry per seat ({n})"
        if not 0 <= self.turn <= 2 * n:
            yield "turn", f"{self.turn} is outside 0..{2 * n}"
        staked = [stake != 0 for stake in self.stakes]
        if any(stake not in (0, *STAKES) for stake in self.stakes) or staked != [
            seat < self.turn - n for seat in range(n)
        ]:
            yield "stakes", "stakes must be 1 or 2 for the seats that have staked, else 0"

    def resample_hidden(self, player: int, rng: np.random.Generator) -> HighCard:
        """Other seats' cards and the deck order redrawn from the cards ``player`` can't see."""
        game = self.clone()
        others = [seat for seat in range(self.num_players) if seat != player]
        unseen = sorted([self.cards[seat] for seat in others] + self.deck)
        shuffled = [int(card) for card in rng.permutation(unseen)]
        for seat, card in zip(others, shuffled, strict=False):
            game.cards[seat] = card
        game.deck = shuffled[len(others) :]
        return game
