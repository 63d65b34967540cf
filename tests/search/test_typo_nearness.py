"""A typo is one edit from a word of up to 8 letters (two up to 12, three past): ``bearcubs`` is
not ``Bartcus`` with a typo (``fuzz.ratio`` 80, three edits), while ``difusion``, ``grpah``,
``samplng`` and the start ``difu`` still find their words."""

from __future__ import annotations

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.index import SearchIndex
from paperdeck.search.scores import NoteWords, typo_near

PAPERS = [
    Paper(
        id="p:bio",
        title="BIOACOUSTIC SEGMENTATION BY HIERARCHICAL DIRICHLET PROCESS HIDDEN MARKOV MODEL",
        abstract="Birdsong.",
        authors=("Vincent Roger", "Marius Bartcus", "Faicel Chamroukhi"),
    ),
    Paper(id="p:diff", title="Fast Diffusion Sampling", abstract="Graph of steps."),
    Paper(id="p:long", title="Reparameterizing neural fields", abstract="x"),
]


def found(query: str) -> list[str]:
    index = SearchIndex(PAPERS)
    return index.paper_ids(index.search(query).positions)


def test_a_word_three_edits_away_is_no_typo() -> None:
    assert found("bearcubs") == []
    assert found("bartcus") == ["p:bio"]
    assert found("bartcsu") == ["p:bio"]  # two neighbours swapped: one edit


@pytest.mark.parametrize(
    ("query", "expected"),
    [("difusion", "p:diff"), ("difu", "p:diff"), ("grpah", "p:diff"), ("samplng", "p:diff"),
     ("reparameterizign", "p:long"), ("reparametrizng", "p:long")],
)  # fmt: skip
def test_real_typos_still_find_their_words(query: str, expected: str) -> None:
    assert found(query)[:1] == [expected]


@pytest.mark.parametrize(
    ("word", "candidate", "near"),
    [
        ("bearcubs", "bartcus", False),
        ("difusion", "diffusion", True),
        ("grpah", "graph", True),
        ("reparametrizng", "reparameterizing", True),  # 14 letters: two edits
        ("reparamtrizng", "reparameterizing", True),  # 13 letters: three
        ("reparamtrzng", "reparameterizing", False),  # 12 letters: four
        ("agents", "augments", False),
        ("supermartingale", "submartingale", True),
    ],
)
def test_typo_near(word: str, candidate: str, near: bool) -> None:
    assert typo_near(word, candidate) is near


def test_a_note_s_words_follow_the_same_rule() -> None:
    notes = NoteWords.of({0: frozenset({"bartcus"}), 1: frozenset({"diffusion"})})
    assert notes.scores("bearcubs") == {}
    assert set(notes.scores("difusion")) == {1}
