"""Ship a trained run as the package's ``pretrained`` player for its game and player count.

Copies the run's network into ``agents/pretrained/`` as ``<env>-<players>p.npz`` and writes
its manifest entry (replacing an older one for the same env and count) from the run folder:
``config.json`` (game, players, settings), the network's header (PPO steps, or the expert-
iteration round) and the evaluation: ``final_eval.json`` (the final table ``tabletop-train``
printed for a PPO run) or ``--evaluation`` files (``tabletop-eval --out``, needed for an
expert-iteration run, whose first agent is the shipped agent). ``--agent`` is the agent that
plays the network (``policy``: alone; ``az:N[,...]``: the search it guides, ``net=`` added);
its time per move is measured here on ``--move-games`` games against the heuristic. An entry
whose evaluation against the heuristic is not above par is refused: ``pretrained`` is the best
learned player shipped, never one that loses to the scripted bot. How it was trained (command,
commit, minutes, the machine) comes from the flags. Both files are written atomically,
together.

    python -m tabletop_envs.tools.ship runs/vaalbara-4p --minutes 15 --commit 57ae45b \\
        --command "tabletop-train vaalbara_v1 --players 4 --minutes 15" --machine "2 CPUs, quiet"
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tabletop_envs.agents.pretrained as pretrained
from tabletop_envs.agents.arena import MatchSpec, Table
from tabletop_envs.agents.loading import agent_factory
from tabletop_envs.agents.policy import read_policy

from tabletop_envs.cli import OneLineParser, positive_int
from tabletop_envs.core.files import write_all_atomic


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except OSError as error:
        raise ValueError(
            f"cannot read {path}: {error.strerror}; is this a tabletop-train run folder?"
        ) from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None


def evaluation(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The manifest's record of a final evaluation (``final_eval.json``)."""
    against = {
        result["label"]: {
            "wins": int(result["wins"]),
            "win_rate": round(result["win_rate"], 4),
            "interval95": [round(result["low"], 3), round(result["high"], 3)],
        }
        for result in results
    }
    return {"games": results[0]["games"], "seats": "rotated", "against": against}


def tournament_evaluation(paths: Sequence[Path]) -> dict[str, Any]:
    """The manifest's record of ``tabletop-eval`` results files (``--out``) whose first agent
    is the policy shipped: one row per file, named after the other seats' agents."""
    against, games = {}, set()
    for path in paths:
        results = read_json(path)
        try:
            summary = results["summary"]
            first, *others = summary["agents"]
            label = ", ".join(sorted({agent["spec"] for agent in others}))
            games.add(int(first["games"]))
            row = {
                "wins": int(first["wins"]),
                "win_rate": round(first["win_rate"], 4),
                "interval95": [round(first["win_low"], 3), round(first["win_high"], 3)],
                "seed": summary["seed"],
            }
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ValueError(f"{path}: not a tabletop-eval results file") from None
        if label in against:
            raise ValueError(f"{path}: a second evaluation against {label}; give one each")
        against[label] = row
    if len(games) != 1:
        raise ValueError(f"the evaluations played different numbers of games: {sorted(games)}")
    return {"games": games.pop(), "seats": "rotated", "against": against}


HOW_TRAINED = ("advice", "polished")
"""Header fields that say how a policy was made, copied into its manifest entry."""
MOVE_GAMES = 10


def seconds_per_move(spec: str, env: str, players: int, games: int, seed: int = 0) -> float:
    """Mean seconds ``spec`` takes to choose a move, over ``games`` games against the heuristic
    in every other seat (one process; the machine's load belongs beside the figure)."""
    table = Table(MatchSpec(env, (spec, *["heuristic"] * (players - 1)), seed))
    agent, timed = table.agents[0], {"seconds": 0.0, "moves": 0}
    choose = agent.act

    def act(observation: Any, name: str) -> int:
        started = time.perf_counter()
        action = choose(observation, name)
        timed["seconds"] += time.perf_counter() - started
        timed["moves"] += 1
        return action

    agent.act = act
    for index in range(games):
        table.play(index)
    return timed["seconds"] / max(timed["moves"], 1)


def agent_spec(agent: str, network: Path, env: str, players: int) -> str:
    """The spec that plays ``network`` as ``agent`` (checked now: ValueError if it cannot)."""
    if agent == pretrained.POLICY:
        spec = str(network)
    elif agent.split(":", 1)[0] == "az" and "net=" not in agent:
        spec = f"{agent},net={network}"
    else:
        raise ValueError(
            f"--agent {agent!r}: expected {pretrained.POLICY!r} (the network alone) or an "
            "az:N[,...] search without net= (the shipped network is added)"
        )
    agent_factory(spec, env, players)
    return spec


def entry_for(
    run: Path, policy: Path, how: dict[str, Any], evaluations: Sequence[Path] = ()
) -> dict[str, Any]:
    """The manifest entry of ``policy``, trained in ``run`` (advised or polished, if its header
    says so); its evaluation from ``evaluations`` if given, else the run's final evaluation."""
    config = read_json(run / "config.json")
    meta = read_policy(policy).meta
    if "trained_steps" in meta:
        trained = {"steps": meta["trained_steps"]}
    elif "exit_round" in meta:
        trained = {"rounds": meta["exit_round"]}
        if not evaluations:
            raise ValueError(
                "an expert-iteration network needs --evaluation (tabletop-eval results with "
                "the shipped agent first)"
            )
    else:
        raise ValueError(f"{policy} records no training steps or rounds: not a trained network")
    if meta["game"] != config["game"] or meta["players"] != config["players"]:
        raise ValueError(
            f"{policy} is a {meta['game']} {meta['players']}p policy, but {run} trained "
            f"{config['game']} {config['players']}p"
        )
    return {
        "env": config["game"],
        "players": config["players"],
        "file": f"{config['game']}-{config['players']}p.npz",
        **how,
        **trained,
        **{key: meta[key] for key in HOW_TRAINED if key in meta},
        "evaluation": tournament_evaluation(evaluations)
        if evaluations
        else evaluation(read_json(run / "final_eval.json")),
    }


def ship(
    run: Path,
    policy: Path,
    how: dict[str, Any],
    folder: Path,
    evaluations: Sequence[Path] = (),
) -> dict[str, Any]:
    """Write the policy and its manifest entry into ``folder``; the entry. ``how`` holds the
    ``agent`` that plays it and its ``seconds_per_move``."""
    entry = entry_for(run, policy, how, evaluations)
    if not pretrained.beats_heuristic(entry):
        score = pretrained.heuristic_score(entry)
        measured = (
            "no evaluation against the heuristic"
            if score is None
            else (f"{score['win_rate']:.1%} against the heuristic")
        )
        raise ValueError(
            f"not shipped: {measured}, not above par ({1 / entry['players']:.0%}); "
            "pretrained must beat the scripted bot"
        )
    manifest = folder / "manifest.json"
    entries = [
        old
        for old in read_json(manifest)["policies"]
        if (old["env"], old["players"]) != (entry["env"], entry["players"])
    ]
    entries.append(entry)
    entries.sort(key=lambda e: (e["env"], e["players"]))
    write_all_atomic(
        {
            folder / entry["file"]: policy.read_bytes(),
            manifest: json.dumps({"policies": entries}, indent=2) + "\n",
        }
    )
    return entry


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="ship", description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path, help="the tabletop-train run folder")
    parser.add_argument("--policy", type=Path, help="the policy to ship (default RUN/policy.npz)")
    parser.add_argument(
        "--command", required=True, help="the tabletop-train command that trained it"
    )
    parser.add_argument("--commit", required=True, help="the commit it was trained at")
    parser.add_argument("--minutes", type=float, required=True, help="training minutes")
    parser.add_argument("--machine", required=True, help="the machine and its load while training")
    parser.add_argument("--note", default="", help="anything else a reader should know")
    parser.add_argument(
        "--evaluation",
        type=Path,
        action="append",
        default=[],
        help="a tabletop-eval --out results.json with the policy in the first seat, used "
        "instead of the run's final evaluation (repeat for each opponent)",
    )
    parser.add_argument(
        "--agent",
        default=pretrained.POLICY,
        help="the agent that plays the network: 'policy' (alone) or az:N[,...] (net= added)",
    )
    parser.add_argument(
        "--move-games",
        type=positive_int,
        default=MOVE_GAMES,
        help="games against the heuristic on which the time per move is measured",
    )
    args = parser.parse_args(argv)
    how = {
        "command": args.command,
        "commit": args.commit,
        "minutes": args.minutes,
        "machine": args.machine,
        **({"note": args.note} if args.note else {}),
    }
    try:
        policy = args.policy or args.run / "policy.npz"
        config = read_json(args.run / "config.json")
        spec = agent_spec(args.agent, policy, config["game"], config["players"])
        how["agent"] = args.agent
        how["seconds_per_move"] = round(
            seconds_per_move(spec, config["game"], config["players"], args.move_games), 6
        )
        entry = ship(args.run, policy, how, pretrained.HERE, args.evaluation)
    except ValueError as error:
        print(f"ship: {error}", file=sys.stderr)
        return 2
    print(f"shipped {entry['env']} {entry['players']}p as agents/pretrained/{entry['file']}")
    print(pretrained.describe(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
