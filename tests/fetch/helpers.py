"""What the fetch tests share: the slice's size, fast options, a store to keep unchanged, a store's
contents as data, and the check that every submission came with its reviews."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from paperdeck.fetch.client import Limits
from paperdeck.fetch.run import FetchOptions
from paperdeck.fetch.venues import parse_source
from paperdeck.model.paper_json import paper_record
from paperdeck.store.store import Store

from tests.fetch.api_server import ApiServer

PAPERS = 120
PAGE = 50
ICLR = parse_source("iclr2026")


def options(server: ApiServer, page_size: int = PAGE, **limits: Any) -> FetchOptions:
    # a read waits 1 s: a loaded machine's slow answer is no timeout (the "timeout" fault waits 2 s)
    fast = {"backoff_s": 0.001, "backoff_max_s": 0.01, "timeout_s": 1.0, **limits}
    return FetchOptions(
        openreview_url=server.url, papercopilot_url=server.url + "/pc", arxiv_url=server.url + "/arxiv",
        limits=Limits(**fast),
        page_size=page_size, use_keyring=False, sleep=lambda s: time.sleep(min(s, 0.2)),
    )  # fmt: skip


def seeded_store(data_dir: Path) -> Store:
    """A store with a starred paper and a note: what a failed fetch must leave as it was."""
    store = Store(data_dir)
    seeds = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("*.txt"))
    from paperdeck.sources.importer import import_files

    import_files(store, seeds)
    first = store.papers[0].id
    store.set_star(first, True)
    store.set_note(first, "mine")
    return store


def contents(data_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """What a store holds, as data: its papers and every paper's review summary."""
    store = Store(data_dir)
    papers = sorted((paper_record(p, store.user_data(p.id)) for p in store.papers), key=lambda r: r["id"])
    return papers, {p.id: store.reviews.summary(p.openreview_id) for p in store.papers}


def assert_complete(store: Store, notes: list[dict[str, Any]]) -> None:
    ids = {paper.openreview_id for paper in store.papers}
    assert {note["id"] for note in notes} <= ids
    reviewed = [
        n for n in notes if any("Official_Review" in r["invitations"][0] for r in n["details"]["directReplies"])
    ]
    assert reviewed
    for note in reviewed[:20]:
        summary = store.reviews.summary(note["id"])
        expected = sum("Official_Review" in r["invitations"][0] for r in note["details"]["directReplies"])
        assert summary is not None and summary.count == expected
