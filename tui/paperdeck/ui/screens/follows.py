"""Following authors, keywords and queries in the app: the marks on followed papers, the keys that
follow (``a`` an author of the highlighted paper, ``K`` a keyword, the palette's "Follow the
filter's query"), the list of follows (``F``, where ``d`` unfollows), and the notice of new
papers for them after the catalogue was read again.

Kept out of :mod:`paperdeck.ui.screens.main`, which holds a :class:`Following` and sees this
module through it; the screen is seen through :class:`FollowHost`, so this module does not
import the main screen (which imports it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import one_line
from paperdeck.store.follows import Follow
from paperdeck.store.settings import SettingsFile
from paperdeck.store.store import Store
from paperdeck.ui.screens.confirm import ConfirmScreen

if TYPE_CHECKING:
    from paperdeck.search.searcher import Searcher


class FollowHost(Protocol):
    """What following needs of the screen it acts for (the main screen)."""

    store: Store
    settings: SettingsFile
    searcher: Searcher

    @property
    def app(self) -> App[object]: ...

    @property
    def filter_text(self) -> str: ...

    def with_highlighted_paper(self, use: Callable[[Paper], object]) -> None:
        """Call ``use`` with the highlighted paper, now or once the catalogue is parsed (nothing
        highlighted: said, and ``use`` is not called)."""

    def follows_changed(self) -> None:
        """Repaint the rows and the detail pane: the papers followed are others now."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


class Following:
    """The papers the user's follows match, as the list marks them and the detail pane names them,
    matched again in a worker thread after each change (:meth:`refresh`).

    Args:
        host: the screen the follows are shown on.
    """

    #: The worker group of :meth:`refresh`.
    GROUP = "follows"

    def __init__(self, host: FollowHost) -> None:
        self._host = host
        #: Paper id → the follows that match it, as last matched.
        self.matches: dict[str, tuple[Follow, ...]] = {}
        #: Whether any follow is a query (which may name the user's data: matched again after it changes).
        self._has_query = False
        self._asked = 0  # refreshes asked for: a worker's answer to an older one is not shown

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
        host = self._host
        if not host.store.loaded:
            return
        new = tuple(new_ids)
        self._asked += 1
        asked = self._asked
        host.app.run_worker(lambda: self._match(new, asked), thread=True, group=self.GROUP, name="match follows")

    def check_file(self) -> None:
        """Match again when another paperdeck (``paperdeck follow``) changed the follows on disk."""
        follows = self._host.store.follows
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

    def _match(self, new_ids: tuple[str, ...], asked: int) -> None:
        from paperdeck.search.follows import new_for_follows_line
        from paperdeck.search.selection import followed_by

        host = self._host
        try:
            found = followed_by(host.searcher)
            has_query = any(follow.kind == "query" for follow in host.store.follows.all())
        except StoreError as error:
            host.app.call_from_thread(host.notify, str(error), title="Cannot read your follows", severity="error")
            return
        line = new_for_follows_line(found, new_ids) if new_ids else None
        host.app.call_from_thread(self._matched, found, has_query, line, asked)

    def _matched(self, found: dict[str, tuple[Follow, ...]], has_query: bool, line: str | None, asked: int) -> None:
        if asked == self._asked:
            self.matches, self._has_query = found, has_query
            self._host.follows_changed()
        if line is not None:
            self._host.notify(line, title="New for your follows", timeout=8)

    # -- following ------------------------------------------------------------------------------

    def follow_author(self) -> None:
        """Pick one of the highlighted paper's authors and follow them."""
        self._host.with_highlighted_paper(self._pick_author)

    def _pick_author(self, paper: Paper) -> None:
        if not paper.authors:
            self._host.notify("This paper names no authors (the list it came from had none).", timeout=3)
            return
        self._host.app.push_screen(AuthorPicker(paper.authors), lambda name: self._follow("author", name))

    def follow_keyword(self) -> None:
        """Ask for a keyword and follow it."""
        self._host.app.push_screen(KeywordPrompt(), lambda keyword: self._follow("keyword", keyword))

    def follow_query(self) -> None:
        """Follow the filter bar's query."""
        text = self._host.filter_text.strip()
        if not text:
            self._host.notify("Nothing to follow: type a query in the filter bar first.", timeout=3)
            return
        self._follow("query", text)

    def _follow(self, kind: str, value: str | None) -> None:
        if value is None:
            return
        from paperdeck.search.follows import check_follow
        from paperdeck.search.views import all_views

        host = self._host
        views = {view.name: view.query for view in all_views(host.settings.settings.views)}
        try:
            kind, value = check_follow(kind, value, views)
            added = host.store.follows.add(kind, value)
        except ValueError as error:
            host.notify(f"Not followed: {error}.", severity="warning", timeout=4)
            return
        except StoreError as error:
            host.notify(str(error), title="Not followed", severity="error")
            return
        label = Follow(kind, value).label
        host.notify(f"Following {label}." if added is not None else f"Already following {label}.", timeout=3)
        if added is not None:
            self.refresh()

    def show_follows(self) -> None:
        """The list of follows, where ``d`` unfollows one."""
        try:
            follows = self._host.store.follows.all()
        except StoreError as error:
            self._host.notify(str(error), title="Cannot read your follows", severity="error")
            return
        counts: dict[Follow, int] = {}
        for found in self.matches.values():
            for follow in found:
                counts[follow] = counts.get(follow, 0) + 1
        self._host.app.push_screen(FollowsScreen(follows, counts, self._unfollow))

    def _unfollow(self, follow: Follow) -> Sequence[Follow]:
        store = self._host.store
        try:
            store.follows.remove(follow.kind, follow.value)
        except StoreError as error:
            self._host.notify(str(error), title="Not unfollowed", severity="error")
        self.refresh()
        return store.follows.all()


class AuthorPicker(ModalScreen[str | None]):
    """Pick one of a paper's authors to follow; dismisses with the name, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="follow_author.cancel")]

    DEFAULT_CSS = """
    #authors {
        height: auto;
        max-height: 16;
    }
    """

    def __init__(self, authors: Sequence[str]) -> None:
        super().__init__()
        self._authors = list(authors)

    def compose(self) -> ComposeResult:
        with Vertical(id="author-dialog", classes="prompt"):
            yield Label("Follow which author?", classes="prompt-title")
            options = (Option(Content(one_line(name)), id=str(n)) for n, name in enumerate(self._authors))
            yield OptionList(*options, id="authors")
            yield Label("enter follows · escape cancels", classes="prompt-help")

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._authors[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)


class KeywordPrompt(ModalScreen[str | None]):
    """Ask for a keyword to follow; dismisses with it, or ``None`` on escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", id="follow_keyword.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="keyword-dialog", classes="prompt"):
            yield Label("Follow a keyword", classes="prompt-title")
            yield Label("Papers with it in the title, keywords or abstract are marked.", classes="prompt-help")
            yield Input(placeholder="e.g. diffusion, graph neural network", id="keyword-input")
            yield Label("enter follows · escape cancels", classes="prompt-help")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value if event.value.strip() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class FollowsScreen(ModalScreen[None]):
    """The follows with how many papers each matches; ``d`` unfollows one (after asking).

    Args:
        follows: the follows, in the order followed.
        counts: how many papers each matches now.
        unfollow: stop following one; returns the follows left.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,F,q", "close", "Close", id="follows.close"),
        Binding("d,delete", "unfollow", "Unfollow", id="follows.unfollow"),
        Binding("j", "move(1)", "Down", show=False, id="follows.down"),
        Binding("k", "move(-1)", "Up", show=False, id="follows.up"),
    ]

    DEFAULT_CSS = """
    #follows {
        height: auto;
        max-height: 16;
    }
    """

    def __init__(
        self, follows: Sequence[Follow], counts: dict[Follow, int], unfollow: Callable[[Follow], Sequence[Follow]]
    ) -> None:
        super().__init__()
        self._follows = list(follows)
        self._counts = counts
        self._unfollow = unfollow

    def compose(self) -> ComposeResult:
        with Vertical(id="follows-dialog", classes="prompt"):
            yield Label("Following", classes="prompt-title")
            yield OptionList(id="follows")
            yield Label("d unfollows · escape closes", classes="prompt-help")

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        options = self.query_one(OptionList)
        highlighted = options.highlighted or 0
        options.clear_options()
        if not self._follows:
            text = "Nothing followed yet: a follows an author of the highlighted paper, K a keyword."
            options.add_option(Option(Content(text), disabled=True))
            return
        for follow in self._follows:
            count = self._counts.get(follow, 0)
            options.add_option(Option(Content(f"{count:>6,}  {one_line(follow.label)}")))
        options.highlighted = min(highlighted, len(self._follows) - 1)

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if step > 0:
            options.action_cursor_down()
        else:
            options.action_cursor_up()

    def action_unfollow(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None or not self._follows:
            return
        follow = self._follows[index]

        def answered(yes: bool | None) -> None:
            if yes:
                self._follows = list(self._unfollow(follow))
                self._fill()

        self.app.push_screen(ConfirmScreen(one_line(f"Stop following {follow.label}?"), yes="Unfollow"), answered)

    def action_close(self) -> None:
        self.dismiss(None)
