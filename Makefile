# Two commands do everything: `make run` (set up, then start the app) and `make test` (set up, then
# run the whole suite, browser and PostgreSQL tests included). Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian's packages the tests use: chromium (Playwright drives it) and postgresql (a throwaway cluster)
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: run test debian-packages bench lint

$(BIN)/activate:
	@echo "== creating $(VENV) (first run only)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --progress-bar off --upgrade pip

# One marker for everything (the app, its tests, the benches): after any of run, test, bench or lint
# the others install nothing; editing pyproject.toml installs again.
$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	@echo "== installing Tablebot and its test tools into $(VENV) (about a minute the first time)"
	$(BIN)/python -m pip install --progress-bar off -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/tablebot $(ARGS)

# Debian's chromium for the browser tests (Playwright drives it; no browser download) and Debian's
# postgresql (the tests start a throwaway cluster of their own in a temp folder); only what is missing
debian-packages:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	[ -z "$$missing" ] || { echo "== installing Debian's$$missing"; \
		$(APT_GET) update && $(APT_GET) install -y $$missing; }

test: $(VENV)/.installed debian-packages
	$(BIN)/python -m pytest $(ARGS)

bench: $(VENV)/.installed
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

lint: $(VENV)/.installed
	$(BIN)/ruff check assistant solvers tests bench
