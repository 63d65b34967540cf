"""A catalogue's generation (:attr:`Store.catalogue_generation`) stamps what is built from its
papers. It is unique in the process: CI under Python 3.12 handed a gone store's cached venue
columns to a later store that had its address and the same generation (two stores opened the same
way counted to the same number); a stamp no other catalogue ever had cannot match another's."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.paper import Paper
from paperdeck.store.store import Store


def _papers(prefix: str) -> list[Paper]:
    return [Paper(id=f"{prefix}:{n}", title=f"Paper {n}", abstract="x", venue="ICLR", year=2026) for n in range(3)]


def test_no_two_catalogues_of_the_process_share_a_generation(tmp_path: Path) -> None:
    first, second = Store(tmp_path / "a"), Store(tmp_path / "b")
    empty = {first.catalogue_generation, second.catalogue_generation}
    first.import_papers(_papers("a"))
    second.import_papers(_papers("a"))  # the same papers, the same steps: once the same number
    opened = [Store(tmp_path / name, lazy=True, user_records=False, lean=True) for name in ("a", "b", "a")]
    for store in opened:
        store.load()
    seen = [first.catalogue_generation, second.catalogue_generation, *(s.catalogue_generation for s in opened)]
    assert len(set(seen)) == len(seen) and not empty & set(seen) and len(empty) == 2
    before = first.catalogue_generation
    first.import_papers(_papers("c"))
    assert first.catalogue_generation not in {before, *seen}
