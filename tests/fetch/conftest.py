"""Fixtures of the fetch tests: the ICLR 2026 slice, a running local API server, no keyring, a login."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from tests.fetch.api_server import PASSWORD, USER, ApiServer, iclr2026_notes
from tests.fetch.helpers import PAPERS


@pytest.fixture(scope="module")
def notes() -> list[dict[str, Any]]:
    return iclr2026_notes(PAPERS)


@pytest.fixture
def server(notes: list[dict[str, Any]]) -> Iterator[ApiServer]:
    with ApiServer(orjson.loads(orjson.dumps(notes))) as running:
        yield running


@pytest.fixture(autouse=True)
def _no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the system keyring or reads the user's login."""
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.delenv("OPENREVIEW_USERNAME", raising=False)
    monkeypatch.delenv("OPENREVIEW_PASSWORD", raising=False)


@pytest.fixture
def login(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENREVIEW_USERNAME", USER)
    monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)
