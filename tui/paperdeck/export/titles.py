"""The title an export writes for a paper, and whether it must be marked as derived.

A paper known by its abstract alone (a seed list) shows a title paperdeck derived from that
abstract (:mod:`paperdeck.text.titles`). An export is read as a citation: a derived title written
there as the paper's own would be cited as the authors'. So an export writes the title a source
gave when there is one (the source's own BibTeX entry, :attr:`Paper.bibtex`, may name it), and
else writes the derived title marked as such (BibTeX ``note``, RIS ``N1``, CSL ``note``: the words
of :data:`DERIVED_TITLE_NOTE`).

Every format that reads no LaTeX (RIS, CSL-JSON, Markdown, iCalendar) writes a title as the app
shows it, through :func:`shown_title`: the one rule, so no format writes ``\\textbf{…}`` or ``$…$``.
"""

from __future__ import annotations

from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import one_line

__all__ = ["DERIVED_TITLE_NOTE", "export_title", "shown_title"]

#: What an export says of a title paperdeck derived (no source gave the paper's title).
DERIVED_TITLE_NOTE = "Title derived from the abstract by paperdeck (no source gave the paper's title)"


def export_title(paper: Paper) -> tuple[str, bool]:
    """``(title, derived)``: the paper's title when a source gave it (``derived`` false); for a
    derived one, the ``title`` of the source's own BibTeX entry when it has one (as written
    there: LaTeX kept, outer braces removed), else the derived title with ``derived`` true."""
    if not paper.title_derived:
        return paper.title, False
    own = _bibtex_title(paper.bibtex)
    return (own, False) if own else (paper.title, True)


def shown_title(title: str) -> str:
    """``title`` as the app shows it, for a format that reads no LaTeX: math as Unicode, emphasis
    as its words (:func:`paperdeck.text.render.render_plain`), then one safe line
    (:func:`paperdeck.model.safe_text.one_line`)."""
    from paperdeck.text.render import render_plain  # deferred: the other formats and commands render no LaTeX

    return one_line(render_plain(title))


def _bibtex_title(raw: str) -> str:
    """The ``title`` field of one BibTeX entry, ``""`` when there is none or it does not parse."""
    if "title" not in raw.casefold():
        return ""
    from bibtexparser.entrypoint import parse_string  # deferred: most papers have no entry

    try:
        library = parse_string(raw)
    except Exception:  # bibtexparser's own failure: no title from it
        return ""
    if len(library.entries) != 1:
        return ""
    for name, field in library.entries[0].fields_dict.items():
        if name.casefold() == "title" and isinstance(field.value, str):
            value = field.value.strip()
            while len(value) >= 2 and value[0] == "{" and value[-1] == "}":
                value = value[1:-1].strip()
            return " ".join(value.split())
    return ""
