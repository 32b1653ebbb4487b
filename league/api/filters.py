"""List filters: by club, league, event, player and date.

Every filter by id is an :class:`IdFilter`, a number: a filter on a foreign
key would otherwise be django-filter's choice of every row, which the
browsable API renders as a ``<select>`` listing them all (every user's name,
for memberships) and which answers a missing id differently from one that
exists.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms

from league.models import Event, League, Membership, Player, Round, Table


class IdFilter(django_filters.NumberFilter):
    """An id: a whole number that fits a 64-bit column (SQLite refuses more)."""

    # A NumberFilter still (its schema, its validators) whose form field takes
    # whole numbers only; the stubs give NumberFilter a DecimalField alone.
    field_class = forms.IntegerField  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class MembershipFilter(django_filters.FilterSet):
    club = IdFilter()
    user = IdFilter()

    class Meta:
        model = Membership
        fields = ["club", "user", "role"]


class PlayerFilter(django_filters.FilterSet):
    club = IdFilter()
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Player
        fields = ["club", "name"]


class LeagueFilter(django_filters.FilterSet):
    club = IdFilter()

    class Meta:
        model = League
        fields = ["club", "game"]


class EventFilter(django_filters.FilterSet):
    league = IdFilter()
    club = IdFilter(field_name="league__club")
    date_after = django_filters.DateFilter(field_name="date", lookup_expr="gte")
    date_before = django_filters.DateFilter(field_name="date", lookup_expr="lte")

    class Meta:
        model = Event
        fields = ["league", "club", "date", "date_after", "date_before"]


class RoundFilter(django_filters.FilterSet):
    event = IdFilter()

    class Meta:
        model = Round
        fields = ["event"]


class TableFilter(django_filters.FilterSet):
    round = IdFilter()
    event = IdFilter(field_name="round__event")
    league = IdFilter(field_name="round__event__league")
    player = IdFilter(field_name="seatings__player", distinct=True)
    date = django_filters.DateFilter(field_name="round__event__date")
    date_after = django_filters.DateFilter(field_name="round__event__date", lookup_expr="gte")
    date_before = django_filters.DateFilter(field_name="round__event__date", lookup_expr="lte")
    complete = django_filters.BooleanFilter()

    class Meta:
        model = Table
        fields = ["round", "event", "league", "player", "date", "date_after", "date_before"]
