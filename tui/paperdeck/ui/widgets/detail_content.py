"""What the detail pane shows of a paper, as styled Textual content: conference fields, the
abstract rendered (math as Unicode, emphasis as styles), the note, links. Paper text is never
parsed as markup: it only ever enters ``Content`` as plain strings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.content import Content
from textual.style import Style

from paperdeck.model.changes import PaperChange
from paperdeck.model.counts import counted
from paperdeck.model.paper import Paper, UserData
from paperdeck.model.review_summary import Rank, ReviewSummary
from paperdeck.model.safe_text import one_line, visible, web_link
from paperdeck.model.schedule import ScheduleEvent
from paperdeck.model.venue import mean_text, scale_of
from paperdeck.text.render import Segment, render_abstract, render_keywords, render_plain
from paperdeck.ui.widgets.row_cells import FOLLOWED

#: Styles by role; colours come from the theme through the widget's CSS (component-free roles).
_BOLD = Style(bold=True)
_ITALIC = Style(italic=True)
_UNDERLINE = Style(underline=True)
_DIM = Style(dim=True)
#: How a word the query matched is marked (as the list marks it in titles).
MATCH_STYLE = "bold underline $text-accent"


def marked(content: Content, terms: tuple[str, ...]) -> Content:
    """``content`` with the words ``terms`` match marked (:func:`paperdeck.search.highlight.text_spans`
    over its text as shown); ``terms`` as :func:`~paperdeck.search.highlight.highlight_terms` gives them."""
    if not terms:
        return content
    from paperdeck.search.highlight import text_spans

    for start, end in text_spans(content.plain, terms):
        content = content.stylize(MATCH_STYLE, start, end)
    return content


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
        link = web_link(segment.link or "")  # \href{javascript:…}, [x](file:…): text, not a link
        if link:
            click = Style.from_meta({"@click": f"app.open_link({link!r})"})
            part = part.stylize(Style(link=link, underline=True) + click)
        parts.append(part)
    return Content("").join(parts)


#: How decisions read in the detail pane.
DECISION_LABELS = {
    "oral": "Oral",
    "spotlight": "Spotlight",
    "poster": "Poster",
    "accept": "Accepted",
    "accept-conditional": "Accepted (conditional)",
    "workshop": "Workshop",
    "under-review": "Under review",
    "reject": "Rejected",
    "withdrawn": "Withdrawn",
    "desk-rejected": "Desk rejected",
    "unknown": "Decision unknown",
}


def _ratings_text(paper: Paper) -> str:
    ratings = paper.ratings
    if ratings is None:
        return "no ratings yet"
    text = f"rating {mean_text(ratings.mean, scale_of(paper))}"  # with its scale's top: 6.5/10
    one = ratings.count == 1  # one review: no spread to give, no range (6–6)
    if ratings.std is not None and not one:
        text += f" ± {ratings.std:.2f}"
    extra = []
    if ratings.count:
        extra.append(counted(ratings.count, "review"))
    if ratings.min is not None and ratings.max is not None and not one:
        extra.append(f"{ratings.min:g}–{ratings.max:g}")
    if extra:
        text += f" ({', '.join(extra)})"
    if paper.confidence is not None:
        text += f" · confidence {paper.confidence:.2f}"
    return text


def _decision_style(paper: Paper) -> str:
    if paper.decision in ("reject", "withdrawn", "desk-rejected"):
        return "bold $text-error"
    if paper.decision == "under-review":
        return "$text-muted"
    return "bold $text-success"


def _rendered(text: str) -> Content:
    """Paper or note text rendered, from the cleaned text: a URL in it is linked only up to a
    control character (shown as ``␇``), so no text can end or extend the hyperlink."""
    return segments_to_content(render_abstract(visible(text)))


#: The characters of a note the detail pane renders: a longer one is cut (at a space, when one is
#: near) and the rest told, not rendered (rendering grows with the text: a note of a million
#: characters held the highlight for seconds at each pass). The note editor shows it all.
NOTE_SHOWN_CHARS = 10_000


def _note_lines(note: str) -> list[Content]:
    """The note rendered, cut at :data:`NOTE_SHOWN_CHARS` with a line saying how much is left."""
    if len(note) <= NOTE_SHOWN_CHARS:
        return [_rendered(note)]
    space = note.rfind(" ", NOTE_SHOWN_CHARS - 200, NOTE_SHOWN_CHARS)
    shown = note[: space if space > 0 else NOTE_SHOWN_CHARS]
    left = len(note) - len(shown)
    return [_rendered(shown + " …"), Content.styled(f"({left:,} more characters: n shows the whole note)", _DIM)]


def _link(label: str, url: str) -> Content:
    if not web_link(url):  # a store written before links were checked at import
        return Content.assemble((f"{label} ", "bold"), (one_line(url), "dim"), (" (not an http(s) link)", "dim"))
    style = Style(link=url, underline=True) + Style.from_meta({"@click": f"app.open_link({url!r})"})
    return Content.assemble((f"{label} ", "bold"), Content(url).stylize(style))


def _field(label: str, value: str, terms: tuple[str, ...] = ()) -> Content:
    return Content.assemble((f"{label}: ", "bold $text-muted"), marked(Content(one_line(value)), terms))


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def move_text(summary: ReviewSummary) -> str:
    """How the paper's mean rating moved during the discussion: ``"mean 5.3 ↑6.0 (+0.67)"`` (the
    mean of each review's first rating, then the current one, as every mean rating is written:
    :func:`~paperdeck.model.venue.mean_text`), ``"mean 6.0 → 6.0 (1 review moved, the mean did
    not)"`` when reviews moved but not the mean; ``""`` when no rating moved."""
    first, delta, mean = summary.rating_initial, summary.rating_delta, summary.mean
    if first is None or delta is None or mean is None:
        return ""
    if delta:
        arrow = "↑" if delta > 0 else "↓"
        return f"mean {mean_text(first)} {arrow}{mean_text(mean)} ({delta:+.2f})"
    if summary.moved:
        moved = summary.moved
        return (f"mean {mean_text(first)} → {mean_text(mean)} "
                f"({moved} review{'' if moved == 1 else 's'} moved, the mean did not)")  # fmt: skip
    return ""


def reviews_content(summary: ReviewSummary, rank: Rank | None) -> Content:
    """The scores at a glance: each reviewer's rating/confidence (``4→6/3`` for a rating that moved
    from its first), the spread, how the mean moved (:func:`move_text`), the mean's rank among the
    reviewed papers of its venue in the store, saying so (``"top 18 % of 19,499 rated in ICLR 2026"``)."""
    firsts = summary.initial_ratings or summary.ratings

    def rating(now: float, first: float) -> str:
        return _number(now) if first == now else f"{_number(first)}→{_number(now)}"

    each = "  ".join(
        f"{rating(now, first)}/{_number(confidence)}" if confidence is not None else rating(now, first)
        for now, first, confidence in zip(summary.ratings, firsts, summary.confidences, strict=False)
    )
    parts = [Content.assemble(("Reviews: ", "bold $text-muted"), each, (" (rating/confidence)", "dim"))]
    if moved := move_text(summary):
        parts.append(Content.styled(moved, "bold $text-warning"))
    if summary.spread is not None and len(summary.ratings) > 1:  # one review has no spread to give
        parts.append(Content(f"spread {_number(summary.spread)}"))
    if rank is not None:
        parts.append(Content.styled(rank.label(), "bold $text-accent"))
    if summary.comments:
        parts.append(Content.styled(counted(summary.comments, "comment"), _DIM))
    return Content(" · ").join(parts)


#: The most changes the detail pane lists (the latest); ``paperdeck changes`` lists every one.
HISTORY_SHOWN = 8


def history_content(changes: Sequence[PaperChange], looked: str) -> Content:
    """A paper's recorded changes, latest first, one line per part, each change's first line
    headed by its day: ``"2025-11-29  rating 4.5 → 5.5: Reviewer_hsV6 4 → 6, 2025-11-22 → 11-29"``.
    Changes after ``looked`` (the user's last look, ISO text; ``""``: never) are in the accent
    colour, the rest dim; the paper's first imports (the baseline, folded into one by
    :func:`~paperdeck.model.changes.with_baseline`) are one dim line, ``first imported 2026-12-07:
    decision poster, rating 4.5``. Signatures and decisions are data: shown through :func:`one_line`."""
    lines = [Content.styled("What changed", _BOLD + _UNDERLINE)]
    shown = list(reversed(changes))[:HISTORY_SHOWN]
    for change in shown:
        if change.first:  # the paper's first imports: the baseline, not news (no day column)
            lines += [Content.styled(one_line(line), "dim") for line in change.lines()]
            continue
        style = "$text-accent" if change.at > looked else "dim"
        day = change.at[:10]
        for number, line in enumerate(change.lines()):
            head = day if number == 0 else " " * len(day)
            lines.append(Content.styled(f"{head}  {one_line(line)}", style))
    if len(changes) > len(shown):
        lines.append(Content.styled(f"… {len(changes) - len(shown)} earlier (paperdeck changes)", _DIM))
    return Content("\n").join(lines)


#: The authors the detail pane names before ``… and N more`` (:func:`authors_text`).
AUTHORS_SHOWN = 10


def authors_text(authors: Sequence[str], every: bool = False, more: bool = False) -> str:
    """The authors as the detail pane lists them: all of them when ``every`` or when there are at
    most :data:`AUTHORS_SHOWN` + 2 (no ``… and 2 more`` for two names); else the first
    :data:`AUTHORS_SHOWN` then ``… and 290 more (enter reads them all)``: a paper of 300 authors
    does not push the rest of the pane away; ``more``: the source's list was cut short
    (:attr:`Paper.authors_more`), ``… et al.`` after the names. Not sanitised: the field's line
    makes it safe."""
    if every or len(authors) <= AUTHORS_SHOWN + 2:
        return ", ".join(authors) + (" … et al." if more else "")
    rest = len(authors) - AUTHORS_SHOWN
    return ", ".join(authors[:AUTHORS_SHOWN]) + f" … and {rest:,} more (enter reads them all)"


def detail_content(
    paper: Paper,
    user: UserData,
    summary: ReviewSummary | None = None,
    rank: Rank | None = None,
    changes: Sequence[PaperChange] = (),
    *,
    followed: str = "",
    terms: tuple[str, ...] = (),
    events: Sequence[ScheduleEvent] = (),
    all_authors: bool = False,
) -> Content:
    """The whole detail pane for ``paper`` as one piece of content (no paper text parsed as markup);
    ``summary`` and ``rank`` (see :meth:`paperdeck.store.reviews.ReviewStore.rank`): its reviews'
    scores, shown under the decision line when it has rated reviews; ``changes``: what imports
    changed on it, oldest first (:func:`history_content`, above the note); ``followed``: why the user
    follows it (``"following author Jane Doe"``), shown with the star and status; ``terms``: the
    query's words (and their typo matches) to mark in the title, authors, keywords and abstract
    (:func:`marked`); ``events``: when and where it is presented
    (:meth:`~paperdeck.model.schedule.ScheduleEvent.when_and_where`), under the decision line;
    ``all_authors``: every author named (the reader), else a long list cut
    (:func:`authors_text`). A paper without an abstract says ``No abstract.`` where it would be."""
    title_style = _BOLD + (_ITALIC if paper.title_derived else Style())
    lines: list[Content] = [marked(Content.styled(one_line(render_plain(paper.title)), title_style), terms)]
    if paper.title_derived:
        lines.append(Content.styled("title derived from abstract", _DIM + _ITALIC))
    status = [Content(one_line(paper.venue_label) or "venue unknown")]
    if paper.decision != "unknown":
        label = DECISION_LABELS.get(paper.decision) or one_line(paper.decision)
        status.append(Content.styled(label, _decision_style(paper)))
    status.append(Content(_ratings_text(paper)))
    lines.append(Content(" · ").join(status))
    if summary is not None and summary.count:
        lines.append(reviews_content(summary, rank))
    lines += [Content.assemble(("When: ", "bold $text-muted"), one_line(event.when_and_where())) for event in events]
    lines.append(Content.styled(one_line("Source: " + ", ".join(paper.sources)), _DIM))
    if paper.authors:
        lines.append(_field("Authors", authors_text(paper.authors, all_authors, paper.authors_more), terms))
    if paper.primary_area:
        lines.append(_field("Area", paper.primary_area))
    if paper.keywords:
        lines.append(_field("Keywords", "; ".join(render_keywords(paper.keywords)), terms))
    marks = []
    if user.starred:
        marks.append(Content.styled("★ starred", "$text-warning bold"))
    if user.status != "unseen":
        marks.append(Content.styled(user.status, "bold $text-accent"))
    if user.tags:
        marks.append(Content.styled(" ".join(f"#{one_line(tag)}" for tag in user.tags), "$text-accent"))
    if followed:
        marks.append(Content.styled(f"{FOLLOWED} {one_line(followed)}", "$text-success bold"))
    if marks:
        lines.append(Content(" · ").join(marks))
    if paper.tldr:
        lines.append(Content.assemble(("TL;DR: ", "bold $text-muted")) + _rendered(paper.tldr))
    if changes:
        lines += [Content(""), history_content(changes, user.looked)]
    if user.note:
        lines += [Content(""), Content.styled("Your note", _BOLD + _UNDERLINE), *_note_lines(user.note)]
    lines.append(Content(""))
    if paper.abstract.strip():
        lines.append(marked(_rendered(paper.abstract), terms))
    else:
        lines.append(Content.styled("No abstract.", _DIM + _ITALIC))
    links = [
        _link(label, url)
        for label, url in (
            ("OpenReview", paper.openreview_url),
            ("PDF", paper.pdf_url),
            ("Code", paper.code_url),
            ("arXiv", paper.arxiv_url),
        )
        if url
    ]
    lines.append(Content(""))
    lines.extend(links)
    if paper.decision_raw:
        lines.append(Content.styled(one_line(f"Decision as written: {paper.decision_raw}"), _DIM))
    lines.append(Content.styled(one_line(paper.id), _DIM))
    return Content("\n").join(lines)
