"""Form widgets written straight to HTML, for pages with hundreds of inputs.

Why: Django draws each widget through a template (``input.html``, which
includes ``attrs.html``; a select's each option through its own). That costs
about a millisecond an input, unnoticed on a form of ten but a third of a
second on a 25-hand pad (250 inputs: the page of a pad sent a row at a time
took 350 ms, 25 ms of it storing the hand). :class:`DirectRenderer` writes
the HTML of the plain widgets the hand forms use (text-like inputs, hidden
inputs, checkboxes, selects without option groups) itself, the same markup
the templates write (``tests/web/test_widget_html.py`` compares them), and
hands any other widget to the templates.

>>> from django import forms
>>> class Example(forms.Form):
...     bid = forms.IntegerField(widget=forms.NumberInput(attrs={"min": 1}))
>>> print(Example({"bid": "2"}, renderer=DirectRenderer())["bid"])
<input type="number" name="bid" value="2" min="1" required id="id_bid">
"""

from __future__ import annotations

from typing import Any, Final

from django.forms.renderers import DjangoTemplates
from django.http import HttpRequest
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

INPUT_TEMPLATES: Final = frozenset(
    f"django/forms/widgets/{name}.html"
    for name in ("input", "text", "number", "hidden", "checkbox", "email", "password", "url")
)
SELECT_TEMPLATE: Final = "django/forms/widgets/select.html"
OPTION_TEMPLATE: Final = "django/forms/widgets/select_option.html"


def _attrs(attrs: dict[str, Any]) -> str:
    """``attrs.html``: ``True`` as a bare name, ``False`` left out."""
    written = []
    for name, value in attrs.items():
        if value is False:
            continue
        written.append(f" {name}" if value is True else f' {name}="{conditional_escape(value)}"')
    return "".join(written)


def _input(widget: dict[str, Any]) -> str:
    value = widget["value"]
    shown = "" if value is None else f' value="{conditional_escape(value)}"'
    kind, name = conditional_escape(widget["type"]), conditional_escape(widget["name"])
    return f'<input type="{kind}" name="{name}"{shown}{_attrs(widget["attrs"])}>'


def _option(option: dict[str, Any]) -> str:
    return (
        f'<option value="{conditional_escape(option["value"])}"{_attrs(option["attrs"])}>'
        f"{conditional_escape(option['label'])}</option>"
    )


def _select(widget: dict[str, Any]) -> str | None:
    """``select.html`` for a select without option groups (``None`` with them)."""
    options = []
    for group_name, group, _ in widget["optgroups"]:
        if group_name:
            return None
        for option in group:
            if option["template_name"] != OPTION_TEMPLATE:
                return None
            options.append(f"\n  {_option(option)}\n")  # the option template ends a line
    name = conditional_escape(widget["name"])
    return f'<select name="{name}"{_attrs(widget["attrs"])}>{"".join(options)}\n</select>'


class DirectRenderer(DjangoTemplates):
    """Django's default form renderer, but for the plain widgets, which it
    writes itself (see the module's docstring)."""

    def render(
        self, template_name: str, context: dict[str, Any], request: HttpRequest | None = None
    ) -> SafeString | str:
        widget = context.get("widget")
        if widget is not None and "optgroups" not in widget and template_name in INPUT_TEMPLATES:
            return mark_safe(_input(widget))
        if widget is not None and template_name == SELECT_TEMPLATE:
            written = _select(widget)
            if written is not None:
                return mark_safe(written)
        return super().render(template_name, context, request)


DIRECT_RENDERER: Final = DirectRenderer()
"""The one instance the forms share (it holds the templates' engine)."""
