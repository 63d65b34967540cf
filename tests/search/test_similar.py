"""Similar papers (TF-IDF cosine, :mod:`paperdeck.search.similar`): on the real ICLR 2026 dump (19,630
papers), papers obviously on the same topic come first; on small hand-made lists, the edge cases
(one paper, no words, nothing liked, unknown ids) give clear answers; and ``paperdeck similar``.

The dump is read once for the module (~1 s) and indexed once (~1.5 s).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from paperdeck.model.errors import PaperdeckError
from paperdeck.model.paper import Paper
from paperdeck.search.similar import SimilarityIndex, UnknownPaper
from paperdeck.search.similar_terms import fold_plural
from paperdeck.sources import read_source

from tests.helpers import SHARED_DATA, run, submission_parts

DUMP = submission_parts(SHARED_DATA)
#: Nearest neighbours among the whole conference: the full real data (``make test-data``).
needs_dump = pytest.mark.data

REAP = "REAP the Experts: Why Pruning Prevails for One-Shot MoE compression"
DIFFUSION_LM = "Diffusion Language Model Knows the Answer Before It Decodes"
FRAME_INTERPOLATION = "Realtime Video Frame Interpolation using One-Step Diffusion Sampling"


@pytest.fixture(scope="module")
def papers() -> list[Paper]:
    return [paper for path in DUMP for paper in read_source(path).papers]


@pytest.fixture(scope="module")
def index(papers: list[Paper]) -> SimilarityIndex:
    return SimilarityIndex(papers)


@pytest.fixture(scope="module")
def by_title(papers: list[Paper]) -> dict[str, Paper]:
    return {paper.title: paper for paper in papers}


@pytest.fixture(scope="module")
def by_id(papers: list[Paper]) -> dict[str, Paper]:
    return {paper.id: paper for paper in papers}


def text_of(paper: Paper) -> str:
    return f"{paper.title} {' '.join(paper.keywords)} {paper.abstract}".lower()


def paper(number: int, abstract: str, title: str = "", keywords: tuple[str, ...] = (), derived: bool = False) -> Paper:
    return Paper(f"test:{number}", title or f"Paper {number}", abstract, keywords=keywords, title_derived=derived)


# The real dump ------------------------------------------------------------------------------------


@needs_dump
def test_reap_is_most_like_other_moe_pruning_and_merging_papers(
    index: SimilarityIndex, by_title: dict[str, Paper], by_id: dict[str, Paper]
) -> None:
    """REAP prunes the experts of mixture-of-experts models: its ten nearest are all about MoE
    experts, most of them compress them (pruning, merging), e.g. MergeMoE and HEAPr."""
    reap = by_title[REAP]
    top = [by_id[pid] for pid, _ in index.similar_to(reap.id, 10)]
    assert len(top) == 10
    assert all("expert" in text_of(p) for p in top), [p.title for p in top]
    compressing = [p for p in top if any(w in text_of(p) for w in ("pruning", "merging", "compress"))]
    assert len(compressing) >= 7, [p.title for p in top]
    titles = [p.title for p in top]
    assert any(t.startswith("MergeMoE") for t in titles) and any(t.startswith("HEAPr") for t in titles), titles


@needs_dump
@pytest.mark.parametrize("title", [DIFFUSION_LM, FRAME_INTERPOLATION])
def test_a_diffusion_papers_top_ten_are_mostly_diffusion_papers(
    index: SimilarityIndex, by_title: dict[str, Paper], by_id: dict[str, Paper], title: str
) -> None:
    """2,295 of 19,630 titles (12 %) hold "diffusion"; eight or more of these papers' ten nearest do."""
    top = [by_id[pid] for pid, _ in index.similar_to(by_title[title].id, 10)]
    assert sum("diffusion" in text_of(p) for p in top) >= 8, [p.title for p in top]


@needs_dump
def test_similar_to_leaves_the_paper_out_and_ranks_by_cosine(
    index: SimilarityIndex, by_title: dict[str, Paper]
) -> None:
    reap = by_title[REAP]
    found = index.similar_to(reap.id, 0)
    ids = [pid for pid, _ in found]
    scores = [score for _, score in found]
    assert reap.id not in ids
    assert len(ids) == len(set(ids)) > 1000  # every paper sharing a term, when limit is 0
    assert all(0.0 < score <= 1.0 for score in scores)
    assert scores == sorted(scores, reverse=True)
    assert index.similar_to(reap.id, 5) == found[:5]


@needs_dump
def test_shared_terms_explain_a_match(index: SimilarityIndex, by_title: dict[str, Paper]) -> None:
    reap = by_title[REAP]
    merge_moe = next(p for title, p in by_title.items() if title.startswith("MergeMoE"))
    shared = index.shared_terms(reap.id, merge_moe.id, 4)
    assert len(shared) == 4 and {"moe", "expert"} <= set(shared), shared


@needs_dump
def test_rank_by_liked_puts_the_liked_topic_first(
    index: SimilarityIndex, papers: list[Paper], by_id: dict[str, Paper]
) -> None:
    """Five speculative-decoding papers starred: the 20 best of the rest are about it too."""
    liked = [p.id for p in papers if "speculative decoding" in p.title.lower()][:5]
    assert len(liked) == 5
    ranked = index.rank_by_liked(liked)
    assert len(ranked) == len(papers) - 5  # every other paper, the liked ones left out
    assert not set(liked) & {pid for pid, _ in ranked}
    top = [by_id[pid] for pid, _ in ranked[:20]]
    assert sum("speculative" in text_of(p) for p in top) >= 18, [p.title for p in top]
    scores = [score for _, score in ranked]
    assert scores == sorted(scores, reverse=True) and scores[-1] >= 0.0 and scores[0] <= 1.0


@needs_dump
def test_rank_by_liked_serves_two_interests(
    index: SimilarityIndex, papers: list[Paper], by_id: dict[str, Paper]
) -> None:
    """Three speculative-decoding and three protein papers starred: both topics are in the top 20
    (one centroid for all put the first protein paper 38th)."""
    decoding = [p.id for p in papers if "speculative decoding" in p.title.lower()][:3]
    proteins = [p.id for p in papers if "protein" in p.title.lower()][:3]
    top = [by_id[pid] for pid, _ in index.rank_by_liked(decoding + proteins, 20)]
    assert len(top) == 20
    assert sum("speculative" in text_of(p) for p in top) >= 8, [p.title for p in top]
    protein = [n for n, p in enumerate(top) if "protein" in text_of(p)]
    assert len(protein) >= 4 and protein[0] < 5, [p.title for p in top]


def test_rank_by_liked_with_one_liked_paper_is_similar_to() -> None:
    papers = [paper(n, f"Shared topic words alpha beta gamma {'delta ' * n} and filler {n}") for n in range(1, 8)]
    index = SimilarityIndex(papers)
    assert index.rank_by_liked(["test:3"]) == index.similar_to("test:3", 0)


@needs_dump
def test_the_index_is_small(index: SimilarityIndex) -> None:
    """Its arrays: ~15 MB for 19,630 papers (float32 weights, int32 term numbers)."""
    assert 10_000 < index.term_count < 40_000
    assert index.nbytes < 32_000_000


# Small lists and edge cases -----------------------------------------------------------------------


def test_title_words_weigh_more_than_abstract_words() -> None:
    query = paper(1, "We study a method.", title="Quantum annealing schedules")
    same_title = paper(2, "We look at hardware.", title="Quantum annealing hardware")
    in_abstract = paper(3, "Quantum annealing is used once here among other hardware words.", title="Other work")
    filler = [paper(n, f"filler text number {n} about hardware") for n in range(4, 10)]
    index = SimilarityIndex([query, same_title, in_abstract, *filler])
    ranked = [pid for pid, _ in index.similar_to("test:1")]
    assert ranked.index("test:2") < ranked.index("test:3")


def test_a_derived_title_is_not_counted() -> None:
    """A title derived from the abstract repeats its words: it must not weigh them again."""
    abstract = "Sparse attention kernels speed up long context inference on accelerators."
    others = [paper(2, "Long context inference with sparse kernels."), paper(3, "Sparse attention for vision.")]
    derived = SimilarityIndex([paper(1, abstract, title="Sparse attention kernels", derived=True), *others])
    untitled = SimilarityIndex([paper(1, abstract, title="Anything else at all", derived=True), *others])
    assert derived.similar_to("test:1") == untitled.similar_to("test:1")
    assert derived.similar_to("test:1")  # and it does find the others


def test_identical_papers_score_one_and_unrelated_ones_are_left_out() -> None:
    text = "Graph neural networks for molecule property prediction with message passing."
    papers = [paper(1, text), paper(2, text), paper(3, "Bandit algorithms for online advertising auctions.")]
    papers += [paper(n, f"Unrelated filler {n} on protein folding and molecule design.") for n in range(4, 8)]
    found = SimilarityIndex(papers).similar_to("test:1")
    assert found[0][0] == "test:2" and found[0][1] == pytest.approx(1.0, abs=1e-5)
    assert "test:3" not in {pid for pid, _ in found}


def test_links_stop_words_and_latex_make_no_likeness() -> None:
    """Two papers sharing only a link, LaTeX commands and function words are not alike."""
    a = paper(1, "Quantum chemistry solvers (https://anonymous.4open.science/r/abc-123), in $\\mathbb{R}^d$ with the")
    b = paper(2, "Robot grasping policies (https://anonymous.4open.science/r/abc-123), in $\\mathbb{R}^d$ with the")
    index = SimilarityIndex([a, b, paper(3, "Other chemistry."), paper(4, "Other robot.")])
    assert "test:2" not in {pid for pid, _ in index.similar_to("test:1")}
    assert index.similar_to("test:1")  # it is like the other chemistry paper


def test_plurals_case_and_unicode_fold_together() -> None:
    """``Policies``/``policy``, ``Experts``/``expert`` and the ``ﬁ`` ligature (NFKC) match."""
    a = paper(1, "Efficient ﬁne-tuning of Policies with Experts.", title="Ｐｏｌｉｃｉｅｓ")
    b = paper(2, "efficient fine tuning of a policy with an expert.", title="policy")
    c = paper(3, "Unrelated chemistry of crystals.")
    index = SimilarityIndex([a, b, c, paper(4, "More crystals.")])
    assert [pid for pid, _ in index.similar_to("test:1")] == ["test:2"]
    assert set(index.shared_terms("test:1", "test:2", 10)) >= {"policy", "expert", "fine", "tuning"}


def test_fold_plural() -> None:
    cases = {"policies": "policy", "models": "model", "experts": "expert", "gnns": "gnn", "classes": "classe"}
    cases |= {"loss": "loss", "analysis": "analysis", "corpus": "corpus", "gas": "gas", "moe": "moe"}
    assert {word: fold_plural(word) for word in cases} == cases


def test_one_paper_no_papers_and_papers_without_words() -> None:
    single = SimilarityIndex([paper(1, "A lonely abstract about anything.")])
    assert len(single) == 1 and single.similar_to("test:1") == [] and single.rank_by_liked(["test:1"]) == []
    empty = SimilarityIndex([])
    assert len(empty) == 0 and empty.rank_by_liked(["x"]) == [] and empty.term_count == 0
    blank = [paper(1, "", derived=True), paper(2, "n/a", derived=True), paper(3, "."), paper(4, "Real words here.")]
    index = SimilarityIndex([*blank, paper(5, "Real words again.")])
    assert not index.has_words("test:1") and index.similar_to("test:1") == []
    assert index.rank_by_liked(["test:1", "test:2"]) == []  # liked papers with no words: nothing to rank by
    assert index.has_words("test:4") and [pid for pid, _ in index.similar_to("test:4")] == ["test:5"]


def test_nothing_liked_or_unknown_ids() -> None:
    index = SimilarityIndex([paper(1, "Speech recognition models."), paper(2, "Speech synthesis models.")])
    assert index.rank_by_liked([]) == []
    assert index.rank_by_liked(["test:404"]) == []  # ids not in the index are ignored
    ranked = index.rank_by_liked(["test:1", "test:404"])
    assert [pid for pid, _ in ranked] == ["test:2"] and ranked[0][1] > 0
    with pytest.raises(UnknownPaper) as caught:
        index.similar_to("test:404")
    assert (
        isinstance(caught.value, PaperdeckError) and "\n" not in str(caught.value) and "test:404" in str(caught.value)
    )
    with pytest.raises(ValueError):
        index.similar_to("test:1", -1)


def test_importing_the_module_does_not_import_numpy() -> None:
    """numpy is imported on the first index, so that the app's start-up does not pay for it."""
    code = "import sys, paperdeck.search.similar; print('numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# paperdeck similar --------------------------------------------------------------------------------


def test_cli_similar_and_similar_starred(
    tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    run(capsys, "import", *map(str, seed_files), "--data-dir", data)
    code, out, _ = run(capsys, "search", "REAP", "--limit", "1", "--json", "--data-dir", data)
    reap = json.loads(out)[0]
    code, out, err = run(capsys, "similar", reap["id"], "--limit", "3", "--json", "--data-dir", data)
    assert code == 0, err
    found = json.loads(out)
    assert len(found) == 3 and reap["id"] not in {p["id"] for p in found}
    assert "Pruning" in found[0]["title"]  # the seeds' other expert-pruning paper (DTP)
    scores = [p["similarity"] for p in found]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)
    code, out, _ = run(capsys, "similar", reap["id"], "--limit", "2", "--data-dir", data)
    assert code == 0 and len(out.splitlines()) == 2 and out.startswith(f"{scores[0]:.3f} ")

    code, out, err = run(capsys, "similar", "--starred", "--data-dir", data)
    assert code == 1 and out == "" and err.count("\n") == 1 and "nothing is starred" in err  # nothing to do
    run(capsys, "star", reap["id"], "--data-dir", data)
    code, out, err = run(capsys, "similar", "--starred", "--limit", "0", "--json", "--data-dir", data)
    assert code == 0, err
    ranked = json.loads(out)
    assert len(ranked) == 36 and reap["id"] not in {p["id"] for p in ranked}
    assert ranked[0]["id"] == found[0]["id"]  # one starred paper: its most similar comes first

    for args in ((), (reap["id"], "--starred")):
        code, _, err = run(capsys, "similar", *args, "--data-dir", data)
        assert code == 2 and err.startswith("paperdeck: similar: give a paper ID or --starred")
    code, _, err = run(capsys, "similar", "nope", "--data-dir", data)
    assert code == 2 and err.startswith("paperdeck: no paper with id 'nope'")
