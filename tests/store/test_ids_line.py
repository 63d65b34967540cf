"""The rows cache's ids line read in part: the first screen's ids at opening, the others at
first need (the list's first paint parses no more); a line broken past them costs speed only."""

from __future__ import annotations

import json
import os
import random

import orjson
import pytest
from paperdeck.store.ids_line import IdsView, PendingIds, parse_ids_line
from paperdeck.store.store import ROWS_FILE, Store


def _cache_lines(store: Store) -> list[bytes]:
    return (store.data_dir / ROWS_FILE).read_bytes()[:-1].split(b"\n")


def test_the_first_paint_parses_only_the_first_ids(imported: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lazy store's list view holds every id, the first screen's parsed; the others are
    parsed once one of them (or every id) is asked for, and are the catalogue's."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 2)
    ids = imported.paper_ids
    lazy = Store(imported.data_dir, lazy=True)
    view = lazy.ids_view()
    assert isinstance(view, IdsView) and len(view) == 5 and lazy.paper_count == 5 and not lazy.is_empty
    assert [view[0], view[1]] == ids[:2]
    first = lazy.catalogue._rows_first
    assert first is not None and isinstance(first[0], PendingIds)
    assert [lazy.row(view[n]) for n in range(2)] == [imported.row(pid) for pid in ids[:2]]
    assert view[3] == ids[3] and list(view) == ids and ids[4] in view and view.index(ids[2]) == 2
    first = lazy.catalogue._rows_first
    assert first is not None and first[0] == ids  # parsed once, kept
    assert lazy.paper_ids == ids and not lazy.loaded
    assert [lazy.row(pid) for pid in ids] == [imported.row(pid) for pid in ids] and not lazy.loaded


@pytest.mark.parametrize(
    "ids",
    [
        lambda ids: [*ids[:3], 7, ids[4]],  # not text
        lambda ids: [*ids[:4]],  # short of the header's count
        lambda ids: [*ids, "abs:other"],  # past the header's count
    ],
)
def test_an_ids_line_broken_past_the_first_ids_is_found_at_first_need(
    imported: Store, monkeypatch: pytest.MonkeyPatch, ids: object
) -> None:
    """Found when the ids past the first screen's are parsed: the catalogue is parsed for them
    and the cache written again for the next start."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    lines = _cache_lines(imported)
    every = imported.paper_ids
    lines[1] = orjson.dumps(ids(every))  # type: ignore[operator]
    (imported.data_dir / ROWS_FILE).write_bytes(b"\n".join(lines) + b"\n")
    lazy = Store(imported.data_dir, lazy=True)
    assert not lazy.loaded and lazy.ids_view()[0] == every[0]  # the first id is sound
    assert lazy.paper_ids == every and lazy.loaded  # parsed instead
    again = Store(imported.data_dir, lazy=True)
    assert again.paper_ids == every and not again.loaded  # the cache written again


@pytest.mark.parametrize("seed", range(20))
def test_the_first_ids_parsed_alone_are_the_lines_first(seed: int) -> None:
    """Ids with commas, quotes, backslashes and other scripts: the first ids parsed alone (or
    the line whole when that is not plainly exact) are those of the whole line."""
    rng = random.Random(seed)
    letters = 'ab,"\\:é中 ]['
    ids = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 8))) for _ in range(rng.randint(1, 12))]
    line = orjson.dumps(ids)
    for wanted in range(len(ids) + 2):
        parsed = parse_ids_line(line, wanted)
        if isinstance(parsed, PendingIds):
            assert parsed.first == ids[:wanted] and wanted < len(ids) and b"\\" not in line.split(b'","')[0]
            parsed.count = len(ids)
            assert parsed.parse() == ids
        else:
            assert parsed == ids


def test_the_first_ids_of_plain_ids_are_parsed_alone() -> None:
    ids = [f"openreview:{n:010d}" for n in range(300)]
    parsed = parse_ids_line(orjson.dumps(ids), 200)
    assert isinstance(parsed, PendingIds) and parsed.first == ids[:200]
    assert parse_ids_line(json.dumps(ids).encode(), 200) == ids  # not written as paperdeck writes it: whole


def test_ids_looked_up_by_position_parse_nothing_for_a_screenful(monkeypatch: pytest.MonkeyPatch) -> None:
    """An :class:`IdsView` given ``at`` looks ids up one by one, each once (a row is drawn
    again and again), for its first ``AT_LOOKUPS`` (one not found so is asked of every id), then
    asks for every id, once."""
    monkeypatch.setattr("paperdeck.store.ids_line.AT_LOOKUPS", 3)
    ids = [f"id{n}" for n in range(10)]
    asked: list[int] = []

    def at(position: int) -> str | None:
        asked.append(position)
        return None if position == 6 else ids[position]

    every: list[int] = []
    view = IdsView(ids[:2], 10, lambda: every.append(1) or ids, at)
    assert [view[1], view[5], view[9], view[5], view[9]] == ["id1", "id5", "id9", "id5", "id9"]
    assert asked == [5, 9] and not every
    assert view[6] == "id6" and asked == [5, 9, 6] and every == [1]  # not found by position
    assert view[7] == "id7" and asked == [5, 9, 6] and list(view) == ids and every == [1]
    capped = IdsView(ids[:2], 10, lambda: every.append(1) or ids, at)
    assert [capped[n] for n in (2, 3, 4, 2, 3, 4)] == ids[2:5] * 2 and asked[3:] == [2, 3, 4] and every == [1]
    assert capped[5] == "id5" and asked[3:] == [2, 3, 4] and every == [1, 1]


def test_ids_by_position_name_the_rows_read_even_once_the_cache_changes(
    imported: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store's ids by position (a saved index's, read to check later) read an id alone with
    its row, kept for :meth:`Store.row`; once the rows file is another (here touched), they are
    the ids line's of the rows read, parsed."""
    monkeypatch.setattr("paperdeck.store.catalogue.FIRST_ROWS", 1)
    ids = imported.paper_ids
    lazy = Store(imported.data_dir, lazy=True)
    view = lazy.ids_by_position()
    assert isinstance(view, IdsView) and len(view) == len(ids)
    monkeypatch.setattr("paperdeck.store.catalogue.read_row_at", lambda *args: pytest.fail("read again"))
    assert view[3] == ids[3] and lazy.row(ids[3], 3) == imported.row(ids[3])
    first = lazy.catalogue._rows_first
    assert first is not None and isinstance(first[0], PendingIds)  # not parsed
    path = imported.data_dir / ROWS_FILE
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert view[4] == ids[4] and list(view) == ids and not lazy.loaded
