"""The organisers' undo pages: deleting a game night, a round or a table with no
hands, or a player with no games, and merging a player entered twice into the
one kept.

Each deletion is a page that says what goes with it and asks to confirm (a POST
with nothing but the CSRF token), or says why it cannot go (hands entered,
games played) and offers no button. The merge page chooses the player kept,
previews what moves (:func:`league.services.clubs.check_player_merge`) and asks
to confirm. Only the club's organisers may open them
(:func:`league.web.access.club_page_refusal`); every change is one service, one
transaction, and its refusal is shown on the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django import forms
from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext_lazy as _l
from django.views.decorators.http import require_http_methods

from league.errors import ServiceError
from league.models import Club, Player, Table
from league.names import is_close
from league.selectors import tidy as tidy_selectors
from league.services import clubs, fixtures
from league.web.access import club_page_refusal
from league.web.organise_forms import sentence

RACED = "Another change got there first; nothing was changed. Look again and retry."


def _counted(number: int, thing: str) -> str:
    return f"{number} {thing}{pluralize(number)}"


def _held_by_hands(tables: list[Table]) -> str:
    """Why tables with hands cannot go, as the service words it, in a sentence."""
    held = "; ".join(
        f"table {t.number} of round {t.round.number} has {_counted(t.hands_played, 'hand')}"
        for t in tables[:3]
    )
    more = f" (and {len(tables) - 3} more tables)" if len(tables) > 3 else ""
    return sentence(f"hands are entered: {held}{more}")


def _confirm_page(
    request: HttpRequest,
    *,
    club: Club,
    title: str,
    what: str,
    goes: list[str],
    refusal: str,
    back: str,
    button: str,
    crumb_url: str,
    crumb: str,
    status: int = 200,
    tables: list[Table] | None = None,
) -> HttpResponse:
    return render(
        request,
        "league/organise/delete.html",
        {
            "club": club,
            "title": title,
            "what": what,
            "goes": [item for item in goes if item],
            "refusal": refusal,
            "back": back,
            "button": button,
            "crumb_url": crumb_url,
            "crumb": crumb,
            "tables": tables or [],
        },
        status=status,
    )


def _done_or_refused(
    request: HttpRequest, run: Callable[[], object], *, done: str, then: str
) -> tuple[HttpResponse | None, str]:
    """Run a deletion: on success, the message and the redirect; on a refusal,
    ``None`` and the refusal in the page's words."""
    try:
        run()
    except ServiceError as error:
        return None, sentence(error.message)
    except IntegrityError:
        return None, RACED
    messages.success(request, done)
    return redirect(then), ""


# -- a game night -------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def event_delete(request: HttpRequest, event_id: int) -> HttpResponse:
    """Delete a game night with no hands, after saying what goes with it."""
    event = get_object_or_404(tidy_selectors.event_for_tidy(), pk=event_id)
    club = event.league.club
    if refusal := club_page_refusal(request, club):
        return refusal
    rounds = tidy_selectors.event_rounds_tables(event=event)
    back = reverse("event-edit", kwargs={"event_id": event.pk})
    status, refused = 200, ""
    if request.method == "POST":
        done, refused = _done_or_refused(
            request,
            lambda: fixtures.event_delete(event=event),
            done=f"The game night “{event.name}” is deleted.",
            then=reverse("club-manage", kwargs={"club_id": club.pk}),
        )
        if done is not None:
            return done
        status = 409
        rounds = tidy_selectors.event_rounds_tables(event=event)
    held = [table for row in rounds for table in row.tables if table.hands_played]
    tables = sum(len(row.tables) for row in rounds)
    attending = tidy_selectors.event_attendance_count(event=event)
    return _confirm_page(
        request,
        club=club,
        title=f"Delete the game night {event.name}",
        what=f"{event.name}, {event.date:%A} {event.date.day} {event.date:%B %Y}, "
        f"of {event.league.name}",
        goes=[
            _counted(len(rounds), "round")
            + (f" and {_counted(tables, 'table')}" if tables else ""),
            _counted(attending, "player") + " checked in" if attending else "",
        ],
        refusal=refused or (_held_by_hands(held) if held else ""),
        back=back,
        button=f"Delete {event.name}",
        crumb_url=back,
        crumb=f"Edit {event.name}",
        status=status,
    )


# -- a round ----------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def round_delete(request: HttpRequest, round_id: int) -> HttpResponse:
    """Delete a round with no hands (the later rounds move down a number)."""
    round_ = get_object_or_404(tidy_selectors.round_for_tidy(), pk=round_id)
    event = round_.event
    club = event.league.club
    if refusal := club_page_refusal(request, club):
        return refusal
    back = reverse("event-edit", kwargs={"event_id": event.pk})
    status, refused = 200, ""
    if request.method == "POST":
        done, refused = _done_or_refused(
            request,
            lambda: fixtures.round_delete(round=round_),
            done=f"Round {round_.number} of “{event.name}” is deleted.",
            then=back,
        )
        if done is not None:
            return done
        status = 409
    rounds = tidy_selectors.event_rounds_tables(event=event)
    mine = next(row for row in rounds if row.round.pk == round_.pk)
    later = [row for row in rounds if row.round.number > round_.number]
    if not refused:
        held = [table for table in mine.tables if table.hands_played]
        if held:
            refused = _held_by_hands(held)
        elif len(rounds) == 1:
            refused = "It is the night's only round: delete the game night instead."
        elif drawn := [row.round.number for row in later if row.tables]:
            refused = f"Round {drawn[-1]} is drawn: delete the later rounds first, last first."
    goes = [_counted(len(mine.tables), "table") + " and their seats"] if mine.tables else []
    if later:
        goes.append(
            f"Round{pluralize(len(later))} {', '.join(str(r.round.number) for r in later)} "
            f"become{'' if len(later) > 1 else 's'} "
            f"{', '.join(str(r.round.number - 1) for r in later)}; the players' rounds follow"
        )
    return _confirm_page(
        request,
        club=club,
        tables=mine.tables,
        title=f"Delete round {round_.number} of {event.name}",
        what=f"Round {round_.number} of {event.name} ({event.date.day} {event.date:%B %Y})",
        goes=goes,
        refusal=refused,
        back=back,
        button=f"Delete round {round_.number}",
        crumb_url=back,
        crumb=f"Edit {event.name}",
        status=status,
    )


# -- a table ------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def table_delete(request: HttpRequest, table_id: int) -> HttpResponse:
    """Delete a table with no hands; its players are seated nowhere in the round."""
    table = get_object_or_404(tidy_selectors.table_for_tidy(), pk=table_id)
    event = table.round.event
    club = event.league.club
    if refusal := club_page_refusal(request, club):
        return refusal
    back = reverse("event-edit", kwargs={"event_id": event.pk})
    status, refused = 200, ""
    if request.method == "POST":
        done, refused = _done_or_refused(
            request,
            lambda: fixtures.table_delete(table=table),
            done=f"Table {table.number} of round {table.round.number} is deleted.",
            then=back,
        )
        if done is not None:
            return done
        status = 409
        table.refresh_from_db()
    if not refused and table.hands_played:
        refused = _held_by_hands([table])
    names = [s.player.name for s in table.seatings.select_related("player").order_by("seat")]
    return _confirm_page(
        request,
        club=club,
        title=f"Delete table {table.number} of round {table.round.number}",
        what=f"Table {table.number} of round {table.round.number} of {event.name}",
        goes=[f"Its seats: {', '.join(names)}, who then sit at no table in this round"],
        refusal=refused,
        back=back,
        button=f"Delete table {table.number}",
        crumb_url=back,
        crumb=f"Edit {event.name}",
        status=status,
    )


# -- a player -----------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def player_delete(request: HttpRequest, player_id: int) -> HttpResponse:
    """Delete a player with no games (their attendance and sit-outs go too)."""
    player = get_object_or_404(tidy_selectors.player_for_tidy(), pk=player_id)
    club = player.club
    if refusal := club_page_refusal(request, club):
        return refusal
    back = reverse("player-edit", kwargs={"player_id": player.pk})
    status, refused = 200, ""
    if request.method == "POST":
        done, refused = _done_or_refused(
            request,
            lambda: clubs.player_delete(player=player),
            done=f"{player.name} is deleted.",
            then=reverse("club-players", kwargs={"club_id": club.pk}),
        )
        if done is not None:
            return done
        status = 409
    held = tidy_selectors.player_holdings(player=player)
    if not refused and held.games:
        refused = (
            f"{player.name} has {_counted(held.games, 'game')}: a player with games cannot be "
            "deleted. If they were entered twice, merge them into the other; to erase who "
            "they are, anonymise them."
        )
    return _confirm_page(
        request,
        club=club,
        title=f"Delete {player.name}",
        what=f"{player.name}, {'a guest' if player.is_guest else 'a member'} of {club.name}",
        goes=[
            _counted(held.attendance, "game night") + " checked in" if held.attendance else "",
            _counted(held.sit_outs, "round") + " sat out" if held.sit_outs else "",
            "the link to their login" if player.user_id else "",
        ],
        refusal=refused,
        back=back,
        button=f"Delete {player.name}",
        crumb_url=back,
        crumb=f"Edit {player.name}",
        status=status,
    )


class MergeForm(forms.Form):
    """The player kept, one of the club's others."""

    into = forms.TypedChoiceField(
        coerce=int,
        label=_l("The player to keep"),
        help_text=_l("The same person, entered before under this name or another."),
        error_messages={
            "required": _l("Choose the player to keep."),
            "invalid_choice": _l("Choose the player to keep from the list."),
        },
    )

    def __init__(
        self, data: Mapping[str, object] | None = None, *, player: Player, candidates: list[Player]
    ) -> None:
        super().__init__(data)
        field = self.fields["into"]
        assert isinstance(field, forms.TypedChoiceField)
        close = [p for p in candidates if is_close(player.name, p.name)]
        others = [p for p in candidates if p not in close]

        def label(p: Player) -> str:
            return f"{p.name} ({_counted(getattr(p, 'games', 0), 'game')})"

        # a choice, or a group of them: (value, label), (group, [(value, label), ...])
        choices: list[tuple[object, str | list[tuple[int, str]]]] = [("", "Choose…")]
        if close:
            choices.append(("Close names", [(p.pk, label(p)) for p in close]))
        choices.append(("Every other player", [(p.pk, label(p)) for p in others]))
        field.choices = choices


@require_http_methods(["GET", "HEAD", "POST"])
def player_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    """Merge a player entered twice into the one kept: choose (``?into=``), see
    what moves, confirm (POST)."""
    player = get_object_or_404(tidy_selectors.player_for_tidy(), pk=player_id)
    club = player.club
    if refusal := club_page_refusal(request, club):
        return refusal
    candidates = tidy_selectors.merge_candidates(player=player)
    sent = (
        request.POST if request.method == "POST" else request.GET if "into" in request.GET else None
    )
    form = MergeForm(sent, player=player, candidates=candidates)
    into: Player | None = None
    moves: clubs.MergeMoves | None = None
    refused, status = "", 200
    if form.is_bound and form.is_valid():
        into = next(p for p in candidates if p.pk == form.cleaned_data["into"])
        try:
            moves = clubs.check_player_merge(player=player, into=into)
        except ServiceError as error:
            refused, status = sentence(error.message), 409
        else:
            if request.method == "POST":
                try:
                    kept = clubs.player_merge(player=player, into=into)
                except ServiceError as error:
                    refused, status = sentence(error.message), 409
                except IntegrityError:
                    refused, status = RACED, 409
                else:
                    messages.success(request, f"{player.name} is merged into {kept.name}.")
                    return redirect("player-edit", player_id=kept.pk)
    elif form.is_bound:
        status = 400
    return render(
        request,
        "league/organise/player_merge.html",
        {
            "club": club,
            "player": player,
            "form": form,
            "into": into,
            "moves": moves,
            "moved": _moved_words(player, moves) if moves is not None else [],
            "leagues": tidy_selectors.league_names(moves.leagues) if moves is not None else [],
            "refusal": refused,
        },
        status=status,
    )


def _moved_words(player: Player, moves: clubs.MergeMoves) -> list[str]:
    return [
        words
        for words in (
            _counted(moves.games, "game") if moves.games else "",
            _counted(moves.attendance, "game night") + " checked in" if moves.attendance else "",
            _counted(moves.sit_outs, "round") + " sat out" if moves.sit_outs else "",
            _counted(moves.invitations, "invitation") + " naming them" if moves.invitations else "",
            "their login" if moves.login else "",
        )
        if words
    ]


urlpatterns: list[URLPattern] = [
    path("events/<int:event_id>/delete/", event_delete, name="event-delete"),
    path("rounds/<int:round_id>/delete/", round_delete, name="round-delete"),
    path("tables/<int:table_id>/delete/", table_delete, name="table-delete"),
    path("players/<int:player_id>/delete/", player_delete, name="player-delete"),
    path("players/<int:player_id>/merge/", player_merge, name="player-merge"),
]
