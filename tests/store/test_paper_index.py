"""The paper index (``paper-index.bin``): a command on one paper finds it without reading the rows
cache or parsing the catalogue; a stale, truncated, foreign or other-endian index falls back to
the slow path with the same paper (and is written again); two writers never leave a broken one."""

from __future__ import annotations

import os
import struct
import threading
import zlib
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store import paper_index
from paperdeck.store.paper_index import (
    ALIAS,
    ENTRY,
    HEADER,
    HEADER_SIZE,
    INDEX_FILE,
    index_bytes,
    open_index,
    write_paper_index,
)
from paperdeck.store.store import Store

FIXED_TIME = "2026-11-29T12:00:00+00:00"
FORUMS = [f"Forum{n:04d}x" for n in range(40)]


@pytest.fixture
def imported(data_dir: Path) -> Store:
    store = Store(data_dir, now=lambda: FIXED_TIME)
    papers = [
        Paper(id=f"openreview:{forum}", title=f"Paper {n}", abstract=f"Abstract {n}.", openreview_id=forum)
        for n, forum in enumerate(FORUMS)
    ]
    store.import_papers(papers)
    return store


def _one_paper_store(data_dir: Path) -> Store:
    """The store as a one-paper command opens it (paperdeck.cli.main)."""
    return Store(data_dir, lazy=True, rows=False, user_records=False, catalogue_at_first_use=True)


def _no_rows_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        pytest.fail("the rows cache was read")

    monkeypatch.setattr("paperdeck.store.catalogue.read_rows_cache", refuse)
    monkeypatch.setattr("paperdeck.store.catalogue._read_streamed", refuse)


def test_an_import_writes_the_index_and_a_paper_is_found_by_it_alone(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (imported.data_dir / INDEX_FILE).is_file()
    _no_rows_cache(monkeypatch)
    store = _one_paper_store(imported.data_dir)
    for forum in (FORUMS[0], FORUMS[17], FORUMS[-1]):
        paper = store.paper_named(f"openreview:{forum}")
        assert paper is not None and paper == imported.paper(f"openreview:{forum}")
        assert store.paper_named(forum) == paper  # the bare forum id
        assert store.paper_named(f"https://openreview.net/forum?id={forum}") == paper
    assert not store.is_empty
    assert not store._catalogue_opened  # the rows cache never read, the catalogue never parsed


def test_an_id_the_index_does_not_list_is_asked_of_the_catalogue(imported: Store) -> None:
    store = _one_paper_store(imported.data_dir)
    assert store.paper_named("openreview:NoSuchForum") is None
    assert store._catalogue_opened  # not taken for unknown on the index's word


def test_aliases_are_followed_and_checked(tmp_path: Path) -> None:
    catalogue = tmp_path / "catalogue.json"
    catalogue.write_bytes(b"x" * 100)
    stat = catalogue.stat()
    stamp = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    spans = [("openreview:B", (10, 20)), ("openreview:C", (30, 40))]
    aliases = {"abs:1": "openreview:A", "openreview:A": "openreview:B", "é:x": "openreview:C"}
    write_paper_index(tmp_path / INDEX_FILE, stamp, spans, aliases)
    index = open_index(tmp_path / INDEX_FILE, catalogue)
    assert index is not None and index.papers == 2 and index.aliases == 3
    assert index.resolve("abs:1") == "openreview:B"  # two hops
    assert index.resolve("é:x") == "openreview:C"
    assert index.resolve("abs:2") == "abs:2"
    assert index.spans("openreview:B") == [(10, 20)]
    assert index.spans("openreview:A") == []
    index.close()


def test_a_shared_key_gives_every_span_and_the_reader_keeps_the_right_paper(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ids with one key (forced): both spans are candidates; each paper still comes out right."""
    monkeypatch.setattr(paper_index, "id_key", lambda paper_id: 7)
    imported.catalogue._write_rows_cache()  # the index again, every key the same
    store = _one_paper_store(imported.data_dir)
    for forum in FORUMS[:5]:
        paper = store.paper_named(f"openreview:{forum}")
        assert paper is not None and paper.id == f"openreview:{forum}"
    assert not store._catalogue_opened


def _rewrite(path: Path, order: str = "<", stamp_shift: int = 0, entries_shift: int = 0) -> None:
    """The index at ``path`` written again in byte order ``order``, its catalogue mtime moved by
    ``stamp_shift`` ns, or its spans by ``entries_shift`` bytes (each with a right digest)."""
    data = path.read_bytes()
    fields = list(HEADER.unpack_from(data))
    papers, aliases = fields[5], fields[6]
    entries = [ENTRY.unpack_from(data, HEADER_SIZE + n * ENTRY.size) for n in range(papers)]
    rest = data[HEADER_SIZE + papers * ENTRY.size :]
    fields[8] += stamp_shift
    header = struct.pack(order + HEADER.format[1:], *fields)
    body = b"".join(
        struct.pack(order + ENTRY.format[1:], key, start + entries_shift, end + entries_shift)
        for key, start, end in entries
    )
    if order != "<":
        alias_entries = [ALIAS.unpack_from(rest, n * ALIAS.size) for n in range(aliases)]
        rest = b"".join(struct.pack(order + ALIAS.format[1:], *a) for a in alias_entries) + rest[aliases * ALIAS.size :]
    path.write_bytes(header + struct.pack(order + "I", zlib.crc32(header)) + body + rest)


BREAKS = {
    "missing": lambda path: path.unlink(),
    "truncated": lambda path: path.write_bytes(path.read_bytes()[:-5]),
    "extended": lambda path: path.write_bytes(path.read_bytes() + b"\0" * 24),
    "header only, cut": lambda path: path.write_bytes(path.read_bytes()[:30]),
    "foreign": lambda path: path.write_bytes(b"GIF89a" + os.urandom(200)),
    "header digest": lambda path: path.write_bytes(path.read_bytes()[:20] + b"\xff" + path.read_bytes()[21:]),
    "other endian": lambda path: _rewrite(path, order=">"),
    "stale": lambda path: _rewrite(path, stamp_shift=1),
    "wrong spans": lambda path: _rewrite(path, entries_shift=3),
    "empty": lambda path: path.write_bytes(b""),
}


@pytest.mark.parametrize("how", sorted(BREAKS))
def test_a_bad_index_falls_back_to_the_same_paper_and_is_written_again(imported: Store, how: str) -> None:
    index = imported.data_dir / INDEX_FILE
    good = index.read_bytes()
    BREAKS[how](index)
    store = _one_paper_store(imported.data_dir)
    for forum in (FORUMS[3], FORUMS[30]):
        paper = store.paper_named(forum)
        assert paper is not None and paper == imported.paper(f"openreview:{forum}")
    if how != "wrong spans":  # not usable: written again from the rows cache's spans, as an import would
        assert index.read_bytes() == good
    again = _one_paper_store(imported.data_dir)
    assert again.paper_named(FORUMS[5]) == imported.paper(f"openreview:{FORUMS[5]}")


def test_an_index_made_for_another_catalogue_is_not_used(imported: Store) -> None:
    """An import since (the catalogue replaced): the index of the old file is refused by its stamp."""
    old = (imported.data_dir / INDEX_FILE).read_bytes()
    imported.import_papers([Paper(id="openreview:Newcomer01", title="New", abstract="New one.",
                                  openreview_id="Newcomer01")])  # fmt: skip
    assert (imported.data_dir / INDEX_FILE).read_bytes() != old
    (imported.data_dir / INDEX_FILE).write_bytes(old)
    assert open_index(imported.data_dir / INDEX_FILE, imported.catalogue_path) is None
    store = _one_paper_store(imported.data_dir)
    paper = store.paper_named("Newcomer01")
    assert paper is not None and paper.title == "New"


def test_an_index_is_written_inside_the_import_s_transaction(imported: Store) -> None:
    """Beside the catalogue and the rows cache, through the transaction: all three match after."""
    imported.import_papers([Paper(id="openreview:Later0001", title="Later", abstract="Later one.",
                                  openreview_id="Later0001")])  # fmt: skip
    index = open_index(imported.data_dir / INDEX_FILE, imported.catalogue_path)
    assert index is not None and index.papers == len(FORUMS) + 1
    index.close()


def test_two_writers_at_once_leave_a_whole_index(tmp_path: Path) -> None:
    catalogue = tmp_path / "catalogue.json"
    catalogue.write_bytes(b"y" * 10_000)
    stat = catalogue.stat()
    stamp = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    spans = [(f"openreview:P{n}", (n * 10, n * 10 + 5)) for n in range(500)]
    path = tmp_path / INDEX_FILE
    write_paper_index(path, stamp, spans, {})
    failures: list[str] = []
    stop = threading.Event()

    def write() -> None:
        for _ in range(40):
            write_paper_index(path, stamp, spans, {"abs:old": "openreview:P1"})
            write_paper_index(path, stamp, spans, {})

    def read() -> None:
        while not stop.is_set():
            index = open_index(path, catalogue)
            if index is None:
                failures.append("an index not whole")
            else:
                if index.spans("openreview:P123") != [(1230, 1235)]:
                    failures.append("a wrong span")
                index.close()

    writers = [threading.Thread(target=write) for _ in range(2)]
    reader = threading.Thread(target=read)
    reader.start()
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    reader.join()
    assert failures == []
    assert open_index(path, catalogue) is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([INDEX_FILE, "catalogue.json"])  # no temporary left


def test_index_bytes_are_little_endian_whatever_the_machine() -> None:
    data = index_bytes((1, 2, 3), [("openreview:X", (10, 20))], {})
    assert data[:8] == b"PDPAPIDX"
    assert int.from_bytes(data[12:16], "little") == 0x01020304
    assert int.from_bytes(data[HEADER_SIZE + 8 : HEADER_SIZE + 16], "little") == 10


def test_a_user_record_s_shard_is_found_without_importing_hashlib() -> None:
    """The shard of a paper's user record is its id's SHA-256 (the same digits as hashlib's), taken
    from CPython's own module: a one-paper command does not set up OpenSSL for one hash."""
    import hashlib
    import subprocess
    import sys

    probe = (
        "import sys; from paperdeck.store.user_data import doc_id_for; "
        "print(doc_id_for('openreview:Forum0001x'), 'hashlib' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    value, imported = result.stdout.split()
    expected = int(hashlib.sha256(b"openreview:Forum0001x").hexdigest()[:13], 16)
    assert (int(value), imported) == (expected, "False")


def test_one_paper_s_review_summary_is_read_alone(
    tmp_path: Path, review_sample: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The summaries file (every reviewed paper's) is written with a span index beside it, byte for
    byte what it was; one paper's summary is read by its span, the file never read whole, and
    without the index (a store imported before it) the same summary is found."""
    import orjson
    from paperdeck.cli.main import main

    data = tmp_path / "data"
    assert main(["import", str(review_sample.papers_file), str(review_sample.notes_file), "--data-dir", str(data)]) == 0
    reviews = data / "reviews"
    name = orjson.loads((reviews / "index.json").read_bytes())["summaries"]
    summaries_file, spans_file = reviews / name, reviews / name.replace(".json", ".spans.json")
    assert spans_file.is_file()
    everything = orjson.loads(summaries_file.read_bytes())
    assert summaries_file.read_bytes() == orjson.dumps(everything)
    read: list[Path] = []
    original = Path.read_bytes

    def spy(self: Path) -> bytes:
        read.append(self)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", spy)
    forums = sorted(everything)[:3]
    found = {forum: Store(data, lazy=True).reviews.summary(forum) for forum in forums}
    assert summaries_file not in read
    assert all(summary is not None for summary in found.values())
    monkeypatch.undo()
    spans_file.unlink()
    assert {forum: Store(data, lazy=True).reviews.summary(forum) for forum in forums} == found


def test_two_processes_rebuilding_at_once_leave_a_whole_index(imported: Store) -> None:
    """Two commands, each finding the index gone, each writing it again, at once: both find their
    paper every time, and the index left is whole, with no temporary file beside it."""
    import subprocess
    import sys

    script = (
        "import sys; from pathlib import Path; from paperdeck.store.store import Store\n"
        "data = Path(sys.argv[1])\n"
        "for n in range(15):\n"
        "    (data / 'paper-index.bin').unlink(missing_ok=True)\n"
        "    store = Store(data, lazy=True, rows=False, user_records=False, catalogue_at_first_use=True)\n"
        "    paper = store.paper_named(sys.argv[2])\n"
        "    assert paper is not None and paper.id == 'openreview:' + sys.argv[2], n\n"
    )
    runs = [
        subprocess.Popen([sys.executable, "-c", script, str(imported.data_dir), forum], stderr=subprocess.PIPE)
        for forum in (FORUMS[1], FORUMS[33])
    ]
    for run in runs:
        _, errors = run.communicate(timeout=300)
        assert run.returncode == 0, errors.decode()
    index = open_index(imported.data_dir / INDEX_FILE, imported.catalogue_path)
    assert index is not None and index.papers == len(FORUMS)
    index.close()
    store = _one_paper_store(imported.data_dir)
    assert store.paper_named(FORUMS[20]) is not None and not store._catalogue_opened
    assert not [p.name for p in imported.data_dir.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("how", ["truncated", "foreign", "other endian", "stale", "wrong spans"])
def test_the_commands_print_the_same_with_a_bad_index(
    imported: Store, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``show``, ``star`` and ``note`` print byte for byte what they print with a good index."""
    from tests.helpers import run

    where = ["--data-dir", str(imported.data_dir)]
    forum = FORUMS[12]
    commands = [["show", forum], ["star", forum], ["unstar", forum], ["note", forum, "--text", "n"], ["show", forum]]
    good = [run(capsys, *command, *where) for command in commands]
    run(capsys, "note", forum, "--text", "", *where)
    BREAKS[how](imported.data_dir / INDEX_FILE)
    assert [run(capsys, *command, *where) for command in commands] == good
    assert good[0][0] == 0 and forum in good[0][1]


def test_a_large_index_sorted_by_numpy_is_byte_for_byte_the_packed_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    rng = random.Random(32)
    spans = [(f"openreview:{rng.getrandbits(40):x}", (at, at + rng.randint(1, 900)))
             for at in (rng.randint(0, 2**40) for _ in range(3000))]  # fmt: skip
    spans += [(spans[5][0], (7, 9)), (spans[5][0], (3, 4)), ("é\udcff", (0, 1))]  # a key listed thrice
    aliases = {"old": "new", "older": "old"}
    monkeypatch.setattr(paper_index, "_ARRAY_ENTRIES", 10**9)
    packed = paper_index.index_bytes((1, 2, 3), iter(spans), aliases)
    monkeypatch.setattr(paper_index, "_ARRAY_ENTRIES", 100)
    assert paper_index.index_bytes((1, 2, 3), iter(spans), aliases) == packed
    with pytest.raises(struct.error):  # a span that does not fit is refused as before
        paper_index.index_bytes((1, 2, 3), [*spans, ("x", (-1, 5))], aliases)
