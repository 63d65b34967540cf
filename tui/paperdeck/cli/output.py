"""What every subcommand prints: one JSON document with ``--json``, else plain lines; a paper as one
line; progress on standard error while files are read; an export on standard output; the one-line
error.

Everything the CLI writes goes through here, and through :mod:`paperdeck.model.safe_text` on its way:
no title, tag, file name, link or error from a file can put an escape sequence on the terminal
(control characters are shown as ``␛``, ``⟨U+009B⟩``; JSON gets ``\\u`` escapes instead).

Titles, abstracts and reviews are printed as the app shows them (:func:`shown_text`: LaTeX math as
Unicode, no styles); ``--raw`` prints their source text; ``--json`` always holds the source text."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.cli.shown import shown_text as shown_text
from paperdeck.model.counts import counted
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import document, json_text, one_line, shown_line, visible
from paperdeck.store.store import Store

if TYPE_CHECKING:  # a type only: Rich's progress is not loaded for a command that reads the store
    from rich.progress import Progress as RichProgress


#: The share of the merge's step (:meth:`ImportBar.merging`) each part of it ends at: the reviews
#: merged, their word index written, the papers' scores written; the papers' merge starts it.
MERGE_SHARES = {"reviews": 0.6, "review words": 0.8, "paper scores": 1.0}
#: The share of a gzip file's step (:meth:`ImportBar.read_bytes`) its decompression takes; the
#: parse of its records (:meth:`ImportBar.read_records`) moves the rest. Measured on a review part
#: (docs/performance.md, the sixteenth round).
GZIP_SHARE = 0.4


class ImportBar:
    """The import's progress on standard error (:func:`import_progress`): a bar of the files read
    and what is being done, one step a file (moving as a gzip file's bytes are read,
    :meth:`read_bytes`, then as its records are parsed, :meth:`read_records`), one for the merge
    (moving as the reviews are merged, then through the word index and the scores) and one for
    the indexes saved after them (:meth:`saving`). The steps add up to the bar's total;
    :meth:`done` draws it full."""

    def __init__(self, bar: RichProgress, files: int) -> None:
        self._bar = bar
        self._files = files
        self._task = bar.add_task("importing", total=files + 2)
        self._index = 0  # the file being read
        self._decompressed = False  # its bytes were told: its records move the rest of its step

    def reading(self, index: int, count: int, path: Path) -> None:
        """The :data:`~paperdeck.sources.importer.Progress` callback: file ``index`` is read next."""
        from rich.markup import escape

        # drawn now, not at the next tick: the file named while it is read, however short
        self._index, self._decompressed = index, False
        self._bar.update(
            self._task, completed=index, description=f"reading {escape(one_line(path.name))}", refresh=True
        )

    def read_bytes(self, done: int, size: int) -> None:
        """The :data:`~paperdeck.sources.base.BytesTold` callback: ``done`` of the gzip file's
        ``size`` compressed bytes are read and decompressed; the bar moves through the first
        :data:`GZIP_SHARE` of the file's step (drawn at its next tick: a piece at a time is often)."""
        self._decompressed = True
        share = min(done, size) / size if size > 0 else 0.0
        self._bar.update(self._task, completed=self._index + GZIP_SHARE * share)

    def read_records(self, done: int, total: int) -> None:
        """The :data:`~paperdeck.sources.base.RecordsTold` callback: ``done`` of the file's
        ``total`` records are parsed; the bar moves through the rest of the file's step (the
        whole of it when no bytes were waited for: a plain file, or one decompressed ahead)."""
        start = GZIP_SHARE if self._decompressed else 0.0
        share = min(done, total) / total if total > 0 else 1.0
        self._bar.update(self._task, completed=self._index + start + (1.0 - start) * share)

    def merging(self, what: str, done: int, total: int) -> None:
        """The :data:`~paperdeck.sources.importer.Merging` callback: the files are read and what
        they held is merged: ``merging 19,630 papers``, ``merging reviews 12,345/81,870`` (the
        bar moving through the merge's step as the reviews are merged), ``indexing the reviews'
        words`` (the word index's parts written: the bar's one percentage says how far),
        ``writing 19,499 papers' scores`` (each part its share of the step, :data:`MERGE_SHARES`;
        ``done`` of ``total`` moving through it when told). Drawn at the bar's next tick (a shard
        at a time is often)."""
        if what == "reviews":
            description = f"merging reviews {done:,}/{total:,}"
        elif what == "review words":  # `done` % of the index written (0: it begins)
            description = "indexing the reviews' words"
        elif what == "paper scores":
            description = f"writing {total:,} papers' scores"
        else:
            self._bar.update(self._task, completed=self._files, description=escape_text(f"merging {total:,} {what}"))
            return
        shares = list(MERGE_SHARES.values())
        end = MERGE_SHARES[what]
        start = shares[shares.index(end) - 1] if shares.index(end) else 0.0
        share = start + (end - start) * min(done, total) / total if total > 0 else start
        self._bar.update(self._task, completed=self._files + share, description=escape_text(description))

    def step(self, description: str) -> None:
        """The files are read and merged; ``description`` is what is done now (``indexing for search…``)."""
        self._bar.update(self._task, completed=self._files + 1, description=escape_text(description), refresh=True)

    def saving(self, done: int, total: int) -> None:
        """The indexes' save (after :meth:`step`) has done ``done`` of its ``total`` parts: the bar
        moves through its last step (drawn now: a part takes seconds)."""
        share = min(done, total) / total if total > 0 else 0.0
        self._bar.update(self._task, completed=self._files + 1 + share, refresh=True)

    def done(self) -> None:
        """The import is over: the bar drawn full (100 %) before it is cleared."""
        self._bar.update(self._task, completed=self._files + 2, refresh=True)


def escape_text(text: str) -> str:
    """``text`` as Rich markup shows it as it is (a ``[`` in a file name is no style)."""
    from rich.markup import escape

    return escape(one_line(text))


@contextlib.contextmanager
def import_progress(files: int, shown: bool = True) -> Iterator[ImportBar | None]:
    """The progress of an import of ``files`` files on standard error, while the block runs: a
    bar when standard error is a terminal (and ``shown``; ``--json`` shows none), ``None``
    otherwise. The bar is cleared when the block ends, an error or Ctrl-C included, so that
    ``paperdeck import`` prints its summary and ``paperdeck FILE`` opens the app on a clean screen.
    The bar's one measure is its percentage, with the time spent: no time left (the steps are of
    unlike lengths, a file's, the merge's, the indexes': a rate over them foretells nothing)."""
    if not (shown and sys.stderr.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as RichProgress

    console = Console(stderr=True)
    # two columns spare for the `^C` the terminal echoes: a full line would wrap onto one more,
    # which the bar, cleared line by line, would leave on the screen
    console.width = max(20, console.width - 2)
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), TaskProgressColumn(),
               TimeElapsedColumn())  # fmt: skip
    with RichProgress(*columns, console=console, transient=True) as bar:
        yield ImportBar(bar, files)


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    """Print ``data`` as one line of JSON when ``--json`` was given, else ``text`` (nothing when empty).

    ``text`` is printed :func:`~paperdeck.model.safe_text.visible` (newlines kept), the JSON
    :func:`~paperdeck.model.safe_text.json_text` (the same data, no raw C1 or bidi control)."""
    if args.json:
        print(json_text(json.dumps(data, ensure_ascii=False, indent=None)))
    elif text:
        print(visible(text))


def print_export(text: str, format: str) -> None:
    """Write an export (or, as ``format`` ``"json"``, a user-data backup) to standard output:
    JSON and CSL-JSON through :func:`~paperdeck.model.safe_text.json_text` (the same data); CSV,
    BibTeX, RIS and Markdown through :func:`~paperdeck.model.safe_text.document` (tabs and line
    ends kept, every other control character shown). ``-o FILE`` writes the export as it is instead."""
    from paperdeck.export.formats import JSON_FORMATS  # deferred: most commands print no export

    sys.stdout.write(json_text(text) if format in JSON_FORMATS else document(text))


def print_error(message: str) -> None:
    """``paperdeck: MESSAGE`` on standard error, control characters in it made visible (file names
    and excerpts of files are quoted in errors)."""
    print(f"paperdeck: {visible(message)}", file=sys.stderr)


#: The id column's least width in :func:`paper_row` (an OpenReview id, ``openreview:AbCdEfGh12``, fits).
ID_WIDTH = 24
#: The decision column's least width in :func:`paper_row` (``withdrawn``, ``spotlight`` fit).
DECISION_WIDTH = 13


def paper_row(
    store: Store, paper: Paper, raw: bool = False, id_width: int = ID_WIDTH, decision_width: int = DECISION_WIDTH
) -> str:
    """One line for ``paper``: star and note marks, id (padded to ``id_width``), decision (blank
    when unknown; padded to ``decision_width``, a longer one cut with ``…`` so that the title is
    never pushed right), title (:func:`shown_text`: rendered unless ``raw``)."""
    user = store.user_data(paper.id)
    marks = ("★" if user.starred else " ") + ("✎" if user.note else " ")
    decision = paper.decision if paper.decision != "unknown" else ""
    if len(decision) > decision_width:
        decision = decision[: decision_width - 1] + "…"
    return f"{marks} {paper.id:<{id_width}} {decision:<{decision_width}} {shown_line(paper.title, raw)}"


def paper_rows(store: Store, papers: Sequence[Paper], raw: bool = False) -> list[str]:
    """:func:`paper_row` of each of ``papers``, the ids padded to the widest shown (a
    ``title:icml-2019:fb55804305f1`` id is longer than an OpenReview one) and the decisions to the
    longest shown (``accept-conditional``), so that the decisions and titles start in one column."""
    width = max((len(paper.id) for paper in papers), default=ID_WIDTH)
    decisions = max((len(paper.decision) for paper in papers if paper.decision != "unknown"), default=0)
    return [paper_row(store, paper, raw, max(ID_WIDTH, width), max(DECISION_WIDTH, decisions)) for paper in papers]


def papers_text(count: int) -> str:
    """``"1 paper"``, ``"19,630 papers"``: a count of papers in prose."""
    return counted(count, "paper")
