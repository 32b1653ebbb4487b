"""The web pages' URLs, and a browser client signed in."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.urls import reverse

from league.models import Table


def sheet_url(table: Table) -> str:
    return reverse("score-sheet", kwargs={"table_id": table.pk})


def enter_url(table: Table) -> str:
    return reverse("hand-enter", kwargs={"table_id": table.pk})


def correct_url(table: Table, number: int) -> str:
    return reverse("hand-correct", kwargs={"table_id": table.pk, "number": number})


def signed_in(user: AbstractUser) -> Client:
    """A browser client with ``user`` logged in."""
    client = Client()
    client.force_login(user)
    return client
