"""Valenor in words: actions for logs and tests, a player's view and the table as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop_envs.core.screen import Screen, counted, listing, table
from tabletop_envs.valenor import spec as S
from tabletop_envs.valenor.spec import (
    INVADER_LEVELS,
    LAYOUT,
    LOSS_REASONS,
    LOST,
    ONGOING,
    PASS_PLAY,
    SAY_DEFEAT_AT,
    SAY_INVADER,
    SAY_PLUS,
    SAY_SHOWN,
    WON,
    Decision,
)

if TYPE_CHECKING:
    from tabletop_envs.valenor.rules import ValenorGame

TO_DECIDE = {
    Decision.CHOOSE_SPIRIT: "choose a Nature Spirit",
    Decision.SPIRIT_WINDOW: "use the Nature Spirit now, or pass",
    Decision.PLAY_CARD: "play a card",
    Decision.PLACE: "choose the Location for the card in play",
    Decision.DEVASTATE: "choose the Location the Invader devastates",
    Decision.MOVE_DEFENSE: "choose a Defense card to move",
    Decision.MOVE_TARGET: "choose where the Defense card goes",
    Decision.BRING_TO_FRONT: "choose the card to bring to the front of the hand",
}
"""Each decision in words, for "To decide"."""


def message_to_str(message: int) -> str:
    """A message in words (table talk about one's own hand, no value named)."""
    if message == 0:
        return "no message"
    if message == SAY_SHOWN:
        return '"I can defeat the shown Invader"'
    if message == SAY_PLUS:
        return '"I hold a +"'
    if message < SAY_INVADER:
        return f'"I can defeat the Invader at Location {message - SAY_DEFEAT_AT + 1}"'
    level, terrain = divmod(message - SAY_INVADER, S.NUM_TERRAINS)
    return f'"I hold a {INVADER_LEVELS[level]} Invader for {S.TERRAINS[terrain]}"'


def card_label(card: int) -> str:
    """A card's name with its id, which tells identical copies apart."""
    return f"{S.card_name(card)} (card {card})"


def action_to_str(game: ValenorGame, action: int) -> str:
    segment, option = LAYOUT.locate(action)
    if segment is LAYOUT.segment_of(Decision.CHOOSE_SPIRIT):
        return f"choose {S.SPIRITS[option].name}"
    if segment is LAYOUT.segment_of(Decision.SPIRIT_WINDOW):
        message, use = divmod(option, 2)
        words = "use my Nature Spirit" if use else "pass (no spirit)"
        return f"{words}, say {message_to_str(message)}" if message else words
    if segment is LAYOUT.segment_of(Decision.PLAY_CARD):
        return "play no further card" if option == PASS_PLAY else f"play {card_label(option)}"
    if segment is LAYOUT.segment_of(Decision.PLACE):
        return f"place at Location {option + 1}"
    if segment is LAYOUT.segment_of(Decision.DEVASTATE):
        return f"devastate Location {option + 1}"
    if segment is LAYOUT.segment_of(Decision.MOVE_DEFENSE):
        return f"move {card_label(option)}"
    return f"bring {card_label(option)} to the front"


def location_line(game: ValenorGame, position: int) -> str:
    terrains = "/".join(S.TERRAINS[t] for t in game.terrains_at(position))
    state = " (devastated)" if game.devastated[position] else ""
    invader = game.invader_at[position]
    attacker = f"Invader {S.VALUE[invader]}" if invader >= 0 else "-"
    stack = game.defense_at[position]
    defense = "+".join(str(S.VALUE[c]) for c in stack) or "-"
    total = sum(S.VALUE[c] for c in stack)
    return f"  L{position + 1} {terrains}{state}: {attacker}  defense {defense} (= {total})"


def hand_line(game: ValenorGame, seat: int, viewer: int | None) -> str:
    hand = game.hands[seat]
    if viewer is None or viewer == seat:
        cards = ", ".join(S.card_name(c) for c in hand)
    else:
        cards = ", ".join(S.BACK_NAMES[S.BACK[c]] for c in hand)
    spirit = game.spirit_of[seat]
    spirit_text = S.SPIRITS[spirit].name if spirit >= 0 else "no spirit yet"
    where = "laid out" if game.spirit_out[seat] else "in hand" if spirit >= 0 else ""
    marker = "*" if seat == game.active else " "
    return f" {marker}player_{seat} [{spirit_text}, {where}]: {cards or '(empty)'}"


def render_text(game: ValenorGame, viewer: int | None = None) -> str:
    top = S.LETTERS[S.CARD_LETTER[game.invader_deck[-1]]] if game.invader_deck else "-"
    lines = [
        f"Spirits of Valenor - {game.scenario.name}, turn {game.turn + 1}",
        f"Decks: Invader {len(game.invader_deck)} (top {top}), "
        f"Defense {len(game.defense_deck)}, Support {len(game.support_deck)}",
        "Locations:",
        *(location_line(game, i) for i in range(S.NUM_LOCATIONS)),
        "Hands (front first):",
        *(hand_line(game, seat, viewer) for seat in range(game.num_players)),
        f"Discards: {len(game.discards)} cards",
    ]
    if game.outcome != ONGOING:
        outcome = "WON" if game.outcome == WON else f"LOST: {LOSS_REASONS[game.loss_reason]}"
        lines.append(f"Game over - {outcome}")
    else:
        lines.append(f"player_{game.decider} decides: {decision_name(game)}")
    return "\n".join(lines)


def decision_name(game: ValenorGame) -> str | None:
    """The pending decision's kind in words (its segment's name), None once over."""
    return None if game.is_terminal else Decision(game.pending_kind()).name.lower()


def readable_view(game: ValenorGame, player: int) -> dict[str, Any]:
    """What ``player`` may know, in words: names, backs and counts."""
    seats = [(player + offset) % game.num_players for offset in range(game.num_players)]
    invaders = game.invader_deck
    return {
        "player": player,
        "active": game.active,
        "decision": decision_name(game),
        "decider": game.decider,
        "card_in_play": _name(game.card_in_play()),
        "hand": [S.card_name(c) for c in game.hands[player]],
        "other_hands": {
            seat: [S.BACK_NAMES[S.BACK[c]] for c in game.hands[seat]] for seat in seats[1:]
        },
        "spirits": {
            seat: {
                "spirit": _spirit_name(game.spirit_of[seat]),
                "laid_out": game.spirit_out[seat],
            }
            for seat in seats
        },
        "locations": [_location_words(game, i) for i in range(S.NUM_LOCATIONS)],
        "deck_sizes": {
            "defense": len(game.defense_deck),
            "support": len(game.support_deck),
            "invader": len(invaders),
        },
        "top_invader_letter": S.LETTERS[S.CARD_LETTER[invaders[-1]]] if invaders else None,
        "invaders_at_bottom": [S.card_name(c) for c in invaders[: game.known_bottom]],
        "discards": [S.card_name(c) for c in game.discards],
        "signals": {seat: message_to_str(game.signals[seat]) for seat in seats},
        "outcome": {WON: "won", LOST: "lost", ONGOING: None}[game.outcome],
        "loss_reason": LOSS_REASONS.get(game.loss_reason),
    }


def _name(card: int) -> str | None:
    return S.card_name(card) if card >= 0 else None


def _spirit_name(spirit: int) -> str | None:
    return S.SPIRITS[spirit].name if spirit >= 0 else None


def _location_words(game: ValenorGame, position: int) -> dict[str, Any]:
    return {
        "terrains": [S.TERRAINS[t] for t in game.terrains_at(position)],
        "devastated": game.devastated[position],
        "invader": _name(game.invader_at[position]),
        "defense": [S.card_name(c) for c in game.defense_at[position]],
    }


# ----- the screen a person plays from ----------------------------------------------------
def seat_label(seat: int, viewer: int | None) -> str:
    return f"player_{seat}" + (" (you)" if seat == viewer else "")


def _deciding(game: ValenorGame, viewer: int | None) -> str:
    if game.outcome == WON:
        return "nobody: the team has won"
    if game.outcome == LOST:
        return f"nobody: the team has lost ({LOSS_REASONS[game.loss_reason]})"
    return f"{seat_label(game.decider, viewer)}: {TO_DECIDE[Decision(game.pending_kind())]}"


def _hand_words(game: ValenorGame, seat: int, viewer: int | None) -> str:
    if viewer in (None, seat):
        return listing((S.card_name(c) for c in game.hands[seat]), "empty")
    return listing((S.BACK_NAMES[S.BACK[c]] + " back" for c in game.hands[seat]), "empty")


def _location_row(game: ValenorGame, position: int) -> tuple[str, ...]:
    invader = game.invader_at[position]
    stack = game.defense_at[position]
    defense = listing(S.card_name(c) for c in stack)
    if stack:
        defense += f" (total {sum(S.VALUE[c] for c in stack)})"
    return (
        str(position + 1),
        listing(S.TERRAINS[t] for t in game.terrains_at(position)),
        S.card_name(invader) if invader >= 0 else "none",
        defense,
        "devastated" if game.devastated[position] else "standing",
    )


def screen(game: ValenorGame, viewer: int | None = None) -> Screen:
    """The card in play, the decks, one row per Location and one per player."""
    who = "everything shown" if viewer is None else seat_label(viewer, viewer)
    invaders = game.invader_deck
    top = f" (the top one is a {S.LETTERS[S.CARD_LETTER[invaders[-1]]]})" if invaders else ""
    in_play = game.card_in_play()
    facts = [
        ("Card in play", S.card_name(in_play) if in_play >= 0 else "none"),
        (
            "Decks",
            f"Invader {counted(len(invaders), 'card')}{top}, Defense "
            f"{counted(len(game.defense_deck), 'card')}, Support "
            f"{counted(len(game.support_deck), 'card')}",
        ),
        ("Discards", listing((S.card_name(c) for c in game.discards), "none")),
    ]
    if game.known_bottom:
        bottom = listing(S.card_name(c) for c in invaders[: game.known_bottom])
        facts.append(("Invaders at the deck's bottom", bottom))
    facts.append(("To decide", _deciding(game, viewer)))
    locations = table(
        "Locations",
        ("#", "terrains", "Invader", "Defense", "state"),
        (_location_row(game, position) for position in range(S.NUM_LOCATIONS)),
    )
    players = table(
        "Players",
        ("player", "Nature Spirit", "hand, front first", "says"),
        (
            (
                seat_label(seat, viewer) + (", playing" if seat == game.active else ""),
                _spirit_words(game, seat),
                _hand_words(game, seat, viewer),
                message_to_str(game.signals[seat]),
            )
            for seat in range(game.num_players)
        ),
    )
    title = f"Spirits of Valenor, {game.scenario.name}, turn {game.turn + 1}: {who}"
    return Screen(title, tuple(facts), (locations, players))


def _spirit_words(game: ValenorGame, seat: int) -> str:
    spirit = game.spirit_of[seat]
    if spirit < 0:
        return "not chosen yet"
    return S.SPIRITS[spirit].name + (", laid out" if game.spirit_out[seat] else ", in hand")


def narrate(game: ValenorGame, action: int, viewer: int) -> list[str]:
    """Invaders arriving, Locations devastated, the team's win or loss."""
    after = game.clone()
    after.apply(action)
    lines = []
    for position in range(S.NUM_LOCATIONS):
        there, arrived = game.invader_at[position], after.invader_at[position]
        devastated = after.devastated[position] and not game.devastated[position]
        if there >= 0 and arrived != there and not devastated:
            lines.append(f"{S.card_name(there)} at Location {position + 1} is defeated")
        if arrived >= 0 and arrived != there:
            lines.append(f"{S.card_name(arrived)} arrives at Location {position + 1}")
        if devastated:
            lines.append(f"Location {position + 1} is devastated")
    if after.turn != game.turn and not after.is_terminal:
        lines.append(f"Turn {after.turn + 1}: {seat_label(after.active, viewer)} plays")
    if after.outcome == WON and game.outcome != WON:
        lines.append("The team wins")
    if after.outcome == LOST and game.outcome != LOST:
        lines.append(f"The team loses: {LOSS_REASONS[after.loss_reason]}")
    return lines
