# paperdeck — every target creates/uses .venv, so a fresh clone needs only Python >= 3.11.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
ARGS   ?=
SCALE  ?= 1

.PHONY: run parquet test test-data test-slow test-perf test-fast lint docs bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "paperdeck needs Python >= 3.11; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-app: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@ $(VENV)/.installed-app

# make runs the app as its child (no shell between them). When make leads the terminal's session
# (`tmux new-session make run`), a hang-up reaches make alone, which waits for the app without passing
# it on (make passes on only SIGTERM): the app ends by itself once its terminal is gone.
## run: open the app (on the bundled ICLR 2026 seeds the first time); pass options with ARGS="..."
run: $(VENV)/.installed-app
	$(BIN)/paperdeck $(ARGS)

## parquet: add the Parquet reader (pyarrow) to .venv, editable like the rest (a plain `pip install
## '.[parquet]'` would replace the editable install with a copy, under a running app)
parquet: $(VENV)/.installed-app
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[parquet]'

## test: the lint (ruff, mypy --strict, import-linter), then the suite — unit, Pilot, snapshot and the tmux
## end-to-end test — on the fixtures in tests/data/ and the bundled seeds only (a fresh clone runs it),
## in one worker per core (pytest-xdist, at most 4); the runs on the full real data (test-data), the
## exhaustive ones (test-slow) and the time bounds (test-perf) are apart; CI runs all four
test: lint
	$(BIN)/python -m pytest -q --durations=15 -n auto --maxprocesses=4 -m "not slow and not data and not perf"

## test-data: the tests on the full real data (the whole dump, every review, every real file), found in
## $$PAPERDECK_SHARED (default ../shared beside the repository); fails in one line when it is absent
test-data: $(VENV)/.installed-test
	@$(BIN)/python -c 'import sys; from tests.helpers import missing_shared; m = missing_shared(); sys.exit(m and "make test-data: " + m)'
	$(BIN)/python -m pytest -q --durations=10 -m "data and not slow and not perf"

## test-slow: the exhaustive runs (every import order, the whole conference with every review, full fetches);
## those on the full real data need it as test-data does
test-slow: $(VENV)/.installed-test
	@$(BIN)/python -c 'import sys; from tests.helpers import missing_shared; m = missing_shared(); sys.exit(m and "make test-slow: " + m)'
	$(BIN)/python -m pytest -q --durations=10 -m "slow and not perf"

## test-perf: the bounds on wall-clock time (a large file read, a pathological input parsed in
## linear time), one test at a time on an otherwise idle machine
test-perf: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q --durations=10 -p no:xdist -m perf

## test-fast: everything but the slow, perf and end-to-end tests
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n auto --maxprocesses=4 -m "not slow and not data and not perf and not e2e"

## lint: ruff (checks and format), mypy --strict, and the rooms' import contracts (pyproject.toml [tool.importlinter])
lint: $(VENV)/.installed-test
	$(BIN)/ruff check tui tests bench docs
	$(BIN)/ruff format --check tui tests bench docs
	$(BIN)/mypy
	$(BIN)/lint-imports

## docs: write the generated pages of docs/ (keys, query language, CLI) from the code; tests/test_docs.py checks them
docs: $(VENV)/.installed-app
	$(BIN)/python docs/generate.py

## bench: the benchmark (docs/performance.md): one JSON object; SCALE=N builds and measures a store N times
## the ICLR 2026 one (the keys of issue 32 alone when N > 1)
bench: $(VENV)/.installed-test
	$(BIN)/python bench/bench.py --scale $(SCALE)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build dist
