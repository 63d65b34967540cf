"""A placeholder abstract (under 100 characters once white space is collapsed) is told from a
prefix when the prefix settles it: the answer is the whole abstract's, whatever the white space."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paperdeck.model.ids import MIN_ABSTRACT_KEY_CHARS, is_placeholder_abstract


def _whole(abstract: str) -> bool:
    return len(" ".join(abstract.split())) < MIN_ABSTRACT_KEY_CHARS


@pytest.mark.parametrize(
    "abstract",
    [
        "",
        "n/a",
        "x" * 99,
        "x" * 100,
        " " * 300 + "x" * 99,
        " " * 150 + "x" * 100,
        "a " * 49 + "b",  # 99 characters collapsed
        "a " * 50,  # 100 characters, a trailing space dropped: 99
        "a " * 50 + "b",
        "a\u3000" * 60,  # ideographic spaces are white space
        "a" + " " * 199 + "b" * 98,  # the prefix ends in the white space
        "ab" * 100 + "c",  # a word cut at the prefix's end
        "word " * 19 + " " * 120 + "tail" * 10,
    ],
)
def test_the_prefix_gives_the_whole_abstracts_answer(abstract: str) -> None:
    assert is_placeholder_abstract(abstract) is _whole(abstract)


@given(st.text(alphabet=st.sampled_from("ab \n\t\u00a0\u2003é"), max_size=400))
def test_any_white_space_gives_the_whole_abstracts_answer(abstract: str) -> None:
    assert is_placeholder_abstract(abstract) is _whole(abstract)
