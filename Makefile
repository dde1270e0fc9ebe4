# ShipSheet: `make run` starts the app, `make test` runs the whole suite.
# Both create the virtual environment in .venv if it is missing.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test

.PHONY: run test bench screenshots package clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TESTSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Never installs system packages: says which to install (and stops) when Qt could not start.
run: $(STAMP)
	@$(BIN)/python packaging/system_deps.py --advise
	$(BIN)/shipsheet $(ARGS)

test: $(TESTSTAMP)
	@$(BIN)/python packaging/system_deps.py --install
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q $(PYTEST_ARGS)

# Compiled first, as an installed wheel is (pip compiles at install; the start-up
# figure would otherwise time the compiler wherever PYTHONDONTWRITEBYTECODE is set).
bench: $(TESTSTAMP)
	$(BIN)/python -m compileall -q shipsheet >/dev/null
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider tests/benchmarks -o addopts="" -s

screenshots: $(TESTSTAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/screenshots.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/table_screenshots.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/phone_screenshots.py
	$(BIN)/python packaging/desk_screenshots.py

package: $(TESTSTAMP)
	$(BIN)/python -m PyInstaller --noconfirm --clean packaging/shipsheet.spec
	@echo "Built dist/shipsheet/shipsheet"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
