"""The built wheel is the product: one top-level import name, the data files inside, and a
fresh venv that imports its own installed copy and reads the same training settings as the
checkout."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from tabletop_envs.training.config import load_config

from tabletop_envs import GAMES

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "tabletop_envs", "agents", "training", "tools")
"""What a build reads: the project file and the folders pyproject.toml maps to packages."""
DATA_FILES = (
    "tabletop_envs/agents/pretrained/manifest.json",
    "tabletop_envs/training/configs/vaalbara.toml",
    "tabletop_envs/training/configs/spirit_island.toml",
    "tabletop_envs/viewer/page.html",
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of the sources (the checkout is left untouched)."""
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    out = tmp_path_factory.mktemp("dist")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    subprocess.run([*command, "-q", "-w", str(out), str(source)], check=True)
    return next(out.glob("tabletop_envs-*.whl"))


@pytest.fixture(scope="module")
def fresh_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (no dependencies); the dependencies come from
    this environment's site-packages through a path file, which does not run this
    environment's editable-install hook."""
    folder = tmp_path_factory.mktemp("venv")
    venv.create(folder, with_pip=False)
    python = folder / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
    subprocess.run([*install, "--no-index", "-q", str(wheel)], check=True)
    (site_packages(python) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"])
    return python


def site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(subprocess.run([python, "-c", code], capture_output=True, text=True).stdout.strip())


def test_the_wheel_holds_one_top_level_name_and_its_data_files(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"tabletop_envs", wheel.name.split("-py")[0] + ".dist-info"}
    assert set(DATA_FILES) <= set(names)
    assert not [name for name in names if "__pycache__" in name]


def test_a_fresh_venv_gets_only_the_namespaced_package(fresh_python: Path) -> None:
    installed = {path.name for path in site_packages(fresh_python).iterdir()}
    ours = {name for name in installed if not name.endswith((".dist-info", ".pth"))}
    assert ours - {"__pycache__"} == {"tabletop_envs"}


def test_the_installed_copy_imports_and_reads_the_checkouts_training_settings(
    fresh_python: Path,
) -> None:
    code = (
        "import dataclasses, json, tabletop_envs\n"
        "from tabletop_envs.training.config import load_config\n"
        "print(json.dumps({'file': tabletop_envs.__file__, 'games': sorted(tabletop_envs.GAMES),"
        " 'settings': {g: dataclasses.asdict(load_config(g)) for g in"
        " ('vaalbara', 'valenor', 'valiant_wars', 'spirit_island')}}))"
    )
    run = subprocess.run([fresh_python, "-c", code], capture_output=True, text=True, cwd="/")
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert Path(found["file"]).is_relative_to(fresh_python.parent.parent)
    shipped = [name for name, module in GAMES.items() if module.startswith("tabletop_envs.")]
    assert found["games"] == sorted(shipped)
    for game, settings in found["settings"].items():
        assert settings == json.loads(json.dumps(dataclasses.asdict(load_config(game))))
