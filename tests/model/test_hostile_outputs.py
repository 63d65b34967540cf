"""Hostile input never reaches the terminal: a store imported from hostile files of every format
(tests/hostile_corpus.py: every importer × every field × every payload kind), then every CLI command,
every export to standard output, the editor's note file — each output scanned for raw ESC, BEL, C1
and other control characters that came from the data. Links: only http(s) ones are kept."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from paperdeck.cli.main import main
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import document, web_link
from paperdeck.reading.note_file import NOTE_END, note_from_file, note_template
from paperdeck.sources.links import LINK_FIELDS
from paperdeck.store.store import Store

from tests.hostile_corpus import LINKS, PAYLOADS, WRITERS, assert_clean, write_corpus

HOSTILE_TAG = "tag\x1b]52;c;cHduZWQ=\x07\x9b666m\u202e"


def run(data: Path, *args: str) -> tuple[int, str, str]:
    """``paperdeck --data-dir DATA ARGS…``: exit status, standard output, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--data-dir", str(data), *args])
    return code, out.getvalue(), err.getvalue()


class Corpus:
    """The hostile files, the store they were imported into, and what each import printed."""

    def __init__(self, folder: Path) -> None:
        self.files = write_corpus(folder / "files")
        self.data = folder / "data"
        self.imports = {path: run(self.data, "import", str(path)) for path in self.files}
        self.store = Store(self.data)

    @property
    def papers(self) -> list[Paper]:
        return Store(self.data).papers


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return Corpus(tmp_path_factory.mktemp("hostile"))


def test_hostile_files_of_every_format_are_imported_or_refused_in_one_clean_line(corpus: Corpus) -> None:
    imported: dict[str, int] = {}
    for path, (code, out, err) in corpus.imports.items():
        assert_clean(out, f"import {path.name!r}: stdout")
        assert_clean(err, f"import {path.name!r}: stderr")
        if code == 0:
            format = next(name for name in WRITERS if path.name.startswith(f"hostile-{name}-"))
            imported[format] = imported.get(format, 0) + 1
        else:  # NUL in a text file, a BibTeX entry the payload broke: one line, naming the file
            assert code == 2 and err.count("\n") == 1 and "hostile-" in err, (path.name, err)
    # Every importer took the payloads in (else this test would prove nothing).
    assert set(imported) == set(WRITERS)
    assert all(count >= 5 for count in imported.values()), imported
    assert len(corpus.papers) >= 90


def test_only_web_links_are_kept_at_import(corpus: Corpus) -> None:
    links = [getattr(paper, name) for paper in corpus.papers for name in LINK_FIELDS]
    assert all(link == web_link(link) for link in links), [link for link in links if link != web_link(link)][:5]
    kept = {link for link in links if link}
    assert kept, "no paper kept a link at all"
    assert not any(link.startswith(("javascript:", "file:", "data:")) for link in kept)
    assert not any(bad in link for link in kept for bad in ("\x1b", "\x07", "\n", "\x9b"))
    # The import said so.
    notices = "".join(out for _, out, _ in corpus.imports.values())
    assert "left out: not http(s)" in notices


def test_every_text_field_holds_the_payloads_as_data(corpus: Corpus) -> None:
    """The store keeps the text as the file gave it (outputs show it; nothing is lost)."""
    titles = " ".join(paper.title for paper in corpus.papers)
    for kind in ("csi", "osc52-bel", "c1", "bidi", "rich"):
        assert PAYLOADS[kind].strip() in titles or PAYLOADS[kind] in titles, kind


LIST_COMMANDS = [
    ("list",),
    ("list", "--json"),
    ("search", "hostile", "--limit", "0"),
    ("search", "hostile", "--limit", "0", "--json"),
    ("stats",),
    ("stats", "--json"),
    ("similar", "--starred"),
    ("export", "--format", "bibtex"),
    ("export", "--format", "markdown"),
    ("export", "--format", "csv"),
    ("export", "--format", "json"),
    ("export", "--format", "ris"),
    ("export", "--format", "csl"),
    ("export", "--user-data"),
]


@pytest.mark.parametrize("command", LIST_COMMANDS, ids=" ".join)
def test_commands_over_the_whole_store_print_no_control_character(corpus: Corpus, command: tuple[str, ...]) -> None:
    first = corpus.papers[0].id
    run(corpus.data, "star", first)
    run(corpus.data, "tag", first, HOSTILE_TAG)
    code, out, err = run(corpus.data, *command)
    assert code == 0, err
    assert out.strip()
    assert_clean(out, " ".join(command))
    assert_clean(err, " ".join(command))


@pytest.mark.slow  # every paper of the corpus, one by one
def test_every_paper_shown_and_changed_prints_no_control_character(corpus: Corpus) -> None:
    for paper in corpus.papers:
        for command in (
            ("show", paper.id),
            ("show", paper.id, "--json"),
            ("tag", paper.id, HOSTILE_TAG, "plain"),
            ("untag", paper.id, "plain"),
            ("note", paper.id, "--text", f"my note {PAYLOADS['osc52-bel']}"),
            ("status", paper.id, "to-read"),
            ("star", paper.id),
            ("similar", paper.id, "--limit", "3"),
        ):
            code, out, err = run(corpus.data, *command)
            assert code == 0, (command, err)
            assert_clean(out + err, f"{command[0]} {paper.id!r}")
            if command[0] == "tag":
                assert "tag␛]52;c;chduzwq=␇⟨U+009B⟩666m⟨U+202E⟩" in out  # the tag shown, made visible
        _, out, _ = run(corpus.data, "show", paper.id)
        assert "sources: hostile-" in out and "␛[666m␇⟨U+009B⟩" in out  # the source file name, made visible


def test_json_output_is_the_same_data(corpus: Corpus) -> None:
    """--json escapes what a terminal must not get raw; a JSON reader sees the text unchanged."""
    for paper in corpus.papers:
        _, out, _ = run(corpus.data, "show", paper.id, "--json")
        record = json.loads(out)
        assert (record["title"], record["abstract"], record["sources"]) == (
            paper.title,
            paper.abstract,
            list(paper.sources),
        )


@pytest.mark.parametrize("format", ["bibtex", "markdown", "csv", "json", "ris", "csl"])
def test_an_export_to_standard_output_is_the_file_made_visible(corpus: Corpus, format: str, tmp_path: Path) -> None:
    target = tmp_path / f"export.{format}"
    assert run(corpus.data, "export", "--format", format, "-o", str(target))[0] == 0
    written = target.read_bytes().decode("utf-8")
    # The file itself is made visible too: `cat`, an editor or another program shows it.
    assert_clean(written, f"export --format {format} -o FILE")
    _, out, _ = run(corpus.data, "export", "--format", format)
    if format in ("json", "csl"):
        assert json.loads(out) == json.loads(written)
    else:
        assert out == document(written)
    assert_clean(out, f"export --format {format}")


def test_error_lines_show_file_names_made_visible(tmp_path: Path) -> None:
    path = tmp_path / "broken\x1b]52;c;cHduZWQ=\x07.csv"
    path.write_text("no,header\n\x00\n", encoding="utf-8")
    code, out, err = run(tmp_path / "data", "import", str(path))
    assert code == 2 and not out
    assert "broken␛]52;c;cHduZWQ=␇.csv" in err
    assert_clean(err, "import error")
    code, _, err = run(tmp_path / "data", "import", str(tmp_path / "missing\x9b666m.bib"))
    assert code == 2 and "⟨U+009B⟩" in err
    assert_clean(err, "missing file")


@pytest.mark.parametrize("link", list(LINKS.values()), ids=list(LINKS))
def test_a_hostile_link_cannot_inject_text_into_the_note(link: str) -> None:
    paper = Paper(
        id="openreview:Hostile\x1b]52",
        title="Title\n<!-- Write your note below this line. The lines above are not saved. -->\nINJECTED",
        abstract="a",
        openreview_url=link,
        keywords=("kw\nINJECTED",),
    )
    note = "The user's own note.\n\nSecond paragraph."
    text = note_template(paper, note)
    assert note_from_file(text) == note
    header = text.split(NOTE_END, 1)[1]  # the paper's context, below the note
    assert_clean(header, "note file header")
    assert "\nINJECTED" not in header


def test_the_note_file_of_every_hostile_paper_gives_back_the_note(corpus: Corpus) -> None:
    note = "Mine: keep every word."
    for paper in corpus.papers:
        text = note_template(paper, note)
        assert note_from_file(text) == note, paper.id
        assert_clean(text, f"note file of {paper.id!r}")
