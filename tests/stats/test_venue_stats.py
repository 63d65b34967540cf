"""Statistics across venues: each venue's figures apart, on its own scale; the ratings and
acceptance charts never pool venues; ``paperdeck stats --json`` has one entry per venue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review import REVIEW, Review, ReviewVersion
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.stats.charts import chart_lines
from paperdeck.stats.figures import Figures, Place, figures_of

from tests.helpers import run


def paper(pid: str, venue: str, year: int, mean: float | None, decision: str, area: str = "",
          scale: str = "") -> Paper:  # fmt: skip
    ratings = Ratings(mean, count=3, scale=scale) if mean is not None else None
    return Paper(pid, f"T {pid}", "A.", venue=venue, year=year, ratings=ratings, decision=decision, primary_area=area)


PAPERS = [
    paper("a", "ICLR", 2026, 8.0, "poster", "vision"),
    paper("b", "ICLR", 2026, 2.0, "reject", "vision"),
    paper("c", "ICLR", 2026, 6.0, "reject", "theory"),
    paper("d", "COLM", 2025, 7.0, "poster"),
    paper("e", "COLM", 2025, 5.5, "poster"),
    paper("f", "CVPR", 2019, None, "oral"),
    paper("g", "FOO", 2030, 3.0, "accept", scale="1-5"),
]


def test_each_venue_has_its_figures_on_its_own_scale() -> None:
    figures = figures_of(PAPERS, {}, {})
    by_venue = {venue.venue: venue for venue in figures.venues}
    assert [venue.venue for venue in figures.venues] == ["ICLR 2026", "COLM 2025", "CVPR 2019", "FOO 2030"]
    iclr, colm, cvpr, foo = (by_venue[name] for name in ("ICLR 2026", "COLM 2025", "CVPR 2019", "FOO 2030"))
    assert (iclr.scale, colm.scale, cvpr.scale, foo.scale) == ("0, 2, 4, 6, 8, 10", "1-10", "", "1-5")
    assert iclr.figures.papers == 3 and iclr.figures.mean_of_means == pytest.approx(16 / 3, abs=1e-3)
    assert colm.figures.mean_of_means == 6.25 and cvpr.figures.reviewed == 0
    assert iclr.acceptance_rate == pytest.approx(1 / 3)
    assert colm.acceptance_rate is None and colm.figures.basis == "accepted only"  # a list of the accepted
    assert (iclr.figures.mean_ratings[0].low, iclr.figures.mean_ratings[-1].high) == (0, 10)
    assert (colm.figures.mean_ratings[0].low, colm.figures.mean_ratings[-1].high) == (1, 10)
    assert (foo.figures.mean_ratings[0].low, foo.figures.mean_ratings[-1].high) == (1, 5)
    assert {a.area: a.rate for a in iclr.figures.by_area} == {"vision": 0.5, "theory": 0.0}
    assert len(figures.rated_venues) == 3


def test_one_venue_has_one_entry_and_the_figures_as_before() -> None:
    iclr = PAPERS[:3]
    figures = figures_of(iclr, {}, {})
    assert [venue.venue for venue in figures.venues] == ["ICLR 2026"] and figures.papers == 3
    assert figures.venues[0].figures.mean_of_means == figures.mean_of_means
    unrated = figures_of([paper("x", "ICLR", 2018, None, "reject")], {}, {})
    assert unrated.venues[0].scale == ""  # no rating: no scale, though ICLR 2018's is known …
    buckets = unrated.venues[0].figures.mean_ratings
    assert (buckets[0].low, buckets[-1].high) == (1, 10)  # … and its histogram spans that scale


@pytest.mark.parametrize("key", ["ratings", "acceptance"])
def test_the_rating_charts_draw_each_venue_apart_never_pooled(key: str) -> None:
    text = "\n".join(line.text for line in chart_lines(key, figures_of(PAPERS, {}, {}), 80, bars=False))
    assert "ICLR 2026 · scale 0, 2, 4, 6, 8, 10" in text and "COLM 2025 · scale 1–10" in text
    assert "FOO 2030 · scale 1–5" in text and "CVPR 2019" not in text
    if key == "ratings":
        assert "of 7 rated" not in text and "3 of 3 rated" in text and "2 of 2 rated" in text


def test_the_venues_chart_compares_them_side_by_side() -> None:
    lines = [line.text for line in chart_lines("venues", figures_of(PAPERS, {}, {}), 100, bars=False)]
    rows = {line[:9]: line for line in lines if line[:4] in ("ICLR", "COLM", "CVPR") and "/10" in line}
    assert "5.3/10" in rows["ICLR 2026"] and "33%" in rows["ICLR 2026"]
    assert "6.2/10" in rows["COLM 2025"] and "%" not in rows["COLM 2025"]  # accepted papers only: no rate
    assert "  acc. — : only accepted papers listed: COLM 2025, CVPR 2019, FOO 2030" in lines
    assert any(line.startswith("COLM 2025") and "1–10: 0 0 0 0 1 0 1 0 0" in line for line in lines)
    assert "ICLR 2026 · acceptance by area" in lines


def test_the_venues_strips_share_one_axis_a_column_the_same_ratings() -> None:
    """Found by a tester: each strip started at its first bucket, blank ones drawn as spaces, so
    ICLR 2026's (0–10) and COLM 2025's (1–10) put different ratings in the same column. Now one
    axis, labelled, spans them all: a venue's cells start at its scale's low, its whole scale is
    drawn (a point without papers a dot), and the points outside it are blank."""
    lines = [line.text for line in chart_lines("venues", figures_of(PAPERS, {}, {}), 100, bars=True)]
    start = lines.index("Mean ratings side by side, low to high")
    axis, *strips = lines[start + 1 : start + 5]
    cells = len("ICLR 2026") + 1  # the venue column, then the strips
    assert axis[cells:].startswith("0       10  ") and "· none" in axis, axis
    by_venue = {line[:9]: line[cells : cells + 10] for line in strips}
    assert set(by_venue) == {"ICLR 2026", "COLM 2025", "FOO 2030 "}
    # ICLR 2026: means 2, 6, 8 on 0–10; COLM 2025: 5.5, 7 on 1–10; FOO 2030: 3 on 1–5.
    assert by_venue["ICLR 2026"] == "··█···█·█·"
    assert by_venue["COLM 2025"] == " ····█·█··"
    assert by_venue["FOO 2030 "] == " ··█·     "
    # A column is the same ratings in each: 6–7 is the 7th cell (ICLR 2026's 6, none of COLM 2025's).
    assert [strip[6] for strip in by_venue.values()] == ["█", "·", " "]


def test_a_venue_without_ratings_says_so_where_its_scale_would_be() -> None:
    """Found by a tester: NeurIPS 2018 (no reviews) showed its known 1–10 scale in the venues
    table as though its papers were rated. Every mean there is written by one rule."""
    from paperdeck.stats.charts import scale_label

    papers = [*PAPERS, paper("n", "NeurIPS", 2018, None, "poster")]
    figures = figures_of(papers, {}, {})
    neurips = next(venue for venue in figures.venues if venue.venue == "NeurIPS 2018")
    assert scale_label(neurips) == "no ratings" and neurips.to_dict()["scale"] is None
    lines = [line.text for line in chart_lines("venues", figures, 100, bars=False)]
    row = next(line for line in lines if line.startswith("NeurIPS 2018"))
    assert "no ratings" in row and "1–10" not in row, row
    rows = {line[:9]: line.split() for line in lines if line[:4] in ("ICLR", "COLM") and "/10" in line}
    assert rows["ICLR 2026"][4] == "5.3/10" and rows["COLM 2025"][4] == "6.2/10", rows
    ratings = [line.text for line in chart_lines("ratings", figures, 100, bars=False)]
    assert "Papers' mean ratings · 3 of 3 rated · mean 5.3" in ratings, ratings


def test_venue_figures_survive_the_cache() -> None:
    figures = figures_of(PAPERS, {}, {})
    assert Figures.from_cache(json.loads(json.dumps(figures.to_cache()))) == figures


def test_stats_json_has_one_entry_per_venue_with_its_scale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import fixture

    data = str(tmp_path / "store")
    names = ("papercopilot_colm2025.json", "papercopilot_iclr2017.json", "papercopilot_cvpr2019.json")
    assert run(capsys, "--data-dir", data, "import", *(str(fixture(name)) for name in names))[0] == 0
    code, out, _ = run(capsys, "--data-dir", data, "stats", "--json")
    venues = {entry["venue"]: entry for entry in json.loads(out)["venues"]}
    assert code == 0 and set(venues) == {"COLM 2025", "ICLR 2017", "CVPR 2019"}
    assert venues["COLM 2025"]["scale"]["scale"] == "1-10" and venues["CVPR 2019"]["scale"] is None
    for name, entry in venues.items():
        records = json.loads(fixture(f"papercopilot_{name.replace(' ', '').lower()}.json").read_text())
        assert entry["papers"] == len({r["title"] for r in records if r.get("title")})


def test_a_papers_place_in_a_mixed_view_is_within_its_own_venue() -> None:
    figures = figures_of(PAPERS, {}, {})
    place = figures.place(7.0, "COLM 2025")  # COLM: 5.5 and 7.0; pooled it would be above 4 of 6
    assert place is not None and place.venue == "COLM 2025"
    assert (place.below, place.percentile, place.top) == (1, 50.0, 0.5)
    colm = next(v for v in figures.venues if v.venue == "COLM 2025").figures
    assert colm.mean_ratings[place.bucket].low == 7
    foo = figures.place(3.0, "FOO 2030")  # on FOO's 1–5 scale: its bucket [3, 4)
    assert foo == Place(3.0, 2, 0, 0.0, 1.0, "FOO 2030")
    assert figures.place(7.0) is None and figures.place(7.0, "NOPE 2020") is None  # never pooled
    one = figures_of(PAPERS[3:5], {}, {})
    alone = one.place(7.0)
    assert alone is not None and alone.venue is None and one.place(7.0, "COLM 2025") == alone


def test_the_chart_marks_the_place_in_its_venue_and_says_which() -> None:
    figures = figures_of(PAPERS, {}, {})
    place = figures.place(7.0, "COLM 2025")
    for key in ("ratings", "acceptance"):
        lines = chart_lines(key, figures, 80, place, highlighting=True)
        marked = [n for n, line in enumerate(lines) if line.text.endswith("◀") and "this paper" not in line.text]
        colm = next(n for n, line in enumerate(lines) if line.text.startswith("▌ COLM 2025"))
        after = [n for n, line in enumerate(lines) if line.text.startswith("▌ ") and n > colm]
        assert len(marked) == 1 and colm < marked[0] < (after[0] if after else len(lines)), (key, marked)
    texts = [line.text for line in chart_lines("ratings", figures, 80, place, highlighting=True)]
    assert any("the highest of the 2 rated in COLM 2025 ◀" in text for text in texts), texts
    unrated = [line.text for line in chart_lines("ratings", figures, 80, None, highlighting=True)]
    assert "  the highlighted paper has no rating" in unrated


def test_a_workshop_paper_counts_as_not_accepted_to_the_conference() -> None:
    """Found by trying the product: ICLR 2017's rate left its 47 workshop-track papers out (45 %);
    the conference counts them as not accepted (about 40 %)."""
    from paperdeck.model.paper import Paper
    from paperdeck.stats.figures import figures_of

    papers = [
        Paper(id=f"p{n}", title=f"t{n}", abstract="a", venue="ICLR", year=2017, decision=decision)
        for n, decision in enumerate(["oral", "poster", "reject", "workshop", "withdrawn"])
    ]
    figures = figures_of(papers, {}, {})
    assert [venue.acceptance_rate for venue in figures.venues] == [2 / 4]


def _moving(pid: str, venue: str, year: int, paths: list[tuple[float, ...]]) -> tuple[Paper, ReviewSummary]:
    """A paper of ``venue`` whose reviews' ratings went along ``paths`` (oldest first)."""
    reviews = [
        Review(f"{pid}{n}", pid, pid, REVIEW, f"Reviewer_{n}", cdate=n, tmdate=100, scores=(("rating", path[-1]),),
               earlier=tuple(ReviewVersion(k + 1, (("rating", v),)) for k, v in enumerate(path[:-1])))
        for n, path in enumerate(paths)
    ]  # fmt: skip
    found = Paper(pid, f"T {pid}", "A.", venue=venue, year=year, openreview_id=pid, decision="poster",
                  ratings=Ratings(1.0))  # fmt: skip
    return found, ReviewSummary.of(reviews)


MOVING = [
    _moving("i1", "ICLR", 2026, [(4.0, 6.0), (2.0, 4.0)]),
    _moving("i2", "ICLR", 2026, [(8.0,), (6.0, 8.0)]),
    _moving("c1", "COLM", 2025, [(3.0, 5.0), (7.0,)]),
    _moving("c2", "COLM", 2025, [(9.0, 7.0)]),
]


def test_the_rating_moves_chart_draws_each_venue_apart_never_pooled() -> None:
    """ICLR 2026's 0/2/…/10 and COLM 2025's 1–10 are two tables of first and current ratings,
    each on its scale; one venue alone is drawn as before (no venue heading)."""
    figures = figures_of([p for p, _ in MOVING], {p.id: s for p, s in MOVING}, {})
    lines = [line.text for line in chart_lines("moves", figures, 80, bars=False)]
    text = "\n".join(lines)
    assert "ICLR 2026 · scale 0, 2, 4, 6, 8, 10" in text and "COLM 2025 · scale 1–10" in text
    assert lines.count("Each review's rating, first and now") == 2
    iclr_at = lines.index("▌ ICLR 2026 · scale 0, 2, 4, 6, 8, 10")
    colm_at = lines.index("▌ COLM 2025 · scale 1–10")
    for start, stop, own in ((iclr_at, colm_at, {"2", "4", "6", "8"}), (colm_at, iclr_at, {"3", "5", "7", "9"})):
        part = lines[start : stop if stop > start else len(lines)]
        table = part.index("Each review's rating, first and now") + 2
        rows = {line.split()[0] for line in part[table : part.index("", table)]}
        assert rows == own  # each venue's first and current ratings, on its scale alone
    iclr = [(p, s) for p, s in MOVING if p.venue == "ICLR"]
    alone = figures_of([p for p, _ in iclr], {p.id: s for p, s in iclr}, {})
    drawn = [line.text for line in chart_lines("moves", alone, 80, bars=False)]
    assert drawn[0].startswith("Rating moves · 3 of 4 reviews moved") and not any("▌" in line for line in drawn)


def test_stats_json_rating_moves_are_never_pooled_across_scales() -> None:
    """The top level of ``stats --json`` keeps the moves' counts, not their distributions of
    ratings on several scales, nor every review's rating or the papers' means pooled (each venue's
    entry has its own); one scale keeps them."""
    from paperdeck.cli.stats import _unpool

    figures = figures_of([p for p, _ in MOVING], {p.id: s for p, s in MOVING}, {})
    data = figures.to_dict()
    assert "review_ratings" in data
    _unpool(figures, data)
    moves = data["rating_moves"]
    assert moves["reviews"] == 7 and moves["reviews_moved"] == 5
    assert not {"first_ratings", "review_steps", "paper_steps"} & set(moves)
    assert "review_ratings" not in data and "acceptance_by_rating" not in data
    assert data["mean_ratings"] == {"total": figures.reviewed}
    venues = {venue["venue"]: venue for venue in figures.to_dict()["venues"]}
    assert set(venues["COLM 2025"]["figures"]["rating_moves"]["first_ratings"]["counts"]) == {"3", "7", "9"}
    assert venues["COLM 2025"]["figures"]["review_ratings"]["counts"]
    iclr = [(p, s) for p, s in MOVING if p.venue == "ICLR"]
    alone = figures_of([p for p, _ in iclr], {p.id: s for p, s in iclr}, {})
    kept = alone.to_dict()
    _unpool(alone, kept)
    assert kept == alone.to_dict()


def test_the_venues_table_sizes_each_column_from_its_contents() -> None:
    """The thirteenth round's tester: ``ICLR 2026 0,2,4,6,8,10       1   6.0/10`` under ``venue
    scale  papers``: the 12-cell scale ran into the venue's name, one space apart."""
    lines = [line.text for line in chart_lines("venues", figures_of(PAPERS[:1], {}, {}), 100, bars=False)]
    header = next(line for line in lines if line.startswith("venue "))
    row = next(line for line in lines if line.startswith("ICLR 2026"))
    assert row.startswith("ICLR 2026  0,2,4,6,8,10  "), row
    for label in ("scale", "papers", "mean"):  # each value ends under its label
        end = header.index(label) + len(label)
        assert row[end - 1] != " " and row[end : end + 2] == "  ", (label, header, row)


def test_the_venues_reviews_per_paper_have_one_format_down_the_column() -> None:
    """A second tester's find: the Venues chart's ``rev/paper`` column mixed ``3.9`` with ``3.01``
    and ``3.79``; two decimals always, in ``paperdeck stats`` and in the app's table alike."""
    from paperdeck.stats.figures import per_paper
    from paperdeck.ui.widgets.stats_charts import chart_table

    def rated(pid: str, venue: str, count: int) -> Paper:
        return Paper(
            pid, f"T {pid}", "A.", venue=venue, year=2026, ratings=Ratings(6.0, count=count), decision="poster"
        )

    papers = [rated(f"i{n}", "ICLR", 3 if n == 0 else 4) for n in range(10)]  # 3.9 reviews a paper
    papers += [rated(f"c{n}", "COLM", 4 if n == 0 else 3) for n in range(100)]  # 3.01
    papers += [rated(f"n{n}", "NeurIPS", 3) for n in range(2)]  # 3
    figures = figures_of(papers, {}, {})
    lines = [line.text for line in chart_lines("venues", figures, 100, bars=False)]
    ends: dict[str, str] = {}
    for line in lines:  # each venue's row of the table: its first line
        if line.split()[:1] in (["ICLR"], ["COLM"], ["NeurIPS"]):
            ends.setdefault(line.split()[0], line.split()[-1])
    assert ends == {"ICLR": "3.90", "COLM": "3.01", "NeurIPS": "3.00"}, lines
    columns, rows = chart_table("venues", figures)
    at = columns.index("rev/paper")
    assert sorted(str(row[at]) for row in rows) == ["3.00", "3.01", "3.90"]
    assert per_paper(None) == "—"
