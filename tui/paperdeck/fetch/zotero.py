"""Send papers to a running Zotero through its connector server, the local HTTP server Zotero's
browser connectors talk to (zotero/zotero ``chrome/content/zotero/xpcom/server/server_connector.js``).

::

    result = push_to_zotero(ris_records(papers, users), len(papers), settings.zotero_url)
    print(result.line)

The exchange, as Zotero's server reads it:

1. ``GET /connector/ping``: Zotero answers ``200`` (an HTML page, "Zotero is running"). No
   connection at all means Zotero is not running (or its "Allow other applications on this
   computer to communicate with Zotero" is off): :class:`ZoteroNotRunning`, and nothing is sent.
2. ``POST /connector/import?session=ID`` with the RIS text as the body (``text/plain``, UTF-8).
   Zotero picks an import translator for the text (RIS), imports the items into the library or
   collection selected in its window, and answers ``201`` with a JSON array of the items made. It
   answers ``400`` when no translator reads the text, ``409`` when the session id was used
   before, ``500`` when the selected library is read-only. Every request carries
   ``Zotero-Allowed-Request: 1`` (and the connector API version, 3): Zotero refuses a
   ``text/plain`` POST without one of them (it could be a web page's, sent without a CORS check).

Both go through :class:`paperdeck.fetch.client.HttpClient`, one try each (a retried import could
import twice), within :class:`ZoteroLimits`: a Zotero that hangs is given up on after the
request's deadline, a body over the size limit is not read, a redirect to another origin is not
followed (the notes in the RIS are private). Every failure is one :class:`ZoteroError` line;
nothing here prints.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import httpx

from paperdeck.fetch.client import Answer, FetchError, HttpClient, Limits, NoAnswer
from paperdeck.model.errors import PaperdeckError
from paperdeck.model.safe_text import one_line

__all__ = ["ZOTERO_HEADERS", "ZoteroError", "ZoteroLimits", "ZoteroNotRunning", "ZoteroPush", "push_to_zotero"]

#: The headers of every request: Zotero serves a ``text/plain`` POST only with one of the first two.
ZOTERO_HEADERS = {"Zotero-Allowed-Request": "1", "X-Zotero-Connector-API-Version": "3"}


class ZoteroError(PaperdeckError):
    """Sending to Zotero failed; ``str(error)`` is one line saying what Zotero answered, or that it
    did not answer in time."""


class ZoteroNotRunning(ZoteroError):
    """No Zotero listens at the address (no connection to ``/connector/ping``): nothing was sent."""


@dataclass(frozen=True, slots=True)
class ZoteroLimits:
    """How long a Zotero is waited for, in seconds, and the largest answer read.

    Attributes:
        connect_s: to connect (a local server connects at once, or refuses at once).
        ping_s: for the ping's whole answer.
        import_s: for the import's whole answer: Zotero answers once every paper is imported
            (a few hundred papers take Zotero some seconds).
        max_body_bytes: the largest answer read (the import's answer lists every item made).
    """

    connect_s: float = 3.0
    ping_s: float = 10.0
    import_s: float = 120.0
    max_body_bytes: int = 16 * 1024 * 1024

    def http(self, request_s: float) -> Limits:
        """The :class:`Limits` of one request of at most ``request_s`` seconds, tried once."""
        return Limits(
            budget=1, attempts=1, connect_attempts=1, timeout_s=request_s, connect_timeout_s=self.connect_s,
            max_body_bytes=self.max_body_bytes, request_deadline_s=request_s, deadline_s=request_s,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ZoteroPush:
    """What a push did.

    Attributes:
        papers: the papers sent.
        items: the items Zotero says it made (its answer's array), ``None`` when its answer holds
            no such array.
        url: the Zotero address (scheme, host, port) sent to.
    """

    papers: int
    items: int | None
    url: str

    @property
    def line(self) -> str:
        """One line for the user: ``sent 3 papers to Zotero (3 items imported)``."""
        made = "" if self.items is None else f" ({self.items:,} item{'' if self.items == 1 else 's'} imported)"
        return f"sent {self.papers:,} paper{'' if self.papers == 1 else 's'} to Zotero{made}"


def push_to_zotero(ris: str, papers: int, url: str, limits: ZoteroLimits | None = None) -> ZoteroPush:
    """Send ``ris`` (the RIS text of ``papers`` papers, :func:`paperdeck.export.ris.ris_records`)
    to the Zotero whose connector server is at ``url`` (``http://127.0.0.1:23119``): ping, then
    import (see the module docstring).

    Raises:
        ZoteroNotRunning: nothing listens at ``url``; nothing was sent.
        ZoteroError: ``url`` is no ``http(s)`` address; the ping or the import answered an error
            status, or did not answer within :class:`ZoteroLimits` (then the papers may or may not
            be in Zotero).
    """
    limits = limits or ZoteroLimits()
    base = url.strip().rstrip("/")
    try:
        parsed = httpx.URL(base)
    except (httpx.InvalidURL, ValueError):
        parsed = None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
        raise ZoteroError(
            f"zotero_url {one_line(url)[:80]!r} is not an http:// address (default http://127.0.0.1:23119)"
        )
    where = one_line(f"{parsed.scheme}://{parsed.host}" + (f":{parsed.port}" if parsed.port is not None else ""))
    _exchange(base, where, "GET", "/connector/ping", limits.http(limits.ping_s), limits)
    answer = _exchange(
        base, where, "POST", "/connector/import", limits.http(limits.import_s), limits,
        params={"session": f"paperdeck-{secrets.token_hex(8)}"}, content=ris.encode("utf-8", "surrogatepass"),
    )  # fmt: skip
    made = answer.document
    return ZoteroPush(papers, len(made) if isinstance(made, list) else None, where)


#: What Zotero's import answers mean (server_connector.js), after "Zotero did not import the papers".
_IMPORT_STATUS = {
    400: "it found no translator for the RIS text (400)",
    409: "its import session was in use (409); send again",
    500: "its selected library is read-only, or the import failed (500): select My Library in Zotero",
}


def _exchange(
    base: str, where: str, method: str, path: str, http: Limits, limits: ZoteroLimits,
    *, params: dict[str, str] | None = None, content: bytes | None = None,
) -> Answer:  # fmt: skip
    """One request, tried once, within ``http``'s bounds; its answer (its JSON parsed when it is
    JSON), or one line why not (see :func:`push_to_zotero`)."""
    client = HttpClient(base, http)
    client.headers.update(ZOTERO_HEADERS)
    importing = path == "/connector/import"
    seconds = limits.import_s if importing else limits.ping_s
    kind = "text/plain; charset=utf-8" if content is not None else ""
    try:  # one try: an import is never repeated
        status, body = client.exchange_once(method, path, seconds, params=params, content=content, content_type=kind)
    except NoAnswer as error:
        if error.connecting:
            raise ZoteroNotRunning(
                f"Zotero is not running at {where} (no connection): start Zotero (and allow other applications "
                "to communicate with it), or set zotero_url in config.json; nothing was sent"
            ) from None
        timed_out = "took over" in error.reason or "timed out" in error.reason
        reason = f"did not answer within {seconds:g} s" if timed_out else f"sent {error.reason}"
        raise ZoteroError(f"Zotero at {where} {reason}{_AFTER[importing]}") from None
    except FetchError as error:  # a redirect elsewhere, an answer over the size limit
        raise ZoteroError(f"Zotero at {where}: {str(error).split(': ', 1)[-1]}"[:300]) from None
    finally:
        client.close()
    if not 200 <= status < 300:
        if not importing:
            what = "no Zotero connector there" if status == 404 else "the ping failed"
            raise ZoteroError(f"Zotero at {where}: {what} ({status}){_AFTER[False]}")
        said = _IMPORT_STATUS.get(status, f"it answered {status}")
        raise ZoteroError(f"Zotero at {where} did not import the papers: {said}")
    if importing and body.lstrip()[:1] in (b"[", b"{"):
        import orjson

        try:
            return Answer(body, orjson.loads(body))
        except orjson.JSONDecodeError:
            pass
    return Answer(body)


#: What a failed request leaves, said after it: the ping sent nothing; an import cut short may
#: have imported some papers.
_AFTER = {
    False: "; nothing was sent",
    True: "; the papers may or may not be in Zotero: look there before sending them again",
}
