"""A saved search index updated for a few papers changed in place (an import of a decisions file:
the same papers in the same order, some of their titles, keywords, authors or abstracts new),
without reading the other papers: the packed index of :mod:`paperdeck.search.packed_index` with
the changed papers' old postings taken out and their new ones merged in, equal to the one
:func:`~paperdeck.search.packed_index.build` makes from every paper.

Why a merge of the whole packed index, not a delta segment beside it: the file is read through
``mmap`` by every search (the app's first keystroke, ``paperdeck search``), and a second segment
would be merged by every reader at every query or at every load; a decisions file changes a few
per cent of the papers once. The merge is numpy's, over the posting lists as one sorted array of
keys ``(list, position)``: the kept postings stay in order (the vocabulary is renumbered
monotonically), the new ones (a few thousand) are put in place by a binary search, so that its
cost is a few passes in C over the postings, not a Python loop per paper as the build is.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from paperdeck.model.paper import Paper
from paperdeck.search.packed_index import CODES, Lines, decoded, encoded
from paperdeck.search.words import fold_fields, word_list, word_set

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def _paper_entries(paper: Paper) -> tuple[list[set[str]], str, str, str, int, str]:
    """What :func:`~paperdeck.search.packed_index.build` takes of one paper: its words by field
    (:data:`~paperdeck.search.packed_index.CODES` order; an abstract's words less those of the
    other fields), its title, keyword and author lines, its title size and its title initials."""
    title_text, keyword_text, author_text, abstract_text = fold_fields(paper)
    title_words = word_list(title_text)
    title_set = set(title_words)
    keyword_set = word_set(keyword_text)
    author_set = word_set(author_text)
    abstract_set = word_set(abstract_text)
    abstract_set.difference_update(title_set, keyword_set, author_set)
    title = " " + " ".join(title_words)
    keywords = " " + " ".join(keyword_set) if keyword_set else ""
    authors = " " + " ".join(author_set) if author_set else ""
    initials = "".join(word[0] for word in title_words)
    return (
        [title_set, keyword_set, author_set, abstract_set],
        title,
        keywords,
        authors,
        min(len(title_set), 65535),
        initials,
    )


#: Postings merged at once (:func:`patched`): bounds the memory of its int64 keys.
_BLOCK = 1 << 18


def _blocks(starts: npt.NDArray[np.int64]) -> Iterator[tuple[int, int, int]]:
    """Blocks of whole posting lists of about :data:`_BLOCK` postings: ``(first posting, end
    posting, first list)`` each, in order, covering every list (one block when there are none)."""
    import numpy as np

    lists = len(starts) - 1
    first = 0
    while True:
        end_list = int(np.searchsorted(starts, starts[first] + _BLOCK, side="right")) - 1
        end_list = min(max(end_list, first + 1), lists)
        if lists == 0:
            yield 0, 0, 0
            return
        yield int(starts[first]), int(starts[end_list]), first
        if end_list >= lists:
            return
        first = end_list


def _places(old: list[str], new: list[str]) -> Iterator[int]:
    """For each word of ``old`` (sorted), its index in ``new`` (sorted), or where it would be."""
    at = 0
    for word in old:
        at = bisect_left(new, word, at)
        yield at


def patched(made: tuple[Any, ...], count: int, changes: Mapping[int, Paper]) -> tuple[Any, ...]:
    """The arguments of :meth:`~paperdeck.search.index.SearchIndex._adopt` (without the typo
    buckets and rankings, which follow the vocabulary and the papers: made anew) for the papers
    of a saved index (``made``: :func:`~paperdeck.search.packed_index.checked`'s first eight,
    for ``count`` papers) with the papers at the positions of ``changes`` replaced by the papers
    given: equal to what :func:`~paperdeck.search.packed_index.build` gives for the papers with
    those replaced (each keyword and author line holding the same words, maybe in another order,
    as two builds' do).

    Raises:
        ValueError: a position is not one of the ``count`` papers'.
    """
    import numpy as np

    vocabulary, starts, postings, titles, keyword_lines, author_lines, title_sizes, initials = made[:8]
    if any(not 0 <= position < count for position in changes):
        raise ValueError("a changed paper's position is not one of the index's")
    entries = {position: _paper_entries(paper) for position, paper in sorted(changes.items())}
    size = len(vocabulary)
    starts_array = np.frombuffer(starts, np.int64) if len(starts) else np.zeros(1, np.int64)
    old = np.frombuffer(postings, np.uint32) if len(postings) else np.zeros(0, np.uint32)
    gone = np.zeros(max(count, 1), bool)
    gone[list(changes)] = True
    # The vocabulary: the words still in a posting list, and the changed papers' new words.
    left = np.zeros(len(CODES) * size, np.int64)
    for start, end, first in _blocks(starts_array):
        held = ~gone[old[start:end]]
        if len(held):
            cuts = starts_array[first:] - start
            cuts = cuts[cuts < len(held)]
            counts = np.add.reduceat(held.view(np.uint8), cuts, dtype=np.int64)
            counts[np.diff(np.append(cuts, len(held))) == 0] = 0  # an empty list's reduceat is its next item
            left[first : first + len(counts)] += counts
    used = left.reshape(len(CODES), size).any(axis=0) if size else np.zeros(0, bool)
    added = set().union(*(word for entry in entries.values() for word in entry[0]))
    still = [vocabulary[n] for n in np.flatnonzero(used).tolist()]
    new_vocabulary = sorted(added.union(still)) if added.difference(still) else still
    new_size = len(new_vocabulary)
    number = {word: bisect_left(new_vocabulary, word) for word in added}  # the new words' numbers only
    # Each old word's place in the new vocabulary (its number if it stayed; where it would be if
    # not): monotone, so that the old lists keep their order and a block of them is a range.
    places = np.fromiter(_places(vocabulary, new_vocabulary), np.int64, count=size)
    old_lists = (np.arange(len(CODES), dtype=np.int64)[:, None] * new_size + places[None, :]).ravel()
    fresh: list[int] = []
    for position, entry in entries.items():
        for code, field_words in zip(CODES, entry[0], strict=True):
            base = code * new_size
            fresh.extend((base + number[word]) * count + position for word in field_words)
    fresh_keys = np.sort(np.array(fresh, np.int64))
    # The postings merged a block of old lists at a time (keys list × count + position, int64,
    # held for one block only), each block with the new postings of the lists it spans.
    lists = len(CODES) * new_size
    sizes_of_lists = np.zeros(lists, np.int64)
    # Written in place, a block after the other: the postings held and the new ones (never the
    # blocks and their concatenation at once).
    new_postings = np.empty(int(left.sum()) + len(fresh_keys), np.uint32)
    written = 0
    low = 0  # the first new list not yet written
    blocks = list(_blocks(starts_array))
    for n, (start, end, first) in enumerate(blocks):
        last = blocks[n + 1][2] if n + 1 < len(blocks) else len(CODES) * size
        high = int(old_lists[last]) if last < len(CODES) * size else lists
        segment = old[start:end]
        held = ~gone[segment]
        owners = np.repeat(old_lists[first:last], np.diff(starts_array[first : last + 1]))[held]
        keys = owners * count + segment[held]
        del owners, held
        window = fresh_keys[np.searchsorted(fresh_keys, low * count) : np.searchsorted(fresh_keys, high * count)]
        keys = np.insert(keys, np.searchsorted(keys, window), window)
        of_list = keys // count
        sizes_of_lists[low:high] += np.bincount(of_list - low, minlength=high - low)[: high - low]
        new_postings[written : written + len(keys)] = keys - of_list * count
        written += len(keys)
        del keys, of_list
        low = high
    if written != len(new_postings):
        raise ValueError("the postings merged are not those counted")
    new_starts = np.zeros(lists + 1, np.int64)
    np.cumsum(sizes_of_lists, out=new_starts[1:])
    # The changed papers' lines, spliced into the others' text (not split into a line per paper).
    sizes = array("H", title_sizes)
    for position, entry in entries.items():
        sizes[position] = entry[4]
    new_lines = [
        _spliced(titles, {position: entry[1] for position, entry in entries.items()}, count),
        _spliced(keyword_lines, {position: entry[2] for position, entry in entries.items()}, count),
        _spliced(author_lines, {position: entry[3] for position, entry in entries.items()}, count),
    ]
    initial_text = _spliced(
        Lines(raw=initials if isinstance(initials, bytes) else encoded(initials)) if count else Lines([]),
        {position: entry[5] for position, entry in entries.items()},
        count,
    )
    # Handed over as views of the arrays (not copies): typed as the index reads a saved file's.
    starts_view = new_starts.data.cast("B").cast("q")
    postings_view = new_postings.data.cast("B").cast("I")
    return (
        new_vocabulary, starts_view, postings_view,
        new_lines[0], new_lines[1], new_lines[2], sizes, decoded(initial_text.encoded()) if count else "",
    )  # fmt: skip


#: Lines spliced (:func:`_spliced`) since the process began: the tests count them.
SPLICED_LINES = [0]


def _spliced(lines: Lines, changes: Mapping[int, str], count: int) -> Lines:
    """``lines`` (``count`` of them) with the line at each position of ``changes`` replaced by the
    text given: the other lines' bytes copied as they are, a slice between two changed lines at a
    time (the line ends found in C), not split and joined again line by line."""
    import numpy as np

    if not count:
        return Lines([])
    raw = lines.encoded()
    ends = np.flatnonzero(np.frombuffer(raw, np.uint8) == 10)  # the newline ending each line but the last
    parts: list[bytes | memoryview] = []
    at = 0  # the first byte not copied yet
    for position in sorted(changes):
        start = int(ends[position - 1]) + 1 if position else 0
        end = int(ends[position]) if position < count - 1 else len(raw)
        parts += (raw[at:start], encoded(changes[position]))
        at = end
        SPLICED_LINES[0] += 1
    parts.append(raw[at:])
    return Lines(raw=b"".join(parts))


__all__ = ["patched"]
