"""The filter bar's history: the queries run, newest first, kept across restarts in
``query-history.json`` in the data directory (beside ``config.json``), as shells keep theirs.

The file is the user's data read back as hostile data: anything in it that is not a list of
strings is ignored (the history starts empty, the file is left as it is until the next query is
kept), every query read is made one visible line (:func:`~paperdeck.model.safe_text.one_line`)
and cut to :data:`MAX_QUERY_CHARS`. A write is atomic and merges with what another paperdeck kept
meanwhile, so two windows add to one history.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import orjson

from paperdeck.model.safe_text import one_line
from paperdeck.store.atomic import atomic_write_bytes

__all__ = ["HISTORY_FILE", "MAX_QUERIES", "MAX_QUERY_CHARS", "QueryHistory", "kept_queries"]

#: The history's file name in the data directory.
HISTORY_FILE = "query-history.json"

#: How many queries are kept (the oldest dropped first).
MAX_QUERIES = 200

#: A query longer than this is not kept (a paste of a whole abstract is no query to recall).
MAX_QUERY_CHARS = 1000


def kept_queries(queries: Iterable[object]) -> list[str]:
    """``queries`` (newest first) as the history keeps them: strings only, each one visible line
    stripped of white space at its ends, blank ones and those over :data:`MAX_QUERY_CHARS`
    dropped, each once (its newest place), at most :data:`MAX_QUERIES`."""
    kept: list[str] = []
    seen: set[str] = set()
    for query in queries:
        if not isinstance(query, str):
            continue
        line = one_line(query).strip()
        if not line or len(line) > MAX_QUERY_CHARS or line in seen:
            continue
        seen.add(line)
        kept.append(line)
        if len(kept) == MAX_QUERIES:
            break
    return kept


class QueryHistory:
    """The queries of ``data_dir``'s history, newest first (:attr:`queries`).

    Reading the file never fails: an unreadable or malformed file is an empty history
    (:attr:`problem` says why, in one line naming the file), never written over until
    :meth:`add` keeps a query.
    """

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / HISTORY_FILE
        self.problem: str | None = None
        self.queries: list[str] = self._read()

    def _read(self) -> list[str]:
        try:
            data = orjson.loads(self.path.read_bytes())
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            reason = one_line(str(exc))
            self.problem = f"{one_line(str(self.path))}: not read ({reason}); the query history starts empty"
            return []
        if not isinstance(data, list):
            self.problem = f"{one_line(str(self.path))}: not a list of queries; the query history starts empty"
            return []
        return kept_queries(data)

    def add(self, query: str) -> Sequence[str]:
        """Keep ``query`` as the newest (an earlier copy of it moved up), on top of the history
        the file holds now, and write the file atomically; a blank query changes nothing. Returns
        the history.

        Raises:
            StoreError: the file cannot be written (the history in memory has the query).
        """
        line = one_line(query).strip()
        if not line:
            return self.queries
        on_disk = self._read()
        self.problem = None
        self.queries = kept_queries([line, *on_disk, *self.queries])
        atomic_write_bytes(self.path, orjson.dumps(self.queries, option=orjson.OPT_INDENT_2))
        return self.queries
