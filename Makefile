# Two commands do everything: `make run` (set up, then start the app) and `make test` (set up, then
# run the whole suite, browser tests included). Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test chromium bench lint

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.app: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.test: pyproject.toml | $(BIN)/activate
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

run: $(VENV)/.app
	$(BIN)/tablebot $(ARGS)

# Debian's chromium for the browser tests (Playwright drives it; no browser download)
chromium:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium; }

test: $(VENV)/.test chromium
	$(BIN)/python -m pytest $(ARGS)

bench: $(VENV)/.app
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

lint: $(VENV)/.test
	$(BIN)/ruff check assistant solvers tests bench
