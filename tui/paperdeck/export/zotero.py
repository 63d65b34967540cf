"""What a reference manager gets of a paper, shaped as Zotero reads it: names, the one link, the
tags and the lines of Zotero's *Extra* field. :mod:`paperdeck.export.ris` and
:mod:`paperdeck.export.csl` write them; every text here has been through
:mod:`paperdeck.model.safe_text` (:func:`one_line`: no control character, no line break).

How Zotero reads them (the sources, read for this module):

- *Names*: a name already written ``Family, Given`` is split at its first comma; otherwise the
  family name is the last space-separated word that starts with a letter and the given names
  are the words before it (``Jane van Doe`` → ``Doe``, ``Jane van``), as
  ``Zotero.Utilities.cleanAuthor`` splits a byline name (zotero/utilities ``utilities.js``). A
  name of one word stays one field (Zotero's single-field name, as for an organisation). A
  generational suffix (``Jan van der Berg, Jr.``) is taken off first: RIS writes it third
  (``Berg, Jan van der, Jr.``), CSL-JSON as the name's ``suffix``.
- *Extra*: the field for what Zotero has no field for. Each line is ``Label: value``; the
  labels used here (``Decision``, ``arXiv``, ``PDF``, ``Source code``, ``Reading status``,
  ``Starred``, ``Tags``) are none of the field names Zotero or citeproc-js take out of Extra
  (``extraToCSL`` in zotero/utilities ``utilities_item.js``), so they stay text. ``arXiv: ID`` is
  the line Zotero's own arXiv import writes.
"""

from __future__ import annotations

from paperdeck.export.bibtex import NOT_PUBLISHED, name_suffix
from paperdeck.model.decision import decision_shown
from paperdeck.model.paper import Paper, UserData
from paperdeck.model.safe_text import one_line, web_link
from paperdeck.text.render import render_keywords

__all__ = [
    "extra_lines",
    "in_proceedings",
    "person_name",
    "person_parts",
    "primary_link",
    "submission_status",
    "tags",
]


def person_name(name: str) -> tuple[str, str]:
    """``(family, given)`` of a byline name (:func:`person_parts` without the suffix)."""
    family, given, _suffix = person_parts(name)
    return family, given


def person_parts(name: str) -> tuple[str, str, str]:
    """``(family, given, suffix)`` of a byline name (see the module docstring), each on one line
    and trimmed: a generational suffix (``Jan van der Berg, Jr.``:
    :func:`~paperdeck.export.bibtex.name_suffix`) is CSL's ``suffix`` part, never the given name;
    ``given`` is ``""`` for a one-field name (``family`` then holds the whole name, and is ``""``
    only for a blank one)."""
    rest, suffix = name_suffix(one_line(name))
    family, given = _family_given(rest)
    return family, given, suffix.strip()


def _family_given(name: str) -> tuple[str, str]:
    """``(family, given)`` of a byline name without a suffix (the module docstring's rule)."""
    text = one_line(name)
    if "," in text:
        family, _, given = text.partition(",")
        if family.strip() and given.strip():
            return family.strip(), given.strip()
        text = text.replace(",", " ").strip()
        text = " ".join(text.split())
    words = text.split(" ")
    for at in range(len(words) - 1, 0, -1):
        if words[at][:1].isalpha():
            return " ".join(words[at:]), " ".join(words[:at])
    return text, ""


def in_proceedings(paper: Paper) -> bool:
    """Whether the paper is in its conference's proceedings: every decision but those the BibTeX
    export writes as ``@misc`` (under review, rejected, withdrawn, desk-rejected)."""
    return paper.decision not in NOT_PUBLISHED


def submission_status(paper: Paper) -> str:
    """Where a paper not in the proceedings (:func:`in_proceedings` false) was submitted:
    ``Submitted to ICLR 2026`` (its decision has a line of its own); ``""`` for a paper in the
    proceedings or one without a venue. RIS and CSL-JSON write such a paper as a manuscript
    (Zotero: *Manuscript*, not *Conference Paper*), its venue kept in this line."""
    venue = one_line(paper.venue_label)
    if in_proceedings(paper) or not venue:
        return ""
    return f"Submitted to {venue}"


def primary_link(paper: Paper) -> str:
    """The paper's one link for a reference's URL field: its OpenReview page, else its arXiv page,
    else its PDF, the first that is an ``http(s)`` link (:func:`web_link`); ``""`` for none."""
    return next((url for url in (paper.openreview_url, paper.arxiv_url, paper.pdf_url) if web_link(url)), "")


def tags(paper: Paper, user: UserData) -> list[str]:
    """The paper's keywords (rendered as the app shows them) then the user's tags, each on one
    line, blank and repeated ones left out: a reference's tags (Zotero reads keywords as tags)."""
    out: list[str] = []
    for text in [*render_keywords(paper.keywords), *user.tags]:
        tag = one_line(text)
        if tag and tag not in out:
            out.append(tag)
    return out


def extra_lines(paper: Paper, user: UserData) -> list[str]:
    """The lines for Zotero's Extra field, in this order, each only when there is something to
    say: ``Decision: oral (ICLR 2026 Oral)`` (the decision as the app shows it,
    :func:`~paperdeck.model.decision.decision_shown`: none when unknown),
    ``arXiv: 2401.01234``, ``PDF: URL`` and ``Source code: URL`` (``http(s)`` links only; the
    PDF when it is not already the URL field's link), ``Reading status: to-read`` (not when
    unseen), ``Starred: yes``; after the decision, for a paper not in the proceedings, ``Venue:
    Submitted to ICLR 2026`` (:func:`submission_status`). One line each: no value can start a line
    of its own."""
    lines: list[str] = []
    if decision := decision_shown(one_line(paper.decision), one_line(paper.decision_raw)):
        lines.append(f"Decision: {decision}")
    if status := submission_status(paper):
        lines.append(f"Venue: {status}")
    if paper.arxiv_id and (arxiv := one_line(paper.arxiv_id)):
        lines.append(f"arXiv: {arxiv}")
    if web_link(paper.pdf_url) and paper.pdf_url != primary_link(paper):
        lines.append(f"PDF: {paper.pdf_url}")
    if web_link(paper.code_url):
        lines.append(f"Source code: {paper.code_url}")
    if user.status != "unseen":
        lines.append(f"Reading status: {one_line(user.status)}")
    if user.starred:
        lines.append("Starred: yes")
    return lines
