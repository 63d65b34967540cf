"""What the user typed into a prompt closed with escape, kept for the next time that prompt opens
on the same paper(s) for the same purpose (the app's run only): escape closes without acting, but
never throws away what was typed. A prompt that acts (or closes on an empty answer) drops its
draft.

A draft's key is the prompt's purpose and what it acts on (``("tags", ids)``, ``("export", ids)``,
``("save_view", query)``…); its value is what the prompt shows (a line of text, the venues ticked).
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from typing import Any

from textual.app import App

__all__ = ["drafts_of"]

#: Each app's drafts, by key.
_DRAFTS: weakref.WeakKeyDictionary[App[Any], dict[Hashable, object]] = weakref.WeakKeyDictionary()


def drafts_of(app: App[Any]) -> dict[Hashable, object]:
    """``app``'s drafts by key (made empty at first use)."""
    return _DRAFTS.setdefault(app, {})
