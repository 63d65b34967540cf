"""A note as a Markdown file for the user's own editor: the note first, then the paper's context.

The file opens on the note (as git's commit message template does: the message at the top, then
a marker line, then lines that are not kept): the note, the line :data:`NOTE_END`, the context
(title, id, link, keywords) to orient the writer, and the line :data:`CONTEXT_END`. What is above
the first line and below the second is the note saved back, so text an editor appends (``echo text
>>``) is kept too. A file whose :data:`NOTE_END` line was deleted is saved whole, minus nothing:
the user's text is never dropped. A file of the former layout (context first, then
:data:`MARKER`, then the note: one written before this version and edited since) is still read:
what follows its marker.

Context fields come from paper files: each is one line (:func:`~paperdeck.model.safe_text.one_line`,
control characters shown) after a prefix (``# ``, ``- id: ``), so none can be a marker line nor
add a line of its own; a marker counts only as a whole line. The note itself goes through
:func:`~paperdeck.model.safe_text.document` both ways (tabs and line ends kept): a note that holds
raw control characters (a backup restored from elsewhere) reaches the editor, and comes back, with
each shown (``␛``), never raw, and no bidi override can reorder the file on the screen.
"""

from __future__ import annotations

import re

from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import document, one_line

#: The line after the note: the lines below it, down to :data:`CONTEXT_END`, are not saved.
NOTE_END = "<!-- Write your note above this line; the lines below it are not saved. -->"
#: The line after the paper's context: anything below it is added to the note.
CONTEXT_END = "<!-- End of the lines not saved; text below this line joins the note. -->"
#: The former layout's line between the context (above) and the note (below); still read.
MARKER = "<!-- Write your note below this line. The lines above are not saved. -->"


def _line_of(marker: str) -> re.Pattern[str]:
    return re.compile(rf"^[ \t]*{re.escape(marker)}[ \t]*\r?$", re.MULTILINE)


_NOTE_END_LINE, _CONTEXT_END_LINE, _MARKER_LINE = map(_line_of, (NOTE_END, CONTEXT_END, MARKER))


def note_template(paper: Paper, note: str) -> str:
    """The file to open in the editor: the current note (its control characters shown:
    :func:`~paperdeck.model.safe_text.document`), :data:`NOTE_END`, the Markdown context of the
    paper, :data:`CONTEXT_END`, ending in a newline (an editor that appends, such as ``echo text
    >>``, starts a line of its own, kept in the note)."""
    context = [f"# {one_line(paper.title)}", "", f"- id: {one_line(paper.id)}"]
    link = paper.openreview_url or paper.arxiv_url or paper.pdf_url
    if link:
        context.append(f"- link: {one_line(link)}")
    if paper.keywords:
        context.append(f"- keywords: {one_line('; '.join(paper.keywords))}")
    body = document(note).rstrip("\n")
    return "\n".join([body, "", NOTE_END, *context, CONTEXT_END]) + "\n"


def note_from_file(text: str) -> str:
    """The note in an edited file: what is above its first :data:`NOTE_END` line and below the
    :data:`CONTEXT_END` line after it; in a file of the former layout, what follows its first
    :data:`MARKER` line; else the whole file. Surrounding blank lines trimmed and control
    characters shown (:func:`~paperdeck.model.safe_text.document`: an editor may write them too)."""
    end = _NOTE_END_LINE.search(text)
    if end is not None:
        after = _CONTEXT_END_LINE.search(text, end.end())
        parts = [text[: end.start()].strip("\n").rstrip(), text[after.end() :].strip("\n").rstrip() if after else ""]
        return document("\n".join(part for part in parts if part))
    found = _MARKER_LINE.search(text)
    body = text[found.end() :] if found else text
    return document(body.strip("\n").rstrip())
