"""A Paper Copilot list's per-review ratings are reviews without text: the reviews screen (``R``)
says so above the notes and on each one, as ``paperdeck reviews`` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp

from tests.helpers import run
from tests.ui.helpers import SIZE, open_reviews, settle

RECORD = {
    "id": "0JzWiigkUy", "title": "BEARCUBS: A benchmark for computer-using web agents", "status": "Poster",
    "abstract": "Modern web agents possess computer use abilities that allow them to interact with webpages "
    "by sending commands to a virtual keyboard and mouse, and this benchmark measures them.",
    "author": "Yixiao Song;Katherine Thai", "reviewers": "osWr;ivpU;HtzH;KfhM",
    "site": "https://openreview.net/forum?id=0JzWiigkUy", "rating": "5;6;6;6", "confidence": "4;5;4;3",
    "rating_avg": [5.75, 0.4330127018922193],
}  # fmt: skip


@pytest.fixture
def copilot_file(tmp_path: Path) -> Path:
    path = tmp_path / "papercopilot_colm2025.json"
    path.write_text(json.dumps([RECORD]), encoding="utf-8")
    return path


async def test_R_says_paper_copilot_ratings_have_no_review_text(tmp_path: Path, copilot_file: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [copilot_file])
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        _screen, text, heads = await open_reviews(pilot)
        assert "Paper Copilot: ratings only, no review text" in text, text
        assert len(heads) == 4 and all("no review text" in head for head in heads), heads


def test_paperdeck_reviews_says_the_ratings_have_no_review_text(
    tmp_path: Path, copilot_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    assert run(capsys, "import", str(copilot_file), "--data-dir", data)[0] == 0
    code, out, _ = run(capsys, "reviews", "openreview:0JzWiigkUy", "--data-dir", data)
    assert code == 0
    lines = out.splitlines()
    assert "Paper Copilot: ratings only, no review text" in lines
    assert sum("no review text (pc_0JzWiigkUy_" in line for line in lines) == 4
    code, out, _ = run(capsys, "reviews", "openreview:0JzWiigkUy", "--data-dir", data, "--json")
    assert json.loads(out)["scores_only"] == "Paper Copilot: ratings only, no review text"
