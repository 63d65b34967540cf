"""A venue whose papers were sent to the workshop track (ICLR 2017's 47) shows them in a column of
their own in the decisions by area, in the app's table (``A``, ``t``) and in ``paperdeck stats``,
no longer counted inside "rejected"; they stay decided, not accepted, in the rate. A venue without
any has no such column."""

from __future__ import annotations

from paperdeck.model.paper import Paper
from paperdeck.stats.charts import chart_lines
from paperdeck.stats.figures import figures_of
from paperdeck.ui.widgets.stats_charts import chart_table


def _papers(workshop: int) -> list[Paper]:
    decisions = ["poster"] * 4 + ["reject"] * 3 + ["workshop"] * workshop
    return [Paper(f"p{n}", f"T {n}", "A.", venue="ICLR", year=2017, decision=d) for n, d in enumerate(decisions)]


def test_workshop_papers_are_counted_apart_from_the_rejected_ones() -> None:
    figures = figures_of(_papers(workshop=2), {}, {})
    (area,) = figures.by_area
    assert (area.accepted, area.rejected, area.workshop, area.not_accepted) == (4, 3, 2, 5)
    assert area.rate == 4 / 9
    assert figures.basis_note.startswith("rate = accepted / decided (accepted + rejected + workshop)")
    entry = figures.to_dict()["decisions_by_area"][area.area]
    assert (entry["rejected"], entry["workshop"], entry["decided"]) == (3, 2, 9)


def test_the_decisions_table_has_a_workshop_column_only_when_a_paper_has_it() -> None:
    columns, rows = chart_table("areas", figures_of(_papers(workshop=2), {}, {}))
    assert columns == ("area", "papers", "accepted", "rejected", "workshop", "under review", "withdrawn", "rate")
    assert [str(cell) for cell in rows[0][1:]] == ["9", "4", "3", "2", "0", "0", "44.4%"]
    columns, rows = chart_table("areas", figures_of(_papers(workshop=0), {}, {}))
    assert "workshop" not in columns and len(rows[0]) == len(columns)


def test_paperdeck_stats_decisions_chart_has_the_workshop_column() -> None:
    lines = [line.text for line in chart_lines("areas", figures_of(_papers(workshop=2), {}, {}), 80)]
    header = next(line for line in lines if line.startswith("area"))
    assert header.split() == ["area", "papers", "acc.", "wksp.", "rate"], header
    assert next(line for line in lines if line.startswith("(no area)")).split()[2:6] == ["9", "4", "2", "44%"]
    lines = [line.text for line in chart_lines("areas", figures_of(_papers(workshop=0), {}, {}), 80)]
    assert not any("wksp." in line for line in lines)
