"""The similarity index after an import in place: its counts updated at the import, its weights
computed when first needed.

The weights' IDF is corpus-wide: a decisions file that rewrites a thousand abstracts changes
every paper's weights, and computing them all again and writing the 95 MB file (98,000 papers)
was most of what an import paid for the similarity index, though nothing but ``like:``, "more
like this" and ``paperdeck similar`` reads them. So an import in place (:func:`save_pending`)
writes only what changed: the changed papers' term counts folded into the delta
(:mod:`paperdeck.search.similar_counts`), in an index file stamped for the new catalogue with no
weights, ``weighed`` ``[0]`` (version 6, a few MB). The first reader that needs the weights
(:func:`weigh_pending`: the ``similar`` command, the app's worker) computes them from the base
and the delta, as an update did (equal to a build to the bit), and saves the whole file
(atomically: two processes doing so at once each write the same whole file; a base replaced
meanwhile by another process is not the one named, and the index is built instead).
"""

from __future__ import annotations

import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paperdeck.model.paper import Paper
from paperdeck.store.atomic import atomic_write_into

if TYPE_CHECKING:
    from paperdeck.search.similar import SimilarityIndex

#: The version of a file :func:`save_pending` writes (:attr:`SimilarityIndex.FILE_VERSION`'s).
_VERSION = 6


def save_pending(
    path: Path,
    before: Sequence[int],
    after: Sequence[int],
    ids: Sequence[str],
    changes: Mapping[int, tuple[Paper, Paper]],
) -> bool:
    """Update the index file at ``path``, saved for the catalogue stamped ``before`` (weighed or
    not), for an import in place that made the catalogue stamped ``after`` (the same ``ids`` in the
    same order) and changed the papers at the positions of ``changes`` (old, new): their counts
    made anew and folded into the delta, its texts fingerprint patched, no weight computed; the
    file written whole, atomically, stamped ``after`` and marked for weighing
    (:func:`weigh_pending`). Neither the base nor any other paper's counts are read (but the
    base's name). False, nothing written, when the file is not such a file or its base is not
    the one it names (then update or build it as before).

    Raises:
        StoreError: the file cannot be written.
    """
    import numpy as np

    from paperdeck.search.similar import SimilarityIndex, patched_fingerprint
    from paperdeck.search.similar_counts import TermCounts, counts_path, delta_members, merged_rows, read_delta

    try:
        with np.load(path, allow_pickle=False) as saved:
            if saved["version"].tolist() not in SimilarityIndex._READ_VERSIONS:
                return False
            if saved["stamp"].tolist() != list(before):
                return False
            texts = str(saved["texts"][0])
            id_array = saved["ids"]
            if id_array.tolist() != list(ids):
                return False
            delta = read_delta(saved, len(ids))
        if delta is None:
            return False
        with np.load(counts_path(path), allow_pickle=False) as base:  # its name only: read at weighing
            if base["texts"].tolist() != [delta[0]]:
                return False
    except (OSError, ValueError, KeyError, EOFError, IndexError, zipfile.BadZipFile):
        return False
    patched = patched_fingerprint(texts, changes)
    if patched is None:
        return False
    base_texts, positions, rows = delta
    changed = sorted(changes)
    try:
        changed, fresh = merged_rows(positions, rows, changed, TermCounts.of([changes[at][1] for at in changed]))
    except ValueError:
        return False
    arrays = {
        "version": np.array([_VERSION], np.int64),
        "weighed": np.array([0], np.int64),
        "stamp": np.array(list(after), np.int64),
        "texts": np.array([patched], dtype=np.str_),
        "ids": id_array,
        **delta_members(base_texts, changed, fresh),
    }
    atomic_write_into(path, lambda out: np.savez(out, **arrays))
    return True


def is_pending(path: Path, stamp: Sequence[int]) -> bool:
    """Whether the index file at ``path`` is one :func:`save_pending` wrote for the catalogue
    stamped ``stamp`` (its weights to compute)."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as saved:
            return bool(
                saved["version"].tolist() == [_VERSION]
                and saved["weighed"].tolist() == [0]
                and saved["stamp"].tolist() == list(stamp)
            )
    except (OSError, ValueError, KeyError, EOFError, IndexError, zipfile.BadZipFile):
        return False


def saved_for(path: Path, stamp: Sequence[int]) -> bool:
    """Whether the index file at ``path`` was saved for the catalogue stamped ``stamp``, weighed or
    not (read, or weighed, without any paper parsed)."""
    import numpy as np

    from paperdeck.search.similar import SimilarityIndex

    try:
        with np.load(path, allow_pickle=False) as saved:
            return bool(
                saved["version"].tolist() in SimilarityIndex._READ_VERSIONS and saved["stamp"].tolist() == list(stamp)
            )
    except (OSError, ValueError, KeyError, EOFError, IndexError, zipfile.BadZipFile):
        return False


def weigh_pending(path: Path, stamp: Sequence[int], ids: Sequence[str]) -> SimilarityIndex | None:
    """The index of the file :func:`save_pending` wrote at ``path`` for the catalogue stamped
    ``stamp`` (of the papers ``ids``): every weight computed from the base and the delta (equal
    to a build from every paper), its delta or (past :data:`~paperdeck.search.similar_counts.DELTA_SHARE`
    of the base) every count kept for :meth:`~SimilarityIndex.save`, which the caller calls
    (then :meth:`~SimilarityIndex.release_counts`). ``None`` when the file is not such a file, or
    its base is missing, damaged or another's: then build."""
    from paperdeck.search.similar import SimilarityIndex

    if not is_pending(path, stamp):
        return None
    found = SimilarityIndex.load_patched(path, stamp, ids, {})
    if found is None:
        return None
    index, texts = found
    index.texts = texts
    return index


__all__ = ["is_pending", "save_pending", "saved_for", "weigh_pending"]
