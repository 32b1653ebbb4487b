"""The browsable API, without DRF's HTML forms and inline style.

DRF renders a related field of a form as a ``<select>`` of every row it
could name: the form to add a membership listed every user's name, to any
signed-in visitor. The API's writes take JSON (records, lists of ids), so
the browsable pages keep the raw JSON form only, and the list filters take
ids as numbers (:mod:`league.api.filters`).

With pygments installed DRF also writes its code colours into the page as
an inline ``<style>``, which the Content-Security-Policy refuses: the pages
go without (they show JSON, which DRF never colours anyway).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rest_framework.renderers import BrowsableAPIRenderer

if TYPE_CHECKING:
    # DRF loads this module from its settings, as its views are made: nothing that
    # imports them may be imported here
    from rest_framework.request import Request
    from rest_framework.views import APIView


class JSONFormsBrowsableAPIRenderer(BrowsableAPIRenderer):
    """DRF's browsable API with the raw JSON form, no HTML form, no inline style."""

    def get_context(
        self, data: object, accepted_media_type: str | None, renderer_context: Mapping[str, Any]
    ) -> dict[str, Any]:
        context = super().get_context(data, accepted_media_type, renderer_context)
        context["code_style"] = None
        return context

    def get_rendered_html_form(
        self, data: object, view: APIView, method: str, request: Request
    ) -> str | bool | None:
        if method in ("DELETE", "OPTIONS"):  # a button, no fields: DRF shows it when allowed
            shown: str | bool | None = super().get_rendered_html_form(data, view, method, request)
            return shown
        return None
