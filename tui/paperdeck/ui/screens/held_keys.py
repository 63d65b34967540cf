"""The keys held while the list does not answer the typed query yet.

A tester typed a query, pressed enter and ``space j space s`` while the counts still said
"searching…": the old list on screen took the keys, and three papers the user never saw were
starred. The main screen's :class:`HeldKeys` holds such keys until the results are shown, then
runs them on the results, in order.

Another paperdeck may take the highlighted paper away (an import that removes it, a change of the
user data under a list that reads it): the list then highlights its neighbour, and a key pressed
for the paper must not act on that neighbour unseen. :meth:`HeldKeys.highlight_moved` says so in
one line, drops the keys held for the paper, and drops the row keys that come before the moved
highlight is painted.
"""

from __future__ import annotations

from typing import Any

from textual.dom import DOMNode
from textual.screen import Screen

from paperdeck.ui.commands import HELD_ACTIONS
from paperdeck.ui.screens.list_filter import ListFilter

#: The main screen's actions never held behind a pending search: the filter bar's own keys, and
#: escape (which drops the keys held).
NEVER_HELD = frozenset({"focus_filter", "leave_filter", "escape"})


class HeldKeys:
    """The row and mark keys (action, the node it runs on) typed on ``screen`` while the list of
    ``list_filter`` does not answer the filter yet (:attr:`ListFilter.stale`: a search, a sort or a
    reload pending), and the filter (text, starred-only) they were typed for. The list filter
    tells :meth:`answered` when a result or a hint replaces the stale list."""

    def __init__(self, screen: Screen[Any], list_filter: ListFilter) -> None:
        self._screen = screen
        self._filter = list_filter
        list_filter.answered = self.answered
        list_filter.highlight_lost = self.highlight_moved
        self._held: list[tuple[str, DOMNode]] = []
        self._held_for: tuple[str, bool] = ("", False)
        #: The highlight moved off a paper another process took away, and that is not painted yet.
        self._moved_unseen = False

    def hold(self, action: str, target: DOMNode) -> bool:
        """Hold ``action`` (run on ``target``: the screen or its list) while the list shown does
        not answer the typed query yet; True when held. An action on the rows or the marks
        (:data:`~paperdeck.ui.commands.HELD_ACTIONS`: star, status, mark, remove, export…) is held
        rather than run on papers the user never meant, and run once the results are shown;
        behind it every later key of the list waits too, so that ``space j space`` marks the first
        and third results. Moves and reading keys pressed before any is held stay live, as do the
        filter bar's keys."""
        screen, list_filter = self._screen, self._filter
        if target is not screen and target is not list_filter.paper_list:
            return False
        name = action.split("(", 1)[0]
        if self._moved_unseen and name in HELD_ACTIONS:  # typed for the paper that was highlighted
            screen.notify(
                "A key was dropped: the highlighted paper changed before it was shown.", severity="warning", timeout=6
            )
            return True
        if not list_filter.stale:
            return False
        if name in NEVER_HELD or (not self._held and name not in HELD_ACTIONS):
            return False
        if not self._held:
            self._held_for = (list_filter.filter_text, list_filter.starred_only)
            doing = "sorting" if list_filter.sort_pending else "filtering"
            screen.notify(f"Still {doing}: the key waits for the results (escape drops it).")
        self._held.append((action, target))
        return True

    def drop(self, why: str) -> bool:
        """Forget the keys held (saying so, with ``why``); True when there were some."""
        held, self._held = self._held, []
        if held:
            keys = "1 key" if len(held) == 1 else f"{len(held)} keys"
            self._screen.notify(f"{keys} held for the list dropped: {why}.", severity="warning", timeout=4)
        return bool(held)

    def highlight_moved(self, paper_id: str) -> None:
        """The list shown after another process's change no longer highlights ``paper_id`` (it was
        removed from the store, or left the list): say so in one line, drop the keys held for the
        list (they were pressed for that paper), and drop each row key that comes before the new
        highlight is painted (:meth:`hold`)."""
        list_filter = self._filter
        if list_filter.store.paper(paper_id) is None:
            what = "The highlighted paper was removed by another paperdeck"
        else:
            what = "The highlighted paper left the list: another paperdeck changed it"
        where = "its neighbour is highlighted" if list_filter.paper_list.highlighted_id else "the list is empty"
        held, self._held = self._held, []
        dropped = (
            ""
            if not held
            else "; 1 key pressed for it dropped"
            if len(held) == 1
            else f"; {len(held)} keys pressed for it dropped"
        )
        self._screen.notify(f"{what}; {where}{dropped}.", severity="warning", timeout=6)
        self._moved_unseen = True
        self._screen.call_after_refresh(self._moved_seen)

    def _moved_seen(self) -> None:
        self._moved_unseen = False

    def answered(self, answered: bool) -> None:
        """A result (``answered``), or a hint, replaced the stale list: run the keys held for it,
        in order, if it answers the filter they were typed for; else drop them."""
        if not self._held:
            return
        if not answered:
            self.drop("the query could not run")
        elif self._filter.applied_filter != self._held_for:
            self.drop("the filter changed before its results came")
        else:
            held, self._held = self._held, []
            self._screen.call_later(self._run, held)

    async def _run(self, held: list[tuple[str, DOMNode]]) -> None:
        """Run the keys held, in order (one that makes the list stale again holds those after it
        anew). A key that opens a dialog takes the keys after it only as they are typed: the held
        ones after it are dropped, and said."""
        screen = self._screen
        for n, (action, target) in enumerate(held):
            if screen.app.screen is not screen or not target.is_attached:
                self._held = held[n:] + self._held
                self.drop("a dialog opened before them")
                return
            await screen.app.run_action(action, target)
