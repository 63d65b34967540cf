"""A local HTTP server on 127.0.0.1 that answers like OpenReview API v2 and Paper Copilot's raw files.

How the pages are built from the real files — the cuts in ``tests/data/`` (:func:`iclr2026_notes`),
or the whole dump and every review in ``$PAPERDECK_SHARED`` (:func:`iclr2026_encoded`, tests marked ``data``):

- submissions: the ReviewTracker dump (``iclr2026_submissions_reviewtracker.part*.jsonl``)
  holds flattened notes ``{"id", "number", "cdate", "mdate", "content": {plain values}, "withdrawn"}``.
  Each is re-wrapped into the v2 shape: every ``content`` field becomes ``{"value": …}``, a
  ``venueid`` is added (``ICLR.cc/2026/Conference/Submission``, or ``…/Withdrawn_Submission`` for
  ``withdrawn: true``, which is dropped), and the envelope gets ``forum`` (= ``id``), ``invitations``
  (``ICLR.cc/2026/Conference/-/Submission``), ``domain``, ``tcdate``/``tmdate``, ``license``, ``version: 2``;
- replies: the review parts (``iclr2026_reviews_reviewtracker.part*.jsonl.gz``) are
  raw v2 reply notes already; each paper's replies go, unchanged, into its submission's
  ``details.directReplies`` (what ``details=directReplies`` returns). A few notes appear there more
  than once (the tracker kept several versions): the API holds one note per id, so the last
  version of each id is served.

The API: ``POST /login`` ``{"id", "password"}`` → ``{"token"}`` (a JWT-shaped token with an ``exp``
claim); ``GET /groups?id=VENUE`` → ``{"groups": [group]}`` from :attr:`ApiServer.groups` (ICLR 2026's
by default, its content API v2-wrapped as OpenReview's is), else ``404`` ``NotFoundError``;
``GET /notes?invitation=…&details=directReplies&sort=id&limit=N[&after=ID|&offset=K]`` →
``{"notes": [...], "count": N}``, the notes sorted by id (another venue added with
:meth:`ApiServer.add_venue`, under the invitation it names); anonymous ``/notes`` calls get ``403``
``ChallengeRequiredError`` while :attr:`ApiServer.require_login`. ``GET /pc/<conf>/<file>`` serves
Paper Copilot files from :attr:`ApiServer.copilot`, any path of :attr:`ApiServer.raw` its bytes.

Faults (:meth:`ApiServer.fail`): ``"500"``, ``"502"``, ``"429"`` (``Retry-After`` in seconds),
``"429-date"`` (an HTTP date), ``"429-junk"`` (neither), ``"429-long"`` (5000 s), ``"429-reset"``
(``resetTime`` in the body), ``"timeout"`` (answers after :attr:`ApiServer.slow_s`), ``"reset"`` (half
the body, then a TCP reset), ``"truncated"`` (a complete answer holding cut JSON), ``"html"`` (a
non-JSON page), ``"portal"`` (a ``200`` ``text/html`` page, as a captive portal answers),
``"expire"`` (every token expires, then ``401``).
"""

from __future__ import annotations

import base64
import bisect
import gzip
import json
import random
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import islice
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import orjson

from tests.helpers import SHARED_DATA, SHARED_REVIEWS, review_parts, submission_parts


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler of the test servers: HTTP/1.1 (kept-alive connections, as real servers
    answer) and silent (no request lines on standard error)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass


#: The cuts (the first 125, 35 and 35 submissions of the three parts, with their replies).
REVIEW_PARTS = review_parts()
SUBMISSION_PARTS = submission_parts()
VENUE = "ICLR.cc/2026/Conference"
USER, PASSWORD = "reader@example.org", "correct horse"


def v2_submission(flat: dict[str, Any], replies: list[dict[str, Any]]) -> dict[str, Any]:
    """A ReviewTracker record re-wrapped as an API v2 submission note carrying its ``replies``."""
    content = {key: {"value": value} for key, value in flat["content"].items()}
    status = "Withdrawn_Submission" if flat.get("withdrawn") else "Submission"
    content["venueid"] = {"value": f"{VENUE}/{status}"}
    return {
        "id": flat["id"], "forum": flat["id"], "number": flat["number"],
        "cdate": flat["cdate"], "mdate": flat["mdate"], "tcdate": flat["cdate"], "tmdate": flat["mdate"],
        "invitations": [f"{VENUE}/-/Submission"], "domain": VENUE, "license": "CC BY 4.0", "version": 2,
        "content": content, "details": {"directReplies": replies},
    }  # fmt: skip


def _replies_by_forum(papers: int | None) -> dict[str, list[dict[str, Any]]]:
    """The replies of the first ``papers`` papers that have replies (all when ``None``), by forum."""
    found: dict[str, list[dict[str, Any]]] = {}
    for part in REVIEW_PARTS:
        with gzip.open(part, "rb") as handle:
            for line in handle:
                note = orjson.loads(line)
                forum = note["forum"]
                if forum not in found and papers is not None and len(found) >= papers:
                    return {forum: _last_versions(notes) for forum, notes in found.items()}
                found.setdefault(forum, []).append(note)
    return {forum: _last_versions(notes) for forum, notes in found.items()}


def _last_versions(notes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One note per id, the last one given, in the order of their first appearance."""
    last = {note["id"]: note for note in notes}
    return list(last.values())


def iclr2026_notes(papers: int | None) -> list[dict[str, Any]]:
    """The first ``papers`` ICLR 2026 submissions of the cuts by number (at most 125: part 1's cut
    holds the first 125 with every reply; all of the cuts when ``None``), v2-shaped, each with its
    replies."""
    flats: Iterator[dict[str, Any]] = (orjson.loads(line) for part in SUBMISSION_PARTS for line in part.open("rb"))
    chosen = list(islice(flats, papers)) if papers is not None else list(flats)
    # the review parts follow the submission numbers: the first papers' replies come first
    replies = _replies_by_forum(None if papers is None else papers)
    return [v2_submission(flat, replies.get(flat["id"], [])) for flat in chosen]


def iclr2026_encoded() -> list[tuple[str, bytes]]:
    """All 19,630 ICLR 2026 submissions with their replies (the full real data in
    ``$PAPERDECK_SHARED``), v2-shaped, each encoded as JSON, sorted by id: the full-size server holds
    bytes, not objects. Both dumps are in submission-number order, so each paper's replies are read
    as its submission is."""

    def reply_notes() -> Iterator[dict[str, Any]]:
        for part in review_parts(SHARED_REVIEWS):
            with gzip.open(part, "rb") as handle:
                yield from (orjson.loads(line) for line in handle)

    replies = reply_notes()
    pending = next(replies, None)
    encoded = []
    for part in submission_parts(SHARED_DATA):
        for line in part.open("rb"):
            flat = orjson.loads(line)
            own = []
            while pending is not None and pending["forum"] == flat["id"]:
                own.append(pending)
                pending = next(replies, None)
            encoded.append((flat["id"], orjson.dumps(v2_submission(flat, _last_versions(own)))))
    encoded.sort()
    return encoded


def venue_group_record(venue_id: str, submission_name: str = "Submission", **content: Any) -> dict[str, Any]:
    """A venue group as API v2 returns it: ``content`` fields wrapped as ``{"value": …}``, naming the
    submissions, their venue ids and the reply names (``content`` adds or replaces fields; a value
    ``None`` leaves the field out)."""
    fields: dict[str, Any] = {
        "submission_name": submission_name,
        "submission_venue_id": f"{venue_id}/Submission",
        "withdrawn_venue_id": f"{venue_id}/Withdrawn_Submission",
        "desk_rejected_venue_id": f"{venue_id}/Desk_Rejected_Submission",
        "review_name": "Official_Review",
        "meta_review_name": "Meta_Review",
        "decision_name": "Decision",
        "review_rating": "rating",
        **content,
    }
    wrapped = {key: {"value": value} for key, value in fields.items() if value is not None}
    return {"id": venue_id, "domain": venue_id, "members": [], "content": wrapped}


def _token(expires: float) -> str:
    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    return f"{part({'alg': 'none'})}.{part({'exp': int(expires), 'nonce': time.monotonic_ns()})}.sig"


class ApiServer:
    """The server (see the module docstring); use as a context manager.

    Attributes:
        url: the base URL (``http://127.0.0.1:PORT``).
        notes: the submission notes by venue id (by invitation for :meth:`add_venue`'s), each list
            sorted by id.
        requests: every request as ``(method, path, query)``.
        on_notes: called after each ``/notes`` page is built, with the page index so far.
    """

    def __init__(
        self, notes: list[dict[str, Any]] | None = None, encoded: list[tuple[str, bytes]] | None = None
    ) -> None:
        self.notes: dict[str, list[dict[str, Any]]] = {VENUE: sorted(notes or [], key=lambda n: n["id"])}
        self.groups: dict[str, dict[str, Any]] = {VENUE: venue_group_record(VENUE)}
        self.invitations: dict[str, str] = {}  # invitation → venue key of ``notes`` (add_venue)
        self.encoded = encoded  # instead of ``notes``: (id, note JSON) sorted by id
        self.users = {USER: PASSWORD}
        self.tokens: set[str] = set()
        self.require_login = True
        self.faults: list[tuple[str, str]] = []
        self.requests: list[tuple[str, str, dict[str, list[str]]]] = []
        self.copilot: dict[str, bytes] = {}
        self.raw: dict[str, bytes] = {}  # any other path → its body (the arXiv API's /arxiv/query)
        self.slow_s = 2.0
        self.page_delay_s = 0.0
        self.on_notes: Callable[[int], None] | None = None
        self._pages_served = 0
        self._lock = threading.Lock()
        server = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                server._handle(self, "GET")

            def do_POST(self) -> None:
                server._handle(self, "POST")

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that gave up (a timeout) leaves a broken pipe: expected here

        self._http = Server(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}"
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> ApiServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()

    def add_venue(
        self, venue_id: str, notes: list[dict[str, Any]], group: dict[str, Any] | None, invitation: str
    ) -> None:
        """Serve another venue: its ``group`` record (``None``: no group, ``/groups`` answers 404)
        and its submission ``notes`` under ``invitation``."""
        if group is not None:
            self.groups[venue_id] = group
        self.notes[invitation] = sorted(notes, key=lambda n: n["id"])
        self.invitations[invitation] = invitation  # served under this invitation only

    def fail(self, path: str, *kinds: str) -> None:
        """Serve the next requests to ``path`` with these faults, one each, in order."""
        with self._lock:
            self.faults.extend((path, kind) for kind in kinds)

    def _edit(self, note_id: str, change: Callable[[dict[str, Any]], bool]) -> bool:
        """Apply ``change`` to the submission ``note_id`` (returns whether it changed anything)."""
        if self.encoded is not None:
            index = bisect.bisect_left(self.encoded, (note_id, b""))
            note = orjson.loads(self.encoded[index][1])
            changed = change(note)
            self.encoded[index] = (note_id, orjson.dumps(note))
            return changed
        note = next(n for n in self.notes[VENUE] if n["id"] == note_id)
        return change(note)

    def ids(self) -> list[str]:
        """The submission ids served, in order."""
        if self.encoded is not None:
            return [note_id for note_id, _ in self.encoded]
        return [note["id"] for note in self.notes[VENUE]]

    def change_ratings(self, count: int, seed: int = 7) -> dict[str, tuple[str, int, int]]:
        """Change one review's rating on ``count`` papers (a later ``tmdate``, as OpenReview
        keeps an edited note). Returns ``{forum: (review id, old, new)}``."""
        rng = random.Random(seed)
        changed: dict[str, tuple[str, int, int]] = {}
        for note_id in rng.sample(self.ids(), len(self.ids())):
            if len(changed) == count:
                break

            def edit(note: dict[str, Any]) -> bool:
                reviews = [
                    r for r in note["details"]["directReplies"] if r["invitations"][0].endswith("/-/Official_Review")
                ]
                if not reviews:
                    return False
                review = rng.choice(reviews)
                old = review["content"]["rating"]["value"]
                new = next(v for v in (6, 8, 4, 10, 2) if v != old)
                review["content"]["rating"]["value"] = new
                review["tmdate"] = review["mdate"] = review.get("tmdate", review["cdate"]) + 86_400_000
                changed[note["id"]] = (review["id"], old, new)
                return True

            self._edit(note_id, edit)
        return changed

    def decide(self, count: int, seed: int = 11) -> dict[str, str]:
        """Give ``count`` papers under review a decision: the venue and venue id OpenReview sets,
        and a ``Decision`` reply. Returns ``{forum: decision text}``."""
        rng = random.Random(seed)
        tiers = [("Accept (Oral)", "ICLR 2026 Oral", VENUE), ("Accept (Poster)", "ICLR 2026 Poster", VENUE),
                 ("Reject", "Submitted to ICLR 2026", f"{VENUE}/Rejected_Submission")]  # fmt: skip
        decided: dict[str, str] = {}
        for note_id in rng.sample(self.ids(), len(self.ids())):
            if len(decided) == count:
                break
            tier = rng.choice(tiers)
            if self._edit(note_id, lambda note, tier=tier: _decided(note, *tier)):
                decided[note_id] = tier[0]
        return decided

    def count(self, path: str) -> int:
        """Requests made to ``path``."""
        return sum(1 for _, p, _ in self.requests if p == path)

    def _take_fault(self, path: str) -> str | None:
        with self._lock:
            for index, (fault_path, kind) in enumerate(self.faults):
                if fault_path == path:
                    del self.faults[index]
                    return kind
        return None

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        url = urlsplit(handler.path)
        query = parse_qs(url.query)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        self.requests.append((method, url.path, query))
        fault = self._take_fault(url.path)
        if fault == "expire":
            self.tokens.clear()
            fault = None
        if fault in ("500", "502"):
            return self._send(handler, int(fault), {"name": "ServerError", "message": "try again"})
        if fault == "429":
            return self._send(handler, 429, {"name": "RateLimitError"}, {"Retry-After": "0.05"})
        if fault in ("429-date", "429-junk", "429-long"):
            wait = {"429-date": "Tue, 01 Dec 2026 00:00:00 GMT", "429-junk": "soon, maybe", "429-long": "5000"}[fault]
            return self._send(handler, 429, {"name": "RateLimitError"}, {"Retry-After": wait})
        if fault == "429-reset":
            reset = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time()))
            return self._send(handler, 429, {"name": "RateLimitError", "resetTime": reset})
        if fault == "timeout":
            time.sleep(self.slow_s)
        if method == "POST" and url.path == "/login":
            return self._login(handler, body)
        if method == "GET" and url.path == "/notes":
            return self._notes(handler, query, fault)
        if method == "GET" and url.path == "/groups":
            group = self.groups.get(query.get("id", [""])[0])
            if group is None:
                return self._send(handler, 404, {"name": "NotFoundError", "message": "Group Not Found"})
            return self._raw(handler, 200, orjson.dumps({"groups": [group]}), fault)
        if method == "GET" and url.path in self.raw:
            return self._raw(handler, 200, self.raw[url.path], fault)
        if method == "GET" and url.path.startswith("/pc/"):
            data = self.copilot.get(url.path.removeprefix("/pc/"))
            if data is None:
                return self._send(handler, 404, {"message": "Not Found"})
            return self._raw(handler, 200, data, fault)
        return self._send(handler, 404, {"name": "NotFoundError", "message": "no such route"})

    def _login(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        try:
            request = json.loads(body)
        except ValueError:
            return self._send(handler, 400, {"name": "ValidationError"})
        if self.users.get(request.get("id")) != request.get("password"):
            return self._send(handler, 401, {"name": "InvalidCredentials", "message": "Invalid username or password"})
        token = _token(time.time() + 3600)
        self.tokens.add(token)
        return self._send(handler, 200, {"token": token, "user": {"id": "~Reader1"}})

    def _notes(self, handler: BaseHTTPRequestHandler, query: dict[str, list[str]], fault: str | None) -> None:
        auth = handler.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            if auth.removeprefix("Bearer ") not in self.tokens:
                return self._send(handler, 401, {"name": "TokenExpiredError", "message": "Token expired"})
        elif self.require_login:
            return self._send(handler, 403, {"name": "ChallengeRequiredError", "message": "Challenge required"})
        invitation = query.get("invitation", [""])[0]
        venue = self.invitations.get(invitation) or invitation.removesuffix("/-/Submission")
        limit = min(int(query.get("limit", ["1000"])[0]), 1000)
        if self.encoded is not None and venue == VENUE:
            ids = [note_id for note_id, _ in self.encoded]
            offset = int(query.get("offset", ["0"])[0])
            start = bisect.bisect_right(ids, query["after"][0]) if "after" in query else offset
            chosen = b",".join(data for _, data in self.encoded[start : start + limit])
            data = b'{"notes":[' + chosen + b'],"count":' + str(len(ids)).encode() + b"}"
        else:
            notes = self.notes.get(venue, [])
            if "after" in query:
                after = query["after"][0]
                start = next((i for i, note in enumerate(notes) if note["id"] > after), len(notes))
            else:
                start = int(query.get("offset", ["0"])[0])
            data = orjson.dumps({"notes": notes[start : start + limit], "count": len(notes)})
        self._pages_served += 1
        if self.on_notes is not None:
            self.on_notes(self._pages_served)
        if self.page_delay_s:
            time.sleep(self.page_delay_s)
        return self._raw(handler, 200, data, fault)

    def _raw(self, handler: BaseHTTPRequestHandler, status: int, data: bytes, fault: str | None) -> None:
        if fault == "truncated":
            data = data[: len(data) // 2]
        if fault == "html":
            data = b"<html><body>Bad gateway</body></html>"
        if fault == "portal":
            data = b"<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>"
        handler.send_response(status)
        handler.send_header("Content-Type", "text/html; charset=utf-8" if fault == "portal" else "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        if fault == "reset":
            handler.wfile.write(data[: len(data) // 2])
            handler.wfile.flush()
            handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            handler.connection.close()
            handler.close_connection = True
            return
        handler.wfile.write(data)

    def _send(
        self, handler: BaseHTTPRequestHandler, status: int, body: Any, headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(body).encode()
        handler.send_response(status)
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)


def _decided(note: dict[str, Any], decision: str, venue: str, venueid: str) -> bool:
    """Give a paper under review ``decision`` (see :meth:`ApiServer.decide`); ``False`` when it
    was not under review."""
    if note["content"]["venueid"]["value"] != f"{VENUE}/Submission":
        return False
    note["content"]["venue"] = {"value": venue}
    note["content"]["venueid"] = {"value": venueid}
    number, when = note["number"], note["tmdate"] + 90 * 86_400_000
    note["details"]["directReplies"].append({
        "id": f"D{note['id'][1:]}", "forum": note["id"], "replyto": note["id"], "number": 1,
        "invitations": [f"{VENUE}/Submission{number}/-/Decision"], "signatures": [f"{VENUE}/Program_Chairs"],
        "readers": ["everyone"], "writers": [VENUE], "domain": VENUE, "cdate": when, "tcdate": when,
        "mdate": when, "tmdate": when, "license": "CC BY 4.0", "version": 2,
        "content": {"decision": {"value": decision}, "comment": {"value": "The committee's decision."}},
    })  # fmt: skip
    return True


def lfs_pointer() -> bytes:
    """What a raw-file host sends for a file kept in Git LFS."""
    return b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"0" * 64 + b"\nsize 123456789\n"


def store_files(data_dir: Path) -> dict[str, bytes]:
    """Every file of a store except the kept pages (``fetch/``), by relative path."""
    return {
        str(path.relative_to(data_dir)): path.read_bytes()
        for path in sorted(data_dir.rglob("*"))
        if path.is_file() and path.relative_to(data_dir).parts[0] != "fetch"
    }
