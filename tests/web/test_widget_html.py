"""The widgets :class:`league.web.widget_html.DirectRenderer` writes itself are
the markup Django's templates write, for every kind of input the hand forms
draw (numbers, hidden, selects, checkboxes), fresh, bound and refused."""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates

from league.models import Game
from league.web import widget_html
from league.web.hand_forms import HandForm, Stage
from league.web.widget_html import DirectRenderer

NAMES = ["Ann <the dealer>", "Bo & Co", 'Cy "C"', "Di"]


def both_ways(form_of: Any) -> tuple[list[str], list[str]]:
    """Every field of the form ``form_of(renderer)`` draws, as the templates and
    as the direct renderer write it."""
    written = []
    for renderer in (DjangoTemplates(), DirectRenderer()):
        form = form_of(renderer)
        form.is_valid()
        written.append([str(form[name]) for name in form.fields])
    return written[0], written[1]


@pytest.mark.parametrize(
    ("game", "stage"),
    [*((Game.BLUKE, stage) for stage in Stage), (Game.BUCK_EUCHRE, Stage.WHOLE)],
)  # Buck Euchre's hand is one step
@pytest.mark.parametrize(
    "data",
    [None, {}, {"h3-number": "3", "h3-trump": "H", "h3-bid_1": "2", "h3-tricks_2": "x<y",
                "h3-drop_0": "on", "h3-maker": "2"}],
    ids=["fresh", "empty", "typed"],
)  # fmt: skip
def test_a_hand_forms_inputs_are_written_as_the_templates_write_them(
    game: str, stage: Stage, data: dict[str, str] | None
) -> None:
    def form_of(renderer: Any) -> HandForm:
        form = HandForm(
            data,
            game=game,
            seats=NAMES,
            dealer=1,
            cards=5,
            options={},
            stage=stage,
            key="number",
            initial={"number": 3},
            prefix="h3",
        )
        form.renderer = renderer
        return form

    templates, direct = both_ways(form_of)
    assert direct == templates
    assert len(direct) >= 5


def test_other_widgets_are_left_to_the_templates() -> None:
    class Other(forms.Form):
        when = forms.DateField(widget=forms.SelectDateWidget)
        kinds = forms.MultipleChoiceField(
            choices=[("a", "A"), ("b", "B")], widget=forms.CheckboxSelectMultiple
        )
        grouped = forms.ChoiceField(choices=[("Suits", [("S", "Spades"), ("H", "Hearts")])])
        text = forms.CharField(initial="<b>", widget=forms.Textarea)

    templates, direct = both_ways(lambda renderer: Other({"grouped": "S"}, renderer=renderer))
    assert direct == templates
    assert "<optgroup" in direct[2]


def test_the_modules_example_holds() -> None:
    assert doctest.testmod(widget_html).failed == 0
