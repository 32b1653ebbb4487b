"""The score sheet rendered by hand is exactly what its serializer renders
(the schema is generated from the serializer)."""

from __future__ import annotations

import json

import pytest

from league.api.serializers import ScoreSheetOutput, score_sheet_data
from league.models import Table
from league.selectors import tables as tables_selectors
from league.services.results import hand_delete_last


@pytest.mark.django_db
def test_the_fast_score_sheet_equals_the_serializer(demo_data: str) -> None:
    tables = Table.objects.select_related("round__event__league")
    in_progress = tables.first()
    assert in_progress is not None
    last = in_progress.hands.count() - 1
    hand_delete_last(table=in_progress, number=last, version=in_progress.version)
    assert not tables.get(pk=in_progress.pk).complete
    for table in tables:
        sheet = tables_selectors.score_sheet(table=table)
        fast = json.loads(json.dumps(score_sheet_data(sheet)))
        slow = json.loads(json.dumps(ScoreSheetOutput(sheet).data))
        assert fast == slow
