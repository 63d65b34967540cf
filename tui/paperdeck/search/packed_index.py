"""The packed form of the word index of :class:`paperdeck.search.index.SearchIndex`: how it is
built from papers (:func:`build`), and how a saved index's sections are checked and read back
(:func:`checked`; the file's layout is :mod:`paperdeck.search.index_file`'s).

Packed: a sorted vocabulary; one posting list per field and word, laid end to end (``postings``,
cut by ``starts``); each paper's title, keyword and author words, space-led, one line each; its
title's distinct words; its title initials.
"""

from __future__ import annotations

import re
import sys
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from itertools import accumulate, islice, pairwise, repeat
from operator import itemgetter, lt
from typing import Any, TypeAlias, TypeVar, Union, overload

from paperdeck.search.words import IndexedPaper, fold_fields, word_list, word_set, words

_Given = TypeVar("_Given", bound=IndexedPaper)

#: Field codes (title > keywords > authors > abstract in weight).
TITLE, KEYWORD, AUTHOR, ABSTRACT = 0, 1, 2, 3
CODES = (TITLE, KEYWORD, AUTHOR, ABSTRACT)

#: A sequence of unsigned ints: an ``array`` built here, or a ``memoryview`` of a saved file's section.
Numbers = Union["array[int]", memoryview]


class Lines(Sequence[str]):
    """One text per paper, held as the texts one a line, UTF-8 (lone surrogates kept), each
    decoded when it is read: a ``str`` per paper (~50 bytes of object beside its text) is not
    held. Where each line starts is found at first need (:meth:`lines`; a query of one long word
    needs none). ``raw`` may be a view of the mapped file, not copied (:func:`checked`'s
    ``count_lines`` False: the lines counted later, :meth:`line_count`); it is copied out of the
    mapping when the line starts are first found."""

    __slots__ = ("_raw", "_starts")

    def __init__(self, lines: list[str] | None = None, raw: bytes | memoryview | None = None) -> None:
        if raw is None:
            raw = encoded("\n".join(lines or ()))
        self._raw: bytes | memoryview = raw
        #: Where each line starts (byte offsets), then the end of the last line + 1: one more than
        #: the lines. Made at first need (:meth:`_line_starts`); no lines: made now (``b""`` is
        #: also one empty line).
        self._starts: array[int] | None = None if lines is None or lines else array("I", [0])

    def lines(self) -> Lines:
        """The texts, one per paper (this sequence: where each line starts is found now, so that
        the first read of a text does not pay for it)."""
        self._line_starts()
        return self

    def _line_starts(self) -> array[int]:
        made = self._starts
        if made is None:
            raw = self._raw
            if type(raw) is not bytes:  # a view of the mapped file: the text held from now on
                raw = self._raw = bytes(raw)
            wide = len(raw) + 1 >= 1 << 32
            made = array("q" if wide else "I", [0])
            if "numpy" in sys.modules:  # the line ends found in C, a megabyte at a time (no text-sized mask)
                import numpy as np

                for at in range(0, len(raw), _CHUNK):
                    chunk = np.frombuffer(raw, np.uint8, count=min(_CHUNK, len(raw) - at), offset=at)
                    ends = np.flatnonzero(chunk == 10) + (at + 1)
                    made.frombytes(ends.astype(np.int64 if wide else np.uint32).tobytes())
            else:  # one match at a time: no list of the lines
                made.extend(map(_match_end, _NEWLINE.finditer(raw)))
            made.append(len(raw) + 1)
            self._starts = made
        return made

    def __len__(self) -> int:
        return len(self._line_starts()) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        starts = self._line_starts()
        count = len(starts) - 1
        if isinstance(index, slice):
            return self.take(range(*index.indices(count)))
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("line out of range")
        return decoded(self._raw[starts[index] : starts[index + 1] - 1])

    def take(self, positions: Iterable[int]) -> list[str]:
        """The texts at ``positions`` (each in range)."""
        starts, raw = self._line_starts(), self._raw
        try:
            return [str(raw[starts[at] : starts[at + 1] - 1], "utf-8", "surrogatepass") for at in positions]
        except UnicodeDecodeError:  # not UTF-8 (a file whose CRC holds never is): replaced
            return [decoded(raw[starts[at] : starts[at + 1] - 1]) for at in positions]

    def containing(self, positions: Iterable[int], text: str) -> list[int]:
        """The positions of ``positions`` (each in range) whose text contains ``text``: a search of
        the line's bytes, none decoded (a UTF-8 needle in UTF-8 text matches where the text does)."""
        starts = self._line_starts()
        raw = self._raw
        assert type(raw) is bytes  # copied out of a mapping by _line_starts
        find, needle = raw.find, encoded(text)
        return [at for at in positions if find(needle, starts[at], starts[at + 1] - 1) >= 0]

    def encoded(self) -> bytes | memoryview:
        """The texts one a line, UTF-8 (lone surrogates kept)."""
        return self._raw

    def line_count(self) -> int:
        """How many texts there are (the lines of the encoded text while their starts are not
        found: one for an empty text, as for one empty line). A view of the mapped file is
        copied out of it to be counted, and the copy kept: :meth:`lines` copies it no more."""
        starts = self._starts
        if starts is not None:
            return len(starts) - 1
        raw = self._raw
        if type(raw) is not bytes:
            raw = self._raw = bytes(raw)
        return raw.count(b"\n") + 1


_CHUNK = 1 << 20
_NEWLINE = re.compile(b"\n")
_match_end = re.Match.end


#: What :func:`build` gives: the vocabulary, ``starts``, ``postings``, the title, keyword and
#: author lines, the title sizes and the title initials (one line each).
Packed: TypeAlias = tuple[list[str], "array[int]", "array[int]", Lines, Lines, Lines, "array[int]", str]


def build(papers: Iterable[IndexedPaper]) -> Packed:
    """The packed index of ``papers`` (see the module docstring), in their order: positions in the
    posting lists are indices into ``papers``, gone through once (each paper can be dropped once
    given). A while at tens of thousands of papers: the per-word work is done in C."""
    new_posting = partial(array, "I")
    fields: list[defaultdict[str, array[int]]] = [defaultdict(new_posting) for _ in CODES]
    title_get, keyword_get, author_get, abstract_get = (f.__getitem__ for f in fields)
    append = array.append
    first_letter = itemgetter(0)
    # Each paper's words, space-led (" graph neural networks"): for phrase order and for
    # prefix scans of one- and two-letter words.
    titles: list[str] = []
    keyword_texts: list[str] = []
    author_texts: list[str] = []
    title_sizes = array("H")
    initials: list[str] = []
    for i, paper in enumerate(papers):
        title_text, keyword_text, author_text, abstract_text = fold_fields(paper)
        title_words = word_list(title_text)
        title_set = set(title_words)
        keyword_set = word_set(keyword_text)
        author_set = word_set(author_text)
        abstract_set = word_set(abstract_text)
        abstract_set.difference_update(title_set, keyword_set, author_set)
        # map(array.append, ...) appends without a Python-level loop over the words, the
        # bulk of the build (arrays are not tracked by the GC; lists were slower).
        at = repeat(i)
        any(map(append, map(title_get, title_set), at))
        any(map(append, map(keyword_get, keyword_set), at))
        if author_set:
            any(map(append, map(author_get, author_set), at))
        any(map(append, map(abstract_get, abstract_set), at))
        titles.append(" " + " ".join(title_words))
        keyword_texts.append(" " + " ".join(keyword_set) if keyword_set else "")
        author_texts.append(" " + " ".join(author_set) if author_set else "")
        title_sizes.append(min(len(title_set), 65535))
        initials.append("".join(map(first_letter, title_words)))
    vocabulary = sorted(set().union(*fields))
    # One posting list per field, laid end to end in vocabulary order (see _adopt).
    flat: list[array[int]] = []
    sizes = array("I")
    empty = array("I")
    for field in fields:
        for posting in map(field.get, vocabulary, repeat(empty)):
            flat.append(posting)
            sizes.append(len(posting))
    del fields
    starts = array("q", accumulate(sizes, initial=0))
    postings = array("I", b"".join(flat))
    del flat
    return (
        vocabulary, starts, postings, Lines(titles), Lines(keyword_texts), Lines(author_texts),
        title_sizes, "\n".join(initials),
    )  # fmt: skip


def papers_named(ids: list[str], papers: Iterable[_Given]) -> Iterator[_Given]:
    """``papers``, each checked to be the paper ``ids`` names at its position, and as many (a
    build from papers read again must index the papers its ids say).

    Raises:
        ValueError: a paper is not the one named there, or there are more or fewer of them.
    """
    count = 0
    for count, paper in enumerate(papers, 1):
        if count > len(ids) or paper.id != ids[count - 1]:
            raise ValueError(f"paper {count} is {paper.id!r}, not the one named")
        yield paper
    if count != len(ids):
        raise ValueError(f"{count} papers for {len(ids)} ids")


SAVED_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"
#: The queries whose rankings (without notes) are saved with the index: the one-letter queries
#: the app warms at start (:meth:`SearchIndex.warm`), the slowest to rank.
SAVED_RANKINGS = tuple(SAVED_LETTERS)
#: Two-letter queries (of those letters and digits) are saved too when they rank at least
#: 1/``SAVED_PAIR_SHARE`` of the papers: the slowest of them to rank, typed as a search's second
#: key ("re", "tr"), a few dozen of the 1,296 on a conference.
SAVED_PAIR_SHARE = 10


def encoded(text: str) -> bytes:
    """``text`` as UTF-8 (lone surrogates kept)."""
    return text.encode("utf-8", "surrogatepass")


def decoded(raw: bytes | memoryview) -> str:
    """Inverse of :func:`encoded` (bytes that are not UTF-8, which a file whose CRC holds never
    has, are replaced)."""
    try:
        return str(raw, "utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return str(raw, "utf-8", "replace")


def _lines(raw: memoryview, count: int, what: str, counted: bool = True) -> Lines:
    """The ``count`` lines of a text section (one line each: no line for ``count`` 0), decoded at
    first need. Not ``counted``: the section's view kept as it is, its lines not counted (see
    :func:`checked`).

    Raises:
        ValueError: another number of lines.
    """
    if not counted and count:
        return Lines(raw=raw)
    text = bytes(raw)
    lines = text.count(b"\n") + 1 if count else 0
    if lines != count or (not count and text):
        raise ValueError(f"{lines} {what} for {count} papers")
    return Lines(raw=text) if count else Lines([])


def ids_fault(saved: memoryview, ids: Sequence[str]) -> str | None:
    """Why the ids section ``saved`` does not name ``ids`` (the catalogue's, in order); ``None``
    when it does."""
    if saved.tobytes() != encoded("\n".join(ids)):  # bytes: a memoryview compares item by item
        return "its papers are not the catalogue's"
    return None


def vocabulary_fault(vocabulary: list[str]) -> str | None:
    """Why ``vocabulary`` is not one of an index (sorted, each word once, none empty); ``None``
    when it is."""
    if "" in vocabulary or not all(map(lt, vocabulary, islice(vocabulary, 1, None))):
        return "its vocabulary is not sorted"
    return None


def checked(sections: dict[str, memoryview], ids: Sequence[str], *, count_lines: bool = True) -> tuple[Any, ...]:
    """The arguments of :meth:`SearchIndex._adopt` from a saved index's sections, each checked
    for what its sizes and order must be (the CRC :func:`read_sections` checked stands for the
    rest: each posting list ascending and naming a paper, each typo bucket naming words).
    ``count_lines`` False (a file read before its CRC is checked): the title, keyword and author
    texts are kept as views of the file, neither copied nor their lines counted here, and neither
    the ids compared with the catalogue's nor the vocabulary's order checked — with the CRC, later
    (:meth:`SearchIndex.unchecked_fault`): the first query needs none of it.

    Raises:
        ValueError: a section is not as :meth:`SearchIndex.save` writes it
            for these papers.
    """
    count = len(ids)
    if count_lines and (fault := ids_fault(sections["ids"], ids)):
        raise ValueError(fault)
    text = decoded(sections["vocabulary"])
    vocabulary = text.split("\n") if text else []
    if count_lines and (fault := vocabulary_fault(vocabulary)):
        raise ValueError(fault)
    starts, postings = sections["starts"], sections["postings"]
    if len(starts) != len(CODES) * len(vocabulary) + 1 or starts[0] != 0 or starts[-1] != len(postings):
        raise ValueError("its posting lists do not add up")
    sizes = sections["title_sizes"]
    if len(sizes) != count:
        raise ValueError("its title sizes are not one per paper")
    titles = _lines(sections["titles"], count, "titles", count_lines)
    keywords = _lines(sections["keywords"], count, "keyword lines", count_lines)
    authors = _lines(sections["authors"], count, "author lines", count_lines)
    initials = sections["initials"].tobytes()  # kept as UTF-8: searched as bytes (SearchIndex._adopt)
    if initials.count(b"\n") != max(count - 1, 0):
        raise ValueError("its title initials are not one line per paper")
    buckets = []
    for place in (0, 1):
        letters = decoded(sections[f"letters{place}"])
        bucket_starts, numbers = sections[f"bucket_starts{place}"], sections[f"bucket_words{place}"]
        if len(bucket_starts) != len(letters) + 1 or bucket_starts[0] != 0 or bucket_starts[-1] != len(numbers):
            raise ValueError("its typo buckets do not add up")
        if not all(map(lt, letters, letters[1:])):
            raise ValueError("its typo buckets are not sorted")
        buckets.append((letters, bucket_starts, numbers))
    queries = decoded(sections["ranked_queries"]).split("\n")
    ranked_starts, ranked = sections["ranked_starts"], sections["ranked_positions"]
    if len(ranked_starts) != len(queries) + 1 or ranked_starts[0] != 0 or ranked_starts[-1] != len(ranked):
        raise ValueError("its saved rankings do not add up")
    rankings: dict[tuple[str, ...], Numbers] = {}
    for query, (start, end) in zip(queries, pairwise(ranked_starts), strict=True):
        if not 0 <= end - start <= count:
            raise ValueError("a saved ranking is longer than the papers")
        rankings[tuple(dict.fromkeys(words(query)))] = ranked[start:end]
    made = vocabulary, starts, postings, titles, keywords, authors, sizes, initials, tuple(buckets), rankings
    return made


__all__ = [
    "ABSTRACT", "AUTHOR", "CODES", "KEYWORD", "SAVED_LETTERS", "SAVED_PAIR_SHARE", "SAVED_RANKINGS", "TITLE", "Lines",
    "Numbers", "Packed", "build", "checked", "decoded", "encoded", "ids_fault", "papers_named", "vocabulary_fault",
]  # fmt: skip
