"""The filter bar's query language: fuzzy words mixed with field terms that filter.

``diffusion decision:oral rating>=6`` ranks by ``diffusion`` (with :class:`paperdeck.search.index.SearchIndex`)
and keeps the orals rated 6 or more. Grammar (``AND`` binds tighter than ``OR``; ``AND`` is implied
between terms; ``OR``/``AND``/``NOT`` only in capitals)::

    query := or ; or := and ("OR" and)* ; and := unary ("AND"? unary)*
    unary := ("-" | "NOT") unary | "(" or ")" | term
    term  := word | "phrase" | field ":" value | field ":" "quoted value" | rating/year comparison

Top-level plain words (joined by the implied ``AND``) are not filters: they go to :attr:`Query.words`
for ranking, which already requires every word (with typos). Plain words under ``OR`` or a negation
are filters: a case-insensitive substring of the title, keywords, authors, abstract or note.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from paperdeck.model.paper import DECISIONS, STATUSES, Paper, UserData, clean_tag, normalise_text
from paperdeck.search.corpus import SPANS, TextCorpus, fold, folded_contains

QUERY_HELP = """\
Type words to rank papers (typos and prefixes are fine); add terms to filter them:
  title:  author:  keyword:  area:  abstract:  note:    text in that field, e.g. author:bengio
  tag:must-read  status:to-read  decision:oral (prefixes too: decision:acc, status:skim)
  is:starred  has:note  has:tags  has:rating
  like:starred  like:ID   rank by likeness to my stars / to a paper (m on a paper)
  rating>=6  rating:5..7  year:2026    (also > < <= = and open ranges rating:6..)
  "graph neural"    a phrase;  title:"large language" a phrase in a field
  -word  NOT term   leave out;  a OR b  either;  ( ) group;  AND is implied
Examples:
  diffusion decision:oral rating>=6
  area:"reinforcement learning" -decision:withdrawn
  (llm OR "language model") is:starred
"""

#: Whether a paper (with the user's record, ``None`` for none) passes; text terms look in the corpus
#: given (``None``: the paper's text folded for this call alone).
Predicate: TypeAlias = Callable[[Paper, UserData | None, TextCorpus | None], bool]

_TEXT_FIELDS = ("title", "author", "keyword", "area", "abstract", "note")
_FIELDS = (*_TEXT_FIELDS, "tag", "status", "decision", "is", "has", "rating", "year", "like")
_ALIASES = {"authors": "author", "keywords": "keyword", "notes": "note", "tags": "tag", "ratings": "rating"}
_NUMERIC = ("rating", "year")
_HAS = ("note", "tag", "rating")
_FIELD_WORD = re.compile(r"([A-Za-z]+)(:|>=|<=|>|<|=)(.*)", re.DOTALL)
_NUMBER = {"rating": re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"), "year": re.compile(r"\d{1,6}")}
_EXAMPLE = {"rating": "rating>=6", "year": "year:2026", "status": "status:to-read", "decision": "decision:oral"}
_EXAMPLE |= {"is": "is:starred", "has": "has:note", "tag": "tag:must-read", "like": "like:starred"}
_MAX_DEPTH = 32
#: Papers left by a query's text terms below which the next term is checked paper by paper
#: rather than by scanning every paper's text (the abstracts' scan being the slow case).
CHECK_EACH_BELOW = 2_000


class _QueryError(Exception):
    """A malformed query; the message is the hint shown to the user."""


@dataclass(frozen=True, slots=True)
class Term:
    """One term. ``field``: ``"word"``, ``"phrase"`` or a field name (``"title"``, ``"rating"``…);
    ``op``: ``":"`` or, for rating and year, ``">="``, ``">"``, ``"<="``, ``"<"``, ``"="``, ``".."``;
    ``value``: as typed, unquoted (``"5..7"`` for a range)."""

    field: str
    value: str
    op: str = ":"

    def __str__(self) -> str:
        if self.field == "word":
            return self.value
        quote = self.field == "phrase" or not self.value or any(c.isspace() or c in '()"' for c in self.value)
        value = f'"{self.value}"' if quote else self.value
        return value if self.field == "phrase" else f"{self.field}{':' if self.op == '..' else self.op}{value}"


@dataclass(frozen=True, slots=True)
class Group:
    """``kind`` ``"AND"`` (all of) or ``"OR"`` (any of) two or more ``children``, none of them a
    group of the same kind; or ``"NOT"`` (none of) one child, not a ``"NOT"``."""

    kind: str
    children: tuple[Node, ...]

    def __str__(self) -> str:
        if self.kind == "NOT":
            return f"-{self.children[0]}"
        return f"({(' OR ' if self.kind == 'OR' else ' ').join(map(str, self.children))})"


Node: TypeAlias = Term | Group


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed filter-bar query.

    Attributes:
        text: the query as typed.
        words: the top-level plain words (as typed), for fuzzy ranking by ``SearchIndex.search``.
        tree: what :meth:`matches` evaluates; ``str()`` gives it as a query again, e.g.
            ``(decision:oral (llm OR "language model"))``; ``None`` when nothing filters.
        error: a short hint when the query is malformed (then ``words`` is empty and nothing
            filters: keep showing the last good result); ``None`` otherwise.
        like: the values of top-level ``like:`` terms — ``"starred"`` or paper ids: rank the list
            by likeness to those papers (:mod:`paperdeck.search.similar`) instead of by the words.
    """

    text: str
    words: list[str] = field(default_factory=list)
    tree: Node | None = None
    error: str | None = None
    like: list[str] = field(default_factory=list)
    _predicate: Predicate | None = field(default=None, repr=False, compare=False)

    @property
    def has_filter(self) -> bool:
        """True when :meth:`matches` can reject a paper."""
        return self._predicate is not None

    @property
    def only_text_terms(self) -> bool:
        """True when every filtering term is a plain text term (``abstract:protein "large
        language"``): then :meth:`required_ids` is exactly the papers :meth:`matches` keeps."""
        if self.tree is None:
            return False
        top = self.tree.children if isinstance(self.tree, Group) and self.tree.kind == "AND" else (self.tree,)
        return all(isinstance(term, Term) and term.field in SPANS for term in top)

    def required_ids(self, users: Mapping[str, UserData], corpus: TextCorpus) -> set[str] | None:
        """The ids of the papers that can pass :meth:`matches`, as far as the text terms every
        passing paper must match tell (``abstract:protein "large language"``), found by scanning
        ``corpus`` (the texts of the papers to select from) at C speed, and for a phrase in the
        notes of ``users`` (paper id → record) too; ``None`` when there is no such term. Papers
        outside it need not be tried."""
        if self.tree is None:
            return None
        top = self.tree.children if isinstance(self.tree, Group) and self.tree.kind == "AND" else (self.tree,)
        terms = [term for term in top if isinstance(term, Term) and term.field in SPANS]
        # The shortest scans first (a short field's before the abstracts'); once few papers are
        # left, each is checked on its own instead, and none left ends the search.
        terms.sort(key=lambda term: corpus.scan_size(term.field))
        required: set[str] | None = None
        noted: Iterable[str]
        for term in terms:
            needle = normalise_text(term.value)
            encoded = needle.encode("utf-8", "surrogatepass")
            if required is not None and len(required) <= CHECK_EACH_BELOW:
                found, noted = corpus.narrowed(required, term.field, encoded), required
            else:
                found, noted = corpus.paper_ids(corpus.matching(term.field, encoded)), users.keys()
            if term.field in ("word", "phrase"):  # these look in the note too
                found |= {
                    pid
                    for pid in noted
                    if (user := users.get(pid)) and user.note and needle in normalise_text(user.note)
                }
            required = found if required is None else required & found
            if not required:
                break
        return required

    @property
    def searches_text(self) -> bool:
        """True when a term filters by text (``abstract:protein``, a phrase, a word under ``OR``):
        then a :class:`~paperdeck.search.corpus.TextCorpus` makes :meth:`matches` faster."""
        return self.tree is not None and _searches_text(self.tree)

    def matches(self, paper: Paper, user: UserData | None = None, corpus: TextCorpus | None = None) -> bool:
        """Whether ``paper`` (with the user's ``user`` record, ``None`` for none) passes the filter.

        Never raises. A text term looks for its words in ``corpus`` (:meth:`TextCorpus.has
        <paperdeck.search.corpus.TextCorpus.has>`: the corpus's texts, or the paper's own folded
        text, kept there); without a corpus the paper's text is folded for this call alone.
        """
        predicate = self._predicate
        return True if predicate is None else predicate(paper, user, corpus)


def parse_query(text: str) -> Query:
    """Parse the filter bar's ``text``; never raises (a malformed query gets :attr:`Query.error`)."""
    try:
        tokens = _lex(text)
        if not tokens:
            return Query(text)
        parser = _Parser(tokens)
        root = parser.parse()
        top = list(root.children) if isinstance(root, Group) and root.kind == "AND" else [root]
        words = [c.value for c in top if isinstance(c, Term) and c.field == "word"]
        like = [c.value for c in top if isinstance(c, Term) and c.field == "like"]
        rest = [c for c in top if not (isinstance(c, Term) and c.field in ("word", "like"))]
        tree: Node | None = None if not rest else rest[0] if len(rest) == 1 else Group("AND", tuple(rest))
        if tree is not None and _has_like(tree):
            raise _QueryError("like: ranks the whole list: use it outside OR, NOT and ( )")
        return Query(text, words, tree, like=like, _predicate=None if tree is None else _compile(tree)[0])
    except _QueryError as error:
        return Query(text, error=str(error))


_LEX = re.compile(
    r'\s+|(?P<paren>[()])|(?P<neg>-(?=\S))|-|"(?P<phrase>[^"]*)"'
    r'|(?P<name>[A-Za-z]+)(?P<op>:|>=|<=|>|<|=)"(?P<value>[^"]*)(?P<close>"?)|(?P<word>[^\s()"]+)|(?P<open>")'
)
_Token: TypeAlias = str | Node  # "(", ")", "OR", "AND", "NOT", or a term


def _lex(text: str) -> list[_Token]:
    """Split ``text`` into operators and terms; a ``-`` starting a term is a ``NOT`` (a lone ``-`` is
    ignored). Raises :class:`_QueryError` for an unclosed quote or a bad field term."""
    tokens: list[_Token] = []
    for match in _LEX.finditer(text):
        group, found = match.lastgroup, match[0]
        if group == "open" or (group == "close" and not match[group]):
            raise _QueryError('a closing " is missing')
        if group in ("paren", "neg"):
            tokens.append(found if group == "paren" else "NOT")
        elif group == "phrase":
            if not normalise_text(match[group]):
                raise _QueryError('an empty "" phrase: put words inside')
            tokens.append(Term("phrase", match[group]))
        elif group == "close":
            tokens.append(_field(match["name"], match["op"], match["value"]))
        elif group == "word":
            field_word = _FIELD_WORD.fullmatch(found)
            if found in ("OR", "AND", "NOT"):
                tokens.append(found)
            else:
                tokens.append(_field(*field_word.groups()) if field_word else Term("word", found))
    return tokens


_OR_HINT = "OR needs a term on both sides, e.g. llm OR agent"


class _Parser:
    """Recursive descent over the tokens; raises :class:`_QueryError` with a hint."""

    def __init__(self, tokens: list[_Token]) -> None:
        self._tokens = tokens
        self._at = 0
        self._depth = 0

    def _peek(self) -> str | None:
        if self._at == len(self._tokens):
            return None
        token = self._tokens[self._at]
        return token if isinstance(token, str) else "term"

    def parse(self) -> Node:
        node = self._or()
        if self._at < len(self._tokens):
            raise _QueryError("a ) has no matching (")
        return node

    def _or(self) -> Node:
        parts = [self._and()]
        while self._peek() == "OR":
            self._at += 1
            parts.append(self._and(after_or=True))
        return _joined("OR", parts)

    def _and(self, after_or: bool = False) -> Node:
        parts: list[Node] = []
        while (kind := self._peek()) not in (None, ")", "OR"):
            if kind == "AND":
                self._at += 1
                if not parts or self._peek() in (None, ")", "OR", "AND"):
                    raise _QueryError("AND needs a term on both sides, e.g. llm AND agent")
                continue
            parts.append(self._unary())
        if not parts:
            if after_or or self._peek() == "OR":
                raise _QueryError(_OR_HINT)
            if self._peek() == ")":
                raise _QueryError("a ) has no matching (" if self._depth == 0 else "empty ( ): put terms inside")
            raise _QueryError("a closing ) is missing")
        return _joined("AND", parts)

    def _unary(self) -> Node:
        negated = False
        while self._peek() == "NOT":  # a loop, not recursion: "------x" cannot overflow the stack
            self._at += 1
            negated = not negated
            if self._peek() in (None, ")", "OR", "AND"):
                raise _QueryError("- and NOT need a term after them, e.g. -survey")
        node = self._primary()
        if not negated:
            return node
        return node.children[0] if isinstance(node, Group) and node.kind == "NOT" else Group("NOT", (node,))

    def _primary(self) -> Node:
        token = self._tokens[self._at]
        self._at += 1
        if not isinstance(token, str):
            return token
        if self._depth >= _MAX_DEPTH:
            raise _QueryError("too many nested ( )")
        self._depth += 1
        node = self._or()
        self._depth -= 1
        if self._peek() != ")":
            raise _QueryError("a closing ) is missing")
        self._at += 1
        return node


def more_like(text: str, paper_id: str) -> str:
    """The query for "more like this" from the filter text ``text``: ``like:PAPER_ID`` and the
    field terms of ``text`` (similar papers among the orals, say). Its words and ``like:`` terms
    go: the words found the paper and would keep only the papers that match them too."""
    tree = parse_query(text).tree
    terms = tree.children if isinstance(tree, Group) and tree.kind == "AND" else () if tree is None else (tree,)
    return " ".join([f"like:{paper_id}", *map(str, terms)])


def _searches_text(node: Node) -> bool:
    if isinstance(node, Term):
        return node.field in ("word", "phrase") or (node.field in _TEXT_FIELDS and node.field != "note")
    return any(_searches_text(child) for child in node.children)


def _has_like(node: Node) -> bool:
    """Whether a ``like:`` term is anywhere in ``node``."""
    if isinstance(node, Term):
        return node.field == "like"
    return any(_has_like(child) for child in node.children)


def _joined(kind: str, parts: list[Node]) -> Node:
    """``parts`` joined by ``kind``, flattening nested nodes of the same kind."""
    if len(parts) == 1:
        return parts[0]
    flat: list[Node] = []
    for part in parts:
        flat.extend(part.children if isinstance(part, Group) and part.kind == kind else (part,))
    return Group(kind, tuple(flat))


def _field(typed_name: str, op: str, value: str) -> Node:
    """The term of ``name`` ``op`` ``value`` (``p<0.05``, with no such field, is a word).

    Raises:
        _QueryError: an unknown field, a value missing or not one the field takes.
    """
    name = _ALIASES.get(typed_name.casefold(), typed_name.casefold())
    if name not in _FIELDS:
        if op != ":":
            return Term("word", f"{typed_name}{op}{value}")
        close = difflib.get_close_matches(name, _FIELDS, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}:?" if close else "try title:, author:, keyword:, area:, tag:, decision:, …"
        raise _QueryError(f"unknown field '{typed_name}:' — {hint}")
    if name in _NUMERIC:
        if op in (":", "=") and (inner := re.match(r">=|<=|>|<|=", value)):
            op, value = inner[0], value[inner.end() :]
        if op == ":":
            op = ".." if ".." in value else "="
        _number_range(name, op, value)  # validates
        return Term(name, value, op)
    if op not in (":", "="):
        raise _QueryError(f"only rating and year compare with {op}, e.g. rating>=6")
    if not normalise_text(value):
        raise _QueryError(f"{name}: needs a value, e.g. {_EXAMPLE.get(name, name + ':diffusion')}")
    if name in ("status", "decision", "is", "has"):
        _choices(name, value)  # validates
    if name == "like":
        return Term(name, "starred" if value.casefold() == "starred" else value.strip())
    return Term(name, value)


def _choices(name: str, value: str) -> frozenset[str]:
    """The statuses, decisions, ``is:`` or ``has:`` values ``value`` names: the one it equals, else
    every one it starts (``acc``: accept, accept-conditional); ``-``, ``_`` and spaces ignored."""
    options = {"status": STATUSES, "decision": DECISIONS, "is": ("starred",), "has": _HAS}[name]
    key = re.sub(r"[\s_-]", "", value.casefold())
    if name == "has" and len(key) > 1:
        key = key.removesuffix("s")  # has:notes, has:tags, has:ratings
    folded = {option: option.replace("-", "") for option in options}
    exact = [option for option, f in folded.items() if f == key]
    found = exact or [option for option, f in folded.items() if f.startswith(key)]
    if not found:
        listed = ", ".join(options[:6]) + (", …" if len(options) > 6 else "")
        raise _QueryError(f"unknown {name} '{value}' — try {listed}")
    return frozenset(found)


def _number_range(name: str, op: str, value: str) -> tuple[float, float]:
    """The closed range ``(low, high)`` a rating or year ``op`` (``>=``, ``>``, ``<=``, ``<``, ``=``,
    ``..``) ``value`` stands for (``>6`` is from the float after 6; open ends are infinite).

    A rating ``=`` matches the mean as shown, to 2 decimals: ``rating=4.67`` is 4.665 up to 4.675.

    Raises:
        _QueryError: ``value`` is not a number (a whole one for a year) or a range of them.
    """

    def number(text: str) -> float:
        if not _NUMBER[name].fullmatch(text):
            raise _QueryError(f"{name} needs a {'whole ' if name == 'year' else ''}number, e.g. {_EXAMPLE[name]}")
        return float(text)

    if op == "..":
        low_text, _, high_text = value.partition("..")
        low = number(low_text) if low_text or not high_text else -math.inf
        high = number(high_text) if high_text else math.inf
        return min(low, high), max(low, high)
    x = number(value)
    if op == "=":
        return (x, x) if name == "year" else (x - 0.005, math.nextafter(x + 0.005, -math.inf))
    after, before = math.nextafter(x, math.inf), math.nextafter(x, -math.inf)
    return {">=": (x, math.inf), ">": (after, math.inf), "<=": (-math.inf, x)}.get(op, (-math.inf, before))


_COST = {"title": 2, "keyword": 2, "author": 2, "area": 2, "note": 2, "abstract": 3, "phrase": 4, "word": 5}


def _text_predicate(name: str, needle: str) -> Predicate:
    """``needle`` (folded) is in field ``name`` (a word: also in the note; a phrase: not in authors)."""
    if name == "note":
        return lambda p, u, t: u is not None and bool(u.note) and needle in normalise_text(u.note)
    in_note, encoded = name in ("word", "phrase"), needle.encode("utf-8", "surrogatepass")

    def predicate(paper: Paper, user: UserData | None, corpus: TextCorpus | None) -> bool:
        if corpus.has(paper, name, encoded) if corpus is not None else folded_contains(fold(paper), name, encoded):
            return True
        return in_note and user is not None and bool(user.note) and needle in normalise_text(user.note)

    return predicate


def _compile(node: Node) -> tuple[Predicate, int]:
    """A predicate for ``node`` and its rough cost (cheap terms are tried first)."""
    if isinstance(node, Group) and node.kind == "NOT":
        inner, cost = _compile(node.children[0])
        return (lambda p, u, t: not inner(p, u, t)), cost
    if isinstance(node, Group):
        compiled = sorted(map(_compile, node.children), key=lambda pair: pair[1])  # cheapest first
        tests, every = [test for test, _ in compiled], node.kind == "AND"

        def group(paper: Paper, user: UserData | None, corpus: TextCorpus | None) -> bool:
            for test in tests:
                if (not test(paper, user, corpus)) is every:  # AND: one fails; OR: one passes
                    return not every
            return every

        return group, sum(cost for _, cost in compiled)
    name, value = node.field, node.value
    if name in ("word", "phrase") or name in _TEXT_FIELDS:
        return _text_predicate(name, normalise_text(value)), _COST[name]
    if name == "tag":
        tag = clean_tag(value)
        return (lambda p, u, t: u is not None and any(t.startswith(tag) for t in u.tags)), 1
    if name in _NUMERIC:
        low, high = _number_range(name, node.op, value)
        if name == "year":
            return (lambda p, u, t: p.year is not None and low <= p.year <= high), 1
        return (lambda p, u, t: p.ratings is not None and low <= p.ratings.mean <= high), 1
    chosen = _choices(name, value)
    if name == "decision":
        return (lambda p, u, t: p.decision in chosen), 1
    if name == "status":
        return (lambda p, u, t: (u.status if u is not None else "unseen") in chosen), 1
    if name == "is":
        return (lambda p, u, t: u is not None and u.starred), 1
    if "note" in chosen:  # has: names exactly one (they start with different letters)
        return (lambda p, u, t: u is not None and bool(u.note.strip())), 1
    if "tag" in chosen:
        return (lambda p, u, t: u is not None and bool(u.tags)), 1
    return (lambda p, u, t: p.ratings is not None), 1


__all__ = ["QUERY_HELP", "Group", "Node", "Query", "Term", "more_like", "parse_query"]
