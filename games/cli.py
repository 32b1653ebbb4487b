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
from collections.abc import Sequence
from typing import Any, TextIO

from games.errors import InvalidRecord
from games.records import check_record, parse_record

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


class Unreadable(Exception):
    """An input that is neither one JSON value nor JSON Lines."""


def answers_for_text(text: str) -> list[dict[str, Any]]:
    """One answer per record in ``text``; raises :class:`Unreadable`.

    The text is JSON Lines when it has several lines and the first is JSON
    on its own; otherwise it is one record, perhaps spread over lines (so a
    record cut short is unreadable, not lines of fragments)."""
    lines = text.strip().splitlines()
    if not lines:
        raise Unreadable("it is empty")
    if len(lines) > 1 and _is_json(lines[0]):
        return [answer for n, line in enumerate(lines, 1) if (answer := _answer_line(line, n))]
    try:
        return [check_record(parse_record(text.strip()))]
    except InvalidRecord as error:
        return [{"ok": False, "error": error.to_json()}]
    except ValueError:
        raise Unreadable("it is not JSON") from None


def _is_json(line: str) -> bool:
    try:
        parse_record(line)
    except InvalidRecord:  # JSON, though beyond the limits
        return True
    except ValueError:
        return False
    return True


def _answer_line(line: str, number: int) -> dict[str, Any] | None:
    """The answer for one line of JSON Lines (``invalid`` if it is not JSON),
    or ``None`` for a blank line."""
    if not line.strip():
        return None
    try:
        return check_record(parse_record(line))
    except InvalidRecord as error:
        return {"ok": False, "error": error.to_json()}
    except ValueError as error:
        message = f"line {number} is not JSON: {error}"
        return {"ok": False, "error": {"code": "invalid", "message": message}}


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
            answers = answers_for_text(text)
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
