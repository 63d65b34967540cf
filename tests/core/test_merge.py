"""One paper per real paper: matching, combining, aliases, and the user's data following papers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings, normalise_text
from paperdeck.sources.importer import import_files
from paperdeck.store.merge import ABSTRACT_MATCH_THRESHOLD, Merger, combine, compatible
from paperdeck.store.store import Store
from rapidfuzz import fuzz

from tests.conftest import SHARED_DATA

RT_PARTS = sorted(SHARED_DATA.glob("iclr2026_submissions_reviewtracker.part*.jsonl"))
PARQUET = SHARED_DATA / "iclr2026_accepted_papercopilot-derived.parquet"
LONG = " ".join(f"word{n}" for n in range(40))  # an abstract long enough to be a merge key


def paper(**fields: object) -> Paper:
    base: dict[str, object] = {"id": "abs:1", "title": "T", "abstract": LONG, "sources": ("a.txt",)}
    base.update(fields)
    return Paper(**base)  # type: ignore[arg-type]


def test_camera_ready_text_and_decision_beat_the_submission_snapshot() -> None:
    submission = paper(
        id="openreview:X", openreview_id="X", title="Old title", decision="under-review", sources=("rt.jsonl",)
    )
    accepted = paper(
        id="openreview:X",
        openreview_id="X",
        title="New title",
        abstract=LONG + " revised",
        decision="poster",
        decision_raw="Poster",
        ratings=Ratings(6.0, 1.0, 4, 8, 4),
        sources=("pq.parquet",),
    )
    merged = combine(submission, accepted)
    assert (merged.title, merged.decision, merged.ratings) == ("New title", "poster", accepted.ratings)
    assert merged.abstract.endswith("revised")
    assert merged.sources == ("rt.jsonl", "pq.parquet")
    assert merged.source_of("title") == "pq.parquet" and merged.source_of("abstract") == "pq.parquet"
    # The snapshot imported again afterwards changes nothing.
    assert combine(merged, submission) == merged
    assert combine(merged, merged) == merged


def test_a_real_title_replaces_a_derived_one_and_the_better_id_wins() -> None:
    seed = paper(id="abs:1", title="Derived…", title_derived=True, sources=("seed.txt",))
    record = paper(id="openreview:Y", openreview_id="Y", title="Real Title", keywords=("k",), sources=("rt.jsonl",))
    merged = combine(seed, record)
    assert (merged.id, merged.title, merged.title_derived, merged.keywords) == (
        "openreview:Y",
        "Real Title",
        False,
        ("k",),
    )


def test_different_forum_ids_never_match() -> None:
    assert not compatible(paper(openreview_id="A"), paper(openreview_id="B"))
    assert not compatible(paper(year=2025), paper(year=2026))
    assert compatible(paper(openreview_id="A"), paper())
    merger = Merger({}, {})
    merger.merge([paper(id="openreview:A", openreview_id="A")])
    result = merger.merge([paper(id="openreview:B", openreview_id="B")])  # same abstract, other forum
    assert set(result.papers) == {"openreview:A", "openreview:B"}


def test_placeholder_titles_and_abstracts_are_not_merge_keys() -> None:
    merger = Merger({}, {})
    merger.merge([paper(id="t:1", title="Withdrawn", abstract="n/a")])
    result = merger.merge([paper(id="t:2", title="Withdrawn", abstract="n/a")])
    assert set(result.papers) == {"t:1", "t:2"}


def test_same_normalised_title_in_same_venue_and_year_matches() -> None:
    merger = Merger({}, {})
    merger.merge([paper(id="title:a", title="Deep {N}ets: A Study", venue="ICLR", year=2018, abstract="")])
    result = merger.merge([paper(id="doi:x", doi="x", title="deep nets - a study", venue="ICLR", year=2018)])
    assert list(result.papers) == ["doi:x"] and result.renamed == {"title:a": "doi:x"}
    assert result.aliases["title:a"] == "doi:x"


@pytest.fixture(scope="module")
def seeds_then_dump(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, dict[str, str], object]:
    """A store with the seeds (one starred with a note), then the dump imported over them."""
    from tests.conftest import SEEDS

    store = Store(tmp_path_factory.mktemp("merge") / "data")
    import_files(store, sorted(SEEDS.glob("*.txt")))
    originals = {p.id: p.abstract for p in store.papers}
    reap = next(p for p in store.papers if p.title.startswith("REAP"))
    store.set_star(reap.id, True)
    store.set_note(reap.id, "read the pruning table")
    summary = import_files(store, RT_PARTS)
    return store, originals | {"reap": reap.id}, summary


@pytest.mark.slow
def test_threshold_sits_in_the_measured_gap(seeds_then_dump: tuple[Store, dict[str, str], object]) -> None:
    """Each seed abstract scores ≥ 86 against the dump record it merged with; 300 other dump
    abstracts score ≤ 55 against every seed: 70 sits in that gap."""
    store, originals, _ = seeds_then_dump
    rng = random.Random(7)
    papers = store.papers
    for seed_id, seed_abstract in originals.items():
        if seed_id == "reap":
            continue
        matched = store.paper(seed_id)
        assert matched is not None and matched.id.startswith("openreview:")
        seed_text = normalise_text(seed_abstract)
        assert fuzz.ratio(seed_text, normalise_text(matched.abstract)) >= 86
        others = [p for p in rng.sample(papers, 300) if p.id != matched.id]
        assert max(fuzz.ratio(seed_text, normalise_text(p.abstract)) for p in others) <= 55
    assert 55 < ABSTRACT_MATCH_THRESHOLD < 86


@pytest.mark.slow
def test_seeds_then_dump_gives_19630_papers_and_the_star_stays(
    seeds_then_dump: tuple[Store, dict[str, str], object], seed_files: list[Path]
) -> None:
    store, originals, summary = seeds_then_dump
    assert (summary.new, summary.updated) == (19_593, 37)  # type: ignore[attr-defined]
    assert len(store.papers) == 19_630
    seeded = [p for p in store.papers if len(p.sources) > 1]
    assert len(seeded) == 37
    assert all(p.id.startswith("openreview:") and not p.title_derived and p.keywords for p in seeded)
    moved = store.paper(originals["reap"])  # the old id is an alias now
    assert moved is not None and moved.id.startswith("openreview:") and moved.title.startswith("REAP the Experts")
    reopened = Store(store.data_dir)
    assert reopened.user_data(moved.id).starred
    assert reopened.user_data(moved.id).note == "read the pruning table"
    again = import_files(reopened, RT_PARTS + seed_files)
    assert (again.new, again.updated, again.unchanged) == (0, 0, 19_630)


@pytest.mark.slow
def test_dump_then_seeds_and_decisions(tmp_path: Path, seed_files: list[Path]) -> None:
    store = Store(tmp_path / "data")
    import_files(store, RT_PARTS)
    summary = import_files(store, seed_files)
    assert (summary.new, summary.updated) == (0, 37)
    assert len(store.papers) == 19_630
    import_files(store, [PARQUET])
    decisions: dict[str, int] = {}
    for p in store.papers:
        decisions[p.decision] = decisions.get(p.decision, 0) + 1
    assert decisions["poster"] == 5_120 and decisions["oral"] == 223 and decisions["accept-conditional"] == 15
    assert decisions["withdrawn"] == 2_351
    assert len(store.papers) == 19_630
