"""A scripted Spirit Island bot: each Spirit of the team plays it from its own observation.

Strategy
--------
*Reading the island.* The bot decodes the observation (``SCHEMA.decode_lazy``: the fields it
reads) and the action mask, nothing else (in a search's rollouts,
:meth:`~SpiritIslandHeuristicAgent.act_in` reads the same numbers from the world before they
are scaled). The boards in play are recognised from the
lands' terrains (each board's sequence of 8 terrains is its own), which gives the neighbours
and distances from the public board data. The Invader cards in the Ravage and Build slots say
which lands the Invaders hit next.

*Planning against the next Invader Phase.* Every land has a *loss*: what the next Invader
Phase will cost there, played out on the bot's own copy of the land (:meth:`Turn.loss`). A
Ravage that deals 2 or more Damage after Defend adds Blight (more where Blight already lies:
the cascade; more where Presence would be destroyed), kills Dahan, and the surviving Dahan
strike back; a Build adds a Town or a City where Invaders are left; a land about to Build
will Ravage the turn after. The Invaders left standing count too (a City most, an Explorer
least). Fast Powers act before this turn's Invader Phase and Slow ones after it, so a card
being chosen is judged against the Invader Phase it will meet: a Slow card against next
turn's (the lands of the Build card Ravage then, with the Town or City they Build now).

*Spending Powers where they stop Blight or earn Fear.* A Power's worth in a land is the loss
it takes away, played out on the copy of the land (:meth:`Turn.simulate`: Damage spent where
it destroys the most, Invaders pushed out, Defend, Dahan gathered, Blight removed, a skipped
Ravage or Build), plus the Fear it earns (a Town 1, a City 2, the card's own Fear). So Damage
that brings a Ravage under 2 is worth a Blight; Explorers cleared from a land about to Build
are worth the Town they would have built; Towns and Cities destroyed earn Fear.

*Playing cards.* Each card in hand is valued by its best land in reach (or by what it gives a
Spirit), less its Energy cost, plus the innate Power tier its Elements unlock; the bot plays
the best affordable cards up to its card plays and keeps the rest.

*Co-ordinating the team.* Every Spirit sees the whole table. Before valuing its own cards, a
Spirit plays out on its copy of the island the Powers the team has already played and not yet
used, each in its best land, so a land another Spirit will save is worth little and the next
Spirit covers another. A Power that gives another Spirit 1 Energy per card it played goes
to the teammate who played the most cards (2 or more), else to ourselves.

*Playing for the Terror Level's victory.* Once the Terror Level is 2 every Town and City left
stands between the team and a win (at 3 every City): each weighs more the fewer are left, and
a Power that takes the last one off the island wins at once, worth more than anything else.

*Using Powers.* The Power used first is the one worth most now; each goes to its best legal
land; pieces are damaged, destroyed and pushed where the loss falls most, pushed Invaders go
where they do least harm, pushed or gathered Dahan go where they fight, Blight cascades into
the land that matters least. A choice between effects takes the one worth more in the land
asked about (the observation does not name the card asking, so the choices of the Powers used
this turn and of the Fear cards resolved are weighed together).

*Growing.* Presence early (more Energy and card plays, more reach), a new Power card when the
hand is thin, Reclaim when fewer than two playable cards are left; the track taken is the one
whose next space gives more. Presence goes where it reaches the most loss not yet covered,
stacking into Sacred Sites, away from lands about to be Blighted. Minor Powers are kept for
their worth and for the Elements of the Spirit's innate Power.

*Keeping what is asked again.* A choice is a function of the view and the legal actions, so
what the bot works out is kept where later decisions ask for it again: the island's reading
(its lands, the lands each Invader card names, the lands within reach of a Spirit's Presence)
per island; each Power's gain in a land by its arguments and the reading of the island it
depends on (``GAINS``); and, in a search's rollouts (``act_in``), each choice by its view,
which the search's sampled worlds share until something hidden is revealed. None of it
changes a choice (``test_what_the_bot_keeps_between_decisions_changes_no_choice``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import mul
from typing import Any

import numpy as np
from tabletop_envs.agents.base import SeededAgent

from tabletop_envs.core.cache import BoundedCache
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.effect_language import nested_effects
from tabletop_envs.spirit_island.observer import SCHEMA, unscaled_observation
from tabletop_envs.spirit_island.rules import SpiritIslandGame
from tabletop_envs.spirit_island.spec import (
    BLIGHT,
    CARDS,
    CITY,
    CITY_1,
    CITY_2,
    CITY_KINDS,
    COASTAL,
    DAHAN,
    DAHAN_1,
    DAHAN_KINDS,
    EXPLORER,
    INVADER_CARDS,
    INVADER_DAMAGE,
    INVADER_KINDS,
    LAYOUT,
    MAX_CARDS,
    PIECE_STOP,
    POWER_PASS,
    PURPOSE_NAMES,
    TOWN,
    TOWN_1,
    TOWN_KINDS,
    Decision,
)

BOARD_OF_TERRAINS = {board.terrain: name for name, board in spec.BOARDS.items()}
HEALTH = {k: spec.HEALTH[k] for k in INVADER_KINDS}
DANGER = {k: INVADER_DAMAGE[k] + spec.FEAR_OF.get(k, 0) for k in INVADER_KINDS}
BUILDINGS = TOWN_KINDS + CITY_KINDS
if tuple(range(len(INVADER_KINDS))) != INVADER_KINDS:
    raise AssertionError("the land play-out reads a row's Invaders as its first entries")
DAMAGE_ROW = tuple(INVADER_DAMAGE[k] for k in INVADER_KINDS)
"""Each Invader kind's Damage, in the order of a row's first entries."""

# ----- what the team loses and gains, in one currency --------------------------------------
BLIGHT_COST = 10.0
"""A Blight added to a land (the Blight card runs out after a few)."""
CASCADE_COST = 9.0
"""The Blight a cascade adds besides, where Blight already lies."""
PRESENCE_COST = 4.0
"""A Presence destroyed by Blight."""
DAHAN_COST = 1.2
"""A Dahan killed."""
BUILD_COST = {False: 3.5, True: 5.0}
"""A Build: a Town (False) or a City (True)."""
NEXT_RAVAGE = 0.45
"""The share of a Blight counted for a land that will Ravage the turn after (the team may
still act there)."""
HARDER = 0.2
"""Per point of Damage a land due to Ravage next turn will deal: the harder it is to save."""
STANDING = {EXPLORER: 0.8, TOWN: 2.2, TOWN_1: 2.2, CITY: 4.0, CITY_1: 4.0, CITY_2: 4.0}
"""Each Invader left on the island: the harm it will do later."""
FEAR_VALUE = 1.6
"""One Fear."""
ENERGY_VALUE = 0.7
"""One Energy."""
BLIGHT_REMOVED = 7.0
"""One Blight back on the card."""
EXTRA_VALUE = {
    "energy": ENERGY_VALUE,
    "isolate": 0.5,
    "hasten": 1.5,
    "repeat": 2.0,
    "repeat_paid": 1.5,
    "gain_minor": 2.0,
    "gain_elements": 0.8,
    "range_bonus": 0.5,
    "keep_played": 0.8,
    "add_presence": 2.0,
    "restore_presence": 2.0,
    "forget": -3.0,
    "destroy_presence": -4.0,
    "energy_per_card": 1.0,
    "spare_dahan": 0.8,
    "no_city_build": 0.8,
    "invaders_fight": 3.0,
    "dahan_strike": 2.0,
    "each_adjacent": 3.0,
    "per_adjacent": 2.0,
    "adjacent": 2.0,
    "board_lands": 3.0,
    "land_in_range": 2.0,
    "move_to_land": 1.0,
    "target_lands": 2.0,
    "own_land": 1.0,
    "push_spread": 2.0,
    "push_then": 1.5,
    "remove_health": 2.5,
    "gather_presence": 0.5,
    "each_spirit": 0.0,
    "spirit_land": 1.0,
    "pick_land": 1.5,
    "you": 0.5,
}
"""A rough worth of operations the land play-out does not follow."""
PUSH_LEAK = 0.7
"""The share of a pushed Invader's standing harm that goes with it to the next land."""
GROW_PRESENCE = 3.0
"""A Presence added in the first turns (its track's next space, more reach)."""
GROW_CARD = 2.5
"""A Power card gained while the Spirit holds fewer than 6."""
PLAY_THRESHOLD = 0.6
"""The least a card must be worth, its cost paid, to be played rather than kept."""
VICTORY_WEIGHT = 25.0
"""Shared out (over 1 + how many are left) to the standing harm of the Invaders the Terror
Level's victory needs gone."""
WIN_VALUE = 100.0
"""A Power that wins the game at once."""
MAX_KILL_PIECES = 8
"""The most pieces of a land the Damage split looks at."""


# ----- static card worth (keeping, forgetting, reclaiming) --------------------------------
OP_VALUE = {
    "damage": 1.5,
    "damage_each": 2.5,
    "destroy": 2.0,
    "remove": 1.5,
    "push": 0.8,
    "gather": 0.5,
    "remove_blight": 2.5,
    "defend": 0.6,
    "fear": 1.2,
    "skip": 2.0,
    "dahan_damage": 2.0,
    **{name: value / 1.5 for name, value in EXTRA_VALUE.items()},
}
NESTED_WEIGHT = {"if": 0.6, "choose": 0.6, "per": 1.5, "per_adjacent": 1.0, "each_adjacent": 2.0}
"""How much a nested effect counts: a condition or a choice about half, a "per piece" effect
about as often as such pieces stand there, an effect in every neighbour about twice."""


def effect_value(ops: tuple[Any, ...]) -> float:
    """A rough worth of an effect out of context: each operation by its kind, counts included;
    an effect nested in another by a weight."""
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
        if name == "add" and op[1] == BLIGHT:
            total -= 3.0
        if name == "add" and op[1] in INVADER_KINDS:
            total -= 1.0 * min(count, 5)
        if name == "add" and op[1] in DAHAN_KINDS:
            total += 0.8 * min(count, 5)
        if name in ("destroy", "remove") and set(op[1]) <= set(DAHAN_KINDS):
            total -= (value + 1.5) * min(count, 5)  # Dahan lost, not Invaders
    return total


CARD_VALUE = [effect_value(card.effect) - 0.4 * card.cost for card in CARDS]


def ops_named(ops: tuple[Any, ...]) -> set[str]:
    """The names of every operation of an effect, nested ones too."""
    names = set()
    for op in ops:
        names.add(op[0])
        for nested in nested_effects(op):
            names |= ops_named(nested)
    return names


def flat_ops(ops: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Every operation of an effect, nested ones too."""
    found = list(ops)
    for op in ops:
        for nested in nested_effects(op):
            found += flat_ops(nested)
    return found


ANSWERS_KEPT = 1024
"""The most views :meth:`SpiritIslandHeuristicAgent.act_in` keeps its choices for (about
14 kB each; a 1-player search of ``pimc:4,guide=heuristic`` meets about 220 views); it forgets
them all when it would keep more."""


class SpiritIslandHeuristicAgent(SeededAgent):
    """Plans each turn against the Ravage and Build cards; see the module docstring."""

    name = "spirit_island_heuristic"

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        fields = SCHEMA.decode_lazy(observation["observation"])
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        if not legal:
            raise ValueError(f"{agent} has no legal action")
        return answer(fields, legal, int(agent.rsplit("_", 1)[1]))

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.answers: dict[tuple[int, bytes, tuple[int, ...]], int] = {}
        """:meth:`act_in`'s choices by (seat, observation, legal options): a search's worlds
        differ only in what no seat sees until it is revealed, so their rollouts meet the same
        views again."""

    def act_in(self, game: SpiritIslandGame, seat: int) -> int:
        """:meth:`act` for ``seat`` reading ``game`` itself (a search's world): the numbers of
        its observation before they are scaled, so the same choice without the decoding. The
        choice is a function of the view and the legal actions, so it is kept for the next
        time they are met (the last ``ANSWERS_KEPT`` views; keyed by the pending decision's
        options, which the view's decision kind turns into the legal actions)."""
        vector = unscaled_observation(game, seat)
        key = (seat, vector.tobytes(), tuple(game.legal_options()))
        choice = self.answers.get(key)
        if choice is None:
            if len(self.answers) >= ANSWERS_KEPT:
                self.answers.clear()
            legal = game.legal_actions()
            choice = answer(SCHEMA.decode_unscaled_lazy(vector), legal, seat)
            self.answers[key] = choice
        return choice


def answer(f: Mapping[str, np.ndarray], legal_actions: list[int], me: int) -> int:
    """The action seat ``me`` plays, given its view's fields and its legal actions."""
    decision = int(f["decision"].argmax())
    segment = LAYOUT.segment_of(decision)
    legal = [action - segment.offset for action in legal_actions]
    choice = Turn(f, me).choose(decision, legal)
    return segment.offset + (choice if choice in legal else legal[0])


def strength(row: list[int]) -> int:
    """The Damage the Invaders of ``row`` deal."""
    return sum(map(mul, DAMAGE_ROW, row))


def has_invaders(row: list[int]) -> bool:
    return any(row[: len(INVADER_KINDS)])


class Plan:
    """A copy of the island's lands that Powers are played out on."""

    def __init__(self, rows: list[list[int]], defend: list[int], skips: list[list[int]]) -> None:
        self.rows = rows
        self.defend = defend
        self.skips = skips

    def copy(self) -> Plan:
        return Plan([r[:] for r in self.rows], self.defend[:], [s[:] for s in self.skips])


REACHES_KEPT = 4096
"""The most reaches an :class:`IslandReading` keeps (it forgets them all when it would keep
more)."""


class IslandReading:
    """What the lands in play and their terrains say, the same for every decision of a game:
    the lands, their island (the boards recognised by their terrains) and the lands each
    Invader card names."""

    def __init__(self, in_play: np.ndarray, terrain: np.ndarray) -> None:
        self.lands: list[int] = np.flatnonzero(in_play).tolist()
        terrains = terrain[self.lands].argmax(axis=1).tolist()
        boards = tuple(
            BOARD_OF_TERRAINS[tuple(terrains[8 * b : 8 * b + 8])]
            for b in range(len(self.lands) // 8)
        )
        self.island = spec.island_of(boards)
        self.index = {x: i for i, x in enumerate(self.lands)}
        prefix = self.lands == list(range(len(self.lands)))
        self.rows: slice | list[int] = slice(0, len(self.lands)) if prefix else self.lands
        """The rows of the per-land fields that are the lands in play."""
        self.card_lands: dict[int, frozenset[int]] = {}
        self.nearby: dict[tuple[int, int], frozenset[int]] = {}
        self.in_range: BoundedCache[tuple[Any, ...], list[int]] = BoundedCache(None, REACHES_KEPT)
        """The lands within a distance of a Spirit's sources (:meth:`Turn.lands_in_range`) by
        (its Presence, whether its Wetlands count as Sacred Sites for a Power from Sacred
        Sites, from Sacred Sites, the source terrain, the distance)."""

    def near(self, land: int, distance: int) -> frozenset[int]:
        """The lands within ``distance`` of ``land``."""
        key = (land, distance)
        if key not in self.nearby:
            row = self.island.distance[land]
            self.nearby[key] = frozenset(x for x in self.lands if row[x] <= distance)
        return self.nearby[key]

    @classmethod
    def of(cls, f: Mapping[str, np.ndarray]) -> IslandReading:
        key = f["in_play"].tobytes() + f["terrain"].tobytes()
        reading = READINGS.get(key)
        if reading is None:
            reading = READINGS[key] = cls(f["in_play"], f["terrain"])
        return reading

    def slot_lands(self, slot: list[int]) -> frozenset[int]:
        """The lands the Invader card in a slot (its one-hot row) names."""
        if not any(slot):
            return frozenset()
        card = slot.index(max(slot))
        if card not in self.card_lands:
            self.card_lands[card] = self.lands_of(INVADER_CARDS[card])
        return self.card_lands[card]

    def lands_of(self, card: spec.InvaderCard) -> frozenset[int]:
        if card.terrains == (COASTAL,):
            return frozenset(x for x in self.lands if self.island.coastal[x])
        return frozenset(x for x in self.lands if self.island.terrain[x] in card.terrains)


READINGS: dict[bytes, IslandReading] = {}
"""Island readings made so far, by the bytes of the ``in_play`` and ``terrain`` fields (a few
islands: the boards in play)."""


GAINS: dict[tuple[Any, ...], dict[tuple[Any, ...], tuple[float, bool]]] = {}
"""Land gains (:meth:`Turn.land_gain`) by the context they depend on besides their arguments:
the island, the Invader cards' lands, the standing harm, the team's Presence and Spirits, our
Elements, the Terror Level and the Dahan of every land (a gathering reads its neighbours).
Successive decisions of a turn, and a search's rollouts from one position, meet the same
contexts again."""
GAIN_CONTEXTS = 1024
"""The most contexts :data:`GAINS` keeps (it is emptied when it would hold more)."""


def gains_in(context: tuple[Any, ...]) -> dict[tuple[Any, ...], tuple[float, bool]]:
    """The land gains known in ``context`` (a new table for a new context)."""
    known = GAINS.get(context)
    if known is None:
        if len(GAINS) >= GAIN_CONTEXTS:
            GAINS.clear()
        known = GAINS[context] = {}
    return known


class Turn:
    """One decision's reading of the observation (row 0 of every per-seat field is us)."""

    def __init__(self, f: Mapping[str, np.ndarray], me: int = 0) -> None:
        self.f = f
        self.me = me
        spirit_rows = f["spirit"].tolist()
        self.n = sum(map(any, spirit_rows))
        self.reading = reading = IslandReading.of(f)
        self.lands, self.island = reading.lands, reading.island
        self.index = reading.index
        """Each land's row in :attr:`plan`."""
        self.purpose = PURPOSE_NAMES[int(f["purpose"].argmax())]
        self.spirits = [spec.SPIRITS[row.index(max(row))] for row in spirit_rows[: self.n]]
        self.spirit = self.spirits[0]
        self.presence = f["presence"][: self.n].tolist()
        self.presence_at = (
            self.presence[0][:] if self.n == 1 else list(map(sum, zip(*self.presence, strict=True)))
        )
        """The team's Presence in each land."""
        slots = f["invader_slots"].tolist()
        self.ravage = reading.slot_lands(slots[0])
        self.build = reading.slot_lands(slots[1])
        self.elements = f["elements"][0].tolist()
        self.plan = Plan(
            f["pieces"][reading.rows].tolist(),
            f["defend"][: len(self.lands)].tolist(),
            f["turn_flags"][reading.rows].tolist(),
        )
        vital = [r for r in range(self.n) if self.spirits[r].special == "vitality"]
        self.vitality = (
            [3 * sum(1 for r in vital if self.sacred(r, x)) for x in self.lands]
            if vital
            else [0] * len(self.lands)
        )
        self.turn = int(f["turn"][0])
        self.after_invaders = int(f["invader_deck_size"][0]) == 11 - self.turn
        """Whether this turn's Invader Phase is over (the Slow phase or Time Passes)."""
        earned = int(f["fear_earned"][0]) + sum(f["fear_discard"].tolist())
        self.terror = 1 + sum(earned >= d for d in spec.TERROR_DIVIDERS)
        self.standing = dict(STANDING)
        """Each Invader's standing harm, with its weight in the Terror Level's victory: at Terror
        Level 2 every Town and City stands between the team and a win, at 3 every City; the
        fewer are left, the more each weighs."""
        blocking = BUILDINGS if self.terror == 2 else CITY_KINDS if self.terror == 3 else ()
        left = sum(row[k] for row in self.plan.rows for k in blocking)
        for kind in blocking:
            self.standing[kind] += VICTORY_WEIGHT / (1 + left)
        self.standing_row = [self.standing[k] for k in INVADER_KINDS]
        self.needed = self.victory_kinds()
        self.gains: dict[tuple[Any, ...], tuple[float, bool]] | None = None
        """:meth:`known_gains`, once a gain is asked for."""
        self.reaches: dict[tuple[int, int, int], list[int]] = {}
        """:meth:`reach` by (seat, the Power's id, range)."""
        self.innate_gains: dict[tuple[Any, ...], float] = {}
        """An innate's best gain in :attr:`innate_plan` by (innate, effect, lands)."""
        self.innate_plan: Plan | None = None

    def known_gains(self) -> dict[tuple[Any, ...], tuple[float, bool]]:
        """:meth:`land_gain` by its arguments, shared by the decisions whose reading of the
        island it depends on is the same (``gains_in``'s context); found by the first
        :meth:`gain` (most decisions weigh no Power)."""
        f = self.f
        return gains_in(
            (
                self.reading,
                self.ravage,
                self.build,
                tuple(self.standing_row),
                f["presence"][: self.n].tobytes(),
                f["spirit"][: self.n].tobytes(),
                f["elements"][0].tobytes(),
                self.terror,
                f["pieces"][:, DAHAN].tobytes(),
            )
        )

    # ----- the island ---------------------------------------------------------------------
    def sacred(self, seat: int, land: int) -> bool:
        here = self.presence[seat][land]
        wetland = self.spirits[seat].wetland_sacred and self.island.terrain[land] == spec.W
        return here >= 2 or (here > 0 and wetland)

    def near(self, land: int, distance: int) -> list[int]:
        return [x for x in self.lands if self.island.distance[land][x] <= distance]

    # ----- the next Invader Phase, played out ---------------------------------------------
    def loss(
        self, x: int, row: list[int], defend: int, skips: list[int], slow: bool = False
    ) -> float:
        """What land ``x`` will cost the team, its pieces ``row``: the next Ravage and Build
        there, the Ravage the turn after, and the Invaders left standing. ``slow``: judged
        after this turn's Invader Phase (the Build card's lands Ravage next)."""
        if slow:
            return self.loss_after(x, row, defend, skips)
        ravaged = not skips[0] and x in self.ravage
        built = not skips[1] and x in self.build
        if not (ravaged or built):
            return sum(map(mul, self.standing_row, row))
        row = row[:]
        total = 0.0
        if ravaged:
            total += self.ravage_cost(x, row, defend)
        if built and has_invaders(row):
            city = row[TOWN] + row[TOWN_1] > row[CITY] + row[CITY_1] + row[CITY_2]
            total += BUILD_COST[city]
            row[CITY if city else TOWN] += 1
            damage = strength(row)
            total += NEXT_RAVAGE * self.blight_cost(x, row) * (damage >= 2)
            total += HARDER * damage
        return total + sum(map(mul, self.standing_row, row))

    def loss_after(self, x: int, row: list[int], defend: int, skips: list[int]) -> float:
        """The loss of a Slow Power's land: its Ravage next turn if it is in the Build card's
        terrain now (with the Town or City it builds first), and the Invaders standing."""
        if x not in self.build or not has_invaders(row):
            return sum(map(mul, self.standing_row, row))
        row = row[:]
        city = row[TOWN] + row[TOWN_1] > row[CITY] + row[CITY_1] + row[CITY_2]
        if not skips[1]:
            row[CITY if city else TOWN] += 1
        total = self.ravage_cost(x, row, 0) + HARDER * strength(row)
        return total + sum(map(mul, self.standing_row, row))

    def blight_cost(self, x: int, row: list[int]) -> float:
        cost = BLIGHT_COST + CASCADE_COST * (row[BLIGHT] > 0)
        return cost + PRESENCE_COST * self.presence_at[x]

    def ravage_cost(self, x: int, row: list[int], defend: int) -> float:
        """The Ravage in ``x`` (``row`` is changed to what it leaves): Blight, Dahan killed,
        and the Invaders the surviving Dahan destroy (a gain)."""
        damage = strength(row)
        if not damage:
            return 0.0
        damage = max(0, damage - defend - self.vitality[x])
        total = self.blight_cost(x, row) if damage >= 2 else 0.0
        dahan = row[DAHAN] + row[DAHAN_1]
        killed = min(row[DAHAN_1], damage)
        left = damage - killed
        killed += min(row[DAHAN], left // 2)
        total += DAHAN_COST * killed
        fight = 2 * (dahan - killed)
        if not fight:
            return total
        for kind in (CITY_2, CITY_1, CITY, TOWN_1, TOWN, EXPLORER):
            while row[kind] and fight >= HEALTH[kind]:
                row[kind] -= 1
                fight -= HEALTH[kind]
                total -= FEAR_VALUE * spec.FEAR_OF.get(kind, 0)
        return total

    # ----- a Power played out on a land -------------------------------------------------
    def gain(self, ops: tuple[Any, ...], x: int, plan: Plan, slow: bool, seat: int = 0) -> float:
        """What effect ``ops`` in land ``x`` is worth: the loss it takes away, the Fear it
        earns, and the rough worth of what the play-out does not follow."""
        i = self.index[x]
        row, defend, skips = plan.rows[i], plan.defend[i], plan.skips[i]
        key = (ops, x, slow, seat, tuple(row), defend, tuple(skips))
        gains = self.gains
        if gains is None:
            gains = self.gains = self.known_gains()
        known = gains.get(key)
        if known is None:
            known = gains[key] = self.land_gain(ops, x, row, defend, skips, slow, seat)
        return known[0] + (self.victory_worth(plan, i, slow) if known[1] else 0.0)

    def land_gain(
        self,
        ops: tuple[Any, ...],
        x: int,
        row: list[int],
        defend: int,
        skips: list[int],
        slow: bool,
        seat: int,
    ) -> tuple[float, bool]:
        """:meth:`gain` but the victory: (the loss ``ops`` takes away in land ``x`` and what
        it earns besides, whether it takes the last of the Invaders the Terror Level's victory
        needs gone from there)."""
        before = self.loss(x, row, defend, skips, slow)
        state = [row[:], defend, skips[:], 0.0]
        self.simulate(ops, x, state, slow, seat)
        after = self.loss(x, state[0], state[1], state[2], slow)
        needed = self.needed
        cleared = not any(state[0][k] for k in needed) and any(row[k] for k in needed)
        return before - after + state[3], cleared

    def victory_worth(self, plan: Plan, i: int, slow: bool) -> float:
        """WIN_VALUE when a Power that clears land ``i`` of the Invaders the Terror Level's
        victory needs gone takes the last of them off the island (a Fast Power wins at once; a
        Slow one after the Invader Phase, counted at half)."""
        needed = self.needed
        if not any(r[k] for j, r in enumerate(plan.rows) if j != i for k in needed):
            return WIN_VALUE * (0.5 if slow else 1.0)
        return 0.0

    def victory_kinds(self) -> tuple[int, ...]:
        """The Invaders whose absence wins at this Terror Level."""
        return {1: INVADER_KINDS, 2: BUILDINGS}.get(self.terror, CITY_KINDS)

    def apply(self, ops: tuple[Any, ...], x: int, plan: Plan, slow: bool, seat: int = 0) -> None:
        """Play ``ops`` out in land ``x`` of ``plan`` (for the team's Powers already played)."""
        i = self.index[x]
        state = [plan.rows[i][:], plan.defend[i], plan.skips[i][:], 0.0]
        self.simulate(ops, x, state, slow, seat)
        plan.rows[i], plan.defend[i], plan.skips[i] = state[0], state[1], state[2]

    def simulate(
        self, ops: tuple[Any, ...], x: int, state: list[Any], slow: bool, seat: int
    ) -> None:
        """Carry ``ops`` out on ``state`` = [row, defend, skips, worth besides the loss]."""
        for op in ops:
            self.simulate_op(op, x, state, slow, seat)

    def simulate_op(
        self, op: tuple[Any, ...], x: int, state: list[Any], slow: bool, seat: int
    ) -> None:
        name, row = op[0], state[0]
        if name == "damage":
            self.split_damage(x, state, op[1], slow)
        elif name == "damage_each":
            for kind in (EXPLORER, TOWN_1, TOWN, CITY_2, CITY_1, CITY):
                if kind in op[2]:
                    self.damage_all(state, kind, op[1])
        elif name in ("destroy", "remove"):
            self.take_best(x, state, op[1], 99 if op[2] is None else op[2], slow, name == "destroy")
        elif name == "push":
            kinds = op[1]
            if set(kinds) & set(INVADER_KINDS):
                self.take_best(
                    x,
                    state,
                    tuple(k for k in kinds if k in INVADER_KINDS),
                    op[2],
                    slow,
                    False,
                    PUSH_LEAK,
                )
            elif not op[3]:
                for _ in range(min(op[2], row[DAHAN] + row[DAHAN_1])):
                    row[DAHAN if row[DAHAN] else DAHAN_1] -= 1
        elif name == "gather":
            if set(op[1]) & set(DAHAN_KINDS):
                around = sum(
                    self.plan.rows[self.index[y]][DAHAN] for y in self.island.neighbours[x]
                )
                row[DAHAN] += min(op[2], around)
        elif name == "add":
            if op[1] == BLIGHT:
                state[3] -= self.blight_cost(x, row)
            row[op[1]] += op[2]
        elif name == "remove_blight":
            taken = min(op[1], row[BLIGHT])
            row[BLIGHT] -= taken
            state[3] += BLIGHT_REMOVED * taken
        elif name == "defend":
            state[1] += op[1]
        elif name == "fear":
            state[3] += FEAR_VALUE * op[1]
        elif name == "skip":
            state[2][op[1]] = 1
        elif name == "dahan_damage":
            self.split_damage(x, state, op[1] * (row[DAHAN] + row[DAHAN_1]), slow)
        elif name == "if":
            branch = op[2] if self.holds(op[1], x, row, seat) else op[3]
            self.simulate(branch, x, state, slow, seat)
        elif name == "choose":
            best = None
            for option in op[1:]:
                trial = [state[0][:], state[1], state[2][:], state[3]]
                self.simulate(option, x, trial, slow, seat)
                worth = trial[3] - self.loss(x, trial[0], trial[1], trial[2], slow)
                if best is None or worth > best[0]:
                    best = (worth, trial)
            if best is not None:
                state[:] = best[1]
        elif name == "per":
            for _ in range(min(sum(row[k] for k in op[1]), 4)):
                self.simulate(op[2], x, state, slow, seat)
        elif name == "building_fear":
            self.simulate(op[2], x, state, slow, seat)
        else:
            state[3] += EXTRA_VALUE.get(name, 0.5)

    def holds(self, condition: tuple[Any, ...], x: int, row: list[int], seat: int) -> bool:
        """Whether a condition holds in land ``x`` (pieces ``row``) for seat ``seat``."""
        test = CONDITIONS.get(condition[0])
        return bool(test(self, condition, x, row, seat)) if test else False

    def split_damage(self, x: int, state: list[Any], damage: int, slow: bool) -> None:
        """Spend ``damage`` on the Invaders of ``state`` where it takes the most loss away."""
        row = state[0]
        if damage <= 0 or not any(row[k] for k in INVADER_KINDS):
            return
        kills = self.best_kills(x, state, damage, slow)
        left = damage
        for kind, count in kills.items():
            row[kind] -= count
            left -= HEALTH[kind] * count
            state[3] += FEAR_VALUE * spec.FEAR_OF.get(kind, 0) * count
        for kind in (CITY_2, CITY_1, CITY, TOWN_1, TOWN):
            while left > 0 and row[kind]:
                hurt = spec.DAMAGED[kind]
                if hurt is None:
                    break
                row[kind] -= 1
                row[hurt] += 1
                left -= 1
                kind = hurt

    def best_kills(self, x: int, state: list[Any], damage: int, slow: bool) -> dict[int, int]:
        """The pieces to destroy with ``damage`` that leave the least loss (Fear counted)."""
        row, defend, skips = state[0], state[1], state[2]
        pieces = [k for k in (CITY_2, CITY_1, TOWN_1, CITY, TOWN, EXPLORER) for _ in range(row[k])]
        pieces = pieces[:MAX_KILL_PIECES]
        best: tuple[float, dict[int, int]] = (float("inf"), {})
        seen = set()

        def search(start: int, left: int, chosen: tuple[int, ...]) -> None:
            nonlocal best
            key = tuple(sorted(chosen))
            if key in seen:
                return
            seen.add(key)
            trial = row[:]
            fear = 0.0
            for kind in chosen:
                trial[kind] -= 1
                fear += FEAR_VALUE * spec.FEAR_OF.get(kind, 0)
            worth = self.loss(x, trial, defend, skips, slow) - fear
            if worth < best[0]:
                best = (worth, {k: chosen.count(k) for k in set(chosen)})
            for i in range(start, len(pieces)):
                if HEALTH[pieces[i]] <= left:
                    search(i + 1, left - HEALTH[pieces[i]], (*chosen, pieces[i]))

        search(0, damage, ())
        return best[1]

    @staticmethod
    def damage_all(state: list[Any], kind: int, damage: int) -> None:
        row = state[0]
        count = row[kind]
        if not count:
            return
        row[kind] = 0
        if HEALTH[kind] <= damage:
            state[3] += FEAR_VALUE * spec.FEAR_OF.get(kind, 0) * count
            return
        hurt = kind
        for _ in range(damage):
            hurt = spec.DAMAGED[hurt]
        row[hurt] += count

    def take_best(
        self,
        x: int,
        state: list[Any],
        kinds: tuple[int, ...],
        count: int,
        slow: bool,
        fear: bool,
        leak: float = 0.0,
    ) -> None:
        """Take up to ``count`` pieces of ``kinds`` off the land, each the one whose going
        lowers the loss most (Fear for destroyed Towns and Cities; ``leak``: the share of a
        piece's standing harm that stays on the island, for a push), while that helps."""
        row = state[0]
        for _ in range(count):
            now = self.loss(x, row, state[1], state[2], slow)
            best, taken = 0.0, -1
            for kind in kinds:
                if not row[kind]:
                    continue
                row[kind] -= 1
                worth = now - self.loss(x, row, state[1], state[2], slow)
                row[kind] += 1
                worth += self.piece_bonus(kind, fear) - leak * STANDING.get(kind, 0.0)
                if worth > best:
                    best, taken = worth, kind
            if taken < 0:
                return
            row[taken] -= 1
            state[3] += self.piece_bonus(taken, fear) - leak * STANDING.get(taken, 0.0)

    @staticmethod
    def piece_bonus(kind: int, fear: bool) -> float:
        """Beyond the loss: the Fear a destroyed Town or City earns, a Dahan's worth lost."""
        if kind in DAHAN_KINDS:
            return -(DAHAN_COST + 2.0)
        return FEAR_VALUE * spec.FEAR_OF.get(kind, 0) if fear else 0.0

    # ----- reach ----------------------------------------------------------------------------
    def seat_elements(self, seat: int) -> list[int]:
        """The Elements of the Spirit in row ``seat`` (ours already read; not to be changed)."""
        return self.elements if seat == 0 else self.f["elements"][seat].tolist()

    def power_of(self, seat: int, option: int) -> spec.Power:
        if option < MAX_CARDS:
            return CARDS[option]
        return self.spirits[seat].innates[option - MAX_CARDS]

    def reach(self, seat: int, power: spec.Power, elements: list[int]) -> list[int]:
        """The lands ``power`` may target from ``seat``'s Presence (not Shadows' paid reach)."""
        distance = power.range + int(self.f["range_bonus"][seat])
        if power.extend and all(h >= n for h, n in zip(elements, power.extend[0], strict=True)):
            distance = power.extend[1] + int(self.f["range_bonus"][seat])
        key = (seat, id(power), distance)
        if key not in self.reaches:
            self.reaches[key] = self.lands_in_range(seat, power, distance)
        return self.reaches[key]

    def lands_in_range(self, seat: int, power: spec.Power, distance: int) -> list[int]:
        """The lands within ``distance`` of ``power``'s sources that pass its filter."""
        key = (
            tuple(self.presence[seat]),
            power.source_sacred and self.spirits[seat].wetland_sacred,
            power.source_sacred,
            power.source_terrain,
            distance,
        )
        in_range = self.reading.in_range.get(key)
        if in_range is None:
            in_range = self.reading.in_range.keep(key, self.sources_reach(seat, power, distance))
        if not power.filter:
            return in_range
        rows, index = self.plan.rows, self.index
        return [
            x for x in in_range if all(self.holds(c, x, rows[index[x]], seat) for c in power.filter)
        ]

    def sources_reach(self, seat: int, power: spec.Power, distance: int) -> list[int]:
        """The lands in play within ``distance`` of ``power``'s sources, in order."""
        sources = [
            x
            for x in self.lands
            if (self.sacred(seat, x) if power.source_sacred else self.presence[seat][x])
            and (power.source_terrain < 0 or self.island.terrain[x] == power.source_terrain)
        ]
        near = self.reading.near
        in_range = set().union(*(near(source, distance) for source in sources))
        return [x for x in self.lands if x in in_range]

    def effect_of(self, seat: int, option: int, elements: list[int]) -> tuple[Any, ...]:
        """The effect a Power has now: a card's, or the innate tiers its Elements reach."""
        power = self.power_of(seat, option)
        if option < MAX_CARDS:
            return power.effect
        chosen: list[tuple[Any, ...]] = []
        for needs, replaces, ops in power.tiers:
            if all(h >= n for h, n in zip(elements, needs, strict=True)):
                chosen = [ops] if replaces else [*chosen, ops]
        return tuple(op for ops in chosen for op in ops)

    def best_land(
        self, seat: int, option: int, plan: Plan, slow: bool, lands: list[int] | None = None
    ) -> tuple[float, int]:
        """(worth, land) of a Power's best land in ``plan`` (-1: none, or a Spirit target)."""
        elements = self.seat_elements(seat)
        power = self.power_of(seat, option)
        effect = self.effect_of(seat, option, elements)
        if not effect:
            return 0.0, -1
        if power.target == spec.TARGETS_SPIRIT:
            return self.spirit_worth(effect), -1
        if lands is None:
            lands = self.reach(seat, power, elements)
        best = (-99.0, -1)
        for x in lands:
            worth = self.gain(effect, x, plan, slow, seat)
            if worth > best[0]:
                best = (worth, x)
        return best

    @staticmethod
    def spirit_worth(effect: tuple[Any, ...]) -> float:
        """A Power that targets a Spirit: the rough worth of what it gives."""
        return 0.8 * effect_value(effect)

    def is_slow(self, power: spec.Power) -> bool:
        """Whether a Power acts after an Invader Phase still to come this turn."""
        return power.speed == spec.SLOW and not self.after_invaders

    def team_plan(self, skip_mine: int = -1) -> Plan:
        """The island once the team's played, unused Powers have acted, each in its best land
        (our ``skip_mine`` left out)."""
        plan = self.plan.copy()
        unresolved = self.f["unresolved"]
        for seat in range(self.n):
            for option in np.flatnonzero(unresolved[seat]):
                option = int(option)
                if seat == 0 and option == skip_mine:
                    continue
                power = self.power_of(seat, option)
                if power.target == spec.TARGETS_SPIRIT:
                    continue
                slow = self.is_slow(power)
                worth, land = self.best_land(seat, option, plan, slow)
                if land >= 0 and worth > 0:
                    elements = self.seat_elements(seat)
                    self.apply(self.effect_of(seat, option, elements), land, plan, slow, seat)
        return plan

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
            return 1 if 1 in legal and energy >= 7 and self.turn >= 3 else legal[0]
        if decision == Decision.KEEP:
            drawn = self.f["drawn"]
            values = [
                self.keep_worth(int(drawn[i].argmax())) if drawn[i].any() else -99 for i in legal
            ]
            return legal[int(np.argmax(values))]
        if decision == Decision.PIECE:
            return self.piece(legal)
        if decision == Decision.SPIRIT:
            return self.spirit_target(legal)
        if decision == Decision.ELEMENT:
            return self.element(legal)
        if decision == Decision.CHOICE:
            return self.choice(legal)
        return legal[0]  # GROWTH_STEP (any order)

    def choice_candidates(self, width: int) -> list[tuple[Any, ...]]:
        """The "choose" operations with ``width`` effects that may be asking now: those of
        our Powers used this turn and of the Fear cards resolved (the observation does not
        say which one)."""
        f = self.f
        effects = [
            self.effect_of(0, int(o), self.elements)
            for o in np.flatnonzero(f["played"][0])
            if not f["unresolved"][0][o]
        ]
        effects += [
            self.effect_of(0, MAX_CARDS + i, self.elements) for i in range(len(self.spirit.innates))
        ]
        effects += [
            spec.FEAR_CARDS[int(c)][1][self.terror - 1] for c in np.flatnonzero(f["fear_discard"])
        ]
        found = []
        for effect in effects:
            for op in flat_ops(effect):
                if op[0] == "choose" and len(op) - 1 == width:
                    found.append(op)
        return found

    def choice(self, legal: list[int]) -> int:
        """The effect worth most in the land asked about, over the operations that may be
        asking (the first effect where none is known or no land is named)."""
        f = self.f
        if not f["context_land"].any():
            return legal[0]
        land = int(f["context_land"].argmax())
        candidates = self.choice_candidates(len(legal))
        if land not in self.lands or not candidates:
            return legal[0]
        totals = [0.0] * len(legal)
        for op in candidates:
            for i, option in enumerate(legal):
                totals[i] += self.gain(op[1 + option], land, self.plan, False)
        return legal[int(np.argmax(totals))]

    def spirit_target(self, legal: list[int]) -> int:
        """Ourselves, unless the Power gives another Spirit 1 Energy per card it played and a
        teammate played more cards than we would gain otherwise."""
        power = int(self.f["context_power"].argmax())
        if power >= MAX_CARDS or "energy_per_card" not in ops_named(CARDS[power].effect):
            return self.me if self.me in legal else legal[0]
        played = {(self.me + r) % self.n: int(self.f["played"][r].sum()) for r in range(1, self.n)}
        best = max((s for s in legal if s != self.me), key=lambda s: played[s], default=-1)
        if best >= 0 and played[best] >= 2:
            return best
        return self.me if self.me in legal else legal[0]

    def innate_needs(self) -> list[int]:
        """Per Element, how far our Elements fall short of the innate tiers (weighted)."""
        needs = [0] * len(spec.ELEMENTS)
        for innate in self.spirit.innates:
            for number, (threshold, _, _) in enumerate(innate.tiers):
                for e, need in enumerate(threshold):
                    needs[e] += need / (1 + number)
        return needs

    def keep_worth(self, card: int) -> float:
        needs = self.innate_needs()
        affinity = sum(needs[e] > 0 for e, n in enumerate(CARDS[card].elements) if n)
        energy = int(self.f["energy"][0]) + 2
        return CARD_VALUE[card] + 0.6 * affinity - 0.5 * max(0, CARDS[card].cost - energy)

    def element(self, legal: list[int]) -> int:
        needs = self.innate_needs()
        have = self.elements
        return max(legal, key=lambda e: needs[e] - have[e])

    def growth(self, legal: list[int]) -> int:
        f = self.f
        hand = [int(c) for c in np.flatnonzero(f["hand"][0]) if c < len(CARDS)]
        energy = int(f["energy"][0])
        playable = [c for c in hand if CARDS[c].cost <= energy + 2]
        discard = int(f["discard"][0].sum())
        income = self.spirit.energy_track[int(f["energy_track"][0])]
        costs = sorted((CARDS[c].cost for c in hand), reverse=True)[: self.plays()]
        shortfall = max(0, sum(costs) - energy - income)
        scores = []
        for group in legal:
            score = 0.0
            for action, amount in self.spirit.growth[group]:
                if action == "reclaim_all":
                    score += 2 * GROW_PRESENCE + 1 if len(playable) < 2 and discard >= 2 else -1.5
                elif action == "reclaim_one":
                    score += 1.0 if discard else 0.0
                elif action == "gain_card":
                    score += GROW_CARD if len(hand) + discard < 6 else 1.2
                elif action == "energy":
                    score += 0.5 * amount + 1.2 * min(amount, shortfall)
                elif action == "presence":
                    score += (GROW_PRESENCE if self.turn < 7 else 0.7) + 0.1 * amount
            scores.append(score)
        return legal[int(np.argmax(scores))]

    def plays(self) -> int:
        """Our card plays a turn, from the card-play track."""
        track = self.spirit.card_track
        return max(v for v in track[: int(self.f["card_track"][0]) + 1] if v >= 0)

    def track(self, legal: list[int]) -> int:
        """The track whose next two spaces give more: Energy while it falls short of what
        the card plays can spend, card plays once Energy piles up."""
        energy = int(self.f["energy"][0])
        energy_at = int(self.f["energy_track"][0])
        card_at = int(self.f["card_track"][0])
        energy_track, card_track = self.spirit.energy_track, self.spirit.card_track
        plays = self.plays()
        income = energy_track[energy_at]
        card_weight = 1.0 + 0.8 * (energy + income >= 2 * plays + 2)
        if plays > income + 1 and energy < 2 * plays:
            card_weight = 0.3  # plays the Energy cannot pay for
        energy_weight = 1.0 + 0.5 * (energy + income < 2 * plays)

        def gain(track: tuple[int, ...], at: int, weight: float, reclaim: bool) -> float:
            if at + 1 >= len(track):
                return -9.0
            value = 0.0
            base = max(v for v in track[: at + 1] if v >= 0)
            for step, share in ((1, 1.0), (2, 0.5)):
                if at + step < len(track):
                    space = track[at + step]
                    if space < 0:
                        value += share * (1.0 if reclaim else 0.0)
                    else:
                        value += share * weight * (max(space, base) - base)
                        base = max(base, space)
            return value

        scores = {
            0: gain(energy_track, energy_at, energy_weight, False),
            1: gain(card_track, card_at, card_weight, True),
        }
        return max(legal, key=lambda t: scores.get(t, -9))

    def current_loss(self) -> dict[int, float]:
        plan = self.plan
        return {
            x: self.loss(x, plan.rows[i], plan.defend[i], plan.skips[i])
            for i, x in enumerate(self.lands)
        }

    def row(self, x: int) -> list[int]:
        return self.plan.rows[self.index[x]]

    def marginal(self, x: int, kind: int, change: int) -> float:
        """How much the loss in ``x`` rises with ``change`` pieces of ``kind`` more there."""
        i = self.index[x]
        plan = self.plan
        row = plan.rows[i][:]
        before = self.loss(x, row, plan.defend[i], plan.skips[i])
        row[kind] = max(0, row[kind] + change)
        return self.loss(x, row, plan.defend[i], plan.skips[i]) - before

    def busy(self, x: int) -> float:
        """A tie-break between lands: those the Invader cards name, or holding Presence,
        come last."""
        return (x in self.ravage) + (x in self.build) + 0.5 * sum(p[x] for p in self.presence)

    def land(self, legal: list[int]) -> int:
        p = self.purpose
        f = self.f
        context = int(f["context_land"].argmax()) if f["context_land"].any() else -1
        kinds = [int(k) for k in np.flatnonzero(f["context_kinds"])]
        kind = kinds[0] if kinds else EXPLORER
        if p == "presence_land":
            return self.presence_land(legal)
        if p == "target_land":
            power = int(f["context_power"].argmax())
            slow = self.is_slow(self.power_of(0, power))
            return self.best_land(0, power, self.plan, slow, legal)[1]
        if p in ("push_dest", "push_then_dest"):
            return min(legal, key=lambda x: (self.marginal(x, kind, 1), self.busy(x)))
        if p == "gather_source":
            return min(legal, key=lambda x: self.marginal(x, kind, -1))
        if p == "cascade":
            return min(
                legal, key=lambda x: (self.blight_cost(x, self.row(x)), self.current_loss()[x])
            )
        if p == "destroy_presence":
            mine = self.presence[0]
            threat = self.current_loss()
            return max(legal, key=lambda x: (mine[x] if mine[x] != 2 else 0.5, -threat[x]))
        if p == "presence_source":
            threat = self.current_loss()
            return min(legal, key=lambda x: threat[x])
        del context
        threat = self.current_loss()
        return max(legal, key=lambda x: threat[x])

    def presence_land(self, legal: list[int]) -> int:
        mine = self.presence[0]
        threat = self.current_loss()
        reach = {y for z in self.lands if mine[z] for y in self.near(z, 1)}
        sacred = sum(1 for z in self.lands if self.sacred(0, z))

        def score(x: int) -> float:
            new = [y for y in self.near(x, 1) if y not in reach]
            value = 0.15 * sum(threat[y] for y in new) + 0.6 * len(new)
            value += 0.05 * sum(threat[y] for y in self.near(x, 1))
            if not self.sacred(0, x) and (
                mine[x] == 1 or (self.spirit.wetland_sacred and self.island.terrain[x] == spec.W)
            ):
                value += 1.5 if sacred < 3 else 0.5
            value -= 0.8 * max(0, mine[x] - 1)
            row = self.row(x)
            if x in self.ravage and strength(row) >= 2:
                value -= 8
            return value - 2.0 * (row[BLIGHT] > 0)

        return max(legal, key=score)

    def play(self, legal: list[int]) -> int:
        cards = [c for c in legal if c < len(CARDS)]
        if not cards:
            return legal[-1]
        plan = self.team_plan()
        elements = self.elements
        innate_now = self.innate_worth(plan, elements)
        best, choice = PLAY_THRESHOLD, spec.CARD_DONE
        energy = int(self.f["energy"][0])
        cost_weight = 0.8 if energy < 4 else 0.4 if energy < 8 else 0.15
        for card in cards:
            power = CARDS[card]
            worth, _ = self.best_land(0, card, plan, self.is_slow(power))
            with_card = [a + b for a, b in zip(elements, power.elements, strict=True)]
            worth += self.innate_worth(plan, with_card) - innate_now
            worth -= cost_weight * power.cost
            if worth > best:
                best, choice = worth, card
        return choice if choice in legal else legal[-1]

    def innate_worth(self, plan: Plan, elements: list[int]) -> float:
        total = 0.0
        for number, innate in enumerate(self.spirit.innates):
            effect = self.effect_of(0, MAX_CARDS + number, elements)
            if not effect:
                continue
            slow = self.is_slow(innate)
            if innate.target == spec.TARGETS_SPIRIT:
                total += self.spirit_worth(effect)
                continue
            lands = self.reach(0, innate, elements)
            total += self.innate_gain(plan, number, effect, lands, slow)
        return total

    def innate_gain(
        self, plan: Plan, number: int, effect: tuple[Any, ...], lands: list[int], slow: bool
    ) -> float:
        """Innate ``number``'s best gain with ``effect`` over ``lands`` in ``plan``, kept for
        the next card weighed against the same plan (most cards leave the tiers as they are)."""
        if self.innate_plan is not plan:
            self.innate_plan, self.innate_gains = plan, {}
        key = (number, effect, tuple(lands))
        if key not in self.innate_gains:
            gains = (self.gain(effect, x, plan, slow) for x in lands)
            self.innate_gains[key] = max(gains, default=0.0)
        return self.innate_gains[key]

    def power(self, legal: list[int]) -> int:
        powers = [o for o in legal if o != POWER_PASS]
        if not powers:
            return POWER_PASS
        scored = []
        for option in powers:
            power = self.power_of(0, option)
            worth, _ = self.best_land(0, option, self.plan, self.is_slow(power))
            scored.append((worth, option))
        worth, option = max(scored)
        return option if worth > -1.0 or POWER_PASS not in legal else POWER_PASS

    def piece(self, legal: list[int]) -> int:
        p = self.purpose
        options = [k for k in legal if k != PIECE_STOP]
        if not options:
            return legal[0]
        f = self.f
        land = int(f["context_land"].argmax())
        if land not in self.lands:
            return options[0]
        count = int(f["context_count"][0])
        if p == "damage":
            invaders = [k for k in options if k in HEALTH]
            if not invaders:
                return options[0]
            i = self.index[land]
            state = [self.plan.rows[i][:], self.plan.defend[i], self.plan.skips[i][:], 0.0]
            kills = self.best_kills(land, state, max(count, 1), False)
            chosen = [k for k in invaders if kills.get(k)]
            if chosen:
                return max(chosen, key=lambda k: (HEALTH[k] <= count, -HEALTH[k]))
            return max(invaders, key=lambda k: (DANGER[k], -HEALTH[k]))
        if p in ("destroy", "remove", "push_piece", "push_then_piece", "damage_of"):
            leak = PUSH_LEAK if p.startswith("push") else 0.0
            fear = p in ("destroy", "damage_of")

            def worth(kind: int) -> float:
                if kind >= spec.KINDS:
                    return -5.0
                if p == "damage_of" and HEALTH.get(kind, 9) > 1:
                    return -self.marginal(land, kind, 0) - 0.1 * HEALTH.get(kind, 3)
                gain = -self.marginal(land, kind, -1) + self.piece_bonus(kind, fear)
                return gain - leak * STANDING.get(kind, 0.0)

            best = max(options, key=worth)
            if PIECE_STOP in legal and worth(best) <= 0:
                return PIECE_STOP
            return best
        if p == "gather_piece":
            dahan = [k for k in options if k in DAHAN_KINDS]
            if dahan:
                return DAHAN if DAHAN in dahan else dahan[0]
            if PIECE_STOP in legal:
                return PIECE_STOP
            return options[0]
        return max(options, key=lambda k: DANGER.get(k, 0))


def invaders_in(row: list[int]) -> int:
    return sum(row[: len(INVADER_KINDS)])


def dahan_in(row: list[int]) -> int:
    return row[DAHAN] + row[DAHAN_1]


def buildings_in(row: list[int]) -> int:
    return sum(row[k] for k in BUILDINGS)


def cities_in(row: list[int]) -> int:
    return sum(row[k] for k in CITY_KINDS)


Condition = Callable[[Turn, tuple[Any, ...], int, list[int], int], Any]
CONDITIONS: dict[str, Condition] = {
    "coastal": lambda t, c, x, row, seat: t.island.coastal[x],
    "inland": lambda t, c, x, row, seat: not t.island.coastal[x],
    "blight": lambda t, c, x, row, seat: row[BLIGHT] > 0,
    "no_blight": lambda t, c, x, row, seat: row[BLIGHT] == 0,
    "invaders": lambda t, c, x, row, seat: invaders_in(row) > 0,
    "no_invaders": lambda t, c, x, row, seat: invaders_in(row) == 0,
    "dahan": lambda t, c, x, row, seat: dahan_in(row) >= c[1],
    "explorers": lambda t, c, x, row, seat: row[EXPLORER] >= c[1],
    "towns": lambda t, c, x, row, seat: row[TOWN] + row[TOWN_1] >= c[1],
    "cities": lambda t, c, x, row, seat: cities_in(row) >= c[1],
    "buildings": lambda t, c, x, row, seat: buildings_in(row) >= c[1],
    "terrain": lambda t, c, x, row, seat: t.island.terrain[x] in c[1],
    "dahan_outnumber": lambda t, c, x, row, seat: 0 < invaders_in(row) < dahan_in(row),
    "dahan_outnumber_buildings": lambda t, c, x, row, seat: buildings_in(row) < dahan_in(row),
    "no_cities": lambda t, c, x, row, seat: not cities_in(row),
    "invaders_at_most": lambda t, c, x, row, seat: 0 < invaders_in(row) <= c[1],
    "presence": lambda t, c, x, row, seat: t.presence[seat][x] > 0,
    "sacred_site": lambda t, c, x, row, seat: t.sacred(seat, x),
    "any_presence": lambda t, c, x, row, seat: any(p[x] for p in t.presence),
    "elements": lambda t, c, x, row, seat: all(
        h >= n for h, n in zip(t.elements, c[1], strict=True)
    ),
    "terror": lambda t, c, x, row, seat: t.terror >= c[1],
    "sacred_sites": lambda t, c, x, row, seat: sum(t.sacred(seat, y) for y in t.lands) >= c[1],
}
"""What each condition of a Power's filter or of an "if" tests: (turn, condition, land, its
pieces, seat) -> whether it holds."""
