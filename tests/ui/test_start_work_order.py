"""What the app does between its first frame and the first query typed painted: only that
query's work. The change log is read, and the saved search index's CRC checked, once the list
that query ranked is painted and the typing pauses; a saved index that fails its CRC then is said
once, built again, and the query ranked anew."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from paperdeck.search import searcher
from paperdeck.search.index import SearchIndex
from paperdeck.search.searcher import INDEX_FILE, Searcher
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.main import MainScreen

from tests.search.test_saved_index import _rewrite
from tests.ui.helpers import SIZE, main_screen, settle
from tests.ui.test_index_at_start import store_with_a_held_index
from tests.waits import wait_for


async def test_the_change_log_is_read_after_the_first_query_typed_is_painted(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A query typed as the list shows, its index slow to come: the change log waits for it
    (it used to be read once the typing paused, counted from the app's start: while the query
    still waited for its index)."""
    store, release = store_with_a_held_index(seeded_store, monkeypatch)
    monkeypatch.setattr(MainScreen, "PARSE_AFTER_INPUT_S", 0.1)
    reads: list[tuple[str, bool] | None] = []
    app = PaperApp(store=store)
    changed_since_looked = Store.changed_since_looked

    def counted(self: Store) -> object:
        if threading.current_thread() is not threading.main_thread():
            reads.append(main_screen(app).applied_filter)
        return changed_since_looked(self)

    monkeypatch.setattr(Store, "changed_since_looked", counted)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"REAP")
        await pilot.pause(0.5)  # five pauses' worth: the index still held
        assert main_screen(app).searcher.index.built is None
        assert not reads
        release.set()
        await wait_for(pilot, lambda: reads, what="the change log read")
        assert reads == [("REAP", False)]
        await settle(pilot)


def _notices(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The search index's notices the main screen gives (kept here: a toast expires)."""
    said: list[str] = []
    index_notice = MainScreen._index_notice

    def kept(self: MainScreen, line: str) -> None:
        said.append(line)
        index_notice(self, line)

    monkeypatch.setattr(MainScreen, "_index_notice", kept)
    return said


def _unchecked_reads(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether the search index was still unchecked at each query ranked."""
    seen: list[bool] = []
    search_positions = SearchIndex.search_positions

    def counted(self: SearchIndex, *args: object, **kwargs: object) -> object:
        seen.append(any(s.unchecked for s in _searchers))
        return search_positions(self, *args, **kwargs)

    _searchers: list[Searcher] = []
    init = Searcher.__init__

    def kept(self: Searcher, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        _searchers.append(self)

    monkeypatch.setattr(SearchIndex, "search_positions", counted)
    monkeypatch.setattr(Searcher, "__init__", kept)
    return seen


async def test_the_first_query_ranks_before_the_saved_index_is_read_through(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    searcher.build_index(seeded_store)
    store = Store(seeded_store.data_dir, lazy=True)
    unchecked = _unchecked_reads(monkeypatch)
    said = _notices(monkeypatch)
    monkeypatch.setattr(MainScreen, "PARSE_AFTER_INPUT_S", 30.0)  # no pause before the keys, however slow the machine
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"REAP")
        await wait_for(pilot, lambda: main_screen(app).applied_filter == ("REAP", False))
        assert main_screen(app).searcher.unchecked
        main_screen(app).loader.check_now()  # as a pause would
        await wait_for(pilot, lambda: not main_screen(app).searcher.unchecked, what="the CRC checked")
        await settle(pilot)
        assert unchecked and unchecked[0]  # ranked on the file as mapped, before its CRC was read
        assert not said


async def test_a_saved_index_only_its_crc_tells_damaged_is_said_once_and_the_query_ranked_again(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    searcher.build_index(seeded_store)
    path: Path = seeded_store.data_dir / INDEX_FILE
    expected = SearchIndex(seeded_store.papers, {}).search_ids("diffusion")
    _rewrite(path, "edited")  # a posting moved to another paper: only the CRC tells
    monkeypatch.setattr(MainScreen, "PARSE_AFTER_INPUT_S", 30.0)  # no pause before the keys, however slow the machine
    said = _notices(monkeypatch)
    store = Store(seeded_store.data_dir, lazy=True)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = main_screen(app)
        await pilot.press("slash", *"diffusion")
        await wait_for(pilot, lambda: screen.applied_filter == ("diffusion", False))
        first = screen.searcher.index.built
        assert first is not None and screen.searcher.unchecked
        assert not said
        screen.loader.check_now()  # as a pause would
        await wait_for(pilot, lambda: said, what="the notice")
        await wait_for(pilot, lambda: screen.searcher.index.built not in (None, first), what="the index built again")
        await settle(pilot)
        assert len(said) == 1 and str(path) in said[0] and "built again" in said[0]
        built = screen.searcher.index.built
        assert built is not None and built.search_ids("diffusion") == expected
        assert screen.applied_filter == ("diffusion", False)
        shown = screen.paper_list._ids
        assert [shown[at] for at in range(min(5, len(shown)))] == expected[:5]


def _postings_out_of_range(path: Path) -> None:
    """Every posting of the saved index at ``path`` made to name a paper past the last, in place
    (its structure whole: only its CRC tells)."""
    import sys

    from paperdeck.search.index_file import read_sections

    raw = bytearray(path.read_bytes())
    header, sections = read_sections(path)
    offsets = {name: offset for name, _, _, offset, _ in header["sections"]}
    last = header["sections"][-1]
    end = last[3] + last[4]
    at = len(raw) - (end + -end % 8) + offsets["postings"]
    assert int.from_bytes(raw[at : at + 4], sys.byteorder) == sections["postings"][0]
    far = (0x7FFFFF).to_bytes(4, sys.byteorder)
    for k in range(len(sections["postings"])):
        raw[at + 4 * k : at + 4 * k + 4] = far
    del sections
    path.write_bytes(bytes(raw))


async def test_a_query_that_fails_on_a_damaged_unchecked_index_has_it_checked_at_once(
    seeded_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A query meeting an error in the saved index read unchecked (postings naming no paper):
    no crash; the check runs at once, not after a pause; the file is said once, built again, and
    the query ranked on the index built."""
    searcher.build_index(seeded_store)
    path: Path = seeded_store.data_dir / INDEX_FILE
    expected = SearchIndex(seeded_store.papers, {}).search_ids("diffusion")
    _postings_out_of_range(path)
    monkeypatch.setattr(MainScreen, "PARSE_AFTER_INPUT_S", 30.0)  # no pause would come in time
    said = _notices(monkeypatch)
    store = Store(seeded_store.data_dir, lazy=True)
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        screen = main_screen(app)
        await pilot.press("slash", *"diffusion")
        await wait_for(pilot, lambda: said, what="the notice")
        await wait_for(pilot, lambda: screen.applied_filter == ("diffusion", False))
        await wait_for(pilot, lambda: list(screen.paper_list._ids)[:5] == expected[:5], what="the query ranked again")
        assert len(said) == 1 and str(path) in said[0] and "built again" in said[0]
        await settle(pilot)
