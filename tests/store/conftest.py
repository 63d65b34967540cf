"""Fixtures of the store's tests: a store of five plain papers imported at a fixed time."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store

#: The import time of :func:`imported`: its files are the same at every run.
FIXED_TIME = "2026-11-29T12:00:00+00:00"


@pytest.fixture
def imported(data_dir: Path) -> Store:
    """A store in ``data_dir`` holding five papers ``abs:000…0`` to ``abs:000…4``, imported at :data:`FIXED_TIME`."""
    store = Store(data_dir, now=lambda: FIXED_TIME)
    store.import_papers(
        [Paper(id=f"abs:{n:016x}", title=f"Paper {n}", abstract=f"Abstract number {n}.") for n in range(5)]
    )
    return store
