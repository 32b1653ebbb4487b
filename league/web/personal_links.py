"""The organisers' pages of players' personal links (:mod:`league.services.replies`).

- ``clubs/<id>/personal-links/``: every player of the club with their link's
  state and their login's address; for the players ticked, **print cards** (a
  new link each, printed as a card with a QR code: a sheet of the regulars'
  cards), **mail links** (a new link each, mailed to their login's address)
  or **revoke** their links.
- ``players/<id>/personal-link/``: one player's link: make a new one (shown
  with its QR code on the answer, once), mail a new one to an address typed,
  or revoke it.

A link's secret is known only when it is made, so the answers that show one
(the cards, a new link) are the answers to the POST itself, never stored
(``no-store``), never redirected to; making a link replaces the player's
link, whose card or mail stops working. Mail goes out in the request, through
one connection, bounded (:func:`league.mails.personal_links_mail`) and counted
against ``PERSONAL_LINK_MAIL_RATE`` (429 past it: nothing made). For the
club's organisers only (:func:`league.web.access.club_page_refusal`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from league import mails
from league.models import Club, Player
from league.ratelimits import personal_link_mails_over_limit
from league.selectors import replies as replies_selectors
from league.services import replies
from league.services.replies import NewPersonalLink
from league.web.access import club_page_refusal
from league.web.personal_links_forms import MailForm, PlayersForm
from league.web.qr import qr_svg

TOO_MANY_MAILS = gettext_lazy(
    "You have mailed many links in the last hour: nothing was made or sent. "
    "Mail the next ones a little later, or print cards."
)


@dataclass(frozen=True)
class Card:
    """A player's card: their name, their new link and its QR code."""

    player: Player
    url: str
    qr: SafeString


def _url(request: HttpRequest, made: NewPersonalLink) -> str:
    return request.build_absolute_uri(reverse("personal-link", kwargs={"token": made.token}))


def _card(request: HttpRequest, made: NewPersonalLink) -> Card:
    url = _url(request, made)
    label = _("QR code of %(name)s's personal link") % {"name": made.link.player.name}
    return Card(player=made.link.player, url=url, qr=qr_svg(url, label=label))


def _mail(request: HttpRequest, made: list[tuple[NewPersonalLink, str]], club: Club) -> set[int]:
    """Mail each new link to its address; the ids of the players mailed."""
    return mails.personal_links_mail(
        [
            mails.PersonalLinkMail(
                player_id=new.link.player_id,
                player_name=new.link.player.name,
                club_name=club.name,
                email=email,
                url=_url(request, new),
            )
            for new, email in made
        ]
    )


def _names(players: list[Player]) -> str:
    names = [player.name for player in players]
    if len(names) == 1:
        return names[0]
    # Translators: the end of a list of names in a sentence, "Ada, Adam and Adaa".
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


# -- the club's links --------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def club_personal_links(request: HttpRequest, club_id: int) -> HttpResponse:
    """Every player with their link; print cards, mail or revoke for those ticked."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    lines = replies_selectors.club_link_lines(club_id=club.pk)
    if request.method != "POST":
        return _links_page(request, club, lines, form=None)
    form = PlayersForm(request.POST, player_ids=[line.player.pk for line in lines])
    if not form.is_valid():
        return _links_page(request, club, lines, form=form, status=400)
    chosen_ids = set(form.cleaned_data["players"])
    chosen = [line for line in lines if line.player.pk in chosen_ids]
    action = form.cleaned_data["action"]
    if action == "revoke":
        revoked = [
            line.player for line in chosen if replies.personal_link_revoke(player=line.player)
        ]
        if not revoked:
            text = _("None of those players had a link.")
        elif len(revoked) == 1:
            text = _("The link of %(name)s no longer works.") % {"name": revoked[0].name}
        else:
            text = _("The links of %(names)s no longer work.") % {"names": _names(revoked)}
        messages.success(request, text)
        return redirect("club-personal-links", club_id=club.pk)
    if action == "mail":
        return _mail_chosen(request, club, lines, form, chosen)
    made = replies.personal_links_create(players=[line.player for line in chosen], by=request.user)
    response = render(
        request,
        "league/personal/cards.html",
        {"club": club, "cards": [_card(request, new) for new in made]},
    )
    add_never_cache_headers(response)
    return response


def _mail_chosen(
    request: HttpRequest,
    club: Club,
    lines: list[replies_selectors.LinkLine],
    form: PlayersForm,
    chosen: list[replies_selectors.LinkLine],
) -> HttpResponse:
    """New links mailed to the chosen players who have a login's address."""
    with_address = [line for line in chosen if line.email]
    without = [line.player for line in chosen if not line.email]
    if not with_address:
        form.add_error(
            "players",
            _(
                "None of those players has a login with an email address: print their cards, "
                "or mail each one's link from their own page, to an address you type."
            ),
        )
        return _links_page(request, club, lines, form=form, status=400)
    if personal_link_mails_over_limit(request, mails=len(with_address)):
        form.add_error(None, TOO_MANY_MAILS)
        return _links_page(request, club, lines, form=form, status=429)
    made = replies.personal_links_create(
        players=[line.player for line in with_address], by=request.user
    )
    sent = _mail(
        request, [(new, line.email) for new, line in zip(made, with_address, strict=True)], club
    )
    mailed = [line.player for line in with_address if line.player.pk in sent]
    failed = [line.player for line in with_address if line.player.pk not in sent]
    if mailed:
        messages.success(request, _("Mailed a new link to %(names)s.") % {"names": _names(mailed)})
    if failed:
        messages.error(
            request,
            _(
                "The mail to %(names)s could not be sent: their new link was made but "
                "reaches nobody. Mail it again, or print their cards."
            )
            % {"names": _names(failed)},
        )
    if without:
        messages.info(
            request,
            _(
                "%(names)s: no login with an address, so nothing was made for them. "
                "Print their cards, or mail from their own page."
            )
            % {"names": _names(without)},
        )
    return redirect("club-personal-links", club_id=club.pk)


def _links_page(
    request: HttpRequest,
    club: Club,
    lines: list[replies_selectors.LinkLine],
    *,
    form: PlayersForm | None,
    status: int = 200,
) -> HttpResponse:
    chosen: set[str] = set(request.POST.getlist("players")) if form is not None else set()
    errors: dict[str, list[str]] = (
        {name: [str(text) for text in texts] for name, texts in form.errors.items()}
        if form is not None
        else {}
    )
    shown: dict[str, object] = {
        "club": club,
        "lines": lines,
        "chosen": chosen,
        "players_error": " ".join(errors.get("players", [])),
        "form_error": " ".join(errors.get("__all__", []) + errors.get("action", [])),
        "with_links": sum(1 for line in lines if line.link is not None),
        "mails_at_once": mails.PERSONAL_LINK_MAILS_AT_ONCE,
    }
    return render(request, "league/personal/links.html", shown, status=status)


# -- one player's link ---------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def player_personal_link(request: HttpRequest, player_id: int) -> HttpResponse:
    """One player's link: make a new one, mail a new one, or revoke it."""
    try:
        player = replies_selectors.player_for_link(player_id)
    except Player.DoesNotExist:
        raise Http404("no such player") from None
    if refusal := club_page_refusal(request, player.club):
        return refusal
    login_email = (player.user.email if player.user is not None else "") or ""
    mail_form = MailForm(initial={"email": login_email})
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "revoke":
            had = replies.personal_link_revoke(player=player)
            text = (
                _("The link no longer works.")
                if had
                else _("%(name)s had no link.") % {"name": player.name}
            )
            messages.success(request, text)
            return redirect("player-personal-link", player_id=player.pk)
        if action == "make":
            new = replies.personal_link_create(player=player, by=request.user)
            return _player_page(request, player, mail_form, card=_card(request, new))
        if action != "mail":
            return _player_page(
                request, player, mail_form, status=400, error=_("The page sent an unknown request.")
            )
        mail_form = MailForm(request.POST)
        if not mail_form.is_valid():
            return _player_page(request, player, mail_form, status=400)
        if personal_link_mails_over_limit(request, mails=1):
            return _player_page(request, player, mail_form, status=429, error=str(TOO_MANY_MAILS))
        new = replies.personal_link_create(player=player, by=request.user)
        email = mail_form.cleaned_data["email"]
        if _mail(request, [(new, email)], player.club):
            messages.success(
                request,
                _("Mailed %(name)s a new link, to %(email)s.")
                % {"name": player.name, "email": email},
            )
            return redirect("player-personal-link", player_id=player.pk)
        return _player_page(
            request,
            player,
            mail_form,
            card=_card(request, new),
            status=200,
            error=_("The mail could not be sent. The new link is below: copy it, or print it."),
        )
    return _player_page(request, player, mail_form)


def _player_page(
    request: HttpRequest,
    player: Player,
    mail_form: MailForm,
    *,
    card: Card | None = None,
    status: int = 200,
    error: str = "",
) -> HttpResponse:
    if card is not None:
        player = replies_selectors.player_for_link(player.pk)  # its new link
    response = render(
        request,
        "league/personal/player_link.html",
        {
            "club": player.club,
            "player": player,
            "link": getattr(player, "personal_link", None),
            "mail_form": mail_form,
            "card": card,
            "error": error,
        },
        status=status,
    )
    if card is not None:
        add_never_cache_headers(response)
    return response


urlpatterns: list[URLPattern] = [
    path("clubs/<int:club_id>/personal-links/", club_personal_links, name="club-personal-links"),
    path(
        "players/<int:player_id>/personal-link/", player_personal_link, name="player-personal-link"
    ),
]
