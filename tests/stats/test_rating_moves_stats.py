"""The rating-moves figures and chart: first against current ratings, how many reviews and papers
moved and by how much, by area, and acceptance by direction; ``stats --json`` carries them, and
the statistics cache keeps them whole."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from paperdeck.cli.main import main
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review import REVIEW, Review, ReviewVersion
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.stats.charts import chart_lines
from paperdeck.stats.figures import Figures, figures_of
from paperdeck.store.store import Store

from tests.helpers import ReviewSample

#: Per paper: its area, its decision, each review's ratings oldest first (the last is the current one).
PAPERS: dict[str, tuple[str, str, list[tuple[float, ...]]]] = {
    "rose": ("vision", "poster", [(4.0, 6.0), (6.0,), (2.0, 4.0)]),
    "rose2": ("vision", "reject", [(4.0, 8.0), (4.0,)]),
    "fell": ("language", "reject", [(6.0, 4.0), (8.0,)]),
    "back": ("language", "oral", [(6.0, 8.0, 6.0), (4.0,)]),
    "still": ("vision", "reject", [(6.0,), (6.0,)]),
}


def _summary(forum: str, paths: list[tuple[float, ...]]) -> ReviewSummary:
    def review(n: int, path: tuple[float, ...]) -> Review:
        earlier = tuple(ReviewVersion(k + 1, (("rating", value),)) for k, value in enumerate(path[:-1]))
        return Review(f"{forum}{n}", forum, forum, REVIEW, f"Reviewer_{n}", cdate=n, tmdate=100,
                      scores=(("rating", path[-1]),), earlier=earlier)  # fmt: skip

    return ReviewSummary.of(review(n, path) for n, path in enumerate(paths))


def _figures() -> Figures:
    papers = [
        Paper(id=pid, title=pid, abstract="", openreview_id=pid, primary_area=area, decision=decision,
              ratings=Ratings(1.0))
        for pid, (area, decision, _) in PAPERS.items()
    ]  # fmt: skip
    summaries = {pid: _summary(pid, paths) for pid, (_, _, paths) in PAPERS.items()}
    return figures_of(papers, summaries, {})


def test_the_moves_count_what_each_review_did() -> None:
    moves = _figures().moves
    paths = [path for _, _, paths in PAPERS.values() for path in paths]
    assert moves.reviews == len(paths) == 11
    assert moves.reviews_moved == sum(len(set(p)) > 1 for p in paths) == 5
    assert (moves.reviews_up, moves.reviews_down) == (3, 1)
    assert dict(moves.first_ratings.counts) == Counter(p[0] for p in paths)
    assert dict(moves.review_steps.counts) == {2.0: 2, 4.0: 1, -2.0: 1}
    assert (moves.papers, moves.papers_up, moves.papers_down, moves.papers_review_moved) == (5, 2, 1, 4)
    # rose: 4 → 5.33 (+1.33 → +1.5 to the half point); rose2: 4 → 6 (+2); fell: 7 → 6 (−1)
    assert dict(moves.paper_steps.counts) == {1.5: 1, 2.0: 1, -1.0: 1}
    areas = {a.area: (a.papers, a.up, a.down, a.papers_review_moved) for a in moves.by_area}
    assert areas == {"vision": (3, 2, 0, 2), "language": (2, 0, 1, 2)}
    direction = {d.direction: (d.decided, d.accepted) for d in moves.by_direction}
    assert direction == {"up": (2, 1), "down": (1, 0), "none": (2, 1)}


def test_the_chart_says_the_counts_and_fits_every_width() -> None:
    figures = _figures()
    for width in (30, 80, 200):
        for bars in (True, False):
            lines = [line.text for line in chart_lines("moves", figures, width, bars=bars)]
            assert max(map(len, lines)) <= max(width, 60), (width, lines)
    text = "\n".join(line.text for line in chart_lines("moves", figures, 80))
    assert "5 of 11 reviews moved" in text and "↑ 3 up · ↓ 1 down" in text
    assert "↑ 2 rose · ↓ 1 fell of 5" in text and "4 papers with a review that moved" in text
    assert "Acceptance by the mean's move" in text and "  rose        2         1          0   50%" in text


def test_the_cache_keeps_the_moves_whole() -> None:
    figures = _figures()
    assert Figures.from_cache(json.loads(json.dumps(figures.to_cache()))) == figures


def test_stats_json_carries_the_moves(
    tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]
) -> None:
    from paperdeck.sources.importer import import_files

    store = Store(tmp_path / "data")
    import_files(store, [review_sample.papers_file])
    forum = json.loads(review_sample.notes_file.read_bytes())[0]["forum"]
    raised = (ReviewVersion(1, (("rating", 4.0),)),)
    store.import_reviews([
        Review("r1", forum, forum, REVIEW, "Reviewer_a", cdate=1, tmdate=5, scores=(("rating", 6.0),), earlier=raised),
        Review("r2", forum, forum, REVIEW, "Reviewer_b", cdate=2, tmdate=5, scores=(("rating", 4.0),)),
    ])  # fmt: skip
    capsys.readouterr()
    assert main(["stats", "--data-dir", str(store.data_dir), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["figures"]["rating_moves"]
    assert (moves["reviews"], moves["reviews_moved"], moves["reviews_up"], moves["papers_up"]) == (2, 1, 1, 1)
    assert moves["first_ratings"]["counts"] == {"4": 2} and moves["review_steps"]["counts"] == {"2": 1}
    assert moves["paper_steps"]["counts"] == {"1": 1}
    # by area the count is of papers (one paper, two reviews, one of them moved)
    assert [area["papers_review_moved"] for area in moves["by_area"].values()] == [1]


def test_reviews_without_a_history_say_so_not_zero_moves() -> None:
    """A tester's find: a Paper Copilot venue (final ratings only) read "0 of 2,930 reviews moved
    … ↑ 0 rose · ↓ 0 fell", as if its ratings had been watched and stayed."""
    papers = [
        Paper(id=pid, title=pid, abstract="", openreview_id=pid, decision="poster", ratings=Ratings(1.0))
        for pid in ("a", "b")
    ]
    summaries = {pid: _summary(pid, [(6.0,), (4.0,), (8.0,)]) for pid in ("a", "b")}
    figures = figures_of(papers, summaries, {})
    for width in (30, 80):
        lines = [line.text for line in chart_lines("moves", figures, width)]
        text = " ".join(lines)
        assert "no rating history" in text.lower() and "6 reviews" in " ".join(text.split()), lines
        assert "rose" not in text and "0 of 6" not in text
        assert max(map(len, lines)) <= max(width, 60)


def test_one_review_without_a_history_is_one_review_in_the_chart_and_its_table() -> None:
    """The thirteenth round's tester: ``none of these 1 reviews has an earlier rating``; the
    statistics screen's table (``t``) read ``1 reviews, final ratings only``."""
    from paperdeck.ui.widgets.stats_charts import chart_table

    paper = Paper(id="a", title="a", abstract="", openreview_id="a", decision="poster", ratings=Ratings(6.0))
    figures = figures_of([paper], {"a": _summary("a", [(6.0,)])}, {})
    text = " ".join(" ".join(line.text for line in chart_lines("moves", figures, 80)).split())
    assert "No rating history: this review has no earlier rating." in text and "1 reviews" not in text, text
    _, rows = chart_table("moves", figures)
    assert rows == [("rating history", "none", "1 review, final ratings only")]


def test_the_acceptance_tables_say_the_papers_they_leave_out() -> None:
    """Found by a tester: ICLR 2026's 0–1 bucket held 54 papers in the ratings chart and 39 in
    the acceptance table, and 50 papers fell against 9 + 37 in "Acceptance by the mean's move":
    the withdrawn papers, counted neither decided nor undecided, went unsaid. Each table now says
    how many it leaves out, by decision (and, by the move, in which row); the cache keeps them,
    and a cache written before (no ``left_out``) is not read, so that its tables are counted anew."""
    papers = [
        Paper(id=pid, title=pid, abstract="", openreview_id=pid, primary_area=area, decision=decision,
              ratings=Ratings(1.0))
        for pid, (area, decision, _) in PAPERS.items()
    ]  # fmt: skip
    withdrawn = {"w1": [(6.0, 4.0), (2.0,)], "w2": [(2.0,), (2.0,)], "w3": [(4.0,)]}  # fell, still, still
    papers += [Paper(id=pid, title=pid, abstract="", openreview_id=pid, decision="withdrawn") for pid in withdrawn]
    summaries = {pid: _summary(pid, paths) for pid, (_, _, paths) in PAPERS.items()}
    summaries |= {pid: _summary(pid, paths) for pid, paths in withdrawn.items()}
    figures = figures_of(papers, summaries, {})
    assert {d.direction: d.left_out for d in figures.moves.by_direction} == {
        "up": (), "down": (("withdrawn", 1),), "none": (("withdrawn", 2),)
    }  # fmt: skip
    assert sum(count for b in figures.acceptance_by_rating for _, count in b.left_out) == 3
    moves = [line.text for line in chart_lines("moves", figures, 100)]
    said = "  not counted: 3 withdrawn papers (rose 0, fell 1, still 2), neither decided nor undecided"
    assert said in moves, moves
    acceptance = [line.text for line in chart_lines("acceptance", figures, 100)]
    assert "  not counted: 3 withdrawn papers, neither decided nor undecided" in acceptance, acceptance
    cached = json.loads(json.dumps(figures.to_cache()))
    assert Figures.from_cache(cached) == figures
    for row in cached["acceptance_by_rating"]:
        del row["left_out"]
    with pytest.raises(KeyError):
        Figures.from_cache(cached)
    plain = [line.text for line in chart_lines("acceptance", _figures(), 100)]
    assert not any("not counted" in line for line in plain)  # every paper counted: nothing said
