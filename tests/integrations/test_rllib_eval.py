"""``tabletop-eval --backend ray`` against the local process pool (``make test-rllib``)."""

from __future__ import annotations

from pathlib import Path

from policies import random_policy
from tabletop_envs.tools.evaluate import main as eval_main


def test_ray_backend_writes_the_local_pools_results(tmp_path: Path) -> None:
    policy = random_policy(tmp_path / "policy.npz", players=3)
    args = ["vaalbara", "--agents", str(policy), "heuristic", "random", "--games", "24"]
    args += ["--workers", "2", "--seed", "7"]
    assert eval_main([*args, "--out", str(tmp_path / "local")]) == 0
    assert eval_main([*args, "--backend", "ray", "--out", str(tmp_path / "ray")]) == 0
    for name in ("results.json", "results.csv"):
        local = (tmp_path / "local" / name).read_text()
        assert (tmp_path / "ray" / name).read_text() == local
    other_seed = [*args[:-1], "8", "--backend", "ray", "--out", str(tmp_path / "other")]
    assert eval_main(other_seed) == 0
    local = (tmp_path / "local" / "results.json").read_text()
    assert (tmp_path / "other" / "results.json").read_text() != local  # not a constant table
