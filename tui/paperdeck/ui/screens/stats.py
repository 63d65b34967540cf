"""The statistics screen (``A`` on the list): the figures of the current view as charts —
the papers' mean ratings with the highlighted paper's bucket marked and its percentile, every
review's rating, decisions by primary area, acceptance by mean rating, reviews per paper and
confidence, the user's progress — each chart's numbers one key away (``t``: a table).

The figures are counted in a thread (:func:`paperdeck.stats.figures.figures_of`), never on the
event loop; the screen counts them again whenever the main screen's view changes (``0``–``9``
here open a view, as on the list) or the user's marks change. ``→`` / ``n`` and ``←`` / ``p``
go through the charts, ``j`` / ``k`` scroll, ``escape`` comes back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.cells import cell_len
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Static

from paperdeck.model.errors import StoreError
from paperdeck.store.store import Store
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.scroll_ends import scroll_to_end
from paperdeck.ui.widgets.footer import PaperFooter
from paperdeck.ui.widgets.stats_charts import CHARTS, SHORT_LABELS, chart_content, chart_table

if TYPE_CHECKING:
    from paperdeck.stats.figures import Figures, Place


class StatsHost(Protocol):
    """What the statistics screen needs of the screen whose view it counts (the main screen)."""

    store: Store
    #: Called (on the event loop) whenever the view or the user's marks change; ``None``: nobody listens.
    stats_listener: Callable[[], None] | None
    #: The figures last counted without the user's marks, and what they were counted of (the
    #: catalogue's generation, the review summaries read, the view's ids): a count of the same
    #: view counts only the marks again. ``None`` before the first count.
    stats_figures: tuple[object, Figures] | None

    @property
    def app(self) -> App[object]: ...

    def view_ids(self) -> list[str]:
        """The paper ids in the current view, in order."""

    def highlighted_paper_id(self) -> str | None:
        """The paper highlighted in the list, ``None`` for none."""

    def view_label(self) -> str:
        """What the view is, in a few words (``"all papers"``, ``"view Orals"``, ``"filter: diffusion"``)."""

    def action_open_view(self, number: int) -> None:
        """Open view ``number`` (``0``: every paper), as the digit keys do."""


def _same_count(a: object, b: tuple[int, object, list[str]]) -> bool:
    """Whether a cached count's key is ``b``: the same catalogue generation, the very same
    summaries object (read again, it is another), the same view ids."""
    return isinstance(a, tuple) and a[0] == b[0] and a[1] is b[1] and a[2] == b[2]


def _first_column_fitted(columns: tuple[str, ...], rows: list[Any], width: int) -> tuple[tuple[str, ...], list[Any]]:
    """``columns`` and ``rows`` fitted to ``width`` cells (each column takes its widest cell and 2
    cells of padding): when the first cells (area names) do not fit whole beside the number
    columns, the labels are shortened (:data:`SHORT_LABELS`: ``accepted`` is ``acc.``) to give
    the names the room the long labels took, and the names still too long are cut with ``…``."""

    def numbers(labels: tuple[str, ...]) -> int:
        return sum(max([len(label), *(len(str(row[n])) for row in rows)]) + 2 for n, label in enumerate(labels) if n)

    def cells(first: object) -> int:
        return first.cell_len if isinstance(first, Text) else len(str(first))

    longest = max((cells(row[0]) for row in rows), default=0)
    if longest > width - numbers(columns) - 2:
        columns = tuple(SHORT_LABELS.get(label, label) for label in columns)
    room = max(12, width - numbers(columns) - 2)
    fitted = []
    for first, *rest in rows:
        text = first if isinstance(first, Text) else Text(str(first))
        if text.cell_len > room:
            text = text.copy()
            text.truncate(room, overflow="ellipsis")
        fitted.append((text, *rest))
    return columns, fitted


def tab_at(x: int) -> int | None:
    """The index in :data:`CHARTS` of the tab drawn at cell ``x`` of the tab row's content
    (``" Ratings "``, a space, ``" Reviews "``…: :meth:`StatsScreen._show_tabs`), ``None`` between
    or past them."""
    start = 0
    for index, chart in enumerate(CHARTS):
        end = start + cell_len(f" {chart.title} ")
        if start <= x < end:
            return index
        start = end + 1
    return None


class StatsScreen(Screen[None]):
    """The figures of the host's view, one chart at a time (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("stats")  # back, charts, table, scroll, views

    DEFAULT_CSS = """
    StatsScreen #stats-title { padding: 0 1; text-style: bold; height: 1; }
    StatsScreen #stats-tabs { padding: 0 1; height: 1; }
    StatsScreen #stats-body { padding: 0 1; }
    StatsScreen #stats-table { height: auto; max-height: 100%; }
    StatsScreen.table #stats-chart { display: none; }
    StatsScreen #stats-table { display: none; }
    StatsScreen.table #stats-table { display: block; }
    """

    AUTO_FOCUS = "#stats-body"

    def __init__(self, host: StatsHost, chart: int = 0) -> None:
        super().__init__()
        self.host = host
        self.chart = chart % len(CHARTS)
        #: The figures shown now, ``None`` until the first count is done.
        self.figures: Figures | None = None
        self.place: Place | None = None
        #: The view ids the figures shown are of (benchmarks and tests wait on it).
        self.counted_ids: list[str] | None = None
        #: Seconds the last count took, in its thread.
        self.count_s: float | None = None
        self._label = ""

    def compose(self) -> ComposeResult:
        yield Static(Content("Statistics"), id="stats-title", markup=False)
        yield Static(Content(""), id="stats-tabs", markup=False)
        with VerticalScroll(id="stats-body", can_focus=True):
            yield Static(Content("counting…"), id="stats-chart", markup=False)
        yield PaperFooter()

    def on_mount(self) -> None:
        self.host.stats_listener = self.recount
        self._show_tabs()
        self.recount()

    def on_unmount(self) -> None:
        if self.host.stats_listener == self.recount:
            self.host.stats_listener = None

    def on_resize(self) -> None:
        self._draw()

    # -- counting ------------------------------------------------------------------------------

    def recount(self) -> None:
        """Count the figures of the host's view again, in a thread (a count under way is dropped)."""
        ids = list(self.host.view_ids())
        self._label = self.host.view_label()
        self._count(ids, self.host.highlighted_paper_id())

    @work(thread=True, exclusive=True, group="stats")
    def _count(self, ids: list[str], highlighted: str | None) -> None:
        from paperdeck.model.review_summary import covers, forums_of
        from paperdeck.stats.figures import figures_of
        from paperdeck.stats.marks import user_marks

        started = time.perf_counter()
        store = self.host.store
        reviews = store.reviews
        try:
            papers = None
            if reviews.summaries_read or not reviews.some_held:
                summaries = reviews.summaries()
            else:  # a venue scope's alone are read: the view's papers' (the others' not built)
                papers = [paper for paper_id in ids if (paper := store.paper(paper_id)) is not None]
                summaries = reviews.summaries_among(forums_of(papers))
            key = (store.catalogue_generation, summaries, ids)
            cached = self.host.stats_figures
            if cached is not None and _same_count(cached[0], key):
                base = cached[1]
            else:
                if papers is None:
                    papers = [paper for paper_id in ids if (paper := store.paper(paper_id)) is not None]
                base = figures_of(papers, summaries, {})
                self.host.stats_figures = (key, base)
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), severity="error")
            return
        in_view = set(ids)
        try:
            marked = user_marks(store, in_view.__contains__)  # as paperdeck stats counts them
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), severity="error")
            return
        figures = base.with_progress(marked.marks)
        paper = store.paper(highlighted) if highlighted else None
        mean = None
        if paper is not None:
            forum = paper.openreview_id
            try:
                held = covers(summaries, forum)
                summary = (summaries.get(forum) if held else reviews.summary(forum)) if forum else None
            except StoreError:
                summary = None
            if summary is not None and summary.count:
                mean = summary.mean
            elif paper.ratings is not None:
                mean = paper.ratings.mean
        place = None
        if paper is not None and paper.id in in_view:
            from paperdeck.model.venue import venue_of

            place = figures.place(mean, venue_of(paper))  # within its own venue where the view mixes them
        elapsed = time.perf_counter() - started
        self.app.call_from_thread(self._counted, ids, figures, place, elapsed)

    def _counted(self, ids: list[str], figures: Figures, place: Place | None, elapsed: float) -> None:
        self.figures, self.place, self.counted_ids, self.count_s = figures, place, ids, elapsed
        self._draw()

    # -- drawing -------------------------------------------------------------------------------

    def _show_tabs(self) -> None:
        parts = []
        for index, chart in enumerate(CHARTS):
            style = "reverse bold" if index == self.chart else ""
            parts.append(Content.styled(f" {chart.title} ", style))
        tabs = Content(" ").join(parts)
        self.query_one("#stats-tabs", Static).update(tabs)

    def on_click(self, event: events.Click) -> None:
        """A click on a chart's tab shows that chart (:func:`tab_at`), as ``tab`` does one by one."""
        tabs = self.query_one("#stats-tabs", Static)
        if event.widget is not tabs or (offset := event.get_content_offset(tabs)) is None:
            return
        index = tab_at(offset.x) if offset.y == 0 else None
        if index is not None and index != self.chart:
            self.action_chart(index - self.chart)

    def _draw(self) -> None:
        """Show the current chart (and its table) of the figures counted last."""
        if not self.is_mounted:
            return
        figures = self.figures
        title = self.query_one("#stats-title", Static)
        if figures is None:
            title.update(Content(f"Statistics · {self._label} · counting…"))
            return
        papers = "1 paper" if figures.papers == 1 else f"{figures.papers:,} papers"
        title.update(Content(f"Statistics · {self._label} · {papers}"))
        key = CHARTS[self.chart].key
        width = max(self.size.width - 4, 30)  # the body's padding, and room for its scroll bar
        self.query_one("#stats-chart", Static).update(chart_content(key, figures, self.place, width))
        self._fill_table()

    def _fill_table(self) -> None:
        """Put the current chart's numbers in the table, once it is shown (``t``)."""
        if self.figures is None or not self.has_class("table"):
            return
        tables = self.query("#stats-table").results(DataTable)
        table = next(tables, None)
        if table is None:  # made the first time it is asked for: a table is costly to mount
            table = DataTable(id="stats-table", show_cursor=False, zebra_stripes=True)
            self.query_one("#stats-body", VerticalScroll).mount(table)
        columns, rows = chart_table(CHARTS[self.chart].key, self.figures)
        columns, rows = _first_column_fitted(columns, rows, self.size.width - 4)
        table.clear(columns=True)
        table.add_columns(*columns)
        table.add_rows(rows)

    # -- keys ----------------------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_chart(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) chart."""
        self.chart = (self.chart + step) % len(CHARTS)
        self._show_tabs()
        self.query_one("#stats-body", VerticalScroll).scroll_home(animate=False)
        self._draw()

    def action_toggle_table(self) -> None:
        """Show the chart's numbers as a table, or the chart again."""
        self.toggle_class("table")
        self._fill_table()

    def action_scroll(self, lines: int) -> None:
        self.query_one("#stats-body", VerticalScroll).scroll_relative(y=lines, animate=False, immediate=True)

    def action_scroll_to_end(self, bottom: int) -> None:
        """The chart's top (``0``) or end (``1``), as the list's ``g`` / ``G``."""
        scroll_to_end(self.query_one("#stats-body", VerticalScroll), bottom)

    def action_open_view(self, number: int) -> None:
        """Open view ``number`` on the main screen; the figures follow when its list is shown."""
        self.host.action_open_view(number)
