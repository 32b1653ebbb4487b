"""The language of a page, and the switch that chooses it (docs/translating.md).

A request's language is the first of:

1. the login's own choice (its account page, or the switch used while signed
   in), kept in :class:`~league.models.LoginLanguage` and copied into the
   session at login and when chosen, so that it costs no query here;
2. the switch's cookie (``LANGUAGE_COOKIE_NAME``), set by :func:`language_set`;
3. the browser's ``Accept-Language``, the first language in it that the site
   has (``en-us`` is English, ``pt`` is none);
4. on a club's pages (a club, its leagues, game nights, players, tables, pads,
   table and personal links), the club's default language
   (:attr:`~league.models.Club.language`);
5. ``LANGUAGE_CODE`` (en-gb).

The club's language costs no query either: those pages load their club anyway
(its name is in every one's crumbs), and :class:`LanguageMiddleware` takes the
language from the first club the view loads (``post_init``), switching to it
before the view translates or renders anything with it. A page of a club that
loaded no club would stay in English; none does.

It replaces Django's ``LocaleMiddleware`` (no language in the URLs here) and
sits after the session's and the login's middleware, which it reads. Pages
answer ``Content-Language`` and vary on ``Accept-Language`` and ``Cookie``;
problem details on ``Accept-Language``; downloads, feeds and the API's data,
the same in every language, on neither.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_init
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from league.models import Club, LoginLanguage
from league.services import clubs
from league.services import languages as language_services
from league.users import SiteUser, login_of
from league.web.access import club_page_refusal

PROBLEM_CONTENT_TYPE: Final = "application/problem+json"
"""The API's errors (league/api/problems.py, which the pages' layer does not import)."""

SESSION_KEY: Final = "league_language"
"""The session's copy of the login's own choice of language."""

CLUB_URL_KWARGS: Final = frozenset(
    {"club_id", "league_id", "event_id", "round_id", "table_id", "player_id", "token"}
)
"""A page whose URL names one of these is a club's page: the club's language is
its fallback (``token``: a table's or a player's link)."""


def supported(code: str | None) -> str | None:
    """``code`` as one of ``LANGUAGES`` (``en`` and ``en-us`` are ``en-gb``), or
    ``None`` for a language the site does not have."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def browser_language(request: HttpRequest) -> str | None:
    """The first language of the request's ``Accept-Language`` the site has, or
    ``None`` (no header, or only languages it lacks: then the club's counts)."""
    from django.utils.translation.trans_real import parse_accept_lang_header

    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if code == "*":
            return None
        found = supported(code)
        if found is not None:
            return found
    return None


def chosen_language(request: HttpRequest) -> str | None:
    """The language the visitor chose (their stored choice, else the switch's
    cookie), or ``None``. Reads the session only where there is one."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES and hasattr(request, "session"):
        own = supported(request.session.get(SESSION_KEY))
        if own is not None:
            return own
    return supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


@dataclass
class _ClubFallback:
    """A request whose language is still the club's to decide: the club, once its
    page has loaded it, and which one (a page naming ``club_id`` waits for that club)."""

    club_id: int | None
    decided: bool = False


_waiting: contextvars.ContextVar[_ClubFallback | None] = contextvars.ContextVar(
    "league_language_club_fallback", default=None
)


@receiver(post_init, sender=Club)
def _club_loaded(sender: type[Club], instance: Club, **kwargs: Any) -> None:
    """A club's page has loaded its club: its language becomes the page's, where
    nothing above it in the order decided (no query: the field is read as
    loaded, and left alone where a query deferred it)."""
    waiting = _waiting.get()
    if waiting is None or waiting.decided or instance.pk is None:
        return
    if waiting.club_id is not None and instance.pk != waiting.club_id:
        return
    waiting.decided = True
    language = supported(instance.__dict__.get("language"))
    if language is not None:
        translation.activate(language)


@receiver(user_logged_in)
def _copy_choice_at_login(sender: object, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """The login's own choice into its new session (one query, at login only)."""
    choice = LoginLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    if choice and request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = choice


class LanguageMiddleware:
    """Activates the request's language (the module's order), answers it in
    ``Content-Language``, and varies on what chose it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = chosen_language(request) or browser_language(request)
        if language is None:
            # the club's, if this is a club's page that loads it (process_view)
            request.league_language_fallback = True  # type: ignore[attr-defined]
            language = settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        try:
            response = self.get_response(request)
        finally:
            fallback_token = getattr(request, "league_language_token", None)
            if fallback_token is not None:
                _waiting.reset(fallback_token)
        # Only what is written in a language varies with it: a page (which the
        # switch's cookie and the session choose too), a problem's detail; a
        # download, a calendar, the API's data are the same in every language.
        kind = response.get("Content-Type", "")
        if kind.startswith("text/html"):
            response.headers.setdefault("Content-Language", translation.get_language())
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        elif kind.startswith(PROBLEM_CONTENT_TYPE):
            response.headers.setdefault("Content-Language", translation.get_language())
            patch_vary_headers(response, ("Accept-Language",))
        translation.deactivate()
        return response

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponse],
        args: tuple[object, ...],
        kwargs: dict[str, object],
    ) -> None:
        if not getattr(request, "league_language_fallback", False):
            return None
        if not CLUB_URL_KWARGS.intersection(kwargs):
            return None
        club_id = kwargs.get("club_id")
        request.league_language_token = _waiting.set(  # type: ignore[attr-defined]
            _ClubFallback(club_id=club_id if isinstance(club_id, int) else None)
        )
        return None


def _safe_next(request: HttpRequest) -> str:
    """Where the switch returns to: the page it was used on, if it is this site's."""
    wanted = request.POST.get("page") or request.headers.get("Referer") or "/"
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return "/"


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The switch (every page's, base.html): the chosen language in a cookie and,
    for a signed-in user, as their own choice too (else the switch would do
    nothing for them once they had chosen on their account page); back to the
    page it was used on. CSRF-protected, as every POST; an unknown language
    changes nothing."""
    answer = HttpResponseRedirect(_safe_next(request))
    language = supported(request.POST.get("language"))
    if language is None or language != request.POST.get("language"):
        return answer
    user: SiteUser = request.user
    if user.is_authenticated:
        language_services.login_language_set(login_of(user), language)
        request.session[SESSION_KEY] = language
    answer.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE or request.is_secure(),
        httponly=True,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
    )
    return answer


def remember_choice(request: HttpRequest, language: str) -> None:
    """A signed-in user's choice just saved (their account page): this session
    shows it from the next page on."""
    if language:
        request.session[SESSION_KEY] = language
    else:
        request.session.pop(SESSION_KEY, None)


class AccountLanguageForm(forms.Form):
    """A login's own language, on its account page; blank: none of its own."""

    language = forms.ChoiceField(
        label=_("Language of your pages and mails"),
        required=False,
        choices=[("", _("As your browser or your club says")), *settings.LANGUAGES],
    )


def club_language_field() -> forms.ChoiceField:
    """A club's default language, on its form (league/web/organise_forms.py)."""
    return forms.ChoiceField(
        choices=[("", _("None: each visitor's own")), *settings.LANGUAGES],
        required=False,
        label=_("The club's language"),
        help_text=_(
            "Its pages and mails for visitors and players who chose no language "
            "and whose browser asks for none of the site's."
        ),
    )


def account_language_form(request: HttpRequest) -> AccountLanguageForm:
    """The form as the account page shows it: the choice kept in the session."""
    return AccountLanguageForm(initial={"language": request.session.get(SESSION_KEY, "")})


class ClubLanguageForm(forms.Form):
    """A club's default language, on its own page (``/clubs/<id>/language/``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"] = club_language_field()


@require_http_methods(["GET", "HEAD", "POST"])
def club_language(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's default language (organisers): the language of its pages, pads and
    mails for whoever chose none and whose browser asks for none of the site's."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    form = ClubLanguageForm(request.POST or None, initial={"language": club.language})
    if request.method == "POST" and form.is_valid():
        language = form.cleaned_data["language"]
        clubs.club_update(club=club, language=language)
        names = dict(settings.LANGUAGES)
        messages.success(
            request,
            gettext("The club's pages are in %(language)s for those who chose no language.")
            % {"language": names[language]}
            if language
            else gettext("The club has no language of its own now: each visitor's is taken."),
        )
        return redirect("club-manage", club_id=club.pk)
    return render(
        request,
        "league/organise/club_language.html",
        {"club": club, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def account_language(request: HttpRequest) -> HttpResponse:
    """The account page's language field saved: the login's own choice, which
    its pages show from now on and its mails follow."""
    form = AccountLanguageForm(request.POST)
    if form.is_valid():
        language = form.cleaned_data["language"]
        language_services.login_language_set(login_of(request.user), language)
        remember_choice(request, language)
        if language:
            translation.activate(language)
        messages.success(request, gettext("Your language is saved."))
    else:
        messages.error(request, gettext("Nothing changed: choose one of the languages listed."))
    return redirect("account")


urlpatterns = [
    path("language/", language_set, name="language-set"),
    path("accounts/language/", account_language, name="account-language"),
    path("clubs/<int:club_id>/language/", club_language, name="club-language"),
]
