"""The Spirits of Valenor rules core: a cooperative game of ordered hidden hands.

The state machine keeps a small stack of frames (tuples of ints): the turn, a reaction window
in which players may use their Nature Spirits, a card being played, a spirit's effect. The
top frame names the pending decision; :meth:`ValenorGame._advance` runs everything automatic
until a decision is needed or the game ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.game import NO_SEAT, GameCore, Option
from tabletop_envs.core.rng import clone_rng, make_rng, rng_from_state, rng_state
from tabletop_envs.valenor import cards as C
from tabletop_envs.valenor import observation, render
from tabletop_envs.valenor.flow import (
    AFTER_PLAY,
    CLAIM_INVADER,
    D_DEVASTATE,
    D_DRAFT,
    D_FRONT,
    D_MOVE_PICK,
    D_MOVE_TARGET,
    D_PLACE,
    D_PLAY,
    D_SIGNAL,
    D_WINDOW,
    DRAW,
    EFFECT,
    EFFECT_DONE,
    EFFECT_TARGET,
    F_DRAFT,
    F_PLAY,
    F_SPIRIT,
    F_TURN,
    F_WINDOW,
    LAYOUT,
    LOST,
    NO_DECISION,
    ONGOING,
    OPTIONAL,
    OPTIONAL_DECIDE,
    PASS_PLAY,
    SEGMENT_OF_DECISION,
    START,
    STEP1,
    STEP1_PLAY,
    W_DEVASTATION,
    W_EXTRA,
    W_STEP1,
    W_STEP2,
    WON,
)

TOTAL_INVADER_VALUE = sum(C.INVADER_VALUES)
TOTAL_DEFENSE_VALUE = {
    name: sum(C.DEFENSE_VALUES) + sum(C.VALUE[card] for card in scenario.support_ids)
    for name, scenario in C.SCENARIOS.items()
}
"""All Defense and Support value in play, by scenario (checked after every automatic step)."""


class ValenorGame(GameCore):
    """Spirits of Valenor: a cooperative game; everyone wins or loses together."""

    NAME = "valenor"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    DEFAULT_PLAYERS = 3
    COOPERATIVE = True
    OPTIONS: ClassVar[Mapping[str, Option]] = {
        "scenario": Option(
            C.DEFAULT_SCENARIO,
            tuple(C.SCENARIOS),
            "Location layout, pre-devastated Locations, spirits and deck changes",
        ),
        "signalling": Option(
            False, (False, True), "each turn opens with one of the rulebook's allowed messages"
        ),
        "shaped_reward": Option(
            False, (False, True), "a lost game returns -1 plus the share of Invaders defeated"
        ),
    }
    LAYOUT = LAYOUT
    MAX_DECISIONS = 2500

    def __init__(self, num_players: int, seed: int | None = None, **options: Any) -> None:
        super().__init__(num_players, seed, **options)
        self.scenario = C.SCENARIOS[self.options["scenario"]]
        if len(self.scenario.spirits) < self.num_players:
            raise ValueError(
                f"scenario {self.scenario.name!r} unlocks {len(self.scenario.spirits)} spirits, "
                f"too few for {self.num_players} players"
            )
        self.hands: list[list[int]] = [[] for _ in range(self.num_players)]
        self.spirit_of = [-1] * self.num_players
        self.spirit_out = [False] * self.num_players
        self.defense_deck = self._shuffled(list(C.DEFENSE_IDS))
        self.support_deck = self._shuffled(list(self.scenario.support_ids))
        self.invader_deck = self._build_invader_deck()
        self.known_bottom = 0
        self.locations = list(self.scenario.layout)
        self.devastated = [i in self.scenario.devastated for i in range(C.NUM_LOCATIONS)]
        self.invader_at = [-1] * C.NUM_LOCATIONS
        self.defense_at: list[list[int]] = [[] for _ in range(C.NUM_LOCATIONS)]
        self.discards: list[int] = []
        self.signals = [0] * self.num_players
        self.frames: list[tuple[int, ...]] = [(F_DRAFT,)]
        self.active = 0
        self.plus_pending = False
        self.turn = 0
        self.decisions = 0
        self.invaders_left = C.NUM_INVADERS
        self.defeated_value = 0
        self.discarded_defense_value = 0
        self.outcome = ONGOING
        self.loss_reason = ""
        self.decision = NO_DECISION
        self.decider = NO_SEAT
        self._advance()

    # ----- setup -------------------------------------------------------------------------
    def _shuffled(self, cards: list[int]) -> list[int]:
        """``cards`` in random order; the top of a deck is the end of its list."""
        self.rng.shuffle(cards)
        return cards

    def _build_invader_deck(self) -> list[int]:
        """The A pile on the B pile on the C pile, each shuffled separately."""
        piles = [[c for c in C.INVADER_IDS if C.CARD_LETTER[c] == letter] for letter in range(3)]
        return [card for pile in reversed(piles) for card in self._shuffled(pile)]

    def _deal(self) -> None:
        """Each hand, in seat order: Invader, Defense, Invader, Defense (see the rulings)."""
        for player in range(self.num_players):
            for _ in range(2):
                self._draw(player, self.invader_deck)
                self._draw(player, self.defense_deck)

    def arrange(
        self,
        *,
        hands: list[list[int]],
        invaders: Mapping[int, int] | None = None,
        defense: Mapping[int, list[int]] | None = None,
        devastated: tuple[int, ...] = (),
        spirits: tuple[int, ...] | None = None,
        discards: tuple[int, ...] = (),
        active: int = 0,
    ) -> None:
        """Set up a position (tests, analysis) and continue at the start of ``active``'s turn.

        ``hands``: card ids per seat, front first (a spirit's card id puts it in the hand);
        ``invaders``/``defense``: cards at Locations by position (0 = leftmost). Every card not
        named goes back to its deck, keeping the decks' current order, under the cards there.
        """
        spirits = tuple(range(self.num_players)) if spirits is None else spirits
        invaders, defense = dict(invaders or {}), dict(defense or {})
        named = [c for hand in hands for c in hand] + list(invaders.values()) + list(discards)
        named += [c for stack in defense.values() for c in stack]
        if len(set(named)) != len(named):
            raise ValueError("arrange: a card is named twice")
        self.defense_deck = self._rebuilt_deck(self.defense_deck, C.DEFENSE_IDS, named)
        self.support_deck = self._rebuilt_deck(self.support_deck, self.scenario.support_ids, named)
        self.invader_deck = self._rebuilt_deck(self.invader_deck, C.INVADER_IDS, named)
        self.hands = [list(hand) for hand in hands]
        self.spirit_of = list(spirits)
        self.spirit_out = [C.spirit_card(s) not in h for s, h in zip(spirits, hands, strict=True)]
        self.invader_at = [invaders.get(i, -1) for i in range(C.NUM_LOCATIONS)]
        self.defense_at = [list(defense.get(i, [])) for i in range(C.NUM_LOCATIONS)]
        self.devastated = [i in devastated for i in range(C.NUM_LOCATIONS)]
        self.discards = list(discards)
        gone = [c for c in discards if C.KIND[c] == C.KIND_INVADER]
        self.invaders_left = C.NUM_INVADERS - len(gone)
        self.defeated_value = sum(C.VALUE[c] for c in gone)
        self.discarded_defense_value = sum(C.VALUE[c] for c in discards if c not in gone)
        self.known_bottom, self.active, self.plus_pending = 0, active, False
        self.signals = [0] * self.num_players
        self.outcome, self.loss_reason = ONGOING, ""
        self.frames = [(F_TURN, START, 1, 0)]
        for player in range(self.num_players):
            self._settle_front(player)
        self._advance()

    @staticmethod
    def _rebuilt_deck(deck: list[int], ids: Sequence[int], named: list[int]) -> list[int]:
        """``deck`` without the named cards, the other unnamed cards of its kind beneath."""
        kept = [c for c in deck if c not in named]
        return [c for c in ids if c not in named and c not in kept] + kept

    # ----- contract ----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.decider

    @property
    def total_defense_value(self) -> int:
        return TOTAL_DEFENSE_VALUE[self.scenario.name]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(LAYOUT.total, dtype=np.int8)
        if self.decision == NO_DECISION:
            return mask
        offset = LAYOUT[SEGMENT_OF_DECISION[self.decision]].offset
        for option in self._legal_options():
            mask[offset + option] = 1
        return mask

    def pending_kind(self) -> int:
        return self.decision

    def legal_options(self) -> list[int]:
        return self._legal_options()

    def _legal_options(self) -> list[int]:
        decision, frame, hand = self.decision, self.frames[-1], self.hands[self.decider]
        if decision == D_DRAFT:
            return [s for s in self.scenario.spirits if s not in self.spirit_of]
        if decision == D_SIGNAL:
            claims = [CLAIM_INVADER + i for i in range(C.NUM_LOCATIONS) if self.invader_at[i] >= 0]
            return list(range(CLAIM_INVADER)) + claims
        if decision == D_WINDOW:
            return [0, 1]
        if decision == D_PLAY:
            playable = sorted(c for c in hand if c < C.FIRST_SPIRIT)
            return playable if frame[0] == F_SPIRIT else [*playable, PASS_PLAY]
        if decision == D_PLACE:
            return self.placements(frame[2])
        if decision == D_DEVASTATE:
            return self.devastation_choices(C.TERRAIN[frame[2]])
        if decision == D_MOVE_PICK:
            return sorted(c for stack in self.defense_at for c in stack)
        if decision == D_MOVE_TARGET:
            source = self.location_of_defense(frame[4])
            return [i for i in range(C.NUM_LOCATIONS) if i != source]
        return sorted(hand[1:])  # D_FRONT

    def _apply(self, action: int) -> None:
        _, option = LAYOUT.locate(action)
        self.decisions += 1
        handler = _HANDLERS[self.decision]
        handler(self, option)
        self._advance()

    def view(self, player: int) -> dict[str, Any]:
        return observation.build_view(self, player)

    def observation(self, player: int) -> np.ndarray:
        """``SCHEMA.encode(view(player))``, gathered from the kept view (see the observation)."""
        return self.SCHEMA.scale(observation.unscaled(self, player))

    def readable_view(self, player: int) -> dict[str, Any]:
        return observation.readable_view(self, player)

    def returns(self) -> np.ndarray:
        if self.outcome == ONGOING:
            return np.zeros(self.num_players)
        value = 1.0 if self.outcome == WON else -1.0
        if self.outcome == LOST and self.options["shaped_reward"]:
            value += self.progress()
        return np.full(self.num_players, value)

    def progress(self) -> float:
        """The share of all Invader value defeated so far."""
        return self.defeated_value / TOTAL_INVADER_VALUE

    def turns(self) -> int:
        return self.turn

    def action_to_str(self, action: int) -> str:
        return render.action_to_str(self, action)

    def render_text(self, viewer: int | None = None) -> str:
        return render.render_text(self, viewer)

    # ----- queries -----------------------------------------------------------------------
    def terrains_at(self, position: int) -> tuple[int, ...]:
        """The terrains a Location still shows (its large one, and its small one if intact)."""
        large = self.locations[position]
        return (large,) if self.devastated[position] else (large, C.SMALL_TERRAIN[large])

    def placements(self, card: int) -> list[int]:
        """Where ``card`` may go: anywhere for Defense; the placement rules for Invaders."""
        if C.KIND[card] != C.KIND_INVADER:
            return list(range(C.NUM_LOCATIONS))
        terrain, value = C.TERRAIN[card], C.VALUE[card]
        values = [C.VALUE[c] if c >= 0 else -1 for c in self.invader_at]
        options = []
        for position in range(C.NUM_LOCATIONS):
            if values[position] >= 0 or terrain not in self.terrains_at(position):
                continue
            left = [v for v in values[:position] if v >= 0]
            right = [v for v in values[position + 1 :] if v >= 0]
            if all(v < value for v in left) and all(v > value for v in right):
                options.append(position)
        return options

    def devastation_choices(self, terrain: int) -> list[int]:
        """Undevastated Locations showing ``terrain`` (large or small)."""
        return [
            i
            for i in range(C.NUM_LOCATIONS)
            if not self.devastated[i] and terrain in self.terrains_at(i)
        ]

    def location_of_defense(self, card: int) -> int:
        return next(i for i, stack in enumerate(self.defense_at) if card in stack)

    def can_use_spirit(self, player: int) -> bool:
        """Laid out, a card in hand, and an effect that would change something."""
        if not self.spirit_out[player] or not self.hands[player]:
            return False
        spirit = self.spirit_of[player]
        if spirit == C.BROM:
            return any(self.defense_at)
        if spirit == C.WISP:
            return len(self.hands[player]) >= 2
        if spirit == C.FENNA:
            return bool(self.defense_deck)
        return True

    def has_playable(self, player: int) -> bool:
        return any(card < C.FIRST_SPIRIT for card in self.hands[player])

    def cards_in_play(self) -> list[int]:
        """Cards being played right now (face up in the middle of the table)."""
        return [frame[2] for frame in self.frames if frame[0] == F_PLAY]

    # ----- card movement -----------------------------------------------------------------
    def _draw(self, player: int, deck: list[int]) -> None:
        if deck:
            self.hands[player].append(deck.pop())
            self.known_bottom = min(self.known_bottom, len(self.invader_deck))

    def _take_from_hand(self, player: int, card: int) -> None:
        self.hands[player].remove(card)
        self._settle_front(player)

    def _settle_front(self, player: int) -> None:
        """A Nature Spirit that becomes frontmost is laid out at once."""
        hand = self.hands[player]
        while hand and hand[0] >= C.FIRST_SPIRIT:
            hand.pop(0)
            self.spirit_out[player] = True

    def _add_defense(self, position: int, card: int, player: int) -> None:
        self.defense_at[position].append(card)
        self._check_defeat(position, player)

    def _check_defeat(self, position: int, player: int) -> None:
        """Defeat the Invader here if the Defense reaches it; a Direct Hit draws a Support."""
        invader = self.invader_at[position]
        if invader < 0:
            return
        defense = sum(C.VALUE[c] for c in self.defense_at[position])
        value = C.VALUE[invader]
        if defense < value:
            return
        self.discards.extend([*self.defense_at[position], invader])
        self.defense_at[position] = []
        self.invader_at[position] = -1
        self.invaders_left -= 1
        self.defeated_value += value
        self.discarded_defense_value += defense
        if defense == value:
            self._draw(player, self.support_deck)

    # ----- the automatic part ------------------------------------------------------------
    def _ask(self, decision: int, decider: int) -> bool:
        self.decision, self.decider = decision, decider
        return True

    def _advance(self) -> None:
        """Run automatic steps until a decision is pending or the game is over."""
        self.decision, self.decider = NO_DECISION, NO_SEAT
        while not self._check_end():
            frame = self.frames[-1]
            if _STEPPERS[frame[0]](self, frame):
                return

    def _check_end(self) -> bool:
        if self.outcome == ONGOING:
            if self.invaders_left == 0:
                self.outcome = WON
            elif self.total_defense_value - self.discarded_defense_value < (
                TOTAL_INVADER_VALUE - self.defeated_value
            ):
                self._lose("defense")
        return self.outcome != ONGOING

    def _lose(self, reason: str) -> None:
        self.outcome, self.loss_reason = LOST, reason
        self.decision, self.decider = NO_DECISION, NO_SEAT

    def _step_draft(self, frame: tuple[int, ...]) -> bool:
        if -1 in self.spirit_of:
            return self._ask(D_DRAFT, self.spirit_of.index(-1))
        self._deal()
        self.frames[-1] = (F_TURN, START, 1, 0)
        return False

    def _step_turn(self, frame: tuple[int, ...]) -> bool:
        _, stage, step, extra = frame
        return _TURN_STAGES[stage](self, step, extra)

    def _turn_start(self, step: int, extra: int) -> bool:
        """Skip an empty turn; lose if nobody can ever act again; else signal or go on."""
        decks_empty = not self.invader_deck and not self.defense_deck
        if decks_empty and not any(self.hands):
            self._lose("stalled")
        elif decks_empty and not self.hands[self.active]:
            self._end_turn()
        elif self.options["signalling"]:
            return self._ask(D_SIGNAL, self.active)
        else:
            self.frames[-1] = (F_TURN, STEP1, 1, 0)
        return False

    def _turn_step1(self, step: int, extra: int) -> bool:
        if self.hands[self.active]:
            self.frames[-1] = (F_TURN, STEP1_PLAY, 1, 0)
            self.frames.append((F_WINDOW, W_STEP1, 0))
        else:
            self._finish_optional(step)
        return False

    def _turn_step1_play(self, step: int, extra: int) -> bool:
        """Play the frontmost card (a spirit use in the window may have changed it)."""
        hand = self.hands[self.active]
        if hand:
            card = hand[0]
            self._take_from_hand(self.active, card)
            self.frames[-1] = (F_TURN, AFTER_PLAY, 1, 0)
            self.frames.append((F_PLAY, self.active, card, 1, 0))
        else:
            self._finish_optional(step)
        return False

    def _turn_after_play(self, step: int, extra: int) -> bool:
        """A "+" card grants one extra play before the turn moves on."""
        if self.plus_pending:
            self.plus_pending = False
            self.frames[-1] = (F_TURN, OPTIONAL, step, 1)
        else:
            self._finish_optional(step)
        return False

    def _turn_optional(self, step: int, extra: int) -> bool:
        if self.has_playable(self.active):
            self.frames[-1] = (F_TURN, OPTIONAL_DECIDE, step, extra)
            self.frames.append((F_WINDOW, W_EXTRA if extra else W_STEP2, 0))
        else:
            self._finish_optional(step)
        return False

    def _turn_optional_decide(self, step: int, extra: int) -> bool:
        if self.has_playable(self.active):
            return self._ask(D_PLAY, self.active)
        self._finish_optional(step)
        return False

    def _turn_draw(self, step: int, extra: int) -> bool:
        self._draw(self.active, self.invader_deck)
        self._draw(self.active, self.defense_deck)
        self._end_turn()
        return False

    def _finish_optional(self, step: int) -> None:
        """After step 1 (and its extra plays) comes step 2; after step 2, the draws."""
        self.frames[-1] = (F_TURN, OPTIONAL, 2, 0) if step == 1 else (F_TURN, DRAW, 2, 0)

    def _end_turn(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self.turn += 1
        self.frames[-1] = (F_TURN, START, 1, 0)

    def _step_window(self, frame: tuple[int, ...]) -> bool:
        _, reason, offset = frame
        while offset < self.num_players:
            seat = (self.active + offset) % self.num_players
            offset += 1
            if self.can_use_spirit(seat):
                self.frames[-1] = (F_WINDOW, reason, offset)
                return self._ask(D_WINDOW, seat)
        self.frames.pop()
        return False

    def _step_play(self, frame: tuple[int, ...]) -> bool:
        _, player, card, own_turn, windowed = frame
        if C.KIND[card] != C.KIND_INVADER or self.placements(card):
            return self._ask(D_PLACE, player)
        if own_turn and not windowed:
            self.frames[-1] = (F_PLAY, player, card, own_turn, 1)
            self.frames.append((F_WINDOW, W_DEVASTATION, 0))
            return False
        if self.devastation_choices(C.TERRAIN[card]):
            return self._ask(D_DEVASTATE, player)
        self._lose("terrain")
        return True

    def _step_spirit(self, frame: tuple[int, ...]) -> bool:
        _, player, spirit, stage, _picked = frame
        if stage == EFFECT_DONE:
            self.frames.pop()
            self.hands[player].append(C.spirit_card(spirit))
            self._settle_front(player)
        elif stage == EFFECT_TARGET:
            return self._ask(D_MOVE_TARGET, player)
        elif spirit == C.TONI:
            return self._ask(D_PLAY, player)
        elif spirit == C.BROM:
            return self._ask(D_MOVE_PICK, player)
        elif spirit == C.WISP:
            return self._ask(D_FRONT, player)
        else:  # Fenna
            self._draw(player, self.defense_deck)
            self.frames[-1] = (F_SPIRIT, player, spirit, EFFECT_DONE, -1)
        return False

    # ----- decision handlers -------------------------------------------------------------
    def _on_draft(self, spirit: int) -> None:
        self.spirit_of[self.decider] = spirit
        self.spirit_out[self.decider] = True

    def _on_signal(self, message: int) -> None:
        self.signals[self.decider] = message
        self.frames[-1] = (F_TURN, STEP1, 1, 0)

    def _on_window(self, use: int) -> None:
        if use:
            player = self.decider
            self.spirit_out[player] = False
            self.frames.append((F_SPIRIT, player, self.spirit_of[player], EFFECT, -1))

    def _on_play(self, card: int) -> None:
        frame, player = self.frames[-1], self.decider
        if frame[0] == F_SPIRIT:  # Toni: a play out of the turn's steps
            self.frames[-1] = (F_SPIRIT, player, C.TONI, EFFECT_DONE, -1)
            self._take_from_hand(player, card)
            self.frames.append((F_PLAY, player, card, 0, 0))
        elif card == PASS_PLAY:
            self._finish_optional(frame[2])
        else:
            self._take_from_hand(player, card)
            self.frames[-1] = (F_TURN, AFTER_PLAY, frame[2], 0)
            self.frames.append((F_PLAY, player, card, 1, 0))

    def _on_place(self, position: int) -> None:
        _, player, card, own_turn, _ = self.frames.pop()
        if C.KIND[card] == C.KIND_INVADER:
            self.invader_at[position] = card
            self._check_defeat(position, player)
        else:
            self._add_defense(position, card, player)
            self.plus_pending = self.plus_pending or bool(own_turn and C.PLUS[card])

    def _on_devastate(self, position: int) -> None:
        _, _, card, _, _ = self.frames.pop()
        self.devastated[position] = True
        self.invader_deck.insert(0, card)
        self.known_bottom += 1

    def _on_move_pick(self, card: int) -> None:
        _, player, spirit, _, _ = self.frames[-1]
        self.frames[-1] = (F_SPIRIT, player, spirit, EFFECT_TARGET, card)

    def _on_move_target(self, position: int) -> None:
        _, player, spirit, _, card = self.frames[-1]
        self.defense_at[self.location_of_defense(card)].remove(card)
        self.frames[-1] = (F_SPIRIT, player, spirit, EFFECT_DONE, -1)
        self._add_defense(position, card, player)

    def _on_front(self, card: int) -> None:
        _, player, spirit, _, _ = self.frames[-1]
        hand = self.hands[player]
        hand.remove(card)
        hand.insert(0, card)
        self.frames[-1] = (F_SPIRIT, player, spirit, EFFECT_DONE, -1)

    # ----- copying and saving ------------------------------------------------------------
    _LIST_FIELDS = (
        "spirit_of",
        "spirit_out",
        "defense_deck",
        "support_deck",
        "invader_deck",
        "locations",
        "devastated",
        "invader_at",
        "discards",
        "signals",
        "frames",
    )
    _NESTED_FIELDS = ("hands", "defense_at")
    _SCALAR_FIELDS = (
        "num_players",
        "known_bottom",
        "active",
        "plus_pending",
        "turn",
        "decisions",
        "invaders_left",
        "defeated_value",
        "discarded_defense_value",
        "outcome",
        "loss_reason",
        "decision",
        "decider",
    )

    def clone(self) -> ValenorGame:
        other = ValenorGame.__new__(ValenorGame)
        other.options = self.options
        other.scenario = self.scenario
        other.rng = clone_rng(self.rng)
        for name in self._SCALAR_FIELDS:
            setattr(other, name, getattr(self, name))
        for name in self._LIST_FIELDS:
            setattr(other, name, getattr(self, name)[:])
        for name in self._NESTED_FIELDS:
            setattr(other, name, [inner[:] for inner in getattr(self, name)])
        if self.observer_cache is not None:
            other.observer_cache = self.observer_cache.copy()
        return other

    def state_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"options": dict(self.options), "rng": rng_state(self.rng)}
        for name in self._SCALAR_FIELDS:
            data[name] = getattr(self, name)
        for name in self._LIST_FIELDS:
            data[name] = [list(f) if isinstance(f, tuple) else f for f in getattr(self, name)]
        for name in self._NESTED_FIELDS:
            data[name] = [inner[:] for inner in getattr(self, name)]
        return data

    @classmethod
    def from_state_dict(cls, data: Mapping[str, Any]) -> ValenorGame:
        game = cls.__new__(cls)
        game.num_players = cls.check_players(data["num_players"])
        game.options = cls.resolve_options(data["options"])
        game.scenario = C.SCENARIOS[game.options["scenario"]]
        game.rng = rng_from_state(data["rng"])
        for name in cls._SCALAR_FIELDS:
            setattr(game, name, data[name])
        for name in cls._LIST_FIELDS:
            setattr(game, name, list(data[name]))
        game.frames = [tuple(frame) for frame in data["frames"]]
        for name in cls._NESTED_FIELDS:
            setattr(game, name, [list(inner) for inner in data[name]])
        return game

    def resample_hidden(self, player: int, rng: np.random.Generator) -> ValenorGame:
        """Redraw other hands' faces and deck orders, keeping every back where it is."""
        other = self.clone()
        other.rng = make_rng(int(rng.integers(2**63)))
        slots: dict[int, list[tuple[list[int], int]]] = {}
        for seat, hand in enumerate(other.hands):
            if seat != player:
                for index, card in enumerate(hand):
                    slots.setdefault(C.BACK[card], []).append((hand, index))
        unknown_invaders = range(other.known_bottom, len(other.invader_deck))
        for index in unknown_invaders:
            slots.setdefault(C.BACK[other.invader_deck[index]], []).append(
                (other.invader_deck, index)
            )
        for deck in (other.defense_deck, other.support_deck):
            for index, card in enumerate(deck):
                slots.setdefault(C.BACK[card], []).append((deck, index))
        for back, places in slots.items():
            if back == C.BACK_SPIRIT:
                continue
            faces = [where[index] for where, index in places]
            rng.shuffle(faces)
            for (where, index), face in zip(places, faces, strict=True):
                where[index] = face
        return other


_STEPPERS = {
    F_DRAFT: ValenorGame._step_draft,
    F_TURN: ValenorGame._step_turn,
    F_WINDOW: ValenorGame._step_window,
    F_PLAY: ValenorGame._step_play,
    F_SPIRIT: ValenorGame._step_spirit,
}
_TURN_STAGES = (
    ValenorGame._turn_start,
    ValenorGame._turn_step1,
    ValenorGame._turn_step1_play,
    ValenorGame._turn_after_play,
    ValenorGame._turn_optional,
    ValenorGame._turn_optional_decide,
    ValenorGame._turn_draw,
)
_HANDLERS = (
    ValenorGame._on_draft,
    ValenorGame._on_signal,
    ValenorGame._on_window,
    ValenorGame._on_play,
    ValenorGame._on_place,
    ValenorGame._on_devastate,
    ValenorGame._on_move_pick,
    ValenorGame._on_move_target,
    ValenorGame._on_front,
)
