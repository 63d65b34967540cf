"""Phrases on the whole conference (``data``, ``slow``): a quoted phrase keeps exactly the papers
whose text holds its words one after another, checked against a scan here of every review section
and every paper's fields, folded as every search folds (:func:`paperdeck.text.fold.fold_text`), and
split into words independently of the index and of the corpus's patterns."""

from __future__ import annotations

import re
import time

import pytest
from paperdeck.cli.selecting import select_ids
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.text.fold import fold_text

from tests.helpers import SHARED_DATA, SHARED_REVIEWS, review_parts, submission_parts

pytestmark = [pytest.mark.slow, pytest.mark.data]

_WORD = re.compile(r"[^\W_]+")

#: ``(phrase as typed, substring form)``: the issue's phrase first.
REVIEW_PHRASES = [
    ("weak baseline", False),
    ("lack of novelty", False),
    ("data leakage", False),
    ("ablation stud", True),
    ("the proposed method is", False),
]
#: ``(field, phrase, substring form)``; ``phrase``: a bare quoted phrase (title, keywords, abstract).
TEXT_PHRASES = [
    ("title", "large language", False),
    ("abstract", "state of the art", False),
    ("abstract", "weak baseline", False),
    ("phrase", "graph neural", False),
    ("phrase", "ion model", True),
    ("keyword", "reinforcement learning", False),
]


def _holds(words: list[str], phrase: list[str], inner: bool) -> bool:
    """Whether ``words`` hold ``phrase`` one after another: the first whole (``inner``: a word
    ending with it), the middle ones whole, the last a word's start."""
    count = len(phrase)
    for i in range(len(words) - count + 1):
        first = words[i].endswith(phrase[0]) if inner else words[i] == phrase[0]
        if first and words[i + 1 : i + count - 1] == phrase[1:-1] and words[i + count - 1].startswith(phrase[-1]):
            return True
    return False


def _texts(paper: Paper, field: str) -> list[str]:
    """The separate texts of a paper's ``field`` (each author, each keyword apart)."""
    texts = {"title": [paper.title], "abstract": [paper.abstract], "keyword": list(paper.keywords)}
    texts["phrase"] = texts["title"] + texts["keyword"] + texts["abstract"]
    return texts[field]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    data = tmp_path_factory.mktemp("phrases") / "data"
    import_files(Store(data), [*submission_parts(SHARED_DATA), *review_parts(SHARED_REVIEWS)])
    return Store(data)


def test_review_phrases_keep_exactly_the_papers_whose_reviews_hold_them(store: Store) -> None:
    phrases = [(fold_text(text).split(), inner) for text, inner in REVIEW_PHRASES]
    expected: list[set[str]] = [set() for _ in phrases]
    known = set(store.paper_ids)
    for forum, notes in store.reviews.reviews_of(sorted(store.reviews.summaries())):
        sections = [_WORD.findall(fold_text(t)) for n in notes for _, t in (*n.sections, *n.score_labels)]
        for found, (phrase, inner) in zip(expected, phrases, strict=True):
            if any(_holds(words, phrase, inner) for words in sections):
                found.add(f"openreview:{forum}")
    for (text, inner), found in zip(REVIEW_PHRASES, expected, strict=True):
        found &= known
        assert found, text
        assert set(select_ids(store, f'review:"{"*" if inner else ""}{text}"')) == found, text
    loose = set(select_ids(store, "review:weak review:baseline"))
    assert len(expected[0]) * 10 < len(loose)  # the words anywhere are many times the phrase


def test_text_phrases_keep_exactly_the_papers_whose_fields_hold_them(store: Store) -> None:
    papers = store.papers
    for field, text, inner in TEXT_PHRASES:
        phrase = fold_text(text).split()
        expected = {
            p.id for p in papers if any(_holds(_WORD.findall(fold_text(t)), phrase, inner) for t in _texts(p, field))
        }
        assert expected, text
        value = f'"{"*" if inner else ""}{text}"'
        typed = value if field == "phrase" else f"{field}:{value}"
        assert set(select_ids(store, typed)) == expected, typed


#: ``review:`` queries timed: phrases and single words, alone and with other terms.
TIMED = [
    'review:"weak baseline"', 'review:"lack of novelty"', 'review:"data leakage"', 'review:"*ablation stud"',
    "review:baseline", "review:*former", "-review:theorem", "review:hallucinat decision:accept",
    "diffusion review:reproducib", "review:llm OR review:agent",
]  # fmt: skip


@pytest.mark.perf
def test_review_queries_phrases_included_stay_under_150_ms_of_cpu_at_p95(store: Store) -> None:
    """CPU time (``time.process_time``: what other processes on the machine take is not counted),
    each query once to warm (the word order's pages read), then 5 rounds."""
    from paperdeck.search.query import parse_query
    from paperdeck.search.searcher import Searcher
    from paperdeck.search.selection import run_query

    searcher = Searcher(store)
    searcher.index.get()
    for text in TIMED:
        run_query(searcher, parse_query(text))
    times = []
    for _ in range(5):
        for text in TIMED:
            started = time.process_time()
            run_query(searcher, parse_query(text))
            times.append(time.process_time() - started)
    times.sort()
    p95 = times[round(0.95 * (len(times) - 1))]
    assert p95 < 0.150, f"p95 {p95 * 1000:.0f} ms of CPU"
