"""``paperdeck follow | unfollow | following`` round trip, and the line an import prints about the
new papers the follows match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run


def table(path: Path, rows: list[tuple[str, str]]) -> str:
    lines = ["Title,Authors,Abstract"] + [
        f'{title},"{authors}",About {title.lower()} and more.' for title, authors in rows
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_follow_unfollow_following_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    first = table(
        tmp_path / "a.csv", [("Diffusion for graphs", "Jane Doe, Ann Lee"), ("Sparse attention", "Bob Smith")]
    )
    assert run(capsys, "import", first, "--data-dir", data)[0] == 0
    assert (
        run(capsys, "follow", "author", "JANÉ", "doe", "--data-dir", data)[1]
        == "following author JANÉ doe (1 paper now)\n"
    )
    assert run(capsys, "follow", "author", "jane doe", "--data-dir", data)[1].startswith(
        "already following author JANÉ doe"
    )
    assert run(capsys, "follow", "keyword", "diffusion", "--data-dir", data)[0] == 0
    code, out, err = run(capsys, "follow", "query", "rating>=", "--data-dir", data)
    assert code == 2 and out == "" and err.count("\n") == 1 and "cannot follow query" in err
    code, out, _ = run(capsys, "following", "--json", "--data-dir", data)
    listed = json.loads(out)
    assert [(f["kind"], f["value"], f["papers"]) for f in listed] == [
        ("author", "JANÉ doe", 1),
        ("keyword", "diffusion", 1),
    ]
    # An import says what is new for the follows; papers merged into known ones are not new.
    second = table(tmp_path / "b.csv", [("Diffusion for graphs", "Jane Doe, Ann Lee"), ("Diffusion models", "Zed"),
                                        ("Attention again", "Jane Doe"), ("Unrelated", "Bob Smith")])  # fmt: skip
    code, out, _ = run(capsys, "import", second, "--data-dir", data)
    assert "followed: 2 new papers (author JANÉ doe 1, keyword diffusion 1)" in out.splitlines()
    third = table(tmp_path / "c.csv", [("More diffusion", "Jane Doe")])
    code, out, _ = run(capsys, "import", third, "--data-dir", data, "--json")
    assert json.loads(out)["followed"] == {"papers": 1, "by_follow": [
        {"kind": "author", "value": "JANÉ doe", "added": listed[0]["added"], "papers": 1},
        {"kind": "keyword", "value": "diffusion", "added": listed[1]["added"], "papers": 1}]}  # fmt: skip
    code, out, _ = run(capsys, "search", "is:followed", "--limit", "0", "--data-dir", data)
    assert len(out.splitlines()) == 4
    assert run(capsys, "unfollow", "keyword", "DIFFUSION", "--data-dir", data)[1] == "unfollowed keyword diffusion\n"
    assert run(capsys, "unfollow", "keyword", "diffusion", "--data-dir", data)[1] == "not following keyword diffusion\n"
    code, out, _ = run(
        capsys, "import", table(tmp_path / "d.csv", [("Unfollowed topic", "Nobody")]), "--data-dir", data
    )
    assert "followed:" not in out
    assert run(capsys, "following", "--data-dir", data)[1].split() == ["papers", "follow", "3", "author", "JANÉ", "doe"]


def test_the_app_started_with_files_says_what_is_new_for_the_follows(tmp_path: Path) -> None:
    from paperdeck.cli.main import open_store

    data = str(tmp_path / "data")
    store, _ = open_store(data, [Path(table(tmp_path / "a.csv", [("Sparse attention", "Bob Smith")]))])
    store.follows.add("author", "Jane Doe")
    _, messages = open_store(data, [Path(table(tmp_path / "b.csv", [("Diffusion", "Jane Doe"), ("Other", "Zed")]))])
    assert "followed: 1 new paper (author Jane Doe 1)" in messages


def test_a_saved_view_is_followed_and_unfollowed_by_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.json").write_text(json.dumps({"views": {"Sparse ones": "title:sparse"}}))
    run(capsys, "import", table(tmp_path / "a.csv", [("Sparse attention", "Bob Smith")]), "--data-dir", str(data))
    assert run(capsys, "follow", "query", "sparse", "ONES", "--data-dir", str(data))[1] == (
        'following query "title:sparse" (1 paper now)\n'
    )
    assert run(capsys, "follow", "query", "--data-dir", str(data), "--", "-title:sparse")[0] == 0
    assert run(capsys, "unfollow", "query", "Sparse ones", "--data-dir", str(data))[1] == (
        'unfollowed query "title:sparse"\n'
    )
    assert run(capsys, "following", "--data-dir", str(data))[1].splitlines() == [
        " papers  follow",
        '      0  query "-title:sparse"',
    ]
