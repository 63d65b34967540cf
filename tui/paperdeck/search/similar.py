"""Similar papers, offline: TF-IDF cosine over title, keywords and abstract.

:class:`SimilarityIndex` answers "the papers most like this one" (:meth:`~SimilarityIndex.similar_to`)
and "the whole list ranked by likeness to what I starred" (:meth:`~SimilarityIndex.rank_by_liked`).

The text of a paper is its title three times (left out when the title was derived from the
abstract: its words are in the abstract already), its keywords twice and its abstract once. A
word is a run of ASCII letters and digits, lower-cased after NFKC folding (as the search index
folds them), with plurals folded by Harman's S-stemmer (``experts`` → ``expert``, ``policies`` →
``policy``); English stop words, LaTeX command words (``mathbb``), links, numbers, one-letter
words and words in one paper only or in more than half of the papers are left out. Weights are scikit-learn's
``TfidfVectorizer(sublinear_tf=True)`` ones: ``(1 + ln tf) × (ln((1 + n) / (1 + df)) + 1)``,
each paper's vector scaled to length 1, in float32, so a dot product is the cosine, in [0, 1].

Why numpy and not scikit-learn: scikit-learn was measured and left out, as its import alone and
its ``TfidfVectorizer.fit_transform`` each cost more time and memory than the whole feature's
budget. numpy (imported on first use, a small part of that budget) does the arithmetic here, and
the tokenising is vectorised by chunks of papers: one ``bytes.translate``, one ``str.split`` and
one ``map`` of a dict lookup per chunk, never a Python loop per word. Checked against
``TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2, max_df=0.5)`` on the same
text: the ten most similar papers agree on 8.0 of 10 on average (203 papers; the plural folding,
stop words and links make the difference).
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import PaperdeckError
from paperdeck.model.paper import Paper
from paperdeck.search.packed_index import papers_named
from paperdeck.search.similar_counts import TermCounts, weighed
from paperdeck.search.words import IndexedPaper

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: A word must be in at least this many papers, and in at most this share of them (but always
#: allowed in ``MIN_PAPERS`` papers, so that two papers alone can still be alike).
MIN_PAPERS = 2
MAX_SHARE = 0.5
#: :meth:`SimilarityIndex.rank_by_liked` ranks by the nearest of at most this many interests.
MAX_INTERESTS = 8
_CLUSTER_SAMPLE = 512  # liked papers the interests are found on (all join them afterwards)
#: Weights computed at a time in a build (bounds its temporaries; the result does not depend on it).
_BLOCK = 1 << 20


class UnknownPaper(PaperdeckError):
    """The paper id is not in the similarity index (``str(error)`` is one line)."""


def _release_freed_memory() -> None:
    """Hand the build's freed memory back to the system (glibc's ``malloc_trim``; elsewhere a no-op).

    The build's temporaries (every word split, and arrays of them) are freed, but glibc keeps the
    heap they grew: without this, the process stays several times larger than the index it holds.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        pass


class _Rows:
    """Some rows of the index (none empty), their weights laid end to end: row ``j``'s terms and
    weights are ``[offsets[j], offsets[j] + lengths[j])`` of ``terms`` and ``weights``."""

    def __init__(
        self,
        terms: npt.NDArray[np.int32],
        weights: npt.NDArray[np.float32],
        offsets: npt.NDArray[np.int64],
        lengths: npt.NDArray[np.int64],
        term_count: int,
    ) -> None:
        import numpy as np

        self.terms, self.weights, self.offsets, self.lengths = terms, weights, offsets, lengths
        self.term_count = term_count
        self.count = len(offsets)
        self.owner = np.repeat(np.arange(self.count), lengths)

    def cosines(self, centroids: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``rows × centroids``: each row's cosine to each (unit) centroid."""
        import numpy as np

        result: npt.NDArray[np.float32] = np.add.reduceat(centroids[:, self.terms] * self.weights, self.offsets, axis=1)
        return result.T

    def row_vector(self, j: int) -> npt.NDArray[np.float32]:
        """Row ``j`` as a dense ``1 × terms`` array."""
        import numpy as np

        vector = np.zeros((1, self.term_count), np.float32)
        span = slice(self.offsets[j], self.offsets[j] + self.lengths[j])
        vector[0, self.terms[span]] = self.weights[span]
        return vector

    def centroids(self, groups: npt.NDArray[np.intp], count: int) -> npt.NDArray[np.float32]:
        """The unit mean of each group's rows (``groups[j]`` is row ``j``'s), empty groups left out."""
        import numpy as np

        cells = groups[self.owner] * self.term_count + self.terms
        sums = np.bincount(cells, weights=self.weights, minlength=count * self.term_count).reshape(count, -1)
        norms = np.sqrt(np.einsum("ij,ij->i", sums, sums))
        result: npt.NDArray[np.float32] = (sums[norms > 0] / norms[norms > 0, None]).astype(np.float32)
        return result


#: A texts fingerprint is a sum of per-paper digests modulo ``2 ** _FINGERPRINT_BITS``.
_FINGERPRINT_BITS = 256


def _paper_digest(position: int, paper: IndexedPaper) -> int:
    """The digest (BLAKE2b, as an int) of what the indexes read of ``paper`` at ``position``."""
    import hashlib

    people, keywords = "\x1e".join(paper.authors), "\x1e".join(paper.keywords)
    fields = (str(position), paper.id, paper.title, people, keywords, paper.abstract)
    data = "\x1f".join(fields).encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=_FINGERPRINT_BITS // 8).digest(), "little")


def texts_fingerprint(papers: Iterable[IndexedPaper]) -> str:
    """A fingerprint (64 hex digits) of what the similarity and search indexes are built from:
    each paper's position, id, title, authors, keywords and abstract. Equal fingerprints: the
    same indexes. It is the sum of a digest per paper (BLAKE2b-256 of its position and fields)
    modulo 2**256, so that :func:`patched_fingerprint` updates it for a few papers changed in
    place without reading the others."""
    from itertools import count

    total = sum(map(_paper_digest, count(), papers)) % (1 << _FINGERPRINT_BITS)
    return f"{total:064x}"


def patched_fingerprint(texts: str, changes: Mapping[int, tuple[Paper, Paper]]) -> str | None:
    """:func:`texts_fingerprint` of papers whose fingerprint was ``texts``, after the papers at
    the positions of ``changes`` went from the first paper of each pair to the second (the
    others, and their order, as they were): equal to the fingerprint computed over them all.
    ``None`` when ``texts`` is not such a fingerprint."""
    if len(texts) != _FINGERPRINT_BITS // 4:
        return None
    try:
        total = int(texts, 16)
    except ValueError:
        return None
    for position, (old, new) in changes.items():
        total += _paper_digest(position, new) - _paper_digest(position, old)
    return f"{total % (1 << _FINGERPRINT_BITS):064x}"


class TextsDigest:
    """:func:`texts_fingerprint` taken as the papers pass (:meth:`passing`), for a build that reads
    its papers once (:meth:`SimilarityIndex.from_papers`): the sum of each paper's digest at its
    position, added as it is given."""

    def __init__(self) -> None:
        self._total = 0
        self._position = 0

    def passing(self, papers: Iterable[IndexedPaper]) -> Iterator[IndexedPaper]:
        """``papers``, each added to the digest as it is given (its position: the papers given
        before it, by this digest)."""
        for paper in papers:
            self._total += _paper_digest(self._position, paper)
            self._position += 1
            yield paper

    def hexdigest(self) -> str:
        """The fingerprint of the papers given so far (:func:`texts_fingerprint`'s)."""
        return f"{self._total % (1 << _FINGERPRINT_BITS):064x}"


class SimilarityIndex:
    """TF-IDF vectors of a fixed sequence of papers, for cosine similarity between them.

    Args:
        papers: the papers (any order; results keep it for ties). Ids should be unique: a
            repeated id answers for its first paper.

    Cost:

    - build: nearly all of it splitting the text and looking the words up, plus numpy's import
      the first time; it takes a while at tens of thousands of papers. Build it in a worker,
      ahead of need (after the search index): built on the first key press, the first results
      take that long. In a thread it holds the GIL for one chunk of papers at a time;
    - :meth:`similar_to` is one pass over the weights; :meth:`rank_by_liked` one per interest,
      after grouping the liked papers into interests;
    - memory: the arrays (float32 weights, int32 term numbers) and the term names; the process
      also grows with numpy's import, and more at the peak of the build.

    The index is read-only once built: queries may run in several threads at once. Rebuild it
    after an import changes the papers.
    """

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._set_ids([paper.id for paper in papers])
        #: :func:`texts_fingerprint` of the papers it was built from.
        self.texts = texts_fingerprint(papers)
        self._weigh(TermCounts.of(papers))

    @classmethod
    def from_papers(cls, ids: list[str], papers: Iterable[IndexedPaper]) -> SimilarityIndex:
        """The index of the papers ``papers`` gives once, in order (read from a file a paper at a
        time: each is dropped once its words are counted, never all held), ``ids`` their ids;
        the same index as ``SimilarityIndex(list(papers))`` (its counts, weights and saved file
        too), :attr:`texts` taken as they pass.

        Raises:
            ValueError: ``papers`` gave another number of papers than ``ids`` has, or another id.
            Whatever ``papers`` raises.
        """
        index = cls.__new__(cls)
        index._set_ids(ids)
        digest = TextsDigest()
        counts = TermCounts.of(digest.passing(papers_named(ids, papers)))
        index.texts = digest.hexdigest()
        index._weigh(counts)
        return index

    def _set_ids(self, ids: list[str]) -> None:
        self._ids = ids
        self._position: dict[str, int] = {}
        for position, paper_id in enumerate(ids):
            self._position.setdefault(paper_id, position)

    def _weigh(self, counts: TermCounts) -> None:
        """Take the weights of ``counts`` (one row per paper): the terms in too few or too many
        papers left out, the rest renumbered in order, each weight ``(1 + ln tf) × idf`` in
        float32, each row scaled to length 1. A function of the counts alone: an index updated
        in place (:meth:`load_patched`) weighs as one built from every paper. The counts are
        kept as they are (for :meth:`save`); the weights are computed a block at a time."""
        import numpy as np

        self._counts: TermCounts | None = counts
        #: The base's fingerprint and the delta (positions, rows) :meth:`save` writes instead of
        #: a new base (:mod:`paperdeck.search.similar_counts`; set by :meth:`load_patched`).
        self._delta: tuple[str, list[int], TermCounts] | None = None
        count = len(counts.indptr) - 1
        terms, tfs = counts.terms, counts.tfs
        row_lengths = np.diff(counts.indptr)
        # Terms in too few or too many papers go; the rest are renumbered in order. Each row keeps
        # the entries of its kept terms: its new end is the count of entries kept before it.
        df = np.bincount(terms, minlength=len(counts.names))
        kept_terms = (df >= MIN_PAPERS) & (df <= max(MIN_PAPERS, int(MAX_SHARE * count)))
        renumber = (np.cumsum(kept_terms) - 1).astype(np.int32)
        kept = kept_terms[terms]
        ends = np.zeros(count + 1, np.int64)
        np.cumsum(row_lengths, out=ends[1:])
        kept_before = np.zeros(len(kept) + 1, np.int32 if len(kept) < 2**31 else np.int64)
        np.cumsum(kept, dtype=kept_before.dtype, out=kept_before[1:])
        self._indptr: npt.NDArray[np.int64] = kept_before[ends].astype(np.int64)
        del kept_before, ends
        row_lengths = np.diff(self._indptr)
        terms = terms[kept]
        tfs = tfs[kept]
        del kept
        # Weights in float32, (1 + ln tf) × idf, each paper's vector scaled to length 1: a block
        # at a time, in the memory of the kept entries' copy (the counts stay as they are, for
        # save), the same values as over the whole at once.
        idf = (np.log((1.0 + count) / (1.0 + df[kept_terms])) + 1.0).astype(np.float32)
        weights = tfs.view(np.float32)
        for at in range(0, len(terms), _BLOCK):
            block = slice(at, at + _BLOCK)
            terms[block] = renumber[terms[block]]
            values = np.log(tfs[block], dtype=np.float32)
            values += 1.0
            values *= idf[terms[block]]
            weights[block] = values
        del renumber
        self._empty_rows: npt.NDArray[np.bool_] = row_lengths == 0
        indptr = self._indptr
        rows = max(1, _BLOCK // 256)  # rows of a block: about _BLOCK weights
        for first in range(0, count, rows):
            # Each row's length from its squares, a block of rows at a time (no array of every
            # square), summed exactly as _row_sums sums them over the whole: each row's own
            # squares, the last row's followed by the one 0 of the padding.
            last = min(first + rows, count)
            start, end = int(indptr[first]), int(indptr[last])
            padded = last == count and not self._empty_rows[count - 1]
            squares = np.zeros(end - start + padded, np.float32)
            np.square(weights[start:end], out=squares[: end - start])
            filled = ~self._empty_rows[first:last]
            norms = np.ones(last - first, np.float32)
            if len(squares):
                norms[filled] = np.sqrt(np.add.reduceat(squares, indptr[first:last][filled] - start))
            weights[start:end] /= np.repeat(norms, row_lengths[first:last])
        names = counts.names
        self._terms: list[str] = [names[i] for i in np.flatnonzero(kept_terms).tolist()]
        # CSR rows: row i's term numbers and weights are [indptr[i], indptr[i + 1]).
        self._data: npt.NDArray[np.float32] = weights
        self._indices: npt.NDArray[np.int32] = terms
        _release_freed_memory()

    #: Format of :meth:`save` files (bumped when the layout, the terms or the weighting change):
    #: 6, a member ``weighed``: ``[0]`` in a file an import left with its counts updated and no
    #: weights (:mod:`paperdeck.search.similar_pending`: weighed at first need), ``[1]`` in one
    #: :meth:`save` wrote; 5, the same always weighed (read as it is); a lone Greek letter the
    #: term of its name (``λ``: ``lambda``), the term counts in a base file beside it and a delta
    #: in it (4: the same with the terms before, 3: the counts in it; neither read: rebuilt once).
    FILE_VERSION = 6
    _READ_VERSIONS = ([5], [6])

    @classmethod
    def saved_version(cls, path: Path) -> int | None:
        """The version of the file :meth:`save` wrote at ``path``; ``None`` when there is none or
        it cannot be read."""
        import zipfile

        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as saved:
                return int(saved["version"][0])
        except (OSError, ValueError, KeyError, EOFError, IndexError, zipfile.BadZipFile):
            return None

    def release_counts(self) -> None:
        """Let go of the term counts the build kept for :meth:`save` (as much memory again as
        the weights) and the delta: an index not saved, or saved, needs them no more."""
        self._counts = None
        self._delta = None

    def save(self, path: Path, stamp: Sequence[int], texts: str) -> None:
        """Write the index to ``path`` (NumPy ``.npz``, uncompressed), atomically, with
        ``stamp`` — what it was built from (the catalogue's size and mtime) — and ``texts``
        (:func:`texts_fingerprint` of its papers) for :meth:`load`; its term counts as
        :mod:`paperdeck.search.similar_counts` keeps them: the delta of an update in it, or
        (a build, a compaction) every count in a new base beside it, written first.

        Raises:
            StoreError: a file cannot be written.
        """
        import numpy as np

        from paperdeck.search.similar_counts import delta_members, save_base
        from paperdeck.store.atomic import atomic_write_into

        if self._delta is not None:
            counts = delta_members(*self._delta)
        elif self._counts is not None:  # for load_patched (an index read from a file has none)
            save_base(path, self._counts, texts)
            counts = delta_members(texts, [], None)
        else:
            counts = delta_members("", [], None)
        arrays: dict[str, Any] = {
            "version": np.array([self.FILE_VERSION], np.int64),
            "weighed": np.array([1], np.int64),
            "stamp": np.array(list(stamp), np.int64),
            "texts": np.array([texts], dtype=np.str_),
            "ids": np.array(self._ids, dtype=np.str_),
            "terms": np.array(self._terms, dtype=np.str_),
            "data": self._data,
            "indices": self._indices,
            "indptr": self._indptr,
            **counts,
        }
        # Written once, into the atomic write's own temporary file (never held in memory whole:
        # it is as large as the index; nor made aside and copied into place).
        atomic_write_into(path, lambda out: np.savez(out, **arrays))

    @classmethod
    def load_patched(
        cls, path: Path, before: Sequence[int], ids: Sequence[str], changes: Mapping[int, Paper]
    ) -> tuple[SimilarityIndex, str] | None:
        """The index :meth:`save` wrote to ``path`` for the catalogue stamped ``before`` (with its
        term counts: a build's), of the papers with ``ids`` (the same ids in the same order: an
        import in place), updated for the papers at the positions of ``changes`` replaced by
        those given: their counts made anew and folded into the delta, the others' read from the
        base, every weight computed again from the counts (a corpus-wide statistic, the IDF,
        changes with any paper), so that it equals the index a build from every paper makes.
        With the file's texts fingerprint. ``None`` when there is no such file or it cannot be
        used (its base missing, damaged or another's): then build.
        """
        import zipfile

        import numpy as np

        from paperdeck.search.similar_counts import DELTA_SHARE, counts_path, merged_rows, read_base, read_delta

        try:
            with np.load(path, allow_pickle=False) as saved:
                version = saved["version"].tolist()
                if version not in cls._READ_VERSIONS or saved["stamp"].tolist() != list(before):
                    return None
                texts = str(saved["texts"][0])
                if saved["ids"].tolist() != list(ids):
                    return None
                delta = read_delta(saved, len(ids))
        except (OSError, ValueError, KeyError, EOFError, IndexError, zipfile.BadZipFile):  # damaged: build
            return None
        if delta is None:
            return None
        base_texts, positions, rows = delta
        # The base (most of the counts) mapped in place, not copied: read once, then let go of.
        base = read_base(counts_path(path), len(ids), base_texts)
        if base is None:
            return None
        try:
            changed = sorted(changes)
            fresh = TermCounts.of([changes[position] for position in changed])
            changed, fresh = merged_rows(positions, rows, changed, fresh)
            counts = base.replaced(changed, fresh)
        except ValueError:
            return None
        compact = len(fresh.terms) > DELTA_SHARE * len(base.terms)
        del base, rows  # the counts read: not held beside the new ones while weighed
        index = cls.__new__(cls)
        index._set_ids(list(ids))
        index._weigh(counts)
        if not compact:  # the delta written, not every count: the counts let go of
            index._counts, index._delta = None, (base_texts, changed, fresh)
        return index, texts

    @classmethod
    def restamp(cls, path: Path, before: Sequence[int], after: Sequence[int], ids: Sequence[str]) -> bool:
        """Stamp the index :meth:`save` wrote to ``path`` for the catalogue stamped ``before``
        anew for the catalogue stamped ``after``, when an import in place rewrote it without
        changing any text the index reads (a review import, a decisions file: the same papers in
        the same order, ``ids``): every other member of the file is copied byte for byte, a
        megabyte at a time (nothing read into arrays, no weight computed again), and the file
        replaced atomically. False, nothing written, when the file is not one :meth:`save`
        wrote for ``before`` and ``ids`` (then the index is built or updated as usual).

        Raises:
            StoreError: the new file cannot be written.
        """
        import io
        import tempfile
        import zipfile

        import numpy as np

        from paperdeck.store.atomic import atomic_write_bytes

        try:
            with np.load(path, allow_pickle=False) as saved:
                if saved["version"].tolist() not in cls._READ_VERSIONS or saved["stamp"].tolist() != list(before):
                    return False
                if saved["ids"].tolist() != list(ids):
                    return False
        except (OSError, ValueError, KeyError, EOFError, IndexError, zipfile.BadZipFile):
            return False
        stamp = io.BytesIO()
        np.save(stamp, np.array(list(after), np.int64))
        try:
            out = tempfile.TemporaryFile(dir=path.parent)  # noqa: SIM115  # closed by the with below
        except OSError as exc:
            from paperdeck.model.errors import StoreError
            from paperdeck.store.atomic import write_failure

            raise StoreError(path, write_failure(exc)) from None
        with out:
            try:
                with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as made:
                    for info in source.infolist():
                        if info.filename == "stamp.npy":
                            made.writestr(info, stamp.getvalue())
                            continue
                        with source.open(info) as member, made.open(info, "w", force_zip64=True) as copy:
                            while piece := member.read(1 << 20):
                                copy.write(piece)
            except (OSError, zipfile.BadZipFile, ValueError):
                return False
            out.seek(0)
            atomic_write_bytes(path, iter(lambda: out.read(1 << 20), b""))
        return True

    @classmethod
    def load(cls, path: Path, stamp: Sequence[int] | None, texts: str | None = None) -> SimilarityIndex | None:
        """The index :meth:`save` wrote to ``path`` with the same ``stamp`` (with ``stamp=None``:
        with the same ``texts``, whatever the stamp); ``None`` when there is no such file, it is
        stale (another stamp, texts or version) or unreadable. Much cheaper than a build."""
        import zipfile

        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as saved:
                if saved["version"].tolist() not in cls._READ_VERSIONS or not weighed(saved):
                    return None
                if saved["stamp"].tolist() != list(stamp) if stamp is not None else saved["texts"].tolist() != [texts]:
                    return None
                index_texts = str(saved["texts"][0])
                ids, terms = saved["ids"].tolist(), saved["terms"].tolist()
                data, indices, indptr = saved["data"], saved["indices"], saved["indptr"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            return None
        rows = len(ids)
        if (
            data.dtype != np.float32 or indices.dtype != np.int32 or indptr.dtype != np.int64
            or indptr.shape != (rows + 1,) or len(data) != len(indices) or int(indptr[-1]) != len(data)
            or (len(indices) and (int(indices.min()) < 0 or int(indices.max()) >= len(terms)))
        ):  # fmt: skip
            return None
        index = cls.__new__(cls)
        index._set_ids(ids)
        index._counts, index._delta = None, None  # saved again (a restamp) without counts
        index._terms = terms
        index.texts = index_texts
        index._data, index._indices, index._indptr = data, indices, indptr
        index._empty_rows = indptr[:-1] == indptr[1:]
        return index

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._position

    @property
    def paper_ids(self) -> list[str]:
        """The papers' ids, in the order given."""
        return list(self._ids)

    @property
    def term_count(self) -> int:
        """Distinct terms kept."""
        return len(self._terms)

    @property
    def nbytes(self) -> int:
        """Bytes held by the index's arrays."""
        return int(self._data.nbytes + self._indices.nbytes + self._indptr.nbytes + self._empty_rows.nbytes)

    def has_words(self, paper_id: str) -> bool:
        """Whether the paper has any term to compare by (a placeholder abstract such as ``"n/a"``
        with a derived title has none, and so no similar papers).

        Raises:
            UnknownPaper: ``paper_id`` is not in the index.
        """
        row = self._row(paper_id)
        return bool(self._indptr[row + 1] > self._indptr[row])

    def similar_to(self, paper_id: str, limit: int | None = 50) -> list[tuple[str, float]]:
        """The papers most like ``paper_id``, most alike first: ``[(id, cosine), ...]``.

        Args:
            paper_id: a paper of the index.
            limit: at most this many (``None`` or 0: every paper with a cosine above 0).

        Returns:
            Up to ``limit`` pairs, cosine in (0, 1], descending; ties in the index's order. The
            paper itself is left out (another paper with the same text scores 1.0); a paper with
            no terms (:meth:`has_words`) gets ``[]``.

        Raises:
            UnknownPaper: ``paper_id`` is not in the index.
            ValueError: ``limit`` is negative.
        """
        import numpy as np

        row = self._row(paper_id)
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        start, end = self._indptr[row], self._indptr[row + 1]
        query = np.zeros(len(self._terms), np.float32)
        query[self._indices[start:end]] = self._data[start:end]
        scores = self._scores(query)
        scores[row] = 0.0
        return self._ranked(scores, limit, positive_only=True)

    def rank_by_liked(self, liked_ids: Collection[str], limit: int | None = None) -> list[tuple[str, float]]:
        """Every other paper, ranked by likeness to the liked ones: ``[(id, score), ...]``.

        The score is the cosine to the nearest of the user's interests: the liked papers are
        grouped into at most :data:`MAX_INTERESTS` interests (spherical k-means, deterministic),
        each the unit centroid of its papers; with up to 8 liked papers, each is an interest and
        the score is the highest cosine to one of them. One centroid for all (Rocchio) would
        follow the most cohesive topic only: with 3 speculative-decoding and 3 protein papers
        liked, its first protein paper is 38th; here it is 2nd, with 6 in the top 20 (cosines
        still run higher in tight topics). The cost grows with the number of interests.

        Args:
            liked_ids: the papers the user likes (starred); ids not in the index are ignored.
            limit: at most this many (``None`` or 0: all).

        Returns:
            Every paper of the index except the liked ones, best first, score in [0, 1]; papers
            with nothing in common (0.0) last, in the index's order. ``[]`` when no liked paper
            is in the index or none of them has any term: there is nothing to rank by.

        Raises:
            ValueError: ``limit`` is negative.
        """
        import numpy as np

        if limit is not None and limit < 0:
            raise ValueError(f"limit must be 0 or more, not {limit}")
        rows = np.array(sorted({self._position[pid] for pid in liked_ids if pid in self._position}), np.int64)
        interests = self._interests(rows)
        if not len(interests):  # no liked paper in the index, or none with a term
            return []
        scores = self._scores(interests[0])
        for interest in interests[1:]:
            np.maximum(scores, self._scores(interest), out=scores)
        keep = np.ones(len(self._ids), bool)
        keep[rows] = False
        return self._ranked(scores, limit, positive_only=False, keep=keep)

    def _interests(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """Unit centroids (``interests × terms``) of up to :data:`MAX_INTERESTS` groups of the
        given rows: spherical k-means started from the farthest-first rows (the first row, then
        each time the row least like those chosen), so the same rows always give the same groups.
        Beyond ``_CLUSTER_SAMPLE`` rows, the groups are found on an even sample of them, then
        every row joins its nearest group once."""
        import numpy as np

        rows = rows[self._indptr[rows + 1] > self._indptr[rows]]
        if not len(rows):
            return np.zeros((0, len(self._terms)), np.float32)
        sample = self._gather(rows[:: -(-len(rows) // _CLUSTER_SAMPLE)])
        centroids = sample.row_vector(0)
        nearest = sample.cosines(centroids)[:, 0]
        while len(centroids) < min(sample.count, MAX_INTERESTS):
            farthest = int(np.argmin(nearest))
            if nearest[farthest] > 0.999:  # the rest are copies of rows chosen already
                break
            added = sample.row_vector(farthest)
            centroids = np.concatenate([centroids, added])
            np.maximum(nearest, sample.cosines(added)[:, 0], out=nearest)
        groups = np.full(sample.count, -1)
        for _ in range(10):
            assigned = np.argmax(sample.cosines(centroids), axis=1)
            if np.array_equal(assigned, groups):
                break
            groups = assigned
            centroids = sample.centroids(groups, len(centroids))
        if sample.count < len(rows):
            every = self._gather(rows)
            centroids = every.centroids(np.argmax(every.cosines(centroids), axis=1), len(centroids))
        return centroids

    def _gather(self, rows: npt.NDArray[np.int64]) -> _Rows:
        import numpy as np

        lengths = self._indptr[rows + 1] - self._indptr[rows]
        offsets = np.cumsum(lengths) - lengths
        at = np.repeat(self._indptr[rows] - offsets, lengths) + np.arange(int(lengths.sum()))
        return _Rows(self._indices[at], self._data[at], offsets, lengths, len(self._terms))

    def shared_terms(self, paper_id: str, other_id: str, limit: int = 5) -> list[str]:
        """The terms that make two papers alike, the heaviest first (for a "why": ``expert``,
        ``pruning``, ``moe``); plural-folded, lower-case; ``[]`` when they share none.

        Raises:
            UnknownPaper: either id is not in the index.
        """
        import numpy as np

        first, second = self._row(paper_id), self._row(other_id)
        a_start, a_end = self._indptr[first], self._indptr[first + 1]
        b_start, b_end = self._indptr[second], self._indptr[second + 1]
        common, a_at, b_at = np.intersect1d(
            self._indices[a_start:a_end], self._indices[b_start:b_end], assume_unique=True, return_indices=True
        )
        products = self._data[a_start:a_end][a_at] * self._data[b_start:b_end][b_at]
        order = np.argsort(-products, kind="stable")[: max(limit, 0)]
        return [self._terms[int(term)] for term in common[order]]

    def _row(self, paper_id: str) -> int:
        row = self._position.get(paper_id)
        if row is None:
            raise UnknownPaper(f"no paper with id {paper_id!r} in the similarity index")
        return row

    def _scores(self, query: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Dot product of every row with a dense query vector (a CSR matrix-vector product)."""
        import numpy as np

        products = np.zeros(len(self._data) + 1, np.float32)
        np.multiply(self._data, query[self._indices], out=products[:-1])
        result: npt.NDArray[np.float32] = np.clip(self._row_sums(products), 0.0, 1.0)
        return result

    def _row_sums(self, padded: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Per row, the sum of its values in ``padded`` (one per non-zero weight, then one 0: an
        empty last row starts at the end, and np.add.reduceat needs starts in range); 0 for an
        empty row."""
        import numpy as np

        if not self._ids:
            return np.zeros(0, np.float32)
        sums: npt.NDArray[np.float32] = np.add.reduceat(padded, self._indptr[:-1])
        sums[self._empty_rows] = 0.0
        return sums

    def _ranked(
        self,
        scores: npt.NDArray[np.float32],
        limit: int | None,
        *,
        positive_only: bool,
        keep: npt.NDArray[np.bool_] | None = None,
    ) -> list[tuple[str, float]]:
        import numpy as np

        candidates = np.flatnonzero(scores > 0.0) if positive_only else np.arange(len(scores))
        if keep is not None:
            candidates = candidates[keep[candidates]]
        order = candidates[np.argsort(-scores[candidates], kind="stable")]
        if limit:
            order = order[:limit]
        return list(zip(map(self._ids.__getitem__, order.tolist()), scores[order].tolist(), strict=True))


__all__ = ["MAX_INTERESTS", "SimilarityIndex", "UnknownPaper", "patched_fingerprint", "texts_fingerprint"]
