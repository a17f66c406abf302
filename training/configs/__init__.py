"""Each game's training settings as TOML, shipped as package data (read by
``tabletop_envs.training.config``)."""
