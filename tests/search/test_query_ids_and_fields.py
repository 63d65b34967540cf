"""A paper is found by its id or a link to it pasted in the filter bar (``id:``, a bare link or
canonical id, a bare OpenReview id); a word typed as ``name:value`` whose name is no field is
searched as text, and the query's note names the nearest field or lists them; a quoted value is
one value wherever the grammar takes one (field names with ``_`` too)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.corpus import TextCorpus
from paperdeck.search.index import SearchIndex
from paperdeck.search.query import parse_query, short_note
from paperdeck.search.query_fields import FIELDS
from paperdeck.search.query_terms import Term
from paperdeck.search.selection import PaperLookups

PAPERS = [
    Paper(id="openreview:ukGxWd2aDG", openreview_id="ukGxWd2aDG", title="Diffusion models", abstract="a"),
    Paper(id="arxiv:2401.01234", arxiv_id="2401.01234", title="Graph networks", abstract="b"),
    Paper(id="doi:10.1000/xyz", doi="10.1000/XYZ", title="Old paper", abstract="c"),
    Paper(id="openreview:Other12345", openreview_id="Other12345", title="Other diffusion", abstract="d"),
]


def found(query: str) -> set[str]:
    index, corpus = SearchIndex(PAPERS), TextCorpus(PAPERS)
    parsed = parse_query(query)
    assert parsed.error is None, parsed.error
    mask = parsed.mask(PaperLookups(lambda: PAPERS, dict, lambda: index, lambda: corpus))
    assert mask is not None and not parsed.words
    return {PAPERS[n].id for n in mask.nonzero()[0]}


@pytest.mark.parametrize(
    "query",
    [
        "https://openreview.net/forum?id=ukGxWd2aDG",
        "https://openreview.net/forum?id=ukGxWd2aDG&noteId=abc",
        "openreview.net/pdf?id=ukGxWd2aDG",
        "ukGxWd2aDG",
        "id:ukGxWd2aDG",
        "id:https://openreview.net/forum?id=ukGxWd2aDG",
        "openreview:ukGxWd2aDG",
    ],
)
def test_a_pasted_openreview_id_or_link_finds_its_paper(query: str) -> None:
    assert found(query) == {"openreview:ukGxWd2aDG"}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("https://arxiv.org/abs/2401.01234v2", "arxiv:2401.01234"),
        ("arxiv:2401.01234", "arxiv:2401.01234"),
        ("id:2401.01234", "arxiv:2401.01234"),
        ("https://doi.org/10.1000/xyz", "doi:10.1000/xyz"),
        ("id:doi:10.1000/XYZ", "doi:10.1000/xyz"),
    ],
)
def test_arxiv_and_doi_links_find_their_paper(query: str, expected: str) -> None:
    assert found(query) == {expected}


def test_an_unknown_id_finds_nothing_plainly() -> None:
    assert found("id:nothere123") == set()
    assert parse_query("id:nothere123").note is None


def test_a_plain_word_is_never_read_as_an_id() -> None:
    for word in ("diffusion", "Diffusion", "GPT4", "transformers2024"):
        assert parse_query(word).words == [word]


def test_the_id_field_is_declared_once_in_the_fields_table() -> None:
    assert [f.name for f in FIELDS].count("id") == 1
    from paperdeck.search.query import QUERY_HELP

    assert "id:ukGxWd2aDG" in QUERY_HELP


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("venu:iclr", "unknown field venu: did you mean venue:?"),
        ("decison:oral", "unknown field decison: did you mean decision:?"),  # the fifteenth tester's
        ("diffusion ratng:6", "unknown field ratng: did you mean rating:?"),
        ("ratng>=6", "unknown field ratng>=: did you mean rating>=?"),
        ("diffusion yaer<2020", "unknown field yaer<: did you mean year<?"),
        ("(sprad>3 OR llm)", "unknown field sprad>: did you mean spread>?"),
        ("decison=oral", "unknown field decison=: did you mean decision=?"),
        ("ratng!=6", "unknown field ratng!=: did you mean -rating=?"),
        ("rating!=6", "unknown comparison rating!=: did you mean -rating=?"),
    ],
)
def test_a_misspelt_field_close_to_one_is_an_error_that_runs_nothing(query: str, error: str) -> None:
    """A field name close to a field's, with a value that field takes, runs nothing: the words
    would list papers the user did not ask for (``decison:oral`` listed 10 word matches)."""
    parsed = parse_query(query)
    assert parsed.error == error and parsed.tree is None and parsed.words == []


@pytest.mark.parametrize(
    ("query", "note", "short"),
    [
        ("foo:bar", None, "unknown field foo:"),
        ("ratng:x", "unknown field ratng: did you mean rating:?", "ratng: → rating:?"),  # no rating is x
        ("decison:blue", "unknown field decison: did you mean decision:?", "decison: → decision:?"),
        # close by difflib's ratio, three edits from `decision`: words, no field named (the fifteenth
        # round's fix refused `vision:language`; then its note named `decision:`)
        ("vision:language", None, "unknown field vision:"),
    ],
)
def test_an_unknown_field_that_can_only_be_words_is_text_with_a_note(query: str, note: str | None, short: str) -> None:
    parsed = parse_query(query)
    assert parsed.error is None and parsed.note is not None
    if note is not None:
        assert parsed.note == note
    else:
        assert parsed.note.startswith(f"unknown field {query.split(':')[0]}: fields are title: author:")
        assert all(f"{field.name}:" in parsed.note for field in FIELDS)
    assert short_note(parsed.note) == short


@pytest.mark.parametrize(
    "query", ["dpo: robust preference", "p<0.05", "n=3", "x>=y", "diffusion", "title:lora", "rating>=6", "10:30"]
)
def test_text_that_is_no_field_term_has_no_note(query: str) -> None:
    assert parse_query(query).note is None


@pytest.mark.parametrize(
    ("query", "field", "value"),
    [
        ('tag:"my tag"', "tag", "my tag"),
        ('-tag:"my tag"', "tag", "my tag"),
        ('(tag:"my tag")', "tag", "my tag"),
        ('review_moved:"any"', "review_moved", "any"),
        ('rating_delta:"1"', "rating_delta", "1"),
        ('venue:"iclr 2017"', "venue", "iclr 2017"),
        ('"two words"', "phrase", "two words"),
    ],
)
def test_a_quoted_value_is_one_value(query: str, field: str, value: str) -> None:
    parsed = parse_query(query)
    assert parsed.error is None and not parsed.words
    tree = parsed.tree
    while tree is not None and not isinstance(tree, Term):
        tree = tree.children[0]
    assert tree is not None and (tree.field, tree.value) == (field, value)


@pytest.mark.parametrize(
    "query",
    [
        "id:ukgxwd2adg",
        "id:UKGXWD2ADG",
        "https://openreview.net/forum?id=ukgxwd2adg",
        "openreview.net/pdf?id=ukgxwd2adg",
        "id:openreview:ukgxwd2adg",
    ],
)
def test_an_id_in_another_case_finds_the_paper_when_none_is_exact(query: str) -> None:
    assert found(query) == {"openreview:ukGxWd2aDG"}


def test_an_exact_id_wins_over_one_that_differs_in_case() -> None:
    twin = Paper(id="openreview:ukgxwd2adg", openreview_id="ukgxwd2adg", title="Twin", abstract="e")
    papers = [*PAPERS, twin]
    index, corpus = SearchIndex(papers), TextCorpus(papers)
    lookups = PaperLookups(lambda: papers, dict, lambda: index, lambda: corpus)
    for query, expected in (("id:ukgxwd2adg", "openreview:ukgxwd2adg"), ("id:ukGxWd2aDG", "openreview:ukGxWd2aDG")):
        mask = parse_query(query).mask(lookups)
        assert mask is not None and {papers[n].id for n in mask.nonzero()[0]} == {expected}
    assert found("id:ukgxwd2adx") == set()


_WORDS_PROBE = """
import sys
from paperdeck.search.query import parse_query

for text in sys.argv[1:]:
    parse_query(text)
print("paperdeck.search.query_fields" in sys.modules)
"""


@pytest.mark.parametrize(
    ("typed", "imports_fields"),
    [
        (["REAP"], False),
        (["R", "RE", "REAP", "reap diffusion", "ukGxWd2aDG", "arxiv:2401.01234"], False),
        (["dpo:x"], True),
    ],
)
def test_a_query_of_words_imports_no_field(typed: list[str], imports_fields: bool) -> None:
    """A query of plain words (the typed ``/REAP``, a pasted id) is read without the fields'
    module, whose import is most of what the first key of a query costs; a word typed as
    ``name:value`` imports it (to tell whether ``name`` is a field)."""
    done = subprocess.run([sys.executable, "-c", _WORDS_PROBE, *typed], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [str(imports_fields)], done.stderr
