"""Fails when a page's text has no translation (docs/translating.md, "The check").

    python -m tools.messages_check            # `make messages-check`

Gathers the texts the code and the templates mark as ``make messages`` does,
but in a copy of the project (the committed catalogues are not touched), and
compares them with the committed ``locale/<language>/LC_MESSAGES/django.po``.
Exits 1, listing each by language, file and text, on:

- a text marked in the code that a committed catalogue lacks (``make messages``
  was not run, or its result not committed);
- an entry with no translation (an empty ``msgstr``, or one plural form empty);
- a fuzzy entry (gettext's guess, which the site never shows: a translator must
  check it and remove the flag);
- a translation whose placeholders differ from the English
  (``msgfmt --check-format``: ``%(name)s`` renamed or lost).

Reads ``.po`` files itself (the subset of the format that ``makemessages`` writes)
so that it needs nothing beyond gettext's tools, which ``make messages`` needs too.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
LOCALES: Final = ("uk", "cs")
# What `make messages` leaves out (the Makefile's --ignore list); the copy leaves out
# the same and what makemessages never reads.
IGNORED: Final = (".venv", "build", "tests", "benchmarks", "staticfiles", "docs", "tools")
NOT_COPIED: Final = (*IGNORED, ".git", "node_modules", "*.sqlite3", "__pycache__", "*.so")


@dataclass
class Entry:
    """One message of a catalogue: its context and English text (the key), its
    translations (one, or one a plural form), flags and where it comes from."""

    msgid: str
    context: str | None = None
    plural: str | None = None
    translations: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    locations: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)

    @property
    def shown(self) -> str:
        """The English as a translator finds it: the text and its context."""
        text = self.msgid if len(self.msgid) <= 70 else self.msgid[:67] + "..."
        return f"{text!r}" + (f" (context {self.context!r})" if self.context else "")


def _unquote(text: str) -> str:
    """A PO string's content (``"a\\"b"`` -> ``a"b``)."""
    return str(ast.literal_eval(text))


def read_po(text: str) -> list[Entry]:
    """The entries of a ``.po`` (or ``.pot``) file's text, without its header
    and without obsolete (``#~``) entries."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None  # which string a continuation line extends
    flags: set[str] = set()
    locations: list[str] = []

    def finish() -> None:
        nonlocal current
        if current is not None and current.msgid != "":
            entries.append(current)
        current = None

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line:
                finish()
                target = None
            continue
        if line.startswith("#,"):
            finish()
            flags = {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if line.startswith("#:"):
            finish()
            locations.extend(line[2:].split())
            continue
        if line.startswith("#"):
            finish()
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if current is None or target is None:
                raise ValueError(f"a string continues nothing: {raw!r}")
            name, index = target
            _extend(current, name, index, _unquote(line))
            continue
        # an entry starts at its msgctxt, or at its msgid where it has no context
        context_read = current is not None and keyword == "msgid" and target == ("msgctxt", 0)
        if keyword == "msgctxt" or (keyword == "msgid" and not context_read):
            finish()
            current = Entry(msgid="", flags=flags, locations=locations)
            flags, locations = set(), []
        if current is None:
            raise ValueError(f"not a PO line: {raw!r}")
        if keyword == "msgctxt":
            current.context = _unquote(rest)
            target = ("msgctxt", 0)
        elif keyword == "msgid":
            current.msgid = _unquote(rest)
            target = ("msgid", 0)
        elif keyword == "msgid_plural":
            current.plural = _unquote(rest)
            target = ("msgid_plural", 0)
        elif keyword == "msgstr":
            current.translations = [_unquote(rest)]
            target = ("msgstr", 0)
        elif keyword.startswith("msgstr["):
            index = int(keyword[len("msgstr[") : -1])
            while len(current.translations) <= index:
                current.translations.append("")
            current.translations[index] = _unquote(rest)
            target = ("msgstr", index)
        else:
            raise ValueError(f"not a PO line: {raw!r}")
    finish()
    return entries


def _extend(entry: Entry, name: str, index: int, more: str) -> None:
    if name == "msgctxt":
        entry.context = (entry.context or "") + more
    elif name == "msgid":
        entry.msgid += more
    elif name == "msgid_plural":
        entry.plural = (entry.plural or "") + more
    else:
        entry.translations[index] += more


@dataclass(frozen=True)
class Problem:
    """One reason the check fails: which catalogue, what, and the text."""

    language: str
    kind: str  # missing, empty, fuzzy, format
    text: str
    where: str = ""

    def __str__(self) -> str:
        where = f" [{self.where}]" if self.where else ""
        return f"{self.language}: {self.kind}: {self.text}{where}"


def compare(language: str, wanted: Iterable[Entry], catalogue: Sequence[Entry]) -> list[Problem]:
    """What ``catalogue`` (a language's committed entries) lacks of ``wanted``
    (the texts the code marks now): missing, untranslated and fuzzy entries."""
    have = {entry.key: entry for entry in catalogue}
    problems: list[Problem] = []
    for entry in wanted:
        where = ", ".join(entry.locations[:3])
        found = have.get(entry.key)
        if found is None:
            problems.append(Problem(language, "missing", entry.shown, where))
            continue
        if "fuzzy" in found.flags:
            problems.append(Problem(language, "fuzzy", entry.shown, where))
        if not found.translations or any(not text for text in found.translations):
            problems.append(Problem(language, "empty", entry.shown, where))
    return problems


def format_problems(language: str, po: Path) -> list[Problem]:
    """``msgfmt --check-format``'s complaints about ``po``, one a line."""
    done = subprocess.run(
        ["msgfmt", "--check-format", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode == 0:
        return []
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return [Problem(language, "format", line) for line in lines] or [
        Problem(language, "format", f"msgfmt failed on {po}")
    ]


def gathered_pot(root: Path, scratch: Path) -> Path:
    """The texts the project marks, as ``make messages`` gathers them, in a
    ``django.pot`` made in a copy of ``root`` under ``scratch``."""
    copy = scratch / "project"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
    command = [
        sys.executable,
        "manage.py",
        "makemessages",
        "--keep-pot",
        "--no-obsolete",
        "--add-location",
        "file",
        "--no-wrap",
        *(arg for language in LOCALES for arg in ("-l", language)),
        *(arg for ignored in IGNORED for arg in ("--ignore", f"{ignored}/*")),
    ]
    subprocess.run(command, cwd=copy, check=True, capture_output=True, text=True)
    return copy / "locale" / "django.pot"


def check(root: Path = ROOT, languages: Sequence[str] = LOCALES) -> list[Problem]:
    """Every problem of the committed catalogues of ``root``."""
    with tempfile.TemporaryDirectory(prefix="messages-check-") as scratch:
        wanted = read_po(gathered_pot(root, Path(scratch)).read_text(encoding="utf-8"))
    problems: list[Problem] = []
    for language in languages:
        po = root / "locale" / language / "LC_MESSAGES" / "django.po"
        problems += compare(language, wanted, read_po(po.read_text(encoding="utf-8")))
        problems += format_problems(language, po)
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    problems = check()
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} untranslated or broken messages: see docs/translating.md")
        return 1
    print("every message is translated in " + ", ".join(LOCALES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
