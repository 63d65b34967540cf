"""The Searcher: each index built once however many threads ask, again when the catalogue's
papers change (not when the file is only written again), and the notes kept up to date."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Lazy, Searcher
from paperdeck.search.selection import run_query
from paperdeck.store.store import Store

from tests.waits import GUARD_S

PAPERS = [
    Paper(id="openreview:A", title="Diffusion models", abstract="Denoising diffusion for images."),
    Paper(id="openreview:B", title="Graph networks", abstract="Message passing on graphs."),
]


def make_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    return store


def test_threads_asking_at_once_share_one_build(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    builds: list[str] = []

    def build(store: Store) -> int:
        builds.append(threading.current_thread().name)
        time.sleep(0.05)
        return len(store.papers)

    lazy = Lazy(store, build)
    assert lazy.built is None
    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(lazy.get())) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [2] * 6 and len(builds) == 1
    assert lazy.built == 2 and lazy.get() == 2 and len(builds) == 1


def test_a_new_catalogue_rebuilds_the_same_papers_written_again_do_not(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    searcher = Searcher(store)
    corpus, index = searcher.corpus.get(), searcher.index.get()
    stat = store.catalogue_path.stat()
    os.utime(store.catalogue_path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))  # touched only
    assert searcher.corpus.built is corpus and searcher.index.get() is index
    store.import_papers([Paper(id="openreview:C", title="Protein folding", abstract="Proteins fold.")])
    assert searcher.corpus.built is None and searcher.index.built is None
    assert searcher.corpus.get() is not corpus and searcher.corpus.get().holds(store.papers)
    assert run_query(searcher, parse_query("abstract:proteins")) == ["openreview:C"]
    assert run_query(searcher, parse_query("protein")) == ["openreview:C"]


def test_notes_changed_reach_the_search_index(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    searcher = Searcher(store)
    searcher.notes_changed(["openreview:B"])  # nothing built yet: nothing to do
    assert searcher.index.built is None
    assert run_query(searcher, parse_query("zebrafish")) == []
    store.set_note("openreview:B", "zebrafish experiments")
    searcher.notes_changed(["openreview:B"])
    assert run_query(searcher, parse_query("zebrafish")) == ["openreview:B"]


def test_a_build_that_cannot_start_leaves_no_future_pending(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    searcher = Searcher(store)

    def refuse(build: object) -> None:
        raise RuntimeError("no worker")

    with pytest.raises(RuntimeError):
        searcher.corpus.future(refuse)
    started: list[object] = []
    again = searcher.corpus.future(lambda build: started.append(build))
    assert started and not again.done()  # a new build was asked for, not the failed one's future


def _building_in_a_thread(store: Store, outcome: object) -> tuple[Lazy[int], threading.Event, threading.Thread]:
    """A Lazy whose build, started by a get() in a thread, waits for the event returned, then
    returns ``outcome`` (or raises it, an exception)."""
    started, release = threading.Event(), threading.Event()

    def build(store: Store) -> int:
        started.set()
        release.wait(GUARD_S)
        if isinstance(outcome, BaseException):
            raise outcome
        assert isinstance(outcome, int)
        return outcome

    lazy: Lazy[int] = Lazy(store, build)

    def get() -> None:
        with contextlib.suppress(ValueError):
            lazy.get()

    thread = threading.Thread(target=get)
    thread.start()
    assert started.wait(GUARD_S)
    return lazy, release, thread


def test_a_future_asked_while_another_thread_builds_is_that_builds_result(tmp_path: Path) -> None:
    lazy, release, thread = _building_in_a_thread(make_store(tmp_path), 7)
    starts: list[object] = []
    waiting = lazy.future(starts.append)
    assert not starts and not waiting.done()  # no second build: the one under way is waited for
    assert lazy.future(starts.append) is waiting
    release.set()
    thread.join(GUARD_S)
    assert waiting.result(GUARD_S) == 7 and not starts
    assert lazy.future(starts.append).result(0) == 7 and not starts  # built: done at once


def test_a_future_asked_while_another_thread_builds_gets_its_failure(tmp_path: Path) -> None:
    lazy, release, thread = _building_in_a_thread(make_store(tmp_path), ValueError("broken"))
    waiting = lazy.future(lambda build: pytest.fail("a second build was started"))
    release.set()
    thread.join(GUARD_S)
    with pytest.raises(ValueError, match="broken"):
        waiting.result(GUARD_S)
    started: list[object] = []
    assert not lazy.future(started.append).done() and started  # the next future asks for a new build


def test_asking_whether_an_index_is_built_reads_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = make_store(tmp_path)
    searcher = Searcher(store)
    index = searcher.index.get()
    monkeypatch.setattr(type(store), "catalogue_stamp", lambda self: pytest.fail("stat on the keystroke path"))
    assert searcher.index.built is index and searcher.index.get() is index
