"""Vaalbara as text: action names and the table, for a spectator or one seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop_envs.core.screen import Screen, counted, listing, table
from tabletop_envs.vaalbara.spec import (
    CLANS,
    EMPTY,
    LAND_CARDS,
    LAYOUT,
    MAX_PLAYERS,
    Character,
    Decision,
    LandKind,
    bit,
    cards_in,
    omen_order,
)

if TYPE_CHECKING:
    from tabletop_envs.vaalbara.rules import VaalbaraGame

TO_DECIDE = {
    Decision.SELECT: "choose a character, face down",
    Decision.FIGHTER: "reveal a Fighter in hand for 1 VP, or not",
    Decision.BARD: "Bard: choose who gains 2 VP",
    Decision.TRACKER: "Tracker: choose a land to swap with the deck's top card",
    Decision.MIDWIFE: "Midwife: take a character back into hand",
    Decision.RIDER_FIRST: "Rider: choose a land in row 1",
    Decision.RIDER_SECOND: "Rider: choose the land in row 2 to swap it with",
    Decision.PIONEER: "Pioneer: choose a land type to give up",
    Decision.TAKE_LAND: "take a land from row 1",
}
"""Each decision in words, for "To decide"."""


def land_name(card: int) -> str:
    return "(empty)" if card == EMPTY else LandKind(LAND_CARDS[card][0]).title


def action_to_str(game: VaalbaraGame, action: int) -> str:
    """One action in words; row slots name the land there now."""
    segment, option = LAYOUT.locate(action)
    decision = Decision(LAYOUT.kind_segments.index(segment))
    if decision in (Decision.SELECT, Decision.MIDWIFE):
        verb = "play" if decision == Decision.SELECT else "take back"
        return f"{verb} {Character(option).title} ({option + 1})"
    if decision == Decision.FIGHTER:
        return "reveal Fighter (+1 VP)" if option else "keep Fighter hidden"
    if decision == Decision.BARD:
        seat = (game.decider + option + 1) % game.num_players
        return f"Bard: player_{seat} ({CLANS[seat]}) gains 2 VP"
    if decision == Decision.TRACKER:
        row, slot = divmod(option, MAX_PLAYERS)
        return f"Tracker: swap row {row + 1} slot {slot + 1} ({land_name(game.rows[row][slot])})"
    if decision == Decision.RIDER_FIRST:
        return f"Rider: from row 1 slot {option + 1} ({land_name(game.rows[0][option])})"
    if decision == Decision.RIDER_SECOND:
        return f"Rider: with row 2 slot {option + 1} ({land_name(game.rows[1][option])})"
    if decision == Decision.PIONEER:
        return f"Pioneer: give up a {LandKind(option).title}"
    return f"take row 1 slot {option + 1} ({land_name(game.rows[0][option])})"


def _characters(mask: int) -> str:
    return ", ".join(Character(card).title for card in cards_in(mask)) or "-"


def _seat_lines(game: VaalbaraGame, seat: int, viewer: int | None) -> list[str]:
    see_all = viewer is None or viewer == seat
    pick = game.picks[seat]
    if pick == EMPTY:
        shown = "-"
    elif game.revealed or see_all:
        shown = f"{Character(pick).title} ({pick + 1})"
    else:
        shown = "(face down)"
    vp = str(game.vp[seat]) if see_all else "?"
    realm = ", ".join(land_name(card) for card in game.realms[seat]) or "-"
    hand = _characters(game.hands[seat]) if see_all else f"{bin(game.hands[seat]).count('1')} cards"
    return [
        f"  player_{seat} {CLANS[seat]:<7} VP {vp:>4}  pick: {shown}",
        f"      realm: {realm}",
        f"      hand: {hand}   played: {_characters(game.discards[seat])}",
    ]


def render_text(game: VaalbaraGame, viewer: int | None = None) -> str:
    """The rows, each realm, the round and whose turn it is."""
    who = "spectator (all cards shown)" if viewer is None else f"player_{viewer}'s view"
    lines = [f"=== Vaalbara, round {game.round + 1} of 9 — {who} ==="]
    omens = " > ".join(CLANS[s] for s in omen_order(game.top_back(), game.num_players))
    lines.append(f"Land deck: {len(game.land_deck)} cards; omens (best first): {omens}")
    for number, row in enumerate(game.rows, start=1):
        lines.append(f"Row {number}: " + " | ".join(land_name(card) for card in row))
    if game.revealed:
        lines.append("Turn order: " + " > ".join(CLANS[s] for s in game.turn_order))
    for seat in range(game.num_players):
        lines.extend(_seat_lines(game, seat, viewer))
    if game.is_terminal:
        scores = ", ".join(f"{CLANS[s]} {game.final_score(s)}" for s in range(game.num_players))
        lines.append(f"Game over. Final scores: {scores}. Winner: {CLANS[game.winner()]}")
    else:
        decision = Decision(game.decision).name.lower().replace("_", " ")
        lines.append(f"To decide: player_{game.decider} ({CLANS[game.decider]}): {decision}")
    return "\n".join(lines)


def _names(mask: int) -> list[str]:
    return [Character(card).title for card in cards_in(mask)]


def _land(card: int) -> str:
    return "-" if card == EMPTY else LandKind(LAND_CARDS[card][0]).title


def readable_view(game: VaalbaraGame, player: int) -> dict[str, Any]:
    """What ``player`` may know (as the observer's view), in words, for people."""
    n = game.num_players
    others = []
    for seat in range(n):
        entry: dict[str, Any] = {
            "seat": seat,
            "clan": CLANS[seat],
            "realm": [_land(card) for card in game.realms[seat]],
            "played": _names(game.discards[seat]),
            "hand_size": bin(game.hands[seat]).count("1"),
            "known_in_hand": _names(game.known_in_hand[seat]),
            "picked": game.picks[seat] != EMPTY,
        }
        if game.revealed:
            entry["pick"] = Character(game.picks[seat]).title
        others.append(entry)
    view: dict[str, Any] = {
        "you": f"player_{player} ({CLANS[player]})",
        "round": game.round + 1,
        "your_hand": _names(game.hands[player]),
        "your_pick": None if game.picks[player] == EMPTY else Character(game.picks[player]).title,
        "your_vp": game.vp[player],
        "players": others,
        "row1": [_land(card) for card in game.rows[0]],
        "row2": [_land(card) for card in game.rows[1]],
        "omens_best_first": [CLANS[s] for s in omen_order(game.top_back(), n)],
        "land_deck": len(game.land_deck),
        "deck_top_known": _land(game.land_deck[-1]) if game.deck_known[-1] else None,
        "deck_bottom_known": _land(game.land_deck[0]) if game.deck_known[0] else None,
    }
    if game.revealed:
        view["turn_order"] = [CLANS[s] for s in game.turn_order]
    if game.decision != EMPTY:
        view["deciding"] = f"player_{game.decider}: {Decision(game.decision).name.lower()}"
    return view


# ----- the screen a person plays from ----------------------------------------------------
def clan_label(seat: int, viewer: int | None) -> str:
    """``Blue (you)`` for the viewer, ``Purple`` for the others."""
    return CLANS[seat] + (" (you)" if seat == viewer else "")


def _character(card: int) -> str:
    return f"{Character(card).title} ({card + 1})"


def _hand_words(game: VaalbaraGame, seat: int, viewer: int | None) -> str:
    if viewer in (None, seat):
        return listing((_character(c) for c in cards_in(game.hands[seat])), "empty")
    size = counted(bin(game.hands[seat]).count("1"), "card")
    known = [Character(c).title for c in cards_in(game.known_in_hand[seat])]
    return size + (f" (shown: {listing(known)})" if known else "")


def _pick_words(game: VaalbaraGame, seat: int, viewer: int | None) -> str:
    pick = game.picks[seat]
    if pick == EMPTY:
        return "choosing" if game.decision == Decision.SELECT else "none"
    if game.revealed or viewer in (None, seat):
        return _character(pick)
    return "face down"


def _deck_words(game: VaalbaraGame) -> str:
    words = counted(len(game.land_deck), "card")
    if game.deck_known[-1]:
        words += f"; the top card is a {_land(game.land_deck[-1])} (seen)"
    if game.deck_known[0]:
        words += f"; the bottom card is a {_land(game.land_deck[0])} (seen)"
    return words


def _slot(card: int) -> str:
    return "taken" if card == EMPTY else _land(card)


def _deciding(game: VaalbaraGame, viewer: int | None) -> str:
    if game.is_terminal:
        return "nobody: the game is over"
    return f"{clan_label(game.decider, viewer)}: {TO_DECIDE[Decision(game.decision)]}"


def screen(game: VaalbaraGame, viewer: int | None = None) -> Screen:
    """The round, your hand, pick and points, the land rows and one row per clan."""
    n = game.num_players
    who = "everything shown" if viewer is None else clan_label(viewer, viewer)
    facts = []
    if viewer is not None:
        facts += [
            ("Your hand", _hand_words(game, viewer, viewer)),
            ("Your pick", _pick_words(game, viewer, viewer)),
            ("Your points", f"{game.vp[viewer]} VP (the others keep theirs face down)"),
        ]
    facts += [
        ("Land deck", _deck_words(game)),
        ("Omens, best first", listing(CLANS[s] for s in omen_order(game.top_back(), n))),
    ]
    if game.revealed:
        facts.append(("Turn order", listing(CLANS[s] for s in game.turn_order)))
    facts.append(("To decide", _deciding(game, viewer)))
    rows = table(
        "Land rows",
        ("row", *(f"slot {slot + 1}" for slot in range(n))),
        (
            ("row 1 (taken this round)", *(_slot(c) for c in game.rows[0])),
            ("row 2 (next round)", *(_slot(c) for c in game.rows[1])),
        ),
    )
    clans = table(
        "Clans",
        ("clan", "points", "pick", "hand", "played", "realm"),
        (
            (
                clan_label(seat, viewer),
                f"{game.vp[seat]} VP" if viewer in (None, seat) else "hidden",
                _pick_words(game, seat, viewer),
                _hand_words(game, seat, viewer),
                listing((Character(c).title for c in cards_in(game.discards[seat])), "none"),
                listing((_land(card) for card in game.realms[seat]), "empty"),
            )
            for seat in range(n)
        ),
    )
    title = f"Vaalbara, round {min(game.round + 1, 9)} of 9: {who}"
    return Screen(title, tuple(facts), (rows, clans))


def narrate(game: VaalbaraGame, action: int, viewer: int) -> list[str]:
    """The reveal of the characters, lands taken without a decision, cards shown in hand,
    a new round's rows and the viewer's draws."""
    after = game.clone()
    after.apply(action)
    lines = []
    if not game.revealed and after.revealed:
        picks = listing(f"{CLANS[s]} {_character(after.picks[s])}" for s in range(game.num_players))
        order = listing(CLANS[s] for s in after.turn_order)
        lines.append(f"Characters revealed: {picks}; turn order {order}")
    mover = game.decider
    for seat in range(game.num_players):
        taken = after.realms[seat][len(game.realms[seat]) :]
        if taken and seat != mover:
            who = "You take" if seat == viewer else f"{CLANS[seat]} takes"
            lines.append(f"{who} the last land in row 1: {listing(_land(c) for c in taken)}")
        shown = after.known_in_hand[seat] & ~game.known_in_hand[seat] & bit(Character.FIGHTER)
        if shown and seat != viewer:
            lines.append(f"{CLANS[seat]} reveals a Fighter in hand and gains 1 VP")
    if after.round > game.round and not after.is_terminal:
        new_row = listing(_land(card) for card in after.rows[1])
        lines.append(f"Round {after.round + 1} begins: row 2 slides down; new row 2: {new_row}")
        drawn = cards_in(after.hands[viewer] & ~game.hands[viewer])
        if drawn:
            lines.append(f"You draw {listing(_character(c) for c in drawn)}")
    if after.is_terminal and not game.is_terminal:
        lines.append("The ninth round is over: the game ends")
    return lines
