"""A decisions file whose papers are all in the store is merged in place (issue 32): only the
papers it names are parsed, and the catalogue, rows cache, paper index, change log and undo point
are byte for byte what merging into the whole catalogue writes; a fault at any write leaves the
store as it was before or as it is after, never between.

Fixtures: the ICLR 2026 submission cuts and the Paper Copilot Parquet cut of ``tests/data/``
(see its README); the Parquet's rows are kept to the papers the cuts hold.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from paperdeck.model.paper import Paper
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store.catalogue import CATALOGUE_FILE, ROWS_FILE
from paperdeck.store.import_run import ImportRun
from paperdeck.store.paper_index import INDEX_FILE, index_bytes
from paperdeck.store.rows import decode_spans, file_stamp
from paperdeck.store.store import Store

from tests.shared_slices import PARQUET, RT_PARTS
from tests.store.faults import check_operation, count_calls

NOW = "2026-12-01T10:00:00.000000+00:00"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of the submission cuts (266 papers), with a star and a note."""
    data = tmp_path_factory.mktemp("template") / "data"
    store = Store(data, now=lambda: NOW)
    import_files(store, RT_PARTS)
    ids = store.paper_ids
    store.set_star(ids[0], True)
    store.set_note(ids[1], "mine")
    return data


@pytest.fixture(scope="module")
def decisions(template: Path) -> list[Paper]:
    """The Parquet cut's papers that the template holds (each by its own id)."""
    held = set(Store(template, lazy=True).paper_ids)
    papers = [paper for paper in read_source(PARQUET).papers if paper.id in held]
    assert len(papers) > 50
    return papers


def _import(data: Path, papers: list[Paper]) -> Store:
    """As ``paperdeck import`` opens the store and imports (one undoable change)."""
    store = Store(data, now=lambda: NOW, lazy=True, rows=False, user_records=False)
    with store.undoable("import"):
        store.import_papers(papers)
    return store


def _rows_lines(data: Path) -> tuple[dict[str, object], list[bytes]]:
    """The rows cache's header without the catalogue's stamp, and its other lines."""
    lines = (data / ROWS_FILE).read_bytes().split(b"\n")
    header = orjson.loads(lines[0])
    del header["catalogue"]
    return header, lines[1:]


def test_in_place_writes_what_the_whole_merge_writes_parsing_only_the_named_papers(
    template: Path, decisions: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole, patched = tmp_path / "whole", tmp_path / "patched"
    shutil.copytree(template, whole)
    shutil.copytree(template, patched)
    with monkeypatch.context() as patch:  # today's path: the whole catalogue read and merged
        patch.setattr(ImportRun, "_import_in_place", lambda self, papers: None)
        _import(whole, decisions)
    parsed: list[str] = []
    from_dict = Paper.from_dict.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Paper], data: dict[str, object]) -> Paper:
        paper = from_dict(cls, data)
        parsed.append(paper.id)
        return paper

    monkeypatch.setattr(Paper, "from_dict", classmethod(counting))
    store = _import(patched, decisions)
    assert sorted(parsed) == sorted({paper.id for paper in decisions})  # each named paper once, no other
    assert not store.catalogue.loaded
    monkeypatch.undo()
    before = (template / CATALOGUE_FILE).read_bytes()
    after = (patched / CATALOGUE_FILE).read_bytes()
    assert after != before  # the decisions changed papers
    assert after == (whole / CATALOGUE_FILE).read_bytes()
    assert _rows_lines(patched) == _rows_lines(whole)
    # The paper index: the new spans, stamped with the new file.
    lines = (patched / ROWS_FILE).read_bytes().split(b"\n")
    spans = decode_spans(lines[2], orjson.loads(lines[1]))
    assert spans is not None
    stamp = file_stamp(patched / CATALOGUE_FILE)
    assert stamp is not None
    expected = index_bytes(stamp, spans.spans.items(), spans.aliases)
    assert (patched / INDEX_FILE).read_bytes() == expected
    for name in ("changes.jsonl", "undo/catalogue.json"):
        assert (patched / name).read_bytes() == (whole / name).read_bytes(), name
    undo = orjson.loads((patched / "undo/undo.json").read_bytes())
    assert undo["summary"] == orjson.loads((whole / "undo/undo.json").read_bytes())["summary"]
    # Every paper reads back as the whole merge left it; the user's records are where they were.
    again, whole_store = Store(patched), Store(whole)
    assert again.papers == whole_store.papers
    assert again.user_data(again.paper_ids[0]).starred
    assert again.user_data(again.paper_ids[1]).note == "mine"


def test_the_papers_read_later_in_the_same_transaction_are_the_patched_ones(
    template: Path, decisions: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import of a decisions file and reviews is one transaction: the reviews' merge reads the
    catalogue as patched (staged, not yet in place), not the file before it."""
    whole, patched = tmp_path / "whole", tmp_path / "patched"
    shutil.copytree(template, whole)
    shutil.copytree(template, patched)
    with monkeypatch.context() as patch:
        patch.setattr(ImportRun, "_import_in_place", lambda self, papers: None)
        _import(whole, decisions)
    store = Store(patched, now=lambda: NOW, lazy=True, rows=False, user_records=False)
    with store.transaction():
        store.import_papers(decisions)
        assert not store.catalogue.loaded  # patched in place
        held = store.papers  # read within the transaction
    assert held == Store(whole).papers


def test_a_new_paper_takes_the_whole_merge(template: Path, decisions: list[Paper], tmp_path: Path) -> None:
    from dataclasses import replace

    data = tmp_path / "data"
    shutil.copytree(template, data)
    stranger = replace(decisions[0], id="openreview:notInTheStore", openreview_id="notInTheStore")
    store = _import(data, [*decisions, stranger])
    assert store.catalogue.loaded  # read whole
    assert "openreview:notInTheStore" in Store(data).paper_ids


def test_a_fault_at_any_write_of_the_in_place_import_leaves_no_half_state(
    template: Path, decisions: list[Paper], tmp_path: Path
) -> None:
    def operation(data_dir: Path) -> None:
        _import(data_dir, decisions)

    total = count_calls(template, tmp_path, operation)
    assert total > 5
    outcome = check_operation(template, tmp_path, operation, range(1, total + 1))
    assert outcome.runs > 0
    assert outcome.half_states == []
    assert outcome.false_messages == []
