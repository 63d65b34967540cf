"""Fuzzy ranking of papers as the user types: a word-level index over title, keywords, authors,
abstract and note.

Each query word is matched against the index's vocabulary (exactly, as a prefix, as a typo within
a rapidfuzz ``fuzz.ratio`` cutoff and a few edits (:func:`~paperdeck.search.scores.typo_near`),
or as the initials of the title), then looked up in posting lists. A paper must match every query
word. Papers are ranked by, in order:

1. the score: per query word, the best match quality (exact 1, prefix 0.85, acronym 0.75, typo
   at most 0.8) times the weight of the field it was found in (title 10, keywords 6, authors 5.5,
   note 5, abstract 1), summed over the query words, to 1/100;
2. phrase order: consecutive query words that stand next to each other in the title, 2 per pair
   in the query's order, 1 swapped (``graph neural``: "Graph Neural Networks" first);
3. title coverage: the share of the title's distinct words the query words stand for (one each,
   an acronym one per letter), so a query that is the whole title beats a long title that merely
   contains its words, and of two titles matching as many query words the shorter wins
   (``specul decod``: "Speculative Speculative Decoding" first of 89);
4. the number of query words also found in the keywords, then catalogue order (stable sort).

One- and two-letter query words match as prefixes only in titles (one letter) or titles,
keywords and authors (two letters), and exactly everywhere: as prefixes in abstracts they would
touch a large share of all postings and rank nothing better.

Speed: the build does its per-word work in C, one ``bytes.translate`` fold per paper and postings
filled by ``map(array.append, ...)``; a query is sparse: per query word a dict position → score
key filled from posting-list slices by ``dict.update(zip(...))``, the candidates intersected by
``map(dict.get, ...)`` and ``compress``, the sort keys summed by ``map(operator.add, ...)`` and sorted
as ints: C-level loops over the papers a word matches, never a Python loop per paper, and no
numpy. The words are matched in the order of their reach (the lengths of their posting lists),
the fewest first, and a later word only over the candidates left when they are few. A keystroke
redoes little: the matches of the last words typed are kept, and so are the candidates of the
last sets of words, so that typing a word after others matches and intersects only that word
(and a space or a backspace finds its ranking kept).

The index is saved as one raw file (:meth:`SearchIndex.save`): a header, then its arrays and texts
as sections read back through ``mmap`` without a copy of the posting lists (:meth:`SearchIndex.load`;
the file's layout is :mod:`paperdeck.search.index_file`'s).
"""

from __future__ import annotations

import contextlib
import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import accumulate, chain, compress, pairwise, product, repeat
from operator import add, and_, gt, itemgetter, lt, not_, rshift
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

from paperdeck.search.index_file import read_sections, restamp_sections, write_sections
from paperdeck.search.packed_index import (
    ABSTRACT,
    AUTHOR,
    KEYWORD,
    SAVED_LETTERS,
    TITLE,
    Lines,
    Numbers,
    build,
    checked,
    decoded,
    encoded,
    ids_fault,
    papers_named,
    vocabulary_fault,
)
from paperdeck.search.packed_index import CODES as _CODES
from paperdeck.search.packed_index import SAVED_PAIR_SHARE as SAVED_PAIR_SHARE
from paperdeck.search.packed_index import SAVED_RANKINGS as SAVED_RANKINGS
from paperdeck.search.scores import PREFIX_QUALITY, NoteWords, score_key
from paperdeck.search.vocabulary import MAX_EXPANSIONS, Buckets, Expansion, Vocabulary
from paperdeck.search.words import IndexedPaper, words
from paperdeck.values import FrozenValue

if TYPE_CHECKING:  # the papers' module, not imported for a saved index read (its class costs its making)
    import numpy as np

    from paperdeck.model.paper import Paper

#: Field weights (title > keywords > authors > abstract; a note weighs 5).
_WEIGHT = {TITLE: 10.0, KEYWORD: 6.0, AUTHOR: 5.5, ABSTRACT: 1.0}
_INITIALS_QUALITY = 0.75

#: Fields where a query word this short matches as a prefix (elsewhere it matches exactly).
_SHORT_PREFIX_FIELDS: dict[int, tuple[int, ...]] = {1: (TITLE,), 2: (TITLE, KEYWORD, AUTHOR)}

#: Sort-key layout, one int per paper: score in 1/100 | phrase order (4 bits) | title coverage
#: (8 bits) | query words also in the keywords (4 bits). Below 16 query words it stays under
#: 2**30, where CPython's int arithmetic takes its fast path.
_ORDER_SHIFT = 12
_ORDER_MAX = 15
_COVER_SHIFT = 4
_COVER_MAX = 255
_KEYWORD_MAX = 15
_MAX_ORDER_TITLES = 400  # best-scored titles checked for phrase order per query (bounds the Python-level checks)

#: Low bits of a packed word match (:class:`_WordMatch`) holding its title hits: they never
#: carry into the key above for fewer than 2**_HITS_BITS / 8 query words.
_HITS_BITS = 16
_HITS_MASK = (1 << _HITS_BITS) - 1
#: Query words over which the packed sums are exact without a keyword clamp (``_KEYWORD_MAX``).
_PACKED_WORDS = _KEYWORD_MAX

#: A later query word of three letters or more is matched only among the candidates left when
#: they are fewer than 1/_BOUNDED_SHARE of the papers (one- and two-letter words, whose prefixes
#: are then looked for in the candidates' words: 1/_BOUNDED_SHORT_SHARE).
_BOUNDED_SHARE = 4
_BOUNDED_SHORT_SHARE = 8
#: What a one- or two-letter word's prefix scan costs per candidate and field, in positions of its
#: posting lists read in numpy instead (:meth:`SearchIndex._scans_prefixes`): a string read from
#: the heap against a C-level pass over an array.
_SCAN_COST = 32
_MAX_MATCHES = 16  # cached per-word matches: the words of the last few keystrokes
_MAX_INTERSECTIONS = 8  # cached candidates of sets of query words: the last few keystrokes'
_MAX_RANKINGS = 4  # cached rankings: a space or a backspace typed
#: A word whose posting lists (in the fields and bands it is matched in) hold at least this many
#: positions is matched in a numpy array rather than a dict, when numpy is loaded (the app loads
#: it as it warms the index; a command's one query does not pay for its import).
_DENSE_FROM = 20_000
#: :meth:`SearchIndex.warm` imports numpy for an index of at least this many papers: in a smaller
#: store few words reach ``_DENSE_FROM``, and the import costs about as much as reading the index,
#: and 13 MB of the app's memory (the ICLR 2026 store: 19,630 papers, below it).
_DENSE_WARM_PAPERS = 40_000
#: From this many candidates (numpy loaded), a ranking's sort keys, tie-breaks and sort are made in
#: numpy arrays (:meth:`SearchIndex._ranked_many`) rather than lists.
_SORT_IN_NUMPY_FROM = 5_000


class SearchResult(FrozenValue):
    """Ranked positions (indices into the index's paper sequence), best first; ``total``: the
    papers indexed. Compared by its fields, as the frozen dataclass it was
    (:class:`~paperdeck.values.FrozenValue`: its module may be imported by the index's worker
    before the first paint)."""

    __slots__ = ("positions", "total")
    FIELDS = ("positions", "total")

    positions: list[int]
    total: int

    def __init__(self, positions: list[int], total: int) -> None:
        object.__setattr__(self, "positions", positions)
        object.__setattr__(self, "total", total)


class _WordMatch:
    """What one query word matches, sparse: only the positions it matches are keys; cached and
    shared, so never mutated (a plain class, as :class:`~paperdeck.search.vocabulary.Expansion`).

    ``packed`` holds, per position, the word's whole share of the sort key and its title hits in
    one int: ``(score + hits × cover unit + keyword hit) << _HITS_BITS | hits``, where ``score`` is
    the best quality × field weight (:func:`score_key`), ``hits`` the title words the query word
    stands for (1, an acronym its letters; 0 outside the title) and the keyword hit 1 where the
    query word is in the keywords too. Summed over the query words, the high part is the sort key
    but for the clamps (hits at most the title's distinct words, keyword hits at most
    ``_KEYWORD_MAX``) and phrase order, the low part the title hits."""

    __slots__ = ("_packed", "count", "dense", "keyword_hits", "vocabulary")

    def __init__(
        self,
        packed: dict[int, int] | None,
        keyword_hits: frozenset[int],
        vocabulary: frozenset[str],
        dense: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        self._packed = packed  # each > 0; None: made from ``dense`` at first need
        self.keyword_hits = keyword_hits  # positions where the query word is in the keywords too
        self.vocabulary = vocabulary
        #: The same as two numpy arrays (positions ascending, their packed values), for a word
        #: matched in numpy (:meth:`SearchIndex._packed_dense`): a first word ranks from them
        #: without a dict.
        self.dense = dense
        self.count = len(packed) if packed is not None else len(dense[0]) if dense is not None else 0

    @property
    def packed(self) -> dict[int, int]:
        """Position → packed value (made from :attr:`dense` at first need: the same dict, made
        again if two threads ask at once)."""
        made = self._packed
        if made is None:
            assert self.dense is not None
            positions, values = self.dense
            made = self._packed = dict(zip(positions.tolist(), values.tolist(), strict=True))
        return made


#: Candidates matching a set of query words (ascending), their packed sums, the words' matches.
#: The first two are lists, or (from a word matched in numpy, :attr:`_WordMatch.dense`) numpy
#: arrays of int64 kept as such until a list is needed (:func:`_listed`): a long match is not
#: turned into lists, then back into arrays, at each keystroke.
_Intersection = tuple["list[int] | np.ndarray", "list[int] | np.ndarray", dict[str, "_WordMatch"]]
#: In a scope (:meth:`SearchIndex._ranked_scoped`): the scope's candidates, their sums, the words'
#: matches, and the positions outside the scope matching every word (ascending, int64).
_ScopedIntersection = tuple["list[int] | np.ndarray", "list[int] | np.ndarray", dict[str, "_WordMatch"], "np.ndarray"]


class SearchIndex:
    """A word index over a fixed sequence of papers, plus the user's notes (which may change).

    Args:
        papers: the papers, in catalogue order; results are positions in this sequence.
        notes: note text by paper id.

    The build splits every paper's text into words and fills the posting lists, which takes a
    while at tens of thousands of papers: build it in a worker. A keystroke is ranked over sparse
    per-word dicts (position → score key) filled from the posting lists (one- and two-letter first
    words are the slowest to rank); the matches of the last ``_MAX_MATCHES`` query words, the
    candidates of the last ``_MAX_INTERSECTIONS`` sets of query words and the last
    ``_MAX_RANKINGS`` rankings are cached.

    ``search`` may run in a thread while ``set_note`` is called from another: notes are swapped
    whole, never mutated in place, and the caches only ever hold finished values.
    """

    #: Each paper's title cover unit, made at first need (:meth:`_cover_units`).
    _cover_units_made: list[int] | None
    _title_bonus: list[int] | None

    def __init__(self, papers: Sequence[Paper], notes: Mapping[str, str] | None = None) -> None:
        self._set_ids([paper.id for paper in papers])
        self._adopt(*build(papers))
        self.set_notes(notes or {})

    @classmethod
    def from_papers(
        cls, ids: list[str], papers: Iterable[IndexedPaper], notes: Mapping[str, str] | None = None
    ) -> SearchIndex:
        """The index of the papers ``papers`` gives once, in order (read from a file a paper at a
        time: each is dropped once its words are in, never all held), ``ids`` their ids: the
        same index as ``SearchIndex(list(papers), notes)``.

        Raises:
            ValueError: ``papers`` gave another number of papers than ``ids`` has, or another id.
            Whatever ``papers`` raises.
        """
        index = cls.__new__(cls)
        index._set_ids(ids)
        index._adopt(*build(papers_named(ids, papers)))
        index.set_notes(notes or {})
        return index

    def _set_ids(self, ids: Sequence[str]) -> None:
        #: The papers' ids by position: a list, or (:meth:`load` unchecked) the sequence given,
        #: made a list once compared with the catalogue's (:meth:`unchecked_fault`).
        self._ids = ids
        #: The saved file's ids section, while not compared with ``ids`` yet (:meth:`unchecked_fault`).
        self._unchecked_ids: memoryview | None = None
        self._positions_by_id: dict[str, int] | None = None  # made at first need: see _position

    @property
    def _position(self) -> dict[str, int]:
        """Positions by paper id (made at the first note: a search needs none)."""
        made = self._positions_by_id
        if made is None:
            made = self._positions_by_id = dict(zip(self._ids, range(len(self._ids)), strict=True))
        return made

    def _title_bonus_list(self) -> list[int]:
        """What one title hit adds to a packed word match, per position, made at first need: the
        first query's title hits are few, looked up by title size (:meth:`_title_bonuses`); the
        warming makes it (a race makes it twice, alike)."""
        made = self._title_bonus
        if made is None:
            made = list(map(self._bonus_per_size.__getitem__, self._title_sizes))
            self._title_bonus = made
        return made

    def _title_bonuses(self, positions: Iterable[int]) -> Iterator[int]:
        """The title bonus of each of ``positions`` (:meth:`_title_bonus_list`, if made)."""
        made = self._title_bonus
        if made is not None:
            return map(made.__getitem__, positions)
        return map(self._bonus_per_size.__getitem__, map(self._title_sizes.__getitem__, positions))

    def _cover_units(self) -> list[int]:
        """Each paper's title cover unit (by its title size), made at first need: a query of one
        word without notes needs none (a race makes it twice, alike)."""
        made = self._cover_units_made
        if made is None:
            made = list(map(self._cover_per_size.__getitem__, self._title_sizes))
            self._cover_units_made = made
        return made

    def _adopt(
        self,
        vocabulary: list[str],
        starts: Numbers,
        postings: Numbers,
        titles: Lines,
        keyword_texts: Lines,
        author_texts: Lines,
        title_sizes: Numbers,
        initials: str | bytes,
        buckets: Buckets | None = None,
        rankings: dict[tuple[str, ...], Numbers] | None = None,
    ) -> None:
        """Take the index's data, built or read from a file (:meth:`load`): the sorted
        vocabulary; ``postings`` (positions) and ``starts`` (``4 × len(vocabulary) + 1``): field
        ``code``'s posting list of vocabulary word ``n`` is ``postings[starts[i] : starts[i + 1]]``
        with ``i = code × len(vocabulary) + n``, ascending; each paper's title, keyword and
        author words, space-led; its title's distinct words; its title initials, one line each
        (as text, or as UTF-8: a saved file's, not decoded to be encoded again);
        the typo buckets (:func:`~paperdeck.search.vocabulary.typo_bucket_arrays`; made when ``None``); the rankings of
        :data:`SAVED_RANKINGS` and of the two-letter queries :data:`SAVED_PAIR_SHARE` selects, without
        notes, by query words (ranked at first need when ``None``)."""
        self._vocabulary = Vocabulary(vocabulary, buckets)
        # Not a bound method: the vocabulary would hold the index, a cycle only the collector frees.
        self._vocabulary.reach = partial(_postings_in, starts, len(vocabulary))
        self._starts, self._postings = starts, postings
        self._titles = titles
        self._texts = (titles, keyword_texts, author_texts)
        self._title_sizes = title_sizes
        # Title coverage = hits x unit: the share of the title's distinct words matched, in
        # _COVER_MAX steps, precomputed so that a query needs one multiplication per paper (by
        # title size; a size past the first ones made at first need: the sizes are not read through).
        self._cover_per_size = _PerSize(_cover_unit)
        self._cover_units_made = None  # made at first need: see _cover_units()
        #: What one title hit adds to a packed word match (:class:`_WordMatch`), per position.
        self._bonus_per_size = _PerSize(_title_bonus)
        #: The same per paper (one map per paper, not three), made at first need
        #: (:meth:`_title_bonus_list`; until then looked up by title size).
        self._title_bonus = None
        self._title_bonus_array: np.ndarray | None = None  # the same in numpy (_bonus_array)
        #: The title initials as UTF-8, one line each: searched for acronyms as bytes (a byte
        #: search is a ``memchr`` scan; a text wider than Latin-1 is searched character by character).
        self._initials = initials if isinstance(initials, bytes) else encoded(initials)
        #: The word last looked for in the initials, the byte offsets where it occurs, and the
        #: position (line) of each (:meth:`_acronym_positions`).
        self._acronym_hits: tuple[str, list[int], list[int]] | None = None
        #: Where each line of the initials after the first starts (byte offsets, ascending), made
        #: at first need (:meth:`_initial_lines`): an offset's line is a binary search.
        self._initials_starts: array[int] | None = None
        self._notes: dict[int, frozenset[str]] = {}
        #: The notes' words for one snapshot of ``_notes``, and what query words found in them.
        self._note_cache: tuple[dict[int, frozenset[str]], NoteWords, dict[str, dict[int, int]]] | None = None
        #: Results ranked ahead of time (:meth:`warm`), by query words, for one snapshot of the notes.
        self._warm: tuple[dict[int, frozenset[str]], dict[tuple[str, ...], array[int]]] | None = None
        #: Results saved with the index (:data:`SAVED_RANKINGS`, :data:`SAVED_PAIR_SHARE`), right
        #: while there are no notes.
        self._saved_rankings: dict[tuple[str, ...], Numbers] = rankings or {}
        #: The saved rankings whose positions were found to name papers (:meth:`_saved_ranking`).
        self._rankings_in_range: set[tuple[str, ...]] = set()
        self._matches: dict[str, _WordMatch] = {}
        #: Matches bounded to some positions (see :meth:`_match`), with those positions.
        #: The positions are a set, or (a match made in numpy) a mask of every position.
        self._bounded_matches: dict[str, tuple[set[int] | np.ndarray, _WordMatch, int]] = {}
        #: For one snapshot of ``_notes``: per set of query words, the positions matching them
        #: all (ascending), their packed sums (as :meth:`_intersected` gives them) and the words'
        #: matches, the last ``_MAX_INTERSECTIONS`` sets kept; the last ``_MAX_RANKINGS``
        #: rankings, by query words.
        #: The fourth dict: per set of query words and scope (:meth:`_ranked_scoped`), the scope's
        #: candidates, their sums, the words' matches and the other venues' positions they match.
        self._intersections: (
            tuple[
                dict[int, frozenset[str]],
                dict[frozenset[str], _Intersection],
                dict[Any, Sequence[int]],
                dict[tuple[frozenset[str], bytes], _ScopedIntersection],
            ]
            | None
        ) = None
        #: Per query word and scope (its bytes), the word's match over the scope's positions and
        #: the other positions it matches (:meth:`_scoped_match`), the last ``_MAX_MATCHES`` kept.
        self._scoped_matches: dict[tuple[str, bytes], tuple[_WordMatch, np.ndarray]] = {}
        #: Per query words, how many papers they match over every position, with the notes
        #: snapshot it was counted for (:meth:`found_count`): a scoped ranking ranks only the
        #: scope's, so the count of the others is kept beside it.
        self._found_counts: dict[tuple[str, ...], tuple[dict[int, frozenset[str]], int]] = {}
        #: The runs of the last scope ranked in (:meth:`_spans`): its bytes, their runs.
        self._inside_spans: tuple[bytes, list[tuple[int, int]]] | None = None

    #: Format of :meth:`save` files (bumped when the layout or what is indexed changes).
    FILE_VERSION = 6

    def save(self, path: Path, stamp: Sequence[int], texts: str = "", queries: Sequence[str] | None = None) -> None:
        """Write the index (without the notes, which are the user's and change) to ``path``
        atomically, with ``stamp`` — what it was built from (the catalogue's size and mtime) — and
        ``texts`` (:func:`paperdeck.search.similar.texts_fingerprint` of its papers) for
        :meth:`load`. The layout is :func:`write_sections`'s. The rankings saved with it are
        those of :data:`SAVED_RANKINGS` and of the two-letter queries :data:`SAVED_PAIR_SHARE`
        selects (every pair ranked to choose), or, given ``queries``, of those alone (an index
        updated in place keeps the queries its file had: :meth:`load_patched`).

        Raises:
            StoreError: the file cannot be written.
        """
        sections: dict[str, bytes | memoryview | array[int]] = {
            "ids": encoded("\n".join(self._ids)),
            "vocabulary": encoded("\n".join(self._vocabulary.words)),
            "starts": self._starts,
            "postings": self._postings,
            "titles": self._titles.encoded(),
            "keywords": self._texts[1].encoded(),
            "authors": self._texts[2].encoded(),
            "title_sizes": self._title_sizes,
            "initials": self._initials,
        }
        for place, (letters, bucket_starts, numbers) in enumerate(self._vocabulary.bucket_arrays):
            sections |= {f"letters{place}": encoded(letters), f"bucket_starts{place}": bucket_starts,
                         f"bucket_words{place}": numbers}  # fmt: skip
        if queries is not None:
            saved = {query: array("I", self._ranked(query, {})) for query in queries}
        else:
            saved = {query: array("I", self._ranked(query, {})) for query in SAVED_RANKINGS}
            for pair in map("".join, product(SAVED_LETTERS, repeat=2)):
                ranked = self._ranked(pair, {})
                if len(ranked) * SAVED_PAIR_SHARE >= len(self._ids) > 0:
                    saved[pair] = array("I", ranked)
        rankings = list(saved.values())
        sections |= {
            "ranked_queries": encoded("\n".join(saved)),
            "ranked_starts": array("q", accumulate(map(len, rankings), initial=0)),
            "ranked_positions": b"".join(rankings),
        }
        header = {"version": self.FILE_VERSION, "stamp": list(stamp), "texts": texts}
        write_sections(path, header, sections)

    @classmethod
    def restamp(cls, path: Path, stamp: Sequence[int], texts: str | None, before: Sequence[int] | None = None) -> bool:
        """Stamp the index :meth:`save` wrote to ``path`` for texts ``texts`` with ``stamp`` (the
        catalogue rewritten for what the index does not hold, as :meth:`load` given ``texts``
        found it), its sections copied, not built or written from memory
        (:func:`~paperdeck.search.index_file.restamp_sections`); whether it was (False: no such
        file, or one of another version or for other texts: left as it is). Given ``before``,
        only a file stamped ``before`` is (an import in place changed no text it holds), and
        ``texts`` may be ``None`` (any: the file's stay).

        Raises:
            StoreError: the file cannot be written.
        """

        def same(header: dict[str, Any]) -> bool:
            if header.get("version") != cls.FILE_VERSION:
                return False
            if before is not None and header.get("stamp") != list(before):
                return False
            return texts is None or header.get("texts") == texts

        return restamp_sections(path, {"stamp": list(stamp)}, same)

    @classmethod
    def load(
        cls,
        path: Path,
        stamp: Sequence[int],
        ids: Sequence[str],
        texts: str | None = None,
        read: Callable[[Path], tuple[dict[str, Any], dict[str, memoryview]]] | None = None,
        *,
        count_lines: bool = True,
    ) -> SearchIndex | str | None:
        """The index :meth:`save` wrote to ``path`` with the same ``stamp`` (or, given ``texts``,
        the same texts fingerprint: saved before the catalogue was rewritten for what the index
        does not hold) for papers with ``ids`` (the catalogue's, in order); ``None`` when there
        is no such file; else why it cannot be used (another version, another catalogue, not a
        readable index, contents not matching their CRC, inconsistent).

        The file is mapped into memory: the posting lists are read from it where they lie, not
        copied. Checked before use — its CRC, the section sizes adding up, its vocabulary sorted,
        its papers the catalogue's — so that a damaged file gives a rebuild, never a wrong ranking
        or an error later. Much cheaper than a build. ``read`` reads the file (default:
        :func:`~paperdeck.search.index_file.read_sections`; one read ahead). ``count_lines``
        False (a file read before its CRC is checked): the text sections' lines, the ids and
        the vocabulary's order are checked with the CRC (:meth:`unchecked_fault`), not here,
        and ``ids`` is held as given, not copied (a view that reads ids at need: it must name the
        same papers for as long as the index is used)."""
        try:
            found = (read or read_sections)(path)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            return f"it is not a readable search index ({exc})"
        header, sections = found
        if header.get("version") != cls.FILE_VERSION:
            return "it was written by another paperdeck version"
        if header.get("stamp") != list(stamp) and (texts is None or header.get("texts") != texts):
            return "it was made for another catalogue"
        paper_ids = list(ids) if count_lines else ids  # unchecked: held as given, compared later
        try:
            made = checked(sections, paper_ids, count_lines=count_lines)
        except (ValueError, KeyError) as exc:
            return f"it is inconsistent ({exc})"
        index = cls.__new__(cls)
        index._set_ids(paper_ids)
        index._adopt(*made)
        if not count_lines:
            index._unchecked_ids = sections["ids"]
        return index

    def unchecked_fault(self, *, of_the_file: bool = True) -> str | None:
        """Why what :meth:`load`'s ``count_lines`` False left unchecked does not hold (the title,
        keyword and author texts one line per paper, the ids the catalogue's, the vocabulary
        sorted); ``None`` when it holds. ``of_the_file`` False: the ids alone (what depends on
        the catalogue), the rest being known to hold for the file read (found whole before)."""
        count = len(self._ids)
        if of_the_file and count and not all(lines.line_count() == count for lines in self._texts):
            return "its texts are not one line per paper"
        saved_ids = self._unchecked_ids
        if saved_ids is not None:
            if fault := ids_fault(saved_ids, self._ids):
                return fault
            if type(self._ids) is not list:  # a view: each id looked up through it costs a call
                self._ids = list(self._ids)
            self._unchecked_ids = None
        return vocabulary_fault(self._vocabulary.words) if of_the_file else None

    @classmethod
    def load_patched(
        cls,
        path: Path,
        before: Sequence[int],
        ids: Sequence[str],
        changes: Mapping[int, Paper],
        read: Callable[[Path], tuple[dict[str, Any], dict[str, memoryview]]] | None = None,
    ) -> tuple[SearchIndex, dict[str, Any], tuple[str, ...]] | None:
        """The index :meth:`save` wrote to ``path`` for the catalogue stamped ``before``, of the
        papers with ``ids`` (the same ids in the same order: an import in place), updated for the
        papers at the positions of ``changes`` replaced by those given
        (:func:`paperdeck.search.index_update.patched`: what a build from every paper gives,
        without reading the others); with the file's header and the queries whose rankings it
        saved (to save them again: :meth:`save`'s ``queries``). ``None`` when there is no such
        file or it cannot be used (as :meth:`load`): then build."""
        from paperdeck.search.index_update import patched

        try:
            header, sections = (read or read_sections)(path)
        except (OSError, ValueError):
            return None
        if header.get("version") != cls.FILE_VERSION or header.get("stamp") != list(before):
            return None
        try:
            made = checked(sections, list(ids))
            queries = tuple(decoded(sections["ranked_queries"]).split("\n"))
            updated = patched(made, len(ids), changes)
        except (ValueError, KeyError):
            return None
        index = cls.__new__(cls)
        index._set_ids(list(ids))
        index._adopt(*updated)
        return index, header, tuple(query for query in queries if query)

    def _saved_ranking(self, query_words: tuple[str, ...]) -> Numbers | None:
        """The ranking saved with the index for ``query_words``, or ``None``. At its first use
        every position it holds is checked to name a paper: an index read before its CRC was
        checked (the app's first query) may hold a damaged ranking, whose ids are looked up
        only when its rows are drawn.

        Raises:
            IndexError: the saved ranking names a position past the papers (the file is damaged).
        """
        saved = self._saved_rankings.get(query_words)
        if saved is None or query_words in self._rankings_in_range:
            return saved
        if len(saved):
            numpy = sys.modules.get("numpy")
            if numpy is not None and not getattr(getattr(numpy, "__spec__", None), "_initializing", False):
                top = int(numpy.asarray(saved).max())
            else:  # no numpy, or its import under way in another thread (a worker's mask): not yet usable
                top = max(saved)
            if top >= len(self._ids):
                raise IndexError("a saved ranking names no paper")
        self._rankings_in_range.add(query_words)
        return saved

    def __len__(self) -> int:
        return len(self._ids)

    def paper_ids(self, positions: Iterable[int]) -> list[str]:
        """The paper ids at ``positions`` (as returned in :class:`SearchResult`)."""
        return list(map(self._ids.__getitem__, positions))

    def set_notes(self, notes: Mapping[str, str]) -> None:
        """Make each of ``notes`` (note text by paper id) searchable, as :meth:`set_note` does
        one by one, in one swap of the notes."""
        changed = dict(self._notes)
        for paper_id, note in notes.items():
            position = self._position.get(paper_id)
            if position is None:
                continue
            if note.strip():
                changed[position] = frozenset(words(note))
            else:
                changed.pop(position, None)
        self._notes = changed

    def set_note(self, paper_id: str, note: str) -> None:
        """Make ``note`` searchable for ``paper_id`` (an empty note removes it)."""
        position = self._position.get(paper_id)
        if position is None or (position not in self._notes and not note.strip()):
            return  # no note before and none now (a bulk star or status): nothing to copy
        notes = dict(self._notes)
        if note.strip():
            notes[position] = frozenset(words(note))
        else:
            notes.pop(position, None)
        self._notes = notes

    def search(self, query: str) -> SearchResult:
        """Rank the papers for ``query``; an empty query gives every paper in catalogue order."""
        return SearchResult(list(self._ranked(query)), len(self._ids))

    def search_positions(self, query: str) -> Sequence[int]:
        """:meth:`search`'s ranking, positions best first (a list or an ``array``: not to be
        changed in place)."""
        return self._ranked(query)

    def search_within(self, query: str, inside: bytes) -> Sequence[int]:
        """:meth:`search_positions`' ranking of the positions whose byte of ``inside`` is 1 (one
        byte per position: a venue scope's papers), in the order it ranks them; the papers
        outside are counted (:meth:`found_count`), not scored nor sorted. The same positions in
        the same order as the whole ranking cut to ``inside``, and as an index of the scope's
        papers alone ranks them where the two indexes expand the query words alike. A ranking
        kept whole (warmed, saved with the index) is cut; a ranking made here is kept per
        ``inside`` (the next keystroke's, a space or a backspace typed, starts from it).

        Raises:
            ValueError: ``inside`` is not one byte per position.
        """
        if len(inside) != len(self._ids):
            raise ValueError(f"{len(inside)} scope bytes for {len(self._ids)} papers")
        return self._ranked(query, inside=inside)

    def found_count(self, query: str) -> int | None:
        """How many papers ``query`` matches over every position, as counted by the last ranking
        of its words (:meth:`search_positions` or :meth:`search_within`) with the notes as they
        are; ``None`` when no such ranking was made (or its count was let go)."""
        query_words = tuple(dict.fromkeys(words(query)))
        if not query_words:
            return len(self._ids)
        kept = self._found_counts.get(query_words)
        return kept[1] if kept is not None and kept[0] is self._notes else None

    def ids_at(self, positions: Iterable[int]) -> list[str]:
        """The paper ids at ``positions``."""
        return list(map(self._ids.__getitem__, positions))

    def ids_view(self, positions: Sequence[int]) -> IdsAt:
        """The paper ids at ``positions`` (a ranking: not changed afterwards), each looked up when
        read (:class:`IdsAt`): a keystroke's list shows a screenful of them."""
        return IdsAt(positions, self._ids)

    def search_ids(self, query: str) -> list[str]:
        """The ids of :meth:`search`'s ranking."""
        ranked = self._ranked(query)
        return list(self._ids) if isinstance(ranked, range) else list(map(self._ids.__getitem__, ranked))

    def word_positions(self, query: str) -> set[int]:
        """The positions of the papers matching every word of ``query`` as :meth:`search`
        matches them (exactly, as a prefix, with a typo, as title initials, in any field or the
        note): exactly the papers :meth:`search` ranks for ``query``, in any order. Every
        position for a query without words."""
        query_words = list(dict.fromkeys(words(query)))
        if not query_words:
            return set(range(len(self._ids)))
        notes = self._notes
        found: set[int] | None = None
        for word in query_words:
            packed = self._with_notes(self._match(word), self._note_scores(word, notes))
            found = set(packed) if found is None else found.intersection(packed)
        assert found is not None
        return found

    def typo_words(self, query: str) -> tuple[str, ...]:
        """The index's words that the words of ``query`` match with a typo only (not as typed
        nor as a prefix: ``difusion`` gives ``diffusion``), for highlighting
        (:mod:`paperdeck.search.highlight`); sorted, each once."""
        found: set[str] = set()
        for word in dict.fromkeys(words(query)):
            found.update(self._vocabulary.typos_of(word))
        return tuple(sorted(found))

    def word_mask(self, query: str) -> np.ndarray:
        """:meth:`word_positions` as one bool per position (numpy: for the field filters)."""
        import numpy as np

        found = np.zeros(len(self._ids), dtype=bool)
        positions = self.word_positions(query)
        if positions:
            found[np.fromiter(positions, dtype=np.int64, count=len(positions))] = True
        return found

    def _ranked(
        self, query: str, notes: dict[int, frozenset[str]] | None = None, inside: bytes | None = None
    ) -> Sequence[int]:
        """Ranked positions, best first, with ``notes`` (default: the index's); of the positions
        whose byte of ``inside`` is 1 only, when given (:meth:`search_within`)."""
        query_words = list(dict.fromkeys(words(query)))
        total = len(self._ids)
        if not query_words:
            return range(total) if inside is None else _positions_inside(range(total), inside)
        if notes is None:
            notes = self._notes  # one snapshot: set_note swaps the dict, never edits it
        warm = self._warm
        whole: Sequence[int] | None = None
        if warm is not None and warm[0] is notes:
            whole = warm[1].get(tuple(query_words))
        if whole is None and not notes:
            whole = self._saved_ranking(tuple(query_words))
        if whole is not None:
            self._count_found(tuple(query_words), notes, len(whole))
            return whole if inside is None else _positions_inside(whole, inside)
        held = self._intersections
        if held is None or held[0] is not notes:
            held = (notes, {}, {}, {})
            if notes is self._notes:
                self._intersections = held
        _, intersections, rankings, scoped = held
        ranking_key: Any = tuple(query_words) if inside is None else (tuple(query_words), inside)
        kept = rankings.get(ranking_key)  # a space or a backspace typed
        if kept is not None:
            return kept
        if inside is not None and (len(self._ids) >= _DENSE_WARM_PAPERS or _numpy_ready()):
            return self._ranked_scoped(query_words, notes, inside, scoped, rankings)
        # Start from the candidates of these words but the last one typed, found at the
        # previous keystroke ("graph neural n" after "graph neural").
        reused = intersections.get(frozenset(query_words[:-1])) if len(query_words) > 1 else None
        candidates: list[int] | np.ndarray | None = None  # positions matching every word so far, ascending
        dense: tuple[np.ndarray, np.ndarray] | None = None  # the last word's arrays, if they are the candidates
        totals: list[int] | np.ndarray = []  # per candidate, the packed values summed over the words so far
        matches: dict[str, _WordMatch] = {}
        later = query_words
        if reused is not None:
            candidates, totals, matches = reused
            later = [query_words[-1]]
        # The words that may match the fewest papers first; each later word only over the
        # candidates left when they are few (a bounded match, kept for the next keystroke):
        # "graph neural netw" looks up "netw" among the "graph neural" papers; a one- or
        # two-letter word already among less than an eighth of the papers ("specul d" scans the
        # "specul…" papers' words for "d", not every title's).
        for word in sorted(later, key=self._reach):
            # With numpy, a short word's prefixes are read from their posting lists through the
            # candidates, as a longer word's (:meth:`_scans_prefixes`): bounded alike.
            short = len(word) in _SHORT_PREFIX_FIELDS and "numpy" not in sys.modules
            share = _BOUNDED_SHORT_SHARE if short else _BOUNDED_SHARE
            bounded = candidates is not None and len(candidates) * share < total and word not in self._matches
            match = self._match(word, candidates if bounded else None)
            note_scores = self._note_scores(word, notes)
            if candidates is None and match.dense is not None and not note_scores:
                # The first word, matched in numpy: its arrays are the candidates and totals
                # (no dict made), and rank it alone.
                dense = match.dense
                candidates, totals = dense  # arrays, as long as no list is needed
            elif candidates is not None and match.dense is not None and not note_scores:
                dense = None  # a later word matched in numpy: the candidates looked up in its arrays
                candidates, totals = _intersected_dense(match.dense, candidates, totals)
            else:
                dense = None
                listed = None if candidates is None else _listed(candidates)
                candidates, totals = self._intersected(self._with_notes(match, note_scores), listed, _listed(totals))
            if not len(candidates):
                self._count_found(tuple(query_words), notes, 0)
                return []
            matches = {**matches, word: match}
            _cache(intersections, frozenset(matches), (candidates, totals, matches), _MAX_INTERSECTIONS)
        assert candidates is not None
        self._count_found(tuple(query_words), notes, len(candidates))
        if inside is not None:  # the scope's candidates ranked; the others only counted (above)
            candidates, totals = _candidates_inside(candidates, totals, self._spans(inside))
            if dense is not None:
                dense = (candidates, totals)  # type: ignore[assignment]  # arrays cut from arrays
        return self._kept_ranking(rankings, ranking_key, candidates, totals, [matches[w] for w in query_words], dense)

    def _kept_ranking(
        self,
        rankings: dict[Any, Sequence[int]],
        key: Any,
        candidates: list[int] | np.ndarray,
        totals: list[int] | np.ndarray,
        matches: list[_WordMatch],
        dense: tuple[np.ndarray, np.ndarray] | None,
    ) -> Sequence[int]:
        """The ``candidates`` ranked (:meth:`_sorted`; none: an empty ranking), kept in ``rankings``
        under ``key`` (at most ``_MAX_RANKINGS``) for the next keystroke to start from."""
        ranked: Sequence[int] = self._sorted(candidates, totals, matches, dense) if len(candidates) else []
        _cache(rankings, key, ranked, _MAX_RANKINGS)
        return ranked

    def _sorted(
        self,
        candidates: list[int] | np.ndarray,
        totals: list[int] | np.ndarray,
        matches: list[_WordMatch],
        dense: tuple[np.ndarray, np.ndarray] | None,
    ) -> Sequence[int]:
        """The ``candidates`` (ascending, at least one) ranked by their packed ``totals`` over the
        query words' ``matches`` (in the query's order), best first; ``dense``: the one word's
        arrays when they are the candidates and totals."""
        if dense is not None and len(matches) == 1:  # one word, matched in numpy: sorted there
            return _ranked_in_numpy(*dense)
        if len(candidates) >= _SORT_IN_NUMPY_FROM and len(matches) <= _PACKED_WORDS and "numpy" in sys.modules:
            return self._ranked_many(candidates, totals, matches)
        candidates, totals = _listed(candidates), _listed(totals)
        keys = list(map(rshift, totals, repeat(_HITS_BITS)))
        if len(matches) > 1:
            self._break_ties(keys, totals, candidates, matches)
        # Candidates are in catalogue order and the sort is stable (reversed too): ties keep
        # catalogue order.
        if len(candidates) >= _DENSE_FROM and "numpy" in sys.modules:
            return _sorted_in_numpy(candidates, keys)
        order = sorted(range(len(candidates)), key=keys.__getitem__, reverse=True)
        return list(map(candidates.__getitem__, order))

    def _ranked_scoped(
        self,
        query_words: list[str],
        notes: dict[int, frozenset[str]],
        inside: bytes,
        scoped: dict[tuple[frozenset[str], bytes], _ScopedIntersection],
        rankings: dict[Any, Sequence[int]],
    ) -> Sequence[int]:
        """:meth:`_ranked` of ``query_words`` within ``inside`` (one byte per position, 1 for a
        venue scope's papers), in numpy: the first word (the fewest postings) is matched over the
        scope's positions only (:meth:`_scoped_match`: its posting lists cut by the scope's mask,
        the other venues' positions it holds kept apart, not scored), each later word over the
        scope's candidates left and the other venues' positions left (bounded when they are few,
        as :meth:`_ranked` bounds them). What the words match outside the scope is only counted
        (:meth:`found_count`). The candidates of each set of words, in this scope, are kept for
        the next keystroke (a word typed after them matches and intersects only that word)."""
        import numpy as np

        total = len(self._ids)
        reused = scoped.get((frozenset(query_words[:-1]), inside)) if len(query_words) > 1 else None
        candidates: list[int] | np.ndarray | None = None  # the scope's positions matching every word so far
        elsewhere: np.ndarray = np.zeros(0, dtype=np.int64)  # the other positions matching them, ascending
        dense: tuple[np.ndarray, np.ndarray] | None = None
        totals: list[int] | np.ndarray = []
        matches: dict[str, _WordMatch] = {}
        later = query_words
        if reused is not None:
            candidates, totals, matches, elsewhere = reused
            later = [query_words[-1]]
        for word in sorted(later, key=self._reach):
            note_scores = self._note_scores(word, notes)
            if candidates is None:  # the first word: its matches in the scope, the others counted
                match, elsewhere = self._scoped_match(word, inside)
                if note_scores:
                    apart = [at for at in note_scores if not inside[at]]
                    if apart:
                        elsewhere = np.union1d(elsewhere, np.asarray(apart, dtype=np.int64))
                    note_scores = {at: score for at, score in note_scores.items() if inside[at]}
                if match.dense is not None and not note_scores:
                    dense = match.dense
                    candidates, totals = dense
                else:
                    dense = None
                    candidates, totals = self._intersected(self._with_notes(match, note_scores), None, [])
            else:
                dense = None
                short = len(word) in _SHORT_PREFIX_FIELDS and "numpy" not in sys.modules
                share = _BOUNDED_SHORT_SHARE if short else _BOUNDED_SHARE
                left = len(candidates) + len(elsewhere)
                bounded = left * share < total and word not in self._matches
                within = np.union1d(_int64(candidates), elsewhere) if bounded else None
                match = self._match(word, within)
                if match.dense is not None and not note_scores:
                    candidates, totals = _intersected_dense(match.dense, candidates, totals)
                    elsewhere = _intersected_dense(match.dense, elsewhere, elsewhere)[0]
                else:
                    packed = self._with_notes(match, note_scores)
                    candidates, totals = self._intersected(packed, _listed(candidates), _listed(totals))
                    held = np.fromiter(map(packed.__contains__, elsewhere.tolist()), dtype=bool, count=len(elsewhere))
                    elsewhere = elsewhere[held]
            matches = {**matches, word: match}
            _cache(scoped, (frozenset(matches), inside), (candidates, totals, matches, elsewhere), _MAX_INTERSECTIONS)
            if not len(candidates) and not len(elsewhere):
                break
        assert candidates is not None
        self._count_found(tuple(query_words), notes, len(candidates) + len(elsewhere))
        ranking_key = (tuple(query_words), inside)
        return self._kept_ranking(rankings, ranking_key, candidates, totals, [matches[w] for w in query_words], dense)

    def _scoped_match(self, word: str, inside: bytes) -> tuple[_WordMatch, np.ndarray]:
        """``word``'s match (:meth:`_match`) over the positions whose byte of ``inside`` is 1
        only, and the other positions it matches (ascending, each once: counted, not scored).
        Each posting list read is cut by the scope's mask in numpy (C-level passes), so that only
        the scope's positions are scored and filled into the match. Kept per word and scope
        (the last ``_MAX_MATCHES``)."""
        import numpy as np

        key = (word, inside)
        kept = self._scoped_matches.get(key)
        if kept is not None:
            return kept
        mask = self._scope_mask(inside)
        total = len(self._ids)
        expansion = self._vocabulary.expand(word)
        groups, keyword_groups, typo_groups, acronym = self._groups(word, expansion, None, True)
        apart = np.zeros(total, dtype=bool)
        cut: list[tuple[int, bool, Sequence[int], bool]] = []
        for score, title, found, _ in groups:
            at = np.asarray(found, dtype=np.intp) if len(found) else np.zeros(0, dtype=np.intp)
            apart[at] = True
            cut.append((score, title, at[mask[at]], True))
        apart &= ~mask
        if sum(len(group[2]) for group in cut) >= _DENSE_FROM:
            dense, keyword_hits = self._packed_dense(word, cut, keyword_groups, typo_groups, acronym, None)
            match = _WordMatch(None, keyword_hits, expansion.vocabulary, dense)
        else:
            listed: list[tuple[int, bool, Sequence[int], bool]] = [
                (score, title, found.tolist(), True)  # type: ignore[attr-defined]  # numpy arrays
                for score, title, found, _ in cut
            ]
            packed, keyword_hits = self._packed_sparse(word, listed, keyword_groups, typo_groups, acronym, None)
            match = _WordMatch(packed, keyword_hits, expansion.vocabulary)
        made = (match, np.flatnonzero(apart))
        _cache(self._scoped_matches, key, made)
        return made

    def _scope_mask(self, inside: bytes) -> np.ndarray:
        """``inside`` as one bool per position (numpy, a view of its bytes: no copy)."""
        import numpy as np

        return np.frombuffer(inside, dtype=np.bool_)

    def _spans(self, inside: bytes) -> list[tuple[int, int]]:
        """:func:`_spans_inside` of ``inside``, kept for the last ``inside`` asked (a scope's bytes
        are kept, :func:`~paperdeck.search.venues.scope_bytes`: the same object each keystroke)."""
        held = self._inside_spans
        if held is not None and held[0] is inside:
            return held[1]
        spans = _spans_inside(inside)
        self._inside_spans = (inside, spans)
        return spans

    def _count_found(self, query_words: tuple[str, ...], notes: dict[int, frozenset[str]], count: int) -> None:
        """Keep ``count``, the papers ``query_words`` match with ``notes`` (:meth:`found_count`)."""
        if notes is self._notes:
            _cache(self._found_counts, query_words, (notes, count), _MAX_MATCHES)

    def _reach(self, word: str) -> int:
        """How many papers ``word`` matches (:meth:`_match`), or at most (its posting lists'
        lengths added up in the fields it is matched in, acronyms left out): to match the words
        of a query in an order that leaves few candidates early."""
        kept = self._matches.get(word)
        if kept is not None:
            return kept.count
        starts, size, short = self._starts, len(self._vocabulary), len(word) in _SHORT_PREFIX_FIELDS
        reach = 0
        for quality, ranges in self._vocabulary.expand(word).bands:
            codes = _SHORT_PREFIX_FIELDS[len(word)] if short and quality == PREFIX_QUALITY else _CODES
            for offset in (code * size for code in codes):
                reach += sum(starts[offset + high] - starts[offset + low] for low, high in ranges)
        return reach

    def _intersected(
        self, packed: dict[int, int], candidates: list[int] | None, totals: list[int]
    ) -> tuple[list[int], list[int]]:
        """The ``candidates`` (ascending; ``None``: every position) among the keys of ``packed``,
        ascending, and their ``totals`` (one per candidate) plus their ``packed`` values: one
        look-up per candidate. (Sorting the keys beats scanning every position: a match is
        filled from ascending posting lists, runs the sort merges.)"""
        if candidates is None:
            candidates = sorted(packed)
            return candidates, list(map(packed.__getitem__, candidates))
        values = list(map(packed.get, candidates))
        if None in values:  # the values are all > 0: compress keeps the matched ones
            candidates, totals = list(compress(candidates, values)), list(compress(totals, values))
            values = list(filter(None, values))
        return candidates, list(map(add, totals, values))

    def warm(self, queries: Iterable[str]) -> None:
        """Rank ``queries`` now and keep their results while the notes stay as they are.

        The app warms every single letter and digit (with the index build): a search starts
        with one letter, and one letter matches half the papers, so it is the slowest query to
        rank. Those are saved with the index (:data:`SAVED_RANKINGS`): read from the file, they
        cost nothing to warm while there are no notes. The results of an earlier call for the
        same notes are kept (see :attr:`notes_hide_saved`). The per-word caches are emptied after
        each query ranked, so that warming holds one query's matches at a time (these queries' words
        are no help to the next keystroke: their rankings are kept whole). rapidfuzz is imported
        too, so that the first query word whose typos it scores (five letters) does not wait for its
        import (the typo buckets' words are made a length at a time as queries need them:
        :meth:`~paperdeck.search.vocabulary.Vocabulary.typo_group`).
        Where each title, keyword and author line starts is found here too (they
        are held encoded): the first query with a later short word or phrase order reads them;
        and, for an index of ``_DENSE_WARM_PAPERS`` papers or more, numpy is imported, with which
        the words of long posting lists are matched.
        """
        import rapidfuzz.process  # noqa: F401  # the typos' scorer (:meth:`Vocabulary.expand`)

        if len(self._ids) >= _DENSE_WARM_PAPERS:
            # numpy, for the words whose posting lists are long (_DENSE_FROM), and the titles'
            # bonus array they read: the keystroke that first needs them does not wait for either.
            # (Not ``np.unique``'s first call, ~10 ms of CPU: no keystroke calls it, see _union.)
            self._bonus_array()
        # What a later query word or phrase order reads, found now rather than at the keystroke
        # that first needs it: where each title, keyword and author line starts (with numpy
        # loaded, in C).
        for lines in self._texts:
            lines.lines()
        self._initial_lines()
        self._cover_units()  # what a query of several words reads
        self._title_bonus_list()  # what a title hit reads (the first query looked it up by size)

        notes = self._notes
        warm = self._warm
        ready: dict[tuple[str, ...], array[int]] = dict(warm[1]) if warm is not None and warm[0] is notes else {}
        for query in queries:
            query_words = tuple(dict.fromkeys(words(query)))
            if query_words and query_words not in ready and (notes or query_words not in self._saved_rankings):
                ready[query_words] = array("I", self._ranked(query, notes))
                self._drop_matches()
        if notes is self._notes:
            self._warm = (notes, ready)

    def _drop_matches(self) -> None:
        """Empty the caches of per-word matches and of candidates (each a dict of up to one entry
        per paper): only what they save the next keystroke is lost."""
        self._matches.clear()
        self._bounded_matches.clear()
        self._scoped_matches.clear()
        held = self._intersections
        if held is not None:
            held[1].clear()
            held[2].clear()
            held[3].clear()

    @property
    def notes_hide_saved(self) -> tuple[str, ...]:
        """The queries saved with the index beyond :data:`SAVED_RANKINGS` (the slowest two-letter
        ones, :data:`SAVED_PAIR_SHARE`) while there are notes, where their saved rankings do not
        hold: worth a :meth:`warm` once the typing pauses. None without notes."""
        if not self._notes:
            return ()
        return tuple(" ".join(query) for query in self._saved_rankings if len(query[0]) == 2)

    def _break_ties(self, keys: list[int], totals: list[int], candidates: list[int], matches: list[_WordMatch]) -> None:
        """Make the sort ``keys`` (one per candidate position, the packed sums' high parts) exact
        for several query words, in place: title hits at most the title's distinct words, keyword
        hits at most ``_KEYWORD_MAX``; then phrase order for the titles with two hits or more."""
        sizes, units = self._title_sizes, self._cover_units()
        # Two title hits or more (two words in the title, or an acronym: its letters count), read
        # from the totals' low bits: indices into candidates, ascending.
        title_hits = map(and_, totals, repeat(_HITS_MASK))
        several = list(compress(range(len(totals)), map(lt, repeat(1), title_hits)))
        # Of those, the titles with more hits than distinct words: one C-level pass to find them.
        positions = list(map(candidates.__getitem__, several))
        hits = list(map(and_, map(totals.__getitem__, several), repeat(_HITS_MASK)))
        title_sizes = list(map(sizes.__getitem__, positions))
        clamped = False
        for i in compress(range(len(several)), map(gt, hits, title_sizes)):
            keys[several[i]] -= (hits[i] - title_sizes[i]) * units[positions[i]]
            clamped = clamped or title_sizes[i] < 2
        if clamped:  # phrase order for the titles with two hits or more, once clamped
            several = [at for at in several if sizes[candidates[at]] > 1]
        if len(matches) > _PACKED_WORDS:
            counts = map(matches[0].keyword_hits.__contains__, candidates)
            for match in matches[1:]:
                counts = map(add, counts, map(match.keyword_hits.__contains__, candidates))
            for at, count in enumerate(counts):
                if count > _KEYWORD_MAX:
                    keys[at] -= count - _KEYWORD_MAX
        if len(several) > _MAX_ORDER_TITLES:  # the best, of equal keys the first in catalogue order
            several = sorted(several, key=keys.__getitem__, reverse=True)[:_MAX_ORDER_TITLES]
        orders = self._phrase_orders(list(map(candidates.__getitem__, several)), [m.vocabulary for m in matches])
        for at, order in zip(several, orders, strict=True):
            if order:
                keys[at] += min(order, _ORDER_MAX) << _ORDER_SHIFT

    def _match(self, word: str, within: list[int] | np.ndarray | None = None) -> _WordMatch:
        """Scores and tie-break counts of one query word over every field; cached.

        ``within`` bounds the match to those positions (ascending: each posting list read is
        filtered by them, and the prefixes of a one- or two-letter word are scanned in their
        words instead); the other positions may or may not be in the result, which is kept apart
        with ``within`` and serves a later call within some of those positions.
        """
        if within is None:
            cached = self._matches.pop(word, None)
            if cached is not None:
                self._matches[word] = cached  # the last used, evicted last
                return cached
        else:  # bounded to positions that hold these: right for them too (the next keystroke's)
            bounded = self._bounded_matches.get(word)
            if bounded is not None and len(within) <= bounded[2] and _holds(bounded[0], within):
                return bounded[1]
        expansion = self._vocabulary.expand(word)
        scanned = None if within is None or not self._scans_prefixes(word, expansion, len(within)) else _listed(within)
        groups, keyword_groups, typo_groups, acronym = self._groups(word, expansion, scanned, within is None)
        # Bounded, the candidates count too: a dict filled through a set of them costs a pass of
        # hashing per candidate, the mask of _packed_dense none.
        reads = sum(len(group[2]) for group in groups) + (len(within) if within is not None else 0)
        keep: set[int] | np.ndarray | None = None
        if "numpy" in sys.modules and reads >= _DENSE_FROM:
            keep = None if within is None else _mask(len(self._ids), within)
            dense, keyword_hits = self._packed_dense(word, groups, keyword_groups, typo_groups, acronym, keep)
            match = _WordMatch(None, keyword_hits, expansion.vocabulary, dense)
        else:
            keep = None if within is None else set(_listed(within))
            packed, keyword_hits = self._packed_sparse(word, groups, keyword_groups, typo_groups, acronym, keep)
            match = _WordMatch(packed, keyword_hits, expansion.vocabulary)
        if within is None:
            _cache(self._matches, word, match)
        else:
            assert keep is not None
            _cache(self._bounded_matches, word, (keep, match, len(within)))
        return match

    def _groups(
        self, word: str, expansion: Expansion, scanned: list[int] | None, whole: bool
    ) -> tuple[list[tuple[int, bool, Sequence[int], bool]], list[int], list[int], bool]:
        """:meth:`_match`'s groups of positions for ``word`` (its ``expansion``): (score, in the
        title, positions, bounded already) per band and field, the acronym's last; the indices of
        the keyword groups and of the title typo groups; whether the acronym's group is there.
        ``scanned``: the positions whose words are scanned for the prefixes instead
        (:meth:`_scans_prefixes`), or ``None``; ``whole``: the posting lists are read whole (not
        bounded already). A title position's value carries its title hit (its cover unit in the
        key, 1 in the hits) whichever title band it is found in."""
        short = len(word) in _SHORT_PREFIX_FIELDS
        groups: list[tuple[int, bool, Sequence[int], bool]] = []
        keyword_groups: list[int] = []  # indices into groups: also counted for the tie-breaks
        typo_groups: list[int] = []  # title bands a keyword, author or acronym hit may outscore
        for quality, ranges in expansion.bands:
            prefix = quality == PREFIX_QUALITY
            codes = _SHORT_PREFIX_FIELDS[len(word)] if prefix and short else _CODES
            for code in codes:
                score = score_key(quality * _WEIGHT[code]) << _HITS_BITS
                if code == KEYWORD:
                    keyword_groups.append(len(groups))
                elif code == TITLE and not prefix and quality != 1.0:
                    typo_groups.append(len(groups))
                if scanned is not None and prefix:  # scanning their words is faster
                    groups.append((score, code == TITLE, self._starting_with(code, word, scanned), True))
                else:
                    groups.append((score, code == TITLE, self._positions(code, ranges), whole))
        acronym = self._acronym_positions(word)
        if acronym:  # the last group
            groups.append((score_key(_INITIALS_QUALITY * _WEIGHT[TITLE]) << _HITS_BITS, False, acronym, whole))
        return groups, keyword_groups, typo_groups, bool(acronym)

    def _packed_sparse(
        self,
        word: str,
        groups: list[tuple[int, bool, Sequence[int], bool]],
        keyword_groups: list[int],
        typo_groups: list[int],
        acronym_last: bool,
        keep: set[int] | None,
    ) -> tuple[dict[int, int], frozenset[int]]:
        """:meth:`_match`'s packed values and keyword hits from its ``groups`` (score, in the
        title, positions, bounded already; the acronym's last, if ``acronym_last``), in a dict: a
        C-level pass per group over its positions (those in ``keep`` only, where not bounded
        already). ``keyword_groups`` / ``typo_groups``: the indices of the keyword groups and of
        the title typo groups."""
        if keep is not None:
            groups = [(score, title, found if bounded else list(filter(keep.__contains__, found)), True)
                      for score, title, found, bounded in groups]  # fmt: skip
        keyword_positions = [groups[at][2] for at in keyword_groups]
        typo_titles = [groups[at][2] for at in typo_groups]
        acronym = groups[-1][2] if acronym_last else []
        ordered = sorted(groups, key=itemgetter(0))
        packed: dict[int, int] = {}
        for score, title, positions, _ in ordered:  # ascending: a better field or match overwrites
            if title:
                packed.update(zip(positions, map(add, repeat(score), self._title_bonuses(positions)), strict=True))
            elif packed:
                packed.update(zip(positions, repeat(score)))
            else:  # the lowest group, often the largest (abstracts): made whole, faster
                packed = dict.fromkeys(positions, score)
        get = packed.__getitem__
        if typo_titles:  # outscored by another field: still a title hit (C-level passes, as below)
            typo = list(dict.fromkeys(chain.from_iterable(typo_titles)))
            lacking = list(compress(typo, map(not_, map(and_, map(get, typo), repeat(_HITS_MASK)))))
            packed.update(zip(lacking, map(add, map(get, lacking), self._title_bonuses(lacking)), strict=True))
        sizes = self._title_sizes
        for position in acronym:  # the acronym stands for len(word) title words
            more = max(1, min(len(word), sizes[position])) - (packed[position] & _HITS_MASK)
            packed[position] += more * next(self._title_bonuses((position,)))
        keyword_hits = frozenset(chain.from_iterable(keyword_positions))
        if keyword_hits:
            packed.update(zip(keyword_hits, map(add, map(get, keyword_hits), repeat(1 << _HITS_BITS)), strict=True))
        return packed, keyword_hits

    def _packed_dense(
        self,
        word: str,
        groups: list[tuple[int, bool, Sequence[int], bool]],
        keyword_groups: list[int],
        typo_groups: list[int],
        acronym_last: bool,
        mask: np.ndarray | None,
    ) -> tuple[tuple[np.ndarray, np.ndarray], frozenset[int]]:
        """:meth:`_packed_sparse`'s result, made in one numpy array of a value per paper: for a
        word whose posting lists are long, where filling a dict group by group (and sorting its
        keys later) costs a pass of hashing per position. Given as the positions matched
        (ascending) and their values (:attr:`_WordMatch.dense`; the dict is read from them when
        first needed), and the keyword hits. ``mask``: the positions a bounded match is made for
        (:func:`_mask`), or ``None``."""
        import numpy as np

        total = len(self._ids)
        bonus = self._bonus_array()
        arrays = []
        for _, _, group, bounded in groups:
            found = np.asarray(group, dtype=np.intp) if len(group) else np.zeros(0, dtype=np.intp)
            arrays.append(found if mask is None or bounded else found[mask[found]])
        values = np.zeros(total, dtype=np.int64)
        # Ascending score, stable: a better field or match overwrites, as in the dict.
        for n in sorted(range(len(groups)), key=lambda n: groups[n][0]):
            score, title, _, _ = groups[n]
            found = arrays[n]
            values[found] = score + bonus[found] if title else score
        if typo_groups:  # outscored by another field: still a title hit
            typo = _union(total, [arrays[at] for at in typo_groups])
            lacking = typo[(values[typo] & _HITS_MASK) == 0]
            values[lacking] += bonus[lacking]
        if acronym_last:  # the acronym stands for len(word) title words
            sizes, title_bonus = self._title_sizes, self._title_bonus_list()
            for position in arrays[-1].tolist():
                more = max(1, min(len(word), sizes[position])) - (int(values[position]) & _HITS_MASK)
                values[position] += more * title_bonus[position]
        keyword_hits: frozenset[int] = frozenset()
        if keyword_groups:
            keyword = _union(total, [arrays[at] for at in keyword_groups])
            values[keyword] += 1 << _HITS_BITS
            keyword_hits = frozenset(keyword.tolist())
        positions = np.flatnonzero(values)
        return (positions, values[positions]), keyword_hits

    def _ranked_many(
        self, candidates: list[int] | np.ndarray, totals: list[int] | np.ndarray, matches: list[_WordMatch]
    ) -> array[int]:
        """The ranking of many ``candidates`` (ascending) from their packed ``totals`` over the
        query words' ``matches`` (at most ``_PACKED_WORDS``), made in numpy as :meth:`_ranked`
        makes it in lists: the sort keys, title hits clamped to the titles' distinct words and
        phrase order for the best ``_MAX_ORDER_TITLES`` titles of two hits or more
        (:meth:`_break_ties`), then a stable sort, the largest key first; an ``array`` of uint32."""
        import numpy as np

        wanted, summed = _int64(candidates), _int64(totals)
        keys = summed >> _HITS_BITS
        if len(matches) > 1:
            hits = summed & _HITS_MASK
            several = np.flatnonzero(hits > 1)  # indices into the candidates, ascending
            positions = wanted[several]
            sizes = np.asarray(self._title_sizes)[positions].astype(np.int64)
            over = hits[several] > sizes
            if over.any():
                clamp = several[over]
                units = self._bonus_array()[positions[over]] >> _HITS_BITS
                keys[clamp] -= (hits[clamp] - sizes[over]) * units
                if (sizes[over] < 2).any():  # phrase order for the titles of two words or more, once clamped
                    several = several[sizes > 1]
            if len(several) > _MAX_ORDER_TITLES:  # the best, of equal keys the first in catalogue order
                several = several[np.argsort(-keys[several], kind="stable")[:_MAX_ORDER_TITLES]]
            orders = self._phrase_orders(wanted[several].tolist(), [m.vocabulary for m in matches])
            keys[several] += np.minimum(np.asarray(orders, dtype=np.int64), _ORDER_MAX) << _ORDER_SHIFT
        ranked = array("I")
        ranked.frombytes(wanted[_largest_first(keys)].astype(np.uint32).tobytes())
        return ranked

    def _phrase_orders(self, positions: list[int], vocabularies: list[frozenset[str]]) -> list[int]:
        """:func:`_phrase_order` of the titles at ``positions`` for query words of ``vocabularies``
        (in the query's order). With numpy loaded, for all the titles at once: their words laid end
        to end, each query word's marks made by one C-level pass over them, the pairs side by side
        found by array operations (a list of marks per title and query word, and two scans per
        title and pair, cost 1-2.4 ms of a key of three to six words at 98,150 papers)."""
        split = list(map(str.split, self._titles.take(positions)))
        if "numpy" not in sys.modules or len(vocabularies) < 2:
            return [_phrase_order(title_words, vocabularies) for title_words in split]
        import numpy as np

        count = len(split)
        title_words = list(chain.from_iterable(split))
        sizes = np.fromiter(map(len, split), dtype=np.int64, count=count)
        if not len(title_words):
            return [0] * count
        # Word n and word n + 1 stand side by side in one title unless n + 1 starts a title.
        side_by_side = np.ones(len(title_words), dtype=bool)
        side_by_side[(np.cumsum(sizes) - sizes)[sizes > 0]] = False
        side_by_side = side_by_side[1:]
        title_of = np.repeat(np.arange(count), sizes)[:-1]  # the title of each pair of words
        words = len(title_words)
        marks = [np.fromiter(map(v.__contains__, title_words), dtype=bool, count=words) for v in vocabularies]
        orders = np.zeros(count, dtype=np.int64)
        for first, second in pairwise(marks):
            in_order = np.zeros(count, dtype=bool)
            in_order[title_of[first[:-1] & second[1:] & side_by_side]] = True
            swapped = np.zeros(count, dtype=bool)
            swapped[title_of[second[:-1] & first[1:] & side_by_side]] = True
            orders += np.where(in_order, 2, swapped.astype(np.int64))
        listed: list[int] = orders.tolist()
        return listed

    def _bonus_array(self) -> np.ndarray:
        """:attr:`_title_bonus` as a numpy array (made at first need)."""
        made = self._title_bonus_array
        if made is None:
            import numpy as np

            made = self._title_bonus_array = np.array(self._title_bonus_list(), dtype=np.int64)
        return made

    def _with_notes(self, match: _WordMatch, note_scores: dict[int, int]) -> dict[int, int]:
        """``match.packed`` with better note scores in place of the fields' (a new dict only
        when one counts)."""
        if not note_scores:
            return match.packed
        packed = match.packed
        better: dict[int, int] = {}
        for position, score in note_scores.items():
            value = packed.get(position, 0)
            field = 0
            if value:  # the fields' score: the key part less the title and keyword hits
                hits = value & _HITS_MASK
                field = (value >> _HITS_BITS) - hits * self._cover_units()[position] - (position in match.keyword_hits)
            if score > field:
                better[position] = value + ((score - field) << _HITS_BITS)
        return packed | better if better else packed

    def _note_scores(self, word: str, notes: dict[int, frozenset[str]]) -> dict[int, int]:
        """The note score keys of ``word`` by position, for this snapshot of the notes; cached
        (scoring every note again on every keystroke would grow with the number of notes)."""
        cache = self._note_cache
        if cache is None or cache[0] is not notes:
            cache = self._note_cache = (notes, NoteWords.of(notes), {})
        _, note_words, found = cache
        scores = found.get(word)
        if scores is None:
            scores = note_words.scores(word)
            if len(found) >= MAX_EXPANSIONS:
                found.clear()
            found[word] = scores
        return scores

    def _positions(self, code: int, ranges: Iterable[tuple[int, int]]) -> Sequence[int]:
        """The positions in field ``code``'s posting lists of the vocabulary words in ``ranges``
        (a slice of the postings for one range, not a copy)."""
        starts, postings, offset = self._starts, self._postings, code * len(self._vocabulary)
        found = [postings[starts[offset + low] : starts[offset + high]] for low, high in ranges]
        found = [part for part in found if len(part)]
        if not found:
            return ()
        return found[0] if len(found) == 1 else array("I", b"".join(found))

    def _scans_prefixes(self, word: str, expansion: Expansion, candidates: int) -> bool:
        """Whether ``word``, matched among ``candidates`` positions only, has its prefixes looked
        for in the candidates' words (:meth:`_starting_with`): a one- or two-letter word without
        numpy, or with numpy while its prefixes' posting lists (in the fields it is matched in as
        a prefix) are longer than ``_SCAN_COST`` times the words scanned. Else the posting lists
        are read through the candidates (in numpy, through a mask: C-level passes over contiguous
        arrays, where the scan reads a string per candidate and field, spread over the heap: ``hu``
        among 11,904 candidates of 98,150 papers, 6.2 ms scanned, 0.8 ms read through the mask)."""
        codes = _SHORT_PREFIX_FIELDS.get(len(word))
        if codes is None:
            return False
        if "numpy" not in sys.modules:
            return True
        starts, size = self._starts, len(self._vocabulary)
        postings = sum(
            starts[code * size + high] - starts[code * size + low]
            for quality, ranges in expansion.bands
            if quality == PREFIX_QUALITY
            for code in codes
            for low, high in ranges
        )
        return candidates * len(codes) * _SCAN_COST < postings

    def _starting_with(self, code: int, word: str, within: list[int]) -> list[int]:
        """The positions of ``within`` with a word starting with ``word`` in the field (title,
        keywords, authors): a C-level substring scan of their words. Only for a few papers: over
        all the titles, gathering the postings of every title word with the prefix is cheaper."""
        return self._texts[code].containing(within, " " + word)

    def _acronym_positions(self, word: str) -> list[int]:
        """Positions whose title initials contain ``word`` (3 to 8 letters).

        ``gnn`` finds "Graph Neural Networks for Molecules". The occurrences found last are kept:
        a word that extends that word (the next keystroke) is looked for only where it occurred,
        since each of its occurrences is one of the shorter word's, at the same offset.
        """
        if not 3 <= len(word) <= 8:
            return []
        text = self._initials
        # UTF-8 needle in UTF-8 text: a match starts on a character's first byte, as in the text.
        needle = encoded(word)
        held = self._acronym_hits
        if held is not None and word.startswith(held[0]):
            kept = list(map(text.startswith, repeat(needle), held[1]))
            offsets, lines = list(compress(held[1], kept)), list(compress(held[2], kept))
        else:
            offsets = []
            at = text.find(needle)
            while at >= 0:
                offsets.append(at)
                at = text.find(needle, at + 1)
            starts = self._initials_starts
            if starts is not None:
                lines = list(map(bisect_right, repeat(starts), offsets))
            else:  # before the warming makes the table: the line breaks counted up to the last hit
                lines, line, last = [], 0, 0
                for at in offsets:
                    line += text.count(b"\n", last, at)
                    lines.append(line)
                    last = at
        self._acronym_hits = (word, offsets, lines)
        return list(dict.fromkeys(lines))

    def _initial_lines(self) -> array[int]:
        """Where each line of the initials but the first starts (byte offsets, ascending): the
        line of offset ``at`` is ``bisect_right(starts, at)``. Made at the first call (a pass
        over the initials; :meth:`warm` makes it), then kept: counting the line breaks before
        each hit of a three-letter word cost a scan of the text up to its last hit, per key."""
        made = self._initials_starts
        if made is None:
            text = self._initials
            if "numpy" in sys.modules:  # the line breaks found in C (the warming imports numpy)
                import numpy as np

                breaks = np.flatnonzero(np.frombuffer(text, np.uint8) == 10) + 1
                made = array("I", breaks.astype(np.uint32).tobytes())
            else:
                made = array("I", accumulate(len(line) + 1 for line in text.split(b"\n")))
                made.pop()  # the end of the last line, after which no line starts
            self._initials_starts = made
        return made


def _cover_unit(size: int) -> int:
    """The title cover unit of a title of ``size`` distinct words (:meth:`SearchIndex._cover_units`)."""
    return (_COVER_MAX // max(size, 1)) << _COVER_SHIFT


def _title_bonus(size: int) -> int:
    """What one title hit adds to a packed word match for a title of ``size`` distinct words."""
    return (_cover_unit(size) << _HITS_BITS) + 1


class _PerSize(dict[int, int]):
    """A value per title size, by size: the first :data:`_SIZES_MADE` made at once, any other at
    its first look-up (the index's title sizes are not read through for their largest)."""

    __slots__ = ("_of",)

    def __init__(self, of: Callable[[int], int]) -> None:
        super().__init__({size: of(size) for size in range(_SIZES_MADE)})
        self._of = of

    def __missing__(self, size: int) -> int:
        made = self[size] = self._of(size)
        return made


#: Title sizes whose cover unit and bonus are made with the index (titles of more distinct words are rare).
_SIZES_MADE = 64


class IdsAt(Sequence[str]):
    """The paper ids at some positions of an index's papers, in the positions' order, each id
    looked up when read: ``ids[n]`` is ``paper_ids[positions[n]]``. A ranking of every paper
    is shown a screenful at a time; turning all its positions into ids at each keystroke cost
    a pass over every candidate.

    Args:
        positions: the positions (a list, an ``array`` or a ``range``), never changed afterwards.
        paper_ids: the index's paper ids, by position.
    """

    __slots__ = ("_ids", "_positions")

    def __init__(self, positions: Sequence[int], paper_ids: Sequence[str]) -> None:
        self._positions = positions
        self._ids = paper_ids

    def __len__(self) -> int:
        return len(self._positions)

    @overload
    def __getitem__(self, at: int) -> str: ...
    @overload
    def __getitem__(self, at: slice) -> list[str]: ...
    def __getitem__(self, at: int | slice) -> str | list[str]:
        if isinstance(at, slice):
            return list(map(self._ids.__getitem__, self._positions[at]))
        return self._ids[self._positions[at]]

    def __iter__(self) -> Iterator[str]:
        return map(self._ids.__getitem__, self._positions)

    def __contains__(self, paper_id: object) -> bool:
        return self.index_of(paper_id) is not None

    def position(self, at: int) -> int:
        """The position among the index's papers (catalogue order) of the id at ``at``."""
        return int(self._positions[at])

    def index_of(self, paper_id: object) -> int | None:
        """The row of ``paper_id`` (its first), or ``None``: two C-level scans (the id among the
        papers, its position among the positions), no map of every id made."""
        try:
            return self._positions.index(self._ids.index(paper_id))
        except ValueError:
            return None

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """``Sequence.index``: the first row of ``value`` at or after ``start`` (before ``stop``).

        Raises:
            ValueError: not there.
        """
        row = self.index_of(value)
        if row is None or row < start or (stop is not None and row >= stop):
            return super().index(value, start, len(self) if stop is None else stop)
        return row

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IdsAt | list | tuple):
            return len(self) == len(other) and all(map(str.__eq__, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"IdsAt({list(self)!r})"


def _postings_in(starts: Numbers, size: int, ranges: Iterable[tuple[int, int]]) -> int:
    """How many postings the words in ``ranges`` of a vocabulary of ``size`` words have, every
    field's added up (``starts``: as :meth:`SearchIndex._adopt` takes them): the
    :attr:`~paperdeck.search.vocabulary.Vocabulary.reach` of an index's vocabulary."""
    offsets = range(0, len(_CODES) * size, size)
    return sum(starts[offset + high] - starts[offset + low] for low, high in ranges for offset in offsets)


def _union(total: int, parts: list[np.ndarray]) -> np.ndarray:
    """The positions (below ``total``) in any of ``parts``, ascending, each once: as
    ``np.unique`` of them joined, through a mask of the papers (no hashing or sorting)."""
    import numpy as np

    mask = np.zeros(total, dtype=bool)
    for part in parts:
        mask[part] = True
    return np.flatnonzero(mask)


def _mask(total: int, positions: list[int] | np.ndarray) -> np.ndarray:
    """One bool per position below ``total``, true at ``positions``."""
    import numpy as np

    mask = np.zeros(total, dtype=bool)
    mask[_int64(positions)] = True
    return mask


def _holds(kept: set[int] | np.ndarray, positions: list[int] | np.ndarray) -> bool:
    """Whether every one of ``positions`` is in ``kept`` (a set, or a mask: :func:`_mask`)."""
    if isinstance(kept, set):
        return all(map(kept.__contains__, _listed(positions)))
    return bool(kept[_int64(positions)].all())


def _intersected_dense(
    dense: tuple[np.ndarray, np.ndarray], candidates: list[int] | np.ndarray, totals: list[int] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`SearchIndex._intersected` for a match in numpy arrays (:attr:`_WordMatch.dense`:
    positions ascending, their packed values): the ``candidates`` (ascending) it holds, in their
    order, and their ``totals`` plus its values, each candidate found by a binary search (no
    dict of the match made), as arrays of int64."""
    import numpy as np

    positions, values = dense
    if not len(positions) or not len(candidates):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    wanted = _int64(candidates)
    at = np.minimum(np.searchsorted(positions, wanted), len(positions) - 1)
    kept = np.flatnonzero(positions[at] == wanted)
    summed = _int64(totals)[kept] + values[at[kept]]
    return wanted[kept], summed


def _listed(numbers: list[int] | np.ndarray) -> list[int]:
    """``numbers`` as a list (the list itself, or a numpy array's values)."""
    if isinstance(numbers, list):
        return numbers
    listed: list[int] = numbers.tolist()
    return listed


def _int64(numbers: list[int] | np.ndarray) -> np.ndarray:
    """``numbers`` as a numpy array of int64 (an array of them as it is, not copied)."""
    import numpy as np

    if isinstance(numbers, list):
        return np.fromiter(numbers, dtype=np.int64, count=len(numbers))
    return numbers.astype(np.int64, copy=False)


def _ranked_in_numpy(positions: np.ndarray, values: np.ndarray) -> array[int]:
    """The ``positions`` (ascending) by their packed ``values`` (one each: sort key above
    ``_HITS_BITS``), the largest key first, equal keys in the positions' order: what the keyed
    ``sorted`` of :meth:`SearchIndex._ranked` gives a one-word query, sorted in numpy (a
    stable ``argsort``), as an ``array`` of uint32."""
    import numpy as np

    order = _largest_first(values >> _HITS_BITS)
    ranked = array("I")
    ranked.frombytes(positions[order].astype(np.uint32).tobytes())
    return ranked


def _sorted_in_numpy(candidates: list[int], keys: list[int]) -> list[int]:
    """``candidates`` by ``keys`` (one each), the largest first, equal keys in the candidates'
    order: the keyed ``sorted(..., reverse=True)`` of :meth:`SearchIndex._ranked`, as a stable
    numpy sort (for many candidates: no key object per candidate)."""
    import numpy as np

    count = len(candidates)
    order = _largest_first(np.fromiter(keys, dtype=np.int64, count=count))
    ranked: list[int] = np.fromiter(candidates, dtype=np.int64, count=count)[order].tolist()
    return ranked


def _largest_first(keys: np.ndarray) -> np.ndarray:
    """The indices of ``keys`` (int64), the largest key first, equal keys in index order: what
    ``np.argsort(-keys, kind="stable")`` gives, as one sort of ints that hold the key and the index
    (each unique, so the unstable sort is exact: 0.7 ms for 20,000 keys, 1.2 ms argsorted)."""
    import numpy as np

    count = len(keys)
    if not count:
        return np.zeros(0, dtype=np.intp)
    top, bits = int(keys.max()), max(count - 1, 1).bit_length()
    if (top - int(keys.min())).bit_length() + bits > 62:
        return np.argsort(-keys, kind="stable")
    packed = ((top - keys) << bits) | np.arange(count, dtype=np.int64)
    packed.sort()
    return packed & ((1 << bits) - 1)


#: From this many positions found, held as an ``array`` or a ``memoryview`` (a saved or a numpy
#: ranking), :func:`_positions_inside` keeps the scope's in numpy, when it is loaded.
_INSIDE_IN_NUMPY_FROM = 2_000


def _positions_inside(found: Sequence[int], inside: bytes) -> Sequence[int]:
    """The positions of ``found`` (a ranking, in its order) whose byte of ``inside`` is 1 (a venue
    scope's papers). A ranking of many positions held in a buffer of machine integers (an
    ``array``, a saved ranking's ``memoryview``) is cut in numpy when it is loaded (the app's
    warming loads it for a library of 40,000 papers or more), into an ``array`` of the same item
    type: one C pass, not a Python call per position; else (a list, a range, few positions, no
    numpy: a query of words alone imports none) one look-up of ``inside`` per position."""
    if len(found) >= _INSIDE_IN_NUMPY_FROM and "numpy" in sys.modules and isinstance(found, array | memoryview):
        import numpy as np

        code = found.typecode if isinstance(found, array) else found.format
        if code in ("I", "L", "Q", "i", "l", "q"):
            positions = np.frombuffer(found, dtype=np.dtype(code))
            kept = positions[np.frombuffer(inside, dtype=np.bool_)[positions]]
            return array(code, kept.tobytes())
    return list(compress(found, map(inside.__getitem__, found)))


def _spans_inside(inside: bytes) -> list[tuple[int, int]]:
    """The runs of positions whose byte of ``inside`` is 1, as ``(start, stop)``, ascending (a
    venue scope's runs: a few)."""
    spans: list[tuple[int, int]] = []
    start = inside.find(1)
    while start >= 0:
        stop = inside.find(0, start)
        if stop < 0:
            stop = len(inside)
        spans.append((start, stop))
        start = inside.find(1, stop)
    return spans


def _candidates_inside(
    candidates: list[int] | np.ndarray, totals: list[int] | np.ndarray, spans: list[tuple[int, int]]
) -> tuple[list[int] | np.ndarray, list[int] | np.ndarray]:
    """The ``candidates`` (ascending) within ``spans`` (:func:`_spans_inside`), and their
    ``totals``: a slice of each per span, its ends found by bisection (lists) or
    ``searchsorted`` (numpy arrays): no pass over the candidates."""
    if not spans:
        return candidates[:0], totals[:0]
    if isinstance(candidates, list):
        cuts = [(bisect_left(candidates, start), bisect_left(candidates, stop)) for start, stop in spans]
        if len(cuts) == 1:
            low, high = cuts[0]
            return candidates[low:high], list(totals[low:high])
        return [at for low, high in cuts for at in candidates[low:high]], [
            total for low, high in cuts for total in totals[low:high]
        ]
    import numpy as np

    ends = np.searchsorted(candidates, np.asarray(spans, dtype=np.int64).ravel())
    summed = _int64(totals)
    if len(spans) == 1:
        return candidates[ends[0] : ends[1]], summed[ends[0] : ends[1]]
    pairs = ends.reshape(-1, 2).tolist()
    return (
        np.concatenate([candidates[low:high] for low, high in pairs]),
        np.concatenate([summed[low:high] for low, high in pairs]),
    )


def _numpy_ready() -> bool:
    """Whether numpy is imported (and not being imported by another thread)."""
    numpy = sys.modules.get("numpy")
    return numpy is not None and not getattr(getattr(numpy, "__spec__", None), "_initializing", False)


def _cache(cache: dict[Any, Any], key: object, value: object, limit: int = _MAX_MATCHES) -> None:
    """Keep ``value`` for ``key`` in ``cache``, the least recently kept dropped past ``limit``."""
    if len(cache) >= limit:
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):  # another thread's eviction
            del cache[next(iter(cache))]
    cache[key] = value


def _phrase_order(title_words: list[str], vocabularies: list[frozenset[str]]) -> int:
    """2 for each pair of consecutive query words found side by side in the title in the query's
    order, 1 for a pair found side by side swapped."""
    # Per query word, which title words it matches: then each pair is two C-level scans.
    marks = [list(map(vocabulary.__contains__, title_words)) for vocabulary in vocabularies]
    order = 0
    for first, second in pairwise(marks):
        if any(map(and_, first, second[1:])):
            order += 2
        elif any(map(and_, second, first[1:])):
            order += 1
    return order
