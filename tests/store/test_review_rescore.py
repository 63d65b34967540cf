"""A review import writes the new scores into the catalogue a paper at a time (issue 32, fifth
round: at 5 × the catalogue parsed whole after the merge was the import's peak): the catalogue is
never parsed, and every file is what the whole catalogue's write gives (the rows cache but for
the catalogue's stamp in its header), the change log too; the statistics counted after it read
the papers one at a time, with the same counts.

The files are the committed cuts of the real dump and review parts (``tests/data/``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.cli.commands import cmd_import
from paperdeck.sources.importer import import_files
from paperdeck.store import import_run, rescoring
from paperdeck.store.catalogue import Catalogue
from paperdeck.store.store import Store

from tests.helpers import review_parts, submission_parts


def _opened(directory: Path) -> Store:
    return Store(directory, lazy=True, rows=False, user_records=False)  # as the command line opens it


def _import(directory: Path, files: list[Path]) -> None:
    args = argparse.Namespace(files=[str(p) for p in files], format=None, undo=False, json=True, venue=None)
    assert cmd_import(_opened(directory), args) == 0


def _rows_but_stamp(directory: Path) -> tuple[dict[str, Any], list[bytes]]:
    header, *rest = (directory / "rows-cache.json").read_bytes().split(b"\n")
    fields = orjson.loads(header)
    fields.pop("catalogue")
    return fields, rest


def _changes_but_times(directory: Path) -> list[Any]:
    path = directory / "changes.jsonl"
    lines = path.read_bytes().splitlines() if path.exists() else []
    return [{k: v for k, v in orjson.loads(line).items() if k != "at"} for line in lines]


def _stats_but_key(directory: Path) -> dict[str, Any]:
    data = orjson.loads((directory / "stats-cache.json").read_bytes())
    data.pop("key")
    return dict(data)


@pytest.fixture
def stores(tmp_path: Path) -> tuple[Path, Path]:
    """Two stores of the dump's cuts, its caches saved, as the dump's import leaves them."""
    made = []
    for name in ("streamed", "whole"):
        _import(tmp_path / name, submission_parts())
        made.append(tmp_path / name)
    return made[0], made[1]


def test_the_scores_are_written_without_parsing_the_catalogue(
    stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    streamed, whole = stores
    parsed: list[bool] = []
    load, forums = Catalogue.load, rescoring.catalogue_forums

    def counted_load(self: Catalogue) -> None:
        parsed.append(not self.loaded)
        load(self)

    monkeypatch.setattr(Catalogue, "load", counted_load)
    _import(streamed, review_parts())
    assert not any(parsed)  # the scores, the statistics and the indexes: no whole parse
    monkeypatch.setattr(import_run, "catalogue_forums", lambda catalogue: None)  # the whole catalogue's write
    _import(whole, review_parts())
    assert any(parsed)
    monkeypatch.setattr(import_run, "catalogue_forums", forums)
    assert (streamed / "catalogue.json").read_bytes() == (whole / "catalogue.json").read_bytes()
    assert (streamed / "catalogue.json").read_bytes() != b""
    assert _rows_but_stamp(streamed) == _rows_but_stamp(whole)
    assert _stats_but_key(streamed) == _stats_but_key(whole)
    reopened = Store(streamed)
    assert reopened.papers == Store(whole).papers
    assert any(paper.ratings is not None for paper in reopened.papers)


def test_a_later_import_records_the_same_changes(stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The second import (reviews imported before: the change log compares) holds only the papers
    changed and those with new notes, and records what the whole catalogue's compare records."""
    streamed, whole = stores
    first, *rest = review_parts()
    for directory in stores:
        import_files(_opened(directory), [first])
    done: list[rescoring.Rescore | None] = []
    rescore = rescoring.rescore
    monkeypatch.setattr(import_run, "rescore", lambda *args: done.append(rescore(*args)) or done[-1])
    _import(streamed, rest)
    assert len(done) == 1 and done[0] is not None and done[0].changed > 0
    monkeypatch.setattr(import_run, "catalogue_forums", lambda catalogue: None)
    _import(whole, rest)
    changes = _changes_but_times(streamed)
    assert changes and changes == _changes_but_times(whole)
    assert (streamed / "catalogue.json").read_bytes() == (whole / "catalogue.json").read_bytes()
    assert _rows_but_stamp(streamed) == _rows_but_stamp(whole)


def test_nothing_is_written_when_no_score_changes(stores: tuple[Path, Path]) -> None:
    streamed, _ = stores
    _import(streamed, review_parts())
    stamp = Store(streamed).catalogue_stamp()
    store = _opened(streamed)
    kept: list[int] = []
    done = rescoring.rescore(
        store.catalogue, store.reviews.summaries(), store.reviews.summaries(), lambda: kept.append(1)
    )
    assert done is not None and done.changed == 0 and kept == []
    assert Store(streamed).catalogue_stamp() == stamp


def test_a_catalogue_without_spans_is_parsed_whole(stores: tuple[Path, Path]) -> None:
    streamed, whole = stores
    (streamed / "rows-cache.json").unlink()
    assert rescoring.catalogue_forums(_opened(streamed).catalogue) is None
    store = _opened(whole)
    assert rescoring.catalogue_forums(store.catalogue) == {
        p.openreview_id for p in Store(whole).papers if p.openreview_id
    }
    _import(streamed, review_parts())
    _import(whole, review_parts())
    assert (streamed / "catalogue.json").read_bytes() == (whole / "catalogue.json").read_bytes()


def test_the_statistics_are_counted_as_the_scores_are_written(
    stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32, sixth round: each paper parsed for the scores is counted then; the catalogue
    written is not read again for the statistics, which are those of reading it again."""
    from paperdeck.stats.cache import PaperCounts
    from paperdeck.store.catalogue import WrittenCatalogue
    from paperdeck.store.rows import file_stamp

    streamed, again = stores
    read: list[int] = []
    papers = WrittenCatalogue.papers

    def counted_papers(self: WrittenCatalogue) -> Any:
        read.append(1)
        return papers(self)

    monkeypatch.setattr(WrittenCatalogue, "papers", counted_papers)
    said: list[tuple[int, ...]] = []
    done = PaperCounts.done
    monkeypatch.setattr(PaperCounts, "done", lambda self, stamp: said.append(tuple(stamp)) or done(self, stamp))
    _import(streamed, review_parts())
    assert read == [] and len(said) == 1
    assert said[0] == file_stamp(streamed / "catalogue.json")
    monkeypatch.setattr(PaperCounts, "done", lambda self, stamp: None)  # never told: the file is read again
    _import(again, review_parts())
    assert read == [1]
    assert (streamed / "catalogue.json").read_bytes() == (again / "catalogue.json").read_bytes()
    assert _stats_but_key(streamed) == _stats_but_key(again)
    assert _stats_but_key(streamed)["counts"]["papers"] == len(Store(streamed).papers)


def test_a_paper_not_read_as_its_span_says_stops_the_counting(
    stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paper the scores leave alone that does not read back as written (here: another id where
    its span is) is never counted wrong: the tally is not told it counted the file."""
    from paperdeck.model.paper import Paper
    from paperdeck.stats.cache import PaperCounts

    streamed, _ = stores
    papers = Store(streamed).papers
    first = papers[0]
    summaries = dict(_imported_summaries(streamed))
    summaries.pop(first.openreview_id or "", None)  # its score stays: it is only read for the counts
    from_dict = Paper.from_dict

    def renamed(data: Any) -> Paper:
        paper = from_dict(data)
        return paper if paper.id != first.id else from_dict({**data, "id": "someone-else"})

    monkeypatch.setattr(Paper, "from_dict", staticmethod(renamed))
    tally = PaperCounts()
    store = _opened(streamed)
    done = rescoring.rescore(store.catalogue, summaries, set(summaries), lambda: None, None, tally)
    assert done is not None and done.changed > 0
    assert tally.counted_for is None and tally.counts["papers"] == 0


def _imported_summaries(directory: Path) -> Any:
    """The review summaries of the review parts imported into a copy of ``directory``'s store."""
    import shutil

    copy = directory.parent / f"{directory.name}-reviewed"
    shutil.copytree(directory, copy)
    import_files(_opened(copy), review_parts())
    return _opened(copy).reviews.summaries()
