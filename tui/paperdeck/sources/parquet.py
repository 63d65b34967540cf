"""Reader for Paper Copilot columns in Apache Parquet (``iclr2026_accepted_….parquet``).

Such tables are made from Paper Copilot's paperlists JSON (:mod:`.papercopilot`), with list-like
fields split into Arrow lists and ``openreview_id`` and ``pdf_link`` built from ``site``.
Columns: ``openreview_id`` (the paper id; else parsed from ``site`` or taken
from ``id``), ``title``, ``abstract``, ``status``, ``primary_area``, ``keywords`` (a list),
``rating``/``confidence`` (lists of ints, one per review), ``rating_avg``/``confidence_avg``
(``[mean, std]``), ``site`` and ``pdf_link``; ``;``-joined strings as in the JSON files also work.
The venue and year come from the file name (``iclr2026``, ``iclr_2026``), else from the rows'
``site`` or ``status``. Reading needs the optional dependency pyarrow (``paperdeck[parquet]``).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Paper
from paperdeck.sources.base import SourceRead, read_bytes
from paperdeck.sources.common import collect, provenance_pairs
from paperdeck.sources.papercopilot import PROVIDED, copilot_paper, venue_year

NAME = "parquet"

#: Columns read when present; any others (word counts, soundness, …) are left on disk.
COLUMNS = (
    "openreview_id", "id", "title", "abstract", "status", "primary_area", "keywords", "author",
    "tldr", "rating", "rating_avg", "confidence", "confidence_avg", "site", "openreview", "pdf",
    "pdf_link", "github",
)  # fmt: skip


def sniff(path: Path, head: str) -> bool:
    """A Parquet file: the ``PAR1`` magic at the start (a ``.parquet`` file is Parquet by its
    ending alone: :data:`paperdeck.sources.FORMATS`)."""
    return head.startswith("PAR1")


def read(path: Path) -> SourceRead:
    """Read a Parquet table of Paper Copilot columns, one paper per row.

    Raises:
        SourceError: pyarrow is not installed, the file is not valid Parquet, it has no ``title``
            column, or a row has no id, title or abstract; nothing is returned from a broken file.
    """
    rows = _rows(path)
    venue, year = venue_year(path, rows)
    pairs = provenance_pairs(path, PROVIDED)
    dropped: Counter[str] = Counter()  # per-review scores for no finite number, left out

    def results() -> Iterator[tuple[str, Paper | str]]:
        for index, row in enumerate(rows, 1):
            try:
                yield f"row {index}", copilot_paper(row, venue, year, (path.name,), pairs, dropped)
            except ValueError as exc:
                raise SourceError(path, f"row {index}: {exc}") from None

    return collect(path, NAME, results(), dropped)


def _rows(path: Path) -> list[dict[str, Any]]:
    """The rows of the known columns, as dicts of Python values.

    Raises:
        SourceError: no pyarrow, not Parquet, or no ``title`` column.
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        hint = "reading Parquet needs pyarrow: make parquet, or .venv/bin/pip install -e '.[parquet]', in the checkout"
        raise SourceError(path, hint) from None
    raw = read_bytes(path)
    try:
        parquet_file = pq.ParquetFile(io.BytesIO(raw))
        names = set(parquet_file.schema_arrow.names)
        if "title" not in names:
            raise SourceError(path, "no 'title' column: not a Paper Copilot table")
        table = parquet_file.read(columns=[name for name in COLUMNS if name in names])
        # Converting checks the data: a damaged page can hold invalid UTF-8 (UnicodeDecodeError).
        rows: list[dict[str, Any]] = table.to_pylist()
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise SourceError(path, f"not a valid Parquet file: {_first_line(exc)}") from None
    return rows


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
