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
from paperdeck.store.merge import agreeing, combine, enriched
from paperdeck.store.store import Store

from tests.shared_slices import RT_PARTS, Slices, cut


@pytest.fixture(scope="module")
def slices(tmp_path_factory: pytest.TempPathFactory) -> Slices:
    return cut(tmp_path_factory.mktemp("slices"))


def _ratings(store: Store) -> dict[str, Ratings | None]:
    return {paper.id: paper.ratings for paper in store.papers}


def test_every_order_of_dump_parquet_and_csv_imported_twice_is_unchanged_the_second_time(
    tmp_path: Path, slices: Slices
) -> None:
    """The dump slice also holds a few papers no other file has (their provenance is the
    reader's, not yet combined). The second round runs in the same store (as the app imports)
    and a third in a store opened again (as the CLI does)."""
    _, dump_slice, parquet, _, csv = slices.iclr2026
    dump = tmp_path / "dump.jsonl"
    with RT_PARTS[0].open(encoding="utf-8") as part:
        alone = [next(part) for _ in range(3)]
    dump.write_text(dump_slice.read_text("utf-8") + "".join(alone), "utf-8")
    settled: dict[str, Ratings | None] | None = None
    for index, order in enumerate(itertools.permutations((dump, parquet, csv))):
        data = tmp_path / f"data{index}"
        store = Store(data)
        for path in order:
            import_files(store, [path])
        first = _ratings(store)
        for again in (store, Store(data)):
            for path in order:
                summary = import_files(again, [path])
                assert (summary.new, summary.updated) == (0, 0), (order, path.name, summary)
                assert _ratings(again) == first, (order, path.name)
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


def test_ratings_with_another_mean_replace_the_stored_ones_whole() -> None:
    """Another mean is another set of reviews: nothing of the old ratings stays. The same mean with
    another spread describes the same reviews: the new parts win, the parts only the old gave stay
    (so a sequence of sources settles in one round: see the property test below)."""
    assert enriched(Ratings(8.5, 0.866, 8.0, 10.0, 4), Ratings(7.0, None, None, None, 5)) == Ratings(7.0, count=5)
    assert enriched(Ratings(8.5, 0.866, 8.0, 10.0, 4), Ratings(8.5, 1.0)) == Ratings(8.5, 1.0, 8.0, 10.0, 4)


def test_a_mean_rounded_to_three_places_agrees_with_the_unrounded_one() -> None:
    """The Parquet gives ``6.667`` with the spread, the CSV ``6.666666666666667`` alone (a real
    pair): either order keeps the finer mean and the spread, and neither flips them again."""
    parquet = Ratings(6.667, 0.943, 6.0, 8.0, 3)
    csv = Ratings(6.666666666666667, count=3)
    both = Ratings(6.666666666666667, 0.943, 6.0, 8.0, 3)
    assert enriched(parquet, csv) == enriched(csv, parquet) == both
    assert enriched(both, csv) == enriched(both, parquet) == both
    assert agreeing(6.67, 6.667) == 6.667
    for a, b in ((6.0, 6.4), (8.5, 8.45), (6.666, 6.667), (3, 4)):
        assert agreeing(a, b) is None and agreeing(b, a) is None


_part = st.none() | st.sampled_from([0.5, 1.0, 2.0])
_mean = st.sampled_from([3.0, 8.5, 6.667, 6.67])
_ratings_st = st.builds(Ratings, _mean, _part, _part, _part, st.none() | st.sampled_from([3, 4]))


@given(st.none() | _ratings_st, st.lists(_ratings_st, min_size=1, max_size=4))
def test_enriching_with_the_same_sources_again_changes_nothing(start: Ratings | None, sources: list[Ratings]) -> None:
    once = start
    for source in sources:
        once = enriched(once, source)
    twice = once
    for source in sources:
        twice = enriched(twice, source)
    assert twice == once


_TRUTH = Ratings(6.666666666666667, 0.9428090415820634, 6.0, 8.0, 3)


@st.composite
def _views_of_the_truth(draw: st.DrawFn) -> Ratings:
    """What one source may give of :data:`_TRUTH`: some parts left out, floats rounded or not."""

    def shown(value: float) -> float:
        places = draw(st.sampled_from([None, 2, 3, 4]))
        return value if places is None else round(value, places)

    mean = shown(_TRUTH.mean)
    parts = [draw(st.booleans()) for _ in range(4)]
    std = shown(0.9428090415820634) if parts[0] else None
    return Ratings(mean, std, 6.0 if parts[1] else None, 8.0 if parts[2] else None, 3 if parts[3] else None)


@given(st.lists(_views_of_the_truth(), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_agreeing_sources_give_the_same_ratings_in_every_order(sources: list[Ratings], rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    shuffled = list(sources)
    rng.shuffle(shuffled)
    results = []
    for order in (sources, shuffled):
        value: Ratings | None = None
        for source in order:
            value = enriched(value, source)
        results.append(value)
    assert results[0] == results[1]
