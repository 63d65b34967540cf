"""Issue 31: the acceptance rate is taken over the decided papers (accepted or rejected) only: a
paper still under review (no decision) is never counted as decided; a venue whose decisions name
its accepted papers only says so, and a venue with no decision says "no decisions"."""

from __future__ import annotations

from dataclasses import replace

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.stats.charts import chart_lines
from paperdeck.stats.figures import Figures, figures_of


def _paper(pid: str, decision: str, venue: str = "ICLR", year: int = 2017, area: str = "vision",
           mean: float | None = 5.0) -> Paper:  # fmt: skip
    ratings = Ratings(mean, count=3) if mean is not None else None
    return Paper(pid, f"T {pid}", "A.", venue=venue, year=year, decision=decision, primary_area=area, ratings=ratings)


def _set(venue: str, year: int, **decisions: int) -> list[Paper]:
    papers = []
    for decision, count in decisions.items():
        papers += [_paper(f"{venue}{year}{decision}{n}", decision.replace("_", "-"), venue, year) for n in range(count)]
    return papers


def _text(key: str, figures: Figures, width: int = 100) -> str:
    return "\n".join(line.text for line in chart_lines(key, figures, width, bars=False))


def test_papers_under_review_are_not_decided() -> None:
    figures = figures_of(_set("ICLR", 2017, poster=2, reject=1, workshop=1, under_review=5, withdrawn=3), {}, {})
    assert figures.basis == "decided"
    (area,) = figures.by_area
    assert (area.accepted, area.rejected, area.workshop, area.pending, area.withdrawn) == (2, 1, 1, 5, 3)
    assert area.rate == pytest.approx(2 / 4)  # accepted / (accepted + rejected + workshop): not / 9
    (bucket,) = [b for b in figures.acceptance_by_rating if b.decided or b.undecided]
    assert (bucket.decided, bucket.accepted, bucket.undecided) == (4, 2, 5) and bucket.rate == pytest.approx(0.5)
    data = figures.to_dict()
    assert data["acceptance_basis"] == "decided"
    assert data["decisions_by_area"]["vision"]["decided"] == 4
    assert data["acceptance_by_rating"]["5–6"] == {"decided": 4, "accepted": 2, "undecided": 5, "acceptance_rate": 0.5}
    text = _text("acceptance", figures)
    assert "rate = accepted / decided (accepted + rejected + workshop)" in text
    assert "   5–6        4         2          5   50%" in text
    assert figures.venues[0].acceptance_rate == pytest.approx(0.5)


def test_the_rate_names_the_decisions_the_decided_papers_have() -> None:
    """ICLR 2017 (198 accepted, 244 rejected, 47 to the workshop): 198 / 489 = 40 %, and the note
    says the workshop papers are among the decided; a set without them does not name them."""
    figures = figures_of(_set("ICLR", 2017, poster=198, reject=244, workshop=47), {}, {})
    assert figures.refused == ("reject", "workshop")
    assert figures.venues[0].acceptance_rate == pytest.approx(198 / 489)
    for key in ("acceptance", "areas"):
        text = _text(key, figures)
        assert "rate = accepted / decided (accepted + rejected + workshop)" in text, key
    assert "40%" in _text("areas", figures)
    assert Figures.from_cache(figures.to_cache()) == figures
    plain = figures_of(_set("ICLR", 2018, poster=3, reject=2, desk_rejected=1), {}, {})
    assert "rate = accepted / decided (accepted + rejected + desk-rejected);" in _text("acceptance", plain)
    only = figures_of(_set("ICLR", 2019, poster=3, reject=2), {}, {})
    assert "rate = accepted / decided (accepted + rejected);" in _text("acceptance", only)


def test_a_list_of_the_accepted_counts_the_rest_as_not_accepted_and_says_so() -> None:
    # ICLR 2026's shape: the submissions under review, the Parquet naming the accepted papers
    figures = figures_of(_set("ICLR", 2026, poster=3, under_review=9, withdrawn=2), {}, {})
    assert figures.basis == "accepted list"
    assert figures.by_area[0].rate == pytest.approx(3 / 12)
    (bucket,) = [b for b in figures.acceptance_by_rating if b.decided or b.undecided]
    assert (bucket.decided, bucket.undecided, bucket.rate) == (3, 9, pytest.approx(0.25))
    assert "only accepted papers have a decision" in _text("acceptance", figures)
    assert "only accepted papers have a decision" in _text("areas", figures)


def test_accepted_papers_alone_and_no_decisions_give_no_rate() -> None:
    accepted = figures_of(_set("COLM", 2025, poster=4), {}, {})
    assert accepted.basis == "accepted only" and accepted.by_area[0].rate is None
    assert accepted.venues[0].acceptance_rate is None
    undecided = figures_of(_set("ICLR", 2023, under_review=4, unknown=2), {}, {})
    assert undecided.basis == "none" and not undecided.decisions_known
    assert undecided.venues[0].acceptance_rate is None
    assert "no decisions" in _text("acceptance", undecided) and "no decisions" in _text("areas", undecided)


def test_venues_say_which_rate_is_which_and_each_venue_keeps_its_own() -> None:
    papers = [
        *_set("ICLR", 2017, poster=1, reject=3, under_review=4),
        *_set("ICLR", 2026, poster=2, under_review=6),
        *_set("COLM", 2025, poster=5),
        *_set("ICLR", 2023, under_review=3),
    ]
    figures = figures_of(papers, {}, {})
    rates = {v.venue: v.acceptance_rate for v in figures.venues}
    assert rates == {"ICLR 2026": pytest.approx(0.25), "ICLR 2017": pytest.approx(0.25), "COLM 2025": None,
                     "ICLR 2023": None}  # fmt: skip
    assert figures.basis == "mixed"
    # the area's rate sums each venue's: (1 + 2) / ((1 + 3) + (2 + 6)); COLM and ICLR 2023 add nothing
    assert figures.by_area[0].rate == pytest.approx(3 / 12)
    lines = _text("venues", figures, 120).splitlines()
    assert any("without a decision as not accepted" in line and "ICLR 2026" in line for line in lines)
    assert "  acc. — : only accepted papers listed: COLM 2025" in lines
    assert "  acc. — : no decisions: ICLR 2023" in lines
    json_venues = {v["venue"]: v for v in (v.to_dict() for v in figures.venues)}
    assert json_venues["ICLR 2023"]["acceptance_basis"] == "none"
    assert json_venues["ICLR 2023"]["acceptance_rate"] is None
    assert Figures.from_cache(figures.to_cache()) == figures


def test_the_areas_chart_draws_each_venue_apart_on_its_own_decisions() -> None:
    papers = [*_set("ICLR", 2017, poster=1, reject=3), *_set("ICLR", 2026, poster=2, under_review=6)]
    papers += [_paper("no-area", "reject", "ICLR", 2017, area="")]
    lines = _text("areas", figures_of(papers, {}, {}), 100).splitlines()
    assert lines[:2] == ["Decisions by primary area", "  each venue apart"]
    first, second = lines.index("▌ ICLR 2026"), lines.index("▌ ICLR 2017")  # most papers first
    iclr2026, iclr2017 = lines[first:second], lines[second:]
    assert "(no area)" in "\n".join(iclr2017) and "(no area)" not in "\n".join(iclr2026)
    assert "only accepted papers" in iclr2026[1] and "rate = accepted / decided" in iclr2017[1]
    assert any(line.startswith("vision") and line.rstrip().endswith("25%") for line in iclr2026)  # 2 / (2 + 6)
    assert any(line.startswith("vision") and line.rstrip().endswith("25%") for line in iclr2017)  # 1 / (1 + 3)


def test_the_moves_acceptance_of_several_venues_counts_the_venues_with_a_rate() -> None:
    from paperdeck.model.review import REVIEW, Review
    from paperdeck.model.review_summary import ReviewSummary

    papers = [*_set("ICLR", 2017, poster=1, reject=3), *_set("COLM", 2025, poster=5)]
    papers = [replace(p, openreview_id=p.id) for p in papers]
    summaries = {
        p.id: ReviewSummary.of([Review(f"{p.id}r", p.id, p.id, REVIEW, "Reviewer_a", scores=(("rating", 5.0),))])
        for p in papers
    }
    moves = figures_of(papers, summaries, {}).moves
    still = next(d for d in moves.by_direction if d.direction == "none")
    assert (still.decided, still.accepted, still.undecided) == (4, 1, 0)  # COLM's accepted list alone: no rate
    assert still.rate == pytest.approx(1 / 4)
