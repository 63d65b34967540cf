"""Following authors, keywords and queries in the app: the marks on followed papers, the keys that
follow (``a`` an author of the highlighted paper, ``K`` a keyword, the palette's "Follow the
filter's query"), the list of follows (``F``, where ``d`` unfollows), and the notice of new
papers for them after the catalogue was read again.

Kept out of :mod:`paperdeck.ui.screens.main`, which holds a :class:`Following` and sees this
module through it; following acts through the screen's parts (its :class:`ListFilter` and
:class:`Loader`), so this module does not import the main screen (which imports it). Its dialogs are in
:mod:`paperdeck.ui.screens.follow_dialogs`, imported when one first opens.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.app import App
from textual.worker import get_current_worker

from paperdeck.model.errors import StoreError
from paperdeck.ui.screens.list_filter import ListFilter
from paperdeck.ui.screens.loader import Loader

if TYPE_CHECKING:
    from paperdeck.model.paper import Paper
    from paperdeck.store.follows import Follow
    from paperdeck.ui.screens.follow_dialogs import FollowsScreen


class Following:
    """The papers the user's follows match, as the list marks them and the detail pane names them,
    matched again in a worker thread after each change (:meth:`refresh`).

    Args:
        list_filter: the list of the screen the follows are shown on (its store, settings,
            searcher and filter bar).
        loader: the screen's loader (a key's action waits there for the catalogue).
        changed: repaints what shows the papers followed (the rows, the detail pane, a filter
            using ``is:followed``): they are others now.
    """

    #: The worker group of :meth:`refresh`.
    GROUP = "follows"

    def __init__(self, list_filter: ListFilter, loader: Loader, changed: Callable[[], None]) -> None:
        self._filter = list_filter
        self._loader = loader
        self._changed = changed
        self._store = list_filter.store
        self._screen = list_filter.screen
        #: Paper id → the follows that match it, as last matched.
        self.matches: dict[str, tuple[Follow, ...]] = {}
        #: Whether any follow is a query (which may name the user's data: matched again after it changes).
        self._has_query = False
        self._asked = 0  # refreshes asked for: a worker's answer to an older one is not shown
        #: The follows :attr:`matches` was matched for (a follow added since is not counted yet).
        self._counted: frozenset[Follow] = frozenset()
        #: The list of follows while it is open: its counts are filled in as a match lands.
        self._shown: FollowsScreen | None = None

    def is_followed(self, paper_id: str) -> bool:
        """Whether a follow matches the paper (the list's mark)."""
        return paper_id in self.matches

    def reason(self, paper_id: str) -> str:
        """Why the paper is marked (``"following author Jane Doe"``), ``""`` when it is not."""
        follows = self.matches.get(paper_id)
        if not follows:
            return ""
        from paperdeck.search.follows import reason

        return reason(follows)

    def refresh(self, new_ids: Sequence[str] = ()) -> None:
        """Match the follows again in a worker (the catalogue, the follows or the user's data
        changed); then repaint, and when ``new_ids`` (papers the catalogue gained) holds papers a
        follow matches, say so (``"followed: 2 new papers (author Jane Doe 2)"``)."""
        if not self._store.loaded:
            return
        new = tuple(new_ids)
        self._asked += 1
        asked = self._asked
        app = self._screen.app  # taken here: the screen may be gone (the app closing) by when the match ends
        app.run_worker(lambda: self._match(app, new, asked), thread=True, group=self.GROUP, name="match follows")

    def check_file(self) -> None:
        """Match again when another paperdeck (``paperdeck follow``) changed the follows on disk."""
        follows = self._store.follows
        seen = follows.version
        try:
            follows.all()
        except StoreError:
            return  # said when they are matched
        if follows.version != seen:
            self.refresh()

    def user_data_changed(self) -> None:
        """The user's data changed: a query follow (``is:starred decision:oral``) may match others."""
        if self._has_query:
            self.refresh()

    def _match(self, app: App[object], new_ids: tuple[str, ...], asked: int) -> None:
        """In a thread worker of ``app``: match the follows, then hand the matches to the event loop
        (nothing when the app closed meanwhile: its workers are cancelled as it closes)."""
        from paperdeck.search.follows import new_for_follows_line
        from paperdeck.search.selection import followed_by

        try:
            follows = self._store.follows.all()  # before the match: one added meanwhile is matched next
            found = followed_by(self._filter.searcher)
            has_query = any(follow.kind == "query" for follow in follows)
        except StoreError as error:
            _tell(app, self._screen.notify, str(error), title="Cannot read your follows", severity="error")
            return
        line = new_for_follows_line(found, new_ids) if new_ids else None
        _tell(app, self._matched, found, frozenset(follows), has_query, line, asked)

    def _matched(
        self,
        found: dict[str, tuple[Follow, ...]],
        counted: frozenset[Follow],
        has_query: bool,
        line: str | None,
        asked: int,
    ) -> None:
        if asked == self._asked:
            self.matches, self._counted, self._has_query = found, counted, has_query
            self._changed()
            if self._shown is not None and self._shown.is_attached:
                self._shown.show_counts(self._counts())
        if line is not None:
            self._screen.notify(line, title="New for your follows", timeout=8)

    # -- following ------------------------------------------------------------------------------

    def follow_author(self) -> None:
        """Pick one of the highlighted paper's authors and follow them."""
        self._loader.with_highlighted_paper(self._pick_author)

    def _pick_author(self, paper: Paper) -> None:
        if not paper.authors:
            self._screen.notify("This paper names no authors (the list it came from had none).")
            return
        from paperdeck.ui.screens.follow_dialogs import AuthorPicker

        self._screen.app.push_screen(AuthorPicker(paper.authors), lambda name: self._follow("author", name))

    def follow_keyword(self) -> None:
        """Ask for a keyword and follow it."""
        from paperdeck.ui.screens.follow_dialogs import KeywordPrompt

        self._screen.app.push_screen(KeywordPrompt(), lambda keyword: self._follow("keyword", keyword))

    def follow_query(self) -> None:
        """Follow the filter bar's query."""
        text = self._filter.filter_text.strip()
        if not text:
            self._screen.notify("Nothing to follow: type a query in the filter bar first.")
            return
        self._follow("query", text)

    def _follow(self, kind: str, value: str | None) -> None:
        if value is None:
            return
        from paperdeck.search.follows import check_follow
        from paperdeck.search.views import all_views
        from paperdeck.store.follows import Follow

        store, notify = self._store, self._screen.notify
        views = {view.name: view.query for view in all_views(self._filter.settings.settings.views)}
        try:
            kind, value = check_follow(kind, value, views)
            added = store.follows.add(kind, value)
        except ValueError as error:
            notify(f"Not followed: {error}.", severity="warning", timeout=4)
            return
        except StoreError as error:
            notify(str(error), title="Not followed", severity="error")
            return
        label = Follow(kind, value).label
        notify(f"Following {label}." if added is not None else f"Already following {label}.")
        if added is not None:
            self.refresh()

    def show_follows(self) -> None:
        """The list of follows, where ``d`` unfollows one and ``enter`` shows one's papers (the
        filter bar gets :func:`~paperdeck.search.follows.follow_query`)."""
        try:
            follows = self._store.follows.all()
        except StoreError as error:
            self._screen.notify(str(error), title="Cannot read your follows", severity="error")
            return
        from paperdeck.ui.screens.follow_dialogs import FollowsScreen

        def chosen(follow: Follow | None) -> None:
            self._shown = None
            if follow is not None:
                from paperdeck.search.follows import follow_query

                self._filter.show_query(follow_query(follow))

        self._shown = FollowsScreen(follows, self._counts(), self._unfollow)
        self._screen.app.push_screen(self._shown, chosen)

    def _counts(self) -> dict[Follow, int]:
        """How many papers each follow matched, as last matched; a follow added since (not matched
        yet) is left out, and the list of follows shows it as being counted."""
        counts = dict.fromkeys(self._counted, 0)
        for found in self.matches.values():
            for follow in found:
                counts[follow] = counts.get(follow, 0) + 1
        return counts

    def _unfollow(self, follow: Follow) -> Sequence[Follow]:
        store = self._store
        try:
            store.follows.remove(follow.kind, follow.value)
        except StoreError as error:
            self._screen.notify(str(error), title="Not unfollowed", severity="error")
        self.refresh()
        return store.follows.all()


def _tell(app: App[object], callback: Callable[..., object], *args: object, **kwargs: object) -> None:
    """Run ``callback`` on ``app``'s event loop, from its thread worker; nothing once the app is
    closing (the worker cancelled) or closed."""
    if get_current_worker().is_cancelled:
        return
    with contextlib.suppress(RuntimeError):  # "App is not running": closed since the look above
        app.call_from_thread(callback, *args, **kwargs)
