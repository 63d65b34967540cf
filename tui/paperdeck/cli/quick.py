"""The quick path of ``paperdeck show ID``, ``star|unstar ID…``, ``status ID STATUS``, ``note ID
--text TEXT`` and ``tag|untag ID TAG…``: the same output, and the same bytes written, as
:func:`paperdeck.cli.commands.cmd_show`, :func:`~paperdeck.cli.commands.cmd_star`,
:func:`~paperdeck.cli.commands.cmd_status`, :func:`~paperdeck.cli.commands.cmd_note` and
:func:`~paperdeck.cli.commands.cmd_tag`, without importing what opening the store for any command
imports (the dataclass models, ``pathlib``, ``typing``, ``orjson``, ``argparse``, TinyDB).

:func:`run` takes a command line it can answer exactly and answers it: the paper, its user
record and its review summary read as documents, a mark written into its shard
(:mod:`paperdeck.store.one_paper`), rendered by the same functions (:mod:`paperdeck.cli.shown`) and
sanitised by the same sanitiser (:mod:`paperdeck.model.safe_text`). Anything else — an option
(``--json``, ``--raw``, ``--help``), no data directory named (``--data-dir`` or
``$PAPERDECK_DATA_DIR``: finding the platform's default costs more than the whole path saves), a
case :class:`~paperdeck.store.one_paper.NotHere` names, a review whose rating moved (its history
is read), papers whose records lie in several shards — gives ``None``
having printed and written nothing, and :func:`paperdeck.cli.main.main` takes the full path.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DATA_DIR_ENV", "QUICK_COMMANDS", "run"]

#: :data:`paperdeck.paths.DATA_DIR_ENV` (a test holds them equal: paths imports pathlib).
DATA_DIR_ENV = "PAPERDECK_DATA_DIR"
#: The commands :func:`run` may answer.
QUICK_COMMANDS = frozenset({"show", "star", "unstar", "status", "note", "tag", "untag"})
#: :data:`paperdeck.model.user.STATUSES`.
STATUSES = ("unseen", "skimmed", "to-read", "read", "dismissed")


def _data_dir(leading: str | None) -> str | None:
    """The data directory as :func:`paperdeck.paths.data_dir` finds it from ``--data-dir``
    (``leading``) or the environment; ``None`` when neither names one."""
    given = leading or os.environ.get(DATA_DIR_ENV)
    return os.path.expanduser(given) if given else None


def run(words: list[str], leading: str | None) -> int | None:
    """Answer ``paperdeck [--data-dir DIR] COMMAND ARGS`` (``words``: the command and what
    follows; ``leading``: the ``--data-dir`` before the command) when it can exactly: the exit
    status. ``None`` when it cannot; then nothing was printed or written."""
    if not _plain(words):
        return None
    directory = _data_dir(leading)
    if directory is None:
        return None
    from paperdeck.store.one_paper import NotHere

    try:
        if words[0] == "show":
            text = _show(directory, words[1])
        elif words[0] in ("star", "unstar"):
            text = _star(directory, words[0] == "star", words[1:])
        elif words[0] in ("tag", "untag"):
            text = _tag(directory, words[0] == "tag", words[1], words[2:])
        else:
            text = _mark(directory, words[0], words[1], words[-1])
    except NotHere:
        return None
    from paperdeck.model.safe_text import visible

    try:
        print(visible(text))
        sys.stdout.flush()
    except BrokenPipeError:  # `paperdeck show ID | head -1`: the reader left; that is fine
        sys.stdout = None
    return 0


def _plain(words: list[str]) -> bool:
    """Whether ``words`` is a command line :func:`run` answers: ``show ID``, ``star|unstar ID…``,
    ``status ID STATUS``, ``note ID --text TEXT``; the ids and the status not empty nor beginning
    with ``-``, the note's text not beginning with ``-``, every word valid UTF-8."""
    if not words or words[0] not in QUICK_COMMANDS:
        return False
    command, named = words[0], words[1:]
    if command == "show":
        plain = len(named) == 1
    elif command == "status":
        plain = len(named) == 2 and named[1] in STATUSES
    elif command == "note":
        plain = len(named) == 3 and named[1] == "--text" and not named[2].startswith("-")
        named = named[:1]
    elif command in ("tag", "untag"):  # a blank, dashed or ':' tag: the full path refuses it
        tags = split_tags(named[1:])
        plain = len(named) >= 2 and all(
            clean_tag(tag) and not clean_tag(tag).startswith("-") and ":" not in tag for tag in tags
        )
    else:
        plain = len(named) >= 1
    if not plain or any(not word or word.startswith("-") for word in named):
        return False
    try:
        for word in words:
            word.encode("utf-8")
    except UnicodeEncodeError:
        return False  # the full path says which byte
    return True


def clean_tag(text: str) -> str:
    """:func:`paperdeck.model.user.clean_tag` (a test holds them equal): a tag as stored."""
    text = text.replace('"', " ").casefold()
    return "-".join(text.lstrip().lstrip("#").split()) or "-".join(text.split())


def split_tags(texts: list[str]) -> list[str]:
    """:func:`paperdeck.model.user.split_tags` (a test holds them equal): one tag per comma-separated piece."""
    return [piece for text in texts for piece in ([p for p in text.split(",") if p.strip()] or [""])]


def _tag(directory: str, adding: bool, given: str, tags: list[str]) -> str:
    """Add (``adding``) or remove ``tags`` on the paper ``given`` names as
    :func:`paperdeck.cli.commands.cmd_tag` does; the text it prints.

    Raises:
        NotHere: as :func:`paperdeck.store.one_paper.change_records` (nothing written then).
    """
    from paperdeck.model.safe_text import one_line, shown_line
    from paperdeck.store.one_paper import change_records, check_store, paper_document

    tags = split_tags(tags)
    cleaned = {clean_tag(tag) for tag in tags}

    def change(record: dict[str, Any]) -> dict[str, Any]:
        kept = set(record["tags"]) | cleaned if adding else set(record["tags"]) - cleaned
        kept.discard("")
        return {**record, "tags": sorted(kept)}

    check_store(directory)
    paper = paper_document(directory, given)
    paper_id = paper["id"]
    before, after = change_records(directory, [paper_id], change, _utc_now)[paper_id]
    if after is not before:
        text = f"{paper_id}: {', '.join(after['tags']) or 'no tags'}"
    else:
        named = ", ".join(tags)
        # as paperdeck.model.user.no_tag_said (not imported: the quick path stays light)
        text = f"already tagged {named}: {paper_id}" if adding else f"No tag {named} on {paper_id}: nothing removed."
    return f"{one_line(text)}  {shown_line(paper['title'])}"


def _mark(directory: str, command: str, given: str, value: str) -> str:
    """Set the reading status (``status``) or the note (``note``: an empty or blank text deletes
    it) of the paper ``given`` names as :func:`paperdeck.cli.commands.cmd_status` and
    :func:`~paperdeck.cli.commands.cmd_note` do; the text they print.

    Raises:
        NotHere: as :func:`paperdeck.store.one_paper.change_records` (nothing written then).
    """
    from paperdeck.model.safe_text import shown_line
    from paperdeck.store.one_paper import change_records, check_store, paper_document

    check_store(directory)
    paper = paper_document(directory, given)
    paper_id = paper["id"]
    title = shown_line(paper["title"])
    if command == "status":
        results = change_records(directory, [paper_id], lambda r: {**r, "status": value}, _utc_now, batch=False)
        before, after = results[paper_id]
        said = f"{value}:" if before["status"] != after["status"] else f"already {value}:"
        return f"{said} {paper_id}  {title}"
    note = value if value.strip() else ""
    after = change_records(directory, [paper_id], lambda r: {**r, "note": note}, _utc_now, batch=False)[paper_id][1]
    what = "saved the note of" if after["note"] else "deleted the note of"
    return f"{what} {paper_id}  {title}"


def _utc_now() -> str:
    """:func:`paperdeck.store.store.utc_now`: ISO 8601 UTC with microseconds."""
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat()


def _star(directory: str, starred: bool, given: list[str]) -> str:
    """Star (``starred``) or unstar the papers ``given`` names as
    :func:`paperdeck.cli.commands.cmd_star` does; the text it prints.

    Raises:
        NotHere: as :func:`paperdeck.store.one_paper.set_star` (nothing written then).
    """
    from paperdeck.model.safe_text import shown_line
    from paperdeck.store.one_paper import check_store, paper_document, set_star

    check_store(directory)
    papers = [paper_document(directory, name) for name in given]
    changed = set_star(directory, [paper["id"] for paper in papers], starred, _utc_now)
    done, kept = ("starred", "already starred:") if starred else ("unstarred", "not starred:")
    return "\n".join(f"{done if p['id'] in changed else kept} {p['id']}  {shown_line(p['title'])}" for p in papers)


class _Summary:
    """A score summary document as :func:`paperdeck.cli.shown.summary_line` reads it (the
    fields of :class:`paperdeck.model.review_summary.ReviewSummary`, from its ``to_dict``)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.count: int = doc.get("count", 0)
        self.mean: float | None = doc.get("mean")
        self.min: float | None = doc.get("min")
        self.max: float | None = doc.get("max")
        self.ratings: tuple[float, ...] = tuple(doc.get("ratings") or ())
        self.confidence: float | None = doc.get("confidence")
        self.soundness: float | None = doc.get("soundness")
        self.presentation: float | None = doc.get("presentation")
        self.contribution: float | None = doc.get("contribution")
        self.scale: str = doc.get("scale", "")
        self.comments: int = doc.get("comments", 0)
        self.moved: int = doc.get("moved", 0)

    @property
    def spread(self) -> float | None:
        """As :attr:`paperdeck.model.review_summary.ReviewSummary.spread`."""
        return None if self.max is None or self.min is None else self.max - self.min


def _show(directory: str, given: str) -> str:
    """The text :func:`paperdeck.cli.commands.cmd_show` prints for ``given`` (before
    :func:`~paperdeck.model.safe_text.visible`).

    Raises:
        NotHere: as :mod:`paperdeck.store.one_paper`'s readers, or a case rendered by code
            this path does not run (a rating that moved).
    """
    from paperdeck.cli.shown import shown_text, summary_line
    from paperdeck.model.safe_text import one_line, shown_line, visible, web_link
    from paperdeck.store.one_paper import NotHere, check_store, paper_document, summary_document, user_document

    check_store(directory)
    paper = paper_document(directory, given)
    get = paper.get
    paper_id: str = paper["id"]
    user = user_document(directory, paper_id) or {}
    forum: str = get("openreview_id", "")
    summary_doc = summary_document(directory, forum) if forum else None
    summary = _Summary(summary_doc) if summary_doc is not None else None
    if summary is not None and summary.moved:
        raise NotHere("a rating moved: each review's path is shown")
    venue_label = " ".join(part for part in (get("venue", ""), str(get("year") or "")) if part)
    lines = [
        shown_line(paper["title"]),
        f"id: {paper_id}",
        f"venue: {venue_label or '—'}   decision: {get('decision', 'unknown')}",
    ]
    if authors := get("authors"):
        lines.append("authors: " + one_line(", ".join(authors)))
    if keywords := get("keywords"):
        if any(shown_text(k) != k for k in keywords):
            from paperdeck.text.render import render_keywords  # as the full path: math split at a comma joined

            keywords = render_keywords(keywords)
        lines.append("keywords: " + one_line("; ".join(keywords)))
    ratings = get("ratings") or None
    if summary is not None and summary.count:
        lines.append(summary_line(summary))
    elif ratings:
        count = ratings.get("count")
        reviews = "? reviews" if not count else f"{count:,} review{'' if count == 1 else 's'}"
        lines.append(f"rating: {float(ratings['mean']):.2f} ({reviews})")
        if summary is not None:
            lines.append(summary_line(summary))
    else:
        lines.append("rating: no ratings yet" + (f"; {summary_line(summary)}" if summary is not None else ""))
    lines.append("area: " + (one_line(get("primary_area", "")) or "—"))
    links = (get("openreview_url", ""), get("arxiv_url", ""), get("pdf_url", ""))
    if link := next((url for url in links if web_link(url)), ""):
        lines.append("link: " + one_line(link))
    lines.append("sources: " + one_line(", ".join(get("sources") or ())))
    status = user.get("status") or "unseen"
    lines.append(f"starred: {'yes' if user.get('starred', False) else 'no'}   status: {status}")
    tags = tuple(sorted({str(tag) for tag in user.get("tags") or ()}))
    lines.append("tags: " + (one_line(", ".join(tags)) or "no tags"))
    lines += ["", visible(shown_text(paper["abstract"]))]
    if note := user.get("note") or "":
        lines += ["", "note:", visible(note)]
    return "\n".join(lines)
