"""Training settings: one TOML file per game in ``training/configs``, checked field by field."""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop_envs.agents.advice import ADVICE_NAMES, is_advice
from tabletop_envs.agents.policy import ACTIVATIONS

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
    env_workers: int = 1  # processes the n_envs tables are spread over (1: this one)
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
    advice: str = ""
    advice_weight: float = 3.0
    warm_start_bot: str = ""
    warm_start_decisions: int = 0
    warm_start_epochs: int = 6
    warm_start_dagger_rounds: int = 0
    warm_start_dagger_decisions: int = 10_000
    keep_checkpoints: int = 3

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> TrainConfig:
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


@dataclass(frozen=True)
class Rule:
    """What a setting accepts, in words and as a test."""

    accepted: str
    test: Callable[[Any], bool]


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return (is_whole(value) or isinstance(value, float)) and math.isfinite(value)


def whole(low: int) -> Rule:
    return Rule(f"a whole number >= {low}", lambda v: is_whole(v) and v >= low)


def number(low: float, high: float, low_open: bool = False) -> Rule:
    bracket = "(" if low_open else "["
    return Rule(
        f"a number in {bracket}{low:g}, {high:g}]",
        lambda v: is_number(v) and (v > low if low_open else v >= low) and v <= high,
    )


RULES: dict[str, Rule] = {
    "players": whole(1),
    "game_options": Rule("a table of the game's options", lambda v: isinstance(v, dict)),
    "n_envs": whole(1),
    "env_workers": whole(1),
    "n_steps": whole(1),
    "batch_size": whole(2),
    "n_epochs": whole(1),
    "learning_rate": number(0, 1, low_open=True),
    "gamma": number(0, 1, low_open=True),
    "gae_lambda": number(0, 1),
    "ent_coef": number(0, 1),
    "clip_range": number(0, 1, low_open=True),
    "net_arch": Rule(
        "a list of whole numbers >= 1 (hidden layer widths)",
        lambda v: isinstance(v, list) and all(is_whole(w) and w >= 1 for w in v),
    ),
    "activation": Rule(f"one of {sorted(ACTIVATIONS)}", lambda v: v in ACTIVATIONS),
    "snapshot_every": whole(1),
    "newest_prob": number(0, 1),
    "random_share": number(0, 1),
    "heuristic_share": number(0, 1),
    "max_snapshots": whole(1),
    "eval_every": whole(1),
    "eval_games": whole(1),
    "checkpoint_every": whole(1),
    "final_eval_games": whole(1),
    "advice": Rule(
        f"'' (a plain policy) or one of {list(ADVICE_NAMES)} (its move is part of the input)",
        is_advice,
    ),
    "advice_weight": number(0, 50),
    "warm_start_bot": Rule(
        "'' (none), 'random', 'heuristic' or a policy file", lambda v: isinstance(v, str)
    ),
    "warm_start_decisions": whole(0),
    "warm_start_epochs": whole(1),
    "warm_start_dagger_rounds": whole(0),
    "warm_start_dagger_decisions": whole(1),
    "keep_checkpoints": whole(1),
}


def check_config(config: TrainConfig, source: str) -> TrainConfig:
    """``config`` if every setting is acceptable, else a ValueError naming the first bad one."""
    for key, rule in RULES.items():
        value = getattr(config, key)
        if not rule.test(value):
            raise ValueError(f"{source}: {key} = {value!r}; expected {rule.accepted}")
    if config.env_workers > config.n_envs:
        raise ValueError(
            f"{source}: env_workers = {config.env_workers} exceeds n_envs = {config.n_envs}; "
            "expected at most one worker per table"
        )
    shares = config.random_share + config.heuristic_share
    if shares > 1:
        raise ValueError(
            f"{source}: random_share + heuristic_share = {shares:g}; expected at most 1"
        )
    return config


def config_from_mapping(values: dict[str, Any], source: str) -> TrainConfig:
    """A checked TrainConfig from ``values``; unknown keys or bad values raise ValueError."""
    unknown = sorted(set(values) - set(RULES))
    if unknown:
        raise ValueError(f"{source}: unknown setting(s) {unknown}; valid settings: {sorted(RULES)}")
    return check_config(TrainConfig(**values), source)


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
