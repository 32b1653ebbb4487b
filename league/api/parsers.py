"""The API's JSON parser: DRF's, refusing what would fail later as a 500.

DRF's parser turns a syntax error into a 400, but two kinds of valid (or
nearly valid) JSON still got through to fail deeper down:

- nesting past Python's recursion limit raises ``RecursionError`` while
  parsing, and a document nested a little less deep raised it later, when the
  idempotency fingerprint or a JSON column serialised it again;
- a number too large for a float (``1e400``) parses as ``inf``, which no
  integer field can take (``OverflowError``);

so a body nested deeper than :data:`MAX_DEPTH` or holding a number that is
not finite is refused here, with the rest of the parse errors (400
``parse-error``), before any view sees it.

Django holds a JSON or form body to ``DATA_UPLOAD_MAX_MEMORY_SIZE``, but not
a multipart one, whose files it streams to disk: :class:`MultiPartParser`
holds it to the same limit (413), as the API takes no files.
"""

from __future__ import annotations

import codecs
import math
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

# Refuses bytes-to-bytes codecs (a compressed body would expand past the size
# limit); newer than the stubs.
from rest_framework.parsers import get_encoding  # type: ignore[attr-defined]
from rest_framework.utils import json

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a body may have. The deepest
input the API takes is a whole game's move logs: the body, the record, its
hands, a hand, its deal, a seat's cards (six levels)."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests arrays and objects more than ``limit`` deep.

    Walked with a stack of its own, not by recursion, so that the check
    itself cannot run out of stack; only containers go on the stack (a
    record is mostly strings and numbers). A whole game of move logs (10 KB)
    takes about 1 ms, the engine's replay of it far longer::

        >>> too_deep({"a": [1, [2]]}, limit=3)
        False
        >>> too_deep({"a": [1, [2, {}]]}, limit=3)
        True
        >>> too_deep("[[[[", limit=1)
        False
    """
    if not isinstance(value, dict | list):
        return False
    stack: list[tuple[dict[object, object] | list[object], int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


TOO_DEEP = f"arrays and objects nest at most {MAX_DEPTH} deep"


def loads(text: str) -> Any:
    """``text`` as JSON, within :data:`MAX_DEPTH` and with finite numbers
    only (NaN and Infinity are refused, as DRF refuses them); ``ValueError``
    saying why otherwise.

        >>> loads('{"a": [1, 2.5]}')
        {'a': [1, 2.5]}
        >>> loads("[" * 1000 + "]" * 1000)
        Traceback (most recent call last):
        ...
        ValueError: arrays and objects nest at most 32 deep
        >>> loads("1e400")
        Traceback (most recent call last):
        ...
        ValueError: the number 1e400 is too large
    """
    try:
        data = json.loads(text, parse_float=_finite)
    except RecursionError:
        raise ValueError(TOO_DEEP) from None
    if too_deep(data):
        raise ValueError(TOO_DEEP)
    return data


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a nesting limit and finite numbers only."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = get_encoding(parser_context or {})
        try:
            # As DRF's parser reads the body.
            return loads(codecs.getreader(encoding)(stream).read())
        except ValueError as exc:
            # the parser's own words after the dash stay English (Python's json module)
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None


class MultiPartParser(parsers.MultiPartParser):
    """DRF's multipart parser, refusing a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``
    (413) before reading it, as Django refuses a JSON or form body."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> parsers.DataAndFiles[Any, Any]:
        request = (parser_context or {}).get("request")
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request is not None and limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                raise RequestDataTooBig("the request body is over DATA_UPLOAD_MAX_MEMORY_SIZE")
        return super().parse(stream, media_type, parser_context)
