"""Removing papers from the store in the app (``X``), and taking back the last import or removal
(``Z``), as ``paperdeck remove`` and ``paperdeck import --undo`` do (:meth:`Store.remove_papers
<paperdeck.store.store.Store.remove_papers>`, :meth:`Store.undo_last_change
<paperdeck.store.store.Store.undo_last_change>`).

Both ask first, write the catalogue in a worker thread (a whole conference's catalogue takes a
moment to write), then show the list as the store holds it (the same query, the highlight kept
where it can be). The user's marks on removed papers stay in the store.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from paperdeck.model.errors import PaperdeckError
from paperdeck.model.safe_text import one_line
from paperdeck.ui.no_paper import say_no_paper

if TYPE_CHECKING:
    from collections.abc import Callable

#: The main screen (:class:`paperdeck.ui.screens.main.MainScreen`, which imports this module: not
#: imported here, even for its type).
MainScreen = Any

#: The worker group of a removal or an undo (one at a time).
GROUP = "remove"

#: The title of the notice that a removal or an undo is under way (taken away when it is done).
UNDER_WAY = "Under way"


def remove_papers(screen: MainScreen) -> None:
    """Ask, then remove the marked papers, else the highlighted one."""
    if _running(screen):
        return
    ids = screen.marks.targets(screen.view_ids(), screen.paper_list.highlighted_id)
    if not ids:
        say_no_paper(screen)
        return
    row = screen.store.row(ids[0])
    what = f"{len(ids):,} marked papers" if len(ids) > 1 else f"“{one_line(row.title if row else ids[0])}”"
    if hidden := screen.marks.hidden(screen.view_ids()):
        what += f" ({hidden:,} not in this view)"
    question = (
        f"Remove {what} from the store? Your star, note, status and tags stay, and come back if it is "
        "imported again. Z takes the removal back."
    )

    shown = screen.view_ids()
    highlighted = screen.paper_list.highlighted_id
    at = shown.index(highlighted) if highlighted in shown else 0
    gone = set(ids)
    # The paper the list goes on with: the next one left below the highlight, else above it.
    after = next((pid for pid in [*shown[at:], *reversed(shown[:at])] if pid not in gone), None)

    def go(confirmed: bool | None) -> None:
        if confirmed:
            screen.marks.clear()
            under_way = f"Removing {what}… the list follows once the store is written."
            _run(screen, lambda: _removed_text(screen, ids), under_way, "removing…", highlight=after)

    from paperdeck.ui.screens.confirm import ConfirmScreen

    screen.app.push_screen(ConfirmScreen(question, "Remove", "Cancel"), go)


def undo_last_change(screen: MainScreen) -> None:
    """Ask, then take back the last import or removal."""
    if _running(screen):
        return
    point = screen.store.undo_point
    if point is None:
        screen.notify("Nothing to undo: no import or removal to take back.")
        return
    from paperdeck.store.undo import restore_came_after, restore_stays

    noun = "import" if point.what == "import" else "removal"
    when = point.at[:16].replace("T", " ")
    question = f"Take back the {noun} of {when} UTC ({one_line(point.summary)})?"
    if restore := restore_came_after(point):  # as `paperdeck import --undo` says it
        question = f"{restore[0].upper()}{restore[1:]}. Take back the {noun} all the same?"
    if point.what == "import" and (held := screen.store.marked_among(point.new_ids)):
        question += f" {marks_kept(held, len(point.new_ids))}"
    stays = restore_stays(point)

    def go(confirmed: bool | None) -> None:
        if confirmed:
            under_way = f"Taking back the {noun}… the list follows once it is written."
            _run(screen, lambda: " ".join(filter(None, [_undone_text(screen), stays])), under_way, "undoing…")

    from paperdeck.ui.screens.confirm import ConfirmScreen

    screen.app.push_screen(ConfirmScreen(question, "Undo it", "Cancel"), go)


def marks_kept(held: int, taken: int) -> str:
    """What the undo question says of the ``held`` papers with the user's stars, notes or tags
    among the ``taken`` an undo of an import takes away (a tester's find: ``Take back the import
    … 995 new`` did not say a starred paper was among them)."""
    some = f"{held:,} of the {taken:,} papers it brought" if taken > 1 else "The paper it brought"
    verb = "hold" if held > 1 else "holds"
    return f"{some} {verb} your stars, notes or tags: they are kept, and come back if it is imported again."


def _removed_text(screen: MainScreen, ids: list[str]) -> str:
    report = screen.store.remove_papers(ids)
    count = len(report.removed)
    return f"Removed {count:,} paper{'' if count == 1 else 's'} (Z takes it back)."


def _undone_text(screen: MainScreen) -> str:
    report = screen.store.undo_last_change()
    from paperdeck.model.counts import counted

    parts = []
    if report.restored:
        parts.append(f"{counted(len(report.restored), 'paper')} back")
    if report.taken_away:
        parts.append(f"{counted(len(report.taken_away), 'paper')} taken away")
    if report.reverted:
        parts.append(f"{counted(report.reverted, 'paper')} set back")
    if report.reviews_text:
        parts.append(report.reviews_text)
    noun = "import" if report.what == "import" else "removal"
    return f"Undid the {noun}: {', '.join(parts) or 'no paper changed'}."


def _running(screen: MainScreen) -> bool:
    """True (and a short message) while a removal or an undo is being written."""
    if any(worker.group == GROUP and not worker.is_finished for worker in screen.app.workers):
        screen.notify("A removal or an undo is still being written; try again when it is done.")
        return True
    return False


def _run(screen: MainScreen, work: Callable[[], str], under_way: str, note: str, highlight: str | None = None) -> None:
    """Say ``under_way`` at once (and ``note`` beside the counts, in place of the star count the
    change makes another, until the list follows), then run ``work`` (a store write, giving the
    line to show) in a worker thread, the keys answered meanwhile, then show the list as the store
    holds it (``highlight`` highlighted, when given) and say what was done (or why nothing was).
    A large store's write took most of a minute on a loaded machine, the list unchanged and
    nothing said."""
    app = screen.app
    screen.notify(under_way, title=UNDER_WAY, timeout=60, markup=False)  # the toasts' longest
    screen.list_filter.counts.set_change_note(note)

    def run() -> None:
        try:
            said = work()
        except PaperdeckError as error:
            app.call_from_thread(_failed, screen, error)
            return
        from paperdeck.search.searcher import build_index

        # The search index saved for the catalogue as it is now, as an import leaves it: the list
        # reads it, instead of saying the saved one is stale and building one itself.
        with contextlib.suppress(PaperdeckError):
            build_index(screen.store)
        app.call_from_thread(_done, screen, said, highlight)

    screen.run_worker(run, thread=True, group=GROUP, name="remove or undo")


def _done(screen: MainScreen, said: str, highlight: str | None) -> None:
    _no_longer_under_way(screen)
    screen.catalogue_reloaded(highlight=highlight, by_this_app=True)
    screen.notify(said, timeout=4, markup=False)


def _no_longer_under_way(screen: MainScreen) -> None:
    """Take away the notice that the removal or the undo is under way: it is done (the star
    count back beside the counts, as the store holds them now)."""
    from paperdeck.ui._lines.notifications import withdraw_titled

    screen.list_filter.counts.set_change_note("")
    withdraw_titled(screen.app, UNDER_WAY)


def _failed(screen: MainScreen, error: PaperdeckError) -> None:
    _no_longer_under_way(screen)
    screen.notify(str(error), title="Nothing changed", severity="error", markup=False)
