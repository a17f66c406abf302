"""Self-play training (MaskablePPO from sb3-contrib on torch; RLlib as a second backend); needs the
``train`` extra. Installed as ``tabletop_envs.training`` (the repository folder ``training/``)."""
