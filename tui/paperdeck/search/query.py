"""The filter bar's query language: fuzzy words mixed with field terms that filter.

``diffusion decision:oral rating>=6`` ranks by ``diffusion`` (with :class:`paperdeck.search.index.SearchIndex`)
and keeps the orals rated 6 or more. Grammar (``AND`` binds tighter than ``OR``; ``AND`` is implied
between terms; ``OR``/``AND``/``NOT`` only in capitals)::

    query := or ; or := and ("OR" and)* ; and := unary ("AND"? unary)*
    unary := ("-" | "NOT") unary | "(" or ")" | term
    term  := word | "phrase" | field ":" value | field ":" "quoted value" | rating/year comparison

Top-level plain words (joined by the implied ``AND``) are not filters: they go to :attr:`Query.words`
for ranking, which already requires every word (with typos). Every other term is a set of papers
(:meth:`Query.mask`), and ``AND``/``OR``/``NOT`` are intersection, union and complement, so ``x`` and
``-x`` always split the papers in two. A word anywhere is the set the ranking finds for it
(:meth:`SearchIndex.word_mask <paperdeck.search.index.SearchIndex.word_mask>`); a text field term or
phrase matches from the start of a word, or anywhere with a leading ``*``
(:func:`paperdeck.search.corpus.pattern`); ``decision:`` names groups (:mod:`paperdeck.model.decision`).
The fields, their values and what their terms keep are one table,
:data:`paperdeck.search.query_fields.FIELDS`. A field name the language does not know is text
(``dpo:`` is the word ``dpo``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypeAlias

from paperdeck.search.corpus import SPANS
from paperdeck.search.query_terms import Group, Lookups, Node, QueryError, Term
from paperdeck.search.words import words
from paperdeck.text.fold import fold_text
from paperdeck.values import FrozenValue

if TYPE_CHECKING:  # the masks are numpy's, imported where a term is evaluated: parsing needs none
    import numpy as np

    from paperdeck.search.query_fields import QUERY_HELP, query_markdown, review_number, review_numbers

#: What this module names from :mod:`paperdeck.search.query_fields`, imported there at first use
#: (as a query's first field term imports it): a query of words alone needs none of its fields.
_FROM_FIELDS = frozenset({"QUERY_HELP", "query_markdown", "review_number", "review_numbers"})


def __getattr__(name: str) -> object:
    """:data:`_FROM_FIELDS`'s names, from :mod:`paperdeck.search.query_fields` (imported then)."""
    if name in _FROM_FIELDS:
        from paperdeck.search import query_fields

        return getattr(query_fields, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_FIELD_WORD = re.compile(r"([A-Za-z][A-Za-z_]*)(:|>=|<=|>|<|=)(.*)", re.DOTALL)
_MAX_DEPTH = 32


class Query(FrozenValue):
    """A parsed filter-bar query (a :class:`~paperdeck.values.FrozenValue`: made at the query's
    first key, where a dataclass's generated methods cost more than the parse).

    Attributes:
        text: the query as typed.
        words: the top-level plain words (as typed), for fuzzy ranking by ``SearchIndex.search``.
        tree: what :meth:`mask` evaluates; ``str()`` gives it as a query again, e.g.
            ``(decision:oral (llm OR "language model"))``; ``None`` when nothing filters.
        error: a short hint when the query is malformed (then ``words`` is empty and nothing
            filters: keep showing the last good result); ``None`` otherwise.
        like: the values of top-level ``like:`` terms — ``"starred"`` or paper ids: rank the list
            by likeness to those papers (:mod:`paperdeck.search.similar`) instead of by the words.
        note: a note on how the query was read, not an error: :data:`PRECEDENCE_NOTE` when an
            ``OR`` joins terms that spaces (or ``AND``) join too, without parentheses; else ``None``.
    """

    __slots__ = ("error", "like", "note", "text", "tree", "words")
    FIELDS = ("text", "words", "tree", "error", "like", "note")

    text: str
    words: list[str]
    tree: Node | None
    error: str | None
    like: list[str]
    note: str | None

    def __init__(
        self,
        text: str,
        words: list[str] | None = None,
        tree: Node | None = None,
        error: str | None = None,
        like: list[str] | None = None,
        note: str | None = None,
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "text", text)
        set_field(self, "words", [] if words is None else words)
        set_field(self, "tree", tree)
        set_field(self, "error", error)
        set_field(self, "like", [] if like is None else like)
        set_field(self, "note", note)

    def replaced(self, **changes: object) -> Query:
        """This query with the fields named in ``changes`` given other values (as
        :func:`dataclasses.replace` does)."""
        values = dict(zip(self.FIELDS, self._values(), strict=True)) | changes
        return Query(**values)

    @property
    def has_filter(self) -> bool:
        """True when :meth:`mask` can leave a paper out."""
        return self.tree is not None

    @property
    def only_text_terms(self) -> bool:
        """True when every filtering term is a text term every paper kept must match
        (``abstract:protein "large language"``): a scan of the texts answers it at once."""
        if self.tree is None:
            return False
        top = self.tree.children if isinstance(self.tree, Group) and self.tree.kind == "AND" else (self.tree,)
        return all(isinstance(term, Term) and term.field in SPANS and term.field != "word" for term in top)

    @property
    def searches_text(self) -> bool:
        """True when a term looks in the papers' texts (``abstract:protein``, a phrase): then
        :meth:`Lookups.text` is called, which needs the folded texts (a
        :class:`~paperdeck.search.corpus.TextCorpus`)."""
        return self.tree is not None and _searches_text(self.tree)

    @property
    def searches_reviews(self) -> bool:
        """True when a ``review:`` term looks in the review text (:meth:`Lookups.review_forums`,
        which reads the reviews' word index the first time: run the query in a worker)."""
        return self.tree is not None and _has_field(self.tree, "review")

    @property
    def reads_moves(self) -> bool:
        """True when a term reads how the ratings moved (``moved:``, ``review_moved:``,
        ``rating_delta``, ``rating_initial``): the first such query over a store makes the columns
        of every paper (:func:`~paperdeck.search.query_fields.rating_moves`; run it in a worker)."""
        return self.tree is not None and any(
            _has_field(self.tree, name) for name in ("moved", "review_moved", "rating_delta", "rating_initial")
        )

    @property
    def uses_followed(self) -> bool:
        """True when an ``is:followed`` term is anywhere in the query (:meth:`Lookups.followed`
        is then called)."""
        return self.tree is not None and _has_followed(self.tree)

    @property
    def reads_user_data(self) -> bool:
        """True when what the query keeps or how it ranks reads the user's records: a ``tag:``,
        ``status:``, ``is:starred``, ``has:note``, ``has:tags`` or ``note:`` term, a phrase (it
        looks in the notes too), or ``like:starred``. A star, status, tag or note changed may then
        change the list."""
        return "starred" in self.like or (self.tree is not None and _reads_user_data(self.tree))

    @property
    def searches_words(self) -> bool:
        """True when the query needs the search index: words to rank by (a top-level phrase's
        too: :attr:`phrase_words`), or a word under ``OR`` or a negation (:meth:`Lookups.words`)."""
        return bool(self.words or self.phrase_words) or (self.tree is not None and _has_field(self.tree, "word"))

    @property
    def phrase_words(self) -> list[str]:
        """The folded words of the phrases every paper kept must contain (``"speculative
        decoding"``, not under ``OR`` or ``-``): a query without plain words ranks its list by
        them for the relevance sort, as the same words unquoted rank it
        (:func:`~paperdeck.search.selection.run_query`)."""
        if self.tree is None:
            return []
        top = self.tree.children if isinstance(self.tree, Group) and self.tree.kind == "AND" else (self.tree,)
        return [w for t in top if isinstance(t, Term) and t.field == "phrase" for w in words(t.value.strip("*"))]

    @property
    def ranks(self) -> bool:
        """Whether the query has words to rank by (plain ones, or a top-level phrase's), or a
        ``like:``: then the relevance sort is its own, whatever sort is saved."""
        return bool(self.words or self.like or self.phrase_words)

    def word_start_mask(self, lookups: Lookups) -> np.ndarray | None:
        """For a query whose papers must match a text term in the substring form (``title:*lora``):
        the papers that match every such term from a word start too ("LoRA" rather than
        "Exploration"), to list first; ``None`` when there is no such term."""
        if self.tree is None:
            return None
        top = self.tree.children if isinstance(self.tree, Group) and self.tree.kind == "AND" else (self.tree,)
        inner = [t for t in top if isinstance(t, Term) and t.field in SPANS and t.value.startswith("*")]
        if not inner:
            return None
        starts = [Term(t.field, t.value.lstrip("*"), t.op) for t in inner]
        return _mask(starts[0] if len(starts) == 1 else Group("AND", tuple(starts)), lookups)

    def mask(self, lookups: Lookups, within: np.ndarray | None = None) -> np.ndarray | None:
        """Which papers of ``lookups.papers`` pass the filter (the tree; the ranking words are not
        in it): one bool per paper, or ``None`` when nothing filters. A negation is the exact
        complement of what its term keeps: ``x`` and ``-x`` split the papers in two.

        ``within`` (one bool per paper): only these papers' answers need be right (the others may
        be anything): the papers the words found, say, so that a text term looks at them alone."""
        return None if self.tree is None else _mask(self.tree, lookups, within)


def parse_query(text: str) -> Query:
    """Parse the filter bar's ``text``; never raises (a malformed query gets :attr:`Query.error`)."""
    try:
        tokens = _lex(_math_shown(text) if "$" in text else text)
        if not tokens:
            return Query(text)
        parser = _Parser(tokens)
        root = parser.parse()
        top = list(root.children) if isinstance(root, Group) and root.kind == "AND" else [root]
        ranked = [c.value for c in top if isinstance(c, Term) and c.field == "word"]
        like = [c.value for c in top if isinstance(c, Term) and c.field == "like"]
        rest = [c for c in top if not (isinstance(c, Term) and c.field in ("word", "like"))]
        tree: Node | None = None if not rest else rest[0] if len(rest) == 1 else Group("AND", tuple(rest))
        if tree is not None and _has_field(tree, "like"):
            raise QueryError("like: ranks the whole list: use it outside OR, NOT and parentheses")
        if unknown := _unknown_fields(root, []):  # plain words import no field
            _refuse_misspelt_fields(unknown)
        note = PRECEDENCE_NOTE if parser.mixes_and_or else None
        if note is None and unknown:  # how it was read first
            from paperdeck.search.query_fields import unknown_field_note

            note = next(filter(None, (unknown_field_note(name, op) for name, op, _ in unknown)), None)
        return Query(text, ranked, tree, like=like, note=note)
    except QueryError as error:
        return Query(text, error=str(error))


#: Inline math pasted from a title's source (``C$^3$-Bench``), never across a quote.
_MATH = re.compile(r'\$[^$"]+\$')


def _math_shown(text: str) -> str:
    """``text`` with each ``$…$`` span shown as the title it was pasted from is shown and indexed
    (:func:`~paperdeck.search.words.search_title`: ``C$^3$-Bench`` → ``C³-Bench``,
    ``$\\tilde{O}(s^4)$`` → ``Õ(s⁴)``), so that the paste finds its paper; the rest as typed."""
    from paperdeck.model.safe_text import shown_line

    return _MATH.sub(lambda span: shown_line(span[0]), text)


_LEX = re.compile(
    r'\s+|(?P<paren>[()])|(?P<neg>-(?=\S))|-|"(?P<phrase>[^"]*)"'
    r'|(?P<name>[A-Za-z][A-Za-z_]*)(?P<op>:|>=|<=|>|<|=)"(?P<value>[^"]*)(?P<close>"?)|(?P<word>[^\s()"]+)|(?P<open>")'
)
_Token: TypeAlias = str | Node  # "(", ")", "OR", "AND", "NOT", or a term


#: What follows a lone ``-`` that negates nothing: the end, a ``)``, ``OR`` or ``AND``.
_NOTHING_AFTER = re.compile(r"\s*(?:$|\)|(?:OR|AND)(?![^\s()]))")
_NOT_HINT = "- and NOT need a term after them, e.g. -survey"


def _lex(text: str) -> list[_Token]:
    """Split ``text`` into operators and terms; a ``-`` starting a term is a ``NOT``. A lone ``-``
    between terms (``Bench - A Benchmark``, a pasted title) and a word without a letter or digit
    (``?``, ``-?``) are ignored, as if not typed; a lone ``-`` with no term after it (``-``,
    ``llm -``, ``(a -)``) is refused, as ``NOT`` alone is.
    Raises :class:`QueryError` for an unclosed quote, a ``-`` negating nothing or a bad field term."""
    tokens: list[_Token] = []
    negations = 0  # the "-" just before, as NOTs at the end of tokens
    for match in _LEX.finditer(text):
        group, found = match.lastgroup, match[0]
        if group == "open" or (group == "close" and not match[group]):
            raise QueryError('a closing " is missing')
        if group is None and found == "-" and _NOTHING_AFTER.match(text, match.end()):
            raise QueryError(_NOT_HINT)  # a lone "-" negating nothing, as NOT alone
        if group in ("paren", "neg"):
            tokens.append(found if group == "paren" else "NOT")
        elif group == "phrase":
            if not fold_text(match[group].strip("*")):
                raise QueryError('an empty "" phrase: put words inside')
            tokens.append(Term("phrase", match[group]))
        elif group == "close":
            tokens.append(_field(match["name"], match["op"], match["value"], quoted=True))
        elif group == "word":
            field_word = _FIELD_WORD.fullmatch(found)
            if found in ("OR", "AND", "NOT"):
                tokens.append(found)
                negations = negations + 1 if found == "NOT" else 0
                continue
            term = _word_term(found, field_word)
            if isinstance(term, Term) and term.field == "word" and not words(term.value):
                # No letter or digit ("?", "*"): no term at all, nor is the "-" before it.
                while tokens and tokens[-1] == "NOT" and negations:
                    tokens.pop()
                    negations -= 1
                continue
            tokens.append(term)
        if group is not None:  # white space and a lone "-" change nothing
            negations = negations + 1 if group == "neg" else 0
    return tokens


_OR_HINT = "OR needs a term on both sides, e.g. llm OR agent"
#: :attr:`Query.note` of ``a b OR c``: how the parser reads it (``AND`` binds tighter than ``OR``),
#: and its short form where there is little room.
PRECEDENCE_NOTE = "a b OR c means (a b) OR c"
PRECEDENCE_SHORT = "(a b) OR c"
#: Each :attr:`Query.note`'s short form (an unknown field's: :func:`short_note`).
SHORT_NOTES = {PRECEDENCE_NOTE: PRECEDENCE_SHORT}


def short_note(note: str) -> str:
    """The short form of a :attr:`Query.note`, for counts with little room; ``""`` when none."""
    from paperdeck.search.query_fields import short_note as field_note

    return SHORT_NOTES.get(note) or field_note(note)


class _Parser:
    """Recursive descent over the tokens; raises :class:`QueryError` with a hint."""

    def __init__(self, tokens: list[_Token]) -> None:
        self._tokens = tokens
        self._at = 0
        self._depth = 0
        self._joined = 0  # how many terms the last AND joined
        #: Whether an OR joins an AND of several terms not in parentheses (``a b OR c``).
        self.mixes_and_or = False

    def _peek(self) -> str | None:
        if self._at == len(self._tokens):
            return None
        token = self._tokens[self._at]
        return token if isinstance(token, str) else "term"

    def parse(self) -> Node:
        node = self._or()
        if self._at < len(self._tokens):
            raise QueryError("a ) has no matching (")
        return node

    def _or(self) -> Node:
        parts = [self._and()]
        several = self._joined > 1
        while self._peek() == "OR":
            self._at += 1
            parts.append(self._and(after_or=True))
            several |= self._joined > 1
        self.mixes_and_or |= several and len(parts) > 1
        return _joined("OR", parts)

    def _and(self, after_or: bool = False) -> Node:
        parts: list[Node] = []
        while (kind := self._peek()) not in (None, ")", "OR"):
            if kind == "AND":
                self._at += 1
                if not parts or self._peek() in (None, ")", "OR", "AND"):
                    raise QueryError("AND needs a term on both sides, e.g. llm AND agent")
                continue
            parts.append(self._unary())
        if not parts:
            if after_or or self._peek() == "OR":
                raise QueryError(_OR_HINT)
            if self._peek() == ")":
                raise QueryError("a ) has no matching (" if self._depth == 0 else "empty (): put terms inside")
            raise QueryError("a closing ) is missing")
        self._joined = len(parts)
        return _joined("AND", parts)

    def _unary(self) -> Node:
        negated = False
        while self._peek() == "NOT":  # a loop, not recursion: "------x" cannot overflow the stack
            self._at += 1
            negated = not negated
            if self._peek() in (None, ")", "OR", "AND"):
                raise QueryError(_NOT_HINT)
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
            raise QueryError("too many nested parentheses")
        self._depth += 1
        node = self._or()
        self._depth -= 1
        if self._peek() != ")":
            raise QueryError("a closing ) is missing")
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
        return node.field in SPANS and node.field != "word"
    return any(_searches_text(child) for child in node.children)


def _reads_user_data(node: Node) -> bool:
    if isinstance(node, Group):
        return any(_reads_user_data(child) for child in node.children)
    if node.field in ("tag", "status", "note", "phrase"):
        return True
    if node.field not in ("is", "has"):
        return False
    from paperdeck.search.query_fields import choices

    if node.field == "is":
        return "starred" in choices("is", node.value)
    return bool(choices("has", node.value) & {"note", "tag"})


def _has_followed(node: Node) -> bool:
    if isinstance(node, Term):
        if node.field != "is":
            return False
        from paperdeck.search.query_fields import choices

        return "followed" in choices("is", node.value)
    return any(_has_followed(child) for child in node.children)


def _has_field(node: Node, name: str) -> bool:
    """Whether a term of field ``name`` is anywhere in ``node``."""
    if isinstance(node, Term):
        return node.field == name
    return any(_has_field(child, name) for child in node.children)


def _joined(kind: str, parts: list[Node]) -> Node:
    """``parts`` joined by ``kind``, flattening nested nodes of the same kind; an ``OR``'s
    repeated children are kept once (the same papers), so a printed tree parses back to itself: a
    bare pasted id is ``(id:X OR X)``, and its print read again repeats ``id:X``."""
    if len(parts) == 1:
        return parts[0]
    flat: list[Node] = []
    for part in parts:
        flat.extend(part.children if isinstance(part, Group) and part.kind == kind else (part,))
    if kind == "OR":
        flat = list(dict.fromkeys(flat))
        if len(flat) == 1:
            return flat[0]
    return Group(kind, tuple(flat))


def _word_term(found: str, field_word: re.Match[str] | None) -> Node:
    """The term of a word typed outside quotes: a pasted link or canonical id is an ``id:`` term
    (``https://openreview.net/forum?id=X``, ``arxiv:2401.01234``), a bare pasted OpenReview id
    that id or the word (``id:X OR X``), a field term, else the word."""
    from paperdeck.search.pasted_ids import bare_id, pasted_id

    if pasted_id(found):
        return Term("id", found)
    if bare_id(found):
        return Group("OR", (Term("id", found), Term("word", found)))
    return _field(field_word[1], field_word[2], field_word[3]) if field_word else Term("word", found)


#: A word typed as a comparison, ``name`` ``op`` ``value`` (``ratng>=6``, ``rating!=6``).
_COMPARED_WORD = re.compile(r"([A-Za-z][A-Za-z_]*)(>=|<=|!=|=>|=<|==|>|<|=)(.+)", re.DOTALL)


def _refuse_misspelt_fields(unknown: list[tuple[str, str, str]]) -> None:
    """Refuse a word typed as a term of a field misspelt (``decison:oral``, ``ratng>=6``,
    ``rating!=6``): one whose name is a typo or two from a field's (the field
    :func:`~paperdeck.search.query_fields.meant_field` names) and whose value that field takes (the
    corrected term would run), so the query runs nothing rather than searching the words. A word
    that can only be words is left as text with a note (``foo:bar``: no field is close; ``ratng:x``:
    no rating is ``x``; ``vision:language``: three edits from ``decision``, no field meant).

    Raises:
        QueryError: the first misspelt field typed, with the field meant (``unknown field decison:
            did you mean decision:?``).
    """
    from paperdeck.search.query_fields import meant_field, unknown_field_note

    for name, op, value in unknown:
        meant = meant_field(name, op)
        if meant is None or (note := unknown_field_note(name, op)) is None:
            continue
        try:
            _field(meant, "=" if op == "!=" else {"=>": ">=", "=<": "<=", "==": "="}.get(op, op), value)
        except QueryError:
            continue  # not a value of the field meant: only words
        raise QueryError(note)


def _unknown_fields(node: Node | None, found: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The words of ``node`` that look like a field term but were searched as text, as ``(name,
    op, value)``, added to ``found`` in the order typed: ``name:value`` whose ``name`` is no field, and
    ``name OP value`` (``ratng>=6``, ``rating!=6``) that no field took as a comparison (a query
    of plain words imports no field: none is typed so). Which of them the counts say is
    :func:`~paperdeck.search.query_fields.unknown_field_note`'s call."""
    if node is None:
        return found
    if isinstance(node, Group):
        for child in node.children:
            _unknown_fields(child, found)
    elif node.field == "word":
        typed = _FIELD_WORD.fullmatch(node.value)
        if typed is not None and typed[2] == ":" and typed[3] and typed[1].isalpha():
            from paperdeck.search.query_fields import field_named

            found += [] if field_named(typed[1]) else [(typed[1], ":", typed[3])]
        elif (compared := _COMPARED_WORD.fullmatch(node.value)) is not None:
            found.append((compared[1], compared[2], compared[3]))
    return found


def _field(typed_name: str, op: str, value: str, quoted: bool = False) -> Node:
    """The term of ``name`` ``op`` ``value`` (``quoted``: the value was typed in quotes), as its
    field (:func:`~paperdeck.search.query_fields.field_named`) takes it. A name that is no field is
    text: ``p<0.05`` and ``dpo:`` are words, ``dpo:"robust preference"`` a word and a phrase.

    Raises:
        QueryError: a field's value missing or not one the field takes.
    """
    from paperdeck.search.query_fields import choices, field_named, number_range, when_value

    field = field_named(typed_name)
    if field is None:  # text, as typed: "dpo: robust preference", "p<0.05", "arxiv:2401.01234"
        if not quoted:
            return Term("word", f"{typed_name}{op}{value}")
        return (
            _joined("AND", [Term("word", typed_name), Term("phrase", value)])
            if value.strip()
            else Term("word", typed_name)
        )
    name = field.name
    if field.kind == "number":
        if op in (":", "=") and (inner := re.match(r">=|<=|>|<|=", value)):
            op, value = inner[0], value[inner.end() :]
        if op == ":":
            op = ".." if ".." in value else "="
        number_range(name, op, value)  # validates
        return Term(name, value, op)
    if op not in (":", "="):
        raise QueryError(f"only rating and year compare with {op} (and reviews, spread, …), e.g. rating>=6")
    if not fold_text(value.strip("*") if field.kind == "text" else value):
        raise QueryError(f"{name}: needs a value, e.g. {field.example}")
    if field.kind == "choice":
        choices(name, value)  # validates
    if field.kind == "when":
        when_value(name, value)  # validates
    if field.kind == "like":
        return Term(name, "starred" if value.casefold() == "starred" else value.strip())
    return Term(name, value)


def _mask(node: Node, lookups: Lookups, within: np.ndarray | None = None) -> np.ndarray:
    """The papers ``node`` keeps (see :meth:`Query.mask`), right at least for the papers ``within``
    (one bool per paper; ``None``: all): a caller ANDs the answer with ``within``, so a text term
    need only look at those papers."""
    if isinstance(node, Term):
        from paperdeck.search.query_fields import term_mask

        return term_mask(node, lookups, within)
    if node.kind == "NOT":
        return ~_mask(node.children[0], lookups, within)
    children = sorted(node.children, key=_cost)  # the cheap first: they narrow what a scan looks at
    if node.kind == "OR":
        combined = _mask(children[0], lookups, within)
        for child in children[1:]:
            combined |= _mask(child, lookups, within)
        return combined
    combined = _mask(children[0], lookups, within)
    for child in children[1:]:
        combined &= _mask(child, lookups, combined if within is None else combined & within)
    return combined


def _cost(node: Node) -> int:
    """A rough cost of evaluating ``node``: terms on the papers' fields cheapest, text scans dearest."""
    if isinstance(node, Group):
        return sum(map(_cost, node.children))
    from paperdeck.search.query_fields import term_cost

    return term_cost(node)


__all__ = [
    "PRECEDENCE_NOTE", "PRECEDENCE_SHORT", "QUERY_HELP", "SHORT_NOTES", "Group", "Lookups", "Node", "Query",
    "Term", "more_like", "parse_query", "query_markdown", "review_number", "review_numbers", "short_note",
]  # fmt: skip
