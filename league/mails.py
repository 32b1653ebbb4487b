"""Mail: a password reset's link, sent by a job; players' personal links,
sent in the organiser's request.

A personal link's secret is known only when it is made, so its mail goes out
in the request that makes it (:func:`personal_links_mail`), as an invitation's
does: through one connection to the mail server, each call bounded by
``EMAIL_TIMEOUT``, at most :data:`PERSONAL_LINK_MAILS_AT_ONCE` mails a
request; a mail the server refuses is reported, not retried (the organiser
sends it again, which makes a new link).

The request that asks for a reset records a
:class:`~league.models.PasswordResetAsked` row and owes this job
(:func:`league.services.accounts.password_reset_ask`), whatever the address,
and answers: the mail server is never waited for in the request, and the
request does the same work for an address no login has, so neither its time
nor its answer tells whether one has it. The job, after the response (a worker,
or the web process's job thread without a broker), looks the address's logins
up and mails each a link made as it sends, Django's password reset token
(:data:`~django.contrib.auth.tokens.default_token_generator`): no link is
ever stored.

Safe to run twice at once: the row is locked while its mails go out and
deleted when they have, so a second run finds it gone. A mail server that
fails (each call bounded by ``EMAIL_TIMEOUT``) fails the job: the row stays
and the sweep sends the job again (:mod:`league.outbox`), until
:data:`GIVE_UP_AFTER`, past which the reset is dropped, logged (whoever asked
has asked again, or given up). A process that dies after the server took a
mail and before the row is deleted sends that mail again: a reset is mailed
at least once, not exactly once.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from league import outbox
from league.models import JobOwed, LoginLanguage, PasswordResetAsked, Player
from league.users import Login

logger = logging.getLogger(__name__)

GIVE_UP_AFTER: Final = datetime.timedelta(hours=1)
"""How long a reset's mail is tried again after it was asked for."""


def mail_language(*, own: str | None = "", club: str | None = "", asked: str | None = "") -> str:
    """The language of a mail to one person (docs/translating.md): their own
    choice, else their club's default, else the language of the page that sent
    it (``asked``; the current one where not given), else the site's."""
    codes = {code for code, _name in settings.LANGUAGES}
    for language in (own, club, asked or translation.get_language()):
        if language in codes:
            return language
    return str(settings.LANGUAGE_CODE)


def own_language(*, username: str) -> str:
    """The language the login named ``username`` chose, or ``""`` (one query)."""
    found = (
        LoginLanguage.objects.filter(user__username=username)
        .values_list("language", flat=True)
        .first()
    )
    return found or ""


EMAIL_TEMPLATE: Final = "registration/password_reset_email.txt"
SUBJECT_TEMPLATE: Final = "registration/password_reset_subject.txt"


def password_reset_send(asked_id: int) -> int:
    """Mail the link of the reset asked ``asked_id`` to each active login with
    its address, and delete the row; returns how many mails were sent (0 for
    an address no login has, or a reset sent already)."""
    with outbox.running(JobOwed.Kind.PASSWORD_RESET, asked_id):
        asked = PasswordResetAsked.objects.select_for_update().filter(pk=asked_id).first()
        if asked is None:  # sent by another run
            return 0
        if asked.asked_at < timezone.now() - GIVE_UP_AFTER:
            logger.warning("the password reset %s was not mailed within an hour: dropped", asked_id)
            asked.delete()
            return 0
        sent = 0
        for user in logins_by_email(asked.email):
            _mail_link(user, asked)
            sent += 1
        asked.delete()
        return sent


def logins_by_email(email: str) -> Iterator[Login]:
    """The active logins whose address is ``email``, whatever its case.

    Unlike Django's password reset, a login that has not chosen a password
    yet is one of them: an invited user who lost their link gets a new one at
    the address they were invited with (Django leaves them out, for sites
    where an unusable password means a login managed elsewhere; this site has
    none)."""
    user_model = get_user_model()
    email_field = user_model.get_email_field_name()
    users = user_model._default_manager.filter(
        **{f"{email_field}__iexact": email, "is_active": True}
    ).order_by("pk")
    return (user for user in users if getattr(user, email_field).casefold() == email.casefold())


def _mail_link(user: Login, asked: PasswordResetAsked) -> None:
    """Mail ``user`` a link to choose a new password, made now; raises if the
    mail server refuses or does not answer."""
    email_field = user.get_email_field_name()
    own = LoginLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    shown = {
        "email": getattr(user, email_field),
        "domain": asked.domain,
        "site_name": asked.domain,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": asked.protocol,
    }
    with translation.override(mail_language(own=own, asked=asked.language)):
        subject = " ".join(render_to_string(SUBJECT_TEMPLATE, shown).split())
        body = render_to_string(EMAIL_TEMPLATE, shown)
    EmailMultiAlternatives(subject, body, None, [shown["email"]]).send()


# -- players' personal links, mailed in the request ------------------------------------

PERSONAL_LINK_MAILS_AT_ONCE: Final = 30
"""The most personal links one request mails: a mail server that takes a few
seconds a mail keeps the organiser's page well within its time."""

PERSONAL_LINK_EMAIL_TEMPLATE: Final = "league/personal/link_email.txt"
PERSONAL_LINK_SUBJECT_TEMPLATE: Final = "league/personal/link_subject.txt"


@dataclass(frozen=True)
class PersonalLinkMail:
    """One player's personal link to mail: to whom, and what it opens."""

    player_id: int
    player_name: str
    club_name: str
    email: str
    url: str


def personal_links_mail(mails: Sequence[PersonalLinkMail]) -> set[int]:
    """Mail each player their personal link, through one connection to the
    mail server; the ids of the players whose mail went out (a mail refused,
    or a server that fails or does not answer, leaves the rest unsent:
    logged, never raised). At most :data:`PERSONAL_LINK_MAILS_AT_ONCE`."""
    if len(mails) > PERSONAL_LINK_MAILS_AT_ONCE:
        raise ValueError(f"at most {PERSONAL_LINK_MAILS_AT_ONCE} personal links a request")
    sent: set[int] = set()
    if not mails:
        return sent
    # each player's language: their login's choice, else their club's (one query)
    languages = {
        player_id: (own, club)
        for player_id, own, club in Player.objects.filter(
            pk__in=[mail.player_id for mail in mails]
        ).values_list("pk", "user__language_choice__language", "club__language")
    }
    try:
        with get_connection(fail_silently=False) as connection:
            for mail in mails:
                shown = {
                    "player_name": mail.player_name,
                    "club_name": mail.club_name,
                    "url": mail.url,
                }
                own, club = languages.get(mail.player_id, ("", ""))
                with translation.override(mail_language(own=own, club=club)):
                    subject = " ".join(
                        render_to_string(PERSONAL_LINK_SUBJECT_TEMPLATE, shown).split()
                    )
                    body = render_to_string(PERSONAL_LINK_EMAIL_TEMPLATE, shown)
                message = EmailMultiAlternatives(
                    subject, body, None, [mail.email], connection=connection
                )
                try:
                    message.send()
                except smtplib.SMTPRecipientsRefused:
                    logger.warning(
                        "the mail server refused the address of player %s", mail.player_id
                    )
                    continue
                sent.add(mail.player_id)
    except (smtplib.SMTPException, OSError):
        logger.exception("could not mail personal links: %s of %s sent", len(sent), len(mails))
    return sent
