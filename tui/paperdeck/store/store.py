"""The paperdeck store: the catalogue of papers and the user's data, in two TinyDB files.

Layout of the data directory (created 0700)::

    catalogue.json     TinyDB: tables "papers" (one document per paper), "aliases", "meta" (schema)
    rows-cache.json    what the list shows of each paper, so the app paints before parsing the catalogue,
                       and where each paper lies in it (one paper is read without parsing the others)
    search-index.bin   the search index saved at import (:func:`paperdeck.search.searcher.build_index`)
    search-index.bin.checked  the stamp of the search index file last found whole (:mod:`paperdeck.search.index_file`)
    paper-index.bin    where each paper lies in the catalogue, by id, for the commands on one paper
                       (:mod:`paperdeck.store.paper_index`; written with the rows cache)
    user/NN.json       TinyDB shards of the user's data (stars, notes): see :mod:`paperdeck.store.user_data`
    user/follows.json  TinyDB: the authors, keywords and queries the user follows (:mod:`paperdeck.store.follows`)
    reviews/           the reviews, one shard file per group of papers: see :mod:`paperdeck.store.reviews`
    changes.jsonl      what each import changed on each paper: see :mod:`paperdeck.store.changes`
    undo/              the catalogue before the last import or removal, to take it back: see
                       :mod:`paperdeck.store.undo`
    changes-seen.json  when the user last saw every change (the What changed baseline): the same module

The two are apart because TinyDB rewrites its whole file on every write: starring a paper rewrites
one small shard, never the catalogue (large and slow to rewrite at full-conference scale). All files are
written atomically and durably (:mod:`paperdeck.store.atomic`). User data is keyed by paper id and
survives any re-import; when a merge gives a paper a better id, its user data moves with it.

:class:`Store` coordinates the parts, each owning its own state, and keeps the one set of names
callers use:

    :class:`~paperdeck.store.catalogue.Catalogue`      the catalogue file and its rows cache (``Store.catalogue``)
    :class:`~paperdeck.store.user_data.UserStore`      the user's records, in their shards
    :class:`~paperdeck.store.import_run.ImportRun`     one import under the import lock (made per import)
    :class:`~paperdeck.store.changes.ChangeHistory`    the change log read against the catalogue and the records
    reviews, follows, change log                      opened at first use (:attr:`Store.reviews`...)
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from paperdeck.model.errors import StoreError
from paperdeck.model.user import STATUSES, UserData
from paperdeck.store.atomic import (
    AtomicJSONStorage,
    atomic_write_bytes,
    clean_stray_temp_files,
    malformed,
    staged_path,
)
from paperdeck.store.catalogue import CATALOGUE_FILE, ROWS_FILE, Catalogue, catalogue_bytes
from paperdeck.store.rows import PaperRow, RowColumns, VenueRuns
from paperdeck.store.schema import SCHEMA_VERSION, check_schema, meta
from paperdeck.store.transaction import Transaction, recover, transaction
from paperdeck.store.user_data import USER_DIR, UserStore
from paperdeck.store.user_fields import is_empty as is_empty_record

if TYPE_CHECKING:  # a command that touches one paper imports neither (see follows, change_log and reviews)
    from paperdeck.model.changes import PaperChange
    from paperdeck.model.paper import Paper  # imported where papers are read: the rows come first
    from paperdeck.model.review import Review
    from paperdeck.model.schedule import ScheduleEvent
    from paperdeck.store.changes import ChangeHistory, ChangeLog
    from paperdeck.store.follows import FollowStore
    from paperdeck.store.import_run import IMPORT_LOCK_FILE, ImportReport, ImportRun, RemoveReport, UndoReport
    from paperdeck.store.rescoring import PaperTally
    from paperdeck.store.reviews import MergeProgress, ReviewImport, ReviewSpill, ReviewStore, StagedWords
    from paperdeck.store.schedule import ScheduleImport, ScheduleStore
    from paperdeck.store.undo import UndoPoint, UndoScope
    from paperdeck.store.undo_steps import StepEdit, UndoSteps

__all__ = [
    "CATALOGUE_FILE",
    "IMPORT_LOCK_FILE",
    "LEGACY_USER_FILE",
    "RECOVERED",
    "ROWS_FILE",
    "SCHEMA_VERSION",
    "ImportReport",
    "RemoveReport",
    "Store",
    "UndoReport",
    "catalogue_bytes",
    "utc_now",
]

_T = TypeVar("_T")

#: What this module names from :mod:`paperdeck.store.import_run`, imported there at first use: the
#: app's start (which imports no import's code, nor the ``hashlib`` and ``html`` of its ids) reads none.
_FROM_IMPORT_RUN = frozenset({"IMPORT_LOCK_FILE", "ImportReport", "RemoveReport", "UndoReport"})


def __getattr__(name: str) -> object:
    """:data:`_FROM_IMPORT_RUN`'s names, from :mod:`paperdeck.store.import_run` (imported then)."""
    if name in _FROM_IMPORT_RUN:
        from paperdeck.store import import_run

        return getattr(import_run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Where schema 1 kept all the user's data (migrated into ``user/`` shards on open).
LEGACY_USER_FILE = "user.json"


#: :data:`paperdeck.store.schedule.SCHEDULE_FILE`, named here so that a store without a programme
#: answers :meth:`Store.events_of` without importing the schedule's modules.
SCHEDULE_NAME = "schedule.json"


#: What to tell the user when :attr:`Store.recovered` is not 0 (one line).
RECOVERED = "an interrupted import, restore or change of marks was saved; it is now complete"


def utc_now() -> str:
    """The current time as ISO 8601 UTC with microseconds (``"2026-11-29T19:30:00.123456+00:00"``)."""
    return datetime.now(UTC).isoformat()


def typed_id(given: str) -> str:
    """A paper id as the user typed or pasted it, made an id: the white space around it dropped
    (``$(xclip -o)`` ends with a newline), and an OpenReview link, with or without its
    ``https://``, read as its forum id. Every command taking ids, and the app, reads them here
    (through :meth:`Store.paper_named`)."""
    given = given.strip()
    if "openreview.net" in given:  # model.ids (and the hashlib it imports) only for a link
        from paperdeck.model.ids import openreview_id_from_url

        link = given if "://" in given else f"https://{given}"
        if forum := openreview_id_from_url(link):
            return forum
    return given


class Store:
    """The catalogue (:class:`~paperdeck.store.catalogue.Catalogue`), the user's data (written
    through at once), and the parts opened at first use (reviews, follows, change log); imports
    run under the import lock.

    Args:
        data_dir: the data directory; created with mode 0700 when missing.
        now: clock for timestamps, returning ISO 8601 UTC text (tests pass a fixed one).
        lazy: when the rows cache matches the catalogue, open with the rows only and leave
            parsing the catalogue to :meth:`load` (the list paints first); otherwise the
            catalogue is parsed at once.
        rows: with ``lazy``, whether the rows themselves are read at once (the list needs them; a
            command that reads a few papers does not): when not, they are read at the first
            :meth:`row`. When they are, only the first
            :data:`~paperdeck.store.catalogue.FIRST_ROWS` are read at once (the list's first
            screen), the others at the first :meth:`row` of one of them.
        user_records: whether every user record is made at once; when not (the app, the
            commands), every shard is still read and checked at once, and a paper's record is
            made at its first need, the counts of :meth:`user_counts` taken from the documents
            (:class:`~paperdeck.store.user_data.UserStore`'s ``lazy``).
        create: whether a missing ``data_dir`` is created; when not (a command that only reads),
            a missing directory is an empty store, left uncreated.
        catalogue_at_first_use: whether the catalogue (and its rows cache) is opened at the first
            use of :attr:`catalogue` rather than here: a command that touches one paper finds it
            by the paper index (:meth:`paper_named`, :mod:`paperdeck.store.paper_index`) and
            never reads the rows cache's ids, which grow with the store.
        lean: hold the papers parsed by the rows cache's spans without their texts, each read
            from the catalogue file when asked for (:mod:`paperdeck.store.lean_papers`): what
            the store holds then does not grow with the abstracts (the app; a command that
            reads every paper's text once is faster without).

    Raises:
        StoreError: the directory cannot be created or is not a directory, a file is not valid
            JSON, or it was written by a newer paperdeck. Nothing on disk is changed then.
    """

    def __init__(
        self,
        data_dir: Path | str,
        now: Callable[[], str] = utc_now,
        *,
        lazy: bool = False,
        rows: bool = True,
        user_records: bool = True,
        create: bool = True,
        catalogue_at_first_use: bool = False,
        lean: bool = False,
    ) -> None:
        self.data_dir = Path(data_dir)
        self._now = now
        if create or self.data_dir.exists():
            _ensure_directory(self.data_dir)
        self._catalogue = Catalogue(self.data_dir, rows=rows, lean=lean)  # see the catalogue property
        self._catalogue_opened = False
        self._catalogue_lock = threading.Lock()
        self._lazy = lazy
        self.catalogue_path = self._catalogue.path
        self.rows_path = self._catalogue.rows_path
        self.user_dir = self.data_dir / USER_DIR
        self._open_lock = threading.Lock()  # opens the reviews, the follows and the change log at first use
        self._reviews: ReviewStore | None = None
        self._follows: FollowStore | None = None
        self._undo_steps: UndoSteps | None = None
        self._schedule: ScheduleStore | None = None
        self._events_by_paper: tuple[tuple[int, int], dict[str, tuple[ScheduleEvent, ...]]] | None = None
        self._event_papers: tuple[tuple[frozenset[str], int], frozenset[str]] | None = None  # event_papers
        self._change_log: ChangeLog | None = None
        #: :meth:`user_counts`: for the user data's counts and the papers' generation, the counts
        self._present_counts: tuple[Counter[str], int, tuple[int, Counter[str]]] | None = None
        self._change_history: ChangeHistory | None = None
        self._undo_scope: UndoScope | None = None  # the change being made that becomes the undo point
        #: Given every paper as a review import writes the new scores in place (a command that
        #: counts the statistics after it: :func:`paperdeck.store.rescoring.rescore`'s ``tally``).
        self.rescore_tally: PaperTally | None = None
        #: How many changes an interrupted paperdeck had committed and this opening finished
        #: (:func:`~paperdeck.store.transaction.recover`); say :data:`RECOVERED` when any.
        self.recovered = 0
        self._recover()
        if not catalogue_at_first_use:
            self._catalogue.open(lazy=lazy)
            self._catalogue_opened = True
        self._user = UserStore(self.user_dir, now, meta(), check_schema, lazy=not user_records)
        self._migrate_single_user_file()
        self._catalogue.on_load = self._adopt_orphaned_user_data
        if self._catalogue_opened and self._catalogue.loaded:
            self._adopt_orphaned_user_data()

    @property
    def catalogue(self) -> Catalogue:
        """The catalogue file and the rows cache beside it (:class:`~paperdeck.store.catalogue.Catalogue`);
        opened here at first use when the store was made with ``catalogue_at_first_use``.

        Raises:
            StoreError: as :meth:`load` (opening it then).
        """
        if not self._catalogue_opened:
            with self._catalogue_lock:  # not the open lock: a part opened under it may use the catalogue
                if not self._catalogue_opened:
                    self._catalogue.open(lazy=self._lazy)  # (its on_load adopts orphaned user data)
                    self._catalogue_opened = True
        return self._catalogue

    def _recover(self) -> None:
        """Finish a change a killed process committed (:func:`~paperdeck.store.transaction.recover`),
        then remove the temporary files left by writes that never committed.

        Raises:
            StoreError: the data directory cannot be listed or the change cannot be finished
                (one line naming the path).
        """
        if not self.data_dir.is_dir():
            return
        self.recovered = recover(self.data_dir)
        # What a killed change staged and never committed (an import's reviews: hundreds of MB),
        # and the staging of an undo point never committed.
        for directory in (self.data_dir, self.user_dir, self.data_dir / "reviews", self.data_dir / "undo"):
            try:
                if directory.is_dir():
                    clean_stray_temp_files(directory, older_than_s=60.0, root=self.data_dir)
            except OSError as exc:
                raise StoreError(directory, f"cannot list: {exc.strerror or exc}; check the disk") from None

    def transaction(self) -> AbstractContextManager[Transaction]:
        """One transaction on this store (:func:`paperdeck.store.transaction.transaction`):
        every file written in the block (imports, reviews, user records, the change log) is
        renamed into place at its end, all of them or none; joined when one is open already.

        Raises:
            StoreError: as :func:`~paperdeck.store.transaction.transaction`.
        """
        return transaction(self.data_dir)

    @property
    def reviews(self) -> ReviewStore:
        """The reviews (catalogue data, written only by imports, read one paper at a time); opened
        at first use (opening reads no file)."""

        def open_reviews() -> ReviewStore:
            from paperdeck.store.reviews import REVIEWS_DIR, ReviewStore

            return ReviewStore(self.data_dir / REVIEWS_DIR, self._now)

        return self._opened("_reviews", open_reviews)

    @property
    def schedule(self) -> ScheduleStore:
        """The conference programmes' events (catalogue data, written only by imports); opened at
        first use (opening reads no file)."""

        def open_schedule() -> ScheduleStore:
            from paperdeck.store.schedule import SCHEDULE_FILE, ScheduleStore

            return ScheduleStore(self.data_dir / SCHEDULE_FILE)

        return self._opened("_schedule", open_schedule)

    def events_by_paper(self) -> dict[str, tuple[ScheduleEvent, ...]]:
        """Every paper's events by its current id (:meth:`ScheduleStore.by_paper
        <paperdeck.store.schedule.ScheduleStore.by_paper>`, old ids resolved); ``{}`` when no
        programme was imported. Kept until the schedule file or the catalogue changes (the
        caller must not change it).

        Raises:
            StoreError: the schedule file is malformed.
        """
        events = self.schedule.events()
        if not events:  # no programme: the catalogue is not opened for it
            return {}
        key = (self.schedule.generation, self.catalogue.generation)
        cached = self._events_by_paper
        if cached is not None and cached[0] == key:
            return cached[1]
        aliases = self.catalogue.aliases if events else {}
        resolve = {old: self.resolve(old) for old in aliases}
        by_paper = self.schedule.by_paper(resolve)
        self._events_by_paper = (key, by_paper)
        return by_paper

    def events_of(self, paper_id: str) -> tuple[ScheduleEvent, ...]:
        """The events of one paper (:meth:`events_by_paper`), ``()`` when it has none (with no
        schedule file, without importing the schedule's modules).

        Raises:
            StoreError: the schedule file is malformed.
        """
        if self._schedule is None and not os.path.lexists(staged_path(self.data_dir / SCHEDULE_NAME)):
            return ()
        if not self.has_events(paper_id):
            return ()  # the programmes' events are not made for a paper none of them names
        return self.events_by_paper().get(paper_id, ())

    def has_events(self, paper_id: str) -> bool:
        """Whether a stored event names ``paper_id`` (by it or by an old id of it): read from the
        schedule file without making its events (:meth:`ScheduleStore.paper_ids
        <paperdeck.store.schedule.ScheduleStore.paper_ids>`), so that a library holding another
        venue's programme does not make every event of it for a paper of this venue.

        Raises:
            StoreError: the schedule file is not valid JSON or not paperdeck's.
        """
        return paper_id in self.event_papers()

    def event_papers(self) -> frozenset[str]:
        """The current ids of the papers the stored events name (old ids resolved; see
        :meth:`has_events`), kept until the schedule file or the catalogue changes.

        Raises:
            StoreError: the schedule file is not valid JSON or not paperdeck's.
        """
        named = self.schedule.paper_ids()
        if not named:
            return named
        key = (named, self.catalogue.generation)
        cached = self._event_papers
        if cached is not None and cached[0][0] is key[0] and cached[0][1] == key[1]:
            return cached[1]
        aliases = self.catalogue.aliases
        current = frozenset(self.resolve(old) for old in named) if aliases else named
        self._event_papers = (key, current)
        return current

    def import_events(self, events: Iterable[ScheduleEvent]) -> ScheduleImport:
        """Join programme events to the catalogue's papers (:func:`~paperdeck.store.schedule.join_events`)
        and store the joined ones, replacing the same programmes' events; in the active
        transaction when there is one (an import's), else in one of its own.

        Raises:
            StoreError: the schedule or the catalogue cannot be read, or the schedule cannot be written.
        """
        from paperdeck.store.schedule import ScheduleImport, join_events

        events = list(events)
        joined, unmatched = join_events(events, self.papers)
        joined = [replace(e, paper_id=self.resolve(e.paper_id)) for e in joined]
        with self.transaction():
            if self._undo_scope is not None and joined:  # the programme before: an undo puts it back
                self._undo_scope.keep_before()
            removed = self.schedule.replace_events(joined)
        return ScheduleImport(len(joined), len({e.paper_id for e in joined}), tuple(unmatched), removed)

    @property
    def follows(self) -> FollowStore:
        """The authors, keywords and queries the user follows (user data; no import touches them);
        opened at first use."""

        def open_follows() -> FollowStore:
            from paperdeck.store.follows import FollowStore

            return FollowStore(self.user_dir, self._now, meta(), check_schema)

        return self._opened("_follows", open_follows)

    @property
    def undo_steps(self) -> UndoSteps:
        """The app's undo steps kept beside the user data (``user/undo-steps.json``), written by
        :meth:`change` in the transaction of the change each undoes; opened at first use."""

        def open_undo_steps() -> UndoSteps:
            from paperdeck.store.undo_steps import UndoSteps

            return UndoSteps(self.user_dir, self._now)

        return self._opened("_undo_steps", open_undo_steps)

    @property
    def change_log(self) -> ChangeLog:
        """What each import changed on each paper (catalogue data, appended only by imports);
        opened at first use."""

        def open_change_log() -> ChangeLog:
            from paperdeck.store.changes import CHANGES_FILE, ChangeLog

            return ChangeLog(self.data_dir / CHANGES_FILE)

        return self._opened("_change_log", open_change_log)

    def _opened(self, attribute: str, open_part: Callable[[], _T]) -> _T:
        """The part of the store held in ``attribute``, made by ``open_part`` at its first use, by
        one thread (the others wait for it)."""
        part = getattr(self, attribute)
        if part is None:
            with self._open_lock:
                part = getattr(self, attribute)
                if part is None:
                    part = open_part()
                    setattr(self, attribute, part)
        return cast(_T, part)

    # -- catalogue (forwards to self.catalogue) ------------------------------------------------

    @property
    def loaded(self) -> bool:
        """Whether the catalogue is parsed (a lazy store has only its rows until :meth:`load`)."""
        return self.catalogue.loaded

    def load(self) -> None:
        """Parse the catalogue if it is not yet (:meth:`Catalogue.load
        <paperdeck.store.catalogue.Catalogue.load>`; safe from several threads).

        Raises:
            StoreError: the catalogue is not valid or was written by a newer paperdeck.
        """
        self.catalogue.load()

    def defer_outside(self, venues: frozenset[str]) -> None:
        """Have the catalogue's parse read only the papers of ``venues`` (the venue scope a view
        opens on; empty: every paper), the others each read at its first use
        (:meth:`Catalogue.defer_outside <paperdeck.store.catalogue.Catalogue.defer_outside>`):
        before :meth:`load`, for a store opened ``lean`` and ``lazy``."""
        self.catalogue.defer_outside(venues)

    @property
    def papers(self) -> list[Paper]:
        """Every paper in catalogue order; loads if needed (raises StoreError as :meth:`load`)."""
        return self.catalogue.papers

    def forums_apart(self, venues: frozenset[str]) -> Mapping[str, tuple[str, ...]] | None:
        """:meth:`Catalogue.forums_apart <paperdeck.store.catalogue.Catalogue.forums_apart>`: the
        forums that are not their paper's id less ``openreview:``, with those papers' ids, for the
        papers of ``venues``; ``None`` when the papers held cannot tell (loads if needed)."""
        self.catalogue.load()
        return self.catalogue.forums_apart(venues)

    def papers_at(self, spans: Iterable[tuple[int, int]]) -> list[Paper]:
        """:meth:`Catalogue.papers_at <paperdeck.store.catalogue.Catalogue.papers_at>`: the papers
        at these ``[start, stop)`` positions, no list of every paper made."""
        return self.catalogue.papers_at(spans)

    @property
    def catalogue_generation(self) -> int:
        """:attr:`Catalogue.generation <paperdeck.store.catalogue.Catalogue.generation>`: changes
        each time the papers are replaced; touches no file."""
        return self.catalogue.generation

    @property
    def paper_ids(self) -> list[str]:
        """Every paper id in catalogue order (from the rows cache while not loaded)."""
        return self.catalogue.paper_ids

    def ids_view(self) -> Sequence[str]:
        """:attr:`paper_ids` for the list's first paint, the ids past its first screen parsed
        when first asked for (:meth:`~paperdeck.store.catalogue.Catalogue.ids_view`)."""
        return self.catalogue.ids_view()

    def ids_by_position(self) -> Sequence[str]:
        """:attr:`paper_ids` for a saved search index read before its CRC is checked, each id
        past the first screen read alone by position until many are asked for
        (:meth:`~paperdeck.store.catalogue.Catalogue.ids_by_position`)."""
        return self.catalogue.ids_by_position()

    @property
    def paper_count(self) -> int:
        """How many papers the catalogue holds (``len(paper_ids)`` without the copy)."""
        return self.catalogue.paper_count

    @property
    def row_columns(self) -> RowColumns:
        """Whether any paper has a decision / a rating (the list's optional columns)."""
        return self.catalogue.row_columns

    @property
    def venue_runs(self) -> VenueRuns:
        """Each paper's venue in catalogue order (:attr:`Catalogue.venue_runs
        <paperdeck.store.catalogue.Catalogue.venue_runs>`); never parses the catalogue."""
        return self.catalogue.venue_runs

    def paper(self, paper_id: str) -> Paper | None:
        """The paper with this id (or an alias of it), or ``None`` (:meth:`Catalogue.paper
        <paperdeck.store.catalogue.Catalogue.paper>`; raises StoreError as :meth:`load`)."""
        return self.catalogue.paper(paper_id)

    def paper_named(self, given: str) -> Paper | None:
        """The paper a user names: its id, a bare id one paper has under any kind of id
        (``ukGxWd2aDG``, ``a774902a887c6233`` for ``abs:a774902a887c6233``), or its OpenReview link;
        ``None`` when no paper has it (raises StoreError as :meth:`load`).

        While the catalogue is not opened (``catalogue_at_first_use``), the paper is found by the
        paper index (:mod:`paperdeck.store.paper_index`) and read alone: nothing proportional to
        the store is read. A paper the index does not give (no index, a stale or broken one, an
        id it does not list, a document that is not of that paper) is asked of the catalogue, as
        without the index; the index is then written again from the rows cache's spans when it
        was missing or not usable.

        ``given`` is read as pasted (:func:`typed_id`): white space around it (a newline from the
        clipboard) is dropped, an OpenReview link may lack its scheme, and an id in another case
        names the one paper whose id it is but for case (none when two are)."""
        given = typed_id(given)
        paper = self._paper_named(given)
        if paper is None and given:
            paper = self._paper_named_in_any_case(given)
        return paper

    def _paper_named_in_any_case(self, given: str) -> Paper | None:
        """The one paper whose id (or bare forum id) is ``given`` but for case; ``None`` when none or several."""
        folded = given.casefold()
        found = {pid for pid in self.paper_ids if pid.casefold() in (folded, f"openreview:{folded}")}
        return self.paper(found.pop()) if len(found) == 1 else None

    def _paper_named(self, given: str) -> Paper | None:
        if not self._catalogue_opened:
            found, usable = self._paper_by_index(given)
            if found is not None:
                return found
            if not usable:
                paper = self.catalogue.paper_named(given)
                self._rewrite_paper_index()
                return paper
        return self.catalogue.paper_named(given)

    def _paper_by_index(self, given: str) -> tuple[Paper | None, bool]:
        """The paper ``given`` names (as :meth:`paper_named`) found by the paper index, and
        whether the index was usable (present, whole, of the catalogue as it is now)."""
        from paperdeck.store.catalogue import one_named
        from paperdeck.store.paper_index import INDEX_FILE, id_names, open_index, read_document

        index = open_index(self.data_dir / INDEX_FILE, self.catalogue_path)
        if index is None:
            return None, False
        names = id_names(given)
        if "://" in given:  # model.ids (and the hashlib it imports) only for a link
            from paperdeck.model.ids import openreview_id_from_url

            if forum := openreview_id_from_url(given):
                names = [f"openreview:{forum}", forum]

        def found(name: str) -> Paper | None:
            current = index.resolve(name)
            for span in index.spans(current):
                document = read_document(self.catalogue_path, index.stamp, span)
                paper = _paper_of(document, current) if document is not None else None
                if paper is not None:
                    return paper
            return None

        try:
            first = found(names[0])
            if first is not None or len(names) == 1:
                return first, True
            if "://" in given:
                return found(names[1]), True
            return one_named(given, map(found, names[1:])), True  # a bare id: one paper of any kind
        finally:
            index.close()

    def _rewrite_paper_index(self) -> None:
        """Write the paper index again from the rows cache's spans, when the catalogue opened
        has them for the file as it is (best effort, silent: a failure only costs speed), and the
        review summaries' span index when it is not of its file either (a store copied or
        restored: both name their file's inode)."""
        self._catalogue.write_paper_index()
        self.reviews.repair_spans()

    def row(self, paper_id: str, at: int | None = None) -> PaperRow | None:
        """What the list shows of a paper, ``None`` for an unknown id; never loads the catalogue.
        ``at``: its position in catalogue order, where known (:meth:`Catalogue.row
        <paperdeck.store.catalogue.Catalogue.row>`)."""
        return self.catalogue.row(paper_id, at)

    @property
    def is_empty(self) -> bool:
        """True when the catalogue holds no paper (a first run); while the catalogue is not
        opened (``catalogue_at_first_use``), answered by the paper index when it is usable."""
        if not self._catalogue_opened:
            from paperdeck.store.paper_index import INDEX_FILE, open_index

            index = open_index(self.data_dir / INDEX_FILE, self.catalogue_path)
            if index is not None:
                index.close()
                return index.papers == 0
        return self.catalogue.is_empty

    def catalogue_stamp(self) -> list[int] | None:
        """The catalogue file's ``[size in bytes, mtime in ns]``, or ``None`` when there is none."""
        return self.catalogue.stamp()

    def held_catalogue_stamp(self) -> list[int] | None:
        """:meth:`catalogue_stamp` of the file the papers (or rows) held were read from or
        written to; ``None`` when none. Touches no file."""
        return self.catalogue.held_stamp()

    def catalogue_changed(self) -> bool:
        """Whether another process replaced the catalogue since this store read or wrote it."""
        return self.catalogue.changed()

    def reload_catalogue(self) -> bool:
        """Read the catalogue again when another process changed it; True when the papers were
        replaced. The importing process moved the user data of renamed papers itself; the app
        re-reads user data on its own (:meth:`reload_user_data`), on the event loop.

        Raises:
            StoreError: the catalogue is no longer valid (the papers read before are kept).
        """
        return self.catalogue.reload()

    @property
    def aliases(self) -> dict[str, str]:
        """Old paper ids → the id each stood for (a copy; follow chains with :meth:`resolve`)."""
        return self.catalogue.aliases

    def resolve(self, paper_id: str) -> str:
        """The current id of a paper known by ``paper_id`` (which may be an older alias)."""
        return self.catalogue.resolve(paper_id)

    # -- imports -----------------------------------------------------------------------------

    def import_papers(self, papers: Iterable[Paper]) -> ImportReport:
        """Merge ``papers`` into the catalogue (:mod:`paperdeck.store.merge`) and write it once,
        under the import lock (:class:`~paperdeck.store.import_run.ImportRun`).

        A paper that matches one already present (same id, forum id, arXiv id, DOI, title or
        abstract) is combined with it; when the combined paper gets a better id (a seed abstract
        matched to its OpenReview record), the old id becomes an alias and the user's star and note
        move with it. Derived titles are re-derived so all stay distinct.

        Raises:
            StoreError: the catalogue cannot be read or written, the import lock cannot be taken,
                or the user data cannot be written (then nothing changed).
        """
        return self._import_run().import_papers(papers)

    def import_reviews(
        self,
        reviews: Iterable[Review] | ReviewSpill,
        staged: StagedWords | None = None,
        first_seen: Iterable[str] = (),
        progress: MergeProgress | None = None,
    ) -> ReviewImport:
        """Merge reply notes into the reviews (:meth:`paperdeck.store.reviews.ReviewStore.import_reviews`,
        ``staged`` the words folded as they were read), under the import lock; notes on papers not
        in the catalogue are kept and counted. ``first_seen``: the papers the same import added
        (:attr:`ImportReport.new_ids`): what their reviews bring is not recorded as changes
        (:class:`~paperdeck.store.changes.FirstSeenLeftOut`). ``progress``: told as the notes are
        merged and written (:data:`~paperdeck.store.reviews.MergeProgress`).

        Raises:
            StoreError: the reviews cannot be read or written, or the import lock cannot be taken.
        """
        run = self._import_run()
        if first_seen := tuple(first_seen):
            from paperdeck.store.changes import FirstSeenLeftOut

            run.change_log = FirstSeenLeftOut(run.change_log, first_seen)
        return run.import_reviews(reviews, staged, progress)

    def remove_leftovers(self) -> int:
        """Remove what killed changes left in the store (:func:`paperdeck.store.leftovers.remove_leftovers`:
        their undo staging, review generations no index names), unless another process is
        importing; best effort, slow on a store with hundreds of MB left (call it off the event
        loop). Returns how many entries were removed."""
        from paperdeck.store.import_run import IMPORT_LOCK_FILE
        from paperdeck.store.leftovers import remove_leftovers

        return remove_leftovers(self.data_dir, self.data_dir / IMPORT_LOCK_FILE)

    def _import_run(self) -> ImportRun:
        from paperdeck.store.import_run import IMPORT_LOCK_FILE, ImportRun

        lock_path = self.data_dir / IMPORT_LOCK_FILE
        run = ImportRun(self.catalogue, self._user, self.reviews, self.change_log, lock_path, self._now)
        run.undo = self._undo_scope
        run.tally = self.rescore_tally
        return run

    # -- removing papers, and taking back the last change -------------------------------------

    @contextlib.contextmanager
    def undoable(self, what: str) -> Iterator[UndoScope]:
        """Make the imports (or removal) run inside this block one change that can be taken back
        (:meth:`undo_last_change`): the catalogue before their first write is kept
        (:mod:`paperdeck.store.undo`), and becomes the undo point when the block ends, with the
        scope's ``summary``. A block that raises leaves the undo point as it was; one that
        wrote nothing too.

        Keeping the catalogue before is best effort: on a disk that cannot take it the change is
        made without an undo point (its own write then says what is wrong).
        """
        from paperdeck.store.undo import UndoScope, file_stamp

        scope = UndoScope(self.data_dir, self.catalogue_path, what, self.schedule.path)
        reviews_index = self.reviews.index_path
        before = (self.catalogue.stamp(), file_stamp(reviews_index), file_stamp(self.schedule.path))
        log_before = file_stamp(self.change_log.path)
        self._undo_scope = scope
        try:
            yield scope
        except BaseException:
            scope.discard()
            raise
        finally:
            self._undo_scope = None
        after = (self.catalogue.stamp(), file_stamp(reviews_index), file_stamp(self.schedule.path))
        if after == before:  # nothing written: the point stays the previous change's
            scope.discard()
            return
        # The change stands either way: a point not written leaves the previous one, which no
        # longer matches the catalogue, so an undo is refused rather than wrong.
        with contextlib.suppress(StoreError):
            log = ((log_before or [0])[0], file_stamp(self.change_log.path))
            scope.commit(self._now(), scope.summary, *after, log=log)

    def remove_papers(self, paper_ids: Iterable[str]) -> RemoveReport:
        """Take papers (by id or alias) out of the catalogue, as one change that can be taken back
        (:meth:`undo_last_change`); each is recorded in the change log, and their events (the
        programmes') are dropped with them (the undo brings them back). Their reviews and the
        user's records on them are kept (the records stay in the user store and its backup): a
        paper imported again finds both. Unknown ids are reported, not refused.

        Raises:
            StoreError: the catalogue or the schedule cannot be read or written, or the import
                lock cannot be taken (then nothing changed).
        """
        paper_ids = list(paper_ids)
        # the events' ids as they resolve now: an alias of a paper removed is dropped with it
        events = self.schedule.events()
        resolve = {e.paper_id: self.resolve(e.paper_id) for e in events} if events else {}
        with self.undoable("remove") as undo, self.transaction():  # the catalogue, schedule and change log
            report = self._import_run().remove_papers(paper_ids)
            if report.removed and events:
                self.schedule.drop_papers(report.removed, resolve)
            count = len(report.removed)
            undo.summary = f"removed {count:,} paper{'' if count == 1 else 's'}"
        return report

    @property
    def undo_point(self) -> UndoPoint | None:
        """The last import or removal, which :meth:`undo_last_change` takes back; ``None`` when
        there is none (reads one small file)."""
        from paperdeck.store.undo import read_undo_point

        return read_undo_point(self.data_dir)

    def undo_last_change(self) -> UndoReport:
        """Take back the last import or removal (:attr:`undo_point`): the catalogue is set back
        to what it was before it (and the reviews, when it imported reviews, and the programmes'
        events), the change log cut back to before it (or, written since, the undo recorded in
        it), and the point dropped (a second undo has nothing to undo).

        Raises:
            NothingToUndo: there is no undo point.
            StoreError: the catalogue (or the reviews or the schedule it kept) changed since the
                point was made (another import, in another process or before this version of
                paperdeck kept undo points), or it cannot be read or written (then nothing changed).
        """
        from paperdeck.store.undo import NothingToUndo, drop_undo_point

        point = self.undo_point
        if point is None:
            raise NothingToUndo("nothing to undo: no import or removal to take back")
        with self.transaction():  # the catalogue, reviews, change log, user records and the point: all or none
            report = self._import_run().take_back(point)
            if point.kept_schedule:  # the programmes' events as they were before it
                self.schedule.put_back(point.schedule)
            drop_undo_point(self.data_dir)
        return report

    # -- changes (forwards to the change history) ----------------------------------------------

    @property
    def _history(self) -> ChangeHistory:
        """The change log read against the catalogue and the user data; opened at first use."""
        log = self.change_log  # opened first: _opened holds the open lock while it opens a part

        def open_history() -> ChangeHistory:
            from paperdeck.store.changes import ChangeHistory

            return ChangeHistory(log, self.catalogue, self._user)

        return self._opened("_change_history", open_history)

    def changes(self, since: str = "") -> list[PaperChange]:
        """Every change recorded at or after ``since`` (ISO 8601 text; ``""``: all), oldest first,
        each under its paper's current id (:meth:`ChangeHistory.changes
        <paperdeck.store.changes.ChangeHistory.changes>`; raises StoreError when unreadable)."""
        return self._history.changes(since)

    def paper_changes(self, paper_id: str, since: str = "") -> list[PaperChange]:
        """The changes recorded on one paper (its id or an alias) at or after ``since``, oldest
        first (raises StoreError when the change log cannot be read)."""
        return self._history.paper_changes(paper_id, since)

    def paper_history(self, paper_id: str) -> list[PaperChange]:
        """The changes recorded on one paper as its history says them, oldest first: those of
        the baseline (before the app first opened the store) folded into one line of its first
        imports (:meth:`ChangeHistory.paper_history
        <paperdeck.store.changes.ChangeHistory.paper_history>`; raises StoreError when the change
        log cannot be read). Its rating is said only where it is the paper's now."""
        row = self.row(paper_id)
        return self._history.paper_history(paper_id, row.rating if row is not None else float("nan"))

    def changes_baseline(self) -> str | None:
        """When the app first opened the store (the latest change then; ``None``: never): the
        changes at or before it are the papers' first imports, not news
        (:func:`~paperdeck.model.changes.in_baseline`)."""
        return self._history.baseline()

    def changes_by_paper(self, since: str = "") -> dict[str, PaperChange]:
        """Each paper's changes at or after ``since`` as one, by current paper id, the latest
        changed first (raises StoreError when the change log cannot be read)."""
        return self._history.changes_by_paper(since)

    def changed_since_looked(self) -> dict[str, frozenset[str]]:
        """The papers with a change recorded since the user last looked (opened the paper, or
        saw every change: :mod:`paperdeck.store.changes`), by current id, with what changed
        (cached; a log that cannot be read counts as none; none before the app's first open)."""
        return self._history.changed_since_looked()

    def first_look(self) -> bool:
        """The user opens the store in the app: the first time, every change recorded so far
        becomes the baseline, not news (:meth:`ChangeHistory.first_look
        <paperdeck.store.changes.ChangeHistory.first_look>`). True when that was now.

        Raises:
            StoreError: the mark cannot be written.
        """
        return self._history.first_look()

    def mark_all_seen(self) -> int:
        """Every change recorded so far is seen ("What changed" is empty until the next import);
        returns how many papers were changed before.

        Raises:
            StoreError: the mark cannot be written (nothing changed then).
        """
        return self._history.mark_all_seen()

    def seen_mark(self) -> str | None:
        """When the user last saw every change (an ISO 8601 time; ``""``: before any change;
        ``None``: never): what :meth:`mark_all_seen` moves, kept to undo it."""
        return self._history.seen_mark()

    def set_seen_mark(self, mark: str | None) -> None:
        """Put back the mark :meth:`seen_mark` read (undoing :meth:`mark_all_seen`: the papers
        changed since it are changed again).

        Raises:
            StoreError: the mark cannot be written (nothing changed then).
        """
        self._history.set_seen_mark(mark)

    def set_looked(self, paper_id: str) -> UserData:
        """Record that the user opened the paper now (its reader or its reviews): the changes
        recorded before are no longer new to them.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        return self._user.set_looked(self.resolve(paper_id), self._now())

    def _adopt_orphaned_user_data(self) -> None:
        """:func:`~paperdeck.store.import_run.move_user_data_to_current_ids` at open, best effort.

        An import writes the catalogue (with the alias) before it moves the user's data: a crash
        between the two left the star and note under the old id, where nothing shows them. This
        finishes the move. When the user data cannot be written (a read-only store) the records
        stay where they are, untouched, and the store still opens.
        """
        from paperdeck.store.import_run import move_user_data_to_current_ids

        with contextlib.suppress(StoreError), transaction(self.data_dir):  # every record moved, or none
            move_user_data_to_current_ids(self._catalogue, self._user)

    # -- the user's data ---------------------------------------------------------------------

    def user_data(self, paper_id: str) -> UserData:
        """The user's data for a paper (an empty record when there is none)."""
        return self._user.get(paper_id)

    @property
    def all_user_data(self) -> dict[str, UserData]:
        """Every non-empty user record, by paper id (a copy)."""
        return self._user.records

    def marked_among(self, paper_ids: Iterable[str]) -> int:
        """How many of ``paper_ids`` hold the user's star, note or tags (a reading status alone
        is not counted): what an undo of their import takes away and keeps for their return."""
        records = self._user.records
        return sum(1 for pid in paper_ids if (r := records.get(pid)) is not None and (r.starred or r.note or r.tags))

    @property
    def user_notes(self) -> dict[str, str]:
        """Every note the user wrote, by paper id (a copy)."""
        return self._user.notes

    @property
    def user_version(self) -> int:
        """A number that goes up whenever a user record changes (what is derived from them is
        current while it has not changed)."""
        return self._user.version

    def user_counts(self) -> tuple[int, Counter[str]]:
        """Papers starred, and user records by reading status, of the papers in the store: the
        records of a removed paper (kept for when it comes back) are not counted. Cached until the
        user data or the papers change (the same Counter until then)."""
        starred, statuses = self._user.counts()
        generation = self.catalogue_generation
        held = self._present_counts
        if held is not None and held[0] is statuses and held[1] == generation:
            return held[2]
        gone_starred, gone = 0, Counter[str]()
        for paper_id in self._user.paper_ids():
            if self.row(paper_id) is not None:
                continue
            record = self._user.get(paper_id)
            gone_starred += record.starred
            if record.starred or not is_empty_record(record):
                gone[record.status] += 1
        counts = (starred - gone_starred, statuses - gone) if gone_starred or gone else (starred, statuses)
        self._present_counts = (statuses, generation, counts)
        return counts

    def user_data_changed_on_disk(self) -> bool:
        """Whether another process may have changed the user's data since it was last read or
        written here (:meth:`reload_user_data` would read something): the shards stat'ed, none
        read, no record copied.

        Raises:
            StoreError: a shard cannot be stat'ed.
        """
        return self._user.changed_on_disk()

    def reload_user_data(self) -> bool:
        """Re-read the user's data changed on disk by another process; True when anything changed.

        Raises:
            StoreError: a shard is not valid JSON or was written by a newer paperdeck.
        """
        return self._user.reload()

    def set_star(self, paper_id: str, starred: bool) -> UserData:
        """Star or unstar a paper; on disk before this returns.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        return self._user.modify(paper_id, lambda record: record.replaced(starred=starred))

    def toggle_star(self, paper_id: str) -> UserData:
        """Flip a paper's star (as it is on disk now); on disk before this returns.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        return self._user.modify(paper_id, lambda record: record.replaced(starred=not record.starred))

    def set_note(self, paper_id: str, note: str) -> UserData:
        """Save a paper's note; an empty or blank note deletes it. On disk before this returns.

        Raises:
            StoreError: the user data cannot be written (nothing changed then).
        """
        text = note if note.strip() else ""
        return self._user.modify(paper_id, lambda record: record.replaced(note=text))

    def set_status(self, paper_id: str, status: str) -> UserData:
        """Set a paper's reading status (one of ``STATUSES``); on disk before this returns.

        Raises:
            ValueError: an unknown status.
            StoreError: the user data cannot be written.
        """
        if status not in STATUSES:
            raise ValueError(f"unknown reading status {status!r}; one of {', '.join(STATUSES)}")
        return self._user.modify(paper_id, lambda record: record.replaced(status=status))

    def change(
        self,
        paper_ids: Iterable[str],
        change: Callable[[UserData], UserData],
        progress: Callable[[int], None] | None = None,
        *,
        step: StepEdit | None = None,
    ) -> list[tuple[UserData, UserData]]:
        """Apply ``change`` to many papers' records in one batch (a bulk action): one transaction
        over every shard it touches, so the records change all together or none does (a kill
        included: :mod:`paperdeck.store.transaction`). ``progress``, when given, is told the
        number of papers of each shard as it is staged, from the calling thread. ``step``: what
        the change does to the app's kept undo steps (:attr:`undo_steps`: its own step added, or
        the step it undoes taken off), written in the same transaction.

        Returns:
            ``(before, after)`` for each record that changed (for undo).

        Raises:
            StoreError: the user data cannot be written (nothing was changed, unless the reason
                says the change is saved and finished at the next open).
        """
        if step is None:
            return self._user.modify_many(paper_ids, change, progress)
        with transaction(self.data_dir):
            changes = self._user.modify_many(paper_ids, change, progress)
            self.undo_steps.edit(step, changes)
        return changes

    def restore(self, records: Iterable[UserData], *, keep_times: bool = False) -> list[tuple[UserData, UserData]]:
        """Write these exact records whole (a backup's restore; with ``keep_times`` the records keep
        their own created / updated times). Undo and redo do not: they apply only the fields
        their step touched, through :meth:`change`.

        Returns:
            ``(before, after)`` for each record that changed.

        Raises:
            StoreError: the user data cannot be written.
        """
        return self._user.restore(records, keep_times=keep_times)

    @property
    def all_tags(self) -> list[str]:
        """Every tag in use, sorted."""
        return sorted({tag for record in self._user.records.values() for tag in record.tags})

    def _migrate_single_user_file(self) -> None:
        """Schema 1 kept all user data in one ``user.json``: move it into shards, keeping a
        timestamped backup of the old file first."""
        old = self.data_dir / LEGACY_USER_FILE
        if not old.is_file():
            return
        data = AtomicJSONStorage(old).read() or {}
        check_schema(data, old)
        try:
            records = [UserData.from_dict(doc) for doc in (data.get("user") or {}).values()]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = (
                f"a user record is malformed ({malformed(exc)}); restore the file from a backup "
                "or move it aside — paperdeck will not migrate it"
            )
            raise StoreError(old, reason) from None
        stamp = self._now().replace(":", "").replace("-", "").split(".")[0].split("+")[0]
        backup = self.data_dir / f"{LEGACY_USER_FILE}.bak-{stamp}"
        try:
            atomic_write_bytes(backup, old.read_bytes())
        except OSError as exc:
            raise StoreError(old, f"cannot back it up before migrating: {exc.strerror or exc}") from None
        self._user.write_all(record for record in records if not record.is_empty)
        old.unlink()

    def close(self) -> None:
        """Nothing to release: files are open only during a read or a write."""


def _paper_of(document: bytes, paper_id: str) -> Paper | None:
    """The paper in ``document`` (one paper's JSON, from the catalogue) when it parses and is
    the paper ``paper_id``; else ``None``."""
    import orjson

    from paperdeck.model.paper import Paper

    try:
        paper = Paper.from_dict(orjson.loads(document))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return paper if paper.id == paper_id else None


def _ensure_directory(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise StoreError(path, "is a file where the data directory should be; pass --data-dir")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(path, f"cannot create the data directory: {exc.strerror or exc}") from None
    if not os.access(path, os.R_OK | os.X_OK):
        raise StoreError(path, "the data directory cannot be read; check its permissions")
