"""``paperdeck fetch``: every page of every source first, then one import, all or nothing.

The pages are kept on disk (:mod:`.pages`) as they come, and imported by
:func:`paperdeck.sources.importer.import_files` once all of them are there, as files are (so the
same readers, merge and change records apply). A failure before that changes nothing in the store
and keeps the pages, so the same command resumes; after the import the pages are removed.

OpenReview: ``GET /notes?invitation=<venue id>/-/Submission&details=directReplies&sort=id&limit=N``
then ``&after=<last id>`` until a page holds fewer than ``N`` notes or the notes reach the
page's ``count``: each submission arrives with
its reviews, comments and decision (``details.directReplies``). Paper Copilot: one file,
``<root>/<conf>/<conf><year>.json``. arXiv: one ``GET <root>/query?search_query=…`` (an Atom feed).

The whole fetch (every source, before the import) ends by :attr:`Limits.deadline_s
<paperdeck.fetch.client.Limits.deadline_s>`: the clients never start a request or wait past it, and
in the main thread an alarm stops a request still under way a second later (a server that sends its
headers a byte at a time), with the same one-line :class:`FetchError`.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from paperdeck.fetch.client import (
    ARXIV_API,
    OPENREVIEW_API,
    PAPERCOPILOT_RAW,
    FetchError,
    HttpClient,
    Limits,
    OpenReviewClient,
    plain_get,
)
from paperdeck.fetch.credentials import Credentials, TokenStore, credentials_from_env
from paperdeck.fetch.pages import PageCache
from paperdeck.fetch.venues import ARXIV_RESULTS, FetchSource
from paperdeck.model.errors import SourceError, StoreError
from paperdeck.model.safe_text import one_line
from paperdeck.runtime import collector_paused
from paperdeck.sources.importer import ImportSummary, import_files
from paperdeck.store.atomic import atomic_write_bytes
from paperdeck.store.store import Store

__all__ = [
    "ARXIV_URL_ENV",
    "OPENREVIEW_URL_ENV",
    "PAGE_SIZE",
    "PAPERCOPILOT_URL_ENV",
    "SCHEDULE_URL_ENV",
    "FetchOptions",
    "FetchProgress",
    "FetchSummary",
    "fetch",
    "last_sources",
]

OPENREVIEW_URL_ENV = "PAPERDECK_OPENREVIEW_URL"
ARXIV_URL_ENV = "PAPERDECK_ARXIV_URL"
PAPERCOPILOT_URL_ENV = "PAPERDECK_PAPERCOPILOT_URL"
#: The site a programme is fetched from, for every ``CONFYEAR:schedule`` source (default: the
#: conference's own, :data:`~paperdeck.fetch.venues.SITES`).
SCHEDULE_URL_ENV = "PAPERDECK_SCHEDULE_URL"
#: Notes per page (the API's most).
PAGE_SIZE = 1000
_LAST_SOURCES = "sources.json"


@dataclass(frozen=True, slots=True)
class FetchProgress:
    """Where a fetch is: ``source`` (its name), ``pages`` and ``notes`` kept so far, ``total`` notes
    the server announced (``None`` until known), ``requests`` sent, ``stage`` (``"fetching"``,
    ``"importing"``), and while importing, ``read``: the pages the import has read so far (of
    ``pages``)."""

    source: str
    pages: int
    notes: int
    total: int | None
    requests: int
    stage: str = "fetching"
    read: int = 0


@dataclass(frozen=True, slots=True)
class FetchOptions:
    """How to fetch.

    Attributes:
        openreview_url, papercopilot_url, arxiv_url: the base URLs (defaults from
            :data:`OPENREVIEW_URL_ENV`, :data:`PAPERCOPILOT_URL_ENV` and :data:`ARXIV_URL_ENV`, else
            the public services).
        schedule_url: the site programmes are fetched from (default from :data:`SCHEDULE_URL_ENV`,
            else ``""``: each conference's own site).
        limits: the client's budget, retries and timeouts.
        page_size: notes per page.
        prompt: asks for credentials when the environment has none (``None``: never ask).
        use_keyring: keep the token in the system keyring when there is one.
        sleep: how to wait between retries (tests pass a fast one).
        notice: told, one line, what a client waits for before each retry (a connection failed,
            a timeout, a ``429``; see :class:`~paperdeck.fetch.client.HttpClient`).
    """

    openreview_url: str = field(default_factory=lambda: os.environ.get(OPENREVIEW_URL_ENV) or OPENREVIEW_API)
    papercopilot_url: str = field(default_factory=lambda: os.environ.get(PAPERCOPILOT_URL_ENV) or PAPERCOPILOT_RAW)
    arxiv_url: str = field(default_factory=lambda: os.environ.get(ARXIV_URL_ENV) or ARXIV_API)
    schedule_url: str = field(default_factory=lambda: os.environ.get(SCHEDULE_URL_ENV) or "")
    limits: Limits = field(default_factory=Limits)
    page_size: int = PAGE_SIZE
    prompt: Callable[[], Credentials | None] | None = None
    use_keyring: bool = True
    sleep: Callable[[float], None] | None = None
    notice: Callable[[str], None] | None = None


@dataclass(frozen=True, slots=True)
class FetchSummary:
    """What a fetch did: the ``sources`` fetched, ``pages`` and ``notes`` (submissions, without their
    replies) imported, ``requests`` sent, ``resumed`` pages taken from an interrupted run, and the
    import's own summary (``imported``)."""

    sources: tuple[str, ...]
    pages: int
    notes: int
    requests: int
    resumed: int
    imported: ImportSummary

    def summary(self) -> str:
        """``"fetched iclr2026: 20 pages, 19,630 notes, 21 requests; 19630 new, …"``."""
        resumed = f" ({self.resumed} resumed)" if self.resumed else ""
        return (
            f"fetched {', '.join(self.sources)}: {self.pages} page{'' if self.pages == 1 else 's'}{resumed}, "
            f"{self.notes:,} notes, {self.requests} request{'' if self.requests == 1 else 's'}; "
            f"{self.imported.summary()}"
        )


def fetch(
    store: Store,
    sources: Sequence[FetchSource],
    options: FetchOptions | None = None,
    progress: Callable[[FetchProgress], None] | None = None,
) -> FetchSummary:
    """Fetch every page of ``sources``, then import them all into ``store`` in one import.

    Raises:
        FetchError: a source cannot be fetched (one line; the store is unchanged, the pages kept).
        SourceError: a fetched page cannot be read as its format (the store is unchanged, the
            pages are dropped: the next run fetches them again).
        StoreError: the pages or the store cannot be written.
    """
    options = options or FetchOptions()
    root = store.data_dir / "fetch"
    report = progress or (lambda _: None)
    caches: list[PageCache] = []
    requests = 0
    ends_at = time.monotonic() + options.limits.deadline_s
    # the pages parsed make millions of objects and no cycles (as an import)
    with collector_paused(), _alarm(ends_at + 1.0, options.limits.deadline_s):
        for source in sources:
            cache, sent = _collect(root, source, options, report, ends_at)
            caches.append(cache)
            requests += sent
    paths = [path for cache in caches for path in cache.pages]
    kinds = {source.kind for source in sources}
    notes = sum(cache.notes for cache in caches)
    names = ", ".join(s.name for s in sources)
    report(FetchProgress(names, len(paths), notes, notes, requests, "importing"))

    def reading(index: int, _total: int, _path: Path) -> None:
        report(FetchProgress(names, len(paths), notes, notes, requests, "importing", read=index))

    try:
        imported = import_files(store, paths, kinds.pop() if len(kinds) == 1 else None, reading)
    except SourceError:
        for cache in caches:  # a page the readers refuse would be refused again: fetch afresh next time
            cache.discard()
        raise
    report(FetchProgress(names, len(paths), notes, notes, requests, "importing", read=len(paths)))
    resumed = sum(cache.resumed for cache in caches)
    for cache in caches:
        cache.discard()
    _remember(root, [source.name for source in sources])
    return FetchSummary(tuple(s.name for s in sources), len(paths), notes, requests, resumed, imported)


def last_sources(data_dir: Path) -> list[str]:
    """The sources of the last fetch that landed (what the app's refresh fetches again), ``[]`` if none."""
    try:
        names = json.loads((data_dir / "fetch" / _LAST_SOURCES).read_text("utf-8"))
    except (OSError, ValueError):
        return []
    return [name for name in names if isinstance(name, str)] if isinstance(names, list) else []


class _Late(Exception):
    """The alarm of :func:`_alarm` rang: the fetch is past its deadline."""


@contextlib.contextmanager
def _alarm(at: float, deadline_s: float) -> Iterator[None]:
    """In the main thread, stop whatever the fetch is doing at ``at`` (:func:`time.monotonic`
    seconds) with a :class:`FetchError`; elsewhere (the clients' own checks bound it) nothing."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def ring(_signum: int, _frame: object) -> None:
        raise _Late

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(0.001, at - time.monotonic()))
    try:
        yield
    except _Late:
        raise FetchError(
            f"the fetch ran past its deadline of {deadline_s:g} s; the pages fetched so far are kept: "
            "run the same command later to resume"
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _remember(root: Path, names: list[str]) -> None:
    """Keep the names fetched, for the next bare ``fetch``; best effort: the import is made by
    now, and an error saying "nothing was changed" would be false."""
    with contextlib.suppress(OSError, StoreError):
        root.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(root / _LAST_SOURCES, json.dumps(names).encode())


def _collect(
    root: Path, source: FetchSource, options: FetchOptions, report: Callable[[FetchProgress], None], ends_at: float
) -> tuple[PageCache, int]:
    """The source's pages, all kept in its cache, by ``ends_at`` (:func:`time.monotonic`
    seconds); returns the cache and the requests sent."""
    sleep = options.sleep
    if source.kind == "arxiv":  # arXiv asks for 3 s between requests: retries wait at least that
        limits = replace(options.limits, backoff_s=max(3.0, options.limits.backoff_s))
        client = HttpClient(options.arxiv_url, limits, sleep, notice=options.notice, ends_at=ends_at)
        return _one_page(root, source, options, report, client, ARXIV_RESULTS, _arxiv_page)
    if source.kind == "schedule":
        site = options.schedule_url or source.site
        client = HttpClient(site, options.limits, sleep, notice=options.notice, ends_at=ends_at)
        return _one_page(root, source, options, report, client, 0, _schedule_page)
    if source.kind == "papercopilot":
        client = HttpClient(options.papercopilot_url, options.limits, sleep, notice=options.notice, ends_at=ends_at)
        return _one_page(root, source, options, report, client, 0, _copilot_page)
    tokens = TokenStore(root, options.openreview_url.rstrip("/"), options.use_keyring)

    def credentials() -> Credentials | None:
        return credentials_from_env() or (options.prompt() if options.prompt else None)

    openreview = OpenReviewClient(
        options.openreview_url, tokens, credentials, options.limits, sleep, notice=options.notice, ends_at=ends_at
    )
    identity = {"base_url": openreview.base_url, "what": source.invitation, "limit": options.page_size}
    cache = PageCache(root / "pages", source.name, source.file_name, identity)
    try:
        _say_asking(options, source, openreview)
        if not openreview.logged_in and (options.prompt is not None or credentials_from_env() is not None):
            openreview.login()  # credentials at hand: no anonymous request (refused since 2026) first
        _openreview_pages(openreview, source, cache, options.page_size, report)
    finally:
        openreview.close()
    return cache, openreview.requests


def _say_asking(options: FetchOptions, source: FetchSource, client: HttpClient) -> None:
    """Tell :attr:`FetchOptions.notice` which server the source is asked of, before the first request."""
    if options.notice is not None:
        options.notice(f"fetching {one_line(source.name)} from {client.where('')}")


def _one_page(
    root: Path, source: FetchSource, options: FetchOptions, report: Callable[[FetchProgress], None],
    client: HttpClient, limit: int, get_page: Callable[[HttpClient, FetchSource, PageCache], None],
) -> tuple[PageCache, int]:  # fmt: skip
    """A source that is one request (arXiv, Paper Copilot): its page got with ``get_page`` into
    its cache unless kept already; returns the cache and the requests sent. Closes ``client``."""
    identity = {"base_url": client.base_url, "what": source.path, "limit": limit}
    cache = PageCache(root / "pages", source.name, source.file_name, identity)
    try:
        if not cache.complete:
            _say_asking(options, source, client)
            get_page(client, source, cache)
        report(FetchProgress(source.name, len(cache.pages), cache.notes, cache.notes, client.requests))
    finally:
        client.close()
    return cache, client.requests


def _openreview_pages(
    client: OpenReviewClient, source: FetchSource, cache: PageCache, page_size: int,
    report: Callable[[FetchProgress], None],
) -> None:  # fmt: skip
    total: int | None = None
    seen: set[str] = set()
    report(FetchProgress(source.name, len(cache.pages), cache.notes, total, client.requests))
    while not cache.complete:
        params: dict[str, Any] = {"invitation": source.invitation, "details": "directReplies", "sort": "id",
                                  "limit": page_size}  # fmt: skip
        if cache.cursor:
            params["after"] = cache.cursor
        answer = client.get("/notes", params)
        ids, count, held = _page_ids(answer.document, client.where("/notes"))
        if not held and not cache.pages:
            raise FetchError(
                f"{client.where('/notes')}: OpenReview has no submissions for {source.venue_id!r}; is the venue "
                "id right (e.g. ICLR.cc/2026/Conference)?"
            )
        if ids and all(note_id in seen for note_id in ids):
            where = client.where("/notes")
            raise FetchError(f"{where}: the server sent page {len(cache.pages)} again (it ignored after=)")
        seen.update(ids)
        total = count if count is not None else total
        last = held < page_size or not ids or (total is not None and cache.notes + held >= total)
        cache.add(answer.body, last=last, cursor=ids[-1] if ids else cache.cursor, notes=held)
        report(FetchProgress(source.name, len(cache.pages), cache.notes, total, client.requests))


def _page_ids(page: Any, where: str) -> tuple[list[str], int | None, int]:
    """The note ids of an API page ``{"notes": [...], "count": N}`` (parsed), its count, and how
    many notes it holds (a note without a text id is left to the import, which skips it counted).

    Raises:
        FetchError: the page is not of that shape, or no note of it has an id.
    """
    notes = page.get("notes") if isinstance(page, dict) else None
    if not isinstance(notes, list):
        raise FetchError(f'{where}: the answer is not a page of notes ({{"notes": [...]}} with an id per note)')
    ids = [note["id"] for note in notes if isinstance(note, dict) and isinstance(note.get("id"), str)]
    if notes and not ids:
        raise FetchError(f"{where}: the answer is not a page of notes (no note of it has an id)")
    count = page.get("count")
    return ids, count if isinstance(count, int) and not isinstance(count, bool) else None, len(notes)


def _arxiv_page(client: HttpClient, source: FetchSource, cache: PageCache) -> None:
    params = {"search_query": source.path, "start": 0, "max_results": ARXIV_RESULTS,
              "sortBy": "submittedDate", "sortOrder": "descending"}  # fmt: skip
    answer = plain_get(client, "/query", params, expect_json=False)
    head = answer.body[:2000].lstrip()
    if not (head.startswith(b"<?xml") or head.startswith(b"<feed")) or b"<feed" not in head:
        raise FetchError(f"{client.where('/query')}: the answer is not an arXiv Atom feed")
    cache.add(answer.body, last=True, notes=answer.body.count(b"<entry>") + answer.body.count(b"<entry "))


def _schedule_page(client: HttpClient, source: FetchSource, cache: PageCache) -> None:
    """The programme file: a page object ``{"count": N, "results": [...]}`` (its rows are read,
    skipped or refused by the import, :mod:`paperdeck.sources.miniconf`).

    Raises:
        FetchError: the answer is not such a page (one line naming the URL).
    """
    answer = plain_get(client, source.path)
    page = answer.document
    rows = page.get("results") if isinstance(page, dict) else None
    if not isinstance(rows, list):
        raise FetchError(
            f'{client.where(source.path)}: the answer is not a programme ({{"count": N, "results": [...]}}); '
            "is the site right?"
        )
    cache.add(answer.body, last=True, notes=len(rows))


def _copilot_page(client: HttpClient, source: FetchSource, cache: PageCache) -> None:
    path = "/" + source.path
    answer = plain_get(client, path)
    if answer.body.lstrip().startswith(b"version https://git-lfs"):
        raise FetchError(
            f"{client.where(path)}: Paper Copilot sent a Git LFS pointer, not the list (the file is kept in Git "
            "LFS); download it from the repository's page and `paperdeck import` it"
        )
    records = answer.document
    if not isinstance(records, list):
        raise FetchError(f"{client.where(path)}: the answer is not a Paper Copilot list (a JSON array)")
    cache.add(answer.body, last=True, notes=len(records))
