"""The installed commands on an install without their extra: one line naming it, exit 2."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tomllib

from tabletop_envs import commands

ROOT = Path(__file__).resolve().parents[1]


def scripts() -> dict[str, str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def test_every_command_but_the_viewer_starts_through_the_extra_check() -> None:
    targets = {name: target for name, target in scripts().items() if name != "tabletop-view"}
    assert set(targets) == set(commands.COMMANDS)
    for name, target in targets.items():
        module, function = target.split(":")
        assert module == "tabletop_envs.commands", name
        assert getattr(commands, function)  # the entry point exists


@pytest.mark.parametrize(
    ("name", "absent", "extra"),
    [
        ("tabletop-train", "torch", "train"),
        ("tabletop-train", "sb3_contrib", "train"),
        ("tabletop-eval", "rich", "tools"),
        ("tabletop-play", "rich", "tools"),
    ],
)
def test_a_missing_extra_is_named_in_one_line(
    name: str, absent: str, extra: str, monkeypatch, capsys
) -> None:
    monkeypatch.setitem(sys.modules, absent, None)  # import fails as if not installed
    module = commands.COMMANDS[name].module
    monkeypatch.delitem(sys.modules, module, raising=False)
    assert commands.run(name, ["vaalbara"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"needs the '{extra}' extra (missing: {absent})" in err
    assert f"pip install 'tabletop-envs[{extra}]'" in err
    assert module not in sys.modules, "the command itself was imported"


def test_with_its_extra_the_command_runs(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        commands.run("tabletop-eval", ["--help"])
    assert stop.value.code == 0
    assert "tabletop-eval" in capsys.readouterr().out
