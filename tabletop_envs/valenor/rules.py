"""The Spirits of Valenor rules core: a cooperative game of ordered hidden hands.

The state machine keeps a small stack of frames (tuples of ints, described in the spec): the
turn, a reaction window in which players may use their Nature Spirits, a card being played, a
spirit's effect. The top frame names the pending decision; :meth:`ValenorGame._advance` runs
everything automatic until a decision is needed or the game ends.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from tabletop_envs.core.game import NO_SEAT, GameCore, Option
from tabletop_envs.core.rng import make_rng
from tabletop_envs.core.state import PlainState
from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.spec import (
    F_DRAFT,
    F_PLAY,
    F_SPIRIT,
    F_TURN,
    F_WINDOW,
    LAYOUT,
    LOSS_REASONS,
    LOST,
    NUM_MESSAGES,
    ONGOING,
    PASS_PLAY,
    SAY_DEFEAT_AT,
    SAY_INVADER,
    SAY_SHOWN,
    TURN_START,
    W_AFTER_STEP2,
    W_DEVASTATION,
    W_EXTRA,
    W_FACE_UP,
    W_STEP1,
    W_STEP2,
    WON,
    Decision,
)

# ----- the rules' own frame stages -----------------------------------------------------------
STEP1, STEP1_PLAY, AFTER_PLAY, OPTIONAL, OPTIONAL_DECIDE, DRAW = range(TURN_START + 1, 7)
"""Turn stages after ``TURN_START``: ``(F_TURN, stage, step, extra)`` with ``step`` 1 or 2
(the turn's step) and ``extra`` 1 while an extra play granted by a "+" card is offered."""
TURN_STEPS = {
    TURN_START: ((1, 0),),
    STEP1: ((1, 0),),
    STEP1_PLAY: ((1, 0),),
    AFTER_PLAY: ((1, 0), (2, 0)),
    OPTIONAL: ((1, 1), (2, 0), (2, 1)),
    OPTIONAL_DECIDE: ((1, 1), (2, 0), (2, 1)),
    DRAW: ((2, 0),),
}
"""The (step, extra) pairs each turn stage occurs with."""
EFFECT, EFFECT_TARGET, EFFECT_DONE = range(3)
"""Spirit effect stages: ``(F_SPIRIT, player, spirit, stage, picked)``."""
FRAME_SIZE = {F_DRAFT: 1, F_TURN: 4, F_WINDOW: 3, F_PLAY: 5, F_SPIRIT: 5}
_CHOOSE_SPIRIT, _SPIRIT_WINDOW = int(Decision.CHOOSE_SPIRIT), int(Decision.SPIRIT_WINDOW)
_PLAY_CARD, _PLACE, _DEVASTATE = (
    int(Decision.PLAY_CARD),
    int(Decision.PLACE),
    int(Decision.DEVASTATE),
)
_MOVE_DEFENSE, _MOVE_TARGET = int(Decision.MOVE_DEFENSE), int(Decision.MOVE_TARGET)
_BRING_TO_FRONT = int(Decision.BRING_TO_FRONT)
"""The decisions as plain ints (an enum member costs an attribute lookup at every ask)."""

TOTAL_INVADER_VALUE = sum(S.INVADER_VALUES)
TOTAL_DEFENSE_VALUE = {
    name: sum(S.DEFENSE_VALUES) + sum(S.VALUE[card] for card in scenario.support_ids)
    for name, scenario in S.SCENARIOS.items()
}
"""All Defense and Support value in play, by scenario (checked after every automatic step)."""


def invader_spots(
    invaders: Sequence[int], terrains: Sequence[tuple[int, ...]], terrain: int, value: int
) -> list[int]:
    """The Locations an Invader of ``terrain`` and ``value`` may be placed on, given the
    Invader value at each Location (0: none) and the terrains each still shows: an empty
    Location showing its terrain, after every lower Invader and before every higher one (so
    nowhere while an equal one is out)."""
    start, stop = 0, len(invaders)
    for i, v in enumerate(invaders):
        if v and v <= value:
            start = i + 1  # after the last Invader not higher
        if v >= value and stop > i:
            stop = i  # before the first not lower
    return [i for i in range(start, stop) if not invaders[i] and terrain in terrains[i]]


class ValenorGame(PlainState, GameCore):
    """Spirits of Valenor: a cooperative game; everyone wins or loses together."""

    NAME = "valenor"
    MIN_PLAYERS = 2
    MAX_PLAYERS = S.MAX_PLAYERS
    DEFAULT_PLAYERS = 3
    COOPERATIVE = True
    OPTIONS: ClassVar[Mapping[str, Option]] = {
        "scenario": Option(
            S.DEFAULT_SCENARIO,
            tuple(S.SCENARIOS),
            "Location layout, pre-devastated Locations, spirits and deck changes",
        ),
        "signalling": Option(
            False,
            (False, True),
            "table talk: every player says one message about its hand at every spirit window",
        ),
        "shaped_reward": Option(
            False, (False, True), "a lost game returns -1 plus the share of Invaders defeated"
        ),
    }
    LAYOUT = LAYOUT
    MAX_DECISIONS = 3000
    STATE_FIELDS: ClassVar = {
        "hands": list[list[int]],
        "spirit_of": list[int],
        "spirit_out": list[bool],
        "defense_deck": list[int],
        "support_deck": list[int],
        "invader_deck": list[int],
        "known_bottom": int,
        "devastated": list[bool],
        "invader_at": list[int],
        "defense_at": list[list[int]],
        "discards": list[int],
        "signals": list[int],
        "frames": list[tuple[int, ...]],
        "active": int,
        "plus_pending": bool,
        "turn": int,
        "decisions": int,
        "invaders_left": int,
        "defeated_value": int,
        "discarded_defense_value": int,
        "outcome": int,
        "loss_reason": str,
        "decision": int | None,
        "decider": int,
    }
    """Decks list their cards bottom first (the top is the end); ``invader_at``: the Invader
    at each Location or -1; ``known_bottom``: how many Invaders at the bottom of the Invader
    deck everyone saw go there; ``decision``: the pending kind, ``None`` once over."""

    def __init__(self, num_players: int, seed: int | None = None, **options: Any) -> None:
        super().__init__(num_players, seed, **options)
        self.restore_derived()
        if len(self.scenario.spirits) < self.num_players:
            raise ValueError(
                f"scenario {self.scenario.name!r} unlocks {len(self.scenario.spirits)} spirits, "
                f"too few for {self.num_players} players"
            )
        self.hands: list[list[int]] = [[] for _ in range(self.num_players)]
        self.spirit_of = [-1] * self.num_players
        self.spirit_out = [False] * self.num_players
        self.defense_deck = self._shuffled(list(S.DEFENSE_IDS))
        self.support_deck = self._shuffled(list(self.scenario.support_ids))
        self.invader_deck = self._build_invader_deck()
        self.known_bottom = 0
        self.devastated = [i in self.scenario.devastated for i in range(S.NUM_LOCATIONS)]
        self.invader_at = [-1] * S.NUM_LOCATIONS
        self.defense_at: list[list[int]] = [[] for _ in range(S.NUM_LOCATIONS)]
        self.discards: list[int] = []
        self.signals = [0] * self.num_players
        self.frames: list[tuple[int, ...]] = [(F_DRAFT,)]
        self.active = 0
        self.plus_pending = False
        self.turn = 0
        self.decisions = 0
        self.invaders_left = S.NUM_INVADERS
        self.defeated_value = 0
        self.discarded_defense_value = 0
        self.outcome = ONGOING
        self.loss_reason = ""
        self.decision: int | None = None
        self.decider = NO_SEAT
        self._advance()

    def restore_derived(self) -> None:
        """The scenario and its Location cards (left to right, by large terrain)."""
        self.scenario = S.SCENARIOS[self.options["scenario"]]
        self.locations = self.scenario.layout

    # ----- setup -------------------------------------------------------------------------
    def _shuffled(self, cards: list[int]) -> list[int]:
        """``cards`` in random order; the top of a deck is the end of its list."""
        self.rng.shuffle(cards)
        return cards

    def _build_invader_deck(self) -> list[int]:
        """The A pile on the B pile on the C pile, each shuffled separately."""
        piles = [[c for c in S.INVADER_IDS if S.CARD_LETTER[c] == letter] for letter in range(3)]
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
        self.defense_deck = self._rebuilt_deck(self.defense_deck, S.DEFENSE_IDS, named)
        self.support_deck = self._rebuilt_deck(self.support_deck, self.scenario.support_ids, named)
        self.invader_deck = self._rebuilt_deck(self.invader_deck, S.INVADER_IDS, named)
        self.hands = [list(hand) for hand in hands]
        self.spirit_of = list(spirits)
        self.spirit_out = [S.spirit_card(s) not in h for s, h in zip(spirits, hands, strict=True)]
        self.invader_at = [invaders.get(i, -1) for i in range(S.NUM_LOCATIONS)]
        self.defense_at = [list(defense.get(i, [])) for i in range(S.NUM_LOCATIONS)]
        self.devastated = [i in devastated for i in range(S.NUM_LOCATIONS)]
        self.discards = list(discards)
        gone = [c for c in discards if S.KIND[c] == S.KIND_INVADER]
        self.invaders_left = S.NUM_INVADERS - len(gone)
        self.defeated_value = sum(S.VALUE[c] for c in gone)
        self.discarded_defense_value = sum(S.VALUE[c] for c in discards if c not in gone)
        self.known_bottom, self.active, self.plus_pending = 0, active, False
        self.signals = [0] * self.num_players
        self.outcome, self.loss_reason = ONGOING, ""
        self.frames = [(F_TURN, TURN_START, 1, 0)]
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

    def pending_kind(self) -> int:
        return self.decision

    def legal_options(self) -> list[int]:
        return _OPTIONS[self.decision](self)

    def _draft_options(self) -> list[int]:
        return [s for s in self.scenario.spirits if s not in self.spirit_of]

    def message_options(self) -> list[int]:
        """The messages that may be said now: those about a shown Invader or the Invader at a
        Location only while there is one (public facts), the others always."""
        shown = self.card_in_play()
        messages = [S.SAY_NOTHING]
        if shown >= 0 and S.KIND[shown] == S.KIND_INVADER:
            messages.append(SAY_SHOWN)
        messages.append(S.SAY_PLUS)
        messages += [SAY_DEFEAT_AT + i for i in range(S.NUM_LOCATIONS) if self.invader_at[i] >= 0]
        return messages + list(range(SAY_INVADER, S.NUM_MESSAGES))

    def _window_options(self) -> list[int]:
        """``2 * message + use``: pass or use (when the spirit is usable), each with a
        message when ``signalling`` is on (else only message 0)."""
        uses = (0, 1) if self.can_use_spirit(self.decider) else (0,)
        messages = self.message_options() if self.options["signalling"] else [S.SAY_NOTHING]
        return [2 * message + use for message in messages for use in uses]

    def _play_options(self) -> list[int]:
        """Playable hand cards; passing is offered except for Toni's play."""
        playable = sorted(c for c in self.hands[self.decider] if c < S.FIRST_SPIRIT)
        return playable if self.frames[-1][0] == F_SPIRIT else [*playable, PASS_PLAY]

    def _place_options(self) -> list[int]:
        return self.placements(self.frames[-1][2])

    def _devastate_options(self) -> list[int]:
        return self.devastation_choices(S.TERRAIN[self.frames[-1][2]])

    def _move_defense_options(self) -> list[int]:
        return sorted(c for stack in self.defense_at for c in stack)

    def _move_target_options(self) -> list[int]:
        source = self.location_of_defense(self.frames[-1][4])
        return [i for i in range(S.NUM_LOCATIONS) if i != source]

    def _front_options(self) -> list[int]:
        return sorted(self.hands[self.decider][1:])

    def apply_unchecked(self, action: int) -> None:
        _, option = LAYOUT.locate(action)
        self.decisions += 1
        _HANDLERS[self.decision](self, option)
        self._advance()

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

    # ----- queries -----------------------------------------------------------------------
    def terrains_at(self, position: int) -> tuple[int, ...]:
        """The terrains a Location still shows (its large one, and its small one if intact)."""
        large = self.locations[position]
        return (large,) if self.devastated[position] else (large, S.SMALL_TERRAIN[large])

    def placements(self, card: int) -> list[int]:
        """Where ``card`` may go: anywhere for Defense; the placement rules for Invaders."""
        if S.KIND[card] != S.KIND_INVADER:
            return list(range(S.NUM_LOCATIONS))
        values = [S.VALUE[c] if c >= 0 else 0 for c in self.invader_at]
        terrains = [self.terrains_at(position) for position in range(S.NUM_LOCATIONS)]
        return invader_spots(values, terrains, S.TERRAIN[card], S.VALUE[card])

    def devastation_choices(self, terrain: int) -> list[int]:
        """Undevastated Locations showing ``terrain`` (large or small)."""
        return [
            i
            for i in range(S.NUM_LOCATIONS)
            if not self.devastated[i] and terrain in self.terrains_at(i)
        ]

    def location_of_defense(self, card: int) -> int:
        return next(i for i, stack in enumerate(self.defense_at) if card in stack)

    def can_use_spirit(self, player: int) -> bool:
        """Laid out, a card in hand, and an effect that would change something."""
        if not self.spirit_out[player] or not self.hands[player]:
            return False
        spirit = self.spirit_of[player]
        if spirit == S.BROM:
            return any(self.defense_at)
        if spirit == S.WISP:
            return len(self.hands[player]) >= 2
        if spirit == S.FENNA:
            return bool(self.defense_deck)
        return True

    def has_playable(self, player: int) -> bool:
        return any(card < S.FIRST_SPIRIT for card in self.hands[player])

    def cards_in_play(self) -> list[int]:
        """Cards being played right now (face up in the middle of the table)."""
        return [frame[2] for frame in self.frames if frame[0] == F_PLAY]

    def card_in_play(self) -> int:
        """The card face up in the middle of the table, being placed (the latest played) or
        picked by Brom to be moved; -1 if none."""
        for frame in reversed(self.frames):
            if frame[0] == F_PLAY:
                return frame[2]
            if frame[0] == F_SPIRIT and frame[4] >= 0:
                return frame[4]
        return -1

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
        while hand and hand[0] >= S.FIRST_SPIRIT:
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
        defense = sum(S.VALUE[c] for c in self.defense_at[position])
        value = S.VALUE[invader]
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
        """Pose ``decision`` (a plain int, as saves hold it) to ``decider``."""
        self.decision, self.decider = decision, decider
        return True

    def _advance(self) -> None:
        """Run automatic steps until a decision is pending or the game is over."""
        self.decision, self.decider = None, NO_SEAT
        while not self._check_end():
            frame = self.frames[-1]
            if _STEPPERS[frame[0]](self, frame):
                return

    def _check_end(self) -> bool:
        if self.outcome != ONGOING:
            return True
        if self.invaders_left == 0:
            self.outcome = WON
            return True
        if self._defense_short():
            self._lose("defense")
            return True
        return False

    def _defense_short(self) -> bool:
        """Whether the Defense and Support left cannot add up to the Invaders left."""
        left = self.total_defense_value - self.discarded_defense_value
        return left < TOTAL_INVADER_VALUE - self.defeated_value

    def _lose(self, reason: str) -> None:
        self.outcome, self.loss_reason = LOST, reason
        self.decision, self.decider = None, NO_SEAT

    def _step_draft(self, frame: tuple[int, ...]) -> bool:
        if -1 in self.spirit_of:
            return self._ask(_CHOOSE_SPIRIT, self.spirit_of.index(-1))
        self._deal()
        self.frames[-1] = (F_TURN, TURN_START, 1, 0)
        return False

    def _step_turn(self, frame: tuple[int, ...]) -> bool:
        _, stage, step, extra = frame
        return _TURN_STAGES[stage](self, step, extra)

    def _stalled(self) -> bool:
        """No hand holds a card and both draw decks are empty."""
        return not self.invader_deck and not self.defense_deck and not any(self.hands)

    def _turn_start(self, step: int, extra: int) -> bool:
        """Skip an empty turn; lose if nobody can ever act again; else signal or go on."""
        decks_empty = not self.invader_deck and not self.defense_deck
        if decks_empty and not any(self.hands):
            self._lose("stalled")
        elif decks_empty and not self.hands[self.active]:
            self._end_turn()
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
            return self._ask(_PLAY_CARD, self.active)
        self._finish_optional(step)
        return False

    def _turn_draw(self, step: int, extra: int) -> bool:
        self._draw(self.active, self.invader_deck)
        self._draw(self.active, self.defense_deck)
        self._end_turn()
        return False

    def _finish_optional(self, step: int) -> None:
        """After step 1 (and its extra plays) comes step 2; after step 2, a window, then the
        draws."""
        if step == 1:
            self.frames[-1] = (F_TURN, OPTIONAL, 2, 0)
        else:
            self.frames[-1] = (F_TURN, DRAW, 2, 0)
            self.frames.append((F_WINDOW, W_AFTER_STEP2, 0))

    def _end_turn(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self.turn += 1
        self.frames[-1] = (F_TURN, TURN_START, 1, 0)

    def _step_window(self, frame: tuple[int, ...]) -> bool:
        _, reason, offset = frame
        while offset < self.num_players:
            seat = (self.active + offset) % self.num_players
            offset += 1
            if self.options["signalling"] or self.can_use_spirit(seat):
                self.frames[-1] = (F_WINDOW, reason, offset)
                return self._ask(_SPIRIT_WINDOW, seat)
        self.frames.pop()
        return False

    def _step_play(self, frame: tuple[int, ...]) -> bool:
        """A card of one's own turn is first shown face up (a window: the others may advise
        and use their spirits), then placed; an Invader with no legal place devastates."""
        _, player, card, own_turn, windowed = frame
        placeable = S.KIND[card] != S.KIND_INVADER or bool(self.placements(card))
        if own_turn and not windowed:
            self.frames[-1] = (F_PLAY, player, card, own_turn, 1)
            self.frames.append((F_WINDOW, W_FACE_UP if placeable else W_DEVASTATION, 0))
            return False
        if placeable:
            return self._ask(_PLACE, player)
        if self.devastation_choices(S.TERRAIN[card]):
            return self._ask(_DEVASTATE, player)
        self._lose("terrain")
        return True

    def _step_spirit(self, frame: tuple[int, ...]) -> bool:
        _, player, spirit, stage, _picked = frame
        if stage == EFFECT_DONE:
            self.frames.pop()
            self.hands[player].append(S.spirit_card(spirit))
            self._settle_front(player)
        elif stage == EFFECT_TARGET:
            return self._ask(_MOVE_TARGET, player)
        elif spirit == S.TONI:
            return self._ask(_PLAY_CARD, player)
        elif spirit == S.BROM:
            return self._ask(_MOVE_DEFENSE, player)
        elif spirit == S.WISP:
            return self._ask(_BRING_TO_FRONT, player)
        else:  # Fenna
            self._draw(player, self.defense_deck)
            self.frames[-1] = (F_SPIRIT, player, spirit, EFFECT_DONE, -1)
        return False

    # ----- decision handlers -------------------------------------------------------------
    def _on_draft(self, spirit: int) -> None:
        self.spirit_of[self.decider] = spirit
        self.spirit_out[self.decider] = True

    def _on_window(self, option: int) -> None:
        message, use = divmod(option, 2)
        if self.options["signalling"]:
            self.signals[self.decider] = message
        if use:
            player = self.decider
            self.spirit_out[player] = False
            self.frames.append((F_SPIRIT, player, self.spirit_of[player], EFFECT, -1))

    def _on_play(self, card: int) -> None:
        frame, player = self.frames[-1], self.decider
        if frame[0] == F_SPIRIT:  # Toni: a play out of the turn's steps
            self.frames[-1] = (F_SPIRIT, player, S.TONI, EFFECT_DONE, -1)
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
        if S.KIND[card] == S.KIND_INVADER:
            self.invader_at[position] = card
            self._check_defeat(position, player)
        else:
            self._add_defense(position, card, player)
            self.plus_pending = self.plus_pending or bool(own_turn and S.PLUS[card])

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

    # ----- invariants of a loaded state ---------------------------------------------------
    def check_invariants(self) -> Iterator[tuple[str, str]]:
        """Sizes and ranges first (the later checks read through them), then the cards
        (each exactly once), the seats, the table, the counters and the outcome, the frames
        and the pending decision; the first group with a problem ends the check."""
        for check in (
            self._size_problems,
            self._card_problems,
            self._seat_problems,
            self._table_problems,
            self._progress_problems,
            self._frame_problems,
        ):
            problems = list(check())
            if problems:
                yield from problems
                return

    def _size_problems(self) -> Iterator[tuple[str, str]]:
        n, places = self.num_players, S.NUM_LOCATIONS
        for name, size in (
            ("hands", n),
            ("spirit_of", n),
            ("spirit_out", n),
            ("signals", n),
            ("devastated", places),
            ("invader_at", places),
            ("defense_at", places),
        ):
            if len(getattr(self, name)) != size:
                yield name, f"has {len(getattr(self, name))} entries, expected {size}"
        if not self.frames:
            yield "frames", "no frame (the draft or a turn lies at the bottom)"
        for index, frame in enumerate(self.frames):
            if not frame or FRAME_SIZE.get(frame[0]) != len(frame):
                yield f"frames[{index}]", f"{frame} is no frame of the spec"
        for name in ("known_bottom", "turn", "decisions", "defeated_value"):
            if getattr(self, name) < 0:
                yield name, f"{getattr(self, name)} is negative"
        for name in ("turn", "decisions"):  # every turn asks at least one decision
            if getattr(self, name) > self.MAX_DECISIONS:
                yield name, f"{getattr(self, name)} is beyond a game's {self.MAX_DECISIONS}"
        if not 0 <= self.active < n:
            yield "active", f"{self.active} is not a seat of {n} players"

    def _card_problems(self) -> Iterator[tuple[str, str]]:
        """Every card of the scenario exactly once, each where its kind may lie."""
        kinds = {
            "defense_deck": (S.KIND_DEFENSE,),
            "support_deck": (S.KIND_SUPPORT,),
            "invader_deck": (S.KIND_INVADER,),
            "invader_at": (S.KIND_INVADER,),
            "defense_at": (S.KIND_DEFENSE, S.KIND_SUPPORT),
            "discards": (S.KIND_DEFENSE, S.KIND_SUPPORT, S.KIND_INVADER),
            "hands": (S.KIND_DEFENSE, S.KIND_SUPPORT, S.KIND_INVADER, S.KIND_SPIRIT),
            "frames": (S.KIND_DEFENSE, S.KIND_SUPPORT, S.KIND_INVADER),
        }
        where = {
            "defense_deck": self.defense_deck,
            "support_deck": self.support_deck,
            "invader_deck": self.invader_deck,
            "invader_at": [card for card in self.invader_at if card != -1],
            "defense_at": [card for stack in self.defense_at for card in stack],
            "discards": self.discards,
            "hands": [card for hand in self.hands for card in hand],
            "frames": self.cards_in_play(),
        }
        for name, cards in where.items():
            for card in cards:
                if not 0 <= card < S.NUM_CARDS or S.KIND[card] not in kinds[name]:
                    yield name, f"card {card} cannot lie there"
                    return
        placed = sorted(card for cards in where.values() for card in cards if card < S.FIRST_SPIRIT)
        expected = sorted([*S.DEFENSE_IDS, *self.scenario.support_ids, *S.INVADER_IDS])
        if placed != expected:
            yield "cards", "not each card of the scenario exactly once (decks, hands, table...)"

    def _seat_problems(self) -> Iterator[tuple[str, str]]:
        """Spirits drafted in seat order, each in exactly one place; hands; signals."""
        drafted = [s for s in self.spirit_of if s != -1]
        drafting = self.frames[0][0] == F_DRAFT
        if len(set(drafted)) != len(drafted) or not set(drafted) <= set(self.scenario.spirits):
            yield "spirit_of", f"{self.spirit_of}: spirits of the scenario, each once"
        elif self.spirit_of != drafted + [-1] * (self.num_players - len(drafted)) or (
            not drafting and len(drafted) < self.num_players
        ):
            yield "spirit_of", f"{self.spirit_of}: seats choose in order, all before the deal"
        effects = [frame[1] for frame in self.frames if frame[0] == F_SPIRIT]
        for seat, (spirit, hand) in enumerate(zip(self.spirit_of, self.hands, strict=True)):
            others = [c for c in hand if c >= S.FIRST_SPIRIT and c != S.spirit_card(spirit)]
            if others or (spirit == -1 and any(c >= S.FIRST_SPIRIT for c in hand)):
                yield "hands", f"seat {seat} holds another seat's spirit"
            elif hand and hand[0] >= S.FIRST_SPIRIT:
                yield "hands", f"seat {seat}'s spirit is frontmost but not laid out"
            elif drafting and hand:
                yield "hands", "hands are dealt after the spirit draft"
            places = hand.count(S.spirit_card(spirit)) + self.spirit_out[seat]
            places += effects.count(seat)
            if places != (spirit != -1):
                yield "spirit_out", f"seat {seat}'s spirit not once out, in hand or acting"
        for seat, message in enumerate(self.signals):
            if not 0 <= message < NUM_MESSAGES or (message and not self.options["signalling"]):
                yield "signals", f"seat {seat}'s message {message} is not a signal of this game"

    def _table_problems(self) -> Iterator[tuple[str, str]]:
        """Devastation is permanent; Invaders rise left to right on their terrains, each
        with less Defense than its value; the decks' known bottom."""
        for position in self.scenario.devastated:
            if not self.devastated[position]:
                yield "devastated", f"the scenario devastates Location {position + 1}"
        values = []
        for position, invader in enumerate(self.invader_at):
            if invader == -1:
                continue
            large = self.locations[position]
            if S.TERRAIN[invader] not in (large, S.SMALL_TERRAIN[large]):
                yield "invader_at", f"{S.card_name(invader)} at Location {position + 1}"
            if sum(S.VALUE[c] for c in self.defense_at[position]) >= S.VALUE[invader]:
                yield "defense_at", f"Location {position + 1}'s Invader should be defeated"
            values.append(S.VALUE[invader])
        if values != sorted(set(values)):
            yield "invader_at", "Invader values must rise from left to right"
        if self.known_bottom > len(self.invader_deck):
            yield "known_bottom", f"{self.known_bottom} exceeds the Invader deck"

    def _frame_problems(self) -> Iterator[tuple[str, str]]:
        """Each frame's values in range, each on a frame it may lie on, and the top frame
        waiting on the pending decision (a game that goes on)."""
        n, frames = self.num_players, self.frames
        for index, frame in enumerate(frames):
            problem = self._frame_problem(frame)
            if problem is None and index == 0 and frame[0] not in (F_DRAFT, F_TURN):
                problem = "the draft or a turn lies at the bottom"
            if problem is None and index > 0 and not self._may_lie_on(frames[index - 1], frame):
                problem = f"cannot lie on {frames[index - 1]}"
            if problem is not None:
                yield f"frames[{index}]", f"{frame}: {problem}"
                return
        if self.outcome != ONGOING:
            if self.decision is not None or self.decider != NO_SEAT:
                yield "decision", "a finished game has no pending decision"
            return
        expected = self._waiting_on()
        if expected is None:
            yield "frames", f"the top frame {frames[-1]} waits on no decision"
        elif (self.decision, self.decider) != expected:
            kind, seat = expected
            yield "decision", f"the top frame waits on {kind.name} by seat {seat} (of {n})"

    def _frame_problem(self, frame: tuple[int, ...]) -> str | None:
        """What is out of range in one frame, or None."""
        n = self.num_players
        kind = frame[0]
        if kind == F_TURN:
            _, stage, step, extra = frame
            if (step, extra) not in TURN_STEPS.get(stage, ()):
                return "no such turn stage"
        elif kind == F_WINDOW:
            _, reason, offset = frame
            if not 0 <= reason < len(S.WINDOW_REASONS) or not 0 <= offset <= n:
                return "window reason or seat offset out of range"
        elif kind == F_PLAY:
            _, player, _card, own_turn, windowed = frame
            if not 0 <= player < n or own_turn not in (0, 1) or windowed not in (0, 1):
                return "seat or flags out of range"
            if windowed and not own_turn:
                return "only a card played on its own turn opens a face-up window"
        elif kind == F_SPIRIT:
            _, player, spirit, stage, picked = frame
            if not 0 <= player < n or spirit == -1 or spirit != self.spirit_of[player]:
                return "not the seat's spirit"
            if stage not in (EFFECT, EFFECT_TARGET, EFFECT_DONE):
                return "no such effect stage"
            if (stage == EFFECT_TARGET) != (picked != -1) or (
                picked != -1
                and (spirit != S.BROM or all(picked not in stack for stack in self.defense_at))
            ):
                return "only Brom picks a card, a Defense or Support card on the table"
        return None

    def _may_lie_on(self, below: tuple[int, ...], frame: tuple[int, ...]) -> bool:
        """Whether ``frame`` may lie directly on ``below`` (what the automatic steps push)."""
        kind, under = frame[0], below[0]
        if kind == F_WINDOW and under == F_TURN:
            extra_reason = W_EXTRA if below[3] else W_STEP2
            return (below[1], frame[1]) in (
                (STEP1_PLAY, W_STEP1),
                (OPTIONAL_DECIDE, extra_reason),
                (DRAW, W_AFTER_STEP2),
            )
        if kind == F_WINDOW and under == F_PLAY:
            return below[4] == 1 and frame[1] in (W_FACE_UP, W_DEVASTATION)
        if kind == F_PLAY and under == F_TURN:
            return below[1] == AFTER_PLAY and frame[1] == self.active and frame[3] == 1
        if kind == F_PLAY and under == F_SPIRIT:
            toni_done = below[2] == S.TONI and below[3] == EFFECT_DONE
            return toni_done and frame[1] == below[1] and frame[3] == 0
        if kind == F_SPIRIT and under == F_WINDOW:
            return below[2] >= 1 and frame[1] == (self.active + below[2] - 1) % self.num_players
        return False

    def _waiting_on(self) -> tuple[Decision, int] | None:
        """The decision the top frame asks and its seat, as the automatic steps would ask
        it; None where they would run on."""
        frame = self.frames[-1]
        kind, active = frame[0], self.active
        if kind == F_DRAFT:
            undrafted = [seat for seat, s in enumerate(self.spirit_of) if s == -1]
            return (Decision.CHOOSE_SPIRIT, undrafted[0]) if undrafted else None
        if kind == F_TURN:
            if frame[1] == OPTIONAL_DECIDE and self.has_playable(active):
                return Decision.PLAY_CARD, active
            return None
        if kind == F_WINDOW:
            seat = (active + frame[2] - 1) % self.num_players
            asked = frame[2] > 0 and (self.options["signalling"] or self.can_use_spirit(seat))
            return (Decision.SPIRIT_WINDOW, seat) if asked else None
        if kind == F_PLAY:
            _, player, card, own_turn, windowed = frame
            if own_turn and not windowed:
                return None
            if S.KIND[card] != S.KIND_INVADER or self.placements(card):
                return Decision.PLACE, player
            if not self.devastation_choices(S.TERRAIN[card]):
                return None
            return Decision.DEVASTATE, player
        _, player, spirit, stage, _ = frame
        if stage == EFFECT_TARGET:
            return Decision.MOVE_TARGET, player
        asks = {S.TONI: Decision.PLAY_CARD, S.BROM: Decision.MOVE_DEFENSE}
        asks[S.WISP] = Decision.BRING_TO_FRONT
        return (asks[spirit], player) if stage == EFFECT and spirit in asks else None

    def _progress_problems(self) -> Iterator[tuple[str, str]]:
        """The counters of defeated Invaders and spent Defense, and the outcome."""
        gone = [card for card in self.discards if S.KIND[card] == S.KIND_INVADER]
        spent = sum(S.VALUE[card] for card in self.discards) - sum(S.VALUE[c] for c in gone)
        if self.invaders_left != S.NUM_INVADERS - len(gone):
            yield "invaders_left", f"{self.invaders_left}, but {len(gone)} Invaders are defeated"
        if self.defeated_value != sum(S.VALUE[card] for card in gone):
            yield "defeated_value", "is not the value of the defeated Invaders"
        if self.discarded_defense_value != spent:
            yield "discarded_defense_value", "is not the value of the discarded Defense"
        if self.plus_pending and self.outcome == ONGOING:
            yield "plus_pending", "an extra play is granted before any decision"
        if self.outcome not in (ONGOING, WON, LOST):
            yield "outcome", f"{self.outcome} is not ongoing (0), won (1) or lost (-1)"
        elif (self.outcome == WON) != (self.invaders_left == 0):
            yield "outcome", "the game is won exactly when no Invader is left"
        elif (self.outcome == LOST) != (self.loss_reason != ""):
            yield "loss_reason", "a lost game, and only a lost game, has a reason"
        elif self.outcome == LOST and not self._lost_by(self.loss_reason):
            yield "loss_reason", f"{self.loss_reason!r} does not hold"
        elif self.outcome == ONGOING and self._defense_short():
            yield "outcome", "a game the Defense left cannot win is lost"

    def _lost_by(self, reason: str) -> bool:
        if reason == "defense":
            return self._defense_short()
        if reason == "stalled":
            return self._stalled()
        if reason == "terrain":
            frame = self.frames[-1]
            return (
                frame[0] == F_PLAY
                and S.KIND[frame[2]] == S.KIND_INVADER
                and not self.placements(frame[2])
                and not self.devastation_choices(S.TERRAIN[frame[2]])
            )
        return reason in LOSS_REASONS

    # ----- hidden information ------------------------------------------------------------
    def resample_hidden(self, player: int, rng: np.random.Generator) -> ValenorGame:
        """Redraw other hands' faces and deck orders, keeping every back where it is; the
        faces are drawn from their sorted pool, so the result depends on ``player``'s view
        alone."""
        other = self.clone()
        other.rng = make_rng(int(rng.integers(2**63)))
        slots: dict[int, list[tuple[list[int], int]]] = {}
        for seat, hand in enumerate(other.hands):
            if seat != player:
                for index, card in enumerate(hand):
                    slots.setdefault(S.BACK[card], []).append((hand, index))
        unknown_invaders = range(other.known_bottom, len(other.invader_deck))
        for index in unknown_invaders:
            slots.setdefault(S.BACK[other.invader_deck[index]], []).append(
                (other.invader_deck, index)
            )
        for deck in (other.defense_deck, other.support_deck):
            for index, card in enumerate(deck):
                slots.setdefault(S.BACK[card], []).append((deck, index))
        for back, places in slots.items():
            if back == S.BACK_SPIRIT:
                continue
            faces = sorted(where[index] for where, index in places)
            rng.shuffle(faces)
            for (where, index), face in zip(places, faces, strict=True):
                where[index] = face
        return other


_STEPPERS = (
    ValenorGame._step_draft,
    ValenorGame._step_turn,
    ValenorGame._step_window,
    ValenorGame._step_play,
    ValenorGame._step_spirit,
)
"""By frame kind (``F_DRAFT`` ... ``F_SPIRIT``)."""
_TURN_STAGES = (
    ValenorGame._turn_start,
    ValenorGame._turn_step1,
    ValenorGame._turn_step1_play,
    ValenorGame._turn_after_play,
    ValenorGame._turn_optional,
    ValenorGame._turn_optional_decide,
    ValenorGame._turn_draw,
)
_OPTIONS = (
    ValenorGame._draft_options,
    ValenorGame._window_options,
    ValenorGame._play_options,
    ValenorGame._place_options,
    ValenorGame._devastate_options,
    ValenorGame._move_defense_options,
    ValenorGame._move_target_options,
    ValenorGame._front_options,
)
"""By decision kind, in the order of :class:`Decision`."""
_HANDLERS = (
    ValenorGame._on_draft,
    ValenorGame._on_window,
    ValenorGame._on_play,
    ValenorGame._on_place,
    ValenorGame._on_devastate,
    ValenorGame._on_move_pick,
    ValenorGame._on_move_target,
    ValenorGame._on_front,
)
"""By decision kind, in the order of :class:`Decision`."""
