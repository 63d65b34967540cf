"""Every venue file of the shared data (``data/README.md`` §12 and the others: Paper Copilot's
COLM 2025, ICLR 2017, ICLR 2018, NeurIPS 2018, ICML 2019, CVPR 2019; the ICLR 2023 TSV, the
ICLR 2025 CSV and the ICLR 2026 dump) imported into one store: each venue's paper count, its
``venue:`` term and complement, and COLM 2025's and ICLR 2017's mean ratings on their own scale,
against counts computed here from the files themselves."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from paperdeck.cli.selecting import select_ids
from paperdeck.sources.importer import import_files
from paperdeck.stats.figures import figures_of
from paperdeck.store.store import Store

from tests.helpers import SHARED_DATA, SUBMISSION_PART_NAMES

pytestmark = pytest.mark.data

COPILOT = {"COLM 2025": "colm2025", "ICLR 2017": "iclr2017", "ICLR 2018": "iclr2018", "NeurIPS 2018": "nips2018",
           "ICML 2019": "icml2019", "CVPR 2019": "cvpr2019"}  # fmt: skip
TSV_2023 = "iclr2023_submissions_number_title.tsv"
CSV_2025 = "iclr2025_title_authors_affiliations_decision.csv"


def _copilot(name: str) -> list[dict[str, object]]:
    records = json.loads((SHARED_DATA / f"papercopilot_{name}.json").read_text(encoding="utf-8"))
    assert isinstance(records, list)
    return records


def _titled(title: object) -> bool:
    """A record is a paper when its title has a letter (``"111"`` and ``""`` are no titles)."""
    return isinstance(title, str) and re.search(r"[^\W\d_]", title) is not None


def expected_counts() -> dict[str, int]:
    """Each venue's papers, counted from its files: titled records, one per distinct id (else title)."""
    counts = {}
    for venue, name in COPILOT.items():
        counts[venue] = len(
            {r.get("id") or r.get("pid") or r["title"] for r in _copilot(name) if _titled(r.get("title"))}
        )
    with (SHARED_DATA / TSV_2023).open(encoding="utf-8", newline="") as handle:
        counts["ICLR 2023"] = len(
            {row["number"] for row in csv.DictReader(handle, delimiter="\t") if _titled(row["title"])}
        )
    with (SHARED_DATA / CSV_2025).open(encoding="utf-8", newline="") as handle:
        counts["ICLR 2025"] = len({row["Title"] for row in csv.DictReader(handle) if _titled(row["Title"])})
    ids: set[str] = set()
    for part in SUBMISSION_PART_NAMES:
        with (SHARED_DATA / part).open(encoding="utf-8") as handle:
            ids |= {json.loads(line)["id"] for line in handle if line.strip()}
    counts["ICLR 2026"] = len(ids)
    return counts


def expected_mean(name: str) -> float:
    """The mean of the papers' mean ratings of a Paper Copilot file (per-review ``rating``)."""
    means = []
    for record in _copilot(name):
        scores = [float(v) for v in str(record.get("rating") or "").split(";") if v.strip()]
        if scores and _titled(record.get("title")):
            means.append(sum(scores) / len(scores))
    return sum(means) / len(means)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = [SHARED_DATA / f"papercopilot_{name}.json" for name in COPILOT.values()]
    files += [SHARED_DATA / TSV_2023, SHARED_DATA / CSV_2025, *(SHARED_DATA / part for part in SUBMISSION_PART_NAMES)]
    store = Store(tmp_path_factory.mktemp("venues") / "store")
    import_files(store, [Path(f) for f in files])
    yield store


def test_each_venue_holds_the_papers_its_files_hold(library: Store) -> None:
    figures = figures_of(library.papers, library.reviews.summaries(), {})
    counts = {venue.venue: venue.figures.papers for venue in figures.venues}
    assert counts == expected_counts()
    assert len(library.papers) == sum(counts.values())


@pytest.mark.parametrize(
    ("venue", "term"),
    [("COLM 2025", "venue:colm"), ("ICLR 2017", 'venue:"iclr 2017"'), ("ICLR 2018", 'venue:"ICLR 2018"'),
     ("NeurIPS 2018", "venue:neurips"), ("ICML 2019", "venue:icml"), ("CVPR 2019", "venue:cvpr"),
     ("ICLR 2023", 'venue:"iclr 2023"'), ("ICLR 2025", 'venue:"iclr 2025"'), ("ICLR 2026", 'venue:"iclr 2026"')],
)  # fmt: skip
def test_each_venues_term_and_its_complement(library: Store, venue: str, term: str) -> None:
    counts = expected_counts()
    inside, outside = select_ids(library, term), select_ids(library, f"-{term}")
    assert len(inside) == counts[venue]
    assert len(outside) == sum(counts.values()) - counts[venue] and not set(inside) & set(outside)
    assert {p.venue_label for pid in inside[:50] if (p := library.paper(pid))} == {venue}


def test_a_year_term_takes_every_venue_of_that_year(library: Store) -> None:
    counts = expected_counts()
    assert len(select_ids(library, "venue:2019")) == counts["ICML 2019"] + counts["CVPR 2019"]
    assert len(select_ids(library, "venue:2018")) == counts["ICLR 2018"] + counts["NeurIPS 2018"]


@pytest.mark.parametrize(("venue", "name"), [("COLM 2025", "colm2025"), ("ICLR 2017", "iclr2017")])
def test_colm_2025_and_iclr_2017_mean_ratings_on_their_own_scale(library: Store, venue: str, name: str) -> None:
    figures = figures_of(library.papers, library.reviews.summaries(), {})
    (entry,) = (v for v in figures.venues if v.venue == venue)
    assert entry.scale == "1-10"
    assert entry.figures.mean_of_means == pytest.approx(expected_mean(name), abs=2e-3)
    short = venue.split()[0].lower()
    high = [r for r in _copilot(name) if _titled(r.get("title")) and r.get("rating")
            and (s := [float(v) for v in str(r["rating"]).split(";")]) and sum(s) / len(s) >= 6.5]  # fmt: skip
    assert len(select_ids(library, f'venue:"{short} {venue.split()[1]}" rating>=6.5')) == len(high)


def test_the_percentile_field_is_within_each_venue(library: Store) -> None:
    for term in ("venue:colm", 'venue:"iclr 2017"', 'venue:"iclr 2018"'):
        rated = len(select_ids(library, f"{term} has:rating"))
        top = len(select_ids(library, f"{term} rating_pct>=90"))
        assert 0 < top <= 0.2 * rated, term
    assert len(select_ids(library, 'venue:"iclr 2026" rating_pct>=0')) == 0  # its submissions carry no ratings


@pytest.mark.parametrize(("venue", "name"), [("COLM 2025", "colm2025"), ("ICLR 2017", "iclr2017")])
def test_each_reviews_rating_and_confidence_is_kept_on_its_venues_scale(library: Store, venue: str, name: str) -> None:
    from collections import Counter

    figures = figures_of(library.papers, library.reviews.summaries(), {})
    (entry,) = (v for v in figures.venues if v.venue == venue)
    records = [r for r in _copilot(name) if _titled(r.get("title")) and r.get("rating")]
    ratings = Counter(float(v) for r in records for v in str(r["rating"]).split(";"))
    confidences = Counter(float(v) for r in records for v in str(r["confidence"]).split(";"))
    assert dict(entry.figures.review_ratings.counts) == ratings and entry.figures.review_ratings.total > len(records)
    assert dict(entry.figures.confidence.counts) == confidences
    per_paper = Counter(len(str(r["rating"]).split(";")) for r in records)
    assert dict(entry.figures.reviews_per_paper.counts) == per_paper


def test_iclr_2017s_acceptance_rate_is_over_its_decided_papers(library: Store) -> None:
    from collections import Counter

    statuses = Counter(str(r["status"]) for r in _copilot("iclr2017") if _titled(r.get("title")))
    accepted = statuses["Oral"] + statuses["Poster"]
    decided = accepted + statuses["Reject"] + statuses["Workshop"]  # the workshop track: not accepted
    figures = figures_of(library.papers, library.reviews.summaries(), {})
    rates = {v.venue: v.acceptance_rate for v in figures.venues}
    assert rates["ICLR 2017"] == pytest.approx(accepted / decided)
    bases = {v.venue: v.figures.basis for v in figures.venues}
    assert bases["ICLR 2017"] == bases["ICLR 2025"] == "decided" and bases["COLM 2025"] == "accepted only"
    assert bases["ICLR 2023"] == "none" and rates["ICLR 2023"] is None and rates["COLM 2025"] is None
