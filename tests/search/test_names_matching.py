"""The author picker's filter (:func:`paperdeck.search.names.names_matching`): word starts first,
accents and case ignored, else a typo's near names."""

from __future__ import annotations

from paperdeck.search.names import names_matching

NAMES = ["Jane Doe", "Hans Müller", "Ann Lee", "Juan Pablo de la Cruz", "Anna Leung", "Xiaoming Wang"]


def _found(typed: str) -> list[str]:
    return [NAMES[n] for n in names_matching(typed, NAMES)]


def test_nothing_typed_lists_every_name_in_order() -> None:
    assert _found("  ") == NAMES


def test_each_typed_word_starts_a_word_of_the_name_accents_and_case_ignored() -> None:
    assert _found("an le") == ["Ann Lee", "Anna Leung"]  # not Hans Müller: "an" inside a word
    assert _found("MULLER") == ["Hans Müller"]
    assert _found("cruz j") == ["Juan Pablo de la Cruz"]


def test_a_typo_finds_the_near_names_only_when_no_name_starts_so() -> None:
    assert _found("jnae") == ["Jane Doe"]
    assert _found("mulller") == ["Hans Müller"]
    assert _found("zzz") == []
