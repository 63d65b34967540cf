"""Follows: authors, keywords and queries the user follows — matching (names folded as search
folds them), the ``is:followed`` term, the file they live in, and what an import says is new."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.search.follows import check_follow, matches, new_for_follows_line, reason
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import follow_lookups, followed_by, run_query
from paperdeck.store.follows import Follow
from paperdeck.store.store import Store


def paper(n: int, title: str, authors: tuple[str, ...] = (), abstract: str = "", **more: object) -> Paper:
    return Paper(id=f"openreview:F{n}", title=title, authors=authors, abstract=abstract or f"about {title}",
                 openreview_id=f"F{n}", **more)  # type: ignore[arg-type]  # fmt: skip


PAPERS = [
    paper(1, "Diffusion for graphs", ("José García", "Ann Lee")),
    paper(2, "Sparse attention", ("Jane Doe",)),
    paper(3, "Denoising models", ("JANE  DOE",), abstract="A diffusion model for proteins."),
    paper(4, "Graph transformers", ("Jane Doeson",), keywords=("graphs",)),
    paper(5, "Reinforcement learning", ("Bob Smith",)),
]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    return store


def test_author_names_match_folded_whole_names_only(store: Store) -> None:
    store.follows.add("author", "jane doe")
    store.follows.add("author", "Jose Garcia")
    found = matches(follow_lookups(Searcher(store)), store.follows.all())
    assert sorted(found) == ["openreview:F1", "openreview:F2", "openreview:F3"]  # not "Jane Doeson"
    assert reason(found["openreview:F1"]) == "following author Jose Garcia"


def test_keyword_matches_title_keywords_and_abstract_from_a_word_start(store: Store) -> None:
    store.follows.add("keyword", "diffusion")
    store.follows.add("keyword", "graph")
    found = matches(follow_lookups(Searcher(store)), store.follows.all())
    assert {pid: [f.value for f in fs] for pid, fs in found.items()} == {
        "openreview:F1": ["diffusion", "graph"],
        "openreview:F3": ["diffusion"],
        "openreview:F4": ["graph"],
    }


def test_query_follows_and_is_followed_with_its_exact_complement(store: Store) -> None:
    store.follows.add("query", "title:sparse")
    store.follows.add("author", "Bob Smith")
    searcher = Searcher(store)
    kept = set(run_query(searcher, parse_query("is:followed")))
    rest = set(run_query(searcher, parse_query("-is:followed")))
    assert kept == {"openreview:F2", "openreview:F5"}
    assert kept | rest == set(store.paper_ids) and not kept & rest
    store.follows.remove("author", "BOB smith")
    assert set(run_query(searcher, parse_query("is:followed"))) == {"openreview:F2"}


def test_bad_follows_get_one_line_and_change_nothing(store: Store) -> None:
    for kind, value, hint in [
        ("venue", "ICLR", "cannot follow"),
        ("author", "  ", "needs a value"),
        ("keyword", "?!", "letter or digit"),
        ("query", "title:", "title: needs a value"),
        ("query", "is:followed rating>=6", "cannot use is:followed"),
        ("query", "like:starred", "like: ranks"),
        ("author", "x" * 501, "at most 500"),
    ]:
        with pytest.raises(ValueError, match=hint) as error:
            check_follow(kind, value)
        assert "\n" not in str(error.value)
    assert store.follows.all() == ()
    assert not store.follows.path.exists()


def test_a_query_naming_a_saved_view_follows_its_query() -> None:
    assert check_follow("query", "orals", {"Orals": "decision:oral"}) == ("query", "decision:oral")
    assert check_follow("query", "starred") == ("query", "starred")  # no such view: the word


def test_follows_are_kept_once_any_case_and_read_back_by_another_process(store: Store, tmp_path: Path) -> None:
    assert store.follows.add("author", "Jane Doe") is not None
    assert store.follows.add("author", "jane  DOE") is None
    other = Store(tmp_path / "data")
    assert [(f.kind, f.value) for f in other.follows.all()] == [("author", "Jane Doe")]
    other.follows.add("keyword", "diffusion")
    assert [f.kind for f in store.follows.all()] == ["author", "keyword"]  # read again: changed on disk


def test_follows_survive_reimport_and_merge_and_only_new_papers_count(store: Store) -> None:
    store.follows.add("author", "Jane Doe")
    store.follows.add("keyword", "diffusion")
    before = store.follows.all()
    # The same papers again (unchanged), one of them under a better id with a new title: merged, not new.
    arxiv_copy = Paper(
        id="arxiv:2401.00002", title="Sparse attention", authors=("Jane Doe",), abstract="about Sparse attention",
        openreview_id="F2", arxiv_id="2401.00002",
    )  # fmt: skip
    report = store.import_papers([*PAPERS[:1], arxiv_copy])
    assert report.new == 0 and report.new_ids == ()
    assert "openreview:F2" in followed_by(Searcher(store))
    new = [paper(6, "Diffusion again", ("Jane Doe",)), paper(7, "Unrelated", ("Zed",)),
           paper(8, "Attention", ("Jané Doe",))]  # fmt: skip
    report = store.import_papers(new)
    assert report.new_ids == ("openreview:F6", "openreview:F7", "openreview:F8")
    assert store.follows.all() == before
    line = new_for_follows_line(followed_by(Searcher(store)), report.new_ids)
    assert line == "followed: 2 new papers (author Jane Doe 2, keyword diffusion 1)"
    assert new_for_follows_line({}, report.new_ids) is None


def test_a_malformed_follows_file_is_named_and_never_overwritten(store: Store) -> None:
    store.follows.add("author", "Jane Doe")
    meta = '"meta": {"1": {"app": "paperdeck", "schema": 2}}'
    store.follows.path.write_text("{" + meta + ', "follows": {"1": {"kind": "venue", "value": "x"}}}')
    reopened = Store(store.data_dir)
    with pytest.raises(StoreError, match=r"follows\.json: a follow is malformed"):
        reopened.follows.all()
    with pytest.raises(StoreError):
        reopened.follows.add("keyword", "graphs")
    assert "venue" in store.follows.path.read_text()


def test_a_hand_edited_query_follow_using_is_followed_matches_nothing(store: Store) -> None:
    store.follows.add("author", "Bob Smith")
    searcher = Searcher(store)
    loop = Follow("query", "is:followed")
    assert set(matches(follow_lookups(searcher), [*store.follows.all(), loop])) == {"openreview:F5"}
