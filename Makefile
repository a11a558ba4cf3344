# Cribbage: set up, build, serve and test. Every target is idempotent and quick once set up.
#
#   make play    set everything up and serve the game at http://localhost:$(PORT)/, with a local
#                PeerServer for online play on port $(SIGNAL_PORT) (HOST=0.0.0.0: also this network)
#   make test    set everything up and run the whole pytest suite (engine, Pyodide, browser,
#                online) in one run of TEST_WORKERS processes inside a loopback-only network namespace
#   make test-slow  the long sweeps kept out of make test (thousands of random matches, all hands)
#   make site    build dist/ (the published folder)
#   make bench   run the on-demand benchmarks (py/tools/bench_*.py)
#   make clean   remove build outputs and caches (make distclean: also .venv and node_modules)

SHELL := /bin/bash
.DEFAULT_GOAL := help

PORT ?= 8000
HOST ?= 127.0.0.1
SIGNAL_PORT ?= 9000
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

VENV_STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed
WHEELS_STAMP := .cache/wheels/.installed
SITE_STAMP := dist/build-info.json
# Everything the build reads: rebuild when any of it changes.
SITE_INPUTS := index.html package-lock.json py/tools/build_site.py py/tools/precompile_stdlib.mjs \
	py/tools/printables.py docs/RULES.md \
	$(shell find static py/cribbage py/web -type f -not -path '*/__pycache__/*' 2>/dev/null)

.PHONY: help setup play test test-slow site bench clean distclean wheels

help:
	@sed -n '3,10p' Makefile | sed 's/^# \{0,1\}//'

$(VENV_STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --disable-pip-version-check -e '.[test,build]'
	@touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(WHEELS_STAMP): py/tools/pyodide-test-wheels.txt | $(VENV_STAMP)
	@mkdir -p $(@D)
	$(PIP) download --quiet --disable-pip-version-check --only-binary=:all: --no-deps \
		--python-version 3.14 --platform any --implementation py \
		-d $(@D) -r py/tools/pyodide-test-wheels.txt
	@touch $@

$(SITE_STAMP): $(SITE_INPUTS) $(NPM_STAMP) | $(VENV_STAMP)
	$(PY) py/tools/build_site.py

setup: $(VENV_STAMP) $(NPM_STAMP)
wheels: $(WHEELS_STAMP)
site: $(SITE_STAMP)

play: site
	@if [ -z "$$CI" ] && [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		(sleep 1 && $(PY) -m webbrowser -t http://localhost:$(PORT)/ >/dev/null 2>&1) & \
	fi
	$(PY) py/tools/serve.py --port $(PORT) --dir dist --host $(HOST) --peerserver $(SIGNAL_PORT)

# make test: one pytest run of every suite at once (docs/testing.md), TEST_WORKERS processes, each
# given whole files, longest first (tests/conftest.py): the browser and online files spend most of
# their time waiting on Chromium, so on 2 cores they overlap the CPU-bound files. All of it inside a
# network namespace holding only loopback (py/tools/netns.py) for the online tests; nothing else
# needs a network. Two workers by default, one a core: on this 2-core machine, quiet, two took 18:35
# where one took 26:39, and three timed out under load (docs/testing.md). TEST_WORKERS=1 on a busy
# machine, more on a bigger one. The longest whole matches and extra sizes run in make test-slow
# (tests/conftest.py's MOVED_TO_SLOW names each one's replacement in make test).
TEST_WORKERS ?= 2

test: site wheels  # what a change must pass (docs/testing.md: the run, its times)
	$(PY) py/tools/netns.py -- $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not slow" --durations=25

test-slow: site wheels  # the long sweeps kept out of `make test` (thousands of random matches, all hands, kills)
	$(PY) -m pytest -m "slow and not online" --durations=10
	$(PY) py/tools/netns.py -- $(PY) -m pytest -m "online and slow" --durations=5

bench: site
	@for script in py/tools/bench_*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf dist .cache .pytest_cache .hypothesis test-results
	find py tests -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) node_modules
