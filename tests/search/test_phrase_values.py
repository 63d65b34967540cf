"""A phrase in a query (`"pavilion 4 & 5"`, `keyword:"pavilion 4-5"`) is found as a whole, within
one value of a field, whatever the punctuation between its words (`&`, `-`, `/`): never as its
first words alone with the rest in the next value (the next author, the next keyword, the
abstract after the title; the room's case, an event's room then its poster position, is in
tests/schedule/test_schedule_query.py)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run

WHOLE = "openreview:Whole1Xyz"
SPLIT = "openreview:Split2Xyz"


def _record(forum: str, number: int, **content: object) -> dict[str, object]:
    base = {
        "title": f"Paper number {number}",
        "abstract": "About it. " * 20,
        "venue": "ICLR 2026 Conference Submission",
    }
    return {"id": forum, "number": number, "content": {**base, **content}}


RECORDS = [
    _record("Whole1Xyz", 1, title="Results of Pavilion 4 & 5", authors=["Ada Pavilion 4 & 5 Lovelace"],
            keywords=["pavilion 4/5"], primary_area="pavilion 4 - 5 studies",
            abstract="We met in Pavilion 4-5 last year. " * 5),
    _record("Split2Xyz", 2, title="Results of Pavilion 4", authors=["Ada Pavilion 4", "5 Lovelace"],
            keywords=["pavilion 4", "5 stars"], primary_area="pavilion 4",
            abstract="We met in Pavilion 4 for 5 days. " * 5),
]  # fmt: skip


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    from paperdeck.cli.main import main

    folder = tmp_path_factory.mktemp("phrase-values")
    source = folder / "iclr2026_submissions_two.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), "utf-8")
    data = str(folder / "data")
    assert main(["import", str(source), "--data-dir", data]) == 0
    assert main(["note", WHOLE, "--text", "see pavilion 4 / 5", "--data-dir", data]) == 0
    assert main(["note", SPLIT, "--text", "see pavilion 4 for 5 days", "--data-dir", data]) == 0
    return data


def _ids(capsys: pytest.CaptureFixture[str], data: str, query: str) -> list[str]:
    code, out, err = run(capsys, "search", query, "--limit", "0", "--json", "--data-dir", data)
    assert code == 0, err
    return [paper["id"] for paper in json.loads(out)]


@pytest.mark.parametrize("field", ["", "title:", "author:", "keyword:", "area:", "abstract:", "note:"])
@pytest.mark.parametrize("phrase", ["pavilion 4 & 5", "Pavilion 4-5", "pavilion 4/5"])
def test_a_phrase_is_found_whole_within_one_value_of_each_text_field(
    field: str, phrase: str, store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ids(capsys, store_dir, f'{field}"{phrase}"') == [WHOLE]
    assert set(_ids(capsys, store_dir, f'{field}"pavilion 4"')) == {WHOLE, SPLIT}  # the first words alone
