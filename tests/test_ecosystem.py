"""docs/ecosystem.md's recipes for the libraries of the base suite, run as written."""

from __future__ import annotations

import numpy as np
import pytest
from recipes import recipes, run_recipe

INTEGRATIONS = {"tianshou", "agilerl", "supersuit"}  # run by tests/integrations/
BASE = {"pettingzoo", "sb3", "cleanrl"}


def test_every_recipe_on_the_page_is_run_by_a_test() -> None:
    assert set(recipes()) == BASE | INTEGRATIONS


@pytest.mark.filterwarnings("ignore:.*played illegal action")  # api tests sample unmasked
def test_pettingzoo_recipe_plays_parallel_games_to_their_returns() -> None:
    returns = run_recipe("pettingzoo")["returns"]
    assert len(returns) == 3
    for total in returns:
        assert sorted(total.values()).count(1.0) == 1, "one winner, the others -1 or 0"


def test_sb3_recipe_trains_maskable_ppo_on_the_registered_env() -> None:
    namespace = run_recipe("sb3")
    assert namespace["model"].num_timesteps >= 128


def test_cleanrl_recipe_updates_its_policy_on_legal_actions_only() -> None:
    namespace = run_recipe("cleanrl")
    assert len(namespace["returns"]) == 4
    assert set(namespace["returns"]) <= {-1.0, 1.0}, "no game ended on an illegal action"
    assert all(np.isfinite(p.detach().numpy()).all() for p in namespace["policy"].parameters())
