"""Papers out to files: BibTeX, Markdown, CSV and JSON."""

from __future__ import annotations

from pathlib import Path


def nothing_written(path: Path | None, name: str) -> str:
    """How a refusal to write ``path`` (shown as ``name``) ends: ``nothing written``, and that the
    file is left as it was only when there is one (a file that never existed was not "left")."""
    if path is not None and path.exists():
        return f"nothing written ({name} left as it was)"
    return "nothing written"
