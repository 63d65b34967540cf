"""Papers as CSL-JSON, the input of citeproc (Pandoc, Zotero, Mendeley): a JSON array of items.

Each item follows the CSL data schema (citation-style-language/schema
``schemas/input/csl-data.json``, v1.0): ``id`` and ``type`` are required and no other key but the
schema's variables is written::

    {"id": "doe2026bench", "citation-key": "doe2026bench", "type": "paper-conference",
     "title": "C³-Bench: a title", "author": [{"family": "Doe", "given": "Jane"}], …}

What each variable holds, and what Zotero makes of it (Zotero's CSL JSON import runs
``Zotero.Utilities.Item.itemFromCSLJSON``, zotero/utilities ``utilities_item.js``, through the
CSL mappings of zotero/zotero-schema ``schema.json``, version 41):

===================  ====================================  ====================================
variable             paperdeck                             Zotero (*Conference Paper*)
===================  ====================================  ====================================
``id``               the citation key (the BibTeX          the item's id (not kept); Pandoc
                     export's, :func:`citation_keys`)      cites by it
``citation-key``     the same key                          Citation Key
``type``             ``paper-conference`` for a paper in   item type ``conferencePaper``;
                     the proceedings, ``manuscript`` for   ``manuscript``
                     one not (yet) in them
``title``            the title, rendered (``C³``)          Title
``author``           ``{"family", "given"}`` each, or      an author each (two fields, or one)
                     ``{"literal"}`` for a one-word name
``event-title``      the venue (``ICLR 2026``), when in    Conference Name
                     the proceedings
``container-title``  the venue, when in the proceedings    Proceedings Title
``status``           not in the proceedings: ``Submitted   citeproc's status; Zotero gets the
                     to ICLR 2026``                        venue from the note's ``Venue:`` line
``issued``           ``{"date-parts": [[year]]}``          Date
``abstract``         the abstract (LaTeX and paragraphs)   Abstract
``DOI``, ``URL``     the DOI; the OpenReview, else arXiv,  DOI; URL
                     else PDF link
``keyword``          keywords then the user's tags,        nothing: Zotero's CSL import reads
                     joined by ``", "``                    no tags
``note``             a derived title said to be one, the   Extra
                     Extra lines (decision, arXiv id,
                     links, status, star), ``Tags: …``,
                     then the user's note, each of its
                     lines quoted ``> ``
===================  ====================================  ====================================

Zotero makes no tags and no child notes from CSL-JSON: the user's tags and note reach it as text
in Extra (for tags and a note of their own, export RIS). The note's lines are quoted (``> ``) so
that none of them can read as a ``Field: value`` line, which Zotero and citeproc-js take out of
Extra as the item's fields. Names are split as :func:`~paperdeck.export.zotero.person_name` says.

Text is data: titles, names, keywords and Extra lines go through
:func:`~paperdeck.model.safe_text.one_line`, the abstract and the note through
:func:`~paperdeck.model.safe_text.visible` (line breaks kept, every other control character
shown); links are written only when :func:`~paperdeck.model.safe_text.web_link` keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from paperdeck.export.bibtex import citation_keys
from paperdeck.export.titles import DERIVED_TITLE_NOTE, export_title, shown_title
from paperdeck.export.zotero import extra_lines, in_proceedings, person_parts, primary_link, submission_status, tags
from paperdeck.model.paper import Paper, UserData
from paperdeck.model.safe_text import one_line, visible

__all__ = ["csl_item", "csl_items", "csl_json"]


def csl_json(papers: Sequence[Paper], users: Mapping[str, UserData]) -> str:
    """:func:`csl_items` as a JSON document (two-space indent, non-ASCII kept), ending in a
    newline; ``[]`` for no papers."""
    return orjson.dumps(csl_items(papers, users), option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"


def csl_items(papers: Sequence[Paper], users: Mapping[str, UserData]) -> list[dict[str, Any]]:
    """One CSL item per paper, in the order given (see the module docstring); ``users`` the
    user's records by paper id (a paper without one is unstarred and unseen, without note or
    tags)."""
    keys = citation_keys(papers)
    return [
        csl_item(paper, users.get(paper.id) or UserData(paper.id), key) for paper, key in zip(papers, keys, strict=True)
    ]


def csl_item(paper: Paper, user: UserData, key: str) -> dict[str, Any]:
    """One paper's CSL item under citation key ``key``; variables the paper lacks are left out."""
    published = in_proceedings(paper)
    item: dict[str, Any] = {"id": key, "citation-key": key, "type": "paper-conference" if published else "manuscript"}
    title, derived = export_title(paper)
    item["title"] = shown_title(title)
    authors = []
    for name in paper.authors:
        family, given, suffix = person_parts(name)
        if family:
            person = {"family": family, "given": given} if given else {"literal": family}
            if suffix and given:
                person["suffix"] = suffix
            authors.append(person)
    item["author"] = authors
    if published:
        venue = one_line(paper.venue_label)
        item["event-title"] = venue
        item["container-title"] = venue
    else:
        item["status"] = submission_status(paper)
    if paper.year:
        item["issued"] = {"date-parts": [[paper.year]]}
    item["abstract"] = visible(paper.abstract).strip()
    item["DOI"] = one_line(paper.doi)
    item["URL"] = primary_link(paper)
    item["keyword"] = ", ".join(tags(paper, user))
    note = [DERIVED_TITLE_NOTE] if derived else []
    note += extra_lines(paper, user)
    if user.tags:
        note.append("Tags: " + ", ".join(tag for tag in (one_line(t) for t in user.tags) if tag))
    if user.note.strip():
        quoted = [f"> {line}".rstrip() for line in visible(user.note).strip("\n").split("\n")]
        note += ["", *quoted] if note else quoted
    item["note"] = "\n".join(note)
    return {name: value for name, value in item.items() if value not in ("", [])}
