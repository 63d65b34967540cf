"""A newer record of a paper replaces its title and abstract, and the change is recorded: newer by
OpenReview's modification date when both records carry one, else by being the same source file
imported again (an edited file). A record of another file, or an identical copy under another
name, leaves the text as it was (and a copy counts as unchanged)."""

from __future__ import annotations

import json
from pathlib import Path

from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.merge import combine, newer, same_data
from paperdeck.store.store import Store

LONG = (
    "We study spectral graph methods for node classification and show that a simple polynomial filter "
    "matches message passing networks on standard benchmarks while training ten times faster."
)


def _api_note(tmdate: int, venue: str, title: str, abstract: str) -> dict[str, object]:
    """One OpenReview API v2 submission note (the tester's ``v2a.json`` / ``v2b.json``)."""
    return {
        "id": "V2TEST0001",
        "forum": "V2TEST0001",
        "number": 99999,
        "invitations": ["ICLR.cc/2026/Conference/-/Submission"],
        "cdate": 1756727991855,
        "tmdate": tmdate,
        "mdate": tmdate,
        "content": {
            "title": {"value": title},
            "abstract": {"value": abstract},
            "venue": {"value": venue},
            "venueid": {"value": "ICLR.cc/2026/Conference"},
            "authors": {"value": ["Ann One"]},
            "keywords": {"value": ["graphs"]},
        },
    }


def _write(path: Path, records: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n", "utf-8")
    return path


def _flat(forum: str, title: str, abstract: str, venue: str = "ICLR 2026 Poster") -> dict[str, object]:
    """A flat note without dates (the safety-subset files)."""
    return {
        "id": forum,
        "forum": forum,
        "venue": venue,
        "venueid": "ICLR.cc/2026/Conference",
        "title": title,
        "abstract": abstract,
        "authors": ["Ann One"],
    }


def test_a_later_api_note_replaces_title_and_abstract_and_records_them(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    original = "Original abstract about spectral graph methods and benchmarks."
    first = _write(tmp_path / "v2a.json", [_api_note(1760000000000, "ICLR 2026 Poster", "Original V2 Title", original)])
    import_files(store, [first])
    store.set_star("openreview:V2TEST0001", True)
    store.set_note("openreview:V2TEST0001", "read the proofs")
    revised = "Revised abstract about spectral graph methods and benchmarks, now with proofs."
    second = _write(tmp_path / "v2b.json", [_api_note(1765000000000, "ICLR 2026 Oral", "Revised V2 Title", revised)])
    summary = import_files(store, [second])
    assert (summary.new, summary.updated, summary.unchanged) == (0, 1, 0)
    paper = store.paper("openreview:V2TEST0001")
    assert paper is not None
    assert (paper.title, paper.abstract, paper.decision) == ("Revised V2 Title", revised, "oral")
    assert paper.modified == 1765000000000
    assert paper.source_of("title") == paper.source_of("abstract") == "v2b.json"
    (change,) = store.changes()
    assert change.kinds >= {"title", "abstract", "decision"}
    user = store.user_data("openreview:V2TEST0001")
    assert user.starred and user.note == "read the proofs"


def test_an_older_api_note_imported_later_keeps_the_newer_text(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    later = _api_note(1765000000000, "ICLR 2026 Oral", "Revised V2 Title", LONG)
    import_files(store, [_write(tmp_path / "v2b.json", [later])])
    earlier = _api_note(1760000000000, "ICLR 2026 Oral", "Original V2 Title", LONG + " Old.")
    import_files(store, [_write(tmp_path / "v2a.json", [earlier])])
    paper = store.paper("openreview:V2TEST0001")
    assert paper is not None
    assert (paper.title, paper.abstract, paper.modified) == ("Revised V2 Title", LONG, 1765000000000)
    assert store.changes() == []


def test_the_same_undated_file_edited_and_imported_again_replaces_the_text(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    records = [
        _flat("sbEb0Ld6MK", "Fairness via Independence", LONG),
        _flat("sWs0cCuM8I", "Spilling the Beans", LONG + " Two."),
    ]
    import_files(store, [_write(tmp_path / "v1" / "safe40.jsonl", records)])
    edited = [_flat("sbEb0Ld6MK", "Fairness via Independence (Camera Ready)", LONG), records[1]]
    summary = import_files(store, [_write(tmp_path / "v2" / "safe40.jsonl", edited)])
    assert (summary.new, summary.updated, summary.unchanged) == (0, 1, 1)
    paper = store.paper("openreview:sbEb0Ld6MK")
    assert paper is not None and paper.title == "Fairness via Independence (Camera Ready)"
    assert [change.kinds for change in store.changes()] == [frozenset({"title"})]


def test_another_undated_file_does_not_replace_the_text(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [_write(tmp_path / "safe40.jsonl", [_flat("sbEb0Ld6MK", "Fairness via Independence", LONG)])])
    other = _write(tmp_path / "other.jsonl", [_flat("sbEb0Ld6MK", "Fairness via Independence", LONG + " Edited.")])
    import_files(store, [other])
    paper = store.paper("openreview:sbEb0Ld6MK")
    assert paper is not None and paper.abstract == LONG


def test_an_identical_file_under_another_name_is_unchanged(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    records = [_flat(f"forum{n:05d}", f"Paper number {n}", f"{LONG} Variant {n}.") for n in range(5)]
    import_files(store, [_write(tmp_path / "safe40.jsonl", records)])
    summary = import_files(store, [_write(tmp_path / "safe40-copy.jsonl", records)])
    assert (summary.new, summary.updated, summary.unchanged) == (0, 0, 5)
    assert all(paper.sources == ("safe40.jsonl", "safe40-copy.jsonl") for paper in store.papers)
    assert store.changes() == []


def test_a_seed_file_with_an_edited_abstract_updates_the_paper_under_its_id(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    seed = tmp_path / "seedA.txt"
    other = (
        "Protein structure prediction with diffusion models: we denoise backbone coordinates in a learned "
        "frame and report accuracy on held-out folds together with an ablation of the noise schedule."
    )
    seed.write_text(f"ICLR 2026 papers\n\n{LONG}\n\n{other}\n", "utf-8")
    import_files(store, [seed])
    (paper_id,) = [paper.id for paper in store.papers if paper.abstract == LONG]
    store.set_star(paper_id, True)
    edited = LONG.replace("ten times faster", "ten times faster on one GPU")
    seed.write_text(f"ICLR 2026 papers\n\n{edited}\n\n{other}\n", "utf-8")
    summary = import_files(store, [seed])
    assert (summary.new, summary.updated, summary.unchanged) == (0, 1, 1)
    paper = store.paper(paper_id)
    assert paper is not None and paper.abstract == edited
    assert [(c.paper_id, c.kinds) for c in store.changes()] == [(paper_id, frozenset({"abstract"}))]
    assert store.user_data(paper_id).starred


def test_newer_prefers_dates_then_the_same_source() -> None:
    old = Paper("openreview:x", "Old", LONG, sources=("a.json",), modified=10)
    assert newer(old, Paper("openreview:x", "New", LONG, sources=("b.json",), modified=11), "title")
    assert not newer(old, Paper("openreview:x", "New", LONG, sources=("a.json",), modified=9), "title")
    assert not newer(old, Paper("openreview:x", "New", LONG, sources=("a.json",), modified=10), "title")
    assert newer(old, Paper("openreview:x", "New", LONG, sources=("a.json",)), "title")
    assert not newer(old, Paper("openreview:x", "New", LONG, sources=("b.json",)), "title")
    dated = Paper("openreview:x", "New", LONG, sources=("b.json",), modified=11)
    assert combine(combine(old, dated), dated) == combine(old, dated)
    assert same_data(old, combine(old, Paper("openreview:x", "Old", LONG, sources=("c.json",), modified=12)))
