"""Links are checked once at import (:mod:`paperdeck.sources.links`): the plain links a
conference's records hold (``https://openreview.net/forum?id=…``) are told kept by one pattern,
without :func:`~paperdeck.model.safe_text.web_link`'s parse (issue 32: the dump import's CPU per
paper); whatever the pattern does not match is judged by ``web_link`` as before, and the pattern
never keeps a link ``web_link`` would leave out."""

from __future__ import annotations

from dataclasses import replace

import pytest
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import web_link
from paperdeck.sources import links, read_source

from tests.helpers import submission_parts
from tests.hostile_corpus import LINKS as HOSTILE_LINKS
from tests.hostile_corpus import PAYLOADS

LINKS = [
    "https://openreview.net/forum?id=abc_DEF-1",
    "http://arxiv.org/abs/2401.00001v2",
    "https://github.com/a/b#readme",
    "https://example.com",
    "https://localhost/x",
    "https://a..b/x",
    "https://.example.com/",
    "https://example.com:8080/x",
    "https://user@example.com/x",
    "https://[::1]/x",
    "https://[/x",
    "https://example.com/a b",
    "https://example.com/\x07",
    "https://example.com/\u202e",
    "https://exämple.com/x",
    "HTTPS://EXAMPLE.COM/x",
    "javascript:alert(1)//https://example.com",
    "file:///etc/passwd",
    "data:text/html,https://x.org",
    "//example.com/x",
    "https:example.com",
    "https://",
    " https://example.com",
    "https://example.com/\n",
    "ftp://example.com",
]


@pytest.mark.parametrize(
    "url", [*LINKS, *HOSTILE_LINKS.values(), *(f"https://example.com/{p}" for p in PAYLOADS.values())]
)
def test_a_link_is_kept_exactly_when_web_link_keeps_it(url: str) -> None:
    paper = Paper("x:1", "T", "A", pdf_url=url, code_url=url, openreview_url=url, arxiv_url=url)
    kept, dropped = links.paper_web_links(paper)
    expected = web_link(url) if url else ""
    assert kept.pdf_url == kept.code_url == kept.openreview_url == kept.arxiv_url == expected
    assert dropped == (4 if url and not expected else 0)


def test_the_dumps_links_are_kept_without_parsing_one(monkeypatch: pytest.MonkeyPatch) -> None:
    papers = [paper for path in submission_parts() for paper in read_source(path).papers]
    given = [url for paper in papers for name in links.LINK_FIELDS if (url := getattr(paper, name))]
    assert len(given) >= len(papers)  # each record has its forum's link at least
    parsed: list[str] = []

    def counted(url: str) -> str:
        parsed.append(url)
        return web_link(url)

    monkeypatch.setattr(links, "web_link", counted)
    assert all(links.paper_web_links(paper) == (paper, 0) for paper in papers)
    assert parsed == []
    odd = replace(papers[0], code_url="javascript:alert(1)")
    assert links.paper_web_links(odd)[1] == 1 and parsed == ["javascript:alert(1)"]
