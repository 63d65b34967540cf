"""The real ICML 2019 files (Paper Copilot's list and the 2019 author-rows CSV) give one paper per
title however its LaTeX is written (findings #4: ``R\\'enyi`` / ``Rényi``, ``$\\texttt{DoubleSqueeze}$``
/ ``DoubleSqueeze``, ``$\\ell_\\infty$`` / ``$\\ell_∞$``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.cli.selecting import select_ids
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import SHARED_DATA

pytestmark = pytest.mark.data


def test_icml_2019_from_both_files_holds_each_latex_title_once(tmp_path: Path) -> None:
    copilot = SHARED_DATA / "papercopilot_icml2019.json"
    store = Store(tmp_path / "data")
    import_files(store, [copilot, SHARED_DATA / "icml-nips-iclr_author-rows_2019-08.csv"])
    store.load()
    ids = select_ids(store, 'venue:"icml 2019"')
    titles = [paper.title for paper in map(store.paper, ids) if paper is not None]
    # Paper Copilot's 774, and one the CSV titles apart in words ("Separable value functions across
    # time-scales" for "Separating value functions…"): another title, not another way of writing it
    assert len(json.loads(copilot.read_text(encoding="utf-8"))) == 774
    assert len(ids) == 775
    assert len([t for t in titles if "value functions across time-scales" in t]) == 2
    for words in ("Subsampled R", "DoubleSqueeze", "Regression via Iteratively Reweighted"):
        assert len([t for t in titles if words in t]) == 1, words
