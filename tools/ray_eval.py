"""``tabletop-eval --backend ray``: the local pool's games, played by Ray actors.

Each actor holds one ``tabletop_envs.agents.arena.Table`` and plays chunks of game indices; game
``i`` is dealt and seated from ``(seed, i)`` alone, so the records are those of the local
process pool, whatever the actor count or the order chunks finish in. Policy files are read here
and shipped to the actors as bytes, so the cluster's machines need not share a filesystem; the
package itself must be installed on every machine (docs/scaling.md).
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable, Collection
from pathlib import Path
from types import ModuleType

from tabletop_envs.agents.arena import GameRecord, MatchSpec, Table
from tabletop_envs.training.rllib import connect, disconnect

GAMES_PER_CHUNK = 16


class RemoteTable:
    """A table on a Ray worker; policy files arrive as bytes and are written to a temp folder."""

    def __init__(
        self, match: MatchSpec, files: dict[str, bytes], replays: Collection[int] = ()
    ) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="tabletop-eval-")
        agents = []
        for index, spec in enumerate(match.agents):
            if spec in files:
                local = Path(self.folder.name) / f"agent{index}-{Path(spec).name}"
                local.write_bytes(files[spec])
                spec = str(local)
            agents.append(spec)
        self.table = Table(dataclasses.replace(match, agents=tuple(agents)), replays)
        self.labels = dict(zip(agents, match.agents, strict=True))

    def play(self, indices: list[int]) -> list[GameRecord]:
        """The games' records; replays name the agents as the caller gave them."""
        return [self.relabelled(self.table.play(index)) for index in indices]

    def relabelled(self, record: GameRecord) -> GameRecord:
        if record.replay is None:
            return record
        agents = tuple(self.labels[label] for label in record.replay.agents)
        return dataclasses.replace(record, replay=dataclasses.replace(record.replay, agents=agents))


def policy_files(match: MatchSpec) -> dict[str, bytes]:
    """The bytes of every agent given as a file path."""
    return {spec: Path(spec).read_bytes() for spec in set(match.agents) if Path(spec).is_file()}


def chunks(games: int, size: int) -> list[list[int]]:
    return [list(range(start, min(start + size, games))) for start in range(0, games, size)]


def play_games_on_ray(
    match: MatchSpec,
    games: int,
    workers: int,
    address: str | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    replays: Collection[int] = (),
) -> list[GameRecord]:
    """Play games ``0..games-1`` on ``workers`` Ray actors (at most one per cluster CPU);
    records sorted by game index, as :func:`tabletop_envs.agents.arena.play_games` returns
    them, with the replays of the games in ``replays``."""
    ray = connect("--backend ray", address, workers)
    try:
        records = play_on(ray, match, games, workers, on_record, replays)
        return sorted(records, key=lambda r: r.index)
    finally:
        disconnect()


def play_on(
    ray: ModuleType,
    match: MatchSpec,
    games: int,
    workers: int,
    on_record: Callable[[GameRecord], None] | None,
    replays: Collection[int],
) -> list[GameRecord]:
    from ray.util import ActorPool

    cpus = int(ray.cluster_resources().get("CPU", 1))
    actor = ray.remote(num_cpus=1)(RemoteTable)
    files = ray.put(policy_files(match))
    pool = ActorPool(
        [actor.remote(match, files, replays) for _ in range(max(1, min(workers, cpus)))]
    )
    records = []
    size = max(1, min(GAMES_PER_CHUNK, games // (workers * 4)))
    for batch in pool.map_unordered(lambda a, part: a.play.remote(part), chunks(games, size)):
        for record in batch:
            records.append(record)
            if on_record is not None:
                on_record(record)
    return records
