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

The bot decodes ``Game.SCHEMA.decode_lazy(observation)`` and reads the action mask: nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from tabletop_envs.agents.base import SeededAgent

from tabletop_envs.valiant_wars.observer import SCHEMA
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
    NOBODY,
    NUM_CODES,
    OMEN,
    REVEAL,
    SOLDIER,
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
IS_LOCATION = np.arange(NUM_CODES) >= LOCATION_BASE
OF_TYPE = {t: np.array([CODE_TYPE[c] == t for c in range(NUM_CODES)]) for t in (MYSTIC, ROGUE)}


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class ValiantWarsHeuristicAgent(SeededAgent):
    """Risk-aware stopping, a purchase value model and leader-hurting targeting."""

    name = "valiant_wars_heuristic"

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        mask = np.asarray(observation["action_mask"])
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"{agent} has no legal action to choose from")
        view = SCHEMA.decode_lazy(observation["observation"])
        decision = Decision(int(np.argmax(view["decision"])))
        segment = LAYOUT.segment_of(decision)
        options = [int(a) - segment.offset for a in legal]
        choose = {
            Decision.REVEAL_OR_STOP: self._reveal_or_stop,
            Decision.CHOOSE_PLAYER: self._choose_player,
            Decision.CHOOSE_CARD: self._choose_card,
            Decision.BUY: self._buy,
            Decision.IGNORE_OMEN: self._ignore_omen,
        }[decision]
        return segment.offset + choose(view, options)

    # ----- reveal or STOP ---------------------------------------------------------------
    def _reveal_or_stop(self, view: dict[str, np.ndarray], options: list[int]) -> int:
        if omens_up(view, 0) == 0 or unused_saints(view, 0):
            return REVEAL
        now = utility(view, 0, view["gold"][0], view["swords"][0])
        return REVEAL if expected_after_reveal(view) > now else STOP

    # ----- the Saint -------------------------------------------------------------------
    def _ignore_omen(self, view: dict[str, np.ndarray], options: list[int]) -> int:
        """Keep the Omen's Gold while still drawing: the unused Saint ignores the next Omen
        anyway. Ignore it now on a Haunted Location (2 Swords back), or once stopped (the
        Gold is fixed; a Saint flipped later would no longer save the line)."""
        haunted = bool(view["terrain"][Terrain.HAUNTED])
        return IGNORE if haunted or view["stopped"][0] else KEEP_OMEN

    # ----- targeting --------------------------------------------------------------------
    def _choose_player(self, view: dict[str, np.ndarray], options: list[int]) -> int:
        effect = Kind(int(np.argmax(view["effect"])))
        scores = {}
        for option in options:
            if option == NOBODY:
                scores[option] = 0.0
            elif effect in (K.ASSASSIN, K.LUNAR_WITCH):
                scores[option] = leader_weight(view, option) * (1 + view["swords"][option])
            else:
                cards = int(view["draw_amount"][0]) if effect == K.PRIESTESS else 0
                cards = cards or FORCED_DRAW.get(effect, 1)
                scores[option] = draw_harm(view, option, cards)
        return max(options, key=lambda o: (scores[o], -o))

    def _choose_card(self, view: dict[str, np.ndarray], options: list[int]) -> int:
        effect = Kind(int(np.argmax(view["effect"])))
        subject = int(np.argmax(view["subject"]))
        copy = effect == K.DANCER
        worth = {o: line_card_worth(view, subject, o, copy) for o in options}
        if effect == K.ASSASSIN or effect == K.DANCER:
            return max(options, key=lambda o: (worth[o], -o))
        return min(options, key=lambda o: (worth[o], o))

    # ----- buying -----------------------------------------------------------------------
    def _buy(self, view: dict[str, np.ndarray], options: list[int]) -> int:
        gold = int(view["purchase"][0])
        best, best_gain = None, 0.0
        for slot in (o for o in options if o < Buy.GOLD):
            kind = int(np.argmax(view["market"][slot]))
            gain = champion_value(view, kind) - GOLD_CARD_VALUE * CHAMPIONS[kind].cost
            if gain > best_gain:
                best, best_gain = slot, gain
        if best is not None:
            return best
        if Buy.SOLDIER in options:
            return Buy.SOLDIER
        if Buy.GOLD in options and gold >= 1:
            return Buy.GOLD
        return Buy.DONE


# ----- reading the view -------------------------------------------------------------------
def omens_up(view: dict[str, np.ndarray], seat: int) -> int:
    return int(view["line_counts"][seat, 1])


def unused_saints(view: dict[str, np.ndarray], seat: int) -> int:
    kinds = view["line_champions"][seat] - 1
    copies = view["line_champion_copy"][seat] - 1
    saints = (kinds == K.SAINT) | ((kinds == K.DANCER) & (copies == K.SAINT))
    ready = saints & (view["line_champion_up"][seat] == 1) & (view["line_saint_used"][seat] == 0)
    return int(ready.sum())


def next_card_odds(view: dict[str, np.ndarray], seat: int) -> np.ndarray:
    """Probability of each card code being ``seat``'s next card."""
    known = view["my_top"][0] if seat == 0 and view["known_top"][0] else None
    if known is not None and known.any():
        return known.astype(np.float64)
    deck = view["deck"][seat].astype(np.float64)
    total = deck.sum()
    return deck / total if total else deck


def best_rival(view: dict[str, np.ndarray], seat: int) -> tuple[float, bool]:
    """The highest Sword total among the other players still in; whether any is drawing."""
    players = int(view["players"].sum())
    rivals = [r for r in range(players) if r != seat and not view["out"][r]]
    if not rivals:
        return 0.0, False
    return max(float(view["swords"][r]) for r in rivals), any(view["drawing"][r] for r in rivals)


def win_chance(rival: tuple[float, bool], swords: float) -> float:
    """The chance that ``swords`` win the Battle against ``rival`` (:func:`best_rival`)."""
    best, drawing = rival
    if not drawing:
        return 1.0 if swords > best and swords > 0 else 0.0
    return _sigmoid((swords - best - 2.0) / 2.0)


def utility(
    view: dict[str, np.ndarray],
    seat: int,
    gold: float,
    swords: float,
    rival: tuple[float, bool] | None = None,
) -> float:
    """What ``gold`` and ``swords`` are worth to ``seat`` (``rival``: :func:`best_rival`,
    found here if not given)."""
    rival = best_rival(view, seat) if rival is None else rival
    location = VP_WEIGHT * float(view["location_vp"][0]) * win_chance(rival, swords)
    return GOLD_WEIGHT * gold + SWORD_WEIGHT * swords + location


def card_gain(code: int) -> tuple[float, float]:
    """(Gold, Swords) a card adds on its own when turned face up."""
    if code in (GOLD, OMEN):
        return 1.0, 0.0
    if code >= CHAMPION_BASE and code < LOCATION_BASE:
        kind = code - CHAMPION_BASE
        return float(GOLD_BONUS.get(kind, 0)), float(CODE_SWORDS[code])
    return 0.0, float(CODE_SWORDS[code])


def expected_after_reveal(view: dict[str, np.ndarray]) -> float:
    """Expected utility of turning over one more card (OUT is worth 0)."""
    odds = next_card_odds(view, 0)
    deck = view["deck"][0]
    omen_share = deck[OMEN] / max(deck.sum(), 1)
    gold, swords = float(view["gold"][0]), float(view["swords"][0])
    rival = best_rival(view, 0)
    total = 0.0
    for code in np.flatnonzero(odds):
        if code == OMEN:
            continue
        extra_gold, extra_swords = card_gain(int(code))
        survive = 1.0
        kind = int(code) - CHAMPION_BASE
        if kind in SELF_DRAW:
            survive = (1.0 - omen_share) ** SELF_DRAW[kind]
        value = utility(view, 0, gold + extra_gold, swords + extra_swords, rival)
        total += odds[code] * survive * value
    return total


def bust_chance(view: dict[str, np.ndarray], seat: int, cards: int) -> float:
    """Chance that ``cards`` forced draws put ``seat`` OUT (from public information)."""
    deck = view["deck"][seat]
    size = float(deck.sum())
    if size == 0:
        return 0.0
    needed = 2 - omens_up(view, seat) + unused_saints(view, seat)
    share = deck[OMEN] / size
    if needed <= 0:
        return 1.0
    if needed == 1:
        return 1.0 - (1.0 - share) ** cards
    if needed == 2 and cards >= 2:
        return share * min(1.0, (deck[OMEN] - 1) / max(size - 1, 1)) * (cards - 1)
    return 0.0


def leader_weight(view: dict[str, np.ndarray], seat: int) -> float:
    target = max(float(view["target_vp"][0]), 1.0)
    return 1.0 + 2.0 * float(view["vp"][seat]) / target


def draw_harm(view: dict[str, np.ndarray], seat: int, cards: int) -> float:
    """How much forcing ``seat`` to draw ``cards`` helps the bot (seat 0 is the bot)."""
    if view["out"][seat]:
        return 0.0
    bust = bust_chance(view, seat, cards)
    line = utility(view, seat, float(view["gold"][seat]), float(view["swords"][seat]))
    gift = 1.2 * cards
    harm = bust * line - (1.0 - bust) * gift
    return -harm if seat == 0 else leader_weight(view, seat) * harm


def text_value(view: dict[str, np.ndarray], kind: int, seat: int = 0) -> float:
    """Swords-and-Gold worth of a Champion's ongoing text in a typical line of ``seat``."""
    owned = view["deck"][seat] + line_codes(view, seat)
    gold_cards = LINE_SHARE * owned[GOLD]
    mystics = LINE_SHARE * owned[OF_TYPE[MYSTIC]].sum()
    rogues = LINE_SHARE * owned[OF_TYPE[ROGUE]].sum()
    locations = LINE_SHARE * owned[IS_LOCATION].sum()
    ongoing = {
        K.ARCHER: 3.0 * min(1.0, locations),
        K.BRIGAND: min(1.0, rogues),
        K.GUARD: 2.0 * min(1.0, rogues),
        K.MERCENARY: min(float(MERCENARY_CAP), gold_cards),
        K.PALADIN: 2.0 * rogues,
        K.RETAINER: 2.0 * mystics,
        K.SENTINEL: 2.0 * locations,
        K.WING_KNIGHT: mystics,
    }
    swords = ongoing.get(Kind(kind), 0.0)
    return SWORD_WEIGHT * 2 * swords + GOLD_WEIGHT * GOLD_BONUS.get(kind, 0)


def line_codes(view: dict[str, np.ndarray], seat: int) -> np.ndarray:
    """Card counts in ``seat``'s current line (Locations are not told apart: left out)."""
    counts = np.zeros(NUM_CODES)
    for kind in view["line_champions"][seat]:
        if kind:
            counts[CHAMPION_BASE + kind - 1] += 1
    gold, omens, cancelled, soldiers, flipped, _ = view["line_counts"][seat]
    counts[GOLD] += gold
    counts[OMEN] += omens + cancelled
    counts[SOLDIER] += soldiers + flipped
    return counts


def champion_value(view: dict[str, np.ndarray], kind: int) -> float:
    """What adding this Champion to the deck is worth (its printed value plus its text)."""
    champion = CHAMPIONS[kind]
    printed = SWORD_WEIGHT * 2 * champion.swords
    return printed + text_value(view, kind) + FIXED_BONUS.get(Kind(kind), 0.0)


def line_card_worth(view: dict[str, np.ndarray], seat: int, option: int, copy: bool) -> float:
    """Worth of choose_card ``option`` in ``seat``'s line (a Soldier is worth 1 Sword).

    ``copy``: worth to a Dancer, which takes the text but not the printed Swords.
    """
    if option == SOLDIER_OPTION:
        return 1.0
    kind = int(view["line_champions"][seat, option]) - 1
    copied = int(view["line_champion_copy"][seat, option]) - 1
    effect = copied if kind == K.DANCER and copied >= 0 else kind
    text = text_value(view, effect, seat)
    if copy:
        return text + FIXED_BONUS.get(Kind(effect), 0.0)
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
        view = SCHEMA.decode_lazy(observation)
        if Decision(int(np.argmax(view["decision"]))) != Decision.REVEAL_OR_STOP:
            return False
        return omens_up(view, 0) > 0 and not unused_saints(view, 0)

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
