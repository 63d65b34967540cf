"""``paperdeck import --venue "COLM 2025" FILE…``: the papers of a file that names no venue (a
Paper Copilot list renamed ``mylist.json``, a table without a venue column) take the venue given,
their ids following as if the file had named it; without it, the import says so in one line naming
the file and suggesting ``--venue``. Fixtures: the COLM 2025 Paper Copilot cut and the ICLR 2023
number/title table of ``tests/data/`` (origins in its README), copied under names that say nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from paperdeck.model.ids import venue_and_year
from paperdeck.sources.importer import read_files

from tests.helpers import fixture, run

COLM = fixture("papercopilot_colm2025.json")  # 8 COLM 2025 posters
ICLR_2023 = fixture("iclr2023_submissions_number_title.tsv")  # numbers and titles of ICLR 2023


def renamed(source: Path, folder: Path, name: str) -> Path:
    path = folder / name
    shutil.copyfile(source, path)
    return path


def test_a_renamed_copilot_file_takes_the_venue_given(tmp_path: Path) -> None:
    mine = renamed(COLM, tmp_path, "mylist.json")
    (unnamed,) = read_files([mine])
    assert {p.venue_label for p in unnamed.papers} == {""}
    (given,) = read_files([mine], venue="colm  2025")
    (named,) = read_files([COLM])
    assert [(p.id, p.venue, p.year) for p in given.papers] == [(p.id, p.venue, p.year) for p in named.papers]
    assert {p.library_venue for p in given.papers} == {"COLM 2025"}
    assert {p.ratings.scale for p in given.papers if p.ratings} == {"1-10"}


def test_a_file_that_names_its_venue_keeps_it(tmp_path: Path) -> None:
    (read,) = read_files([COLM], venue="ICLR 2026")
    assert {p.library_venue for p in read.papers} == {"COLM 2025"}


def test_ids_built_from_the_venue_follow_the_venue_given(tmp_path: Path) -> None:
    mine = renamed(ICLR_2023, tmp_path, "list.tsv")
    (unnamed,) = read_files([mine])
    assert unnamed.papers[0].id.startswith("title:unknown-unknown:")
    (given,) = read_files([mine], venue="ICLR 2023")
    (named,) = read_files([ICLR_2023])
    assert [p.id for p in given.papers] == [p.id for p in named.papers]
    assert given.papers[0].id == "iclr2023#2"


@pytest.mark.parametrize(
    ("label", "expected"),
    [("COLM 2025", ("COLM", 2025)), ("  nips   2018 ", ("NeurIPS", 2018)), ("TMLR", ("TMLR", None)),
     ("Workshop on X 2024", ("Workshop on X", 2024))],
)  # fmt: skip
def test_a_venue_label_splits_into_venue_and_year(label: str, expected: tuple[str, int | None]) -> None:
    assert venue_and_year(label) == expected


def test_the_import_names_a_file_without_a_venue_and_suggests_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = renamed(COLM, tmp_path, "mylist.json")
    data = str(tmp_path / "data")
    code, out, err = run(capsys, "import", str(mine), str(fixture("papercopilot_iclr2017.json")), "--data-dir", data)
    assert code == 0, err
    lines = [line for line in out.splitlines() if "no venue" in line]
    assert lines == [
        "mylist.json: its 8 papers name no venue, nor does the file's name; name it with --venue, as in: "
        'paperdeck import --venue "COLM 2025" mylist.json'
    ]
    code, out, err = run(capsys, "import", str(mine), "--venue", "COLM 2025", "--data-dir", data, "--json")
    assert code == 0, err
    assert not any("no venue" in notice for notice in json.loads(out)["notices"])
    code, out, err = run(capsys, "list", "--venue", "COLM 2025", "--data-dir", data, "--json")
    assert code == 0, err
    assert len(json.loads(out)) == 8


@pytest.mark.parametrize("value", ["", "   ", "COLM\x1b2025", "x" * 201])
def test_a_venue_option_that_names_no_venue_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, "import", str(COLM), "--venue", value, "--data-dir", str(tmp_path / "data"))
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--venue" in err
    assert not (tmp_path / "data" / "catalogue.json").exists()


def test_the_launcher_takes_the_venue_as_import_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``paperdeck FILE… --venue V`` (import, then open the app) was refused: only ``paperdeck
    import`` took ``--venue``. Both parsers declare it from one place."""
    from paperdeck.cli.main import build_app_parser, build_command_parser
    from paperdeck.ui.app import PaperApp

    launcher = next(a for a in build_app_parser()._actions if a.dest == "venue")
    command = build_command_parser("import")._subparsers._group_actions[0].choices["import"]  # type: ignore[union-attr]
    declared = next(a for a in command._actions if a.dest == "venue")
    assert (launcher.option_strings, launcher.type, launcher.help) == (
        declared.option_strings,
        declared.type,
        declared.help,
    )
    opened: list[PaperApp] = []
    monkeypatch.setattr(PaperApp, "run", lambda app, *args, **kwargs: opened.append(app))
    mine = renamed(COLM, tmp_path, "mylist.json")
    data = str(tmp_path / "data")
    code, _, err = run(capsys, str(mine), "--venue", "colm 2025", "--data-dir", data)
    assert code == 0 and len(opened) == 1, err
    code, out, err = run(capsys, "list", "--venue", "COLM 2025", "--data-dir", data, "--json")
    assert code == 0 and len(json.loads(out)) == 8, err


def test_a_renamed_copilot_files_reviews_take_the_group_of_the_venue_given(tmp_path: Path) -> None:
    """venue12's find: the papers of ``mylist.json`` imported with ``--venue "COLM 2025"`` took
    the venue, but their ratings-only reviews kept an empty venue group, so each paper was ranked
    among every paper of no venue ("top 5 % of N rated" counting another file's papers), not among
    COLM 2025's. The reviews now take the group the file named for its venue gives them."""
    from paperdeck.sources.importer import import_files
    from paperdeck.store.store import Store

    mine = renamed(COLM, tmp_path, "mylist.json")
    (given,) = read_files([mine], venue="COLM 2025")
    (named,) = read_files([COLM])
    assert given.reviews and [(r.id, r.forum, r.venue_id) for r in given.reviews] == [
        (r.id, r.forum, r.venue_id) for r in named.reviews
    ]
    other = renamed(fixture("papercopilot_iclr2017.json"), tmp_path, "other.json")  # left of no venue
    store = Store(tmp_path / "data")
    import_files(store, [mine], venue="COLM 2025")
    import_files(store, [other])
    colm = [p for p in store.papers if p.library_venue == "COLM 2025"]
    assert len(colm) == 8
    ranks = {store.reviews.rank(p.openreview_id) for p in colm}
    assert {(rank.of, rank.venue) for rank in ranks if rank is not None} == {(8, "COLM/2025/Conference")}
