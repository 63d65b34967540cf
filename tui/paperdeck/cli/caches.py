"""What a command that changed the catalogue (``import``, ``fetch``) leaves beside it, so that the
next start and the next command read instead of build: the search index and the similarity index
(:mod:`paperdeck.search.searcher`), and the statistics cache (:mod:`paperdeck.stats.cache`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from paperdeck.model.errors import SavedThenInterrupted
from paperdeck.store.store import Store


def caches_key(store: Store) -> tuple[object, object]:
    """What the caches were made for, taken before the command changes the store: compare it with
    :func:`save_caches`'s ``before``."""
    from paperdeck.stats.cache import cache_key

    return store.catalogue_stamp(), cache_key(store)


def save_caches(store: Store, before: tuple[object, object]) -> None:
    """Build and save what the change made stale since ``before`` (:func:`caches_key`): both
    indexes when the catalogue changed, the statistics when papers or reviews did. A failure to
    save only costs the next start its speed (as :func:`paperdeck.search.searcher.build_index`)."""
    from paperdeck.stats.cache import cache_key

    stamp, stats_key = before
    if store.catalogue_stamp() != stamp:
        save_indexes(store)
    if cache_key(store) != stats_key:
        from paperdeck.cli.stats import save_stats_cache

        save_stats_cache(store)


def save_indexes(store: Store, *, release: bool = False, told: Callable[[int, int], None] | None = None) -> None:
    """Build the search index and the similarity index now and save them beside the catalogue,
    so that the app searches from its first frame, the ``search`` command reads the index instead
    of parsing every paper, and the app's first "more like this" reads its index (after an
    import in place, the similarity index's counts only: its weights are computed by the first
    reader, :func:`paperdeck.search.searcher.save_similarity_counts`). ``release``:
    the command is done with the papers held (an import's last step): they are let go of and
    each index built from the catalogue read again a paper at a time, held by nothing after
    (:func:`paperdeck.search.searcher.save_indexes_read_again`), when this store wrote the file.
    ``told``: ``(done, 2)`` once each of the two indexes is saved (an import's progress)."""
    from paperdeck.search.searcher import Searcher, save_indexes_read_again, save_similarity_counts

    if release and save_indexes_read_again(store, told):
        return

    Searcher(store).index.get()  # saved, and let go before the similarity index is made: not held at once
    if told is not None:
        told(1, 2)
    if not save_similarity_counts(store):  # an import in place: its weights computed at first need
        Searcher(store).similarity.get()
    if told is not None:
        told(2, 2)


@contextlib.contextmanager
def said_saved_when_interrupted(
    store: Store, before: tuple[object, object], what: str, undo: str | None = None
) -> Iterator[None]:
    """Run the block (an import and the indexes it makes stale); a Ctrl-C in it after the store
    changed since ``before`` (:func:`caches_key`: the catalogue or the reviews written) becomes
    :class:`~paperdeck.model.errors.SavedThenInterrupted` — the change is kept and the message
    says so — rather than the "nothing was changed" of an interruption before the commit."""
    try:
        yield
    except SavedThenInterrupted:
        raise
    except KeyboardInterrupt:
        if caches_key(store) != before:
            raise SavedThenInterrupted(what, undo) from None
        raise
