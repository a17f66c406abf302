# `make test` and `make demo` work on a fresh clone: each sets up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP_DEV := $(VENV)/.stamp-dev
PIP := $(PY) -m pip install --disable-pip-version-check -q

.PHONY: test demo lint format clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP_DEV): pyproject.toml | $(VENV)/bin/python
	$(PIP) -e ".[dev]"
	touch $@

test: $(STAMP_DEV)
	$(PY) -m pytest -q -n 2 --dist loadgroup

demo: $(STAMP_DEV)
	$(PY) -m tabletop_envs.demo --game vaalbara --players 4 --seed 7

lint: $(STAMP_DEV)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(STAMP_DEV)
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
