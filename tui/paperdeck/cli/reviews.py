"""``paperdeck reviews ID``: a paper's reviews, meta-review, decision and comments, and the score
lines ``show`` and ``stats`` add. Every text from a review is shown as the app's reviews screen
renders it (LaTeX math as Unicode, no styles; ``--raw``: as written) and goes through
:mod:`paperdeck.model.safe_text` (:func:`paperdeck.cli.output.emit` prints it :func:`visible`)."""

from __future__ import annotations

import argparse
import shutil
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from paperdeck.cli.output import emit
from paperdeck.cli.selecting import find_paper
from paperdeck.cli.shown import move_line, shown_text, summary_line
from paperdeck.cli.shown import number_text as _number
from paperdeck.model.counts import counted
from paperdeck.model.review import Review, decision_line, ordered_reviews, scores_only, scores_only_line
from paperdeck.model.safe_text import one_line, shown_line
from paperdeck.store.store import Store

__all__ = ["cmd_reviews", "move_line", "path_lines", "review_stats", "review_stats_lines", "summary_line"]


def _day(ms: int, after: str = "") -> str:
    """``2025-11-22``; without the year when it is ``after``'s; ``?`` for no time."""
    if ms <= 0:
        return "?"
    day = datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d")
    return day[5:] if after[:4] == day[:4] else day


def path_lines(review: Review) -> list[str]:
    """Each score of the review that took more than one value across its versions, with the day
    each value was first given, oldest first: ``"rating 6 → 8 (2025-11-12 → 11-21)"``; ``[]`` for
    a review seen in one version or whose scores never moved."""
    if not review.earlier:
        return []
    history = review.history()
    names = list(dict.fromkeys(name for version in history for name, _ in version.scores))
    lines = []
    for name in names:
        steps: list[tuple[float, int]] = []
        for version in history:
            value = version.score(name)
            if value is not None and (not steps or steps[-1][0] != value):
                steps.append((value, version.time))
        if len(steps) < 2:
            continue
        values = " → ".join(_number(value) for value, _ in steps)
        first = _day(steps[0][1])
        days = " → ".join([first, *(_day(time, first) for _, time in steps[1:])])
        lines.append(f"{name} {values} ({days})")
    return lines


def _scores_text(review: Review) -> str:
    labels = dict(review.score_labels)
    return ", ".join(
        f"{name} {_number(value)}" + (f" ({one_line(labels[name])})" if name in labels else "")
        for name, value in review.scores
    )


def cmd_reviews(store: Store, args: argparse.Namespace) -> int:
    """Print one paper's reviews: its decision when no decision note states it
    (:func:`~paperdeck.model.review.decision_line`), its score summary, then every note in reading order (a paper
    without any: the one summary line says so)."""
    paper = find_paper(store, args.id)
    forum = paper.openreview_id
    reviews = store.reviews.reviews(forum) if forum else []
    summary = store.reviews.summary(forum) if forum else None
    lines = [shown_line(paper.title, args.raw), f"id: {paper.id}"]
    if decision := decision_line(paper, reviews):  # no decision note says it
        lines.append(one_line(decision))
    lines.append(summary_line(summary))
    width = shutil.get_terminal_size((100, 24)).columns
    if moved := move_line(summary):
        lines.append(moved)
    if only := scores_only_line(reviews):
        lines.append(only)
    for depth, review in ordered_reviews(reviews):
        indent = "    " * depth
        head = f"{review.kind}" + (f" by {one_line(review.signature)}" if review.signature else "")
        head += ", no review text" if scores_only(review) else ""
        lines += ["", f"{indent}── {head} ({review.id})"]
        if review.scores:
            lines.append(f"{indent}{_scores_text(review)}")
        if moves := path_lines(review):
            lines.append(f"{indent}moved: " + "; ".join(moves))
        for name, text in review.sections:
            lines.append(f"{indent}{name.replace('_', ' ')}:")
            lines += [f"{indent}  {line}" for line in _section_lines(text, args.raw, width - len(indent) - 2)]
    if not reviews and summary is not None:  # without a summary, its line said so already
        lines.append("no reviews imported for this paper")
    data: dict[str, Any] = {
        "id": paper.id,
        "forum": forum,
        "decision": one_line(decision) or None,
        "summary": summary.public_dict() if summary else None,
        "scores_only": only or None,
        "reviews": [review.public_dict() | {"depth": depth} for depth, review in ordered_reviews(reviews)],
    }
    emit(args, data, "\n".join(lines))
    return 0


def _section_lines(text: str, raw: bool, width: int) -> list[str]:
    """A review section's lines as the reviews screen shows them, without styles: its text
    rendered (:func:`~paperdeck.cli.shown.shown_text`) and its Markdown tables laid out in
    ``width`` columns (:func:`~paperdeck.text.markdown_tables.table_lines`), a blank line between
    a table and the text before and after it; ``raw``: the source. Sanitised by
    :func:`~paperdeck.cli.output.emit`."""
    if raw or "|" not in text:
        return shown_text(text, raw).splitlines()
    from paperdeck.text.markdown_tables import split_tables, table_lines

    lines: list[str] = []
    after_table = False
    for piece, is_table in split_tables(text):
        shown = table_lines(piece, max(width, 20)) if is_table else shown_text(piece).splitlines()
        if (is_table or after_table) and lines and lines[-1].strip() and shown and shown[0].strip():
            lines.append("")
        lines += shown
        after_table = is_table
    return lines


def review_stats(store: Store) -> tuple[dict[str, Any], list[str]]:
    """``stats``' review part: reviewed papers, notes, official reviews and the rating
    distribution, as data and as lines (:func:`review_stats_lines`)."""
    summaries = store.reviews.summaries()
    counts = store.reviews.counts()
    distribution: Counter[float] = Counter(r for s in summaries.values() for r in s.ratings)
    data = {
        "reviewed_papers": sum(1 for s in summaries.values() if s.count),
        "review_notes": counts["notes"],
        "reviews": sum(s.count for s in summaries.values()),
        "rating_distribution": {_number(k): v for k, v in sorted(distribution.items())},
    }
    return data, review_stats_lines(data)


#: What ``review_notes`` counts: every note the review store holds, whatever it holds (a Paper
#: Copilot list's ratings-only reviews too): not notes with comments.
NOTES_LABEL = "stored in all (reviews, ratings-only ones too, meta-reviews, decisions, comments)"


def review_stats_lines(data: dict[str, Any]) -> list[str]:
    """The lines of :func:`review_stats`' data (as a cache kept it): ``"reviews: 907 reviewed
    papers, 3,072 reviews; 3,072 notes stored in all (…)"``."""
    notes = data.get("review_notes")
    lines = [
        f"\nreviews: {counted(data['reviewed_papers'], 'reviewed paper')}, {counted(data['reviews'], 'review')}"
        + (f"; {counted(notes, 'note')} {NOTES_LABEL}" if notes is not None else "")
    ]
    distribution = data["rating_distribution"]
    if distribution:
        lines.append("rating distribution:")
        lines += [f"  {k:>5}  {v:>7,}" for k, v in sorted(distribution.items(), key=lambda item: float(item[0]))]
    return lines
