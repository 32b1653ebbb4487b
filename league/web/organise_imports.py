"""The organisers' import page: a players CSV for the club, or a league's past results
(the games CSV the export writes, or JSON Lines of game records).

Two steps, nothing stored until the second. Uploading a file shows a preview: every
problem by row, hand and seat, or what the import would store. The preview's
confirmation asks for the same file again (a browser keeps no file from one page to
the next) with the SHA-256 of the file checked in a hidden field; the import service
refuses any other file (:class:`~league.services.imports.NotThePreviewedFile`),
checks it again inside its transaction and stores all of it or nothing. So what is
imported is exactly what was previewed, whichever process serves either step, and
nothing is kept on the server between them.

Every request stays well inside its time (gunicorn stops a worker at 30 s): the forms
refuse a file past the page's limits of size and rows before any work, and the check
refuses one that stores more than :data:`~league.web.organise_imports_forms.MAX_GAMES`
games. A results file that stores more than :data:`INLINE_TABLES` tables is not
stored by its confirmation but kept, and imported by a background job
(:func:`~league.services.imports.results_import_queue`), all or nothing as ever; the
confirmation answers at once with the import's own page, which follows the job
until it is done and updates itself meanwhile.

Only the club's organisers may open the pages (:func:`league.web.access.club_page_refusal`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.datastructures import MultiValueDict
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST

import games
from league.errors import ServiceError
from league.import_files.problems import Problem
from league.models import Club, League, ResultsImport
from league.selectors.imports import recent_results_imports, results_import_progress
from league.services import imports
from league.services.import_words import problem_words
from league.services.imports import ImportRefused, NotThePreviewedFile, PlayersCheck, ResultsCheck
from league.web.access import club_page_refusal
from league.web.form_summary import summary_of
from league.web.organise import RACED
from league.web.organise_forms import sentence
from league.web.organise_imports_forms import MAX_GAMES, PLAYERS, ConfirmForm, ImportForm
from league.web.refusal_words import EnteredHand, HandFacts, engine_message

PROBLEMS_SHOWN: Final = 500
"""The most problems a preview lists; the command lists every one."""

INLINE_TABLES: Final = 20
"""The most tables a confirmation stores while the browser waits (under a second:
about 30 ms a table); a file that stores more is imported by a background job."""

PROGRESS_REFRESH_SECONDS: Final = 2
"""How often the page of an import under way loads itself again."""

FILE_PROBLEMS: Final = frozenset({"encoding", "not_csv", "header", "empty"})
"""Problems of a file that cannot be read at all: shown by the form's file field."""


@dataclass(frozen=True)
class ProblemRow:
    """A line of the preview's table of problems."""

    row: int | None
    hand: int | None
    seat: int | None
    name: str
    """The player in that seat, when the file says."""
    text: str


def problem_text(problem: Problem) -> str:
    """A problem in the page's words: the engine's refusals worded by their code and
    what the file says of the hand (:func:`league.web.refusal_words.engine_message`),
    never from the engine's English; the import's own problems as it words them."""
    facts = problem.facts
    if problem.error is None or facts is None:
        return sentence(problem_words(problem))
    entered = None
    if facts.results_only:
        entered = EnteredHand(
            bids=facts.bids,
            tricks=facts.tricks,
            trump=games.Suit(facts.trump) if facts.trump else None,
            no_trump=facts.trump is None,
            maker=facts.maker,
            drops=facts.drops,
        )
    return engine_message(
        problem.error,
        HandFacts(game=facts.game, names=facts.names, cards=facts.cards, entered=entered),
    )


def problem_rows(problems: tuple[Problem, ...], *, seats_from: int = 0) -> list[ProblemRow]:
    """The first :data:`PROBLEMS_SHOWN` problems as the preview lists them, each seat
    counted from ``seats_from``, as the file counts it."""
    return [
        ProblemRow(
            p.row,
            p.hand,
            p.seat + seats_from if p.seat is not None else None,
            p.player,
            problem_text(p),
        )
        for p in problems[:PROBLEMS_SHOWN]
    ]


def _form_page(request: HttpRequest, club: Club, form: ImportForm) -> HttpResponse:
    return render(
        request,
        "league/organise/import_form.html",
        {
            "club": club,
            "form": form,
            "summary": summary_of(form),
            "recent": recent_results_imports(club=club),
        },
    )


def _preview(
    request: HttpRequest,
    club: Club,
    form: ImportForm,
    check: ResultsCheck | PlayersCheck,
    *,
    refused: bool = False,
) -> HttpResponse:
    """The preview of a check: its problems, or what the import stores and the
    confirmation; ``refused``: an import that found problems when it checked again."""
    league = check.league if isinstance(check, ResultsCheck) else None
    seats_from = check.seats_from if isinstance(check, ResultsCheck) else 0
    confirm = ConfirmForm(
        initial={
            "what": form.cleaned_data["what"],
            "league": league.pk if league is not None else "",
            "digest": check.digest,
        },
        club=club,
    )
    nothing_new = check.ok and (
        check.summary.new_tables == 0 if isinstance(check, ResultsCheck) else not check.new_players
    )
    return render(
        request,
        "league/organise/import_preview.html",
        {
            "club": club,
            "league": league,
            "check": check,
            "filename": form.cleaned_data["file"].name,
            "problems": problem_rows(check.problems, seats_from=seats_from),
            "seats_from": seats_from,
            "problems_shown": PROBLEMS_SHOWN,
            "confirm": confirm,
            "nothing_new": nothing_new,
            "refused": refused,
        },
    )


def _check(form: ImportForm, club: Club, data: bytes) -> ResultsCheck | PlayersCheck:
    if form.cleaned_data["what"] == PLAYERS:
        return imports.check_players_import(club=club, data=data)
    league: League = form.cleaned_data["league"]
    return imports.check_results_import(league=league, data=data, format=form.format)


def _unreadable(form: ImportForm, check: ResultsCheck | PlayersCheck) -> bool:
    """Show a file that cannot be read at all, or that stores more games than the
    page takes, by the file field, not as a preview."""
    unreadable = [p for p in check.problems if p.code in FILE_PROBLEMS]
    for problem in unreadable:
        form.add_error("file", sentence(problem_words(problem)))
    if isinstance(check, ResultsCheck) and check.summary.new_tables > MAX_GAMES:
        form.add_error(
            "file",
            _(
                "The file has %(count)s games to store; this page imports at most %(most)s at "
                "a time: split the file, or ask whoever runs the site to import it with the "
                "import_results command."
            )
            % {
                "count": number_format(check.summary.new_tables, force_grouping=True),
                "most": number_format(MAX_GAMES, force_grouping=True),
            },
        )
        return True
    return bool(unreadable)


@require_http_methods(["GET", "HEAD", "POST"])
def club_import(request: HttpRequest, club_id: int) -> HttpResponse:
    """Upload a file (``?league=<id>`` chooses the league); POST shows its preview."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    if request.method != "POST":
        initial: dict[str, object] = {}
        if (league := request.GET.get("league", "")).isdigit():
            initial["league"] = int(league)
        return _form_page(request, club, ImportForm(initial=initial, club=club))
    form = ImportForm(request.POST, request.FILES, club=club)
    if not form.is_valid():
        return _form_page(request, club, form)
    check = _check(form, club, form.read())
    if _unreadable(form, check):
        return _form_page(request, club, form)
    return _preview(request, club, form, check)


@require_POST
def club_import_confirm(request: HttpRequest, club_id: int) -> HttpResponse:
    """Import the file the preview checked (the same file chosen again), all or nothing."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    form = ConfirmForm(request.POST, request.FILES, club=club)
    if not form.is_valid():
        # A confirmation without its file, with a file the page does not take (past
        # its limits), or with its hidden fields changed: back to the upload form,
        # which says what is wrong.
        tampered = "digest" in form.errors or "what" in form.errors
        error = _("The page was changed: choose the file and check it again.") if tampered else None
        if error is None and "file" in form.errors and request.FILES.get("file"):
            error = str(form.errors["file"][0])
        return _form_page(request, club, _again(form, club, error=error))
    data, digest = form.read(), form.cleaned_data["digest"]
    try:
        if form.cleaned_data["what"] == PLAYERS:
            done: ResultsCheck | PlayersCheck = imports.players_import(
                club=club, data=data, digest=digest
            )
        else:
            league: League = form.cleaned_data["league"]
            if imports.file_digest(data) != digest:  # before the work of checking it
                raise NotThePreviewedFile()
            check = imports.check_results_import(league=league, data=data, format=form.format)
            if _unreadable(form, check):  # more games to store than at the preview
                too_many = str(form.errors["file"][0])
                return _form_page(request, club, _again(form, club, error=too_many))
            if check.summary.new_tables > INLINE_TABLES:
                queued = imports.results_import_queue(
                    check=check,
                    data=data,
                    digest=digest,
                    filename=form.cleaned_data["file"].name or "",
                    by=request.user,
                )
                return redirect("club-import-progress", club_id=club.pk, import_id=queued.pk)
            done = imports.results_import(
                league=league, data=data, format=form.format, digest=digest
            )
    except NotThePreviewedFile as error:
        message = _("%(why)s Check this file first.") % {"why": sentence(error.message)}
        return _form_page(request, club, _again(form, club, error=message))
    except ImportRefused as error:
        return _preview(request, club, form, error.check, refused=True)
    except ServiceError as error:
        # another service's refusal: something changed since the check (a table drawn)
        message = _("%(why)s Nothing was imported: check the file again.") % {
            "why": sentence(error.message)
        }
        return _form_page(request, club, _again(form, club, error=message))
    except IntegrityError:
        return _form_page(request, club, _again(form, club, error=str(RACED)))
    if isinstance(done, PlayersCheck):
        count = len(done.new_players)
        messages.success(
            request,
            ngettext("%(count)s player imported.", "%(count)s players imported.", count)
            % {"count": number_format(count, force_grouping=True)},
        )
        return redirect("club-players", club_id=club.pk)
    summary = done.summary
    messages.success(
        request,
        # Translators: "Imported into Thursday league: 120 hands at 6 tables (2 new players)."
        _("Imported into %(league)s: %(hands)s at %(tables)s (%(players)s).")
        % {
            "league": done.league.name,
            "hands": _hands(summary.hands),
            "tables": _tables(summary.new_tables),
            "players": _new_players(len(summary.new_players)),
        },
    )
    return redirect("league", league_id=done.league.pk)


@require_http_methods(["GET", "HEAD"])
def club_import_progress(request: HttpRequest, club_id: int, import_id: int) -> HttpResponse:
    """A results import run by a background job: waiting, importing (the page
    loads itself again every :data:`PROGRESS_REFRESH_SECONDS`), then what it
    stored, or why nothing was."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    progress = results_import_progress(club=club, import_id=import_id)
    if progress is None:
        raise Http404("no such import in this club")
    item = progress.item
    return render(
        request,
        "league/organise/import_progress.html",
        {
            "club": club,
            "league": item.league,
            "item": item,
            "failures": progress.failures,
            "steps": _steps(item),
            "refresh": None if item.finished else PROGRESS_REFRESH_SECONDS,
            "summary": item.summary,
            "refusal": f"{item.refusal.rstrip('.')}." if item.refusal else "",
        },
    )


@dataclass(frozen=True)
class Step:
    """A step of a background import, as its page lists them."""

    text: str
    state: str
    """``done``, ``now`` (under way), ``next``, or ``refused`` (the last step of an
    import that stored nothing)."""


def _steps(item: ResultsImport) -> list[Step]:
    """The import's three steps (waiting, storing, finished), each with its state."""
    states = ResultsImport.State
    texts = [
        _("Waiting to start"),
        _("Checking the file again and storing %(tables)s (%(hands)s)")
        % {"tables": _tables(item.tables), "hands": _hands(item.hands)},
        _("Nothing imported") if item.state == states.REFUSED else _("Imported"),
    ]
    at = {states.WAITING: 0, states.RUNNING: 1}.get(ResultsImport.State(item.state), 2)
    steps = []
    for index, text in enumerate(texts):
        if index < at or item.state == states.DONE:
            state = "done"
        elif index == at:
            state = "refused" if item.state == states.REFUSED else "now"
        else:
            state = "next"
        steps.append(Step(text, state))
    return steps


def state_words(state: str) -> str:
    """A background import's state in lower case, in the page's language (the
    model's labels are English)."""
    words = {
        ResultsImport.State.WAITING: pgettext("an import's state", "waiting to start"),
        ResultsImport.State.RUNNING: pgettext("an import's state", "importing"),
        ResultsImport.State.DONE: pgettext("an import's state", "imported"),
        ResultsImport.State.REFUSED: pgettext("an import's state", "nothing imported"),
    }
    return words.get(ResultsImport.State(state), state) if state in ResultsImport.State else state


def _counted(number: int) -> dict[str, str]:
    """A count for a message, its digits grouped as the page's language groups them."""
    return {"count": number_format(number, force_grouping=True)}


def _hands(number: int) -> str:
    return ngettext("%(count)s hand", "%(count)s hands", number) % _counted(number)


def _tables(number: int) -> str:
    return ngettext("%(count)s table", "%(count)s tables", number) % _counted(number)


def _new_players(number: int) -> str:
    return ngettext("%(count)s new player", "%(count)s new players", number) % _counted(number)


def _again(form: ConfirmForm, club: Club, *, error: str | None = None) -> ImportForm:
    """The upload form again, with what the confirmation said: the file is to be
    chosen (and checked) again. ``error``, if given, is shown instead of "choose the
    file": by the file field, or for the form as a whole when ``whole``."""
    data = {"what": form.data.get("what", ""), "league": form.data.get("league", "")}
    again = ImportForm(data, MultiValueDict(), club=club)
    again.is_valid()  # binds the choices; without a file it is never valid
    if error is not None:
        again.errors.pop("file", None)
        again.add_error("file", error)
    return again


urlpatterns: list[URLPattern] = [
    path("clubs/<int:club_id>/import/", club_import, name="club-import"),
    path("clubs/<int:club_id>/import/confirm/", club_import_confirm, name="club-import-confirm"),
    path(
        "clubs/<int:club_id>/import/<int:import_id>/",
        club_import_progress,
        name="club-import-progress",
    ),
]
