"""The rows cache's ids line and spans line (:mod:`paperdeck.store.rows`) parsed a piece at a time,
for a catalogue read again while the papers read before are held (the app's reload after another
process's import): no list of every id beside the ids held, no list of every offset as Python ints
beside the two arrays made of them. Each piece is about :data:`PIECE` bytes, cut where one element
of the array ends; what these give is what the whole line parsed at once gives.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import zip_longest

import orjson

from paperdeck.store.rows import SpanTable, decode_span_table

#: Bytes of a line parsed at once.
PIECE = 1 << 16

_SPANS_HEAD = b'{"spans":['
_ALIASES_HEAD = b',"aliases":'


def ids_in_pieces(line: bytes, held: Sequence[str]) -> list[str]:
    """The ids line (a JSON array of strings) parsed a piece at a time, each id equal to the one
    ``held`` has at its position given as that very string (a catalogue read again after an
    import in place: the same ids in the same order, none made anew). A line this does not cut
    cleanly (a value that is not a string) is parsed whole, as it would be.

    Raises:
        ValueError: the line is not JSON (as :func:`orjson.loads`).
    """
    body = line.rstrip()
    if not (body.startswith(b'["') and body.endswith(b'"]')):
        return _whole(line)
    ids: list[str] = []
    end = len(body) - 1  # the closing bracket
    at = 1
    try:
        while at < end:
            # An element ends at '","': inside a string a quote is escaped, so a cut made there
            # by mistake (after an escaped quote) leaves a string open: the piece does not parse.
            cut = body.find(b'","', at + PIECE, end)
            stop = cut + 1 if cut >= 0 else end
            piece = orjson.loads(b"[" + body[at:stop] + b"]")
            first = len(ids)
            ids.extend(old if old == new else new for new, old in zip_longest(piece, held[first : first + len(piece)]))
            at = stop + 1
    except orjson.JSONDecodeError:
        return _whole(line)
    return ids


def _whole(line: bytes) -> list[str]:
    ids = orjson.loads(line)
    return ids if type(ids) is list else []


def span_table_in_pieces(line: bytes, count: int) -> SpanTable | None:
    """The spans line for ``count`` papers as :func:`~paperdeck.store.rows.decode_span_table`
    gives it (the same checks, the same ``None``), its offsets parsed a piece at a time into the
    two arrays. A line not laid out as the rows cache writes it (``{"spans":[…],"aliases":{…}}``)
    is given to :func:`~paperdeck.store.rows.decode_span_table` whole."""
    if not line.startswith(_SPANS_HEAD):
        return decode_span_table(line, count)
    close = line.find(b"]", len(_SPANS_HEAD))
    if close < 0 or not line.startswith(_ALIASES_HEAD, close + 1):
        return decode_span_table(line, count)
    try:
        rest = orjson.loads(b"{" + line[close + 2 :])
    except orjson.JSONDecodeError:
        return None
    if type(rest) is not dict or list(rest) != ["aliases"]:
        return decode_span_table(line, count)
    aliases = rest["aliases"]
    if type(aliases) is not dict or set(map(type, aliases.values())) - {str}:
        return None
    starts: array[int] = array("q")
    ends: array[int] = array("q")
    carried: list[int] = []  # an odd piece's last start, waiting for its end
    at = len(_SPANS_HEAD)
    try:
        while at < close:
            cut = line.find(b",", at + PIECE, close)
            stop = cut if cut >= 0 else close
            piece = orjson.loads(b"[" + line[at:stop] + b"]")
            if set(map(type, piece)) - {int}:  # array() takes a bool or an int subclass: only exact ints pass
                return None
            if carried:
                piece[:0] = carried
            carried = piece[-1:] if len(piece) % 2 else []
            starts.extend(piece[0 : len(piece) - len(carried) : 2])
            ends.extend(piece[1 : len(piece) - len(carried) : 2])
            at = stop + 1
    except (orjson.JSONDecodeError, OverflowError):
        return None
    if carried or len(starts) != count:
        return None
    return SpanTable(starts, ends, aliases)
