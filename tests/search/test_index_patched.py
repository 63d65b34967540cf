"""A decisions file imported in place updates the saved search index for the papers it changed,
not by a build over every paper (issue 32): the index then ranks exactly as one built from scratch
on the same store, its sections hold the same vocabulary, posting lists and lines, and its texts
fingerprint is the one computed over every paper. A decisions import that changes no indexed
text restamps the index, and one that changes nothing leaves it alone.

Fixtures: the ICLR 2026 submission cuts and the Paper Copilot Parquet cut of ``tests/data/``
(see its README), as ``tests/store/test_import_in_place.py``.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from paperdeck.cli.caches import caches_key, save_caches, save_indexes
from paperdeck.model.paper import Paper
from paperdeck.search import index_update, similar_pending
from paperdeck.search import similar_counts as similar_module
from paperdeck.search.index import SearchIndex
from paperdeck.search.index_file import read_sections
from paperdeck.search.searcher import INDEX_FILE, SIMILARITY_FILE, Searcher
from paperdeck.search.similar import SimilarityIndex, patched_fingerprint, texts_fingerprint
from paperdeck.search.similar_pending import is_pending
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.shared_slices import PARQUET, RT_PARTS

NOW = "2026-12-01T10:00:00.000000+00:00"
QUERIES = ["a", "re", "gn", "diffusion", "graph neural", "difusion samplng", "llm agent", "quasar", "zzzz", "mu"]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of the submission cuts (266 papers) with its indexes saved, as an import leaves it."""
    data = tmp_path_factory.mktemp("template") / "data"
    store = Store(data, now=lambda: NOW)
    before = caches_key(store)
    import_files(store, RT_PARTS)
    save_caches(store, before)
    return data


@pytest.fixture(scope="module")
def decisions(template: Path) -> list[Paper]:
    """The Parquet cut's papers that the template holds, and, so that words leave the vocabulary
    and new ones join it, two of them with a title and an abstract of their own."""
    held = set(Store(template, lazy=True).paper_ids)
    papers = [paper for paper in read_source(PARQUET).papers if paper.id in held]
    assert len(papers) > 50
    papers[0] = replace(papers[0], title="Quasar Lensing with Zebrafish Priors", abstract="Quasar zebrafish " * 40)
    papers[1] = replace(papers[1], abstract=papers[1].abstract.replace("the", "a") + " muonic xylophone")
    return papers


def _import(data: Path, papers: list[Paper]) -> Store:
    """As ``paperdeck import``: the store opened lazily, the import, then the indexes saved when
    the catalogue changed (the statistics cache, which counts every paper, is left out)."""
    store = Store(data, now=lambda: NOW, lazy=True, rows=False, user_records=False)
    stamp = store.catalogue_stamp()
    with store.undoable("import"):
        store.import_papers(papers)
    if store.catalogue_stamp() != stamp:
        save_indexes(store)
    return store


def _lines(section: memoryview) -> list[list[str]]:
    """A text section's lines, each line's words sorted (keyword and author lines are sets)."""
    return [sorted(line.split()) for line in section.tobytes().decode("utf-8", "surrogatepass").split("\n")]


def _built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the search and similarity indexes built from every paper."""
    calls: list[int] = []
    for cls in (SearchIndex, SimilarityIndex):
        init = cls.__init__

        def counted(self: object, *args: object, _init: object = init, **kwargs: object) -> None:
            calls.append(1)
            _init(self, *args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(cls, "__init__", counted)
    return calls


@pytest.mark.parametrize("block", [None, 97])
def test_patched_search_index_equals_a_build_from_scratch(
    template: Path, decisions: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int | None
) -> None:
    if block is not None:  # posting lists merged a few at a time (a large store's way), over many blocks
        monkeypatch.setattr(index_update, "_BLOCK", block)
        monkeypatch.setattr(similar_module, "_SORT_BLOCK", block)
    data = tmp_path / "data"
    shutil.copytree(template, data)
    Store(data, lazy=True)  # a copy's caches are stale (their stamps): the first open rewrites the rows cache
    Searcher(Store(data, lazy=True, rows=False)).index.get()  # and the first search restamps the index
    with monkeypatch.context() as patch:
        builds = _built(patch)
        parsed: list[str] = []
        from_dict = Paper.from_dict.__func__  # type: ignore[attr-defined]

        def counting(cls: type[Paper], data: dict[str, object]) -> Paper:
            paper = from_dict(cls, data)
            parsed.append(paper.id)
            return paper

        patch.setattr(Paper, "from_dict", classmethod(counting))
        store = _import(data, decisions)
        changed = store.catalogue.last_patch
        assert changed is not None and changed.papers  # the import was in place
        assert builds == []  # neither index was built from every paper
        assert sorted(parsed) == sorted({paper.id for paper in decisions})  # nor any other paper read
        assert not store.catalogue.loaded
    header, sections = read_sections(data / INDEX_FILE)
    fresh = Store(data)
    papers = fresh.papers
    assert header["stamp"] == fresh.catalogue_stamp()
    assert header["texts"] == texts_fingerprint(papers)
    scratch = tmp_path / "scratch.bin"
    SearchIndex(papers).save(scratch, [0, 0], "")
    _, built = read_sections(scratch)
    for name in ("ids", "vocabulary", "starts", "postings", "title_sizes", "initials", "letters0", "bucket_starts0",
                 "bucket_words0", "letters1", "bucket_starts1", "bucket_words1"):  # fmt: skip
        assert sections[name].tobytes() == built[name].tobytes(), name
    for name in ("titles", "keywords", "authors"):
        assert _lines(sections[name]) == _lines(built[name]), name
    saved = SearchIndex.load(data / INDEX_FILE, header["stamp"], fresh.paper_ids)
    assert isinstance(saved, SearchIndex)
    scratch_index = SearchIndex(papers)
    for query in QUERIES:
        assert list(saved.search_positions(query)) == list(scratch_index.search_positions(query)), query
    assert list(saved.search_positions("quasar zebrafish")) == [fresh.paper_ids.index(decisions[0].id)]
    # The import left the similarity counts updated, its weights to compute: the first reader
    # computes and saves them (no build from every paper), read as they are from then on.
    assert SimilarityIndex.load(data / SIMILARITY_FILE, header["stamp"]) is None
    assert is_pending(data / SIMILARITY_FILE, header["stamp"])
    with monkeypatch.context() as patch:
        builds = _built(patch)
        weighed = Searcher(Store(data, lazy=True, rows=False)).similarity.get()
        assert builds == []
    assert weighed.texts == header["texts"]
    similar = SimilarityIndex.load(data / SIMILARITY_FILE, header["stamp"])
    assert similar is not None and similar.texts == header["texts"]
    scratch_similar = SimilarityIndex(papers)
    for name in ("_indptr", "_indices", "_data"):
        assert getattr(weighed, name).tobytes() == getattr(scratch_similar, name).tobytes(), name
    for name in ("_indptr", "_indices", "_data"):
        assert getattr(similar, name).tobytes() == getattr(scratch_similar, name).tobytes(), name
    assert similar.paper_ids == scratch_similar.paper_ids and similar._terms == scratch_similar._terms
    ids = fresh.paper_ids
    for paper_id in [decisions[0].id, decisions[1].id, decisions[5].id, ids[0], ids[-1]]:
        assert similar.similar_to(paper_id, 20) == scratch_similar.similar_to(paper_id, 20)
    assert similar.rank_by_liked(ids[:12], 30) == scratch_similar.rank_by_liked(ids[:12], 30)
    assert similar.shared_terms(ids[0], decisions[1].id) == scratch_similar.shared_terms(ids[0], decisions[1].id)


def test_decisions_that_change_no_indexed_text_restamp_the_index(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    shutil.copytree(template, data)
    Store(data, lazy=True)
    Searcher(Store(data, lazy=True, rows=False)).index.get()
    held = Store(data)
    texts = texts_fingerprint(held.papers)
    papers = [replace(paper, decision="accept-poster", decision_raw="Accept (Poster)") for paper in held.papers[:20]]
    assert read_sections(data / INDEX_FILE)[0]["texts"] == texts
    with monkeypatch.context() as patch:
        builds = _built(patch)
        store = _import(data, papers)
        assert store.catalogue.last_patch is not None
        assert builds == []  # neither index built: both saved indexes hold, stamped anew
    header, _ = read_sections(data / INDEX_FILE)
    assert header["stamp"] == store.catalogue_stamp()
    assert header["texts"] == texts
    assert SimilarityIndex.load(data / SIMILARITY_FILE, store.catalogue_stamp()) is not None
    before = (data / INDEX_FILE).stat().st_mtime_ns
    _import(data, papers)  # the same again: nothing changes, nothing is written
    assert (data / INDEX_FILE).stat().st_mtime_ns == before


def test_the_texts_fingerprint_is_updated_for_the_papers_changed(decisions: list[Paper]) -> None:
    papers = decisions[:30]
    changed = {4: (papers[4], replace(papers[4], abstract="new words")), 9: (papers[9], replace(papers[9], title="T"))}
    after = list(papers)
    for position, (_, new) in changed.items():
        after[position] = new
    assert patched_fingerprint(texts_fingerprint(papers), changed) == texts_fingerprint(after)
    assert texts_fingerprint(after) != texts_fingerprint(papers)
    assert texts_fingerprint(papers[::-1]) != texts_fingerprint(papers)  # the order counts
    assert patched_fingerprint("not a fingerprint", changed) is None


def test_an_update_not_saved_leaves_indexes_that_are_rebuilt_not_used(
    template: Path, decisions: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The indexes are written after the import's transaction, each file whole or not at all: when
    writing them fails, the import stands and the files left are those of the catalogue before,
    which the next search does not use (their stamp) but builds anew, equal to a build from scratch."""
    data = tmp_path / "data"
    shutil.copytree(template, data)
    Store(data, lazy=True)
    Searcher(Store(data, lazy=True, rows=False)).index.get()
    before = {name: (data / name).read_bytes() for name in (INDEX_FILE, SIMILARITY_FILE)}

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(SearchIndex, "save", refuse)
        patch.setattr(SimilarityIndex, "save", refuse)
        patch.setattr(similar_pending, "atomic_write_into", refuse)
        store = _import(data, decisions)
    assert store.catalogue.last_patch is not None
    assert {name: (data / name).read_bytes() for name in before} == before  # left as they were
    fresh = Store(data, lazy=True, rows=False)
    index = Searcher(fresh).index.get()
    scratch = SearchIndex(Store(data).papers)
    for query in QUERIES:
        assert list(index.search_positions(query)) == list(scratch.search_positions(query)), query
    assert read_sections(data / INDEX_FILE)[0]["stamp"] == fresh.catalogue_stamp()
