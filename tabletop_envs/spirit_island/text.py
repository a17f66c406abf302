"""Spirit Island as text: action names, a player's view in words, the island."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from tabletop_envs.core.screen import Screen, counted, listing, table
from tabletop_envs.spirit_island.spec import (
    ACTIONS,
    BLIGHT,
    BLIGHT_CARDS,
    CARD_DONE,
    CARDS,
    DAHAN_KINDS,
    ELEMENTS,
    FEAR_CARDS,
    INVADER_CARDS,
    INVADER_KINDS,
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
    STEP_NAMES,
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


# ----- the screen a person plays from ----------------------------------------------------
TO_DECIDE = {
    "growth": "choose a Growth option",
    "growth_step": "choose the next Growth action",
    "track": "choose the track to take Presence from",
    "presence_land": "choose the land for the new Presence",
    "play": "play a Power card, or no more",
    "power": "use a Power, or pass",
    "target_land": "choose the land a Power targets",
    "target_spirit": "choose the Spirit a Power targets",
    "deck": "gain a Minor or a Major Power",
    "keep": "keep one of the drawn Power cards",
    "forget": "forget a Power card",
    "reclaim": "reclaim a card, or nothing",
    "damage": "deal the next point of Damage",
    "destroy": "choose a piece to Destroy",
    "remove": "choose a piece to Remove",
    "push_piece": "choose a piece to Push, or stop",
    "push_dest": "choose where the piece is Pushed",
    "push_then_piece": "choose a piece to Push, or stop",
    "push_then_dest": "choose where the piece is Pushed",
    "damage_of": "deal the next point of Damage",
    "restore_land": "choose the land a destroyed Presence returns to",
    "gather_piece": "choose a piece to Gather, or stop",
    "gather_source": "choose where the piece is Gathered from",
    "cascade": "choose where the Blight cascades",
    "spirit_land": "choose the land of a Fear effect",
    "choose": "choose one of the effects",
    "destroy_presence": "choose the Presence to destroy",
    "presence_more": "move a Presence, or stop",
    "presence_source": "choose where the Presence comes from",
    "adjacent_land": "choose the neighbouring land for the effect",
    "claim_track": "choose the track the Presence comes from",
    "remove_health": "choose a piece to Remove, or stop",
    "strike": "choose the piece a Dahan strikes",
    "move_piece": "choose a piece to Move, or stop",
    "keep_played": "keep a played card in hand, or no more",
    "element": "choose an Element",
}
"""Each decision's purpose in words, for "To decide"."""


def seat_label(seat: int, viewer: int | None) -> str:
    return f"player_{seat}" + (" (you)" if seat == viewer else "")


def _invader_card(card: int) -> str:
    return INVADER_CARDS[card].name if card >= 0 else "no card"


def _land_row(game: SpiritIslandGame, land: int, viewer: int | None) -> tuple[str, ...]:
    row = game.pieces[land]
    invaders = listing((f"{row[k]} {KIND_NAMES[k]}" for k in INVADER_KINDS if row[k]), "none")
    dahan = listing((f"{row[k]} {KIND_NAMES[k]}" for k in DAHAN_KINDS if row[k]), "none")
    presence = listing(
        (
            f"{game.presence[s][land]} of {seat_label(s, viewer)}"
            for s in range(game.num_players)
            if game.presence[s][land]
        ),
        "none",
    )
    notes = []
    if game.defend[land]:
        notes.append(f"Defend {game.defend[land]}")
    notes += [f"no {ACTIONS[a]}" for a in range(3) if game.skips[land] >> a & 1]
    if game.skips[land] & NO_CITY_BUILD:
        notes.append("no City built")
    return (
        land_name(land, game.island.boards),
        TERRAINS[game.island.terrain[land]] + (", coastal" if game.island.coastal[land] else ""),
        invaders,
        dahan,
        str(row[BLIGHT]) if row[BLIGHT] else "none",
        presence,
        listing(notes, "none"),
    )


def _spirit_row(game: SpiritIslandGame, seat: int, viewer: int | None) -> tuple[str, ...]:
    elements = listing(
        (
            f"{count} {ELEMENTS[e].capitalize()}"
            for e, count in enumerate(game.elements[seat])
            if count
        ),
        "none",
    )
    return (
        seat_label(seat, viewer),
        SPIRITS[game.spirit_of[seat]].name,
        str(game.energy[seat]),
        listing((card_name(c) for c in game.hand[seat]), "empty"),
        listing((card_name(c) for c in game.played[seat]), "none"),
        listing((card_name(c) for c in game.discard[seat]), "none"),
        elements,
    )


def _deciding(game: SpiritIslandGame, viewer: int | None) -> str:
    if game.outcome:
        return ("nobody: defeat, ", "", "nobody: victory, ")[game.outcome + 1] + game.end_reason
    if not game.pending:
        return "nobody"
    return f"{seat_label(game.pending[1], viewer)}: {TO_DECIDE[PURPOSE_NAMES[game.pending[2]]]}"


def screen(game: SpiritIslandGame, viewer: int | None = None) -> Screen:
    """Fear, Blight and the Invader cards; one row per land; one row per Spirit."""
    who = "everything shown" if viewer is None else seat_label(viewer, viewer)
    ravage, build, _ = game.invader_slots
    blight = f"{game.blight_pool} left on the Blight card, " + (
        f"Blighted Island: {BLIGHT_CARDS[game.blight_card][0]}"
        if game.blighted
        else "the island is still Healthy"
    )
    facts = [
        (
            "Fear",
            f"{game.fear_pool} more Fear earns the next Fear card; "
            f"{counted(len(game.fear_earned), 'Fear card')} earned, face down; "
            f"{len(game.fear_deck)} left",
        ),
        ("Fear cards resolved", listing(FEAR_CARDS[c][0] for c in game.fear_discard)),
        ("Blight", blight),
        (
            "Invader cards",
            f"Ravage: {_invader_card(ravage)}; Build: {_invader_card(build)}; "
            f"Explore: the next card of the deck ({len(game.invader_deck)} left)",
        ),
    ]
    if viewer is not None and game.drawn_by == viewer:
        facts.append(("Power cards drawn", listing(card_name(c) for c in game.drawn)))
    facts.append(("To decide", _deciding(game, viewer)))
    lands = table(
        "Lands",
        ("land", "terrain", "Invaders", "Dahan", "Blight", "Presence", "this turn"),
        (_land_row(game, land, viewer) for land in range(len(game.pieces))),
    )
    spirits = table(
        "Spirits",
        ("player", "Spirit", "Energy", "hand", "played", "discard", "Elements"),
        (_spirit_row(game, seat, viewer) for seat in range(game.num_players)),
    )
    title = f"Spirit Island, turn {game.turn}, Terror Level {game.terror_level()}: {who}"
    return Screen(title, tuple(facts), (lands, spirits))


# ----- what happened: the Invader Phase step by step ------------------------------------
INVADER_STEPS = ("blighted", "fear", "ravage", "ravage_land", "build", "explore", "advance")
"""The queued steps that open a "what happened" line of their own."""


def _snapshot(game: SpiritIslandGame) -> dict[str, Any]:
    return {
        "pieces": [list(row) for row in game.pieces],
        "presence": [list(row) for row in game.presence],
        "slots": list(game.invader_slots),
        "fear": (game.fear_pool, len(game.fear_earned)),
        "terror": game.terror_level(),
        "blighted": game.blighted,
        "outcome": (game.outcome, game.end_reason),
    }


def _land_changes(
    game: SpiritIslandGame, before: dict, after: dict, viewer: int
) -> list[tuple[str, str]]:
    """(land, ``+1 Town, -1 Dahan``) for each land that changed."""
    changes = []
    for land, (old, new) in enumerate(zip(before["pieces"], after["pieces"], strict=True)):
        words = [f"{new[k] - old[k]:+d} {KIND_NAMES[k]}" for k in range(KINDS) if new[k] != old[k]]
        for seat in range(game.num_players):
            gone = after["presence"][seat][land] - before["presence"][seat][land]
            if gone:
                words.append(f"{gone:+d} Presence of {seat_label(seat, viewer)}")
        if words:
            changes.append((land_name(land, game.island.boards), listing(words)))
    return changes


def _opening(game: SpiritIslandGame, step: list[int]) -> str | None:
    """The line's opening for a step that starts one, from the state before it runs."""
    name = STEP_NAMES[step[0]]
    if name == "blighted":
        return "Blighted Island" if game.blighted else None
    if name == "fear":
        return f"Fear card {FEAR_CARDS[game.fear_earned[0]][0]}" if game.fear_earned else None
    if name in ("ravage", "build"):
        card = game.invader_slots[0 if name == "ravage" else 1]
        if card < 0:
            return f"{name.capitalize()}: no card yet"
        return f"{name.capitalize()} in the {_invader_card(card)} lands"
    if name == "ravage_land":
        return f"  Ravage in {land_name(step[1], game.island.boards)}"
    if name == "explore":
        return "Explore"
    return "Invader cards advance" if name == "advance" else None


def narrate(game: SpiritIslandGame, action: int, viewer: int) -> list[str]:
    """What the action sets off, step by step: the Power's results, then in the Invader
    Phase each Fear card, the Ravage in each land, Build, Explore (with the card revealed),
    Blight, the cards' advance and the end of the game."""
    after = game.clone()
    marks: list[tuple[str, dict[str, Any]]] = [("Then", _snapshot(game))]

    def watch(step: list[int]) -> None:
        opening = _opening(after, step) if STEP_NAMES[step[0]] in INVADER_STEPS else None
        if opening is not None:
            marks.append((opening, _snapshot(after)))

    after.step_watch = watch
    after.apply(action)
    marks.append(("", _snapshot(after)))
    lines = []
    for (opening, before), (following, later) in pairwise(marks):
        lines.extend(_describe(after, opening, before, later, viewer))
        if opening.startswith("Ravage in the") and not following.startswith("  Ravage in"):
            lines[-1] += " no Invaders there"
    return lines


def _describe(
    game: SpiritIslandGame, opening: str, before: dict, after: dict, viewer: int
) -> list[str]:
    """The step's line (none for a quiet step that is no Invader action), then what it
    earned or ended."""
    changes = _land_changes(game, before, after, viewer)
    if opening.startswith("  Ravage in") and [land for land, _ in changes] == [opening[12:]]:
        words = changes[0][1]
    else:
        words = listing((f"{land} {what}" for land, what in changes), "")
    if opening == "Explore":
        opening = f"Explore in the {_invader_card(after['slots'][2])} lands (card revealed)"
    if opening == "Invader cards advance":
        ravage, build, _ = after["slots"]
        words = f"Ravage {_invader_card(ravage)}, Build {_invader_card(build)}"
    if opening.startswith(("Build in", "Explore in", "  Ravage in")) and not words:
        words = "nothing changes"
    lines = []
    if opening.endswith("no card yet"):
        lines.append(opening)
    elif opening.startswith("Ravage in the"):
        lines.append(f"{opening}:" + (f" {words}" if words else ""))
    elif words:
        lines.append(f"{opening}: {words}")
    if after["fear"][1] > before["fear"][1]:
        lines.append(f"Fear card earned ({after['fear'][1]} waiting, face down)")
    if after["terror"] != before["terror"]:
        lines.append(f"Terror Level {after['terror']}")
    if after["blighted"] and not before["blighted"]:
        flipped = BLIGHT_CARDS[game.blight_card][0]
        lines.append(f"The Blight card flips: Blighted Island, {flipped}")
    outcome, reason = after["outcome"]
    if outcome and not before["outcome"][0]:
        lines.append(("Defeat: ", "", "Victory: ")[outcome + 1] + reason)
    return lines
