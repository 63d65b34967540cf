"""``paperdeck export --reviews``: each paper's reviews under it in the Markdown reading list, as
the notes say, hostile text made inert; the other formats refuse the option in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from paperdeck.export.formats import ExportError, export_papers

from tests.helpers import ReviewSample, run

HOSTILE = "<script>alert(1)</script> [click](javascript:alert(1)) \x1b[31mred\x1b[0m [bold]x[/bold]\n# not a heading"


@pytest.fixture
def exported(
    tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]
) -> tuple[str, list[dict[str, Any]], str]:
    notes = review_sample.notes()
    papers, sample = review_sample.papers_file, review_sample.notes_file
    hostile = json.loads(json.dumps(notes[0]))
    hostile.update(id="hostile001", tmdate=hostile["tmdate"] + 1)
    hostile["content"]["weaknesses"]["value"] = HOSTILE
    extra = tmp_path / "hostile.json"
    extra.write_text(json.dumps([hostile]))
    data = str(tmp_path / "data")
    assert run(capsys, "import", str(papers), str(sample), str(extra), "--data-dir", data)[0] == 0
    code, out, err = run(capsys, "export", "--format", "md", "--reviews", "--data-dir", data)
    assert code == 0, err
    return out, [*notes, hostile], data


def test_every_review_is_under_its_paper_with_its_scores(exported: tuple[str, list[dict[str, Any]], str]) -> None:
    text, notes, _ = exported
    items = text.split("\n- ")[1:]  # one per paper
    assert len(items) == len({n["forum"] for n in notes})
    for note in notes:
        if not note["invitations"][0].endswith("/-/Official_Review"):
            continue
        item = next(i for i in items if f"forum?id={note['forum']}" in i)
        signature = note["signatures"][0].rsplit("/", 1)[-1].replace("_", "\\_")
        rating, confidence = note["content"]["rating"]["value"], note["content"]["confidence"]["value"]
        head = next(line for line in item.splitlines() if f"** · {signature} · " in line)
        assert f" · rating {rating} · " in head and f" · confidence {confidence}" in head, head
        first_words = note["content"]["summary"]["value"].split("\n")[0][:30]
        assert all(word.strip("\\`*_[]<>#|~!$&") in item for word in first_words.split()[:3])
    assert text.count("**Reviews**") == len({n["forum"] for n in notes})


def test_review_text_cannot_reach_the_readers_renderer(exported: tuple[str, list[dict[str, Any]], str]) -> None:
    text, _, _ = exported
    assert "\x1b" not in text and "\x9b" not in text
    html = MarkdownIt("commonmark").render(text)
    assert "<script" not in html and 'href="javascript' not in html and "<h1>not a heading" not in html
    assert "[bold]x[/bold]" in html and "&lt;script&gt;" in html  # shown as written, inert
    assert html.count("<h2>") == text.count("\n## ")  # the list's structure is the list's


def test_without_the_option_no_reviews_and_other_formats_refuse_it(
    exported: tuple[str, list[dict[str, Any]], str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, data = exported
    code, out, _ = run(capsys, "export", "--format", "md", "--data-dir", data)
    assert code == 0 and "**Reviews**" not in out and "Reviewer" not in out
    code, out, err = run(capsys, "export", "--format", "csv", "--reviews", "--data-dir", data)
    assert code != 0 and out == "" and len(err.strip().splitlines()) == 1 and "--reviews" in err
    with pytest.raises(ExportError):
        export_papers([], {}, "json", lambda paper: [])


def test_pieces_join_to_the_whole_text_and_each_shard_is_read_once(
    exported: tuple[str, list[dict[str, Any]], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from paperdeck.export import formats
    from paperdeck.store.reviews import ReviewStore
    from paperdeck.store.store import Store

    text, _, data = exported
    store = Store(data)
    papers = [paper for pid in store.paper_ids if (paper := store.paper(pid)) is not None]
    read: list[str] = []
    shard = ReviewStore._shard
    monkeypatch.setattr(ReviewStore, "_shard", lambda self, name: read.append(name) or shard(self, name))
    steps: list[tuple[int, int]] = []
    monkeypatch.setattr(formats, "_CHUNK_LINES", 7)  # many pieces, cut between and inside reviews
    pieces = list(formats.export_chunks(papers, store.all_user_data, "markdown", store.reviews.reviews_of,
                                        lambda done, total: steps.append((done, total))))  # fmt: skip
    assert len(pieces) > 10 and "".join(pieces) == text
    assert sorted(read) == sorted(set(read)) and len(read) >= 2  # one read a shard
    assert steps[-1] == (2 * len(papers), 2 * len(papers)) and steps == sorted(steps)


def test_a_failure_while_the_pieces_are_made_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    from paperdeck.export.formats import write_export
    from paperdeck.model.errors import StoreError

    target = tmp_path / "list.md"
    target.write_text("the old list\n")

    def pieces() -> Any:
        yield "# Reading list\n"
        raise StoreError(tmp_path / "reviews", "a review shard is malformed")

    with pytest.raises(StoreError, match="malformed"):
        write_export(target, pieces())
    assert target.read_text() == "the old list\n" and [p.name for p in tmp_path.iterdir()] == ["list.md"]
