"""``python -m games check -j N``: JSON Lines checked in worker processes, answered in
input order, with a bounded read-ahead."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import cli
from games.cli import CHUNK_LINES, CHUNKS_PER_WORKER, answer_chunks, main

VALID = {
    "game": "bluke",
    "dealer": 0,
    "cards": 1,
    "trump": "S",
    "bids": [1, 1, 1],
    "tricks": [1, 0, 0],
}
BAD_TRICKS = {**VALID, "tricks": [1, 1, 0]}


def lines(count: int) -> list[str]:
    """``count`` lines: mostly valid hands, every 7th refused, every 11th blank,
    every 13th not JSON."""
    out = []
    for n in range(count):
        if n % 13 == 12:
            out.append("{not json\n")
        elif n % 11 == 10:
            out.append("\n")
        elif n % 7 == 6:
            out.append(json.dumps({**BAD_TRICKS, "dealer": n % 3}) + "\n")
        else:
            out.append(json.dumps({**VALID, "dealer": n % 3}) + "\n")
    return out


def check(path: Path, *args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["check", *args, str(path)], stdin=io.StringIO(), stdout=out, stderr=err)
    assert err.getvalue() == ""
    return status, out.getvalue()


def test_workers_answer_in_input_order_exactly_as_one_process(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    text = "".join(lines(2 * CHUNK_LINES + 345))  # three chunks, the last one short
    path.write_text(text)
    alone = check(path, "-j", "1")
    workers = check(path, "-j", "2")
    assert workers == alone
    status, answers = alone
    assert status == 1  # some records are refused
    found = [json.loads(line) for line in answers.splitlines()]
    assert found == cli.answers_for_text(text)
    assert len(found) == 2 * CHUNK_LINES + 345 - sum(
        n % 11 == 10 and n % 13 != 12 for n in range(2 * CHUNK_LINES + 345)
    )
    not_json = [
        a["error"]["message"] for a in found if not a["ok"] and "not JSON" in a["error"]["message"]
    ]
    assert not_json[0].startswith("line 13 is not JSON")  # numbered as in the file
    assert found[6]["error"]["code"] == "bad_tricks" and found[5]["ok"]


def test_a_file_of_valid_records_exits_0_with_workers(tmp_path: Path) -> None:
    path = tmp_path / "valid.jsonl"
    path.write_text("".join(json.dumps(VALID) + "\n" for _ in range(CHUNK_LINES + 1)))
    status, answers = check(path, "--jobs", "2")
    assert status == 0 and answers.count("\n") == CHUNK_LINES + 1


def test_a_single_record_over_several_lines_is_still_one_record(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text("\ufeff\n\n" + json.dumps(VALID, indent=2) + "\n\n")
    status, answers = check(path, "-j", "2")
    assert status == 0 and [json.loads(answers)["ok"]] == [True]


@pytest.mark.parametrize("jobs", ["0", "-1", "two", "1.5"])
def test_a_bad_number_of_workers_is_refused(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", "-j", jobs], stdin=io.StringIO(json.dumps(VALID)))
    assert exit_.value.code == 2
    assert "must be a whole number of workers, 1 or more" in capsys.readouterr().err


def test_reading_ahead_is_bounded_by_the_workers_whatever_the_file_size() -> None:
    pulled = 0

    def chunks() -> Iterator[list[tuple[int, str]]]:
        nonlocal pulled
        for start in itertools.count(1, 10):
            pulled += 1
            yield [(start + k, json.dumps(VALID)) for k in range(10)]

    answers = cli._in_workers(chunks(), jobs=2)
    for answered in range(1, 30):
        text, valid = next(answers)
        assert valid and text.count("\n") == 10
        # the chunks answered plus at most a full window read ahead
        assert pulled <= answered + 2 * CHUNKS_PER_WORKER
    answers.close()


def test_memory_does_not_hold_the_whole_input() -> None:
    """One process reading a stream of 3 chunks never holds more than two chunks."""
    consumed = 0

    def stream() -> Iterator[str]:
        nonlocal consumed
        for line in itertools.islice(itertools.cycle(lines(100)), 3 * CHUNK_LINES):
            consumed += 1
            yield line

    pieces = answer_chunks(stream(), jobs=1)
    next(pieces)
    assert consumed <= 2 * CHUNK_LINES + 2  # the first answer came before the file was read
    assert sum(1 for _ in pieces) == 2
