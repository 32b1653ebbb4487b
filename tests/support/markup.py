"""Reading the pages' HTML: the text, the form fields and their errors, and
the rows of the score sheet's tables."""

from __future__ import annotations

import html as html_module
import re
from html.parser import HTMLParser

from django.http import HttpResponse

# -- text and forms ----------------------------------------------------------------


def text(response: HttpResponse) -> str:
    """The page as one line of text, whitespace collapsed (tags kept)."""
    return " ".join(response.content.decode().split())


class Inputs(HTMLParser):
    """Every input, select and label of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.inputs: list[dict[str, str]] = []
        self.labels: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag in ("input", "select"):
            self.inputs.append({"tag": tag, **found})
        elif tag == "label" and "for" in found:
            self.labels.add(found["for"])


def inputs_of(response: HttpResponse) -> Inputs:
    parser = Inputs()
    parser.feed(response.content.decode())
    return parser


def field(response: HttpResponse, name: str) -> dict[str, str]:
    """The attributes of the input (or select) named ``name``."""
    return next(i for i in inputs_of(response).inputs if i.get("name") == name)


def selected(response: HttpResponse, name: str) -> list[str]:
    """The values of the options selected in the select named ``name``."""
    match = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', text(response))
    assert match, f"no select {name}"
    return re.findall(r'<option value="([^"]*)"[^>]*\bselected\b', match[1])


def error_of(response: HttpResponse, field_id: str) -> str:
    """The text of the error list tied to ``field_id`` (``id_bid_2`` or a
    group's ``tricks``), tags taken out."""
    html = text(response)
    list_id = f"{field_id}_error" if field_id.startswith("id_") else f"{field_id}-error"
    match = re.search(rf'<ul class="errorlist[^"]*" id="{list_id}">(.*?)</ul>', html)
    assert match, f"no error list {list_id}"
    return html_module.unescape(re.sub(r"<[^>]+>", "", match[1]).strip())


def assert_tied(response: HttpResponse, name: str, error_id: str, *, linked: bool = True) -> None:
    """The input is marked invalid and described by the error, and (unless
    a group's error links to the group's first input) the summary at the top
    links to it."""
    attrs = field(response, name)
    assert attrs.get("aria-invalid") == "true", attrs
    assert error_id in attrs.get("aria-describedby", "").split(), attrs
    if linked:
        assert f'<a href="#{attrs["id"]}">' in text(response)
    assert 'class="error-summary"' in text(response)


# -- tables --------------------------------------------------------------------------


class Cells(HTMLParser):
    """The rows of each ``<table class="sheet">`` (or ``class="tricks"`` with
    ``which``), as lists of cell texts as a screen reader has them (text marked
    ``aria-hidden`` left out); nested tables are kept out of their parent's cells."""

    def __init__(self, which: str) -> None:
        super().__init__()
        self.which = which
        self.depth = 0  # depth of tables inside a wanted one
        self.tables: list[list[list[str]]] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table":
            if self.depth:
                self.depth += 1
            elif self.which in classes:
                self.depth = 1
                self.tables.append([])
        if self.depth != 1:
            return
        if tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "span" and ("aria-hidden", "true") in attrs and self.cell is not None:
            self.hidden += 1
        elif tag == "span" and ("role", "img") in attrs and self.cell is not None:
            self.cell.append(f" {dict(attrs).get('aria-label') or ''} ")  # read for its content
            self.hidden += 1
        elif tag == "li" and self.cell is not None:
            self.cell.append(" ")  # items are read apart

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.depth:
            self.depth -= 1
            return
        if self.depth != 1:
            return
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[-1].append(self.row)
            self.row = None
        elif tag == "span" and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if self.depth == 1 and self.cell is not None and not self.hidden:
            self.cell.append(data)


def tables_of(html: str, which: str = "sheet") -> list[list[list[str]]]:
    """The rows of each table of class ``which``, as lists of cell texts (see :class:`Cells`)."""
    parser = Cells(which)
    parser.feed(html)
    return parser.tables


def hand_row(html: str, number: int) -> list[str]:
    """The cells of hand ``number``'s row (as stored, from 0) of the sheet."""
    start = html.index(f'<tr id="hand-{number}">')
    fragment = '<table class="sheet">' + html[start : html.index("</tr>", start) + 5] + "</table>"
    return tables_of(fragment)[0][0]
