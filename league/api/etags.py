"""The table's ETag, and ``If-Match`` on corrections of its results.

A table's ETag names its version, which grows with every change of results;
a correction sent with a stale ETag is refused (412), so two scorekeepers
cannot overwrite each other unseen.
"""

from __future__ import annotations

import re
from typing import overload

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions
from rest_framework.request import Request

from league.api.problems import InvalidField
from league.models import Table

# Ids and versions fit a 64-bit column (18 digits always do): a longer number
# is not an ETag of ours, and Python refuses to read one of over 4,300 digits.
ETAG_PATTERN = re.compile(r'(?:W/)?"table-(?P<table>[0-9]{1,18})-v(?P<version>[0-9]{1,18})"')


def etag(table: Table) -> str:
    return f'"table-{table.pk}-v{table.version}"'


class PreconditionRequired(exceptions.APIException):
    status_code = 428
    default_detail = gettext_lazy("Send If-Match with the table's ETag from its score sheet.")
    default_code = "precondition_required"


@overload
def if_match_version(request: Request, table: Table) -> int: ...
@overload
def if_match_version(request: Request, table: Table, *, required: bool) -> int | None: ...


def if_match_version(request: Request, table: Table, *, required: bool = True) -> int | None:
    """The table version named by ``If-Match``: 428 without one (``None`` when
    not ``required``), 400 if it is not an ETag of ours, and -1 (always stale:
    412) for another table's."""
    header = request.headers.get("If-Match")
    if not header:
        if not required:
            return None
        raise PreconditionRequired()
    match = ETAG_PATTERN.fullmatch(header.strip())
    if match is None:
        raise InvalidField(
            "If-Match",
            _('not an ETag of this API: send the score sheet\'s, like "table-3-v12"'),
        )
    if int(match["table"]) != table.pk:
        return -1
    return int(match["version"])
