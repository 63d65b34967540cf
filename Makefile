# paperdeck — every target creates/uses .venv, so a fresh clone needs only Python >= 3.11.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
ARGS   ?=

.PHONY: run test test-slow test-perf test-fast lint bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "paperdeck needs Python >= 3.11; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-app: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@ $(VENV)/.installed-app

## run: open the app (on the bundled ICLR 2026 seeds the first time); pass options with ARGS="..."
run: $(VENV)/.installed-app
	$(BIN)/paperdeck $(ARGS)

## test: the lint (ruff, mypy --strict, import-linter), then the suite — unit, Pilot, snapshot and the tmux
## end-to-end test — but for the exhaustive runs marked slow (test-slow) and the time bounds marked
## perf (test-perf); CI runs all three. The suite runs in one worker per core (pytest-xdist, at most 4).
test: lint
	$(BIN)/python -m pytest -q --durations=15 -n auto --maxprocesses=4 -m "not slow and not perf"

## test-slow: the exhaustive runs (every import order, the whole conference with every review, full fetches)
test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q --durations=10 -m slow

## test-perf: the bounds on wall-clock time (a large file read, a pathological input parsed in
## linear time), one test at a time on an otherwise idle machine
test-perf: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q --durations=10 -p no:xdist -m perf

## test-fast: everything but the slow, perf and end-to-end tests
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n auto --maxprocesses=4 -m "not slow and not perf and not e2e"

## lint: ruff (checks and format), mypy --strict, and the rooms' import contracts (pyproject.toml [tool.importlinter])
lint: $(VENV)/.installed-test
	$(BIN)/ruff check tui tests bench
	$(BIN)/ruff format --check tui tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(VENV)/.installed-test
	$(BIN)/python bench/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist
