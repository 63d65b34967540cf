"""The arrays of an ``.npz`` read in place (:mod:`paperdeck.search.npz_members`): equal to
``numpy.load``'s, their CRC checked."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.npz_members import mapped_arrays
from paperdeck.search.similar import SimilarityIndex
from paperdeck.search.similar_counts import counts_path


def _saved(tmp_path: Path) -> tuple[Path, dict[str, np.ndarray]]:
    arrays = {
        "indptr": np.array([0, 2, 2, 5], np.int64),
        "terms": np.arange(100_000, dtype=np.int32) % 977,
        "tfs": np.ones(100_000, np.int32),
        "grid": np.arange(12, dtype=np.float32).reshape(3, 4),
        "empty": np.zeros(0, np.int32),
    }
    path = tmp_path / "arrays.npz"
    np.savez(path, **arrays)
    return path, arrays


def test_mapped_arrays_equal_numpy_load(tmp_path: Path) -> None:
    path, arrays = _saved(tmp_path)
    mapped = mapped_arrays(path, tuple(arrays))
    assert list(mapped) == list(arrays)
    for name, array in arrays.items():
        assert mapped[name].dtype == array.dtype
        assert mapped[name].shape == array.shape
        assert np.array_equal(mapped[name], array)
        assert not mapped[name].flags.writeable


def test_a_damaged_member_is_refused(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path)
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("terms.npy")
    data = bytearray(path.read_bytes())
    data[info.header_offset + 30 + len("terms.npy") + 200] ^= 0xFF  # a byte of the array's data
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="CRC"):
        mapped_arrays(path, ("terms",))
    assert np.array_equal(mapped_arrays(path, ("tfs",))["tfs"], np.ones(100_000, np.int32))


def test_a_missing_or_compressed_member_is_refused(tmp_path: Path) -> None:
    path, arrays = _saved(tmp_path)
    with pytest.raises(ValueError):
        mapped_arrays(path, ("nothing",))
    packed = tmp_path / "packed.npz"
    np.savez_compressed(packed, **arrays)
    with pytest.raises(ValueError, match="compressed"):
        mapped_arrays(packed, ("terms",))
    (tmp_path / "not.npz").write_bytes(b"not a zip file")
    with pytest.raises(ValueError):
        mapped_arrays(tmp_path / "not.npz", ("terms",))


def _paper(number: int, abstract: str) -> Paper:
    return Paper(f"test:{number}", f"Paper {number}", abstract)


def test_similarity_update_reads_the_counts_mapped_and_refuses_damaged_ones(tmp_path: Path) -> None:
    words = ["diffusion", "graph", "neural", "pruning", "experts", "sampling", "tokens", "attention"]
    papers = [_paper(n, " ".join(words[(n + k) % len(words)] for k in range(n % 5 + 2))) for n in range(40)]
    path = tmp_path / "similar.npz"
    built = SimilarityIndex(papers)
    built.save(path, [1, 2], built.texts)
    changed = {3: _paper(3, "speculative decoding tokens"), 17: _paper(17, "graph experts")}
    found = SimilarityIndex.load_patched(path, [1, 2], [paper.id for paper in papers], changed)
    assert found is not None
    after = [changed.get(n, paper) for n, paper in enumerate(papers)]
    scratch = SimilarityIndex(after)
    for paper in after:
        assert found[0].similar_to(paper.id, 10) == scratch.similar_to(paper.id, 10)
    base = counts_path(path)  # the counts are in the base beside the index file
    with zipfile.ZipFile(base) as archive:
        info = archive.getinfo("count_tfs.npy")
    data = bytearray(base.read_bytes())
    data[info.header_offset + 30 + len("count_tfs.npy") + 130] ^= 0x01
    base.write_bytes(bytes(data))
    assert SimilarityIndex.load_patched(path, [1, 2], [paper.id for paper in papers], changed) is None
