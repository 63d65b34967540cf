"""A client for OpenReview API v2 and Paper Copilot's raw files that behaves on a shared public service.

- every request goes through :meth:`HttpClient.get_bytes` / :meth:`HttpClient.post_json`, which
  count it against a per-run budget (:class:`Limits.budget`) and retry, with exponential backoff and
  jitter (``tenacity``), timeouts, dropped connections, ``5xx`` answers and bodies that are not the
  JSON asked for; a ``429`` waits what the server says (``Retry-After``, or ``resetTime`` in the body);
- OpenReview: :meth:`OpenReviewClient.login` (``POST /login`` with ``{"id", "password"}`` → a
  ``token``, sent as ``Authorization: Bearer …``); a ``401``/``403`` while logged in drops the token
  and logs in once more; without credentials a ``403`` is one line saying how to log in;
- every failure is a :class:`FetchError`: one line naming the URL path, never the token or the password.

Bounds (:class:`Limits`), so that a hostile or broken server cannot hold a fetch or its memory:

- a body is read in chunks and refused past :attr:`Limits.max_body_bytes`, counted as sent and as
  inflated (``gzip``/``deflate`` are inflated here, in bounded steps; another encoding is refused);
  a JSON body holding more than :attr:`Limits.max_json_items` values is refused before it is parsed;
- each read waits at most :attr:`Limits.timeout_s`, each request (with its body) at most
  :attr:`Limits.request_deadline_s`, and the whole run at most :attr:`Limits.deadline_s`
  (``ends_at``; retries never wait past it);
- redirects are followed (at most :data:`MAX_REDIRECTS`) only within the origin the client was
  given; a request carrying a secret (the token, the login) is never sent to another origin;
- the token and the password are redacted (:meth:`HttpClient.redact`) from every error line and
  notice, and from a body that echoes them before it is kept.
"""

from __future__ import annotations

import base64
import email.utils
import json
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import orjson
from tenacity import RetryCallState, Retrying, retry_if_exception_type, wait_exponential_jitter

from paperdeck import __version__
from paperdeck.fetch.credentials import PASSWORD_ENV, USERNAME_ENV, Credentials, TokenStore
from paperdeck.model.errors import PaperdeckError
from paperdeck.model.safe_text import one_line

__all__ = [
    "MAX_REDIRECTS",
    "REDACTED",
    "Answer",
    "FetchError",
    "HttpClient",
    "Limits",
    "NoAnswer",
    "NotFound",
    "OpenReviewClient",
    "plain_get",
]

OPENREVIEW_API = "https://api2.openreview.net"
#: The old OpenReview API (v1), where venues before API v2 live (ICLR ≤ 2023).
OPENREVIEW_V1_API = "https://api.openreview.net"
PAPERCOPILOT_RAW = "https://raw.githubusercontent.com/papercopilot/paperlists/main"
ARXIV_API = "https://export.arxiv.org/api"
#: Most redirects one request follows (each within the client's origin).
MAX_REDIRECTS = 5
#: What a secret is replaced with in messages and kept bodies.
REDACTED = "[redacted]"
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_LOGIN_HINT = f"set {USERNAME_ENV} and {PASSWORD_ENV}, or run paperdeck fetch on a terminal to be asked"


class FetchError(PaperdeckError):
    """A fetch failed; ``str(error)`` is one line. Nothing was imported; the pages fetched so
    far are kept on disk, so the same command resumes."""


class NoAnswer(FetchError):
    """One request (:meth:`HttpClient.exchange_once`) got no answer: ``reason`` says why in a few
    words (a timeout, a dropped connection, a broken answer); ``connecting``: no connection was
    made at all (nothing listens there)."""

    def __init__(self, message: str, reason: str, *, connecting: bool) -> None:
        super().__init__(message)
        self.reason = reason
        self.connecting = connecting


class NotFound(FetchError):
    """The server answered ``404`` or ``400`` (one line, as every :class:`FetchError`): what was
    asked for is not there (a venue group the host does not hold)."""


class _Retry(Exception):
    """A failure worth another try; ``wait`` is the server's wish in seconds (a ``429``);
    ``connecting``: no connection was made (:attr:`Limits.connect_attempts` bounds the tries)."""

    def __init__(self, reason: str, wait: float | None = None, *, connecting: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait
        self.connecting = connecting


class _Refused(Exception):
    """A ``401``/``403``: the caller decides (log in, log in again, or say so)."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(status)
        self.status = status
        self.body = body


@dataclass(frozen=True, slots=True)
class Answer:
    """A successful answer: its ``body`` as sent, and the JSON ``document`` parsed from it (``None``
    for a Git LFS pointer or when no JSON was expected)."""

    body: bytes
    document: Any = None


@dataclass(frozen=True, slots=True)
class Limits:
    """How the client treats the service.

    Attributes:
        budget: most requests in one run (logins and retries count); past it the fetch stops.
        attempts: tries per request before giving up.
        backoff_s: the first retry's wait in seconds (doubling, with as much jitter), at most
            ``backoff_max_s``.
        max_wait_s: the longest a ``429`` is waited for; a longer wait stops the fetch.
        timeout_s: seconds for each read (and each write) of a request.
        connect_timeout_s: seconds for connecting: a server that cannot be reached (no network, a
            mirror's address wrong) is given up on after ``connect_attempts`` such tries.
        connect_attempts: tries of a request whose connection fails (at most ``attempts``).
        max_body_bytes: the largest body read, both as sent and inflated (a real OpenReview page of
            1,000 notes with their replies is at most 18 MB in ICLR 2026); a larger one stops the fetch.
        max_json_items: the most JSON values (objects, arrays and items counted by their
            ``{``, ``[`` and ``,``) a body may hold before it is parsed (a real page holds about
            one per 53 bytes: 350,000 in ICLR 2026's largest); more stops the fetch: parsing
            them could take gigabytes.
        max_run_bytes: the most bytes (inflated) one client reads in a run, every answer together
            (the full ICLR 2026 is 340 MB); past it the fetch stops, keeping its pages (a server
            that sends page after page of junk cannot fill the disk).
        request_deadline_s: seconds for one request, its whole body read (a slower one is retried).
        deadline_s: seconds for the whole fetch (every source, retries and waits); past it the
            fetch stops, keeping the pages it has.
    """

    budget: int = 60
    attempts: int = 6
    backoff_s: float = 1.0
    backoff_max_s: float = 60.0
    max_wait_s: float = 900.0
    timeout_s: float = 60.0
    connect_timeout_s: float = 5.0
    connect_attempts: int = 3
    max_body_bytes: int = 48 * 1024 * 1024
    max_json_items: int = 1_500_000
    max_run_bytes: int = 2 * 1024 * 1024 * 1024
    request_deadline_s: float = 300.0
    deadline_s: float = 3600.0


class HttpClient:
    """``httpx`` with the budget, the retries, the bounds and the one-line errors of the module docstring.

    Attributes:
        requests: the requests sent so far (every attempt counts).
        received: the bytes of the answers read so far (inflated).
        ends_at: when the whole fetch must end (:func:`time.monotonic` seconds).
    """

    def __init__(
        self,
        base_url: str,
        limits: Limits | None = None,
        sleep: Callable[[float], None] | None = None,
        *,
        notice: Callable[[str], None] | None = None,
        ends_at: float | None = None,
    ) -> None:
        """``notice``: told, one line, what the client is waiting for before each retry (a
        connection failed, a timeout, a ``429``), so that a fetch is never silent while it waits.
        ``ends_at``: the fetch's deadline (default :attr:`Limits.deadline_s` from now)."""
        self.base_url = base_url.rstrip("/")
        self.limits = limits or Limits()
        self.requests = 0
        self.received = 0
        #: Pages of this fetch kept on disk (fetched now or by an earlier run), as the caller
        #: that keeps them sets it: an error line says they are kept only when there are some.
        self.pages_kept = 0
        self.ends_at = ends_at if ends_at is not None else time.monotonic() + self.limits.deadline_s
        self._sleep = sleep or time.sleep
        self._told = notice or (lambda _line: None)
        self._secrets: list[str] = []
        self._origin = _origin(httpx.URL(self.base_url))
        self._http = httpx.Client(
            timeout=httpx.Timeout(self.limits.timeout_s, connect=self.limits.connect_timeout_s),
            headers={"User-Agent": f"paperdeck/{__version__}", "Accept-Encoding": "gzip, deflate"},
            follow_redirects=False,
        )
        self.headers: dict[str, str] = {}

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def keep_secret(self, secret: str) -> None:
        """Redact ``secret`` (a token, a password) from every message and kept body from now on."""
        if secret and secret not in self._secrets:
            self._secrets.append(secret)
            self._secrets.sort(key=len, reverse=True)  # a secret inside another: the longer first

    def redact(self, text: str) -> str:
        """``text`` with every secret (as given, JSON-escaped or URL-quoted) replaced by :data:`REDACTED`."""
        for secret in self._secrets:
            for form in _forms(secret):
                if form in text:
                    text = text.replace(form, REDACTED)
        return text

    def _scrub(self, body: bytes) -> bytes:
        """``body`` with every secret redacted (a server that echoes the token into a note): its
        JSON-escaped and URL-quoted forms, which stay inside a JSON string (a secret under 4
        characters is left: replacing it would break any body)."""
        for secret in self._secrets:
            if len(secret) < 4:
                continue
            escaped = json.dumps(secret, ensure_ascii=False)[1:-1]
            for form in dict.fromkeys((escaped, quote(secret, safe="", errors="surrogatepass"))):
                raw = form.encode("utf-8", "surrogatepass")
                if raw in body:
                    body = body.replace(raw, REDACTED.encode())
        return body

    def _notice(self, line: str) -> None:
        self._told(self.redact(line))

    def _error(self, message: str) -> FetchError:
        """A :class:`FetchError` of ``message``, secrets redacted."""
        return FetchError(self.redact(message))

    def _kept(self) -> str:
        """How an error line ends: the pages fetched so far are kept and a rerun resumes, or, when
        none was (the first request failed), that nothing was fetched."""
        if self.pages_kept:
            return "the pages fetched so far are kept: run the same command later to resume"
        return "nothing was fetched: run the same command later"

    def where(self, path: str) -> str:
        """``path`` on the server, for error lines: the whole base URL (scheme, host, port, and a
        mirror's base path) and the path; never a user name, password or query in it."""
        url = httpx.URL(self.base_url)
        port = f":{url.port}" if url.port is not None else ""
        return one_line(f"{url.scheme}://{url.host}{port}{url.path.rstrip('/')}{path}")[:200]

    def _late(self, path: str) -> FetchError:
        return self._error(
            f"{self.where(path)}: the fetch ran past its deadline of {self.limits.deadline_s:g} s; {self._kept()}"
        )

    def _stop(self, state: RetryCallState) -> bool:
        """Stop after :attr:`Limits.attempts` tries, or :attr:`Limits.connect_attempts` when the
        connection itself failed (a server that cannot be reached is not waited for long), or
        once the run's budget of requests is spent (no try is left to make)."""
        return state.attempt_number >= self._tries(state)

    def _tries(self, state: RetryCallState) -> int:
        """How many tries the request gets, as its last failure and the budget left allow."""
        outcome = state.outcome
        error = outcome.exception() if outcome is not None else None
        tries = self.limits.attempts
        if isinstance(error, _Retry) and error.connecting:
            tries = min(self.limits.connect_attempts, tries)
        return min(tries, state.attempt_number + max(0, self.limits.budget - self.requests))

    def _before_sleep(self, state: RetryCallState, path: str) -> None:
        """Say, one line, why the next try waits and how long."""
        outcome = state.outcome
        error = outcome.exception() if outcome is not None else None
        reason = error.reason if isinstance(error, _Retry) else "failed"
        wait = state.next_action.sleep if state.next_action is not None else 0.0
        tries = self._tries(state)
        again = state.attempt_number + 1
        self._notice(f"{self.where(path)}: {reason}; trying again in {wait:.0f} s (try {again} of {tries})")

    def _wait(self, state: RetryCallState) -> float:
        """The wait before the next try: the server's wish or the backoff, never past the deadline."""
        outcome = state.outcome
        error = outcome.exception() if outcome is not None else None
        if isinstance(error, _Retry) and error.wait is not None:
            wait = max(0.0, error.wait)
        else:
            backoff = wait_exponential_jitter(
                multiplier=self.limits.backoff_s, max=self.limits.backoff_max_s, jitter=self.limits.backoff_s
            )
            wait = float(backoff(state))
        return max(0.0, min(wait, self.ends_at - time.monotonic()))

    def send(self, method: str, path: str, *, params: dict[str, Any] | None = None,
             json_body: Any = None, expect_json: bool = True, content: bytes | None = None,
             content_type: str = "") -> Answer:  # fmt: skip
        """The successful answer to ``method path``, retried as the module docstring says.
        ``content``: a raw body sent as ``content_type`` instead of ``json_body`` (a text
        import posted to a local app).

        Raises:
            _Refused: a ``401`` or ``403``.
            FetchError: the budget is spent, the fetch's deadline passed, a ``429`` asks for a
                longer wait than :attr:`Limits.max_wait_s`, a ``404``/``400``, another ``4xx``, a
                redirect to another origin, a body over the limits, or the retries ran out.
        """
        retrying = Retrying(
            retry=retry_if_exception_type(_Retry),
            wait=self._wait,
            stop=self._stop,
            sleep=self._sleep,
            before_sleep=lambda state: self._before_sleep(state, path),
            reraise=True,
        )
        tried = 0
        try:
            for attempt in retrying:
                tried = attempt.retry_state.attempt_number
                with attempt:
                    return self._once(method, path, params, json_body, expect_json, content, content_type)
        except _Retry as error:
            if time.monotonic() >= self.ends_at:
                raise self._late(path) from None
            if error.connecting and self.received == 0:  # offline: no page came, none is kept
                host = httpx.URL(self.base_url).host
                raise self._error(
                    f"{self.where(path)}: {error.reason}, {tried} {'try' if tried == 1 else 'tries'}; "
                    f"cannot reach {one_line(host)}: no connection; nothing was fetched"
                ) from None
            spent = ""
            if self.requests >= self.limits.budget:
                spent = f"the budget of {self.limits.budget} requests for one run is spent; "
            raise self._error(
                f"{self.where(path)}: {error.reason}, {tried} {'try' if tried == 1 else 'tries'}; {spent}{self._kept()}"
            ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def exchange_once(self, method: str, path: str, seconds: float, *, params: dict[str, Any] | None = None,
                      content: bytes | None = None, content_type: str = "") -> tuple[int, bytes]:  # fmt: skip
        """One request, tried once, within the client's bounds (its size limits, redirects within
        the origin only) and ``seconds`` for the whole answer; its status, whatever it is, and
        its body. For a request that must not be repeated (an import into a local app).

        Raises:
            NoAnswer: no connection, a timeout, ``seconds`` passed, a broken answer.
            FetchError: a redirect to another origin, an answer over the size limits.
        """
        self.requests += 1
        try:
            status, _headers, body = self._exchange(
                method, path, params, None, time.monotonic() + seconds, content, content_type
            )
        except _Retry as error:
            message = f"{self.where(path)}: {error.reason}"
            raise NoAnswer(self.redact(message), error.reason, connecting=error.connecting) from None
        self.received += len(body)
        return status, body

    def _once(self, method: str, path: str, params: dict[str, Any] | None, json_body: Any, expect_json: bool,
              content: bytes | None = None, content_type: str = "") -> Answer:  # fmt: skip
        if self.requests >= self.limits.budget:
            raise self._error(
                f"{self.where(path)}: the budget of {self.limits.budget} requests for one run is spent; {self._kept()}"
            )
        now = time.monotonic()
        if now >= self.ends_at:
            raise self._late(path)
        self.requests += 1
        request_ends = min(now + self.limits.request_deadline_s, self.ends_at)
        status, headers, body = self._exchange(method, path, params, json_body, request_ends, content, content_type)
        self.received += len(body)
        if self.received > self.limits.max_run_bytes:
            raise self._error(
                f"{self.where(path)}: over {self.limits.max_run_bytes / 1024**3:g} GB read in this run; {self._kept()}"
            )
        if status == 429:
            wait = _retry_after(headers.get("Retry-After"), body)
            if wait is not None and wait > self.limits.max_wait_s:
                raise self._error(
                    f"{self.where(path)}: rate limited (429); the server asks to wait {wait:.0f} s; run the "
                    "same command then to resume (the pages fetched so far are kept)"
                )
            raise _Retry("rate limited (429)", wait)
        if status >= 500:
            raise _Retry(f"server error ({status})")
        if status in (401, 403) or (status == 400 and path == "/login"):  # a wrong password may be a 400
            raise _Refused(status, body)
        if status in (400, 404):
            message = f"{self.where(path)}: not found ({status}){_server_message(body, self.redact)}"
            raise NotFound(self.redact(message))
        if status >= 300:
            raise self._error(f"{self.where(path)}: unexpected answer ({status}){_server_message(body, self.redact)}")
        if expect_json and not body.lstrip().startswith(b"version https://git-lfs"):
            items = body.count(b"{") + body.count(b"[") + body.count(b",")
            if items > self.limits.max_json_items:
                raise self._error(
                    f"{self.where(path)}: the answer holds over {self.limits.max_json_items:,} JSON values; "
                    "not read (is the server broken?)"
                )
            try:
                return Answer(body, orjson.loads(body))
            except orjson.JSONDecodeError:
                if _html(headers):  # a captive portal's or a proxy's page: no retry mends it
                    raise self._error(
                        f"{self.where(path)}: the answer is an HTML page (text/html), not JSON (a network's "
                        f"login page, a captive portal, or a proxy answered); {self._kept()}"
                    ) from None
                raise _Retry("the answer is not complete JSON") from None
        return Answer(body)

    def _exchange(self, method: str, path: str, params: dict[str, Any] | None, json_body: Any,
                  request_ends: float, content: bytes | None = None,
                  content_type: str = "") -> tuple[int, httpx.Headers, bytes]:  # fmt: skip
        """Send the request, following redirects within the origin; the final status, headers and
        body (bounded, inflated, secrets scrubbed).

        Raises:
            _Retry: a timeout, a dropped connection, a broken answer, the request's deadline.
            FetchError: a redirect to another origin, too many redirects, a body over the limits.
        """
        url = httpx.URL(self.base_url + path, params=params)
        headers = dict(self.headers)
        secret = bool(headers) or json_body is not None or content is not None  # a token, a password, a note
        if content is not None and content_type:
            headers["Content-Type"] = content_type
        for _ in range(MAX_REDIRECTS + 1):
            try:
                read_s = max(0.01, min(self.limits.timeout_s, request_ends - time.monotonic()))
                timeout = httpx.Timeout(read_s, connect=min(self.limits.connect_timeout_s, read_s))
                request = self._http.build_request(
                    method, url, json=json_body, content=content, headers=headers, timeout=timeout
                )
                response = self._http.send(request, stream=True)
                try:
                    status = response.status_code
                    body = self._read(response, path, request_ends, status in _REDIRECTS)
                finally:
                    response.close()
            except httpx.ConnectTimeout:
                raise _Retry(f"no connection within {self.limits.connect_timeout_s:g} s", connecting=True) from None
            except httpx.TimeoutException:
                if time.monotonic() >= request_ends:
                    raise _Retry(self._slow()) from None
                raise _Retry("timed out") from None
            except httpx.ConnectError as exc:
                raise _Retry(f"connection failed ({type(exc).__name__})", connecting=True) from None
            except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as exc:
                raise _Retry(f"a broken answer ({type(exc).__name__})") from None
            if status not in _REDIRECTS:
                return status, response.headers, self._scrub(body)
            target = self._redirect_target(url, response.headers.get("Location"), path)
            if _origin(target) != self._origin:
                if secret:
                    raise self._error(  # the target is not named: a server may put a secret in it
                        f"{self.where(path)}: the server redirects to another origin; "
                        "not followed: the login, the token and what is posted go only to the server meant"
                    )
                headers = {}
            if status == 303 or (status in (301, 302) and method == "POST"):
                method, json_body, content = "GET", None, None
            url = target
        raise self._error(f"{self.where(path)}: over {MAX_REDIRECTS} redirects; not followed")

    def _redirect_target(self, url: httpx.URL, location: str | None, path: str) -> httpx.URL:
        try:
            target = url.join(location or "")
        except (httpx.InvalidURL, ValueError):
            target = None
        if not location or target is None or target.scheme not in ("http", "https"):
            raise self._error(f"{self.where(path)}: a redirect to no usable address; not followed")
        return target

    def _slow(self) -> str:
        return f"the answer took over {self.limits.request_deadline_s:g} s"

    def _read(self, response: httpx.Response, path: str, request_ends: float, redirect: bool) -> bytes:
        """The body of ``response``, inflated, within :attr:`Limits.max_body_bytes` and the
        request's deadline (a redirect's body is not kept).

        Raises:
            _Retry: the request's deadline passed.
            FetchError: the body is over the limit (as sent or inflated), or in an encoding
                paperdeck does not read.
        """
        limit = self.limits.max_body_bytes
        encoding = response.headers.get("Content-Encoding", "").strip().lower()
        inflate: Any = None
        if encoding in ("gzip", "x-gzip", "deflate"):
            inflate = zlib.decompressobj(zlib.MAX_WBITS | 32)  # a gzip or zlib header, either
        elif encoding not in ("", "identity"):
            shown = one_line(self.redact(response.headers.get("Content-Encoding", "")))[:40]  # redacted, then cut
            raise self._error(f"{self.where(path)}: the answer is in an encoding paperdeck does not read ({shown!r})")
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > limit:
            raise self._too_big(path, "")
        parts: list[bytes] = []
        sent = size = 0
        for chunk in response.iter_raw():  # as it comes: a body sent a byte at a time is timed too
            sent += len(chunk)
            if sent > limit:
                raise self._too_big(path, "")
            if time.monotonic() > request_ends:
                raise _Retry(self._slow()) if time.monotonic() < self.ends_at else self._late(path)
            if redirect:
                continue
            if inflate is None:
                size += len(chunk)
                parts.append(chunk)
                continue
            data = chunk
            while data:
                try:
                    piece = inflate.decompress(data, min(limit - size + 1, 1 << 20))  # 1 MB a step
                except zlib.error:
                    raise _Retry("a broken compressed answer") from None
                size += len(piece)
                if size > limit:
                    raise self._too_big(path, " inflated")
                parts.append(piece)
                data = inflate.unconsumed_tail
                if inflate.eof:
                    break
        if inflate is not None and not redirect:
            rest = inflate.flush()  # what the last step held back (all the input is in by now)
            if size + len(rest) > limit:
                raise self._too_big(path, " inflated")
            parts.append(rest)
        return b"".join(parts)

    def _too_big(self, path: str, how: str) -> FetchError:
        megabytes = self.limits.max_body_bytes / 1024 / 1024
        return self._error(
            f"{self.where(path)}: the answer is over {megabytes:g} MB{how}; not read (is the server broken?)"
        )


class OpenReviewClient(HttpClient):
    """The OpenReview API v2: log in, then pages of notes.

    ``credentials`` is asked for when a login is needed (``None``: there are none, say how to log in).
    """

    def __init__(
        self,
        base_url: str,
        tokens: TokenStore,
        credentials: Callable[[], Credentials | None],
        limits: Limits | None = None,
        sleep: Callable[[float], None] | None = None,
        *,
        notice: Callable[[str], None] | None = None,
        ends_at: float | None = None,
    ) -> None:
        super().__init__(base_url, limits, sleep, notice=notice, ends_at=ends_at)
        self.tokens = tokens
        self._credentials = credentials
        token = tokens.load()
        if token:
            self.keep_secret(token)
            self.headers["Authorization"] = f"Bearer {token}"

    @property
    def logged_in(self) -> bool:
        """True while a token is sent."""
        return "Authorization" in self.headers

    def login(self) -> None:
        """Log in with the credentials and keep the token (:class:`TokenStore`).

        Raises:
            FetchError: no credentials (how to give them), or the server refused them.
        """
        self.headers.pop("Authorization", None)
        credentials = self._credentials()
        if credentials is None:
            raise FetchError(
                f"{self.where('/notes')}: OpenReview asks for a login (anonymous requests get 403); {_LOGIN_HINT}"
            )
        self.keep_secret(credentials.password)
        try:
            answer = self.send(
                "POST", "/login", json_body={"id": credentials.username, "password": credentials.password}
            )
        except _Refused as refused:
            raise self._error(
                f"{self.where('/login')}: OpenReview refused the login of {one_line(credentials.username)[:80]!r} "
                f"({refused.status}): check the user name and password ({_LOGIN_HINT})"
            ) from None
        document = answer.document
        token = document.get("token") if isinstance(document, dict) else None
        if not isinstance(token, str) or not token or len(token) > 8192:
            raise self._error(f"{self.where('/login')}: the login answer holds no token")
        self.keep_secret(token)
        self.tokens.save(token, _token_expiry(token))
        self.headers["Authorization"] = f"Bearer {token}"

    def get(self, path: str, params: dict[str, Any]) -> Answer:
        """``GET path`` with the token, logging in when the server asks (once per request).

        Raises:
            FetchError: see :meth:`HttpClient.send` and :meth:`login`.
        """
        for _ in range(2):
            try:
                return self.send("GET", path, params=params)
            except _Refused:
                if self.logged_in:
                    self.tokens.clear()  # expired or revoked: log in again
                self.login()
        try:
            return self.send("GET", path, params=params)
        except _Refused as refused:
            raise self._error(
                f"{self.where(path)}: OpenReview refused the request ({refused.status}) even after a login"
            ) from None


def plain_get(client: HttpClient, path: str, params: dict[str, Any] | None = None, expect_json: bool = True) -> Answer:
    """``GET path`` without a login (Paper Copilot's raw files, the arXiv API).

    Raises:
        FetchError: see :meth:`HttpClient.send`; a ``401``/``403`` is one line too.
    """
    try:
        return client.send("GET", path, params=params, expect_json=expect_json)
    except _Refused as refused:
        raise client._error(f"{client.where(path)}: refused ({refused.status})") from None


def _html(headers: httpx.Headers) -> bool:
    """Whether an answer is served as a web page (``text/html``); an HTML body served as JSON is
    a broken answer, retried."""
    kind: str = headers.get("Content-Type", "")
    return kind.split(";")[0].strip().lower() == "text/html"


def _retry_after(header: str | None, body: bytes) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date) or a body's
    ``resetTime`` (ISO 8601 or ms since the epoch); ``None`` when neither says."""
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            try:
                parsed = email.utils.parsedate_to_datetime(header)
            except (TypeError, ValueError, IndexError):
                parsed = None  # neither seconds nor a date: the backoff decides
            if parsed is not None and parsed.tzinfo is not None:
                return max(0.0, parsed.timestamp() - time.time())
    try:
        reset = orjson.loads(body).get("resetTime")
    except (orjson.JSONDecodeError, AttributeError):
        return None
    if isinstance(reset, int | float) and not isinstance(reset, bool):
        return max(0.0, reset / 1000 - time.time())
    if isinstance(reset, str):
        from datetime import datetime

        try:
            return max(0.0, datetime.fromisoformat(reset.replace("Z", "+00:00")).timestamp() - time.time())
        except ValueError:
            return None
    return None


def _server_message(body: bytes, redact: Callable[[str], str]) -> str:
    """``": <the server's message>"`` from an API error body, one line, short, its secrets redacted
    before it is cut (a secret cut in two would pass the redaction); ``""`` when none."""
    try:
        record = orjson.loads(body)
    except orjson.JSONDecodeError:
        return ""
    message = record.get("message") if isinstance(record, dict) else None
    if not isinstance(message, str) or not message.strip():
        return ""
    return f": {one_line(redact(message[:4000]))[:160]}"


def _token_expiry(token: str) -> float:
    """The ``exp`` claim of a JWT token (seconds since the epoch), ``0`` when it has none."""
    parts = token.split(".")
    if len(parts) != 3:
        return 0.0
    try:
        claims = orjson.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, orjson.JSONDecodeError):
        return 0.0
    exp = claims.get("exp") if isinstance(claims, dict) else None
    return float(exp) if isinstance(exp, int | float) and not isinstance(exp, bool) else 0.0


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    """``(scheme, host, port)`` of ``url``, the port made explicit (``https://h`` is ``https://h:443``)."""
    port = url.port if url.port is not None else {"http": 80, "https": 443}.get(url.scheme)
    return url.scheme, url.host.lower(), port


def _forms(secret: str) -> tuple[str, ...]:
    """The ways ``secret`` may come back: as given, JSON-escaped, URL-quoted."""
    escaped = json.dumps(secret)[1:-1]  # as a server may send it: non-ASCII as \\uXXXX
    raw = json.dumps(secret, ensure_ascii=False)[1:-1]
    quoted = quote(secret, safe="", errors="surrogatepass"), quote(secret, errors="surrogatepass")
    return tuple(dict.fromkeys((secret, raw, escaped, *quoted)))
