"""What a new password ends, wherever it was set.

Django tells each entry of ``AUTH_PASSWORD_VALIDATORS`` that a login's
password changed (``password_changed``), from ``User.save()`` after
``set_password()``, whatever called it: a reset link, the password change
page, an invitation's link, the admin, ``manage.py changepassword``. That
makes a validator the one place that sees every new password, so
:class:`PasswordChangeEffects` is listed there, though it refuses no
password: it revokes the login's API tokens and forgets its failed logins
(:func:`league.services.accounts.login_password_changed`), and its help text,
shown by every password form with the rules, says so beforehand.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from league.services.accounts import login_password_changed


class PasswordChangeEffects:
    """An ``AUTH_PASSWORD_VALIDATORS`` entry that takes every password and acts
    when one is set (see the module's docstring)."""

    def validate(self, password: str, user: AbstractBaseUser | None = None) -> None:
        """Every password passes: the other validators are the rules."""

    def password_changed(self, password: str, user: AbstractBaseUser | None = None) -> None:
        """``user``'s password was just saved: end its tokens and failures."""
        if user is not None and user.pk is not None:
            login_password_changed(user=user)

    def get_help_text(self) -> str:
        return _(
            "A new password ends the login's API tokens: programs that use them need new ones."
        )
