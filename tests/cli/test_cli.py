"""The command line: every subcommand, --json shapes, ids, errors, and every real data file."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import SAFETY_NAME, SHARED_DATA, fixture, run

SAFETY = fixture(SAFETY_NAME)


def _shared_data_files() -> list[Path]:
    return sorted(p for p in SHARED_DATA.iterdir() if p.suffix != ".md")


@pytest.mark.data
def test_the_shared_real_data_is_there() -> None:
    """The tests marked ``data`` read the real paper lists ($PAPERDECK_SHARED, default ../shared);
    CI lays them beside the clone."""
    assert len(_shared_data_files()) >= 15


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def store_dir(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> str:
    data = str(tmp_path / "data")
    run(capsys, "import", *map(str, seed_files), "--data-dir", data)
    return data


def test_import_reports_counts_and_is_idempotent(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    first = run_json(capsys, "import", *map(str, seed_files), "--data-dir", data)
    assert isinstance(first, dict)
    assert (first["new"], first["updated"], first["unchanged"], first["papers"]) == (37, 0, 0, 37)
    again = run_json(capsys, "import", *map(str, seed_files), "--data-dir", data)
    assert isinstance(again, dict)
    assert (again["new"], again["updated"], again["unchanged"]) == (0, 0, 37)
    code, out, _ = run(capsys, "import", str(seed_files[0]), "--data-dir", data)
    assert code == 0 and "0 new, 0 updated, 19 unchanged, 0 skipped" in out


def test_search_list_show_and_stats(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    found = run_json(capsys, "search", "REAP", "--limit", "3", "--data-dir", store_dir)
    assert isinstance(found, list) and found[0]["title"].startswith("REAP")
    for key in ("id", "title", "authors", "decision", "sources", "starred", "note"):
        assert key in found[0]
    listed = run_json(capsys, "list", "--data-dir", store_dir)
    assert isinstance(listed, list) and len(listed) == 37
    shown = run_json(capsys, "show", found[0]["id"], "--data-dir", store_dir)
    assert isinstance(shown, dict) and shown["id"] == found[0]["id"]
    stats = run_json(capsys, "stats", "--data-dir", store_dir)
    assert isinstance(stats, dict) and stats["papers"] == 37 and stats["by_decision"] == {"unknown": 37}


def test_search_takes_the_filter_bars_query_language(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "list", "--limit", "1", "--data-dir", store_dir)
    assert isinstance(first, list)
    run(capsys, "star", first[0]["id"], "--data-dir", store_dir)
    starred = run_json(capsys, "search", "is:starred", "--data-dir", store_dir)
    assert isinstance(starred, list) and [p["id"] for p in starred] == [first[0]["id"]]
    ranked_and_filtered = run_json(capsys, "search", "expert -is:starred", "--limit", "0", "--data-dir", store_dir)
    assert isinstance(ranked_and_filtered, list) and ranked_and_filtered
    assert first[0]["id"] not in {p["id"] for p in ranked_and_filtered}
    code, _, err = run(capsys, "search", "rating>=", "--data-dir", store_dir)
    assert code == 2 and err.startswith("paperdeck: query 'rating>='") and "\n" not in err.strip()


def test_a_reversed_range_is_refused_with_the_range_the_right_way_round(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rating:8..3`` selects nothing as typed: one line says so and names ``rating:3..8``, as
    for any malformed term; nothing is printed on standard output."""
    code, out, err = run(capsys, "search", "rating:8..3", "--data-dir", store_dir)
    assert (code, out) == (2, "") and err.strip() == (
        "paperdeck: query 'rating:8..3': try rating:3..8 — a range goes from low to high"
    )
    code, out, err = run(capsys, "export", "year:2026..2020", "--format", "csv", "--data-dir", store_dir)
    assert (code, out) == (2, "") and "try year:2020..2026" in err and len(err.strip().splitlines()) == 1


def test_a_term_beginning_with_a_minus_is_a_query_word_not_an_option(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``paperdeck search -is:starred expert`` is the filter bar's query, as if quoted: no ``--``
    needed; a note or a query word beginning with ``-`` likewise; an unknown ``--option`` is
    still refused."""
    first = run_json(capsys, "list", "--limit", "1", "--data-dir", store_dir)
    assert isinstance(first, list)
    paper_id = first[0]["id"]
    run(capsys, "star", paper_id, "--data-dir", store_dir)
    quoted = run_json(capsys, "search", "expert -is:starred", "--limit", "0", "--data-dir", store_dir)
    given_apart = run_json(capsys, "search", "-is:starred", "expert", "--limit", "0", "--data-dir", store_dir)
    assert isinstance(given_apart, list) and paper_id not in {p["id"] for p in given_apart}
    assert given_apart == run_json(capsys, "search", "-is:starred expert", "--limit=0", "--data-dir", store_dir)
    assert {p["id"] for p in given_apart} == {p["id"] for p in quoted}
    given = ("search", "--limit", "0", "--json", "--data-dir", store_dir, "--", "-is:starred", "expert")
    code, out, _ = run(capsys, *given)
    assert code == 0 and json.loads(out) == given_apart  # as before: a `--` given is kept
    for text in ("-1 on the baseline", "-dash"):
        noted = run_json(capsys, "note", paper_id, "--text", text, "--data-dir", store_dir)
        assert isinstance(noted, dict) and noted["note"] == text
    with pytest.raises(SystemExit) as refused:
        run(capsys, "search", "expert", "--bogus", "--data-dir", store_dir)
    assert refused.value.code == 2 and "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_star_unstar_note_and_starred_list(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "list", "--limit", "1", "--data-dir", store_dir)
    assert isinstance(first, list)
    paper_id = first[0]["id"]
    code, out, _ = run(capsys, "star", paper_id, "--data-dir", store_dir)
    assert code == 0 and out.startswith(f"starred {paper_id}")
    starred = run_json(capsys, "list", "--starred", "--data-dir", store_dir)
    assert isinstance(starred, list) and [p["id"] for p in starred] == [paper_id]
    noted = run_json(capsys, "note", paper_id, "--text", "from the CLI", "--data-dir", store_dir)
    assert isinstance(noted, dict) and noted["note"] == "from the CLI" and noted["starred"] is True
    run(capsys, "unstar", paper_id, "--data-dir", store_dir)
    assert run_json(capsys, "list", "--starred", "--data-dir", store_dir) == []
    code, out, _ = run(capsys, "note", paper_id, "--text", "", "--data-dir", store_dir)
    assert code == 0 and out.startswith("deleted the note")


def test_note_from_standard_input(store_dir: str) -> None:
    paperdeck = Path(sys.executable).parent / "paperdeck"
    listed = subprocess.run(
        [paperdeck, "list", "--limit", "1", "--json", "--data-dir", store_dir],
        capture_output=True,
        text=True,
        check=True,
    )
    paper_id = json.loads(listed.stdout)[0]["id"]
    subprocess.run(
        [paperdeck, "note", paper_id, "--data-dir", store_dir], input="line one\nline two\n", text=True, check=True
    )
    shown = subprocess.run(
        [paperdeck, "show", paper_id, "--json", "--data-dir", store_dir], capture_output=True, text=True, check=True
    )
    assert json.loads(shown.stdout)["note"] == "line one\nline two\n"


def test_unknown_id_and_bad_file_are_one_line_errors(
    store_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "show", "nope", "--data-dir", store_dir)
    assert code != 0 and out == "" and err.count("\n") == 1 and err.startswith("paperdeck: no paper with id 'nope'")
    bad = tmp_path / "bad.json"
    bad.write_text('[{"title": "x", ', "utf-8")
    code, _, err = run(capsys, "import", str(bad), "--data-dir", store_dir)
    assert code != 0 and err.count("\n") == 1 and str(bad) in err and "Traceback" not in err


def test_bare_openreview_id_and_old_alias_both_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    run(capsys, "import", str(SAFETY), "--data-dir", data)
    listed = run_json(capsys, "list", "--limit", "1", "--data-dir", data)
    assert isinstance(listed, list)
    forum_id = listed[0]["openreview_id"]
    shown = run_json(capsys, "show", forum_id, "--data-dir", data)
    assert isinstance(shown, dict) and shown["id"] == f"openreview:{forum_id}"
    assert shown["authors"] and shown["decision"] in ("poster", "oral", "accept-conditional")


@pytest.mark.slow
@pytest.mark.data
def test_every_shared_data_file_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for number, path in enumerate(_shared_data_files()):
        code, out, err = run(capsys, "import", str(path), "--json", "--data-dir", str(tmp_path / f"data{number}"))
        if path.name == "arxiv_atom_2025-11_empty-result.xml":  # the query found nothing: nothing to import
            assert code == 2 and out == "" and err.count("\n") == 1, (path.name, err)
            assert "(the query found 0 results); nothing was imported" in err and str(path) in err
            assert not (tmp_path / f"data{number}").exists()  # refused: no store made
            continue
        assert code == 0, (path.name, err)
        summary = json.loads(out)
        # a file of reviews alone says so in its entry (its notes), not in a notice
        assert summary["papers"] > 0 or summary["notices"] or summary["files"][0]["reviews"], path.name


def test_search_and_export_take_like_terms(store_dir: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "search", "like:starred", "--data-dir", store_dir)
    assert code == 1 and err.strip() == "paperdeck: like:starred ranks by your starred papers: star some first"
    code, _, err = run(capsys, "search", "like:nope", "--data-dir", store_dir)
    assert code == 2 and "no such paper" in err and "Traceback" not in err
    first = run_json(capsys, "list", "--limit", "1", "--data-dir", store_dir)
    assert isinstance(first, list)
    paper_id = first[0]["id"]
    ranked = run_json(capsys, "search", f"like:{paper_id}", "--limit", "3", "--data-dir", store_dir)
    assert isinstance(ranked, list) and paper_id not in {p["id"] for p in ranked} and len(ranked) == 3
    run(capsys, "star", paper_id, "--data-dir", store_dir)
    out = tmp_path / "like.json"
    code, _, _ = run(capsys, "export", "like:starred", "--format", "json", "-o", str(out), "--data-dir", store_dir)
    exported = json.loads(out.read_text())
    assert code == 0 and len(exported) == 36 and paper_id not in {p["id"] for p in exported}


def test_export_takes_short_format_names(store_dir: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "list.txt"
    code, _, _ = run(capsys, "export", "--format", "md", "-o", str(out), "--data-dir", store_dir)
    assert code == 0 and out.read_text().startswith("#")
    code, _, _ = run(capsys, "export", "--format", "BIB", "-o", str(out), "--data-dir", store_dir)
    assert code == 0 and out.read_text().lstrip().startswith("@")


def test_text_that_is_not_utf8_is_one_line_and_changes_nothing(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A note, a tag or a query holding bytes that are not UTF-8 (Python keeps them as lone
    surrogates): one line naming the argument and the byte, exit status 2, the store as it was."""
    import io

    paper_id = run_json(capsys, "list", "--limit", "1", "--data-dir", store_dir)[0]["id"]  # type: ignore[index]
    user = Path(store_dir) / "user"
    before = sorted((path.name, path.read_bytes()) for path in user.iterdir()) if user.is_dir() else []
    for args, said in (
        (("note", paper_id, "--text", "bad \udcff"), "the --text argument is not valid UTF-8 (byte 0xff)"),
        (("tag", paper_id, "t\udcffag"), "the tags argument is not valid UTF-8 (byte 0xff)"),
        (("search", "\udcff"), "the query argument is not valid UTF-8 (byte 0xff)"),
    ):
        code, out, err = run(capsys, *args, "--data-dir", store_dir)
        assert code == 2 and out == "" and said in err and len(err.strip().splitlines()) == 1, err
    stdin = io.TextIOWrapper(io.BytesIO(b"bad \xff note"), encoding="utf-8", errors="surrogateescape")
    sys_stdin, sys.stdin = sys.stdin, stdin
    try:
        code, out, err = run(capsys, "note", paper_id, "--data-dir", store_dir)
    finally:
        sys.stdin = sys_stdin
    assert code == 2 and "standard input: not valid UTF-8 text (byte 0xff at byte 4)" in err, err
    after = sorted((path.name, path.read_bytes()) for path in user.iterdir()) if user.is_dir() else []
    assert after == before


def test_show_gives_the_rating_once_and_the_papers_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from paperdeck.model.paper import Paper, Ratings
    from paperdeck.store.store import Store

    data = tmp_path / "data"
    Store(data).import_papers([Paper(id="openreview:Ab12", title="Rated", abstract="An abstract of the paper.",
                                     openreview_id="Ab12", openreview_url="https://openreview.net/forum?id=Ab12",
                                     ratings=Ratings(6.5, 0.5, 6, 7, 4))])  # fmt: skip
    code, out, err = run(capsys, "show", "Ab12", "--data-dir", str(data))
    assert code == 0, err
    assert [line for line in out.splitlines() if "rating" in line] == ["rating: 6.5 (4 reviews)"]
    assert "link: https://openreview.net/forum?id=Ab12" in out.splitlines()


def test_commands_taking_a_paper_id_take_its_openreview_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    run(capsys, "import", str(SAFETY), "--data-dir", data)
    first = run_json(capsys, "list", "--limit", "1", "--data-dir", data)
    assert isinstance(first, list) and first[0]["id"].startswith("openreview:")
    paper_id = first[0]["id"]
    forum = paper_id.removeprefix("openreview:")
    links = (f"https://openreview.net/forum?id={forum}", f"https://openreview.net/pdf?id={forum}&noteId={forum}")
    for link in links:
        shown = run_json(capsys, "show", link, "--data-dir", data)
        assert isinstance(shown, dict) and shown["id"] == paper_id
    code, _, err = run(capsys, "star", links[0], "--data-dir", data)
    assert code == 0, err
    starred = run_json(capsys, "search", "is:starred", "--data-dir", data)
    assert isinstance(starred, list) and [p["id"] for p in starred] == [paper_id]
    similar = run_json(capsys, "similar", links[1], "--data-dir", data)
    assert isinstance(similar, list) and similar and paper_id not in {p["id"] for p in similar}
    liked = run_json(capsys, "search", f"like:{links[0]}", "--limit", "1", "--data-dir", data)
    assert isinstance(liked, list) and len(liked) == 1
    code, _, err = run(capsys, "show", "https://openreview.net/forum?id=NoSuchPaperX", "--data-dir", data)
    assert code != 0 and "no paper with id" in err


def test_search_without_a_match_says_so_on_standard_error(capsys, store_dir):
    code, out, err = run(capsys, "search", "zzqxjv nothing like it", "--data-dir", store_dir)
    assert (code, out) == (0, "")
    assert err.strip() == "No paper matches 'zzqxjv nothing like it'."
    code, out, err = run(capsys, "search", "zzqxjv", "--starred", "--data-dir", store_dir)
    assert err.strip() == "No paper matches 'zzqxjv' among the starred papers."
    assert run_json(capsys, "search", "zzqxjv", "--data-dir", store_dir) == []


def test_search_rows_line_up_for_ids_of_any_length(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``title:icml-2019:…`` id is longer than an OpenReview one: the ids are padded to the
    widest shown, so the decisions and titles start in one column."""
    from paperdeck.model.paper import Paper
    from paperdeck.store.store import Store

    data = tmp_path / "data"
    Store(data).import_papers(
        [
            Paper(id="openreview:AbCdEfGh12", title="Short id paper", abstract="a", decision="oral"),
            Paper(id="title:icml-2019:fb55804305f1ab", title="Long id paper", abstract="b", decision="poster"),
        ]
    )
    code, out, _ = run(capsys, "search", "paper", "--data-dir", str(data))
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == 2, rows
    decisions = {row.index("oral") if "oral" in row else row.index("poster") for row in rows}
    titles = {row.index("Short") if "Short" in row else row.index("Long") for row in rows}
    assert len(decisions) == 1 and len(titles) == 1, rows


def test_search_rows_line_up_for_decisions_of_any_length(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``accept-conditional`` (ICLR 2026's, 18 characters) is wider than the decision column was
    (13): the tester saw it push its title right. The column is as wide as the longest shown."""
    from paperdeck.model.paper import Paper
    from paperdeck.store.store import Store

    data = tmp_path / "data"
    Store(data).import_papers(
        [
            Paper(id="openreview:Us00XndbVi", title="Conditional paper", abstract="a", decision="accept-conditional"),
            Paper(id="openreview:AbCdEfGh12", title="Poster paper", abstract="b", decision="poster"),
        ]
    )
    code, out, _ = run(capsys, "search", "paper", "--data-dir", str(data))
    rows = out.splitlines()
    assert code == 0 and len(rows) == 2, rows
    titles = {row.index("Conditional") if "Conditional" in row else row.index("Poster paper") for row in rows}
    assert len(titles) == 1, rows
    assert "accept-conditional Conditional paper" in out


def test_a_row_alone_cuts_a_decision_wider_than_its_column(tmp_path: Path) -> None:
    from paperdeck.cli.output import paper_row
    from paperdeck.model.paper import Paper
    from paperdeck.store.store import Store

    paper = Paper(id="openreview:Us00XndbVi", title="T", abstract="a", decision="accept-conditional")
    assert "accept-condi… T" in paper_row(Store(tmp_path / "data"), paper)  # 13 cells, then the title


def test_an_empty_standard_input_never_deletes_a_note(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A note is deleted only when asked (``--delete``, ``--text ""``): an empty pipe (a script's,
    ``</dev/null``) is refused in one line and the note kept; on a terminal nothing is read, the
    note is shown with how to change it (the tester's ctrl+d deleted it)."""
    first = run_json(capsys, "list", "--limit", "1", "--data-dir", store_dir)
    assert isinstance(first, list)
    paper_id = first[0]["id"]
    run(capsys, "note", paper_id, "--text", "keep me", "--data-dir", store_dir)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stdin, code_wanted, said in (
        (io.StringIO(""), 1, "standard input was empty: the note of"),  # nothing to do
        (io.StringIO("  \n"), 1, "standard input was empty"),
        (Terminal(""), 0, "note of"),
    ):
        sys_stdin, sys.stdin = sys.stdin, stdin
        try:
            code, out, err = run(capsys, "note", paper_id, "--data-dir", store_dir)
        finally:
            sys.stdin = sys_stdin
        assert code == code_wanted and said in (out + err), (out, err)
        shown = run_json(capsys, "show", paper_id, "--data-dir", store_dir)
        assert isinstance(shown, dict) and shown["note"] == "keep me"
    assert "keep me" in out and "--delete" in out
    code, out, _ = run(capsys, "note", paper_id, "--delete", "--data-dir", store_dir)
    assert code == 0 and out.startswith("deleted the note")
    shown = run_json(capsys, "show", paper_id, "--data-dir", store_dir)
    assert isinstance(shown, dict) and not shown["note"]


def test_search_says_how_the_query_was_read_on_standard_error(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown field no field is close to is searched as text, as in the filter bar, and said
    in one line on standard error (the app's counts say it); stdout is the rows. A misspelt field
    (``decison:oral``, ``ratng>=6``: the fifteenth round's tester saw exit 0 and word matches)
    runs nothing: one line, exit 2, as the bar refuses it."""
    code, out, err = run(capsys, "search", "foo:bar", "--data-dir", store_dir)
    assert code == 0 and "Traceback" not in err
    assert "paperdeck: query 'foo:bar': unknown field foo: fields are title:" in err
    for typed, said in (("decison:oral", "unknown field decison: did you mean decision:?"),
                        ("ratng>=6", "unknown field ratng>=: did you mean rating>=?")):  # fmt: skip
        code, out, err = run(capsys, "search", typed, "--data-dir", store_dir)
        assert (code, out) == (2, "") and err.splitlines() == [f"paperdeck: query {typed!r}: {said}"], err
    code, out, err = run(capsys, "search", "diffusion", "--json", "--data-dir", store_dir)
    assert code == 0 and err == "" and json.loads(out)  # a plain query: nothing said
