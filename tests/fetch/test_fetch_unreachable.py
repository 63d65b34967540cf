"""A server that cannot be reached (no network, a mirror's address wrong) is given up on soon,
never silently: the fetch says which server it asks and each retry it waits for, connecting is
bounded by a few seconds and a few tries, and every line names the mirror's whole base URL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from paperdeck.cli.main import main
from paperdeck.fetch import client as client_module
from paperdeck.fetch.client import FetchError, HttpClient, Limits, plain_get

from tests.fetch.hostile_server import closed_port as hostile_closed_port


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (connections are refused at once), held for the
    rest of the process (:func:`tests.fetch.hostile_server.closed_port`)."""
    return int(hostile_closed_port().rsplit(":", 1)[1])


def test_connecting_is_bounded_by_a_few_seconds_reading_is_not() -> None:
    client = HttpClient("http://127.0.0.1:9")
    try:
        timeout = client._http.timeout
        assert timeout.connect is not None and timeout.connect <= 5.0
        assert timeout.read == Limits().timeout_s
    finally:
        client.close()


def test_a_refused_connection_is_tried_a_few_times_each_said_then_one_line_with_the_base_path() -> None:
    port = closed_port()
    base = f"http://127.0.0.1:{port}/mirror/api"
    waits: list[float] = []
    said: list[str] = []
    client = HttpClient(base + "/", sleep=waits.append, notice=said.append)
    try:
        with pytest.raises(FetchError) as failed:
            plain_get(client, "/notes", {"invitation": "x"})
    finally:
        client.close()
    tries = Limits().connect_attempts
    assert tries <= 3 and client.requests == tries and len(waits) == tries - 1
    assert str(failed.value).startswith(f"{base}/notes: connection failed (ConnectError), {tries} tries; ")
    assert len(said) == tries - 1
    assert all(line.startswith(f"{base}/notes: connection failed (ConnectError); trying again in ") for line in said)
    assert said[0].endswith(f"(try 2 of {tries})")


def test_a_connect_timeout_is_said_as_such() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out", request=request)

    said: list[str] = []
    client = HttpClient("https://mirror.example/or/api", sleep=lambda _s: None, notice=said.append)
    client._http = httpx.Client(transport=httpx.MockTransport(handler))
    with pytest.raises(FetchError, match=r"^https://mirror\.example/or/api/notes: no connection within 5 s, 3 tries"):
        plain_get(client, "/notes")
    assert len(said) == 2


def test_the_fetch_command_says_what_it_waits_for_and_keeps_the_base_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = f"http://127.0.0.1:{closed_port()}/mirror/api"
    monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", base)
    monkeypatch.delenv("OPENREVIEW_USERNAME", raising=False)
    monkeypatch.delenv("OPENREVIEW_PASSWORD", raising=False)
    monkeypatch.setattr(client_module.time, "sleep", lambda _s: None)
    code = main(["fetch", "iclr2026", "--data-dir", str(tmp_path / "data")])
    lines = capsys.readouterr().err.splitlines()
    assert code == 2
    assert lines[0] == f"paperdeck: fetching iclr2026 from {base}"
    refused = f"paperdeck: {base}/groups: connection failed (ConnectError)"  # the venue's group is asked first
    assert [line.split(";")[0] for line in lines[1:3]] == [refused] * 2
    assert lines[-1].startswith(f"paperdeck: {base}/groups: connection failed (ConnectError), 3 tries; ")
    assert len(lines) == 4


def test_offline_before_any_page_says_nothing_was_fetched_not_that_pages_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", base)
    monkeypatch.delenv("OPENREVIEW_USERNAME", raising=False)
    monkeypatch.delenv("OPENREVIEW_PASSWORD", raising=False)
    monkeypatch.setattr(client_module.time, "sleep", lambda _s: None)
    assert main(["fetch", "iclr2026", "--data-dir", str(tmp_path / "data")]) == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.endswith("; cannot reach 127.0.0.1: no connection; nothing was fetched"), last
    assert "pages fetched so far" not in last


def test_a_budget_spent_on_failed_connections_says_the_host_cannot_be_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tester's find: ``--budget 2`` said "try 3 of 3", then blamed the budget, when every try
    had failed to connect. The tries are bounded by the budget left, and the last line says the
    host cannot be reached, as the default budget does."""
    base = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("PAPERDECK_OPENREVIEW_URL", base)
    monkeypatch.delenv("OPENREVIEW_USERNAME", raising=False)
    monkeypatch.delenv("OPENREVIEW_PASSWORD", raising=False)
    monkeypatch.setattr(client_module.time, "sleep", lambda _s: None)
    assert main(["fetch", "iclr2026", "--budget", "2", "--data-dir", str(tmp_path / "data")]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[-2].endswith("(try 2 of 2)"), lines
    assert lines[-1].endswith(", 2 tries; cannot reach 127.0.0.1: no connection; nothing was fetched"), lines
    assert not any("budget" in line for line in lines)


class _Body(httpx.SyncByteStream):
    """A body read as the client reads a network's: streamed (``httpx.Response(content=…)`` is
    read at once, and the client's streamed read would find it consumed)."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    def __iter__(self) -> Iterator[bytes]:
        yield self._body


def test_a_budget_spent_on_retries_after_pages_came_says_so() -> None:
    """The budget runs out on a retry once pages came: the line names the failure and the budget."""
    statuses = iter([200, 503, 503])

    def handler(request: httpx.Request) -> httpx.Response:
        status = next(statuses)
        body = b'{"notes": []}' if status == 200 else b""
        return httpx.Response(status, stream=_Body(body))

    client = HttpClient("https://mirror.example", limits=Limits(budget=2), sleep=lambda _s: None, notice=None)
    client._http = httpx.Client(transport=httpx.MockTransport(handler))
    plain_get(client, "/notes")
    with pytest.raises(FetchError) as failed:
        plain_get(client, "/notes")
    assert ": server error (503), 1 try; the budget of 2 requests for one run is spent; " in str(failed.value)


def test_a_source_that_is_no_venue_has_one_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", "not a venue", "--data-dir", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("paperdeck: 'not a venue' is not a venue: "), err
    assert err[-1].count("paperdeck") == 1
