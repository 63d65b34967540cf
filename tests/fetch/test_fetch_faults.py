"""A fetch (against the local API server) imports papers and their reviews as one transaction:
with EIO, ENOSPC or a kill injected at each writing system call into the data directory, a
restarted store holds the whole state before or the whole state after, and the error said which
(:mod:`tests.store.faults`). The default run injects at a sample of the calls; the slow run at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from paperdeck.fetch.run import fetch
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.fetch.api_server import ApiServer, iclr2026_notes
from tests.fetch.helpers import ICLR, options
from tests.helpers import write_review_sample
from tests.store.faults import Outcome, check_operation, count_calls

NOW = "2026-12-01T10:00:00.000000+00:00"
SAMPLES = 8


@pytest.fixture
def small_server() -> Iterator[ApiServer]:
    with ApiServer(orjson.loads(orjson.dumps(iclr2026_notes(4)))) as running:
        yield running


def _template(tmp_path: Path) -> Path:
    """Twelve papers (not those fetched), one starred and one with a note."""
    template = tmp_path / "template"
    store = Store(template, now=lambda: NOW)
    import_files(store, [write_review_sample(tmp_path).papers_file])
    store.set_star(store.paper_ids[0], True)
    store.set_note(store.paper_ids[1], "mine")
    return template


def _run(server: ApiServer, tmp_path: Path, every: bool) -> Outcome:
    template = _template(tmp_path)

    def operation(data_dir: Path) -> object:
        return fetch(Store(data_dir, now=lambda: NOW), [ICLR], options(server))

    total = count_calls(template, tmp_path, operation)
    step = 1 if every else max(1, total // SAMPLES)
    outcome = check_operation(template, tmp_path, operation, range(1, total + 1, step))
    print(f"fetch: {total} calls, {outcome.runs} injections, {outcome.completed} completed, "
          f"{outcome.unchanged} unchanged, {len(outcome.half_states)} half states")  # fmt: skip
    return outcome


def test_a_fault_at_sampled_calls_of_a_fetch_leaves_the_whole_before_or_after(
    small_server: ApiServer, login: None, tmp_path: Path
) -> None:
    outcome = _run(small_server, tmp_path, every=False)
    assert outcome.runs >= 3 * 5
    assert outcome.half_states == []
    assert outcome.false_messages == []


@pytest.mark.slow
def test_a_fault_at_every_call_of_a_fetch_leaves_the_whole_before_or_after(
    small_server: ApiServer, login: None, tmp_path: Path
) -> None:
    outcome = _run(small_server, tmp_path, every=True)
    assert outcome.half_states == []
    assert outcome.false_messages == []
