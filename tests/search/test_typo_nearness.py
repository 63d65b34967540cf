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


def test_one_edit_apart_agrees_with_rapidfuzz_osa() -> None:
    """The one-edit test of words up to 8 letters (no rapidfuzz import) says what OSA ≤ 1 says."""
    import random

    from paperdeck.search.scores import _one_edit_apart
    from rapidfuzz.distance import OSA

    rng = random.Random(7)
    checked = 0
    for _ in range(20_000):
        word = "".join(rng.choice("abc") for _ in range(rng.randint(0, 8)))
        letters = list(word)
        for _ in range(rng.randint(0, 2)):
            kind = rng.randint(0, 3)
            if kind == 0 and letters:
                letters.pop(rng.randrange(len(letters)))
            elif kind == 1:
                letters.insert(rng.randint(0, len(letters)), rng.choice("abc"))
            elif kind == 2 and letters:
                letters[rng.randrange(len(letters))] = rng.choice("abc")
            elif kind == 3 and len(letters) > 1:
                at = rng.randrange(len(letters) - 1)
                letters[at], letters[at + 1] = letters[at + 1], letters[at]
        other = "".join(letters)
        assert _one_edit_apart(word, other) == (OSA.distance(word, other) <= 1), (word, other)
        checked += 1
    assert checked == 20_000


def test_typo_near_of_a_short_word_imports_no_rapidfuzz() -> None:
    """A typo of a word up to 8 letters is told without importing rapidfuzz (a typed query's cost)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from paperdeck.search.scores import typo_near\n"
        "assert typo_near('difusion', 'diffusion') and not typo_near('bearcubs', 'bartcus')\n"
        "print('rapidfuzz' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
