"""Titles match as a reader sees them: LaTeX rendered and accents folded, as search folds them
(``R\\'enyi`` and ``Rényi`` are one paper), ids unchanged; a store that holds a paper twice from
before joins the copies at its next import, every user field of both going with the one paper."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from paperdeck.model.ids import normalise_title, title_id, title_match_key
from paperdeck.model.paper import Paper
from paperdeck.model.user import UserData
from paperdeck.store.merge import Merger
from paperdeck.store.store import Store

#: The three pairs the ICML 2019 files write two ways (the author-rows CSV, Paper Copilot).
PAIRS = [
    ("Poission Subsampled R\\'enyi Differential Privacy", "Poission Subsampled Rényi Differential Privacy"),
    (
        "$\\texttt{DoubleSqueeze}$: Parallel Stochastic Gradient Descent with Double-pass Error-Compensated "
        "Compression",
        "DoubleSqueeze: Parallel Stochastic Gradient Descent with Double-pass Error-Compensated Compression",
    ),
    (
        "Improved Convergence for $\\ell_1$ and $\\ell_\\infty$ Regression via Iteratively Reweighted Least Squares",
        "Improved Convergence for $\\ell_1$ and $\\ell_∞$ Regression via Iteratively Reweighted Least Squares",
    ),
]


def paper(title: str, venue: str = "ICML", year: int = 2019, **fields: object) -> Paper:
    return Paper(id=title_id(venue, year, title), title=title, abstract="", venue=venue, year=year, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("latex", "plain"), PAIRS)
def test_a_title_in_latex_and_its_plain_form_are_one_key(latex: str, plain: str) -> None:
    assert title_match_key(latex) == title_match_key(plain)
    assert title_id("ICML", 2019, latex) != title_id("ICML", 2019, plain)  # ids stay as they were


@pytest.mark.parametrize(("latex", "plain"), PAIRS)
def test_the_merge_joins_the_two_forms(latex: str, plain: str) -> None:
    first = paper(latex)
    result = Merger({}, {}).merge([first, paper(plain)])
    assert list(result.papers) == [first.id] and result.new == 1


def test_symbols_and_words_still_tell_titles_apart() -> None:
    assert title_match_key("Bounds in $\\ell_\\infty$") != title_match_key("Bounds in $\\ell_2$")
    assert title_match_key("x ≤ y") != title_match_key("x ≥ y")
    assert title_match_key("Separable Data") != title_match_key("Separating Data")
    assert title_match_key("Hello, World!") == normalise_title("Hello, World!") == "hello world"
    # another venue or year stays another paper
    result = Merger({}, {}).merge([paper(PAIRS[0][0]), paper(PAIRS[0][1], year=2020)])
    assert len(result.papers) == 2


def test_a_store_holding_both_copies_joins_them_once_keeping_both_notes(tmp_path: Path) -> None:
    latex, plain = PAIRS[0]
    store = Store(tmp_path / "data")
    kept, twice = paper(latex), paper(plain)
    other = paper("A Paper Held Once")
    # a store written before titles matched as shown: both copies, each with the user's fields
    store.import_papers([kept, other])
    store.catalogue.load()
    store.catalogue.replace({**store.catalogue.held_papers, twice.id: twice}, store.catalogue.held_aliases)
    store.set_note(kept.id, "first note")
    store.set_star(kept.id, True)
    store.restore([UserData(twice.id, note="second note", status="read", tags=("privacy",))])
    rows = store.catalogue.rows_path  # its header as a paperdeck before the title key wrote it
    header, rest = rows.read_bytes().split(b"\n", 1)
    rows.write_bytes(orjson.dumps({k: v for k, v in orjson.loads(header).items() if k != "title_keys"}) + b"\n" + rest)

    report = Store(tmp_path / "data").import_papers([paper("A Paper Held Once")])  # any later import

    assert [line for line in report.notices if "held twice" in line] == [
        "joined 1 paper the library held twice (one title written in LaTeX and plain, or under a withdrawn "
        "paper's two forum ids); "
        "stars, notes, statuses and tags kept on the one paper"
    ]
    again = Store(tmp_path / "data")
    again.load()
    assert sorted(p.id for p in again.papers) == sorted([kept.id, other.id])
    assert again.resolve(twice.id) == kept.id
    record = again.user_data(kept.id)
    assert record.starred and record.status == "read" and record.tags == ("privacy",)
    assert "first note" in record.note and "second note" in record.note
    # joined once: the next import says nothing of it
    report = Store(tmp_path / "data").import_papers([paper("A Paper Held Once")])
    assert not [line for line in report.notices if "held twice" in line]
