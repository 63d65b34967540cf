"""A hostile OpenReview-like server on 127.0.0.1: each :data:`MODES` entry is one way a server can
attack or break a fetch, served to ``paperdeck fetch`` in a child process by ``test_fetch_hostile``.

``POST /login`` answers a token (recorded in :attr:`HostileServer.tokens`) unless the mode attacks
the login; ``GET /groups`` answers ICLR 2026's group, soundly; ``GET /notes`` answers as the mode
says. A second server (:class:`Elsewhere`, another port: another origin) records whatever is
redirected to it, so that a test can assert that no secret reached it.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import zlib
from collections.abc import Callable
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

import orjson

from tests.fetch.api_server import PASSWORD, VENUE, QuietHandler, _token, venue_group_record

#: Seconds between two bytes of a slow answer.
DRIP_S = 0.2


@cache
def gzip_bomb() -> bytes:
    """About 1 MB of gzip that inflates to 1 GB of ``[`` (made once, in 1 MB steps)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"[" * (1 << 20)
    parts = [packer.compress(block) for _ in range(1024)]
    parts.append(packer.flush())
    return b"".join(parts)


def _submission(note_id: str, number: int, **content: Any) -> dict[str, Any]:
    values = {"title": f"A paper about hostile servers {number}", "abstract": "What a server may send. " * 8}
    values.update(content)
    return {
        "id": note_id, "forum": note_id, "number": number, "invitations": [f"{VENUE}/-/Submission"],
        "domain": VENUE, "cdate": 1, "mdate": 1, "content": {key: {"value": v} for key, v in values.items()},
        "details": {"directReplies": []},
    }  # fmt: skip


def _reply(forum: str, note_id: str, kind: str, **content: Any) -> dict[str, Any]:
    return {
        "id": note_id, "forum": forum, "replyto": forum, "invitations": [f"{VENUE}/Submission1/-/{kind}"],
        "signatures": [f"{VENUE}/Submission1/Reviewer_abcd"], "cdate": 2, "tmdate": 2,
        "content": {key: {"value": v} for key, v in content.items()},
    }  # fmt: skip


def page(notes: list[dict[str, Any]]) -> bytes:
    return orjson.dumps({"notes": notes, "count": len(notes)})


class LocalServer:
    """A test server on 127.0.0.1 (a free port, :attr:`url`), serving from a daemon thread
    between ``__enter__`` and ``__exit__``; a subclass calls :meth:`serve` with its handler."""

    url: str

    def serve(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._http = _server(handler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}"

    def __enter__(self) -> Self:
        threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()


class Elsewhere(LocalServer):
    """Another origin: records every request (method, path, headers, body) sent to it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str, bytes]] = []
        outer = self

        class Handler(QuietHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                outer.seen.append((self.command, self.path, str(self.headers), body))
                answer = orjson.dumps({"token": "stolen", "notes": [], "count": 0})
                self.send_response(200)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_GET = do_POST = _any

        self.serve(Handler)


class HostileServer(LocalServer):
    """Serves one mode of :data:`MODES`; ``elsewhere`` is the other origin its redirects name."""

    def __init__(self, mode: str, elsewhere: Elsewhere) -> None:
        self.mode = mode
        self.elsewhere = elsewhere
        if mode == "gzip-bomb":
            gzip_bomb()  # made before the fetch asks: making it takes longer than a read may wait
        self.tokens: list[str] = []
        outer = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with contextlib.suppress(OSError):  # the client gave up: expected here
                    outer._login(self, body)

            def do_GET(self) -> None:
                with contextlib.suppress(OSError):
                    if self.path.startswith("/groups?"):  # the venue's group is sound: each mode attacks /notes
                        return answer(self, 200, orjson.dumps({"groups": [venue_group_record(VENUE)]}))
                    MODES[outer.mode](outer, self)

        self.serve(Handler)

    def _login(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        if self.mode == "redirect-login":  # a 307 keeps the method and the body: the password
            return answer(handler, 307, b"", {"Location": self.elsewhere.url + "/login"})
        if self.mode == "echo-login":
            sent = orjson.loads(body)
            message = f"wrong password {sent.get('password')!s} for {sent.get('id')}"
            return answer(handler, 400, orjson.dumps({"name": "LoginError", "message": message}))
        token = _token(time.time() + 3600)
        self.tokens.append(token)
        answer(handler, 200, orjson.dumps({"token": token}))


def answer(handler: BaseHTTPRequestHandler, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    for name, value in {"Content-Type": "application/json", **(headers or {})}.items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _auth(handler: BaseHTTPRequestHandler) -> str:
    return handler.headers.get("Authorization", "")


def _echo_4xx(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    message = f"bad request from \x1b[31m{_auth(handler)}\x1b[0m with password {PASSWORD}"
    answer(handler, 404, orjson.dumps({"name": "NotFoundError", "message": message}))


def _echo_5xx(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    answer(handler, 502, f"<html>upstream said {_auth(handler)}</html>".encode(), {"Content-Type": "text/html"})


def _echo_429(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    body = orjson.dumps({"message": f"slow down {_auth(handler)}", "resetTime": "not a time"})
    answer(handler, 429, body, {"Retry-After": f"{_auth(handler)} 99999"})


def _echo_in_headers(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """The token sent back as the body's encoding (an error line names an unknown encoding)."""
    answer(handler, 200, b"{}", {"Content-Encoding": f"x-{_auth(handler)}"})


def _echo_in_notes(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """A sound page whose notes carry the token and the password: kept pages and the store must not."""
    token = _auth(handler).removeprefix("Bearer ")
    note = _submission("EchoNote01", 1, title=f"Token {token}", abstract=f"The password is {PASSWORD}. " * 8)
    note["details"]["directReplies"] = [_reply("EchoNote01", "EchoReply1", "Official_Comment", comment=token)]
    answer(handler, 200, page([note]))


def _redirect_notes(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    answer(handler, 302, b"", {"Location": server.elsewhere.url + handler.path})


def _redirect_loop(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    answer(handler, 307, b"", {"Location": handler.path})


def _endless(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """A chunked body that never ends."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    chunk = b" " * 65536
    framed = b"%x\r\n%s\r\n" % (len(chunk), chunk)
    handler.wfile.write(b"1\r\n{\r\n")
    while True:
        handler.wfile.write(framed)


def _huge_declared(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """A ``Content-Length`` of 3 GB (the body never comes)."""
    handler.send_response(200)
    handler.send_header("Content-Length", str(3 << 30))
    handler.end_headers()
    handler.wfile.write(b'{"notes": [')
    handler.wfile.flush()
    time.sleep(5)


def _gzip_bomb(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    answer(handler, 200, gzip_bomb(), {"Content-Encoding": "gzip"})


def _brotli(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    answer(handler, 200, b"\x1b\xff\xff" * 1000, {"Content-Encoding": "br"})


def _swarm(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """10 MB of empty objects: small as bytes, gigabytes once parsed."""
    answer(handler, 200, b'{"notes": [' + b"{}," * 3_500_000 + b"{}]}")


def _deep(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    answer(handler, 200, b"[" * 5_000_000)


def _slow_body(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """Headers, then one byte of the body at a time, for ever."""
    handler.send_response(200)
    handler.send_header("Content-Length", str(10**6))
    handler.end_headers()
    while True:
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(DRIP_S)


def _slow_headers(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """The status line, then one byte of headers at a time, for ever."""
    handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
    while True:
        handler.wfile.write(b"X")
        handler.wfile.flush()
        time.sleep(DRIP_S)


def _silent(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    time.sleep(30)


def _not_a_page(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    answer(handler, 200, orjson.dumps({"notes": "\x1b]52;c;aGk=\x07 all yours", "count": "\u202e1"}))


def _unknown_kinds(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """A sound page whose replies include kinds paperdeck does not know and odd records."""
    notes = [_submission(f"GoodNote{n:02d}", n) for n in range(1, 4)]
    notes[0]["details"]["directReplies"] = [
        _reply("GoodNote01", "Ethics001", "Ethics_Review", ethics_concerns="none"),
        _reply("GoodNote01", "Review001", "Official_Review", rating="6: accept", confidence=3),
        _reply("GoodNote01", "MetaRev01", "Meta_Review", recommendation="Accept (Poster)", metareview="fine"),
        _reply("GoodNote01", "Review002", "Official_Review", rating="1e309", confidence=2),
        "not a note",
    ]
    answer(handler, 200, page(notes))


def _bad_types(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """A page whose records are partly malformed: the sound ones land, the rest are counted."""
    notes: list[Any] = [_submission(f"GoodNote{n:02d}", n) for n in range(1, 4)]
    notes.append(_submission("BadTitle01", 9, title=["a", {"b": 1}]))
    notes.append(_submission("BadAuthor1", 10, authors={"x": 1}))
    notes.append(_submission("BadKeyword", 11, keywords=5))
    answer(handler, 200, page(notes))


def _escapes(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    """A sound page whose every text holds terminal escapes and bidirectional overrides."""
    evil = "\x1b]52;c;aGk=\x07\x1b[2J\u202e\x9b31m"
    note = _submission("EscNote001", 1, title=f"Title {evil}", venue=f"ICLR 2026 {evil}", keywords=[evil])
    note["domain"] = f"{evil}/2026/Conference"
    note["details"]["directReplies"] = [
        _reply("EscNote001", "EscReply01", "Official_Review", rating=f"6: {evil}", summary=evil),
        _reply("EscNote001", "EscReply02", f"Kind{evil}", summary=evil),
    ]
    answer(handler, 200, page([note]))


def _odd_ids(server: HostileServer, handler: BaseHTTPRequestHandler) -> None:
    notes = [_submission(f"GoodNote{n:02d}", n) for n in range(1, 3)]
    for number, odd in enumerate(ODD_IDS, start=20):
        notes.append(_submission(odd, number))
    odd_replies = [_reply("GoodNote01", odd, "Official_Comment", comment="x") for odd in ODD_IDS]
    sound = [_reply("GoodNote01", f"GoodReply{n:02d}", "Official_Comment", comment="y") for n in range(10)]
    notes[0]["details"]["directReplies"] = odd_replies + sound
    answer(handler, 200, page(notes))


#: Ids a server may send that are not plain tokens.
ODD_IDS = ("../../x", "a/b", "nul\x00here", "esc\x1b[2J", "rtl\u202eexe.txt", "", " spaced ", "x" * 300)

#: Mode → how ``GET /notes`` is answered (the login modes answer ``/notes`` as ``echo-4xx`` does).
MODES: dict[str, Callable[[HostileServer, BaseHTTPRequestHandler], None]] = {
    "echo-4xx": _echo_4xx,
    "echo-5xx": _echo_5xx,
    "echo-429": _echo_429,
    "echo-login": _echo_4xx,
    "echo-in-headers": _echo_in_headers,
    "echo-in-notes": _echo_in_notes,
    "redirect-login": _echo_4xx,
    "redirect-notes": _redirect_notes,
    "redirect-loop": _redirect_loop,
    "endless": _endless,
    "huge-declared": _huge_declared,
    "gzip-bomb": _gzip_bomb,
    "brotli": _brotli,
    "swarm": _swarm,
    "deep": _deep,
    "slow-body": _slow_body,
    "slow-headers": _slow_headers,
    "silent": _silent,
    "not-a-page": _not_a_page,
    "unknown-kinds": _unknown_kinds,
    "bad-types": _bad_types,
    "odd-ids": _odd_ids,
    "escapes": _escapes,
}


def _server(handler: type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a client that gave up leaves a broken pipe: expected here

    return Server(("127.0.0.1", 0), handler)


class ZoteroStandIn(LocalServer):
    """A stand-in for a running Zotero's connector server (zotero/zotero ``server_connector.js``):
    ``GET /connector/ping`` answers "Zotero is running"; ``POST /connector/import?session=ID``
    records the request (:attr:`imports`: path with its query, headers, body) and answers ``201``
    with one item per RIS record, as Zotero answers with the items it made. ``mode``:

    - ``"ok"``: as above;
    - ``"error"``: the import answers ``500`` (Zotero's read-only library);
    - ``"no-connector"``: every path answers ``404`` (another server on the port);
    - ``"hang"``: the import reads the request, then answers nothing until the server stops.
    """

    def __init__(self, mode: str = "ok") -> None:
        self.mode = mode
        self.pings = 0
        self.imports: list[tuple[str, dict[str, str], bytes]] = []
        self._stop = threading.Event()
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                with contextlib.suppress(OSError):
                    if outer.mode == "no-connector" or self.path != "/connector/ping":
                        return answer(self, 404, b"No endpoint found", {"Content-Type": "text/plain"})
                    outer.pings += 1
                    page = b"<!DOCTYPE html><html><body>Zotero is running</body></html>"
                    answer(self, 200, page, {"Content-Type": "text/html"})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with contextlib.suppress(OSError):
                    if outer.mode == "no-connector" or not self.path.startswith("/connector/import"):
                        return answer(self, 404, b"No endpoint found", {"Content-Type": "text/plain"})
                    outer.imports.append((self.path, dict(self.headers.items()), body))
                    if outer.mode == "hang":
                        outer._stop.wait(30)
                        return None
                    if outer.mode == "error":
                        return answer(self, 500, orjson.dumps({"libraryEditable": False}))
                    items = [{"itemType": "conferencePaper", "id": n} for n in range(body.count(b"\r\nER  -"))]
                    answer(self, 201, orjson.dumps(items))

        self.serve(Handler)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        super().__exit__(*exc)


#: The sockets that keep :func:`closed_port`'s ports taken (bound, never listening) while the test
#: process lives: a port bound and let go could be bound by a server of another xdist worker.
_HELD_PORTS: list[socket.socket] = []


def closed_port() -> str:
    """The address of a port on 127.0.0.1 nothing listens on: bound and never listened on, held
    for the rest of the process (a connection is refused at once, and no other server gets it)."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    _HELD_PORTS.append(probe)
    return f"http://127.0.0.1:{probe.getsockname()[1]}"
