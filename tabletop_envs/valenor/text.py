"""Valenor in words: actions for logs and tests, a player's view and the table as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
