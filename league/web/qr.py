"""QR codes drawn on the server as inline SVG, by segno (no encoder of our own).

The score pads print one for each table, so that a scorekeeper's phone opens
the table's entry page from the paper. The SVG has no fixed size (only a
``viewBox``): the stylesheet sizes it, and it stays sharp at any size, on
screen and on paper.
"""

from __future__ import annotations

from typing import Final

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

ERROR_LEVEL: Final = "m"
"""Medium error correction (15 % of the code may be lost): a pad gets
folded, smudged and written on. segno raises it further when that costs
no extra size."""

QUIET_ZONE: Final = 4
"""The blank border in modules, as wide as the QR standard asks, so that a
scan works even with writing close to the code."""


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url`` (a full-size code, never a Micro QR code, which
    phone cameras do not all read).

    >>> qr_code("https://example.org/tables/7/hands/new/").is_micro
    False
    """
    return segno.make(url, error=ERROR_LEVEL, micro=False)


def qr_svg(url: str, *, label: str) -> SafeString:
    """The QR code of ``url`` as an ``<svg>`` element to put in a page as is.

    ``label`` is its text alternative, given as ``aria-label`` and as the
    SVG's ``<title>`` (escaped here); the modules are one path drawn in
    black, the quiet zone is :data:`QUIET_ZONE` modules wide.

    >>> svg = qr_svg("https://example.org/tables/7/hands/new/", label="Table 7 & co")
    >>> svg.startswith('<svg role="img" aria-label="Table 7 &amp; co" viewBox="0 0 ')
    True
    >>> "<title>Table 7 &amp; co</title>" in svg and svg.endswith("</svg>")
    True
    """
    drawn: str = qr_code(url).svg_inline(
        scale=1,
        border=QUIET_ZONE,
        dark="#000",
        svgclass="qr",
        lineclass="qr-modules",
        title=label,
        omitsize=True,
    )
    # segno writes no role: with one, a screen reader announces the code as
    # an image named by the label. segno escaped its own output, and the
    # label is escaped here, so the whole is safe to put in a page.
    opening = f'<svg role="img" aria-label="{escape(label)}" '
    return mark_safe(opening + drawn.removeprefix("<svg "))
