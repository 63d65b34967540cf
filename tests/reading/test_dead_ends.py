"""No dead ends outside the screen: the BibTeX of OpenReview API v2 notes is kept, the $EDITOR note
template ends in a newline, and the CLI on an empty store says how to fill it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
from paperdeck.cli.main import main
from paperdeck.export.bibtex import bibtex_entries
from paperdeck.model.paper import Paper
from paperdeck.reading.note_file import note_from_file, note_template
from paperdeck.sources import openreview, read_source
from paperdeck.store.store import Store

from tests.helpers import REPLIES_SAMPLE_NAME, fixture, submission_parts

REPLIES = fixture(REPLIES_SAMPLE_NAME)
RT_PART1 = submission_parts()[0]

#: The entry OpenReview generates for an ICLR 2026 submission under review (its ``_bibtex`` shape:
#: the key on the line after ``@type{``, as in data/iclr2018_openreview-bibtex_from-papercopilot.bib).
OPENREVIEW_BIBTEX = """@inproceedings{
anonymous2025can,
title={Can Microcanonical Langevin Dynamics Leverage Mini-Batch Gradient Noise?},
author={Anonymous},
booktitle={Submitted to The Fourteenth International Conference on Learning Representations},
year={2025},
url={https://openreview.net/forum?id=h7qdCvhMdb},
note={under review}
}"""


def _submission_note() -> dict[str, Any]:
    """A raw API v2 submission note: the envelope of a real note of the v2 sample (ids, dates,
    invitations, domain), with the submission's content of the ReviewTracker dump wrapped as
    ``{"value": …}`` and OpenReview's ``_bibtex``."""
    envelope = dict(json.loads(REPLIES.read_text("utf-8"))[0])
    with RT_PART1.open(encoding="utf-8") as lines:
        flat = json.loads(next(lines))
    assert envelope["forum"] == flat["id"] == "h7qdCvhMdb"
    content = {key: {"value": value} for key, value in flat["content"].items()}
    content["_bibtex"] = {"value": OPENREVIEW_BIBTEX}
    envelope.update(
        id=flat["id"],
        forum=flat["id"],
        replyto=None,
        invitations=["ICLR.cc/2026/Conference/-/Submission", "ICLR.cc/2026/Conference/-/Edit"],
        content=content,
    )
    return envelope


def test_the_bibtex_of_an_openreview_v2_note_is_kept_as_the_papers_own(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"notes": [_submission_note()], "count": 1}), "utf-8")
    (paper,) = read_source(path).papers
    assert paper.id == "openreview:h7qdCvhMdb"
    assert paper.bibtex == OPENREVIEW_BIBTEX
    assert paper.source_of("bibtex") == "notes.json"
    store = Store(tmp_path / "data")
    store.import_papers([paper])
    kept = Store(tmp_path / "data").paper("openreview:h7qdCvhMdb")
    assert kept is not None and kept.bibtex == OPENREVIEW_BIBTEX
    # export writes the source's entry (its key), not a generated one
    exported = bibtexparser.parse_string(bibtex_entries([kept]))
    assert [entry.key for entry in exported.entries] == ["anonymous2025can"]


def test_a_note_whose_bibtex_is_no_entry_keeps_none(tmp_path: Path) -> None:
    note = _submission_note()
    note["content"]["_bibtex"] = {"value": "  n/a "}
    path = tmp_path / "notes.json"
    path.write_text(json.dumps([note]), "utf-8")
    (paper,) = openreview.read(path).papers
    assert paper.bibtex == ""
    assert "bibtex" not in dict(paper.provenance)


def test_the_note_template_ends_in_a_newline_so_appended_text_starts_a_line() -> None:
    paper = Paper(
        id="openreview:A1", title="A title", abstract="x", openreview_url="https://openreview.net/forum?id=A1"
    )
    for note in ("", "first thought", "first thought\n", "two\nlines"):
        template = note_template(paper, note)
        assert template.endswith("\n") and not template.endswith("\n\n\n")
        appended = template + "from the editor\n"  # what `echo … >> file` does
        expected = f"{note.rstrip()}\nfrom the editor" if note else "from the editor"
        assert note_from_file(appended) == expected
        assert note_from_file(template) == note.rstrip()


# -- the CLI on an empty store ----------------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "args",
    [
        ("list",),
        ("search", "diffusion"),
        ("stats",),
        ("export", "--format", "bibtex"),
        ("list", "--json"),
    ],
)
def test_the_cli_on_an_empty_store_says_how_to_fill_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    # No store at the directory: one line saying how to fill it, and a failing exit (as `show ID`
    # gives), so that a mistyped --data-dir cannot pass in a script; nothing on standard output
    # (not even `[]` for --json) and no directory made.
    code, out, err = _run(capsys, *args, "--data-dir", str(tmp_path / "fresh"))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "paperdeck import" in lines[0] and "seeds" in lines[0]
    assert out == ""
    assert not (tmp_path / "fresh").exists()


def test_an_empty_result_of_a_filled_store_gets_no_hint(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    _run(capsys, "import", *map(str, seed_files), "--data-dir", data)
    code, _, err = _run(capsys, "search", "zzzqqqxxxnothing", "--data-dir", data)
    assert code == 0 and "paperdeck import" not in err
