"""Trained policies as bots: a small numpy MLP read from a self-describing ``.npz`` file.

Training (``training/``) exports the actor of a MaskablePPO policy into this format, so
playing a trained agent needs numpy only. The file records the environment, package
version, player count and observation and action sizes; loading checks each against the game
it is asked to play and says clearly what does not match.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tabletop_envs.agents.advice import Advisor, advised_size, check_advice, make_advisor
from tabletop_envs.agents.base import SeededAgent
from tabletop_envs.agents.files import write_atomic

FORMAT = "tabletop-envs-policy"
FORMAT_VERSION = 1
HEADER_FIELDS = ("game", "activation", "layers")
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


@dataclass
class PolicyNetwork:
    """Dense layers ``(weight[out, in], bias[out])``, activation between them, logits last."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"activation {self.activation!r} unknown; expected one of {sorted(ACTIVATIONS)}"
            )
        if not self.weights or len(self.weights) != len(self.biases):
            raise ValueError("a policy needs at least one layer, each with a weight and a bias")
        for weight, bias in zip(self.weights, self.biases, strict=True):
            if weight.ndim != 2 or bias.shape != (weight.shape[0],):
                raise ValueError("policy layers have inconsistent shapes")
        for before, after in zip(self.weights, self.weights[1:], strict=False):
            if after.shape[1] != before.shape[0]:
                raise ValueError("policy layers do not chain")

    @property
    def observation_size(self) -> int:
        return int(self.weights[0].shape[1])

    @property
    def action_size(self) -> int:
        return int(self.weights[-1].shape[0])

    @property
    def advice(self) -> str:
        """The advisor whose move follows the observation in this policy's input ('': none)."""
        return str(self.meta.get("advice", ""))

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Logits for a batch ``[n, observation_size]`` (or one observation)."""
        hidden = np.asarray(observations, dtype=np.float32)
        activate = ACTIVATIONS[self.activation]
        last = len(self.weights) - 1
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            hidden = hidden @ weight.T + bias
            if index < last:
                hidden = activate(hidden)
        return hidden

    def choose(
        self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None
    ) -> np.ndarray:
        """Masked actions for a batch: argmax without ``rng``, else sampled from the softmax."""
        return masked_choice(self.logits(observations), masks, rng)

    def save(self, path: Path) -> None:
        """Write the file atomically (a temporary file, then a rename)."""
        save_arrays(path, self.arrays())

    def arrays(self) -> dict[str, np.ndarray]:
        """The file's entries: the JSON header and each layer's weight and bias."""
        arrays = {"meta": np.array(json.dumps(self.describe()))}
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"weight_{index}"] = weight.astype(np.float32)
            arrays[f"bias_{index}"] = bias.astype(np.float32)
        return arrays

    def describe(self) -> dict[str, Any]:
        return {
            **self.meta,
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "activation": self.activation,
            "observation_size": self.observation_size,
            "action_size": self.action_size,
            "layers": len(self.weights),
        }


def save_arrays(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write plain arrays as an ``.npz`` file atomically (a temporary file, then a rename)."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, buffer.getvalue())


def masked_choice(
    logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None
) -> np.ndarray:
    """Per row, the best legal action (``rng=None``) or one sampled from the masked softmax."""
    logits = np.where(np.asarray(masks, dtype=bool), logits, -np.inf)
    if rng is None:
        return logits.argmax(axis=-1)
    logits = logits - logits.max(axis=-1, keepdims=True)
    probabilities = np.exp(logits)
    probabilities /= probabilities.sum(axis=-1, keepdims=True)
    cumulative = probabilities.cumsum(axis=-1)
    draws = rng.random((*cumulative.shape[:-1], 1))
    return np.minimum((cumulative < draws).sum(axis=-1), logits.shape[-1] - 1)


ZIP_MAGIC = b"PK\x03\x04"
TRAINING_CHECKPOINT_ENTRIES = ("policy.pth", "data")  # a stable-baselines3 model zip


class PolicyFileError(ValueError):
    """A policy file that cannot be read; the message names the file and the problem."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"policy file {path}: {problem}")


def read_policy(path: Path) -> PolicyNetwork:
    """Read a policy file; a missing, damaged or foreign file raises :class:`PolicyFileError`.

    Only numbers and a JSON header are read (never pickled objects), so any file is safe to
    read, whoever wrote it.
    """
    path = Path(path)
    with _open_archive(path) as archive:
        meta = _read_header(path, archive)
        count = meta["layers"]
        weights = [_read_array(path, archive, f"weight_{i}", 2) for i in range(count)]
        biases = [_read_array(path, archive, f"bias_{i}", 1) for i in range(count)]
    try:
        return PolicyNetwork(weights, biases, meta["activation"], meta)
    except ValueError as error:
        raise PolicyFileError(path, str(error)) from None


def read_layers(path: Path, prefix: str, count: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """``count`` extra dense layers stored as ``{prefix}weight_i`` and ``{prefix}bias_i`` in a
    policy file (read as plain numbers, like the policy's own); :class:`PolicyFileError` names
    a missing or malformed entry."""
    path = Path(path)
    with _open_archive(path) as archive:
        weights = [_read_array(path, archive, f"{prefix}weight_{i}", 2) for i in range(count)]
        biases = [_read_array(path, archive, f"{prefix}bias_{i}", 1) for i in range(count)]
    return weights, biases


def _open_archive(path: Path) -> zipfile.ZipFile:
    if not path.exists():
        raise PolicyFileError(path, "no such file")
    if path.is_dir():
        raise PolicyFileError(path, "is a folder, not a file")
    try:
        with path.open("rb") as stream:
            start = stream.read(len(ZIP_MAGIC))
        archive = zipfile.ZipFile(path)
    except OSError as error:
        raise PolicyFileError(path, f"cannot be read ({error.strerror or error})") from None
    except zipfile.BadZipFile:
        if not start:
            raise PolicyFileError(path, "is empty") from None
        if start != ZIP_MAGIC:
            raise PolicyFileError(path, "is not a policy file (not an .npz archive)") from None
        raise PolicyFileError(path, "is truncated or damaged (an incomplete archive)") from None
    _refuse_checkpoint(path, set(archive.namelist()))
    return archive


def _refuse_checkpoint(path: Path, names: set[str]) -> None:
    """A training checkpoint given where a policy is expected: say so and where its policy is."""
    sb3 = all(name in names for name in TRAINING_CHECKPOINT_ENTRIES)
    torch_file = any(name.endswith("/data.pkl") for name in names)
    if not (sb3 or torch_file):
        return
    steps = "".join(ch for ch in path.stem if ch.isdigit())
    beside = path.with_name(f"policy_{steps}.npz")
    where = (
        f"use the policy saved beside it, {beside}"
        if steps and beside.is_file()
        else "use the run's policy.npz, or a checkpoints/policy_N.npz written with it"
    )
    kind = "a stable-baselines3 model zip" if sb3 else "a tabletop-train checkpoint"
    raise PolicyFileError(path, f"is {kind}, not a policy file; {where}")


def _member(path: Path, archive: zipfile.ZipFile, key: str) -> np.ndarray:
    name = f"{key}.npy"
    if name not in archive.namelist():
        raise PolicyFileError(path, f"has no {key!r} entry")
    try:
        with archive.open(name) as stream:
            return np.lib.format.read_array(stream, allow_pickle=False)
    except (zipfile.BadZipFile, EOFError, OSError, zlib.error):
        raise PolicyFileError(path, f"is truncated or damaged (entry {key!r})") from None
    except ValueError:
        raise PolicyFileError(path, f"entry {key!r} is not a plain numeric array") from None


def _read_header(path: Path, archive: zipfile.ZipFile) -> dict[str, Any]:
    """The JSON header, with the fields loading relies on checked."""
    raw = _member(path, archive, "meta")
    if raw.dtype.kind != "U" or raw.shape != ():
        raise PolicyFileError(path, "header 'meta' is not a JSON text")
    try:
        meta = json.loads(str(raw))
    except json.JSONDecodeError as error:
        raise PolicyFileError(path, f"header is not valid JSON ({error.msg})") from None
    if not isinstance(meta, dict):
        raise PolicyFileError(path, f"header is a JSON {type(meta).__name__}, expected an object")
    if meta.get("format") != FORMAT:
        raise PolicyFileError(path, f"is not a {FORMAT} file (format {meta.get('format')!r})")
    if meta.get("format_version") != FORMAT_VERSION:
        raise PolicyFileError(
            path,
            f"has format version {meta.get('format_version')!r}; "
            f"this package reads version {FORMAT_VERSION}",
        )
    for key in HEADER_FIELDS:
        if key not in meta:
            raise PolicyFileError(path, f"header has no {key!r} field")
    layers = meta["layers"]
    if not isinstance(layers, int) or isinstance(layers, bool) or layers < 1:
        raise PolicyFileError(path, f"header 'layers' is {layers!r}; expected a whole number >= 1")
    try:
        check_advice(meta.get("advice", ""))
    except ValueError as error:
        raise PolicyFileError(path, f"header {error}") from None
    if meta["activation"] not in ACTIVATIONS:
        raise PolicyFileError(
            path,
            f"header 'activation' is {meta['activation']!r}; expected one of {sorted(ACTIVATIONS)}",
        )
    return meta


def _read_array(path: Path, archive: zipfile.ZipFile, key: str, ndim: int) -> np.ndarray:
    array = _member(path, archive, key)
    if array.dtype.kind not in "fiu" or array.ndim != ndim or 0 in array.shape:
        shape = "x".join(map(str, array.shape))
        raise PolicyFileError(
            path, f"entry {key!r} is a {shape} {array.dtype} array; expected {ndim}-D numbers"
        )
    return array.astype(np.float32)


def check_policy_fits(
    network: PolicyNetwork, game_name: str, players: int | None, sizes: tuple[int, int], path: Path
) -> None:
    """Raise ValueError naming each mismatch between the file and the game to play;
    ``sizes`` are the game's observation and action sizes (an advised policy reads both)."""
    found = {
        "game": network.meta.get("game"),
        "players": network.meta.get("players"),
        "observation_size": network.observation_size,
        "action_size": network.action_size,
    }
    expected = {
        "game": game_name,
        "observation_size": advised_size(*sizes, network.advice),
        "action_size": sizes[1],
    }
    if players is not None:
        expected["players"] = players
    wrong = [
        f"{key} {found[key]!r} (expected {value!r})"
        for key, value in expected.items()
        if found[key] != value
    ]
    if wrong:
        raise ValueError(f"policy file {path} does not fit: " + ", ".join(wrong))


class PolicyAgent(SeededAgent):
    """Plays a trained policy: argmax over legal actions, or sampled when ``sample=True``;
    an advised policy (``network.advice``) needs its seat's ``advisor``."""

    name = "policy"

    def __init__(
        self,
        network: PolicyNetwork,
        seed: int | None = None,
        sample: bool = False,
        advisor: Advisor | None = None,
    ) -> None:
        super().__init__(seed)
        if bool(network.advice) != (advisor is not None):
            raise ValueError(
                f"the policy's advice is {network.advice!r}; "
                + ("it needs an advisor" if network.advice else "it takes no advisor")
            )
        self.network = network
        self.sample = sample
        self.advisor = advisor

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.advisor is not None:
            self.advisor.bot.reset(seed)

    def act(self, observation: Mapping[str, np.ndarray], agent: str) -> int:
        mask = observation["action_mask"]
        if not mask.any():
            raise ValueError(f"{agent} has no legal action to choose from")
        inputs = observation["observation"]
        if self.advisor is not None:
            inputs = self.advisor.extend(inputs, mask)
        rng = self.rng if self.sample else None
        return int(self.network.choose(inputs[None], mask[None], rng)[0])


def load_policy(
    path: Path, game_name: str, seed: int | None = None, players: int | None = None
) -> PolicyAgent:
    """The agent stored at ``path``, checked against environment ``game_name``."""
    from tabletop_envs import game_module, resolve_name

    name = resolve_name(game_name)
    core = game_module(name).Game
    network = read_policy(path)
    check_policy_fits(network, name, players, (core.SCHEMA.size, core.LAYOUT.total), path)
    if not network.advice:
        return PolicyAgent(network, seed=seed)
    advisor = make_advisor(network.advice, name, core.LAYOUT.total, seed)
    return PolicyAgent(network, seed=seed, advisor=advisor)
