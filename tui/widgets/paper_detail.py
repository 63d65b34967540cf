"""The detail pane: everything about the highlighted paper, abstract rendered, note shown."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.style import Style
from textual.widgets import Static

from tui.core.paper import Paper, UserData
from tui.core.render import Segment, render_abstract, render_plain
from tui.core.safe_text import one_line, visible

#: Styles by role; colours come from the theme through the widget's CSS (component-free roles).
_BOLD = Style(bold=True)
_ITALIC = Style(italic=True)
_UNDERLINE = Style(underline=True)
_DIM = Style(dim=True)


def segments_to_content(segments: Iterable[Segment]) -> Content:
    """Turn rendered abstract segments into styled Textual content (text never parsed as markup)."""
    parts: list[Content] = []
    for segment in segments:
        words = [
            name
            for name, on in (
                ("bold", segment.bold),
                ("italic", segment.italic),
                ("underline", segment.underline),
                ("$text-accent", segment.code),
                ("$text-secondary", segment.math),
            )
            if on
        ]
        part = Content(visible(segment.text))
        if words:
            part = part.stylize(" ".join(words))
        if segment.link:
            link = Style(link=segment.link, underline=True) + Style.from_meta(
                {"@click": f"app.open_link({segment.link!r})"}
            )
            part = part.stylize(link)
        parts.append(part)
    return Content("").join(parts)


def detail_content(paper: Paper, user: UserData) -> Content:
    """The whole detail pane for ``paper`` as one piece of content."""
    title_style = _BOLD + (_ITALIC if paper.title_derived else Style())
    title = Content.styled(one_line(render_plain(paper.title)), title_style)
    lines: list[Content | str | tuple[str, Style]] = [title]
    if paper.title_derived:
        lines.append(("title derived from abstract", _DIM + _ITALIC))
    meta = [part for part in (paper.venue_label, ", ".join(paper.sources)) if part]
    if meta:
        lines.append((one_line(" · ".join(meta)), _DIM))
    if paper.authors:
        lines.append(one_line(", ".join(paper.authors)))
    if paper.keywords:
        lines.append((one_line("Keywords: " + "; ".join(paper.keywords)), _DIM))
    if user.starred:
        lines.append(Content.styled("★ starred", "$text-warning bold"))
    lines.append("")
    lines.append(segments_to_content(render_abstract(paper.abstract)))
    if user.note:
        lines.append("")
        lines.append(("Note", _BOLD + _UNDERLINE))
        lines.append(segments_to_content(render_abstract(user.note)))
    lines.append("")
    lines.append((paper.id, _DIM))
    return Content("\n").join(
        line if isinstance(line, Content) else Content.assemble(line) for line in lines
    )


class PaperDetail(VerticalScroll, can_focus=True):
    """Scrollable detail of one paper; ``show`` replaces what it shows."""

    def compose(self) -> ComposeResult:
        yield Static(id="detail-body", markup=False)

    def show(self, paper: Paper | None, user: UserData | None) -> None:
        """Show ``paper`` with the user's data (``None``: nothing is highlighted)."""
        body = self.query_one("#detail-body", Static)
        if paper is None or user is None:
            body.update(Content.styled("Nothing to show: no paper is highlighted.", _DIM))
        else:
            body.update(detail_content(paper, user))
        self.scroll_home(animate=False)
