"""Words for the similarity index (:mod:`paperdeck.search.similar`): how papers are split into terms
and counted, fast.

A paper's text is its title (counted ``TITLE_WEIGHT`` times; none when derived from the abstract),
its keywords (``KEYWORD_WEIGHT`` times) and its abstract, links blanked out. A word is a run of
ASCII letters and digits after one ``bytes.translate`` fold (non-ASCII words NFKC- and case-folded
by :func:`paperdeck.search.words.words`), plural-folded by :func:`fold_plural`; stop words, LaTeX
command words, numbers, one-letter and over-long words are dropped. Chunks of papers are folded,
split and looked up at once, in C: the build's cost is one dict lookup per word read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice, repeat
from typing import TYPE_CHECKING

from paperdeck.search.words import IndexedPaper, words

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: How often each field's words count in a paper's text.
TITLE_WEIGHT = 3
KEYWORD_WEIGHT = 2
_MAX_WORD = 40  # longer runs are URLs, hashes or glued formulas
_CHUNK = 512  # papers tokenised at once (bounds the text held, and how long a chunk holds the GIL)
#: Marks in a chunk's text (private-use characters: neither white space nor folded away): the
#: end of a paper's title and of its keywords, and the end of the paper.
_FIELD_MARK = "\ue000"
_PAPER_MARK = "\ue001"
_FIELD_MARK_BYTES = _FIELD_MARK.encode("utf-8")
_PAPER_MARK_BYTES = _PAPER_MARK.encode("utf-8")
_FIELD_MARK_ID = -3
_PAPER_MARK_ID = -2
_DROPPED_ID = -1
_SPLIT_ID = -4  # a run of several words (see Vocabulary)

#: English function words and LaTeX command words.
_STOP_TEXT = """
    a about above across after afterwards again against all almost alone along already also although
    always am among amongst an and another any anyhow anyone anything anyway anywhere are around as at
    be became because become becomes becoming been before beforehand behind being below beside besides
    between beyond both but by can cannot could did do does doing done down due during each eg either
    else elsewhere enough especially etc even ever every everyone everything everywhere except few
    for former formerly from further furthermore had has have having he hence her here hereafter hereby
    herein hers herself him himself his how however ie if in indeed into is it its itself just last
    latter latterly least less many may me meanwhile might mine more moreover most mostly much must my
    myself namely neither never nevertheless next no nobody none noone nor not nothing now nowhere of
    off often on once one only onto or other others otherwise our ours ourselves out over own per
    perhaps please rather same several she should since so some somehow someone something sometime
    sometimes somewhere still such than that the their theirs them themselves then thence there
    thereafter thereby therefore therein thereupon these they this those though through throughout
    thru thus to together too toward towards under until up upon us very via was we well were what
    whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever whether
    which while whither who whoever whole whom whose why will with within without would yet you your
    yours yourself yourselves
    mathbb mathcal mathbf mathrm mathit mathsf mathtt mathscr mathfrak boldsymbol textbf textit texttt
    textrm textsc emph frac dfrac tfrac sqrt cdot cdots ldots infty operatorname widetilde widehat
    overline underline leq geq neq approx
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())


def fold_plural(word: str) -> str:
    """Harman's S-stemmer (1991), the mildest plural folding: ``policies`` → ``policy``, ``models``
    → ``model``, ``losses``/``analysis``/``corpus`` unchanged; words under four letters as they are."""
    if len(word) < 4 or word[-1] != "s":
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith(("us", "ss", "is")):
        return word
    return word[:-1]


def _fold_table() -> bytes:
    """``bytes.translate`` table: ASCII letters lower-cased, digits kept, other ASCII bytes to
    spaces; non-ASCII bytes (and so the paper separator) kept (words with those are re-split)."""
    table = bytearray(range(256))
    for byte in range(128):
        char = chr(byte)
        table[byte] = ord(char.lower()) if char.isalnum() else 0x20
    return bytes(table)


_FOLD = _fold_table()


class Vocabulary(dict[bytes, int]):
    """Surface word → term number, or ``_DROPPED_ID``; a word seen for the first time is folded
    (``__missing__``: once per distinct word, not once per word).

    A surface word is a run of the folded text split as UTF-8 bytes: bytes, not text, so that the
    text is not decoded and no ``str`` is made of every word read. ``bytes.split`` splits at
    ASCII white space only, ``str.split`` (what the words are) at the white space beyond it too
    (no-break spaces, ``U+3000``, …): a run holding such a space is ``_SPLIT_ID``, its words'
    numbers in :attr:`split` (the numbers are those the words split as text would have, met in
    the same order)."""

    def __init__(self) -> None:
        super().__init__({_FIELD_MARK_BYTES: _FIELD_MARK_ID, _PAPER_MARK_BYTES: _PAPER_MARK_ID})
        self.terms: dict[str, int] = {}
        #: A run holding white space beyond ASCII → the term numbers of its words, in order.
        self.split: dict[bytes, list[int]] = {}

    def __missing__(self, surface: bytes) -> int:
        word = folded = surface.decode("utf-8", "surrogatepass")
        if not word.isascii():
            runs = word.split()
            if len(runs) != 1 or runs[0] != word:
                self.split[surface] = [self[run.encode("utf-8", "surrogatepass")] for run in runs]
                self[surface] = _SPLIT_ID
                return _SPLIT_ID
            parts = words(word)  # NFKC-folded, case-folded, split at non-alphanumerics
            folded = max(parts, key=len) if parts else ""
        term_id = _DROPPED_ID
        if 1 < len(folded) <= _MAX_WORD and not folded.isdigit() and folded not in STOP_WORDS:
            term = fold_plural(folded)
            if term not in STOP_WORDS:
                term_id = self.terms.setdefault(term, len(self.terms))
        self[surface] = term_id
        return term_id


def _without_links(text: str) -> str:
    """``text`` with every white-space-separated run holding ``://`` blanked out: links are not
    words (``https://anonymous.4open.science/r/…``, in 1 of 15 ICLR 2026 abstracts, would make
    their papers alike). A loop per link, not per word: links are few."""
    at = text.find("://")
    if at < 0:
        return text
    pieces, done = [], 0
    while at >= 0:
        start = max(done, *(text.rfind(space, done, at) + 1 for space in " \n\t"))
        ends = [end for space in " \n\t" if (end := text.find(space, at)) >= 0]
        pieces += [text[done:start], " "]
        done = min(ends, default=len(text))
        at = text.find("://", done)
    pieces.append(text[done:])
    return "".join(pieces)


def _chunk_text(papers: Sequence[IndexedPaper]) -> str:
    """The papers' texts, each ``title ⟨field⟩ keywords ⟨field⟩ abstract ⟨paper⟩``; no title when it
    was derived from the abstract (its words are there already)."""
    marks = f" {_FIELD_MARK} ", f" {_PAPER_MARK} "
    parts = []
    for paper in papers:
        title = "" if paper.title_derived else paper.title
        parts += [title, marks[0], " ; ".join(paper.keywords), marks[0], paper.abstract, marks[1]]
    text = "".join(parts)
    if text.count(_FIELD_MARK) != 2 * len(papers) or text.count(_PAPER_MARK) != len(papers):
        # A paper holds a mark character itself (never seen in real lists): blank them out.
        for n in range(0, len(parts), 6):
            for field in (n, n + 2, n + 4):
                parts[field] = parts[field].replace(_FIELD_MARK, " ").replace(_PAPER_MARK, " ")
        text = "".join(parts)
    return _without_links(text)


def term_counts(
    papers: Iterable[IndexedPaper], vocabulary: Vocabulary
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Weighted word counts, paper by paper: how many distinct terms each paper has (one length
    per paper, in order), and its ``(term number, count)`` pairs laid end to end, sorted by paper
    then term, a word counting ``TITLE_WEIGHT`` times in the title and ``KEYWORD_WEIGHT`` times in
    the keywords. Chunks of papers are folded, split and looked up at once, in C; ``papers`` is
    gone through once, a chunk at a time (only a chunk of them is needed at once)."""
    import numpy as np

    field_weights = np.array([TITLE_WEIGHT, KEYWORD_WEIGHT, 1], np.int64)
    lookup = vocabulary.__getitem__
    split = vocabulary.split
    lengths: list[npt.NDArray[np.int64]] = []
    parts: tuple[list[npt.NDArray[np.int32]], ...] = ([], [])
    given = iter(papers)
    start = 0
    while chunk := list(islice(given, _CHUNK)):
        size = len(chunk)
        text = _chunk_text(chunk)
        del chunk
        tokens = text.encode("utf-8", "surrogatepass").translate(_FOLD).split()
        del text
        # The heart of the build: one dict lookup per word, no Python loop.
        ids = np.fromiter(map(lookup, tokens), dtype=np.int32, count=len(tokens))
        runs = np.flatnonzero(ids == _SPLIT_ID).tolist()
        more_at: list[int] = []  # a run's words after its first: their positions and numbers
        more_ids: list[int] = []
        for at in runs:  # a few per chunk
            numbers = split[tokens[at]]
            ids[at] = numbers[0] if numbers else _DROPPED_ID
            more_at += repeat(at, max(len(numbers) - 1, 0))
            more_ids += islice(numbers, 1, None)
        del tokens
        marks = ids <= _PAPER_MARK_ID  # either mark
        segment = np.cumsum(marks, dtype=np.int64) - marks  # three per paper: title, keywords, abstract
        if more_at:  # a word's place in its field does not count: the run's other words go at the end
            segment = np.concatenate((segment, segment[np.array(more_at, np.int64)]))
            ids = np.concatenate((ids, np.array(more_ids, np.int32)))
        kept = ids >= 0
        segment, ids = segment[kept], ids[kept]
        keys = np.repeat(((segment // 3) << 32) | ids.astype(np.int64), field_weights[segment % 3])
        keys, counts = np.unique(keys, return_counts=True)
        lengths.append(np.bincount(keys >> 32, minlength=size).astype(np.int64))
        parts[0].append((keys & 0xFFFFFFFF).astype(np.int32))
        parts[1].append(counts.astype(np.int32))
        start += size
    columns: list[npt.NDArray[np.int32]] = []
    for column in parts:  # one at a time, each chunk's arrays freed as soon as they are copied
        columns.append(np.concatenate(column) if column else np.zeros(0, np.int32))
        column.clear()
    return (np.concatenate(lengths) if lengths else np.zeros(0, np.int64)), columns[0], columns[1]


__all__ = ["KEYWORD_WEIGHT", "STOP_WORDS", "TITLE_WEIGHT", "Vocabulary", "fold_plural", "term_counts"]
