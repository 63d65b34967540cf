"""``paperdeck reviews`` lays out a review's Markdown table and names its image as the reviews
screen does (the thirteenth round's tester saw raw pipes and ``!img``); ``--raw`` keeps the source."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import fixture, run


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    store = Store(tmp_path / "data")
    import_files(
        store,
        [
            fixture("hostile13_openreview_escapes-nan-rating.jsonl"),
            fixture("hostile13_openreview_review-table-image.jsonl"),
        ],
    )
    return store.data_dir


def test_reviews_prints_the_table_in_columns_and_the_image_named(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "reviews", "--data-dir", str(data_dir), "HostEsc001")
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index("strengths:")
    assert lines[at + 1 : at + 4] == ["  a │ b", "  ──┼──", "  1 │ 2"], lines[at : at + 4]
    assert "[image: img] <http://x/y.png>" in out and "!img" not in out and "|a|b|" not in out
    assert "\x1b" not in out  # the sanitiser is still in front


def test_reviews_raw_keeps_the_source(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "reviews", "--data-dir", str(data_dir), "--raw", "HostEsc001")
    assert code == 0 and "  |a|b|" in out.splitlines() and "![img](http://x/y.png)" in out
