"""Training settings: one TOML file per game in ``training/configs``, checked field by field."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG_DIR = Path(__file__).resolve().parent / "configs"


@dataclass
class TrainConfig:
    """Defaults suit a small game on a laptop; each game's TOML file overrides them."""

    players: int = 2
    game_options: dict = field(default_factory=dict)
    n_envs: int = 16
    n_steps: int = 256
    batch_size: int = 1024
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    clip_range: float = 0.2
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    activation: str = "relu"
    snapshot_every: int = 4
    newest_prob: float = 0.5
    random_share: float = 0.1
    heuristic_share: float = 0.15
    max_snapshots: int = 20
    eval_every: int = 40_000
    eval_games: int = 200
    checkpoint_every: int = 40_000
    final_eval_games: int = 1000
    warm_start_bot: str = ""
    warm_start_decisions: int = 0
    warm_start_epochs: int = 6

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> TrainConfig:
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


def config_fields() -> dict[str, type]:
    defaults = TrainConfig()
    return {f.name: type(getattr(defaults, f.name)) for f in dataclasses.fields(TrainConfig)}


def config_from_mapping(values: dict[str, Any], source: str) -> TrainConfig:
    """A TrainConfig from ``values``; unknown keys or wrong types raise ValueError."""
    known = config_fields()
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(f"{source}: unknown setting(s) {unknown}; valid settings: {sorted(known)}")
    for key, value in values.items():
        expected = known[key]
        if expected is float and isinstance(value, int):
            continue
        if not isinstance(value, expected) or isinstance(value, bool) != (expected is bool):
            raise ValueError(f"{source}: {key} = {value!r} should be a {expected.__name__}")
    return TrainConfig(**values)


def read_settings(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"cannot read config {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: not valid TOML: {error}") from None


def load_config(game_name: str, overrides: Path | None = None) -> TrainConfig:
    """The game's settings (its file in ``training/configs``), overlaid by ``overrides``."""
    own = CONFIG_DIR / f"{game_name}.toml"
    values = read_settings(own) if own.is_file() else {}
    if overrides is not None:
        extra = read_settings(overrides)
        options = {**values.get("game_options", {}), **extra.pop("game_options", {})}
        values.update(extra)
        if options:
            values["game_options"] = options
    return config_from_mapping(values, str(overrides or own))
