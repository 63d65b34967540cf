"""The indexes a query runs on, for one store: built once each, at first need, and again when the
catalogue changes.

A :class:`Searcher` owns three, each a :class:`Lazy` value:

* ``index``: the fuzzy :class:`~paperdeck.search.index.SearchIndex` over the papers and the user's
  notes, for a query's words (read from ``search-index.bin`` beside the catalogue when it was saved
  for the catalogue as it is, without parsing the catalogue; else built and saved);
* ``corpus``: the folded :class:`~paperdeck.search.corpus.TextCorpus` of the papers, for its text
  terms (``abstract:protein``, ``"large language"``);
* ``similarity``: the :class:`~paperdeck.search.similar.SimilarityIndex`, for its ``like:`` terms
  (read from ``similar-cache.npz`` beside the catalogue when it was saved for the catalogue as it
  is, else built and saved).

:func:`paperdeck.search.selection.run_query` takes a searcher: the filter bar, saved views and the
``search``, ``export`` and ``similar`` subcommands all select papers through one.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from paperdeck.model.errors import PaperdeckError
from paperdeck.search.index_file import CRC_MISMATCH, ReadAhead, take_read_ahead
from paperdeck.search.index_file import INDEX_FILE as INDEX_FILE  # see build_index
from paperdeck.store.store import Store

if TYPE_CHECKING:  # imported where built: not needed to open the store and show the list
    from concurrent.futures import Future

    from paperdeck.model.paper import Paper
    from paperdeck.search.corpus import TextCorpus
    from paperdeck.search.index import SearchIndex
    from paperdeck.search.similar import SimilarityIndex
    from paperdeck.store.patch_record import CataloguePatch

T = TypeVar("T")
#: Reads a saved index file's header and sections (:func:`paperdeck.search.index_file.read_sections`).
ReadSections = Callable[[Path], tuple[dict[str, Any], dict[str, memoryview]]]

#: The similarity index saved beside the catalogue (see :func:`build_similarity`).
SIMILARITY_FILE = "similar-cache.npz"
#: Where an older paperdeck saved the search index (removed when the index is saved anew).
OLD_INDEX_FILE = "search-index.npz"


def build_index(
    store: Store,
    notice: Callable[[str], object] | None = None,
    read: ReadSections | None = None,
    *,
    unchecked: ReadAhead | None = None,
) -> SearchIndex:
    """A search index over the store's papers and the user's notes: read from
    ``search-index.bin`` when it was saved for the catalogue as the store holds it (the papers
    are then not parsed), else built (seconds at tens of thousands of papers) and saved (and an
    older paperdeck's ``search-index.npz`` removed).

    A saved file that cannot be used (made for another catalogue, another version, truncated,
    not an index, inconsistent) is said once through ``notice`` (one line naming the file) and
    replaced by the index built; a missing one is built and saved without a word. Failing to
    save only costs the next start its speed; nothing is raised for it. Two processes building
    at once each write a whole file, atomically: the last one stays. ``read`` reads the saved
    file's sections (default: :func:`~paperdeck.search.index_file.read_sections`; a
    :meth:`Searcher.read_ahead`'s). ``unchecked``: a read ahead whose CRC is checked later
    (:attr:`ReadAhead.check_later`): it reads the saved file for the first look only (every
    other read is ``read``'s, checked: nothing unchecked is written again), and its ``used`` is
    set when the index returned is the one it read.

    Raises:
        StoreError: the catalogue cannot be read (when the index must be built).
    """
    from paperdeck.search.index import SearchIndex

    notes = store.user_notes
    path = store.data_dir / INDEX_FILE
    stamp = store.held_catalogue_stamp()
    saved: SearchIndex | str | None = None
    if stamp is not None:
        if unchecked is not None:  # the texts' lines counted with the CRC (Searcher.check_saved)
            ids = store.ids_by_position()  # the ids line parsed when the deferred check compares them
            saved = SearchIndex.load(path, stamp, ids, read=unchecked.sections, count_lines=False)
        else:
            saved = SearchIndex.load(path, stamp, store.paper_ids, read=read)
        if isinstance(saved, SearchIndex):
            saved.set_notes(notes)
            if unchecked is not None:
                unchecked.used = unchecked.taken
            return saved
    patch = store.catalogue.last_patch
    if stamp is not None and patch is not None and tuple(stamp) == patch.after:
        updated = _patched_index(store, path, patch, stamp, read)
        if updated is not None:
            updated.set_notes(notes)
            return updated
    from paperdeck.search.similar import texts_fingerprint  # not needed when the saved index is read

    store.load()
    stamp = store.held_catalogue_stamp()
    texts = texts_fingerprint(store.papers)
    # Saved for another stamp but the same texts (a reviews import rewrote the ratings): it holds.
    again = SearchIndex.load(path, [], store.paper_ids, texts) if saved is not None else None
    if isinstance(again, SearchIndex):
        again.set_notes(notes)
        if stamp is not None:  # the file copied with the new stamp: not written from the mapping
            with contextlib.suppress(PaperdeckError, OSError):
                SearchIndex.restamp(path, stamp, texts)
        return again
    if saved is not None and notice is not None:
        notice(f"{path}: the saved search index was not used ({saved}); it is built again")
    index = SearchIndex(store.papers, notes)
    if stamp is not None:
        with contextlib.suppress(PaperdeckError, OSError):
            index.save(path, stamp, texts)
            (store.data_dir / OLD_INDEX_FILE).unlink(missing_ok=True)
    return index


def _indexed_changes(patch: CataloguePatch) -> dict[int, tuple[Paper, Paper]]:
    """The papers of ``patch`` whose text the indexes read (title, keywords, authors, abstract:
    :func:`~paperdeck.search.similar.texts_fingerprint`'s fields) changed, by position."""
    return {
        position: (old, new)
        for position, (old, new) in patch.papers.items()
        if (old.id, old.title, old.keywords, old.authors, old.abstract)
        != (new.id, new.title, new.keywords, new.authors, new.abstract)
    }


def _patched_index(
    store: Store, path: Path, patch: CataloguePatch, stamp: list[int], read: ReadSections | None
) -> SearchIndex | None:
    """The search index saved at ``path`` for the catalogue before ``patch`` (an import in
    place), updated for the papers it changed and saved for the catalogue stamped ``stamp``
    (after it); ``None`` when that cannot be done (no such file, or not for that catalogue):
    then it is built. Failing to save only costs the next start its speed."""
    from paperdeck.search.index import SearchIndex
    from paperdeck.search.similar import patched_fingerprint

    ids = store.paper_ids
    if len(ids) != patch.count:
        return None
    changes = _indexed_changes(patch)
    from paperdeck.runtime import release_freed_memory

    release_freed_memory()  # what the import freed, handed back before the update's arrays are made
    if not changes:  # no text the index holds changed: the file holds, stamped anew
        with contextlib.suppress(PaperdeckError, OSError):
            if SearchIndex.restamp(path, stamp, None, before=patch.before):
                saved = SearchIndex.load(path, stamp, ids, read=read)
                return saved if isinstance(saved, SearchIndex) else None
        return None
    found = SearchIndex.load_patched(path, patch.before, ids, {at: new for at, (_, new) in changes.items()}, read)
    if found is None:
        return None
    index, header, queries = found
    texts = patched_fingerprint(str(header.get("texts", "")), changes)
    if texts is None:
        return None
    with contextlib.suppress(PaperdeckError, OSError):
        index.save(path, stamp, texts, queries)
    return index


def save_indexes_read_again(store: Store, told: Callable[[int, int], None] | None = None) -> bool:
    """Build the search index and the similarity index of the catalogue this store has just
    written (an import), save them (as :func:`build_index` and :func:`build_similarity` would)
    and hold neither: the papers held are let go of first (:meth:`Catalogue.release
    <paperdeck.store.catalogue.Catalogue.release>`) and each index is built from the file read
    again a paper at a time, only the fields the indexes read (:meth:`WrittenCatalogue.indexed
    <paperdeck.store.catalogue.WrittenCatalogue.indexed>`: no paper made), one index after the
    other, so that the import's peak memory is neither index beside every paper, nor both
    indexes at once. The files saved are byte for
    byte those of the build from the papers held.

    Returns False, having let go of nothing nor saved anything, when the store did not write the
    catalogue on disk now, or when its last import in place
    (:attr:`~paperdeck.store.catalogue.Catalogue.last_patch`) made the catalogue as it is (then
    build them as :func:`build_index` does: it updates the saved indexes for the papers changed). Failing to read the
    file again or to save only costs the next start its speed: nothing is raised for it (what
    was saved before the failure stays, each file stamped for this catalogue and whole).
    ``told``: ``(done, 2)`` once each index is saved (the similarity index first).
    """
    from paperdeck.runtime import release_freed_memory
    from paperdeck.search.index import SearchIndex
    from paperdeck.search.similar import SimilarityIndex

    patch = store.catalogue.last_patch
    if patch is not None and tuple(store.catalogue_stamp() or ()) == patch.after:
        return False  # an import in place: the saved indexes are updated for what it changed
    written = store.catalogue.written()
    if written is None:
        return False
    stamp = written.held_stamp
    store.catalogue.release()
    release_freed_memory()
    with contextlib.suppress(PaperdeckError, OSError, ValueError):
        similarity = SimilarityIndex.from_papers(written.ids, written.indexed())
        similarity.save(store.data_dir / SIMILARITY_FILE, stamp, similarity.texts)
        texts = similarity.texts
        del similarity
        release_freed_memory()
        if told is not None:
            told(1, 2)
        index = SearchIndex.from_papers(written.ids, written.indexed())
        index.save(store.data_dir / INDEX_FILE, stamp, texts)
        (store.data_dir / OLD_INDEX_FILE).unlink(missing_ok=True)
        del index
        release_freed_memory()
    if told is not None:
        told(2, 2)
    return True


def build_corpus(store: Store) -> TextCorpus:
    """The folded texts of the store's papers, laid end to end for text terms."""
    from paperdeck.search.corpus import TextCorpus

    return TextCorpus(store.papers)


def build_similarity(store: Store, notice: Callable[[str], object] | None = None) -> SimilarityIndex:
    """The similarity index over the store's papers: read from ``similar-cache.npz`` when it was
    saved for the catalogue as it is, else built and saved. A file another paperdeck version
    wrote (its terms or layout before) is said once through ``notice``, and built again.

    Failing to save only costs the next start its speed; nothing is raised for it.
    """
    from paperdeck.search.similar import SimilarityIndex, texts_fingerprint

    path = store.data_dir / SIMILARITY_FILE
    stamp = store.catalogue_stamp()
    if stamp is not None and (saved := SimilarityIndex.load(path, stamp)) is not None:
        return saved
    if stamp is not None:  # an import left the counts updated: the weights computed now, once
        from paperdeck.search.similar_pending import weigh_pending

        weighed = weigh_pending(path, stamp, store.paper_ids)
        if weighed is not None:
            if store.catalogue_stamp() == stamp:  # not re-imported meanwhile
                with contextlib.suppress(PaperdeckError, OSError):
                    weighed.save(path, stamp, weighed.texts)
            weighed.release_counts()
            return weighed
    if notice is not None and SimilarityIndex.saved_version(path) not in (None, 5, SimilarityIndex.FILE_VERSION):
        notice(f"{path}: the saved similarity index was written by another paperdeck version; it is built again")
    patch = store.catalogue.last_patch
    if stamp is not None and patch is not None and tuple(stamp) == patch.after:
        updated = _patched_similarity(store, path, patch, stamp)
        if updated is not None:
            return updated
    texts = texts_fingerprint(store.papers)
    # The catalogue was rewritten for what the index does not read (ratings, decisions): the
    # saved index holds, stamped anew.
    index = SimilarityIndex.load(path, None, texts) or SimilarityIndex(store.papers)
    if stamp is not None and store.catalogue_stamp() == stamp:  # not re-imported meanwhile
        with contextlib.suppress(PaperdeckError, OSError):
            index.save(path, stamp, index.texts)
    index.release_counts()
    return index


def _patched_similarity(store: Store, path: Path, patch: CataloguePatch, stamp: list[int]) -> SimilarityIndex | None:
    """The similarity index saved at ``path`` for the catalogue before ``patch`` (an import in
    place), updated for the papers it changed (:meth:`SimilarityIndex.load_patched`) and saved
    for the catalogue stamped ``stamp``; ``None`` when that cannot be done: then it is built.
    Failing to save only costs the next start its speed."""
    from paperdeck.search.similar import SimilarityIndex, patched_fingerprint

    ids = store.paper_ids
    if len(ids) != patch.count:
        return None
    changes = _indexed_changes(patch)
    if not changes:  # no text the index reads changed (a review import, decisions): stamped anew
        with contextlib.suppress(PaperdeckError, OSError):
            if SimilarityIndex.restamp(path, patch.before, stamp, ids):
                return SimilarityIndex.load(path, stamp)
    import gc

    from paperdeck.runtime import release_freed_memory

    # The search index just updated is let go of by its searcher, which refers to itself (its
    # indexes' builds are its methods): collected now, not beside this update's arrays.
    gc.collect()
    release_freed_memory()  # the search index's update freed: handed back before this one's arrays
    found = SimilarityIndex.load_patched(path, patch.before, ids, {at: new for at, (_, new) in changes.items()})
    if found is None:
        return None
    index, texts = found
    patched = patched_fingerprint(texts, changes)
    if patched is None:
        return None
    index.texts = patched
    with contextlib.suppress(PaperdeckError, OSError):
        index.save(path, stamp, patched)
    index.release_counts()
    return index


def save_similarity_counts(store: Store) -> bool:
    """After an import in place that made the catalogue as it is (its
    :attr:`~paperdeck.store.catalogue.Catalogue.last_patch`), bring the saved similarity index
    up to it without computing a weight: restamped when no text it reads changed, else its counts
    updated for the papers changed and its weights left to the first reader
    (:mod:`paperdeck.search.similar_pending`). False when that cannot be done (then build it:
    :func:`build_similarity`). Failing to save only costs the next start its speed."""
    from paperdeck.search.similar import SimilarityIndex
    from paperdeck.search.similar_pending import save_pending

    patch = store.catalogue.last_patch
    stamp = store.catalogue_stamp() if patch is not None else None
    if stamp is None or patch is None or tuple(stamp) != patch.after:
        return False
    ids = store.paper_ids
    if len(ids) != patch.count:
        return False
    path = store.data_dir / SIMILARITY_FILE
    changes = _indexed_changes(patch)
    with contextlib.suppress(PaperdeckError, OSError):
        if not changes:  # no text the index reads changed (a review import, decisions): stamped anew
            return SimilarityIndex.restamp(path, patch.before, stamp, ids)
        return save_pending(path, patch.before, stamp, ids, changes)
    return False


def _similarity_parses(store: Store) -> bool:
    """Whether the similarity index's build needs every paper parsed first: not when the store's
    last import in place (:attr:`~paperdeck.store.catalogue.Catalogue.last_patch`) made the
    catalogue as it is, for :func:`build_similarity` then updates the saved index reading only the
    papers it changed (and parses them all itself if it cannot), nor when the saved index was
    saved for the catalogue as it is, weighed (read as it is) or not (an import left its weights
    to compute: :mod:`paperdeck.search.similar_pending`)."""
    patch = store.catalogue.last_patch
    stamp = store.catalogue_stamp()
    if stamp is not None and patch is not None and tuple(stamp) == patch.after:
        return False
    from paperdeck.search.similar_pending import saved_for

    return stamp is None or not saved_for(store.data_dir / SIMILARITY_FILE, stamp)


class _Made(Generic[T]):
    """A value built, with the catalogue generation (:attr:`Store.catalogue_generation`) it was
    built from; never changed once made (a plain class, as
    :class:`~paperdeck.search.scores.NoteWords`)."""

    __slots__ = ("generation", "value")

    def __init__(self, generation: int, value: T) -> None:
        self.generation = generation
        self.value = value


class Lazy(Generic[T]):
    """A value built from a store's catalogue by ``build(store)``: at the first :meth:`get`, and at
    the first after the store's papers were replaced (:attr:`Store.catalogue_generation`, held in
    memory: asking whether the value is built touches no file, so a keystroke may ask).

    Thread-safe: threads asking at once wait for one build; :meth:`future` lets an event loop
    wait for it without a thread of its own.

    Args:
        store: the store whose catalogue the value is built from.
        build: makes the value (it may take seconds: call :meth:`get` in a worker thread).
        parse: parse the catalogue before ``build`` (else ``build`` parses it if it must); a
            callable: whether to, asked of the store at each build.
    """

    def __init__(
        self, store: Store, build: Callable[[Store], T], *, parse: bool | Callable[[Store], bool] = True
    ) -> None:
        self._store = store
        self._build = build
        self._parse = parse
        self._lock = threading.Lock()  # held while building
        self._state = threading.Lock()  # guards _pending and _building
        #: The result of the build under way, made only when a :meth:`future` caller waits for it
        #: (a command that only calls :meth:`get` imports no ``concurrent.futures``).
        self._pending: Future[T] | None = None
        self._building = False  # a get() is building (under _lock)
        self._made: _Made[T] | None = None

    @property
    def built(self) -> T | None:
        """The value if it is built for the store's papers as they are now, else ``None`` (never builds)."""
        made = self._made
        if made is None:
            return None
        if made.generation != self._store.catalogue_generation:
            self._drop(made)
            return None
        return made.value

    def _drop(self, made: _Made[T]) -> None:
        """Let go of a value built for papers since replaced: it is never used again, and held
        beside the papers that replaced it (and the value built for them) it is memory twice."""
        with self._state:
            if self._made is made:
                self._made = None

    def replace(self, build: Callable[[Store], T]) -> T:
        """Build the value again with ``build`` (once, not at later builds: those are
        ``build(store)``'s of the constructor) and keep it in place of the one built, for the
        catalogue as it is now (parsed first: a build replacing a damaged value parses it); threads
        asking meanwhile wait for it. The value.

        Raises:
            StoreError: the catalogue cannot be read.
        """
        with self._lock:
            self._store.load()
            generation = self._store.catalogue_generation
            value = build(self._store)
            self._made = _Made(generation, value)
            return value

    def get(self) -> T:
        """The value: built now unless it is built for the catalogue as it is (or being built by
        another thread: then that build's)."""
        value = self.built
        if value is not None:
            return value
        with self._lock:
            value = self.built  # built meanwhile, by the thread the lock waited for
            if value is not None:
                return value
            with self._state:
                self._building = True
            try:
                if self._parse is True or (callable(self._parse) and self._parse(self._store)):
                    self._store.load()  # the papers the value is built from, parsed first
                generation = self._store.catalogue_generation  # before: a change meanwhile rebuilds
                value = self._build(self._store)
                self._made = _Made(generation, value)
            except BaseException as error:
                if (pending := self._build_ended()) is not None:
                    pending.set_exception(error)
                raise
            if (pending := self._build_ended()) is not None:
                pending.set_result(value)
            return value

    def _build_ended(self) -> Future[T] | None:
        """Mark the build under way as ended; the future a :meth:`future` caller waits on, if any."""
        with self._state:
            pending, self._pending, self._building = self._pending, None, False
        return pending

    def future(self, start: Callable[[Callable[[], T]], object]) -> Future[T]:
        """The value as a future: done when it is built; else the build under way's (in any
        thread); else a new build's, which ``start(build)`` runs in a thread of its choosing (it
        must not run ``build`` in the caller's). The future cannot be cancelled."""
        with self._state:
            if self._pending is not None:
                return self._pending
            future: Future[T] = _running_future()
            if self._building:  # a get() in another thread is building: its result is this one's
                self._pending = future
                return future
            value = self.built
            if value is not None:
                future.set_result(value)
                return future
            self._pending = future
        try:
            start(self.get)
        except BaseException as error:  # nothing will build it: no waiter may wait for ever
            with self._state:
                if self._pending is future:
                    self._pending = None
            future.set_exception(error)
            raise
        return future


def _running_future() -> Future[T]:
    """A future that :meth:`Future.cancel` leaves alone (its result is set by a build)."""
    from concurrent.futures import Future  # deferred: a command reading the saved index needs none

    future: Future[T] = Future()
    future.set_running_or_notify_cancel()
    return future


class Searcher:
    """The indexes queries on ``store`` run on (see the module docstring).

    Args:
        store: the store searched.
        warm: queries the search index ranks as it is built, and keeps ranked
            (:meth:`SearchIndex.warm <paperdeck.search.index.SearchIndex.warm>`; the app: every
            single letter and digit, each the first keystroke of a search).
        notice: told, one line, when a saved index could not be used (:func:`build_index`).

    Attributes:
        store: the store searched.
        index: the fuzzy search index over the papers and the user's notes.
        corpus: the papers' folded texts.
        similarity: the similarity index, for ``like:``.
    """

    def __init__(self, store: Store, warm: Iterable[str] = (), notice: Callable[[str], object] | None = None) -> None:
        self.store = store
        self._warm = tuple(warm)
        self._notice = notice
        self.index: Lazy[SearchIndex] = Lazy(store, self._build_index, parse=False)
        self.corpus: Lazy[TextCorpus] = Lazy(store, build_corpus)
        self.similarity: Lazy[SimilarityIndex] = Lazy(
            store, partial(build_similarity, notice=notice), parse=_similarity_parses
        )
        self._read_ahead: ReadAhead | None = None
        self._typed: Callable[[], str] | None = None  # see read_ahead
        self._unchecked: ReadAhead | None = None  # the read the index was made of, its CRC unchecked
        #: Whether :meth:`check_saved` found the saved file damaged (an index made of it may still
        #: be in a query's hands).
        self.found_damaged = False

    def read_ahead(self, typed: Callable[[], str] | None = None, *, check_later: bool = False) -> None:
        """Start reading the saved search index (:data:`INDEX_FILE`) in a thread of its own: the
        file's pages read and their CRC checked, work that holds no interpreter lock (the app
        starts it before its first frame, which it does not slow). The index's next build takes
        what was read, unless another file was put in its place since (then it reads that one).
        Nothing is done while the index is built.

        ``typed`` (called in the building thread once the index is made) gives the words of a
        query typed meanwhile (``""``: none): the build ranks them before it hands the index out,
        so that the query waiting for it finds its ranking made (ranked once, not after the
        thread waiting wakes).

        ``check_later``: the read checks all but the file's CRC (its header and section table
        only: no byte of the sections is read, the queries read what they rank); an index made of
        it is unchecked until :meth:`check_saved` (the app calls it once the typing pauses)."""
        if self.index.built is None and self._read_ahead is None:
            path = self.store.data_dir / INDEX_FILE
            ahead = None if check_later else take_read_ahead(path)
            self._read_ahead = ahead or ReadAhead(path, check_later=check_later)
            self._typed = typed

    @property
    def unchecked(self) -> bool:
        """Whether the search index built is one read ahead whose CRC :meth:`check_saved` has not
        checked yet."""
        return self._unchecked is not None

    def check_saved(self) -> bool:
        """Check the CRC of the saved file the search index was read from, when it was read
        ahead unchecked (:meth:`read_ahead`'s ``check_later``): every byte of that file read
        through once (not on the event loop: tens of milliseconds at 100,000 papers), the
        lines of its title, keyword and author texts counted, its ids compared with the
        catalogue's and its vocabulary's order checked. A file found whole is recorded as such
        beside it (:func:`~paperdeck.search.index_file.note_checked`, by its
        :class:`~paperdeck.store.file_stamp.FileStamp`): while its stamp is the same, a later
        start compares its ids alone (its bytes cannot have changed without the stamp changing).
        False when one does not hold:
        said once through the notice, as :func:`build_index` says a bad file, and the index built
        again (the catalogue parsed: seconds) and kept in its place; the caller then ranks its
        query again. True otherwise (nothing unchecked: nothing done).

        Raises:
            StoreError: the catalogue cannot be read (the index must be built).
        """
        ahead = self._unchecked
        if ahead is None:
            return True
        before = ahead.checked_before()
        if before or ahead.crc_holds():
            # What the unchecked read left unchecked: the texts' lines (its CRC read the bytes),
            # the ids, the vocabulary's order; only the ids (the catalogue's) for a file found
            # whole by an earlier check.
            index = self.index.built
            fault = index.unchecked_fault(of_the_file=not before) if index is not None else None
            if fault is None:
                if not before:
                    ahead.note_checked()
                self._unchecked = None
                return True
            why = fault
        else:
            why = CRC_MISMATCH

        def refused(path: Path) -> tuple[dict[str, Any], dict[str, memoryview]]:
            raise ValueError(why)

        # Unchecked (and so suspect) until it is replaced: a query meanwhile still ran on it.
        self.found_damaged = True
        try:
            self.index.replace(lambda store: build_index(store, self._notice, refused))
        finally:
            self._unchecked = None
        return False

    def _build_index(self, store: Store) -> SearchIndex:
        ahead, self._read_ahead = self._read_ahead, None  # taken once: a later build reads anew
        typed, self._typed = self._typed, None
        if ahead is not None and ahead.check_later:
            index = build_index(store, self._notice, unchecked=ahead)
            self._unchecked = ahead if ahead.used else None
        else:
            self._unchecked = None
            index = build_index(store, self._notice, ahead.sections if ahead is not None else None)
        if typed is not None and (words := typed()):
            index.search_positions(words)  # kept with the index's last rankings
        if self._warm:
            index.warm(self._warm)
        return index

    def drop_stale(self) -> None:
        """Let go of every value built for papers since replaced (the catalogue was read again)
        now, not at its next build: the memory they held can then be handed back
        (:func:`paperdeck.runtime.release_freed_memory`) before the next build takes as much."""
        for lazy in (self.index, self.corpus, self.similarity):
            lazy.built  # noqa: B018 - asking drops a stale value

    def notes_changed(self, paper_ids: Iterable[str]) -> None:
        """Make the search index find the papers ``paper_ids`` by their notes as the store has
        them now. Nothing is done while the index is not built; a build reads the notes when it
        starts, so a note changed while one is under way reaches the index only at its next change."""
        index = self.index.built
        if index is not None:
            for paper_id in paper_ids:
                index.set_note(paper_id, self.store.user_data(paper_id).note)
