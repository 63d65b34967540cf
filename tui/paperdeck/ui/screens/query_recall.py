"""The filter bar's recall of the queries run (``Up`` / ``Down`` in the bar), as shells and fzf
recall theirs: the history (:class:`~paperdeck.store.query_history.QueryHistory`, kept across
restarts) is read at the first recall or the first query kept, and written in a thread.

A query is kept when it is run and left (enter or ↓ back to the list) and when escape clears it,
so the query just cleared is the first ``Up`` brings back. ``Up`` shows older queries, ``Down``
newer ones and at last the text that was in the bar when the recall began; ``Down`` with no
recall under way is the bar's own (back to the list). Typing in the bar ends the recall.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import StoreError

if TYPE_CHECKING:
    from pathlib import Path

    from textual.screen import Screen
    from textual.widgets import Input

    from paperdeck.store.query_history import QueryHistory

__all__ = ["QueryRecall"]


class QueryRecall:
    """The recall of past queries into ``screen``'s filter bar (the ``Input`` given to each call)
    from ``data_dir``'s history."""

    def __init__(self, screen: Screen[Any], data_dir: Path) -> None:
        self._screen = screen
        self._data_dir = data_dir
        self._history: QueryHistory | None = None
        self._at = -1  # the history's index shown; -1: the text the recall began from
        self._draft = ""
        self._shown: str | None = None  # the text the recall put in the bar
        self._writing = threading.Lock()

    @property
    def history(self) -> QueryHistory:
        """The history, read at first need."""
        if self._history is None:
            from paperdeck.store.query_history import QueryHistory

            self._history = QueryHistory(self._data_dir)
        return self._history

    def older(self, bar: Input) -> bool:
        """Show the query before the one shown (the newest when no recall is under way, skipping
        the text in the bar); ``False`` (nothing changed) when there is none."""
        queries = self.history.queries
        if bar.value != self._shown:
            self._at, self._draft = -1, bar.value
        at = self._at + 1
        while at < len(queries) and queries[at] == bar.value.strip():
            at += 1
        if at >= len(queries):
            return False
        self._at = at
        self._show(bar, queries[at])
        return True

    def newer(self, bar: Input) -> bool:
        """Show the query after the one shown, at last the text the recall began from; ``False``
        (nothing changed) when no recall is under way."""
        if self._at < 0 or bar.value != self._shown:
            self._at = -1
            return False
        self._at -= 1
        self._show(bar, self.history.queries[self._at] if self._at >= 0 else self._draft)
        return True

    def _show(self, bar: Input, text: str) -> None:
        self._shown = text
        bar.value = text
        bar.cursor_position = len(text)

    def keep(self, query: str) -> None:
        """Keep ``query`` (not blank) as the newest, written in a thread (a failure said in one
        line); the recall starts again from the newest."""
        self._at, self._shown = -1, None
        if not query.strip():
            return
        history = self.history
        from paperdeck.store.query_history import kept_queries

        history.queries = kept_queries([query, *history.queries])  # recalled at once
        self._screen.run_worker(lambda: self._write(query), thread=True, group="query-history")

    def _write(self, query: str) -> None:
        with self._writing:
            try:
                self.history.add(query)
            except StoreError as error:
                message = f"The query history was not saved: {error}"
                self._screen.app.call_from_thread(self._screen.notify, message, severity="warning", markup=False)
