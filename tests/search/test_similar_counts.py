"""The similarity index's term counts kept as a base file and a delta of the rows changed since
(:mod:`paperdeck.search.similar_counts`): an update writes the index file alone, the base only
at a build or a compaction; every update equals a build from every paper; a base that is not the
one the index names (another process's, missing, damaged) makes a build; a file of a version
before is not read."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.searcher import SIMILARITY_FILE, Searcher, build_similarity
from paperdeck.search.similar import SimilarityIndex, patched_fingerprint
from paperdeck.search.similar_counts import DELTA_SHARE, TermCounts, counts_path, merged_rows
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SEEDS

WORDS = [f"w{n}x" for n in range(120)] + ["diffusion", "graph", "neural", "pruning", "experts", "sampling"]


def _paper(rng: random.Random, number: int, words: int) -> Paper:
    title = " ".join(rng.choice(WORDS) for _ in range(3))
    return Paper(f"test:{number}", title, " ".join(rng.choice(WORDS) for _ in range(words)))


def _papers(seed: int = 1, count: int = 200) -> list[Paper]:
    rng = random.Random(seed)
    return [_paper(rng, number, 12) for number in range(count)]


def _same_as_a_build(index: SimilarityIndex, papers: list[Paper]) -> None:
    scratch = SimilarityIndex(papers)
    for name in ("_indptr", "_indices", "_data"):
        assert getattr(index, name).tobytes() == getattr(scratch, name).tobytes(), name
    assert index._terms == scratch._terms and index.paper_ids == scratch.paper_ids


def _update(path: Path, papers: list[Paper], changes: dict[int, Paper], stamp: int) -> SimilarityIndex:
    """``load_patched`` at ``path`` (stamped ``stamp``), ``papers`` changed in place, saved stamped ``stamp + 1``."""
    found = SimilarityIndex.load_patched(path, [stamp], [paper.id for paper in papers], changes)
    assert found is not None
    index, texts = found
    fingerprint = patched_fingerprint(texts, {at: (papers[at], new) for at, new in changes.items()})
    assert fingerprint is not None
    for at, new in changes.items():
        papers[at] = new
    index.texts = fingerprint
    index.save(path, [stamp + 1], fingerprint)
    return index


def test_updates_write_a_delta_beside_the_base_and_equal_a_build(tmp_path: Path) -> None:
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    base = counts_path(path)
    base_bytes, base_key = base.read_bytes(), base.stat().st_ino
    rng = random.Random(5)
    rows = 0
    for step in range(3):  # each a few papers: the delta holds them all, the base is not written
        chosen = rng.sample(range(len(papers)), 4)
        changes = {at: Paper(papers[at].id, papers[at].title, f"new words {step} graph w{at}x") for at in chosen}
        index = _update(path, papers, changes, step + 1)
        _same_as_a_build(index, papers)
        loaded = SimilarityIndex.load(path, [step + 2])
        assert loaded is not None
        _same_as_a_build(loaded, papers)
        assert base.stat().st_ino == base_key and base.read_bytes() == base_bytes
        with np.load(path) as saved:
            assert saved["counts_base"].tolist() == [built.texts]
            assert len(saved["delta_positions"]) >= rows
            rows = len(saved["delta_positions"])
    # Past DELTA_SHARE of the base's counts: a new base, named by the papers' fingerprint, no delta.
    many = int(len(papers) * DELTA_SHARE) + 10
    changes = {
        at: Paper(papers[at].id, "Other " + papers[at].title, papers[at].abstract + " sampling") for at in range(many)
    }
    index = _update(path, papers, changes, 4)
    _same_as_a_build(index, papers)
    with np.load(path) as saved, np.load(base) as counts:
        assert len(saved["delta_positions"]) == 0
        assert saved["counts_base"].tolist() == counts["texts"].tolist() == [index.texts]
    scratch = TermCounts.of(papers)
    with np.load(base) as counts:
        assert np.array_equal(counts["count_indptr"], scratch.indptr)
        assert np.array_equal(counts["count_terms"], scratch.terms)
        assert np.array_equal(counts["count_tfs"], scratch.tfs)
    _same_as_a_build(_update(path, papers, {7: Paper(papers[7].id, "T", "neural")}, 5), papers)


def test_a_base_not_the_one_named_missing_or_damaged_makes_a_build(tmp_path: Path) -> None:
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    changes = {3: Paper(papers[3].id, "T", "graph")}
    ids = [paper.id for paper in papers]
    base = counts_path(path)
    kept = base.read_bytes()
    other = _papers(seed=2)  # another process's build since: its base, of other papers
    SimilarityIndex(other).save(tmp_path / "other.npz", [9], SimilarityIndex(other).texts)
    base.write_bytes(counts_path(tmp_path / "other.npz").read_bytes())
    assert SimilarityIndex.load_patched(path, [1], ids, changes) is None
    base.unlink()
    assert SimilarityIndex.load_patched(path, [1], ids, changes) is None
    damaged = bytearray(kept)
    damaged[len(damaged) // 2] ^= 0x01
    base.write_bytes(bytes(damaged))
    assert SimilarityIndex.load_patched(path, [1], ids, changes) is None
    base.write_bytes(kept)
    assert SimilarityIndex.load_patched(path, [1], ids, changes) is not None


@pytest.mark.parametrize("at", [0.3, 0.5, 0.7, 0.9])
def test_a_damaged_weighed_file_is_not_read_but_built_again(tmp_path: Path, at: float) -> None:
    """A byte flipped anywhere in a saved file (a zip member's CRC no longer holds) makes the
    load, its version check and the restamp answer 'none', never raise."""
    papers = _papers()
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    damaged = bytearray(path.read_bytes())
    damaged[int(len(damaged) * at)] ^= 0x01
    path.write_bytes(bytes(damaged))
    ids = [paper.id for paper in papers]
    assert SimilarityIndex.load(path, [1]) is None
    assert SimilarityIndex.saved_version(path) in (None, SimilarityIndex.FILE_VERSION)
    SimilarityIndex.restamp(path, [1], [2], ids)  # True or False, never an exception


def test_a_file_of_a_version_before_is_not_read(tmp_path: Path) -> None:
    """Versions 3 and 4 hold the terms before a lone Greek letter became its name: neither the
    app's load, an update nor a restamp uses them (then the index is built, and saved anew)."""
    papers = _papers()
    built = SimilarityIndex(papers)
    counts = TermCounts.of(papers)
    ids = [paper.id for paper in papers]
    path = tmp_path / "similar-cache.npz"
    np.savez(path, version=np.array([3], np.int64), stamp=np.array([1], np.int64),
             texts=np.array([built.texts], np.str_), ids=np.array(built.paper_ids, np.str_),
             terms=np.array(built._terms, np.str_), data=built._data, indices=built._indices,
             indptr=built._indptr, count_indptr=counts.indptr, count_terms=counts.terms,
             count_tfs=counts.tfs, count_names=counts.names_array())  # fmt: skip
    assert SimilarityIndex.load(path, [1]) is None
    assert SimilarityIndex.load_patched(path, [1], ids, {5: Paper(papers[5].id, "T", "pruning")}) is None
    built.save(path, [1], built.texts)
    assert SimilarityIndex.load(path, [1]) is not None
    with np.load(path) as saved:
        members = {name: saved[name] for name in saved.files}
    np.savez(path, **{**members, "version": np.array([4], np.int64)})
    assert SimilarityIndex.load(path, [1]) is None
    assert SimilarityIndex.load(path, None, built.texts) is None
    assert SimilarityIndex.load_patched(path, [1], ids, {5: Paper(papers[5].id, "T", "pruning")}) is None
    assert not SimilarityIndex.restamp(path, [1], [2], ids)


def test_rows_merged_into_a_delta_are_the_counts_of_those_papers() -> None:
    papers = _papers(count=30)
    old_positions = [2, 5, 9, 20]
    old = TermCounts.of([papers[at] for at in old_positions])
    fresh_positions = [1, 5, 25]
    changed = [Paper(papers[at].id, "pruning graph", f"new w{at}x") for at in fresh_positions]
    positions, rows = merged_rows(old_positions, old, fresh_positions, TermCounts.of(changed))
    assert positions == [1, 2, 5, 9, 20, 25]
    by_position = {**{at: papers[at] for at in old_positions}, **dict(zip(fresh_positions, changed, strict=True))}
    expected = TermCounts.of([by_position[at] for at in positions])
    assert rows.names == expected.names  # only the names the rows kept hold
    assert np.array_equal(rows.indptr, expected.indptr)
    assert np.array_equal(rows.terms, expected.terms)
    assert np.array_equal(rows.tfs, expected.tfs)


def test_an_index_read_from_its_file_is_saved_again_under_a_new_stamp(tmp_path: Path) -> None:
    """The restamp of an index read back (the catalogue rewritten for what it does not read:
    a review import's scores) writes it again, the same weights under the new stamp; it had no
    delta of its own to write and failed before."""
    papers = _papers(seed=3)
    path = tmp_path / "similar-cache.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1], built.texts)
    read = SimilarityIndex.load(path, None, built.texts)
    assert read is not None
    read.save(path, [2], read.texts)
    again = SimilarityIndex.load(path, [2])
    assert again is not None and SimilarityIndex.load(path, [1]) is None
    _same_as_a_build(again, papers)


def _saved_as_version_4(tmp_path: Path) -> tuple[Store, Path]:
    """A store of the seeds whose similarity file is marked version 4 (the terms before ``λ``
    became ``lambda``), and that file."""
    store = Store(tmp_path / "data")
    import_files(store, sorted(SEEDS.glob("*.txt")))
    build_similarity(store)
    path = store.data_dir / SIMILARITY_FILE
    with np.load(path) as saved:
        members = {name: saved[name] for name in saved.files}
    np.savez(path, **{**members, "version": np.array([4], np.int64)})
    return store, path


def test_a_saved_file_of_version_4_is_built_again_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The similarity file the round before saved (its terms before ``λ`` became ``lambda``) is
    built again at the next need, saved as the current version, and read from then on."""
    store, path = _saved_as_version_4(tmp_path)
    builds: list[int] = []
    build = SimilarityIndex.__init__

    def counted(self: SimilarityIndex, papers: Sequence[Paper]) -> None:
        builds.append(len(papers))
        build(self, papers)

    monkeypatch.setattr(SimilarityIndex, "__init__", counted)
    build_similarity(store)
    assert len(builds) == 1
    with np.load(path) as saved:
        assert saved["version"].tolist() == [SimilarityIndex.FILE_VERSION] == [6]
    build_similarity(store)
    assert len(builds) == 1, "read from the file built again"


def test_the_app_is_told_once_that_an_old_similarity_file_is_built_again(tmp_path: Path) -> None:
    _, path = _saved_as_version_4(tmp_path)
    notices: list[str] = []
    Searcher(Store(tmp_path / "data"), notice=notices.append).similarity.get()
    assert len(notices) == 1 and str(path) in notices[0] and "another paperdeck version" in notices[0]
    again: list[str] = []
    Searcher(Store(tmp_path / "data"), notice=again.append).similarity.get()
    assert again == [] and SimilarityIndex.saved_version(path) == SimilarityIndex.FILE_VERSION


def test_a_lone_greek_letter_is_the_term_of_its_name() -> None:
    papers = [Paper(f"t:{n}", rf"$\lambda$-GRPO: token preferences {n}", "We tune λ.") for n in range(3)]
    others = [Paper(f"o:{n}", f"Graph pruning of experts {n}", "Experts and sampling.") for n in range(12)]
    index = SimilarityIndex([*papers, *others])  # a term in most papers, or in one, is left out
    assert "lambda" in index._terms and "λ" not in index._terms
