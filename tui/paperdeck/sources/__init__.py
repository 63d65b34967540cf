"""Importers, one module per paper-list format, auto-detected: files in, :class:`SourceRead` out.

Each format module defines ``NAME`` (the ``--format`` value), ``DESCRIPTION``,
``sniff(path, head) -> bool`` (does this file look like mine? ``head`` is the file's first 64 KiB,
decoded leniently) and ``read(path) -> SourceRead`` (raises ``SourceError`` naming file and position).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from paperdeck.model.errors import SourceError
from paperdeck.sources.base import SourceRead, read_head, unreadable
from paperdeck.sources.links import keep_web_links

#: Format modules in detection order: the most specific first, seed text (the fallback) last.
_MODULES = (
    "openreview",
    "papercopilot",
    "parquet",
    "bibtex",
    "arxiv_atom",
    "csv_table",
    "seed_text",
)
_HEAD_BYTES = 65_536
#: The ``--format`` values, known without importing the format modules (a test checks they agree).
FORMAT_NAMES = ("openreview", "papercopilot", "parquet", "bibtex", "arxiv", "csv", "seed")
#: What each format's records are called, for "no BibTeX entries; it looks like OpenReview notes".
_RECORDS = {
    "openreview": "OpenReview notes",
    "papercopilot": "Paper Copilot records",
    "parquet": "Parquet rows",
    "bibtex": "BibTeX entries",
    "arxiv": "arXiv Atom entries",
    "csv": "CSV rows",
    "seed": "seed abstracts",
}


def format_modules() -> dict[str, ModuleType]:
    """The available format modules by ``NAME``, in detection order."""
    found: dict[str, ModuleType] = {}
    for name in _MODULES:
        try:
            module = importlib.import_module(f"paperdeck.sources.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"paperdeck.sources.{name}":
                continue  # a format not built (yet)
            raise
        found[module.NAME] = module
    return found


def format_names() -> list[str]:
    """The ``--format`` values, in detection order."""
    return list(format_modules())


def detect_format(path: Path) -> str:
    """The format of ``path`` by its content (and name), falling back to seed text.

    Raises:
        SourceError: the file cannot be opened, or it is a user-data backup (not a paper list:
            :func:`paperdeck.sources.importer.import_files` restores those).
    """
    try:
        head = read_head(path, _HEAD_BYTES).decode("utf-8", errors="replace").lstrip("\ufeff")
    except OSError as exc:
        raise unreadable(path, exc) from None
    from paperdeck.store.backup import looks_like_backup  # deferred: it needs the store

    if looks_like_backup(head):
        raise SourceError(path, "a paperdeck user-data backup, not a paper list; restore it with `paperdeck import`")
    modules = format_modules()
    suffix = path.suffix.lower()
    if suffix == ".gz":  # what the compressed file holds: ``x.jsonl.gz`` is JSON Lines
        suffix = Path(path.stem).suffix.lower()
    for name, module in modules.items():
        if module.sniff(path, head):
            return name
    if head.lstrip()[:1] in ("[", "{") or suffix in (".json", ".jsonl"):
        return "openreview"  # JSON that no reader recognised: its reader says what is wrong, and where
    if suffix in (".csv", ".tsv", ".bib", ".xml", ".parquet"):
        raise SourceError(path, f"not a format paperdeck recognises; try --format ({', '.join(modules)})")
    return "seed"


def read_source(path: Path | str, format: str | None = None) -> SourceRead:
    """Read one paper-list file, in ``format`` or the detected one.

    Raises:
        SourceError: unknown format, or the file cannot be read as that format; nothing is
            returned from a file that is partly broken. A forced ``format`` that reads nothing
            (no paper, review or skipped record) from a file with content that is detected as
            another format is refused, naming the format it looks like.
    """
    path = Path(path)
    modules = format_modules()
    name = format or detect_format(path)
    module = modules.get(name)
    if module is None:
        raise SourceError(path, f"unknown format {name!r}; one of: {', '.join(modules)}")
    result = module.read(path)
    assert isinstance(result, SourceRead)
    if format is not None and not (result.papers or result.reviews or result.skipped):
        _refuse_forced_format(path, name)
    return keep_web_links(result)  # links are validated here, once, for every format


def _refuse_forced_format(path: Path, forced: str) -> None:
    """Raise when ``path`` has content its detected format reads, but not the ``forced`` one.

    Raises:
        SourceError: the file is detected as another format.
    """
    try:
        if not read_head(path, _HEAD_BYTES).strip():
            return  # an empty file: its notice says so
        detected = detect_format(path)
    except (OSError, SourceError):
        return
    if detected != forced:
        looks = _RECORDS.get(detected, detected)
        raise SourceError(
            path, f"no {_RECORDS.get(forced, forced)}; it looks like {looks} — leave out --format"
        )  # links are validated here, once, for every format
