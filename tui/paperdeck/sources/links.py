"""Links are validated once, at import: a paper keeps only the links paperdeck may open.

Every reader's papers pass through :func:`keep_web_links` (from
:func:`paperdeck.sources.read_source`): a ``pdf_url``, ``code_url``, ``openreview_url`` or
``arxiv_url`` that is not an absolute ``http(s)`` URL free of controls
(:func:`paperdeck.model.safe_text.web_link`) — ``javascript:``, ``file:``, ``data:``, a link with an
escape or a newline in it — is left out (``""``), and the read's notice counts them. The app and the
CLI check again before opening a link (stores written before this check).
"""

from __future__ import annotations

import re
from dataclasses import replace

from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import web_link
from paperdeck.sources.base import SourceRead

__all__ = ["LINK_FIELDS", "keep_web_links", "paper_web_links"]

#: The link fields of :class:`~paperdeck.model.paper.Paper`.
LINK_FIELDS = ("pdf_url", "code_url", "openreview_url", "arxiv_url")

#: A link :func:`web_link` keeps, told at once (the links of a conference's records are nearly all
#: this shape): ``http(s)://``, a host of dotted letters, digits and hyphens, then printable ASCII
#: alone (no space, no control). What does not match is judged by :func:`web_link` itself.
_PLAIN_WEB_LINK = re.compile(r"https?://[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:[/?#][!-~]*)?")


def paper_web_links(paper: Paper) -> tuple[Paper, int]:
    """``paper`` with every link field that is not a :func:`web_link` emptied, and how many were."""
    plain = _PLAIN_WEB_LINK.fullmatch
    changes = {
        name: "" for name in LINK_FIELDS if (url := getattr(paper, name)) and not plain(url) and not web_link(url)
    }
    if not changes:
        return paper, 0
    provenance = tuple(pair for pair in paper.provenance if pair[0] not in changes)
    return replace(paper, provenance=provenance, **changes), len(changes)  # type: ignore[arg-type]


def keep_web_links(read: SourceRead) -> SourceRead:
    """``read`` with its papers' non-web links left out (see the module docstring).

    Returns:
        ``read`` itself when every link is a web link; else a copy whose notice says how many links
        were left out (joined to a notice already there with ``"; "``).
    """
    papers: list[Paper] = []
    dropped = 0
    for paper in read.papers:
        kept, count = paper_web_links(paper)
        papers.append(kept)
        dropped += count
    if not dropped:
        return read
    line = (
        f"{read.path}: {dropped} link{'' if dropped == 1 else 's'} left out: not http(s) "
        "(javascript:, file:, data:, or control characters in it)"
    )
    notice = f"{read.notice}; {line}" if read.notice else line
    return replace(read, papers=tuple(papers), notice=notice)
