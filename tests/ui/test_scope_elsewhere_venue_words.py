"""``venue:`` terms with words say how many matches the venue scope hides (``+2 elsewhere``).

The fourteenth round: words alone and ``venue:`` terms alone gave the hint, ``venue:iclr diffusion``
none. The words are ranked over every paper (the query's own ranking, kept by the index); the
count is that ranking's papers in the venues outside the scope that the ``venue:`` terms keep,
placed by the store's venue runs: no term run over the other venues, no word matched again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.elsewhere import more_elsewhere
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.store.store import Store

from tests.ui.helpers import counts
from tests.ui.test_query_bar import typed
from tests.ui.test_scope_elsewhere import scoped_to_colm, words_matched

PAPERS = [
    Paper(id="openreview:A", title="Graph diffusion", abstract="x", venue="COLM", year=2025),
    Paper(id="openreview:B", title="Diffusion kernels", abstract="y", venue="ICLR", year=2026),
    Paper(id="openreview:C", title="Diffusion agents", abstract="z", venue="ICLR", year=2026),
    Paper(id="openreview:D", title="Web agents", abstract="w", venue="COLM", year=2025),
    Paper(id="openreview:E", title="Diffusion rates", abstract="v", venue="ICLR", year=2017),
]
COLM = frozenset({"COLM 2025"})


def _searcher(tmp_path: Path) -> Searcher:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    searcher = Searcher(store)
    searcher.index.get()
    return searcher


@pytest.mark.parametrize("numpy_loaded", [True, False])
def test_venue_terms_with_words_count_the_words_matches_in_the_venues_they_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, numpy_loaded: bool
) -> None:
    searcher = _searcher(tmp_path)
    if numpy_loaded:  # as the field terms' masks load it: counted in numpy
        import numpy  # noqa: F401

        assert "numpy" in sys.modules
    else:  # none loaded: counted by a byte per paper
        monkeypatch.delitem(sys.modules, "numpy", raising=False)

    def elsewhere(text: str, shown: int = 0) -> int | None:
        return more_elsewhere(searcher, parse_query(text), COLM, shown)

    assert elsewhere("venue:iclr diffusion") == 3
    assert elsewhere("venue:iclr2026 diffusion") == 2
    assert elsewhere("venue:iclr diffusion kernels") == 1
    assert elsewhere("venue:colm diffusion", shown=1) == 0  # COLM is shown: nothing hidden
    assert elsewhere("-venue:colm diffusion") == 3
    assert elsewhere("(venue:colm OR venue:2017) diffusion", shown=1) == 1
    assert elsewhere("venue:colm OR venue:2017 diffusion") is None  # a word under OR: a term of its own
    assert elsewhere("venue:iclr agents") == 1
    assert elsewhere("venue:iclr diffusion year:2026") is None  # another field term: not counted


def test_the_count_matches_no_word_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    searcher = _searcher(tmp_path)
    searcher.index.get().search_positions("diffusion")  # the query run
    matched = words_matched(monkeypatch)
    assert more_elsewhere(searcher, parse_query("venue:iclr diffusion"), COLM, shown=0) == 3
    assert matched == []


@pytest.mark.parametrize("width", [80, 120])
async def test_the_counts_say_what_the_scope_hides_of_venue_terms_with_words(tmp_path: Path, width: int) -> None:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    async with scoped_to_colm(store, width, shown=2) as (app, pilot, _):
        assert await typed(pilot, "venue:iclr2026 diffusion") == []
        assert ("2 more in other venues" if width >= 120 else "+2 elsewhere") in counts(app), counts(app)
        assert await typed(pilot, "venue:colm diffusion") == ["openreview:A"]
        assert "elsewhere" not in counts(app) and "other venues" not in counts(app), counts(app)
