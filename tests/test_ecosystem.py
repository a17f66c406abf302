"""docs/ecosystem.md's recipes for the libraries of the base suite, run as written."""

from __future__ import annotations

import numpy as np
import pytest
from recipes import recipes, run_recipe

INTEGRATIONS = {"tianshou", "agilerl", "supersuit"}  # run by tests/integrations/
BASE = {"pettingzoo", "parallel", "sb3", "cleanrl"}


def test_every_recipe_on_the_page_is_run_by_a_test() -> None:
    assert set(recipes()) == BASE | INTEGRATIONS


def test_every_recipe_ends_by_printing_what_it_did() -> None:
    """A copied recipe that prints nothing leaves its user unsure it ran."""
    for name, code in recipes().items():
        last = code.strip().splitlines()[-1]
        assert last.startswith('print(f"'), f"recipe {name} ends with {last!r}, not a print"


@pytest.mark.filterwarnings("ignore:.*played illegal action")  # api tests sample unmasked
def test_pettingzoo_recipe_plays_parallel_games_to_their_returns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    returns = run_recipe("pettingzoo")["returns"]
    assert capsys.readouterr().out.endswith(
        f"\napi_test and parallel_api_test passed; returns of 3 random games: {returns}\n"
    )
    assert len(returns) == 3
    for total in returns:
        assert sorted(total.values()).count(1.0) == 1, "one winner, the others -1 or 0"


def test_parallel_recipe_plays_a_game_with_the_picks_taken_together(
    capsys: pytest.CaptureFixture[str],
) -> None:
    namespace = run_recipe("parallel")
    rewards, together = namespace["rewards"], namespace["together"]
    assert together == 3, "the three seats pick their characters in one step"
    assert sorted(rewards.values()).count(1.0) == 1
    assert capsys.readouterr().out.endswith(
        f"parallel_api_test passed; a random game: {rewards}, up to 3 acting at once\n"
    )


def test_sb3_recipe_trains_maskable_ppo_on_the_registered_env(
    capsys: pytest.CaptureFixture[str],
) -> None:
    namespace = run_recipe("sb3")
    assert namespace["model"].num_timesteps >= 128
    printed = capsys.readouterr().out.splitlines()[-1]
    assert printed.startswith(f"MaskablePPO trained {namespace['model'].num_timesteps} steps")


def test_cleanrl_recipe_updates_its_policy_on_legal_actions_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    namespace = run_recipe("cleanrl")
    assert capsys.readouterr().out == (
        f"4 REINFORCE updates, one per game; the games' returns: {namespace['returns']}\n"
    )
    assert len(namespace["returns"]) == 4
    assert set(namespace["returns"]) <= {-1.0, 1.0}, "no game ended on an illegal action"
    assert all(np.isfinite(p.detach().numpy()).all() for p in namespace["policy"].parameters())
