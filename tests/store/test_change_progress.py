"""A change to many papers (:meth:`Store.change`, what a bulk star, status or tag writes, in the
app and on the command line) tells its progress shard by shard and is still one transaction: cut
short at any shard (an error, or ``ctrl+c``'s KeyboardInterrupt in ``paperdeck star``), no record
changed, on disk or in memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for

PAPERS = 300


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers([Paper(id=f"abs:{n:05d}", title=f"Paper {n}", abstract="An abstract.") for n in range(PAPERS)])
    return store


def ids() -> list[str]:
    return [f"abs:{n:05d}" for n in range(PAPERS)]


def test_progress_is_told_the_papers_of_each_shard(store: Store) -> None:
    told: list[int] = []
    changes = store.change(ids(), lambda record: record.replaced(starred=True), told.append)
    assert len(changes) == PAPERS
    assert sum(told) == PAPERS
    assert len(told) == len({doc_id_for(paper_id) % SHARDS for paper_id in ids()})


@pytest.mark.parametrize("cut", [StoreError(Path("user"), "disk full"), KeyboardInterrupt()])
def test_a_change_cut_at_its_third_shard_changes_nothing(store: Store, cut: BaseException) -> None:
    told: list[int] = []

    def third_cuts(papers: int) -> None:
        told.append(papers)
        if len(told) == 3:
            raise cut

    with pytest.raises(type(cut)):
        store.change(ids(), lambda record: record.replaced(starred=True), third_cuts)
    assert len(told) == 3
    assert Store(store.data_dir).all_user_data == {}  # on disk
    assert store.all_user_data == {}  # in memory
    assert not [path.name for path in store.data_dir.rglob("*") if ".paperdeck-txn-" in path.name]
    assert len(store.change(ids(), lambda record: record.replaced(starred=True))) == PAPERS  # the lock let go
