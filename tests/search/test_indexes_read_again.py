"""The indexes an import saves, built from the catalogue read again a paper at a time once the
papers held are let go of (issue 32: the dump import's peak memory): the same files as the build
from the papers held, chunk by chunk or whole; the papers read again are the file's, checked; a
file replaced, truncated or changed is never read past its end nor taken for the one written."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from paperdeck.cli.main import main
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.search import searcher as searcher_module
from paperdeck.search import similar, similar_terms
from paperdeck.search.index import SearchIndex
from paperdeck.search.packed_index import papers_named
from paperdeck.search.searcher import INDEX_FILE, SIMILARITY_FILE, Searcher, save_indexes_read_again
from paperdeck.search.similar import SimilarityIndex, texts_fingerprint
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store import catalogue as catalogue_module
from paperdeck.store.catalogue import Catalogue, WrittenCatalogue
from paperdeck.store.store import Store

from tests.helpers import submission_parts

#: The three ReviewTracker dump parts cut for the tests (``tests/data/``, see its README).
DUMP = submission_parts()


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    return [paper for path in DUMP for paper in read_source(path).papers]


class Given:
    """``papers`` given once, one at a time, counting how many were taken."""

    def __init__(self, papers: list[Paper]) -> None:
        self.papers, self.taken = papers, 0

    def __iter__(self) -> Iterator[Paper]:
        for paper in self.papers:
            self.taken += 1
            yield paper


def test_the_similarity_index_built_in_tiny_chunks_from_papers_given_once_is_the_whole_build(
    papers: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = SimilarityIndex(papers)
    whole.save(tmp_path / "whole.npz", [1, 2], whole.texts)
    monkeypatch.setattr(similar_terms, "_CHUNK", 3)  # 3 papers at a time, the last chunk short
    monkeypatch.setattr(similar, "_BLOCK", 7)  # the weights 7 at a time, rows 1 at a time
    given = Given(papers)
    streamed = SimilarityIndex.from_papers([paper.id for paper in papers], given)
    assert given.taken == len(papers)  # each paper given once
    assert streamed.texts == whole.texts == texts_fingerprint(papers)
    streamed.save(tmp_path / "streamed.npz", [1, 2], streamed.texts)
    assert (tmp_path / "streamed.npz").read_bytes() == (tmp_path / "whole.npz").read_bytes()


def test_the_search_index_built_from_papers_given_once_is_the_whole_build(papers: list[Paper], tmp_path: Path) -> None:
    whole = SearchIndex(papers)
    whole.save(tmp_path / "whole.bin", [1, 2], "texts")
    given = Given(papers)
    streamed = SearchIndex.from_papers([paper.id for paper in papers], given)
    assert given.taken == len(papers)
    streamed.save(tmp_path / "streamed.bin", [1, 2], "texts")
    assert (tmp_path / "streamed.bin").read_bytes() == (tmp_path / "whole.bin").read_bytes()


@pytest.mark.parametrize("cut", ["fewer", "more", "other"])
def test_papers_not_the_ids_named_are_refused(papers: list[Paper], cut: str) -> None:
    ids = [paper.id for paper in papers[:5]]
    given = {"fewer": papers[:4], "more": papers[:6], "other": [*papers[:2], papers[7], *papers[3:5]]}[cut]
    with pytest.raises(ValueError):
        list(papers_named(ids, given))
    with pytest.raises(ValueError):
        SimilarityIndex.from_papers(ids, given)
    with pytest.raises(ValueError):
        SearchIndex.from_papers(ids, given)


def _imported(data_dir: Path) -> Store:
    store = Store(data_dir)
    import_files(store, DUMP)
    return store


def test_the_catalogue_written_reads_again_as_the_papers_held_in_small_pieces(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _imported(data_dir)
    written = store.catalogue.written()
    assert written is not None and written.ids == list(store.catalogue.held_papers)
    monkeypatch.setattr(catalogue_module, "PIECE_BYTES", 700)  # smaller than most documents
    # As the file is read whole (the papers held also have where each field came from, which
    # is not written).
    assert list(written.papers()) == Store(data_dir).papers
    # The indexed fields alone, as the papers have them, each document parsed once more.
    fields = ("id", "title", "abstract", "title_derived", "authors", "keywords")
    indexed = [tuple(map(tuple, (text.authors, text.keywords))) + text[:4] for text in written.indexed()]
    held = [
        (paper.authors, paper.keywords, *(getattr(paper, name) for name in fields[:4]))
        for paper in Store(data_dir).papers
    ]
    assert indexed == held
    assert written.parsed == [2 * len(held)]


def test_letting_the_papers_go_reads_them_again_at_next_need(data_dir: Path) -> None:
    store = _imported(data_dir)
    held = Store(data_dir).papers
    generation = store.catalogue_generation
    store.catalogue.release()
    assert not store.catalogue.held_papers and not store.loaded
    assert store.catalogue_generation != generation
    assert store.paper_count == len(held)
    assert store.paper_ids == [paper.id for paper in held]
    assert store.papers == held


@pytest.mark.parametrize("damage", ["replaced", "truncated", "other id"])
def test_a_catalogue_changed_since_written_is_refused_not_read_past_its_end(data_dir: Path, damage: str) -> None:
    store = _imported(data_dir)
    written = store.catalogue.written()
    assert written is not None
    path = store.catalogue.path
    text = path.read_bytes()
    second = written.bounds[2], written.bounds[3]
    if damage == "replaced":
        (data_dir / "new.json").write_bytes(text)
        os.replace(data_dir / "new.json", path)
    elif damage == "truncated":
        with path.open("r+b") as handle:
            handle.truncate(len(text) // 2)
    else:  # the second paper's id changed in place, the size kept: each document still parses
        document = text[second[0] : second[1]]
        at = document.index(b'"id":"') + 6
        changed = document[:at] + (b"y" if document[at : at + 1] != b"y" else b"z") + document[at + 1 :]
        with path.open("r+b") as handle:
            handle.seek(second[0])
            handle.write(changed)
    with pytest.raises(StoreError):
        list(written.papers())
    with pytest.raises(StoreError):
        list(written.indexed())


def test_an_import_saves_both_indexes_from_the_file_read_again_as_the_build_from_the_papers(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_again: list[WrittenCatalogue] = []
    written = Catalogue.written

    def recorded(self: Catalogue) -> WrittenCatalogue | None:
        found = written(self)
        if found is not None:
            read_again.append(found)
        return found

    made: list[str] = []  # papers made while the indexes are built (none: only their fields are read)
    paper_of = Paper.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Paper], data: dict[str, object]) -> Paper:
        made.append(str(data.get("id")))
        return paper_of(cls, data)  # type: ignore[no-any-return]

    build = searcher_module.save_indexes_read_again

    def building(store: Store, told: Callable[[int, int], None] | None = None) -> bool:
        with monkeypatch.context() as patch:
            patch.setattr(Paper, "from_dict", classmethod(counted))
            return build(store, told)

    monkeypatch.setattr(Catalogue, "written", recorded)
    monkeypatch.setattr(searcher_module, "save_indexes_read_again", building)
    assert main(["--data-dir", str(data_dir), "import", "--json", *map(str, DUMP)]) == 0
    assert len(read_again) == 1
    # Each document parsed once for each index (the papers held let go of), no paper made.
    assert read_again[0].parsed == [2 * 266]
    assert made == []
    store = Store(data_dir, lazy=True)
    index = Searcher(store).index.get()
    assert not store.loaded  # read from the file the import saved, nothing built
    similarity = SimilarityIndex.load(data_dir / SIMILARITY_FILE, store.catalogue_stamp())
    assert similarity is not None  # saved, for the catalogue as it is
    fresh = Store(data_dir)
    papers = fresh.papers
    built = SearchIndex(papers)
    for query in ("diffusion", "graph neural", "specul decod", "a", "llm"):
        assert index.search_ids(query) == built.search_ids(query)
    whole = SimilarityIndex(papers)
    assert similarity.texts == whole.texts
    saved = np.load(data_dir / SIMILARITY_FILE)
    whole.save(tmp_path / "whole.npz", saved["stamp"].tolist(), whole.texts)
    again = np.load(tmp_path / "whole.npz")
    assert all(np.array_equal(saved[name], again[name]) for name in again.files)
    assert (data_dir / INDEX_FILE).is_file()


def test_indexes_are_not_read_again_from_a_catalogue_this_store_did_not_write(data_dir: Path) -> None:
    _imported(data_dir)
    store = Store(data_dir)  # read, not written, by this store
    assert store.catalogue.written() is None
    assert not save_indexes_read_again(store)
    assert store.loaded and store.catalogue.held_papers  # nothing let go of
