"""Reader for arXiv API responses: Atom 1.0 feeds.

The ``http://export.arxiv.org/api/query`` response, in the three layouts arXiv has served: the 2016
one (links with ``rel``/``title``, ``opensearch`` elements carrying their own ``xmlns``, titles
wrapped over lines, old-style ids such as ``cond-mat/0412498v1``), the November 2025 one (abs and
PDF ``<link>`` with only ``href``: the PDF is found by its ``/pdf/`` path) and the 2026 one (``rel``,
``type`` and ``title`` on links again). ``<entry><id>`` is ``http://arxiv.org/abs/<id>v<N>``.

Parsed with defusedxml (no entity expansion, no DTD). Each ``<entry>`` is one paper with id
``arxiv:<id without version>``; several versions of one id are one paper (the latest version
kept). Categories are arXiv classes, not keywords, and are not read. The venue is ``arXiv``
unless ``arxiv:journal_ref`` names a well-known venue (``ICLR 2024`` → ICLR 2024).
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from paperdeck.model.errors import SourceError
from paperdeck.model.ids import arxiv_id, canonical_id
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import web_link
from paperdeck.sources.base import Skip, SourceRead, read_text
from paperdeck.sources.common import collapse, excerpt, known_venue, year_from_text

NAME = "arxiv"

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
_VERSION = re.compile(r"v(\d+)$")
_CODE_URL = re.compile(r"https?://(?:www\.)?(?:github\.com|gitlab\.com)/[^\s,;)\]}>\"']+")


def sniff(path: Path, head: str) -> bool:
    """An Atom ``<feed>`` that mentions arxiv.org (every arXiv API response does)."""
    return "<feed" in head and "http://www.w3.org/2005/Atom" in head and "arxiv.org" in head


def read(path: Path) -> SourceRead:
    """Read an arXiv API response (see the module docstring).

    Raises:
        SourceError: unreadable file, malformed XML (naming line and column), a DTD or entity
            declaration, a document that is no Atom feed, or an arXiv API error response.
    """
    text = read_text(path)
    if not text.strip():
        return SourceRead(path, NAME, (), (), f"{path}: no papers in this file (it is empty)")
    try:
        root = fromstring(text)
    except ParseError as exc:
        line, column = getattr(exc, "position", (None, 0))
        reason = re.sub(r": line \d+, column \d+$", "", str(exc))
        raise SourceError(path, f"malformed XML: {reason} (column {column + 1})", line) from None
    except DefusedXmlException as exc:
        reason = f"refused: the XML declares a DTD or entities ({type(exc).__name__})"
        raise SourceError(path, reason) from None
    if root.tag != f"{_ATOM}feed":
        raise SourceError(path, f"not an Atom feed (root element {root.tag!r})")
    papers: dict[str, Paper] = {}
    versions: dict[str, int] = {}
    skipped: list[Skip] = []
    for number, entry in enumerate(root.iter(f"{_ATOM}entry"), start=1):
        raw_id = _text(entry, f"{_ATOM}id")
        if "/api/errors" in raw_id:
            message = _text(entry, f"{_ATOM}summary") or raw_id
            raise SourceError(path, f"the arXiv API returned an error: {excerpt(message)}")
        paper_id = arxiv_id(raw_id)
        if not paper_id:
            skipped.append(Skip(f"entry {number}", f"no arXiv id in <id> {raw_id!r}"))
            continue
        match = _VERSION.search(raw_id)
        version = int(match.group(1)) if match else 0
        if paper_id in papers:
            kept = max(version, versions[paper_id])
            skipped.append(Skip(f"entry {number}", f"another version of arXiv:{paper_id}; kept v{kept}"))
            if version <= versions[paper_id]:
                continue
        papers[paper_id], versions[paper_id] = _paper(entry, paper_id, path), version
    notice = None
    if not papers:
        total = _text(root, f"{_OPENSEARCH}totalResults")
        found = f" (the query found {total} results)" if total else ""
        notice = f"{path}: no papers in this file{found}"
    return SourceRead(path, NAME, tuple(papers.values()), tuple(skipped), notice)


def _paper(entry: Element, paper_id: str, path: Path) -> Paper:
    """The paper of one ``<entry>``."""
    abs_url = pdf_url = doi_url = ""
    for link in entry.iter(f"{_ATOM}link"):
        href = (link.get("href") or "").strip()
        title, rel, kind = link.get("title", ""), link.get("rel", ""), link.get("type", "")
        if title == "pdf" or kind == "application/pdf" or "/pdf/" in href:
            pdf_url = pdf_url or href
        elif title == "doi" or "doi.org/" in href:
            doi_url = doi_url or href
        elif rel == "alternate" or "/abs/" in href:
            abs_url = abs_url or href
    comment = _text(entry, f"{_ARXIV}comment")
    summary = collapse(_text(entry, f"{_ATOM}summary"))
    journal_ref = _text(entry, f"{_ARXIV}journal_ref")
    venue = known_venue(journal_ref)
    published = _text(entry, f"{_ATOM}published") or _text(entry, f"{_ATOM}updated")
    year = (year_from_text(journal_ref) if venue else None) or year_from_text(published[:4])
    doi = _text(entry, f"{_ARXIV}doi") or re.sub(r"^https?://(?:dx\.)?doi\.org/", "", doi_url)
    code = _CODE_URL.search(f"{comment} {summary}")
    authors = (_text(author, f"{_ATOM}name") for author in entry.iter(f"{_ATOM}author"))
    return Paper(
        id=canonical_id(arxiv=paper_id),
        title=collapse(_text(entry, f"{_ATOM}title")),
        abstract=summary,
        venue=venue or "arXiv",
        year=year,
        sources=(path.name,),
        authors=tuple(collapse(name) for name in authors if name.strip()),
        arxiv_id=paper_id,
        doi=doi,
        pdf_url=web_link(pdf_url),
        code_url=code.group().rstrip(".") if code else "",
        arxiv_url=web_link(abs_url) or f"https://arxiv.org/abs/{paper_id}",
    )


def _text(element: Element, tag: str) -> str:
    """The text of ``element``'s first ``tag`` child, ``""`` when absent."""
    child = element.find(tag)
    return (child.text or "").strip() if child is not None else ""
