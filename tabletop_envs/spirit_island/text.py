"""Spirit Island as text: action names, a player's view in words, the island."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop_envs.spirit_island.spec import (
    ACTIONS,
    BLIGHT_CARDS,
    CARD_DONE,
    CARDS,
    ELEMENTS,
    FEAR_CARDS,
    INVADER_CARDS,
    KIND_NAMES,
    KINDS,
    LAYOUT,
    MAX_CARDS,
    MAX_PLAYERS,
    NO_CITY_BUILD,
    PIECE_STOP,
    POWER_PASS,
    PRESENCE_OPTION,
    PURPOSE_NAMES,
    SPIRITS,
    TERRAINS,
    Decision,
    land_name,
)

if TYPE_CHECKING:
    from tabletop_envs.spirit_island.rules import SpiritIslandGame

TRACKS = ("the Energy track", "the card-play track")


def power_name(game: SpiritIslandGame, seat: int, option: int) -> str:
    if option < MAX_CARDS:
        return CARDS[option].name if option < len(CARDS) else f"card {option}"
    innates = SPIRITS[game.spirit_of[seat]].innates
    index = option - MAX_CARDS
    return innates[index].name if index < len(innates) else f"innate {index}"


def card_name(option: int) -> str:
    return CARDS[option].name if option < len(CARDS) else f"card {option}"


def piece_name(kind: int) -> str:
    if kind < KINDS:
        return KIND_NAMES[kind]
    if PRESENCE_OPTION <= kind < PRESENCE_OPTION + MAX_PLAYERS:
        return f"player_{kind - PRESENCE_OPTION}'s Presence"
    return f"piece {kind}"


def growth_text(game: SpiritIslandGame, seat: int, group: int, index: int | None = None) -> str:
    spirit = SPIRITS[game.spirit_of[seat]]
    if group >= len(spirit.growth):
        return f"growth option {group + 1}"
    actions = spirit.growth[group]
    words = []
    for i, (action, amount) in enumerate(actions):
        if index is not None and i != index:
            continue
        words.append(
            {
                "reclaim_all": "reclaim all cards",
                "reclaim_one": "reclaim one card",
                "gain_card": "gain a Power card",
                "energy": f"gain {amount} Energy",
                "presence": f"add a Presence within range {amount}",
            }[action]
        )
    return ", ".join(words) if words else f"growth step {index}"


def action_to_str(game: SpiritIslandGame, action: int) -> str:
    segment, option = LAYOUT.locate(action)
    pending = game.pending
    if pending and segment is LAYOUT.segment_of(pending[0]):
        return _in_context(game, PURPOSE_NAMES[pending[2]], pending[1], pending[3:], option)
    return _plain(segment.name, option)


def _plain(segment: str, option: int) -> str:
    if segment == "land":
        return f"choose {land_name(option)}"
    if segment == "card":
        return "done" if option == CARD_DONE else f"choose {card_name(option)}"
    if segment == "power":
        return "pass" if option == POWER_PASS else f"use power {option}"
    if segment == "piece":
        return "stop" if option == PIECE_STOP else f"choose {piece_name(option)}"
    if segment == "deck":
        return ("gain a Minor Power", "gain a Major Power")[option]
    if segment == "track":
        return f"take Presence from {TRACKS[option]}"
    if segment == "spirit":
        return f"target player_{option}'s Spirit"
    if segment == "element" and option < len(ELEMENTS):
        return f"gain {ELEMENTS[option].capitalize()}"
    return f"{segment.replace('_', ' ')} {option + 1}"


def _in_context(game: SpiritIslandGame, purpose: str, seat: int, ctx: list[int], o: int) -> str:
    def ln(land: int) -> str:
        return land_name(land, game.island.boards)

    if purpose == "growth":
        return f"grow: {growth_text(game, seat, o)}"
    if purpose == "growth_step":
        return f"now {growth_text(game, seat, ctx[0], o)}"
    if purpose == "track":
        return f"take Presence from {TRACKS[o]}"
    if purpose == "presence_land":
        return f"add Presence to {ln(o)}"
    if purpose == "play":
        if o == CARD_DONE:
            return "play no more cards"
        return f"play {card_name(o)} (cost {CARDS[o].cost})" if o < len(CARDS) else f"play {o}"
    if purpose == "power":
        return (
            "pass: use no more Powers this phase"
            if o == POWER_PASS
            else (f"use {power_name(game, seat, o)}")
        )
    if purpose == "target_land":
        return f"{power_name(game, seat, ctx[0])} targets {ln(o)}"
    if purpose == "target_spirit":
        return f"{power_name(game, seat, ctx[0])} targets player_{o}'s Spirit"
    if purpose == "deck":
        return ("gain a Minor Power", "gain a Major Power")[o]
    if purpose == "keep":
        drawn = game.drawn[o] if game.drawn_by == seat and o < len(game.drawn) else None
        return f"keep {card_name(drawn)}" if drawn is not None else f"keep drawn card {o + 1}"
    if purpose == "forget":
        return f"forget {card_name(o)}"
    if purpose == "keep_played":
        return "keep no more cards" if o == CARD_DONE else f"keep {card_name(o)} in hand"
    if purpose == "element":
        return f"gain {ELEMENTS[o].capitalize()} ({ctx[0]} to choose)"
    if purpose == "reclaim":
        return "reclaim nothing" if o == CARD_DONE else f"reclaim {card_name(o)}"
    if purpose == "damage":
        return f"1 Damage to 1 {piece_name(o)} in {ln(ctx[0])} ({ctx[1]} to deal)"
    if purpose in ("destroy", "remove"):
        return f"{purpose.capitalize()} 1 {piece_name(o)} in {ln(ctx[0])}"
    if purpose == "push_piece":
        if o == PIECE_STOP:
            return f"push nothing more from {ln(ctx[0])}"
        return f"Push 1 {piece_name(o)} from {ln(ctx[0])}"
    if purpose == "push_dest":
        return f"Push 1 {piece_name(ctx[4])} from {ln(ctx[0])} to {ln(o)}"
    if purpose == "push_then_piece":
        stop = f"push nothing more from {ln(ctx[2])}"
        return stop if o == PIECE_STOP else f"Push 1 {piece_name(o)} from {ln(ctx[2])}"
    if purpose == "push_then_dest":
        return f"Push 1 {piece_name(ctx[5])} from {ln(ctx[2])} to {ln(o)}"
    if purpose == "restore_land":
        return f"player_{ctx[2]}'s destroyed Presence returns to {ln(o)}"
    if purpose == "damage_of":
        return f"1 Damage to 1 {piece_name(o)} in {ln(ctx[0])} ({ctx[2]} to deal)"
    if purpose == "gather_piece":
        if o == PIECE_STOP:
            return f"gather nothing more into {ln(ctx[0])}"
        return f"Gather 1 {piece_name(o)} into {ln(ctx[0])}"
    if purpose == "gather_source":
        return f"Gather 1 {piece_name(ctx[4])} from {ln(o)} into {ln(ctx[0])}"
    if purpose == "cascade":
        return f"Blight cascades from {ln(ctx[0])} to {ln(o)}"
    if purpose == "spirit_land":
        return f"Fear effect in {ln(o)}"
    if purpose == "choose":
        return f"effect {o + 1} of the choice"
    if purpose == "presence_more":
        if o == PIECE_STOP:
            return f"move no more Presence into {ln(ctx[0])}"
        return f"move 1 of your Presence into {ln(ctx[0])}"
    if purpose == "presence_source":
        return f"move 1 of your Presence from {ln(o)} to {ln(ctx[0])}"
    if purpose == "destroy_presence":
        return f"destroy 1 of your Presence in {ln(o)}"
    if purpose == "adjacent_land":
        return f"the effect again in {ln(o)}, next to {ln(ctx[2])}"
    if purpose == "claim_track":
        return f"add Presence to {ln(ctx[0])} from {TRACKS[o]}"
    if purpose in ("remove_health", "move_piece") and o == PIECE_STOP:
        return f"{purpose.split('_')[0]} nothing more from {ln(ctx[0])}"
    if purpose == "remove_health":
        return f"Remove 1 {piece_name(o)} from {ln(ctx[0])} ({ctx[1]} Health left)"
    if purpose == "strike":
        return f"a Dahan strikes 1 {piece_name(o)} in {ln(ctx[0])}"
    if purpose == "move_piece":
        return f"Move 1 {piece_name(o)} from {ln(ctx[0])} to {ln(ctx[1])}"
    return _plain(Decision(game.pending[0]).name.lower(), o)


def _pieces(row: list[int]) -> str:
    return ", ".join(f"{count} {KIND_NAMES[k]}" for k, count in enumerate(row) if count) or "-"


def readable_view(game: SpiritIslandGame, player: int) -> dict[str, Any]:
    n = game.num_players
    view: dict[str, Any] = {
        "you": f"player_{player}",
        "turn": game.turn,
        "terror_level": game.terror_level(),
        "fear": {
            "pool": game.fear_pool,
            "earned_face_down": len(game.fear_earned),
            "resolved": [FEAR_CARDS[c][0] for c in game.fear_discard],
            "deck": len(game.fear_deck),
        },
        "blight": {
            "on_card": game.blight_pool,
            "card": BLIGHT_CARDS[game.blight_card][0] if game.blighted else "unknown (Healthy)",
        },
        "invaders": {
            slot: INVADER_CARDS[card].name if card >= 0 else None
            for slot, card in zip(("ravage", "build", "explore"), game.invader_slots, strict=True)
        },
        "invader_deck": len(game.invader_deck),
        "lands": {
            land_name(land, game.island.boards): {
                "terrain": TERRAINS[game.island.terrain[land]],
                "coastal": game.island.coastal[land],
                "pieces": _pieces(game.pieces[land]),
                "presence": {
                    f"player_{s}": game.presence[s][land]
                    for s in range(n)
                    if game.presence[s][land]
                },
            }
            for land in range(len(game.pieces))
        },
        "spirits": {
            f"player_{s}": {
                "spirit": SPIRITS[game.spirit_of[s]].name,
                "energy": game.energy[s],
                "hand": [card_name(c) for c in game.hand[s]],
                "played": [card_name(c) for c in game.played[s]],
                "discard": [card_name(c) for c in game.discard[s]],
                "elements": {ELEMENTS[e]: c for e, c in enumerate(game.elements[s]) if c},
            }
            for s in range(n)
        },
    }
    if game.drawn_by == player:
        view["drawn"] = [card_name(c) for c in game.drawn]
    return view


def render_text(game: SpiritIslandGame, viewer: int | None = None) -> str:
    lines = [
        f"=== Spirit Island, turn {game.turn}, Terror Level {game.terror_level()} ===",
        f"Fear pool {game.fear_pool}, {len(game.fear_earned)} Fear card(s) earned, "
        f"{len(game.fear_deck)} left; Blight on the card {game.blight_pool}"
        + (" (Blighted Island)" if game.blighted else ""),
        "Invaders: "
        + ", ".join(
            f"{slot} {INVADER_CARDS[card].name if card >= 0 else '-'}"
            for slot, card in zip(("Ravage", "Build", "Explore"), game.invader_slots, strict=True)
        )
        + f"; {len(game.invader_deck)} card(s) in the deck",
    ]
    for land in range(len(game.pieces)):
        presence = " ".join(
            f"P{s}x{game.presence[s][land]}"
            for s in range(game.num_players)
            if game.presence[s][land]
        )
        flags = [ACTIONS[a] for a in range(3) if game.skips[land] >> a & 1]
        if game.skips[land] & NO_CITY_BUILD:
            flags.append("city build")
        lines.append(
            f"  {land_name(land, game.island.boards)} {TERRAINS[game.island.terrain[land]]:<8}"
            f"{' coastal' if game.island.coastal[land] else '        '} "
            f"{_pieces(game.pieces[land])} {presence}"
            + (f" defend {game.defend[land]}" if game.defend[land] else "")
            + (f" skip {'/'.join(flags)}" if flags else "")
        )
    for s in range(game.num_players):
        hand = [card_name(c) for c in game.hand[s]]
        played = [card_name(c) for c in game.played[s]]
        lines.append(f"  player_{s}: {game.energy[s]} Energy, hand {hand}, played {played}")
    if viewer is not None and game.drawn_by == viewer:
        lines.append(f"  drawn: {[card_name(c) for c in game.drawn]}")
    if game.outcome:
        lines.append(("Defeat: ", "", "Victory: ")[game.outcome + 1] + game.end_reason)
    elif game.pending:
        what = PURPOSE_NAMES[game.pending[2]].replace("_", " ")
        lines.append(f"To decide: player_{game.pending[1]}: {what}")
    return "\n".join(lines)
