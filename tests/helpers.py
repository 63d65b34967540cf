"""What the tests share besides fixtures: where the bundled seeds, the committed fixtures and the
full real data are, and small readers over them.

- :data:`FIXTURES` (``tests/data/``): small cuts of the real files, committed; every test that
  ``make test`` runs reads only these, the bundled seeds and what it writes itself.
- :data:`SHARED` (``$PAPERDECK_SHARED``, else ``../shared`` beside the repository): the full real
  data, read only by the tests marked ``data`` (``make test-data``, and the slow ones).
  :func:`missing_shared` says in one line what is missing when it is not there.

Nothing here reads a file when imported.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO / "seeds"
FIXTURES = REPO / "tests" / "data"

#: The one setting naming the full real data: a folder holding ``data/`` and ``reviews/``
#: (a relative path is taken from the repository). Default: ``../shared`` beside the repository.
SHARED_VARIABLE = "PAPERDECK_SHARED"
SHARED = (REPO / (os.environ.get(SHARED_VARIABLE) or "../shared")).resolve()
SHARED_DATA = SHARED / "data"
SHARED_REVIEWS = SHARED / "reviews"
SHARED_CASES = SHARED / "cases"

#: File names, the same in ``tests/data/`` (a cut) and in ``shared/data/`` (the whole file).
SUBMISSION_PART_NAMES = tuple(f"iclr2026_submissions_reviewtracker.part{n}of3.jsonl" for n in (1, 2, 3))
REVIEW_PART_NAMES = tuple(f"iclr2026_reviews_reviewtracker.part{n}of3.jsonl.gz" for n in (1, 2, 3))
REPLIES_SAMPLE_NAME = "openreview_v2_notes_iclr2026_replies_sample.json"
DECISIONS_NAME = "iclr2026_accepted_papercopilot-derived.parquet"
SAFETY_NAME = "iclr2026_accepted_safety-subset_openreview-flat.jsonl"
COPILOT_2018_NAME = "papercopilot_iclr2018.json"
BIB_2018_NAME = "iclr2018_openreview-bibtex_from-papercopilot.bib"


def missing_shared() -> str | None:
    """``None`` when the full real data is there, else one line saying what is missing and how to
    point at it."""
    wanted = [SHARED_DATA / name for name in (*SUBMISSION_PART_NAMES, DECISIONS_NAME)]
    wanted += [SHARED_REVIEWS / name for name in REVIEW_PART_NAMES]
    absent = [path for path in wanted if not path.is_file()]
    if not absent:
        return None
    return (
        f"the full real data is missing: no {absent[0]} ({len(absent)} of {len(wanted)} files absent); "
        f"set {SHARED_VARIABLE} to the folder holding data/ and reviews/ (default ../shared)"
    )


def fixture(name: str) -> Path:
    """A committed fixture of ``tests/data/`` by file name."""
    return FIXTURES / name


def submission_parts(folder: Path = FIXTURES) -> list[Path]:
    """The three ReviewTracker dump parts in ``folder`` (the cuts by default)."""
    return [folder / name for name in SUBMISSION_PART_NAMES]


def review_parts(folder: Path = FIXTURES) -> list[Path]:
    """The three gzip review parts in ``folder`` (the cuts by default; ``SHARED_REVIEWS`` for all)."""
    return [folder / name for name in REVIEW_PART_NAMES]


def submissions_of(forums: Iterable[str], out: Path, parts: Iterable[Path] | None = None) -> Path:
    """The dump's records of these forum ids (in the dump's order), written to ``out`` as JSON Lines.

    ``parts``: the dump parts to read (the committed cuts by default)."""
    wanted = set(forums)
    with out.open("wb") as sink:
        for part in submission_parts() if parts is None else parts:
            with part.open("rb") as lines:
                sink.writelines(line for line in lines if json.loads(line)["id"] in wanted)
    return out


@dataclass(frozen=True)
class ReviewSample:
    """The raw OpenReview API v2 replies sample (51 notes on 12 papers) and those 12 papers'
    ReviewTracker records, written once per session."""

    notes_file: Path
    papers_file: Path

    def notes(self) -> list[dict[str, Any]]:
        """The sample's notes, parsed afresh (callers may change them)."""
        notes: list[dict[str, Any]] = json.loads(self.notes_file.read_bytes())
        return notes


def write_review_sample(folder: Path) -> ReviewSample:
    """Write the sample's papers into ``folder`` and return the pair of files."""
    notes_file = fixture(REPLIES_SAMPLE_NAME)
    forums = {note["forum"] for note in json.loads(notes_file.read_bytes())}
    return ReviewSample(notes_file, submissions_of(forums, folder / "sample-papers.jsonl"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``paperdeck ARGS`` in this process: its exit status, standard output and standard error."""
    from paperdeck.cli.main import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err
