"""tools/messages_check.py: the check that every marked text is translated, on small
catalogues written here (the project's own are checked by `make messages-check`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.messages_check import Entry, compare, format_problems, read_po

HEADER = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"

"""

POT = (
    HEADER
    + """#: templates/base.html
msgid "Log in"
msgstr ""

#: league/card_names.py
msgctxt "suit"
msgid "hearts"
msgstr ""

#: templates/league/event.html
msgid "one game"
msgid_plural "%(counter)s games"
msgstr[0] ""
msgstr[1] ""
msgstr[2] ""

#: templates/league/home.html
msgid ""
"A long text "
"in two lines"
msgstr ""
"""
)


def test_a_catalogue_is_read_with_contexts_plurals_and_long_texts() -> None:
    entries = read_po(POT)
    assert [entry.key for entry in entries] == [
        (None, "Log in"),
        ("suit", "hearts"),
        (None, "one game"),
        (None, "A long text in two lines"),
    ]
    assert entries[2].plural == "%(counter)s games"
    assert entries[2].translations == ["", "", ""]
    assert entries[1].locations == ["league/card_names.py"]


def test_a_complete_catalogue_has_no_problem() -> None:
    done = (
        HEADER
        + """msgid "Log in"
msgstr "Přihlásit se"

msgctxt "suit"
msgid "hearts"
msgstr "srdce"

msgid "one game"
msgid_plural "%(counter)s games"
msgstr[0] "jedna hra"
msgstr[1] "%(counter)s hry"
msgstr[2] "%(counter)s her"

msgid "A long text in two lines"
msgstr "Dlouhý text"

#~ msgid "Gone"
#~ msgstr ""
"""
    )
    assert compare("cs", read_po(POT), read_po(done)) == []


def test_missing_empty_fuzzy_and_a_plural_form_left_out_are_each_listed() -> None:
    partial = (
        HEADER
        + """#, fuzzy
msgid "Log in"
msgstr "Přihlásit"

msgid "hearts"
msgstr "srdce"

msgid "one game"
msgid_plural "%(counter)s games"
msgstr[0] "jedna hra"
msgstr[1] "%(counter)s hry"
msgstr[2] ""

msgid "A long text in two lines"
msgstr ""
"""
    )
    found = [
        (problem.kind, problem.text) for problem in compare("cs", read_po(POT), read_po(partial))
    ]
    assert found == [
        ("fuzzy", "'Log in'"),
        # the same English without its context is another message
        ("missing", "'hearts' (context 'suit')"),
        ("empty", "'one game'"),
        ("empty", "'A long text in two lines'"),
    ]


def test_a_placeholder_renamed_in_a_translation_is_a_format_problem(tmp_path: Path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        HEADER
        + """#, python-format
msgid "%(name)s joined"
msgstr "%(jméno)s přišel"
""",
        encoding="utf-8",
    )
    problems = format_problems("cs", po)
    assert problems and all(problem.kind == "format" for problem in problems)
    po.write_text(
        HEADER + '#, python-format\nmsgid "%(name)s joined"\nmsgstr "%(name)s přišel"\n',
        encoding="utf-8",
    )
    assert format_problems("cs", po) == []


def test_a_line_that_is_not_po_is_refused() -> None:
    with pytest.raises(ValueError, match="not a PO line"):
        read_po('msgid "a"\nmsgstr "b"\nnonsense "c"\n')


def test_an_entry_names_its_english_and_context_for_the_listing() -> None:
    assert (
        Entry(msgid="Hand", context="card game hand").shown == "'Hand' (context 'card game hand')"
    )
