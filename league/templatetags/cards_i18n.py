"""Cards named in the page's language in templates (:mod:`league.card_names`):
``{{ "TH"|card_name }}`` ("10 of hearts"), ``{{ "TH"|card_short }}`` ("♥10"),
``{{ "H"|suit_name }}`` ("hearts"). ``{% load cards_i18n %}`` first. The codes
themselves, where a page shows or sends them, stay as they are."""

from __future__ import annotations

from django import template

from league import card_names

register = template.Library()


@register.filter
def card_name(code: object) -> str:
    return card_names.card_name(code)


@register.filter
def card_short(code: object) -> str:
    return card_names.card_short(code)


@register.filter
def suit_name(letter: object) -> str:
    return card_names.suit_name(letter)
