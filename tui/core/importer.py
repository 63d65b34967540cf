"""Import paper-list files into the store, all or nothing per call."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from tui.core.paper import Paper
from tui.core.sources.seed_text import read_seed_file
from tui.core.store import ImportReport, Store


def read_papers(paths: Sequence[Path]) -> tuple[list[Paper], list[str]]:
    """Read every file; return their papers and notices (e.g. "no papers in this file").

    Raises:
        SourceError: a file cannot be read; raised before anything is imported.
    """
    papers: list[Paper] = []
    notices: list[str] = []
    for path in paths:
        seed_list = read_seed_file(path)
        papers.extend(seed_list.papers)
        if seed_list.notice:
            notices.append(seed_list.notice)
    return papers, notices


def import_files(store: Store, paths: Sequence[Path]) -> ImportReport:
    """Read all ``paths``, then merge their papers into ``store`` in one catalogue write.

    Raises:
        SourceError: a file cannot be read; nothing at all was imported.
        StoreError: the catalogue cannot be written; nothing changed.
    """
    papers, notices = read_papers(paths)
    report = store.import_papers(papers)
    return replace(report, notices=tuple(notices))
