"""Every multi-file write is one transaction: with EIO, ENOSPC or a kill injected at each writing
system call of an import (a paper list, alone or with its programme; OpenReview notes carrying their
replies), a review import,
a restore, a mark on many papers, a removal and an undo (with a programme, too), a restarted store
holds the whole state before or the whole state after — never half — and the error said which
(:mod:`tests.store.faults`).

The default run injects at a sample of the calls; the slow run at every one of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.backup import read_backup, restore_backup, write_backup
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for

from tests.fetch.api_server import iclr2026_notes
from tests.helpers import write_review_sample
from tests.store.faults import Outcome, check_operation, count_calls

NOW = "2026-12-01T10:00:00.000000+00:00"
#: Call numbers sampled in the default run (of each operation, each fault kind).
SAMPLES = 8


def _store(data_dir: Path) -> Store:
    return Store(data_dir, now=lambda: NOW)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The inputs: the replies sample's 12 papers (all, and the first 6), its notes (all, and
    the first half), a paper list with a title-only paper, and OpenReview notes carrying replies."""
    folder = tmp_path_factory.mktemp("inputs")
    sample = write_review_sample(folder)
    lines = sample.papers_file.read_bytes().splitlines(keepends=True)
    first = folder / "first-papers.jsonl"
    first.write_bytes(b"".join(lines[:6]))
    notes = sample.notes()
    half = folder / "half-notes.json"
    half.write_text(json.dumps(notes[: len(notes) // 2]))
    replies = folder / "notes-with-replies.json"
    replies.write_text(json.dumps(iclr2026_notes(4)))
    # a programme of the 12 papers (made-up sessions and times): joined to them in the same import
    forums = [json.loads(line)["id"] for line in lines]
    rows = [{"id": n, "name": f"row {n}", "eventtype": "Poster", "session": f"S{n % 3}",
             "starttime": "2026-04-23T10:30:00-03:00", "endtime": "2026-04-23T13:00:00-03:00",
             "paper_url": f"https://openreview.net/forum?id={forum}"} for n, forum in enumerate(forums)]  # fmt: skip
    programme = folder / "iclr-2026-orals-posters.json"
    programme.write_text(json.dumps({"count": len(rows), "results": rows}))
    return {"papers": sample.papers_file, "first": first, "notes": sample.notes_file, "half": half,
            "replies": replies, "programme": programme}  # fmt: skip


def _marked(store: Store) -> None:
    """A star and a note on the first two papers: what must never be lost."""
    ids = store.paper_ids
    store.set_star(ids[0], True)
    store.set_note(ids[1], "mine: compare with §4")


@pytest.fixture(scope="module")
def templates(files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The before-state of each operation, built once."""
    root = tmp_path_factory.mktemp("templates")
    scratch = _store(root / "scratch")
    import_files(scratch, [files["papers"]])
    eighth = scratch.papers[7]
    # a paper list: 6 papers, and the eighth known by its title only (the import gives it its id)
    papers = root / "papers"
    store = _store(papers)
    import_files(store, [files["first"]])
    store.import_papers([Paper(id="title:x", title=eighth.title, abstract="", venue="ICLR", year=2026)])
    _marked(store)
    store.set_star("title:x", True)
    # 12 papers with half their notes: a review import records what changed
    reviews = root / "reviews"
    store = _store(reviews)
    import_files(store, [files["papers"], files["half"]])
    _marked(store)
    # the 12 papers and their programme imported together: an undo takes both back, a removal
    # takes the removed papers' events
    programme = root / "programme"
    store = _store(programme)
    import_files(store, [files["papers"], files["programme"]])
    _marked(store)
    return {"papers": papers, "reviews": reviews, "programme": programme}


def _import(*names: str) -> Any:
    def operation(files: dict[str, Path]) -> Any:
        return lambda data_dir: import_files(_store(data_dir), [files[name] for name in names])

    return operation


def _restore(backup: Path) -> Any:
    return lambda data_dir: restore_backup(_store(data_dir), read_backup(backup))


def _spread_ids(store: Store, count: int) -> list[str]:
    """``count`` paper ids each in a shard of its own."""
    chosen: dict[int, str] = {}
    for pid in store.paper_ids:
        chosen.setdefault(doc_id_for(pid) % SHARDS, pid)
    assert len(chosen) >= count
    return list(chosen.values())[:count]


def _bulk(data_dir: Path) -> None:
    store = _store(data_dir)
    ids = _spread_ids(store, 6)
    store.change(ids, lambda record: record.replaced(starred=True, tags=(*record.tags, "to-read")))


def _remove(data_dir: Path) -> None:
    store = _store(data_dir)
    store.remove_papers(_spread_ids(store, 3))


def _undo(data_dir: Path) -> None:
    _store(data_dir).undo_last_change()  # the template's last change: an import of papers and reviews


def _operations(files: dict[str, Path], templates: dict[str, Path], tmp_path: Path) -> dict[str, Any]:
    backup = tmp_path / "backup.json"
    scratch = tmp_path / "for-backup"
    import shutil

    shutil.copytree(templates["reviews"], scratch)
    store = _store(scratch)
    for pid in _spread_ids(store, 5):
        store.set_note(pid, f"restored note of {pid}")
        store.set_status(pid, "read")
    write_backup(store, backup, now=lambda: NOW)
    return {
        "import a paper list": (templates["papers"], _import("papers")(files)),
        "import a paper list with its programme": (templates["papers"], _import("papers", "programme")(files)),
        "import notes carrying replies": (templates["papers"], _import("replies")(files)),
        "import reviews": (templates["reviews"], _import("notes")(files)),
        "restore a backup": (templates["reviews"], _restore(backup)),
        "star and tag six papers": (templates["reviews"], _bulk),
        "remove three papers": (templates["reviews"], _remove),
        "undo the last import": (templates["reviews"], _undo),
        "remove three papers with their events": (templates["programme"], _remove),
        "undo an import of papers and their programme": (templates["programme"], _undo),
    }


def _run(name: str, files: dict[str, Path], templates: dict[str, Path], tmp_path: Path, every: bool) -> Outcome:
    template, operation = _operations(files, templates, tmp_path)[name]
    total = count_calls(template, tmp_path, operation)
    assert total > 5
    step = 1 if every else max(1, total // SAMPLES)
    calls = range(1, total + 1, step)
    outcome = check_operation(template, tmp_path, operation, calls)
    print(f"{name}: {total} calls, {outcome.runs} injections, {outcome.completed} completed, "
          f"{outcome.unchanged} unchanged, {len(outcome.half_states)} half states")  # fmt: skip
    return outcome


NAMES = [
    "import a paper list",
    "import a paper list with its programme",
    "import notes carrying replies",
    "import reviews",
    "restore a backup",
    "star and tag six papers",
    "remove three papers",
    "undo the last import",
    "remove three papers with their events",
    "undo an import of papers and their programme",
]


@pytest.mark.parametrize("name", NAMES)
def test_a_fault_at_sampled_calls_leaves_the_whole_before_or_after(
    name: str, files: dict[str, Path], templates: dict[str, Path], tmp_path: Path
) -> None:
    outcome = _run(name, files, templates, tmp_path, every=False)
    assert outcome.runs >= 3 * 5
    assert outcome.half_states == []
    assert outcome.false_messages == []


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_fault_at_every_call_leaves_the_whole_before_or_after(
    name: str, files: dict[str, Path], templates: dict[str, Path], tmp_path: Path
) -> None:
    outcome = _run(name, files, templates, tmp_path, every=True)
    assert outcome.half_states == []
    assert outcome.false_messages == []
