"""run_query: words rank, fields filter, like: ranks by likeness; errors are one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper, Ratings
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import LikeError, run_query
from paperdeck.store.store import Store

ABSTRACTS = {
    "A": "Diffusion models generate images by denoising; we speed up diffusion sampling with fewer denoising steps.",
    "B": "We study diffusion sampling schedules and denoising steps for image generation with diffusion models.",
    "C": "Graph neural networks pass messages between nodes; we study oversmoothing in deep graph networks.",
    "D": "Message passing graph neural networks for molecules: nodes, edges and oversmoothing of graph layers.",
    "E": "Reinforcement learning agents learn a policy from rewards; offline policy evaluation of agents.",
}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data")
    store.import_papers(
        Paper(id=f"openreview:{key}", title=f"Paper {key}", abstract=text, decision="oral" if key in "AC" else "poster")
        for key, text in ABSTRACTS.items()
    )
    return store


def run(store: Store, text: str, order: str = "relevance") -> list[str]:
    query = parse_query(text)
    assert query.error is None
    ids = run_query(Searcher(store), query, order)
    return [pid.removeprefix("openreview:") for pid in ids]


def test_like_a_paper_lists_the_others_most_alike_first(store: Store) -> None:
    """A tester's find: ``m`` listed the paper itself first, as though it were like itself; it is
    left out, as ``like:starred`` leaves out the starred papers."""
    ranked = run(store, "like:openreview:A")
    assert ranked[0] == "B" and set(ranked) == set(ABSTRACTS) - {"A"}
    assert run(store, "like:C")[0] == "D" and "C" not in run(store, "like:C")  # a bare OpenReview id works too


def test_like_starred_ranks_the_others_by_likeness_to_the_stars(store: Store) -> None:
    store.set_star("openreview:C", True)
    ranked = run(store, "like:starred")
    assert ranked[0] == "D" and "C" not in ranked


def test_like_with_filters_and_words(store: Store) -> None:
    assert run(store, "like:A decision:poster")[0] == "B"
    assert set(run(store, "graph like:A")) == {"C", "D"}  # the words only filter


def test_a_sort_picked_sorts_a_like_list(store: Store) -> None:
    """A tester's find: ``O`` on ``m``'s list said "Sorted by title" and the rows stayed most
    alike first (``paperdeck search 'like:…' --sort title`` too). Likeness is the list's
    relevance: a sort picked is applied to its papers, as to any list."""
    store.import_papers([Paper(id="openreview:F", title="Another paper", abstract=ABSTRACTS["B"], decision="reject")])
    alike = run(store, "like:A")
    assert alike[:2] in (["B", "F"], ["F", "B"]) and "A" not in alike
    assert run(store, "like:A", order="title") == ["F", "B", "C", "D", "E"]
    assert run(store, "like:A", order="list") == ["B", "C", "D", "E", "F"]
    assert run(store, "like:A", order="decision") == ["C", "B", "D", "E", "F"]  # oral, posters, reject
    assert run(store, "like:A decision:poster", order="title") == ["B", "D", "E"]  # filtered, then sorted
    assert run(store, "like:A", order="relevance") == alike


def test_paperdeck_search_sorts_a_like_list(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    """``paperdeck search 'like:…' --sort title`` gave likeness order, exit 0, no word."""
    import re

    from paperdeck.cli.main import main

    assert main(["search", "like:A", "--sort", "title", "--data-dir", str(store.data_dir)]) == 0
    assert re.findall(r"openreview:(\w)", capsys.readouterr().out) == ["B", "C", "D", "E"]  # Paper B, C…
    assert main(["search", "like:C", "--sort", "decision", "--data-dir", str(store.data_dir)]) == 0
    assert re.findall(r"openreview:(\w)", capsys.readouterr().out)[0] == "A"  # the other oral first


def test_like_errors_are_one_line(store: Store) -> None:
    with pytest.raises(LikeError, match="star some first"):
        run(store, "like:starred")
    with pytest.raises(LikeError, match="no such paper"):
        run(store, "like:openreview:nope")
    store.import_papers([Paper(id="openreview:Z", title="x", abstract="n/a", title_derived=True)])
    with pytest.raises(LikeError, match="no words to compare by"):
        run(store, "like:Z")
    searcher = Searcher(store)
    assert searcher.similarity.built is None
    assert run_query(searcher, parse_query("like:A"))[0] == "openreview:B"  # the index it needs is built then
    assert searcher.similarity.built is not None and searcher.index.built is None


def test_the_similarity_index_is_saved_by_paperdeck_import_and_read_back(store: Store, tmp_path: Path) -> None:
    from paperdeck.cli.main import main
    from paperdeck.search.searcher import SIMILARITY_FILE
    from paperdeck.search.similar import SimilarityIndex

    seeds = tmp_path / "more.txt"
    seeds.write_text("ICLR 2026 论文列表\n\n" + "Diffusion sampling with denoising steps and diffusion models. " * 3)
    assert main(["import", str(seeds), "--data-dir", str(store.data_dir)]) == 0  # the CLI saves it
    store = Store(store.data_dir)
    saved = store.data_dir / SIMILARITY_FILE
    stamp = store.catalogue_stamp()
    assert saved.exists() and stamp is not None
    loaded = SimilarityIndex.load(saved, stamp)
    assert loaded is not None and len(loaded) == len(store.papers) == 6
    built = SimilarityIndex(store.papers)
    assert loaded.similar_to("openreview:A") == built.similar_to("openreview:A")
    assert SimilarityIndex.load(saved, [stamp[0], stamp[1] + 1]) is None  # another catalogue: stale
    assert SimilarityIndex.load(saved, None, built.texts) is not None  # … unless its texts are the same
    assert SimilarityIndex.load(saved, None, "0" * 40) is None
    saved.write_bytes(b"not a zip")
    assert SimilarityIndex.load(saved, stamp) is None  # broken: rebuilt, never an error
    assert run(store, "like:A") and "A" not in run(store, "like:A")
    assert SimilarityIndex.load(saved, stamp) is not None  # and saved again


def test_title_order_ignores_case_marks_and_invisible_characters(tmp_path: Path) -> None:
    store = Store(tmp_path / "titles")
    titles = {"z": "\u200bZeta", "t": "**TandemFoilSet**", "q": '"Quoted" beta', "a": "alpha", "e": "Évaluer"}
    titles |= {"f": "fast", "d": "delta"}
    store.import_papers(Paper(id=f"openreview:{key}", title=title, abstract=key * 120) for key, title in titles.items())
    ids = run_query(Searcher(store), parse_query("-title:nothing"), "title")
    assert [pid.removeprefix("openreview:") for pid in ids] == ["a", "d", "e", "f", "q", "t", "z"]  # É among the e's


def test_a_term_without_letters_is_ignored_everywhere(store: Store) -> None:
    everything = run(store, "")
    for text in ("?", "-?", "NOT ?", "--?"):
        query = parse_query(text)
        assert query.error is None and query.tree is None and query.words == [], text
    assert run(store, "-?") == everything
    assert run(store, "graph -?") == run(store, "graph - ?") == run(store, "graph")


def test_a_lone_minus_negating_nothing_is_refused_as_not_alone_is(store: Store) -> None:
    """The fifteenth round's tester: a lone ``-`` listed every paper while ``NOT`` alone was an
    error. A ``-`` (or ``NOT``) with no term after it is one error; a ``-`` between terms (a
    pasted ``Bench - A Benchmark``) is punctuation, as before."""
    for text in ("-", "- -", "graph -", "(graph -)", "graph - OR agent", "NOT", "graph NOT"):
        query = parse_query(text)
        assert query.error == "- and NOT need a term after them, e.g. -survey", text
    assert parse_query("graph - agent").error is None
    assert run(store, "graph - agent") == run(store, "graph agent")


def test_substring_hits_come_after_word_start_hits(tmp_path: Path) -> None:
    store = Store(tmp_path / "lora")
    titles = {"x": "Exploration of adapters", "l": "LoRA adapters", "y": "Yet another exploration", "m": "More LoRA"}
    store.import_papers(Paper(id=f"openreview:{key}", title=title, abstract=key * 120) for key, title in titles.items())
    assert run(store, "title:lora") == ["l", "m"]  # whole words or word starts only
    assert run(store, "title:*lora") == ["l", "m", "x", "y"]  # anywhere, the word starts first
    assert run(store, "title:*lora", order="list") == ["x", "l", "y", "m"]


def test_words_ranked_copy_no_list_of_every_id(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A query of words lists the ranked papers only: the store's ids (a list copied from the
    catalogue at each read) are read for a query without words, not at each keystroke."""
    searcher = Searcher(store)
    searcher.index.get()
    reads = []
    real = Store.paper_ids

    def counted(self: Store) -> list[str]:
        reads.append(1)
        return real.fget(self)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(Store, "paper_ids", property(counted))
    for text in ("p", "pa", "diffusion", "graph neural", "graph decision:oral"):
        assert list(run_query(searcher, parse_query(text)))
    assert reads == []
    assert len(run_query(searcher, parse_query("decision:poster"))) == 3  # no words: every id read
    assert reads


def test_a_phrase_alone_ranks_as_its_words_unquoted(tmp_path: Path) -> None:
    """A query of a quoted phrase keeps the papers holding it, ranked as its words unquoted rank
    them (a title match first), not in list order; another sort still sorts it."""
    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(id="openreview:Y", title="Serving models", abstract="We use speculative decoding to serve.",
                  ratings=Ratings(8.0)),
            Paper(id="openreview:N", title="Decoding speculative", abstract="No phrase here.", ratings=Ratings(9.0)),
            Paper(id="openreview:Z", title="Speculative decoding, faster", abstract="A draft model.",
                  ratings=Ratings(3.0)),
        ]
    )  # fmt: skip
    unquoted = [pid for pid in run(store, "speculative decoding") if pid in ("Y", "Z")]
    assert unquoted[0] == "Z"
    assert run(store, '"speculative decoding"') == unquoted
    assert run(store, '"speculative decoding"', "rating") == ["Y", "Z"]
    assert run(store, '"speculative decoding"', "list") == ["Y", "Z"]
    assert parse_query('"speculative decoding"').ranks and parse_query("decision:oral").ranks is False
    assert not parse_query('decision:oral -"speculative decoding"').phrase_words  # a negated phrase ranks nothing
