"""Tools above the training layer: the evaluation harness (``tabletop-eval``, its reports and its
Ray backend) and the release tooling that ships trained policies into
``tabletop_envs.agents.pretrained``.

Installed as ``tabletop_envs.tools`` (the repository folder ``tools/``).
"""
