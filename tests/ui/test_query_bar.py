"""The filter bar takes field terms too: they filter, words rank; a malformed query shows a hint
and keeps the last good result."""

from __future__ import annotations

import asyncio
from pathlib import Path

from paperdeck.model.paper import Paper, Ratings
from paperdeck.search.query import parse_query
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen
from paperdeck.ui.widgets.filter_bar import FilterBar
from textual.pilot import Pilot

from tests.ui.helpers import SIZE, counts, main_screen, paper_list, settle
from tests.waits import GUARD_S, wait_for

PAPERS = [
    Paper(id="openreview:A", title="Diffusion sampling fast", abstract="a", decision="oral", ratings=Ratings(7.0)),
    Paper(id="openreview:B", title="Diffusion sampling slow", abstract="b", decision="poster", ratings=Ratings(5.0)),
    Paper(id="openreview:C", title="Graph networks", abstract="c", decision="oral", ratings=Ratings(6.5)),
    Paper(id="openreview:D", title="Diffusion without reviews", abstract="d", decision="withdrawn"),
]


async def typed(pilot: Pilot[None], text: str) -> list[str]:
    await pilot.press("slash", "ctrl+a", "ctrl+k", *text)
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return list(main_screen(pilot.app).view_ids())  # type: ignore[arg-type]


def papers_app(tmp_path: Path) -> PaperApp:
    """The app on a store of :data:`PAPERS`."""
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    return PaperApp(store=store)


async def test_fields_filter_and_words_rank(tmp_path: Path) -> None:
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await typed(pilot, "difusion decision:oral") == ["openreview:A"]
        assert await typed(pilot, "decision:oral rating>=6.6") == ["openreview:A"]
        assert set(await typed(pilot, "difusion -decision:withdrawn")) == {"openreview:A", "openreview:B"}
        assert await typed(pilot, "(graph OR fast) rating:6..8") in (
            ["openreview:A", "openreview:C"],
            ["openreview:C", "openreview:A"],
        )
        good = await typed(pilot, "decision:oral")
        main_screen(app).query_one(FilterBar).value = "decision:oral rating>=abc"  # pasted at once
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert main_screen(app).view_ids() == good  # the last good result stays
        assert "rating needs a number" in counts(app)
        assert paper_list(app).row_count == len(good)


async def test_a_query_that_may_be_slow_runs_once_typing_pauses(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Text terms under OR are checked paper by paper (~0.2 s at 19,630 papers): such a query runs
    in a thread, after a pause in the typing, so the keys typed meanwhile never wait for it and
    the prefixes typed in a burst are never searched."""
    import paperdeck.search.selection as selection

    searched: list[str] = []
    run_query = selection.run_query

    def spy(searcher, query, *args):  # type: ignore[no-untyped-def]
        searched.append(query.text)
        return run_query(searcher, query, *args)

    monkeypatch.setattr(selection, "run_query", spy)
    # The typing pauses when the test says so, not after SLOW_QUERY_WAIT_S (a loaded machine took
    # longer than any such wait between two of pilot's keys, and a prefix was searched).
    import paperdeck.ui.screens.list_filter as list_filter_module

    typing_paused = asyncio.Event()

    class TypingPauses:
        """The module's ``asyncio``, but its slow query's wait ends once ``typing_paused`` is set."""

        def __getattr__(self, name: str) -> object:
            return getattr(asyncio, name)

        @staticmethod
        async def sleep(delay: float) -> None:
            assert delay == MainScreen.SLOW_QUERY_WAIT_S
            await typing_paused.wait()

    monkeypatch.setattr(list_filter_module, "asyncio", TypingPauses())
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        assert screen.list_filter.may_be_slow(parse_query("graph OR title:sampling"))
        assert not screen.list_filter.may_be_slow(parse_query("diffusion decision:oral"))
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"graph OR title:slow")
        assert not [text for text in searched if screen.list_filter.may_be_slow(parse_query(text))]
        typing_paused.set()
        await wait_for(
            pilot,
            lambda: main_screen(app).view_ids() == ["openreview:B", "openreview:C"],
            what=lambda: f"the slow query's result, not {main_screen(app).view_ids()}",
        )
        slow = [text for text in searched if screen.list_filter.may_be_slow(parse_query(text))]
        assert slow == ["graph OR title:slow"]  # none of "graph OR t", "graph OR ti", … typed before
        searched.clear()
        assert await typed(pilot, "difusion decision:oral") == ["openreview:A"]
        assert len(searched) > 5  # a quick query: ranked at each key, in the frame that shows it


async def test_slash_selects_the_query_so_that_typing_replaces_it(tmp_path: Path) -> None:
    """A view opened with a digit, or ``m`` (more like this), puts a query in the filter bar;
    ``/`` then selects it whole: what is typed replaces it (``like:X`` then ``renyi`` gave
    ``like:Xrenyi``, a "no such paper" hint over the old list), while ``end`` (or ←, →) keeps
    it to edit, the cursor at its end (``/`` once typed before it: ``Zis:starred``)."""
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bar = main_screen(app).query_one(FilterBar)
        await pilot.press("slash", *"diffusion", "enter")  # the cursor was at 9: a longer query follows
        await settle(pilot)
        await pilot.press("1")  # the Starred view: is:starred
        await settle(pilot)
        await pilot.press("slash", "end", "Z")
        await settle(pilot)
        assert bar.value == "is:starredZ"
        await pilot.press("escape", "m")  # more like the highlighted paper
        await settle(pilot)
        typed_in = bar.value
        assert typed_in.startswith("like:")
        await pilot.press("slash")
        assert bar.selected_text == typed_in
        await pilot.press("right", "x")
        assert bar.value == typed_in + "x"
        await pilot.press("backspace", "enter", "slash", *"graph")
        await settle(pilot)
        assert bar.value == "graph"
        assert main_screen(app).view_ids() == ["openreview:C"]


async def test_a_query_that_cannot_run_dims_the_list_and_keeps_enter_in_the_bar(tmp_path: Path) -> None:
    """A query that cannot run (``like:`` naming no paper, a missing quote) keeps the last good
    list, dimmed, and the hint beside the counts; ``enter`` stays in the bar and says why (it
    went to the old list, where a second ``enter`` opened a paper the query never found). A query
    that runs shows its list undimmed, and ``enter`` leaves for it again."""
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen, bar = main_screen(app), main_screen(app).query_one(FilterBar)
        good = await typed(pilot, "diffusion")
        assert not paper_list(app).stale
        # and a misspelt field (the fifteenth round's tester: `decison:oral` listed word matches),
        # a lone "-" negating nothing (it listed every paper, while NOT alone was refused)
        for broken in ("like:openreview:Zdiffusion", 'diffusion "sampling', "decison:oral", "graph -", "-"):
            bar.value = broken  # pasted at once: its prefixes would be queries of their own
            await settle(pilot)
            await app.workers.wait_for_complete()
            await settle(pilot)
            assert screen.view_ids() == good  # the last good result stays…
            assert screen.query_hint is not None and paper_list(app).stale  # …dimmed, the hint said
            await pilot.press("enter")
            await settle(pilot)
            assert screen.focused is bar
            assert any("The query did not run" in str(n.message) for n in app._notifications)
        assert await typed(pilot, "graph") == ["openreview:C"]
        assert screen.query_hint is None and not paper_list(app).stale
        await pilot.press("enter")
        await settle(pilot)
        assert screen.focused is paper_list(app)


async def test_a_query_typed_before_the_index_is_ready_says_searching(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """While the search index is built, words cannot rank yet: the counts say ``searching…``,
    never the whole list's count as if every paper matched; field terms filter at once; once the
    index is built, the words' result shows."""
    import threading

    import paperdeck.search.searcher as searcher_module

    release = threading.Event()
    build = searcher_module.build_index

    def slow_build(store, *notice, **unchecked):  # type: ignore[no-untyped-def]
        release.wait(GUARD_S)
        return build(store, *notice, **unchecked)

    monkeypatch.setattr(searcher_module, "build_index", slow_build)
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("slash", *"graph")
        await pilot.pause()
        assert "searching…" in counts(app)
        assert "4 of 4" not in counts(app)
        await pilot.press("ctrl+a", "ctrl+k", *"decision:oral")  # field terms need no index: filtered now
        await wait_for(
            pilot, lambda: main_screen(app).view_ids() == ["openreview:A", "openreview:C"], what="the oral papers"
        )
        assert "2 of 4" in counts(app) and app.screen.searcher.index.built is None  # type: ignore[attr-defined]
        await pilot.press("ctrl+a", "ctrl+k", *"graph")
        await pilot.pause()
        assert "searching…" in counts(app)
        release.set()
        await settle(pilot)
        assert main_screen(app).view_ids() == ["openreview:C"]
        assert "searching…" not in counts(app) and "1 of 4" in counts(app)


async def test_an_ignored_query_counts_as_no_filter(tmp_path: Path) -> None:
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for text in ("-", " - ", "?", "( )"):
            await typed(pilot, text)
            if "(" in text or "-" in text:  # a "-" negating nothing is refused, as NOT alone
                assert counts(app).startswith("⚠")  # malformed: a hint, not the counts
            else:
                assert counts(app) == "4 papers", (text, counts(app))
        await typed(pilot, "-x")
        assert counts(app).startswith("  4 of 4")  # as wide as "4 papers"


async def test_with_a_saved_index_words_filter_before_the_catalogue_is_parsed(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The search index saved at import is read at start: a query typed at once ranks the whole
    store while the catalogue is not parsed yet (the parse waits for the list to be painted and
    the typing to pause, and is held back here)."""
    import threading

    from paperdeck.search.searcher import build_index

    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    build_index(store)  # as `paperdeck import` leaves it
    release = threading.Event()
    load = Store.load

    def held_load(self: Store) -> None:
        release.wait(GUARD_S)
        load(self)

    monkeypatch.setattr(Store, "load", held_load)
    app = PaperApp(store=Store(tmp_path / "data", lazy=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"graph")
        await wait_for(pilot, lambda: main_screen(app).view_ids() == ["openreview:C"], what="the graph paper")
        assert not app.store.loaded and "1 of 4" in counts(app)
        release.set()
        await settle(pilot)
        assert app.store.loaded


async def test_spaces_and_or_without_parentheses_say_how_they_are_read(tmp_path: Path) -> None:
    """``a b OR c`` is ``(a b) OR c``: the counts say so, in short where the bar is narrow;
    parentheses, or no ``OR``, say nothing."""
    from paperdeck.search.query import PRECEDENCE_NOTE, PRECEDENCE_SHORT

    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # (diffusion fast) OR graph: A and C; diffusion (fast OR graph) would be A alone.
        assert set(await typed(pilot, "diffusion fast OR graph")) == {"openreview:A", "openreview:C"}
        assert counts(app).endswith(PRECEDENCE_NOTE), counts(app)
        assert await typed(pilot, "diffusion (fast OR graph)") == ["openreview:A"]
        assert PRECEDENCE_NOTE not in counts(app) and PRECEDENCE_SHORT not in counts(app)
        await typed(pilot, "diffusion fast")
        assert PRECEDENCE_SHORT not in counts(app)
        await typed(pilot, "diffusion fast OR graph")
        await pilot.resize_terminal(70, SIZE[1])
        await settle(pilot)  # the counts are laid out again for the new width after the resize
        # The short note ends the long one as well: wait for the long one gone, not the short one there.
        await wait_for(
            pilot,
            lambda: counts(app).endswith(PRECEDENCE_SHORT) and PRECEDENCE_NOTE not in counts(app),
            what=lambda: counts(app),
        )


async def test_an_unknown_field_says_so_beside_the_counts(tmp_path: Path) -> None:
    """``decison:blue`` (no decision is "blue") is searched as text, and the counts name the field
    meant; ``foo:bar`` says it is no field (the fields listed where there is room); at 80 columns
    the short form fits. A misspelt field whose value the field takes runs nothing, said."""
    app = papers_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await typed(pilot, "decison:blue") == []  # no decision is "blue": only words
        assert counts(app).endswith("did you mean decision:?"), counts(app)
        await typed(pilot, "foo:bar")
        assert "unknown field foo:" in counts(app), counts(app)
        await typed(pilot, "ratng>=6")  # a misspelt field that would run: refused, said
        assert counts(app).startswith("⚠") and "did you mean rating>=?" in counts(app), counts(app)
        await pilot.resize_terminal(80, 24)
        await typed(pilot, "ratng:x")
        assert counts(app).endswith("ratng: → rating:?"), counts(app)
        await typed(pilot, "decison:blue")
        assert counts(app).endswith("decison: → decision:?"), counts(app)
        await typed(pilot, "foo:bar")  # the fields listed whole in a toast
        note = parse_query("foo:bar").note
        assert note is not None and "title:" in note
        await wait_for(pilot, lambda: [n for n in app._notifications if n.message == note], what="the fields' toast")
        await typed(pilot, "diffusion")
        assert "venu" not in counts(app)


async def test_a_pasted_link_shows_its_paper(tmp_path: Path) -> None:
    """A link to a paper (or its bare OpenReview id) pasted in the filter bar shows that paper."""
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id="openreview:ukGxWd2aDG", openreview_id="ukGxWd2aDG", title="Linked", abstract="x"),
                         *PAPERS])  # fmt: skip
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert await typed(pilot, "https://openreview.net/forum?id=ukGxWd2aDG") == ["openreview:ukGxWd2aDG"]
        assert await typed(pilot, "ukGxWd2aDG") == ["openreview:ukGxWd2aDG"]
        assert await typed(pilot, "id:nothere123") == []
        assert counts(app).strip() == "0 of 5", counts(app)
