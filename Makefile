# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean compiled

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# An editable install is not byte-compiled by pip, and where PYTHONDONTWRITEBYTECODE
# is set every start would compile cdbtui again (~0.2 s of the first paint):
# compile it (a tenth of a second when nothing changed).
compiled: $(STAMP)
	$(BIN)/python -m compileall -q cdbtui

run: compiled
	$(BIN)/cdbtui

test: $(STAMP)
	$(BIN)/python -m pytest

bench: compiled
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/csystem.py
	$(BIN)/python benchmarks/narrador.py
	$(BIN)/python benchmarks/tui.py
	$(BIN)/python benchmarks/storage.py

clean:
	rm -rf $(VENV)
