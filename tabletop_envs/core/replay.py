"""Replays: a game as a versioned JSON record, rebuilt and re-checked from its seed and actions.

A replay names the environment (``vaalbara_v1``), the player count, every option, the
core's seed and the actions taken; ``Game(num_players, seed=seed, **options)`` followed by
the actions rebuilds the game exactly, chance events included (they are drawn from the
core's own generator). It also keeps one label per seat, the final returns and scores, and
a hash of the final state, so that rebuilding re-checks everything: each action legal in
turn, the returns, the scores and the final state as recorded. The format is described in
``docs/replays.md``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from tabletop_envs.core.files import write_atomic
from tabletop_envs.core.game import GameCore, is_int
from tabletop_envs.core.registry import ENVIRONMENTS, env_name, game_module

FORMAT = "tabletop-envs replay"
FORMAT_VERSION = 1
HASH_PATTERN = re.compile(r"[0-9a-f]{64}")


def state_hash(game: GameCore) -> str:
    """sha256 of the game's full state (random generator included) as canonical JSON."""
    text = json.dumps(game.state_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def game_class(env: str) -> type[GameCore]:
    """The rules class registered as ``env``; another version of a registered game, or an
    unknown name, raises a ValueError saying which environments are registered."""
    if env in ENVIRONMENTS:
        return game_module(env).Game
    base, _, version = env.rpartition("_v")
    versions = sorted(name for name in ENVIRONMENTS if name.rpartition("_v")[0] == base)
    if versions and version.isdigit():
        registered = max(int(name.rpartition("_v")[2]) for name in versions)
        age = "an older" if int(version) < registered else "a newer"
        raise ValueError(
            f"the replay is of {env}, {age} version of the game than the registered "
            f"{' and '.join(versions)}; it cannot be rebuilt with these rules"
        )
    raise ValueError(f"unknown env {env!r}; registered envs are {sorted(ENVIRONMENTS)}")


@dataclass(frozen=True)
class Replay:
    """One game: what rebuilds it (env, players, options, seed, actions) and what it must
    come to (returns, scores, final state hash), with a label per seat."""

    env: str
    num_players: int
    options: dict[str, object]
    seed: int
    actions: tuple[int, ...]
    agents: tuple[str, ...]
    returns: tuple[float, ...]
    """Final returns; empty if the game was stopped unfinished."""
    final_hash: str
    """:func:`state_hash` of the last state (after the last action)."""
    scores: tuple[float, ...] = ()
    """Final scores; empty if the game has none (cooperative games) or is unfinished."""

    def __post_init__(self) -> None:
        for problem in _field_problems(self):
            raise ValueError(f"replay: {problem}")

    # ----- JSON ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready record, ``format`` and ``format_version`` first."""
        data: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION}
        for field in fields(self):
            value = getattr(self, field.name)
            data[field.name] = list(value) if isinstance(value, tuple) else value
        return data

    def to_json(self) -> str:
        """The replay as JSON, one key per line (the action list on one line)."""
        lines = [
            f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in self.to_dict().items()
        ]
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @classmethod
    def from_json(cls, text: str) -> Replay:
        """A replay read from JSON; a ValueError names the first problem (not JSON, another
        format or format version, a missing or unknown key, a value of the wrong type)."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as error:
            raise ValueError(f"not a replay: not JSON ({error})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Replay:
        """A replay from :meth:`to_dict`'s data (checked as :meth:`from_json` says)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f'not a replay: no "format": {json.dumps(FORMAT)} key')
        version = data.get("format_version")
        if not is_int(version) or version != FORMAT_VERSION:
            raise ValueError(
                f"replay format_version {version!r} is not supported; expected {FORMAT_VERSION}"
            )
        names = [field.name for field in fields(cls)]
        missing = [name for name in names if name not in data]
        unknown = sorted(set(data) - {*names, "format", "format_version"})
        if missing:
            raise ValueError(f"replay: missing key(s) {missing}")
        if unknown:
            raise ValueError(f"replay: unknown key(s) {unknown}; expected {names}")
        values = {name: data[name] for name in names}
        for name in ("actions", "agents", "returns", "scores"):
            if not isinstance(values[name], list):
                raise ValueError(f"replay: {name} must be a list, not {values[name]!r:.60}")
            values[name] = tuple(values[name])
        return cls(**values)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the replay to ``path`` atomically (the old file or the new, never half)."""
        write_atomic(Path(path), self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Replay:
        """The replay in ``path``; a ValueError names the path and the problem."""
        try:
            text = Path(path).read_text()
        except OSError as error:
            raise ValueError(f"{path}: cannot read it ({error.strerror})") from None
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not a replay (not text)") from None
        try:
            return cls.from_json(text)
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None

    # ----- rebuilding ------------------------------------------------------------------
    def game_class(self) -> type[GameCore]:
        """The registered rules class of :attr:`env` (ValueError if not registered)."""
        return game_class(self.env)

    def game(self) -> GameCore:
        """The game after the last action, rebuilt and re-checked (see :meth:`states`)."""
        return self._rebuild(keep_states=False)[-1]

    def states(self) -> list[GameCore]:
        """The state before the first action and after each action (``len(actions) + 1``),
        rebuilt from the seed: every action must be legal in turn and the returns, scores
        and final state hash equal the recorded ones, else a ValueError names what differs
        (the step, from 1, of an illegal action)."""
        return self._rebuild(keep_states=True)

    def _rebuild(self, keep_states: bool) -> list[GameCore]:
        cls = self.game_class()
        try:
            game = cls(self.num_players, seed=self.seed, **self.options)
        except ValueError as error:
            raise ValueError(f"replay of {self.env}: {error}") from None
        states = [game.clone()] if keep_states else []
        for step, action in enumerate(self.actions, start=1):
            try:
                game.apply(action)
            except ValueError as error:
                raise ValueError(
                    f"replay step {step} of {len(self.actions)}: action {action} refused: {error}"
                ) from None
            if keep_states:
                states.append(game.clone())
        for problem in self._outcome_problems(game):
            raise ValueError(f"replay of {self.env} does not match its game: {problem}")
        return states if keep_states else [game]

    def _outcome_problems(self, game: GameCore) -> Iterator[str]:
        """Each way the rebuilt ``game`` differs from the recorded outcome."""
        steps = len(self.actions)
        if self.returns and not game.is_terminal:
            yield f"it records final returns but the game goes on after its {steps} actions"
        if not self.returns and game.is_terminal:
            yield f"the game ends after its {steps} actions but it records no returns"
        if self.returns and self.returns != outcome_returns(game):
            yield f"returns {list(self.returns)} recorded, {list(outcome_returns(game))} rebuilt"
        if self.scores != outcome_scores(game):
            yield f"scores {list(self.scores)} recorded, {list(outcome_scores(game))} rebuilt"
        rebuilt = state_hash(game)
        if self.final_hash != rebuilt:
            yield (
                f"final_hash {self.final_hash} recorded, {rebuilt} rebuilt "
                "(the seed, options or actions were changed, or the rules differ)"
            )


def outcome_returns(game: GameCore) -> tuple[float, ...]:
    """The game's final returns, or ``()`` while it goes on."""
    return tuple(float(value) for value in game.returns()) if game.is_terminal else ()


def outcome_scores(game: GameCore) -> tuple[float, ...]:
    """The game's final scores, or ``()`` while it goes on or where it has none."""
    scores = game.scores() if game.is_terminal else None
    return () if scores is None else tuple(float(value) for value in scores)


def record(
    game: GameCore, seed: int, actions: Sequence[int], agents: Sequence[str] | None = None
) -> Replay:
    """The replay of ``game`` as it is now, dealt by ``Game(num_players, seed=seed, **options)``
    and played by ``actions``; ``agents`` label the seats (default ``player_i``)."""
    labels = [f"player_{seat}" for seat in range(game.num_players)] if agents is None else agents
    return Replay(
        env=env_name(type(game)),
        num_players=game.num_players,
        options=dict(game.options),
        seed=int(seed),
        actions=tuple(int(action) for action in actions),
        agents=tuple(labels),
        returns=outcome_returns(game),
        final_hash=state_hash(game),
        scores=outcome_scores(game),
    )


# ----- field checks ------------------------------------------------------------------------
def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _field_problems(replay: Replay) -> Iterator[str]:
    """Each field of the wrong type or shape, as a message naming the field."""
    if not isinstance(replay.env, str) or not re.fullmatch(r"\w+_v\d+", replay.env):
        yield f"env must be a name with its version such as 'vaalbara_v1', not {replay.env!r:.60}"
    if type(replay.num_players) is not int or replay.num_players < 1:
        yield f"num_players must be a positive int, not {replay.num_players!r:.60}"
    elif len(replay.agents) != replay.num_players:
        yield f"agents has {len(replay.agents)} labels for {replay.num_players} players"
    if not isinstance(replay.options, Mapping) or not all(
        isinstance(key, str) for key in replay.options
    ):
        yield f"options must be a mapping of option names, not {replay.options!r:.60}"
    if type(replay.seed) is not int or replay.seed < 0:
        yield f"seed must be an int >= 0, not {replay.seed!r:.60}"
    yield from _sequence_problems(replay, "actions", lambda x: type(x) is int and x >= 0, "ints")
    yield from _sequence_problems(replay, "agents", lambda x: isinstance(x, str), "strings")
    for name in ("returns", "scores"):
        yield from _sequence_problems(replay, name, _is_number, "finite numbers")
        count = len(getattr(replay, name))
        if count not in (0, replay.num_players) and type(replay.num_players) is int:
            yield f"{name} has {count} values for {replay.num_players} players (or none)"
    if not isinstance(replay.final_hash, str) or not HASH_PATTERN.fullmatch(replay.final_hash):
        yield f"final_hash must be 64 lowercase hex digits, not {replay.final_hash!r:.80}"


def _sequence_problems(
    replay: Replay, name: str, accepts: Callable[[Any], bool], what: str
) -> Iterator[str]:
    value = getattr(replay, name)
    if not isinstance(value, tuple):
        yield f"{name} must be a tuple, not {type(value).__name__}"
        return
    bad = [(index, item) for index, item in enumerate(value) if not accepts(item)]
    if bad:
        index, item = bad[0]
        yield f"{name}[{index}] = {item!r:.40} is not allowed; {name} holds {what}"


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Replay",
    "env_name",
    "game_class",
    "outcome_returns",
    "outcome_scores",
    "record",
    "state_hash",
]
