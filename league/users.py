"""The types of who uses the site, for annotations: ``SiteUser`` is what
``request.user`` holds (a login, or the anonymous user of a request without
one); ``Actor`` is who made a change a service records (a login, or ``None``
for a command, a job or an import run by the site itself)."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

SiteUser: TypeAlias = AbstractBaseUser | AnonymousUser
Actor: TypeAlias = AbstractBaseUser | None
