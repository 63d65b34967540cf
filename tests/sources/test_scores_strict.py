"""Scores are read strictly in every reader: a plain decimal or a number; ``"1e309"`` is never 1 (it
is infinity, which the import boundary drops and counts), words and other scripts' digits are none."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from paperdeck.sources.common import score_number
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store


@pytest.mark.parametrize(
    ("value", "expected"),
    [("6", 6.0), (" 6.5 ", 6.5), ("-1", -1.0), (".5", 0.5), (7, 7.0), (2.5, 2.5), ("1e3", None), ("1x", None),
     ("٣", None), ("", None), (True, None), (None, None), ([6], None), ("6: accept", None), ("0x10", None)],
)  # fmt: skip
def test_a_score_is_a_plain_decimal_or_a_number(value: object, expected: float | None) -> None:
    assert score_number(value) == expected


@pytest.mark.parametrize("value", ["1e309", "inf", "-Infinity", "NaN", 10**400, float("inf")])
def test_text_for_no_finite_number_stays_non_finite_for_the_boundary_to_count(value: object) -> None:
    number = score_number(value)
    assert number is not None and not math.isfinite(number)


def test_a_csv_rating_of_1e309_is_dropped_and_counted_never_one(tmp_path: Path) -> None:
    path = tmp_path / "iclr2026.csv"
    path.write_text("title,abstract,ratings\nA paper,An abstract long enough to be one,1e309\n", "utf-8")
    store = Store(tmp_path / "data")
    summary = import_files(store, [path])
    assert summary.new == 1 and store.papers[0].ratings is None
    assert summary.dropped == {"non-finite rating": 1}
