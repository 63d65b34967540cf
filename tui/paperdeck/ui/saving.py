"""Saving the user's settings from the UI: the change is written at once, and a file that cannot
be written is a message on screen, never a crash. While the settings file could not be read at
start (it is then never written over), the first change that cannot be kept says so, once."""

from __future__ import annotations

import weakref
from typing import Any

from textual.app import App
from textual.widget import Widget

from paperdeck.model.errors import StoreError
from paperdeck.store.settings import SettingsFile

#: The settings files whose changes were said to be unsaved (each once per run).
_TOLD_UNSAVED: weakref.WeakSet[SettingsFile] = weakref.WeakSet()

#: What the first change not saved (a settings file that could not be read) says.
UNSAVED = "the settings file could not be read at start, so it is left as it is; changes apply until paperdeck closes"


def say_unsaved_once(node: Widget | App[Any], settings: SettingsFile) -> None:
    """On the event loop: when ``settings`` is never written (:attr:`SettingsFile.problem`), say
    so the first time a change is not saved; later changes say nothing more."""
    if settings.problem is None or settings in _TOLD_UNSAVED:
        return
    _TOLD_UNSAVED.add(settings)
    node.notify(f"{settings.path.name}: {UNSAVED}.", title="Settings not saved", severity="warning", markup=False)


def save_settings(node: Widget | App[Any], settings: SettingsFile, **changes: object) -> bool:
    """Change and persist ``settings`` (keys of :class:`~paperdeck.store.settings.Settings`); on a
    write failure ``node`` shows it as an error (it stays until dismissed), and a file that is
    never written says so once (:func:`say_unsaved_once`). Returns whether the settings were saved."""
    try:
        settings.update(**changes)
    except StoreError as error:
        node.notify(str(error), title="Settings not saved", severity="error", markup=False)
        return False
    if settings.problem is not None:
        say_unsaved_once(node, settings)
        return False
    return True
