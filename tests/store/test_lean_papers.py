"""The app's store holds its papers without their texts (``Store(lean=True)``: issue 32, resident
memory independent of the library): every paper is a :class:`LeanPaper` holding the fields the
queries and counts read, and a text is read from the catalogue file only when asked for. Counted,
not timed: the full papers alive, the documents parsed, the generations held."""

from __future__ import annotations

import gc
import os
import weakref
from dataclasses import replace
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import run_query
from paperdeck.store.lean_papers import CACHED_PAPERS, LIGHT_FIELDS, CatalogueText, LeanPaper, PaperColumns
from paperdeck.store.store import Store

FIXED_TIME = "2026-11-29T12:00:00+00:00"
PAPERS = 300


def _papers(numbers: range, tag: str = "") -> list[Paper]:
    return [
        Paper(id=f"openreview:P{n}", title=f"Paper {n}{tag}", abstract=f"An abstract about topic {n}{tag}.",
              authors=("Ann Lee", f"Author {n}"), keywords=("lean", f"k{n % 7}"), venue="ICLR", year=2026,
              openreview_id=f"P{n}", decision="poster" if n % 3 else "oral", primary_area="optimization",
              ratings=Ratings(float(n % 10), count=3), tldr=f"tl;dr {n}", pdf_url=f"https://x/{n}.pdf")
        for n in numbers
    ]  # fmt: skip


def _store(tmp_path: Path, count: int = PAPERS) -> Path:
    data = tmp_path / "data"
    Store(data, now=lambda: FIXED_TIME).import_papers(_papers(range(count)))
    gc.collect()
    return data


def _lean(data: Path) -> Store:
    store = Store(data, now=lambda: FIXED_TIME, lazy=True, user_records=False, lean=True)
    store.load()
    return store


def _alive(kind: type) -> int:
    """Objects of exactly ``kind`` alive in the process (a test's store left for the collector
    counts too: counted first thing in a test, or by what they hold)."""
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is kind)


def _papers_of(text: CatalogueText | None) -> list[LeanPaper]:
    """The lean papers alive that read ``text``."""
    gc.collect()
    return [obj for obj in gc.get_objects() if type(obj) is LeanPaper and object.__getattribute__(obj, "_text") is text]


def _text(store: Store) -> CatalogueText:
    paper = store.papers[0]
    assert isinstance(paper, LeanPaper)
    return object.__getattribute__(paper, "_text")  # type: ignore[no-any-return]


def test_after_loading_the_store_holds_no_full_paper(tmp_path: Path) -> None:
    data = _store(tmp_path)
    before = _alive(Paper)
    store = _lean(data)
    assert store.paper_count == PAPERS
    text = _text(store)
    assert len(_papers_of(text)) == PAPERS
    assert _alive(Paper) == before  # none made for the store: every one parsed was let go
    assert text.reads == 0  # no text read yet


def test_a_lean_paper_is_the_paper_it_stands_for(tmp_path: Path) -> None:
    data = _store(tmp_path, 40)
    full = {paper.id: paper for paper in Store(data, now=lambda: FIXED_TIME).papers}
    store = _lean(data)
    lean = store.papers
    assert all(type(paper) is LeanPaper for paper in lean)
    assert [paper.id for paper in lean] == list(full)
    for paper in lean:
        assert paper == full[paper.id] and full[paper.id] == paper and hash(paper) == hash(full[paper.id])
        assert paper.to_dict() == full[paper.id].to_dict()
    changed = replace(lean[5], decision="reject")
    assert type(changed) is Paper and changed.abstract == full["openreview:P5"].abstract
    assert changed != lean[5]


def test_a_text_is_read_when_shown_and_once_while_kept(tmp_path: Path) -> None:
    store = _lean(_store(tmp_path))
    text = _text(store)
    paper = store.paper("openreview:P7")
    assert paper is not None
    assert (paper.title, paper.abstract) == ("Paper 7", "An abstract about topic 7.")
    assert paper.authors == ("Ann Lee", "Author 7")
    assert text.reads == 1  # one document parsed for its three texts
    for other in store.papers[: CACHED_PAPERS + 10]:
        assert other.title.startswith("Paper ")
    assert text.reads == 1 + CACHED_PAPERS + 9  # P7 was among them, still kept
    assert paper.tldr == "tl;dr 7" and text.reads == 1 + CACHED_PAPERS + 10  # P7 let go since


def test_a_field_query_reads_no_text(tmp_path: Path) -> None:
    store = _lean(_store(tmp_path))
    text = _text(store)
    searcher = Searcher(store)
    kept = run_query(searcher, parse_query("decision:oral rating>=5 year:2026 venue:iclr"))
    assert kept == [f"openreview:P{n}" for n in range(PAPERS) if n % 3 == 0 and n % 10 >= 5]
    assert text.reads == 0


def test_a_reload_keeps_one_generation(tmp_path: Path) -> None:
    data = _store(tmp_path)
    store = _lean(data)
    old = weakref.ref(_text(store))
    kept_paper = store.paper("openreview:P1")  # a paper a screen still shows
    Store(data, now=lambda: FIXED_TIME).import_papers(_papers(range(PAPERS, PAPERS + 2)))
    assert store.reload_catalogue()
    assert store.paper_count == PAPERS + 2
    of_old = _papers_of(old())
    assert of_old == [kept_paper]  # of the papers replaced, only the one still shown is held
    del of_old
    assert kept_paper is not None and kept_paper.title == "Paper 1"  # read from the file it came from
    new = store.paper(f"openreview:P{PAPERS + 1}")
    assert new is not None and new.title == f"Paper {PAPERS + 1}"
    assert _text(store) is not old()
    del kept_paper
    gc.collect()
    assert old() is None  # the old file let go (its descriptor closed) with its last paper


def test_a_catalogue_changed_in_place_gives_empty_texts_never_a_wrong_paper(tmp_path: Path) -> None:
    data = _store(tmp_path, 20)
    store = _lean(data)
    text = _text(store)
    path = data / "catalogue.json"
    size = path.stat().st_size
    with path.open("r+b") as handle:  # cut in place: the descriptor sees it (no paperdeck does this)
        handle.truncate(size // 2)
    last = store.papers[-1]
    assert last.title == last.id and last.abstract == "" and last.decision == "poster"
    assert text.failed == 1
    with path.open("r+b") as handle:  # another paper's document where this one's was
        handle.seek(0)
        handle.write(b" " * (size // 2))
    first = store.papers[0]
    assert first.abstract == "" and text.failed == 2


def test_a_store_whose_rows_cache_is_stale_loads_full_papers(tmp_path: Path) -> None:
    data = _store(tmp_path, 20)
    path = data / "catalogue.json"
    os.utime(path, ns=(1, 1))  # not the file the rows cache was written for
    store = _lean(data)
    assert store.paper_count == 20
    assert type(store.papers[0]) is Paper


@pytest.mark.parametrize("lean", [True, False])
def test_the_same_ids_and_rows_either_way(tmp_path: Path, lean: bool) -> None:
    data = _store(tmp_path, 30)
    store = Store(data, now=lambda: FIXED_TIME, lazy=True, lean=lean)
    store.load()
    row = store.row("openreview:P3")
    assert row is not None and row.title == "Paper 3"
    assert store.paper_ids == [f"openreview:P{n}" for n in range(30)]


def _mixed() -> list[Paper]:
    """Papers of several venues and years whose light fields take every shape a catalogue holds
    (ints where floats are usual, ``None``s, a forum id other than the id's, huge numbers)."""
    venues = [("ICLR", 2026), ("NeurIPS", 2025), ("TMLR", None), ("", 2019), ("COLM", 2025)]
    papers = []
    for n in range(240):
        venue, year = venues[n % len(venues)]
        ratings = None if n % 4 == 0 else Ratings(
            float(n % 10) + 0.25, std=None if n % 3 else 1.5, min=n % 7, max=float(n % 9) if n % 2 else 9,
            count=None if n % 5 == 0 else n % 6, scale="1-10" if n % 2 else "")  # fmt: skip
        papers.append(Paper(
            id=f"openreview:M{n}" if n % 6 else f"arxiv:2501.{n:05d}", title=f"Mixed {n}", abstract=f"About {n}.",
            venue=venue, year=year, title_derived=n % 11 == 0, primary_area=f"area {n % 4}" if n % 3 else "",
            decision=("oral", "poster", "reject", "unknown")[n % 4], decision_raw=f"{venue} raw {n % 3}",
            ratings=ratings, confidence=(None, 3, 3.5, 4.25)[n % 4],
            openreview_id=f"M{n}" if n % 6 else ("" if n % 12 else f"Other{n}"),
            number=None if n % 8 == 0 else (n if n % 10 else 2**62 + n),
            modified=None if n % 2 else 1_760_000_000_000 + n,
        ))  # fmt: skip
    return papers


def test_the_columns_give_every_field_of_the_full_papers(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Store(data, now=lambda: FIXED_TIME).import_papers(_mixed())
    full = {paper.id: paper for paper in Store(data, now=lambda: FIXED_TIME).papers}
    lean = _lean(data).papers
    assert len(lean) == len(full) == 240
    reads = _text(_lean(data)).reads
    for paper in lean:
        assert type(paper) is LeanPaper and isinstance(paper, Paper)
        whole = full[paper.id]
        for name in LIGHT_FIELDS:  # equal, and of the same type (an int rating stays an int)
            got, want = getattr(paper, name), getattr(whole, name)
            assert got == want and type(got) is type(want), (paper.id, name, got, want)
            if name == "ratings" and want is not None:
                assert [type(getattr(got, f)) for f in ("mean", "std", "min", "max", "count")] == [
                    type(getattr(want, f)) for f in ("mean", "std", "min", "max", "count")
                ]
        assert paper.library_venue == whole.library_venue and paper.venue_label == whole.venue_label
    assert reads == 0


def test_a_hostile_value_is_kept_aside_as_it_is() -> None:
    text = CatalogueText(os.open(os.devnull, os.O_RDONLY), 0)
    columns = PaperColumns(text)
    odd = Paper(id="openreview:X", title="x", abstract="", venue=["not", "text"], year=2**40,  # type: ignore[arg-type]
                confidence="high", number=1.5, openreview_id=7, ratings=Ratings(float("nan"), min="low"))  # type: ignore[arg-type]  # fmt: skip
    lean = columns.add(odd, 0, 1)
    for name in LIGHT_FIELDS:
        got, want = getattr(lean, name), getattr(odd, name)
        assert type(got) is type(want) and (got == want or name == "ratings"), name
    assert lean.ratings is not None and lean.ratings.min == "low" and lean.ratings.mean != lean.ratings.mean


def test_deferred_papers_fill_their_columns_to_every_field_of_the_full_papers(tmp_path: Path) -> None:
    """Opened on one venue (``defer_outside``), the other venues' papers are parsed at their first
    read into the columns, each field equal to the full paper's and of its type; read from several
    threads at once, each still parses into the right row."""
    from concurrent.futures import ThreadPoolExecutor

    from paperdeck.store.lean_papers import DeferredPaper

    data = tmp_path / "data"
    Store(data, now=lambda: FIXED_TIME).import_papers(_mixed())
    full = {paper.id: paper for paper in Store(data, now=lambda: FIXED_TIME).papers}
    store = Store(data, now=lambda: FIXED_TIME, lazy=True, user_records=False, lean=True)
    store.defer_outside(frozenset({"ICLR 2026"}))
    store.load()
    papers = store.papers
    deferred = [p for p in papers if type(p) is DeferredPaper]
    assert 0 < len(deferred) < len(papers) and not any(p.parsed for p in deferred)

    def fields_of(paper: Paper) -> list[tuple[str, object, type]]:
        return [(name, getattr(paper, name), type(getattr(paper, name))) for name in LIGHT_FIELDS]

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(fields_of, deferred))
    for paper, fields_read in zip(deferred, got, strict=True):
        assert fields_read == fields_of(full[paper.id]), paper.id
        assert paper.parsed and paper == full[paper.id]
    assert _text(store).deferred_reads >= len(deferred)


def test_papers_deferred_in_bulk_are_as_deferred_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``defer_many`` holds what ``defer`` of each paper holds (every light field, the spans, the
    papers pending), with a column call per column, not per paper (counted)."""
    from array import array

    from paperdeck.store import lean_papers
    from paperdeck.store.lean_papers import DeferredPaper

    spans = [(10 * n + 1, 10 * n + 9) for n in range(500)]
    ids = [f"openreview:D{n}" for n in range(500)]
    one_by_one = PaperColumns(CatalogueText(os.open(os.devnull, os.O_RDONLY), 10_000))
    first = one_by_one.add(_papers(range(1))[0], 0, 1)
    each = [one_by_one.defer(start, end, pid) for (start, end), pid in zip(spans, ids, strict=True)]
    columns = PaperColumns(CatalogueText(os.open(os.devnull, os.O_RDONLY), 10_000))
    assert columns.add(_papers(range(1))[0], 0, 1) == first
    calls = {"add": 0}
    add = lean_papers._Coded.add

    def counted(self: object, value: object) -> None:
        calls["add"] += 1
        add(self, value)  # type: ignore[arg-type]

    monkeypatch.setattr(lean_papers._Coded, "add", counted)
    bulk = columns.defer_many(array("q", (s for s, _ in spans)), array("q", (e for _, e in spans)), ids)
    assert calls["add"] <= len(lean_papers._CODED_FIELDS)  # one None per column, then copied
    assert [type(p) for p in bulk] == [DeferredPaper] * len(ids) and columns.pending == one_by_one.pending
    for mine, theirs in zip(bulk, each, strict=True):
        assert object.__getattribute__(mine, "_at") == object.__getattribute__(theirs, "_at")
        assert mine.id == theirs.id and not mine.parsed
        for name in LIGHT_FIELDS:
            assert columns.value(object.__getattribute__(mine, "_at"), name) == one_by_one.value(
                object.__getattribute__(theirs, "_at"), name
            ), name
    assert [columns.text.document(*span) for span in spans] == [one_by_one.text.document(*span) for span in spans]
    with pytest.raises(ValueError):
        columns.defer_many(array("q", [1]), array("q", []), ["openreview:X"])


def test_deferred_spans_out_of_order_or_past_the_file_are_refused() -> None:
    from array import array

    from paperdeck.store.catalogue import _in_order

    def spans(*pairs: tuple[int, int]) -> tuple[array[int], array[int]]:
        return array("q", (s for s, _ in pairs)), array("q", (e for _, e in pairs))

    assert _in_order(*spans((5, 9), (9, 12), (20, 30)), 5, 30)
    assert _in_order(*spans(), 5, 30)
    assert not _in_order(*spans((5, 9), (8, 12)), 0, 30)  # overlapping
    assert not _in_order(*spans((5, 5)), 0, 30)  # empty
    assert not _in_order(*spans((5, 9)), 6, 30)  # before the last paper read
    assert not _in_order(*spans((5, 31)), 0, 30)  # past the file's end


def test_the_lean_parse_takes_the_spans_as_arrays_not_a_table_by_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows cache's spans are read as two arrays in the rows' order (no dict of every
    paper's span made); the papers and the aliases are those of the full parse."""
    import paperdeck.store.catalogue as catalogue_module

    data = tmp_path / "data"
    Store(data, now=lambda: FIXED_TIME).import_papers(_mixed())
    full = Store(data, now=lambda: FIXED_TIME)
    papers, aliases = full.papers, full.catalogue.aliases

    def no_table(*args: object) -> None:
        raise AssertionError("the spans decoded into a table by id")

    monkeypatch.setattr(catalogue_module, "decode_spans", no_table)
    store = Store(data, now=lambda: FIXED_TIME, lazy=True, user_records=False, lean=True)
    store.defer_outside(frozenset({"ICLR 2026"}))
    store.load()
    assert store.papers == papers and store.catalogue.aliases == aliases
