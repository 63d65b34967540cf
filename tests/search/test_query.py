"""The filter bar's query language: parsing, plain words, evaluation, gentle errors, robustness."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from paperdeck.model.paper import Paper, Ratings, UserData
from paperdeck.search.corpus import TextCorpus
from paperdeck.search.index import SearchIndex
from paperdeck.search.query import QUERY_HELP, Group, Query, Term, more_like, parse_query
from paperdeck.search.selection import PaperLookups

DIFFUSION = Paper(
    id="p1",
    title="Fast Diffusion Sampling with Graph Neural Networks",
    abstract="We sample from diffusion models\nquickly, using a graph   neural network as the guide.",
    year=2026,
    authors=("Yoshua Bengio", "Ada Lovelace"),
    keywords=("Diffusion Models", "Sampling"),
    primary_area="generative models",
    decision="oral",
    ratings=Ratings(6.5),
)
RLHF = Paper(
    id="p2",
    title="Reinforcement Learning from Human Feedback at Scale",
    abstract="We align large language models with preference data.",
    year=2026,
    authors=("Grace Hopper",),
    keywords=("RLHF", "alignment"),
    primary_area="reinforcement learning",
    decision="poster",
    ratings=Ratings(5.0),
)
WITHDRAWN = Paper(
    id="p3",
    title="Offline Policy Optimisation",
    abstract="A withdrawn study of offline reinforcement learning.",
    year=2025,
    primary_area="reinforcement learning",
    decision="withdrawn",
)
SURVEY = Paper(
    id="p4",
    title="A Survey of Large Language Models",
    abstract="We review LLM pre-training, fine-tuning and evaluation.",
    authors=("Alan Turing",),
    keywords=("LLM", "survey"),
    primary_area="foundation or frontier models, including LLMs",
    decision="accept-conditional",
    ratings=Ratings(4.667),
)
PAPERS = [DIFFUSION, RLHF, WITHDRAWN, SURVEY]
USERS = {
    "p1": UserData("p1", starred=True, note="Compare with the DDPM baseline", status="read", tags=("must-read", "rl")),
    "p2": UserData("p2", status="to-read", tags=("later",)),
    "p4": UserData("p4", starred=True, status="dismissed"),
}


def lookups(papers: list[Paper] = PAPERS, users: dict[str, UserData] = USERS) -> PaperLookups:
    index, corpus = SearchIndex(papers, {pid: u.note for pid, u in users.items()}), TextCorpus(papers)
    return PaperLookups(lambda: papers, lambda: users, lambda: index, lambda: corpus)


def keeps(text: str, papers: list[Paper] = PAPERS, users: dict[str, UserData] = USERS) -> list[str]:
    """Ids of the papers the query's filter keeps (the words are for ranking, not checked here)."""
    query = parse_query(text)
    assert query.error is None, query.error
    mask = query.mask(lookups(papers, users))
    return [paper.id for n, paper in enumerate(papers) if mask is None or mask[n]]


def hits(text: str) -> list[str]:
    return keeps(text)


# --- parsing ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("title:diffusion", "title:diffusion"),
        ("Title:Diffusion", "title:Diffusion"),
        ("author:bengio", "author:bengio"),
        ("authors:bengio", "author:bengio"),
        ("keyword:rlhf", "keyword:rlhf"),
        ("area:reinforcement", "area:reinforcement"),
        ("abstract:preference", "abstract:preference"),
        ("note:ddpm", "note:ddpm"),
        ("tag:must", "tag:must"),
        ("status:to-read", "status:to-read"),
        ("decision:acc", "decision:acc"),
        ("is:starred", "is:starred"),
        ("has:note", "has:note"),
        ("has:tags", "has:tags"),
        ("title=diffusion", "title:diffusion"),
        ('title:"large language"', 'title:"large language"'),
        ('"graph neural"', '"graph neural"'),
    ],
)
def test_field_terms_and_phrases_parse(text: str, tree: str) -> None:
    query = parse_query(text)
    assert query.error is None
    assert str(query.tree) == tree
    assert query.words == []
    assert query.has_filter


@pytest.mark.parametrize(
    ("text", "op", "value"),
    [
        ("rating>=6", ">=", "6"),
        ("rating>6", ">", "6"),
        ("rating<5.5", "<", "5.5"),
        ("rating<=5", "<=", "5"),
        ("rating=6", "=", "6"),
        ("rating:6", "=", "6"),
        ("rating:>=6", ">=", "6"),
        ("rating:5..7", "..", "5..7"),
        ("rating:6..", "..", "6.."),
        ("rating:..5", "..", "..5"),
        ("year:2026", "=", "2026"),
        ("year>=2025", ">=", "2025"),
        ("year<2026", "<", "2026"),
        ("year:2024..2026", "..", "2024..2026"),
    ],
)
def test_comparisons_and_ranges_parse(text: str, op: str, value: str) -> None:
    tree = parse_query(text).tree
    assert isinstance(tree, Term)
    assert (tree.op, tree.value) == (op, value)


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("-survey", "-survey"),
        ("NOT survey", "-survey"),
        ('-"large language"', '-"large language"'),
        ("-decision:withdrawn", "-decision:withdrawn"),
        ("NOT decision:withdrawn", "-decision:withdrawn"),
        ("--survey x", None),  # twice negated: a plain word again
        ("NOT -survey x", None),
        ("-(llm OR survey)", "-(llm OR survey)"),
        ("a b OR c", "((a b) OR c)"),  # AND binds tighter than OR
        ("a OR b c", "(a OR (b c))"),
        ("a AND b OR c AND d", "((a b) OR (c d))"),
        ("a OR b OR c", "(a OR b OR c)"),
        ("(a OR b) c", "(a OR b)"),
        ("((a OR b)) (c OR d)", "((a OR b) (c OR d))"),
        ("x (a OR (b OR c))", "(a OR b OR c)"),
        ("is:starred (decision:oral OR rating>=6)", "(is:starred (decision:oral OR rating>=6))"),
    ],
)
def test_negation_precedence_and_parentheses(text: str, tree: str | None) -> None:
    query = parse_query(text)
    assert query.error is None
    assert (str(query.tree) if query.tree is not None else None) == tree


def test_tree_nodes_are_plain_data() -> None:
    tree = parse_query("-(llm OR title:agent) decision:oral").tree
    assert tree == Group(
        "AND", (Group("NOT", (Group("OR", (Term("word", "llm"), Term("title", "agent"))),)), Term("decision", "oral"))
    )


@pytest.mark.parametrize(
    ("text", "words", "tree"),
    [
        ("", [], None),
        ("   ", [], None),
        ("difusion samplng", ["difusion", "samplng"], None),
        ("difusion decision:oral", ["difusion"], "decision:oral"),
        ("diffusion decision:oral rating>=6", ["diffusion"], "(decision:oral rating>=6)"),
        ("diffusion AND sampling", ["diffusion", "sampling"], None),
        ("(diffusion sampling) is:starred", ["diffusion", "sampling"], "is:starred"),
        ("llm -survey", ["llm"], "-survey"),
        ('llm "large language"', ["llm"], '"large language"'),
        ("llm OR agent", [], "(llm OR agent)"),
        ("llm or agent", ["llm", "or", "agent"], None),  # operators only in capitals
        ("p<0.05 x=y", ["p<0.05", "x=y"], None),  # no known field: words
        ("ratio 3:1", ["ratio", "3:1"], None),
        ("a - b", ["a", "b"], None),  # a lone "-" is nothing
        ("state-of-the-art", ["state-of-the-art"], None),
    ],
)
def test_words_are_the_top_level_plain_words(text: str, words: list[str], tree: str | None) -> None:
    query = parse_query(text)
    assert query.error is None
    assert query.words == words
    assert (str(query.tree) if query.tree is not None else None) == tree
    assert query.has_filter is (tree is not None)


def test_a_query_without_filter_keeps_every_paper() -> None:
    query = parse_query("diffusion sampling")
    assert query.mask(lookups()) is None and keeps("diffusion sampling") == [p.id for p in PAPERS]


# --- evaluation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("title:diffusion", ["p1"]),
        ("title:DIFFUSION", ["p1"]),
        ('title:"large language"', ["p4"]),
        ("author:bengio", ["p1"]),
        ("author:hopper", ["p2"]),
        ("keyword:rlhf", ["p2"]),
        ("keyword:model", ["p1"]),
        ("area:reinforcement", ["p2", "p3"]),
        ('area:"reinforcement learning" -decision:withdrawn', ["p2"]),
        ("abstract:preference", ["p2"]),
        ('abstract:"graph neural network"', ["p1"]),  # white space folded
        ("note:ddpm", ["p1"]),
        ("tag:must-read", ["p1"]),
        ("tag:must", ["p1"]),  # a prefix
        ("tag:rl", ["p1"]),  # exact
        ("tag:ust", []),  # not a substring
        ("status:read", ["p1"]),
        ("status:to-read", ["p2"]),
        ("status:toread", ["p2"]),
        ("status:unseen", ["p3"]),  # no record: unseen
        ("status:dis", ["p4"]),
        ("decision:oral", ["p1"]),
        ("decision:acc", ["p1", "p2", "p4"]),  # the badge word ACC: every accepted tier
        ("decision:accept", ["p1", "p2", "p4"]),  # oral, poster, conditional
        ("decision:accepted", ["p1", "p2", "p4"]),
        ("decision:accept_conditional", ["p4"]),
        ("decision:cond", ["p4"]),  # the badge word COND
        ("decision:COND", ["p4"]),
        ("decision:conditional", ["p4"]),
        ("decision:post", ["p2"]),
        ("decision:wdrn", ["p3"]),
        ("decision:w", ["p3"]),  # withdrawn, workshop
        ("decision:reject", []),
        ("-decision:accept", ["p3"]),
        ("is:starred", ["p1", "p4"]),
        ("is:star", ["p1", "p4"]),
        ("-is:starred", ["p2", "p3"]),
        ("has:note", ["p1"]),
        ("has:tags", ["p1", "p2"]),
        ("has:tag", ["p1", "p2"]),
        ("has:rating", ["p1", "p2", "p4"]),
        ("rating>=6", ["p1"]),
        ("rating>5", ["p1"]),
        ("rating>=5", ["p1", "p2"]),
        ("rating<5", ["p4"]),
        ("rating<=5", ["p2", "p4"]),
        ("rating=5", ["p2"]),
        ("rating=4.67", ["p4"]),  # the mean as shown, to 2 decimals
        ("rating=4.667", ["p4"]),
        ("rating=4.7", []),
        ("rating:5..7", ["p1", "p2"]),
        ("rating:6..", ["p1"]),
        ("rating:..5", ["p2", "p4"]),
        ("-rating>=6", ["p2", "p3", "p4"]),  # unrated papers never match a rating
        ("year:2026", ["p1", "p2"]),
        ("year<2026", ["p3"]),  # an unknown year never matches
        ("year:2020..2025", ["p3"]),
        ('"graph neural"', ["p1"]),
        ('"GRAPH NEURAL network"', ["p1"]),  # abstract across white space
        ('"large language"', ["p2", "p4"]),
        ('"DDPM baseline"', ["p1"]),  # the note
        ('"grace hopper"', []),  # a phrase does not look in authors
        ('-"large language"', ["p1", "p3"]),
        ("-survey", ["p1", "p2", "p3"]),
        ("NOT survey", ["p1", "p2", "p3"]),
        ("-hopper", ["p1", "p3", "p4"]),  # a negated word looks in authors
        ("-ddpm", ["p2", "p3", "p4"]),  # and in the note
        ("-reinforce", ["p1", "p4"]),  # a negated word: what the word finds, with prefixes and typos
        ("-reinforcment", ["p1", "p4"]),  # a typo, as the ranking finds it
        ("title:lov", []),  # a field term: whole words or word starts
        ("author:lov", ["p1"]),  # Lovelace
        ("author:ove", []),
        ("author:*ove", ["p1"]),  # the substring form
        ("title:*usion", ["p1"]),
        ('title:"*rge language"', ["p4"]),
        ('"*rge language"', ["p2", "p4"]),
        ("title:diffusion*", ["p1"]),  # a trailing * changes nothing
        ("abstract:pre", ["p2", "p4"]),  # "preference", "pre-training"
        ("abstract:training", ["p4"]),  # "pre-training": a word starts after the hyphen
        ("dpo: preference", ["p1", "p2", "p3", "p4"]),  # an unknown field: words, which rank
        ("-dpo:", ["p1", "p2", "p3", "p4"]),
        ("- ?", ["p1", "p2", "p3", "p4"]),  # no letter or digit: no term
        ("-? survey", ["p1", "p2", "p3", "p4"]),
        ("llm OR sampling", ["p1", "p4"]),
        ('(llm OR "language model") is:starred', ["p4"]),
        ("diffusion decision:oral rating>=6", ["p1"]),
        ("decision:oral OR decision:poster rating<6", ["p1", "p2"]),
        ("(decision:oral OR decision:poster) rating<6", ["p2"]),
        ("-(decision:oral OR decision:poster)", ["p3", "p4"]),
        ("NOT NOT is:starred", ["p1", "p4"]),
        ("is:starred AND -has:note", ["p4"]),
    ],
)
def test_evaluation(text: str, ids: list[str]) -> None:
    assert hits(text) == ids


def test_non_ascii_text_is_folded_case_and_accents() -> None:
    paper = Paper(id="u", title="Straße to ＡＩ", abstract="Über alles", authors=("Zoë Müller", "Florian Tramèr"))
    for text in ("title:ai", "title:strasse", "author:zoë", "author:zoe", "author:ZOE", "author:tramer"):
        assert keeps(text, [paper], {}) == ["u"], text
    for text in ("author:tramèr", '"uber alles"', '"über"'):
        assert keeps(text, [paper], {}) == ["u"], text
    assert keeps("-über", [paper], {}) == []
    assert keeps("-uber", [paper], {}) == []


# --- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("(llm OR agent", "a closing ) is missing"),
        ("(", "a closing ) is missing"),
        ("llm)", "a ) has no matching ("),
        (") llm", "a ) has no matching ("),
        ("()", "empty ()"),
        ("llm OR", "OR needs a term on both sides"),
        ("OR llm", "OR needs a term on both sides"),
        ("llm OR OR agent", "OR needs a term on both sides"),
        ("(llm OR) x", "OR needs a term on both sides"),
        ("llm AND", "AND needs a term on both sides"),
        ("AND llm", "AND needs a term on both sides"),
        ("llm AND OR x", "AND needs a term on both sides"),
        ("NOT", "need a term after them"),
        ("llm NOT", "need a term after them"),
        ("(llm -)", "need a term after them"),
        ('"graph neural', 'a closing " is missing'),
        ('title:"graph neural', 'a closing " is missing'),
        ('title:"', 'a closing " is missing'),
        ('""', 'an empty "" phrase'),
        ("rating>=abc", "rating needs a number, e.g. rating>=6"),
        ("rating>=nan", "rating needs a number"),
        ("rating>=", "rating needs a number"),
        ("rating:..", "rating needs a number"),
        ("rating:5..x", "rating needs a number"),
        ("rating:7..5", "try rating:5..7 — a range goes from low to high"),  # said, not swapped
        ("year:2026..2020", "try year:2020..2026 — a range goes from low to high"),
        ("reviews:9..2", "try reviews:2..9"),
        ("year:twenty", "year needs a whole number"),
        ("year>=2025.5", "year needs a whole number"),
        ("title:", "title: needs a value, e.g. title:diffusion"),
        ("tag:", "tag: needs a value"),
        ("decision:", "decision: needs a value"),
        ("decision:maybe", "unknown decision 'maybe' — try accept, reject, withdrawn"),
        ("status:done", "unknown status 'done' — try unseen, skimmed, to-read, read, dismissed"),
        ("is:happy", "unknown is 'happy'"),
        ("has:code", "unknown has 'code'"),
        ("has:s", "unknown has 's'"),
        ("title>=x", "only rating and year compare"),
        ("(" * 40 + "x" + ")" * 40, "too many nested parentheses"),
        ("(like:abc OR x)", "use it outside OR, NOT and parentheses"),
    ],
)
def test_malformed_queries_give_a_hint_and_filter_nothing(text: str, hint: str) -> None:
    query = parse_query(text)
    assert query.error is not None and hint in query.error
    assert len(query.error) < 120
    assert re.search(r"\(\s+\)", query.error) is None  # a toast may wrap between ( and )
    assert query.words == [] and query.tree is None and not query.has_filter


def test_deep_but_allowed_nesting_and_long_negation_chains_parse() -> None:
    assert str(parse_query("(" * 20 + "a OR b" + ")" * 20).tree) == "(a OR b)"
    assert str(parse_query("-" * 5001 + "x").tree) == "-x"
    assert parse_query("NOT " * 3000 + "x").words == ["x"]


def test_help_examples_parse() -> None:
    examples = QUERY_HELP.split("Examples:")[1].strip().splitlines()
    assert len(examples) == 3
    for line in examples:
        query = parse_query(line.strip())
        assert query.error is None and query.has_filter
    assert hits('area:"reinforcement learning" -decision:withdrawn') == ["p2"]


# --- robustness ------------------------------------------------------------------------------------

ROBUST_PAPERS = [*PAPERS, Paper(id="e", title="", abstract="")]
LOOKUPS = lookups(ROBUST_PAPERS)
PIECES = st.sampled_from(
    ["OR", "AND", "NOT", "-", "(", ")", '"', "title:", "rating>=", "rating:", "decision:", "is:", "has:",
     "tag:", "status:", "year<", "..", "6", "oral", "acc", "starred", "note", "llm", "x:y", " ", "=", ">"]
)  # fmt: skip
QUERYISH = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=12).map("".join)


def _check(text: str) -> Query:
    query = parse_query(text)
    assert isinstance(query, Query)
    assert (query.error is None) or (query.tree is None and query.words == [])
    if query.error is None:
        mask = query.mask(LOOKUPS)
        assert mask is None or (mask.dtype == bool and len(mask) == len(ROBUST_PAPERS))
    return query


@settings(max_examples=300)
@given(st.text())
def test_any_text_parses_without_raising(text: str) -> None:
    _check(text)


@settings(max_examples=500)
@given(QUERYISH)
@example("(id:OROROR00a OR OROROR00a)")  # a bare pasted id is (id:X OR X): read again, id:X twice
@example("OROROR00a")
@example("id:OROROR00a OROROR00a (OROROR00a OR b)")
def test_query_like_text_parses_and_its_tree_prints_back(text: str) -> None:
    query = _check(text)
    if query.tree is not None:
        again = parse_query(str(query.tree))
        assert again.error is None and again.tree == query.tree and again.words == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "like:p:1"),
        ("REAP pruning", "like:p:1"),  # the words found the paper: they go
        ("diffusion decision:oral -tag:done", "like:p:1 decision:oral -tag:done"),
        ("like:p:9 area:rl", "like:p:1 area:rl"),
        ("(a OR b) rating>=6", "like:p:1 (a OR b) rating>=6"),
        ("rating>=", "like:p:1"),  # malformed: nothing kept
    ],
)
def test_more_like_keeps_the_field_terms(text: str, expected: str) -> None:
    assert more_like(text, "p:1") == expected
    assert parse_query(expected).error is None


def test_the_help_example_of_the_text_fields_finds_papers_in_the_bundled_seeds(
    seed_files: list[Path], tmp_path: Path
) -> None:
    """The seeds (titles and abstracts, no authors) are what a first start shows: the example the
    help gives for the text fields finds some of them (``author:tramer`` found none)."""
    from paperdeck.sources.importer import import_files
    from paperdeck.store.store import Store

    line = next(line for line in QUERY_HELP.splitlines() if "a word start there, e.g. " in line)
    example = line.split("e.g. ")[1].strip()
    store = Store(tmp_path / "data")
    import_files(store, seed_files)
    papers = list(store.papers)
    assert 0 < len(keeps(example, papers, {})) < len(papers), example


@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("tag:x", True), ("-status:read", True), ("is:starred", True), ("has:note", True), ("has:tags", True),
        ("note:ddpm", True), ('"graph neural"', True), ("like:starred", True), ("(llm OR is:starred) rating>=6", True),
        ("diffusion", False), ("decision:oral rating>=6", False), ("has:rating", False), ("is:changed", False),
        ("title:lora", False), ("like:openreview:x", False), ("rating>=", False),
    ],
)  # fmt: skip
def test_a_query_says_whether_it_reads_the_users_data(text: str, reads: bool) -> None:
    """What the app re-filters for when a star, status, tag or note changes."""
    assert parse_query(text).reads_user_data is reads


@pytest.mark.parametrize(
    ("text", "noted"),
    [
        ("a b OR c", True),
        ("a OR b c", True),
        ("x:1 a AND b OR c", True),
        ("a (b c OR d)", True),
        ("a -b OR c", True),
        ("a (b OR c)", False),
        ("(a b) OR c", False),
        ("a OR b OR c", False),
        ("(a OR b) c", False),
        ("a b", False),
        ("a b OR", False),  # malformed: the hint, no note
    ],
)
def test_spaces_and_or_without_parentheses_get_a_note(text: str, noted: bool) -> None:
    """``a b OR c`` is read ``(a b) OR c`` (AND binds tighter): said in :attr:`Query.note`,
    which the help's syntax table explains too."""
    from paperdeck.search.query import PRECEDENCE_NOTE

    query = parse_query(text)
    assert query.note == (PRECEDENCE_NOTE if noted else None)
    if noted:
        assert str(query.tree).count("(") >= 2  # the AND grouped inside the OR
    assert "a b OR c   is (a b) OR c" in QUERY_HELP
