"""``python -m games check [-j N] [FILE ...]``: check records from files or stdin.

Each FILE (``-`` or none: standard input) holds one JSON record, or JSON
Lines with one record per line. One answer per record is written to
standard output as JSON Lines, in input order. Exit status: 0 when every
record is valid, 1 when any is invalid, 2 when an input cannot be read as
JSON at all (it is named on standard error and gets no answers).

JSON Lines are read as a stream, a chunk of :data:`CHUNK_LINES` lines at a
time, and checked by ``-j N`` worker processes (default: one per core; ``-j 1``
checks in this process). At most :data:`CHUNKS_PER_WORKER` chunks per worker
are in flight and answers are written as soon as every earlier one is, so
memory stays bounded however many records a file holds. An input shorter
than one chunk is checked in this process (starting workers would cost more).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import sys
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Final, TextIO

from games.errors import InvalidRecord
from games.lines import answer_chunk
from games.records import check_record, parse_record
from games.results import Answer

if TYPE_CHECKING:
    from concurrent.futures import Future

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
CHUNK_LINES: Final = 2_000
"""Lines of JSON Lines handed to a worker at a time: large enough that sending
them costs little against checking them, small enough to keep workers busy."""
CHUNKS_PER_WORKER: Final = 2
"""Chunks in flight per worker: one being checked, one waiting."""


class Unreadable(Exception):
    """An input that is neither one JSON value nor JSON Lines."""


def answers_for_text(text: str) -> list[Answer]:
    """One answer per record in ``text`` (see :func:`answer_chunks`); raises
    :class:`Unreadable`."""
    pieces = answer_chunks(text.splitlines(keepends=True))
    return [json.loads(line) for piece, _ in pieces for line in piece.splitlines()]


def _is_json(line: str) -> bool:
    try:
        parse_record(line)
    except InvalidRecord:  # JSON, though beyond the limits
        return True
    except ValueError:
        return False
    return True


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
    check.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes for JSON Lines (default: one per core; 1: none)",
    )
    args = parser.parse_args(argv)
    # Checking allocates many short-lived objects without reference cycles;
    # the cyclic collector would only spend time (a third of it, measured)
    # finding nothing. The command is a short-lived process.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _check_files(args.files or ["-"], stdin, stdout, stderr, jobs=args.jobs)
    finally:
        if gc_was_enabled:
            gc.enable()


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of workers, 1 or more: {text!r}")
    return jobs


def _check_files(
    names: list[str], stdin: TextIO, stdout: TextIO, stderr: TextIO, *, jobs: int = 1
) -> int:
    status = EXIT_VALID
    for name in names:
        shown = "standard input" if name == "-" else name
        try:
            with _opened(name, stdin) as handle:
                for text, all_valid in answer_chunks(handle, jobs=jobs):
                    stdout.write(text)
                    if status == EXIT_VALID and not all_valid:
                        status = EXIT_INVALID
        except (OSError, UnicodeDecodeError, Unreadable) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            print(f"games check: cannot read {shown} as JSON: {reason}", file=stderr)
            status = EXIT_UNREADABLE
            continue
    stdout.flush()
    return status


class _Stdin:
    """Standard input as a context manager that leaves it open."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __enter__(self) -> TextIO:
        return self.stream

    def __exit__(self, *exc: object) -> None:
        return None


def _opened(name: str, stdin: TextIO) -> AbstractContextManager[TextIO]:
    # A byte-order mark is not JSON, but editors on Windows write one
    # (utf-8-sig drops it from a file; standard input's is dropped when read).
    if name == "-":
        return _Stdin(stdin)
    return open(name, encoding="utf-8-sig")


def answer_chunks(lines: Iterable[str], *, jobs: int = 1) -> Iterator[tuple[str, bool]]:
    """The answers for the records in ``lines`` (a file's lines, with their line
    ends), as pieces of JSON Lines text in input order, each with whether every
    answer in it is valid; raises :class:`Unreadable`.

    The text is JSON Lines when it has two or more lines that are not blank
    and the first is JSON on its own; otherwise it is one record, perhaps
    spread over lines (so a record cut short is unreadable, not lines of
    fragments). Lines are numbered from the first that is not blank."""
    source = iter(lines)
    head = _up_to_second_record(source)
    if head:
        head[0] = head[0].removeprefix("\ufeff")
    records = [line for line in head if line.strip()]
    if not records:
        raise Unreadable("it is empty")
    if len(records) == 1 or not _is_json(records[0]):
        text = "".join(itertools.chain(head, source)).strip()
        try:
            answer = check_record(parse_record(text))
        except InvalidRecord as error:
            answer = {"ok": False, "error": error.to_json()}
        except ValueError:
            raise Unreadable("it is not JSON") from None
        yield json.dumps(answer) + "\n", bool(answer["ok"])
        return
    start = next(i for i, line in enumerate(head) if line.strip())
    numbered = enumerate(itertools.chain(head[start:], source), start=1)
    chunks = iter(lambda: list(itertools.islice(numbered, CHUNK_LINES)), [])
    first = next(chunks, [])
    second = next(chunks, [])
    if not second:  # shorter than a chunk: not worth a worker
        yield _answer_chunk(first)
    elif jobs == 1:
        yield from map(_answer_chunk, itertools.chain((first, second), chunks))
    else:
        yield from _in_workers(itertools.chain((first, second), chunks), jobs=jobs)


def _up_to_second_record(source: Iterator[str]) -> list[str]:
    """Lines from ``source`` until two that are not blank have been read (or it ends)."""
    head: list[str] = []
    found = 0
    for line in source:
        head.append(line)
        found += bool(line.strip())
        if found == 2:
            break
    return head


def _answer_chunk(chunk: list[tuple[int, str]]) -> tuple[str, bool]:
    """The answers for numbered lines of JSON Lines, as JSON Lines text, and
    whether all of them are valid. What each worker process runs (a Python
    function, so that it reaches the workers by name whichever the build)."""
    return answer_chunk(chunk)


def _in_workers(
    chunks: Iterator[list[tuple[int, str]]], *, jobs: int
) -> Generator[tuple[str, bool], None, None]:
    """Each chunk's answers, checked in ``jobs`` processes, in input order; at most
    :data:`CHUNKS_PER_WORKER` chunks per worker are read ahead."""
    # Imported here: multiprocessing costs a check with -j 1 time at start-up.
    from concurrent.futures import ProcessPoolExecutor

    pending: deque[Future[tuple[str, bool]]] = deque()
    with ProcessPoolExecutor(max_workers=jobs, initializer=gc.disable) as pool:
        for chunk in chunks:
            pending.append(pool.submit(_answer_chunk, chunk))
            if len(pending) >= jobs * CHUNKS_PER_WORKER:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
