"""Every paper's term counts for the similarity index (:class:`TermCounts`), and how an index
update keeps them: a base file written whole by a build, plus the rows changed since (a delta)
kept in the index's own file, so that a decisions file writes what it changes, not every count.

The counts are what makes an update equal a build (the IDF is corpus-wide: every weight is
computed again from them), but nothing else reads them: the app loads the weights alone. Before,
they were members of ``similar-cache.npz`` (about 80 MB of its 178 at 98,000 papers), written
again whole by each update. Now:

- ``similar-cache.counts.npz`` (:func:`counts_path`), the **base**: every paper's counts as a
  build (or a compaction) made them, and the :func:`~paperdeck.search.similar.texts_fingerprint`
  of the papers they count (``texts``), which names it. Written whole, atomically, only by a
  build or a compaction; never changed in place.
- in ``similar-cache.npz``: ``counts_base``, the fingerprint of the base it goes with (empty: no
  counts, the next update builds), and the **delta** (``delta_positions``, ``delta_indptr``,
  ``delta_terms``, ``delta_tfs``, ``delta_names``): the counts of the papers changed since the
  base, by position, numbered by the delta's own names. Base and delta together are the counts
  of the papers as the index is of them (each update folds its changed rows into the delta).
- an update reads the base mapped (its CRC checked), replaces the delta's rows, weighs, and writes
  ``similar-cache.npz`` alone; when the delta passes :data:`DELTA_SHARE` of the base's counts, it
  writes a new base instead (a compaction) and an empty delta.

Two processes never make a wrong index of them: the base is replaced atomically and is named by
the fingerprint of what it counts, checked against the index file's ``counts_base`` (a base
another process wrote since, or one missing or damaged, makes the update a build). A file of the
layout before (version 3: the counts in its own members) is read as a base and compacted.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.model.paper import Paper
from paperdeck.runtime import release_freed_memory
from paperdeck.search.similar_terms import Vocabulary, term_counts
from paperdeck.search.words import IndexedPaper

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The delta's counts, past this share of the base's, are folded into a new base (a compaction).
DELTA_SHARE = 0.25
#: The members of a base (and of a version 3 index file) that hold the counts.
COUNT_MEMBERS = ("count_indptr", "count_terms", "count_tfs")
#: The members of the index file that hold the delta.
DELTA_MEMBERS = ("delta_positions", "delta_indptr", "delta_terms", "delta_tfs", "delta_names")
_BASE_VERSION = 1


#: Term counts put in name order at once (:meth:`TermCounts.of`): bounds its temporaries.
_SORT_BLOCK = 1 << 18


class TermCounts:
    """Every paper's term counts (:func:`~paperdeck.search.similar_terms.term_counts`), every
    term kept (those a build leaves out too), numbered in the order of their names: row ``i``'s
    terms and counts are ``[indptr[i], indptr[i + 1])`` of ``terms`` and ``tfs``, by term
    number. Numbered by name, not in the order the words were met, so that the counts of papers
    changed in place merged into the others' are the counts a build from every paper makes, term
    numbers and order within each row included (the weights, summed in that order, then agree
    to the bit)."""

    __slots__ = ("indptr", "names", "terms", "tfs")

    def __init__(
        self,
        indptr: npt.NDArray[np.int64],
        terms: npt.NDArray[np.int32],
        tfs: npt.NDArray[np.int32],
        names: list[str],
    ) -> None:
        self.indptr, self.terms, self.tfs, self.names = indptr, terms, tfs, names

    @classmethod
    def of(cls, papers: Iterable[IndexedPaper]) -> TermCounts:
        """The counts of ``papers``, one row each, in their order; ``papers`` is gone through
        once, a chunk at a time (each paper can be dropped once given: never all held)."""
        import numpy as np

        vocabulary = Vocabulary()
        lengths, terms, tfs = term_counts(papers, vocabulary)
        met = list(vocabulary.terms)
        del vocabulary
        release_freed_memory()  # the chunks' arrays and the words split: not kept beside the counts
        count = len(lengths)
        order = sorted(range(len(met)), key=met.__getitem__)
        rank = np.zeros(len(met), np.int32)
        rank[order] = np.arange(len(met), dtype=np.int32)
        indptr = np.zeros(count + 1, np.int64)
        np.cumsum(lengths, out=indptr[1:])
        del lengths
        # Each row's terms put in name order, a block of rows at a time, in place (bounded
        # temporaries; the arrays term_counts made are this build's own). A row holds each term
        # once: its keys are distinct, so any sort gives the one order (no stable sort needed).
        for at in range(0, len(terms), _SORT_BLOCK):
            terms[at : at + _SORT_BLOCK] = rank[terms[at : at + _SORT_BLOCK]]
        del rank
        row = 0
        while row < count:
            end_row = max(int(np.searchsorted(indptr, indptr[row] + _SORT_BLOCK, side="right")) - 1, row + 1)
            end_row = min(end_row, count)
            start, end = int(indptr[row]), int(indptr[end_row])
            owners = np.repeat(np.arange(end_row - row, dtype=np.int64), np.diff(indptr[row : end_row + 1]))
            owners <<= 32
            owners |= terms[start:end]
            by_name = np.argsort(owners)
            del owners
            terms[start:end] = terms[start:end][by_name]
            tfs[start:end] = tfs[start:end][by_name]
            row = end_row
        # The names copied into fresh strings: the words met were spread over the memory of every
        # word split, all freed now (the index's term names are these).
        names = [met[n] for n in order]
        del met
        names = "\n".join(names).split("\n") if names else []
        return cls(indptr, terms, tfs, names)

    def patched(self, changes: Mapping[int, Paper]) -> TermCounts:
        """These counts with the rows at the positions of ``changes`` those of the papers given:
        :meth:`replaced` by their counts made anew (equal to :meth:`of` the papers with those
        replaced).

        Raises:
            ValueError: a position is not one of the rows'.
        """
        positions = sorted(changes)
        return self.replaced(positions, TermCounts.of([changes[position] for position in positions]))

    def replaced(self, positions: Sequence[int], fresh: TermCounts) -> TermCounts:
        """These counts with the rows at ``positions`` (ascending, each once) replaced by the rows
        of ``fresh`` (one each, in that order; every term it names held by one of its rows), the
        terms no paper holds any more left out, the new ones numbered in: the counts of the papers
        with those replaced, as :meth:`of` makes them.

        Raises:
            ValueError: a position is not one of the rows', or they are not ascending.
        """
        import numpy as np

        count = len(self.indptr) - 1
        if any(not 0 <= position < count for position in positions):
            raise ValueError("a changed paper's position is not one of the index's")
        if any(map(operator.ge, positions, positions[1:])) or len(fresh.indptr) != len(positions) + 1:
            raise ValueError("the rows replaced are not in order, one each")
        indptr = self.indptr
        # The terms some paper still holds: every paper's, less the changed papers' old rows.
        df = np.bincount(self.terms, minlength=len(self.names))
        for position in positions:
            df[self.terms[indptr[position] : indptr[position + 1]]] -= 1
        still = [self.names[n] for n in np.flatnonzero(df > 0).tolist()]
        del df
        names = sorted(set(still).union(fresh.names)) if set(fresh.names).difference(still) else still
        number = dict(zip(names, range(len(names)), strict=True))
        # Old terms renumbered (monotonically: each row stays in name order), the fresh rows'
        # numbered in the same vocabulary; the rows laid end to end, the changed ones replaced.
        renumber = np.array([number.get(name, -1) for name in self.names], np.int32)
        local = np.array([number[name] for name in fresh.names], np.int32)
        # Written in place into arrays of the new size (never the pieces and their concatenation at once).
        lengths = np.diff(indptr)
        for n, position in enumerate(positions):
            lengths[position] = fresh.indptr[n + 1] - fresh.indptr[n]
        new_indptr = np.zeros(count + 1, np.int64)
        np.cumsum(lengths, out=new_indptr[1:])
        del lengths
        terms = np.empty(int(new_indptr[-1]), np.int32)
        tfs = np.empty(int(new_indptr[-1]), np.int32)
        at = 0
        for n, position in enumerate([*positions, count]):
            old = slice(int(indptr[at]), int(indptr[position]))
            new = slice(int(new_indptr[at]), int(new_indptr[position]))
            terms[new] = renumber[self.terms[old]]
            tfs[new] = self.tfs[old]
            if position < count:
                span = slice(int(fresh.indptr[n]), int(fresh.indptr[n + 1]))
                into = slice(int(new_indptr[position]), int(new_indptr[position + 1]))
                terms[into] = local[fresh.terms[span]]
                tfs[into] = fresh.tfs[span]
            at = position + 1
        return TermCounts(new_indptr, terms, tfs, names)

    def names_array(self) -> npt.NDArray[np.uint8]:
        """The term names as saved: UTF-8 (lone surrogates kept), one a line."""
        import numpy as np

        return np.frombuffer("\n".join(self.names).encode("utf-8", "surrogatepass"), np.uint8)


def merged_rows(
    old_positions: Sequence[int], old: TermCounts, positions: Sequence[int], fresh: TermCounts
) -> tuple[list[int], TermCounts]:
    """The rows of a delta (``old``, at ``old_positions``) and of papers changed since (``fresh``,
    at ``positions``) as one delta: by position, ascending; a position in both has ``fresh``'s
    row; numbered by the names the rows kept hold (in name order, as :meth:`TermCounts.of`), each
    row's terms in their order still."""
    import numpy as np

    new_positions = np.asarray(positions, np.int64)
    old_at = np.asarray(old_positions, np.int64)
    keep = ~np.isin(old_at, new_positions)
    old_lengths = np.diff(old.indptr)
    held = np.repeat(keep, old_lengths)
    old_terms, old_tfs = old.terms[held], old.tfs[held]
    used = np.unique(old_terms)
    kept_names = [old.names[n] for n in used.tolist()]
    names = sorted(set(kept_names).union(fresh.names))
    number = dict(zip(names, range(len(names)), strict=True))
    old_numbers = np.zeros(len(old.names), np.int32)
    old_numbers[used] = np.array([number[name] for name in kept_names], np.int32)
    fresh_numbers = np.array([number[name] for name in fresh.names], np.int32)
    at = np.concatenate([old_at[keep], new_positions])
    lengths = np.concatenate([old_lengths[keep], np.diff(fresh.indptr)])
    terms = np.concatenate([old_numbers[old_terms], fresh_numbers[fresh.terms]]).astype(np.int32)
    tfs = np.concatenate([old_tfs, fresh.tfs]).astype(np.int32)
    order = np.argsort(at, kind="stable")
    rank = np.empty(len(order), np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    entries = np.argsort(np.repeat(rank, lengths), kind="stable")  # each row's entries kept in order
    indptr = np.zeros(len(at) + 1, np.int64)
    np.cumsum(lengths[order], out=indptr[1:])
    return at[order].tolist(), TermCounts(indptr, terms[entries], tfs[entries], names)


def counts_path(path: Path) -> Path:
    """The base of the similarity index file at ``path``: ``similar-cache.npz`` →
    ``similar-cache.counts.npz``."""
    return path.with_name(path.name.removesuffix(".npz") + ".counts.npz")


def save_base(path: Path, counts: TermCounts, texts: str) -> None:
    """Write ``counts`` as the base of the index file at ``path`` (:func:`counts_path`), named by
    ``texts`` (the fingerprint of the papers they count), atomically.

    Raises:
        StoreError: the file cannot be written.
    """
    import numpy as np

    from paperdeck.store.atomic import atomic_write_into

    arrays: dict[str, Any] = {
        "version": np.array([_BASE_VERSION], np.int64),
        "texts": np.array([texts], dtype=np.str_),
        "count_indptr": counts.indptr,
        "count_terms": counts.terms,
        "count_tfs": counts.tfs,
        "count_names": counts.names_array(),
    }
    atomic_write_into(counts_path(path), lambda out: np.savez(out, **arrays))


def delta_members(base: str, positions: Sequence[int], rows: TermCounts | None) -> dict[str, Any]:
    """The index file's members naming its base (``base``: its fingerprint; ``""``: none) and
    holding the delta (``rows`` at ``positions``; ``None``: empty)."""
    import numpy as np

    if rows is None:
        rows = TermCounts(np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int32), [])
    return {
        "counts_base": np.array([base], dtype=np.str_),
        "delta_positions": np.array(positions, np.int64),
        "delta_indptr": rows.indptr,
        "delta_terms": rows.terms,
        "delta_tfs": rows.tfs,
        "delta_names": rows.names_array(),
    }


def read_delta(saved: Any, count: int) -> tuple[str, list[int], TermCounts] | None:
    """The base's fingerprint and the delta of an index file of ``count`` papers (``saved``: its
    ``numpy.load``); ``None`` when it names no base or its delta is not whole."""
    base = str(saved["counts_base"][0])
    if not base:
        return None
    positions = saved["delta_positions"]
    if positions.dtype != "int64" or bool((positions[1:] <= positions[:-1]).any()):
        return None
    if len(positions) and (int(positions[0]) < 0 or int(positions[-1]) >= count):
        return None
    rows = _counts_of(
        saved["delta_indptr"], saved["delta_terms"], saved["delta_tfs"], saved["delta_names"], len(positions)
    )
    return (base, positions.tolist(), rows) if rows is not None else None


def weighed(saved: Any) -> bool:
    """Whether the similarity index file ``saved`` (its ``numpy.load``) holds weights: one of
    version 5, or of version 6 stamped ``weighed`` (not one an import left its counts updated in,
    :mod:`paperdeck.search.similar_pending`)."""
    return bool(saved["version"].tolist() == [5] or saved["weighed"].tolist() == [1])


def read_base(path: Path, count: int, texts: str | None) -> TermCounts | None:
    """The counts of the base at ``path`` (:func:`counts_path`, or a version 3 index file itself
    with ``texts=None``) for ``count`` papers, mapped in place (read once, to make the new counts),
    each member's CRC checked; ``None`` when it is missing, damaged, of another version or not
    the base named ``texts``."""
    import zipfile

    import numpy as np

    from paperdeck.search.npz_members import mapped_arrays

    try:
        with np.load(path, allow_pickle=False) as saved:
            if texts is not None and (
                saved["version"].tolist() != [_BASE_VERSION] or saved["texts"].tolist() != [texts]
            ):
                return None
            names = saved["count_names"]
        indptr, terms, tfs = mapped_arrays(path, COUNT_MEMBERS).values()
    except (OSError, ValueError, KeyError, EOFError, IndexError, zipfile.BadZipFile):
        return None
    return _counts_of(indptr, terms, tfs, names, count)


def _counts_of(indptr: Any, terms: Any, tfs: Any, names_array: Any, count: int) -> TermCounts | None:
    """The counts of ``count`` rows read from a file, when they are whole: names sorted, each
    once; offsets ascending from 0 to the entries' end; every term one of the names."""
    import numpy as np

    try:
        raw = names_array.tobytes()
        names = raw.decode("utf-8", "surrogatepass").split("\n") if raw else []
    except (UnicodeDecodeError, AttributeError):
        return None
    if not all(map(operator.lt, names, names[1:])):  # numbered by name: sorted, each once
        return None
    if (
        indptr.dtype != np.int64 or terms.dtype != np.int32 or tfs.dtype != np.int32
        or indptr.shape != (count + 1,) or len(terms) != len(tfs) or int(indptr[0]) != 0
        or int(indptr[-1]) != len(terms) or bool((np.diff(indptr) < 0).any())
        or (len(terms) and (int(terms.min()) < 0 or int(terms.max()) >= len(names) or int(tfs.min()) < 1))
    ):  # fmt: skip
        return None
    return TermCounts(indptr, terms, tfs, names)
