"""The rebuttal lens in the app: a review whose rating moved shows its path on the reviews screen,
the paper's move in the detail pane and the list (narrow and wide), and replies of a flattened
thread sit under the review whose reviewer they name, their Markdown rendered."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.review import AUTHOR_RESPONSE, COMMENT, REVIEW, Review, ReviewVersion, ordered_reviews
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.paper_detail import PaperDetail
from paperdeck.ui.widgets.paper_list import PaperList

from tests.helpers import ReviewSample
from tests.ui.helpers import highlighted, main_screen, open_reviews, settle, static_text
from tests.waits import GUARD_S

VENUE = "ICLR.cc/2026/Conference"
DAY = 86_400_000
#: 2025-11-04 and 2025-11-20, 00:00 UTC, in milliseconds.
NOV_4, NOV_20 = 1_762_214_400_000, 1_762_214_400_000 + 16 * DAY


def _notes(forum: str) -> list[Review]:
    """Three official reviews of ``forum`` (one raised from 4 to 6 with its confidence 3 → 4, so
    the mean went 4.67 → 5.33), a flattened author response naming its reviewer in the title, and
    a comment in Markdown."""

    def review(sig: str, rating: float, confidence: float, cdate: int, *earlier: ReviewVersion) -> Review:
        return Review(f"{forum}-{sig}", forum, forum, REVIEW, f"Reviewer_{sig}", cdate=cdate, tmdate=NOV_20,
                      scores=(("rating", rating), ("confidence", confidence), ("soundness", 3.0)),
                      sections=(("summary", f"The summary of {sig}."),), venue_id=VENUE, earlier=earlier)  # fmt: skip

    raised = ReviewVersion(NOV_4, (("rating", 4.0), ("confidence", 3.0), ("soundness", 3.0)))
    return [
        review("tLpQ", 6.0, 4.0, NOV_4, raised),
        review("aB12", 4.0, 3.0, NOV_4 + 1),
        review("zz99", 6.0, 2.0, NOV_4 + 2),
        Review(f"{forum}-resp", forum, forum, AUTHOR_RESPONSE, "Authors", cdate=NOV_4 + DAY, tmdate=NOV_4 + DAY,
               sections=(("title", "Response to Reviewer tLpQ"),
                         ("comment", "# Response to W1\n\nWe **added** the baseline.\n\n---\n\n- first point\n")),
               venue_id=VENUE),
        Review(f"{forum}-general", forum, forum, COMMENT, "Authors", cdate=NOV_4 + 2 * DAY, tmdate=NOV_4 + 2 * DAY,
               sections=(("title", "General response"), ("comment", "## Summary\n\nThanks to all.")), venue_id=VENUE),
    ]  # fmt: skip


@pytest.fixture
def moved_store(tmp_path: Path, review_sample: ReviewSample) -> tuple[Store, str]:
    """The sample's papers, the first one's reviews as :func:`_notes` (with their history); its forum."""
    store = Store(tmp_path / "data")
    import_files(store, [review_sample.papers_file])
    forum = json.loads(review_sample.notes_file.read_bytes())[0]["forum"]
    store.import_reviews(_notes(forum))
    return store, forum


async def _to_forum(pilot: Any, app: PaperApp, forum: str) -> None:
    for _ in range(20):
        if highlighted(app).openreview_id == forum:
            return
        await pilot.press("j")
        await pilot.pause()
    raise AssertionError(f"{forum} not in the list")


def test_a_flattened_reply_is_threaded_under_the_review_it_names() -> None:
    notes = _notes("F")
    order = [(depth, review.id) for depth, review in ordered_reviews(notes)]
    at = order.index((0, "F-tLpQ"))
    assert order[at + 1] == (1, "F-resp")  # under Reviewer_tLpQ's review
    assert (0, "F-general") in order  # names no reviewer: on the paper itself
    # A reviewer's own reply sits under their review; a title naming a reviewer with no review here stays.
    own = Review("F-own", "F", "F", COMMENT, "Reviewer_aB12", cdate=8, sections=(("comment", "Thanks."),))
    stray = Review("F-x", "F", "F", AUTHOR_RESPONSE, "Authors", cdate=9, sections=(("title", "Reviewer QQQQ"),))
    order = [(depth, review.id) for depth, review in ordered_reviews([*notes, own, stray])]
    assert (0, "F-x") in order and order[order.index((0, "F-aB12")) + 1] == (1, "F-own")
    # A thread that is not flattened is threaded by replyto alone.
    nested = Review("F-y", "F", "F-general", COMMENT, "Authors", cdate=10, sections=(("title", "Reviewer tLpQ"),))
    order = [(depth, review.id) for depth, review in ordered_reviews([*notes, nested])]
    assert (0, "F-resp") in order and order[order.index((0, "F-general")) + 1] == (1, "F-y")


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_the_move_shows_in_the_list_the_detail_and_the_reviews_screen(
    moved_store: tuple[Store, str], size: tuple[int, int]
) -> None:
    store, forum = moved_store
    app = PaperApp(store=store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await _to_forum(pilot, app, forum)
        await settle(pilot)
        detail = static_text(main_screen(app).query_one(PaperDetail))
        assert "4→6/4" in detail and "mean 4.7 ↑5.3 (+0.67)" in detail, detail
        papers = main_screen(app).query_one(PaperList)
        row = papers.render_line(papers.cursor - int(papers.scroll_offset.y)).text
        wide = size[0] >= 200
        assert re.search(r" 4\.7 +5\.3↑" if wide else r" 5\.3↑", row), row
        assert "↑" not in papers.render_line(1 if papers.cursor == 0 else 0).text  # an unmoved paper
        if wide:
            assert "first Rating" in str(papers.border_title)
        screen, text, heads = await open_reviews(pilot)
        assert "Moved: rating 4 → 6 · confidence 3 → 4  (2025-11-04 → 2025-11-20)" in text, text
        assert text.count("Moved:") == 1  # only the review that moved
        assert "mean 4.7 ↑5.3" in text  # the header: the mean then and now
        at = next(n for n, head in enumerate(heads) if "Reviewer_tLpQ" in head)
        assert "Author response" in heads[at + 1]
        assert list(screen.query(".note"))[at + 1].styles.margin.left == 4
        # Markdown rendered, not shown raw.
        assert "# Response" not in text and "Response to W1" in text and "---" not in text and "**" not in text
        assert "• first point" in text or "- first point" in text.replace("  ", ""), text


async def test_moved_terms_filter_the_list_and_the_rise_sort_puts_the_rise_first(
    moved_store: tuple[Store, str],
) -> None:
    store, forum = moved_store
    app = PaperApp(store=store)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        papers = main_screen(app).query_one(PaperList)
        await pilot.press("slash", *"moved:up", "enter")
        await settle(pilot)
        assert papers.row_count == 1 and highlighted(app).openreview_id == forum
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"-moved:up", "enter")
        await settle(pilot)
        assert papers.row_count == len(store.paper_ids) - 1
        await pilot.press("slash", "ctrl+a", "ctrl+k", "enter")
        await settle(pilot)
        main_screen(app).sort_by("title")  # by title the risen paper ("Can Microcanonical …") is not first
        await settle(pilot)
        risen_row = papers.row_of(next(pid for pid in store.paper_ids if pid.endswith(forum)))
        assert risen_row is not None and risen_row > 0
        main_screen(app).sort_by("rise")
        await settle(pilot)
        risen = next(pid for pid in store.paper_ids if store.paper(pid).openreview_id == forum)  # type: ignore[union-attr]
        assert papers.row_count == len(store.paper_ids) and papers.row_of(risen) == 0  # the rise first
        assert not [n for n in app._notifications if "No rating moved" in str(n.message)]  # one did


async def test_with_no_rating_moved_the_rise_sort_and_moved_terms_say_so(seeded_store: Store) -> None:
    """A tester's find: with no review history (the seeds), the rise and fall sorts left the list
    in list order and a ``moved:up`` query listed nothing, without a word of why. The app says it
    as ``paperdeck list --sort rise`` does; a query that finds nothing else still says no match."""
    from paperdeck.search.selection import no_rating_moved_text

    from tests.ui.helpers import counts
    from tests.waits import wait_for

    app = PaperApp(store=seeded_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen, said = main_screen(app), no_rating_moved_text(frozenset())
        assert said == "No rating moved in these papers: list order."  # the command line's words
        assert not [n for n in app._notifications if str(n.message) == said]
        screen.sort_by("fall")
        await settle(pilot)
        await wait_for(pilot, lambda: [n for n in app._notifications if str(n.message) == said], what="the toast")
        papers = screen.query_one(PaperList)
        assert screen.view_ids() == seeded_store.paper_ids  # list order

        def first_line() -> str:
            return papers.render_line(0).text.strip()

        await pilot.press("slash", *"moved:up", "enter")
        await settle(pilot)
        await wait_for(pilot, lambda: first_line() == "No rating moved in these papers.", what=first_line)
        assert counts(app).lstrip().startswith("0 of 37")
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"title:zzqqxx", "enter")
        await settle(pilot)
        await wait_for(pilot, lambda: first_line() == "No papers match.", what=first_line)


@pytest.mark.parametrize(
    ("title", "answers"),
    [
        ("Response to Reviewer tLpQ", "F-tLpQ"),
        ("Reply to reviewer_tlpq (2/2)", "F-tLpQ"),
        ("Rebuttal for Reviewer: aB12", "F-aB12"),
        ("Response to Reviewers", ""),
        ("Response to Reviewer tLpQx", ""),  # no such reviewer: a longer id
        ("General response", ""),
    ],
)
def test_the_reviewer_a_title_names(title: str, answers: str) -> None:
    from paperdeck.model.review import answered_review

    reviewers = {"tlpq": "F-tLpQ", "ab12": "F-aB12"}
    reply = Review("F-r", "F", "F", AUTHOR_RESPONSE, "Authors", sections=(("title", title),))
    assert answered_review(reply, reviewers) == answers
    assert answered_review(Review("F-n", "F", "F-tLpQ", AUTHOR_RESPONSE, sections=(("title", title),)), reviewers) == ""


async def test_the_detail_shown_again_while_the_moves_are_found_finds_them_once(
    moved_store: tuple[Store, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The detail pane, shown again and again while the thread reading the summaries finds the
    moves (the typing goes on), starts no second thread doing the same (each went over every
    paper of the scope again)."""
    import threading

    from paperdeck.search import query_fields

    store, forum = moved_store
    found, calls, release = query_fields.first_means_of, [], threading.Event()

    def slow_first_means(*args: Any) -> dict[str, float]:
        calls.append(args)
        release.wait(GUARD_S)
        return found(*args)

    monkeypatch.setattr(query_fields, "first_means_of", slow_first_means)
    app = PaperApp(store=store)
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(pilot)
        for _ in range(4):  # the detail shown again, the read still under way
            await pilot.press("j", "k")
            await pilot.pause()
        release.set()
        await settle(pilot)
        await _to_forum(pilot, app, forum)
        await settle(pilot)
        assert "mean 4.7 ↑5.3 (+0.67)" in static_text(main_screen(app).query_one(PaperDetail))
        assert len(calls) == 1
