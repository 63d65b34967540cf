"""Watchers of a long-lived node let go once the widgets that made them are gone.

A widget that watches another node's reactive (``watch``, or ``data_bind`` in a ``compose``) is
kept in that node's list of watchers, which Textual prunes only when the reactive changes (its
``Reactive._check_watchers``; Textual issue #6666). Textual's ``Footer`` binds every key's
``compact`` to its own and is composed anew at each screen change: the keys of each composition
stayed in the footer's list, and every widget, style and message queue with them.
"""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode


def drop_gone_watchers(node: DOMNode, attribute: str) -> int:
    """Take out of ``node``'s watchers of ``attribute`` those whose widget is closing or no longer
    in the DOM (Textual's own rule, applied without waiting for the reactive to change): how many
    were taken out."""
    watchers: dict[str, list[tuple[Any, Any]]] = getattr(node, "__watchers", {})
    entries = watchers.get(attribute)
    if not entries:
        return 0
    kept = [(watcher, callback) for watcher, callback in entries if watcher.is_attached and not watcher._closing]
    dropped = len(entries) - len(kept)
    entries[:] = kept
    return dropped
