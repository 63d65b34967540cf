"""``paperdeck fetch``: every page of every source first, then one import, all or nothing.

The pages are kept on disk (:mod:`.pages`) as they come, and imported by
:func:`paperdeck.sources.importer.import_files` once all of them are there, as files are (so the
same readers, merge and change records apply). A failure before that changes nothing in the store
and keeps the pages, so the same command resumes; after the import the pages are removed.

OpenReview, as its own how-to reads a venue: the venue group first (``GET /groups?id=<venue id>``,
read by :func:`paperdeck.fetch.venues.venue_group`), which names the submissions' invitation; then
``GET /notes?invitation=<that invitation>&details=directReplies&sort=id&limit=N`` and
``&after=<last id>`` until a page holds fewer than ``N`` notes or the notes reach the page's
``count``: each submission arrives with its replies, every kind (``details.directReplies``). A
venue the new API (api2) holds no group of, or a group without a ``domain`` (an API v1 venue's), is
asked of the old API host (v1, ICLR ≤ 2023:
:attr:`FetchOptions.openreview_old_url`; pages by ``offset``, invitations ``Blind_Submission`` then
``Submission``), and a venue neither holds is one line: no such venue. A group that names no
invitation, or a host with no groups at all, falls back to the pattern (``<venue id>/-/Submission``)
and says so; a venue whose submissions carry no reply is imported and says it has no public reviews.
Paper Copilot: one file, ``<root>/<conf>/<conf><year>.json`` (the venue's folder).
arXiv: one ``GET <root>/query?search_query=…`` (an Atom feed).

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
    OPENREVIEW_V1_API,
    PAPERCOPILOT_RAW,
    FetchError,
    HttpClient,
    Limits,
    NotFound,
    OpenReviewClient,
    plain_get,
)
from paperdeck.fetch.credentials import Credentials, TokenStore, credentials_from_env
from paperdeck.fetch.pages import PageCache, kept_what
from paperdeck.fetch.venues import ARXIV_RESULTS, FetchSource, VenueGroup, venue_group
from paperdeck.model.errors import SourceError, StoreError
from paperdeck.model.safe_text import one_line
from paperdeck.runtime import collector_paused
from paperdeck.sources.importer import ImportSummary, import_files
from paperdeck.sources.review_notes import RATING_FIELDS
from paperdeck.store.atomic import atomic_write_bytes
from paperdeck.store.store import Store

__all__ = [
    "ARXIV_URL_ENV",
    "OPENREVIEW_OLD_URL_ENV",
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
OPENREVIEW_OLD_URL_ENV = "PAPERDECK_OPENREVIEW_OLD_URL"
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
            a timeout, a ``429``; see :class:`~paperdeck.fetch.client.HttpClient`), and what the
            fetch decided about a venue (the old API host, the pattern, no public reviews).
        openreview_old_url: the old API (v1) host asked for a venue the new one holds no group of;
            ``None``: :data:`OPENREVIEW_OLD_URL_ENV`, else the public old host when
            ``openreview_url`` is the public API, else none (a mirror is not paired with the
            public service); ``""``: never.
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
    openreview_old_url: str | None = None

    def old_api_url(self) -> str:
        """The old API host to try (see :attr:`openreview_old_url`), ``""`` for none."""
        if self.openreview_old_url is not None:
            return self.openreview_old_url
        from_env = os.environ.get(OPENREVIEW_OLD_URL_ENV)
        if from_env is not None:
            return from_env
        return OPENREVIEW_V1_API if self.openreview_url.rstrip("/") == OPENREVIEW_API else ""


@dataclass(frozen=True, slots=True)
class FetchSummary:
    """What a fetch did: the ``sources`` fetched, ``pages`` and ``notes`` (submissions, without their
    replies) imported, ``requests`` sent, ``resumed`` pages taken from an interrupted run, the
    import's own summary (``imported``), and ``notices``: one line each, what the fetch decided
    about a venue (asked of the old host, by the pattern, no public reviews), as told to
    :attr:`FetchOptions.notice`."""

    sources: tuple[str, ...]
    pages: int
    notes: int
    requests: int
    resumed: int
    imported: ImportSummary
    notices: tuple[str, ...] = ()

    def summary(self) -> str:
        """``"fetched iclr2026: 20 pages, 19,630 notes, 22 requests; 19630 new, …"``."""
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
    told: list[str] = []
    requests = 0
    ends_at = time.monotonic() + options.limits.deadline_s
    # the pages parsed make millions of objects and no cycles (as an import)
    with collector_paused(), _alarm(ends_at + 1.0, options.limits.deadline_s):
        for source in sources:
            cache, sent = _collect(root, source, options, report, ends_at, told)
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
    return FetchSummary(tuple(s.name for s in sources), len(paths), notes, requests, resumed, imported, tuple(told))


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
    root: Path, source: FetchSource, options: FetchOptions, report: Callable[[FetchProgress], None], ends_at: float,
    told: list[str],
) -> tuple[PageCache, int]:  # fmt: skip
    """The source's pages, all kept in its cache, by ``ends_at`` (:func:`time.monotonic`
    seconds); returns the cache and the requests sent, and adds to ``told`` what it decided
    about the venue (the old host, the pattern, no public reviews)."""
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
    given: list[Credentials | None] = []

    def credentials() -> Credentials | None:  # asked once: the old host takes the same login
        if not given:
            given.append(credentials_from_env() or (options.prompt() if options.prompt else None))
        return given[0]

    openreview = _openreview_client(root, options.openreview_url, options, ends_at, credentials)
    clients = [openreview]
    try:
        _say_asking(options, source, openreview)
        openreview, group = _venue_group(openreview, source, options, clients, told, root, ends_at, credentials)
        cache, replies = _openreview_pages(openreview, source, group, root, options, report)
        if replies == 0:
            line = "OpenReview shows no public reviews for this venue (yet); its papers are imported without reviews"
            _tell(told, options, f"{one_line(source.name)}: {line}")
    finally:
        for client in clients:
            client.close()
    return cache, sum(client.requests for client in clients)


def _venue_group(
    new: OpenReviewClient, source: FetchSource, options: FetchOptions, clients: list[OpenReviewClient],
    told: list[str], root: Path, ends_at: float, credentials: Callable[[], Credentials | None],
) -> tuple[OpenReviewClient, VenueGroup]:  # fmt: skip
    """The host that holds the venue and what its group says (see the module docstring): the new
    API's group when it has a ``domain``; else the old host's, when there is one and it holds the
    group (its client is added to ``clients``); else the new API's group without names, or none:
    the pattern. What was decided is told (:func:`_tell`).

    Raises:
        FetchError: no such venue (neither host holds its group), or a group request failed.
    """
    venue = one_line(source.venue_id)[:120]
    group = _find_group(new, source.venue_id)
    client = new
    if (group is None or not group.domain) and options.old_api_url():  # not an API v2 venue
        old = _openreview_client(root, options.old_api_url(), options, ends_at, credentials)
        clients.append(old)
        older = _find_group(old, source.venue_id, api=1)
        if older is None and group is None:
            raise FetchError(
                f"no such venue: {venue!r} (neither {new.where('')} nor {old.where('')} holds its group); "
                "is the venue id right (e.g. ICLR.cc/2026/Conference)?"
            )
        if older is not None:
            where = f"{new.where('')}: fetching it from the old API, {old.where('')}"
            _tell(told, options, f"{one_line(source.name)} is not an API v2 venue on {where}")
            group, client = older, old
    if group is None:
        group = VenueGroup(source.venue_id)
        _tell(told, options, f"{client.where('/groups')} holds no group {venue!r}; asking for {_pattern(group)}")
    elif not group.named:
        _tell(told, options, f"the group {venue!r} names no submissions' invitation; asking for {_pattern(group)}")
    if group.rating_name and group.rating_name not in RATING_FIELDS:
        read = ", ".join(RATING_FIELDS)
        _tell(told, options, f"the group {venue!r} calls the reviews' rating {group.rating_name!r}: kept as a score "
                             f"of that name, not as the rating (paperdeck reads {read})")  # fmt: skip
    return client, group


def _openreview_client(
    root: Path, url: str, options: FetchOptions, ends_at: float, credentials: Callable[[], Credentials | None]
) -> OpenReviewClient:
    """A client of the OpenReview API at ``url`` (its own kept token), logged in first when
    credentials are at hand (no anonymous request, refused since 2026, is sent then)."""
    tokens = TokenStore(root, url.rstrip("/"), options.use_keyring)
    client = OpenReviewClient(url, tokens, credentials, options.limits, options.sleep, notice=options.notice,
                              ends_at=ends_at)  # fmt: skip
    try:
        if not client.logged_in and (options.prompt is not None or credentials_from_env() is not None):
            client.login()
    except BaseException:
        client.close()
        raise
    return client


def _find_group(client: OpenReviewClient, venue_id: str, api: int = 2) -> VenueGroup | None:
    """The venue's group as ``client``'s host holds it (``GET /groups?id=…``), ``None`` when the
    host answers ``404``/``400`` or no group of that id.

    Raises:
        FetchError: the answer is not a list of groups, or the request failed otherwise.
    """
    try:
        answer = client.get("/groups", {"id": venue_id})
    except NotFound:
        return None
    try:
        return venue_group(answer.document, venue_id, api)
    except ValueError as error:
        raise FetchError(f"{client.where('/groups')}: {error}") from None


def _pattern(group: VenueGroup) -> str:
    """``"V/-/Blind_Submission, then V/-/Submission (the pattern)"``: what a nameless group is asked by."""
    return f"{one_line(', then '.join(group.invitations))[:400]} (the pattern)"


def _tell(told: list[str], options: FetchOptions, line: str) -> None:
    """One line of what the fetch decided: kept in ``told`` (the summary's notices) and given to
    :attr:`FetchOptions.notice`, when there is one."""
    told.append(line)
    if options.notice is not None:
        options.notice(line)


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
    client: OpenReviewClient, source: FetchSource, group: VenueGroup, root: Path, options: FetchOptions,
    report: Callable[[FetchProgress], None],
) -> tuple[PageCache, int | None]:  # fmt: skip
    """Every page of the venue's submissions, asked under each of ``group``'s invitations in turn
    until one has submissions (the one pages are kept for first: an interrupted run resumes);
    returns the cache and the replies the pages fetched in this run carry (``None`` when pages
    were resumed: not counted).

    API v2 pages go by ``after=<last id>`` (``sort=id``), API v1 pages by ``offset``.

    Raises:
        FetchError: no invitation has submissions (no such venue), the server repeats a page, or
            a page is not a page of notes.
    """
    total: int | None = None
    seen: set[str] = set()
    replies: int | None = 0
    page_size = options.page_size
    cache: PageCache | None = None
    kept = kept_what(root / "pages", source.name)  # pages kept for a later invitation: asked first, resumed
    invitations = sorted(group.invitations, key=lambda invitation: invitation != kept)
    for invitation in invitations:
        identity = {"base_url": client.base_url, "what": invitation, "limit": page_size}
        cache = PageCache(root / "pages", source.name, source.file_name, identity)
        client.pages_kept = len(cache.pages)
        if cache.pages:
            replies = None
        report(FetchProgress(source.name, len(cache.pages), cache.notes, total, client.requests))
        while not cache.complete:
            params: dict[str, Any] = {"invitation": invitation, "details": "directReplies", "limit": page_size}
            if group.api == 1:
                params["offset"] = cache.notes
            else:
                params["sort"] = "id"
                if cache.cursor:
                    params["after"] = cache.cursor
            answer = client.get("/notes", params)
            ids, count, held = _page_ids(answer.document, client.where("/notes"))
            if not held and not cache.pages:
                break  # nothing under this invitation: the next one, else no such venue
            if ids and all(note_id in seen for note_id in ids):
                where = client.where("/notes")
                raise FetchError(f"{where}: the server sent page {len(cache.pages)} again (it ignored after=)")
            seen.update(ids)
            if replies is not None:
                replies += _replies_held(answer.document)
            total = count if count is not None else total
            last = held < page_size or not ids or (total is not None and cache.notes + held >= total)
            cache.add(answer.body, last=last, cursor=ids[-1] if ids else cache.cursor, notes=held)
            client.pages_kept = len(cache.pages)
            report(FetchProgress(source.name, len(cache.pages), cache.notes, total, client.requests))
        if cache.pages:
            return cache, replies
        cache.discard()
    asked, venue = one_line(" or ".join(group.invitations))[:300], one_line(source.venue_id)[:120]
    raise FetchError(
        f"{client.where('/notes')}: no such venue: OpenReview has no submissions for {venue!r} (asked for "
        f"{asked}); is the venue id right (e.g. ICLR.cc/2026/Conference)?"
    )


def _replies_held(page: Any) -> int:
    """The replies a page's submissions carry (``details.directReplies`` or ``details.replies``)."""
    held = 0
    for note in page.get("notes", ()) if isinstance(page, dict) else ():
        details = note.get("details") if isinstance(note, dict) else None
        if isinstance(details, dict):
            carried = details.get("directReplies", details.get("replies"))
            held += len(carried) if isinstance(carried, list) else 0
    return held


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
