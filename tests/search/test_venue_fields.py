"""The query fields ``venue:`` (word-start, exact complement) and ``rating_pct`` (a percentile
within the paper's venue), and the ``rating_pct`` sort."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from paperdeck.model.paper import Paper, Ratings, UserData
from paperdeck.search.corpus import TextCorpus
from paperdeck.search.index import SearchIndex
from paperdeck.search.query import parse_query
from paperdeck.search.selection import PaperLookups
from paperdeck.search.venue_ranks import rating_percentiles, venue_labels


def paper(pid: str, venue: str, year: int | None, mean: float | None) -> Paper:
    ratings = Ratings(mean) if mean is not None else None
    return Paper(pid, f"Paper {pid}", f"About {pid}.", venue=venue, year=year, ratings=ratings)


PAPERS = [
    paper("c1", "COLM", 2025, 7.0),
    paper("c2", "COLM", 2025, 5.0),
    paper("c3", "COLM", 2025, None),
    paper("i1", "ICLR", 2017, 8.0),
    paper("i2", "ICLR", 2017, 4.0),
    paper("i3", "ICLR", 2017, 6.0),
    paper("i4", "ICLR", 2017, 6.0),
    paper("v1", "CVPR", 2019, None),
    paper("m1", "ICML", 2019, None),
    paper("n1", "", None, 3.0),
]


def kept(text: str, papers: list[Paper] = PAPERS) -> list[str]:
    index, corpus = SearchIndex(papers), TextCorpus(papers)
    users: dict[str, UserData] = {}
    query = parse_query(text)
    assert query.error is None, query.error
    mask = query.mask(PaperLookups(lambda: papers, lambda: users, lambda: index, lambda: corpus))
    assert mask is not None
    return [p.id for p, keep in zip(papers, mask.tolist(), strict=True) if keep]


def test_a_venue_term_matches_the_venue_or_the_year_from_a_word_start() -> None:
    assert kept("venue:colm") == ["c1", "c2", "c3"]
    assert kept('venue:"iclr 2017"') == ["i1", "i2", "i3", "i4"]
    assert kept("venue:2019") == ["v1", "m1"]
    assert kept("venue:cv") == ["v1"]
    assert kept("venue:olm") == [] and kept("venue:*olm") == ["c1", "c2", "c3"]
    assert kept("VENUES:Colm") == ["c1", "c2", "c3"]


def test_a_negated_venue_term_keeps_exactly_the_rest_unknown_venues_too() -> None:
    for text in ("venue:colm", "venue:2019", 'venue:"iclr 2017"'):
        inside, outside = set(kept(text)), set(kept(f"-{text}"))
        assert inside.isdisjoint(outside) and inside | outside == {p.id for p in PAPERS}
    assert "n1" in kept("-venue:colm")


def test_the_percentile_is_within_the_papers_own_venue() -> None:
    pct = rating_percentiles(PAPERS)
    by_id = dict(zip((p.id for p in PAPERS), pct.tolist(), strict=True))
    assert by_id["c1"] == 100.0 and by_id["c2"] == 50.0 and math.isnan(by_id["c3"])
    assert by_id["i1"] == 100.0 and by_id["i3"] == by_id["i4"] == 75.0 and by_id["i2"] == 25.0
    assert by_id["n1"] == 100.0 and math.isnan(by_id["v1"])
    assert venue_labels(PAPERS)[:4] == ["COLM 2025", "COLM 2025", "COLM 2025", "ICLR 2017"]


def test_a_rating_pct_term_compares_across_venues_and_rating_compares_own_means() -> None:
    assert kept("rating_pct>=100") == ["c1", "i1", "n1"]
    assert kept("pct:50..75") == ["c2", "i3", "i4"]
    assert kept("rating>=7") == ["c1", "i1"]
    assert kept("venue:colm rating>=6") == ["c1"]


def test_the_percentiles_follow_a_new_sequence_of_papers() -> None:
    first = rating_percentiles(PAPERS)
    fewer = [p for p in PAPERS if p.id != "i1"]
    again = rating_percentiles(fewer)
    assert len(again) == len(fewer) and again[fewer.index(PAPERS[4])] == 100 / 3
    assert np.array_equal(rating_percentiles(PAPERS), first, equal_nan=True)


def test_the_rating_pct_sort_ranks_each_paper_within_its_venue(tmp_path: Path) -> None:
    from paperdeck.search.selection import sort_ids
    from paperdeck.sources.importer import import_files
    from paperdeck.store.store import Store

    records = {
        "colm2025.json": [("a", "9;9"), ("b", "3;3"), ("c", "")],
        "iclr2026.json": [("d", "4;4"), ("e", "2;2"), ("f", "0;2")],
    }
    paths = []
    for name, rows in records.items():
        path = tmp_path / name
        path.write_text(json.dumps([{"id": f"{pid}000000000", "title": f"Paper {pid}", "abstract": f"About {pid}.",
                                     "status": "Poster", "track": "main", "rating": rating}
                                    for pid, rating in rows]))  # fmt: skip
        paths.append(path)
    store = Store(tmp_path / "store")
    import_files(store, paths)
    ids = sort_ids(store, list(store.paper_ids), "rating_pct")
    titles = [paper.title[-1] for pid in ids if (paper := store.paper(pid))]
    assert titles[:2] in (["a", "d"], ["d", "a"]) and titles[2:] == ["e", "b", "f", "c"]
    by_rating = [p.title[-1] for pid in sort_ids(store, list(store.paper_ids), "rating") if (p := store.paper(pid))]
    assert by_rating[:5] == ["a", "d", "b", "e", "f"]  # the raw means: what rating_pct is for


def test_a_venue_is_found_by_its_compact_form_as_fetch_spells_it() -> None:
    iclr_2017 = ["i1", "i2", "i3", "i4"]
    assert kept("venue:iclr2017") == kept("venue:ICLR2017") == kept('venue:"iclr 2017"') == iclr_2017
    assert kept("venue:colm2025") == ["c1", "c2", "c3"]
    assert kept("venue:iclr201") == iclr_2017  # a word start of the compact form
    assert kept("venue:iclr2018") == [] and kept("venue:*lm2025") == ["c1", "c2", "c3"]
    assert set(kept("-venue:iclr2017")) == {p.id for p in PAPERS} - set(iclr_2017)
    neurips = [paper("n18", "NeurIPS", 2018, None), *PAPERS]
    assert kept("venue:nips2018", neurips) == kept("venue:neurips2018", neurips) == ["n18"]
