"""Ids never carry what a hostile file or server put in them: a note id must be a plain token, and
a DOI or venue holding control, format, bidirectional or white-space characters (or a venue's ``/``)
does not reach an id."""

from __future__ import annotations

import pytest
from paperdeck.model.ids import canonical_id, plain_id, title_id

ODD = ["../../x", "a/b", "nul\x00", "esc\x1b[2J", "rtl\u202eexe", "tab\there", "a b", "x" * 65, "", "é"]


@pytest.mark.parametrize("value", ["BJ8vJebC-", "AbCdEf1234", "a_b-c", "x" * 64, "1"])
def test_a_plain_token_is_an_id(value: str) -> None:
    assert plain_id(value)


@pytest.mark.parametrize("value", ODD)
def test_anything_else_is_not(value: str) -> None:
    assert not plain_id(value)


@pytest.mark.parametrize("venue", ["../x", "IC\x1bLR", "IC\u202eLR", "IC LR", "IC\\LR", "IC\x00LR"])
def test_a_venue_in_an_id_loses_what_an_id_must_not_hold(venue: str) -> None:
    for paper_id in (canonical_id(venue=venue, year=2026, number=3), title_id(venue, 2026, "A title of a paper")):
        assert all(char.isalnum() or char in "#:-." for char in paper_id), paper_id
        assert "/" not in paper_id


def test_a_doi_with_control_or_space_is_not_an_id_a_real_one_is() -> None:
    assert canonical_id(doi="10.1145/3292500.3330701") == "doi:10.1145/3292500.3330701"
    for doi in ("10.1/a\x1bb", "10.1/a b", "10.1/\u202eab"):
        assert canonical_id(doi=doi, venue="ICLR", year=2025, number=7) == "iclr2025#7"
