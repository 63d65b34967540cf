"""How the command line shows a text or a score summary, importing only what that needs: the
one-paper commands' quick path (:mod:`paperdeck.cli.quick`) and the full commands
(:mod:`paperdeck.cli.output`, :mod:`paperdeck.cli.reviews`) call these same functions.

Nothing here makes text safe for a terminal: the caller's :func:`~paperdeck.model.safe_text.one_line`
or :func:`~paperdeck.model.safe_text.visible` does. The module imports the sanitiser's module alone
(:mod:`paperdeck.model.safe_text`, for its markup test) and the rule for a mean rating
(:mod:`paperdeck.model.rating_text`, which imports nothing); the renderer is imported only for a text with markup.
"""

from __future__ import annotations

from paperdeck.model.rating_text import mean_text
from paperdeck.model.safe_text import has_markup

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from typing import Protocol

    class Summary(Protocol):
        """What :func:`summary_line` reads of a score summary
        (:class:`paperdeck.model.review_summary.ReviewSummary` has it)."""

        @property
        def count(self) -> int: ...
        @property
        def mean(self) -> float | None: ...
        @property
        def ratings(self) -> tuple[float, ...]: ...
        @property
        def confidence(self) -> float | None: ...
        @property
        def soundness(self) -> float | None: ...
        @property
        def presentation(self) -> float | None: ...
        @property
        def contribution(self) -> float | None: ...
        @property
        def scale(self) -> str: ...
        @property
        def comments(self) -> int: ...
        @property
        def spread(self) -> float | None: ...

    class MovedSummary(Summary, Protocol):
        """What :func:`move_line` reads of it besides."""

        @property
        def moved(self) -> int: ...
        @property
        def rating_initial(self) -> float | None: ...
        @property
        def rating_delta(self) -> float | None: ...


__all__ = ["move_line", "number_text", "shown_text", "summary_line"]


def shown_text(text: str, raw: bool = False) -> str:
    """``text`` (a title, an abstract, a review's text) as the app shows it, without styles:
    LaTeX math as Unicode, Markdown and LaTeX emphasis as their words
    (:func:`paperdeck.text.render.render_plain`: ``$\\alpha$-DPO`` → ``α-DPO``). ``raw``
    (``--raw``): the source text as it is. Not sanitised here: the caller's
    :func:`~paperdeck.model.safe_text.one_line` or :func:`~paperdeck.cli.output.emit` is."""
    if raw or not has_markup(text):  # the same test as :func:`~paperdeck.model.safe_text.shown_line`
        return text
    from paperdeck.text.render import render_plain  # deferred: most titles have no markup

    return render_plain(text)


def number_text(value: float | None) -> str:
    """A score as the command line writes it: ``6``, ``5.33``; ``—`` for none."""
    if value is None:
        return "—"
    return f"{value:g}" if value == int(value) else f"{value:.2f}"


def summary_line(summary: Summary | None) -> str:
    """``"rating 5.33 (4, 6, 6; spread 2) from 3 reviews, confidence 3.67"``; ``"no reviews"``."""
    if summary is None or not summary.count:
        if summary is None:
            return "reviews: none imported"
        return f"reviews: no ratings ({summary.comments:,} comment{'' if summary.comments == 1 else 's'})"
    each = ", ".join(number_text(r) for r in summary.ratings)
    reviews = f"{summary.count:,} review{'' if summary.count == 1 else 's'}"
    text = f"rating {mean_text(summary.mean)} ({each}; spread {number_text(summary.spread)}) from {reviews}"
    if summary.confidence is not None:
        text += f", confidence {number_text(summary.confidence)}"
    means = [(name, getattr(summary, name)) for name in ("soundness", "presentation", "contribution")]
    text += "".join(f", {name} {number_text(value)}" for name, value in means if value is not None)
    if summary.scale:
        text += f" (scale {summary.scale})"
    return text


def move_line(summary: MovedSummary | None) -> str | None:
    """The paper's mean rating then (each review's first rating) and now, when any review's rating
    moved: ``"rating then and now: 5.3 ↑6.0 (2 of 3 reviews moved)"`` (``↓`` a fall, ``=`` the
    same mean); ``None`` when no rating moved."""
    if summary is None or not summary.moved or summary.mean is None or summary.rating_initial is None:
        return None
    then, now, delta = summary.rating_initial, summary.mean, summary.rating_delta or 0.0
    arrow = "↑" if delta > 0 else "↓" if delta < 0 else "="
    moved = f"{summary.moved:,} of {summary.count:,} review{'' if summary.count == 1 else 's'} moved"
    return f"rating then and now: {mean_text(then)} {arrow}{mean_text(now)} ({moved})"
