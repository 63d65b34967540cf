"""The CSV/TSV, BibTeX and arXiv Atom readers: the real files (their cuts in ``tests/data/``, the
arXiv feeds whole; the whole files in the tests marked ``data``) and small inline cases."""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.sources import arxiv_atom, bibtex, csv_table, detect_format, read_source

from tests.helpers import FIXTURES, SEEDS, SHARED_DATA

DATA = FIXTURES

BIB_OPENREVIEW = DATA / "iclr2018_openreview-bibtex_from-papercopilot.bib"
BIB_SMART = DATA / "iclr2018_smart-scholar.bib"
CSV_2025 = DATA / "iclr2025_title_authors_affiliations_decision.csv"
CSV_2026 = DATA / "iclr2026_accepted_optimization-area_with-llm-notes.csv"
CSV_AUTHOR_ROWS = DATA / "icml-nips-iclr_author-rows_2019-08.csv"
TSV_2023 = DATA / "iclr2023_submissions_number_title.tsv"
AX_2016 = DATA / "arxiv_atom_2016_classic_au-del_maestro.xml"
AX_2025 = DATA / "arxiv_atom_2025-11_electron-proton_10.xml"
AX_EMPTY = DATA / "arxiv_atom_2025-11_empty-result.xml"
AX_2026 = DATA / "arxiv_atom_2026_query-testing_100.xml"


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def whole(path: Path) -> Path:
    """The whole real file of which ``path`` in tests/data/ is a cut (the tests marked ``data``)."""
    return SHARED_DATA / path.name


def papercopilot_ids() -> set[str]:
    records = json.loads((SHARED_DATA / "papercopilot_iclr2018.json").read_text(encoding="utf-8"))
    return {record["id"] for record in records}


# --- the real files -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "name"),
    [
        (BIB_OPENREVIEW, "bibtex"),
        (BIB_SMART, "bibtex"),
        (CSV_2025, "csv"),
        (CSV_2026, "csv"),
        (CSV_AUTHOR_ROWS, "csv"),
        (TSV_2023, "csv"),
        (AX_2016, "arxiv"),
        (AX_2025, "arxiv"),
        (AX_EMPTY, "arxiv"),
        (AX_2026, "arxiv"),
    ],
)
def test_detect_format_picks_the_right_reader(path: Path, name: str) -> None:
    assert detect_format(path) == name
    if path == AX_EMPTY:  # detected as arXiv, and refused: it yields no paper
        with pytest.raises(SourceError, match=r"the query found 0 results\); nothing was imported"):
            read_source(path)
        return
    assert read_source(path).format == name


def test_detect_format_leaves_json_parquet_and_seed_text_alone() -> None:
    others = [
        *DATA.glob("*.json"),
        *DATA.glob("*.jsonl"),
        *DATA.glob("*.parquet"),
        *SEEDS.glob("*.txt"),
    ]
    assert len(others) >= 8
    for path in others:
        assert detect_format(path) not in {"bibtex", "csv", "arxiv"}, path.name
        head = path.read_bytes()[:65_536].decode("utf-8", errors="replace").lstrip("\ufeff")
        for module in (bibtex, csv_table, arxiv_atom):
            assert not module.sniff(path, head), (module.NAME, path.name)


@pytest.mark.data
def test_openreview_bibtex_943_entries_despite_repeated_keys() -> None:
    result = bibtex.read(whole(BIB_OPENREVIEW))
    assert len(result.papers) == 943 and not result.skipped and result.notice is None
    forum_ids = {paper.openreview_id for paper in result.papers if paper.openreview_id}
    # 943 entries: 940 distinct forum ids (924 of them in the Paper Copilot JSON; 16 withdrawn
    # papers' BibTeX points at another forum) and 3 anonymous @article entries without url.
    assert len(forum_ids) == 940
    assert len(forum_ids & papercopilot_ids()) == 924
    assert Counter(paper.id.split(":")[0] for paper in result.papers) == {
        "openreview": 940,
        "title": 3,
    }
    assert Counter(paper.decision for paper in result.papers) == {
        "accept": 336,
        "unknown": 606,
        "reject": 1,
    }
    assert {paper.venue_label for paper in result.papers} == {"ICLR 2018"}
    assert sum(not paper.authors for paper in result.papers) == 17  # author={Anonymous}
    titles = {paper.title for paper in result.papers}
    assert "THINK VISUALLY: QUESTION ANSWERING THROUGH VIRTUAL IMAGERY" in titles
    assert "No Spurious Local Minima in a Two Hidden Unit ReLU Network" in titles
    assert (
        "MACH: Embarrassingly parallel $K$-class classification in $O(d\\log{K})$ memory and "
        "$O(K\\log{K} + d\\log{K})$ time, instead of $O(Kd)$"
    ) in titles
    first = result.papers[0]
    assert first.id == "openreview:B12Js_yRb"
    assert first.authors == ("Yan Zhang", "Jonathon Hare", "Adam Prügel-Bennett")
    assert first.pdf_url == "https://openreview.net/pdf?id=B12Js_yRb"
    assert first.openreview_url == "https://openreview.net/forum?id=B12Js_yRb"
    # Repeated keys: sharma2018learning appears twice, both read.
    assert sum(paper.title.startswith("Learning to Mix n-Step Returns") for paper in result.papers) == 1
    assert "openreview:HkpRBFxRb" in {paper.id for paper in result.papers}
    # A comma-separated author list (no "and") in an OpenReview @article.
    rejected = next(paper for paper in result.papers if paper.decision == "reject")
    assert rejected.authors[:2] == ("Yanpeng Zhao", "Victoria W. Bi") and len(rejected.authors) == 6


@pytest.mark.data
def test_smart_scholar_bibtex_workshop_papers() -> None:
    result = bibtex.read(whole(BIB_SMART))
    assert len(result.papers) == 425 and not result.skipped
    assert Counter(paper.decision for paper in result.papers) == {"accept": 336, "workshop": 89}
    ids = {paper.openreview_id for paper in result.papers}
    assert len(ids) == 425 and ids <= papercopilot_ids()
    assert all(paper.pdf_url.startswith("https://openreview.net/pdf?id=") for paper in result.papers)
    assert {paper.venue_label for paper in result.papers} == {"ICLR 2018"}


@pytest.mark.data
def test_iclr2025_csv_decisions_after_the_fact() -> None:
    result = csv_table.read(whole(CSV_2025))
    # 11,672 rows: one title is "111", a placeholder with no id to stand on.
    assert len(result.papers) + len(result.skipped) == 11_672
    assert [skip.reason for skip in result.skipped] == ["placeholder title '111' and no id"]
    assert Counter(paper.decision for paper in result.papers) == {
        "reject": 4959,  # "Submitted to ICLR 2025" once decisions are out
        "poster": 3113,
        "withdrawn": 2936,
        "spotlight": 380,
        "oral": 213,
        "desk-rejected": 70,
    }
    assert {paper.venue_label for paper in result.papers} == {"ICLR 2025"}
    assert all(paper.id.startswith("title:iclr-2025:") for paper in result.papers)
    assert result.papers[0].authors == (
        "Aastha Kachhi",
        "Ajay Kumar Sharma",
        "Anurag Pandey",
        "Megha Pandey",
        "Shashank Ojha",
    )


@pytest.mark.data
def test_iclr2026_messy_csv_bom_crlf_multiline_cjk() -> None:
    result = csv_table.read(whole(CSV_2026))
    assert len(result.papers) == 191 and not result.skipped
    assert Counter(paper.decision for paper in result.papers) == {"poster": 181, "oral": 10}
    assert all(paper.id == f"openreview:{paper.openreview_id}" for paper in result.papers)
    assert sum("\n" in paper.abstract for paper in result.papers) == 56
    assert not any("\r" in paper.abstract for paper in result.papers)
    first = result.papers[0]
    assert first.id == "openreview:VaS6xcDrTb"
    assert first.venue_label == "ICLR 2026" and first.primary_area == "optimization"
    assert first.keywords[:3] == ("optimization", "special unitary", "rotation estimation")
    assert first.ratings is not None and (first.ratings.mean, first.ratings.count) == (8.5, 4)
    assert first.confidence == 3.0


@pytest.mark.data
def test_iclr2023_tsv_numbers_and_titles() -> None:
    result = csv_table.read(whole(TSV_2023))
    assert len(result.papers) == 4967 and not result.skipped
    assert result.papers[0].id == "iclr2023#2" and result.papers[0].number == 2
    assert {paper.decision for paper in result.papers} == {"under-review"}
    titles = {paper.title for paper in result.papers}
    assert '"Why did the Model Fail?": Attributing Model Performance Changes to Distribution Shifts' in titles


@pytest.mark.data
def test_author_rows_grouped_into_papers_per_venue_and_year() -> None:
    result = csv_table.read(whole(CSV_AUTHOR_ROWS))
    assert not result.skipped
    counts = Counter(paper.venue_label for paper in result.papers)
    assert counts["ICLR 2018"] == 336 and counts["ICLR 2019"] == 501
    assert counts["ICML 2017"] + counts["ICML 2018"] + counts["ICML 2019"] == 434 + 621 + 773
    assert sum(n for label, n in counts.items() if label.startswith("NIPS")) == 5329
    assert len(result.papers) == 7994
    # 27,897 rows: 11 have no author and 16 repeat a name already on the same paper.
    assert sum(len(paper.authors) for paper in result.papers) == 27_897 - 11 - 16
    first = result.papers[0]
    assert first.title == "Decoupled Neural Interfaces using Synthetic Gradients"
    assert first.authors[:3] == ("Max Jaderberg", "Wojciech Czarnecki", "Simon Osindero")
    names = {name for paper in result.papers for name in paper.authors}
    assert {"Paul Rigor, Ph.D.", "Stanley, Yiu Man LAM"} <= names


def test_arxiv_2016_old_layout() -> None:
    result = arxiv_atom.read(AX_2016)
    assert len(result.papers) == 10
    old_style = [paper for paper in result.papers if "/" in paper.arxiv_id]
    assert len(old_style) == 4
    assert all(paper.id == f"arxiv:{paper.arxiv_id}" for paper in result.papers)
    assert not any(paper.arxiv_id[-2:].startswith("v") for paper in result.papers)
    for paper in result.papers:
        assert "\n" not in paper.title and "  " not in paper.title
        assert paper.abstract == " ".join(paper.abstract.split())
        assert paper.keywords == () and paper.venue == "arXiv"
        assert "/pdf/" in paper.pdf_url and "/abs/" in paper.arxiv_url
    first = result.papers[0]
    assert first.id == "arxiv:1201.4869" and first.year == 2012
    assert first.doi == "10.1142/S021797921244002X"
    assert first.abstract.startswith("As helium-4 is cooled")


def test_arxiv_2025_links_without_rel() -> None:
    result = arxiv_atom.read(AX_2025)
    assert len(result.papers) == 10
    first = result.papers[0]
    assert first.id == "arxiv:nucl-ex/0408020"
    assert first.pdf_url == "https://arxiv.org/pdf/nucl-ex/0408020v1"
    assert first.arxiv_url == "https://arxiv.org/abs/nucl-ex/0408020v1"
    assert len(first.authors) == 9 and first.year == 2004
    assert all(paper.pdf_url and paper.arxiv_url for paper in result.papers)


def test_arxiv_2026_hundred_and_empty_result() -> None:
    result = arxiv_atom.read(AX_2026)
    assert len(result.papers) == 100
    assert sum(bool(paper.doi) for paper in result.papers) == 32
    empty = arxiv_atom.read(AX_EMPTY)
    assert empty.papers == () and empty.notice is not None and "no papers" in empty.notice


def test_the_tabular_cuts_read_as_the_whole_files_do() -> None:
    """The cuts in tests/data/ keep each file's first records and its oddities: a BibTeX key four
    times, anonymous entries, workshop papers, a BOM with CRLF and multi-line quoted cells, an
    author list per row."""
    entries = bibtex.read(BIB_OPENREVIEW).papers
    first = entries[0]
    assert first.id == "openreview:B12Js_yRb" and first.pdf_url == "https://openreview.net/pdf?id=B12Js_yRb"
    assert first.authors == ("Yan Zhang", "Jonathon Hare", "Adam Prügel-Bennett")
    assert sum(not paper.authors for paper in entries) >= 1  # author={Anonymous}
    assert {paper.venue_label for paper in entries} == {"ICLR 2018"}
    smart = bibtex.read(BIB_SMART).papers
    assert {paper.decision for paper in smart} == {"accept", "workshop"}
    optimisation = csv_table.read(CSV_2026)
    assert not optimisation.skipped and optimisation.papers[0].id == "openreview:VaS6xcDrTb"
    assert optimisation.papers[0].keywords[:3] == ("optimization", "special unitary", "rotation estimation")
    assert any("\n" in paper.abstract for paper in optimisation.papers)
    assert not any("\r" in paper.abstract for paper in optimisation.papers)
    iclr2025 = csv_table.read(CSV_2025)
    assert iclr2025.papers[0].authors[:2] == ("Aastha Kachhi", "Ajay Kumar Sharma")
    assert {"reject", "poster", "withdrawn", "spotlight", "oral", "desk-rejected"} <= {
        paper.decision for paper in iclr2025.papers
    }
    tsv = csv_table.read(TSV_2023).papers
    assert tsv[0].id == "iclr2023#2" and {paper.decision for paper in tsv} == {"under-review"}
    rows = csv_table.read(CSV_AUTHOR_ROWS).papers
    assert rows[0].title == "Decoupled Neural Interfaces using Synthetic Gradients"
    assert rows[0].authors[:3] == ("Max Jaderberg", "Wojciech Czarnecki", "Simon Osindero")
    assert {"ICLR 2018", "ICML 2017", "NIPS 2006"} <= {paper.venue_label for paper in rows}


# --- CSV / TSV inline cases ----------------------------------------------------------------


def test_bom_crlf_multiline_quoted_fields_and_line_numbers(tmp_path: Path) -> None:
    text = (
        "\ufefftitle,abstract,openreview_url,venue\r\n"
        'Paper One,"line one\r\nline two, with comma",'
        "https://openreview.net/forum?id=Abc_12-xyZ,ICLR 2026 Poster\r\n"
        ',"no title here\r\nacross lines",,ICLR 2026 Poster\r\n'
        "第二篇论文标题,摘要,,ICLR 2026 Oral\r\n"
    )
    result = csv_table.read(write(tmp_path, "list.csv", text))
    assert [paper.title for paper in result.papers] == ["Paper One", "第二篇论文标题"]
    one, two = result.papers
    assert one.id == "openreview:Abc_12-xyZ" and one.abstract == "line one\nline two, with comma"
    assert (one.decision, one.venue, one.year) == ("poster", "ICLR", 2026)
    assert two.decision == "oral" and two.id.startswith("title:iclr-2026:")
    assert [(skip.position, skip.reason) for skip in result.skipped] == [("line 4", "no title")]


def test_tsv_with_number_and_file_name_venue(tmp_path: Path) -> None:
    path = write(tmp_path, "neurips2024_list.tsv", "number\ttitle\n7\tA, B and C\n9\tSecond\n")
    result = csv_table.read(path)
    assert [paper.id for paper in result.papers] == ["neurips2024#7", "neurips2024#9"]
    assert result.papers[0].title == "A, B and C" and result.papers[0].venue_label == "NeurIPS 2024"
    # Tab-separated content is recognised without the suffix too.
    other = write(tmp_path, "list.txt", "Title\tAuthors\nX Paper\tA B; C D\n")
    assert detect_format(other) == "csv"
    assert csv_table.read(other).papers[0].authors == ("A B", "C D")


def test_author_rows_grouped_in_row_order(tmp_path: Path) -> None:
    text = (
        "Conference,Year,Title,Author,Affiliation\n"
        "ICLR,2018,Deep Things,Ann Lee,MIT\n"
        "ICLR,2018,Deep Things,Bo Chen,CMU\n"
        "ICML,2018,Deep Things,Cy Doe,ETH\n"
        'ICLR,2018,Other,"Smith, John",X\n'
        "ICLR,2018,Deep Things,Dee Eve,Y\n"
    )
    result = csv_table.read(write(tmp_path, "rows.csv", text))
    assert [(paper.venue_label, paper.authors) for paper in result.papers] == [
        ("ICLR 2018", ("Ann Lee", "Bo Chen", "Dee Eve")),
        ("ICML 2018", ("Cy Doe",)),
        ("ICLR 2018", ("Smith, John",)),
    ]
    assert [skip.reason for skip in result.skipped] == ["same paper as line 2; merged"]


def test_header_synonyms_and_case(tmp_path: Path) -> None:
    text = (
        "Paper Title;AUTHORS;Status;Keywords;URL;TL;DR;Year;Conference\n"
        "Nice Paper;Ann Lee, Bo Chen;Reject;a; b;https://openreview.net/forum?id=XyZ123abcd;short;2024;ICLR\n"
    )
    # The semicolon delimiter and keyword split collide here on purpose: quoted keywords are safe.
    text = text.replace("a; b;https", '"a; b";https').replace("TL;DR", '"TL;DR"')
    result = csv_table.read(write(tmp_path, "x.csv", text))
    (paper,) = result.papers
    assert paper.title == "Nice Paper" and paper.authors == ("Ann Lee", "Bo Chen")
    assert (paper.decision, paper.decision_raw) == ("reject", "Reject")
    assert paper.keywords == ("a", "b") and paper.tldr == "short"
    assert paper.id == "openreview:XyZ123abcd" and paper.venue_label == "ICLR 2024"


def test_submitted_to_means_rejected_only_once_decisions_are_out(tmp_path: Path) -> None:
    before = write(tmp_path, "a.csv", "Title,Decision\nA paper,Submitted to ICLR 2025\n")
    assert csv_table.read(before).papers[0].decision == "unknown"
    after = write(
        tmp_path,
        "b.csv",
        "Title,Decision\nA paper,Submitted to ICLR 2025\nB paper,ICLR 2025 Poster\n",
    )
    assert [paper.decision for paper in csv_table.read(after).papers] == ["reject", "poster"]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('title,abstract\nA,"fine"\nB,"never closed\nmore text\n', 3, "never closed"),
        ('title,abstract\nA,"x"y\n', 2, "expected after"),
        ("title,abstract\nA,b,c\n", 2, "3 fields"),
    ],
)
def test_malformed_csv_names_the_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = write(tmp_path, "bad.csv", text)
    with pytest.raises(SourceError) as caught:
        csv_table.read(path)
    assert caught.value.line == line and words in caught.value.reason
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_empty_and_header_only_tables_give_a_notice(tmp_path: Path) -> None:
    for name, text in (("empty.csv", ""), ("header.csv", "title,authors\n")):
        result = csv_table.read(write(tmp_path, name, text))
        assert result.papers == () and result.notice and "no papers" in result.notice


def test_csv_without_title_column_is_refused_and_not_sniffed(tmp_path: Path) -> None:
    path = write(tmp_path, "x.csv", "name,authors\nA,B\n")
    assert not csv_table.sniff(path, "name,authors\nA,B\n")
    with pytest.raises(SourceError, match="no title column") as caught:
        csv_table.read(path)
    assert caught.value.line == 1


# --- BibTeX inline cases -------------------------------------------------------------------

BIB = """% a comment
@inproceedings{
zhang2018learning,
title={{Protected} {T}itle with $O(\\log{n})$},
author={Ann Lee and Doe, John and {Barnes and Noble}},
booktitle={International Conference on Learning Representations},
year={2018},
url={https://openreview.net/forum?id=AAAAAAAAA1},
}

@misc{
zhang2018learning,
title={Another   Paper
  Wrapped},
author={Anonymous},
year={2018},
url={https://openreview.net/forum?id=BBBBBBBBB2},
}

@inproceedings{2018-ICLRWorkshop-X,
  title={Workshop Paper},
  author={A B},
  year={2018},
  booktitle={ICLRWorkshop},
  pdflink={https://openreview.net/pdf?id=CCCCCCCCC3}
}
"""


def test_bibtex_duplicate_keys_braces_and_anonymous(tmp_path: Path) -> None:
    result = bibtex.read(write(tmp_path, "x.bib", BIB))
    first, second, third = result.papers
    assert (first.id, second.id) == ("openreview:AAAAAAAAA1", "openreview:BBBBBBBBB2")
    assert first.title == "Protected Title with $O(\\log{n})$"
    assert first.authors == ("Ann Lee", "John Doe", "Barnes and Noble")
    assert (first.decision, first.venue_label) == ("accept", "ICLR 2018")
    assert second.title == "Another Paper Wrapped" and second.authors == ()
    assert second.decision == "unknown" and second.decision_raw == "@misc"
    assert third.decision == "workshop" and third.pdf_url == "https://openreview.net/pdf?id=CCCCCCCCC3"
    assert third.openreview_url == "https://openreview.net/forum?id=CCCCCCCCC3"


def test_bibtex_same_forum_twice_is_one_paper(tmp_path: Path) -> None:
    text = BIB.replace("BBBBBBBBB2", "AAAAAAAAA1")
    result = bibtex.read(write(tmp_path, "x.bib", text))
    assert len(result.papers) == 2
    assert [skip.reason for skip in result.skipped] == ["same paper as line 2; merged"]


def test_bibtex_ids_without_openreview(tmp_path: Path) -> None:
    text = (
        "@article{a, title={One}, journal={arXiv preprint arXiv:2101.00001}, year={2021}}\n"
        "@article{b, title={Two}, doi={https://doi.org/10.1/ABC}, year={2020}}\n"
        "@inproceedings{c, title={Three}, booktitle={The Thirteenth International Conference on "
        "Learning Representations, {ICLR} 2025, Singapore}, year={2025}}\n"
    )
    result = bibtex.read(write(tmp_path, "refs.bib", text))
    assert [paper.id for paper in result.papers][:2] == ["arxiv:2101.00001", "doi:10.1/abc"]
    assert result.papers[2].id.startswith("title:iclr-2025:")


def test_malformed_bibtex_names_the_entry_line(tmp_path: Path) -> None:
    text = "@misc{a, title={Fine}}\n\n@article{b,\n title={Never closed,\n author={X}\n"
    path = write(tmp_path, "bad.bib", text)
    with pytest.raises(SourceError) as caught:
        bibtex.read(path)
    assert caught.value.line == 3 and "malformed BibTeX" in caught.value.reason


class _RecordSpy(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_bibtexparser_warnings_are_never_printed(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """bibtexparser warns about a broken entry (on ``bibtexparser.splitter``); nothing of it may
    reach stderr or the root logger, and no logger level is changed to get there."""
    logger = logging.getLogger("bibtexparser")
    level = logger.level
    spy = _RecordSpy()
    logger.addHandler(spy)
    text = "@article{b,\n title={Never closed,\n author={X}\n"
    try:
        with caplog.at_level(logging.DEBUG), pytest.raises(SourceError):
            bibtex.read(write(tmp_path, "bad.bib", text))
    finally:
        logger.removeHandler(spy)
    assert any(record.name == "bibtexparser.splitter" for record in spy.records)  # it did warn
    assert not [record for record in caplog.records if record.name.startswith("bibtexparser")]
    assert capfd.readouterr().err == ""
    assert logger.level == level


def test_empty_bibtex_gives_a_notice(tmp_path: Path) -> None:
    result = bibtex.read(write(tmp_path, "empty.bib", "% nothing here\n"))
    assert result.papers == () and result.notice is not None


# --- arXiv inline cases --------------------------------------------------------------------

FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title>arXiv Query</title>
  {entries}
</feed>
"""
ENTRY = """<entry>
    <id>http://arxiv.org/abs/{id}</id>
    <published>2005-01-02T00:00:00Z</published>
    <title>{title}</title>
    <summary>  Wrapped
  summary.</summary>
    <author><name>Ann Lee</name></author>
    <link href="https://arxiv.org/abs/{id}"/>
    <link href="https://arxiv.org/pdf/{id}"/>
    {extra}
  </entry>"""


def feed(*entries: tuple[str, str, str]) -> str:
    body = "\n".join(ENTRY.format(id=i, title=t, extra=e) for i, t, e in entries)
    return FEED.replace("{entries}", body)


def test_arxiv_versions_are_one_paper_old_style_ids(tmp_path: Path) -> None:
    text = feed(
        ("cond-mat/0412498v1", "Old\n  Title", ""),
        ("cond-mat/0412498v2", "New Title", "<arxiv:journal_ref>ICLR 2024</arxiv:journal_ref>"),
        ("2202.12139v1", "Other", "<arxiv:doi>10.1/x</arxiv:doi>"),
    )
    result = arxiv_atom.read(write(tmp_path, "q.xml", text))
    assert [paper.id for paper in result.papers] == ["arxiv:cond-mat/0412498", "arxiv:2202.12139"]
    kept = result.papers[0]
    assert kept.title == "New Title" and kept.venue_label == "ICLR 2024"
    assert kept.abstract == "Wrapped summary." and kept.authors == ("Ann Lee",)
    assert result.papers[1].venue_label == "arXiv 2005" and result.papers[1].doi == "10.1/x"
    assert [skip.reason for skip in result.skipped] == ["another version of arXiv:cond-mat/0412498; kept v2"]


def test_malformed_xml_names_the_line(tmp_path: Path) -> None:
    text = feed(("1234.5678v1", "A & B", ""))
    path = write(tmp_path, "bad.xml", text)
    with pytest.raises(SourceError) as caught:
        arxiv_atom.read(path)
    assert caught.value.line == 7 and "malformed XML" in caught.value.reason


def test_arxiv_error_feed_and_entities_are_refused(tmp_path: Path) -> None:
    error = feed(("", "Error", "")).replace(
        "http://arxiv.org/abs/</id>", "http://arxiv.org/api/errors#incorrect_id_format</id>"
    )
    with pytest.raises(SourceError, match="arXiv API returned an error"):
        arxiv_atom.read(write(tmp_path, "err.xml", error))
    bomb = (
        '<?xml version="1.0"?>\n<!DOCTYPE f [<!ENTITY a "aaaa">]>\n<feed xmlns="http://www.w3.org/2005/Atom">&a;</feed>'
    )
    with pytest.raises(SourceError, match="refused"):
        arxiv_atom.read(write(tmp_path, "bomb.xml", bomb))


def test_empty_arxiv_file_and_empty_feed(tmp_path: Path) -> None:
    for text in ("", feed()):
        result = arxiv_atom.read(write(tmp_path, "e.xml", text))
        assert result.papers == () and result.notice is not None


def test_iclr2023_tsv_decisions_are_mapped_and_a_value_not_understood_is_kept(tmp_path: Path) -> None:
    """The ICLR 2023 list (the cut of ``iclr2023_submissions_number_title.tsv``) has no decision
    column: its papers are what its name says, submissions under review. Given a decision column
    (here added to its first five rows, with ICLR 2023's decision texts), each row's decision is
    read from it, and one not understood stays the source's text (``unknown``, its raw text kept),
    never replaced by what the file's name says."""
    rows = TSV_2023.read_text("utf-8").splitlines()[1:6]
    plain = csv_table.read(TSV_2023)
    assert {paper.decision for paper in plain.papers} == {"under-review"}
    decisions = ["Accept: notable-top-5%", "Accept: poster", "Reject", "Pending ethics review", ""]
    path = tmp_path / "iclr2023_submissions_number_title.tsv"
    path.write_text(
        "number\ttitle\tdecision\n" + "".join(f"{row}\t{d}\n" for row, d in zip(rows, decisions, strict=True)), "utf-8"
    )
    read = csv_table.read(path)
    assert [(p.decision, p.decision_raw) for p in read.papers] == [
        ("oral", "Accept: notable-top-5%"),
        ("poster", "Accept: poster"),
        ("reject", "Reject"),
        ("unknown", "Pending ethics review"),
        ("under-review", ""),
    ]
