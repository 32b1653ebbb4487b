"""The error summary at the top of a form page: a line a problem, each
linking to the input it concerns (every form of the pages shows one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class SummaryItem:
    """A line of the error summary at the top of the page."""

    target: str | None
    """The id of the input to go to, if the error concerns one."""
    text: str


class Summarised(Protocol):
    """A form that lists its problems as (input id or ``None``, text), as
    :class:`league.web.organise_forms.SetupForm` does."""

    @property
    def is_bound(self) -> bool: ...

    def summary(self) -> list[tuple[str | None, str]]: ...


def summary_of(form: Summarised) -> list[SummaryItem]:
    """The error summary at the top of a form page (empty for an unbound form)."""
    if not form.is_bound:
        return []
    return [SummaryItem(target=target, text=text) for target, text in form.summary()]
