"""What the subcommands answer: ``show`` prints the user's reading status, tags and the paper's
area; an empty store gives every listing command its empty answer (``[]`` with ``--json``, exit
0, the hint on standard error); a star, tag or status that was already so is said to have changed
nothing; a ``--limit`` that leaves papers out says so on standard error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import SAFETY_NAME, fixture, run

SAFETY = fixture(SAFETY_NAME)


@pytest.fixture
def store_dir(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> str:
    data = str(tmp_path / "data")
    run(capsys, "import", *map(str, seed_files), "--data-dir", data)
    return data


def test_show_prints_status_tags_and_area_through_the_sanitiser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(SAFETY.read_text("utf-8").splitlines()[0])
    area = record["primary_area"]
    record["primary_area"] = area + "\x1b[2J\u202e"
    source = tmp_path / "one.jsonl"
    source.write_text(json.dumps(record) + "\n", "utf-8")
    data = str(tmp_path / "data")
    assert run(capsys, "import", str(source), "--data-dir", data)[0] == 0
    paper_id = record["id"]
    code, out, _ = run(capsys, "show", paper_id, "--data-dir", data)
    assert code == 0 and "status: unseen" in out and "tags: no tags" in out
    run(capsys, "tag", paper_id, "re-read", "method\x1b[31m", "--data-dir", data)
    run(capsys, "status", paper_id, "to-read", "--data-dir", data)
    code, out, _ = run(capsys, "show", paper_id, "--data-dir", data)
    assert code == 0
    lines = out.splitlines()
    assert "status: to-read" in out
    [tags] = [line for line in lines if line.startswith("tags: ")]
    assert "re-read" in tags and "method" in tags
    [area_line] = [line for line in lines if line.startswith("area: ")]
    assert area_line.startswith(f"area: {area}")
    assert "\x1b" not in out and "\u202e" not in out


EMPTY_STORE_COMMANDS = [
    ("list",),
    ("list", "--starred"),
    ("list", "--limit", "3"),
    ("search", "model"),
    ("search", "--starred", "model"),
    ("search", "like:starred"),
    ("search", "like:openreview:ukGxWd2aDG"),
    ("similar", "--starred"),
    ("similar", "--starred", "--limit", "0"),
    ("similar", "ukGxWd2aDG"),
]


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("command", EMPTY_STORE_COMMANDS, ids=" ".join)
def test_every_listing_command_on_an_empty_store_answers_empty_with_the_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...], as_json: bool
) -> None:
    (tmp_path / "data").mkdir()  # an empty store (a missing one: test_cli_import_faults.py)
    code, out, err = run(capsys, *command, *(["--json"] if as_json else []), "--data-dir", str(tmp_path / "data"))
    assert code == 0, err
    assert (json.loads(out) == []) if as_json else out == ""
    assert "holds no papers yet" in err and "paperdeck import" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [("stats",), ("export", "--format", "json"), ("export", "--format", "bibtex")])
def test_stats_and_export_on_an_empty_store_answer_with_the_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    (tmp_path / "data").mkdir()
    code, out, err = run(capsys, *command, "--data-dir", str(tmp_path / "data"))
    assert code == 0 and "holds no papers yet" in err
    if command[-1] == "json":
        assert json.loads(out) == []


def test_a_mark_already_as_asked_is_said_to_have_changed_nothing(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "list", "--limit", "2", "--json", "--data-dir", store_dir)
    first, second = (paper["id"] for paper in json.loads(out))
    steps = [
        (("unstar", first), [f"not starred: {first} "]),
        (("star", first), [f"starred {first} "]),
        (("star", first, second), [f"already starred: {first} ", f"starred {second} "]),
        (("unstar", first), [f"unstarred {first} "]),
        (("untag", first, "method"), [f"No tag method on {first}: nothing removed. "]),
        (("tag", first, "method"), [f"{first}: method "]),
        (("tag", first, "method"), [f"already tagged method: {first} "]),
        (("untag", first, "method"), [f"{first}: no tags "]),
        (("status", first, "unseen"), [f"already unseen: {first} "]),
        (("status", first, "read"), [f"read: {first} "]),
        (("status", first, "read"), [f"already read: {first} "]),
    ]
    for command, starts in steps:
        code, out, err = run(capsys, *command, "--data-dir", store_dir)
        assert code == 0, err
        lines = out.splitlines()
        assert len(lines) == len(starts), (command, out)
        for line, start in zip(lines, starts, strict=True):
            assert line.startswith(start), (command, line)


@pytest.mark.parametrize("command", [("search", "model"), ("list",)])
def test_a_limit_that_leaves_papers_out_says_so_on_standard_error_only(
    store_dir: str, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    _, out, _ = run(capsys, *command, "--limit", "0", "--json", "--data-dir", store_dir)
    total = len(json.loads(out))
    assert total > 3
    code, out, err = run(capsys, *command, "--limit", "3", "--data-dir", store_dir)
    assert code == 0 and len(out.splitlines()) == 3
    assert err.strip() == f"3 of {total:,} shown; --limit 0 for all"
    assert "shown" not in out
    code, out, err = run(capsys, *command, "--limit", "3", "--json", "--data-dir", store_dir)
    assert code == 0 and len(json.loads(out)) == 3 and err == ""
    for limit in ("0", str(total), str(total + 1)):
        code, out, err = run(capsys, *command, "--limit", limit, "--data-dir", store_dir)
        assert code == 0 and len(out.splitlines()) == total and err == ""


@pytest.mark.parametrize("made", [True, False], ids=["empty store", "no store"])
@pytest.mark.parametrize(
    ("command", "name"),
    [(("export",), "list.bib"), (("export", "--format", "markdown"), "list.md"), (("export", "--user-data"), "b.json")],
    ids=["bibtex", "markdown", "backup"],
)
def test_an_export_of_nothing_leaves_the_file_it_would_replace_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...], name: str, made: bool
) -> None:
    """A mistyped --data-dir (no store there, or an empty one) must not empty the user's file."""
    data = tmp_path / "data"
    if made:
        data.mkdir()
    kept = tmp_path / name
    kept.write_text("precious\n", encoding="utf-8")
    code, out, err = run(capsys, *command, "-o", str(kept), "--data-dir", str(data))
    assert code == (1 if made else 2) and out == ""  # no store at all: an error, as for `show ID`
    assert kept.read_text(encoding="utf-8") == "precious\n"
    if made:
        assert f"nothing written ({kept} left as it was)" in err.splitlines()[-1]
        assert len(err.splitlines()) <= 2  # the empty store's hint, for papers
    else:
        assert len(err.splitlines()) == 1
    assert ("no store at" in err) != made
    assert data.exists() == made


@pytest.mark.parametrize(
    "command",
    [
        ("star", "abc"),
        ("unstar", "abc"),
        ("note", "abc", "--text", "x"),
        ("status", "abc", "read"),
        ("tag", "abc", "t"),
    ],
    ids=lambda c: c[0],
)
def test_marking_a_paper_in_a_missing_store_says_so_and_makes_no_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    missing = tmp_path / "typo"
    code, out, err = run(capsys, *command, "--data-dir", str(missing))
    assert code != 0 and out == ""
    assert err.splitlines() == [f"paperdeck: no store at {missing}, so no paper with id 'abc'"]
    assert not missing.exists()


@pytest.mark.parametrize("json_out", [False, True])  # the quick path, then the full one (--json)
def test_a_comma_separates_tags_on_the_command_line(
    store_dir: str, capsys: pytest.CaptureFixture[str], json_out: bool
) -> None:
    """The tester's ``paperdeck tag ID 'x, y'`` stored one tag ``x,-y``: a comma separates tags."""
    paper_id = json.loads(run(capsys, "list", "--limit", "1", "--json", "--data-dir", store_dir)[1])[0]["id"]
    more = ["--json"] if json_out else []
    assert run(capsys, "tag", paper_id, "x, y", "robotics,", "--data-dir", store_dir, *more)[0] == 0
    code, out, _ = run(capsys, "show", paper_id, "--json", "--data-dir", store_dir)
    assert code == 0 and json.loads(out)["tags"] == ["robotics", "x", "y"]
    assert run(capsys, "tag", paper_id, ",", "--data-dir", store_dir)[0] == 2  # commas only: a blank tag


def test_a_tag_with_blanks_is_one_tag_found_by_tag_either_way(
    store_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tag ID "my tag"`` stores ``my-tag`` (as the app's prompt does for ``"my tag"``); a tag a
    backup wrote with its blank (``my tag``) is the same tag: ``tag:my-tag`` and ``tag:"my tag"``
    find both papers."""
    ids = [p["id"] for p in json.loads(run(capsys, "list", "--limit", "2", "--json", "--data-dir", store_dir)[1])]
    assert run(capsys, "tag", ids[0], "my tag", "--data-dir", store_dir)[0] == 0
    backup = tmp_path / "backup.json"
    record = {"paper_id": ids[1], "starred": False, "note": "", "status": "unseen", "tags": ["my tag"]}
    backup.write_text(json.dumps({"paperdeck": "user-data backup", "schema": 1, "records": [record]}), "utf-8")
    code, _, err = run(capsys, "import", str(backup), "--data-dir", store_dir)
    assert code == 0, err
    for query in ("tag:my-tag", 'tag:"my tag"', "tag:my"):
        code, out, _ = run(capsys, "search", query, "--json", "--data-dir", store_dir)
        assert code == 0 and sorted(p["id"] for p in json.loads(out)) == sorted(ids), query
    assert json.loads(run(capsys, "show", ids[1], "--json", "--data-dir", store_dir)[1])["tags"] == ["my-tag"]
