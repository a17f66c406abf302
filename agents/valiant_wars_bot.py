"""A scripted Valiant Wars bot that reads only its own observation and plays to win.

Strategy
--------
*Utility.* A line is worth its Gold, half its Swords, and the chance of taking the
Location times 3 per VP. The chance is a logistic curve of the Sword lead over the best
other line still in, with a margin while others are still drawing; once everyone else is
done it is exact (a strict lead wins).

*Reveal or STOP (risk-aware).* The bot looks one card ahead. It knows its deck's composition,
or the exact next card after its Oracle. For every kind of card it might turn over, it values
the resulting line:
- a second Dark Omen, with no unused Saint face up, is OUT and worth nothing;
- a self-drawing card (Firebrand, Warlord, Wyrm Lord) adds the chance that its extra cards
  include such an Omen.

It reveals when the expected utility beats STOPping now. With no Omen face up, the next card
cannot knock it out, so it reveals.

*Purchases (value model).* Each Champion is valued by its Swords and Gold, plus what its text
is expected to give in a future line of this deck. A future line holds about half of each
kind of card in the deck, so Mercenary reads the Gold cards, Retainer and Wing Knight the
Mystics, Paladin, Guard and Brigand the Rogues, Archer and Sentinel the Locations. Fixed
bonuses are added for protection (Saint, General, Hero), for harassment (forced draws,
flips), for copying (Dancer) and for extra cards, minus the Shaman's flip. It buys the
Champion that adds most over spending the same Gold on Gold cards, again while one still
does (no Champion limit by default). It always takes the free Soldier, then buys Gold cards
with what is left (they dilute the Omens and pay later).

*The Saint's question.* While still drawing it keeps the Omen's Gold: the unused Saint will
ignore the next Omen anyway, so keeping costs no safety. It lets the Saint ignore the Omen on a
Haunted Location (2 Swords back) or once stopped (the Gold is fixed, and a Saint flipped
later would no longer save the line).

*Targeting that hurts the leader.* A forced draw on a player is worth the chance it knocks
them OUT times what their line is worth, minus the cards it gives them. The chance is exact
from their public deck composition, their face-up Omens and unused Saints. Everything is
weighted up for players with more VP. When the bot may target itself (Apprentice,
Priestess, Pyromancer), it compares the benefit to itself too. The Assassin and the
Pyromancer may target nobody; the bot does when no choice helps (a forced draw on a deck with
no Omen left only gives cards). The other five must target someone, and it takes the choice
that costs it least. Flips (Assassin) take the best Champion from the strongest line
of the VP leader. As the victim of a Lunar Witch or of its own Shaman, it gives up its
least valuable card. The Dancer copies the Champion whose text is worth most now.

The bot reads the fields each decision needs (``SCHEMA.reader``) and the action mask:
nothing else. Whether an Omen would put it OUT is the observation's ``at_risk``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from itertools import compress
from typing import ClassVar

import numpy as np
from tabletop_envs.agents.base import SeededAgent

from tabletop_envs.core.encoding import FieldReader
from tabletop_envs.valiant_wars.observer import LINE_COUNTS, SCHEMA
from tabletop_envs.valiant_wars.rules import ValiantWarsGame
from tabletop_envs.valiant_wars.spec import (
    BUYING,
    CHAMPION_BASE,
    CHAMPIONS,
    CODE_SWORDS,
    CODE_TYPE,
    GOLD,
    GOLD_BONUS,
    IGNORE,
    KEEP_OMEN,
    LAYOUT,
    LOCATION_BASE,
    LOCATIONS,
    MERCENARY_CAP,
    NO_TYPE,
    NOBODY,
    NUM_CODES,
    NUM_KINDS,
    OMEN,
    REVEAL,
    SOLDIER_OPTION,
    STOP,
    Buy,
    ChampionType,
    Decision,
    Kind,
    Terrain,
)

K = Kind
GOLD_WEIGHT = 1.0
SWORD_WEIGHT = 0.5
VP_WEIGHT = 3.0
GOLD_CARD_VALUE = 0.6
"""What one Gold card adds to the deck, in the same units as a Champion's value (it also
takes a draw, so it is worth less than the Gold it shows)."""
GAME_WIN_WORTH = 30.0
"""What a Battle that ends the game is worth to a guided search beyond its VP (ten VP's
worth: more than any Gold or Location)."""
LINE_SHARE = 0.5
"""The share of each kind of card in the deck that a typical future line shows."""
SELF_DRAW = {K.FIREBRAND: 1, K.WARLORD: 1, K.WYRM_LORD: 2}
FORCED_DRAW = {K.APPRENTICE: 1, K.BRIGAND: 1, K.PYROMANCER: 2, K.SABOTEUR: 2, K.PRIESTESS: 1}
FIXED_BONUS = {
    K.SAINT: 2.0,
    K.GENERAL: 1.0,
    K.HERO: 0.5,
    K.ASSASSIN: 2.0,
    K.LUNAR_WITCH: 1.5,
    K.DANCER: 3.0,
    K.ORACLE: 0.5,
    K.SHAMAN: -1.5,
    K.APPRENTICE: 0.8,
    K.BRIGAND: 1.0,
    K.PYROMANCER: 1.5,
    K.SABOTEUR: 2.5,
    K.PRIESTESS: 1.5,
    K.FIREBRAND: 0.3,
    K.WARLORD: 0.3,
    K.WYRM_LORD: 0.3,
}
WARRIOR, MYSTIC, ROGUE = (int(t) for t in ChampionType)
MYSTIC_CODES = [code for code in range(NUM_CODES) if CODE_TYPE[code] == MYSTIC]
ROGUE_CODES = [code for code in range(NUM_CODES) if CODE_TYPE[code] == ROGUE]
LINE_TYPE = [NO_TYPE, *(CODE_TYPE[CHAMPION_BASE + kind] for kind in range(NUM_KINDS))]
"""The type of each ``line_champions`` entry (a Champion's kind plus one, 0 for none)."""
OMENS_UP, GOLD_UP = LINE_COUNTS.index("omens"), LINE_COUNTS.index("gold")


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _argmax(row: list[int]) -> int:
    """The first index of the largest entry (``np.argmax``)."""
    return row.index(max(row))


WIDTHS = SCHEMA.widths
"""Each observation field's row length."""


class Seen:
    """The fields of the bot's observation that one decision reads, as Python ints."""

    __slots__ = ("at", "values")

    def __init__(self, reader: FieldReader, vector: np.ndarray) -> None:
        self.values = reader.read(vector)
        self.at = reader.at

    def get(self, name: str, index: int = 0) -> int:
        """Entry ``index`` of field ``name`` (a 2-D field counted row by row)."""
        return self.values[self.at[name] + index]

    def row(self, name: str, row: int = 0) -> list[int]:
        """Row ``row`` of field ``name`` (the whole field if it is one-dimensional)."""
        width = WIDTHS[name]
        start = self.at[name] + row * width
        return self.values[start : start + width]


DECISIONS, AT_RISK = len(Decision), SCHEMA.offset("at_risk")
"""What every decision reads first, directly from the vector (flags, 0 or 1): the decision's
kind (the first entries), and whether an Omen would put the bot OUT."""
RIVALS = ["players", "out", "drawing", "swords", "gold", "location_vp"]
REVEAL_READER = SCHEMA.reader([*RIVALS, ("known_top", 1), ("deck", 1)])
MY_TOP = SCHEMA.reader([("my_top", 1)])
"""The card the bot's Oracle showed on top of its deck (read only when it did)."""
MARKET_READER = SCHEMA.reader(["market", ("deck", 1), ("line_champions", 1), ("line_counts", 1)])
GOLD_LEFT = SCHEMA.reader([("purchase", 1)])
PLAYER_READER = SCHEMA.reader(
    [
        *RIVALS,
        *("effect", "draw_amount", "target_vp", "vp", "deck", "line_counts", "line_champions"),
        *("line_champion_up", "line_champion_copy", "line_saint_used"),
    ]
)
CARD_READER = SCHEMA.reader(
    ["effect", "subject", "deck", "line_counts", "line_champions", "line_champion_copy"]
)
SAINT_READER = SCHEMA.reader(["terrain", ("stopped", 1)])
OFFSETS = [LAYOUT.segment_of(decision).offset for decision in Decision]
MARKET_SLOTS = int(Buy.GOLD)
"""``buy`` options below this buy the Champion in that market slot."""


class ValiantWarsHeuristicAgent(SeededAgent):
    """Risk-aware stopping, a purchase value model and leader-hurting targeting."""

    name = "valiant_wars_heuristic"

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        legal = np.asarray(observation["action_mask"]).nonzero()[0]
        if legal.size == 0:
            raise ValueError(f"{agent} has no legal action to choose from")
        vector = np.asarray(observation["observation"])
        decision, at_risk = _head(vector)
        offset = OFFSETS[decision]
        if decision == Decision.REVEAL_OR_STOP and not at_risk:
            return offset + REVEAL
        options = [a - offset for a in legal.tolist()]
        return offset + self._choose[decision](self, vector, options)

    # ----- reveal or STOP ---------------------------------------------------------------
    def _reveal_or_stop(self, vector: np.ndarray, options: list[int]) -> int:
        """Asked only at risk (an Omen face up and no unused Saint)."""
        seen = Seen(REVEAL_READER, vector)
        rival = best_rival(seen, 0)
        now = utility(seen, 0, seen.get("gold"), seen.get("swords"), rival)
        return REVEAL if expected_after_reveal(seen, vector, rival) > now else STOP

    # ----- the Saint -------------------------------------------------------------------
    def _ignore_omen(self, vector: np.ndarray, options: list[int]) -> int:
        """Keep the Omen's Gold while still drawing: the unused Saint ignores the next Omen
        anyway. Ignore it now on a Haunted Location (2 Swords back), or once stopped (the
        Gold is fixed; a Saint flipped later would no longer save the line)."""
        seen = Seen(SAINT_READER, vector)
        haunted = bool(seen.get("terrain", Terrain.HAUNTED))
        return IGNORE if haunted or seen.get("stopped") else KEEP_OMEN

    # ----- targeting --------------------------------------------------------------------
    def _choose_player(self, vector: np.ndarray, options: list[int]) -> int:
        seen = Seen(PLAYER_READER, vector)
        effect = _argmax(seen.row("effect"))
        scores = {}
        for option in options:
            if option == NOBODY:
                scores[option] = 0.0
            elif effect in (K.ASSASSIN, K.LUNAR_WITCH):
                scores[option] = leader_weight(seen, option) * (1 + seen.get("swords", option))
            else:
                cards = seen.get("draw_amount") if effect == K.PRIESTESS else 0
                cards = cards or FORCED_DRAW.get(effect, 1)
                scores[option] = draw_harm(seen, option, cards)
        return max(options, key=lambda o: (scores[o], -o))

    def _choose_card(self, vector: np.ndarray, options: list[int]) -> int:
        seen = Seen(CARD_READER, vector)
        effect = _argmax(seen.row("effect"))
        subject = _argmax(seen.row("subject"))
        copy = effect == K.DANCER
        owned = Owned.of(seen, subject)
        worth = {o: line_card_worth(seen, subject, o, copy, owned) for o in options}
        if effect == K.ASSASSIN or effect == K.DANCER:
            return max(options, key=lambda o: (worth[o], -o))
        return min(options, key=lambda o: (worth[o], o))

    # ----- buying -----------------------------------------------------------------------
    def _buy(self, vector: np.ndarray, options: list[int]) -> int:
        slots = [o for o in options if o < MARKET_SLOTS]
        best = best_champion(Seen(MARKET_READER, vector), slots) if slots else None
        if best is not None:
            return best
        if Buy.SOLDIER in options:
            return Buy.SOLDIER
        if Buy.GOLD in options and GOLD_LEFT.read(vector)[0] >= 1:
            return Buy.GOLD
        return Buy.DONE

    _choose: ClassVar[dict[int, Callable[..., int]]] = {
        Decision.REVEAL_OR_STOP: _reveal_or_stop,
        Decision.CHOOSE_PLAYER: _choose_player,
        Decision.CHOOSE_CARD: _choose_card,
        Decision.BUY: _buy,
        Decision.IGNORE_OMEN: _ignore_omen,
    }


def _head(vector: np.ndarray) -> tuple[int, bool]:
    """The decision asked and whether an Omen would put the bot OUT (``at_risk``), read
    from the vector itself (cheaper than any decoding); a wrong shape is a ValueError."""
    if vector.shape != (SCHEMA.size,):
        raise ValueError(f"observation has shape {vector.shape}, expected ({SCHEMA.size},)")
    return _argmax(vector[:DECISIONS].tolist()), vector.item(AT_RISK) > 0.5


def best_champion(seen: Seen, slots: list[int]) -> int | None:
    """The market slot whose Champion adds most over spending its cost on Gold cards (None
    if none adds anything)."""
    owned = Owned.of(seen, 0)
    best, best_gain = None, 0.0
    for slot in slots:
        kind = _argmax(seen.row("market", slot))
        gain = champion_value(owned, kind) - GOLD_CARD_VALUE * CHAMPIONS[kind].cost
        if gain > best_gain:
            best, best_gain = slot, gain
    return best


# ----- reading the view -------------------------------------------------------------------
def omens_up(seen: Seen, seat: int) -> int:
    return seen.get("line_counts", seat * len(LINE_COUNTS) + OMENS_UP)


def unused_saints(seen: Seen, seat: int) -> int:
    """Face-up Saints (or Dancers copying one) of ``seat``'s line that ignored no Omen yet."""
    kinds = seen.row("line_champions", seat)
    saint, dancer = K.SAINT + 1, K.DANCER + 1
    if saint not in kinds and dancer not in kinds:
        return 0
    copies = seen.row("line_champion_copy", seat)
    flags = (seen.row(name, seat) for name in ("line_champion_up", "line_saint_used"))
    return sum(
        up == 1 and used == 0 and (kind == saint or (kind == dancer and copied == saint))
        for kind, copied, up, used in zip(kinds, copies, *flags, strict=True)
    )


def best_rival(seen: Seen, seat: int) -> tuple[float, bool]:
    """The highest Sword total among the other players still in; whether any is drawing."""
    out = seen.row("out")
    rivals = [r for r in range(sum(seen.row("players"))) if r != seat and not out[r]]
    if not rivals:
        return 0.0, False
    swords, drawing = seen.row("swords"), seen.row("drawing")
    return float(max(map(swords.__getitem__, rivals))), any(map(drawing.__getitem__, rivals))


def win_chance(rival: tuple[float, bool], swords: float) -> float:
    """The chance that ``swords`` win the Battle against ``rival`` (:func:`best_rival`)."""
    best, drawing = rival
    if not drawing:
        return 1.0 if swords > best and swords > 0 else 0.0
    return _sigmoid((swords - best - 2.0) / 2.0)


def utility(
    seen: Seen,
    seat: int,
    gold: float,
    swords: float,
    rival: tuple[float, bool] | None = None,
) -> float:
    """What ``gold`` and ``swords`` are worth to ``seat`` (``rival``: :func:`best_rival`,
    found here if not given)."""
    rival = best_rival(seen, seat) if rival is None else rival
    return line_worth(gold, swords, rival, VP_WEIGHT * float(seen.get("location_vp")))


def line_worth(gold: float, swords: float, rival: tuple[float, bool], stake: float) -> float:
    """:func:`utility` of a line, ``stake`` being the Location's worth (3 per VP)."""
    return GOLD_WEIGHT * gold + SWORD_WEIGHT * swords + stake * win_chance(rival, swords)


def card_gain(code: int) -> tuple[float, float]:
    """(Gold, Swords) a card adds on its own when turned face up."""
    if code in (GOLD, OMEN):
        return 1.0, 0.0
    if code >= CHAMPION_BASE and code < LOCATION_BASE:
        kind = code - CHAMPION_BASE
        return float(GOLD_BONUS.get(kind, 0)), float(CODE_SWORDS[code])
    return 0.0, float(CODE_SWORDS[code])


CARD_GAIN = [card_gain(code) for code in range(NUM_CODES)]
"""What each card code adds on its own (:func:`card_gain`)."""
CODES = range(NUM_CODES)
CARD_SELF_DRAW = [SELF_DRAW.get(code - CHAMPION_BASE, 0) for code in range(NUM_CODES)]
"""How many cards each card code makes its owner draw (0 for all but three Champions)."""


def next_card_counts(seen: Seen, vector: np.ndarray, deck: list[int]) -> list[int]:
    """How many of each card code the bot's next card is drawn from: its ``deck``, or the
    one card its Oracle showed on top."""
    if seen.get("known_top"):
        known = MY_TOP.read(vector)
        if any(known):
            return known
    return deck


def expected_after_reveal(seen: Seen, vector: np.ndarray, rival: tuple[float, bool]) -> float:
    """Expected utility of turning over one more card (OUT is worth 0); ``seen`` read from
    ``vector`` by :data:`REVEAL_READER`, ``rival``: :func:`best_rival` of the bot."""
    deck = seen.row("deck")
    omen_share = deck[OMEN] / max(sum(deck), 1)
    counts = next_card_counts(seen, vector, deck)
    cards = sum(counts)
    gold, swords = float(seen.get("gold")), float(seen.get("swords"))
    stake = VP_WEIGHT * float(seen.get("location_vp"))
    values: dict[tuple[float, float], float] = {}
    """Each (Gold, Swords) gain's utility: many cards add the same."""
    total = 0.0
    for code in compress(CODES, counts):
        if code == OMEN:
            continue
        gain = CARD_GAIN[code]
        value = values.get(gain)
        if value is None:
            value = values[gain] = line_worth(gold + gain[0], swords + gain[1], rival, stake)
        draws = CARD_SELF_DRAW[code]
        survive = (1.0 - omen_share) ** draws if draws else 1.0
        total += counts[code] / cards * survive * value
    return total


def bust_chance(seen: Seen, seat: int, cards: int) -> float:
    """Chance that ``cards`` forced draws put ``seat`` OUT (from public information)."""
    deck = seen.row("deck", seat)
    size = float(sum(deck))
    if size == 0:
        return 0.0
    needed = 2 - omens_up(seen, seat) + unused_saints(seen, seat)
    share = deck[OMEN] / size
    if needed <= 0:
        return 1.0
    if needed == 1:
        return 1.0 - (1.0 - share) ** cards
    if needed == 2 and cards >= 2:
        return share * min(1.0, (deck[OMEN] - 1) / max(size - 1, 1)) * (cards - 1)
    return 0.0


def leader_weight(seen: Seen, seat: int) -> float:
    target = max(float(seen.get("target_vp")), 1.0)
    return 1.0 + 2.0 * float(seen.get("vp", seat)) / target


def draw_harm(seen: Seen, seat: int, cards: int) -> float:
    """How much forcing ``seat`` to draw ``cards`` helps the bot (seat 0 is the bot)."""
    if seen.get("out", seat):
        return 0.0
    bust = bust_chance(seen, seat, cards)
    line = utility(seen, seat, float(seen.get("gold", seat)), float(seen.get("swords", seat)))
    gift = 1.2 * cards
    harm = bust * line - (1.0 - bust) * gift
    return -harm if seat == 0 else leader_weight(seen, seat) * harm


class Owned:
    """What a typical future line of one seat shows, from its deck and current line: the
    shares (:data:`LINE_SHARE`) of its Gold cards, Mystics, Rogues and Locations."""

    __slots__ = ("gold_cards", "locations", "mystics", "rogues")

    def __init__(self, gold: int, mystics: int, rogues: int, locations: int) -> None:
        self.gold_cards = LINE_SHARE * gold
        self.mystics = LINE_SHARE * mystics
        self.rogues = LINE_SHARE * rogues
        self.locations = LINE_SHARE * locations

    @classmethod
    def of(cls, seen: Seen, seat: int) -> Owned:
        """``seat``'s cards: its deck, and its line's Champions and face-up Gold (the line's
        Locations are not told apart: left out)."""
        deck, line = seen.row("deck", seat), seen.row("line_champions", seat)
        line_types = list(map(LINE_TYPE.__getitem__, compress(line, line)))
        gold_up = seen.get("line_counts", seat * len(LINE_COUNTS) + GOLD_UP)
        return cls(
            deck[GOLD] + gold_up,
            sum(map(deck.__getitem__, MYSTIC_CODES)) + line_types.count(MYSTIC),
            sum(map(deck.__getitem__, ROGUE_CODES)) + line_types.count(ROGUE),
            sum(deck[LOCATION_BASE:]),
        )

    def swords(self, kind: int) -> float:
        """The Swords a Champion's ongoing text adds in such a line."""
        ongoing = ONGOING_SWORDS.get(kind)
        return 0.0 if ongoing is None else ongoing(self)


ONGOING_SWORDS: dict[int, Callable[[Owned], float]] = {
    K.ARCHER: lambda owned: 3.0 * min(1.0, owned.locations),
    K.BRIGAND: lambda owned: min(1.0, owned.rogues),
    K.GUARD: lambda owned: 2.0 * min(1.0, owned.rogues),
    K.MERCENARY: lambda owned: min(float(MERCENARY_CAP), owned.gold_cards),
    K.PALADIN: lambda owned: 2.0 * owned.rogues,
    K.RETAINER: lambda owned: 2.0 * owned.mystics,
    K.SENTINEL: lambda owned: 2.0 * owned.locations,
    K.WING_KNIGHT: lambda owned: owned.mystics,
}
"""The Champions whose ongoing text adds Swords, and how many in a typical line."""


def text_value(owned: Owned, kind: int) -> float:
    """Swords-and-Gold worth of a Champion's ongoing text in a typical line (``owned``)."""
    return SWORD_WEIGHT * 2 * owned.swords(kind) + GOLD_WEIGHT * GOLD_BONUS.get(kind, 0)


def champion_value(owned: Owned, kind: int) -> float:
    """What adding this Champion to the deck is worth (its printed value plus its text)."""
    printed = SWORD_WEIGHT * 2 * CHAMPIONS[kind].swords
    return printed + text_value(owned, kind) + FIXED_BONUS.get(kind, 0.0)


def line_card_worth(seen: Seen, seat: int, option: int, copy: bool, owned: Owned) -> float:
    """Worth of choose_card ``option`` in ``seat``'s line (a Soldier is worth 1 Sword);
    ``owned``: that seat's :class:`Owned`.

    ``copy``: worth to a Dancer, which takes the text but not the printed Swords.
    """
    if option == SOLDIER_OPTION:
        return 1.0
    kind = seen.get("line_champions", seat * SCHEMA.widths["line_champions"] + option) - 1
    copied = seen.get("line_champion_copy", seat * SCHEMA.widths["line_champion_copy"] + option) - 1
    effect = copied if kind == K.DANCER and copied >= 0 else kind
    text = text_value(owned, effect)
    if copy:
        return text + FIXED_BONUS.get(effect, 0.0)
    return CHAMPIONS[kind].swords + text


class RevealGuide:
    """Guides a search bot (``guide=heuristic``) through the push-your-luck steps.

    It searches REVEAL or STOP whenever the next card could put the seat OUT (an Omen face
    up, no unused Saint); the heuristic answers every other decision. Rollouts stop when the
    reveal phase ends, and a line is then worth the bot's own utility with the Battle decided:
    its fixed Gold plus 3 per VP of the Location for the strict Sword leader (nothing once
    OUT), and :data:`GAME_WIN_WORTH` more if that Location wins the game. A seat's value is its
    line's worth minus the best other line's, in units of :data:`GAME_WIN_WORTH` (so a usual
    margin lies well inside ISMCTS's [-1, 1] and a game-winning Battle counts about 1).
    """

    def searches(self, observation: np.ndarray) -> bool:
        decision, at_risk = _head(np.asarray(observation))
        return decision == Decision.REVEAL_OR_STOP and bool(at_risk)

    def stage(self, game: ValiantWarsGame) -> tuple[int, int]:
        return game.round, game.phase

    def value(self, game: ValiantWarsGame) -> np.ndarray:
        worth = np.zeros(game.num_players)
        if game.phase == BUYING:
            swords = [game.swords(seat) for seat in range(game.num_players)]
            best = max(swords)
            for seat, line_swords in enumerate(swords):
                worth[seat] = GOLD_WEIGHT * game.gold(seat)
                if line_swords == best > 0 and swords.count(best) == 1:
                    vp = LOCATIONS[game.location].vp
                    worth[seat] += VP_WEIGHT * vp + GAME_WIN_WORTH * (
                        game.vp[seat] + vp >= game.target
                    )
        best_other = [np.delete(worth, seat).max() for seat in range(game.num_players)]
        return (worth - best_other) / GAME_WIN_WORTH


__all__ = ["RevealGuide", "ValiantWarsHeuristicAgent"]
