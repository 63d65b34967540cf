"""The reviews screen (and ``paperdeck reviews``) state a paper's decision first when only a file
gave it, no decision note among its reviews (tester round 16: an accepted paper's ``R`` went from
the title straight to the first review, its poster decision nowhere)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.reviews import ReviewsScreen
from textual.widgets import Static

from tests.helpers import ReviewSample, run
from tests.ui.helpers import SIZE, highlighted, settle


def _accepted_sample(tmp_path: Path, review_sample: ReviewSample) -> tuple[Path, str]:
    """The review sample's papers, the first one's venue a poster's (its reviews hold no decision
    note): the papers file written anew, and that paper's forum id."""
    records = [json.loads(line) for line in review_sample.papers_file.read_text().splitlines()]
    records[0]["content"]["venue"] = "ICLR 2026 Poster"
    papers = tmp_path / "accepted-papers.jsonl"
    papers.write_text("".join(json.dumps(record) + "\n" for record in records))
    return papers, records[0]["id"]


async def test_R_states_the_decision_a_file_gave_first(tmp_path: Path, review_sample: ReviewSample) -> None:
    papers, forum = _accepted_sample(tmp_path, review_sample)
    store = Store(tmp_path / "data")
    import_files(store, [papers, review_sample.notes_file])
    assert all(review.kind != "decision" for review in store.reviews.reviews(forum))
    app = PaperApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(len(store.papers)):
            if highlighted(app).openreview_id == forum:
                break
            await pilot.press("j")
            await pilot.pause()
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, ReviewsScreen)
        texts = [str(static.render()) for static in app.screen.query(Static)]
        decision = "Decision: poster (ICLR 2026 Poster), from accepted-papers.jsonl"
        assert texts[1] == decision, texts[:4]  # right under the title, before scores and reviews


def test_paperdeck_reviews_states_the_decision_a_file_gave_first(
    tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]
) -> None:
    papers, forum = _accepted_sample(tmp_path, review_sample)
    data = str(tmp_path / "data")
    assert run(capsys, "import", str(papers), str(review_sample.notes_file), "--data-dir", data)[0] == 0
    code, out, _ = run(capsys, "reviews", forum, "--data-dir", data)
    assert code == 0
    decision = "Decision: poster (ICLR 2026 Poster), from accepted-papers.jsonl"
    assert out.splitlines()[2] == decision, out[:400]
    code, out, _ = run(capsys, "reviews", forum, "--data-dir", data, "--json")
    assert json.loads(out)["decision"] == decision
    other = json.loads(review_sample.papers_file.read_text().splitlines()[1])["id"]  # under review
    code, out, _ = run(capsys, "reviews", other, "--data-dir", data, "--json")
    assert json.loads(out)["decision"] is None
