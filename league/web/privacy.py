"""A club's privacy, and a player's own data (issue 28 item 14).

- **Who sees the club's results** (organisers, ``/clubs/<id>/privacy/``):
  anyone, or the club's members alone (a role in it, or a login linked to
  one of its players: :func:`league.access.club_visible`). A members-only
  club's calendar feeds have a private address for calendar apps, which
  cannot log in (shown here and to its members beside each feed), and each
  game night's room screen one for the venue's TV (on the Tonight page).
- **Anonymising a player** (organisers, from the player's page): the name
  replaced, the login unlinked, the games kept
  (:func:`league.services.clubs.player_anonymise`).
- **A player's own data** as a JSON download: for the club's organisers
  (``/players/<id>/data.json``), and for whoever is that player
  (``/accounts/data.json``: every player their login is linked to).
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from league.models import Club, League, Membership, Player, Visibility
from league.selectors import players as players_selectors
from league.services import clubs
from league.web.access import club_page_refusal
from league.web.organise_forms import VISIBILITY_CHOICES


def feed_addresses(request: HttpRequest, club: Club, leagues: list[League]) -> list[dict[str, str]]:
    """The private addresses of a members-only club's calendar feeds (the club's,
    then each league's), absolute, with its feed key."""
    key = clubs.club_feed_key(club=club)
    shown = [
        {
            "name": _("All of %(club)s's game nights") % {"club": club.name},
            "url": reverse("club-calendar", kwargs={"club_id": club.pk}),
        }
    ]
    shown += [
        {"name": league.name, "url": reverse("league-calendar", kwargs={"league_id": league.pk})}
        for league in leagues
    ]
    for item in shown:
        item["url"] = request.build_absolute_uri(f"{item['url']}?key={key}")
    return shown


@require_http_methods(["GET", "HEAD", "POST"])
def club_privacy(request: HttpRequest, club_id: int) -> HttpResponse:
    """Who sees the club's players, results and ratings, and the private
    addresses of a members-only club's calendar feeds."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    error = ""
    if request.method == "POST":
        if request.POST.get("action") == "new_feed_key":
            clubs.club_feed_key(club=club, renew=True)
            messages.success(request, _("The calendar feeds have new private addresses."))
            return redirect("club-privacy", club_id=club.pk)
        visibility = request.POST.get("visibility", "")
        if visibility in Visibility.values:
            clubs.club_update(club=club, visibility=visibility)
            messages.success(
                request,
                _("Only the club's members see its results now.")
                if club.members_only
                else _("Anyone sees the club's results now."),
            )
            return redirect("club-privacy", club_id=club.pk)
        error = _("Choose who sees the club's results.")
    leagues = list(League.objects.filter(club=club).order_by("name"))
    return render(
        request,
        "league/organise/privacy.html",
        {
            "club": club,
            "choices": VISIBILITY_CHOICES,
            "error": error,
            "feeds": feed_addresses(request, club, leagues) if club.members_only else [],
        },
        status=400 if error else 200,
    )


@require_POST
def player_anonymise(request: HttpRequest, player_id: int) -> HttpResponse:
    """Anonymise a player (organisers), once they ticked that they mean it."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    if refusal := club_page_refusal(request, player.club):
        return refusal
    if request.POST.get("confirm") != "yes":
        messages.error(
            request, _("Nothing changed: tick the box to say you mean to anonymise this player.")
        )
        return redirect("player-edit", player_id=player.pk)
    done = clubs.player_anonymise(player=player)
    messages.success(
        request, _("The player is anonymised: now “%(name)s”, games kept.") % {"name": done.name}
    )
    return redirect("club-players", club_id=player.club_id)


@require_safe
def player_data(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's own data, for the club's organisers to hand over on request."""
    player = get_object_or_404(Player.objects.select_related("club", "user"), pk=player_id)
    if refusal := club_page_refusal(request, player.club):
        return refusal
    return _json_download(
        {"players": [players_selectors.player_data(player=player)]}, f"player-{player.pk}-data.json"
    )


@require_safe
@login_required
def account_data(request: HttpRequest) -> HttpResponse:
    """The signed-in user's own data: their login, their roles, and every
    player of any club their login is linked to, with that player's games."""
    user = request.user
    assert isinstance(user, User)  # signed in (login_required)
    players = Player.objects.filter(user=user).select_related("club", "user").order_by("club__name")
    roles = Membership.objects.filter(user=user).select_related("club").order_by("club__name")
    data: dict[str, object] = {
        "login": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "joined": user.date_joined.isoformat() if hasattr(user, "date_joined") else None,
        },
        "roles": [{"club": m.club.name, "role": m.role} for m in roles],
        "players": [players_selectors.player_data(player=player) for player in players],
    }
    return _json_download(data, f"{user.get_username()}-data.json")


def _json_download(data: dict[str, object], filename: str) -> HttpResponse:
    data = {"made_at": timezone.now().isoformat(), **data}
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    add_never_cache_headers(response)  # personal data: no cache keeps it
    return response


urlpatterns: list[URLPattern] = [
    path("clubs/<int:club_id>/privacy/", club_privacy, name="club-privacy"),
    path("players/<int:player_id>/anonymise/", player_anonymise, name="player-anonymise"),
    path("players/<int:player_id>/data.json", player_data, name="player-data"),
    path("accounts/data.json", account_data, name="account-data"),
]
