"""The conference programmes: each paper's events (sessions, rooms, times), catalogue data.

Layout, inside the data directory::

    schedule.json   TinyDB: table "events" (one document per event: ScheduleEvent.to_dict), "meta"

Events are the same for every user: written only by imports (a programme file, a fetched programme,
a paper list naming sessions), inside the import's transaction (:mod:`paperdeck.store.transaction`),
so an import is all or nothing. A programme's rows are joined to the catalogue's papers here
(:func:`join_events`): by the OpenReview forum id, else by the title within the venue and year; a
row no paper matches is counted and listed, never made a paper. An import replaces the events of
the same venue, year and origin (a programme, or a paper list's sessions): importing a programme
again updates it instead of adding to it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from paperdeck.model.counts import counted
from paperdeck.model.errors import StoreError
from paperdeck.model.ids import normalise_title
from paperdeck.model.safe_text import one_line
from paperdeck.model.schedule import ScheduleEvent
from paperdeck.store.atomic import atomic_write_bytes, check_regular_file, malformed, staged_path
from paperdeck.store.file_stamp import FileStamp, file_stamp
from paperdeck.store.schema import check_schema, meta

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper

__all__ = ["SCHEDULE_FILE", "ScheduleImport", "ScheduleStore", "join_events"]

#: The programmes' file, in the data directory.
SCHEDULE_FILE = "schedule.json"


@dataclass(frozen=True, slots=True)
class ScheduleImport:
    """What an import of events did.

    Attributes:
        events: events stored (joined to a paper).
        papers: distinct papers that have them.
        unmatched: the programme's rows no paper matched (not stored), in file order.
        removed: events of the same programmes dropped because the new import no longer has them.
    """

    events: int = 0
    papers: int = 0
    unmatched: tuple[ScheduleEvent, ...] = ()
    removed: int = 0

    def summary(self) -> str:
        """``"schedule: 21 events of 20 papers, 1 row matched no paper (event 4021)"``: the first
        three rows no paper matched named by their event ids (``"and 19 more"``)."""
        text = f"schedule: {counted(self.events, 'event')} of {counted(self.papers, 'paper')}"
        if self.unmatched:
            named = ", ".join(one_line(event.event_id) for event in self.unmatched[:3])
            more = f" and {len(self.unmatched) - 3:,} more" if len(self.unmatched) > 3 else ""
            noun = "event" if len(self.unmatched) == 1 else "events"
            text += f", {counted(len(self.unmatched), 'row')} matched no paper ({noun} {named}{more})"
        return text


def join_events(
    events: Iterable[ScheduleEvent], papers: Sequence[Paper]
) -> tuple[list[ScheduleEvent], list[ScheduleEvent]]:
    """Join programme events to ``papers``: an event that names its paper already keeps it; else the
    paper with its forum id; else the one paper whose normalised title
    (:func:`~paperdeck.model.ids.normalise_title`) is the event's, within its venue and year (when
    the event has no venue, the title must be unique in the whole catalogue).

    Returns:
        ``(joined, unmatched)``: the events with :attr:`ScheduleEvent.paper_id` set, and those no
        paper matched, both in the given order.
    """
    by_forum = {p.openreview_id: p.id for p in papers if p.openreview_id}
    by_title: dict[tuple[str, int | None, str], list[str]] = {}
    by_any_title: dict[str, list[str]] = {}
    for p in papers:
        title = normalise_title(p.title)
        by_title.setdefault((p.venue.casefold(), p.year, title), []).append(p.id)
        by_any_title.setdefault(title, []).append(p.id)
    joined, unmatched = [], []
    for event in events:
        paper_id = event.paper_id or by_forum.get(event.forum_id, "")
        if not paper_id and event.title:
            title = normalise_title(event.title)
            found = by_title.get((event.venue.casefold(), event.year, title), []) if event.venue else []
            if not event.venue:
                found = by_any_title.get(title, [])
            paper_id = found[0] if len(found) == 1 else ""
        if paper_id:
            joined.append(replace(event, paper_id=paper_id))
        else:
            unmatched.append(event)
    return joined, unmatched


def _when(event: ScheduleEvent) -> tuple[bool, float, str]:
    """An event's place in time order: timed events first, by start; then by id."""
    start = event.starts
    return start is None, start.timestamp() if start is not None else 0.0, event.event_id


def _origin(event: ScheduleEvent) -> str:
    """Where an event came from: a paper list's session (``"session"``) or a programme."""
    return "session" if event.kind == "session" else "programme"


class ScheduleStore:
    """The events of every imported programme, read whole at first use.

    Args:
        path: the schedule file (:data:`SCHEDULE_FILE` in the data directory).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._events: tuple[ScheduleEvent, ...] | None = None
        self._stamp: FileStamp | None = None
        #: The paper ids the events name (:meth:`paper_ids`), with the file's stamp they were read at.
        self._named: tuple[FileStamp | None, frozenset[str]] | None = None
        #: Counts the reads of the file: another value, other events (a cache of them checks it).
        self.generation = 0

    def _file_stamp(self) -> FileStamp | None:
        return file_stamp(staged_path(self.path))

    def events(self) -> tuple[ScheduleEvent, ...]:
        """Every stored event, in stored order (read again when the file changed).

        Raises:
            StoreError: the file is not valid JSON, not paperdeck's, or holds a malformed event.
        """
        stamp = self._file_stamp()
        if self._events is not None and stamp == self._stamp:
            return self._events
        self._events, self._stamp = self._read(), stamp
        self.generation += 1
        return self._events

    def paper_ids(self) -> frozenset[str]:
        """The paper ids the stored events name (as stored: an old id not resolved), read from
        the file without making its events (kept until the file changes): a paper none names has
        no event, and :meth:`events` need not be read for it.

        Raises:
            StoreError: the file is not valid JSON or not paperdeck's (an event malformed
                otherwise is found by :meth:`events`).
        """
        stamp = self._file_stamp()
        named = self._named
        if named is not None and named[0] == stamp:
            return named[1]
        docs = self._table().values()
        ids = frozenset(named for doc in docs if isinstance(doc, dict) and isinstance(named := doc.get("paper"), str))
        self._named = (stamp, ids)
        return ids

    def _read(self) -> tuple[ScheduleEvent, ...]:
        table = self._table()
        try:
            return tuple(ScheduleEvent.from_dict(doc) for doc in table.values())
        except ValueError as exc:
            raise StoreError(self.path, f"{exc}; move it aside and import the programme again") from None

    def _table(self) -> dict[str, Any]:
        """The file's events table, by event number (``{}``: no file).

        Raises:
            StoreError: the file is not valid JSON or not paperdeck's.
        """
        path = staged_path(self.path)
        try:
            check_regular_file(path)
            raw = path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise StoreError(self.path, f"cannot read: {exc.strerror or exc}") from None
        try:
            data = orjson.loads(raw) if raw.strip() else {}
        except orjson.JSONDecodeError as exc:
            raise StoreError(self.path, f"{malformed(exc)}; move it aside and import the programme again") from None
        if not isinstance(data, dict):
            raise StoreError(self.path, "not a paperdeck schedule; move it aside")
        check_schema(data, self.path)
        table = data.get("events", {})
        if not isinstance(table, dict):
            raise StoreError(self.path, "not a paperdeck schedule (events is not a table); move it aside")
        return table

    def by_paper(self, resolve: Mapping[str, str] | None = None) -> dict[str, tuple[ScheduleEvent, ...]]:
        """The events by paper id (an old id through ``resolve``, old id → current), each paper's
        in time order (events without a time last)."""
        out: dict[str, list[ScheduleEvent]] = {}
        for event in self.events():
            paper_id = resolve.get(event.paper_id, event.paper_id) if resolve else event.paper_id
            out.setdefault(paper_id, []).append(
                event if paper_id == event.paper_id else replace(event, paper_id=paper_id)
            )
        return {pid: tuple(sorted(evs, key=_when)) for pid, evs in out.items()}

    def replace_events(self, events: Sequence[ScheduleEvent]) -> int:
        """Store ``events`` (joined to papers), replacing the stored events of the same venue, year
        and origin (a programme's, or a paper list's sessions); write the file once (staged in the
        active transaction). Returns how many stored events the new ones replaced that they no
        longer hold.

        Raises:
            StoreError: the file cannot be read or written.
        """
        if not events:
            return 0
        scopes = {(e.venue.casefold(), e.year, _origin(e)) for e in events}
        new_keys = {e.key for e in events}
        kept, removed = [], 0
        for event in self.events():
            if (event.venue.casefold(), event.year, _origin(event)) in scopes:
                removed += event.key not in new_keys
                continue
            kept.append(event)
        merged: dict[Any, ScheduleEvent] = {e.key: e for e in (*kept, *events)}
        self._write(merged.values())
        return removed

    def drop_papers(self, paper_ids: Iterable[str], resolve: Mapping[str, str] | None = None) -> int:
        """Drop the events of ``paper_ids`` (papers taken out of the catalogue; an event's old id
        through ``resolve``, old id → current); write the file once (staged in the active
        transaction) when any is dropped. Returns how many were dropped.

        Raises:
            StoreError: the file cannot be read or written.
        """
        gone = set(paper_ids)
        events = self.events()
        kept = [e for e in events if (resolve.get(e.paper_id, e.paper_id) if resolve else e.paper_id) not in gone]
        if len(kept) == len(events):
            return 0
        self._write(kept)
        return len(events) - len(kept)

    def put_back(self, kept: Path | None) -> None:
        """Set the file back to ``kept`` (an undo point's copy, :mod:`paperdeck.store.undo`), or
        take it away when ``None`` (there was none); staged in the active transaction.

        Raises:
            StoreError: ``kept`` cannot be read, or the file cannot be written or removed.
        """
        from paperdeck.store.atomic import ACTIVE, write_failure

        self._events = None
        if kept is not None:
            try:
                raw = kept.read_bytes()
            except OSError as exc:
                raise StoreError(kept, f"cannot read: {exc.strerror or exc}") from None
            atomic_write_bytes(self.path, raw)
            return
        txn = ACTIVE.get()
        if txn is not None and txn.covers(Path(os.path.realpath(self.path.parent))):
            txn.stage_removal(self.path)
            return
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(self.path, write_failure(exc)) from None

    def _write(self, events: Iterable[ScheduleEvent]) -> None:
        table = {str(n): e.to_dict() for n, e in enumerate(events, start=1)}
        atomic_write_bytes(self.path, orjson.dumps({"meta": {"1": meta()}, "events": table}))
        self._events = None
