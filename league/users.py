"""The types of who uses the site, for annotations: ``Login`` is a signed-in
user; ``SiteUser`` is what ``request.user`` holds (a login, or the anonymous
user of a request without one); ``Actor`` is who made a change a service
records (a login, or ``None`` for a command, a job or an import run by the site
itself). :func:`login_of` is a request's user where a check has proved it a login.

A login is Django's ``User``: the site keeps Django's user model
(``AUTH_USER_MODEL`` is not set), and it is the type django-stubs gives
``request.user`` and every foreign key to a login, so that a ``Login`` can be
stored in one (an ``AbstractBaseUser`` could not)."""

from __future__ import annotations

from typing import TypeAlias, cast

from django.contrib.auth.models import AnonymousUser, User

Login: TypeAlias = User
SiteUser: TypeAlias = Login | AnonymousUser
Actor: TypeAlias = Login | None


def login_of(user: SiteUser) -> Login:
    """``user``, a request's, as the login it is where a check has just proved
    it signed in (a page behind ``login_required``, a role in a club checked, which
    only a login holds): for the types only, with no check of its own, so that a
    service that records who made a change, or a read of a login's own rows, is
    given a login."""
    return cast(Login, user)
