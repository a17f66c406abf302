"""The published base game's 36 Minor Powers, 22 Major Powers and 15 Fear cards as data:
the decks the game deals (``spec`` loads and compiles them).

Names and mechanics are facts about the game (sources and every disagreement between them:
``docs/rules/spirit_island.md``, "The published decks"); effects are written in this
project's effect language (``effect_language``), compiled by ``spec`` when it loads (a bad
card raises ``CardError`` naming it). Each Power card is a dict in the shape
:func:`spec.load_power` reads, with two extra frame keys: ``source_terrain`` (range counted
only from Presence in that terrain) and ``extend`` (the Elements that raise the range, and
the new range). A card the language cannot say says why under ``unexpressed``, its
``effect`` then None; the game leaves it out of its deck. The frames (cost, speed, range,
target, Elements) are complete for every card and are checked against the docs' source
table by ``tests/test_spirit_island_published.py``.
"""

from __future__ import annotations

from typing import Any

# Shorthands of the effect language used below.
E_T = ("explorer", "town")
T_C = ("town", "city")
ALL = 99
"""A count meaning "all of them" (push all, destroy all)."""


def _replace(old: str, new: str, count: int = 1) -> tuple[Any, ...]:
    """Replace 1 ``old`` piece with ``count`` ``new`` pieces (nothing without an ``old``)."""
    counted = {"explorer": "explorers", "town": "towns", "city": "cities"}[old]
    return ("if", (counted, 1), (("remove", old, 1), ("add", new, count)))


WINDS = (
    ("fear", 1),
    ("defend", 6),
    ("choose", (_replace("city", "town"),), (_replace("town", "explorer"),)),
)
"""Winds of Rust and Atrophy's effect, which its threshold repeats on a new target."""

# fmt: off
MINOR_CARDS: tuple[dict[str, Any], ...] = (
    {"name": "Call of the Dahan Ways", "cost": 1, "speed": "slow", "range": 1,
     "target": (("dahan", 1),), "elements": ("moon", "water", "animal"),
     "effect": (("if", ("elements", {"moon": 2}),
                 (("choose", (_replace("explorer", "dahan"),), (_replace("town", "dahan"),)),),
                 (_replace("explorer", "dahan"),)),)},
    {"name": "Call to Bloodshed", "cost": 1, "speed": "slow", "range": 1,
     "target": (("dahan", 1),), "elements": ("sun", "fire", "animal"),
     "effect": (("choose", (("per", "dahan", (("damage", 1),)),),
                 (("gather", "dahan", 3, True),)),)},
    {"name": "Call to Isolation", "cost": 0, "speed": "fast", "range": 1,
     "target": (("dahan", 1),), "elements": ("sun", "air", "animal"),
     "effect": (("choose", (("per", "dahan", (("push", E_T, 1),)),),
                 (("push", "dahan", 1),)),)},
    {"name": "Call to Migrate", "cost": 1, "speed": "slow", "range": 1, "target": (),
     "elements": ("fire", "air", "animal"),
     "effect": (("gather", "dahan", 3, True), ("push", "dahan", 3, True))},
    {"name": "Call to Tend", "cost": 1, "speed": "slow", "range": 1,
     "target": (("dahan", 1),), "elements": ("water", "plant", "animal"),
     "effect": (("choose", (("remove_blight", 1),), (("push", "dahan", 3, True),)),)},
    {"name": "Dark and Tangled Woods", "cost": 1, "speed": "fast", "range": 1, "target": (),
     "elements": ("moon", "earth", "plant"),
     "effect": (("fear", 2), ("if", ("terrain", "M", "J"), (("defend", 3),)))},
    {"name": "Delusions of Danger", "cost": 1, "speed": "fast", "range": 1, "target": (),
     "elements": ("sun", "moon", "air"),
     "effect": (("choose", (("push", "explorer", 1),), (("fear", 2),)),)},
    {"name": "Devouring Ants", "cost": 1, "speed": "slow", "range": ("sacred", 1), "target": (),
     "elements": ("sun", "earth", "animal"),
     "effect": (("fear", 1), ("damage", 1), ("destroy", "dahan", 1),
                ("if", ("terrain", "J", "S"), (("damage", 1),)))},
    {"name": "Drift Down into Slumber", "cost": 0, "speed": "fast", "range": 2, "target": (),
     "elements": ("air", "earth", "plant"),
     "effect": (("if", ("terrain", "J", "S"), (("defend", 4),), (("defend", 1),)),)},
    {"name": "Drought", "cost": 1, "speed": "slow", "range": 1, "target": (),
     "elements": ("sun", "fire", "earth"),
     "effect": (("destroy", "town", 3), ("damage_each", 1, T_C), ("add", "blight", 1),
                ("if", ("elements", {"sun": 3}), (("destroy", "city", 1),)))},
    {"name": "Elemental Boon", "cost": 1, "speed": "fast", "target": "spirit", "elements": (),
     "effect": (("gain_elements", 3),)},
    {"name": "Encompassing Ward", "cost": 1, "speed": "fast", "target": "spirit",
     "elements": ("sun", "water", "earth"),
     "effect": (("target_lands", (("defend", 2),)),)},
    {"name": "Enticing Splendor", "cost": 0, "speed": "fast", "range": 0,
     "target": (("no_blight",),), "elements": ("sun", "air", "plant"),
     "effect": (("choose", (("gather", E_T, 1),), (("gather", "dahan", 2, True),)),)},
    {"name": "Entrancing Apparitions", "cost": 1, "speed": "fast", "range": 1, "target": (),
     "elements": ("moon", "air", "water"),
     "effect": (("defend", 2), ("if", ("no_invaders",), (("gather", "explorer", 2, True),)))},
    {"name": "Gift of Constancy", "cost": 0, "speed": "fast", "target": "spirit",
     "elements": ("sun", "earth"),
     "effect": (("energy", 2), ("keep_played",),
                ("if", ("target_other",), (("you", (("keep_played",),)),)))},
    {"name": "Gift of Living Energy", "cost": 0, "speed": "fast", "target": "spirit",
     "elements": ("sun", "fire", "plant"),
     "effect": (("energy", 1), ("if", ("target_other",), (("energy", 1),)),
                ("if", ("sacred_sites", 2), (("energy", 1),)))},
    {"name": "Gift of Power", "cost": 0, "speed": "slow", "target": "spirit",
     "elements": ("moon", "water", "earth", "plant"),
     "effect": (("gain_minor",),)},
    {"name": "Gnawing Rootbiters", "cost": 0, "speed": "slow", "range": 1, "target": (),
     "elements": ("earth", "animal"), "effect": (("push", "town", 2, True),)},
    {"name": "Land of Haunts and Embers", "cost": 0, "speed": "fast", "range": 2, "target": (),
     "elements": ("moon", "fire", "air"),
     "effect": (("fear", 2),
                ("if", ("blight",), (("fear", 2), ("push", E_T, 4, True)),
                 (("push", E_T, 2, True),)),
                ("add", "blight", 1))},
    {"name": "Lure of the Unknown", "cost": 0, "speed": "fast", "range": 2,
     "target": (("no_invaders",),), "elements": ("moon", "fire", "air", "plant"),
     "effect": (("gather", E_T, 1),)},
    {"name": "Nature's Resilience", "cost": 1, "speed": "fast", "range": ("sacred", 1),
     "target": (), "elements": ("earth", "plant", "animal"),
     "effect": (("if", ("elements", {"water": 2}),
                 (("choose", (("defend", 6),), (("remove_blight", 1),)),),
                 (("defend", 6),)),)},
    {"name": "Pull Beneath the Hungry Earth", "cost": 1, "speed": "slow", "range": 1,
     "target": (), "elements": ("moon", "water", "earth"),
     "effect": (("if", ("presence",), (("fear", 1), ("damage", 1))),
                ("if", ("terrain", "S", "W"), (("damage", 1),)))},
    {"name": "Purifying Flame", "cost": 1, "speed": "slow", "range": ("sacred", 1), "target": (),
     "elements": ("sun", "fire", "air", "plant"),
     "effect": (("if", ("terrain", "M", "S"),
                 (("choose", (("per", "blight", (("damage", 1),)),), (("remove_blight", 1),)),),
                 (("per", "blight", (("damage", 1),)),)),)},
    {"name": "Quicken the Earth's Struggles", "cost": 1, "speed": "fast", "range": ("sacred", 0),
     "target": (), "elements": ("moon", "fire", "earth", "animal"),
     "effect": (("choose", (("damage_each", 1, T_C),), (("defend", 10),)),)},
    {"name": "Rain of Blood", "cost": 0, "speed": "slow", "range": ("sacred", 1),
     "target": (("invaders",),), "elements": ("air", "water", "animal"),
     "effect": (("fear", 2), ("if", ("buildings", 2), (("fear", 1),)))},
    {"name": "Reaching Grasp", "cost": 0, "speed": "fast", "target": "spirit",
     "elements": ("sun", "air", "water"), "effect": (("range_bonus", 2),)},
    {"name": "Rouse the Trees and Stones", "cost": 1, "speed": "slow", "range": ("sacred", 1),
     "target": (("no_blight",),), "elements": ("fire", "earth", "plant"),
     "effect": (("damage", 2), ("push", "explorer", 1))},
    {"name": "Sap the Strength of Multitudes", "cost": 0, "speed": "fast", "range": 0,
     "extend": ({"air": 1}, 1), "target": (), "elements": ("water", "animal"),
     "effect": (("defend", 5),)},
    {"name": "Savage Mawbeasts", "cost": 0, "speed": "slow", "range": ("sacred", 1),
     "target": (), "elements": ("fire", "animal"),
     "effect": (("if", ("terrain", "J", "W"), (("fear", 1), ("damage", 1))),
                ("if", ("elements", {"animal": 3}), (("damage", 1),)))},
    {"name": "Shadows of the Burning Forest", "cost": 0, "speed": "slow", "range": 0,
     "target": (("invaders",),), "elements": ("moon", "fire", "plant"),
     "effect": (("fear", 2),
                ("if", ("terrain", "M", "J"), (("push", "explorer", 1), ("push", "town", 1))))},
    {"name": "Song of Sanctity", "cost": 1, "speed": "slow", "range": 1,
     "target": (("terrain", "M", "J"),), "elements": ("sun", "water", "plant"),
     "effect": (("if", ("explorers", 1), (("push", "explorer", ALL),),
                 (("remove_blight", 1),)),)},
    {"name": "Steam Vents", "cost": 1, "speed": "fast", "range": 0, "target": (),
     "elements": ("fire", "air", "water", "earth"),
     "effect": (("if", ("elements", {"earth": 3}),
                 (("choose", (("destroy", "explorer", 1),), (("destroy", "town", 1),)),),
                 (("destroy", "explorer", 1),)),)},
    {"name": "Uncanny Melting", "cost": 1, "speed": "slow", "range": ("sacred", 1), "target": (),
     "elements": ("sun", "moon", "water"),
     "effect": (("if", ("invaders",), (("fear", 1),)),
                ("if", ("terrain", "S", "W"), (("remove_blight", 1),)))},
    {"name": "Veil the Night's Hunt", "cost": 1, "speed": "fast", "range": 2,
     "target": (("dahan", 1),), "elements": ("moon", "air", "animal"),
     "effect": (("choose", (("dahan_strike",),), (("push", "dahan", 3, True),)),)},
    {"name": "Visions of Fiery Doom", "cost": 1, "speed": "fast", "range": 0, "target": (),
     "elements": ("moon", "fire"),
     "effect": (("fear", 1), ("push", E_T, 1), ("if", ("elements", {"fire": 2}), (("fear", 1),)))},
    {"name": "Voracious Growth", "cost": 1, "speed": "slow", "range": ("sacred", 1),
     "target": (("terrain", "J", "W"),), "elements": ("water", "plant"),
     "effect": (("choose", (("damage", 2),), (("remove_blight", 1),)),)},
)

MAJOR_CARDS: tuple[dict[str, Any], ...] = (
    {"name": "Accelerated Rot", "cost": 4, "speed": "slow", "range": 2,
     "target": (("terrain", "J", "W"),), "elements": ("sun", "water", "plant"),
     "effect": (("fear", 2), ("damage", 4),
                ("if", ("elements", {"sun": 3, "water": 2, "plant": 3}),
                 (("damage", 5), ("remove_blight", 1))))},
    {"name": "Blazing Renewal", "cost": 5, "speed": "fast", "target": "spirit",
     "elements": ("fire", "earth", "plant"),
     "effect": (("restore_presence", 2, 2,
                 (("damage_each", 2, T_C),
                  ("if", ("elements", {"fire": 3, "earth": 3, "plant": 2}), (("damage", 4),)))),)},
    {"name": "Cleansing Floods", "cost": 5, "speed": "slow", "range": 1, "source_terrain": "W",
     "target": (), "elements": ("sun", "water"),
     "effect": (("damage", 4), ("remove_blight", 1),
                ("if", ("elements", {"water": 4}), (("damage", 10),)))},
    {"name": "Dissolve the Bonds of Kinship", "cost": 4, "speed": "slow", "range": 1,
     "target": (), "elements": ("fire", "water", "animal"),
     "effect": (_replace("city", "explorer", 2), _replace("town", "explorer"),
                ("if", ("dahan", 1), (("remove", "dahan", 1), ("add", "explorer", 1))),
                ("if", ("elements", {"fire": 2, "water": 2, "animal": 3}), (("invaders_fight",),)),
                ("push_spread", "explorer", ALL))},
    {"name": "Entwined Power", "cost": 2, "speed": "fast", "target": "other",
     "elements": ("moon", "water", "plant"), "effect": None,
     "unexpressed": "sharing Presence for targeting, gaining a card another Spirit did not"
                    " keep, gifting cards between hands"},
    {"name": "Indomitable Claim", "cost": 4, "speed": "fast", "range": 1, "target": (),
     "elements": ("sun", "earth"),
     "effect": (("add_presence",), ("defend", 20),
                ("if", ("elements", {"sun": 2, "earth": 3}),
                 (("if", ("invaders",), (("fear", 3),)),
                  ("skip", "ravage"), ("skip", "build"), ("skip", "explore"))))},
    {"name": "Infinite Vitality", "cost": 3, "speed": "fast", "range": ("sacred", 1),
     "target": (), "elements": ("earth", "plant", "animal"), "effect": None,
     "unexpressed": "Dahan Health and a Blight shield that last beyond the Power"},
    {"name": "Mists of Oblivion", "cost": 4, "speed": "slow", "range": 3, "target": (),
     "elements": ("moon", "air", "water"),
     "effect": (("building_fear", 4,
                 (("damage_each", 1),
                  ("if", ("elements", {"moon": 2, "air": 3, "water": 2}), (("damage", 3),)))),)},
    {"name": "Paralyzing Fright", "cost": 4, "speed": "fast", "range": ("sacred", 1),
     "target": (), "elements": ("air", "earth"),
     "effect": (("fear", 4), ("skip", "ravage"), ("skip", "build"), ("skip", "explore"),
                ("if", ("elements", {"air": 2, "earth": 3}), (("fear", 4),)))},
    {"name": "Pillar of Living Flame", "cost": 5, "speed": "slow", "range": ("sacred", 2),
     "target": (), "elements": ("fire",),
     "effect": (("fear", 3), ("damage", 5),
                ("if", ("elements", {"fire": 4}), (("fear", 2), ("damage", 5))),
                ("if", ("terrain", "J", "W"), (("add", "blight", 1),)))},
    {"name": "Poisoned Land", "cost": 3, "speed": "slow", "range": 1, "target": (),
     "elements": ("earth", "plant", "animal"),
     "effect": (("fear", 1), ("damage", 7), ("add", "blight", 1), ("destroy", "dahan", ALL),
                ("if", ("elements", {"earth": 3, "plant": 2, "animal": 2}),
                 (("per", "blight", (("fear", 1), ("damage", 4))),)))},
    {"name": "Powerstorm", "cost": 3, "speed": "fast", "target": "spirit",
     "elements": ("sun", "fire", "air"),
     "effect": (("energy", 3), ("repeat_paid", 1),
                ("if", ("elements", {"sun": 2, "fire": 2, "air": 3}), (("repeat_paid", 2),)))},
    {"name": "Talons of Lightning", "cost": 6, "speed": "fast", "range": 1,
     "extend": ({"fire": 3, "air": 3}, 3), "target": (("terrain", "M", "W"),),
     "elements": ("fire", "air"),
     "effect": (("fear", 3), ("damage", 5),
                ("if", ("elements", {"fire": 3, "air": 3}),
                 (("each_adjacent", (("destroy", "town", 1),)),)))},
    {"name": "Terrifying Nightmares", "cost": 4, "speed": "fast", "range": 2, "target": (),
     "elements": ("moon", "air"),
     "effect": (("fear", 2), ("push", E_T, 4, True),
                ("if", ("elements", {"moon": 4}), (("fear", 4),)))},
    {"name": "The Jungle Hungers", "cost": 3, "speed": "slow", "range": 1, "source_terrain": "J",
     "target": (), "elements": ("moon", "plant"),
     "effect": (("destroy", "explorer", ALL), ("destroy", "town", ALL),
                ("if", ("elements", {"moon": 2, "plant": 3}), (("destroy", "city", 1),),
                 (("destroy", "dahan", ALL),)))},
    {"name": "The Land Thrashes in Furious Pain", "cost": 4, "speed": "slow", "range": 2,
     "target": (("blight",),), "elements": ("moon", "fire", "earth"),
     "effect": (("per", "blight", (("damage", 2),)),
                ("per_adjacent", "blight", (("damage", 1),)),
                ("if", ("elements", {"moon": 3, "earth": 3}),
                 (("adjacent", (("per", "blight", (("damage", 2),)),
                                ("per_adjacent", "blight", (("damage", 1),)))),)))},
    {"name": "The Trees and Stones Speak of War", "cost": 2, "speed": "fast", "range": 1,
     "target": (("dahan", 1),), "elements": ("sun", "earth", "plant"),
     "effect": (("per", "dahan", (("damage", 1),)),
                ("if", ("elements", {"sun": 2, "earth": 2, "plant": 2}),
                 (("push_then", "dahan", 2, (("defend", 2),)),)),
                ("per", "dahan", (("defend", 2),)))},
    {"name": "Tsunami", "cost": 6, "speed": "slow", "range": ("sacred", 2),
     "target": (("coastal",),), "elements": ("water", "earth"),
     "effect": (("fear", 2), ("damage", 8), ("destroy", "dahan", 2),
                ("if", ("elements", {"water": 3, "earth": 2}),
                 (("board_lands", (("coastal",),),
                   (("fear", 1), ("damage", 4), ("destroy", "dahan", 1))),)))},
    {"name": "Vengeance of the Dead", "cost": 3, "speed": "fast", "range": 3, "target": (),
     "elements": ("moon", "fire", "animal"), "effect": None,
     "unexpressed": "Damage that follows every later destruction in the land this turn"},
    {"name": "Vigor of the Breaking Dawn", "cost": 3, "speed": "fast", "range": 2,
     "target": (("dahan", 1),), "elements": ("sun", "animal"),
     "effect": (("per", "dahan", (("damage", 2),)),
                ("if", ("elements", {"sun": 3, "animal": 2}),
                 (("push_then", "dahan", 2, (("per", "dahan", (("damage", 2),)),), True),)))},
    {"name": "Winds of Rust and Atrophy", "cost": 3, "speed": "fast", "range": ("sacred", 3),
     "target": (), "elements": ("air", "water", "animal"),
     "effect": (*WINDS,
                ("if", ("elements", {"air": 3, "water": 3, "animal": 2}),
                 (("land_in_range", (), WINDS, 3, True),)))},
    {"name": "Wrap in Wings of Sunlight", "cost": 3, "speed": "fast", "range": 0, "target": (),
     "elements": ("sun", "air", "animal"),
     "effect": (("if", ("elements", {"sun": 2, "air": 2, "animal": 2}),
                 (("gather", "dahan", 3, True),)),
                ("move_to_land", (), (("defend", 5),), "dahan", 5))},
)
# fmt: on

# Fear cards: (name, (Terror Level 1, 2, 3)). Where each player picks a land, the land filter
# also asks for the pieces the effect acts on: a land without them would change nothing, so
# the outcomes open to the players are the printed card's, with fewer empty decisions.
FEAR_CARDS: tuple[tuple[str, tuple[Any, Any, Any]], ...] = (
    (
        "Avoid the Dahan",
        (
            (("each_land", (("dahan", 2),), (("skip", "explore"),)),),
            (("each_land", (("dahan_outnumber_buildings",),), (("skip", "build"),)),),
            (("each_land", (("dahan", 1),), (("skip", "build"),)),),
        ),
    ),
    (
        "Belief Takes Root",
        (
            (("each_land", (("any_presence",),), (("defend", 2),)),),
            (
                ("each_land", (("any_presence",),), (("defend", 2),)),
                (
                    "each_spirit",
                    (("seat_lands", (("sacred_site",), ("invaders",)), (("energy", 1),)),),
                ),
            ),
            (
                (
                    "spirit_land",
                    (("presence",), ("invaders",)),
                    (("remove_health", 2, True),),
                    True,
                ),
            ),
        ),
    ),
    (
        "Dahan Enheartened",
        (
            (
                (
                    "spirit_land",
                    (("invaders",),),
                    (("choose", (("push", "dahan", 1, True),), (("gather", "dahan", 1, True),)),),
                ),
            ),
            (
                (
                    "spirit_land",
                    (),
                    (("gather", "dahan", 2, True), ("if", ("dahan", 1), (("damage", 1),))),
                    True,
                ),
            ),
            (
                (
                    "spirit_land",
                    (),
                    (("gather", "dahan", 2, True), ("per", "dahan", (("damage", 1),))),
                    True,
                ),
            ),
        ),
    ),
    (
        "Dahan on their Guard",
        (
            (("each_land", (), (("per", "dahan", (("defend", 1),)),)),),
            (("each_land", (("dahan", 1),), (("defend", 1), ("per", "dahan", (("defend", 1),)))),),
            (("each_land", (), (("per", "dahan", (("defend", 2),)),)),),
        ),
    ),
    (
        "Dahan Raid",
        (
            (("spirit_land", (("dahan", 1),), (("damage", 1),), True),),
            (("spirit_land", (("dahan", 1),), (("per", "dahan", (("damage", 1),)),), True),),
            (("spirit_land", (("dahan", 1),), (("per", "dahan", (("damage", 2),)),), True),),
        ),
    ),
    (
        "Emigration Accelerates",
        (
            (("spirit_land", (("coastal",), ("explorers", 1)), (("remove", "explorer", 1),)),),
            (("spirit_land", (("coastal",), ("invaders",)), (("remove", E_T, 1),)),),
            (("spirit_land", (("invaders",),), (("remove", E_T, 1),)),),
        ),
    ),
    (
        "Fear of the Unseen",
        (
            (("spirit_land", (("sacred_site",), ("invaders",)), (("remove", E_T, 1),)),),
            (("spirit_land", (("presence",), ("invaders",)), (("remove", E_T, 1),)),),
            (
                (
                    "each_spirit",
                    (
                        (
                            "choose",
                            (("pick_land", (("presence",), ("invaders",)), (("remove", E_T, 1),)),),
                            (
                                (
                                    "pick_land",
                                    (("sacred_site",), ("cities", 1)),
                                    (("remove", "city", 1),),
                                ),
                            ),
                        ),
                    ),
                ),
            ),
        ),
    ),
    (
        "Isolation",
        (
            (("spirit_land", (("invaders_at_most", 1),), (("remove", E_T, 1),)),),
            (("spirit_land", (("invaders_at_most", 2),), (("remove", E_T, 1),)),),
            (("spirit_land", (("invaders_at_most", 2),), (("remove", "invader", 1),)),),
        ),
    ),
    (
        "Overseas Trade Seem Safer",
        (
            (("each_land", (("coastal",),), (("defend", 3),)),),
            (("each_land", (("coastal",),), (("defend", 6), ("no_city_build",))),),
            (("each_land", (("coastal",),), (("defend", 9), ("skip", "build"))),),
        ),
    ),
    (
        "Retreat!",
        (
            (("spirit_land", (("inland",), ("explorers", 1)), (("push", "explorer", 2, True),)),),
            (("spirit_land", (("inland",), ("invaders",)), (("push", E_T, 3, True),)),),
            (("spirit_land", (("invaders",),), (("push", E_T, ALL, True),)),),
        ),
    ),
    (
        "Scapegoats",
        (
            (("each_land", (("towns", 1),), (("per", "town", (("destroy", "explorer", 1),)),)),),
            (
                (
                    "each_land",
                    (("buildings", 1),),
                    (
                        ("per", "town", (("destroy", "explorer", 1),)),
                        ("per", "city", (("destroy", "explorer", 2),)),
                    ),
                ),
            ),
            (
                (
                    "each_land",
                    (("buildings", 1),),
                    (("destroy", "explorer", ALL), ("per", "city", (("destroy", "town", 1),))),
                ),
            ),
        ),
    ),
    (
        "Seek Safety",
        (
            (
                (
                    "spirit_land",
                    (("explorers", 1),),
                    (("push", "explorer", 1, True, True),),
                ),
            ),
            (
                (
                    "each_spirit",
                    (
                        (
                            "choose",
                            (
                                (
                                    "pick_land",
                                    (("buildings", 1),),
                                    (("gather", "explorer", 1, True),),
                                ),
                            ),
                            (("pick_land", (("cities", 1),), (("gather", "town", 1, True),)),),
                        ),
                    ),
                ),
            ),
            (("spirit_land", (("invaders",), ("no_cities",)), (("remove_health", 3),)),),
        ),
    ),
    (
        "Tall Tales of Savagery",
        (
            (("spirit_land", (("dahan", 1),), (("remove", "explorer", 1),)),),
            (
                (
                    "spirit_land",
                    (("dahan", 1),),
                    (("choose", (("remove", "explorer", 2),), (("remove", "town", 1),)),),
                ),
            ),
            (
                (
                    "each_land",
                    (("dahan", 1),),
                    (("choose", (("remove", "explorer", 2),), (("remove", "town", 1),)),),
                ),
                ("each_land", (("dahan", 2),), (("remove", "city", 1),)),
            ),
        ),
    ),
    (
        "Trade Suffers",
        (
            (("each_land", (("cities", 1),), (("skip", "build"),)),),
            (
                (
                    "spirit_land",
                    (("coastal",), ("towns", 1)),
                    (("choose", (_replace("town", "explorer"),), ()),),
                ),
            ),
            (
                (
                    "spirit_land",
                    (("coastal",), ("buildings", 1)),
                    (("choose", (_replace("city", "town"),), (_replace("town", "explorer"),), ()),),
                ),
            ),
        ),
    ),
    (
        "Wary of the Interior",
        (
            (("spirit_land", (("inland",), ("explorers", 1)), (("remove", "explorer", 1),)),),
            (("spirit_land", (("inland",), ("invaders",)), (("remove", E_T, 1),)),),
            (("spirit_land", (("invaders",),), (("remove", E_T, 1),)),),
        ),
    ),
)
POWER_BY_NAME: dict[str, dict[str, Any]] = {c["name"]: c for c in (*MINOR_CARDS, *MAJOR_CARDS)}
