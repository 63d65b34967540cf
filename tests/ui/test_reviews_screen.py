"""The reviews in the app: scores at a glance in the detail pane, the reviews screen on ``R``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.review import ordered_reviews
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.reader import PaperReader
from paperdeck.ui.screens.reviews import ReviewsScreen
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widgets import Static

from tests.helpers import ReviewSample
from tests.ui.helpers import SIZE, highlighted, main_screen, settle

HOSTILE = "Weak \x1b[31mred\x1b[0m [bold]not markup[/bold] and $\\alpha^2$ with *emphasis*"


@pytest.fixture
def reviewed_store(tmp_path: Path, review_sample: ReviewSample) -> tuple[Store, list[dict[str, Any]]]:
    notes = review_sample.notes()
    hostile = json.loads(json.dumps(notes[0]))
    hostile.update(id="hostile001", tmdate=hostile["tmdate"] + 1)
    hostile["content"]["weaknesses"]["value"] = HOSTILE
    reply = {  # an author response answering that review: threaded under it
        "id": "reply001", "forum": hostile["forum"], "replyto": "hostile001", "cdate": hostile["cdate"] + 5,
        "tmdate": hostile["cdate"] + 5, "signatures": ["ICLR.cc/2026/Conference/Submission1/Authors"],
        "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Official_Comment"],
        "content": {"comment": {"value": "We thank the reviewer."}},
    }  # fmt: skip
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps([hostile, reply]))
    store = Store(tmp_path / "data")
    import_files(store, [review_sample.papers_file, review_sample.notes_file, extra])
    return store, [*notes, hostile, reply]


def _text(screen: Any) -> str:
    return "\n".join(str(static.render()) for static in screen.query(Static))


async def test_detail_pane_shows_each_reviewers_rating_spread_and_rank(
    reviewed_store: tuple[Store, list[dict[str, Any]]],
) -> None:
    store, notes = reviewed_store
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        paper = highlighted(app)
        mine = [n for n in notes if n["forum"] == paper.openreview_id and "rating" in n["content"]]
        text = _text(main_screen(app).query_one(PaperDetail))
        pairs = [f"{n['content']['rating']['value']}/{n['content']['confidence']['value']}" for n in mine]
        assert "Reviews: " in text and all(pair in text for pair in pairs), text
        ratings = [n["content"]["rating"]["value"] for n in mine]
        assert f"spread {max(ratings) - min(ratings)}" in text and "top " in text
        # The rank says what it is relative to: every rated paper of its venue in the store, not the
        # list shown, and names that venue (not "of all": another venue's papers are not counted).
        summaries = store.reviews.summaries()
        venue = summaries[paper.openreview_id].venue
        rated = sum(1 for s in summaries.values() if s.mean is not None and s.venue == venue)
        assert venue == "ICLR.cc/2026/Conference", venue
        assert f" % of {rated:,} rated in ICLR 2026" in text and "of all" not in text, text


async def test_R_shows_the_reviews_threaded_with_scores_and_hostile_text_made_harmless(
    reviewed_store: tuple[Store, list[dict[str, Any]]],
) -> None:
    store, notes = reviewed_store
    forum = next(n["forum"] for n in notes if n["id"] == "hostile001")
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(20):
            if highlighted(app).openreview_id == forum:
                break
            await pilot.press("j")
        assert highlighted(app).openreview_id == forum
        await pilot.press("R")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewsScreen)
        text = _text(screen)
        words = " ".join(re.findall(r"[A-Za-z]{4,}", text))
        for note in notes:
            if note["forum"] == forum and "weaknesses" in note["content"] and note["id"] != "hostile001":
                assert note["signatures"][0].rsplit("/", 1)[1] in text
                first = re.findall(r"[A-Za-z]{4,}", note["content"]["weaknesses"]["value"])[:4]
                assert " ".join(first) in words
        assert "\x1b" not in text and "␛[31m" in text and "[bold]not markup[/bold]" in text
        assert "α" in text  # LaTeX rendered as abstracts are
        assert "Author response" in text and "We thank the reviewer." in text
        order = [(depth, review.id) for depth, review in ordered_reviews(screen.reviews)]
        at = order.index((0, "hostile001"))
        assert order[at + 1] == (1, "reply001")  # threaded under the review it answers
        heads = list(screen.query(".note"))
        assert "Author response" in str(heads[at + 1].render()) and heads[at + 1].styles.margin.left == 4
        # } after sections: the next note below where the reader is, never back to the one above.
        await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
        await pilot.pause()
        section = screen.query_one(".section-name.current")
        await pilot.press("right_curly_bracket")
        await pilot.pause()
        note = screen.query_one(".note.current")
        assert note.virtual_region.y > section.virtual_region.y
        await pilot.press("right_curly_bracket", "right_curly_bracket")
        assert len(screen.query(".note.current")) == 1
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is main_screen(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PaperReader)
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, ReviewsScreen)


async def test_review_terms_filter_the_list_in_a_worker_and_read_the_word_index_only_then(
    reviewed_store: tuple[Store, list[dict[str, Any]]],
) -> None:
    from paperdeck.search.query import parse_query

    store, notes = reviewed_store

    def having(word: str) -> set[str]:
        texts = {n["forum"]: "" for n in notes}
        for n in notes:
            for field in n["content"].values():
                if isinstance(field.get("value"), str):
                    texts[n["forum"]] += " " + field["value"].casefold()
        return {f"openreview:{f}" for f, text in texts.items() if re.search(rf"(?<![^\W_]){word}", text)}

    app = PaperApp(store=Store(store.data_dir, lazy=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert app.store.reviews._words is None  # not read at start
        assert screen.list_filter.may_be_slow(parse_query("review:thank"))  # in a thread, off the event loop
        for text, expected in [("review:thank", having("thank")), ("-review:thank", None)]:
            await pilot.press("slash", "ctrl+a", "ctrl+k", *text)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = set(screen.view_ids())
            if expected is None:
                assert shown == set(app.store.paper_ids) - having("thank")
            else:
                assert shown == expected and expected, text
        assert app.store.reviews._words is not None


def test_a_comments_markdown_is_rendered_and_its_hostile_text_stays_data() -> None:
    """A rebuttal's headings and rules are drawn, not shown raw; a terminal sequence, Textual markup
    and a link to anything but http(s) stay visible text."""
    from paperdeck.ui.screens.reviews import _rendered

    comment = (
        "# Response to \x1b[31mReviewer\x1b[0m\n[bold red]not markup[/]\n\n---\n\n"
        "- see [the code](https://example.org/code) and [this](javascript:alert(1))\n"
        "## Part [link=file:///etc/passwd]two[/link]\n> *quoted*"
    )
    content = _rendered(comment)
    plain = content.plain
    lines = plain.split("\n")
    assert lines[0] == "Response to ␛[31mReviewer␛[0m"  # the heading, its marker gone, the escape visible
    assert "\x1b" not in plain and "# " not in plain and "---" not in plain
    assert "[bold red]not markup[/]" in lines  # markup is text
    assert any(set(line) == {"─"} for line in lines)  # the rule, drawn
    assert "• see the code and [this](javascript:alert(1))" in lines
    assert "Part [link=file:///etc/passwd]two[/link]" in lines
    assert "▏ quoted" in lines
    links = {str(span.style) for span in content.spans if "link" in str(span.style)}
    assert links and all("https://example.org/code" in link for link in links), links
    heading = plain.index("Response")
    assert any(span.start <= heading < span.end and "bold" in str(span.style) for span in content.spans)


#: A table row wider than any terminal: its first cell is cut with ``…`` to fit.
LONG_ROW = "|" + "x" * 120 + "|" + "y" * 10 + "|"


def table_review_app(tmp_path: Path) -> PaperApp:
    """An app on a store whose paper ``HostEsc001`` has a review holding a Markdown table (its
    last row :data:`LONG_ROW`) and an image (``hostile13`` fixtures)."""
    from tests.helpers import fixture

    note = json.loads(fixture("hostile13_openreview_review-table-image.jsonl").read_text("utf-8"))
    note["content"]["strengths"]["value"] += "\n" + LONG_ROW
    notes = tmp_path / "review.jsonl"
    notes.write_text(json.dumps(note) + "\n", "utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [fixture("hostile13_openreview_escapes-nan-rating.jsonl"), notes])
    return PaperApp(store=store)


async def open_table_reviews(app: PaperApp, pilot: Any) -> ReviewsScreen:
    """Highlight ``HostEsc001`` and open its reviews (``R``); the reviews screen."""
    await settle(pilot)
    for _ in range(3):
        if highlighted(app).openreview_id == "HostEsc001":
            break
        await pilot.press("j")
    await pilot.press("R")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ReviewsScreen)
    return screen


async def test_a_reviews_table_and_image_are_laid_out_at_80_columns(tmp_path: Path) -> None:
    """The thirteenth round's tester: a review's ``|a|b|`` table showed raw pipes and its image
    ``!img``. On the reviews screen (80×24) the table is columns, a long cell cut with ``…`` to fit,
    and the image ``[image: img] <http://x/y.png>``."""
    app = table_review_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table_reviews(app, pilot)
        text = _text(screen)
        assert "[image: img] <http://x/y.png>" in text and "!img" not in text
        lines = text.split("\n")
        header = next(line for line in lines if line.startswith("a "))
        assert header.rstrip().endswith("│ b") and "|a|b|" not in text, text
        cut = next(line for line in lines if line.startswith("xxx"))
        assert cut.endswith("│ yyyyyyyyyy") and "…" in cut and len(cut) <= 80 - 4


def test_the_reviews_screen_sets_a_table_apart_by_a_blank_line_before_and_after() -> None:
    """The thirteenth round's tester: the table started straight after ``…RTX 3060 GPU:`` and the
    next paragraph followed it directly; a heading after a table keeps its one blank line."""
    from paperdeck.ui.screens.reviews import _rendered

    text = "We ran it on an RTX 3060 GPU:\n\n|a|b|\n|-|-|\n|1|2|\n\nThe next paragraph.\n|c|\n|-|\n|3|\n\n## Then"
    assert _rendered(text).plain.split("\n") == [
        "We ran it on an RTX 3060 GPU:", "", "a │ b", "──┼──", "1 │ 2", "", "The next paragraph.",
        "", "c", "─", "3", "", "Then",
    ]  # fmt: skip
