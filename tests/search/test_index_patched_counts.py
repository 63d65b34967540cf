"""The work of updating the saved indexes for a decisions file imported in place is the work of
the papers it names (issue 32): the same papers parsed, the same lines spliced into the search
index's texts, for a store of N papers and one of about 2N holding them; the index is then the one
built from every paper.

Fixtures: the ICLR 2026 submission cuts and the Paper Copilot Parquet cut of ``tests/data/`` (see
its README), as ``tests/search/test_index_patched.py``.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from paperdeck.cli.caches import caches_key, save_caches, save_indexes
from paperdeck.model.paper import Paper
from paperdeck.search import index_update
from paperdeck.search.index import SearchIndex
from paperdeck.search.searcher import INDEX_FILE, Searcher
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.shared_slices import PARQUET, RT_PARTS

NOW = "2026-12-01T10:00:00.000000+00:00"


def _template(data: Path, parts: list[Path]) -> Path:
    store = Store(data, now=lambda: NOW)
    before = caches_key(store)
    import_files(store, parts)
    save_caches(store, before)
    return data


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """N papers: the first submission cut (139)."""
    return _template(tmp_path_factory.mktemp("small") / "data", RT_PARTS[:1])


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 2N papers: every submission cut (266)."""
    return _template(tmp_path_factory.mktemp("large") / "data", list(RT_PARTS))


@pytest.fixture(scope="module")
def decisions(small: Path) -> list[Paper]:
    """The Parquet cut's papers the small store holds (the large one too), one with a new title."""
    held = set(Store(small, lazy=True).paper_ids)
    papers = [paper for paper in read_source(PARQUET).papers if paper.id in held]
    assert len(papers) > 10
    papers[0] = replace(papers[0], title="Quasar Lensing with Zebrafish Priors")
    return papers


def _work(template: Path, where: Path, papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The import into a copy of ``template`` and the indexes saved, as ``paperdeck import``: the
    papers parsed and the lines spliced meanwhile."""
    shutil.copytree(template, where)
    Store(where, lazy=True)  # a copy's caches are stale (their stamps): the first open rewrites the rows cache
    Searcher(Store(where, lazy=True, rows=False)).index.get()  # and the first search restamps the index
    store = Store(where, now=lambda: NOW, lazy=True, rows=False, user_records=False)
    stamp = store.catalogue_stamp()
    parsed: list[str] = []
    from_dict = Paper.from_dict.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Paper], data: dict[str, object]) -> Paper:
        paper = from_dict(cls, data)
        parsed.append(paper.id)
        return paper

    spliced = index_update.SPLICED_LINES[0]
    with monkeypatch.context() as patch:
        patch.setattr(Paper, "from_dict", classmethod(counting))
        with store.undoable("import"):
            store.import_papers(papers)
        assert store.catalogue.last_patch is not None
        assert store.catalogue_stamp() != stamp
        save_indexes(store)
        assert not store.catalogue.loaded
    return len(parsed), index_update.SPLICED_LINES[0] - spliced


def test_index_update_costs_the_papers_changed_not_the_store(
    small: Path, large: Path, decisions: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(Store(large, lazy=True).paper_ids) >= 1.9 * len(Store(small, lazy=True).paper_ids)
    work_small = _work(small, tmp_path / "small", decisions, monkeypatch)
    work_large = _work(large, tmp_path / "large", decisions, monkeypatch)
    assert work_small == work_large
    parsed, spliced = work_small
    assert parsed <= len(decisions)
    assert 0 < spliced <= 4 * len(decisions)  # title, keyword, author and initials lines of the changed
    fresh = Store(tmp_path / "large")
    saved = SearchIndex.load(tmp_path / "large" / INDEX_FILE, fresh.catalogue_stamp() or [], fresh.paper_ids)
    assert isinstance(saved, SearchIndex)
    scratch = SearchIndex(fresh.papers)
    for query in ("quasar zebrafish", "diffusion", "graph neural", "a"):
        assert list(saved.search_positions(query)) == list(scratch.search_positions(query)), query
