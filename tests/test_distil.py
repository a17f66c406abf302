"""tabletop_envs.training.distil: the polished seat rotates, the expert keeps the original's
choices only on
the kept kinds, fitting moves the network towards the expert, and the CLI refuses bad input."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
import torch
from tabletop_envs.agents.policy import PolicyNetwork, load_policy, read_policy
from tabletop_envs.training import warmstart
from tabletop_envs.training.distil import (
    Polish,
    TorchActor,
    decision_kinds,
    expert_labels,
    main,
    one_seat_driver,
    polish_policy,
)
from tabletop_envs.training.export import export_actor

import tabletop_envs

GAME = "valiant_wars_v3"
HEURISTIC_GAMES = warmstart.Cloning(GAME, 2, "heuristic")
CORE = tabletop_envs.game_module(GAME).Game
LAYOUT = CORE.LAYOUT


def small_network(seed: int = 0) -> PolicyNetwork:
    rng = np.random.default_rng(seed)
    sizes = [CORE.SCHEMA.size, 16, LAYOUT.total]
    weights = [rng.normal(0, 0.3, (b, a)).astype(np.float32) for a, b in pairwise(sizes)]
    biases = [rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:]]
    return PolicyNetwork(weights, biases, "relu", {"game": GAME, "players": 2})


def settings(keep: set[str], decisions: int = 300, epochs: int = 4, rate: float = 3e-4) -> Polish:
    return Polish("heuristic", frozenset(keep), 1, decisions, epochs, 256, rate, seed=3)


def test_torch_actor_computes_the_numpy_networks_logits() -> None:
    network = small_network()
    observations = np.random.default_rng(1).random((5, CORE.SCHEMA.size)).astype(np.float32)
    with torch.no_grad():
        logits = TorchActor(network)(torch.as_tensor(observations)).numpy()
    assert np.allclose(logits, network.logits(observations), atol=1e-5)
    back = export_actor(TorchActor(network), "relu", network.meta)
    assert all(np.array_equal(a, b) for a, b in zip(back.weights, network.weights, strict=True))


def test_the_network_plays_one_seat_per_game_in_turn() -> None:
    """Replaying each game with the network at seat ``g % 2`` and the labels elsewhere meets
    exactly the recorded observations."""
    network = small_network()
    labelled = warmstart.label_games(HEURISTIC_GAMES, 200, 4, one_seat_driver(network, 2))
    data, index = labelled.data, 0
    for game in sorted(set(labelled.games.tolist())):
        state = CORE(2, seed=4 * 100_003 + game)
        while not state.is_terminal:
            seat = state.current_player
            observation, mask = state.observation(seat), state.legal_mask()
            assert np.array_equal(data.observations[index], observation)
            assert labelled.seats[index] == seat and labelled.games[index] == game
            chosen = network.choose(observation[None], mask[None], None)[0]
            state.apply(int(chosen) if seat == game % 2 else int(data.actions[index]))
            index += 1
    assert index == len(data.actions)


def segment_holding(mask: np.ndarray) -> str:
    """The segment whose offsets hold every legal action (written apart from ``kind_of``)."""
    legal = np.flatnonzero(mask)
    (name,) = [
        s.name
        for s in LAYOUT.segments.values()
        if s.offset <= legal.min() and legal.max() < s.offset + s.size
    ]
    return name


def test_expert_keeps_the_originals_choice_only_on_kept_kinds() -> None:
    original = small_network()
    labelled = warmstart.label_games(HEURISTIC_GAMES, 300, 5, one_seat_driver(original, 2))
    data = labelled.data
    kinds = np.array([segment_holding(mask) for mask in data.masks])
    assert np.array_equal(decision_kinds(data.masks, LAYOUT), kinds)
    labels = expert_labels(data, kinds, original, frozenset({"buy"}))
    own = original.choose(data.observations, data.masks, None)
    assert {"buy", "reveal_or_stop"} <= set(kinds)
    assert np.array_equal(labels[kinds == "buy"], own[kinds == "buy"])
    assert np.array_equal(labels[kinds != "buy"], data.actions[kinds != "buy"])
    assert not np.array_equal(own, data.actions), "the teacher and the network differ somewhere"


def agreement_with_teacher(network: PolicyNetwork, seed: int) -> float:
    labelled = warmstart.label_games(HEURISTIC_GAMES, 600, seed, one_seat_driver(network, 2))
    chosen = network.choose(labelled.data.observations, labelled.data.masks, None)
    return float((chosen == labelled.data.actions).mean())


def test_polishing_moves_the_network_to_the_teacher_on_the_other_kinds() -> None:
    original = small_network()
    polished, rounds = polish_policy(original, settings({"ignore_omen"}, 2000, 15, 1e-2))
    before, after = agreement_with_teacher(original, 11), agreement_with_teacher(polished, 11)
    assert after > before + 0.2, (before, after)
    assert len(rounds) == 1 and rounds[0].decisions >= 2000
    assert polished.meta["polished"]["kept_kinds"] == ["ignore_omen"]


def test_keeping_every_kind_keeps_the_originals_choices() -> None:
    original = small_network()
    polished, rounds = polish_policy(original, settings(set(LAYOUT.names)))
    assert rounds[0].agreement == 1.0, "every label is the original's own choice"
    assert sum(count for count, _ in rounds[0].by_kind.values()) == rounds[0].decisions
    labelled = warmstart.label_games(HEURISTIC_GAMES, 400, 9, one_seat_driver(original, 2))
    data = labelled.data
    same = original.choose(data.observations, data.masks, None) == polished.choose(
        data.observations, data.masks, None
    )
    assert same.mean() > 0.97


def test_cli_writes_a_loadable_policy_that_records_its_polishing(tmp_path: Path) -> None:
    source, out = tmp_path / "policy.npz", tmp_path / "polished.npz"
    small_network().save(source)
    argv = [str(source), "--keep", "buy", "--rounds", "1", "--decisions", "50", "--out", str(out)]
    assert main(argv) == 0
    assert load_policy(out, GAME, players=2).network.meta["polished"]["teacher"] == "heuristic"
    assert read_policy(out).meta["players"] == 2


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--keep", "reveal"], "unknown decision kinds ['reveal']"),
        (["--keep", "buy", "--teacher", "oracle"], "oracle"),
        (["--keep", "buy", "--learning-rate", "2"], "--learning-rate 2.0"),
    ],
)
def test_cli_refuses_bad_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    source = tmp_path / "policy.npz"
    small_network().save(source)
    assert main([str(source), "--out", str(tmp_path / "out.npz"), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out.npz").exists()


def test_cli_refuses_to_overwrite_the_policy_it_polishes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "policy.npz"
    small_network().save(source)
    before = source.read_bytes()
    assert main([str(source), "--keep", "buy", "--out", str(source)]) == 2
    assert "is the policy being polished" in capsys.readouterr().err
    assert source.read_bytes() == before
