"""Valiant Wars as text: action names, a seat's view in words, the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop_envs.core.game import NO_SEAT
from tabletop_envs.core.screen import Screen, counted, listing, table
from tabletop_envs.valiant_wars.spec import (
    CHAMPION_BASE,
    CHAMPIONS,
    CTX_SUBJECT,
    EMPTY,
    IGNORE,
    LAYOUT,
    LOCATIONS,
    NO_CARD,
    NOBODY,
    SOLDIER_OPTION,
    STOP,
    Buy,
    Decision,
    Kind,
    card_name,
    champion_code,
    is_champion,
)

if TYPE_CHECKING:
    from tabletop_envs.valiant_wars.rules import ValiantWarsGame

TO_DECIDE = {
    Decision.REVEAL_OR_STOP: "reveal the next card or STOP (hidden until all have chosen)",
    Decision.CHOOSE_PLAYER: "choose the player a Champion's effect targets",
    Decision.CHOOSE_CARD: "choose the card a Champion's effect acts on",
    Decision.BUY: "buy cards",
    Decision.IGNORE_OMEN: "Saint: ignore the Dark Omen just revealed, or keep it",
}
"""Each decision in words, for "To decide"."""


def action_to_str(game: ValiantWarsGame, action: int) -> str:
    """The action in a person's words."""
    segment, option = LAYOUT.locate(action)
    return describe_action(game, Decision(LAYOUT.kind_segments.index(segment)), option)


def describe_action(game: ValiantWarsGame, decision: Decision, option: int) -> str:
    """One action in words, naming the seats and cards of the pending decision if any."""
    pending = game.decision == decision and game.decider != NO_SEAT
    if decision == Decision.REVEAL_OR_STOP:
        return "STOP" if option == STOP else "reveal the next card"
    if decision == Decision.IGNORE_OMEN:
        if option == IGNORE:
            return "the Saint ignores the Dark Omen (flipped face down, no Gold)"
        return "keep the Dark Omen (its Gold counts; the Saint stays unused)"
    if decision == Decision.CHOOSE_PLAYER:
        if option == NOBODY:
            return "target nobody"
        if pending:
            return f"target player_{(game.decider + option) % game.num_players}"
        return f"target the player {option} seat(s) to your left"
    if decision == Decision.CHOOSE_CARD:
        if option == SOLDIER_OPTION:
            return "flip a Soldier"
        if pending:
            subject = game.pending[CTX_SUBJECT]
            positions = game.champion_positions(subject)
            name = card_name(game.lines[subject][positions[option]])
            return f"choose {name} (Champion {option + 1} of player_{subject})"
        return f"choose Champion {option + 1} of the line"
    if option == Buy.DONE:
        return "done buying"
    if option == Buy.GOLD:
        return "buy a Gold card (1 Gold)"
    if option == Buy.SOLDIER:
        return "take a free Soldier"
    kind = game.market[option]
    if kind == NO_CARD:
        return f"buy market slot {option + 1} (empty)"
    return f"buy {Kind(kind).title} ({CHAMPIONS[kind].cost} Gold) from slot {option + 1}"


def _seat_lines(game: ValiantWarsGame, seat: int, viewer: int | None) -> list[str]:
    status = "OUT" if game.out[seat] else "stopped" if game.stopped[seat] else "drawing"
    if viewer is None and game.choices[seat] >= 0:
        status += ", chose " + ("STOP" if game.choices[seat] == STOP else "reveal")
    marker = " (first player)" if seat == game.first else ""
    line = ", ".join(line_words(game, seat)) or "-"
    deck = game.decks[seat]
    lines = [
        f"  player_{seat}{marker}: {game.vp[seat]} VP, {status}; "
        f"Swords {game.swords(seat)}, Gold {game.gold(seat)}; deck {len(deck)} cards",
        f"      line: {line}",
    ]
    shown = len(deck) if viewer is None else game.known_top[seat] if viewer == seat else 0
    if shown:
        top = ", ".join(card_name(deck[-1 - d]) for d in range(min(shown, len(deck))))
        lines.append(f"      deck from the top: {top}")
    return lines


def render_text(game: ValiantWarsGame, viewer: int | None = None) -> str:
    """The Location, the market, each line and whose decision it is."""
    who = "spectator (all cards shown)" if viewer is None else f"player_{viewer}'s view"
    lines = [f"=== Valiant Wars, round {game.round + 1}, target {game.target} VP — {who} ==="]
    if game.location_deck:
        location = LOCATIONS[game.location]
        lines.append(
            f"Location: {location.name}, {location.vp} VP ({location.terrain.text}); "
            f"{len(game.location_deck) - 1} more to come"
        )
    market = " | ".join("-" if k == NO_CARD else card_name(champion_code(k)) for k in game.market)
    soldiers, gold, omens = game.supply
    lines.append(f"Market: {market}")
    lines.append(f"Supply: {soldiers} Soldiers, {gold} Gold, {omens} Dark Omens")
    for seat in range(game.num_players):
        lines.extend(_seat_lines(game, seat, viewer))
    if game.is_terminal:
        names = ", ".join(f"player_{s}" for s in game.winners())
        lines.append(f"Game over. Winner(s): {names}")
    else:
        kind = Decision(game.decision).name.lower()
        lines.append(f"To decide: player_{game.decider}: {kind}")
    return "\n".join(lines)


def line_words(game: ValiantWarsGame, seat: int) -> list[str]:
    """``seat``'s line card by card, with each Dancer's copy, used Saints, face-down cards."""
    words = []
    for pos, code in enumerate(game.lines[seat]):
        name = card_name(code)
        copied = game.copies[seat][pos]
        if is_champion(code) and code - CHAMPION_BASE == Kind.DANCER and copied != EMPTY:
            name += f" (as {Kind(copied).title})"
        if game.used[seat][pos]:
            name += " (used)"
        words.append(name if game.face_up[seat][pos] else f"[{name}, face down]")
    return words


def _composition(cards: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for code in sorted(cards):
        counts[card_name(code)] = counts.get(card_name(code), 0) + 1
    return counts


def readable_view(game: ValiantWarsGame, player: int) -> dict[str, Any]:
    """What ``player`` may know (as the observer's view), in words, for people."""
    seats = []
    for seat in range(game.num_players):
        status = "out" if game.out[seat] else "stopped" if game.stopped[seat] else "drawing"
        seats.append(
            {
                "seat": seat,
                "vp": game.vp[seat],
                "status": status,
                "line": line_words(game, seat),
                "swords": game.swords(seat),
                "gold": game.gold(seat),
                "deck": _composition(game.decks[seat]),
                "knows_top_cards": game.known_top[seat],
            }
        )
    deck = game.decks[player]
    view: dict[str, Any] = {
        "you": f"player_{player}",
        "round": game.round + 1,
        "first_player": f"player_{game.first}",
        "target_vp": game.target,
        "players": seats,
        "your_known_top_cards": [card_name(deck[-1 - d]) for d in range(game.known_top[player])],
        "market": [
            "-" if kind == NO_CARD else f"{Kind(kind).title} ({CHAMPIONS[kind].cost} Gold)"
            for kind in game.market
        ],
        "champion_deck": len(game.champion_deck),
        "supply": dict(zip(("soldiers", "gold", "omens"), game.supply, strict=True)),
        "locations_left": len(game.location_deck),
    }
    if game.location_deck:
        location = LOCATIONS[game.location]
        view["location"] = f"{location.name} ({location.vp} VP; {location.terrain.text})"
    if game.decider == player and game.decision != EMPTY:
        view["deciding"] = Decision(game.decision).name.lower()
        if game.decision == Decision.BUY:
            view["gold_left"] = game.gold_left
    return view


# ----- the screen a person plays from ----------------------------------------------------
def seat_label(seat: int, viewer: int | None) -> str:
    return f"player_{seat}" + (" (you)" if seat == viewer else "")


def _status(game: ValiantWarsGame, seat: int) -> str:
    if game.out[seat]:
        return "OUT"
    return "stopped" if game.stopped[seat] else "drawing"


def _deck_words(game: ValiantWarsGame, seat: int) -> str:
    parts = [f"{count} {name}" for name, count in _composition(game.decks[seat]).items()]
    return listing(parts, "empty")


def _deciding(game: ValiantWarsGame, viewer: int | None) -> str:
    if game.is_terminal:
        return "nobody: the game is over"
    words = TO_DECIDE[Decision(game.decision)]
    if game.decision == Decision.BUY:
        words += f" ({game.gold_left} Gold left)"
    return f"{seat_label(game.decider, viewer)}: {words}"


def screen(game: ValiantWarsGame, viewer: int | None = None) -> Screen:
    """The Location, the market and supply, then one row per player: VP, status, line."""
    who = "everything shown" if viewer is None else seat_label(viewer, viewer)
    soldiers, gold, omens = game.supply
    facts = []
    if game.location_deck:
        location = LOCATIONS[game.location]
        facts.append(("Location", f"{location.name}: {location.vp} VP, {location.terrain.text}"))
    facts += [
        ("Goal", f"the first to {game.target} VP wins"),
        ("First player", seat_label(game.first, viewer)),
        ("Locations to come", str(max(0, len(game.location_deck) - 1))),
        (
            "Market",
            listing(
                "empty slot" if k == NO_CARD else f"{Kind(k).title} ({CHAMPIONS[k].cost} Gold)"
                for k in game.market
            ),
        ),
        ("Champion deck", counted(len(game.champion_deck), "card")),
        ("Supply", f"{soldiers} Soldiers, {gold} Gold, {omens} Dark Omens"),
    ]
    if viewer is not None and game.known_top[viewer]:
        deck = game.decks[viewer]
        top = listing(card_name(deck[-1 - d]) for d in range(game.known_top[viewer]))
        facts.append(("Your deck's top, known", top))
    facts.append(("To decide", _deciding(game, viewer)))
    players = table(
        "Players",
        ("player", "VP", "status", "Swords", "Gold", "line (left to right)", "deck"),
        (
            (
                seat_label(seat, viewer) + (", first" if seat == game.first else ""),
                str(game.vp[seat]),
                _status(game, seat),
                str(game.swords(seat)),
                str(game.gold(seat)),
                listing(line_words(game, seat), "no cards"),
                _deck_words(game, seat),
            )
            for seat in range(game.num_players)
        ),
    )
    return Screen(f"Valiant Wars, round {game.round + 1}: {who}", tuple(facts), (players,))


def narrate(game: ValiantWarsGame, action: int, viewer: int) -> list[str]:
    """Cards turned over, players going OUT or stopping, a Location won, a new round."""
    after = game.clone()
    after.apply(action)
    lines = []
    new_round = after.round != game.round
    for seat in range(game.num_players):
        you = seat == viewer
        who = "You" if you else f"player_{seat}"
        if after.vp[seat] > game.vp[seat] and game.location_deck:
            won = LOCATIONS[game.location].name
            verb = "win" if you else "wins"
            lines.append(f"{who} {verb} {won}: +{after.vp[seat] - game.vp[seat]} VP")
        if new_round:
            continue
        if after.out[seat] and not game.out[seat]:
            verb = "are" if you else "is"
            lines.append(f"{who} {verb} OUT: a second Dark Omen; the line goes back into the deck")
            continue
        turned = after.lines[seat][len(game.lines[seat]) :]
        if turned:
            verb = "turn" if you else "turns"
            lines.append(f"{who} {verb} over {listing(card_name(code) for code in turned)}")
        if after.stopped[seat] and not game.stopped[seat] and seat not in (viewer, game.decider):
            lines.append(f"{who} STOPs with {after.stop_gold[seat]} Gold")
    won = any(after.vp[seat] > game.vp[seat] for seat in range(game.num_players))
    if new_round and not won and game.location_deck:
        lines.append(
            f"Nobody takes {LOCATIONS[game.location].name} (a tie, no Swords, or everyone OUT): "
            "it is set aside"
        )
    if new_round and not after.is_terminal:
        location = LOCATIONS[after.location]
        lines.append(f"Round {after.round + 1}: the Location is {location.name} ({location.vp} VP)")
        firsts = listing(
            f"{seat_label(s, viewer)} {listing(card_name(c) for c in after.lines[s])}"
            for s in range(after.num_players)
            if after.lines[s]
        )
        lines.append(f"Everyone turns over a first card: {firsts}")
    if after.is_terminal and not game.is_terminal:
        lines.append("The game ends")
    return lines
