# Two entry points for users: `make run` and `make test`. Both build .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

LOCK_VENV := .venv-lock

.PHONY: run test check check-system lint demo clean lock soak explore install uninstall browser smoke example without docs srd

# Every dependency, test tools and transitive ones too, at the version in constraints.txt.
$(STAMP): pyproject.toml constraints.txt
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# A plain path entry to this folder (pyproject.toml's package-dir says why), so no warning
	$(BIN)/pip install --quiet -c constraints.txt -e ".[test,docs]"
	touch $(STAMP)

# Regenerate constraints.txt: the newest versions pyproject.toml allows, resolved in a fresh
# venv (so nothing installed here leaks in). Then `make` reinstalls from it.
lock:
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/pip install --quiet -e ".[test,docs]"
	{ echo "# Every dependency's version, for pip install -c. Written by make lock: do not edit."; \
		$(LOCK_VENV)/bin/pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCK_VENV)

# In a checkout the saves are this folder's saves/, with the bundled demos (a system's demo
# not committed yet is written there first); an installed tracker keeps them in the user's
# data folder (docs/guide/saves.md).
run: $(STAMP)
	@$(BIN)/python -m tracker.demos --missing saves >/dev/null
	$(BIN)/tracker --saves saves

# Put `tracker` on the user's PATH, as a tool: with pipx when it is there, else in a venv of
# its own under ~/.local/share (what pipx does), linked from ~/.local/bin.
TOOL_VENV ?= $(HOME)/.local/share/combat-tracker/venv
TOOL_BIN ?= $(HOME)/.local/bin
install:
	@if command -v pipx >/dev/null 2>&1; then \
		pipx install --force . ; \
	else \
		$(PYTHON) -m venv $(TOOL_VENV) \
		&& $(TOOL_VENV)/bin/pip install --quiet --upgrade pip \
		&& $(TOOL_VENV)/bin/pip install --quiet -c constraints.txt . \
		&& mkdir -p $(TOOL_BIN) && ln -sf $(TOOL_VENV)/bin/tracker $(TOOL_BIN)/tracker \
		&& echo "tracker is in $(TOOL_BIN)/tracker" ; \
	fi
	@rm -rf build  # the wheel's build folder, left by pip

uninstall:
	@if command -v pipx >/dev/null 2>&1 && pipx list --short 2>/dev/null | grep -q combat-tracker; then \
		pipx uninstall combat-tracker ; \
	else \
		rm -rf $(TOOL_VENV) && rm -f $(TOOL_BIN)/tracker ; \
	fi

# Every check CI runs: lint and format first (a second: a slip fails at once), then the suite,
# with the types and import contracts (mypy, lint-imports: about 15 s of one core on a clean
# clone, while the other sat idle) and the installed wheel's smoke test (it waits mostly on pip
# and on its own program) beside it, so together they take little longer than the suite. Their
# output follows the suite's, and the last line says which failed, if any.
SMOKE_LOG := $(VENV)/smoke.log
CHECK_LOG := $(VENV)/check.log
# The suite keeps byte-code under .venv/pycache even where PYTHONDONTWRITEBYTECODE is set (as
# on our machines): else each worker compiles the tracker and pytest rewrites every test
# module afresh (about 8 s of CPU a worker), and so does each `tracker` a test starts.
PYTEST := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache $(BIN)/pytest
test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@{ $(BIN)/mypy; typed=$$?; $(BIN)/lint-imports; contracts=$$?; \
		[ $$typed = 0 ] && [ $$contracts = 0 ]; } > $(CHECK_LOG) 2>&1 & checks=$$!; \
	$(BIN)/python -m tests.installed.run > $(SMOKE_LOG) 2>&1 & smoke=$$!; \
	$(PYTEST); suite=$$?; \
	wait $$checks; checked=$$?; \
	wait $$smoke; smoked=$$?; \
	echo "--- mypy and lint-imports (run beside the suite) ---"; cat $(CHECK_LOG); \
	echo "--- make smoke (run beside the suite) ---"; cat $(SMOKE_LOG); \
	failed=""; \
	[ $$checked = 0 ] || failed="$$failed, the types or import contracts (mypy, lint-imports)"; \
	[ $$suite = 0 ] || failed="$$failed, the suite"; \
	[ $$smoked = 0 ] || failed="$$failed, the installed wheel (make smoke)"; \
	if [ -z "$$failed" ]; then echo "make test: everything passed"; \
	else echo "make test: FAILED: $${failed#, }"; exit 1; fi

# docs/contributing/adding-a-system.md's worked example written into rules/systems/ of a temporary copy of
# the checkout, and every check and the whole suite run there (tests/example.py).
example: $(STAMP)
	$(BIN)/python -m tests.example $(ARGS)

# Each rule system deleted in turn (its folder and its demo) from a temporary copy of the
# checkout: the suite collects with no error and its core tests pass there (tests/without.py).
without: $(STAMP)
	$(BIN)/python -m tests.without $(ARGS)
# The wheel built and installed (not editable) in a fresh venv, and the installed tracker
# smoke-tested there, from outside the checkout (tests/installed/run.py says how; about a
# minute under load; the dependencies' wheels are downloaded once, into .venv/wheelhouse).
# The docs site in site/ (mkdocs-material): the keys and command-line pages and each rule
# system's page are made from the code as it builds; the README's picture is redrawn.
docs: $(STAMP)
	$(BIN)/python -m docs.generate
	@# not --quiet: it hides the warnings strict counts (a broken link would pass)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
	@echo "The docs site is in site/ (open site/index.html, or: $(BIN)/mkdocs serve)"

smoke: $(STAMP)
	$(BIN)/python -m tests.installed.run

# The real-browser test (tests/serve/test_serve_browser.py) drives Chromium from the system's
# packages. As root with apt (CI) a missing one is installed (about a minute, once); anyone
# else is told how, and the test is skipped saying so. Nothing here needs root otherwise.
CHROMIUM := /usr/bin/chromium
browser:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing chromium for the real-browser test (apt-get)"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends chromium >/dev/null; } \
		|| echo "Could not install chromium: the real-browser test will be skipped"; \
	else \
		echo "No $(CHROMIUM): the real-browser test is skipped (sudo apt-get install chromium)"; \
	fi

check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

lint: check

# A system's first check, in seconds, before `make test` (docs/contributing/adding-a-system.md): ruff on its
# folder, the import contracts, then the contract suite for that one system.
check-system: $(STAMP)
	@test -d "rules/systems/$(SYSTEM)" -a -n "$(SYSTEM)" || \
		{ echo "make check-system SYSTEM=<name>: the name of a folder in rules/systems/"; exit 2; }
	$(BIN)/ruff check rules/systems/$(SYSTEM)
	$(BIN)/ruff format --check rules/systems/$(SYSTEM)
	$(BIN)/lint-imports
	$(BIN)/pytest -q -n 1 tests/contract -k "$(SYSTEM)"

# Random hostile SSH clients against a served table for a minute, then the GM's session
# checked; then the GM's response and a player's join timed under each of issue 27's
# attacks (tests/serve/soak.py). Not part of `make test`: it takes its time.
soak: $(STAMP)
	$(BIN)/python -m tests.serve.soak

# Random walks of the app (tests/walk/) with fresh seeds, every system, role and size, for
# EXPLORE_MINUTES in two processes; then what they reached and what failed (seed and steps).
EXPLORE_MINUTES ?= 10
explore: $(STAMP)
	$(BIN)/python -m tests.walk --explore --minutes $(EXPLORE_MINUTES)

# Rebuild the bundled demo encounters from tracker/demos/
demo: $(STAMP)
	$(BIN)/python -m tracker.demos saves

# Rebuild the bundled SRD 5.1 stat blocks (and their page) from the shared data, by each
# system's converter (tests/systems/d20/test_srd_bundle_d20.py checks they are what it makes).
SRD_DATA ?= ../shared/data/srd-5.1/5e-SRD-Monsters.json
srd: $(STAMP)
	$(BIN)/python -m tracker.store.library_sets $(SRD_DATA)

clean:
	rm -rf $(VENV) $(LOCK_VENV) .pytest_cache .ruff_cache
