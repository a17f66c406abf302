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


def setting(default: Any, rule: Rule, what: str = "") -> Any:
    """A settings field: its default, what it accepts and (for a command-line flag) what it
    means, declared together."""
    return field(default=default, metadata={"rule": rule, "what": what})


GAME_OPTIONS = Rule("a table of the game's options", lambda v: isinstance(v, dict))
NET_ARCH = Rule(
    "a list of whole numbers >= 1 (hidden layer widths)",
    lambda v: isinstance(v, list) and all(is_whole(w) and w >= 1 for w in v),
)
ACTIVATION = Rule(f"one of {sorted(ACTIVATIONS)}", lambda v: v in ACTIVATIONS)
ADVICE = Rule(
    f"'' (a plain policy) or one of {list(ADVICE_NAMES)} (its move is part of the input)",
    is_advice,
)
BOT = Rule("'' (none), 'random', 'heuristic' or a policy file", lambda v: isinstance(v, str))


@dataclass
class TrainConfig:
    """Defaults suit a small game on a laptop; each game's TOML file overrides them."""

    players: int = setting(2, whole(1))
    game_options: dict = field(default_factory=dict, metadata={"rule": GAME_OPTIONS})
    n_envs: int = setting(16, whole(1))
    env_workers: int = setting(1, whole(1))  # processes the n_envs tables are spread over
    n_steps: int = setting(256, whole(1))
    batch_size: int = setting(1024, whole(2))
    n_epochs: int = setting(4, whole(1))
    learning_rate: float = setting(3e-4, number(0, 1, low_open=True))
    gamma: float = setting(0.995, number(0, 1, low_open=True))
    gae_lambda: float = setting(0.95, number(0, 1))
    ent_coef: float = setting(0.01, number(0, 1))
    clip_range: float = setting(0.2, number(0, 1, low_open=True))
    net_arch: list[int] = field(default_factory=lambda: [256, 256], metadata={"rule": NET_ARCH})
    activation: str = setting("relu", ACTIVATION)
    snapshot_every: int = setting(4, whole(1))
    newest_prob: float = setting(0.5, number(0, 1))
    random_share: float = setting(0.1, number(0, 1))
    heuristic_share: float = setting(0.15, number(0, 1))
    max_snapshots: int = setting(20, whole(1))
    eval_every: int = setting(40_000, whole(1))
    eval_every_seconds: float = setting(0.0, number(0, 86_400))  # >0: by time, not steps
    eval_games: int = setting(200, whole(1))
    checkpoint_every: int = setting(40_000, whole(1))
    final_eval_games: int = setting(1000, whole(1))
    advice: str = setting("", ADVICE)
    advice_weight: float = setting(3.0, number(0, 50))
    warm_start_bot: str = setting("", BOT)
    warm_start_decisions: int = setting(0, whole(0))
    warm_start_epochs: int = setting(6, whole(1))
    warm_start_dagger_rounds: int = setting(0, whole(0))
    warm_start_dagger_decisions: int = setting(10_000, whole(1))
    keep_checkpoints: int = setting(3, whole(1))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def replace(self, **changes: Any) -> TrainConfig:
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


RULES: dict[str, Rule] = {f.name: f.metadata["rule"] for f in dataclasses.fields(TrainConfig)}
"""What each setting accepts, read from the fields."""


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


def read_toml(path: Path) -> dict[str, Any]:
    """The table in the TOML file at ``path``; ValueError naming the file if it cannot be read."""
    try:
        return tomllib.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"cannot read config {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{path}: not valid TOML: {error}") from None


def load_config(game_name: str, overrides: Path | None = None) -> TrainConfig:
    """The game's settings (its file in ``training/configs``), overlaid by ``overrides``."""
    own = CONFIG_DIR / f"{game_name}.toml"
    values = read_toml(own) if own.is_file() else {}
    if overrides is not None:
        extra = read_toml(overrides)
        options = {**values.get("game_options", {}), **extra.pop("game_options", {})}
        values.update(extra)
        if options:
            values["game_options"] = options
    return config_from_mapping(values, str(overrides or own))
