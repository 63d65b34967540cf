"""The similarity index's weights computed at first need after an import in place
(:mod:`paperdeck.search.similar_pending`): the import writes the changed papers' counts into the
delta and marks the file for weighing; the first reader weighs, equal to a build from every
paper, and saves it; two imports before a reader, a delta past the compaction share, two
readers at once, a base missing or a damaged file all end in the index a build makes."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.similar import SimilarityIndex
from paperdeck.search.similar_counts import DELTA_SHARE, counts_path
from paperdeck.search.similar_pending import is_pending, save_pending, weigh_pending

WORDS = [f"w{n}x" for n in range(120)] + ["diffusion", "graph", "neural", "pruning", "experts", "sampling"]


def _papers(seed: int = 1, count: int = 200) -> list[Paper]:
    rng = random.Random(seed)
    titles = [" ".join(rng.choice(WORDS) for _ in range(3)) for _ in range(count)]
    return [Paper(f"test:{n}", title, " ".join(rng.choice(WORDS) for _ in range(12))) for n, title in enumerate(titles)]


def _same_as_a_build(index: SimilarityIndex, papers: list[Paper]) -> None:
    scratch = SimilarityIndex(papers)
    for name in ("_indptr", "_indices", "_data"):
        assert getattr(index, name).tobytes() == getattr(scratch, name).tobytes(), name
    assert index._terms == scratch._terms and index.paper_ids == scratch.paper_ids
    assert index.texts == scratch.texts
    for paper in papers[:20]:
        assert index.similar_to(paper.id, 10) == scratch.similar_to(paper.id, 10)


def _import(path: Path, papers: list[Paper], changes: dict[int, Paper], stamp: int) -> None:
    """``save_pending`` for ``papers`` changed in place (file stamped ``stamp`` → ``stamp + 1``)."""
    pairs = {at: (papers[at], new) for at, new in changes.items()}
    assert save_pending(path, [stamp], [stamp + 1], [paper.id for paper in papers], pairs)
    for at, new in changes.items():
        papers[at] = new


def _changed(papers: list[Paper], positions: list[int], step: int) -> dict[int, Paper]:
    return {at: Paper(papers[at].id, papers[at].title, f"new words {step} graph w{at}x") for at in positions}


def _many_changed(papers: list[Paper]) -> dict[int, Paper]:
    """Past :data:`DELTA_SHARE` of the counts: each paper's own text and a word more."""
    many = int(len(papers) * DELTA_SHARE) + 10
    changed = papers[:many]
    return {at: Paper(p.id, "Other " + p.title, p.abstract + " sampling") for at, p in enumerate(changed)}


def test_an_import_writes_counts_and_the_first_reader_weighs_as_a_build(tmp_path: Path) -> None:
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    base = counts_path(path)
    base_bytes = base.read_bytes()
    ids = [paper.id for paper in papers]
    _import(path, papers, _changed(papers, [3, 50, 51], 1), 1)
    assert is_pending(path, [2]) and not is_pending(path, [1])
    assert SimilarityIndex.load(path, [2]) is None  # no weights: not the app's to read as it is
    assert path.stat().st_size < built.nbytes // 2
    _import(path, papers, _changed(papers, [50, 120], 2), 2)  # a second import before any reader
    assert SimilarityIndex.restamp(path, [3], [4], ids) and is_pending(path, [4])  # a review import
    assert base.read_bytes() == base_bytes  # the base is not written by an import
    assert weigh_pending(path, [3], ids) is None  # another stamp
    index = weigh_pending(path, [4], ids)
    assert index is not None
    _same_as_a_build(index, papers)
    index.save(path, [4], index.texts)
    assert base.read_bytes() == base_bytes  # a small delta: kept in the file, the base as it was
    loaded = SimilarityIndex.load(path, [4])
    assert loaded is not None and not is_pending(path, [4])
    _same_as_a_build(loaded, papers)
    with np.load(path) as saved:
        assert saved["version"].tolist() == [6] and saved["weighed"].tolist() == [1]
        assert sorted(saved["delta_positions"].tolist()) == [3, 50, 51, 120]


def test_a_delta_past_its_share_is_compacted_by_the_reader(tmp_path: Path) -> None:
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    _import(path, papers, _many_changed(papers), 1)
    index = weigh_pending(path, [2], [paper.id for paper in papers])
    assert index is not None
    index.save(path, [2], index.texts)
    with np.load(path) as saved, np.load(counts_path(path)) as counts:
        assert len(saved["delta_positions"]) == 0
        assert saved["counts_base"].tolist() == counts["texts"].tolist() == [index.texts]
    loaded = SimilarityIndex.load(path, [2])
    assert loaded is not None
    _same_as_a_build(loaded, papers)


def test_two_readers_at_once_each_save_the_same_whole_file(tmp_path: Path) -> None:
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    _import(path, papers, _many_changed(papers), 1)
    ids = [paper.id for paper in papers]
    first, second = weigh_pending(path, [2], ids), weigh_pending(path, [2], ids)
    assert first is not None and second is not None
    first.save(path, [2], first.texts)
    written = path.read_bytes(), counts_path(path).read_bytes()
    second.save(path, [2], second.texts)
    assert (path.read_bytes(), counts_path(path).read_bytes()) == written
    loaded = SimilarityIndex.load(path, [2])
    assert loaded is not None
    _same_as_a_build(loaded, papers)


@pytest.mark.parametrize("fault", ["base missing", "base another's", "file damaged"])
def test_a_pending_file_that_cannot_be_weighed_is_not_used(tmp_path: Path, fault: str) -> None:
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    _import(path, papers, _changed(papers, [4, 9], 1), 1)
    ids = [paper.id for paper in papers]
    if fault == "base missing":
        counts_path(path).unlink()
    elif fault == "base another's":
        other = SimilarityIndex(_papers(seed=2))
        other.save(tmp_path / "other.npz", [9], other.texts)
        counts_path(path).write_bytes(counts_path(tmp_path / "other.npz").read_bytes())
    else:
        damaged = bytearray(path.read_bytes())
        damaged[len(damaged) // 2] ^= 0x01
        path.write_bytes(bytes(damaged))
    assert weigh_pending(path, [2], ids) is None
    # Nor can an import add to it: it says so, and the caller builds.
    assert not save_pending(path, [2], [3], ids, {5: (papers[5], Paper(papers[5].id, "T", "graph"))})


def test_a_file_of_another_base_or_stamp_is_not_updated(tmp_path: Path) -> None:
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    ids = [paper.id for paper in papers]
    change = {5: (papers[5], Paper(papers[5].id, "T", "graph"))}
    assert not save_pending(path, [7], [8], ids, change)  # saved for another catalogue
    assert not save_pending(path, [1], [2], ids[::-1], change)  # other papers
    assert SimilarityIndex.load(path, [1]) is not None  # left as it was
    assert not save_pending(tmp_path / "missing.npz", [1], [2], ids, change)
