# Two entry points for users: `make run` and `make test`. Both build .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint demo clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# compat: a plain path entry, not the import-finder hook that costs every process ~20 ms
	# (setuptools calls the mode transitional: if it is ever gone, the default install still works)
	$(BIN)/pip install --quiet -e ".[test]" --config-settings editable_mode=compat \
		|| $(BIN)/pip install --quiet -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tracker

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Rebuild the bundled demo encounters from tracker/demos/
demo: $(STAMP)
	$(BIN)/python -m tracker.demos saves

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
