"""Ctrl-C during an import says what it left: before the commit nothing was changed (and nothing
is); once the papers or reviews are committed (the statistics, the indexes, the follows after),
the import was saved (and is: ``import --undo`` takes it back) and the indexes, stamped for the
catalogue before, are made again. For papers and reviews, ``paperdeck import`` and the app's
import of the files it is started with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from paperdeck.cli.main import open_store
from paperdeck.store.store import Store

from tests.helpers import ReviewSample, run

NOTHING = "paperdeck: interrupted; nothing was changed"
SAVED = (
    "paperdeck: interrupted; the import was saved (`paperdeck import --undo` takes it back); "
    "the search index was not finished and is made again at the next start"
)


def _interrupt(*_args: Any, **_kwargs: Any) -> Any:
    raise KeyboardInterrupt


#: Where the Ctrl-C comes, and whether the import was committed by then.
PHASES = {
    "merging": ("paperdeck.store.store.Store.import_papers", False),
    "reviews": ("paperdeck.store.store.Store.import_reviews", False),
    "statistics": ("paperdeck.cli.commands._save_stats", True),
    "indexing": ("paperdeck.cli.caches.save_indexes", True),
}


def _counts(capsys: pytest.CaptureFixture[str], data: str) -> tuple[int, int]:
    code, out, err = run(capsys, "stats", "--json", "--data-dir", data)
    assert code == 0, err
    stats = json.loads(out)
    return stats["papers"], stats["review_notes"]


@pytest.fixture
def papers_store(tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]) -> str:
    """A store holding the sample's papers, without their reviews."""
    data = str(tmp_path / "data")
    code, _, err = run(capsys, "import", str(review_sample.papers_file), "--data-dir", data)
    assert code == 0, err
    return data


@pytest.mark.parametrize("phase", ["merging", "statistics", "indexing"])
def test_ctrl_c_during_a_paper_import_says_what_it_left(
    phase: str, tmp_path: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    data = str(tmp_path / "data")
    target, committed = PHASES[phase]
    monkeypatch.setattr(target, _interrupt)
    code, out, err = run(capsys, "import", str(review_sample.papers_file), "--data-dir", data)
    monkeypatch.undo()
    assert code == 130 and out == ""
    assert err.strip().splitlines()[-1] == (SAVED if committed else NOTHING)
    papers = _counts(capsys, data)[0] if Path(data, "catalogue.json").exists() else 0
    assert papers == (12 if committed else 0)
    if committed:  # the index left is made again: the new papers are found
        code, out, _ = run(capsys, "search", "graph", "--json", "--data-dir", data)
        assert code == 0
        code, _, err = run(capsys, "import", "--undo", "--data-dir", data)
        assert code == 0, err


@pytest.mark.parametrize("phase", ["reviews", "statistics", "indexing"])
def test_ctrl_c_during_a_review_import_says_what_it_left(
    phase: str, papers_store: str, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    target, committed = PHASES[phase]
    before = _counts(capsys, papers_store)
    monkeypatch.setattr(target, _interrupt)
    code, out, err = run(capsys, "import", str(review_sample.notes_file), "--data-dir", papers_store)
    monkeypatch.undo()
    assert code == 130 and out == ""
    assert err.strip().splitlines()[-1] == (SAVED if committed else NOTHING)
    after = _counts(capsys, papers_store)
    assert (after != before) is committed
    if committed:
        code, _, err = run(capsys, "import", "--undo", "--data-dir", papers_store)
        assert code == 0, err
        assert _counts(capsys, papers_store) == before


@pytest.mark.parametrize("committed", [False, True])
def test_ctrl_c_during_the_apps_import_says_what_it_left(
    committed: bool, tmp_path: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    data = tmp_path / "data"
    target = "paperdeck.cli.follows.followed_news" if committed else "paperdeck.store.store.Store.import_papers"
    monkeypatch.setattr(target, _interrupt)
    code, out, err = run(capsys, str(review_sample.papers_file), "--data-dir", str(data))
    monkeypatch.undo()
    assert code == 130 and out == ""
    assert err.strip().splitlines()[-1] == (SAVED if committed else NOTHING)
    held = len(Store(data).papers) if data.exists() else 0
    assert held == (12 if committed else 0)


def test_an_import_interrupted_after_its_commit_is_kept_by_open_store(
    tmp_path: Path, review_sample: ReviewSample, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.model.errors import SavedThenInterrupted

    monkeypatch.setattr("paperdeck.cli.follows.followed_news", _interrupt)
    with pytest.raises(SavedThenInterrupted):
        open_store(str(tmp_path / "data"), [review_sample.papers_file])
