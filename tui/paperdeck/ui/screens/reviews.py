"""The reviews screen (``R`` on the list or in the reader): one paper's decision (its decision
note, else the decision a file gave: :func:`~paperdeck.model.review.decision_line`) and meta-review
first, then each review with its scores and sections, comments threaded under what they answer.

Review text is data: it enters the screen only as plain strings, every control character made
visible first (:mod:`paperdeck.model.safe_text`), then read as Markdown blocks (headings, rules,
lists, quotes, code: :mod:`paperdeck.text.markdown_blocks`), each rendered as abstracts are
(:func:`paperdeck.text.render.render_abstract`: emphasis, LaTeX math, http(s) links). ``}`` / ``{`` move between
notes, ``]`` / ``[`` between sections, ``j`` / ``k`` scroll, ``s`` / ``r`` / ``n`` star the paper,
mark it read and edit its note (as on the list), ``escape`` comes back.
"""

from __future__ import annotations

from itertools import pairwise
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from paperdeck.model.counts import counted
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.model.review import (
    Review,
    decision_line,
    kind_label,
    ordered_reviews,
    scores_only,
    scores_only_line,
)
from paperdeck.model.review_summary import Rank, ReviewSummary
from paperdeck.model.safe_text import one_line, visible
from paperdeck.store.store import Store
from paperdeck.text.render import render_abstract, render_plain
from paperdeck.ui.commands import bindings
from paperdeck.ui.screens.paper_marks import MarksPaperShown
from paperdeck.ui.screens.scroll_ends import scroll_to_end
from paperdeck.ui.widgets.detail_content import reviews_content, segments_to_content
from paperdeck.ui.widgets.footer import PaperFooter


def open_reviews(app: App[object], store: Store, paper: Paper) -> bool:
    """Push the reviews screen of ``paper`` (one shard file read), or say why not; True when it
    was pushed."""
    forum = paper.openreview_id
    try:
        reviews = store.reviews.reviews(forum) if forum else []
        summary = store.reviews.summary(forum) if forum else None
        rank = store.reviews.paper_rank(paper)
    except StoreError as error:
        app.notify(str(error), severity="error")
        return False
    if not reviews:
        app.notify(no_reviews_notice(paper), timeout=5 if paper.ratings is not None else None)
        return False
    app.push_screen(ReviewsScreen(paper, reviews, summary, rank))
    return True


def no_reviews_notice(paper: Paper) -> str:
    """What ``R`` says of a paper without imported reviews: a paper whose ratings came from a
    list (Paper Copilot: ratings without review texts) says so, with the ratings it holds, and
    names the fetch that brings the texts only where OpenReview has the paper."""
    ratings = paper.ratings
    if ratings is None:
        return "No reviews imported for this paper (paperdeck import REVIEWS.jsonl.gz)."
    from paperdeck.fetch.venues import short_name

    count = ratings.count
    which = f"{count} rating{'' if count == 1 else 's'}" if count else "Ratings"
    source = "Paper Copilot" if any("papercopilot" in name.lower() for name in paper.sources) else "the list"
    from paperdeck.model.venue import mean_text, scale_of

    held = mean_text(ratings.mean, scale_of(paper)) + (f" ± {ratings.std:.2f}" if ratings.std else "")
    if ratings.min is not None and ratings.max is not None:
        held += f", {_number(ratings.min)}–{_number(ratings.max)}"
    text = f"{which} from {source} ({held}) — no review texts in this list"
    venue = short_name(paper.venue, paper.year) if paper.openreview_id else None
    return text + (f"; paperdeck fetch {venue} brings them from OpenReview." if venue else ".")


def body_width(app_width: int, indent: int) -> int:
    """The columns of a section's text on a screen ``app_width`` wide: less the body's padding,
    the scroll bar and the note's ``indent`` (at least 20)."""
    return max(app_width - indent - 4, 20)


class SectionText(Static):
    """One section of a note, rendered (:func:`_rendered`), its tables laid out in the columns the
    screen gives it: :meth:`lay_out` lays them out again at another width (a resize), each width's
    rendering kept (a few), so that a resize back and forth parses the text once per width. A
    section without a table wraps by itself and is rendered once."""

    #: The widths whose rendering a section keeps.
    KEPT_WIDTHS = 4

    def __init__(self, text: str, width: int, indent: int, classes: str = "") -> None:
        self._text = text
        self.indent = indent
        #: The columns the section's tables are laid out in.
        self.laid_width = width
        #: How often the text was rendered (the tests count them).
        self.renderings = 1
        content, self.has_table = _rendered_tables(text, width)
        self._laid: dict[int, Content] = {width: content}
        super().__init__(content, markup=False, classes=classes)

    def lay_out(self, width: int) -> None:
        """Lay the section's tables out in ``width`` columns (nothing when it has none, or is at
        that width already)."""
        if not self.has_table or width == self.laid_width:
            return
        content = self._laid.get(width)
        if content is None:
            content, _ = _rendered_tables(self._text, width)
            self.renderings += 1
            if len(self._laid) >= self.KEPT_WIDTHS:
                del self._laid[next(iter(self._laid))]
            self._laid[width] = content
        self.laid_width = width
        self.update(content)


def _rendered(text: str, width: int = 80) -> Content:
    """:func:`_rendered_tables`' rendering alone."""
    return _rendered_tables(text, width)[0]


def _rendered_tables(text: str, width: int = 80) -> tuple[Content, bool]:
    """A note's section as the reader should see it: the text sanitised first (every control
    character made visible: nothing in it is a terminal sequence or Textual markup), then its
    Markdown blocks (:func:`~paperdeck.text.markdown_blocks.markdown_blocks`: headings bold, rules
    drawn, bullets, quotes, code as it is, tables laid out in ``width`` columns, a blank line
    before and after each: :func:`~paperdeck.text.markdown_tables.table_lines`) and within each the inline rendering of
    abstracts (emphasis, math, images as ``[image: alt] <url>``, http(s) links only); and whether
    it holds a table (whose layout depends on ``width``)."""
    from paperdeck.text.markdown_blocks import markdown_blocks

    lines: list[Content] = []
    after_table = tables = False
    for block in markdown_blocks(visible(text)):
        apart = block.kind == "table" or (after_table and block.kind != "heading")  # a heading has its own
        if apart and lines and lines[-1].plain.strip():
            lines.append(Content(""))  # a table stands apart: a blank line before and after it
        after_table = block.kind == "table"
        if block.kind == "table":
            from paperdeck.text.markdown_tables import table_lines

            tables = True
            lines += [Content(line) for line in table_lines(block.text, width)]
            continue
        inline = segments_to_content(render_abstract(block.text)) if block.kind != "code" else Content(block.text)
        if block.kind == "heading":
            if lines:
                lines.append(Content(""))
            lines.append(inline.stylize("bold" if block.level > 1 else "bold underline"))
        elif block.kind == "rule":
            lines.append(Content.styled("─" * 24, "$text-muted"))
        elif block.kind == "item":
            lines.append(Content.assemble("  " * block.level, (f"{block.marker} ", "$text-muted"), inline))
        elif block.kind == "quote":
            lines.append(Content.assemble(("▏ ", "$text-muted"), inline.stylize("italic")))
        elif block.kind == "code":
            lines.append(inline.stylize("$text-accent"))
        else:
            lines.append(inline)
    return Content("\n").join(lines), tables


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def review_head(review: Review) -> Content:
    """``Review · Reviewer_hsV6 · rating 6 · confidence 4 · soundness 3 …``."""
    parts = [Content.styled(one_line(kind_label(review.kind)), "bold")]
    if review.signature:
        parts.append(Content.styled(one_line(review.signature), "$text-muted"))
    labels = dict(review.score_labels)
    for name, value in review.scores:
        part = Content.assemble((f"{name.replace('_', ' ')} ", "$text-muted"), (_number(value), "bold"))
        if name in labels:
            part += Content.styled(f" ({one_line(labels[name])})", "dim")
        parts.append(part)
    if scores_only(review):
        parts.append(Content.styled("no review text", "dim"))
    return Content(" · ").join(parts)


def _day(time_ms: int) -> str:
    """``"2025-11-04"`` (UTC) for a time in milliseconds since the epoch, ``"?"`` for none."""
    if time_ms <= 0:
        return "?"
    from datetime import UTC, datetime

    return datetime.fromtimestamp(time_ms / 1000, tz=UTC).strftime("%Y-%m-%d")


def review_path(review: Review) -> Content | None:
    """How a note's scores moved across its versions (:meth:`Review.history`), ``None`` when none
    did: each score that moved with the values it took (``rating 6 → 8 · confidence 3 → 4``),
    then the days of the versions that changed a score (``2025-11-04 → 2025-11-20``)."""
    if not review.earlier:
        return None
    history = review.history()
    names = list(dict.fromkeys(name for version in history for name, _ in version.scores))
    moved = [(name, path) for name in names if len(path := review.score_path(name)) > 1]
    if not moved:
        return None
    days = [_day(history[0].time)]
    for before, after in pairwise(history):
        if dict(before.scores) != dict(after.scores):
            days.append(_day(after.time))
    parts = [
        Content.assemble(
            (f"{one_line(name.replace('_', ' '))} ", "$text-muted"),
            (" → ".join(map(_number, path)), "bold $text-warning"),
        )
        for name, path in moved
    ]
    return Content.assemble(
        ("Moved: ", "bold $text-muted"), Content(" · ").join(parts), (f"  ({' → '.join(days)})", "dim")
    )


class ReviewsScreen(MarksPaperShown):
    """One paper's reviews, full screen (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("reviews")  # back, notes, sections, scroll, marks

    DEFAULT_CSS = """
    ReviewsScreen #reviews-body { padding: 0 1; }
    ReviewsScreen .note { margin-top: 1; color: $text; }
    ReviewsScreen .section-name { color: $text-muted; text-style: bold; margin-top: 1; }
    ReviewsScreen .current { background: $boost; }
    """

    AUTO_FOCUS = "#reviews-body"

    def __init__(self, paper: Paper, reviews: list[Review], summary: ReviewSummary | None, rank: Rank | None) -> None:
        super().__init__()
        self.paper = paper
        self.reviews = reviews
        self.summary = summary
        self.rank = rank
        self._current: dict[str, int] = {"note": -1, "section": -1}
        #: The text at the top of the view: the widget there, the view's top line's offset in it,
        #: its height then, and the terminal's size it was laid out at (:meth:`_keep_place`).
        self._place: tuple[Widget, int, int, Size] | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="reviews-body", can_focus=True):
            yield Static(Content.styled(one_line(render_plain(self.paper.title)), "bold"), markup=False)
            if decision := decision_line(self.paper, self.reviews):  # no decision note says it
                yield Static(Content.styled(one_line(decision), "bold"), markup=False, id="decision")
            if self.summary is not None and self.summary.count:
                yield Static(reviews_content(self.summary, self.rank), markup=False)
            if only := scores_only_line(self.reviews):
                yield Static(Content.styled(only, "$text-warning"), markup=False, id="scores-only")
            notes = ordered_reviews(self.reviews)
            yield Static(
                Content.styled(f"{counted(len(notes), 'note')} · }} / {{: next / previous · ] / [: sections", "dim")
            )
            for depth, review in notes:
                indent = 4 * depth
                head = Static(review_head(review), markup=False, classes="note")
                head.styles.margin = (1, 0, 0, indent)
                yield head
                if (path := review_path(review)) is not None:
                    moved = Static(path, markup=False, classes="review-path")
                    moved.styles.margin = (0, 0, 0, indent)
                    yield moved
                for name, text in review.sections:
                    label = Static(Content(name.replace("_", " ").capitalize()), markup=False, classes="section-name")
                    label.styles.margin = (1, 0, 0, indent)
                    yield label
                    body = SectionText(text, body_width(self.app.size.width, indent), indent, classes="section-text")
                    body.styles.margin = (0, 0, 0, indent)
                    yield body
        yield PaperFooter()

    def on_mount(self) -> None:
        self.watch(self.query_one("#reviews-body", VerticalScroll), "scroll_y", self._keep_place, init=False)

    def _keep_place(self) -> None:
        """Note the text at the top of the view as the reader moves (a resize puts it back there:
        :meth:`_back_in_place`). Not while the screen is laid out at another size than the
        terminal's (a resize under way): the layout is new, the scroll offset still the old one."""
        size = self.app.size
        if self._place is not None and self._place[3] != size:
            return
        body = self.query_one("#reviews-body", VerticalScroll)
        top = round(body.scroll_y)
        widget: Widget | None = None
        for child in body.children:
            if child.virtual_region.y > top:
                break
            widget = child
        if widget is None:
            self._place = None
            return
        region = widget.virtual_region
        self._place = (widget, top - region.y, region.height, size)

    def _back_in_place(self) -> None:
        """After a resize's layout: the text noted at the top of the view back there (the same
        widget, the same share of it above the view: its lines wrap anew in another width)."""
        if self._place is None:
            return
        widget, offset, height, _ = self._place
        if not widget.is_attached:
            self._place = None
            return
        region = widget.virtual_region
        within = min(offset, height) * region.height // height if height else 0
        body = self.query_one("#reviews-body", VerticalScroll)
        body.scroll_to(y=region.y + within, animate=False, immediate=True)  # not noted: a size between
        self._place = (widget, offset, height, self.app.size)  # the reader's place, not rounded anew

    def on_resize(self, event: events.Resize) -> None:
        """A resize lays the sections' tables out again in the new width, then puts the text that
        was at the top of the view back there once the screen is laid out anew."""
        self._lay_out_tables(event.size.width)
        self.call_after_refresh(self._back_in_place)

    def on_screen_resume(self) -> None:
        """Back on top (the terminal may have been resized meanwhile): the tables at its width,
        the text that was at the top of the view back there."""
        self._lay_out_tables(self.app.size.width)
        if self._place is not None and self._place[3] != self.app.size:
            self.call_after_refresh(self._back_in_place)

    def _lay_out_tables(self, app_width: int) -> None:
        for body in self.query(SectionText):
            body.lay_out(body_width(app_width, body.indent))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#reviews-body", VerticalScroll).scroll_relative(y=lines, animate=False, immediate=True)

    def action_scroll_to_end(self, bottom: int) -> None:
        """The reviews' top (``0``) or end (``1``), as ``home`` / ``end`` and the list's ``g`` / ``G``."""
        scroll_to_end(self.query_one("#reviews-body", VerticalScroll), bottom)

    def action_jump(self, what: str, step: int) -> None:
        """Move to the next (``step`` 1) or previous (-1) note or section heading."""
        targets: list[Widget] = list(self.query(".note" if what == "note" else ".section-name"))
        if not targets:
            return
        # From where the reader is (a jump of the other kind, or scrolling, moved it): the next
        # heading below the top of the view, or the last one above it.
        body = self.query_one("#reviews-body", VerticalScroll)
        top = round(body.scroll_y)
        tops = [target.virtual_region.y for target in targets]
        if step > 0:
            index = next((n for n, y in enumerate(tops) if y > top + 1), len(targets) - 1)
        else:
            index = next((n for n in reversed(range(len(tops))) if tops[n] < top - 1), 0)
        self._current[what] = index
        for widget in self.query(".current"):
            widget.remove_class("current")
        target = targets[index]
        target.add_class("current")
        self.query_one("#reviews-body", VerticalScroll).scroll_to_widget(
            target, animate=False, top=True, immediate=True
        )
