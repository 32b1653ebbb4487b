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
from django.urls import URLPattern, path, reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from league.errors import ServiceError
from league.models import Club, Player, Table
from league.names import is_close
from league.selectors import tidy as tidy_selectors
from league.services import clubs, fixtures
from league.web.access import club_page_refusal
from league.web.organise_forms import sentence

RACED = gettext_lazy("Another change got there first; nothing was changed. Look again and retry.")


def _games(number: int) -> str:
    return ngettext("%(count)d game", "%(count)d games", number) % {"count": number}


def _held_by_hands(tables: list[Table]) -> str:
    """Why tables with hands cannot go, as the service words it, in a sentence."""
    held = "; ".join(
        ngettext(
            "table %(table)d of round %(round)d has %(count)d hand",
            "table %(table)d of round %(round)d has %(count)d hands",
            t.hands_played,
        )
        % {"table": t.number, "round": t.round.number, "count": t.hands_played}
        for t in tables[:3]
    )
    if len(tables) > 3:
        more = len(tables) - 3
        return ngettext(
            "Hands are entered: %(held)s (and %(count)d more table).",
            "Hands are entered: %(held)s (and %(count)d more tables).",
            more,
        ) % {"held": held, "count": more}
    return _("Hands are entered: %(held)s.") % {"held": held}


def _rounds_and_tables(rounds: int, tables: int) -> str:
    """A night's rounds, and its tables if it has any, as the delete page lists them."""
    counted = ngettext("%(count)d round", "%(count)d rounds", rounds) % {"count": rounds}
    if not tables:
        return counted
    return ngettext("%(rounds)s and %(count)d table", "%(rounds)s and %(count)d tables", tables) % {
        "rounds": counted,
        "count": tables,
    }


def _nights_checked_in(number: int) -> str:
    return ngettext(
        "%(count)d game night checked in", "%(count)d game nights checked in", number
    ) % {"count": number}


def _rounds_sat_out(number: int) -> str:
    return ngettext("%(count)d round sat out", "%(count)d rounds sat out", number) % {
        "count": number
    }


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
        return None, str(RACED)
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
            done=_("The game night “%(name)s” is deleted.") % {"name": event.name},
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
        title=_("Delete the game night %(name)s") % {"name": event.name},
        what=_("%(name)s, %(date)s, of %(league)s")
        % {
            "name": event.name,
            "date": date_format(event.date, "l j E Y"),
            "league": event.league.name,
        },
        goes=[
            _rounds_and_tables(len(rounds), tables),
            ngettext("%(count)d player checked in", "%(count)d players checked in", attending)
            % {"count": attending}
            if attending
            else "",
        ],
        refusal=refused or (_held_by_hands(held) if held else ""),
        back=back,
        button=_("Delete %(name)s") % {"name": event.name},
        crumb_url=back,
        crumb=_("Edit %(name)s") % {"name": event.name},
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
            done=_("Round %(number)d of “%(name)s” is deleted.")
            % {"number": round_.number, "name": event.name},
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
            refused = _("It is the night's only round: delete the game night instead.")
        elif drawn := [row.round.number for row in later if row.tables]:
            refused = _("Round %(number)d is drawn: delete the later rounds first, last first.") % {
                "number": drawn[-1]
            }
    goes = (
        [
            ngettext(
                "%(count)d table and their seats",
                "%(count)d tables and their seats",
                len(mine.tables),
            )
            % {"count": len(mine.tables)}
        ]
        if mine.tables
        else []
    )
    if later:
        goes.append(
            ngettext(
                "Round %(rounds)s becomes %(numbers)s; the players' rounds follow",
                "Rounds %(rounds)s become %(numbers)s; the players' rounds follow",
                len(later),
            )
            % {
                "rounds": ", ".join(str(r.round.number) for r in later),
                "numbers": ", ".join(str(r.round.number - 1) for r in later),
            }
        )
    return _confirm_page(
        request,
        club=club,
        tables=mine.tables,
        title=_("Delete round %(number)d of %(name)s")
        % {"number": round_.number, "name": event.name},
        what=_("Round %(number)d of %(name)s (%(date)s)")
        % {"number": round_.number, "name": event.name, "date": date_format(event.date, "j E Y")},
        goes=goes,
        refusal=refused,
        back=back,
        button=_("Delete round %(number)d") % {"number": round_.number},
        crumb_url=back,
        crumb=_("Edit %(name)s") % {"name": event.name},
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
            done=_("Table %(table)d of round %(round)d is deleted.")
            % {"table": table.number, "round": table.round.number},
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
        title=_("Delete table %(table)d of round %(round)d")
        % {"table": table.number, "round": table.round.number},
        what=_("Table %(table)d of round %(round)d of %(name)s")
        % {"table": table.number, "round": table.round.number, "name": event.name},
        goes=[
            _("Its seats: %(names)s, who then sit at no table in this round")
            % {"names": ", ".join(names)}
        ],
        refusal=refused,
        back=back,
        button=_("Delete table %(table)d") % {"table": table.number},
        crumb_url=back,
        crumb=_("Edit %(name)s") % {"name": event.name},
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
            done=_("%(name)s is deleted.") % {"name": player.name},
            then=reverse("club-players", kwargs={"club_id": club.pk}),
        )
        if done is not None:
            return done
        status = 409
    held = tidy_selectors.player_holdings(player=player)
    if not refused and held.games:
        refused = ngettext(
            "%(name)s has %(count)d game: a player with games cannot be deleted. If they were "
            "entered twice, merge them into the other; to erase who they are, anonymise them.",
            "%(name)s has %(count)d games: a player with games cannot be deleted. If they were "
            "entered twice, merge them into the other; to erase who they are, anonymise them.",
            held.games,
        ) % {"name": player.name, "count": held.games}
    return _confirm_page(
        request,
        club=club,
        title=_("Delete %(name)s") % {"name": player.name},
        what=(
            _("%(name)s, a guest of %(club)s")
            if player.is_guest
            else _("%(name)s, a member of %(club)s")
        )
        % {"name": player.name, "club": club.name},
        goes=[
            _nights_checked_in(held.attendance) if held.attendance else "",
            _rounds_sat_out(held.sit_outs) if held.sit_outs else "",
            _("the link to their login") if player.user_id else "",
        ],
        refusal=refused,
        back=back,
        button=_("Delete %(name)s") % {"name": player.name},
        crumb_url=back,
        crumb=_("Edit %(name)s") % {"name": player.name},
        status=status,
    )


class MergeForm(forms.Form):
    """The player kept, one of the club's others."""

    into = forms.TypedChoiceField(
        coerce=int,
        label=gettext_lazy("The player to keep"),
        help_text=gettext_lazy("The same person, entered before under this name or another."),
        error_messages={
            "required": gettext_lazy("Choose the player to keep."),
            "invalid_choice": gettext_lazy("Choose the player to keep from the list."),
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
            return f"{p.name} ({_games(getattr(p, 'games', 0))})"

        # a choice, or a group of them: (value, label), (group, [(value, label), ...])
        choices: list[tuple[object, str | list[tuple[int, str]]]] = [("", _("Choose…"))]
        if close:
            choices.append((_("Close names"), [(p.pk, label(p)) for p in close]))
        choices.append((_("Every other player"), [(p.pk, label(p)) for p in others]))
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
                    refused, status = str(RACED), 409
                else:
                    messages.success(
                        request,
                        _("%(name)s is merged into %(kept)s.")
                        % {"name": player.name, "kept": kept.name},
                    )
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
            _games(moves.games) if moves.games else "",
            _nights_checked_in(moves.attendance) if moves.attendance else "",
            _rounds_sat_out(moves.sit_outs) if moves.sit_outs else "",
            ngettext(
                "%(count)d invitation naming them",
                "%(count)d invitations naming them",
                moves.invitations,
            )
            % {"count": moves.invitations}
            if moves.invitations
            else "",
            _("their login") if moves.login else "",
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
