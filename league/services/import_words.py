"""An import's problems in the reader's language.

The reading of the files (:mod:`league.import_files`) is pure Python and cannot
translate: each problem of its own carries its words as data
(:class:`~league.import_files.problems.Words`: the English text, marked for the
catalogues, and its facts), and its ``message`` is the English of them, as the
management commands print it. Here the same words are looked up in the active
language (``gettext``/``ngettext``, at the time the page is drawn) and filled in
with the same facts, so a page says the problem in the reader's language while
the English stays as it was.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from league.import_files.problems import Problem, Words, fault_words
from league.names import NameFault


def problem_words(problem: Problem) -> str:
    """``problem`` in the active language; an engine refusal's ``message`` (English,
    from the engine) for a problem without words of the import's own (the pages word
    those from the error's code: :func:`league.web.refusal_words.engine_message`)."""
    if problem.words is None:
        return problem.message
    return words_in_language(problem.words)


def words_in_language(words: Words) -> str:
    """``words`` looked up in the active language and filled in, each part that is
    words of its own (a table's place, a name's fault) worded the same way."""
    plural = words.plural
    text = ngettext(words.text, plural, words.count) if plural else gettext(words.text)
    return text % {key: _in_language(value) for key, value in words.params.items()}


def _in_language(value: object) -> object:
    if isinstance(value, Words):
        return words_in_language(value)
    if isinstance(value, NameFault):
        return words_in_language(fault_words(value))
    return value
