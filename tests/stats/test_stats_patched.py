"""A decisions file imported in place updates the statistics cache for the papers it changed
(:func:`paperdeck.stats.cache.patch_cache`), not by counting every paper again (issue 32): the
cache then holds exactly the counts and figures of a full recount, and the work it takes (papers
parsed, contributions counted) is the same for a store of N papers and one of about 2N.

Fixtures: the ICLR 2026 submission cuts, the first review part's cut and the Paper Copilot Parquet
cut of ``tests/data/`` (see its README), as ``tests/search/test_index_patched.py``.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.cli.caches import caches_key, save_caches
from paperdeck.cli.stats import _count, save_stats_cache
from paperdeck.model.paper import Paper
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.stats import cache as stats_cache
from paperdeck.stats.cache import cache_key, read_cache
from paperdeck.store.store import Store

from tests.helpers import review_parts
from tests.shared_slices import PARQUET, RT_PARTS

NOW = "2026-12-01T10:00:00.000000+00:00"


def _template(data: Path, parts: list[Path]) -> Path:
    """A store of ``parts`` (and the first review part) with its caches saved, as imports leave it."""
    store = Store(data, now=lambda: NOW)
    for files in (parts, [review_parts()[0]]):
        before = caches_key(store)
        import_files(store, files)
        save_caches(store, before)
    return data


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """N papers: the first submission cut (139 papers)."""
    return _template(tmp_path_factory.mktemp("small") / "data", RT_PARTS[:1])


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 2N papers: every submission cut (266)."""
    return _template(tmp_path_factory.mktemp("large") / "data", list(RT_PARTS))


@pytest.fixture(scope="module")
def decisions(small: Path) -> list[Paper]:
    """The Parquet cut's papers that the small store holds (the large one holds them too), one of
    them given a decision no other paper has (a decision joins the counts)."""
    held = set(Store(small, lazy=True).paper_ids)
    papers = [paper for paper in read_source(PARQUET).papers if paper.id in held]
    assert len(papers) > 10
    papers[0] = replace(papers[0], decision="workshop", decision_raw="Workshop")
    return papers


def _import(template: Path, where: Path, papers: list[Paper], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """As ``paperdeck import``: the import into a copy of ``template``, then the statistics saved
    with the key of before; the papers parsed and the contributions counted meanwhile."""
    shutil.copytree(template, where)
    Store(where, lazy=True)  # a copy's caches are stale (their stamps): the first open rewrites the rows cache
    fresh = Store(where, lazy=True)
    save_stats_cache(fresh)  # counted for the copy's stamp
    store = Store(where, now=lambda: NOW, lazy=True, rows=False, user_records=False)
    key = cache_key(store)
    parsed: list[str] = []
    from_dict = Paper.from_dict.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Paper], data: dict[str, object]) -> Paper:
        paper = from_dict(cls, data)
        parsed.append(paper.id)
        return paper

    counted = stats_cache.PATCH_COUNTED[0]
    with monkeypatch.context() as patch:
        patch.setattr(Paper, "from_dict", classmethod(counting))
        with store.undoable("import"):
            store.import_papers(papers)
        assert store.catalogue.last_patch is not None  # the import was in place
        save_stats_cache(store, key)
        assert not store.catalogue.loaded
    return len(parsed), stats_cache.PATCH_COUNTED[0] - counted


def _recounted(data: Path) -> None:
    """The cache of ``data`` is valid and holds what counting every paper gives, in its order."""
    store = Store(data)
    cached = read_cache(store)
    assert cached is not None
    counts, figures, _ = _count(store)
    assert cached[0] == counts
    for name in ("by_source", "by_decision", "by_area"):
        assert list(cached[0][name]) == list(counts[name]), name
    assert cached[1] == figures


def test_patched_stats_equal_a_recount(
    small: Path, decisions: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _import(small, tmp_path / "data", decisions, monkeypatch)
    _recounted(tmp_path / "data")
    cached = read_cache(Store(tmp_path / "data"))
    assert cached is not None
    assert cached[0]["by_decision"]["workshop"] == 1  # the decisions file's decisions are counted


def test_patched_stats_cost_the_papers_changed_not_the_store(
    small: Path, large: Path, decisions: list[Paper], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(Store(large, lazy=True).paper_ids) >= 1.9 * len(Store(small, lazy=True).paper_ids)
    work_small = _import(small, tmp_path / "small", decisions, monkeypatch)
    work_large = _import(large, tmp_path / "large", decisions, monkeypatch)
    assert work_small == work_large
    parsed, counted = work_small
    assert 0 < counted <= len(decisions) and parsed <= len(decisions)
    _recounted(tmp_path / "large")


def _no_tallies(cache: dict[str, Any]) -> None:
    del cache["tallies"]  # as a cache written without them


def _count_as_text(cache: dict[str, Any]) -> None:
    cache["counts"]["by_decision"] = {name: str(count) for name, count in cache["counts"]["by_decision"].items()}


def _tally_not_counted(cache: dict[str, Any]) -> None:
    cache["tallies"][0][3]["kinds"] = [["area", "accept", "unseen", False, "many"]]


@pytest.mark.parametrize("spoil", [_no_tallies, _count_as_text, _tally_not_counted])
def test_a_cache_not_as_written_is_counted_again(
    small: Path, decisions: list[Paper], tmp_path: Path, spoil: Callable[[dict[str, Any]], None]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(small, data)
    Store(data, lazy=True)
    save_stats_cache(Store(data, lazy=True))
    cache = data / stats_cache.CACHE_FILE
    kept = orjson.loads(cache.read_bytes())
    spoil(kept)
    cache.write_bytes(orjson.dumps(kept))
    store = Store(data, now=lambda: NOW, lazy=True, rows=False, user_records=False)
    key = cache_key(store)
    assert read_cache(store) is not None
    with store.undoable("import"):
        store.import_papers(decisions)
    counted = stats_cache.PATCH_COUNTED[0]
    save_stats_cache(store, key)
    assert stats_cache.PATCH_COUNTED[0] == counted  # not patched: counted again
    _recounted(data)
