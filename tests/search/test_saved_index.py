"""The search index saved beside the catalogue, and reading only what a command touches: a saved
index ranks exactly as a fresh build; a stale, truncated, foreign or hand-edited one is detected,
said once and rebuilt, never used; two processes rebuilding at once leave a whole file; ``show``,
``star`` and ``search`` read the papers they print, not the whole catalogue."""

from __future__ import annotations

import subprocess
import sys
from array import array
from pathlib import Path

import orjson
import pytest
from paperdeck.cli.main import main
from paperdeck.cli.selecting import select_ids
from paperdeck.model.paper import Paper
from paperdeck.search.index import SearchIndex
from paperdeck.search.index_file import read_sections, write_sections
from paperdeck.search.searcher import INDEX_FILE, OLD_INDEX_FILE, Searcher, build_index
from paperdeck.sources.importer import import_files
from paperdeck.store.catalogue import Catalogue
from paperdeck.store.ids_line import PendingIds
from paperdeck.store.store import Store, catalogue_bytes

QUERIES = ["diffusion", "graph neural", "difusion samplng", "specul decod", "a", "gn", "llm", "protien", "zzzz"]


@pytest.fixture
def seeded(data_dir: Path, seed_files: list[Path]) -> Path:
    store = Store(data_dir)
    import_files(store, seed_files)
    store.set_note(store.paper_ids[3], "compare with the diffusion baseline")
    build_index(store)  # what `paperdeck import` saves
    return data_dir


def _fresh_ranking(data_dir: Path) -> dict[str, list[str]]:
    store = Store(data_dir)
    notes = {pid: r.note for pid, r in store.all_user_data.items() if r.note}
    index = SearchIndex(store.papers, notes)
    return {query: index.search_ids(query) for query in QUERIES}


def test_a_saved_index_ranks_as_a_fresh_build_without_parsing_the_catalogue(seeded: Path) -> None:
    assert (seeded / INDEX_FILE).is_file()
    store = Store(seeded, lazy=True)
    notices: list[str] = []
    index = Searcher(store, notice=notices.append).index.get()
    assert not store.loaded and not notices  # read from the file, not built
    assert {query: index.search_ids(query) for query in QUERIES} == _fresh_ranking(seeded)


def test_the_index_read_stays_current_once_the_catalogue_is_parsed(seeded: Path) -> None:
    """The app takes the index first and parses the catalogue after: the index is not built again."""
    store = Store(seeded, lazy=True)
    searcher = Searcher(store)
    index = searcher.index.get()
    store.load()
    assert searcher.index.built is index


def _resave(path: Path, header: dict[str, object] | None = None, **sections: bytes) -> None:
    """Write the saved index at ``path`` again with ``header``'s entries and ``sections`` changed,
    its CRC made to match."""
    saved_header, saved = read_sections(path)
    kept = {name: saved_header[name] for name in ("version", "stamp", "texts")}
    write_sections(path, kept | (header or {}), {name: bytes(view) for name, view in saved.items()} | sections)


def _rewrite(path: Path, change: str) -> None:
    """Spoil a saved index the way ``change`` says."""
    raw = path.read_bytes()
    if change == "truncated":
        path.write_bytes(raw[: len(raw) // 2])
    elif change == "foreign":
        path.write_bytes(b"PK\x03\x04 not an index at all" + bytes(range(256)))
    elif change == "text":
        path.write_text("hello", encoding="utf-8")
    elif change == "edited":  # a posting moved to another paper, in place
        header, _ = read_sections(path)
        table = {name: (offset, size) for name, _, _, offset, size in header["sections"]}
        end = sum(table["bucket_words1"])
        at = len(raw) - (end + -end % 8) + table["postings"][0]  # the sections end the file
        first = int.from_bytes(raw[at : at + 4], sys.byteorder)
        path.write_bytes(raw[:at] + ((first + 1) % 5).to_bytes(4, sys.byteorder) + raw[at + 4 :])
    elif change == "inconsistent":  # the CRC made to match, the posting lists not adding up
        _, sections = read_sections(path)
        starts = array("q", sections["starts"])
        starts[-1] += 1
        _resave(path, starts=starts.tobytes())
    elif change == "unsorted":  # the CRC made to match, the vocabulary not sorted
        _, sections = read_sections(path)
        vocabulary = str(sections["vocabulary"], "utf-8").split("\n")
        vocabulary[0], vocabulary[1] = vocabulary[1], vocabulary[0]
        _resave(path, vocabulary="\n".join(vocabulary).encode())
    elif change == "ids":  # the CRC made to match, two papers' ids swapped
        _, sections = read_sections(path)
        ids = str(sections["ids"], "utf-8").split("\n")
        ids[0], ids[1] = ids[1], ids[0]
        _resave(path, ids="\n".join(ids).encode())
    elif change == "lines":  # the CRC made to match, two titles on one line
        _, sections = read_sections(path)
        _resave(path, titles=bytes(sections["titles"]).replace(b"\n", b" ", 1))
    elif change == "version":
        _resave(path, {"version": 999})
    elif change == "byte order":  # as written on a machine of the other byte order
        mark = f'"byteorder": "{sys.byteorder}"'.encode()
        other = f'"byteorder": "{"big" if sys.byteorder == "little" else "little"}"'.encode()
        assert mark in raw
        path.write_bytes(raw.replace(mark, other.ljust(len(mark)) if len(other) <= len(mark) else other))
    else:  # "stale": made for another catalogue file
        header, _ = read_sections(path)
        _resave(path, {"stamp": [n + 1 for n in header["stamp"]], "texts": "0" * 40})


@pytest.mark.parametrize("ahead", [False, True], ids=["read", "read ahead"])
@pytest.mark.parametrize(
    "change",
    ["stale", "truncated", "foreign", "text", "edited", "inconsistent", "unsorted", "ids", "version", "byte order"],
)
def test_a_bad_saved_index_is_said_once_rebuilt_and_never_used(seeded: Path, change: str, ahead: bool) -> None:
    path = seeded / INDEX_FILE
    expected = _fresh_ranking(seeded)
    _rewrite(path, change)
    notices: list[str] = []
    store = Store(seeded, lazy=True)
    searcher = Searcher(store, notice=notices.append)
    if ahead:
        searcher.read_ahead()
    index = searcher.index.get()
    assert len(notices) == 1 and str(path) in notices[0] and "built again" in notices[0]
    assert {query: index.search_ids(query) for query in QUERIES} == expected
    # Replaced by the index built: the next start reads it, silently.
    again: list[str] = []
    store = Store(seeded, lazy=True)
    index = Searcher(store, notice=again.append).index.get()
    assert not again and not store.loaded
    assert {query: index.search_ids(query) for query in QUERIES} == expected


def test_an_index_read_ahead_is_the_one_the_build_takes(seeded: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What :meth:`Searcher.read_ahead` read is what the index is made of: the file is not read again."""
    from paperdeck.search import index_file

    store = Store(seeded, lazy=True)
    searcher = Searcher(store)
    searcher.read_ahead()
    ahead = searcher._read_ahead
    assert ahead is not None
    ahead._thread.join()

    def read_again(path: Path) -> object:
        raise AssertionError(f"{path} read again")

    monkeypatch.setattr(index_file, "read_sections", read_again)
    monkeypatch.setattr("paperdeck.search.index.read_sections", read_again)
    index = searcher.index.get()
    assert not store.loaded
    assert {query: index.search_ids(query) for query in QUERIES} == _fresh_ranking(seeded)


@pytest.mark.parametrize("change", ["stale", "edited", "truncated"])
def test_an_index_file_replaced_after_it_was_read_ahead_is_read_again(seeded: Path, change: str) -> None:
    """A file put in the place of (or edited over) the one read ahead is the one the build reads:
    spoilt, it is said and rebuilt, not taken for the sound one read before."""
    path = seeded / INDEX_FILE
    expected = _fresh_ranking(seeded)
    notices: list[str] = []
    store = Store(seeded, lazy=True)
    searcher = Searcher(store, notice=notices.append)
    searcher.read_ahead()
    ahead = searcher._read_ahead
    assert ahead is not None
    ahead._thread.join()
    _rewrite(path, change)
    index = searcher.index.get()
    assert len(notices) == 1 and str(path) in notices[0]
    assert {query: index.search_ids(query) for query in QUERIES} == expected


def test_the_search_command_reads_the_index_once_ahead_of_its_imports(
    seeded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``paperdeck search`` starts reading its store's saved index before it parses its arguments;
    the search takes that read (the file is read once), and one the command did not take is let
    go when it is done: wherever ``--data-dir`` is given, and with a guess that misses."""
    from paperdeck.search import index_file

    reads: list[Path] = []
    read_sections_now = index_file.read_sections

    def counted(path: Path) -> tuple[dict[str, object], dict[str, memoryview]]:
        reads.append(path)
        return read_sections_now(path)

    monkeypatch.setattr(index_file, "read_sections", counted)
    monkeypatch.setattr("paperdeck.search.index.read_sections", counted)
    monkeypatch.delenv("PAPERDECK_DATA_DIR", raising=False)
    path = seeded / INDEX_FILE
    taken: list[object] = []
    take = index_file.take_read_ahead

    def taking(given: Path) -> object:
        taken.append(found := take(given))
        return found

    monkeypatch.setattr("paperdeck.search.searcher.take_read_ahead", taking)
    expected = main(["search", "diffusion", "--data-dir", str(seeded)]), capsys.readouterr().out
    assert reads == [path] and taken and taken[0] is not None
    for args in (["--data-dir", str(seeded), "search", "diffusion"], ["search", f"--data-dir={seeded}", "diffusion"]):
        reads.clear()
        assert (main(args), capsys.readouterr().out) == expected
        assert reads == [path] and not index_file._started
    # An abbreviated option: the default store is read ahead, not taken, and the search reads its own.
    monkeypatch.setenv("PAPERDECK_DATA_DIR", str(seeded.parent / "elsewhere"))
    reads.clear()
    assert (main(["search", "diffusion", "--data", str(seeded)]), capsys.readouterr().out) == expected
    assert reads.count(path) == 1 and set(reads) <= {path, seeded.parent / "elsewhere" / INDEX_FILE}
    assert not index_file._started


def test_the_cli_says_a_bad_index_once_on_standard_error(seeded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _rewrite(seeded / INDEX_FILE, "truncated")
    assert main(["search", "diffusion", "--data-dir", str(seeded)]) == 0
    err = capsys.readouterr().err
    assert err.count("saved search index was not used") == 1


def test_two_processes_rebuilding_at_once_leave_a_whole_index(seeded: Path) -> None:
    path = seeded / INDEX_FILE
    path.unlink()
    script = (
        "import sys; from paperdeck.store.store import Store; from paperdeck.search.searcher import build_index; "
        "build_index(Store(sys.argv[1], lazy=True))"
    )
    runs = [subprocess.Popen([sys.executable, "-c", script, str(seeded)]) for _ in range(2)]
    assert [run.wait(60) for run in runs] == [0, 0]
    notices: list[str] = []
    store = Store(seeded, lazy=True)
    index = Searcher(store, notice=notices.append).index.get()
    assert not notices and not store.loaded
    assert {query: index.search_ids(query) for query in QUERIES} == _fresh_ranking(seeded)
    assert not list(seeded.glob(".paperdeck-*.tmp"))


def test_the_catalogue_is_written_as_orjson_writes_it_and_each_span_holds_its_paper(seeded: Path) -> None:
    store = Store(seeded)
    papers = {paper.id: paper for paper in store.papers}
    payload, spans = catalogue_bytes(papers, {"abs:old": store.paper_ids[0]})
    from paperdeck.store.user_data import doc_id_for

    whole = {
        "meta": {"1": {"app": "paperdeck", "schema": 2}},
        "papers": {str(doc_id_for(pid)): paper.to_dict() for pid, paper in papers.items()},
        "aliases": {"1": {"abs:old": store.paper_ids[0]}},
    }
    assert payload == orjson.dumps(whole, option=orjson.OPT_NON_STR_KEYS)
    for pid, (start, end) in spans.items():
        assert Paper.from_dict(orjson.loads(payload[start:end])) == papers[pid]


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Catalogue) -> None:
        raise AssertionError("the whole catalogue was parsed")

    monkeypatch.setattr(Catalogue, "_read", refuse)


def test_show_star_note_status_and_tag_read_only_the_paper_they_touch(
    seeded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = Store(seeded).papers[5]
    _no_parsing(monkeypatch)
    common = ["--data-dir", str(seeded)]
    assert main(["show", paper.id, *common]) == 0
    assert capsys.readouterr().out.startswith(paper.title.split("\n")[0][:20])
    assert main(["star", paper.id, *common]) == 0
    assert main(["note", paper.id, "--text", "read it", *common]) == 0
    assert main(["status", paper.id, "read", *common]) == 0
    assert main(["tag", paper.id, "later", *common]) == 0
    assert main(["show", "no-such-paper", *common]) == 2  # an unknown id: said, still without parsing
    monkeypatch.undo()
    record = Store(seeded).user_data(paper.id)
    assert record.starred and record.note == "read it" and record.status == "read" and record.tags == ("later",)


def test_search_ranks_from_the_saved_index_and_reads_only_the_papers_it_prints(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _fresh_ranking(seeded)["diffusion"]
    _no_parsing(monkeypatch)
    store = Store(seeded, lazy=True)
    assert select_ids(store, "diffusion") == expected
    assert [p.id for pid in expected[:5] if (p := store.paper(pid)) is not None] == expected[:5]
    assert not store.loaded


def test_an_alias_resolves_without_parsing(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(data_dir)
    abstract = "Message passing on graphs."
    store.import_papers([Paper(id="abs:0000000000000001", title="Graph networks", abstract=abstract)])
    store.import_papers([Paper(id="openreview:G1", title="Graph networks", abstract=abstract)])
    assert store.resolve("abs:0000000000000001") == "openreview:G1"
    _no_parsing(monkeypatch)
    lazy = Store(data_dir, lazy=True)
    found = lazy.paper("abs:0000000000000001")
    assert found is not None and found.id == "openreview:G1" and not lazy.loaded


def test_a_catalogue_changed_since_the_rows_were_read_is_parsed_whole(seeded: Path) -> None:
    """Another process's import replaced the catalogue after this store opened: a paper is not
    read from spans of the old file, it comes from the new one."""
    lazy = Store(seeded, lazy=True)
    pid = lazy.paper_ids[2]
    other = Store(seeded)
    other.import_papers([Paper(id=pid, title="A title changed meanwhile", abstract=other.paper(pid).abstract)])  # type: ignore[union-attr]
    found = lazy.paper(pid)
    assert found is not None and found.title == "A title changed meanwhile"


def test_a_rows_cache_written_again_still_says_where_each_paper_lies(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deleted (or stale) rows cache is written again when the store opens, with the spans."""
    (seeded / "rows-cache.json").unlink()
    Store(seeded, lazy=True)
    pid = Store(seeded).paper_ids[4]
    _no_parsing(monkeypatch)
    lazy = Store(seeded, lazy=True)
    found = lazy.paper(pid)
    assert found is not None and found.id == pid and not lazy.loaded


def test_an_index_saved_before_the_ratings_changed_is_stamped_anew_not_rebuilt(
    seeded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catalogue rewritten for what the index does not hold (a reviews import's ratings): the
    saved index is taken as it is, silently, and saved with the new stamp."""
    from paperdeck.search.index import SearchIndex

    path = seeded / INDEX_FILE
    expected = _fresh_ranking(seeded)
    header, _ = read_sections(path)
    _resave(path, {"stamp": [n + 1 for n in header["stamp"]]})  # another stamp, the same texts
    built: list[int] = []
    real_init = SearchIndex.__init__

    def counted(self: SearchIndex, *args: object) -> None:
        built.append(1)
        real_init(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchIndex, "__init__", counted)
    notices: list[str] = []
    index = Searcher(Store(seeded, lazy=True), notice=notices.append).index.get()
    assert not notices and not built
    assert {query: index.search_ids(query) for query in QUERIES} == expected
    store = Store(seeded, lazy=True)
    Searcher(store).index.get()
    assert not store.loaded  # stamped anew: the next start reads it without parsing


def test_an_older_paperdeck_s_saved_index_is_removed_when_the_index_is_saved(seeded: Path) -> None:
    (seeded / INDEX_FILE).unlink()
    (seeded / OLD_INDEX_FILE).write_bytes(b"PK\x03\x04 an older paperdeck's index")
    build_index(Store(seeded, lazy=True))
    assert (seeded / INDEX_FILE).is_file() and not (seeded / OLD_INDEX_FILE).exists()


def test_searching_words_from_the_saved_index_imports_no_numpy(seeded: Path) -> None:
    """numpy's import alone takes about as long as fzf's whole run: ``paperdeck search WORDS``
    ranks without it (field filters may still use it)."""
    script = (
        "import sys; from paperdeck.cli.main import main; "
        "code = main(['search', 'difusion samplng', '--data-dir', sys.argv[1]]); "
        "code = code or main(['search', 'gn', '--data-dir', sys.argv[1]]); "
        "print('numpy' in sys.modules, code)"
    )
    done = subprocess.run([sys.executable, "-c", script, str(seeded)], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == "False 0", done.stdout + done.stderr


def test_the_one_letter_rankings_saved_with_the_index_are_a_fresh_build_s(
    data_dir: Path, seed_files: list[Path]
) -> None:
    """The app warms the one-letter queries at start; saved with the index, they are read, not
    ranked again, while there are no notes, and ranked again once there is one."""
    from paperdeck.search.index import SAVED_RANKINGS

    store = Store(data_dir)
    import_files(store, seed_files)
    build_index(store)
    fresh = SearchIndex(store.papers)
    saved = Searcher(Store(data_dir, lazy=True)).index.get()
    saved.warm(SAVED_RANKINGS)
    assert saved._saved_rankings and not saved._warm[1]  # type: ignore[index]  # nothing ranked again
    for query in [*SAVED_RANKINGS, "a b", "A"]:
        assert saved.search_ids(query) == fresh.search_ids(query), query
    pid = store.paper_ids[7]
    assert pid not in saved.search_ids("q")
    saved.set_note(pid, "quokka")
    fresh.set_note(pid, "quokka")
    assert pid in saved.search_ids("q") and saved.search_ids("q") == fresh.search_ids("q")


def test_the_two_letter_rankings_saved_are_those_of_a_tenth_of_the_papers(
    data_dir: Path, seed_files: list[Path]
) -> None:
    """The two-letter queries that rank a tenth of the papers or more are saved with the index too
    (read, not ranked again, while there are no notes); the others are ranked as before."""
    import string
    from itertools import product

    from paperdeck.search.index import SAVED_PAIR_SHARE

    store = Store(data_dir)
    import_files(store, seed_files)
    build_index(store)
    fresh = SearchIndex(store.papers)
    saved = Searcher(Store(data_dir, lazy=True)).index.get()
    pairs = ["".join(pair) for pair in product(string.ascii_lowercase + string.digits, repeat=2)]
    heavy = [pair for pair in pairs if len(fresh.search_ids(pair)) * SAVED_PAIR_SHARE >= len(store.paper_ids)]
    assert heavy and len(heavy) < len(pairs)
    assert set(saved._saved_rankings) == {(query,) for query in [*string.ascii_lowercase, *string.digits, *heavy]}
    for query in [*heavy, "zq", "RE", "re l", "re "]:
        assert saved.search_ids(query) == fresh.search_ids(query), query
    assert saved.notes_hide_saved == ()  # no notes: the saved rankings hold
    pid = store.paper_ids[7]
    saved.set_note(pid, heavy[0] + "x")
    fresh.set_note(pid, heavy[0] + "x")
    assert saved.search_ids(heavy[0]) == fresh.search_ids(heavy[0]) and pid in saved.search_ids(heavy[0])
    # With notes, the app warms them (after the one-letter queries, whose results are kept).
    assert saved.notes_hide_saved == tuple(heavy)
    saved.warm(string.ascii_lowercase)
    saved.warm(saved.notes_hide_saved)
    assert saved._warm is not None and set(saved._warm[1]) == {(q,) for q in [*string.ascii_lowercase, *heavy]}
    for query in [*heavy, "a", "q"]:
        assert saved.search_ids(query) == fresh.search_ids(query), query


def test_warm_keeps_no_matches_and_makes_no_typo_group(seeded: Path) -> None:
    index = Searcher(Store(seeded, lazy=True)).index.get()
    index.set_note(index.paper_ids([0])[0], "a note")  # the saved rankings do not hold: ranked here
    assert not index._vocabulary.typo_groups
    index.warm("abc")
    assert index._warm is not None and len(index._warm[1]) == 3
    assert not index._matches and not index._bounded_matches  # one query's matches held at a time
    # The typo buckets' words are made a length at a time, by the queries that need them.
    assert not index._vocabulary.typo_groups


def test_typo_candidates_are_the_bucket_words_of_the_lengths_near_the_word(seeded: Path) -> None:
    """A query's typo candidates are the words of the buckets of its first two letters (at places
    0 and 1) within two letters of its length, shortest first, ties in vocabulary order; only the
    groups of those lengths are made, once."""
    vocabulary = Searcher(Store(seeded, lazy=True)).index.get()._vocabulary
    words = vocabulary.words
    queries = ["diffusion", "graph", "protien", "samplng", "zzzz", "éclair", "q9x7", "llms", "ab"]
    for word in queries:
        expected = []
        for place in (0, 1):
            for letter in dict.fromkeys(word[:2]):
                bucket = [w for w in sorted(words, key=len) if len(w) > place and w[place] == letter]
                if bucket:
                    expected.append([w for w in bucket if abs(len(w) - len(word)) <= 2])
        made = set(vocabulary.typo_groups)
        assert vocabulary.typo_candidates(word) == expected, word
        new = set(vocabulary.typo_groups) - made
        assert {length for _, _, length in new} <= set(range(len(word) - 2, len(word) + 3))
        assert vocabulary.typo_candidates(word) == expected  # from the groups kept
    assert any(vocabulary.typo_groups.values())


def test_acronym_positions_are_the_papers_whose_title_initials_hold_the_word(seeded: Path) -> None:
    index = Searcher(Store(seeded, lazy=True)).index.get()
    lines = index._initials.decode().split("\n")  # held as UTF-8
    words = {line[at : at + size] for line in lines[:200] for size in (3, 4) for at in range(len(line) - size + 1)}
    assert len(words) > 100
    for word in [*sorted(words)[:400], "zzz", "qqqqqqqq"]:
        assert index._acronym_positions(word) == [n for n, line in enumerate(lines) if word in line], word


def test_stamping_a_saved_index_anew_copies_its_sections_and_refuses_other_texts(seeded: Path) -> None:
    """:meth:`SearchIndex.restamp`: the sections copied byte for byte (their CRC still holds), only
    the header's stamp changed; a file for other texts, or none, is left alone."""
    path = seeded / INDEX_FILE
    header, _ = read_sections(path)
    size = int.from_bytes(path.read_bytes()[8:12], "little")
    body = path.read_bytes()[12 + size :]
    assert not SearchIndex.restamp(path, [1, 2, 3], header["texts"] + "x")
    assert read_sections(path)[0] == header
    assert SearchIndex.restamp(path, [1, 2, 3], header["texts"])
    again, _ = read_sections(path)  # the CRC checked
    assert again == header | {"stamp": [1, 2, 3]}
    size = int.from_bytes(path.read_bytes()[8:12], "little")
    assert path.read_bytes()[12 + size :] == body
    path.unlink()
    assert not SearchIndex.restamp(path, [1, 2, 3], header["texts"])


class _CrcCount:
    """``zlib`` for :mod:`paperdeck.search.index_file`, the bytes its ``crc32`` reads counted."""

    def __init__(self) -> None:
        import zlib

        self._zlib = zlib
        self.read = 0

    def crc32(self, data: bytes | memoryview, value: int = 0) -> int:
        self.read += len(memoryview(data).cast("B"))
        return self._zlib.crc32(data, value)


@pytest.fixture
def crc_count(monkeypatch: pytest.MonkeyPatch) -> _CrcCount:
    from paperdeck.search import index_file

    counted = _CrcCount()
    monkeypatch.setattr(index_file, "zlib", counted)
    return counted


def test_an_index_read_ahead_to_check_later_ranks_before_its_bytes_are_read(seeded: Path, crc_count: _CrcCount) -> None:
    """The app's read ahead (``check_later``): the first queries rank on the mapped file without
    reading it through for its CRC; :meth:`Searcher.check_saved` then reads every byte, once."""
    size = (seeded / INDEX_FILE).stat().st_size
    notices: list[str] = []
    store = Store(seeded, lazy=True)
    searcher = Searcher(store, notice=notices.append)
    searcher.read_ahead(check_later=True)
    index = searcher.index.get()
    assert {query: index.search_ids(query) for query in QUERIES} == _fresh_ranking(seeded)
    assert searcher.unchecked and crc_count.read == 0 and not store.loaded
    assert searcher.check_saved()
    assert size * 0.9 < crc_count.read <= size  # the sections, through
    assert not searcher.unchecked and searcher.index.built is index and not notices
    read = crc_count.read
    assert searcher.check_saved() and crc_count.read == read  # once


def test_an_index_read_ahead_checked_now_reads_it_through_first(seeded: Path, crc_count: _CrcCount) -> None:
    """Without ``check_later`` (the command line's read ahead) the CRC is checked before the index is made."""
    store = Store(seeded, lazy=True)
    searcher = Searcher(store)
    searcher.read_ahead()
    searcher.index.get()
    assert crc_count.read > 0.9 * (seeded / INDEX_FILE).stat().st_size
    assert not searcher.unchecked


@pytest.mark.parametrize(
    "change",
    [
        "stale", "truncated", "foreign", "text", "edited", "inconsistent", "unsorted", "ids", "version", "byte order",
        "lines",
    ],
)  # fmt: skip
def test_a_bad_saved_index_read_to_check_later_is_said_once_and_rebuilt(seeded: Path, change: str) -> None:
    """A damaged file the read's own checks see is refused at once; one only its CRC tells
    (``edited``: a posting moved to another paper), or what the read left unchecked (the CRC
    made to match: ``lines``, two titles on one line; ``ids``, two papers' ids swapped;
    ``unsorted``, the vocabulary out of order), is found by
    :meth:`Searcher.check_saved`, said once and replaced by the index built, which the next
    start reads silently."""
    path = seeded / INDEX_FILE
    expected = _fresh_ranking(seeded)
    _rewrite(path, change)
    notices: list[str] = []
    store = Store(seeded, lazy=True)
    searcher = Searcher(store, notice=notices.append)
    searcher.read_ahead(check_later=True)
    searcher.index.get()
    later = change in ("edited", "lines", "ids", "unsorted")
    assert len(notices) == (0 if later else 1)
    assert searcher.check_saved() is not later
    assert len(notices) == 1 and str(path) in notices[0] and "built again" in notices[0]
    index = searcher.index.get()
    assert not searcher.unchecked
    assert {query: index.search_ids(query) for query in QUERIES} == expected
    again: list[str] = []
    store = Store(seeded, lazy=True)
    index = Searcher(store, notice=again.append).index.get()
    assert not again and not store.loaded
    assert {query: index.search_ids(query) for query in QUERIES} == expected


def _started_and_checked(data_dir: Path, notices: list[str] | None = None) -> tuple[Searcher, bool]:
    """A start as the app's: the saved index read ahead to check later, its first query ranked,
    then :meth:`Searcher.check_saved`'s answer."""
    store = Store(data_dir, lazy=True)
    searcher = Searcher(store, notice=(notices if notices is not None else []).append)
    searcher.read_ahead(check_later=True)
    searcher.index.get().search_ids("diffusion")
    return searcher, searcher.check_saved()


def test_a_saved_index_found_whole_is_not_read_through_again_while_its_stamp_holds(
    seeded: Path, crc_count: _CrcCount, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file :meth:`Searcher.check_saved` found whole is recorded beside it by its stamp: the next
    start reads none of its bytes for the CRC, counts no text's lines and checks no vocabulary
    order (the file is the one found whole), but still compares its ids with the catalogue's."""
    from paperdeck.search import index_file, packed_index
    from paperdeck.search.index import SearchIndex as Index

    path = seeded / INDEX_FILE
    expected = _fresh_ranking(seeded)
    assert _started_and_checked(seeded)[1] and crc_count.read > 0.9 * path.stat().st_size
    assert index_file.checked_path(path).is_file()
    crc_count.read = 0
    orders: list[int] = []
    ids: list[int] = []
    vocabulary_fault, ids_fault = packed_index.vocabulary_fault, packed_index.ids_fault
    monkeypatch.setattr("paperdeck.search.index.vocabulary_fault", lambda *a: orders.append(1) or vocabulary_fault(*a))
    monkeypatch.setattr("paperdeck.search.index.ids_fault", lambda *a: ids.append(1) or ids_fault(*a))
    notices: list[str] = []
    searcher, holds = _started_and_checked(seeded, notices)
    index = searcher.index.get()
    assert holds and crc_count.read == 0 and not orders and ids == [1] and not notices
    assert not searcher.unchecked and isinstance(index, Index)
    assert {query: index.search_ids(query) for query in QUERIES} == expected


@pytest.mark.parametrize("change", ["edited", "lines", "unsorted", "ids", "touched back"])
def test_a_saved_index_changed_after_it_was_found_whole_is_checked_again(seeded: Path, change: str) -> None:
    """Whatever changes the file after a check found it whole (rewritten with its CRC made to
    match, or a byte edited in place and its size and mtime set back: the ctime tells) gives it
    another stamp: its next start reads it through again, finds the fault, says it once and
    builds the index again."""
    import os

    path = seeded / INDEX_FILE
    expected = _fresh_ranking(seeded)
    assert _started_and_checked(seeded)[1]
    if change == "touched back":
        status = path.stat()
        raw = bytearray(path.read_bytes())
        raw[-8] ^= 0xFF  # in the last section, in place
        with path.open("r+b") as file:
            file.write(raw)
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
        assert (path.stat().st_size, path.stat().st_mtime_ns) == (status.st_size, status.st_mtime_ns)
    else:
        _rewrite(path, change)
    notices: list[str] = []
    searcher, holds = _started_and_checked(seeded, notices)
    assert not holds and len(notices) == 1 and str(path) in notices[0] and "built again" in notices[0]
    index = searcher.index.get()
    assert {query: index.search_ids(query) for query in QUERIES} == expected


@pytest.mark.parametrize(
    "record", [b"", b"[1, 2]", b'"whole"', b"[1, 2, 3, 4, 5.0]", b"\xff\xfe", b"[true, 2, 3, 4, 5]", None]
)
def test_a_record_of_a_check_that_is_not_the_file_s_stamp_is_not_trusted(
    seeded: Path, crc_count: _CrcCount, record: bytes | None
) -> None:
    """The record beside the file is read as hostile: empty, malformed, of other numbers, or of
    another version of the file (``None``: the file copied elsewhere, its inode another), the
    file is read through again and found whole, and the record written anew."""
    import shutil

    from paperdeck.search import index_file

    path = seeded / INDEX_FILE
    assert _started_and_checked(seeded)[1]
    checked = index_file.checked_path(path)
    if record is None:  # the index copied over itself: another inode and ctime, the same bytes
        shutil.copy2(path, path.with_suffix(".copy"))
        path.with_suffix(".copy").replace(path)
    else:
        checked.write_bytes(record)
    crc_count.read = 0
    notices: list[str] = []
    assert _started_and_checked(seeded, notices)[1] and not notices
    assert crc_count.read > 0.9 * path.stat().st_size
    crc_count.read = 0
    assert _started_and_checked(seeded)[1] and crc_count.read == 0  # recorded anew


@pytest.mark.parametrize("kind", ["directory", "fifo", "link"])
def test_no_regular_record_in_its_place_is_read_or_written_through(seeded: Path, tmp_path: Path, kind: str) -> None:
    """Something else where the record of a check goes (a directory, a FIFO: a read would wait
    for a writer; a symbolic link to another file) is neither trusted nor written through: every
    start reads the index through and finds it whole, without an error or a wait, and the
    link's target is left as it was."""
    import os

    from paperdeck.search import index_file

    checked = index_file.checked_path(seeded / INDEX_FILE)
    target = tmp_path / "elsewhere.txt"
    target.write_text("the user's own file\n")
    if kind == "directory":
        checked.mkdir()
    elif kind == "fifo":
        os.mkfifo(checked)
    else:
        checked.symlink_to(target)
    for _ in range(2):
        notices: list[str] = []
        searcher, holds = _started_and_checked(seeded, notices)
        assert holds and not notices and not searcher.unchecked
    assert target.read_text() == "the user's own file\n" and checked.is_symlink() is (kind == "link")
    assert checked.is_dir() is (kind == "directory")


def test_texts_of_another_line_count_are_refused_by_a_checked_read(seeded: Path) -> None:
    """A read whose CRC is checked at once (the command line's) counts the texts' lines too:
    two titles on one line (the CRC made to match) are refused there, the index built again."""
    path = seeded / INDEX_FILE
    expected = _fresh_ranking(seeded)
    _rewrite(path, "lines")
    notices: list[str] = []
    searcher = Searcher(Store(seeded, lazy=True), notice=notices.append)
    searcher.read_ahead()
    index = searcher.index.get()
    assert len(notices) == 1 and "titles for" in notices[0]
    assert {query: index.search_ids(query) for query in QUERIES} == expected


def test_a_saved_ranking_naming_no_paper_is_refused_at_its_first_use(data_dir: Path, seed_files: list[Path]) -> None:
    """A ranking saved with the index is checked to name papers when first used: the app ranks
    its first query before the file's CRC is checked, and a ranking's ids are looked up only
    when its rows are drawn. (Here the CRC even matches: the structure alone is damaged.)"""
    store = Store(data_dir)
    import_files(store, seed_files)
    build_index(store)
    header, sections = read_sections(data_dir / INDEX_FILE)
    query = bytes(sections["ranked_queries"]).decode().split("\n")[0]
    positions = array("I", sections["ranked_positions"])
    positions[0] = 10**6
    del header, sections
    _resave(data_dir / INDEX_FILE, ranked_positions=positions.tobytes())
    index = Searcher(Store(data_dir, lazy=True)).index.get()
    assert index._saved_rankings  # read from the file, not built again
    with pytest.raises(IndexError):
        index.search_positions(query)
    assert index.search_ids("diffusion")  # the others still answer


def test_a_saved_ranking_read_while_another_thread_imports_numpy(
    data_dir: Path, seed_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word query ranked from a saved one-letter ranking checks its positions with numpy once
    it is imported; while another thread's import is under way (the module in ``sys.modules``,
    not initialized: a worker's field term, the warming) it checks them without (it failed with
    an AttributeError when a word typed in a venue scope, which imports no numpy, met a mask
    query's import in a worker)."""
    import types
    from importlib.machinery import ModuleSpec

    store = Store(data_dir)
    import_files(store, seed_files)
    build_index(store)
    fresh = SearchIndex(store.papers).search_ids("a")
    index = Searcher(Store(data_dir, lazy=True)).index.get()
    half = types.ModuleType("numpy")  # as sys.modules holds it while its import runs: no asarray yet
    half.__spec__ = ModuleSpec("numpy", None)
    half.__spec__._initializing = True  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "numpy", half)
    assert index.search_ids("a") == fresh


def test_the_first_query_s_rows_read_their_ids_by_position_not_the_ids_line(
    data_dir: Path, seed_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's first queries on an index read to check later, without notes (a note's paper is
    found by id: every id then): the ids of their rows are read each with its row line, at its
    position in the rows cache (kept for the row); the ids line is parsed once, when
    :meth:`Searcher.check_saved` compares the ids with the catalogue's; the rankings are a fresh
    build's throughout."""
    import_files(Store(data_dir), seed_files)
    build_index(Store(data_dir))
    seeded = data_dir
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    parses: list[int] = []
    parse = PendingIds.parse
    monkeypatch.setattr(PendingIds, "parse", lambda self: parses.append(1) or parse(self))
    expected = _fresh_ranking(seeded)
    fresh = Store(seeded)
    store = Store(seeded, lazy=True)
    searcher = Searcher(store)
    searcher.read_ahead(check_later=True)
    index = searcher.index.get()
    for query, ids in expected.items():
        view = index.ids_view(index.search_positions(query))
        shown = [store.row(view[n], view.position(n)) for n in range(min(len(view), 4))]
        assert shown == [fresh.row(paper_id) for paper_id in ids[:4]]
    assert not parses and not store.loaded and store.catalogue._rows_map is None
    assert searcher.check_saved() and len(parses) == 1
    assert {query: index.search_ids(query) for query in QUERIES} == expected and len(parses) == 1
