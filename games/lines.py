"""Answering JSON Lines a chunk at a time: the loop of ``python -m games check``.

:mod:`games.cli` reads the input, cuts it into chunks of numbered lines and
writes the answers; each chunk is answered here (in a worker process with
``-j``). A module of its own so that the loop is compiled with the rest of
the engine's hot path (see :mod:`games.native`) while the command line, with
its argument parsing and process pool, stays Python.
"""

from __future__ import annotations

import json

from games.errors import InvalidRecord
from games.records import answer_json, parse_record
from games.results import ErrorAnswer


def answer_line(line: str, number: int) -> tuple[str, bool] | None:
    """The answer to one line of JSON Lines as JSON text (``invalid`` if the
    line is not JSON), with whether it is ``ok``; ``None`` for a blank line.
    ``number`` is the line's number, for the message of a line that is not JSON."""
    if not line or line.isspace():  # what `not line.strip()` tells, without a copy
        return None
    try:
        return answer_json(parse_record(line))
    # Two names: compiled, one name for both exceptions would have one type.
    except InvalidRecord as refused:
        answer: ErrorAnswer = {"ok": False, "error": refused.to_json()}
    except ValueError as not_json:
        message = f"line {number} is not JSON: {not_json}"
        answer = {"ok": False, "error": {"code": "invalid", "message": message}}
    return json.dumps(answer), False


def answer_chunk(chunk: list[tuple[int, str]]) -> tuple[str, bool]:
    """The answers to numbered lines of JSON Lines as JSON Lines text (a line
    end after each), and whether every one of them is ``ok``."""
    pieces: list[str] = []
    all_ok = True
    for number, line in chunk:
        answered = answer_line(line, number)
        if answered is not None:
            text, ok = answered
            pieces.append(text)
            all_ok = all_ok and ok
    return "\n".join(pieces) + "\n" if pieces else "", all_ok
