"""One paper per real paper: match incoming records to the catalogue and combine their fields.

Matching, in order: the same canonical id or a known alias; the OpenReview forum id; the arXiv id
or DOI; the title as a reader sees it, folded as search folds it
(:func:`~paperdeck.model.ids.title_match_key`: ``R\\'enyi`` and ``Rényi`` are one) within the
same venue and year, or as a title a record of the paper was read under and the paper did not
keep (:meth:`Merger._join_other_titles`: a submission title beside the camera-ready one); a
fuzzy match of the normalised abstract
within the same venue and year (rapidfuzz ``fuzz.ratio`` ≥ :data:`ABSTRACT_MATCH_THRESHOLD`). Two
records with different forum ids (or arXiv ids, or DOIs) never match, and the abstract alone
never joins two records that both carry distinct real titles or submission numbers
(:func:`distinct_papers`). Placeholder titles and abstracts (``Withdrawn``, ``n/a``, under 100
characters) are never used as keys. A withdrawn submission that OpenReview moved to a new forum
joins its first forum's record by title (:func:`title_joins`). Titles never match across venues
or years: rejected papers are resubmitted with the same title and a new forum id.

A paper of one venue never joins a paper of another (:func:`compatible`: venue and year, where
both records name them): a resubmission keeps its arXiv id or DOI from one venue to the next, so
an arXiv id, a DOI or an id built from them joins two records only within one venue and year. A
record whose id is already a paper's of another venue takes that id qualified by its venue
(:func:`venue_qualified_id`: ``arxiv:2501.00001@iclr-2026``), and stays a paper of its own.

Threshold: on the real files, every bundled seed abstract scores well above it against its own
ICLR 2026 record and the best wrong record well below it; 70 sits in the middle of that gap.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace

from rapidfuzz import fuzz

from paperdeck.model.decision import bare_decision
from paperdeck.model.ids import (
    canonical_venue,
    id_venue,
    is_placeholder_abstract,
    is_placeholder_title,
    title_id,
    title_match_key,
    venue_renamed_id,
)
from paperdeck.model.paper import Paper, Ratings, normalise_text

#: Least rapidfuzz ``fuzz.ratio`` (0–100) of two normalised abstracts taken as one paper.
ABSTRACT_MATCH_THRESHOLD = 70.0
_MIN_SHARED_WORDS = 0.5
_MIN_ROUNDED_DECIMALS = 2
_ACCEPTED = frozenset({"oral", "spotlight", "poster", "accept", "accept-conditional", "workshop"})
_PENDING = frozenset({"unknown", "under-review"})
_ID_RANK = ("openreview:", "arxiv:", "doi:", "title:", "abs:")
_FILL_FIELDS = (
    "venue",
    "year",
    "primary_area",
    "tldr",
    "openreview_id",
    "arxiv_id",
    "doi",
    "number",
    "pdf_url",
    "code_url",
    "openreview_url",
    "arxiv_url",
    "bibtex",
)


def id_rank(paper_id: str) -> int:
    """Lower is better: forum ids before arXiv ids before DOIs … before abstract hashes."""
    for rank, prefix in enumerate(_ID_RANK):
        if paper_id.startswith(prefix):
            return rank
    return 3  # "<venue><year>#<number>" ids rank with title ids


def decision_specificity(decision: str) -> int:
    """How much a decision says: 0 ``unknown``, 1 ``under-review``, 2 ``accept`` (accepted, tier
    not given), 3 every final decision that names its tier or outcome (``oral``, ``poster``,
    ``accept-conditional``, ``workshop``, ``reject``, ``withdrawn``…)."""
    if decision == "unknown":
        return 0
    if decision in _PENDING:
        return 1
    return 2 if decision == "accept" else 3


def decision_replaces(old: str, new: str) -> bool:
    """Whether a merged source's decision ``new`` replaces the paper's ``old`` one: a later final
    decision does (a rejection after acceptance, a withdrawal), but a decision-less or pending
    source never replaces a final decision, and a plain ``accept`` never replaces the accepted
    tier it generalises (BibTeX's ``@inproceedings`` after Paper Copilot's ``Oral``)."""
    if new == old:
        return False
    new_rank, old_rank = decision_specificity(new), decision_specificity(old)
    if new_rank <= 1:
        return new_rank > old_rank
    return not (new == "accept" and old in _ACCEPTED)


def enriched(old: Ratings | None, new: Ratings) -> Ratings:
    """The ratings a paper keeps when a source brings ``new`` over its ``old`` ones.

    When the two agree on every part both give (:func:`agreeing`: the same mean, std, min, max
    or count wherever both have one, a value given to fewer decimals agreeing with the finer one
    it rounds), ``new`` adds to ``old`` without taking anything away: the result holds every part
    either gives, the finer of two agreeing values. So a source with the mean only (a CSV) never
    wipes the spread a richer source (Paper Copilot) gave, and a mean rounded to three places
    never flips with the unrounded one. When they disagree on another part but agree on the mean,
    they describe the same reviews: ``new``'s parts win and ``old``'s parts ``new`` lacks stay. When
    the means disagree, ``new`` is a newer count of the reviews and replaces ``old`` whole.
    Re-applying the same agreeing sources, in any order, changes nothing:
    ``enriched(enriched(o, n), n) == enriched(o, n)``.
    """
    if old is None or old == new:
        return new
    if old.mean is not None and new.mean is not None and agreeing(old.mean, new.mean) is None:
        return new
    kept: dict[str, float | int | str | None] = {"scale": wider_scale(old.scale, new.scale)}
    for spec in fields(Ratings):
        if spec.name == "scale":
            continue
        left, right = getattr(old, spec.name), getattr(new, spec.name)
        if left is None or right is None:
            kept[spec.name] = right if left is None else left
            continue
        finer = agreeing(left, right)
        kept[spec.name] = right if finer is None else finer
    return Ratings(**kept)  # type: ignore[arg-type]


def wider_scale(a: str, b: str) -> str:
    """Of two rating scales recorded for the same ratings (:attr:`Ratings.scale`; ``""`` none), the
    one spanning more (it holds the other's values), the text first in order on a tie; the same
    whichever is given first, so merging in any order settles on one."""
    if not a or not b or a == b:
        return a or b
    from paperdeck.model.venue import Scale

    def span(text: str) -> tuple[float, str]:
        scale = Scale.parse(text)
        return (scale.high - scale.low if scale is not None else -1.0), text

    return max((a, b), key=lambda text: (span(text)[0], [-ord(c) for c in text]))


def agreeing(a: float, b: float) -> float | None:
    """The finer of two numbers when they say the same, else ``None``: equal, or the one given to
    fewer decimals, two or more, is the other rounded to that many (``6.667`` and
    ``6.666666666666667``, ``6.67`` and ``6.667``). Values with fewer than two decimals (``6.0``,
    ``8.5``) and whole numbers agree only when equal: they are scores as given, not roundings."""
    if a == b:
        return a
    if isinstance(a, int) and isinstance(b, int):
        return None
    coarse, fine = (a, b) if _decimals(a) <= _decimals(b) else (b, a)
    if _decimals(coarse) < _MIN_ROUNDED_DECIMALS or _decimals(coarse) == _decimals(fine):
        return None
    # Half a unit in the coarse value's last place, and a hair more for binary floating point.
    half_unit = 0.5 * 10.0 ** -_decimals(coarse)
    return fine if abs(fine - coarse) <= half_unit * (1 + 1e-9) else None


def _decimals(value: float) -> int:
    """How many decimals ``value`` is written with (its shortest ``repr``)."""
    text = repr(float(value))
    if "e" in text:
        mantissa, exponent = text.split("e")
        digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
        return max(0, digits - int(exponent))
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


def compatible(a: Paper, b: Paper) -> bool:
    """False when two records are certainly different papers (different strong ids, venue or year)."""
    for name in ("openreview_id", "arxiv_id", "doi"):
        left, right = getattr(a, name), getattr(b, name)
        if left and right and left != right:
            return False
    if a.venue and b.venue and a.venue.casefold() != b.venue.casefold():
        return False
    return not (a.year and b.year and a.year != b.year)


def title_joins(a: Paper, b: Paper) -> bool:
    """Whether two records of one title key (the same title, venue and year) are one paper:
    :func:`compatible`, or only their OpenReview forum ids differ and one of them is a withdrawn
    submission. OpenReview moved a paper withdrawn from ICLR 2018 to a new forum: Paper Copilot's
    record has that forum's id while the BibTeX it carries (OpenReview's, and the entries of
    ``iclr2018_openreview-bibtex_from-papercopilot.bib``) cites the submission's — 16 papers,
    each the same record, title and authors under two ids. No venue file holds two submissions
    of one title (ICLR 2026: none of 19,630; ICLR 2018: only placeholder titles), so two forum
    ids under one real title are one paper where a withdrawal explains the second id; without
    one they stay two."""
    if compatible(a, b):
        return True
    if not (a.openreview_id and b.openreview_id) or "withdrawn" not in (a.decision, b.decision):
        return False
    return compatible(replace(a, openreview_id=b.openreview_id), b)


def on_withdrawn_forum(merged: Paper, incoming: Paper) -> Paper:
    """``merged`` (a paper ``incoming`` joined by title, :func:`title_joins`) under ``incoming``'s
    forum when that is the withdrawn paper's other forum id: the withdrawal's forum is where
    OpenReview keeps the paper and its reviews (Paper Copilot's ratings of it), so the paper has
    that id whichever file came first, its other id an alias."""
    forum = incoming.openreview_id
    if not (forum and merged.openreview_id and forum != merged.openreview_id and incoming.decision == "withdrawn"):
        return merged
    if not incoming.id.startswith("openreview:"):
        return merged
    url = incoming.openreview_url or merged.openreview_url
    return replace(merged, id=incoming.id, openreview_id=forum, openreview_url=url)


#: Id prefixes a resubmission keeps from one venue to the next (its arXiv id, its DOI): an id of
#: these joins two records only within one venue and year.
_PORTABLE_IDS = ("arxiv:", "doi:")
#: Ids a paper of another venue may share (matched only when compatible): not matched in place.
PORTABLE_IDS = _PORTABLE_IDS
#: The identifiers a resubmission keeps from one venue to the next.
_PORTABLE_KEYS = frozenset({"arxiv_id", "doi"})


def venue_qualified_id(paper: Paper) -> str:
    """``paper``'s id qualified by its venue and year (``arxiv:2501.00001@iclr-2026``): the id of
    a paper whose own id is already another venue's paper's (a resubmission with the same arXiv
    id). The venue is made an id part as :func:`paperdeck.model.ids.canonical_id` makes it."""
    return f"{paper.id}@{id_venue(paper.venue) or 'unknown'}-{paper.year or 'unknown'}"


def distinct_papers(a: Paper, b: Paper) -> bool:
    """True when two records name themselves apart, so that a near-identical abstract is not
    enough to join them: both carry a real title (not derived, not a placeholder) and the titles
    differ once normalised, or both carry a submission number and the numbers differ (different
    forum ids, arXiv ids or DOIs are already :func:`compatible`'s)."""
    if a.number is not None and b.number is not None and a.number != b.number:
        return True
    titles = _real_title(a), _real_title(b)
    return bool(titles[0] and titles[1] and titles[0] != titles[1])


def _real_title(paper: Paper) -> str:
    """The title of a paper with a real one as the merge matches it (rendered, folded:
    :func:`~paperdeck.model.ids.title_match_key`), else ``""``."""
    if paper.title_derived:
        return ""
    title = title_match_key(paper.title)
    return "" if is_placeholder_title(title, normalised=True) else title


def newer(old: Paper, new: Paper, field_name: str) -> bool:
    """Whether ``new`` is a newer version of ``old``'s ``field_name`` (its title or abstract): when
    both records carry a modification date (:attr:`~paperdeck.model.paper.Paper.modified`, from
    OpenReview's ``tmdate``/``mdate``), the later date is newer and an equal one is not; otherwise
    a record from the same source file (by name) as the one the field came from is newer, as the
    later import of that file (an edited file imported again). A record of another file without
    dates is not newer: which of two files is more authoritative is :func:`combine`'s rule."""
    if old.modified is not None and new.modified is not None:
        return new.modified > old.modified
    source = new.sources[0] if new.sources else ""
    return bool(source) and old.source_of(field_name) == source


def combine(old: Paper, new: Paper) -> Paper:
    """``old`` updated with ``new``: a newer version of the same record (:func:`newer`) replaces
    its title and abstract (a derived title excepted; an abstract too short to be a key only
    replaces another such) and its keywords and authors when it gives
    them; camera-ready text (title, abstract, keywords, authors of an accepted paper) beats the
    submission snapshot, a real title beats a derived one, a decision beats "under review", new
    ratings replace old ones unless they only repeat part of them (:func:`enriched`), empty fields
    are filled, the later modification date is kept, and each taken field records its source in
    ``provenance``. The better-ranked id (:func:`id_rank`) wins. ``combine(p, p) == p``, and
    combining the same sources again, in any order, changes nothing more."""
    source = new.sources[0] if new.sources else ""
    taken: dict[str, object] = {}
    text_wins = (old.title_derived and not new.title_derived and bool(new.title)) or (
        new.decision in _ACCEPTED and old.decision not in _ACCEPTED and not new.title_derived
    )
    title_newer = not new.title_derived and bool(new.title) and newer(old, new, "title")
    if text_wins or title_newer:
        taken.update(title=new.title, title_derived=False)
        if new.keywords:
            taken["keywords"] = new.keywords
        if new.authors:
            taken["authors"] = new.authors
    new_abstract_usable = bool(new.abstract) and not is_placeholder_abstract(new.abstract)
    # a newer version's abstract replaces the old one, but a short one never replaces a real one
    newer_abstract = (
        bool(new.abstract)
        and (new_abstract_usable or is_placeholder_abstract(old.abstract))
        and newer(old, new, "abstract")
    )
    if newer_abstract or (new_abstract_usable and (text_wins or is_placeholder_abstract(old.abstract))):
        taken["abstract"] = new.abstract
    for name in ("keywords", "authors"):
        if not getattr(old, name) and getattr(new, name):
            taken[name] = getattr(new, name)
    if decision_replaces(old.decision, new.decision):
        taken.update(decision=new.decision, decision_raw=new.decision_raw)
    if new.ratings is not None:
        taken["ratings"] = enriched(old.ratings, new.ratings)
    if new.confidence is not None:
        taken["confidence"] = new.confidence
    for name in _FILL_FIELDS:
        if not getattr(old, name) and getattr(new, name):
            taken[name] = getattr(new, name)
    if new.modified is not None and (old.modified is None or new.modified > old.modified):
        taken["modified"] = new.modified
    if "authors" in taken:  # a list cut short (`and others`) or not, as the list taken says
        taken["authors_more"] = new.authors_more
    taken = {name: value for name, value in taken.items() if getattr(old, name) != value}
    sources = old.sources + tuple(s for s in new.sources if s not in old.sources)
    provenance = old.provenance  # as it is (in the reader's order) when nothing new is taken
    recorded = {name: source for name in taken if name not in ("title_derived", "modified") and source}
    if recorded:
        provenance = tuple(sorted((dict(old.provenance) | recorded).items()))
    best_id = min((old.id, new.id), key=id_rank) if id_rank(new.id) < id_rank(old.id) else old.id
    return replace(
        old,
        id=best_id,
        sources=sources,
        provenance=provenance,
        **taken,  # type: ignore[arg-type]
    )


class _WordVotes:
    """Candidate generation for fuzzy abstract matching: documents sharing rare words with a query."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._texts: list[str] = []
        self._postings: dict[str, list[int]] = {}
        self._vocabulary: set[str] = set()

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, paper_id: str, text: str) -> None:
        position = len(self._ids)
        self._ids.append(paper_id)
        self._texts.append(text)
        words = set(text.split())
        self._vocabulary |= words
        for word in words:
            self._postings.setdefault(word, []).append(position)

    def best(self, text: str, accept: Callable[[str], bool]) -> str | None:
        """The id of the best document scoring ≥ the threshold against ``text``, or ``None``."""
        words = set(text.split())
        shared = words & self._vocabulary
        # Texts scoring ≥ 70 share far more than half their words: a cheap, exact-enough reject.
        if len(shared) < _MIN_SHARED_WORDS * len(words):
            return None
        cap = max(3, len(self._ids) // 50)
        votes: Counter[int] = Counter()
        voting = 0
        for word in shared:
            posting = self._postings[word]
            if len(posting) <= cap:
                votes.update(posting)
                voting += 1
        # A true copy has nearly every voting word; unrelated abstracts share a fraction of them.
        needed = max(3, _MIN_SHARED_WORDS * voting)
        best_id, best_score = None, ABSTRACT_MATCH_THRESHOLD
        for position, count in votes.most_common(8):
            if count < needed:
                break
            paper_id = self._ids[position]
            if not accept(paper_id):
                continue
            score = fuzz.ratio(text, self._texts[position], score_cutoff=best_score)
            if score >= best_score:
                best_id, best_score = paper_id, score
        return best_id


@dataclass
class MergeResult:
    """The catalogue after merging: papers by id (catalogue order), aliases (old id → id),
    ids renamed by this merge (old → new, for moving the user's data), counts, and the ids of the
    new papers (in the order merged). A paper is counted updated when its data changed
    (:func:`same_data`): one that only gained a source file's name or a later modification date
    is unchanged. The merge's papers are not yet what the store writes (their scores are then
    taken from their reviews): :meth:`as_written` counts them again as written."""

    papers: dict[str, Paper]
    aliases: dict[str, str]
    renamed: dict[str, str] = field(default_factory=dict)
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    new_ids: tuple[str, ...] = ()
    #: Papers the catalogue held twice under one title key (stored before the key read LaTeX as
    #: it is shown) that this merge joined: each the old copy's id, now an alias.
    joined: tuple[str, ...] = ()
    #: Papers of the catalogue known by a title another of its papers was read under, that this
    #: merge joined to that paper (:meth:`Merger._join_other_titles`): each the old id, now an alias.
    joined_by_title: tuple[str, ...] = ()
    #: The papers counted updated, each as ``(id before, id now)``.
    updated_ids: tuple[tuple[str, str], ...] = ()

    def as_written(self, before: Mapping[str, Paper], written: Mapping[str, Paper]) -> MergeResult:
        """This result with each paper it counted updated compared again (:func:`same_data`) as the
        store writes it (``written``: its scores and decision taken from its reviews, its derived
        title) against ``before`` (the catalogue's papers before the merge): a paper the merge
        changed and the reviews set back as it was (a list's rating spread the stored review
        summary gives in other bits) is unchanged, so a re-import of an unchanged file counts
        0 updated. Returns ``self`` when every one of them did change."""
        kept = tuple(
            (old_id, paper_id)
            for old_id, paper_id in self.updated_ids
            if old_id not in before or paper_id not in written or not same_data(before[old_id], written[paper_id])
        )
        back = len(self.updated_ids) - len(kept)
        if not back:
            return self
        return replace(self, updated=self.updated - back, unchanged=self.unchanged + back, updated_ids=kept)


class Merger:
    """Merge batches of incoming papers into a catalogue (see the module docstring)."""

    def __init__(self, papers: Mapping[str, Paper], aliases: Mapping[str, str]) -> None:
        self.papers = dict(papers)
        self.aliases = dict(aliases)
        self._by_key: dict[tuple[str, str], list[str]] = {}  # ids, a venue's each
        self._titles: dict[tuple[str, str, int | None], str] = {}
        self._without_forum = _WordVotes()
        self._with_forum: _WordVotes | None = None
        # The paper :meth:`match` last took the title key of, and that key: a new paper is
        # registered just after it is matched (the key, a regex pass, is not taken twice).
        self._keyed: tuple[Paper, tuple[str, str, int | None] | None] | None = None
        #: Papers of ``papers`` whose title key an earlier one of them has (:func:`held_twice`).
        self.twice: dict[str, Paper] = {}
        #: The papers the last :meth:`merge` joined to another by a title it was read under (their old ids).
        self._joined: list[str] = []
        for paper in self.papers.values():
            self._register(paper, self.twice)

    def _resolve(self, paper_id: str) -> str:
        seen = 0
        while paper_id in self.aliases and paper_id not in self.papers and seen < 8:  # a paper's own id first
            paper_id, seen = self.aliases[paper_id], seen + 1
        return paper_id

    def _register(self, paper: Paper, twice: dict[str, Paper] | None = None) -> None:
        for name in ("openreview_id", "arxiv_id", "doi"):
            value = getattr(paper, name)
            if value:
                known = self._by_key.setdefault((name, value), [])
                if paper.id not in known:
                    known.append(paper.id)
        keyed = self._keyed
        key = keyed[1] if keyed is not None and keyed[0] is paper else _title_key(paper)
        if key is not None:
            first = self.papers.get(self._titles.get(key, "")) if twice is not None else None
            if twice is not None and first is not None and title_joins(first, paper):
                twice[paper.id] = paper  # held twice: the first keeps the key
                return
            self._titles[key] = paper.id
        if not is_placeholder_abstract(paper.abstract):
            if not paper.openreview_id:
                self._without_forum.add(paper.id, normalise_text(paper.abstract))
            elif self._with_forum is not None:
                self._with_forum.add(paper.id, normalise_text(paper.abstract))

    def match(self, paper: Paper) -> str | None:
        """The id of the catalogue paper ``paper`` is a copy of, or ``None``. An id, arXiv id or
        DOI a resubmission keeps matches only a paper of the same venue and year
        (:func:`compatible`); an OpenReview forum id is a venue's own and matches whatever the
        venue is written as."""

        def accept(candidate_id: str) -> bool:
            candidate = self.papers.get(self._resolve(candidate_id))
            return candidate is not None and compatible(candidate, paper)

        direct = self._resolve(paper.id)
        if direct in self.papers and (not paper.id.startswith(_PORTABLE_IDS) or accept(direct)):
            return direct
        portable = paper.id.startswith(_PORTABLE_IDS)
        if portable and (qualified := self._resolve(venue_qualified_id(paper))) in self.papers:
            return qualified
        for name in ("openreview_id", "arxiv_id", "doi"):
            value = getattr(paper, name)
            for known in self._by_key.get((name, value), ()) if value else ():
                if name not in _PORTABLE_KEYS or accept(known):
                    return self._resolve(known)

        key = _title_key(paper)
        self._keyed = (paper, key)
        if key is not None:
            found = self._titles.get(key)
            joined = self._resolve(found) if found is not None else ""
            candidate = self.papers.get(joined)
            if candidate is not None and title_joins(candidate, paper):
                return joined
        if (not len(self._without_forum) and paper.openreview_id) or is_placeholder_abstract(paper.abstract):
            return None

        def accept_by_abstract(candidate_id: str) -> bool:
            candidate = self.papers.get(self._resolve(candidate_id))
            return candidate is not None and compatible(candidate, paper) and not distinct_papers(candidate, paper)

        text = normalise_text(paper.abstract)
        found = self._without_forum.best(text, accept_by_abstract) if len(self._without_forum) else None
        if found is None and not paper.openreview_id:
            found = self._forum_index().best(text, accept_by_abstract)
        return self._resolve(found) if found is not None else None

    def _join_other_titles(self, merged: Paper, record: Paper, touched: dict[str, None]) -> Paper:
        """Keep the title of ``record`` (a record ``merged`` was just made with) when the paper did
        not take it (a submission's title beside the camera-ready one of OpenReview's BibTeX): a
        record by that title matches the paper later, in this merge (the title key) and in the
        next ones (the title's ``title:`` id, an alias of the paper: ICLR 2018's author rows read
        after the BibTeX). A paper of the catalogue known by that title, of the same venue and
        year (:func:`title_joins`), is this paper: it joins it, its id an alias of this one (the
        user's records follow it). A title the paper took in place of its own is not kept (a
        decisions file then stays a patch in place). Returns ``merged`` as it is now."""
        if record.title == merged.title or not merged.venue or not merged.year:  # (most: no key taken)
            return merged
        key = _title_key(record)
        if key is None or key == _title_key(merged):
            return merged
        tid = title_id(merged.venue, merged.year, record.title)
        for found in (self._resolve(tid), self._resolve(self._titles.get(key, ""))):
            other = self.papers.get(found)
            if other is None or found == merged.id or not title_joins(other, merged):
                continue
            # its fields fill this paper's; this paper's id stays (the other's, an alias)
            merged = replace(combine(merged, other), id=merged.id)
            self._joined.append(found)
            del self.papers[found]
            self.papers[merged.id] = merged
            self.aliases[found] = merged.id
            self.aliases.pop(merged.id, None)
            touched.pop(found, None)
        if tid not in self.papers and tid != merged.id:
            self.aliases.setdefault(tid, merged.id)
        self._titles.setdefault(key, merged.id)
        return merged

    def _forum_index(self) -> _WordVotes:
        if self._with_forum is None:
            self._with_forum = _WordVotes()
            for paper in self.papers.values():
                if paper.openreview_id and not is_placeholder_abstract(paper.abstract):
                    self._with_forum.add(paper.id, normalise_text(paper.abstract))
        return self._with_forum

    def merge(self, incoming: Sequence[Paper]) -> MergeResult:
        """Merge ``incoming`` in order; later records may match earlier ones of the same batch.

        Returns:
            The catalogue after the merge (this merger's own ``papers`` and ``aliases``), the ids
            it renamed, and how many papers are new, updated or unchanged.
        """
        before = dict(self.papers)
        renamed: dict[str, str] = {}
        touched: dict[str, None] = {}
        self._joined = []
        for paper in incoming:
            target = self.match(paper)
            if target is None:
                if paper.id in self.papers or self._resolve(paper.id) in self.papers:  # another venue's
                    paper = replace(paper, id=venue_qualified_id(paper))
                self.papers[paper.id] = paper
                self._register(paper)
                touched[paper.id] = None
                continue
            if paper.id != target and paper.id not in self.papers:  # not another venue's paper's id
                self.aliases.setdefault(paper.id, target)
            merged = on_withdrawn_forum(combine(self.papers[target], paper), paper)
            if merged.id != target:
                self.papers = {
                    (merged.id if pid == target else pid): (merged if pid == target else p)
                    for pid, p in self.papers.items()
                }
                self.aliases[target] = merged.id
                self.aliases.pop(merged.id, None)
                renamed[target] = merged.id
                for earlier, later in list(renamed.items()):
                    if later == target:
                        renamed[earlier] = merged.id
                touched.pop(target, None)
            else:
                self.papers[target] = merged
            merged = self._join_other_titles(merged, paper, touched)
            self._register(merged)
            touched[merged.id] = None
        updated_ids: list[tuple[str, str]] = []
        new_ids: list[str] = []
        for paper_id in touched:
            old_id = next((o for o, n in renamed.items() if n == paper_id), paper_id)
            if old_id not in before:
                new_ids.append(paper_id)
            elif not same_data(before[old_id], self.papers[paper_id]):
                updated_ids.append((old_id, paper_id))
        new, updated = len(new_ids), len(updated_ids)
        unchanged = len(touched) - new - updated
        # The catalogue's papers a title they were read under joined to another of its papers.
        joined = tuple(pid for pid in self._joined if pid in before)
        return MergeResult(
            self.papers,
            self.aliases,
            renamed,
            new,
            updated,
            unchanged,
            tuple(new_ids),
            joined_by_title=joined,
            updated_ids=tuple(updated_ids),
        )


def merge_into(papers: Mapping[str, Paper], aliases: Mapping[str, str], incoming: Sequence[Paper]) -> MergeResult:
    """:meth:`Merger.merge` of ``incoming`` into ``papers``, the catalogue's papers of a venue known
    under another name (:func:`paperdeck.model.ids.canonical_venue`: ``NIPS 2018``, imported before
    the venue had one name) first moved to the venue's name, and those whose venue is a decision
    written alone (``Accept``, read as a venue before decisions were told apart) to no venue, and
    merged like an import: a copy
    becomes one paper with the canonical venue's copy, each old id an alias of the paper it joined
    (so that the user's records follow it). Those papers count as updated, not new."""
    stale = {pid: paper for pid, paper in papers.items() if paper.venue and _stored_venue(paper.venue) != paper.venue}
    if not stale:
        whole = Merger(papers, aliases)
        if not whole.twice:
            return whole.merge(incoming)
        stale = dict(whole.twice)
    else:
        stale.update(held_twice(papers, stale))
    moved: dict[str, Paper] = {}
    for pid, paper in stale.items():
        venue = _stored_venue(paper.venue)
        if venue == paper.venue:  # a copy held twice: merged as it is
            moved[pid] = paper
            continue
        moved[pid] = replace(paper, venue=venue, id=venue_renamed_id(pid, paper.venue, venue, paper.year))
    merger = Merger({pid: paper for pid, paper in papers.items() if pid not in stale}, aliases)
    result = merger.merge([*moved.values(), *incoming])
    now: set[str] = set()
    for pid, paper in moved.items():
        current = merger._resolve(paper.id)
        if current not in merger.papers:
            continue
        now.add(current)
        if pid != current:
            merger.aliases[pid] = current
    new_ids = tuple(pid for pid in result.new_ids if pid not in now)
    updated = result.updated + result.new - len(new_ids)
    joined = tuple(pid for pid in stale if _stored_venue(stale[pid].venue) == stale[pid].venue and pid not in now)
    return replace(result, aliases=merger.aliases, new=len(new_ids), updated=updated, new_ids=new_ids, joined=joined)


@functools.lru_cache(maxsize=1024)
def _stored_venue(venue: str) -> str:
    """The venue a stored paper of ``venue`` belongs to now: its canonical name
    (:func:`~paperdeck.model.ids.canonical_venue`), or none for a decision written alone
    (``Accept``, ``Poster``: :func:`~paperdeck.model.decision.bare_decision`), which the CSV
    reader once took for a venue and built the paper's id from (``title:accept-unknown:…``)."""
    return "" if bare_decision(venue) else canonical_venue(venue)


def held_twice(papers: Mapping[str, Paper], skip: Mapping[str, Paper]) -> dict[str, Paper]:
    """The papers of ``papers`` (but those in ``skip``) whose title key
    (:func:`~paperdeck.model.ids.title_match_key`, venue, year) an earlier paper already has, and
    which :func:`compatible` lets join it: copies a store holds from before the key read LaTeX as
    shown (``R\\'enyi`` beside ``Rényi``). :func:`merge_into` merges them into the first."""
    first: dict[tuple[str, str, int | None], Paper] = {}
    twice: dict[str, Paper] = {}
    for pid, paper in papers.items():
        if pid in skip:
            continue
        key = _title_key(paper)
        if key is None:
            continue
        kept = first.setdefault(key, paper)
        if kept is not paper and title_joins(kept, paper):
            twice[pid] = paper
    return twice


def _title_key(paper: Paper) -> tuple[str, str, int | None] | None:
    """(normalised title, venue, year) for matching, or ``None`` for derived or placeholder titles."""
    title = _real_title(paper)
    return (title, paper.venue.casefold(), paper.year) if title else None


def same_data(old: Paper, new: Paper) -> bool:
    """Whether ``new`` says what ``old`` says: equal but for the files it was read from
    (``sources``) and its modification date (an identical file under another name, a record
    re-dated without a change), and for a field's source recorded as the paper's first file,
    which ``provenance`` need not name (:meth:`Paper.source_of`; the catalogue file does not)."""
    if old == new:
        return True
    return replace(_said(new), sources=old.sources, modified=old.modified) == _said(old)


def _said(paper: Paper) -> Paper:
    """``paper`` with the ``provenance`` pairs naming its first source dropped: those it gives
    by that source anyway (as :meth:`Paper.to_dict` writes it)."""
    first = paper.sources[0] if paper.sources else ""
    kept = tuple(pair for pair in paper.provenance if pair[1] != first)
    return paper if len(kept) == len(paper.provenance) else replace(paper, provenance=kept)


def changed_fields(old: Paper, new: Paper) -> list[str]:
    """Names of the fields that differ (for reports and tests)."""
    return [spec.name for spec in fields(Paper) if getattr(old, spec.name) != getattr(new, spec.name)]
