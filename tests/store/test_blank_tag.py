"""An empty or blank tag is refused with one line (exit status 2), never read as a tag the paper
already has or lacks; nothing is written then."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.store.store import Store

from tests.helpers import run


@pytest.fixture
def data(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> str:
    where = str(tmp_path / "data")
    assert run(capsys, "import", str(seed_files[0]), "--data-dir", where)[0] == 0
    return where


@pytest.mark.parametrize("command", ["tag", "untag"])
@pytest.mark.parametrize("given", [[""], ["  "], ["\t"], ["later", ""]], ids=["empty", "spaces", "tab", "one-of-two"])
def test_a_blank_tag_is_refused_in_one_line(
    data: str, capsys: pytest.CaptureFixture[str], command: str, given: list[str]
) -> None:
    paper_id = Store(data).paper_ids[0]
    code, out, err = run(capsys, command, paper_id, *given, "--data-dir", data)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"paperdeck: {command}: a tag cannot be empty or blank: give it a letter, "
                                "digit or sign; nothing was changed"]  # fmt: skip
    assert Store(data).user_data(paper_id).tags == ()


def test_a_blank_tag_is_refused_before_the_paper_is_looked_up(data: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tag", "no-such-paper", "", "--data-dir", data)
    assert code == 2 and "a tag cannot be empty or blank" in err


TYPED_AND_STORED = [
    ("#moe", "moe"),
    ("##Must Read", "must-read"),
    ("#", "#"),
    ("c#", "c#"),
    ('"q', "q"),
    ('x"y', "x-y"),
    ("# Spaced  Tag ", "spaced-tag"),
]


@pytest.mark.parametrize(("given", "stored"), TYPED_AND_STORED)
def test_the_hash_the_app_shows_before_a_tag_is_not_kept_in_it(
    data: str, capsys: pytest.CaptureFixture[str], given: str, stored: str
) -> None:
    """The list and the detail pane show a tag as ``#tag``: one typed that way is the same tag
    (``tag:moe`` finds it, it is shown ``#moe``, not ``##moe``), and untagging it so removes it."""
    paper_id = Store(data).paper_ids[0]
    assert run(capsys, "tag", paper_id, given, "--data-dir", data)[0] == 0
    assert Store(data).user_data(paper_id).tags == (stored,)
    assert run(capsys, "untag", paper_id, stored if stored == "#" else f"#{stored}", "--data-dir", data)[0] == 0
    assert Store(data).user_data(paper_id).tags == ()


@pytest.mark.parametrize("command", ["tag", "untag"])
def test_a_tag_beginning_with_a_minus_is_refused_with_the_way_to_remove_one(
    data: str, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The app's tag prompt reads ``-tag`` as "remove tag": such a tag could never be typed there."""
    paper_id = Store(data).paper_ids[0]
    code, out, err = run(capsys, command, paper_id, "later", "-wip", "--data-dir", data)
    assert code == 2 and out == ""
    assert err.splitlines() == [f"paperdeck: {command}: a tag cannot begin with - (-wip); to remove a tag: "
                                f"paperdeck untag {paper_id} wip; nothing was changed"]  # fmt: skip
    assert Store(data).user_data(paper_id).tags == ()


@pytest.mark.parametrize("given", ["#-wip", "#  -wip"])
def test_a_tag_that_would_be_stored_with_a_leading_minus_is_refused(
    data: str, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    """``#-wip`` is stored as ``-wip`` (the ``#`` the app shows is dropped): refused like ``-wip``."""
    paper_id = Store(data).paper_ids[0]
    code, out, err = run(capsys, "tag", paper_id, given, "--data-dir", data)
    assert code == 2 and out == ""
    assert f"to remove a tag: paperdeck untag {paper_id} wip; nothing was changed" in err
    assert Store(data).user_data(paper_id).tags == ()


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("tag:week1", "a tag cannot hold ':' (tag:week1); type week1"),
        ("Tag:Week 1", "a tag cannot hold ':' (tag:week-1); type week-1"),
        ("cs:ai", "a tag cannot hold ':' (cs:ai); type cs-ai"),
    ],
)
def test_a_tag_holding_a_colon_is_refused_naming_it(
    data: str, capsys: pytest.CaptureFixture[str], given: str, said: str
) -> None:
    """A tester's ``tag:week1`` was stored as a tag, which ``tag:tag:week1`` cannot search sanely:
    a tag to add holding ``:`` is refused in one line naming it (and the tag meant), nothing
    written, by the quick path and the full one alike; ``untag`` still removes one stored so."""
    paper_id = Store(data).paper_ids[0]
    for more in ([], ["--json"]):
        code, out, err = run(capsys, "tag", paper_id, "fine", given, "--data-dir", data, *more)
        assert code == 2 and out == ""
        assert err.splitlines() == [f"paperdeck: tag: {said}; nothing was changed"]
        assert Store(data).user_data(paper_id).tags == ()
    store = Store(data)
    store.change([paper_id], lambda record: record.replaced(tags=("cs:ai",)))
    assert run(capsys, "untag", paper_id, "cs:ai", "--data-dir", data)[0] == 0
    assert Store(data).user_data(paper_id).tags == ()
