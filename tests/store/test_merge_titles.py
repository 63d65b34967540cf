"""A paper is matched by every title it has had: ICLR 2018's author rows (submission titles) and
OpenReview's BibTeX (camera-ready titles) met as 12 papers twice when Paper Copilot's list (the
submission title and the forum id) did not come first. Fixtures: the ICLR 2018 cuts of
``tests/data/`` (Paper Copilot's list, its BibTeX, the author rows; origins in its README), which
hold a retitled paper, ``Hk6kPgZA-`` ("Certifying Some Distributional Robustness with Principled
Adversarial Training", cited as "Certifiable Distributional Robustness with Principled
Adversarial Training")."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from paperdeck.model.ids import title_id
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.import_run import ImportReport
from paperdeck.store.merge import Merger
from paperdeck.store.store import Store

from tests.helpers import SHARED_DATA, fixture

SUBMITTED = "Certifying Some Distributional Robustness with Principled Adversarial Training"
CITED = "Certifiable Distributional Robustness with Principled Adversarial Training"
FORUM = "Hk6kPgZA-"
CUTS = (
    fixture("papercopilot_iclr2018.json"),
    fixture("icml-nips-iclr_author-rows_2019-08.csv"),
    fixture("iclr2018_openreview-bibtex_from-papercopilot.bib"),
)


def _iclr_2018(store: Store) -> list[Paper]:
    return [paper for paper in store.papers if paper.library_venue == "ICLR 2018"]


def _paper(**fields: object) -> Paper:
    values: dict[str, object] = {"venue": "ICLR", "year": 2018, "abstract": ""} | fields
    return Paper(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))), ids=lambda o: "".join(map(str, o)))
def test_the_cuts_give_one_paper_each_in_any_order(tmp_path: Path, order: tuple[int, ...]) -> None:
    expected = Store(tmp_path / "all")
    # the list first, whose titles and forum ids bridge the other two: the count the merge gave
    import_files(expected, list(CUTS))
    store = Store(tmp_path / "data")
    for index in order:  # one import each: the merge of a later one meets the catalogue's papers
        import_files(store, [CUTS[index]])
    assert len(_iclr_2018(store)) == len(_iclr_2018(expected))
    (paper,) = [p for p in _iclr_2018(store) if p.openreview_id == FORUM]
    assert len(paper.sources) == 3, paper.sources


def test_the_star_on_the_author_rows_paper_follows_it(tmp_path: Path) -> None:
    """The author rows' paper (submission title), starred while it stood apart from the BibTeX's
    (camera-ready title, forum id), is joined when Paper Copilot's list names both, the star on it."""
    store = Store(tmp_path / "data")
    import_files(store, [CUTS[1], CUTS[2]])
    rows_id = title_id("ICLR", 2018, SUBMITTED)
    assert store.paper(rows_id) is not None
    store.set_star(rows_id, True)
    store.set_note(rows_id, "the Lagrangian penalty")
    import_files(store, [CUTS[0]])
    paper = store.paper(store.resolve(rows_id))
    assert paper is not None and paper.openreview_id == FORUM
    assert [p.id for p in _iclr_2018(store) if p.openreview_id == FORUM or p.title == SUBMITTED] == [paper.id]
    again = Store(store.data_dir)
    assert again.user_data(paper.id).starred and again.user_data(paper.id).note == "the Lagrangian penalty"


def test_the_import_summary_counts_the_papers_it_joined(tmp_path: Path) -> None:
    """A tester's find: importing Paper Copilot's list into a library holding a paper twice (the
    author rows' and the BibTeX's) joined them and said only "0 updated, 995 unchanged" (the
    whole files: 12 joined). The summary now counts them; an import joining none says nothing."""
    store = Store(tmp_path / "data")
    import_files(store, [CUTS[1], CUTS[2]])
    summary = import_files(store, [CUTS[0]])
    assert summary.joined == 1
    assert ", 0 unchanged, 1 paper joined with the paper it duplicated, 0 skipped" in summary.summary()
    again = import_files(store, [CUTS[0]])
    assert again.joined == 0 and "joined" not in again.summary()


def test_the_import_report_names_the_papers_joined() -> None:
    assert ImportReport(0, 0, 995, joined=12).summary() == (
        "0 new, 0 updated, 995 unchanged, 12 papers joined with the paper they duplicated"
    )
    assert ImportReport(0, 0, 995).summary() == "0 new, 0 updated, 995 unchanged"


def test_the_merge_tells_the_catalogue_s_papers_it_joined_by_a_title() -> None:
    rows_id = title_id("ICLR", 2018, SUBMITTED)
    held = Merger({}, {}).merge(
        [
            _paper(id=rows_id, title=SUBMITTED),  # the author rows' (submission title)
            _paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=CITED),  # the BibTeX's
        ]
    )
    assert len(held.papers) == 2
    listed = _paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=SUBMITTED)  # the list names both
    result = Merger(held.papers, held.aliases).merge([listed])
    assert list(result.papers) == [f"openreview:{FORUM}"]
    assert result.joined_by_title == (rows_id,)


def test_an_earlier_title_matches_in_a_later_merge() -> None:
    """The camera-ready record first, the submission's (same forum) next: a record by the
    submission title alone, merged later, joins the paper (its title's id an alias of it)."""
    first = Merger({}, {})
    first.merge([_paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=CITED)])
    result = first.merge([_paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=SUBMITTED)])
    later = Merger(result.papers, result.aliases).merge([_paper(id=title_id("ICLR", 2018, SUBMITTED), title=SUBMITTED)])
    assert list(later.papers) == [f"openreview:{FORUM}"]


def test_an_earlier_title_never_joins_a_paper_of_another_venue() -> None:
    merger = Merger({}, {})
    merger.merge([_paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=CITED)])
    merger.merge([_paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=SUBMITTED)])
    result = merger.merge([_paper(id=title_id("ICLR", 2019, SUBMITTED), title=SUBMITTED, year=2019)])
    assert len(result.papers) == 2
    other = Merger({}, {})
    other.merge([_paper(id=title_id("ICLR", 2019, SUBMITTED), title=SUBMITTED, year=2019)])
    other.merge([_paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=CITED)])
    result = other.merge([_paper(id=f"openreview:{FORUM}", openreview_id=FORUM, title=SUBMITTED)])
    assert len(result.papers) == 2


@pytest.mark.data
def test_iclr_2018_author_rows_and_bibtex_give_each_paper_once() -> None:
    """The whole files, in the orders that made 12 papers twice: 995 ICLR 2018 papers, the Paper
    Copilot list's count (every BibTeX entry and every author-rows paper is one of its papers)."""
    import tempfile

    files = [
        SHARED_DATA / "papercopilot_iclr2018.json",
        SHARED_DATA / "icml-nips-iclr_author-rows_2019-08.csv",
        SHARED_DATA / "iclr2018_openreview-bibtex_from-papercopilot.bib",
    ]
    for order in ((2, 0, 1), (1, 2, 0), (0, 1, 2)):
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder) / "data")
            for index in order:
                import_files(store, [files[index]])
            assert len(_iclr_2018(store)) == 995, order
