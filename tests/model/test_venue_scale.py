"""Venues and their rating scales (:mod:`paperdeck.model.venue`): how a scale is written, read,
known, inferred, and how one file's ratings find theirs or are refused."""

from __future__ import annotations

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.model.review import Review
from paperdeck.model.review_summary import ReviewSummary
from paperdeck.model.venue import (
    Scale,
    ScaleError,
    file_scale,
    group_scale,
    inferred_scale,
    known_scale,
    scale_of,
    venue_of,
)


def test_a_scale_is_written_and_read_back_as_a_range_or_as_its_choices() -> None:
    one_to_ten = Scale.parse("1-10")
    assert one_to_ten is not None and one_to_ten.values == tuple(float(v) for v in range(1, 11))
    assert one_to_ten.text() == "1-10" and one_to_ten.label == "1–10" and Scale.parse("1–10") == one_to_ten
    iclr = Scale.parse("0, 2, 4, 6, 8, 10")
    assert iclr is not None and iclr.text() == "0, 2, 4, 6, 8, 10" and not iclr.is_range
    assert (iclr.low, iclr.high) == (0.0, 10.0)
    assert iclr.holds(6) and not iclr.holds(5) and iclr.spans(5.5) and not iclr.spans(10.5)
    assert iclr.out_of(6.5) == "6.5/10" and one_to_ten.out_of(5.666) == "5.7/10"


@pytest.mark.parametrize("text", ["", "6", "abc", "10-1", "3, 1, 2", "1, 1, 2", "0-1000", "nan, 1", "1.5-3"])
def test_what_is_no_scale_reads_as_none(text: str) -> None:
    assert Scale.parse(text) is None


def test_known_scales_by_venue_and_year() -> None:
    assert known_scale("ICLR", 2026) == Scale.parse("0, 2, 4, 6, 8, 10")
    assert known_scale("iclr", 2017) == Scale.parse("1-10")
    assert known_scale("COLM", 2025) == Scale.parse("1-10")
    assert known_scale("ICLR", 2024) == Scale.parse("1, 3, 5, 6, 8, 10")
    assert known_scale("CVPR", 2019) is None and known_scale("ICLR", None) is None


def test_a_scale_is_inferred_from_the_values_seen() -> None:
    assert inferred_scale([2, 3, 4]) == Scale.parse("1-4")
    assert inferred_scale([2, 5]) == Scale.parse("1-5")
    assert inferred_scale([0, 3, 9]) == Scale.parse("0-10")
    assert inferred_scale([1, 12]) == Scale.parse("1-12")
    assert inferred_scale([]) is None and inferred_scale([-1, 3]) is None


def test_a_file_on_its_venues_known_scale_takes_it() -> None:
    ratings = [("paper 1 (a)", 6.0, 4.0, 8.0), ("paper 2 (b)", 5.0, None, None)]
    assert file_scale("ICLR", 2026, ratings) == Scale.parse("0, 2, 4, 6, 8, 10")
    assert file_scale("ICLR", 2026, []) is None


def test_a_file_off_its_venues_known_scale_is_refused_naming_the_record_and_the_scale() -> None:
    with pytest.raises(ScaleError) as refused:
        file_scale("ICLR", 2026, [("paper 1 (a)", 6.0, 6.0, 6.0), ("paper 2 (b)", 5.0, 3.0, 7.0)])
    assert str(refused.value) == (
        "paper 2 (b): rating 3 is not on ICLR 2026's scale (0, 2, 4, 6, 8, 10): the file mixes scales"
    )
    with pytest.raises(ScaleError, match=r"^paper 1 \(a\): mean rating 11 is outside COLM 2025's scale \(1–10\)"):
        file_scale("COLM", 2025, [("paper 1 (a)", 11.0, None, None)])


def test_a_venue_without_a_known_scale_is_given_the_one_its_values_infer() -> None:
    assert file_scale("FOO", 2030, [("p", 3.0, 2.0, 4.0), ("q", 4.5, None, None)]) == Scale.parse("1-5")


def test_a_papers_scale_is_the_recorded_one_else_its_venues() -> None:
    recorded = Paper("a", "t", "x", venue="CVPR", year=2019, ratings=Ratings(3.0, scale="1-5"))
    known = Paper("b", "t", "x", venue="ICLR", year=2017, ratings=Ratings(6.0))
    unknown = Paper("c", "t", "x", venue="CVPR", year=2019, ratings=Ratings(3.0))
    assert scale_of(recorded) == Scale.parse("1-5") and scale_of(known) == Scale.parse("1-10")
    assert scale_of(unknown) is None
    assert venue_of(known) == "ICLR 2017" and venue_of(Paper("d", "t", "x")) == ""


def test_the_recorded_scale_survives_the_catalogue_round_trip() -> None:
    ratings = Ratings(6.0, 1.0, 5.0, 7.0, 2, "1-10")
    assert Ratings.from_dict(ratings.to_dict()) == ratings
    assert "scale" not in Ratings(6.0).to_dict() and Ratings.from_dict(Ratings(6.0).to_dict()) == Ratings(6.0)


def test_an_openreview_groups_venue_gives_its_known_scale() -> None:
    assert group_scale("ICLR.cc/2017/Conference") == Scale.parse("1-10")
    assert group_scale("colmweb.org/COLM/2025/Conference") == Scale.parse("1-10")
    assert group_scale("ICLR.cc/2026/Conference") == Scale.parse("0, 2, 4, 6, 8, 10")
    assert group_scale("TMLR") is None and group_scale("ICML.cc/2019/Conference") is None


def test_a_review_summary_takes_the_scale_of_its_notes_venue() -> None:
    def summary(group: str) -> ReviewSummary:
        return ReviewSummary.of([Review("r", "f", "f", "review", scores=(("rating", 6.0),), venue_id=group)])

    assert summary("ICLR.cc/2017/Conference").scale == "1-10"
    assert summary("ICLR.cc/2026/Conference").scale == "0, 2, 4, 6, 8, 10"
    assert summary("ICML.cc/2019/Conference").scale == ""


def test_a_mean_with_its_scale_fits_the_lists_rating_column() -> None:
    ten, five = Scale.parse("1-10"), Scale.parse("1-5")
    assert ten is not None and five is not None
    assert [ten.out_of(6.5), ten.out_of(5.75), ten.out_of(10.0), ten.out_of(9.96), five.out_of(3)] == [
        "6.5/10", "5.8/10", "10/10", "10/10", "3.0/5"]  # fmt: skip
    assert all(len(ten.out_of(mean / 10)) <= 6 for mean in range(10, 101))


def test_every_mean_rating_is_written_by_one_rule() -> None:
    """Found by a tester: the venues table showed ``6.5/10`` beside ``4.22/10``. One decimal, with
    the scale's top where it goes: the same text in the list, the statistics and the CLI."""
    from paperdeck.model.venue import mean_text

    ten = Scale.parse("1-10")
    assert [mean_text(4.2222), mean_text(6.5), mean_text(5.666), mean_text(3.0), mean_text(None)] == [
        "4.2", "6.5", "5.7", "3.0", "—"]  # fmt: skip
    assert [mean_text(4.2222, ten), mean_text(6.5, ten), mean_text(9.99, ten)] == ["4.2/10", "6.5/10", "10/10"]
