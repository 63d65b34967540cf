"""One paper per real paper: matching, combining, aliases, and the user's data following papers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings, UserData, normalise_text
from paperdeck.sources.importer import import_files
from paperdeck.store.merge import ABSTRACT_MATCH_THRESHOLD, Merger, combine, compatible, decision_replaces
from paperdeck.store.store import Store
from rapidfuzz import fuzz

from tests.helpers import DECISIONS_NAME, SEEDS, SHARED_DATA, submission_parts
from tests.shared_slices import Slices, cut

RT_PARTS = submission_parts(SHARED_DATA)  # the whole dump: the tests marked data
PARQUET = SHARED_DATA / DECISIONS_NAME
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
    store = Store(tmp_path_factory.mktemp("merge") / "data")
    import_files(store, sorted(SEEDS.glob("*.txt")))
    originals = {p.id: p.abstract for p in store.papers}
    reap = next(p for p in store.papers if p.title.startswith("REAP"))
    store.set_star(reap.id, True)
    store.set_note(reap.id, "read the pruning table")
    summary = import_files(store, RT_PARTS)
    return store, originals | {"reap": reap.id}, summary


@pytest.mark.slow
@pytest.mark.data
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
@pytest.mark.data
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
@pytest.mark.data
def test_dump_then_seeds_and_decisions(tmp_path: Path, seed_files: list[Path]) -> None:
    store = Store(tmp_path / "data")
    import_files(store, RT_PARTS)
    summary = import_files(store, seed_files)
    # the seeds add only their file's name to the dump's papers: nothing about them changed
    assert (summary.new, summary.updated, summary.unchanged) == (0, 0, 37)
    assert sum(any(s.endswith(".txt") for s in p.sources) for p in store.papers) == 37
    assert len(store.papers) == 19_630
    import_files(store, [PARQUET])
    decisions: dict[str, int] = {}
    for p in store.papers:
        decisions[p.decision] = decisions.get(p.decision, 0) + 1
    assert decisions["poster"] == 5_120 and decisions["oral"] == 223 and decisions["accept-conditional"] == 15
    assert decisions["withdrawn"] == 2_351
    assert len(store.papers) == 19_630


# -- two papers one abstract apart (cases/hostile-inputs.md) --------------------------------------

MOLECULES = (
    "We introduce a graph transformer for molecules that learns structural encodings from random walks "
    "and achieves state of the art results on standard molecule benchmarks while using fewer parameters "
    "than prior models."
)
TWO_PAPERS = (
    ("GraphMol: Graph Transformers for Molecules", MOLECULES),
    ("GraphProt: Graph Transformers for Proteins", MOLECULES.replace("molecule", "protein")),
)


def write_records(path: Path, form: str, records: list[dict[str, object]]) -> Path:
    """``records`` (title, abstract, and optionally number / forum / doi) as a file of ``form``."""
    import csv
    import json

    if form == "csv":
        with path.with_suffix(".csv").open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["title", "abstract", "venue", "year", "openreview_url"])
            for r in records:
                forum = f"https://openreview.net/forum?id={r['forum']}" if r.get("forum") else ""
                writer.writerow([r["title"], r["abstract"], "ICLR", "2026", forum])
        return path.with_suffix(".csv")
    if form == "openreview":
        lines = []
        for r in records:
            note: dict[str, object] = {
                "content": {"title": r["title"], "abstract": r["abstract"], "venue": "ICLR 2026 Conference Submission"}
            }
            if r.get("forum"):
                note["id"] = r["forum"]
            if r.get("number"):
                note["number"] = r["number"]
            lines.append(json.dumps(note))
        path.with_suffix(".jsonl").write_text("\n".join(lines) + "\n", "utf-8")
        return path.with_suffix(".jsonl")
    if form == "papercopilot":
        rows = [{"title": r["title"], "abstract": r["abstract"], "status": "Poster", "site": ""} for r in records]
        path.with_suffix(".json").write_text(json.dumps(rows), "utf-8")
        return path.with_suffix(".json")
    assert form == "bibtex"
    entries = []
    for n, r in enumerate(records):
        extra = f" doi={{{r['doi']}}},\n" if r.get("doi") else ""
        entries.append(
            f"@inproceedings{{k{path.stem}{n},\n title={{{r['title']}}},\n abstract={{{r['abstract']}}},\n"
            f"{extra} booktitle={{ICLR}},\n year={{2026}}\n}}\n"
        )
    path.with_suffix(".bib").write_text("\n".join(entries), "utf-8")
    return path.with_suffix(".bib")


FORMS = ("csv", "openreview", "papercopilot", "bibtex")


@pytest.mark.parametrize("form", FORMS)
def test_two_titled_papers_one_abstract_apart_in_one_file_stay_two(tmp_path: Path, form: str) -> None:
    records: list[dict[str, object]] = [{"title": t, "abstract": a} for t, a in TWO_PAPERS]
    store = Store(tmp_path / "data")
    import_files(store, [write_records(tmp_path / "two", form, records)])
    assert sorted(p.title for p in store.papers) == sorted(t for t, _ in TWO_PAPERS)


@pytest.mark.parametrize(("first", "second"), [(a, b) for a in FORMS for b in FORMS])
def test_two_titled_papers_one_abstract_apart_from_two_files_stay_two(tmp_path: Path, first: str, second: str) -> None:
    (title_a, abstract_a), (title_b, abstract_b) = TWO_PAPERS
    store = Store(tmp_path / "data")
    import_files(store, [write_records(tmp_path / "a", first, [{"title": title_a, "abstract": abstract_a}])])
    import_files(store, [write_records(tmp_path / "b", second, [{"title": title_b, "abstract": abstract_b}])])
    assert sorted(p.title for p in store.papers) == [title_a, title_b]


@pytest.mark.parametrize(
    ("form", "ids"),
    [
        ("openreview", [{"number": 5}, {"number": 6}]),  # submission numbers, placeholder titles
        ("openreview", [{"forum": "AbcdefGh01"}, {"forum": "AbcdefGh02"}]),
        ("csv", [{"forum": "AbcdefGh01"}, {"forum": "AbcdefGh02"}]),
        ("bibtex", [{"doi": "10.1/a"}, {"doi": "10.1/b"}]),
    ],
)
def test_two_papers_with_distinct_ids_one_abstract_apart_stay_two(
    tmp_path: Path, form: str, ids: list[dict[str, object]]
) -> None:
    """Placeholder titles (``Withdrawn``): only the ids tell the records apart."""
    records = [{"title": "Withdrawn", "abstract": a} | extra for (_, a), extra in zip(TWO_PAPERS, ids, strict=True)]
    store = Store(tmp_path / "data")
    import_files(store, [write_records(tmp_path / "one", form, records[:1])])
    import_files(store, [write_records(tmp_path / "two", form, records[1:])])
    assert len(store.papers) == 2


@pytest.mark.parametrize("form", FORMS)
def test_an_untitled_seed_still_joins_its_titled_record_by_the_abstract(tmp_path: Path, form: str) -> None:
    """The abstract match is still what joins a seed (derived title) to its real record."""
    seed = tmp_path / "seed.txt"
    seed.write_text("ICLR 2026\n\n" + MOLECULES.replace("random walks", "random  walks") + "\n", "utf-8")
    store = Store(tmp_path / "data")
    import_files(store, [seed])
    import_files(store, [write_records(tmp_path / "one", form, [{"title": TWO_PAPERS[0][0], "abstract": MOLECULES}])])
    assert [p.title for p in store.papers] == [TWO_PAPERS[0][0]]


# -- every user field follows its paper; decisions never lose their tier ----------------------------


@pytest.fixture(scope="module")
def slices(tmp_path_factory: pytest.TempPathFactory) -> Slices:
    return cut(tmp_path_factory.mktemp("slices"))


def _mark_everything(store: Store, paper_id: str) -> UserData:
    [(_, after)] = store.change(
        [paper_id], lambda r: r.replaced(starred=True, note="see §3", status="to-read", tags=("method", "re-read"))
    )
    return after


def test_star_note_status_tags_and_times_follow_a_seed_into_its_openreview_record(
    tmp_path: Path, slices: Slices
) -> None:
    seeds, dump = slices.iclr2026[:2]
    store = Store(tmp_path / "data")
    import_files(store, [seeds])
    seed_ids = set(store.paper_ids)
    marked = {pid: _mark_everything(store, pid) for pid in sorted(seed_ids)}
    import_files(store, [dump])
    moved = [pid for pid in marked if store.resolve(pid) != pid]
    assert moved and all(store.resolve(pid).startswith("openreview:") for pid in moved)
    for reopened in (store, Store(store.data_dir)):
        for old_id, before in marked.items():
            after = reopened.user_data(reopened.resolve(old_id))
            assert after.replaced(paper_id=old_id) == before  # every field, the times too
        assert not set(reopened.all_user_data) & set(reopened.aliases)


def test_marks_follow_iclr_2018_title_ids_to_forum_ids(tmp_path: Path, slices: Slices) -> None:
    papercopilot, _, _, author_rows = slices.iclr2018
    store = Store(tmp_path / "data")
    import_files(store, [author_rows])  # title ids: the rows carry no forum id
    marked = {pid: _mark_everything(store, pid) for pid in store.paper_ids}
    assert marked and all(pid.startswith("title:") for pid in marked)
    import_files(store, [papercopilot])
    for old_id, before in marked.items():
        assert store.resolve(old_id).startswith("openreview:")
        assert store.user_data(store.resolve(old_id)).replaced(paper_id=old_id) == before


def test_a_record_written_under_an_old_id_moves_at_the_next_import(tmp_path: Path, slices: Slices) -> None:
    """A record under an id that is already an alias (a restored backup, another paperdeck) is
    combined with the paper's own record at once: both notes, all tags, starred, the set status."""
    seeds, dump = slices.iclr2026[:2]
    store = Store(tmp_path / "data")
    import_files(store, [dump, seeds])
    old_id = next(pid for pid in store.aliases if pid.startswith("abs:"))
    current = store.resolve(old_id)
    store.change([current], lambda r: r.replaced(note="mine", tags=("a",)))
    store.change([old_id], lambda r: r.replaced(starred=True, note="restored", status="read", tags=("b",)))
    import_files(store, [seeds])
    record = store.user_data(current)
    assert (record.starred, record.note, record.status, record.tags) == (True, "mine\n\nrestored", "read", ("a", "b"))
    assert old_id not in store.all_user_data


def test_bibtex_after_paper_copilot_keeps_oral_and_poster(tmp_path: Path, slices: Slices) -> None:
    papercopilot, openreview_bib, smart_bib, _ = slices.iclr2018
    store = Store(tmp_path / "data")
    import_files(store, [papercopilot])
    before = {p.id: p.decision for p in store.papers}
    assert {"oral", "poster", "workshop", "reject", "withdrawn"} <= set(before.values())
    import_files(store, [openreview_bib, smart_bib])
    assert {p.id: p.decision for p in store.papers} == before


@pytest.mark.parametrize(
    ("old", "new", "replaces"),
    [
        ("oral", "accept", False),
        ("poster", "accept", False),
        ("accept-conditional", "accept", False),
        ("workshop", "accept", False),
        ("accept", "poster", True),
        ("under-review", "accept", True),
        ("poster", "under-review", False),
        ("poster", "unknown", False),
        ("withdrawn", "under-review", False),
        ("unknown", "under-review", True),
        ("under-review", "unknown", False),
        ("poster", "reject", True),
        ("reject", "accept", True),
        ("poster", "oral", True),
    ],
)
def test_a_less_specific_decision_never_replaces_a_more_specific_one(old: str, new: str, replaces: bool) -> None:
    assert decision_replaces(old, new) is replaces
    merged = combine(paper(decision=old, decision_raw=old), paper(decision=new, decision_raw=new, sources=("b",)))
    assert merged.decision == (new if replaces else old)
    assert merged.decision_raw == merged.decision


def test_normalise_text_drops_zero_width_characters_and_folds_the_rest() -> None:
    assert normalise_text("Sparse\u200b  Atten\u2060tion\ufeff\nIS  ﬁne") == "sparse attention is fine"
    assert normalise_text("Plain  ASCII\tText") == "plain ascii text"
