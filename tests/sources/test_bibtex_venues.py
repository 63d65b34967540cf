"""BibTeX venues as other tools write them (`tests/data/booktitle-spellings_…bib`: real ICLR 2017
and arXiv papers): an arXiv preprint, whatever its entry type (``booktitle={arXiv 2017}``,
``journal={arXiv preprint arXiv:…}``, dblp's ``journal={CoRR}``, arXiv's own ``@misc`` with an
``eprint``), is filed under ``arXiv``, undecided — never a conference named after its year nor an
accepted paper; every ICLR 2017 spelling (the full name, ``ICLR 2017``, dblp's Conference and
Workshop Track Proceedings) is ICLR 2017, a workshop paper kept apart from the main conference's
accepted tiers by its decision, and joined with its Paper Copilot record of the same forum."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from paperdeck.model.decision import ACCEPTED
from paperdeck.sources.bibtex import is_preprint
from paperdeck.sources.importer import import_files, read_files
from paperdeck.store.store import Store

from tests.helpers import fixture

SPELLINGS = fixture("booktitle-spellings_iclr2017-papercopilot_arxiv-atom.bib")
ICLR2017 = fixture("papercopilot_iclr2017.json")


def test_every_preprint_is_arxiv_and_every_iclr_2017_spelling_is_iclr_2017() -> None:
    (read,) = read_files([SPELLINGS])
    venues = {paper.title: paper.library_venue for paper in read.papers}
    assert Counter(venues.values()) == {"arXiv": 5, "ICLR 2017": 4}
    assert venues["Prototypical Networks for Few-shot Learning"] == "arXiv"  # booktitle={arXiv 2017}


def test_a_preprint_is_undecided_with_its_arxiv_id_and_the_year_it_was_given() -> None:
    (read,) = read_files([SPELLINGS])
    preprints = {paper.id: paper for paper in read.papers if paper.venue == "arXiv"}
    assert all(paper.decision == "unknown" for paper in preprints.values())
    # no year field: the year is the id's (2005.14124: May 2020), not "2005" read from the journal
    assert preprints["arxiv:2005.14124"].year == 2020
    assert "arxiv:2204.08348" in preprints  # dblp: journal={CoRR}, volume={abs/2204.08348}
    assert preprints["arxiv:2302.03287"].year == 2023


def test_a_workshop_paper_is_iclr_2017_but_not_among_its_accepted_papers(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    import_files(store, [ICLR2017, SPELLINGS])
    iclr = [paper for paper in store.papers if paper.library_venue == "ICLR 2017"]
    workshop = store.paper("openreview:B16Jem9xe")
    assert workshop is not None and workshop.decision == "workshop" and workshop.decision not in ACCEPTED
    # one paper with its Paper Copilot record (the same forum), not a second venue or copy
    assert workshop.sources == ("papercopilot_iclr2017.json", SPELLINGS.name)
    assert len(iclr) == 8  # the cut's 8 records: the entries without a forum id join theirs by title
    assert sum(paper.decision in ACCEPTED for paper in iclr) == 4  # its four posters
    assert {paper.library_venue for paper in store.papers} == {"ICLR 2017", "arXiv"}


@pytest.mark.parametrize(
    ("container", "preprint"),
    [
        ("arXiv 2022", True),
        ("arXiv preprint arXiv:2201.01234", True),
        ("ArXiv", True),
        ("CoRR", True),
        ("ICLR 2017 (arXiv version)", False),
        ("International Conference on Learning Representations", False),
        ("Corrosion Science", False),
    ],
)
def test_a_container_is_a_preprint_only_when_it_names_no_other_venue(container: str, preprint: bool) -> None:
    assert is_preprint(container) is preprint
