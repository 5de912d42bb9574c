# Quick start:  make demo   (set up, Chromium included if missing, then serve and show the demo shops)
#               make test   (set up, Chromium and redis-server included if missing, then run the tests)
# Chromium is looked for where structurer looks (scripts/ensure-chromium); as root on
# Debian/Ubuntu a missing one is installed from the distribution.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: setup browser redis demo test clean

$(BIN)/structurer: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@

setup: $(BIN)/structurer

browser:
	@scripts/ensure-chromium

redis:
	@scripts/ensure-redis

demo: setup browser
	$(BIN)/structurer demo run

# Two test processes (pytest-xdist): the tests wait on browsers, servers and crawls for much
# of their time, and each process serves its own shops, redis and temporary folders.
test: setup browser redis
	$(BIN)/python -m pytest -n 2

clean:
	rm -rf $(VENV) out .pytest_cache
