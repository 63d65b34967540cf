"""A store written when the CSV reader took a bare decision for a venue (``Accept``, ids
``title:accept-unknown:…``): the next import moves those papers to no venue and joins each with
its copy, so that the user's fields stay on the one paper and the old ids still find it."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.ids import title_id, venue_renamed_id
from paperdeck.model.paper import Paper
from paperdeck.model.user import UserData
from paperdeck.store.merge import merge_into
from paperdeck.store.store import Store

TITLE = "Paper one about graphs"


def paper(venue: str, decision: str, title: str = TITLE) -> Paper:
    return Paper(
        id=title_id(venue, None, title),
        title=title,
        abstract="",
        venue=venue,
        decision=decision,
        decision_raw=decision.title(),
        sources=("s.csv",),
    )


def test_an_id_renamed_to_no_venue_is_an_unknown_venues_title_id() -> None:
    old = title_id("Accept", None, TITLE)
    assert old.startswith("title:accept-unknown:")
    assert venue_renamed_id(old, "Accept", "", None) == title_id("", None, TITLE)
    assert venue_renamed_id("accept2024#3", "Accept", "", 2024) == "accept2024#3"  # a number needs a venue


def test_the_merge_joins_a_decision_venues_paper_with_its_copy() -> None:
    old = paper("Accept", "accept")
    result = merge_into({old.id: old}, {}, [paper("", "reject")])
    new_id = title_id("", None, TITLE)
    assert list(result.papers) == [new_id] and result.papers[new_id].venue == ""
    assert result.papers[new_id].decision == "reject"
    assert result.aliases[old.id] == new_id and (result.new, result.updated) == (0, 1)


def test_a_store_with_decision_venues_keeps_the_user_fields_at_the_next_import(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    # both copies the old reader made of one paper (its decision changed), and one other paper
    store.import_papers([paper("Accept", "accept"), paper("Reject", "reject"), paper("Poster", "poster", "Other")])
    starred, other = title_id("Accept", None, TITLE), title_id("Poster", None, "Other")
    store.set_star(starred, True)
    store.restore([UserData(starred, starred=True, note="read with care", tags=("graphs",))])
    store.set_status(other, "read")

    Store(tmp_path / "data").import_papers([paper("", "oral")])  # a re-import, the new reader's

    again = Store(tmp_path / "data")
    again.load()
    assert sorted((p.title, p.venue, p.decision) for p in again.papers) == [
        ("Other", "", "poster"),
        (TITLE, "", "oral"),
    ]
    kept = again.resolve(starred)
    assert kept == title_id("", None, TITLE) == again.resolve(title_id("Reject", None, TITLE))
    record = again.user_data(kept)
    assert (record.starred, record.note, record.tags) == (True, "read with care", ("graphs",))
    assert again.user_data(again.resolve(other)).status == "read"
