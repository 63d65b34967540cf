"""The folded texts of many papers laid end to end, field by field, so a text term
(``abstract:protein``, ``"large language"``) is found by scanning bytes at C speed instead of
calling a Python predicate per paper.

A paper's text has five parts — area, authors, title, keywords, abstract — each folded by
:func:`paperdeck.model.paper.normalise_text` and UTF-8 encoded; each part of all papers is one bytes
object, the papers' texts separated by ``\\x00``.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Iterable, Sequence
from typing import TypeAlias

from paperdeck.model.paper import Paper, normalise_text

#: Field → the parts (0 area, 1 authors, 2 title, 3 keywords, 4 abstract) it looks in; a plain word
#: or phrase looks in several (a word: authors to abstract; a phrase: title to abstract).
SPANS = {"area": (0, 1), "author": (1, 2), "title": (2, 3), "keyword": (3, 4), "abstract": (4, 5)}
SPANS |= {"word": (1, 5), "phrase": (2, 5)}


def folded_parts(paper: Paper) -> list[bytes]:
    """The five folded, UTF-8 parts of a paper's text (see the module docstring)."""
    parts = [normalise_text(paper.primary_area), "\n".join(map(normalise_text, paper.authors))]
    parts += [normalise_text(paper.title), "\n".join(map(normalise_text, paper.keywords))]
    parts.append(normalise_text(paper.abstract))
    return [part.encode("utf-8", "surrogatepass") for part in parts]


#: Papers outside a corpus whose folded texts a :class:`TextCorpus` keeps (see :meth:`TextCorpus.has`).
FOLD_LIMIT = 65_536

#: A paper's folded text on its own (:func:`fold`): (paper, text, bounds), text being the five parts
#: joined by ``\n`` (which no folded needle holds), part i spanning ``text[bounds[i]:bounds[i + 1]]``.
Folded: TypeAlias = tuple[Paper, bytes, tuple[int, ...]]


def fold(paper: Paper) -> Folded:
    """``paper``'s five folded parts joined by ``\n``, with where each starts (and the end)."""
    parts = folded_parts(paper)
    bounds = [0]
    for part in parts:
        bounds.append(bounds[-1] + len(part) + 1)
    return paper, b"\n".join(parts), tuple(bounds)


def folded_contains(folded: Folded, field: str, needle: bytes) -> bool:
    """Whether a paper's text as :func:`fold` gives it has ``needle`` in ``field`` (:data:`SPANS`)."""
    low, high = SPANS[field]
    return folded[1].find(needle, folded[2][low], folded[2][high]) >= 0


class TextCorpus:
    """The texts of ``papers``, for :meth:`matching`, :meth:`contains` and :meth:`has`. Building
    takes a while at tens of thousands of papers (do it in a worker); the corpus is read-only
    afterwards but for :meth:`has`'s cache of other papers, and safe across threads.

    Args:
        papers: the papers; :meth:`position` finds them by identity (``id()``).
        fold_limit: how many papers outside ``papers`` :meth:`has` keeps folded (at most).
    """

    def __init__(self, papers: Sequence[Paper], fold_limit: int = FOLD_LIMIT) -> None:
        self._fold_limit = fold_limit
        self._folded: dict[int, Folded] = {}  # papers outside the corpus, by id()
        self._papers = list(papers)
        self._position = {id(paper): n for n, paper in enumerate(self._papers)}
        self._position_of_id = {paper.id: n for n, paper in enumerate(self._papers)}
        chunks: list[list[bytes]] = [[], [], [], [], []]
        for paper in self._papers:
            for part, text in zip(chunks, folded_parts(paper), strict=True):
                part.append(text)
        self._blobs: list[bytes] = []
        self._starts: list[list[int]] = []  # per part: where each paper's text starts in its blob
        for part in chunks:
            starts, at = [], 0
            for text in part:
                starts.append(at)
                at += len(text) + 1
            starts.append(at)  # the end, past the last separator
            self._starts.append(starts)
            self._blobs.append(b"\x00".join(part) + b"\x00")

    def holds(self, papers: Sequence[Paper]) -> bool:
        """Whether the corpus was made of exactly these paper objects, in this order."""
        return len(papers) == len(self._papers) and all(map(operator.is_, papers, self._papers))  # at C speed

    def position(self, paper: Paper) -> int | None:
        """Where ``paper`` (this very object) is in the corpus, or ``None``."""
        n = self._position.get(id(paper))
        return n if n is not None and self._papers[n] is paper else None

    def paper_ids(self, positions: set[int] | frozenset[int]) -> set[str]:
        """The ids of the papers at ``positions``."""
        papers = self._papers
        return {papers[n].id for n in positions}

    def contains(self, position: int, field: str, needle: bytes) -> bool:
        """Whether the paper at ``position`` has ``needle`` (folded, UTF-8) in ``field``: a
        ``bytes.find`` over that paper's text of each part."""
        low, high = SPANS[field]
        for part in range(low, high):
            starts = self._starts[part]
            if self._blobs[part].find(needle, starts[position], starts[position + 1] - 1) >= 0:
                return True
        return False

    def has(self, paper: Paper, field: str, needle: bytes) -> bool:
        """Whether ``paper`` has ``needle`` (folded, UTF-8) in ``field`` (a key of :data:`SPANS`):
        looked up in the corpus when the paper (this very object) is in it, else in the paper's
        own folded text, folded on first use and kept for the next call (up to ``fold_limit``
        papers; then the kept ones are dropped at once)."""
        n = self._position.get(id(paper))
        if n is not None and self._papers[n] is paper:
            return self.contains(n, field, needle)
        folded = self._folded.get(id(paper))
        if folded is None or folded[0] is not paper:
            folded = fold(paper)
            if len(self._folded) >= self._fold_limit:
                self._folded = {}  # swapped, never cleared under another thread
            self._folded[id(paper)] = folded
        return folded_contains(folded, field, needle)

    def scan_size(self, field: str) -> int:
        """Bytes that :meth:`matching` scans for ``field`` (the abstracts far outweigh the rest)."""
        low, high = SPANS[field]
        return sum(len(self._blobs[part]) for part in range(low, high))

    def narrowed(self, paper_ids: Iterable[str], field: str, needle: bytes) -> set[str]:
        """Those of ``paper_ids`` whose ``field`` contains ``needle`` (folded, UTF-8), checked paper
        by paper: for a few thousand ids or fewer, cheaper than :meth:`matching`'s scan of every
        paper. Ids not in the corpus are left out."""
        position = self._position_of_id.get
        return {pid for pid in paper_ids if (n := position(pid)) is not None and self.contains(n, field, needle)}

    def matching(self, field: str, needle: bytes) -> frozenset[int]:
        """Positions of the papers whose ``field`` (a key of :data:`SPANS`) contains ``needle``
        (folded, UTF-8): one scan of each part's bytes, and a step per paper found (a scan of the
        abstracts, the longest part, is the slow case)."""
        if not needle or b"\x00" in needle:
            return frozenset(n for n in range(len(self._papers)) if self.contains(n, field, needle))
        low, high = SPANS[field]
        found: set[int] = set()
        for part in range(low, high):
            blob, starts = self._blobs[part], self._starts[part]
            at = blob.find(needle)
            while at >= 0:
                n = bisect.bisect_right(starts, at) - 1
                found.add(n)
                at = blob.find(needle, starts[n + 1])  # the next paper's text: one hit is enough
        return frozenset(found)
