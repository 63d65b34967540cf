"""Every way of writing a user record refuses one too large to keep, in one line, changing nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.store.user_data import MAX_NOTE_CHARS, MAX_TAG_CHARS, MAX_TAGS

ABSTRACT = "An abstract long enough to be a paper about the sizes of notes and tags in a reading list."


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id="openreview:SizeTest01", title="Sizes", abstract=ABSTRACT)])
    return store


def test_the_largest_note_and_tags_are_kept(store: Store) -> None:
    pid = "openreview:SizeTest01"
    assert len(store.set_note(pid, "n" * MAX_NOTE_CHARS).note) == MAX_NOTE_CHARS
    tags = [f"t{n}" for n in range(MAX_TAGS - 1)] + ["t" * MAX_TAG_CHARS]
    store.change([pid], lambda record: record.__class__(**{**record.to_dict(), "tags": tuple(tags)}))
    assert len(Store(store.data_dir).user_data(pid).tags) == MAX_TAGS


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("note", "n" * (MAX_NOTE_CHARS + 1), "the note of openreview:SizeTest01 would hold 1,000,001 characters"),
        ("tags", tuple(f"t{n}" for n in range(MAX_TAGS + 1)), "would hold 1,001 tags"),
        ("tags", ("t" * (MAX_TAG_CHARS + 1),), "a tag of openreview:SizeTest01 would hold 201 characters"),
    ],
)
def test_a_record_too_large_is_refused_by_every_write(store: Store, field: str, value: object, said: str) -> None:
    pid = "openreview:SizeTest01"
    store.set_note(pid, "kept")
    before = sorted(p.read_bytes() for p in store.data_dir.rglob("*") if p.is_file() and "user" in p.name)

    def grow(record):  # type: ignore[no-untyped-def]
        return record.__class__(**{**record.to_dict(), field: value})

    with pytest.raises(StoreError, match=said):
        store.change([pid], grow)  # a bulk change, undo, a restore
    if field == "note":
        with pytest.raises(StoreError, match="nothing was saved"):
            store.set_note(pid, str(value))  # the app's editor, the CLI
    after = sorted(p.read_bytes() for p in store.data_dir.rglob("*") if p.is_file() and "user" in p.name)
    assert after == before
    assert Store(store.data_dir).user_data(pid).note == "kept"


def test_the_cli_refuses_a_huge_note_in_one_line(store: Store) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "paperdeck", "--data-dir", str(store.data_dir), "note", "SizeTest01"],
        input="n" * (MAX_NOTE_CHARS + 1),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert "more than the 1,000,000 paperdeck keeps" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
