"""Saving the user's settings from the UI: the change is written at once, and a file that cannot
be written is a message on screen, never a crash."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widget import Widget

from paperdeck.model.errors import StoreError
from paperdeck.store.settings import SettingsFile


def save_settings(node: Widget | App[Any], settings: SettingsFile, **changes: object) -> bool:
    """Change and persist ``settings`` (keys of :class:`~paperdeck.store.settings.Settings`); on a
    write failure ``node`` shows it as an error (it stays until dismissed). Returns whether the settings were saved."""
    try:
        settings.update(**changes)
    except StoreError as error:
        node.notify(str(error), title="Settings not saved", severity="error", markup=False)
        return False
    return True
