"""Valiant Wars' spec: the 27 champions, the 27 Locations, supply and setup constants, the
decision kinds and the action layout keyed by them, and the sentinels of the state.

The rulebook names the cards but gives no champion's type, cost, Swords or copies and no
Location's VP or effect; the rulings and their reasons are in docs/rules/valiant_wars.md.
Every card is a small int code (:func:`champion_code`, :func:`location_code`); the tables
below are fixed at import so the per-step path only indexes tuples.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tabletop_envs.core.actions import ActionLayout

MIN_PLAYERS = 2
MAX_PLAYERS = 5
MARKET_SIZE = 5
ORACLE_LOOK = 4
VP_PER_OMEN = 3
"""Every 3 VP reached adds one Dark Omen to the player's deck."""

SUPPLY_SOLDIERS = 36
SUPPLY_GOLD = 54
SUPPLY_OMENS = 25
STARTING_DECK = {"gold": 5, "omens": 3, "soldiers": 2}
VP_TARGET = {2: 10, 3: 9, 4: 8, 5: 8}

MERCENARY_CAP = 7
MAX_TARGET_VP = 51
"""The VP of all 27 Locations together: no higher target can ever be reached."""


class ChampionType(IntEnum):
    WARRIOR = 0
    MYSTIC = 1
    ROGUE = 2


class Kind(IntEnum):
    """The 27 champions, in the rulebook's alphabetical order."""

    APPRENTICE = 0
    ASSASSIN = 1
    ARCHER = 2
    BARBARIAN = 3
    BRIGAND = 4
    DANCER = 5
    FIGHTER = 6
    FIREBRAND = 7
    GENERAL = 8
    GUARD = 9
    HERO = 10
    LUNAR_WITCH = 11
    MERCENARY = 12
    MONK = 13
    ORACLE = 14
    PALADIN = 15
    PRIESTESS = 16
    PYROMANCER = 17
    RETAINER = 18
    SABOTEUR = 19
    SAINT = 20
    SELLSWORD = 21
    SENTINEL = 22
    SHAMAN = 23
    WARLORD = 24
    WING_KNIGHT = 25
    WYRM_LORD = 26

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").title()


@dataclass(frozen=True)
class Champion:
    """One champion's printed data; ``down`` marks an effect resolved when revealed."""

    kind: Kind
    type: ChampionType
    cost: int
    swords: int
    copies: int
    down: bool
    text: str


W, M, R = ChampionType.WARRIOR, ChampionType.MYSTIC, ChampionType.ROGUE
K = Kind

CHAMPIONS: tuple[Champion, ...] = (
    Champion(K.APPRENTICE, M, 1, 1, 3, True, "Down: a player you select draws 1 card."),
    Champion(K.ASSASSIN, R, 5, 2, 2, True, "Down: you may flip 1 opposing face-up Champion."),
    Champion(K.ARCHER, W, 3, 1, 2, False, "+3 Swords if you have a face-up Location."),
    Champion(K.BARBARIAN, W, 4, 4, 4, False, "No effect."),
    Champion(
        K.BRIGAND, R, 2, 1, 3, True, "Down: an enemy draws 1 card. +1 Sword with another Rogue."
    ),
    Champion(K.DANCER, R, 4, 0, 2, True, "Down: copy all text of another face-up Champion."),
    Champion(K.FIGHTER, W, 2, 2, 4, False, "No effect."),
    Champion(K.FIREBRAND, M, 2, 2, 3, True, "Down: you draw 1 card."),
    Champion(K.GENERAL, W, 5, 3, 2, False, "Other players' effects cannot target you."),
    Champion(K.GUARD, W, 3, 2, 2, False, "+2 Swords if you have a face-up Rogue."),
    Champion(K.HERO, W, 6, 5, 1, False, "Cannot be flipped or selected as a target."),
    Champion(
        K.LUNAR_WITCH, R, 3, 2, 2, True, "Down: another player flips 1 Champion (else a Soldier)."
    ),
    Champion(K.MERCENARY, R, 4, 0, 2, False, "+1 Sword per face-up Gold card, at most +7."),
    Champion(K.MONK, M, 3, 0, 2, False, "+2 Gold."),
    Champion(K.ORACLE, M, 1, 1, 2, True, "Down: look at the top 4 cards of your deck."),
    Champion(K.PALADIN, W, 5, 2, 2, False, "+2 Swords per other face-up Rogue."),
    Champion(K.PRIESTESS, M, 3, 1, 2, True, "Down: a player draws 1 card per face-up Mystic."),
    Champion(K.PYROMANCER, M, 3, 1, 2, True, "Down: you may make a drawing player draw 2."),
    Champion(K.RETAINER, R, 4, 1, 2, False, "+2 Swords per face-up Mystic."),
    Champion(
        K.SABOTEUR,
        R,
        4,
        1,
        2,
        True,
        "Down: an opponent draws 2; with another Rogue, an opponent draws 1 more.",
    ),
    Champion(K.SAINT, M, 3, 1, 2, True, "Cancels one of your Dark Omens (no Gold from it)."),
    Champion(K.SELLSWORD, R, 1, 1, 3, False, "+1 Gold."),
    Champion(K.SENTINEL, W, 5, 1, 2, False, "+2 Swords per face-up Location."),
    Champion(K.SHAMAN, M, 2, 3, 2, True, "Down: flip another Champion or Soldier, else itself."),
    Champion(K.WARLORD, W, 5, 4, 2, True, "Down: you draw 1 card."),
    Champion(K.WING_KNIGHT, W, 4, 2, 2, False, "+1 Sword per face-up Mystic."),
    Champion(K.WYRM_LORD, M, 6, 6, 1, True, "Down: you draw 2 cards."),
)
NUM_KINDS = len(CHAMPIONS)
NUM_CHAMPION_CARDS = sum(c.copies for c in CHAMPIONS)
"""60: also the most Champions one Battle line can ever hold."""


class Terrain(IntEnum):
    """A Location's effect on every Battle line while it is being fought over."""

    PLAIN = 0
    MARSH = 1
    HAUNTED = 2
    GUARDED = 3

    @property
    def text(self) -> str:
        return TERRAIN_TEXT[self]


TERRAIN_TEXT = {
    Terrain.PLAIN: "no effect",
    Terrain.MARSH: "-1 Sword per face-up Warrior (Soldiers count)",
    Terrain.HAUNTED: "-2 Swords per face-up Dark Omen",
    Terrain.GUARDED: "-2 Swords per face-up Rogue",
}


@dataclass(frozen=True)
class Location:
    name: str
    vp: int
    terrain: Terrain


T = Terrain
LOCATIONS: tuple[Location, ...] = (
    Location("Wheat Fields", 1, T.PLAIN),
    Location("Barley Farm", 1, T.PLAIN),
    Location("Orchard", 1, T.PLAIN),
    Location("Sheep Pasture", 1, T.PLAIN),
    Location("Mill Farm", 1, T.PLAIN),
    Location("Vineyard", 1, T.PLAIN),
    Location("Hop Fields", 1, T.PLAIN),
    Location("Riverside Farm", 1, T.PLAIN),
    Location("Fen Farm", 1, T.MARSH),
    Location("Reed Marsh", 1, T.MARSH),
    Location("Gallows Field", 1, T.HAUNTED),
    Location("Barrow Downs", 1, T.HAUNTED),
    Location("Market Village", 2, T.PLAIN),
    Location("Fishing Village", 2, T.PLAIN),
    Location("Crossroads Hamlet", 2, T.PLAIN),
    Location("Mining Village", 2, T.PLAIN),
    Location("Abbey Village", 2, T.PLAIN),
    Location("Bog Town", 2, T.MARSH),
    Location("Witchwood Village", 2, T.HAUNTED),
    Location("Border Post", 2, T.GUARDED),
    Location("River Keep", 3, T.PLAIN),
    Location("Hill Keep", 3, T.PLAIN),
    Location("Stone Keep", 3, T.PLAIN),
    Location("Ghost Keep", 3, T.HAUNTED),
    Location("Watchtower Keep", 3, T.GUARDED),
    Location("Royal Castle", 4, T.PLAIN),
    Location("Marsh Castle", 4, T.MARSH),
)
NUM_LOCATIONS = len(LOCATIONS)
LOCATION_TERRAINS: tuple[int, ...] = tuple(int(location.terrain) for location in LOCATIONS)
"""Each Location's terrain as a plain int (read on the per-step paths)."""

# ----- card codes -----------------------------------------------------------------------
GOLD = 0
OMEN = 1
SOLDIER = 2
CHAMPION_BASE = 3
LOCATION_BASE = CHAMPION_BASE + NUM_KINDS
NUM_CODES = LOCATION_BASE + NUM_LOCATIONS
NO_CARD = -1


def champion_code(kind: int) -> int:
    return CHAMPION_BASE + kind


def location_code(location: int) -> int:
    return LOCATION_BASE + location


def is_champion(code: int) -> bool:
    return CHAMPION_BASE <= code < LOCATION_BASE


def card_name(code: int) -> str:
    if code == GOLD:
        return "Gold"
    if code == OMEN:
        return "Dark Omen"
    if code == SOLDIER:
        return "Soldier"
    if is_champion(code):
        return Kind(code - CHAMPION_BASE).title
    return LOCATIONS[code - LOCATION_BASE].name


# Per-code tables (champions by their printed data; Soldiers are Warriors).
NO_TYPE = -1
CODE_TYPE: tuple[int, ...] = (
    NO_TYPE,
    NO_TYPE,
    int(W),
    *(int(c.type) for c in CHAMPIONS),
    *(NO_TYPE,) * NUM_LOCATIONS,
)
CODE_SWORDS: tuple[int, ...] = (0, 0, 1, *(c.swords for c in CHAMPIONS), *(0,) * NUM_LOCATIONS)
DOWN_KINDS = frozenset(c.kind for c in CHAMPIONS if c.down)
GOLD_BONUS = {Kind.MONK: 2, Kind.SELLSWORD: 1}


# ----- decisions and actions ------------------------------------------------------------
class Decision(IntEnum):
    """The pending decision kinds; each owns one action segment."""

    REVEAL_OR_STOP = 0
    CHOOSE_PLAYER = 1
    CHOOSE_CARD = 2
    BUY = 3
    IGNORE_OMEN = 4


NOBODY = MAX_PLAYERS
"""The ``choose_player`` option that targets no one (optional effects only)."""
SOLDIER_OPTION = NUM_CHAMPION_CARDS
"""The ``choose_card`` option that flips a Soldier instead of a Champion."""


class Buy(IntEnum):
    """``buy`` options after the five market slots."""

    GOLD = MARKET_SIZE
    SOLDIER = MARKET_SIZE + 1
    DONE = MARKET_SIZE + 2


LAYOUT = ActionLayout.for_decisions(
    Decision,
    {
        Decision.REVEAL_OR_STOP: 2,
        Decision.CHOOSE_PLAYER: MAX_PLAYERS + 1,
        Decision.CHOOSE_CARD: NUM_CHAMPION_CARDS + 1,
        Decision.BUY: MARKET_SIZE + 3,
        Decision.IGNORE_OMEN: 2,
    },
)
REVEAL, STOP = 0, 1
KEEP_OMEN, IGNORE = 0, 1
"""``ignore_omen`` options: keep the Dark Omen face up (its Gold counts, the Saint stays
unused), or let the Saint ignore it (flipped face down, no Gold)."""
SAINT_POS, OMEN_POS = range(2)
"""The context of a pending ``ignore_omen`` decision: the line positions of the Saint (or a
Dancer copying one) and of the face-up Dark Omen it may ignore."""
REVEALING, BUYING, OVER = 0, 1, 2
"""The phases of a round (OVER: the game has ended)."""
EMPTY = -1
"""No pending decision, no reveal choice yet, no copy, no stop step, no source card."""
CTX_EFFECT, CTX_SUBJECT, CTX_STAGE, CTX_SOURCE, CTX_AMOUNT = range(5)
"""The context of a pending ``choose_player`` or ``choose_card`` decision: the effect (a
champion kind), the seat whose line ``choose_card`` picks from (``NO_SEAT`` for
``choose_player``), the stage (the Saboteur's second targeting: 1), the line position of
the card whose effect it is (``EMPTY`` for the Lunar Witch's victim) and the number of
cards the chosen player will draw (Priestess; else 0)."""


# ----- the decision bound ---------------------------------------------------------------
ALL_CARDS = SUPPLY_SOLDIERS + SUPPLY_GOLD + SUPPLY_OMENS + NUM_LOCATIONS + NUM_CHAMPION_CARDS
DECISIONS_PER_DOWN_EFFECT = 3
"""Dancer: choose whom to copy, then the copied effect's two choices (Saboteur, Assassin)."""
DECISIONS_PER_ROUND = (
    (ALL_CARDS + MAX_PLAYERS)  # each reveal-or-stop reveals a card or stops a player
    + DECISIONS_PER_DOWN_EFFECT * NUM_CHAMPION_CARDS  # each Champion resolves at most once
    + SUPPLY_OMENS  # each Dark Omen revealed asks at most one Saint question
    + SUPPLY_GOLD
    + NUM_CHAMPION_CARDS
    + SUPPLY_SOLDIERS
    + MAX_PLAYERS  # each buy gains a card or ends (whatever the purchase limits)
)
MAX_DECISIONS = NUM_LOCATIONS * DECISIONS_PER_ROUND
"""At most one round per Location, each bounded as above."""
