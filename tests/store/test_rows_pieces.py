"""The rows cache's ids and spans lines parsed a piece at a time give what a whole parse gives."""

from __future__ import annotations

import random

import orjson
import pytest
from paperdeck.store import rows_pieces
from paperdeck.store.rows import decode_span_table
from paperdeck.store.rows_pieces import ids_in_pieces, span_table_in_pieces


@pytest.fixture(autouse=True)
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows_pieces, "PIECE", 64)  # many pieces from a short line


def test_ids_in_pieces_are_the_ids_and_share_the_held_strings() -> None:
    ids = [f"openreview:{n:08d}" for n in range(500)] + ['we"ird",\\', 'a","b', "é"]
    held = [str(paper_id) for paper_id in ids]  # equal strings, other objects
    held[7] = "another"
    got = ids_in_pieces(orjson.dumps(ids), held[:-1])
    assert got == ids
    assert got[0] is held[0] and got[501] is held[501]
    assert got[7] is not held[7] and got[-1] is not held[-1]  # not held there: its own string


@pytest.mark.parametrize("line", [b"[]", b'["a",1]', b'["a"] ', b"[1,2]", b'{"a":1}'])
def test_ids_in_pieces_of_other_lines_are_the_whole_parse(line: bytes) -> None:
    whole = orjson.loads(line)
    assert ids_in_pieces(line, ["a"]) == (whole if type(whole) is list else [])


def test_ids_in_pieces_of_a_broken_line_raise() -> None:
    with pytest.raises(ValueError):
        ids_in_pieces(b'["a","b', [])


def test_span_table_in_pieces_is_the_whole_parse() -> None:
    rng = random.Random(5)
    flat = [rng.randrange(2**40) for _ in range(2 * 301)]  # odd pieces carry a start over
    for aliases in ({}, {"old": "new"}):
        line = orjson.dumps({"spans": flat, "aliases": aliases})
        assert span_table_in_pieces(line, 301) == decode_span_table(line, 301)
        assert span_table_in_pieces(line, 300) is None


@pytest.mark.parametrize(
    "line",
    [
        b'{"spans":[],"aliases":{}}',
        b'{"spans":[1,2,3],"aliases":{}}',
        b'{"spans":[1,true],"aliases":{}}',
        b'{"spans":[1,2.5],"aliases":{}}',
        b'{"spans":[1,18446744073709551616],"aliases":{}}',
        b'{"spans":[1,9223372036854775808],"aliases":{}}',
        b'{"spans":[1,,2],"aliases":{}}',
        b'{"spans":[1,2],"aliases":{"a":1}}',
        b'{"spans":[1,2],"aliases":{},"more":1}',
        b'{"aliases":{},"spans":[1,2]}',
        b'{"spans": [1, 2], "aliases": {}}',
        b"[1,2]",
    ],
)
def test_span_table_in_pieces_of_odd_lines_is_what_the_whole_parse_gives(line: bytes) -> None:
    for count in (0, 1):
        assert span_table_in_pieces(line, count) == decode_span_table(line, count)
