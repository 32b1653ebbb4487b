# Two commands for a newcomer: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench bench-api bench-ratings bench-quality bench-scale clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --no-input
	$(PY) manage.py demo_data --if-empty
	$(PY) manage.py runserver $(HOST):$(PORT)

test: $(STAMP)
	$(PY) -m pytest games league/seating league/rating_model.py league/standings.py tests docs

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy games league config
	DJANGO_SETTINGS_MODULE=config.settings.test $(PY) manage.py makemigrations --check --dry-run

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(PY) benchmarks/check_vs_openspiel.py

# Needs PostgreSQL at 127.0.0.1:5432 (user postgres); creates and drops league_bench.
bench-api: $(STAMP)
	$(PY) benchmarks/api_throughput.py

# Needs PostgreSQL at 127.0.0.1:5432 (user postgres); creates and drops league_bench_ratings.
bench-ratings: $(STAMP)
	$(PY) benchmarks/ratings_rebuild.py

# Needs PostgreSQL at 127.0.0.1:5432 (user postgres); creates and drops league_bench_scale.
# Leagues of 1,000 and 10,000 games; SCALE_SIZES="1000 10000 100000" adds 100,000 (longer).
SCALE_SIZES ?= 1000 10000
bench-scale: $(STAMP)
	$(PY) benchmarks/scale.py --sizes $(SCALE_SIZES)

# Bots of known strength play real games; every rating model against the truth (about 2 min).
bench-quality: $(STAMP)
	$(PY) benchmarks/rating_quality.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
