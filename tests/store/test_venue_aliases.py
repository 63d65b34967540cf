"""One venue, one label, one id space: a venue known under another name (``NIPS`` for NeurIPS)
takes the library's name wherever it is read, and a store that holds papers under the old name
merges them into the venue at the next import, the user's fields following each paper."""

from __future__ import annotations

from pathlib import Path

from paperdeck.model.ids import canonical_venue, canonical_venue_label, title_id, venue_renamed_id
from paperdeck.model.paper import Paper
from paperdeck.model.user import UserData
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

TITLE = "(Probably) Concave Graph Matching"
OTHER = "A Paper Only the Old Name Holds"


def bib(path: Path, booktitle: str) -> Path:
    path.write_text(
        f"@inproceedings{{k, title = {{{TITLE}}}, author = {{Haggai Maron and Yaron Lipman}},\n"
        f"  booktitle = {{{booktitle}}}, year = {{2018}} }}\n",
        encoding="utf-8",
    )
    return path


def paper(venue: str, title: str = TITLE, **fields: object) -> Paper:
    return Paper(
        id=title_id(venue, 2018, title),
        title=title,
        abstract="",
        venue=venue,
        year=2018,
        **fields,  # type: ignore[arg-type]
    )


def test_the_alias_table_names_one_venue() -> None:
    assert canonical_venue("NIPS") == canonical_venue("nips") == canonical_venue("NeurIPS") == "NeurIPS"
    assert canonical_venue("Foo") == "Foo" and canonical_venue("") == ""
    assert canonical_venue_label("NIPS 2018") == "NeurIPS 2018" and canonical_venue_label("TMLR") == "TMLR"
    assert canonical_venue_label("NeurIPS 2018") == "NeurIPS 2018"
    assert venue_renamed_id("title:nips-2018:abc", "NIPS", "NeurIPS", 2018) == "title:neurips-2018:abc"
    assert venue_renamed_id("nips2018#12", "NIPS", "NeurIPS", 2018) == "neurips2018#12"
    assert venue_renamed_id("openreview:abc", "NIPS", "NeurIPS", 2018) == "openreview:abc"


def test_files_naming_the_venue_either_way_give_one_paper(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    files = [bib(tmp_path / "a.bib", "NIPS"), bib(tmp_path / "b.bib", "Neural Information Processing Systems")]
    import_files(store, files)
    store.load()
    papers = store.papers
    assert [(p.id, p.venue_label) for p in papers] == [(title_id("NeurIPS", 2018, TITLE), "NeurIPS 2018")]


def test_a_store_with_the_old_name_merges_it_and_keeps_the_user_fields(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    # a store written before the venue had one name: both copies, and a paper only the old one has
    store.import_papers([paper("NeurIPS"), paper("NIPS"), paper("NIPS", OTHER)])
    old, only_old = title_id("NIPS", 2018, TITLE), title_id("NIPS", 2018, OTHER)
    store.set_star(old, True)
    store.set_note(old, "read with care")
    store.set_status(only_old, "read")
    store.restore([UserData(old, starred=True, note="read with care", tags=("graphs",))])

    import_files(Store(tmp_path / "data"), [bib(tmp_path / "a.bib", "NIPS")])  # a re-import

    again = Store(tmp_path / "data")
    again.load()
    labels = sorted((p.title, p.venue_label) for p in again.papers)
    assert labels == [(TITLE, "NeurIPS 2018"), (OTHER, "NeurIPS 2018")]
    kept = again.resolve(old)
    assert kept == title_id("NeurIPS", 2018, TITLE)
    record = again.user_data(kept)
    assert (record.starred, record.note, record.tags) == (True, "read with care", ("graphs",))
    moved = again.resolve(only_old)
    assert moved == title_id("NeurIPS", 2018, OTHER) and again.user_data(moved).status == "read"


def test_the_old_name_finds_the_venue_in_queries_and_venue_options(tmp_path: Path) -> None:
    from paperdeck.cli.selecting import select_ids, venue_scope

    store = Store(tmp_path / "data")
    import_files(store, [bib(tmp_path / "a.bib", "NIPS")])
    store.load()
    wanted = [title_id("NeurIPS", 2018, TITLE)]
    assert select_ids(store, "venue:nips") == select_ids(store, 'venue:"nips 2018"') == wanted
    assert venue_scope(store, ["NIPS 2018"]) == venue_scope(store, ["neurips 2018"]) == {"NeurIPS 2018"}
