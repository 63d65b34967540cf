"""OpenReview credentials and the login token, kept out of config.json, logs and error lines.

The user name and password come from ``OPENREVIEW_USERNAME`` / ``OPENREVIEW_PASSWORD`` (no prompt
then), else from a prompt on a terminal. The password is never stored. The token the login returns
is kept, with the time it expires, in the system keyring when ``keyring`` has a usable backend, else
in ``<data dir>/fetch/openreview-token.json`` with mode ``0600``; an expired token is dropped.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperdeck.store.atomic import atomic_write_bytes

__all__ = ["PASSWORD_ENV", "USERNAME_ENV", "Credentials", "TokenStore", "credentials_from_env"]

USERNAME_ENV = "OPENREVIEW_USERNAME"
PASSWORD_ENV = "OPENREVIEW_PASSWORD"
_KEYRING_SERVICE = "paperdeck-openreview"
_TOKEN_FILE = "openreview-token.json"


@dataclass(frozen=True, slots=True)
class Credentials:
    """A user name and password (``repr`` hides the password)."""

    username: str
    password: str

    def __repr__(self) -> str:
        return f"Credentials(username={self.username!r}, password=…)"


def credentials_from_env() -> Credentials | None:
    """The credentials in ``OPENREVIEW_USERNAME`` / ``OPENREVIEW_PASSWORD``, ``None`` unless both are set."""
    username, password = os.environ.get(USERNAME_ENV, ""), os.environ.get(PASSWORD_ENV, "")
    return Credentials(username, password) if username and password else None


class TokenStore:
    """Where the token for one API base URL is kept: the keyring, else a ``0600`` file in ``directory``.

    A stored token is ``{"token", "expires"}`` (``expires``: seconds since the epoch, ``0`` when
    unknown), keyed by the base URL so that a test server's token never goes to the real API.
    """

    def __init__(self, directory: Path, base_url: str, use_keyring: bool = True) -> None:
        self.directory = directory
        self.base_url = base_url
        self._keyring = _usable_keyring() if use_keyring else None

    @property
    def where(self) -> str:
        """Where the token lives, for the README and ``--help``: ``"the system keyring"`` or the file."""
        return "the system keyring" if self._keyring is not None else str(self.path)

    @property
    def path(self) -> Path:
        """The token file (used when there is no keyring)."""
        return self.directory / _TOKEN_FILE

    def load(self) -> str | None:
        """The stored token while it is valid, else ``None`` (an expired one is removed)."""
        try:
            if self._keyring is not None:
                raw = self._keyring.get_password(_KEYRING_SERVICE, self.base_url)
            else:
                raw = json.loads(self.path.read_text("utf-8")).get(self.base_url) if self.path.exists() else None
        except Exception:  # an unreadable keyring or file: log in again
            return None
        if not isinstance(raw, str):
            return None
        try:
            record = json.loads(raw)
            token, expires = record["token"], float(record.get("expires", 0))
        except (ValueError, KeyError, TypeError):
            return None
        if not isinstance(token, str) or not token or (expires and expires <= time.time()):
            self.clear()
            return None
        return token

    def save(self, token: str, expires: float = 0.0) -> None:
        """Keep ``token`` until ``expires`` (seconds since the epoch; ``0``: until refused)."""
        raw = json.dumps({"token": token, "expires": expires})
        if self._keyring is not None:
            try:
                self._keyring.set_password(_KEYRING_SERVICE, self.base_url, raw)
                return
            except Exception:
                self._keyring = None  # a locked or broken keyring: the file instead
        records = self._file_records()
        records[self.base_url] = raw
        self._write(records)

    def clear(self) -> None:
        """Forget the token (it expired or was refused)."""
        if self._keyring is not None:
            with contextlib.suppress(Exception):
                self._keyring.delete_password(_KEYRING_SERVICE, self.base_url)
            return
        records = self._file_records()
        if records.pop(self.base_url, None) is not None:
            self._write(records)

    def _file_records(self) -> dict[str, str]:
        try:
            records = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in records.items() if isinstance(v, str)} if isinstance(records, dict) else {}

    def _write(self, records: dict[str, str]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, json.dumps(records).encode())
        os.chmod(self.path, 0o600)


def _usable_keyring() -> Any:
    """The keyring module when its backend can keep secrets (not the ``fail`` or ``null`` ones), else ``None``."""
    try:
        import keyring
        from keyring.backends import fail
    except Exception:
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:
        return None
    name = type(backend).__module__ + "." + type(backend).__name__
    if isinstance(backend, fail.Keyring) or "null" in name.lower() or getattr(backend, "priority", 1) <= 0:
        return None
    return keyring
