"""The rows cache: what the list shows before the catalogue is parsed, read without building a
row per paper up front; a broken cache costs speed, never a crash or a wrong list."""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import os
import re
import struct
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.rows import PaperRow
from paperdeck.store.store import ROWS_FILE, Store

from tests.store.conftest import FIXED_TIME
from tests.waits import GUARD_S


def test_a_lazy_store_shows_rows_before_parsing_the_catalogue(imported: Store) -> None:
    lazy = Store(imported.data_dir, lazy=True)
    assert not lazy.loaded
    assert lazy.paper_ids == imported.paper_ids
    assert lazy.paper_count == imported.paper_count == 5
    for pid in imported.paper_ids:
        assert lazy.row(pid) == imported.row(pid)
        assert lazy.row(pid) is lazy.row(pid)  # built once, when first shown
    assert lazy.row("abs:missing") is None
    lazy.load()
    first = imported.paper_ids[0]
    assert lazy.loaded and lazy.paper_count == 5 and lazy.row(first) == imported.row(first)


def _cache_lines(store: Store) -> list[str]:
    """The rows cache's lines: header, ids, spans, one row per paper, then the rows' offsets."""
    text = (store.data_dir / ROWS_FILE).read_text(encoding="utf-8")
    assert text.endswith("\n")
    return text[:-1].split("\n")  # not splitlines(): U+2028 in a title is no line break here


def _write_cache_lines(store: Store, lines: list[str]) -> None:
    (store.data_dir / ROWS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_rows_cache_is_one_line_per_paper_after_the_ids(imported: Store) -> None:
    lines = _cache_lines(imported)
    stat = imported.catalogue_path.stat()
    columns = {"decisions": False, "ratings": False, "areas": False}
    header = {"catalogue": [stat.st_size, stat.st_mtime_ns], "rows": 5, "columns": columns, "spreads": True,
              "venues": {"labels": [""], "runs": [0, 5]}, "offsets": True, "spans": True,
                  "title_keys": 2, "titles": 2, "venue_columns": {"": [False, False, False]}}  # fmt: skip
    assert json.loads(lines[0]) == header
    assert json.loads(lines[1]) == imported.paper_ids
    spans = json.loads(lines[2])
    assert spans["aliases"] == {} and len(spans["spans"]) == 2 * 5
    raw = imported.catalogue_path.read_bytes()
    for pid, start, end in zip(imported.paper_ids, spans["spans"][0::2], spans["spans"][1::2], strict=True):
        assert json.loads(raw[start:end])["id"] == pid  # each paper's document, where it lies
    assert [json.loads(line) for line in lines[3:-1]] == [imported.row(pid).to_list() for pid in imported.paper_ids]
    # The last line: where each row starts and the last ends, 64-bit little-endian numbers in base64.
    offsets = struct.unpack("<6q", base64.b64decode(lines[-1], validate=True))
    cache = (imported.data_dir / ROWS_FILE).read_bytes()
    starts = [len("\n".join(lines[:n]).encode()) + 1 for n in range(3, 9)]
    assert list(offsets) == starts
    rows = [json.loads(line) for line in lines[3:-1]]
    assert [json.loads(cache[a:b]) for a, b in itertools.pairwise(offsets)] == rows


def test_a_title_with_a_line_break_stays_on_its_row(data_dir: Path) -> None:
    store = Store(data_dir, now=lambda: FIXED_TIME)
    title = "Line one\nline two \u2028 and \r three"
    store.import_papers([Paper(id="abs:00000000000000aa", title=title, abstract="An abstract, long enough here.")])
    assert len(_cache_lines(store)) == 5  # header, ids, spans, the row, the offsets
    lazy = Store(data_dir, lazy=True)
    assert not lazy.loaded
    assert lazy.row("abs:00000000000000aa") == store.row("abs:00000000000000aa")


@pytest.mark.parametrize(
    ("row", "shown"),
    [
        ('["{pid}", "Paper 1", false, "unknown", "not a rating"]', "Paper 1"),  # a broken field: the title
        ('["{pid}", "Paper 1"]', "Paper 1"),
        ('["abs:someone-else", "Not this paper", false, "unknown", null]', "{pid}"),  # another paper's row
        ('["{pid}", null, false, "unknown", null]', "{pid}"),
        ('{{"not": "a row"}}', "{pid}"),
        ("not json at all", "{pid}"),
        ("", "{pid}"),
    ],
)
def test_a_broken_row_still_shows(imported: Store, row: str, shown: str) -> None:
    """One broken line costs its row's details, never the list: the row shows its title or,
    failing that, its id (the catalogue, parsed in the background, then gives the real row)."""
    pid = imported.paper_ids[1]
    lines = _cache_lines(imported)
    lines[4] = row.format(pid=pid)  # after the header, the ids, the spans and row 0
    _write_cache_lines(imported, lines)
    lazy = Store(imported.data_dir, lazy=True)
    assert not lazy.loaded
    assert lazy.row(pid) == PaperRow(pid, shown.format(pid=pid))
    assert lazy.row(imported.paper_ids[2]) == imported.row(imported.paper_ids[2])


@pytest.mark.parametrize(
    "change",
    [
        lambda lines: [*lines[:-2], lines[-1]],  # a row missing
        lambda lines: [*lines[:-1], lines[-2], lines[-1]],  # a row too many
        lambda lines: lines[:-1],  # no offsets line
        lambda lines: [*lines, lines[-1]],  # the offsets line twice
        lambda lines: [lines[0].replace(',"offsets":true', ""), *lines[1:-1]],  # written before the offsets
        lambda lines: [lines[0], '["abs:0000000000000000"]', *lines[2:]],  # ids and rows disagree
        lambda lines: [lines[0], '{"not": "ids"}', *lines[2:]],
        lambda lines: [lines[0], "[1, 2, 3, 4, 5]", *lines[2:]],
        lambda lines: [lines[0].replace('"rows":5', '"rows":4'), *lines[1:]],
        lambda lines: [lines[0], lines[1].replace("0000000000000001", "0000000000000000"), *lines[2:]],  # an id twice
        lambda lines: [re.sub(r',"columns":\{[^}]*\}', "", lines[0]), *lines[1:]],
        lambda lines: [lines[0].replace('"ratings":false', '"ratings":0'), *lines[1:]],
        lambda lines: ['{"rows": 5}', *lines[1:]],  # no catalogue stamp
        lambda lines: ["[]", *lines[1:]],
        lambda lines: ['{"catalogue": [1, 2], "rows": [["old", "format"]]}'],  # the old one-document cache
        lambda lines: [""],
    ],
)
def test_a_broken_rows_cache_is_ignored(imported: Store, change: Callable[[list[str]], list[str]]) -> None:
    _write_cache_lines(imported, change(_cache_lines(imported)))
    store = Store(imported.data_dir, lazy=True)
    assert store.loaded  # the catalogue was parsed instead
    assert store.paper_ids == imported.paper_ids
    assert not Store(imported.data_dir, lazy=True).loaded  # and the cache written again


def test_a_rows_cache_of_titles_rendered_otherwise_is_written_again(imported: Store) -> None:
    """A cache written before LaTeX quotes were curled in titles holds them as written: not read."""
    lines = _cache_lines(imported)
    header = json.loads(lines[0])
    del header["titles"]
    _write_cache_lines(imported, [json.dumps(header), *lines[1:]])
    first = Store(imported.data_dir, lazy=True)
    assert first.loaded  # the cache was not read: the catalogue was parsed
    assert not Store(imported.data_dir, lazy=True).loaded  # the cache written again by the first


def test_a_stale_rows_cache_is_written_again(imported: Store) -> None:
    """A copied or restored store (its catalogue's time changed) reads the catalogue once, then
    writes the cache that the next start reads."""
    catalogue = imported.catalogue_path
    stat = catalogue.stat()
    os.utime(catalogue, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    first = Store(imported.data_dir, lazy=True)
    assert first.loaded  # the cache did not match: the catalogue was parsed
    second = Store(imported.data_dir, lazy=True)
    assert not second.loaded  # the cache written by the first
    assert second.paper_ids == imported.paper_ids
    assert [second.row(pid) for pid in second.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]


def test_no_rows_cache_for_a_catalogue_replaced_after_reading(imported: Store) -> None:
    """Another process's import replaced the catalogue after this store read it: the rows this
    store holds are not written under the new catalogue's stamp."""
    store = Store(imported.data_dir)
    other = Store(imported.data_dir)
    other.import_papers([Paper(id="abs:00000000000000ff", title="New", abstract="A new abstract, long enough.")])
    rows = imported.data_dir / ROWS_FILE
    rows.unlink()
    store.catalogue._write_rows_cache()
    assert not rows.exists()


def test_a_parsed_papers_row_is_built_once_and_again_when_the_paper_changes(imported: Store) -> None:
    pid = imported.paper_ids[0]
    row = imported.row(pid)
    assert row is imported.row(pid)  # kept while shown: the list asks at every frame
    imported.import_papers([Paper(id=pid, title="Paper 0", abstract="Abstract number 0.", decision="oral")])
    revised = imported.row(pid)
    assert revised is not None and revised is not row and revised.decision == "oral"
    assert imported.row(pid) is revised


@pytest.mark.parametrize(("decision", "rating"), [("unknown", None), ("oral", None), ("unknown", 6.5), ("poster", 5.0)])
def test_the_list_columns_are_known_before_the_catalogue_is_parsed(
    data_dir: Path, decision: str, rating: float | None
) -> None:
    """The rows cache says whether any paper has a decision or a rating, so the list's first
    paint has the columns it keeps once the catalogue is parsed (no shift of every title)."""
    from paperdeck.model.paper import Ratings

    store = Store(data_dir, now=lambda: FIXED_TIME)
    ratings = Ratings(mean=rating, count=1) if rating is not None else None
    store.import_papers(
        [
            Paper(id="abs:00000000000000aa", title="One", abstract="The first abstract, long enough here."),
            Paper(id="abs:00000000000000bb", title="Two", abstract="Another one.", decision=decision, ratings=ratings),
        ]
    )
    lazy = Store(data_dir, lazy=True)
    assert not lazy.loaded
    expected = (decision != "unknown", rating is not None, False)
    assert tuple(lazy.row_columns) == tuple(store.row_columns) == expected
    lazy.load()
    assert tuple(lazy.row_columns) == expected


def test_a_store_opened_without_its_rows_finds_papers_and_reads_the_rows_when_asked(imported: Store) -> None:
    """What a command reading one paper opens: the ids and spans, not the rows; a paper is read
    alone from its span, an alias is followed, and a row asked for later is the list's row."""
    pid = imported.paper_ids[3]
    light = Store(imported.data_dir, lazy=True, rows=False)
    assert not light.loaded and light.paper_ids == imported.paper_ids and light.paper_count == 5
    assert light.paper(pid) == imported.paper(pid)
    assert light.paper("abs:missing") is None
    backwards = imported.paper_ids[::-1]
    assert [light.paper(p) for p in backwards] == [imported.paper(p) for p in backwards]
    assert not light.loaded  # each read from its span
    assert [light.row(p) for p in light.paper_ids] == [imported.row(p) for p in imported.paper_ids]
    assert not light.loaded  # the rows came from the cache


def test_rows_left_unread_come_from_the_catalogue_when_the_cache_changed_meanwhile(imported: Store) -> None:
    """Another process rewrote the rows cache after this store read its ids: the rows it reads
    then are not taken from a cache of other papers."""
    light = Store(imported.data_dir, lazy=True, rows=False)
    lines = _cache_lines(imported)
    _write_cache_lines(imported, [lines[0], lines[1].replace("0000000000000001", "00000000000000aa"), *lines[2:]])
    pid = imported.paper_ids[1]
    assert light.row(pid) == imported.row(pid)
    assert light.loaded  # parsed instead


@pytest.mark.parametrize(
    "spans",
    [
        '{"spans": [0, 1], "aliases": {}}',  # too few
        '{"spans": "no", "aliases": {}}',
        '{"spans": [], "aliases": {"abs:a": 5}}',
        "not json",
    ],
)
def test_a_store_opened_without_its_rows_ignores_a_broken_spans_line(imported: Store, spans: str) -> None:
    lines = _cache_lines(imported)
    _write_cache_lines(imported, [lines[0], lines[1], spans, *lines[3:]])
    pid = imported.paper_ids[2]
    light = Store(imported.data_dir, lazy=True, rows=False)
    assert light.paper(pid) == imported.paper(pid)
    assert light.loaded  # the catalogue was parsed instead


def test_a_span_that_is_no_whole_number_is_not_read(imported: Store) -> None:
    lines = _cache_lines(imported)
    spans = json.loads(lines[2])
    spans["spans"][0] = "12"
    _write_cache_lines(imported, [lines[0], lines[1], json.dumps(spans), *lines[3:]])
    light = Store(imported.data_dir, lazy=True, rows=False)
    first = imported.paper_ids[0]
    assert light.paper(first) == imported.paper(first)
    assert light.loaded


def test_a_lazy_store_reads_the_first_rows_at_opening_and_the_others_at_first_need(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list's first screen is read as the store opens; the file's other rows only when one
    of them is asked for (the cache then read whole, and checked whole)."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    lazy = Store(imported.data_dir, lazy=True)
    assert lazy.paper_ids == imported.paper_ids and lazy.paper_count == 5
    rows = lazy.catalogue._rows
    read = [isinstance(rows[pid], bytes) for pid in lazy.paper_ids] if rows is not None else []
    assert read == [True, True, False, False, False]
    first = imported.paper_ids[0]
    assert lazy.row(first) == imported.row(first)
    assert lazy.catalogue._rows is rows  # a first row: nothing more read
    assert [lazy.row(pid) for pid in imported.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]
    assert not lazy.loaded  # the rest came from the cache
    assert lazy.row("abs:missing") is None


def test_a_rows_cache_broken_past_its_first_rows_is_written_again_once_found(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row missing after the part read at opening: found when the rest is read, the catalogue
    is parsed for the rows, and the cache written again for the next start."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    lines = _cache_lines(imported)
    _write_cache_lines(imported, [*lines[:-2], lines[-1]])  # the last row missing
    lazy = Store(imported.data_dir, lazy=True)
    assert not lazy.loaded  # the first rows are sound
    last = imported.paper_ids[-1]
    assert lazy.row(last) == imported.row(last)
    assert lazy.loaded  # parsed instead
    assert len(_cache_lines(imported)) == 3 + 5 + 1  # header, ids, spans, every row and the offsets again
    again = Store(imported.data_dir, lazy=True)
    assert [again.row(pid) for pid in imported.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]
    assert not again.loaded


def test_the_first_screen_needs_no_map_of_every_id(imported: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the list's first paint asks of a lazy store (the ids, their count, the columns, the
    venues, the first rows) makes no map of every id: it is made at the first row past them."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    lazy = Store(imported.data_dir, lazy=True)
    ids = imported.paper_ids
    assert lazy.paper_ids == ids and lazy.paper_count == 5 and not lazy.is_empty
    assert lazy.row_columns == imported.row_columns and lazy.venue_runs == imported.venue_runs
    assert [lazy.row(pid) for pid in ids[:2]] == [imported.row(pid) for pid in ids[:2]]
    assert lazy.catalogue._rows_map is None
    assert lazy.row(ids[3]) == imported.row(ids[3])
    assert lazy.catalogue._rows_map is not None
    assert [lazy.row(pid) for pid in ids] == [imported.row(pid) for pid in ids] and not lazy.loaded


def test_an_id_twice_past_the_first_rows_is_found_at_the_first_row_past_them(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An id listed twice past the rows read at opening: found when the map of every id is
    made, the catalogue is parsed for the rows and the cache written again."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    lines = _cache_lines(imported)
    ids = json.loads(lines[1])
    lines[1] = json.dumps([*ids[:3], ids[4], ids[4]])
    _write_cache_lines(imported, lines)
    lazy = Store(imported.data_dir, lazy=True)
    assert not lazy.loaded  # the first rows are sound
    first, last = imported.paper_ids[0], imported.paper_ids[-1]
    assert lazy.row(first) == imported.row(first)
    assert lazy.row(last) == imported.row(last)
    assert lazy.loaded  # parsed instead
    assert lazy.paper_ids == imported.paper_ids
    again = Store(imported.data_dir, lazy=True)
    assert not again.loaded  # the cache written again
    assert [again.row(pid) for pid in imported.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]


def test_the_rows_left_unread_are_read_from_where_the_opening_stopped(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rest of the rows comes from the same file, past what was read at opening: the ids and
    the first rows are not read again. A rows file rewritten meanwhile is read again whole."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    lazy = Store(imported.data_dir, lazy=True)
    whole_reads: list[object] = []
    monkeypatch.setattr("paperdeck.store.catalogue.read_rows_cache", lambda *args, **kwargs: whole_reads.append(args))
    assert [lazy.row(pid) for pid in imported.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]
    assert whole_reads == [] and not lazy.loaded

    monkeypatch.undo()
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    again = Store(imported.data_dir, lazy=True)
    lines = _cache_lines(imported)
    last = imported.paper_ids[-1]
    lines[-2] = json.dumps([last, "Retitled meanwhile", False, "unknown", None, ""])
    _write_cache_lines(imported, lines)  # the same papers, the file replaced (its offsets now wrong)
    assert again.row(last) == PaperRow(last, "Retitled meanwhile")
    assert not again.loaded


def test_the_rows_left_unread_are_read_while_the_catalogue_is_being_parsed(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row asked for while another thread parses the catalogue (holding the load lock) comes
    from the rows cache at once: the list does not wait for the parse."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    lazy = Store(imported.data_dir, lazy=True)
    last = imported.paper_ids[-1]
    shown: list[PaperRow | None] = []
    with lazy.catalogue._load_lock:  # as load() holds it, in a worker thread
        reader = threading.Thread(target=lambda: shown.append(lazy.row(last)), daemon=True)
        reader.start()
        reader.join(timeout=GUARD_S)
        assert not reader.is_alive()
    assert shown == [imported.row(last)] and not lazy.loaded


def test_a_row_past_the_first_is_read_alone_at_its_offset(imported: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row asked for past those read at opening (a query's list) is read alone where the
    offsets line says it lies: the rows between stay unread, the file is not read whole."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    lazy = Store(imported.data_dir, lazy=True)
    monkeypatch.setattr("paperdeck.store.catalogue.read_unread_rows", lambda *args: pytest.fail("read whole"))
    monkeypatch.setattr("paperdeck.store.catalogue.read_rows_cache", lambda *args, **kwargs: pytest.fail("read whole"))
    last = imported.paper_ids[-1]
    assert lazy.row(last) == imported.row(last)
    rows = lazy.catalogue._rows
    unread = [isinstance(rows[pid], int) for pid in imported.paper_ids] if rows is not None else []
    assert unread == [False, True, True, True, False]
    assert [lazy.row(pid) for pid in imported.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]
    assert not lazy.loaded


def test_past_so_many_rows_read_alone_the_rest_is_read_at_once(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sort of a catalogue not parsed yet asks for every row: after ``_ROW_READS`` read alone,
    the others are read in one go from where the opening stopped."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    monkeypatch.setattr("paperdeck.store.catalogue._ROW_READS", 1)
    lazy = Store(imported.data_dir, lazy=True)
    ids = imported.paper_ids
    assert lazy.row(ids[3]) == imported.row(ids[3])
    rows = lazy.catalogue._rows
    assert rows is not None and isinstance(rows[ids[1]], int)  # one read alone
    assert lazy.row(ids[2]) == imported.row(ids[2])
    assert not any(isinstance(rows[pid], int) for pid in ids)  # then the rest at once
    assert [lazy.row(pid) for pid in ids] == [imported.row(pid) for pid in ids] and not lazy.loaded


def test_a_row_read_at_its_position_decodes_only_its_offsets(imported: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The offsets line is read an entry at a time: a row read at its position decodes the
    base64 of its own start and end (and the check of the line, two entries), never the whole
    line (its size grows with the store)."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    decoded: list[int] = []
    a2b = binascii.a2b_base64
    monkeypatch.setattr(binascii, "a2b_base64", lambda text, **kw: decoded.append(len(text)) or a2b(text, **kw))
    ids = imported.paper_ids
    lazy = Store(imported.data_dir, lazy=True)
    assert [lazy.row(ids[at], at) for at in (4, 2, 3)] == [imported.row(ids[at]) for at in (4, 2, 3)]
    assert lazy.catalogue._rows_map is None and decoded and max(decoded) <= 24  # the whole line: 64


@pytest.mark.parametrize(
    "offsets",
    [
        lambda line: base64.b64encode(bytes(len(base64.b64decode(line)))).decode(),  # every offset 0
        lambda line: base64.b64encode(struct.pack("<6q", *[n * 7 for n in range(6)])).decode(),
        lambda line: base64.b64encode(struct.pack("<6q", *[2**62 + n for n in range(6)])).decode(),  # past the end
        lambda line: "!" * len(line),  # not base64
        lambda line: line[:-4],  # too short
        lambda line: line + "AAAA",  # too long
    ],
)
def test_rows_are_not_read_where_a_broken_offsets_line_says(
    imported: Store, monkeypatch: pytest.MonkeyPatch, offsets: Callable[[str], str]
) -> None:
    """An offsets line that does not hold for the rows (damaged, or not one): the rows shown are
    still the papers' own, read another way (never past the file's end)."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    lines = _cache_lines(imported)
    _write_cache_lines(imported, [*lines[:-1], offsets(lines[-1])])
    lazy = Store(imported.data_dir, lazy=True)
    assert [lazy.row(pid) for pid in imported.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]


def test_a_rows_cache_cut_short_is_never_read_past_its_end(imported: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rows file cut short after this store opened it is another file (its size changed): the
    rows then come from the catalogue, and the next start writes the cache again."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    lazy = Store(imported.data_dir, lazy=True)
    path = imported.data_dir / ROWS_FILE
    with path.open("r+b") as handle:
        handle.truncate(path.stat().st_size - 40)
    assert [lazy.row(pid) for pid in imported.paper_ids] == [imported.row(pid) for pid in imported.paper_ids]
    assert lazy.loaded
    assert not Store(imported.data_dir, lazy=True).loaded


def test_a_row_read_at_its_position_needs_no_map_of_every_id(imported: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ranking's row past the first screen, asked with its position in catalogue order, is
    read alone there without the map of every id (nor the ids line parsed); a position that is
    another paper's row is not taken for it (read as without a position)."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    lazy = Store(imported.data_dir, lazy=True)
    monkeypatch.setattr("paperdeck.store.catalogue.read_unread_rows", lambda *args: pytest.fail("read whole"))
    ids = imported.paper_ids
    assert lazy.row(ids[3], 3) == imported.row(ids[3])
    assert lazy.row(ids[3], 3) == imported.row(ids[3])  # kept
    assert lazy.row(ids[4], 4) == imported.row(ids[4])
    assert lazy.catalogue._rows_map is None
    assert lazy.row(ids[2], 1) == imported.row(ids[2])  # the line at 1 is another paper's
    assert lazy.catalogue._rows_map is not None
    assert [lazy.row(pid, at) for at, pid in enumerate(ids)] == [imported.row(pid) for pid in ids]
    assert not lazy.loaded


def test_the_long_lines_of_a_rows_cache_come_in_one_piece(tmp_path: Path) -> None:
    """The ids and spans lines of a large store (megabytes) are in the reader's buffer whole once
    the header is read: ``readline`` takes them at once, not piece by piece byte by byte."""
    from paperdeck.store.rows import _open_rows

    ids = b'["' + b'","'.join(b"id%07d" % n for n in range(200_000)) + b'"]\n'
    spans = b'{"spans": [' + b",".join(b"%d" % n for n in range(300_000)) + b'], "aliases": {}}\n'
    row = b'["id%07d", "' + b"a title of a paper " * 4 + b'", false, "unknown", null, ""]\n'
    rows = b"".join(row % n for n in range(200_000))  # the head under a fifth of the file, as written
    path = tmp_path / ROWS_FILE
    path.write_bytes(b'{"rows": 200000}\n' + ids + spans + rows)
    assert len(ids) + len(spans) > 2 * (1 << 20)  # longer than the reader's smallest buffer
    with _open_rows(path) as handle:
        handle.readline()
        assert handle.peek().startswith(ids + spans)
        assert handle.readline() == ids and handle.readline() == spans
        assert handle.readline() == row % 0
