"""Papers as RIS, the tagged format Zotero, EndNote and Mendeley import (``File → Import``).

One record per paper, in the order given, a blank line between records; every line is
``TAG  - value`` and ends in CRLF, as the RIS specification (and Zotero's own export) writes::

    TY  - CONF
    TI  - C³-Bench: a title
    AU  - Doe, Jane
    …
    ER  -

What each field holds, and what Zotero makes of it (Zotero's RIS translator, zotero/translators
``RIS.js``, lastUpdated 2026-01-05: its ``fieldMap``, ``degenerateImportFieldMap`` and
``processTag``):

=====  ==========================================  ======================================
tag    paperdeck                                   Zotero (item type *Conference Paper*)
=====  ==========================================  ======================================
TY     ``CONF`` for a paper in the proceedings;    item type ``conferencePaper``;
       ``MANSCPT`` for one not (yet) in them       ``manuscript`` (``exportTypeMap``)
TI     the title, rendered (``C$^3$`` → ``C³``)    Title
AU     each author, ``Family, Given``              an author each (split at the comma)
T2     the venue (``ICLR 2026``), when in the      Conference Name
       proceedings
C3     the venue, when in the proceedings          Proceedings Title
PY     the year                                    Date
AB     the abstract (LaTeX kept, one line)         Abstract
DO     the DOI                                     DOI
UR     the OpenReview, else arXiv, else PDF link   URL
KW     each keyword, then each of the user's tags  a tag each
M1     the Extra lines in one value, joined by     Extra (one line)
       ``; ``: the venue of a paper not in the
       proceedings, decision (the tier), arXiv
       id, PDF and code links, reading status,
       star
N1     a derived title said to be one             a child note
       (:mod:`paperdeck.export.titles`); the
       user's note, as HTML (below)                a child note
=====  ==========================================  ======================================

The Extra lines are :func:`~paperdeck.export.zotero.extra_lines`. "In the proceedings": every
decision but under review, rejected, withdrawn, desk-rejected (the BibTeX export's ``@misc``);
a paper not in them is a manuscript, its venue kept as the line ``Venue: Submitted to ICLR
2026`` (:func:`~paperdeck.export.zotero.submission_status`; the BibTeX entry says it in ``note``).
Names are split as :func:`~paperdeck.export.zotero.person_name` says.

Text is data: every value goes through :func:`~paperdeck.model.safe_text.one_line`, so no
control character, line feed, carriage return, line or paragraph separator reaches the file and
no value can end its line — a title holding ``\\nER  - \\nTY  - JOUR`` stays inside its ``TI``
line, as text. Links are written only when :func:`~paperdeck.model.safe_text.web_link` keeps
them. Zotero reads an ``N1`` value holding anything like an HTML tag as HTML (``processTag``), so
the note is always written as HTML, every character of it escaped: ``<p>`` per paragraph, ``<br/>``
per line break, ``&lt;`` for ``<`` — Zotero shows the note's text as the user wrote it, and no
markup of it is obeyed. (Zotero un-escapes HTML entities in the other tags, so a title holding
the literal text ``&amp;`` shows ``&`` there; other RIS readers keep it.) A keyword holding
``;`` is split there by Zotero's tag reader.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

from paperdeck.export.titles import DERIVED_TITLE_NOTE, export_title, shown_title
from paperdeck.export.zotero import extra_lines, in_proceedings, person_parts, primary_link, tags
from paperdeck.model.paper import Paper, UserData
from paperdeck.model.safe_text import one_line, visible

__all__ = ["EXTRA_JOIN", "note_html", "ris_record", "ris_records"]

#: What joins the Extra lines in the one ``M1`` value.
EXTRA_JOIN = "; "

_LINE_END = "\r\n"
_PARAGRAPHS = re.compile(r"\n[ ]*\n+")


def ris_records(papers: Sequence[Paper], users: Mapping[str, UserData]) -> str:
    """Every paper as one RIS record (see the module docstring), ``users`` the user's records by
    paper id (a paper without one is unstarred and unseen, without note or tags); ``""`` for no
    papers."""
    return "".join(ris_record(paper, users.get(paper.id) or UserData(paper.id)) + _LINE_END for paper in papers)


def ris_record(paper: Paper, user: UserData) -> str:
    """One paper's record, ``TY`` to ``ER``, each line ending in CRLF."""
    published = in_proceedings(paper)
    lines = [("TY", "CONF" if published else "MANSCPT")]
    title, derived = export_title(paper)
    lines.append(("TI", shown_title(title)))
    for author in paper.authors:
        family, given, suffix = person_parts(author)
        lines.append(("AU", ", ".join(part for part in (family, given, suffix) if part)))
    if published:
        venue = one_line(paper.venue_label)
        lines += [("T2", venue), ("C3", venue)]
    lines.append(("PY", str(paper.year) if paper.year else ""))
    lines.append(("AB", one_line(paper.abstract)))
    lines.append(("DO", one_line(paper.doi)))
    lines.append(("UR", primary_link(paper)))
    lines += [("KW", tag) for tag in tags(paper, user)]
    # one M1: Zotero joins several into Extra, but a reader keeping one value of a tag (rispy by
    # default, many others) kept only the first (the venue of a paper under review)
    lines.append(("M1", EXTRA_JOIN.join(extra_lines(paper, user))))
    if derived:
        lines.append(("N1", DERIVED_TITLE_NOTE))
    if user.note.strip():
        lines.append(("N1", note_html(user.note)))
    lines.append(("ER", ""))
    return "".join(f"{tag}  - {value}{_LINE_END}" for tag, value in lines if value or tag in ("TY", "ER"))


def note_html(note: str) -> str:
    """The user's note as one line of HTML that shows its text as written: control characters
    made visible (:func:`~paperdeck.model.safe_text.visible`), ``&`` ``<`` ``>`` escaped, a
    ``<p>`` per paragraph (blank-line separated), ``<br/>`` per line break, runs of spaces kept
    (``&nbsp;``), as Zotero turns a plain-text note into HTML."""
    text = visible(note).strip("\n")
    paragraphs = [part for part in _PARAGRAPHS.split(text) if part.strip()]
    out = []
    for paragraph in paragraphs:
        lines = [html.escape(line, quote=False).replace("  ", "&nbsp;&nbsp;") for line in paragraph.split("\n")]
        out.append("<p>" + "<br/>".join(lines) + "</p>")
    return "".join(out)
