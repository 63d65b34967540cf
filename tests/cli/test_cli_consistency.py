"""The subcommands agree: ``status`` takes several ids as ``star`` does; an argument a
subcommand does not take is refused with that subcommand's usage; ``export -o FILE.ics`` and
``plan --ics`` keep a file they would replace with a calendar of no event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run

RECORDS = [
    {"id": f"Paper{n}Xyz", "number": n, "content": {"title": f"Paper number {n}", "abstract": "About it. " * 20,
     "venue": "ICLR 2026 Conference Submission"}}
    for n in (1, 2, 3)
]  # fmt: skip
IDS = [f"openreview:Paper{n}Xyz" for n in (1, 2, 3)]


@pytest.fixture
def store_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    source = tmp_path / "iclr2026_submissions_three.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), "utf-8")
    data = str(tmp_path / "data")
    code, _, err = run(capsys, "import", str(source), "--data-dir", data)
    assert code == 0, err
    return data


def test_status_takes_several_ids_like_star(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "status", IDS[0], "to-read", "--data-dir", store_dir)
    assert code == 0, err
    assert out.splitlines() == [f"to-read: {IDS[0]}  Paper number 1"], "the one-id form as before"
    code, out, err = run(capsys, "status", *IDS, "to-read", "--data-dir", store_dir)
    assert code == 0, err
    assert out.splitlines() == [
        f"already to-read: {IDS[0]}  Paper number 1",
        f"to-read: {IDS[1]}  Paper number 2",
        f"to-read: {IDS[2]}  Paper number 3",
    ]
    code, out, _ = run(capsys, "search", "status:to-read", "--json", "--data-dir", store_dir)
    assert sorted(p["id"] for p in json.loads(out)) == IDS


def test_status_checks_every_id_and_the_last_word_before_writing(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "status", IDS[0], "no-such-paper", "read", "--data-dir", store_dir)
    assert code != 0 and "no-such-paper" in err
    with pytest.raises(SystemExit) as exited:
        run(capsys, "status", IDS[0], IDS[1], "--data-dir", store_dir)
    assert exited.value.code == 2 and "invalid choice" in capsys.readouterr().err
    code, out, _ = run(capsys, "search", "status:read OR status:to-read", "--json", "--data-dir", store_dir)
    assert json.loads(out or "[]") == [], "nothing was written"


@pytest.mark.parametrize(
    ("args", "usage"),
    [
        (("note", IDS[0], "some text"), "usage: paperdeck note"),
        (("show", IDS[0], "extra"), "usage: paperdeck show"),
        (("list", "--limit", "1", "surplus"), "usage: paperdeck list"),
    ],
)
def test_a_wrong_argument_is_one_line_naming_the_subcommand(
    store_dir: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], usage: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, *args, "--data-dir", store_dir)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    command = usage.removeprefix("usage: ")
    assert err == f"{command}: error: unrecognized arguments: {args[-1]} ({command} --help for usage)\n", err


def test_export_and_plan_keep_a_calendar_file_when_it_would_hold_no_event(
    store_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A starred paper with no event in a programme: neither ``export -o FILE.ics`` nor ``plan
    --ics FILE`` replaces FILE with an empty calendar (an export of nothing keeps the file, as for
    every other format); each says why in one line and exits 1."""
    run(capsys, "star", IDS[0], "--data-dir", store_dir)
    exported, planned = tmp_path / "plan.ics", tmp_path / "plan-too.ics"
    for kept in (exported, planned):
        kept.write_text("BEGIN:VCALENDAR\nmy events\n", "utf-8")
    code, out, err = run(capsys, "export", "is:starred", "-o", str(exported), "--data-dir", store_dir)
    assert (code, out) == (1, "")
    assert err == (
        "paperdeck: export: none of these papers is starred or to-read with an event in an imported programme; "
        f"nothing written ({exported} left as it was)\n"
    )
    code, out, err = run(capsys, "plan", "--ics", str(planned), "--data-dir", store_dir)
    assert code == 1 and err.count("\n") == 1 and "plan: none of these papers" in err
    assert f"nothing written ({planned} left as it was)" in err
    for kept in (exported, planned):
        assert kept.read_text("utf-8") == "BEGIN:VCALENDAR\nmy events\n"
    code, _, err = run(capsys, "plan", "--ics", str(tmp_path / "new.ics"), "--data-dir", store_dir)
    assert code == 1 and not (tmp_path / "new.ics").exists()  # nor is an empty one made
    code, _, err = run(capsys, "export", "--format", "ics", "--data-dir", store_dir)
    assert code == 2 and "give -o FILE.ics" in err


def test_the_readme_names_the_commands_that_take_no_json() -> None:
    """The README said every command takes ``--json`` and ``--data-dir``: ``completion`` and ``man``
    do not; it names them, and no other command lacks them."""
    import argparse

    from paperdeck.cli.main import build_command_parser

    from tests.helpers import REPO

    (subparsers,) = (a for a in build_command_parser()._actions if isinstance(a, argparse._SubParsersAction))
    without = sorted(
        name
        for name, parser in subparsers.choices.items()
        if not {"--json", "--data-dir"} <= {o for action in parser._actions for o in action.option_strings}
    )
    assert without == ["completion", "man"]
    readme = " ".join((REPO / "README.md").read_text("utf-8").split())
    assert "Every command but `completion` and `man`" in readme and "takes `--json`" in readme
