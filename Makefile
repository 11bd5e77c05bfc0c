# Each target installs what it needs into .venv first, so a fresh clone needs only Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## play: a solo game of Death Angel in this terminal (teams at random);
## options go in ARGS, e.g. make play ARGS="-p 2 --seed 7" or ARGS="--resume"
ARGS ?=
play: $(STAMP)
	$(BIN)/deathangel play $(ARGS)

## test: the whole test suite (rules, properties, CLI, packaging, lint and types)
# Bytecode compiled once first: where PYTHONDONTWRITEBYTECODE is set (as on this project's
# machines) nothing else writes it, and every `deathangel` a test starts compiled the package
# again (a fresh clone's suite, 2 cores: 243 s without this step; 225 s and 202 s with it).
test: $(STAMP)
	$(BIN)/python -m compileall -q deathangel tests plugins
	$(BIN)/python -m pytest -q -n auto

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy && $(BIN)/mypy docs/examples/*.py

bench: $(STAMP)
	$(BIN)/deathangel bench

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
