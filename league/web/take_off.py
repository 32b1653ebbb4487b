"""Taking a player off a table before its first hand (organisers): the page
that the Tonight page's "Take off" opens.

It shows every way to fill the seat, each with the tables as they would be
(someone present who is not seated takes it, the table plays smaller, or
the round's tables without a hand are drawn again), the proposed one
chosen, and whether the player leaves the night or stays; "Take them off"
stores the choice through :func:`league.services.seat_changes.table_player_remove`
and returns to the Tonight page. Nothing is stored before; a refusal is
shown by the choice it concerns and stores nothing. The seed of a round
drawn again travels in a hidden field, so the tables stored are the ones
shown.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_http_methods

from league.errors import Conflict, ServiceError
from league.models import Player, Table
from league.selectors import tables as tables_selectors
from league.services import seat_changes
from league.users import login_of
from league.web import take_off_words
from league.web.access import club_page_refusal
from league.web.take_off_forms import TakeOffForm

FIELDS = ("replacement", "leaves")
"""The choices a refusal may be shown by; any other is the page's."""


@require_http_methods(["GET", "HEAD", "POST"])
def table_take_off(request: HttpRequest, table_id: int, player_id: int) -> HttpResponse:
    """The choices for taking ``player_id`` off ``table_id`` (GET), or the
    change made (POST), for the club's organisers."""
    try:
        table = tables_selectors.sheet_table(table_id)
    except Table.DoesNotExist:
        raise Http404("no such table") from None
    club = table.round.event.league.club
    if refusal := club_page_refusal(request, club):
        return refusal
    player = get_object_or_404(Player, pk=player_id, club_id=club.pk)
    if request.method != "POST":
        return _page(request, table, player, form=None, seed=None)
    form = TakeOffForm(request.POST)
    if not form.is_valid():
        return _page(request, table, player, form=form, seed=None, status=400)
    data = form.cleaned_data
    try:
        removal = seat_changes.table_player_remove(
            table=table,
            player=player,
            replacement=data["replacement"],
            leaves=data["leaves"],
            seed=data["seed"],
            commit=True,
            by=login_of(request.user),
        )
    except ServiceError as error:
        where = error.field if error.field in FIELDS else "page"
        return _page(
            request,
            table,
            player,
            form=form,
            seed=data["seed"],
            errors={where: take_off_words.sentence(error.message)},
            status=409 if isinstance(error, Conflict) else 400,
        )
    messages.success(request, take_off_words.done_message(removal))
    tonight = reverse("event-tonight", kwargs={"event_id": table.round.event_id})
    return redirect(f"{tonight}#round-{removal.round.number}")


def _page(
    request: HttpRequest,
    table: Table,
    player: Player,
    *,
    form: TakeOffForm | None,
    seed: int | None,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The page: every choice previewed; ``form`` the choices posted (with
    its faults), else the proposed ones."""
    event = table.round.event
    shown_errors: dict[str, str] = dict(errors or {})
    shown: dict[str, object] = {
        "table": table,
        "player": player,
        "event": event,
        "league": event.league,
        "round": table.round,
        "errors": shown_errors,
        "tonight_url": reverse("event-tonight", kwargs={"event_id": event.pk}),
        "here": reverse("table-take-off", kwargs={"table_id": table.pk, "player_id": player.pk}),
    }
    try:
        options = seat_changes.table_player_remove_options(table=table, player=player, seed=seed)
    except ServiceError as error:  # the table or the player: nothing to choose
        shown_errors["page"] = take_off_words.sentence(error.message)
        refused = 409 if isinstance(error, Conflict) else 400
        return render(request, "league/tonight/take_off.html", shown, status=max(status, refused))
    seats = take_off_words.seat_choices(options)
    nights = take_off_words.night_choices(options)
    chosen_seat, chosen_night = _chosen(form, seats, nights)
    if form is not None and form.errors:
        for name, faults in form.errors.items():
            shown_errors[name if name in FIELDS else "page"] = str(faults[0])
    shown.update(
        options=options,
        seats=seats,
        nights=nights,
        chosen_seat=chosen_seat,
        chosen_night=chosen_night,
        seed=options.nobody.seed if options.nobody is not None else None,
        possible=any(not choice.refusal for choice in seats),
    )
    return render(request, "league/tonight/take_off.html", shown, status=status)


def _chosen(
    form: TakeOffForm | None,
    seats: list[take_off_words.SeatChoice],
    nights: list[take_off_words.NightChoice],
) -> tuple[str, str]:
    """The choices shown selected: those posted, else the first possible
    (the proposed replacement; leaving unless it is refused)."""
    if form is not None:
        return str(form.data.get("replacement", "")), str(form.data.get("leaves", ""))
    seat = next((choice.value for choice in seats if not choice.refusal), "")
    night = next((choice.value for choice in nights if not choice.refusal), "0")
    return seat, night


urlpatterns: list[URLPattern] = [
    path(
        "tables/<int:table_id>/take-off/<int:player_id>/",
        table_take_off,
        name="table-take-off",
    ),
]
