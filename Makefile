# The two commands of the README: `make run` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
ALSA_HEADER := /usr/include/alsa/asoundlib.h
ALSA_HINT   := sudo apt-get install -y libasound2-dev

.PHONY: run test lint check-alsa clean sounds i18n i18n-missing

check-alsa:
	@if [ ! -f $(ALSA_HEADER) ]; then \
	  echo ""; \
	  echo "The ALSA headers that simpleaudio builds against are missing."; \
	  echo "Install them, then run make again:"; \
	  echo ""; \
	  echo "    $(ALSA_HINT)"; \
	  echo ""; \
	  exit 1; \
	fi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | check-alsa $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | check-alsa $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

devices/tadaa-box/tests/node_modules: devices/tadaa-box/tests/package.json
	cd devices/tadaa-box/tests && npm install --silent --no-audit --no-fund
	touch $@

run: $(VENV)/.installed
	$(BIN)/companion $(ARGS)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint $(if $(wildcard devices/tadaa-box/tests/package.json),devices/tadaa-box/tests/node_modules)
	$(BIN)/pytest -q $(PYTEST_ARGS)

sounds: $(VENV)/.installed-dev
	$(BIN)/python sounds/render.py

i18n-missing: $(VENV)/.installed-dev
	$(BIN)/python scripts/i18n_missing.py

i18n: $(VENV)/.installed-dev
	$(BIN)/python scripts/i18n_update.py
	$(BIN)/python scripts/i18n_missing.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
