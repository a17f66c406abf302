"""A scripted Spirit Island bot: each Spirit of the team plays it from its own observation.

Strategy
--------
*Reading the island.* The bot decodes ``SCHEMA.decode(observation)`` and the action mask,
nothing else. The boards in play are recognised from the lands' terrains (each board's
sequence of 8 terrains is its own), which gives the neighbours and distances from the public
board data. The Invader cards in the Ravage and Build slots say which lands the Invaders hit
next, so every land gets a *threat*: a Ravage that would deal 2 or more Damage after Defend
(Blight, a cascade where Blight already lies, Presence and Dahan lost) weighs most, then the
Damage itself, then a Build where Invaders stand, then the Towns and Cities there.

*Coordinating.* Every Spirit sees the whole table, so the team's choices follow one shared
picture: a Power goes to the land with the highest threat it can reach, and a land already
Defended or emptied scores less for the next Spirit, so two Spirits do not spend two Powers
on one land while another Blights.

*Growing.* Reclaim when the hand has fewer than two playable cards and the discard has some;
otherwise add Presence early (more Energy or card plays, more reach) and gain Powers when
the hand runs thin; the track taken is the one whose next space gives more. Presence goes
where it reaches the most threatened lands, stacking into Sacred Sites, away from lands
about to be Blighted.

*Powers.* Cards are valued by what their effect does (Damage, destroy, Defend, Fear, Blight
removed...) against their cost; the bot plays the best affordable ones up to its card plays,
always uses its Powers (skipping only when nothing useful is left), keeps the best of 4
drawn cards and forgets the weakest. Damage goes where it destroys the most dangerous
Invader; pushed Invaders go to the quietest neighbour; Blight cascades into the land that
matters least.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from tabletop_envs.agents.base import SeededAgent

from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.effect_language import nested_effects
from tabletop_envs.spirit_island.observer import SCHEMA
from tabletop_envs.spirit_island.spec import (
    CARDS,
    COASTAL,
    DAHAN_KINDS,
    INVADER_CARDS,
    INVADER_DAMAGE,
    INVADER_KINDS,
    LAYOUT,
    MAX_CARDS,
    PIECE_STOP,
    POWER_PASS,
    PURPOSE_NAMES,
    Decision,
)

BOARD_OF_TERRAINS = {board.terrain: name for name, board in spec.BOARDS.items()}
HEALTH = {k: spec.HEALTH[k] for k in INVADER_KINDS}
DANGER = {k: INVADER_DAMAGE[k] + spec.FEAR_OF.get(k, 0) for k in INVADER_KINDS}
OP_VALUE = {
    "damage": 1.5,
    "damage_each": 2.5,
    "destroy": 2.0,
    "remove": 1.5,
    "push": 0.8,
    "gather": 0.5,
    "add": 0.0,
    "remove_blight": 2.5,
    "defend": 0.6,
    "fear": 1.0,
    "energy": 0.8,
    "isolate": 1.0,
    "skip": 2.0,
    "dahan_damage": 2.0,
    "hasten": 1.0,
    "repeat": 1.0,
    "repeat_paid": 1.0,
    "spare_dahan": 1.0,
    "dahan_strike": 2.0,
    "invaders_fight": 2.0,
    "remove_health": 1.0,
    "push_spread": 0.8,
    "add_presence": 1.5,
    "restore_presence": 1.5,
    "gain_minor": 1.5,
    "gain_elements": 0.5,
    "range_bonus": 0.5,
    "keep_played": 0.5,
    "no_city_build": 0.5,
    "forget": -2.0,
    "destroy_presence": -2.0,
}
NESTED_WEIGHT = {"if": 0.6, "choose": 0.6, "per": 1.5, "per_adjacent": 1.0, "each_adjacent": 2.0}
"""How much a nested effect counts: a condition or a choice about half, a "per piece" effect
about as often as such pieces stand there, an effect in every neighbour about twice."""


def effect_value(ops: tuple[Any, ...]) -> float:
    """A rough worth of an effect: each operation by its kind, counts included; an effect
    nested in another (a condition, a choice, once per piece, in other lands) by a weight."""
    total = 0.0
    for op in ops:
        name = op[0]
        nested = nested_effects(op)
        if nested:
            weight = NESTED_WEIGHT.get(name, 0.8)
            if name == "choose":
                total += weight * max(effect_value(n) for n in nested) / 0.6
            else:
                total += weight * sum(effect_value(n) for n in nested)
            total += OP_VALUE.get(name, 0.0)
            continue
        value = OP_VALUE.get(name, 0.3)
        count = next((a for a in op[1:] if isinstance(a, int) and not isinstance(a, bool)), 1)
        total += value * min(count, 5)
        if name == "add" and op[1] == spec.BLIGHT:
            total -= 3.0
        if name == "add" and op[1] in INVADER_KINDS:
            total -= 1.0 * min(count, 5)
        if name == "add" and op[1] in DAHAN_KINDS:
            total += 0.8 * min(count, 5)
        if name in ("destroy", "remove") and set(op[1]) <= set(DAHAN_KINDS):
            total -= (value + 1.5) * min(count, 5)  # Dahan lost, not Invaders
    return total


CARD_VALUE = [effect_value(card.effect) - 0.4 * card.cost for card in CARDS]
DEFENSIVE = {"defend", "skip", "isolate", "spare_dahan"}


def ops_named(ops: tuple[Any, ...]) -> set[str]:
    names = set()
    for op in ops:
        names.add(op[0])
        for arg in op[1:]:
            if (
                isinstance(arg, tuple)
                and arg
                and isinstance(arg[0], tuple)
                and arg[0]
                and isinstance(arg[0][0], str)
            ):
                names |= ops_named(arg)
    return names


class SpiritIslandHeuristicAgent(SeededAgent):
    """Defends the lands about to Ravage, keeps Blight off, earns Fear, grows sensibly."""

    name = "spirit_island_heuristic"

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        mask = observation["action_mask"]
        f = SCHEMA.decode(observation["observation"])
        decision = int(f["decision"].argmax())
        segment = LAYOUT.segment_of(decision)
        legal = [int(a) - segment.offset for a in np.flatnonzero(mask)]
        if not legal:
            raise ValueError(f"{agent} has no legal action")
        me = int(agent.rsplit("_", 1)[1])
        choice = Turn(f, me).choose(decision, legal)
        return segment.offset + (choice if choice in legal else legal[0])


class Turn:
    """One decision's reading of the observation."""

    def __init__(self, f: Mapping[str, np.ndarray], me: int) -> None:
        self.f = f
        self.me = me
        self.n = int(f["spirit"].any(axis=1).sum())
        self.lands = [x for x in range(spec.MAX_LANDS) if f["in_play"][x]]
        terrains = [int(f["terrain"][x].argmax()) for x in self.lands]
        boards = tuple(
            BOARD_OF_TERRAINS[tuple(terrains[8 * b : 8 * b + 8])]
            for b in range(len(self.lands) // 8)
        )
        self.island = spec.island_of(boards)
        self.pieces = f["pieces"].astype(int)
        self.purpose = PURPOSE_NAMES[int(f["purpose"].argmax())]
        self.threat = [self.land_threat(x) for x in self.lands]

    # ----- the island -------------------------------------------------------------------
    def slot_lands(self, slot: int) -> set[int]:
        row = self.f["invader_slots"][slot]
        if not row.any():
            return set()
        card = INVADER_CARDS[int(row.argmax())]
        if card.terrains == (COASTAL,):
            return {x for x in self.lands if self.island.coastal[x]}
        return {x for x in self.lands if self.island.terrain[x] in card.terrains}

    def ravage_damage(self, land: int) -> int:
        row = self.pieces[land]
        damage = sum(INVADER_DAMAGE[k] * row[k] for k in INVADER_KINDS)
        return max(0, damage - int(self.f["defend"][land]))

    def land_threat(self, land: int) -> float:
        row = self.pieces[land]
        invaders = sum(row[k] for k in INVADER_KINDS)
        if not invaders:
            return 0.0
        flags = self.f["turn_flags"][land]
        threat = 0.3 * invaders + 0.5 * (row[spec.TOWN] + row[spec.TOWN_1]) + row[spec.CITY]
        if land in self.slot_lands(0) and not flags[0]:
            damage = self.ravage_damage(land)
            threat += damage
            if damage >= 2:
                presence = self.f["presence"][:, land].sum()
                threat += 6 + 4 * (row[spec.BLIGHT] > 0) + 2 * presence
                threat += sum(row[k] for k in DAHAN_KINDS)
        if land in self.slot_lands(1) and not flags[1]:
            threat += 2
        return threat

    def arrival_risk(self, land: int) -> float:
        """How much an Invader pushed into ``land`` would add to the danger there."""
        row = self.pieces[land]
        risk = self.land_threat(land) + 0.5 * sum(row[k] for k in INVADER_KINDS)
        if land in self.slot_lands(0):
            risk += 4 + 2 * (row[spec.BLIGHT] > 0) + self.f["presence"][:, land].sum()
        if land in self.slot_lands(1):
            risk += 2
        return risk - 0.3 * sum(row[k] for k in DAHAN_KINDS)

    def my_presence(self) -> np.ndarray:
        return self.f["presence"][0]

    def near(self, land: int, distance: int) -> list[int]:
        return [x for x in self.lands if self.island.distance[land][x] <= distance]

    # ----- decisions ----------------------------------------------------------------------
    def choose(self, decision: int, legal: list[int]) -> int:
        p = self.purpose
        if decision == Decision.GROWTH:
            return self.growth(legal)
        if decision == Decision.TRACK:
            return self.track(legal)
        if decision == Decision.LAND:
            return self.land(legal)
        if decision == Decision.CARD:
            if p == "play":
                return self.play(legal)
            if p == "forget":
                return min(legal, key=lambda c: CARD_VALUE[c] if c < len(CARDS) else 99)
            return max(legal, key=lambda c: CARD_VALUE[c] if c < len(CARDS) else -99)
        if decision == Decision.POWER:
            return self.power(legal)
        if decision == Decision.DECK:
            energy = int(self.f["energy"][0])
            return 1 if 1 in legal and energy >= 5 else legal[0]
        if decision == Decision.KEEP:
            drawn = self.f["drawn"]
            values = [CARD_VALUE[int(drawn[i].argmax())] if drawn[i].any() else -99 for i in legal]
            return legal[int(np.argmax(values))]
        if decision == Decision.PIECE:
            return self.piece(legal)
        if decision == Decision.SPIRIT:
            return self.me if self.me in legal else legal[0]
        return legal[0]  # GROWTH_STEP (any order), CHOICE (the first effect)

    def growth(self, legal: list[int]) -> int:
        spirit = spec.SPIRITS[int(self.f["spirit"][0].argmax())]
        hand = [c for c in np.flatnonzero(self.f["hand"][0]) if c < len(CARDS)]
        energy = int(self.f["energy"][0])
        playable = [c for c in hand if CARDS[c].cost <= energy + 3]
        discard = int(self.f["discard"][0].sum())
        turn = int(self.f["turn"][0])
        scores = []
        for group in legal:
            score = 0.0
            for action, amount in spirit.growth[group]:
                if action == "reclaim_all":
                    score += 4.0 if len(playable) < 2 and discard >= 2 else -1.0
                elif action == "gain_card":
                    score += 2.5 if len(hand) < 4 else 1.0
                elif action == "energy":
                    score += 0.5 * amount
                elif action == "presence":
                    score += (2.0 if turn < 8 else 0.8) + 0.1 * amount
            scores.append(score)
        return legal[int(np.argmax(scores))]

    def track(self, legal: list[int]) -> int:
        spirit = spec.SPIRITS[int(self.f["spirit"][0].argmax())]
        energy_at = int(self.f["energy_track"][0])
        card_at = int(self.f["card_track"][0])

        def gain(track: tuple[int, ...], at: int, weight: float) -> float:
            if at + 1 >= len(track):
                return -1.0
            return weight * (max(track[at + 1], 0) - max(track[at], 0)) + 0.1

        scores = {
            0: gain(spirit.energy_track, energy_at, 1.0),
            1: gain(spirit.card_track, card_at, 1.6),
        }
        return max(legal, key=lambda t: scores.get(t, -9))

    def land(self, legal: list[int]) -> int:
        p = self.purpose
        threat = dict(zip(self.lands, self.threat, strict=True))
        context = int(self.f["context_land"].argmax()) if self.f["context_land"].any() else -1
        if p == "presence_land":
            mine = self.my_presence()

            reach = {y for z in self.lands if mine[z] for y in self.near(z, 1)}
            sacred = sum(1 for z in self.lands if mine[z] >= 2)

            def presence_score(x: int) -> float:
                new = [y for y in self.near(x, 1) if y not in reach]
                score = sum(threat[y] for y in self.near(x, 1)) * 0.3 + 0.8 * len(new)
                score += 1.5 if mine[x] == 1 and sacred < 2 else 0.0  # a new Sacred Site
                score -= 1.0 * max(0, mine[x] - 1)
                danger = x in self.slot_lands(0) and self.ravage_damage(x) >= 2
                return score - (8 if danger else 0) - 2 * (self.pieces[x][spec.BLIGHT] > 0)

            return max(legal, key=presence_score)
        if p == "target_land":
            return self.target(legal)
        if p == "push_dest" or (p == "push_then_dest" and not self.moving_dahan()):
            return min(legal, key=self.arrival_risk)
        if p in ("push_then_dest", "restore_land"):  # Dahan (and their Defend) to the threat
            return max(legal, key=lambda x: threat[x])
        if p == "gather_source":
            kinds = self.f["context_kinds"]
            if kinds[spec.DAHAN] or kinds[spec.DAHAN_1]:
                return min(legal, key=lambda x: threat[x])
            return max(legal, key=lambda x: threat[x])
        if p == "cascade":
            return min(
                legal,
                key=lambda x: (
                    self.pieces[x][spec.BLIGHT] > 0,
                    self.f["presence"][:, x].sum(),
                    threat[x],
                ),
            )
        if p == "destroy_presence":
            mine = self.my_presence()
            return max(legal, key=lambda x: (mine[x] if mine[x] != 2 else 0.5, -threat[x]))
        if p in ("spirit_land",):
            return max(legal, key=lambda x: threat[x])
        if p == "presence_source":
            return min(legal, key=lambda x: threat[x])
        del context
        return legal[0]

    def moving_dahan(self) -> bool:
        """Whether the pending push moves a Dahan (the piece chosen, in the context)."""
        kinds = self.f["context_kinds"]
        return bool(kinds[spec.DAHAN] or kinds[spec.DAHAN_1])

    def target(self, legal: list[int]) -> int:
        power = int(self.f["context_power"].argmax())
        spirit = spec.SPIRITS[int(self.f["spirit"][0].argmax())]
        if power < MAX_CARDS:
            effect = CARDS[power].effect
        else:
            innate = spirit.innates[power - MAX_CARDS]
            effect = tuple(op for tier in innate.tiers for op in tier[2])
        names = ops_named(effect)
        threat = dict(zip(self.lands, self.threat, strict=True))

        offensive = names & {
            "damage",
            "damage_each",
            "destroy",
            "remove",
            "push",
            "push_spread",
            "dahan_damage",
            "dahan_strike",
            "invaders_fight",
            "remove_health",
        }

        def score(x: int) -> float:
            row = self.pieces[x]
            value = threat[x]
            invaders = sum(row[k] for k in INVADER_KINDS)
            if offensive and not invaders:
                value -= 5
            if "defend" in names and x in self.slot_lands(0):
                value += min(self.ravage_damage(x), 4)
            ravaging = x in self.slot_lands(0) and not self.f["turn_flags"][x][0]
            if offensive and ravaging and 2 <= self.ravage_damage(x) <= 3:
                value += 4  # a little Damage or a push may keep the Blight off
            if "remove_blight" in names:
                value += 5 * (row[spec.BLIGHT] > 0)
            if "gather" in names and not any(row[k] for k in INVADER_KINDS):
                value -= 1
            if names & DEFENSIVE and not (x in self.slot_lands(0) or x in self.slot_lands(1)):
                value -= 3
            if "add" in names and self.f["presence"][:, x].sum():
                value -= 1
            return value

        return max(legal, key=score)

    def play(self, legal: list[int]) -> int:
        cards = [c for c in legal if c < len(CARDS)]
        if not cards:
            return legal[-1]
        best = max(cards, key=lambda c: CARD_VALUE[c])
        return best if CARD_VALUE[best] > -0.5 else spec.CARD_DONE

    def power(self, legal: list[int]) -> int:
        powers = [o for o in legal if o != POWER_PASS]
        if not powers:
            return POWER_PASS

        def value(o: int) -> float:
            if o >= MAX_CARDS:
                return 5.0
            return CARD_VALUE[o] + (2 if ops_named(CARDS[o].effect) & DEFENSIVE else 0)

        return max(powers, key=value)

    def piece(self, legal: list[int]) -> int:
        p = self.purpose
        options = [k for k in legal if k != PIECE_STOP]
        if not options:
            return legal[0]
        if p == "damage":
            left = int(self.f["context_count"][0])
            invaders = [k for k in options if k in HEALTH]
            if not invaders:
                return options[0]
            killable = [k for k in invaders if HEALTH[k] <= left]
            if killable:
                return max(killable, key=lambda k: (DANGER[k], -HEALTH[k]))
            return max(invaders, key=lambda k: (DANGER[k], -HEALTH[k]))
        if p == "damage_of":
            return max(options, key=lambda k: (HEALTH.get(k, 9) <= 1, DANGER.get(k, 0)))
        if p in ("destroy", "remove", "push_piece", "push_then_piece"):
            return max(options, key=lambda k: DANGER.get(k, 0))
        if p == "gather_piece":
            return options[0]
        return options[0]
