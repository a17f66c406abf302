"""The valenor_v2 PettingZoo environment: construction, options, team rewards, render."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_envs import valenor_v2


def play_out(env, seed: int) -> dict[str, float]:
    """Random play to the end; each agent's final reward."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return final


@pytest.mark.parametrize("players", [2, 3, 4])
def test_team_reward_is_shared(players: int) -> None:
    env = valenor_v2.env(num_players=players)
    rewards = play_out(env, seed=players)
    assert (
        len(rewards) == players
        and len(set(rewards.values())) == 1
        and next(iter(rewards.values())) in (-1.0, 1.0)
    )


def test_options_reach_the_core() -> None:
    env = valenor_v2.raw_env(num_players=2, scenario="twin_blight", signalling=True)
    env.reset(seed=0)
    assert env.game.scenario.name == "twin_blight" and env.game.options["signalling"]
    with pytest.raises(ValueError, match="scenario"):
        valenor_v2.raw_env(scenario="nowhere")


def test_default_players_and_spaces() -> None:
    env = valenor_v2.env()
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.action_space("player_0").n == valenor_v2.Game.LAYOUT.total
    assert env.metadata["name"] == "valenor_v2"


def test_text_render_shows_the_table_and_hides_other_hands_for_a_viewer() -> None:
    env = valenor_v2.raw_env(num_players=3, render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert "L1 Swamp/Lake" in text and "player_2" in text
    game = env.game
    while game.decision == 0:
        game.apply(game.legal_actions()[0])
    own = game.render_text(viewer=0)
    assert "Invader A" in own.split("player_1")[1] and "Invader" in own.split("player_1")[0]


def test_action_names() -> None:
    game = valenor_v2.Game(3, seed=0)
    names = [game.action_to_str(a) for a in range(game.LAYOUT.total)]
    assert len(set(names)) == len(names)
    assert names[0] == "choose Toni, the Lake Sprite"
    assert "play no further card" in names
