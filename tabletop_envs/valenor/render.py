"""Valenor in words: actions for logs and tests, the table as text for people."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop_envs.valenor import cards as C
from tabletop_envs.valenor.flow import (
    ANNOUNCE_INVADER,
    ASK_DEFENSE,
    CLAIM_INVADER,
    DECISIONS,
    LAYOUT,
    LOSS_REASONS,
    PASS_PLAY,
)

if TYPE_CHECKING:
    from tabletop_envs.valenor.rules import ValenorGame

SIZES = ("small", "medium", "large")
LEVELS = ("low", "medium", "high")


def message_to_str(message: int) -> str:
    """A signal in words (the rulebook's allowed kinds of table talk)."""
    if message == 0:
        return "no message"
    if message < ANNOUNCE_INVADER:
        size, position = divmod(message - ASK_DEFENSE, C.NUM_LOCATIONS)
        return f"ask for a {SIZES[size]} Defense at Location {position + 1}"
    if message < CLAIM_INVADER:
        level, terrain = divmod(message - ANNOUNCE_INVADER, C.NUM_TERRAINS)
        return f"announce a {LEVELS[level]} Invader for {C.TERRAINS[terrain]}"
    return f"claim the Invader at Location {message - CLAIM_INVADER + 1}"


def card_label(card: int) -> str:
    """A card's name with its id, which tells identical copies apart."""
    return f"{C.card_name(card)} (card {card})"


def action_to_str(game: ValenorGame, action: int) -> str:
    segment, option = LAYOUT.locate(action)
    name = segment.name
    if name == "choose_spirit":
        return f"choose {C.SPIRITS[option].name}"
    if name == "signal":
        return message_to_str(option)
    if name == "spirit_window":
        return "use my Nature Spirit" if option else "pass (no spirit)"
    if name == "play_card":
        return "play no further card" if option == PASS_PLAY else f"play {card_label(option)}"
    if name == "place":
        return f"place at Location {option + 1}"
    if name == "devastate":
        return f"devastate Location {option + 1}"
    if name == "move_defense":
        return f"move {card_label(option)}"
    return f"bring {card_label(option)} to the front"


def location_line(game: ValenorGame, position: int) -> str:
    terrains = "/".join(C.TERRAINS[t] for t in game.terrains_at(position))
    state = " (devastated)" if game.devastated[position] else ""
    invader = game.invader_at[position]
    attacker = f"Invader {C.VALUE[invader]}" if invader >= 0 else "-"
    stack = game.defense_at[position]
    defense = "+".join(str(C.VALUE[c]) for c in stack) or "-"
    total = sum(C.VALUE[c] for c in stack)
    return f"  L{position + 1} {terrains}{state}: {attacker}  defense {defense} (= {total})"


def hand_line(game: ValenorGame, seat: int, viewer: int | None) -> str:
    hand = game.hands[seat]
    if viewer is None or viewer == seat:
        cards = ", ".join(C.card_name(c) for c in hand)
    else:
        cards = ", ".join(C.BACK_NAMES[C.BACK[c]] for c in hand)
    spirit = game.spirit_of[seat]
    spirit_text = C.SPIRITS[spirit].name if spirit >= 0 else "no spirit yet"
    where = "laid out" if game.spirit_out[seat] else "in hand" if spirit >= 0 else ""
    marker = "*" if seat == game.active else " "
    return f" {marker}player_{seat} [{spirit_text}, {where}]: {cards or '(empty)'}"


def render_text(game: ValenorGame, viewer: int | None = None) -> str:
    top = C.LETTERS[C.CARD_LETTER[game.invader_deck[-1]]] if game.invader_deck else "-"
    lines = [
        f"Spirits of Valenor - {game.scenario.name}, turn {game.turn + 1}",
        f"Decks: Invader {len(game.invader_deck)} (top {top}), "
        f"Defense {len(game.defense_deck)}, Support {len(game.support_deck)}",
        "Locations:",
        *(location_line(game, i) for i in range(C.NUM_LOCATIONS)),
        "Hands (front first):",
        *(hand_line(game, seat, viewer) for seat in range(game.num_players)),
        f"Discards: {len(game.discards)} cards",
    ]
    if game.outcome:
        outcome = "WON" if game.outcome > 0 else f"LOST: {LOSS_REASONS[game.loss_reason]}"
        lines.append(f"Game over - {outcome}")
    else:
        lines.append(f"player_{game.decider} decides: {DECISIONS[game.decision]}")
    return "\n".join(lines)


def readable_view(game: ValenorGame, player: int) -> dict:
    from tabletop_envs.valenor.observation import readable_view as words

    return words(game, player)
