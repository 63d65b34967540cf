"""Ids as pasted: white space around them (``$(xclip -o)`` ends with a newline), an OpenReview
link without its scheme, an id in another case (when one paper has it) name the paper for every
command taking ids; an id that names none is shown sanitised in the error (no raw newline)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.store.store import Store, typed_id

from tests.helpers import ReviewSample, run


@pytest.fixture
def store_dir(tmp_path: Path, review_sample: ReviewSample, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """A store of the sample's papers and one paper's bare forum id."""
    data = str(tmp_path / "data")
    code, _, err = run(capsys, "import", str(review_sample.papers_file), "--data-dir", data)
    assert code == 0, err
    forum = json.loads(review_sample.papers_file.read_text("utf-8").splitlines()[0])["id"]
    return data, forum


def _pasted(forum: str) -> list[str]:
    return [f" {forum} ", f"{forum}\n", f"openreview.net/pdf?id={forum}", f"https://openreview.net/forum?id={forum}\n",
            forum.lower() if forum.lower() != forum else forum.upper()]  # fmt: skip


@pytest.mark.parametrize("command", [["show"], ["star"], ["status", "skimmed"], ["note", "--text", "x"],
                                     ["tag", "t1"], ["reviews"], ["similar"]])  # fmt: skip
def test_every_command_taking_ids_reads_them_as_pasted(
    store_dir: tuple[str, str], command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    data, forum = store_dir
    for given in _pasted(forum):
        args = [command[0], given, *command[1:]] if command[0] in ("note", "tag") else [*command, given]
        if command[0] == "status":
            args = ["status", given, "skimmed"]
        code, _, err = run(capsys, *args, "--data-dir", data)
        assert code == 0, (given, err)
        assert "no paper with id" not in err


def test_an_id_that_names_no_paper_is_shown_sanitised(
    store_dir: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    data, _ = store_dir
    code, _, err = run(capsys, "show", "nope\x1b[31m\nx", "--data-dir", data)
    assert code == 2 and "\x1b" not in err and err.count("\n") == 1
    assert "no paper with id" in err


def test_an_id_in_another_case_names_a_paper_only_when_one_has_it(tmp_path: Path) -> None:
    from paperdeck.model.paper import Paper

    store = Store(tmp_path / "data")
    ids = ["openreview:AbCdEf12", "openreview:aBcDeF12", "openreview:XyZ98765"]
    store.import_papers([Paper(id=pid, title=f"Paper {n}", abstract="") for n, pid in enumerate(ids)])
    named = store.paper_named("xyz98765")
    assert named is not None and named.id == "openreview:XyZ98765"
    assert store.paper_named("abcdef12") is None  # two papers: neither is guessed
    assert typed_id(" openreview.net/forum?id=XyZ98765\n") == "XyZ98765"
