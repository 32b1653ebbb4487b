"""Reading a page as a tree: enough to check its structure, and the
accessibility checks every members' page passes (tests/web)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.test import Client


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    def iter(self, tag: str | None = None) -> Iterator[Element]:
        if tag is None or self.tag == tag:
            yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter(tag)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def element_children(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]


VOID = {"meta", "link", "input", "br", "img", "hr", "source", "col", "wbr"}


class TreeBuilder(HTMLParser):
    """A small tree of the page, enough to check its structure."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Element:
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    assert builder.stack == [builder.root], "unclosed elements"
    return builder.root


def page(client: Client, url: str) -> tuple[str, Element]:
    """A page that answers 200 and passes the accessibility checks."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    html = response.content.decode()
    tree = parse(html)
    assert_accessible(tree)
    return html, tree


def assert_accessible(tree: Element) -> None:
    """The structure the pages promise: a language, one h1, labelled
    navigation, tables with captions and scoped headers in labelled,
    focusable scrolling wrappers, named SVG images, unique ids, nothing
    loaded from another origin."""
    (html,) = tree.iter("html")
    assert html.attrs.get("lang") == "en"
    assert len(list(tree.iter("h1"))) == 1
    ids = [e.attrs["id"] for e in tree.iter() if "id" in e.attrs]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for nav in tree.iter("nav"):
        assert nav.attrs.get("aria-label"), "unlabelled navigation"
    for table in tree.iter("table"):
        first = table.element_children()[0]
        assert first.tag == "caption" and first.text().strip(), "table without caption"
        for th in table.iter("th"):
            assert th.attrs.get("scope") in ("col", "row"), th.text()
    for wrap in tree.iter("div"):
        if "table-wrap" in wrap.attrs.get("class", "").split():
            assert wrap.attrs.get("tabindex") == "0"
            assert wrap.attrs.get("aria-labelledby") in ids
    for table in tree.iter("table"):
        assert any(
            table in list(wrap.iter("table"))
            for wrap in tree.iter("div")
            if "table-wrap" in wrap.attrs.get("class", "")
        ), "table outside a scrolling wrapper"
    for svg in tree.iter("svg"):
        assert svg.attrs.get("role") == "img"
        labels = svg.attrs["aria-labelledby"].split()
        assert labels and all(label in ids for label in labels)
        assert next(svg.iter("title")).text().strip()
    for a in tree.iter("a"):
        assert a.text().strip(), f"link without text: {a.attrs}"
        assert not re.match(r"(?:https?:)?//", a.attrs.get("href", "")), a.attrs
    for tag, attr in (("script", "src"), ("link", "href"), ("img", "src")):
        for element in tree.iter(tag):
            assert not re.match(r"(?:https?:)?//", element.attrs.get(attr, "")), element.attrs
    for script in tree.iter("script"):
        # the pages need no JavaScript: a script only adds to a page that works
        # without it (a file of the site's own, run once the page is read), and
        # data for one (json_script) is not code
        if script.attrs.get("type") == "application/json":
            continue
        assert "defer" in script.attrs, f"a script that holds the page up: {script.attrs}"
        assert script.attrs.get("src", "").startswith("/static/"), f"inline script: {script}"


def rows_of(tree: Element, caption_start: str) -> list[list[str]]:
    """The body rows (cell texts) of the table whose caption starts so."""
    for table in tree.iter("table"):
        if next(table.iter("caption")).text().strip().startswith(caption_start):
            body = next(table.iter("tbody"))
            return [
                [" ".join(cell.text().split()) for cell in row.element_children()]
                for row in body.iter("tr")
            ]
    raise AssertionError(f"no table captioned {caption_start!r}")


def links(tree: Element) -> dict[str, str]:
    """Each link's href, by its text (spaces collapsed)."""
    return {" ".join(a.text().split()): a.attrs.get("href", "") for a in tree.iter("a")}
