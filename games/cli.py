"""``python -m games check [FILE ...]``: check records from files or stdin.

Each FILE (``-`` or none: standard input) holds one JSON record, or JSON
Lines with one record per line. One answer per record is written to
standard output as JSON Lines, in input order. Exit status: 0 when every
record is valid, 1 when any is invalid, 2 when an input cannot be read as
JSON at all (it is named on standard error and gets no answers).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from games.errors import InvalidRecord
from games.records import check_record, parse_record

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


class Unreadable(Exception):
    """An input that is neither one JSON value nor JSON Lines."""


def answers_for_text(text: str) -> Iterator[dict[str, Any]]:
    """One answer per record in ``text``; raises :class:`Unreadable`."""
    stripped = text.strip()
    if not stripped:
        raise Unreadable("it is empty")
    try:
        yield check_record(parse_record(stripped))
        return
    except InvalidRecord as error:
        whole_error: InvalidRecord | None = error
    except ValueError:
        whole_error = None
    # JSON Lines only if the first line is JSON on its own: a single record
    # cut short must not be read as lines of fragments.
    first_line = stripped.split("\n", 1)[0]
    if "\n" in stripped and _is_json(first_line):
        try:
            yield from _answers_for_lines(stripped.splitlines())
            return
        except Unreadable:
            if whole_error is None:
                raise
    if whole_error is None:
        raise Unreadable("it is not JSON")
    yield {"ok": False, "error": whole_error.to_json()}


def _answers_for_lines(lines: list[str]) -> Iterator[dict[str, Any]]:
    """JSON Lines: a line that is not JSON, when others are, is answered
    ``invalid`` in its place; if no line is JSON the input is unreadable."""
    answers: list[dict[str, Any]] = []
    any_json = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_record(line)
        except InvalidRecord as error:
            answers.append({"ok": False, "error": error.to_json()})
            any_json = True
            continue
        except ValueError as error:
            answers.append(
                {
                    "ok": False,
                    "error": {"code": "invalid", "message": f"line {number} is not JSON: {error}"},
                }
            )
            continue
        any_json = True
        answers.append(check_record(record))
    if not any_json:
        raise Unreadable("no line of it is JSON")
    yield from answers


def _is_json(text: str) -> bool:
    try:
        parse_record(text)
    except InvalidRecord:
        return True
    except ValueError:
        return False
    return True


def _read(name: str, stdin: TextIO) -> str:
    # A byte-order mark is not JSON, but editors on Windows write one.
    if name == "-":
        return stdin.read().removeprefix("\ufeff")
    with open(name, encoding="utf-8-sig") as handle:
        return handle.read()


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check hand and game records")
    check.add_argument(
        "files", nargs="*", metavar="FILE", help="JSON or JSON Lines (default: stdin)"
    )
    args = parser.parse_args(argv)
    # Checking allocates many short-lived objects without reference cycles;
    # the cyclic collector would only spend time (a third of it, measured)
    # finding nothing. The command is a short-lived process.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _check_files(args.files or ["-"], stdin, stdout, stderr)
    finally:
        if gc_was_enabled:
            gc.enable()


def _check_files(names: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:

    status = EXIT_VALID
    for name in names:
        shown = "standard input" if name == "-" else name
        try:
            text = _read(name, stdin)
            answers = list(answers_for_text(text))
        except (OSError, UnicodeDecodeError, Unreadable) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            print(f"games check: cannot read {shown} as JSON: {reason}", file=stderr)
            status = EXIT_UNREADABLE
            continue
        stdout.write("".join(json.dumps(answer) + "\n" for answer in answers))
        if status == EXIT_VALID and not all(answer["ok"] for answer in answers):
            status = EXIT_INVALID
    stdout.flush()
    return status
