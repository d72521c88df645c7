# The two commands of the README: `make run` and `make test`. Both set up .venv first.
# Neither stops for a missing ALSA header or compiler: sound then plays through
# miniaudio (self-contained wheels); the simpleaudio player (the `simpleaudio` extra,
# a C extension) is added only when it can be built here.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
CC     ?= cc
ALSA_HEADER ?= /usr/include/alsa/asoundlib.h
ALSA_HINT   := sudo apt-get install -y libasound2-dev gcc python3-dev
PYTHON_HEADER ?= $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_paths()['include'])" 2>/dev/null)/Python.h

# "simpleaudio" when its build can succeed (ALSA header, Python header, C compiler), else "miniaudio".
PLAYER := $(if $(and $(wildcard $(ALSA_HEADER)),$(wildcard $(PYTHON_HEADER)),$(shell command -v $(CC) 2>/dev/null)),simpleaudio,miniaudio)
comma  := ,
EXTRAS := $(if $(filter simpleaudio,$(PLAYER)),simpleaudio)

# The suite runs on four workers (pytest-xdist): most tests wait (Pilot pauses, pseudo-
# terminals, simulated devices) rather than compute, so two workers per core of the 2-core
# machine finish sooner (about 4 min, against 5.6 with two and 10 in one process); workers
# steal work so the few long tests (kill after every key, 1,000 unplugs) do not queue on
# one. PYTEST_WORKERS= (empty) runs it in one process. Tests marked realtime (the emulated
# Arduino, paced to the wall clock) run after it, alone: four workers on two cores starved
# the emulator until a press timed out.
PYTEST_WORKERS ?= -n 4 --dist worksteal

.PHONY: run test lint audio-player clean sounds i18n i18n-missing wheel-smoke

# Says which player this machine gets; never fails.
audio-player:
	@if [ "$(PLAYER)" = simpleaudio ]; then \
	  echo "Sound: the simpleaudio player is built (ALSA headers and a C compiler found)."; \
	else \
	  echo "Sound: plays through miniaudio. The simpleaudio player is not built: it needs"; \
	  echo "the ALSA headers ($(ALSA_HEADER)), the Python headers and a C compiler. Optional:"; \
	  echo ""; \
	  echo "    $(ALSA_HINT)"; \
	  echo ""; \
	fi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The stamp names the player, so installing the headers later adds simpleaudio on the next make.
$(VENV)/.player-$(PLAYER): | $(BIN)/python
	rm -f $(VENV)/.player-*
	touch $@

# pip install -e with the extras $(1) plus simpleaudio when it can be built. If that
# build fails anyway, install without it and say so: never stop here.
spec = .$(if $(strip $(1) $(EXTRAS)),[$(subst $(eval) ,$(comma),$(strip $(1) $(EXTRAS)))])
define pip_install
	$(if $(EXTRAS),$(BIN)/python -m pip install --quiet -e '$(call spec,$(1))' || { \
	  echo "Sound: building simpleaudio failed; installing without it (miniaudio plays)."; \
	  $(BIN)/python -m pip install --quiet -e '.$(if $(1),[$(1)])'; },$(BIN)/python -m pip install --quiet -e '.$(if $(1),[$(1)])')
endef

$(VENV)/.installed: pyproject.toml $(VENV)/.player-$(PLAYER) | audio-player $(BIN)/python
	$(call pip_install,)
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(VENV)/.player-$(PLAYER) | audio-player $(BIN)/python
	$(call pip_install,dev)
	touch $@

companion/devices/tadaa-box/tests/node_modules: companion/devices/tadaa-box/tests/package.json
	cd companion/devices/tadaa-box/tests && npm install --silent --no-audit --no-fund
	touch $@

run: $(VENV)/.installed
	$(BIN)/companion $(ARGS)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint $(if $(wildcard companion/devices/tadaa-box/tests/package.json),companion/devices/tadaa-box/tests/node_modules)
	$(BIN)/pytest -q $(PYTEST_WORKERS) -m 'not realtime' $(PYTEST_ARGS)
	$(BIN)/pytest -q -m realtime $(PYTEST_ARGS) || [ $$? -eq 5 ]  # 5: PYTEST_ARGS chose none of them

# The install a user gets: sdist and wheel built, the wheel installed into a new venv
# outside the tree (not editable) and checked there (scripts/wheel_smoke.sh).
wheel-smoke: | $(BIN)/python
	scripts/wheel_smoke.sh $(PYTHON)

sounds: $(VENV)/.installed-dev
	$(BIN)/python sounds/render.py

i18n-missing: $(VENV)/.installed-dev
	$(BIN)/python scripts/i18n_missing.py

i18n: $(VENV)/.installed-dev
	$(BIN)/python scripts/i18n_update.py
	$(BIN)/python scripts/i18n_missing.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
