"""The import's bar moves through a gzip file's step as its compressed bytes are read
(``paperdeck import`` and ``paperdeck FILE``, the app's launcher): a review part was one still step
of ~2 s (tests/sources/test_gzip_read_progress.py has the room's side). The file is the review
sample's papers (tests/data's origin: tests/data/README.md), gzip-compressed here. Positions
counted, not timed."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import pytest
from paperdeck.cli.main import main, open_store
from paperdeck.sources import base

from tests.cli.test_import_bar_ends import Terminal, positions  # noqa: F401  (the fixture)
from tests.helpers import ReviewSample

PIECE = 256


def _papers_gz(review_sample: ReviewSample, folder: Path) -> Path:
    path = folder / "papers.jsonl.gz"
    path.write_bytes(gzip.compress(review_sample.papers_file.read_bytes()))
    assert path.stat().st_size > 4 * PIECE
    return path


def _moved_through_the_file(told: list[tuple[float, float, bool]]) -> None:
    inside = [done for done, _, _ in told if 0 < done < 1]
    assert len(inside) >= 4 and inside == sorted(inside)  # the first file's step, a piece at a time
    completed = [done for done, _, _ in told]
    assert completed == sorted(completed)


@pytest.mark.parametrize("launcher", [False, True], ids=["import", "launcher"])
def test_the_bar_moves_as_a_gzip_file_is_read(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    review_sample: ReviewSample,
    positions: list[tuple[float, float, bool]],  # noqa: F811
    launcher: bool,
) -> None:
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.setattr(base, "GZIP_PIECE", PIECE)
    path = _papers_gz(review_sample, tmp_path)
    if launcher:
        open_store(str(tmp_path / "data"), [path])
    else:
        assert main(["import", str(path), "--data-dir", str(tmp_path / "data")]) == 0
    _moved_through_the_file(positions)
