"""A note as a Markdown file for the user's own editor: a header about the paper, then the note.

The header (title, id, link, keywords) is there to orient the writer; only what follows the
marker line is saved back. A file whose marker line was deleted is saved whole, minus nothing: the
user's text is never dropped.
"""

from __future__ import annotations

from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import one_line

#: The line that ends the header: only what follows it is saved back.
MARKER = "<!-- Write your note below this line. The lines above are not saved. -->"


def note_template(paper: Paper, note: str) -> str:
    """The file to open in the editor: Markdown header + marker + the current note, ending in a
    newline (an editor that appends, such as ``echo text >>``, starts a line of its own)."""
    lines = [f"# {one_line(paper.title)}", "", f"- id: {paper.id}"]
    link = paper.openreview_url or paper.arxiv_url or paper.pdf_url
    if link:
        lines.append(f"- link: {link}")
    if paper.keywords:
        lines.append(f"- keywords: {one_line('; '.join(paper.keywords))}")
    lines += ["", MARKER, ""]
    text = "\n".join(lines) + note
    return text if text.endswith("\n") else text + "\n"


def note_from_file(text: str) -> str:
    """The note in an edited file: everything after the marker line (or the whole file when the
    marker is gone), with surrounding blank lines trimmed."""
    _, found, after = text.partition(MARKER)
    body = after if found else text
    return body.strip("\n").rstrip()
