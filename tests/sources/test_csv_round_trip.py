"""paperdeck's CSV export imported again (into a fresh store, or into one with marks of its own)
gives the same papers — the BibTeX cell (``@inproceedings{…``, written ``'@…`` against formula
injection), the ratings with their spread and scale, the source's decision text — and the same
stars, notes, statuses and tags; marks already in the store are combined with the file's, never
written over; a marks cell paperdeck never writes refuses the file in one line."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from paperdeck.export.formats import export_papers
from paperdeck.model.errors import SourceError
from paperdeck.model.paper_json import paper_record
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SEEDS, fixture

COPILOT = fixture("papercopilot_iclr2018.json")  # each record carries OpenReview's BibTeX entry
NOTE = '=SUM(A1) is not a formula here,\n  and a "quoted" second line\n'


def _catalogue(store: Store) -> dict[str, dict[str, object]]:
    """Each paper as ``--json`` gives it, less what says where it was read from."""
    records = {}
    for paper in store.papers:
        record = paper_record(paper, store.user_data(paper.id))
        for key in ("sources", "provenance", "modified"):
            record.pop(key, None)
        records[paper.id] = record
    return records


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Store, Path]:
    store = Store(tmp_path / "first")
    import_files(store, [COPILOT])
    first, second, third = (paper.id for paper in store.papers[:3])
    store.set_star(first, True)
    store.set_note(first, NOTE)
    store.set_status(second, "read")
    store.change([second], lambda record: record.replaced(tags=("-neg", "@at", "must-read")))
    store.set_star(third, True)
    path = tmp_path / "export.csv"
    path.write_text(export_papers(store.papers, store.all_user_data, "csv"), encoding="utf-8", newline="")
    return store, path


def test_the_export_guards_the_bibtex_cell_against_formulas(exported: tuple[Store, Path]) -> None:
    _, path = exported
    rows = list(csv.DictReader(io.StringIO(path.read_text("utf-8"), newline="")))
    assert all(row["bibtex"].startswith("'@") for row in rows if row["bibtex"])
    assert sum(bool(row["bibtex"]) for row in rows) > 40
    assert [row["note"] for row in rows if row["note"]] == ["'" + NOTE]


def test_an_export_imported_again_gives_the_same_papers_and_marks(exported: tuple[Store, Path], tmp_path: Path) -> None:
    store, path = exported
    again = Store(tmp_path / "again")
    summary = import_files(again, [path])
    assert summary.new == len(store.papers)
    assert _catalogue(again) == _catalogue(store)
    assert all(paper.bibtex.startswith("@") for paper in again.papers if paper.bibtex)
    marks = {pid: record for pid, record in store.all_user_data.items() if not record.is_empty}
    assert {pid: again.user_data(pid) for pid in marks} == marks
    assert again.user_data(store.papers[0].id).note == NOTE  # its spaces and line end as written


def test_marks_in_the_store_are_combined_with_the_files_never_written_over(
    exported: tuple[Store, Path], tmp_path: Path
) -> None:
    store, path = exported
    first = store.papers[0].id
    other = Store(tmp_path / "other")
    import_files(other, [COPILOT])
    other.set_note(first, "my own note")
    other.set_status(first, "to-read")
    import_files(other, [path])
    record = other.user_data(first)
    assert record.starred and record.note == "my own note\n\n" + NOTE and record.status == "to-read"
    import_files(other, [path])  # again: nothing added twice
    assert other.user_data(first).note == "my own note\n\n" + NOTE


def test_a_marks_cell_paperdeck_never_writes_refuses_the_file_naming_the_line(
    exported: tuple[Store, Path], tmp_path: Path
) -> None:
    _, path = exported
    text = path.read_text("utf-8").replace(",true,", ",yes,", 1)
    broken = tmp_path / "broken.csv"
    broken.write_text(text, encoding="utf-8", newline="")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if ",yes," in row)
    fresh = Store(tmp_path / "fresh")
    with pytest.raises(SourceError) as refused:
        import_files(fresh, [broken])
    assert str(refused.value) == f"{broken}:{line}: starred: 'yes' is neither true nor false; nothing was imported"
    assert fresh.papers == []


def test_seed_papers_come_back_known_by_their_abstract_with_a_derived_title(tmp_path: Path) -> None:
    store = Store(tmp_path / "seeds")
    import_files(store, sorted(SEEDS.glob("*.txt")))
    seed = store.papers[0]
    store.set_star(seed.id, True)
    path = tmp_path / "seeds.csv"
    path.write_text(export_papers(store.papers, store.all_user_data, "csv"), encoding="utf-8", newline="")
    again = Store(tmp_path / "again")
    import_files(again, [path])
    assert _catalogue(again) == _catalogue(store)  # abs: ids, derived titles, no decision text
    assert seed.id.startswith("abs:") and again.user_data(seed.id).starred


def test_an_arxiv_papers_link_comes_back_as_it_was(tmp_path: Path) -> None:
    store = Store(tmp_path / "arxiv")
    import_files(store, [fixture("arxiv_atom_2016_classic_au-del_maestro.xml")])
    path = tmp_path / "arxiv.csv"
    path.write_text(export_papers(store.papers, store.all_user_data, "csv"), encoding="utf-8", newline="")
    again = Store(tmp_path / "again")
    import_files(again, [path])
    assert _catalogue(again) == _catalogue(store)
