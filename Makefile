# `make test` and `make demo` work on a fresh clone: each sets up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.stamp-dev-train
PIP := $(PY) -m pip install --disable-pip-version-check -q
# The CPU build of torch (on this machine's disk); a bare `torch` would pull a multi-GB CUDA build.
TORCH ?= torch==2.13.0
DEMO_FLAGS ?= --minutes 3 --final-eval-games 400 --config training/configs/demo.toml
BENCH_FLAGS ?=

INTEGRATIONS_STAMP := $(VENV)/.stamp-integrations
RLLIB_STAMP := $(VENV)/.stamp-rllib

.PHONY: test test-integrations demo play lint format clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PIP) "$(TORCH)"
	$(PIP) -e ".[dev,train]"
	touch $@

# The viewer's browser tests (tests/test_viewer_browser.py) drive Debian's chromium through
# Playwright (a dev extra); they fail without it, so the suite installs it when it is missing.
.PHONY: browser
browser:
	@command -v chromium >/dev/null || \
		(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium)

test: $(STAMP) browser
	$(PY) -m pytest -q -n 2 -p no:cacheprovider

# docs/ecosystem.md's recipes with the real libraries (Tianshou, AgileRL, SuperSuit), installed
# into .venv first; `make test` does not collect tests/integrations.
$(INTEGRATIONS_STAMP): pyproject.toml $(STAMP)
	$(PIP) -e ".[dev,integrations]"
	touch $@

test-integrations: $(INTEGRATIONS_STAMP) $(RLLIB_STAMP)
	$(PY) -m pytest -q -p no:cacheprovider --integrations tests/integrations

# The main job: self-play training on 2-player Vaalbara, then a table against the baselines.
demo: $(STAMP)
	$(VENV)/bin/tabletop-train vaalbara --players 2 --out runs/demo --overwrite $(DEMO_FLAGS)

# Every speed figure (about 6 minutes on a quiet machine): throughput, clone/JSON, memory and
# harness scaling of every registered game against PettingZoo classic, then training throughput
# with and without the teachers; rewrites their sections of benchmarks/RESULTS.md and the
# README's speed sentence.
# E.g. make bench BENCH_FLAGS="--seconds 1 --steps 20000".
.PHONY: bench bench-check
bench: $(STAMP)
	$(PY) -m benchmarks.bench $(BENCH_FLAGS)

# Fails when a game's env() ratio to connect_four_v3 falls below the one RESULTS.md records by
# more than the noise measured in the same run (under a minute; writes nothing).
bench-check: $(STAMP)
	$(PY) -m benchmarks.speed_check --quick

# RLlib and Ray (the `rllib` extra): short training runs, the Ray evaluation backend. Part of
# the integration tests, outside `make test`.
.PHONY: test-rllib
$(RLLIB_STAMP): pyproject.toml $(STAMP)
	$(PIP) -e ".[dev,train,rllib]"
	touch $@

test-rllib: $(RLLIB_STAMP)
	$(PY) -m pytest -q -p no:cacheprovider --integrations tests/integrations/test_rllib_*.py

# One seeded 4-player game between random players, printed as text.
play: $(STAMP)
	$(PY) -m tabletop_envs.demo --game vaalbara --players 4 --seed 7

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(STAMP)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
