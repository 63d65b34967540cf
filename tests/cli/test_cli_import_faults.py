"""The command line's import faults: a forced format that reads nothing from a file of another
format is refused; a command that only reads leaves a mistyped data directory uncreated; counts
in prose are singular for one and have thousands separators."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from paperdeck.cli.main import main
from paperdeck.sources.importer import ImportSummary

ABSTRACT = (
    "We study spectral graph methods for node classification and show that a simple polynomial filter "
    "matches message passing networks on standard benchmarks while training ten times faster."
)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _notes(path: Path, count: int) -> Path:
    records = [
        {"id": f"forum{n:05d}", "forum": f"forum{n:05d}", "venue": "ICLR 2026 Poster", "title": f"Paper {n}",
         "abstract": f"{ABSTRACT} Variant {n}."}
        for n in range(count)
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n", "utf-8")
    return path


def test_a_forced_format_that_reads_nothing_from_another_format_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "store"
    notes = _notes(tmp_path / "safe40.jsonl", 3)
    code, out, err = _run(capsys, "import", "--format", "bibtex", str(notes), "--data-dir", str(data))
    assert code != 0 and out == ""
    assert err.strip().splitlines() == [
        f"paperdeck: {notes}: no BibTeX entries; it looks like OpenReview notes — leave out --format"
    ]
    assert not (data / "catalogue.json").exists()
    code, out, _ = _run(capsys, "import", "--format", "openreview", str(notes), "--data-dir", str(data))
    assert code == 0 and "3 new" in out


@pytest.mark.parametrize(
    "command",
    [
        ["stats"],
        ["stats", "--json"],
        ["list"],
        ["list", "--json"],
        ["search", "graph"],
        ["search", "graph", "--json"],
        ["changes"],
        ["plan"],
        ["similar", "abc"],
        ["reviews", "abc"],
        ["following"],
        ["export", "--format", "bibtex"],
        ["export", "--user-data"],
    ],
    ids=" ".join,
)
def test_a_read_only_command_on_a_missing_data_directory_fails_and_does_not_create_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """A mistyped --data-dir is an error (status 2, as `show ID` there), not an empty answer."""
    missing = tmp_path / "x" / "nonexist-store"
    code, out, err = _run(capsys, *command, "--data-dir", str(missing))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"paperdeck: no store at {missing}")
    assert not missing.exists() and not missing.parent.exists()


def test_import_still_creates_the_data_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "new-store"
    _run(capsys, "import", str(_notes(tmp_path / "a.jsonl", 1)), "--data-dir", str(data))
    assert data.is_dir()


def test_one_paper_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "import", str(_notes(tmp_path / "a.jsonl", 1)), "--data-dir", str(tmp_path / "s"))
    assert code == 0
    assert out.splitlines()[-1] == "Imported: 1 new, 0 updated, 0 unchanged, 0 skipped. The store holds 1 paper."


def test_the_import_summary_has_separators_and_plural_reasons() -> None:
    summary = ImportSummary(
        new=19_630,
        skipped=Counter({"note without a title": 2, "reply note": 1_051}),
    )
    assert summary.summary() == (
        "19,630 new, 0 updated, 0 unchanged, 1,053 skipped (1,051 reply notes; 2 notes without a title)"
    )
    one = ImportSummary(skipped=Counter({"note without a title": 1}))
    assert one.summary() == "0 new, 0 updated, 0 unchanged, 1 skipped (1 note without a title)"


def test_the_import_summary_says_where_the_records_it_skipped_are(tmp_path: Path) -> None:
    """A tester's find: "1 skipped (1 record without a title)" named no record; now each reason
    names its first records (with the id a reason gives), and every reason is said, none folded
    into "3 other reasons"."""
    from paperdeck.sources.importer import import_files
    from paperdeck.store.store import Store

    from tests.helpers import fixture

    records = [{"id": f"Paper{n:05d}", "title": f"Paper {n}", "abstract": "a" * 80, "status": "Poster",
                "site": f"https://openreview.net/forum?id=Paper{n:05d}"} for n in range(3)]  # fmt: skip
    records[1]["title"] = ""
    copilot = tmp_path / "papercopilot_iclr2017.json"
    copilot.write_text(json.dumps(records), "utf-8")
    store = Store(tmp_path / "data")
    said = import_files(store, [copilot]).summary()
    assert "1 skipped (1 record without a title: papercopilot_iclr2017.json record 2, id Paper00001)" in said
    # and which file it is in (a tester's find: five files imported, the skipped one unnamed)
    other = tmp_path / "papercopilot_iclr2018.json"
    other.write_text(
        json.dumps(
            [
                {**record, "id": f"Other{n}", "site": f"https://openreview.net/forum?id=Other{n}"}
                for n, record in enumerate(records)
            ]
        ),
        "utf-8",
    )
    said = import_files(Store(tmp_path / "data2"), [other, copilot]).summary()
    assert (
        "2 skipped (2 records without a title: papercopilot_iclr2018.json record 2, id Other1, "
        "papercopilot_iclr2017.json record 2, id Paper00001)"
    ) in said
    said = import_files(store, [fixture("iclr-2026-orals-posters.json")]).summary()
    assert "1 workshop: iclr-2026-orals-posters.json row 22;" in said and "other reasons" not in said
    assert "1 another year: iclr-2026-orals-posters.json row 28)" in said
    assert "rows matched no paper (events 40000, 40001, 40002 and 19 more)" in said
    many = ImportSummary(
        skipped=Counter({"reply note": 5}), skipped_where={"reply note": ("line 1", "line 2", "line 4")}
    )
    assert many.summary().endswith("5 skipped (5 reply notes: line 1, line 2, line 4 and 2 more)")


def test_export_counts_have_separators(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "s")
    _run(capsys, "import", str(_notes(tmp_path / "a.jsonl", 1_001)), "--data-dir", data)
    output = tmp_path / "out.csv"
    code, out, err = _run(capsys, "export", "--format", "csv", "-o", str(output), "--data-dir", data)
    assert code == 0
    assert f"wrote 1,001 papers to {output}" in out + err
