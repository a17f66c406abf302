"""Self-play training: the single-agent views, masks through the vector env, saved policies, CLI."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from tabletop_envs.agents.base import RandomAgent
from tabletop_envs.agents.gym_env import BotOpponent, SingleSeatEnv, advance_opponents
from tabletop_envs.agents.heuristics import heuristic_agent
from tabletop_envs.agents.loading import make_agent
from tabletop_envs.agents.policy import PolicyAgent, load_policy, read_policy
from tabletop_envs.training.config import load_config
from tabletop_envs.training.export import export_actor
from tabletop_envs.training.opponents import OpponentPool
from tabletop_envs.training.selfplay import SelfPlayVecEnv
from tabletop_envs.training.train import main as train_main

from tabletop_envs.vaalbara_v1 import Game

GAME = "vaalbara_v1"


def random_opponent() -> BotOpponent:
    return BotOpponent(RandomAgent(0), "random")


def play_episode(env: SingleSeatEnv, seed: int) -> tuple[list[float], bool, int]:
    """Random legal learner actions to the end; rewards seen, final done flag, learner seat."""
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards, done = [], False
    while not done:
        assert env.table.game.current_player == info["seat"], "learner asked out of turn"
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, done, _, _ = env.step(action)
        rewards.append(reward)
    return rewards, done, info["seat"]


def test_learner_gets_every_final_transition_win_or_lose() -> None:
    env = SingleSeatEnv(GAME, 2, opponent="random")
    outcomes = set()
    seats = set()
    for seed in range(30):
        rewards, done, seat = play_episode(env, seed)
        assert done
        final = env.table.game.returns()[seat]
        assert rewards[-1] == final, "the last transition carries the learner's return"
        assert all(r == 0 for r in rewards[:-1]), "rewards arrive only at the end"
        outcomes.add(final)
        seats.add(seat)
    assert outcomes == {-1.0, 1.0}, "both wins and losses reach the learner"
    assert seats == {0, 1}, "the learner's seat is drawn anew each game"


def test_rewards_are_attributed_to_the_learner_seat_at_four_players() -> None:
    env = SingleSeatEnv(GAME, 4, opponent="random")
    for seed in range(12):
        rewards, _, seat = play_episode(env, seed)
        returns = env.table.game.returns()
        assert rewards[-1] == returns[seat]
        assert (returns == 1.0).sum() == 1


def test_opponents_are_batched_and_leave_every_table_on_the_learner() -> None:
    calls = []

    class CountingOpponent(BotOpponent):
        def act(self, observations, masks):
            calls.append(len(observations))
            return super().act(observations, masks)

    shared = CountingOpponent(RandomAgent(1), "random")
    vec = SelfPlayVecEnv(GAME, 3, 8, lambda: shared, seed=3)
    vec.reset()
    for table in vec.tables:
        assert table.game.current_player == table.learner
    assert max(calls) > 1, "one forward pass serves several tables"
    advance_opponents(vec.tables)  # nothing left to do
    assert all(t.game.current_player == t.learner for t in vec.tables)


def test_masks_reach_the_policy_through_the_vector_env() -> None:
    vec = SelfPlayVecEnv(GAME, 2, 4, random_opponent, seed=1)
    vec.reset()
    masks = get_action_masks(vec)
    for table, mask in zip(vec.tables, masks, strict=True):
        assert np.array_equal(mask, table.game.legal_mask().astype(bool))
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)  # every learner action goes through GameCore.apply, which rejects illegal ones
    observations = vec.reset()
    actions, _ = model.predict(observations, action_masks=get_action_masks(vec))
    for table, action in zip(vec.tables, actions, strict=True):
        assert table.game.legal_mask()[action]


def test_exported_policy_round_trips_and_plays_identically(tmp_path: Path) -> None:
    vec = SelfPlayVecEnv(GAME, 2, 2, random_opponent, seed=2)
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    network = export_actor(model.policy, "tanh", {"game": GAME, "players": 2})
    observations = np.stack([vec.tables[0].observation()] * 3)
    with_torch = (
        model.policy.get_distribution(model.policy.obs_to_tensor(observations)[0])
        .distribution.logits.detach()
        .numpy()
    )
    log_softmax = network.logits(observations) - np.log(
        np.exp(network.logits(observations)).sum(-1, keepdims=True)
    )
    assert np.allclose(log_softmax, with_torch, atol=1e-5)
    path = tmp_path / "policy.npz"
    network.save(path)
    loaded = load_policy(path, GAME, players=2)
    in_memory = PolicyAgent(network)
    game = Game(2, seed=5)
    while not game.is_terminal:
        observation = {
            "observation": game.observation(game.current_player),
            "action_mask": game.legal_mask(),
        }
        action = loaded.act(observation, "player_0")
        assert action == in_memory.act(observation, "player_0")
        game.apply(action)
    assert read_policy(path).meta["players"] == 2


def test_policy_files_are_checked_against_the_game(tmp_path: Path) -> None:
    vec = SelfPlayVecEnv(GAME, 2, 2, random_opponent, seed=2)
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    path = tmp_path / "policy.npz"
    export_actor(model.policy, "tanh", {"game": GAME, "players": 2}).save(path)
    with pytest.raises(ValueError, match="players 2"):
        load_policy(path, GAME, players=4)
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a policy")
    with pytest.raises(ValueError, match=r"broken\.npz: is not a policy file"):
        make_agent(str(broken), GAME)


def test_opponent_pool_draws_bots_and_snapshots_by_share() -> None:
    pool = OpponentPool(GAME, seed=0, newest_prob=1.0, random_share=0.25, heuristic_share=0.25)
    assert pool.draw().label == "random", "before any snapshot only the random bot plays"
    vec = SelfPlayVecEnv(GAME, 2, 1, random_opponent)
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    for label in ("old", "new"):
        pool.add_snapshot(export_actor(model.policy, "tanh", {}), label)
    labels = [pool.draw().label for _ in range(2000)]
    shares = {label: labels.count(label) / len(labels) for label in set(labels)}
    assert set(shares) == {"random", "heuristic", "new"}
    assert abs(shares["random"] - 0.25) < 0.05 and abs(shares["new"] - 0.5) < 0.05


def test_teacher_seats_play_what_the_bot_itself_plays_on_their_observations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every move the vector env applies for a teacher seat is what the bot's own ``act`` (a
    fresh copy with the teacher's seed, asked in the same order) plays on that seat's
    observation and legal mask at that moment."""
    teacher = BotOpponent(heuristic_agent(GAME, seed=11), "heuristic")
    tables = SelfPlayVecEnv(GAME, 3, 6, lambda: teacher, seed=7)
    moves: list[tuple[np.ndarray, np.ndarray, int]] = []
    apply_unchecked = Game.apply_unchecked

    def recording(game: Game, action: int) -> None:
        seat = game.current_player
        if any(table.game is game and table.learner != seat for table in tables.tables):
            moves.append((game.observation(seat), game.legal_mask(), action))
        apply_unchecked(game, action)

    monkeypatch.setattr(Game, "apply_unchecked", recording)
    rng = np.random.default_rng(0)
    tables.reset()
    for _ in range(60):
        masks = tables.action_masks()
        tables.step([int(rng.choice(np.flatnonzero(mask))) for mask in masks])
    bot = heuristic_agent(GAME, seed=11)
    assert sum(mask.sum() > 1 for _, mask, _ in moves) > 100, "enough real choices to check"
    for observation, mask, action in moves:
        assert bot.act({"observation": observation, "action_mask": mask}, "heuristic") == action


TINY = """
warm_start_decisions = 0
n_envs = 4
n_steps = 32
batch_size = 64
n_epochs = 1
snapshot_every = 1
eval_every = 128
eval_games = 4
checkpoint_every = 128
final_eval_games = 4
"""


def test_train_command_runs_resumes_and_feeds_the_evaluator(tmp_path: Path, capsys) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    out = tmp_path / "run"
    args = ["vaalbara", "--players", "2", "--steps", "256", "--config", str(config)]
    assert train_main([*args, "--out", str(out)]) == 0
    assert (out / "policy.npz").is_file() and (out / "learning_curve.png").is_file()
    curve = (out / "learning_curve.csv").read_text().splitlines()
    assert curve[0].startswith("steps,") and len(curve) >= 3
    assert {row["label"] for row in json.loads((out / "final_eval.json").read_text())} == {
        "random",
        "heuristic",
    }
    assert "win rate" in capsys.readouterr().out
    agent = make_agent(str(out / "policy.npz"), GAME, players=2)
    assert isinstance(agent, PolicyAgent)
    with pytest.raises(ValueError, match="players 2 \\(expected 4\\)"):
        make_agent(str(out / "policy.npz"), GAME, players=4)

    assert train_main([*args, "--out", str(out), "--resume"]) == 0
    assert read_policy(out / "policy.npz").meta["trained_steps"] > 256


def test_train_command_rejects_bad_input(tmp_path: Path, capsys) -> None:
    assert train_main(["chess"]) == 2
    assert "valid games" in capsys.readouterr().err
    assert train_main(["vaalbara", "--players", "9"]) == 2
    assert train_main(["vaalbara", "--resume", "--out", str(tmp_path / "empty")]) == 2
    assert "nothing to resume" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("n_envz = 3\n")
    assert train_main(["vaalbara", "--config", str(bad)]) == 2
    assert "unknown setting" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        train_main(["vaalbara", "--steps", "-5"])
    assert exit_info.value.code == 2


def test_cooperative_training_shares_one_policy_and_reports_teams(tmp_path: Path) -> None:
    env = SingleSeatEnv("valenor_v2", 3)
    env.reset(seed=0)
    seats_seen = set()
    done = False
    while not done:
        seats_seen.add(env.table.game.current_player)
        assert np.array_equal(
            env.table.observation(), env.table.game.observation(env.table.game.current_player)
        )
        action = int(np.flatnonzero(env.action_masks())[0])
        _, reward, done, _, _ = env.step(action)
    assert seats_seen == {0, 1, 2}, "the shared policy decides for every seat"
    assert reward == env.table.game.returns()[0] in (-1.0, 1.0)

    config = tmp_path / "tiny.toml"
    config.write_text(TINY.replace("n_steps = 32", "n_steps = 16"))
    out = tmp_path / "coop"
    args = ["valenor", "--players", "3", "--steps", "64", "--config", str(config)]
    assert train_main([*args, "--out", str(out)]) == 0
    labels = [row["label"] for row in json.loads((out / "final_eval.json").read_text())]
    assert labels == ["3 × trained policy", "3 × random", "3 × heuristic"]


def test_make_demo_runs_with_a_tiny_budget(tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    out = tmp_path / "demo"
    flags = f"--steps 128 --config {config} --out {out}"
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        ["make", "--no-print-directory", "demo", f"DEMO_FLAGS={flags}"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "win rate" in done.stdout and (out / "policy.npz").is_file()


def test_warm_start_clones_the_bot_into_the_policy() -> None:
    from tabletop_envs.training import warmstart

    cloning = warmstart.Cloning(GAME, 2, "heuristic", epochs=8, batch_size=64)
    data = warmstart.collect(cloning, 400)
    assert len(data.actions) >= 400 and set(np.unique(data.returns)) == {-1.0, 1.0}
    assert data.masks[np.arange(len(data.actions)), data.actions].all(), "bot moves are legal"
    vec = SelfPlayVecEnv(GAME, 2, 2, random_opponent)
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    network = export_actor(model.policy, "tanh", {})
    before = (network.choose(data.observations, data.masks, None) == data.actions).mean()
    after = warmstart.clone_into(model.policy, data, cloning)
    assert after > before + 0.2, (before, after)


def test_the_demo_evaluates_by_the_clock_often_enough_for_a_curve() -> None:
    """make demo: 3 minutes, and at least six points on its curve whatever the machine."""
    root = Path(__file__).resolve().parent.parent
    makefile = (root / "Makefile").read_text()
    assert "--minutes 3 " in makefile and "training/configs/demo.toml" in makefile
    demo = load_config("vaalbara", root / "training" / "configs" / "demo.toml")
    assert demo.eval_every_seconds > 0 and 6 * demo.eval_every_seconds < 0.75 * 180
    assert demo.warm_start_decisions == 0  # PPO's own learning, from a blank policy
