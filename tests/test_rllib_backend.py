"""The RLlib and Ray parts that need no Ray: the observation in RLlib's keys, the flags, the
error naming the extra, and the Ray evaluation's table (run here in this process).

The real RLlib runs are in tests/integrations/test_rllib_*.py (``make test-rllib``).
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import numpy as np
import pytest
from gymnasium import spaces
from policies import random_policy
from tabletop_envs.agents.arena import MatchSpec, Table
from tabletop_envs.tools.evaluate import main as eval_main
from tabletop_envs.tools.ray_eval import RemoteTable, chunks, policy_files
from tabletop_envs.training.rllib import INSTALL_HINT, REACH_SECONDS, check_address
from tabletop_envs.training.train import main as train_main

import tabletop_envs
from tabletop_envs.adapters_rllib import rllib_observation, rllib_space


@pytest.fixture
def no_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray absent, whether or not this environment has it (``import ray`` fails)."""
    monkeypatch.setitem(sys.modules, "ray", None)


@pytest.mark.parametrize("game", sorted(tabletop_envs.GAMES))
def test_observation_takes_rllibs_keys_and_a_float_mask(game: str) -> None:
    env = tabletop_envs.make(game, raw=True)
    env.reset(seed=3)
    agent = env.agent_selection
    space = rllib_space(env.observation_space(agent))
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["observations"] == env.observation_space(agent)["observation"]
    assert space["action_mask"] == spaces.Box(0.0, 1.0, (env.action_space(agent).n,), np.float32)
    observed = env.observe(agent)
    mapped = rllib_observation(observed)
    assert space.contains(mapped)
    np.testing.assert_array_equal(mapped["observations"], observed["observation"])
    np.testing.assert_array_equal(mapped["action_mask"], observed["action_mask"])
    assert mapped["action_mask"].dtype == np.float32


def test_a_space_without_a_mask_is_refused() -> None:
    space = spaces.Dict({"observation": spaces.Box(0, 1, (3,))})
    with pytest.raises(ValueError, match=r"lacks \['action_mask'\]"):
        rllib_space(space)


@pytest.fixture
def listening_port():
    """A local port that accepts connections, as a Ray head's would."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server.getsockname()[1]


@pytest.fixture
def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    return port


@pytest.mark.parametrize("form", ["127.0.0.1:{}", "ray://127.0.0.1:{}", "localhost:{}"])
def test_ray_addresses_that_answer_are_accepted(form: str, listening_port: int) -> None:
    address = form.format(listening_port)
    assert check_address(address) == address
    assert check_address("auto") == "auto"


def test_an_address_nobody_answers_is_refused_after_a_short_wait(
    closed_port: int, monkeypatch
) -> None:
    waits: list[float] = []
    connect = socket.create_connection

    def spy(address, timeout):
        waits.append(timeout)
        return connect(address, timeout=timeout)

    monkeypatch.setattr(socket, "create_connection", spy)
    with pytest.raises(ValueError, match=rf"127.0.0.1:{closed_port}: no Ray cluster answers"):
        check_address(f"127.0.0.1:{closed_port}")
    assert waits == [REACH_SECONDS] and REACH_SECONDS <= 5


@pytest.mark.parametrize("command", ["train", "eval"])
def test_both_commands_refuse_an_unreachable_address_before_any_work(
    command: str, closed_port: int, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "out"
    address = ["--address", f"127.0.0.1:{closed_port}"]
    if command == "train":
        code = train_main(["vaalbara", "--backend", "rllib", "--out", str(out), *address])
    else:
        code = eval_main(
            [
                "vaalbara",
                "--agents",
                "random",
                "random",
                "--out",
                str(out),
                "--backend",
                "ray",
                *address,
            ]
        )
    assert code == 2
    assert "no Ray cluster answers there" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("address", ["head", "ray://head", "head:0", "head:70000", "http://h:1"])
def test_ray_addresses_refused_with_the_accepted_forms(address: str) -> None:
    with pytest.raises(ValueError, match=r"expected 'auto', HOST:PORT or ray://HOST:PORT"):
        check_address(address)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--num-env-runners", "2"], "--num-env-runners applies to --backend rllib only"),
        (["--address", "auto"], "--address applies to --backend rllib only"),
        (
            ["--address", "auto", "--num-env-runners", "1"],
            "--num-env-runners and --address apply to --backend rllib only",
        ),
        (["--backend", "rllib", "--address", "head"], "is not a Ray address"),
        (["--backend", "rllib", "--resume"], "--resume is for --backend sb3 runs"),
    ],
)
def test_train_refuses_backend_flags_that_do_not_fit(
    flags: list[str], message: str, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "run"
    assert train_main(["vaalbara", "--steps", "10", "--out", str(out), *flags]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("flags", [["--backend", "torch"], ["--num-env-runners", "-1"]])
def test_train_refuses_bad_backend_values(flags: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        train_main(["vaalbara", *flags])
    assert stop.value.code == 2
    assert "error: argument" in capsys.readouterr().err


def test_train_names_the_extra_when_ray_is_missing(no_ray, tmp_path: Path, capsys) -> None:
    out = tmp_path / "run"
    assert train_main(["vaalbara", "--backend", "rllib", "--steps", "10", "--out", str(out)]) == 2
    assert f"--backend rllib needs Ray, which is not installed: {INSTALL_HINT}" in (
        capsys.readouterr().err
    )
    assert not out.exists()


def test_eval_names_the_extra_when_ray_is_missing(no_ray, tmp_path: Path, capsys) -> None:
    args = ["vaalbara", "--agents", "random", "random", "--games", "2", "--out", str(tmp_path)]
    assert eval_main([*args, "--backend", "ray"]) == 2
    assert f"--backend ray needs Ray, which is not installed: {INSTALL_HINT}" in (
        capsys.readouterr().err
    )
    assert eval_main([*args, "--address", "auto"]) == 2
    assert "--address applies to --backend ray only" in capsys.readouterr().err
    assert not (tmp_path / "results.json").exists()


def test_a_ray_worker_table_plays_the_local_tables_games(tmp_path: Path) -> None:
    """What a Ray actor runs, here: policy files shipped as bytes, the same records."""
    policy = random_policy(tmp_path / "policy.npz")
    match = MatchSpec("vaalbara_v1", (str(policy), "heuristic"), seed=5)
    shipped = policy_files(match)
    policy.unlink()  # the worker reads its own copy, not the driver's file
    remote = RemoteTable(match, shipped, replays=(1, 4))
    parts = chunks(7, 3)
    assert parts == [[0, 1, 2], [3, 4, 5], [6]]
    played = [record for part in parts for record in remote.play(part)]
    random_policy(policy)
    local = Table(match, replays=(1, 4))
    assert played == [local.play(index) for index in range(7)]
    assert [record.index for record in played if record.replay] == [1, 4]
    assert set(played[1].replay.agents) == {str(policy), "heuristic"}  # the caller's labels
