"""Text for fixed columns (:func:`paperdeck.text.steady_width.steady_width`): the titles of the
tester's round 16 whose width terminals disagree on (tmux 3.3a: ``❤️`` one cell where Rich counts
two, ``👍🏽`` four, Devanagari spacing vowel signs a cell each where Rich counts none) come out as
characters each as wide alone as Rich counts them together; those terminals agree on stay as they are,
and so do Devanagari's vowel signs (dropping them would change the words: ``किताब`` is not ``कतब``)."""

from __future__ import annotations

import pytest
from paperdeck.text.steady_width import steady_width
from rich.cells import cell_len

DISAGREED = {
    "👩\u200d🔬 lab": ("👩🔬 lab", 8),
    "👨\u200d👩\u200d👧\u200d family": ("👨👩👧 family", 13),
    "❤\ufe0f ✔\ufe0f ☺\ufe0f": ("❤ ✔ ☺", 5),
    "🇫🇷 flag": ("FR flag", 7),
    "👍🏽": ("👍", 2),
}
AGREED = ["किताब", "नमस्ते", "สวัสดี น้ำ", "中文 ＡＢ", "שלום مرحبا", "Müller", "plain ascii"]


@pytest.mark.parametrize("text", [*DISAGREED, *AGREED])
def test_each_character_left_is_as_wide_alone_as_rich_counts_it_in_the_text(text: str) -> None:
    steady = steady_width(text)
    assert cell_len(steady) == sum(cell_len(char) for char in steady), (text, steady)


@pytest.mark.parametrize(("text", "expected"), DISAGREED.items())
def test_clusters_terminals_disagree_on_are_written_in_a_form_they_agree_on(
    text: str, expected: tuple[str, int]
) -> None:
    assert (steady_width(text), cell_len(steady_width(text))) == expected


@pytest.mark.parametrize("text", AGREED)
def test_text_terminals_agree_on_is_left_as_written(text: str) -> None:
    assert steady_width(text) == text
