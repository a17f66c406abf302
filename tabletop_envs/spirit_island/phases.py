"""The turn and its phases: the steps that order a turn, the Spirit Phase (growth, Presence,
Energy, gaining and playing Power cards), the Power phases' order of play and Time Passes,
with the options and the resolution of each decision they ask.

Every function takes the game first; ``rules.py`` finds them through its tables (``STEP_RUN``
for a queued step, ``DECISIONS`` for a decision's options and resolution).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop_envs.core.game import NO_SEAT
from tabletop_envs.spirit_island import spec
from tabletop_envs.spirit_island.spec import (
    CARD_DONE,
    CARDS,
    DRAW,
    HEALED,
    MAJOR,
    MAX_CARDS,
    MINOR,
    POWER_PASS,
    TARGETS_SPIRIT,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame


# ----- steps -----------------------------------------------------------------------------------
def step_turn(game: SpiritIslandGame) -> None:
    """Queue one turn: Spirit Phase, Fast Powers, Invader Phase, Slow Powers, Time Passes."""
    game.turn += 1
    game.push("turn")
    game.push("time_passes")
    for seat in reversed(range(game.num_players)):
        game.push("keep_played", seat)
    game.push("powers_start", spec.SLOW)
    for name in ("advance", "explore", "build", "ravage", "fear", "blighted"):
        game.push(name)
    game.push("powers_start", spec.FAST)
    for seat in reversed(range(game.num_players)):
        game.push("play", seat)
        game.push("energy", seat)
        game.push("growth", seat)


def step_growth(game: SpiritIslandGame, seat: int) -> None:
    game.ask("growth", seat)


def step_growth_steps(game: SpiritIslandGame, seat: int, group: int, done: int) -> None:
    game.ask("growth_step", seat, group, done)


def step_energy(game: SpiritIslandGame, seat: int) -> None:
    """Gain the Energy and the card plays the tracks show."""
    game.energy[seat] += game.energy_per_turn(seat)
    game.plays_left[seat] = game.card_plays(seat)
    if game.has_reclaim_one(seat):
        game.push("reclaim_one", seat)


def step_play(game: SpiritIslandGame, seat: int) -> None:
    game.ask("play", seat)


def step_reclaim_one(game: SpiritIslandGame, seat: int) -> None:
    game.ask("reclaim", seat)


def step_keep_played(game: SpiritIslandGame, seat: int) -> None:
    """Before Time Passes, a Spirit allowed to keep played cards picks one (or none)."""
    if game.keep_cards[seat] and game.played[seat]:
        game.ask("keep_played", seat)


def step_presence(game: SpiritIslandGame, seat: int, distance: int) -> None:
    game.ask("track", seat, distance)


def step_gain(game: SpiritIslandGame, seat: int) -> None:
    """Gain a Power card: the teaching game's next card of the progression, else a draw."""
    if game.progression[seat]:
        card = game.progression[seat].pop(0)
        game.hand[seat].append(card)
        if CARDS[card].kind == MAJOR:
            game.push("forget", seat)
        return
    game.ask("deck", seat)


def step_forget(game: SpiritIslandGame, seat: int) -> None:
    game.ask("forget", seat)


def step_powers_start(game: SpiritIslandGame, speed: int) -> None:
    """List each Spirit's Powers of this phase (the Fast phase lists Slow ones too: a Spirit
    may be allowed to use them as Fast)."""
    for seat in range(game.num_players):
        cards = [c for c in game.played[seat] if CARDS[c].speed == speed or speed == spec.FAST]
        innates = [
            MAX_CARDS + i
            for i, power in enumerate(game.spirit(seat).innates)
            if power.speed == speed or speed == spec.FAST
        ]
        game.unresolved[seat] = [o for o in cards + innates if o not in game.hastened[seat]]
        game.passed[seat] = 0
    game.push("powers", speed, 0)


def step_powers(game: SpiritIslandGame, speed: int, start: int) -> None:
    """Ask the next Spirit from ``start`` with a Power to use; the phase ends when none has.
    (A Spirit with none has no options, so asking it leaves nothing pending: its Powers are
    listed once, by the question.)"""
    n = game.num_players
    for offset in range(n):
        game.ask("power", (start + offset) % n, speed)
        if game.pending:
            return
    for seat in range(n):
        game.unresolved[seat] = []


def step_use(game: SpiritIslandGame, seat: int, option: int) -> None:
    power = game.power_of(seat, option)
    game.ask("target_spirit" if power.target == TARGETS_SPIRIT else "target_land", seat, option)


def step_time_passes(game: SpiritIslandGame) -> None:
    """Played cards to the discard, Elements and turn allowances gone, Damage healed, Defend,
    skips and Isolate ended."""
    for seat in range(game.num_players):
        game.discard[seat] += game.played[seat]
        game.played[seat] = []
        game.elements[seat] = [0] * len(spec.ELEMENTS)
        game.plays_left[seat] = 0
        game.unresolved[seat] = []
        game.resolved[seat] = []
        game.hastened[seat] = []
        game.hasten[seat] = 0
        game.repeat_cost[seat] = -1
        game.paid_repeats[seat] = 0
        game.passed[seat] = 0
        game.range_bonus[seat] = 0
        game.keep_cards[seat] = 0
    for land in game.lands:
        row = game.pieces[land]
        for damaged, healthy in HEALED.items():
            row[healthy] += row[damaged]
            row[damaged] = 0
        game.defend[land] = 0
        game.skips[land] = 0
        game.isolated[land] = False


# ----- options of each decision ------------------------------------------------------------
def track_open(game: SpiritIslandGame, seat: int, track: int) -> bool:
    """Whether Presence is left on ``seat``'s track (0 Energy, 1 card plays)."""
    spirit = game.spirit(seat)
    if track == 0:
        return game.energy_track[seat] < len(spirit.energy_track) - 1
    return game.card_track[seat] < len(spirit.card_track) - 1


def opt_growth(game: SpiritIslandGame, seat: int) -> list[int]:
    return list(range(len(game.spirit(seat).growth)))


def opt_growth_step(game: SpiritIslandGame, seat: int, group: int, done: int) -> list[int]:
    """The group's actions not done yet (one of each kind: the same action twice is one)."""
    actions = game.spirit(seat).growth[group]
    options, seen = [], set()
    for i, action in enumerate(actions):
        if not done >> i & 1 and action not in seen:
            seen.add(action)
            options.append(i)
    return options


def opt_track(game: SpiritIslandGame, seat: int, distance: int) -> list[int]:
    return [t for t in (0, 1) if track_open(game, seat, t)]


def opt_presence_land(game: SpiritIslandGame, seat: int, distance: int, track: int) -> list[int]:
    if not track_open(game, seat, track):
        return []
    return game.in_range(seat, distance)


def opt_play(game: SpiritIslandGame, seat: int) -> list[int]:
    options = []
    if game.plays_left[seat] > 0:
        options = sorted(c for c in game.hand[seat] if CARDS[c].cost <= game.energy[seat])
    return [*options, CARD_DONE]


def opt_power(game: SpiritIslandGame, seat: int, speed: int) -> list[int]:
    usable = game.candidates(seat, speed)
    return [*usable, POWER_PASS] if usable else []


def opt_deck(game: SpiritIslandGame, seat: int) -> list[int]:
    options = []
    if game.minor_deck or game.minor_discard:
        options.append(0)
    if game.major_deck or game.major_discard:
        options.append(1)
    return options


def opt_keep(game: SpiritIslandGame, seat: int) -> list[int]:
    return list(range(len(game.drawn))) if game.drawn_by == seat else []


def opt_forget(game: SpiritIslandGame, seat: int) -> list[int]:
    return sorted(game.hand[seat] + game.played[seat] + game.discard[seat])


def opt_keep_played(game: SpiritIslandGame, seat: int) -> list[int]:
    return [*sorted(game.played[seat]), CARD_DONE]


def opt_reclaim(game: SpiritIslandGame, seat: int) -> list[int]:
    return [*sorted(game.discard[seat]), CARD_DONE] if game.discard[seat] else []


# ----- resolving a decision ------------------------------------------------------------------
def res_growth(game: SpiritIslandGame, seat: int, group: int) -> None:
    game.push("growth_steps", seat, group, 0)


def res_growth_step(game: SpiritIslandGame, seat: int, index: int, group: int, done: int) -> None:
    actions = game.spirit(seat).growth[group]
    done |= 1 << index
    if done != (1 << len(actions)) - 1:
        game.push("growth_steps", seat, group, done)
    action, amount = actions[index]
    if action == "reclaim_all":
        game.hand[seat] += game.discard[seat]
        game.discard[seat] = []
    elif action == "reclaim_one":
        game.push("reclaim_one", seat)
    elif action == "gain_card":
        game.push("gain", seat)
    elif action == "energy":
        game.energy[seat] += amount
    else:
        game.push("presence", seat, amount)


def res_track(game: SpiritIslandGame, seat: int, track: int, distance: int) -> None:
    game.ask("presence_land", seat, distance, track)


def res_presence_land(
    game: SpiritIslandGame, seat: int, land: int, distance: int, track: int
) -> None:
    place_presence(game, seat, land, track)


def place_presence(game: SpiritIslandGame, seat: int, land: int, track: int) -> None:
    """One Presence from the top of ``track`` (0 Energy, 1 card plays) into ``land``."""
    if track == 0:
        game.energy_track[seat] += 1
    else:
        game.card_track[seat] += 1
    game.presence[seat][land] += 1


def res_play(game: SpiritIslandGame, seat: int, card: int) -> None:
    if card == CARD_DONE:
        return
    game.hand[seat].remove(card)
    game.played[seat].append(card)
    game.energy[seat] -= CARDS[card].cost
    game.plays_left[seat] -= 1
    for i, count in enumerate(CARDS[card].elements):
        game.elements[seat][i] += count
    game.push("play", seat)


def res_power(game: SpiritIslandGame, seat: int, option: int, speed: int) -> None:
    """Use a Power (or pass for the phase); the next Spirit in turn is asked after it."""
    game.push("powers", speed, (seat + 1) % game.num_players)
    if option == POWER_PASS:
        game.unresolved[seat] = []
        game.passed[seat] = 1  # a repeat allowance left waits for the next phase
        return
    if option in game.unresolved[seat] and option not in game.resolved[seat]:
        game.unresolved[seat].remove(option)
        if speed == spec.FAST and game.power_of(seat, option).speed == spec.SLOW:
            game.hastened[seat].append(option)
        if option < MAX_CARDS:
            game.resolved[seat].append(option)
    elif game.repeat_kind(seat, option) == "paid":  # a repeat paid for
        game.paid_repeats[seat] -= 1
        game.energy[seat] -= CARDS[option].cost
    else:  # a repeat of a card already resolved, free
        game.repeat_cost[seat] = -1
    game.push("use", seat, option)


def res_deck(game: SpiritIslandGame, seat: int, major: int) -> None:
    """Draw 4 of the chosen deck (its discard reshuffled when it runs out)."""
    deck = game.major_deck if major else game.minor_deck
    discard = game.major_discard if major else game.minor_discard
    drawn = []
    for _ in range(DRAW):
        if not deck and discard:
            deck += [discard[i] for i in game.rng.permutation(len(discard))]
            discard.clear()
        if deck:
            drawn.append(deck.pop(0))
    game.drawn, game.drawn_by, game.drawn_major = drawn, seat, bool(major)
    game.ask("keep", seat)


def res_keep(game: SpiritIslandGame, seat: int, index: int) -> None:
    """Keep one drawn card, discard the others; a Major is paid for by forgetting a card."""
    card = game.drawn[index]
    discard = game.major_discard if game.drawn_major else game.minor_discard
    discard += [c for c in game.drawn if c != card]
    game.hand[seat].append(card)
    major = game.drawn_major
    game.drawn, game.drawn_by, game.drawn_major = [], NO_SEAT, False
    if major:
        game.push("forget", seat)


def res_forget(game: SpiritIslandGame, seat: int, card: int) -> None:
    """Forget a card: a Minor or Major to its deck's discard, a unique out of the game."""
    for pile in (game.hand[seat], game.played[seat], game.discard[seat]):
        if card in pile:
            pile.remove(card)
            break
    kind = CARDS[card].kind
    if kind == MINOR:
        game.minor_discard.append(card)
    elif kind == MAJOR:
        game.major_discard.append(card)
    else:
        game.forgotten.append(card)


def res_keep_played(game: SpiritIslandGame, seat: int, card: int) -> None:
    """A played card back to the hand instead of the discard (none: the allowance is gone)."""
    if card == CARD_DONE:
        game.keep_cards[seat] = 0
        return
    game.played[seat].remove(card)
    game.hand[seat].append(card)
    game.keep_cards[seat] -= 1
    game.push("keep_played", seat)


def res_reclaim(game: SpiritIslandGame, seat: int, card: int) -> None:
    if card != CARD_DONE:
        game.discard[seat].remove(card)
        game.hand[seat].append(card)
