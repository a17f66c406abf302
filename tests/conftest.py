"""The toy game of the contributor walkthrough joins the registry for every test."""

import tabletop_envs

tabletop_envs.add_game("highcard_v0", "toygame")
