"""What the main screen's export and saved-view keys do (``E``, ``v``, ``w``), kept out of
:mod:`paperdeck.ui.screens.main` so that it stays about browsing."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from paperdeck.model.errors import StoreError

if TYPE_CHECKING:
    from paperdeck.search.views import View
    from paperdeck.ui.screens.main import MainScreen


def export_view(screen: MainScreen) -> None:
    """Ask where, then write the marked papers (in view order), else the papers of the view."""
    from paperdeck.ui.screens.export import export_papers_to_file

    shown = screen.view_ids()
    if screen.marked:
        ids = [pid for pid in shown if pid in screen.marked]
        ids += sorted(set(screen.marked) - set(ids))
        what = f"the {len(ids):,} marked paper{'' if len(ids) == 1 else 's'}"
    else:
        ids = list(shown)
        what = f"the {len(ids):,} paper{'' if len(ids) == 1 else 's'} of the view"
    if not ids:
        screen.notify("Nothing to export: the view is empty.", timeout=2)
        return
    export_papers_to_file(screen, screen.store, ids, what)


def open_view_number(screen: MainScreen, number: int) -> None:
    """Keys ``0``–``9``: view ``number`` (``0``: every paper), or a hint when there is none yet."""
    views = screen.views
    if number == 0:
        screen.open_view(None)
    elif number <= len(views):
        screen.open_view(views[number - 1])
    else:
        screen.notify(f"No view {number} yet: w saves the filter as a view.", timeout=2)


def show_views(screen: MainScreen) -> None:
    """The views list with live counts; the view chosen opens."""
    from paperdeck.ui.screens.views import ViewsScreen

    def delete(name: str) -> list[View]:
        if screen.settings is not None:
            change_views(screen, partial(screen.settings.delete_view, name))
        return screen.views

    screen.app.push_screen(ViewsScreen(screen.views, screen.count_view, delete), screen.open_view)


def change_views(screen: MainScreen, change: Callable[[], object]) -> bool:
    """Run a change of the saved views (it re-reads config.json first); False when it failed."""
    try:
        change()
    except StoreError as error:
        screen.notify(str(error), title="Views not saved", severity="error", markup=False)
        return False
    return True


def save_view(screen: MainScreen) -> None:
    """Ask for a name, then save the filter bar's query as a view."""
    from paperdeck.search.views import check_query
    from paperdeck.ui.screens.views import SaveViewPrompt

    try:
        query = check_query(screen.filter_text)
    except ValueError as error:
        screen.notify(f"Nothing to save: {error}.", timeout=3, markup=False)
        return
    settings = screen.settings
    if settings is None or settings.problem is not None:
        screen.notify("Views cannot be saved: the settings file could not be read.", severity="warning")
        return

    def save(name: str | None) -> None:
        if name is None or not change_views(screen, partial(settings.save_view, name, query)):
            return
        number = next(n for n, view in enumerate(screen.views, 1) if view.name.casefold() == name.casefold())
        key = f" (key {number})" if number <= 9 else ""
        screen.notify(f"Saved the view {name!r}{key}.", timeout=3, markup=False)
        screen.update_counts()

    screen.app.push_screen(SaveViewPrompt(query, [view.name for view in screen.views]), save)
