"""A note as a Markdown file for the user's own editor: a header about the paper, then the note.

The header (title, id, link, keywords) is there to orient the writer; only what follows the
marker line is saved back. A file whose marker line was deleted is saved whole, minus nothing: the
user's text is never dropped.

Header fields come from paper files: each is one line (:func:`~paperdeck.model.safe_text.one_line`,
control characters shown) after a prefix (``# ``, ``- id: ``), so none can be the marker line nor
add a line of its own; the marker counts only as a whole line. The note itself goes through
:func:`~paperdeck.model.safe_text.document` both ways (tabs and line ends kept): a note that holds
raw control characters (a backup restored from elsewhere) reaches the editor, and comes back, with
each shown (``␛``), never raw, and no bidi override can reorder the file on the screen.
"""

from __future__ import annotations

import re

from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import document, one_line

#: The line that ends the header: only what follows it is saved back.
MARKER = "<!-- Write your note below this line. The lines above are not saved. -->"
_MARKER_LINE = re.compile(rf"^[ \t]*{re.escape(MARKER)}[ \t]*\r?$", re.MULTILINE)


def note_template(paper: Paper, note: str) -> str:
    """The file to open in the editor: Markdown header + marker + the current note (its control
    characters shown: :func:`~paperdeck.model.safe_text.document`), ending in a newline (an editor
    that appends, such as ``echo text >>``, starts a line of its own)."""
    lines = [f"# {one_line(paper.title)}", "", f"- id: {one_line(paper.id)}"]
    link = paper.openreview_url or paper.arxiv_url or paper.pdf_url
    if link:
        lines.append(f"- link: {one_line(link)}")
    if paper.keywords:
        lines.append(f"- keywords: {one_line('; '.join(paper.keywords))}")
    lines += ["", MARKER, ""]
    text = "\n".join(lines) + document(note)
    return text if text.endswith("\n") else text + "\n"


def note_from_file(text: str) -> str:
    """The note in an edited file: everything after the first line that is the marker (or the whole
    file when the marker is gone), with surrounding blank lines trimmed and control characters
    shown (:func:`~paperdeck.model.safe_text.document`: an editor may write them too)."""
    found = _MARKER_LINE.search(text)
    body = text[found.end() :] if found else text
    return document(body.strip("\n").rstrip())
