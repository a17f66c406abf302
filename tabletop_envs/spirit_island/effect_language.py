"""Spirit Island's effect language: the operations a Power, Fear or Blight card's effect is
written in, and the compiler that checks an effect and normalises it for the interpreter.

An effect is a tuple of operations, each a tuple naming its operation (``OPS``) and its
arguments; nested effects (``if``, ``choose``, ``each_land``...) are effects again. The
compiler turns the words a card is written in (pieces, elements, terrains, Invader actions)
into the integers the interpreter reads, and raises a :class:`CardError` naming the card on
anything it does not know. The words come from the spec as a :class:`Vocabulary`, so this
module imports nothing of the game.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class CardError(ValueError):
    """A card whose data is not valid; the message names the card."""


LAND_CONDITIONS = {
    "coastal": 0,
    "inland": 0,
    "blight": 0,
    "no_blight": 0,
    "invaders": 0,
    "no_invaders": 0,
    "dahan": 1,  # at least n Dahan
    "explorers": 1,  # at least n Explorers
    "towns": 1,
    "cities": 1,
    "buildings": 1,  # at least n Towns and Cities together
    "terrain": -1,  # one of the terrains listed
    "dahan_outnumber": 0,  # Invaders there, and more Dahan than Invaders
    "dahan_outnumber_buildings": 0,  # more Dahan than Towns and Cities
    "no_cities": 0,
    "invaders_at_most": 1,  # 1 to n Invaders
    "presence": 0,  # the acting Spirit's Presence
    "sacred_site": 0,  # the acting Spirit's Sacred Site
    "any_presence": 0,  # some Spirit's Presence
}
OTHER_CONDITIONS = {
    "elements": -1,
    "target_self": 0,
    "target_other": 0,
    "terror": 1,
    "sacred_sites": 1,  # the acting Spirit has at least n Sacred Sites
}

# op name -> (argument kinds); "kinds" is a piece word or a tuple of them, "n" a count,
# "ops" a nested effect, "filter" a tuple of land conditions, "cond" one condition
OPS: dict[str, tuple[str, ...]] = {
    "damage": ("n",),  # n Damage to Invaders in the land, split by the Spirit
    "damage_each": ("n", "kinds"),  # n Damage to each Invader (of the kinds named) there
    "destroy": ("kinds", "n"),  # destroy up to n pieces (None: all)
    "remove": ("kinds", "n"),  # remove n pieces (no Fear, no Dahan counted as destroyed)
    "push": ("kinds", "n", "upto", "flag"),  # push n pieces to neighbouring lands (flag: only
    # into a land with more Towns and Cities than the land they leave)
    "gather": ("kinds", "n", "upto"),  # gather n pieces from neighbouring lands
    "add": ("kind", "n"),  # add n pieces from the supply (Blight cascades)
    "remove_blight": ("n",),
    "defend": ("n",),
    "fear": ("n",),
    "energy": ("n",),
    "energy_per_card": (),  # the target Spirit gains 1 Energy per card it played
    "isolate": (),
    "skip": ("action",),  # skip one Invader action in the land this turn
    "dahan_damage": ("n",),  # each Dahan in the land deals n Damage to Invaders
    "if": ("cond", "ops", "ops"),  # the second effect (optional) runs otherwise
    "choose": ("ops", "ops"),  # the Spirit chooses one of 2 to MAX_CHOICE effects
    "each_land": ("filter", "ops"),  # in every land that matches
    "spirit_land": ("filter", "ops", "flag"),  # each Spirit picks a land (flag: a different one)
    "each_spirit": ("ops",),  # each Spirit does the effect
    "destroy_presence": ("n",),  # the Spirit destroys n of its Presence (its choice of land)
    "gather_presence": ("n",),  # the Spirit moves up to n of its Presence in from neighbours
    "forget": (),  # the Spirit forgets a Power card
    "hasten": ("n",),  # the target Spirit may use n more Slow Powers as Fast this turn
    "repeat": ("n",),  # the target Spirit may repeat 1 Power card costing n or less this turn
    "repeat_paid": ("n",),  # the target Spirit may n more times this turn repeat a Power
    # card it has resolved, paying its cost again
    "range_bonus": ("n",),  # the target Spirit's Powers reach n lands further this turn
    "keep_played": (),  # at Time Passes the target Spirit may keep 1 played card in hand
    "gain_elements": ("n",),  # the target Spirit gains n different Elements of its choice,
    # and so does the acting Spirit when it targets another
    "you": ("ops",),  # the effect for the acting Spirit (not its target)
    "spare_dahan": (),  # Ravaging Invaders deal no Damage to the land's Dahan this turn
    "no_city_build": (),  # a Build in the land that would add a City adds nothing this turn
    "own_land": ("filter", "ops"),  # the target Spirit picks a land with its Presence
    "pick_land": ("filter", "ops"),  # the acting Spirit picks a land that matches
    "per": ("kinds", "ops"),  # the effect once per such piece in the land (counted first)
    "per_adjacent": ("kinds", "ops"),  # once per such piece in the neighbouring lands
    "target_lands": ("ops",),  # in each land with the target Spirit's Presence
    "each_adjacent": ("ops",),  # in each neighbouring land
    "adjacent": ("ops",),  # in one neighbouring land the Spirit picks
    "board_lands": ("filter", "ops"),  # in each other matching land of the land's board
    "gain_minor": (),  # the target Spirit gains a Minor Power (draw 4, keep 1)
    "seat_lands": ("filter", "ops"),  # in each land that matches for the acting Spirit
    "land_in_range": ("filter", "ops", "n", "flag"),  # the Spirit picks a land within range n
    # of its Presence (flag: of its Sacred Sites), as a Power repeated on a new target
    "add_presence": (),  # the Spirit adds 1 Presence from a track of its choice to the land
    "remove_health": ("n", "flag"),  # remove Invaders worth up to n Health (flag: n per
    # Presence of the acting Spirit there); each counts its printed Health
    "dahan_strike": (),  # each Dahan deals 1 Damage to a different Invader
    "move_to_land": ("filter", "ops", "kinds", "n"),  # the Spirit picks another land that
    # matches, moves up to n pieces of the land there, then the effect runs there
    "restore_presence": ("n", "n", "ops"),  # the acting Spirit picks a land within range
    # (second n) of its Presence; the target Spirit adds up to n of its destroyed Presence
    # there, and if any was added the effect runs there
    "push_then": ("kinds", "n", "ops", "flag"),  # push up to n pieces one at a time; the
    # effect runs in the land each went to (flag: once in each land they went to, after all)
    "push_spread": ("kinds", "n"),  # push n pieces to as many different lands as possible
    "invaders_fight": (),  # Explorers and Towns / Cities damage each other: each Explorer 1
    # Damage to the Towns and Cities, each Town 2 and each City 3 to the Explorers
    "building_fear": ("n", "ops"),  # the effect, then 1 Fear per Town and City it destroyed
    # in the land, at most n (the effect may only damage and destroy)
}
BUILDING_FEAR_OPS = frozenset(("damage", "damage_each", "destroy", "if", "fear"))
"""The operations a ``building_fear`` effect may use: it counts the Towns and Cities gone."""
OPTIONAL: dict[str, tuple[Any, ...]] = {
    "push": (False, False),
    "gather": (False,),
    "if": ((),),
    "damage_each": ("invader",),
    "spirit_land": (False,),
    "remove_health": (False,),
    "push_then": (False,),
}
"""Arguments an operation may leave out at its end, and their values then."""

Op = tuple[Any, ...]


class Vocabulary(NamedTuple):
    """The words an effect is written in, and what each means in the game."""

    elements: dict[str, int]
    """Element name -> its index."""
    terrains: dict[str, int]
    """Terrain letter -> its code."""
    pieces: dict[str, tuple[int, ...]]
    """Piece word -> the piece kinds it covers."""
    actions: tuple[str, ...]
    """The Invader actions a ``skip`` names, by their number."""
    max_choice: int
    """The most effects a ``choose`` offers."""


class EffectCompiler:
    """Checks and normalises effects, conditions and land filters written in ``words``."""

    def __init__(self, words: Vocabulary) -> None:
        self.words = words

    def kinds(self, value: Any, card: str) -> tuple[int, ...]:
        """The piece kinds of a piece word or a tuple of them."""
        names = value if isinstance(value, tuple) else (value,)
        kinds: list[int] = []
        for name in names:
            if name not in self.words.pieces:
                raise CardError(f"{card}: unknown piece {name!r}")
            kinds += self.words.pieces[name]
        return tuple(kinds)

    def elements(self, needs: Any, card: str) -> tuple[int, ...]:
        """A dict of element counts as one count per element."""
        if not isinstance(needs, dict):
            raise CardError(f"{card}: elements condition needs a dict of element counts")
        counts = [0] * len(self.words.elements)
        for element, count in needs.items():
            if element not in self.words.elements:
                raise CardError(f"{card}: unknown element {element!r}")
            counts[self.words.elements[element]] = int(count)
        return tuple(counts)

    def condition(self, value: Any, card: str) -> tuple[Any, ...]:
        """One condition (on a land, the Spirit's elements, the target or the Terror Level)."""
        if not isinstance(value, tuple) or not value:
            raise CardError(f"{card}: a condition must be a tuple, not {value!r}")
        name, *args = value
        if name == "elements":
            if len(args) != 1:
                raise CardError(f"{card}: elements condition needs a dict of element counts")
            return ("elements", self.elements(args[0], card))
        if name == "terrain":
            if not args or any(t not in self.words.terrains for t in args):
                raise CardError(f"{card}: terrain condition needs terrain letters M, W, J, S")
            return ("terrain", tuple(self.words.terrains[t] for t in args))
        arity = LAND_CONDITIONS.get(name, OTHER_CONDITIONS.get(name))
        if arity is None:
            raise CardError(f"{card}: unknown condition {name!r}")
        if len(args) != arity or not all(isinstance(a, int) and a >= 0 for a in args):
            raise CardError(f"{card}: condition {name!r} takes {arity} count(s), not {args!r}")
        return (name, *args)

    def land_filter(self, value: Any, card: str) -> tuple[tuple[Any, ...], ...]:
        """A tuple of conditions a land must all meet."""
        if not isinstance(value, tuple):
            raise CardError(f"{card}: a land filter must be a tuple of conditions, not {value!r}")
        conditions = tuple(self.condition(c, card) for c in value)
        for condition in conditions:
            if condition[0] not in LAND_CONDITIONS:
                raise CardError(f"{card}: {condition[0]!r} is no condition on a land")
        return conditions

    def effect(self, ops: Any, card: str) -> tuple[Op, ...]:
        """The effect ``ops`` checked and normalised: piece words become kind tuples, elements
        become counts. Raises :class:`CardError` naming ``card`` on anything unknown."""
        if not isinstance(ops, tuple):
            raise CardError(f"{card}: an effect must be a tuple of operations, not {ops!r}")
        return tuple(self.operation(op, card) for op in ops)

    def operation(self, op: Any, card: str) -> Op:
        """One operation with its arguments checked against ``OPS``."""
        if not isinstance(op, tuple) or not op or not isinstance(op[0], str):
            raise CardError(f"{card}: an operation must be a tuple naming it, not {op!r}")
        name, *args = op
        if name not in OPS:
            raise CardError(f"{card}: unknown effect {name!r}")
        shape = OPS[name]
        if name == "choose" and 2 <= len(args) <= self.words.max_choice:
            shape = ("ops",) * len(args)
        missing = len(shape) - len(args)
        if 0 < missing <= len(OPTIONAL.get(name, ())):
            args = [*args, *OPTIONAL[name][-missing:]]
        if len(args) != len(shape):
            raise CardError(f"{card}: {name} takes {len(shape)} argument(s) {shape}, got {args!r}")
        if name == "building_fear":
            self.only(BUILDING_FEAR_OPS, args[1], card)
        return (
            name,
            *(self.argument(name, kind, arg, card) for kind, arg in zip(shape, args, strict=True)),
        )

    def only(self, allowed: frozenset[str], ops: Any, card: str) -> None:
        """Refuse an effect using an operation outside ``allowed`` (nested ones too)."""
        for op in ops if isinstance(ops, tuple) else ():
            if isinstance(op, tuple) and op and op[0] not in allowed:
                raise CardError(f"{card}: {op[0]!r} is not allowed here, only {sorted(allowed)}")
            for arg in op[1:] if isinstance(op, tuple) else ():
                if isinstance(arg, tuple) and arg and isinstance(arg[0], tuple):
                    self.only(allowed, arg, card)

    def argument(self, name: str, kind: str, arg: Any, card: str) -> Any:
        """One argument of operation ``name``, of argument kind ``kind``."""
        if kind == "n":
            count = isinstance(arg, int) and not isinstance(arg, bool) and arg >= 0
            if not (count or (arg is None and name == "destroy")):
                raise CardError(f"{card}: {name} needs a count, not {arg!r}")
            return 99 if arg is None else arg
        if kind == "kinds":
            return self.kinds(arg, card)
        if kind == "kind":
            return self.kinds(arg, card)[0]
        if kind in ("upto", "flag"):
            if not isinstance(arg, bool):
                raise CardError(f"{card}: {name}'s {kind!r} flag must be a bool")
            return arg
        if kind == "action":
            if arg not in self.words.actions:
                raise CardError(f"{card}: skip needs one of {self.words.actions}, not {arg!r}")
            return self.words.actions.index(arg)
        if kind == "cond":
            return self.condition(arg, card)
        if kind == "filter":
            return self.land_filter(arg, card)
        return self.effect(arg, card)


def nested_effects(op: Op) -> list[tuple[Op, ...]]:
    """The effects nested in a compiled operation (``if``'s, ``choose``'s...)."""
    return [
        arg
        for arg in op[1:]
        if isinstance(arg, tuple)
        and arg
        and isinstance(arg[0], tuple)
        and isinstance(arg[0][0], str)
        and arg[0][0] in OPS
    ]
