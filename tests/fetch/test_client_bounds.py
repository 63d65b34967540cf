"""The client's bounds in process, against small local servers on 127.0.0.1: compressed bodies
inflated within the limit, redirects within the origin (a secret never leaves it), secrets redacted
in every form, the fetch's deadline ending a client's retries, and the import's progress."""

from __future__ import annotations

import gzip
import time
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import orjson
import pytest
from paperdeck.fetch.client import REDACTED, FetchError, HttpClient, Limits, OpenReviewClient, plain_get
from paperdeck.fetch.credentials import Credentials, TokenStore
from paperdeck.fetch.run import FetchProgress, fetch
from paperdeck.store.store import Store

from tests.fetch.api_server import ApiServer
from tests.fetch.helpers import ICLR, PAGE, PAPERS, options
from tests.fetch.hostile_server import LocalServer, QuietHandler, answer

Route = Callable[[BaseHTTPRequestHandler], None]


class Routes(LocalServer):
    """A server answering each path with its route (:attr:`routes`); records ``(method, path, headers)``."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.seen: list[tuple[str, str, str]] = []
        outer = self

        class Handler(QuietHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                outer.seen.append((self.command, self.path, str(self.headers)))
                outer.routes[self.path.split("?")[0]](self)

            do_GET = do_POST = _any

        self.serve(Handler)


FAST = Limits(backoff_s=0.001, backoff_max_s=0.01, timeout_s=2.0, attempts=2)
DOCUMENT = {"notes": [{"id": f"Note{n:06d}", "text": "words " * 50} for n in range(40)], "count": 40}


@pytest.fixture
def pair() -> Iterator[tuple[Routes, Routes]]:
    """Two servers (two origins): ``here`` and ``there``; each test sets their routes."""
    with Routes() as here, Routes() as there:
        yield here, there


@pytest.mark.parametrize("encoding", ["gzip", "x-gzip", "deflate", "identity", ""])
def test_a_compressed_body_within_the_limit_is_inflated_as_sent(pair: tuple[Routes, Routes], encoding: str) -> None:
    here, _ = pair
    body = orjson.dumps(DOCUMENT)
    packed = {"gzip": gzip.compress, "x-gzip": gzip.compress, "deflate": zlib.compress}.get(encoding, bytes)(body)
    headers = {"Content-Encoding": encoding} if encoding else {}
    here.routes["/notes"] = lambda h: answer(h, 200, packed, headers)
    client = HttpClient(here.url, FAST)
    got = plain_get(client, "/notes")
    assert got.body == body and got.document == DOCUMENT


@pytest.mark.parametrize(("encoding", "how"), [("gzip", "inflated"), ("", "")])
def test_a_body_one_byte_over_the_limit_is_refused_in_one_line(
    pair: tuple[Routes, Routes], encoding: str, how: str
) -> None:
    here, _ = pair
    body = orjson.dumps(DOCUMENT)
    packed = gzip.compress(body) if encoding else body
    here.routes["/notes"] = lambda h: answer(h, 200, packed, {"Content-Encoding": encoding} if encoding else {})
    exact = HttpClient(here.url, Limits(max_body_bytes=len(body), attempts=1))
    assert plain_get(exact, "/notes").body == body  # the limit itself is allowed
    over = HttpClient(here.url, Limits(max_body_bytes=len(body) - 1, attempts=1))
    with pytest.raises(FetchError) as caught:
        plain_get(over, "/notes")
    assert f"MB{' ' + how if how else ''}; not read" in str(caught.value) and "\n" not in str(caught.value)


def test_json_with_more_values_than_allowed_is_refused_before_it_is_parsed(pair: tuple[Routes, Routes]) -> None:
    here, _ = pair
    body = orjson.dumps(DOCUMENT)
    here.routes["/notes"] = lambda h: answer(h, 200, body)
    values = body.count(b"{") + body.count(b"[") + body.count(b",")
    assert plain_get(HttpClient(here.url, Limits(max_json_items=values, attempts=1)), "/notes").document == DOCUMENT
    with pytest.raises(FetchError, match="JSON values"):
        plain_get(HttpClient(here.url, Limits(max_json_items=values - 1, attempts=1)), "/notes")


def _redirect(to: str, status: int = 302) -> Route:
    return lambda h: answer(h, status, b"", {"Location": to})


def _token_client(url: str, tmp_path: Path, limits: Limits = FAST) -> OpenReviewClient:
    tokens = TokenStore(tmp_path, url, use_keyring=False)
    tokens.save("tok-SECRET-123456")
    return OpenReviewClient(url, tokens, lambda: Credentials("me@example.org", "pass-SECRET-9876"), limits)


def test_a_redirect_within_the_origin_is_followed_with_the_token(pair: tuple[Routes, Routes], tmp_path: Path) -> None:
    here, _ = pair
    here.routes["/notes"] = _redirect("/moved?x=1")
    here.routes["/moved"] = lambda h: answer(h, 200, orjson.dumps(DOCUMENT))
    client = _token_client(here.url, tmp_path)
    assert client.get("/notes", {"limit": 1}).document == DOCUMENT
    assert [path for _, path, _ in here.seen] == ["/notes?limit=1", "/moved?x=1"]
    assert "Bearer tok-SECRET-123456" in here.seen[1][2]


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_secret_never_follows_a_redirect_to_another_origin(
    pair: tuple[Routes, Routes], tmp_path: Path, status: int
) -> None:
    here, there = pair
    here.routes["/notes"] = _redirect(there.url + "/notes", status)
    here.routes["/login"] = _redirect(there.url + "/login", status)
    there.routes["/notes"] = there.routes["/login"] = lambda h: answer(h, 200, b'{"token": "x"}')
    client = _token_client(here.url, tmp_path)
    with pytest.raises(FetchError, match="another origin"):
        client.get("/notes", {})
    with pytest.raises(FetchError, match="another origin"):
        client.login()
    assert there.seen == []


def test_a_request_without_secrets_follows_a_redirect_elsewhere_without_the_clients_headers(
    pair: tuple[Routes, Routes],
) -> None:
    here, there = pair
    here.routes["/list.json"] = _redirect(there.url + "/list.json")
    there.routes["/list.json"] = lambda h: answer(h, 200, b"[1, 2]")
    assert plain_get(HttpClient(here.url, FAST), "/list.json").document == [1, 2]
    assert len(there.seen) == 1


def test_secrets_are_redacted_in_every_form_a_server_may_echo() -> None:
    client = HttpClient("http://127.0.0.1:9")
    secret = 'pa"ss wörd/+%'
    client.keep_secret(secret)
    import json
    from urllib.parse import quote

    forms = [secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1], quote(secret, safe="")]
    for form in forms:
        assert client.redact(f"server said: {form}!") == f"server said: {REDACTED}!"
    body = orjson.dumps({"echo": secret, "ascii": json.loads(json.dumps(json.dumps(secret)))})
    assert secret.encode() not in client._scrub(body) and orjson.loads(client._scrub(body))["echo"] == REDACTED


def test_the_fetchs_deadline_ends_the_retries_with_its_own_message(pair: tuple[Routes, Routes]) -> None:
    here, _ = pair
    here.routes["/notes"] = lambda h: answer(h, 503, b"busy")
    waits: list[float] = []
    # A deadline well above a loaded machine's first answer (0.3 s failed under load), far below the backoff.
    limits = Limits(backoff_s=30.0, backoff_max_s=30.0, attempts=50, deadline_s=2.0)
    client = HttpClient(here.url, limits, sleep=lambda s: (waits.append(s), time.sleep(s)))
    with pytest.raises(FetchError, match=r"ran past its deadline of 2 s"):
        plain_get(client, "/notes")
    assert waits and all(wait <= 2.0 for wait in waits)  # never a 30 s backoff past the deadline


def test_the_fetchs_import_reports_each_page_read(server: ApiServer, login: None, tmp_path: Path) -> None:
    steps: list[FetchProgress] = []
    fetch(Store(tmp_path / "data"), [ICLR], options(server), steps.append)
    importing = [step for step in steps if step.stage == "importing"]
    pages = -(-PAPERS // PAGE)
    assert [step.read for step in importing] == [0, 0, 1, 2, pages]
    assert all(step.pages == pages and step.notes == PAPERS for step in importing)


def test_the_apps_refresh_says_which_page_the_import_reads() -> None:
    from paperdeck.ui.refresh import _progress_text

    base = {"stage": "importing", "source": "iclr2026", "pages": 20, "notes": 19630}
    assert _progress_text({**base, "read": 2}) == "importing iclr2026: page 3 of 20"
    assert _progress_text({**base, "read": 20}) == "importing iclr2026: merging 20 pages"
    assert _progress_text({"stage": "importing"}) == "importing…"


def test_a_run_stops_once_its_answers_together_pass_the_runs_limit(pair: tuple[Routes, Routes]) -> None:
    here, _ = pair
    body = orjson.dumps(DOCUMENT)
    here.routes["/notes"] = lambda h: answer(h, 200, body)
    client = HttpClient(here.url, Limits(max_run_bytes=2 * len(body), attempts=1))
    plain_get(client, "/notes")
    plain_get(client, "/notes")
    with pytest.raises(FetchError, match="GB read in this run"):
        plain_get(client, "/notes")
