"""ICLR 2018's BibTeX added 16 withdrawn papers a second time to a library holding Paper
Copilot's list: OpenReview moved each withdrawn paper to a new forum, Paper Copilot's record has
that forum's id and the BibTeX it carries (the .bib's entry) the first one. Same record, title,
authors and venue: one paper (:func:`paperdeck.store.merge.title_joins`), in either order, under
the withdrawal's forum (where its reviews are), every user field of both kept. Fixtures:
``iclr2018_withdrawn-reposts*`` (tests/data/README.md), two such papers and one paper with one id in both files."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from paperdeck.model.paper import Paper
from paperdeck.model.user import UserData
from paperdeck.sources.importer import import_files
from paperdeck.store.merge import Merger
from paperdeck.store.store import Store

from tests.helpers import fixture, run

COPILOT = str(fixture("iclr2018_withdrawn-reposts_papercopilot.json"))
BIBTEX = str(fixture("iclr2018_withdrawn-reposts.bib"))
#: Paper Copilot's id (the withdrawal's forum) and the BibTeX's (the submission's) of one paper.
MOVED, CITED = "openreview:BykJlIAbM", "openreview:ByWBpcJAZ"


@pytest.mark.parametrize("first", [COPILOT, BIBTEX], ids=["copilot-first", "bibtex-first"])
def test_a_withdrawn_paper_under_its_two_forum_ids_is_one_paper(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str
) -> None:
    data = str(tmp_path / "data")
    second = BIBTEX if first == COPILOT else COPILOT
    assert run(capsys, "import", first, "--data-dir", data)[0] == 0
    held = MOVED if first == COPILOT else CITED
    assert run(capsys, "star", held, "--data-dir", data)[0] == 0
    assert run(capsys, "note", held, "--text", "read the re-post", "--data-dir", data)[0] == 0
    code, out, _ = run(capsys, "import", second, "--data-dir", data)
    assert code == 0 and "0 new" in out and "The store holds 3 papers." in out, out
    assert "not imported yet" not in out  # its reviews (Paper Copilot's, on the withdrawal's forum) found it
    store = Store(data)
    store.load()
    assert len(store.papers) == 3
    assert store.resolve(MOVED) == store.resolve(CITED) == MOVED  # the forum OpenReview keeps it in
    assert store.reviews.summary("BykJlIAbM") is not None
    record = store.user_data(store.resolve(MOVED))
    assert record.starred and record.note == "read the re-post"


def test_a_library_holding_both_joins_them_keeping_both_records(tmp_path: Path) -> None:
    """A library imported before the rule holds the paper twice, the user's marks on each: its next
    import joins them, starred, both notes, the status and every tag on the one paper."""
    store = Store(tmp_path / "data")
    assert import_files(store, [Path(COPILOT)]).new == 3
    store.catalogue.load()
    held = store.catalogue.held_papers
    moved = held[MOVED]
    twice = Paper(id=CITED, title=moved.title, abstract="", venue=moved.venue, year=moved.year,
                  decision="reject", openreview_id="ByWBpcJAZ")  # fmt: skip
    store.catalogue.replace({**held, twice.id: twice}, store.catalogue.held_aliases)
    rows = store.catalogue.rows_path  # a rows cache as an older paperdeck wrote it: a whole merge
    header, rest = rows.read_bytes().split(b"\n", 1)
    rows.write_bytes(orjson.dumps({k: v for k, v in orjson.loads(header).items() if k != "title_keys"}) + b"\n" + rest)
    store.set_note(MOVED, "first note")
    store.set_star(MOVED, True)
    store.restore([UserData(CITED, note="second note", status="read", tags=("gan",))])

    report = import_files(Store(tmp_path / "data"), [Path(BIBTEX)])

    assert any("held twice" in line for line in report.notices), report.notices
    again = Store(tmp_path / "data")
    again.load()
    assert len(again.papers) == 3 and again.resolve(CITED) == again.resolve(MOVED) == MOVED
    record = again.user_data(again.resolve(MOVED))
    assert record.starred and record.status == "read" and record.tags == ("gan",)
    assert "first note" in record.note and "second note" in record.note


def test_two_forum_ids_under_one_title_stay_two_papers_without_a_withdrawal() -> None:
    def paper(forum: str, decision: str) -> Paper:
        return Paper(id=f"openreview:{forum}", title="Learning With Mental Imagery", abstract="",
                     venue="ICLR 2018", year=2018, decision=decision, openreview_id=forum)  # fmt: skip

    assert len(Merger({}, {}).merge([paper("A1", "reject"), paper("B2", "poster")]).papers) == 2
    assert len(Merger({}, {}).merge([paper("A1", "reject"), paper("B2", "withdrawn")]).papers) == 1
    other_year = Paper(id="openreview:C3", title="Learning With Mental Imagery", abstract="", venue="ICLR 2018",
                       year=2019, decision="withdrawn", openreview_id="C3")  # fmt: skip
    assert len(Merger({}, {}).merge([paper("A1", "reject"), other_year]).papers) == 2
