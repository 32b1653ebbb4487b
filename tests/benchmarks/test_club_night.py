"""A club night on the default set-up and on a club's one box, through real servers
(benchmarks/club_night.py with eight tables): concurrent writers on SQLite get no 5xx
and every hand is stored. The benchmark prints the latencies; none is asserted here."""

from __future__ import annotations

import pytest

from benchmarks import club_night


@pytest.mark.parametrize("setup", ["default", "gunicorn-sqlite"])
def test_eight_tables_entering_at_once_on_sqlite_are_never_refused(setup: str) -> None:
    args = club_night.parse(["--tables", "8", "--read-every", "0.5", "--workers", "3"])
    night = club_night.night_run(setup, 8, args)
    assert night.hands_stored == night.hands_expected > 100
    assert set(night.statuses) <= {201}, night.samples
    assert set(night.read_statuses) == {200}, night.samples
    assert night.jobs_left == 0  # the standings and ratings the games owed were done
