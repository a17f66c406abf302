"""Agent specs on the command line: ``random``, ``heuristic``, a search bot or a path to a
trained policy.

Search bots (:mod:`tabletop_envs.agents.search`) are ``ismcts:ITERATIONS`` and ``pimc:WORLDS``, each
with optional ``,ms=MILLISECONDS`` (a time cap per move), ``,rollout=random|heuristic``,
``,c=EXPLORATION`` (ISMCTS), ``,rollouts=N`` (PIMC rollouts per action and world),
``,depth=D``, ``,value=win|margin`` and ``,guide=heuristic`` (the game's search guide picks the
decisions to search and values short heuristic rollouts), e.g.
``ismcts:2000,ms=500,rollout=heuristic``. ``az:ITERATIONS`` (:mod:`tabletop_envs.agents.az`)
searches with a policy-value network, ``,net=PATH`` (checked against the game now), ``,mix=``
(the rollouts' share of a leaf's value), ``,c=``, ``,ms=``, ``,rollout=``, ``,depth=``; with no
network it searches by PUCT with uniform priors and rollouts.

Trained policies are ``.npz`` files written by ``tabletop-train`` and read by
:func:`tabletop_envs.agents.policy.load_policy` (numpy only), which checks that the file was
trained for the game to be played. ``pretrained`` is the best learned player the package ships
for the game and player count (:mod:`tabletop_envs.agents.pretrained`): its manifest entry
names the network and the agent that plays it (the network alone or ``az`` guided by it), and
the first time in a process it is loaded a line on standard error says which.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import tabletop_envs.agents.pretrained as pretrained
from tabletop_envs.agents.az import AZ_SPEC, az_factory
from tabletop_envs.agents.base import Agent, RandomAgent
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.policy import load_policy
from tabletop_envs.agents.search import SEARCH_SPECS, search_factory

from tabletop_envs import resolve_name

AgentFactory = Callable[[int | None], Agent]


def describe_accepted() -> str:
    return (
        "'random', 'heuristic', 'pretrained' (the shipped learned player), a search bot "
        "('ismcts:ITERATIONS' or 'pimc:WORLDS', options "
        "',ms=', ',rollout=random|heuristic', ',c=' for ismcts, ',rollouts=' for pimc), "
        "a network-guided search ('az:ITERATIONS', options ',net=PATH', ',mix=', ',c=', "
        "',ms=', ',rollout='), or "
        "the path of a trained policy file"
    )


def agent_factory(spec: str, game_name: str, players: int | None = None) -> AgentFactory:
    """A checked factory ``seed -> Agent`` for ``spec`` playing environment ``game_name``.

    With ``players`` given, a trained policy must have been trained for that player count.

    The spec is validated here (unknown name, missing file, no bot for this game, a policy
    for another game), so that a bad spec fails before any game starts.
    """
    if spec == "random":
        return RandomAgent
    if spec == "heuristic":
        heuristic_agent(game_name)  # fails now if the game has no bot

        def make_heuristic(seed: int | None) -> Agent:
            return heuristic_agent(game_name, seed=seed)

        return make_heuristic
    if spec.split(":", 1)[0] == AZ_SPEC:
        return az_factory(spec, game_name, players)
    if spec.split(":", 1)[0] in SEARCH_SPECS:
        return search_factory(spec, game_name)
    if spec == "pretrained":
        return pretrained_factory(resolve_name(game_name), players)
    path = Path(spec)
    if not path.is_file():
        raise ValueError(f"unknown agent {spec!r} (no such file); expected {describe_accepted()}")
    return policy_factory(path, game_name, players)


ANNOUNCED: set[tuple[str, int | None]] = set()
"""The pretrained entries this process has said it loaded (said once: worker processes,
forked after the check, inherit it)."""


def pretrained_factory(env: str, players: int | None) -> AgentFactory:
    """The factory of the manifest's entry for ``env`` at ``players``, which it names on
    standard error the first time (its file, agent, strength and time per move)."""
    entry = pretrained.pretrained_entry(env, players)
    spec = pretrained.entry_spec(entry)
    factory = (
        az_factory(spec, env, players)
        if spec.split(":", 1)[0] == AZ_SPEC
        else policy_factory(pretrained.entry_path(entry), env, players)
    )
    if (env, players) not in ANNOUNCED:
        ANNOUNCED.add((env, players))
        print(pretrained.describe(entry), file=sys.stderr)
    return factory


def policy_factory(path: Path, game_name: str, players: int | None) -> AgentFactory:
    """A factory for the policy in ``path``, checked now against the game and count."""
    load_policy(path, game_name, players=players)  # fails now for another game, count or a bad file

    def make_policy(seed: int | None) -> Agent:
        return load_policy(path, game_name, seed, players)

    return make_policy


def make_agent(
    spec: str, game_name: str, seed: int | None = None, players: int | None = None
) -> Agent:
    """The agent for ``spec`` in environment ``game_name`` (ValueError for a bad spec)."""
    return agent_factory(spec, game_name, players)(seed)
