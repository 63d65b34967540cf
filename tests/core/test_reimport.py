"""Importing the same files again, in any order, changes nothing: a source never replaces a field
with a value that holds less than the stored one (the CSV's mean-only ratings over Paper Copilot's
mean, spread, least and greatest score)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paperdeck.model.paper import Paper, Ratings
from paperdeck.sources.importer import import_files
from paperdeck.store.merge import combine, enriched
from paperdeck.store.store import Store

from tests.core.shared_slices import Slices, cut


@pytest.fixture(scope="module")
def slices(tmp_path_factory: pytest.TempPathFactory) -> Slices:
    return cut(tmp_path_factory.mktemp("slices"))


def _ratings(store: Store) -> dict[str, Ratings | None]:
    return {paper.id: paper.ratings for paper in store.papers}


def test_every_order_of_dump_parquet_and_csv_imported_twice_is_unchanged_the_second_time(
    tmp_path: Path, slices: Slices
) -> None:
    _, dump, parquet, _, csv = slices.iclr2026
    settled: dict[str, Ratings | None] | None = None
    for index, order in enumerate(itertools.permutations((dump, parquet, csv))):
        store = Store(tmp_path / f"data{index}")
        for path in order:
            import_files(store, [path])
        first = _ratings(store)
        for path in order:
            summary = import_files(store, [path])
            assert (summary.new, summary.updated) == (0, 0), (order, path.name, summary)
            assert _ratings(store) == first, (order, path.name)
        settled = first if settled is None else settled
        assert first == settled, order  # every order ends with the same ratings
    assert settled is not None
    # The papers the CSV shares with the Parquet keep the Parquet's spread.
    spread = [r for r in settled.values() if r is not None and r.std is not None and r.min is not None]
    assert len(spread) >= 2


@pytest.mark.parametrize("first_csv", [True, False])
def test_mean_only_ratings_never_replace_richer_ones_with_the_same_mean(first_csv: bool) -> None:
    rich = Ratings(8.5, 0.866, 8.0, 10.0, 4)
    mean_only = Ratings(8.5, None, None, None, 4)
    base = Paper(id="openreview:VaS6xcDrTb", title="T", abstract="", openreview_id="VaS6xcDrTb", sources=("dump",))
    sources = [
        Paper(id=base.id, title="T", abstract="", openreview_id="VaS6xcDrTb", ratings=r, sources=(name,))
        for r, name in ((mean_only, "csv"), (rich, "parquet"))
    ]
    if not first_csv:
        sources.reverse()
    paper = base
    for _ in range(2):
        for source in sources:
            paper = combine(paper, source)
    assert paper.ratings == rich
    assert combine(paper, sources[0]) == paper
    assert combine(paper, sources[1]) == paper


def test_ratings_that_disagree_replace_the_stored_ones_whole() -> None:
    assert enriched(Ratings(8.5, 0.866, 8.0, 10.0, 4), Ratings(7.0, None, None, None, 5)) == Ratings(7.0, count=5)
    assert enriched(Ratings(8.5, 0.866, 8.0, 10.0, 4), Ratings(8.5, 1.0)) == Ratings(8.5, 1.0)


_part = st.none() | st.sampled_from([0.5, 1.0, 2.0])
_ratings_st = st.builds(Ratings, st.sampled_from([3.0, 8.5]), _part, _part, _part, st.none() | st.sampled_from([3, 4]))


@given(st.none() | _ratings_st, st.lists(_ratings_st, min_size=1, max_size=4))
def test_enriching_with_the_same_sources_again_changes_nothing(start: Ratings | None, sources: list[Ratings]) -> None:
    once = start
    for source in sources:
        once = enriched(once, source)
    twice = once
    for source in sources:
        twice = enriched(twice, source)
    assert twice == once
