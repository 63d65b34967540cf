"""A paper that appears in two venues (a resubmission) stays two papers, and the user's fields
follow each: the merge never joins records of different venues or years."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.ids import title_id
from paperdeck.model.paper import Paper
from paperdeck.store.merge import Merger, venue_qualified_id
from paperdeck.store.store import Store

LONG = " ".join(f"word{n}" for n in range(40))  # an abstract long enough to be a merge key


def record(venue: str, year: int, **fields: object) -> Paper:
    base: dict[str, object] = {
        "id": "arxiv:2501.00001",
        "title": "Sparse Experts Prune Themselves",
        "abstract": LONG,
        "venue": venue,
        "year": year,
        "arxiv_id": "2501.00001",
        "authors": ("A. Author", "B. Author"),
        "sources": (f"{venue.casefold()}{year}.json",),
    }
    base.update(fields)
    return Paper(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "key",
    [
        {},  # the same arXiv id, so the same canonical id
        {"id": "doi:10.1/x", "arxiv_id": "", "doi": "10.1/x"},  # the same DOI
        {"arxiv_id": ""},  # the same title and abstract alone (a title id, its venue in it)
    ],
)
def test_a_resubmission_stays_two_papers(key: dict[str, object]) -> None:
    def of(year: int) -> dict[str, object]:
        return key if "id" in key else {**key, "id": title_id("ICLR", year, "Sparse Experts Prune Themselves")}

    merger = Merger({}, {})
    merger.merge([record("ICLR", 2025, **of(2025))])
    result = merger.merge([record("ICLR", 2026, **of(2026), decision="poster")])
    assert len(result.papers) == 2 and result.new == 1
    venues = sorted((p.venue_label, p.decision) for p in result.papers.values())
    assert venues == [("ICLR 2025", "unknown"), ("ICLR 2026", "poster")]


def test_each_venue_s_record_joins_its_own_paper_again() -> None:
    """Importing both venues' files again (in either order) joins each record to its own venue's
    paper, and the qualified id is what the second venue's paper keeps."""
    merger = Merger({}, {})
    merger.merge([record("ICLR", 2025), record("ICLR", 2026)])
    first = dict(merger.papers)
    assert set(first) == {"arxiv:2501.00001", "arxiv:2501.00001@iclr-2026"}
    assert first["arxiv:2501.00001@iclr-2026"].venue_label == "ICLR 2026"
    result = merger.merge([record("ICLR", 2026, decision="oral"), record("ICLR", 2025, decision="reject")])
    assert (result.new, result.updated) == (0, 2)
    assert result.papers["arxiv:2501.00001@iclr-2026"].decision == "oral"
    assert result.papers["arxiv:2501.00001"].decision == "reject"
    assert "arxiv:2501.00001" not in result.aliases  # a paper's own id is never an alias


def test_the_same_venue_still_joins_by_arxiv_id() -> None:
    merger = Merger({}, {})
    merger.merge([record("ICLR", 2026, id="title:a", title="Old")])
    result = merger.merge([record("ICLR", 2026, decision="poster")])
    assert list(result.papers) == ["arxiv:2501.00001"] and result.renamed == {"title:a": "arxiv:2501.00001"}


def test_a_record_without_a_venue_still_joins() -> None:
    """An arXiv Atom entry or a BibTeX entry that names no venue joins the venue's paper."""
    merger = Merger({}, {})
    merger.merge([record("ICLR", 2026)])
    result = merger.merge([record("", 2026, id="arxiv:2501.00001", keywords=("moe",))])
    assert len(result.papers) == 1 and result.papers["arxiv:2501.00001"].keywords == ("moe",)


def test_the_qualified_id() -> None:
    assert venue_qualified_id(record("COLM", 2025)) == "arxiv:2501.00001@colm-2025"
    assert venue_qualified_id(record("", 0)) == "arxiv:2501.00001@unknown-unknown"


def test_user_fields_stay_with_their_venue_s_paper(tmp_path: Path) -> None:
    """Marks on the ICLR 2025 paper stay there when its ICLR 2026 resubmission is imported, and
    marks on each stay on each through a re-import of both and a reopening."""
    store = Store(tmp_path / "data")
    store.import_papers([record("ICLR", 2025)])
    [old_id] = store.paper_ids
    store.change([old_id], lambda r: r.replaced(starred=True, note="first try", tags=("moe",)))
    store.import_papers([record("ICLR", 2026, decision="poster")])
    new_id = next(pid for pid in store.paper_ids if pid != old_id)
    assert store.paper(new_id).venue_label == "ICLR 2026"  # type: ignore[union-attr]
    assert not store.user_data(new_id).starred and not store.user_data(new_id).note
    store.set_note(new_id, "accepted this time")
    store.import_papers([record("ICLR", 2026, decision="oral"), record("ICLR", 2025, decision="reject")])
    for reopened in (store, Store(store.data_dir)):
        assert reopened.paper_count == 2
        old, new = reopened.user_data(old_id), reopened.user_data(new_id)
        assert (old.starred, old.note, old.tags) == (True, "first try", ("moe",))
        assert (new.starred, new.note, new.tags) == (False, "accepted this time", ())
        assert reopened.paper(old_id).decision == "reject"  # type: ignore[union-attr]
        assert reopened.paper(new_id).decision == "oral"  # type: ignore[union-attr]
