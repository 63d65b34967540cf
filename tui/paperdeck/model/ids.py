"""Paper ids and the text normalisation they rest on.

Canonical ids, best first: ``openreview:<forum id>``, ``arxiv:<id without version>``,
``doi:<doi>``, ``<venue><year>#<submission number>``, ``title:<venue>-<year>:<12 hex>``; seed text
uses ``abs:<16 hex>`` (see :func:`paperdeck.model.paper.abstract_id`).

The OpenReview forum id (``id``/``forum`` of a note, or ``id=`` in a forum or PDF URL) is the key of
everything from OpenReview: case-sensitive (never lower-cased), 10 characters in 2026, 9–11 with
``-`` or ``_`` in older years (``BJ8vJebC-``). A submission number is unique only within one venue
and year. An arXiv id is kept without its version (``2202.12139v1`` → ``2202.12139``; old-style ids
contain a slash, ``cond-mat/0412498``). A BibTeX citation key is never an id: keys repeat.
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from urllib.parse import parse_qs, urlparse

_NON_ALNUM = re.compile(r"[\W_]+")
_ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(v\d+)?")
_ARXIV_OLD = re.compile(r"([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?")
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_\-]{6,16}$")
_PLAIN_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")
#: The longest note id :func:`plain_id` accepts.
MAX_PLAIN_ID = 64
#: Titles and abstracts that are placeholders (withdrawn papers' ``Withdrawn``, ``n/a``, ``.``): missing
#: data, never merge keys.
_PLACEHOLDERS = {"", ".", "-", "1", "na", "n/a", "none", "tbd", "withdrawn", "withdraw", "placeholder"}
#: Abstracts shorter than this (in characters, white space collapsed) are placeholders.
MIN_ABSTRACT_KEY_CHARS = 100


def normalise_title(text: str) -> str:
    """NFKC, lower-case, HTML entities unescaped, BibTeX braces removed, every run of
    non-alphanumerics one space, trimmed. LaTeX commands stay as letters."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    if "&" in text:
        text = html.unescape(text)
    return _NON_ALNUM.sub(" ", text.replace("{", "").replace("}", "").casefold()).strip()


#: What :func:`title_match_key` renders first: the renderer's markup (math, macros, emphasis, HTML
#: entities; :func:`paperdeck.model.safe_text.markup`'s characters). A title without any is read as it is.
_TITLE_MARKUP = re.compile(r"[$\\*_`\[&<~]")


def title_match_key(title: str) -> str:
    """The title as the merge matches it: as a reader sees it (the text room's LaTeX and Markdown
    rendered, :func:`paperdeck.text.render.render_plain`: ``R\\'enyi`` → ``Rényi``,
    ``$\\texttt{X}$`` → ``X``, ``$\\ell_\\infty$`` → ``ℓ_∞``), folded as search folds text
    (:func:`paperdeck.text.fold.fold_text`: case and accents, ``Rényi`` → ``renyi``), then
    :func:`normalise_title`'s runs of punctuation made one space — a math symbol (``∞``, ``≤``)
    kept as a word of its own. Ids never use it (:func:`title_id` hashes :func:`normalise_title`:
    a stored id never moves); only which records are one paper."""
    from paperdeck.text.fold import fold_text  # deferred: below the model, and only for a merge

    if _TITLE_MARKUP.search(title) is not None or "''" in title:
        from paperdeck.text.render import render_plain  # deferred: most titles have no markup

        title = render_plain(title)
    if "&" in title:
        title = html.unescape(title)
    text = fold_text(title.replace("{", "").replace("}", ""))
    if not text.isascii():
        text = "".join(f" {ch} " if unicodedata.category(ch) in ("Sm", "So") else ch for ch in text)
        return " ".join(part for part in _NON_ALNUM_OR_SYMBOL.split(text) if part)
    return _NON_ALNUM.sub(" ", text).strip()


#: Runs of characters :func:`title_match_key` drops (neither a letter, a digit nor a math symbol).
_NON_ALNUM_OR_SYMBOL = re.compile(r"(?:(?![\u2190-\u2bff\u00ac\u00b1\u00d7\u00f7])[\W_])+")


#: Venues known under more than one name or spelling (case-folded) → the one name the library uses:
#: renamed conferences (NIPS became NeurIPS in 2018) and spellings of a venue's short name. Applied
#: wherever a venue is read (:func:`canonical_venue`), so that one venue has one label and one id space.
VENUE_ALIASES: dict[str, str] = {
    "nips": "NeurIPS",
    "neurips": "NeurIPS",
    "iclr": "ICLR",
    "icml": "ICML",
    "cvpr": "CVPR",
    "colm": "COLM",
    "tmlr": "TMLR",
    "jmlr": "JMLR",
}


def canonical_venue(venue: str) -> str:
    """The name the library uses for ``venue`` (:data:`VENUE_ALIASES`: ``"NIPS"`` → ``"NeurIPS"``),
    ``venue`` itself when it has no other name."""
    return VENUE_ALIASES.get(venue.casefold(), venue) if venue else venue


def canonical_venue_label(label: str) -> str:
    """A venue label (:func:`paperdeck.model.paper.library_venue`: ``"NIPS 2018"``, ``"nips"``) with
    its venue made :func:`canonical_venue` (``"NeurIPS 2018"``); other labels as they are."""
    name, sep, year = label.strip().rpartition(" ")
    if not (sep and year.isdigit()):
        name, sep, year = label.strip(), "", ""
    canonical = canonical_venue(name)
    return f"{canonical}{sep}{year}" if canonical != name else label


def venue_renamed_id(
    paper_id: str, old_venue: str, new_venue: str, year: int | None, new_year: int | None = None
) -> str:
    """``paper_id`` with the venue it was built from (:func:`canonical_id`'s ``title:`` and
    ``<venue><year>#<number>`` ids, and a venue-qualified ``…@<venue>-<year>``) ``old_venue``
    made ``new_venue`` (``""``: no venue, ``title:unknown-…``), and its ``year`` made ``new_year``
    when given (a venue named at import, ``--venue "COLM 2025"``, to a paper of no venue nor
    year); other ids (a forum id, an arXiv id, a DOI, an abstract hash) as they are."""
    old, new, when = id_venue(old_venue) or "unknown", id_venue(new_venue) or "unknown", year or "unknown"
    new_when = new_year or when
    if old == new and new_when == when:
        return paper_id
    renames = [(f"title:{old}-{when}:", f"title:{new}-{new_when}:")]
    if new != "unknown" and year:  # a number id needs a venue: without one it stays as it is
        renames.append((f"{old}{year}#", f"{new}{new_when}#"))
    for before, after in renames:
        if paper_id.startswith(before):
            return after + paper_id[len(before) :]
    suffix = f"@{old}-{when}"
    if paper_id.endswith(suffix):
        return paper_id[: -len(suffix)] + f"@{new}-{new_when}"
    return paper_id


_LABEL_YEAR = re.compile(r"^(.*?\S)\s+((?:19|20)\d{2})$")


def venue_and_year(label: str) -> tuple[str, int | None]:
    """A venue label as the picker shows it, split: ``"COLM 2025"`` → ``("COLM", 2025)``,
    ``"TMLR"`` → ``("TMLR", None)``; the venue takes the library's name (:func:`canonical_venue`:
    ``"nips 2018"`` → ``("NeurIPS", 2018)``). White space is collapsed; ``("", None)`` for a
    blank label."""
    text = " ".join(label.split())
    match = _LABEL_YEAR.match(text)
    name, year = (match.group(1), int(match.group(2))) if match else (text, None)
    return canonical_venue(name), year


def title_id(venue: str, year: int | None, title: str) -> str:
    """Synthetic id of a paper known by title only: ``title:iclr-2025:<12 hex of SHA-1>``."""
    digest = hashlib.sha1(normalise_title(title).encode("utf-8")).hexdigest()[:12]
    return f"title:{id_venue(venue) or 'unknown'}-{year or 'unknown'}:{digest}"


def openreview_id_from_url(url: str) -> str:
    """The forum id in an OpenReview forum or PDF URL (``…/forum?id=X``), ``""`` when none."""
    if "openreview.net" not in url:
        return ""
    values = parse_qs(urlparse(url.strip()).query).get("id") or [""]
    value = values[0].strip()
    return value if _OPENREVIEW_ID.match(value) else ""


def valid_openreview_id(value: str) -> bool:
    """True for a plausible OpenReview note id (6–16 of ``[A-Za-z0-9_-]``)."""
    return bool(_OPENREVIEW_ID.match(value))


def _printable(text: str) -> bool:
    """No control, format, private-use, unassigned or white-space character (an escape code, a NUL,
    a right-to-left override), and no backslash."""
    if text.isascii():
        return text.isprintable() and " " not in text and "\\" not in text
    return "\\" not in text and not any(unicodedata.category(char)[0] in "CZ" for char in text)


def id_venue(venue: str) -> str:
    """``venue`` as an id part: case-folded, without a slash or any character :func:`_printable` refuses."""
    folded = venue.casefold()
    if _printable(folded) and "/" not in folded:
        return folded
    return "".join(char for char in folded if char != "/" and _printable(char))


def plain_id(value: str) -> bool:
    """True for an id that is a plain token: 1 to :data:`MAX_PLAIN_ID` of ``[A-Za-z0-9_-]``.

    Every OpenReview note id is one. An id from a file or a server that is not (``../../x``,
    ``a/b``, a NUL, an escape code, a right-to-left override, white space) is refused by the
    readers: it would become part of paths, links and terminal output."""
    return _PLAIN_ID.fullmatch(value) is not None


def arxiv_id(text: str) -> str:
    """The versionless arXiv id in an id, an abs/pdf URL or ``arXiv:…`` text; ``""`` when none.

    ``http://arxiv.org/abs/2202.12139v1`` → ``2202.12139``; ``cond-mat/0412498v2`` → ``cond-mat/0412498``.
    """
    match = _ARXIV_NEW.search(text)
    if match:
        return match.group(1)
    match = _ARXIV_OLD.search(text)
    return match.group(1) if match else ""


def canonical_id(
    *,
    openreview_id: str = "",
    arxiv: str = "",
    doi: str = "",
    venue: str = "",
    year: int | None = None,
    number: int | None = None,
    title: str = "",
) -> str:
    """The best id the known identifiers allow (see the module docstring).

    Args:
        openreview_id: the forum id, case kept; arxiv: the versionless arXiv id; doi: the DOI
            (lower-cased in the id); venue, year, number: the submission number within a venue
            and year; title: the title, for a synthetic ``title:`` id (:func:`title_id`).

    Returns:
        The first of ``openreview:…``, ``arxiv:…``, ``doi:…``, ``<venue><year>#<number>``,
        ``title:…`` the arguments allow.

    A DOI holding white space or a control, format or bidirectional character is not used, and
    such characters (and ``/``) are left out of a venue in an id: an id never carries them.

    Raises:
        ValueError: nothing to build an id from (no identifier and a placeholder title).
    """
    if openreview_id:
        return f"openreview:{openreview_id}"
    if arxiv:
        return f"arxiv:{arxiv}"
    if doi and _printable(doi):
        return f"doi:{doi.casefold()}"
    venue = id_venue(venue)
    if number is not None and venue and year:
        return f"{venue}{year}#{number}"
    if not is_placeholder_title(title):
        return title_id(venue, year, title)
    raise ValueError("no id, number or title to identify the paper")


def is_placeholder_title(title: str, *, normalised: bool = False) -> bool:
    """True for titles that carry no identity (``Withdrawn``, ``n/a``, ``.``); pass
    ``normalised=True`` when ``title`` is already :func:`normalise_title` output."""
    key = title if normalised else normalise_title(title)
    return key in _PLACEHOLDERS or len(key) < 4


def is_placeholder_abstract(abstract: str) -> bool:
    """True for abstracts too short to identify a paper (under 100 characters, ``n/a``)."""
    # A prefix's words joined are a prefix of the whole's (its last word possibly cut): enough
    # of them settles it without splitting a whole abstract (~800 characters) per paper.
    if len(" ".join(abstract[: 2 * MIN_ABSTRACT_KEY_CHARS].split())) >= MIN_ABSTRACT_KEY_CHARS:
        return False
    return len(" ".join(abstract.split())) < MIN_ABSTRACT_KEY_CHARS
