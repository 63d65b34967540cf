"""What changed, in the app: the row mark, the What changed view, the history in the detail pane,
and opening a paper (its reader or its reviews) clearing its mark."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review import Review
from paperdeck.sources.importer import import_files
from paperdeck.store.changes import SEEN_FILE
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.filter_bar import FilterBar
from paperdeck.ui.widgets.row_cells import CHANGED
from textual.widgets import Static

from tests.helpers import DECISIONS_NAME, fixture, review_parts, run, submission_parts
from tests.store.test_changes import changed_slice, clock
from tests.ui.helpers import SIZE, counts, main_screen, paper_list, settle
from tests.ui.test_snapshots import SnapCompare
from tests.waits import screen_settled, wait_for

NOV22, NOV29 = 1763769600000, 1764374400000  # 2025-11-22 and 2025-11-29, 00:00 UTC


def _row_text(app: PaperApp, y: int) -> str:
    return "".join(segment.text for segment in paper_list(app).render_line(y))


async def test_the_what_changed_view_shows_exactly_the_changed_papers(tmp_path: Path) -> None:
    real = changed_slice(tmp_path)
    store = Store(tmp_path / "data", now=clock())
    import_files(store, real.before)
    store.first_look()  # the app opened the store: what follows is news
    import_files(store, real.after)
    changed = set(store.changes_by_paper())
    assert {pid.removeprefix("openreview:") for pid in changed} == real.decisions.keys() | {s[0] for s in real.scores}
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")  # What changed
        await settle(pilot)
        screen = main_screen(app)
        assert screen.query_one(FilterBar).value == "is:changed"
        assert set(screen.view_ids()) == changed
        assert counts(app).startswith(f"What changed: {len(changed)} of {store.paper_count}")
        assert all(_row_text(app, y)[4] == CHANGED for y in range(1, min(len(changed), 10)))
        first = paper_list(app).highlighted_id
        assert first is not None
        detail = str(screen.query_one("#detail-body", Static).render())
        assert "What changed" in detail and " → " in detail
        await pilot.press("enter")  # the reader: the paper is looked at
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert first not in store.changed_since_looked()
        # The view follows at once: its rows and its count agree with the marks.
        assert set(screen.view_ids()) == changed - {first}
        assert counts(app).startswith(f"What changed: {len(changed) - 1} of {store.paper_count}")
        assert paper_list(app).highlighted_id != first
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"-is:changed", "enter")
        await settle(pilot)
        assert set(screen.view_ids()) == set(store.paper_ids) - changed | {first}


def _history_store(tmp_path: Path) -> Store:
    """Two papers; the second import moves one review's rating 4 → 6 and its decision."""
    store = Store(tmp_path / "data", now=clock())
    papers = [
        Paper(id="openreview:A1", title="Sparse mixtures of experts at scale", abstract="Experts " * 30,
              decision="under-review", openreview_id="A1"),
        Paper(id="openreview:B2", title="Graph transformers revisited", abstract="Graphs " * 30,
              decision="under-review", openreview_id="B2"),
    ]  # fmt: skip

    def review(note: str, signature: str, rating: float, tmdate: int) -> Review:
        return Review(note, "A1", "A1", "review", signature, cdate=NOV22, tmdate=tmdate,
                      scores=(("rating", rating), ("confidence", 3.0)))  # fmt: skip

    store.import_papers(papers)
    store.first_look()  # the app opened the store: what follows is news
    store.import_reviews([review("n1", "Reviewer_hsV6", 4, NOV22), review("n2", "Reviewer_x1Y2", 5, NOV22)])
    store.import_reviews([review("n1", "Reviewer_hsV6", 6, NOV29)])
    store.import_papers([Paper(id="openreview:A1", title=papers[0].title, abstract=papers[0].abstract,
                               decision="poster", openreview_id="A1", ratings=Ratings(5.5))])  # fmt: skip
    return store


async def test_the_detail_pane_shows_the_history(tmp_path: Path) -> None:
    app = PaperApp(store=_history_store(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = str(main_screen(app).query_one("#detail-body", Static).render())
        assert "rating 4.5 → 5.5: Reviewer_hsV6 4 → 6, 2025-11-22 → 11-29" in detail
        assert "decision under-review → poster" in detail
        assert _row_text(app, 0)[4] == CHANGED and _row_text(app, 1)[4] != CHANGED


def test_detail_history_snapshot(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(PaperApp(store=_history_store(tmp_path)), terminal_size=SIZE, run_before=screen_settled)


async def test_a_store_that_cannot_record_looks_says_so_once(tmp_path: Path, monkeypatch: Any) -> None:
    store = _history_store(tmp_path)

    def refuse(paper_id: str) -> None:
        raise StoreError(tmp_path / "data" / "user", "read-only file system")

    monkeypatch.setattr(store, "set_looked", refuse)
    app = PaperApp(store=store)
    notices: list[str] = []  # kept here: a toast expires on a slow machine before the last look
    notify = app.notify

    def kept(message: str, *args: Any, **kwargs: Any) -> None:
        notices.append(str(message))
        notify(message, *args, **kwargs)

    monkeypatch.setattr(app, "notify", kept)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(3):
            await pilot.press("enter")  # the reader, then back
            await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
        said = [message for message in notices if "not remembered as seen" in message]
        assert len(said) == 1 and "read-only" in said[0]
        assert _row_text(app, 0)[4] == CHANGED  # still new to the user


def _readme_setup(data: Path, capsys: Any) -> None:
    """The README's setup on the committed cuts: the dump, then the Parquet, then the reviews,
    imported before the app was ever opened."""
    for files in (submission_parts(), [fixture(DECISIONS_NAME)], review_parts()):
        code, _, err = run(capsys, "import", *map(str, files), "--data-dir", str(data))
        assert code == 0, err


async def test_after_the_readmes_setup_what_changed_is_empty_until_an_import_after_a_look(
    tmp_path: Path, capsys: Any
) -> None:
    data = tmp_path / "data"
    _readme_setup(data, capsys)
    store = Store(data)
    recorded = set(store.changes_by_paper())
    assert recorded  # the Parquet and the reviews did change papers of the dump: the baseline
    assert store.changed_since_looked() == {}
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_for(pilot, (data / SEEN_FILE).exists, what="the first look's mark")
        await pilot.press("6")  # What changed
        await settle(pilot)
        screen = main_screen(app)
        assert screen.query_one(FilterBar).value == "is:changed"
        assert screen.view_ids() == []
        assert counts(app).startswith("What changed: 0 of")
    # An import after that look: exactly the papers it changed are news.
    first = next(iter(store.papers))
    moved = replace(first, ratings=Ratings(9.5), decision="oral")
    store.import_papers([moved])
    assert set(store.changed_since_looked()) == {first.id}
    gone = store.paper_ids[-1]
    store.remove_papers([gone])  # changed too, but no longer in the store: no one's news
    assert set(store.changed_since_looked()) == {first.id, gone}
    code, out, _ = run(capsys, "changes", "--json", "--data-dir", str(data))
    assert code == 0 and {item["id"] for item in json.loads(out)["papers"] if item["unseen"]} == {first.id, gone}
    # Marked all seen from the command line: nothing is news, in the command and in the app.
    code, out, _ = run(capsys, "changes", "--mark-seen", "--data-dir", str(data))
    assert code == 0 and "(1 paper was changed)" in out
    assert Store(data).changed_since_looked() == {}
    code, out, _ = run(capsys, "changes", "--json", "--data-dir", str(data))
    assert not any(item["unseen"] for item in json.loads(out)["papers"])


async def test_mark_all_seen_in_the_app_empties_the_what_changed_view(tmp_path: Path) -> None:
    real = changed_slice(tmp_path)
    store = Store(tmp_path / "data", now=clock())
    import_files(store, real.before)
    store.first_look()
    import_files(store, real.after)
    changed = set(store.changed_since_looked())
    assert len(changed) > 2
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")  # What changed
        await settle(pilot)
        screen = main_screen(app)
        assert set(screen.view_ids()) == changed
        await pilot.press("C")  # mark all seen
        await wait_for(pilot, lambda: screen.view_ids() == [])
        assert store.changed_since_looked() == {}
        assert counts(app).startswith(f"What changed: 0 of {store.paper_count}")
        said = f"{len(changed):,} papers were changed (u undoes)"
        assert any(said in str(n.message) for n in app._notifications)
        assert Store(tmp_path / "data").changed_since_looked() == {}  # on disk
        # A stray C is taken back by u (and done again by ctrl+r), like any other change.
        await pilot.press("u")
        await wait_for(pilot, lambda: set(screen.view_ids()) == changed, what="What changed back")
        assert set(Store(tmp_path / "data").changed_since_looked()) == changed
        assert any("Undone: mark every change seen" in str(n.message) for n in app._notifications)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.view_ids() == [], what="What changed emptied again")
    assert Store(tmp_path / "data").changed_since_looked() == {}  # on disk


async def test_the_first_imports_are_said_as_such_not_as_changes_in_the_detail_and_the_cli(
    tmp_path: Path, capsys: Any
) -> None:
    """The fifteenth round's tester: on every accepted paper the history said ``What changed /
    2026-12-07  decision under-review → poster / rating – → 4.5``, the day of the Parquet's import
    before the app first opened the store: the baseline, which the ``•`` flag rightly left alone.
    The history says it as the paper's first imports, by the flag's rule; a later import's change
    stays a change."""
    store = _history_store(tmp_path)  # A1: reviews and a decision after the app's first look
    data = tmp_path / "data"
    (data / SEEN_FILE).unlink()  # as if the app had never opened it: everything so far is the baseline
    b2 = next(paper for paper in store.papers if paper.id == "openreview:B2")
    store.import_papers([replace(b2, decision="poster", ratings=Ratings(4.5))])  # the Parquet, say
    store.first_look()  # the app opens the store
    store.import_papers([replace(b2, decision="oral", ratings=Ratings(4.5))])  # news
    history = store.paper_history("openreview:B2")
    assert [change.first for change in history] == [True, False]
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"graph transformers", "enter")
        await settle(pilot)
        assert paper_list(app).highlighted_id == "openreview:B2"

        def detail_text() -> str:
            return str(main_screen(app).query_one("#detail-body", Static).render())

        await wait_for(pilot, lambda: detail_text().startswith("Graph transformers"), what="B2's detail")
        detail = detail_text()
        assert "as first seen 2026-11-20: decision poster, rating 4.5" in detail, detail
        assert "under-review → poster" not in detail and "– → 4.5" not in detail, detail
        assert "decision poster → oral" in detail, detail
    code, out, _ = run(capsys, "changes", "--data-dir", str(data))
    assert code == 0 and "under-review → poster" not in out, out
    assert "decision poster → oral" in out and "as first seen 2026-11-20: decision poster" in out, out
