# Two commands for a newcomer: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# The rules engine is pure Python; where a C compiler is present the install also
# compiles its hot modules with mypyc (faster `games check`, same answers).
# ENGINE_COMPILE=auto (default): compile if a compiler is here; 0: never; 1: must.
ENGINE_COMPILE ?= auto
ENGINE_SO := games/*.so
ENGINE_BUILD_DIR := build

.PHONY: run test lint format messages messages-check messages-compile bench bench-api bench-night bench-pad bench-live bench-ratings bench-quality \
	bench-scale clean \
	engine-pure engine-compiled

# The editable install itself is always pure (ENGINE_COMPILE=0: no compiler needed);
# the compiled modules are then built in place, next to their sources, by setup.py
# with the venv's setuptools and mypy (a dev dependency).
$(STAMP): pyproject.toml setup.py engine_build.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip 'setuptools>=68'
	ENGINE_COMPILE=0 $(PY) -m pip install --quiet -e '.[dev]'
	rm -rf $(ENGINE_SO) $(ENGINE_BUILD_DIR)
	ENGINE_COMPILE=$(ENGINE_COMPILE) $(PY) setup.py --quiet build_ext --inplace
	touch $(STAMP)

# Switch the engine between its builds (the tests pass on both; see docs/records.md).
# build/ (mypyc's C, the compiler's objects) is kept between switches: it spares
# recompiling what has not changed; `make clean` removes it.
engine-pure: $(STAMP)
	rm -f $(ENGINE_SO)

engine-compiled: $(STAMP)
	rm -f $(ENGINE_SO)
	ENGINE_COMPILE=1 $(PY) setup.py --quiet build_ext --inplace

# The pages' translations (docs/translating.md): `make messages` gathers every marked
# text into locale/<language>/LC_MESSAGES/django.po; the .mo files the site reads are
# compiled from them (gettext's msgfmt) before the site runs or is tested.
LOCALES := uk cs
MESSAGE_CATALOGUES := $(foreach l,$(LOCALES),locale/$(l)/LC_MESSAGES/django.mo)

messages: $(STAMP)
	$(PY) manage.py makemessages --no-obsolete --add-location file --no-wrap \
		$(foreach l,$(LOCALES),-l $(l)) \
		--ignore '.venv/*' --ignore 'build/*' --ignore 'tests/*' --ignore 'benchmarks/*' \
		--ignore 'staticfiles/*' --ignore 'docs/*' --ignore 'tools/*'

# Part of `make lint`: fails, listing
# them, on a marked text a committed catalogue lacks, an empty or fuzzy translation,
# or a placeholder that differs (tools/messages_check.py; docs/translating.md).
messages-check: $(STAMP)
	$(PY) -m tools.messages_check

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	msgfmt --check-format -o $@ $<

# The .mo files alone, for a deployment (README.md): `make run` and `make test` make them too.
messages-compile: $(MESSAGE_CATALOGUES)

run: $(STAMP) $(MESSAGE_CATALOGUES)
	$(PY) manage.py migrate --no-input
	$(PY) manage.py demo_data --if-empty
	$(PY) manage.py runserver $(HOST):$(PORT)

test: $(STAMP) $(MESSAGE_CATALOGUES)
	$(PY) -m pytest games league/seating league/rating_model.py league/rating_explain.py league/standings.py league/names.py league/season.py league/player_stats.py league/import_files league/csv_format.py tests docs

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy games league config
	$(VENV)/bin/lint-imports
	DJANGO_SETTINGS_MODULE=config.settings.test $(PY) manage.py makemigrations --check --dry-run
	$(PY) -m tools.messages_check

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(PY) benchmarks/check_vs_openspiel.py

# Needs PostgreSQL at 127.0.0.1:5432 (user postgres); creates and drops league_bench.
bench-api: $(STAMP)
	$(PY) benchmarks/api_throughput.py

# A club night on one box: make run's set-up, gunicorn on SQLite, and PostgreSQL (needs it at
# 127.0.0.1:5432, user postgres; creates and drops league_bench_night), at 8 and 30 tables.
bench-night: $(STAMP)
	$(PY) benchmarks/club_night.py

# A 25-hand Bluke pad through the grid on make run's set-up (SQLite, scratch folder): the
# requests, the server's time a hand, the keystroke-level model's typing time.
bench-pad: $(STAMP)
	$(PY) benchmarks/pad_entry.py

# A hundred room screens polling while hands come in (needs PostgreSQL at 127.0.0.1:5432,
# user postgres; creates and drops league_bench_live): polls a second, 304s, CPU, delay.
bench-live: $(STAMP)
	$(PY) benchmarks/live_screens.py

# Needs PostgreSQL at 127.0.0.1:5432 (user postgres); creates and drops league_bench_ratings.
bench-ratings: $(STAMP)
	$(PY) benchmarks/ratings_rebuild.py

# Needs PostgreSQL at 127.0.0.1:5432 (user postgres); creates and drops league_bench_scale.
# Leagues of 1,000 and 10,000 games; SCALE_SIZES="1000 10000 100000" adds 100,000 (longer).
# Then SCALE_CLUBS clubs of 1,000 games beside them, the last measured (SCALE_CLUBS=50: the
# deployment of issue 28).
SCALE_SIZES ?= 1000 10000
SCALE_CLUBS ?= 20
bench-scale: $(STAMP)
	$(PY) benchmarks/scale.py --sizes $(SCALE_SIZES) --clubs $(SCALE_CLUBS)

# Bots of known strength play real games; every rating model against the truth (about 2 min).
bench-quality: $(STAMP)
	$(PY) benchmarks/rating_quality.py --jobs 2

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache $(ENGINE_SO) $(ENGINE_BUILD_DIR)
