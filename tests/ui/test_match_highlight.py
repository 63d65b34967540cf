"""The words a query matched, typo matches included, are marked in the list's titles, in the
detail pane (title, authors, keywords, abstract) and in the reader, by the one highlight function."""

from __future__ import annotations

from typing import Any

from paperdeck.ui.screens.reader import PaperReader
from paperdeck.ui.widgets.detail_content import MATCH_STYLE
from paperdeck.ui.widgets.paper_detail import PaperDetail
from textual.widgets import Static

from tests.ui.helpers import SIZE, highlighted, main_screen, paper_list, settle
from tests.waits import wait_for


def _marked_in(detail: PaperDetail) -> list[str]:
    """The text of every span the detail's body marks as a match."""
    content: Any = detail.query_one("#detail-body", Static).render()
    return [content.plain[span.start : span.end] for span in content.spans if span.style == MATCH_STYLE]


def _marked_in_row(app: Any, row: int) -> list[str]:
    """The text of the underlined cells of the list's row ``row`` (the matched words)."""
    strip = paper_list(app).render_line(row)
    return [segment.text for segment in strip if segment.style is not None and segment.style.underline]


async def test_a_typo_match_is_marked_in_the_list_the_detail_pane_and_the_reader(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"difusion")  # a typo of "diffusion"
        await settle(pilot)
        screen = main_screen(app)
        await wait_for(pilot, lambda: screen.list_filter.applied_filter == ("difusion", False), what="the query")
        assert "diffusion" in screen.list_filter.terms
        paper = highlighted(app)
        assert "diffusion" in paper.title.casefold(), paper.title
        row = screen.view_ids().index(paper.id)
        assert [w.casefold() for w in _marked_in_row(app, row)] == ["diffusion"], _marked_in_row(app, row)
        await pilot.press("enter")  # to the list
        await settle(pilot)
        detail = screen.query_one(PaperDetail)

        # The marks of the query as typed in full (a frame drawn while it was typed marks its prefix).
        def typo_marked() -> bool:
            found = {m.casefold() for m in _marked_in(detail)}
            return "diffusion" in found and found <= {"diffusion", "diffusions"}

        await wait_for(pilot, typo_marked, what=lambda: f"the detail pane's marks: {_marked_in(detail)}")
        marks = _marked_in(detail)
        title_marks = [m for m in marks if m.casefold() == "diffusion"]
        assert title_marks, marks
        await pilot.press("enter")  # the reader
        await settle(pilot)
        assert isinstance(app.screen, PaperReader)
        assert _marked_in(app.screen.query_one(PaperDetail)) == marks


async def test_the_marks_follow_the_query_while_the_same_paper_stays_highlighted(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = main_screen(app).query_one(PaperDetail)
        assert _marked_in(detail) == []
        await pilot.press("slash", *"pruning", "enter")  # typed, then to the list
        await settle(pilot)
        # The marks of the query as typed in full (a frame drawn while it was typed marks its prefix).
        await wait_for(
            pilot,
            lambda: {m.casefold() for m in _marked_in(detail)} == {"pruning"},
            what=lambda: f"the detail pane's marks of 'pruning': {_marked_in(detail)}",
        )
        chosen = highlighted(app).id
        await pilot.press("escape")  # the query cleared, the paper kept highlighted
        await settle(pilot)
        assert highlighted(app).id == chosen and main_screen(app).list_filter.terms == ()
        await wait_for(pilot, lambda: not _marked_in(detail), what="the marks gone")


async def test_the_words_of_a_text_term_are_marked_too(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"abstract:pruning -title:llms", "enter")
        await settle(pilot)
        detail = main_screen(app).query_one(PaperDetail)
        # The marks of the query as typed in full (a frame drawn while it was typed marks its prefix).
        await wait_for(
            pilot,
            lambda: {m.casefold() for m in _marked_in(detail)} == {"pruning"},
            what=lambda: f"the detail pane's marks of 'pruning': {_marked_in(detail)}",
        )


async def test_a_new_ranking_compares_marks_only_on_the_lines_it_keeps(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        ids = list(main_screen(app).view_ids())
        height = papers.scrollable_content_region.height
        assert len(ids) >= 2 * height
        compared: list[tuple[str, tuple[str, ...]]] = []
        spans = papers._title_spans

        def spy(title: str, terms: tuple[str, ...]) -> list[tuple[int, int]]:
            compared.append((title, terms))
            return spans(title, terms)

        papers._title_spans = spy  # type: ignore[method-assign]
        papers.show(ids[height:] + ids[:height], terms=("learning",))  # every line replaced
        assert compared == []
        papers.show(ids[height:] + ids[:height], terms=("model",))  # every line kept
        assert len(compared) == 2 * height  # the marks before and after, per line
        await settle(pilot)  # (drawn: the rows' marks looked up again)
        compared.clear()
        papers.show(ids[height:] + ids[:height], terms=("model",))  # the same marks: nothing compared
        assert compared == []
