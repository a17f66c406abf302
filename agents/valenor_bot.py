"""A scripted Spirits of Valenor team bot that reads only its own observation.

Strategy
--------
The team can only win if almost no Defense is wasted: the Defense and Support cards add up
to 240 against 216 of Invaders, so every point of overshoot is lost for good and Supports
come only from Direct Hits. The bot therefore plays for exact sums.

*Placing Defense* (forced or chosen). Every Location is scored: a Direct Hit scores highest
(bigger Invaders first); a defeat with overshoot scores less the more it wastes (heavily: 150
per point); building up toward an Invader scores by how small and how exactly fillable (by
a card still in hand) the remainder is; using a low card (1-4) for anything but an exact
finish is penalised, since low cards are what makes exact finishes possible. On an empty
Location, Defense that adds up exactly to an Invader in our own hand which may go there
readies an instant Direct Hit when that Invader is played; otherwise less is better.

*Optional plays* (step 2, "+" extra plays). The bot plays a card only when its best use
scores at least ``threshold`` (by default only a Direct Hit, or an Invader landing exactly
on its Location's Defense), or to defeat the Invader that blocks the Invader it must play
next (its frontmost card) from every legal place. Otherwise it keeps its cards: low Defense
waits for an exact match. (Measured: playing more eagerly, e.g. for small-waste defeats or
fillable build-ups, wins less often.)

*Placing Invaders.* Among the legal Locations it keeps the most future Invaders placeable
(each Invader not yet defeated is checked against the table after the placement), prefers
an exact Direct Hit on existing Defense, and avoids overshoot.

*Devastation.* It flips the Location whose lost (small) terrain has the fewest Invaders
still to come and which still shows elsewhere.

*Spirits.* Toni: used for a Direct Hit from anywhere in the hand, to defeat a blocker so
that an Invader about to devastate can be placed, or, while a teammate's Invader is shown face
up, to lay Defense adding up exactly to it where it may land (the placer, this same bot,
then lands it there for a Direct Hit). Brom: used when moving one Defense card makes a Direct
Hit (or unblocks a devastating Invader). Wisp: on its own turn, brings a better card to the
front when the frontmost card would devastate or waste. Fenna: used when the hand holds no
Defense. The draft prefers Toni, Wisp, Brom, Fenna.

*Table talk* (``signalling=True``). At every window it says, honestly, the first of: it can
defeat the shown Invader; it can make a Direct Hit at a Location ("I can defeat the Invader
at Location k"); the level and terrain of its next Invader; it holds a "+". It listens to one
message: Defense that is not a Direct Hit is not built at a Location whose Invader a teammate
said it can defeat (that would spoil the teammate's exact finish).

The bot decodes ``ValenorGame.SCHEMA.decode_lazy(observation)``, reads the action mask and uses
the public card data (values and terrains of the printed cards) and the rules' placement
function (``invader_spots``, applied to the table it read): nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from tabletop_envs.agents.base import Agent

from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.observer import SCHEMA
from tabletop_envs.valenor.rules import invader_spots
from tabletop_envs.valenor.spec import (
    LAYOUT,
    LEVEL_OF_VALUE,
    PASS_PLAY,
    SAY_DEFEAT_AT,
    SAY_INVADER,
    SAY_NOTHING,
    SAY_PLUS,
    SAY_SHOWN,
    W_DEVASTATION,
    W_FACE_UP,
    W_STEP1,
    Decision,
)

DRAFT_ORDER = (S.TONI, S.WISP, S.BROM, S.FENNA)
DIRECT_HIT = 1000
DEFEAT = 500
BUILD = 200
EMPTY = 0
UNPLACEABLE = -1000
WASTE_COST = 150
PLACEABLE = 10
LOW_CARD = 4
INVADER_OF_VALUE = {S.VALUE[c]: c for c in S.INVADER_IDS}


@dataclass
class Table:
    """The public table and the bot's own hand, read from a decoded observation."""

    terrains: list[tuple[int, ...]]
    invader: list[int]
    """Invader value per Location, 0 if none."""
    defense: list[int]
    hand: list[tuple[int, int, int]]
    """(kind, value, terrain) per hand card, front first."""
    to_come: list[int]
    """Values of the Invaders neither defeated nor on the table."""
    shown: int = 0
    """The value of an Invader face up in the middle, placeable, in a face-up window; else 0."""
    claimed: frozenset[int] = frozenset()
    """Locations whose Invader a teammate said it can defeat (table talk)."""

    @classmethod
    def read(cls, fields: Mapping[str, np.ndarray]) -> Table:
        large = fields["location_large"].argmax(axis=1).tolist()
        small = fields["location_small"]
        terrains = [
            (shown, other) if has_small else (shown,)
            for shown, other, has_small in zip(
                large, small.argmax(axis=1).tolist(), small.any(axis=1).tolist(), strict=True
            )
        ]
        invader = fields["location_invader"].tolist()
        present = fields["hand_kind"].any(axis=1)
        hand = list(
            zip(
                fields["hand_kind"][present].argmax(axis=1).tolist(),
                fields["hand_value"][present].tolist(),
                fields["hand_terrain"][present].argmax(axis=1).tolist(),
                strict=True,
            )
        )
        gone = {S.INVADER_VALUES[i] for i in np.flatnonzero(fields["discarded_invaders"])}
        to_come = [v for v in S.INVADER_VALUES if v not in gone and v not in invader]
        defense = fields["location_defense_sum"].tolist()
        shown = 0
        if fields["window_reason"][W_FACE_UP] and fields["card_in_play_kind"][S.KIND_INVADER]:
            shown = int(fields["card_in_play_value"])
        said = fields["signals"][1:].argmax(axis=1).tolist()
        claimed = frozenset(
            m - SAY_DEFEAT_AT for m in said if SAY_DEFEAT_AT <= m < SAY_DEFEAT_AT + 5
        )
        return cls(terrains, invader, defense, hand, to_come, shown, claimed)

    def placements(self, value: int, invader: list[int] | None = None) -> list[int]:
        """Legal Locations for the Invader of ``value`` (optionally on another table)."""
        invader = self.invader if invader is None else invader
        return invader_spots(invader, self.terrains, S.TERRAIN[INVADER_OF_VALUE[value]], value)

    def hand_defense(self) -> list[int]:
        return [value for kind, value, _ in self.hand if kind in (S.KIND_DEFENSE, S.KIND_SUPPORT)]

    def defense_score(self, value: int, position: int, spare: list[int]) -> int:
        """How good putting Defense ``value`` at ``position`` is (``spare``: other hand cards)."""
        invader, current = self.invader[position], self.defense[position]
        low_penalty = 40 * (LOW_CARD + 1 - value) if value <= LOW_CARD else 0
        if not invader:
            return self.prebuild_score(value, position) - low_penalty
        need = invader - current
        if value == need:
            return DIRECT_HIT + invader
        if position in self.claimed:  # a teammate said it can defeat this one: leave it
            low_penalty += 300
        if value > need:
            return DEFEAT - WASTE_COST * (value - need) - low_penalty
        remainder = need - value
        fillable = 150 if remainder in spare else 30 if remainder <= LOW_CARD else 0
        return BUILD - 5 * remainder + fillable - low_penalty

    @cached_property
    def own_invader_spots(self) -> dict[int, list[int]]:
        """Legal Locations of each Invader in our hand, by value."""
        return {
            value: self.placements(value) for kind, value, _ in self.hand if kind == S.KIND_INVADER
        }

    def prebuild_score(self, value: int, position: int) -> int:
        """Defense on an empty Location: best when it readies an exact landing for an Invader
        in our own hand that may go there."""
        total = self.defense[position] + value
        score = EMPTY - total
        if self.shown and position in self.placements(self.shown):
            if total == self.shown:  # the shown Invader will land on it: a Direct Hit
                return DIRECT_HIT + self.shown
            if total > self.shown:
                score -= WASTE_COST * (total - self.shown)
        for invader, spots in self.own_invader_spots.items():
            if position in spots:
                if total == invader:
                    score = max(score, BUILD + 150)
                elif total < invader:
                    score = max(score, EMPTY + 50 - (invader - total))
        return score

    def best_defense(self, value: int, spare: list[int]) -> tuple[int, int]:
        """(score, position) of the best place for Defense ``value``."""
        return max((self.defense_score(value, i, spare), i) for i in range(S.NUM_LOCATIONS))

    def invader_score(self, value: int, position: int) -> int:
        """Keep future Invaders placeable; land exactly on Defense; avoid overshoot."""
        after = self.invader[:]
        after[position] = value
        current = self.defense[position]
        if current >= value:
            after[position] = 0
        others = [v for v in self.to_come if v != value]
        score = PLACEABLE * sum(bool(self.placements(v, after)) for v in others)
        if current == value:
            return score + DIRECT_HIT
        if current > value:
            return score - WASTE_COST * (current - value)
        return score

    def unblocking_defeats(self, blocked: int) -> list[int]:
        """Locations whose Invader's defeat would let Invader ``blocked`` be placed."""
        result = []
        for position, value in enumerate(self.invader):
            if value:
                after = self.invader[:]
                after[position] = 0
                if self.placements(blocked, after):
                    result.append(position)
        return result


class ValenorHeuristicAgent(Agent):
    """Plans Direct Hits, keeps low Defense for exact matches, avoids devastation."""

    name = "valenor-heuristic"

    def __init__(self, seed: int | None = None, threshold: int = DIRECT_HIT) -> None:
        """Deterministic (``seed`` is accepted for the common interface); ``threshold`` is
        the least score for which an optional play is made."""
        self.threshold = threshold
        self._planned: tuple[int, int, int] | None = None
        """(kind, value, Location) of a Toni play readied for a shown Invader."""

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        mask = observation["action_mask"]
        fields = SCHEMA.decode_lazy(observation["observation"])
        decision = int(fields["decision"].argmax())
        segment = LAYOUT.segment_of(decision)
        legal = [int(a) - segment.offset for a in np.flatnonzero(mask)]
        if not legal:
            raise ValueError(f"{agent} has no legal action for {Decision(decision).name.lower()}")
        planned, self._planned = self._planned, None
        if decision == Decision.PLACE and planned is not None:
            kind, value = (
                int(fields["card_in_play_kind"].argmax()),
                int(fields["card_in_play_value"]),
            )
            if planned[:2] == (kind, value) and planned[2] in legal:
                return segment.offset + planned[2]
        choice = self._choose(decision, fields, Table.read(fields), legal)
        return segment.offset + (choice if choice in legal else legal[0])

    def _choose(
        self, decision: int, fields: Mapping[str, np.ndarray], table: Table, legal: list[int]
    ) -> int:
        if decision == Decision.CHOOSE_SPIRIT:
            return next(s for s in DRAFT_ORDER if s in legal)
        if decision == Decision.SPIRIT_WINDOW:
            use = int(self._spirit_plan(fields, table) is not None and 1 in legal)
            messages = {option // 2 for option in legal}
            return 2 * self._message(fields, table, messages) + use
        if decision == Decision.PLAY_CARD:
            return self._play(fields, table, legal)
        if decision == Decision.PLACE:
            return self._place(fields, table, legal)
        if decision == Decision.DEVASTATE:
            return self._devastate(table, legal)
        if decision == Decision.MOVE_DEFENSE:
            plan = self._brom_plan(table, fields)
            value = plan[0] if plan is not None else -1
            return next((c for c in legal if S.VALUE[c] == value), legal[0])
        if decision == Decision.MOVE_TARGET:
            return self._place(fields, table, legal)
        return self._front(table, legal)  # Decision.BRING_TO_FRONT

    # ----- plays ---------------------------------------------------------------------
    def _card_value_score(self, table: Table, kind: int, value: int, index: int) -> int:
        """The best use of hand card ``index`` now."""
        if kind == S.KIND_SPIRIT:
            return UNPLACEABLE
        if kind == S.KIND_INVADER:
            options = table.placements(value)
            if not options:
                return UNPLACEABLE
            return max(table.invader_score(value, i) for i in options)
        spare = [v for j, v in enumerate(self._hand_values(table)) if j != index]
        return table.best_defense(value, spare)[0]

    @staticmethod
    def _hand_values(table: Table) -> list[int]:
        return [v if k in (S.KIND_DEFENSE, S.KIND_SUPPORT) else 0 for k, v, _ in table.hand]

    def _wanted_play(self, table: Table, urgent: bool) -> tuple[int, int] | None:
        """(kind, value) of a card worth playing now, or None to keep the hand."""
        best = None
        blocked_front = self._blocked_front(table)
        for index, (kind, value, _) in enumerate(table.hand):
            score = self._card_value_score(table, kind, value, index)
            worth = score >= DIRECT_HIT or score >= self.threshold
            if kind in (S.KIND_DEFENSE, S.KIND_SUPPORT) and (urgent or blocked_front):
                worth = worth or self._unblocks(table, value, blocked_front or urgent)
            if worth and (best is None or score > best[0]):
                best = (score, kind, value)
        return None if best is None else (best[1], best[2])

    def _blocked_front(self, table: Table) -> int:
        """The value of the frontmost card if it is an Invader with no legal place, else 0."""
        if table.hand and table.hand[0][0] == S.KIND_INVADER:
            value = table.hand[0][1]
            return 0 if table.placements(value) else value
        return 0

    @staticmethod
    def _unblocks(table: Table, value: int, blocked: int) -> bool:
        """Whether Defense ``value`` defeats an Invader whose defeat lets ``blocked`` in."""
        return any(
            table.defense[p] + value >= table.invader[p]
            and table.defense[p] + value - table.invader[p] <= 6
            for p in table.unblocking_defeats(blocked)
        )

    def _play(self, fields: Mapping[str, np.ndarray], table: Table, legal: list[int]) -> int:
        urgent = self._devastation_pending(fields)
        wanted = self._wanted_play(table, urgent)
        if wanted is None:
            return PASS_PLAY if PASS_PLAY in legal else legal[0]
        kind, value = wanted
        for card in legal:
            if card != PASS_PLAY and S.VALUE[card] == value and S.KIND[card] == kind:
                if table.shown and kind != S.KIND_INVADER:
                    position = table.best_defense(value, self._hand_values(table))[1]
                    self._planned = (kind, value, position)
                return card
        return PASS_PLAY if PASS_PLAY in legal else legal[0]

    @staticmethod
    def _devastation_pending(fields: Mapping[str, np.ndarray]) -> int:
        """The value of an Invader about to devastate (the devastation window), else 0."""
        if fields["window_reason"][W_DEVASTATION] and fields["card_in_play_kind"][2]:
            return int(fields["card_in_play_value"])
        return 0

    def _place(self, fields: Mapping[str, np.ndarray], table: Table, legal: list[int]) -> int:
        kind = int(fields["card_in_play_kind"].argmax())
        value = int(fields["card_in_play_value"])
        if kind == S.KIND_INVADER:
            return max(legal, key=lambda i: table.invader_score(value, i))
        spare = self._hand_values(table)
        return max(legal, key=lambda i: table.defense_score(value, i, spare))

    def _devastate(self, table: Table, legal: list[int]) -> int:
        def cost(position: int) -> tuple[int, int]:
            lost = table.terrains[position][1]
            coming = sum(S.TERRAIN[INVADER_OF_VALUE[v]] == lost for v in table.to_come)
            elsewhere = sum(lost in t for i, t in enumerate(table.terrains) if i != position)
            return (coming * (3 - min(elsewhere, 2)), -elsewhere)

        return min(legal, key=cost)

    # ----- table talk ----------------------------------------------------------------
    @staticmethod
    def _message(fields: Mapping[str, np.ndarray], table: Table, allowed: set[int]) -> int:
        """An honest message about our hand: we can defeat the shown Invader; we can make a
        Direct Hit at a Location (said as "I can defeat the Invader at Location k"); our next
        Invader's level and terrain; we hold a "+"; else nothing."""
        if len(allowed) == 1:
            return SAY_NOTHING
        defense = table.hand_defense()
        if table.shown and any(
            table.defense[p] + v >= table.shown
            for p in table.placements(table.shown)
            for v in defense
        ):
            return SAY_SHOWN
        hits = [
            (table.invader[p], p)
            for p in range(S.NUM_LOCATIONS)
            if table.invader[p] and table.invader[p] - table.defense[p] in defense
        ]
        if hits:
            return SAY_DEFEAT_AT + max(hits)[1]
        for kind, value, terrain in table.hand:
            if kind == S.KIND_INVADER:
                return SAY_INVADER + S.NUM_TERRAINS * LEVEL_OF_VALUE[value] + terrain
        if fields["hand_plus"].any():
            return SAY_PLUS
        return SAY_NOTHING

    # ----- spirits -------------------------------------------------------------------
    def _spirit_plan(self, fields: Mapping[str, np.ndarray], table: Table) -> str | None:
        """What our spirit would do now, or None to pass."""
        spirit = int(fields["spirit_of"][0].argmax())
        pending = self._devastation_pending(fields)
        if spirit == S.TONI:
            return "play" if self._wanted_play(table, pending) is not None else None
        if spirit == S.BROM:
            return "move" if self._brom_plan(table, fields) is not None else None
        if spirit == S.WISP:
            my_turn = fields["active"][0] and fields["window_reason"][W_STEP1]
            return "front" if my_turn and self._better_front(table) is not None else None
        has_defense = bool(table.hand_defense())
        return "draw" if not has_defense else None

    def _brom_plan(self, table: Table, fields: Mapping[str, np.ndarray]) -> tuple[int, int] | None:
        """(card value, target) of a move making a Direct Hit or an unblocking defeat."""
        pending = self._devastation_pending(fields)
        unblock = table.unblocking_defeats(pending) if pending else []
        counts = fields["location_defense"].tolist(), fields["location_support"].tolist()
        best = None
        for source in range(S.NUM_LOCATIONS):
            values = [v + 1 for block in counts for v, count in enumerate(block[source]) if count]
            for value in values:
                for target in range(S.NUM_LOCATIONS):
                    invader = table.invader[target]
                    if target == source or not invader:
                        continue
                    total = table.defense[target] + value
                    lose_source = table.invader[source] > 0
                    if total == invader or (target in unblock and total >= invader):
                        score = invader - 100 * lose_source - (total - invader)
                        if best is None or score > best[0]:
                            best = (score, value, target)
        return None if best is None else best[1:]

    def _better_front(self, table: Table) -> int | None:
        """Index of a hand card much better to play first than the frontmost, if any."""
        scores = [
            self._card_value_score(table, kind, value, i)
            for i, (kind, value, _) in enumerate(table.hand)
        ]
        if len(scores) < 2:
            return None
        best = max(range(1, len(scores)), key=scores.__getitem__)
        return best if scores[best] >= scores[0] + 300 else None

    def _front(self, table: Table, legal: list[int]) -> int:
        index = self._better_front(table)
        if index is None:
            return legal[0]
        kind, value, _ = table.hand[index]
        return next((c for c in legal if S.VALUE[c] == value and S.KIND[c] == kind), legal[0])
