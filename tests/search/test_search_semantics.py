"""The query language means what a reader means, checked on real ICLR 2026 data against counts
computed here from the shared files with plain json and pyarrow, not with paperdeck:

- ``decision:accept`` is every accepted paper; every badge word and group names its decisions;
- ``x`` and ``-x`` split the store in two for every kind of term (hypothesis over terms made from
  the slice's own words, and every example of the README's query section);
- field terms match word starts (``title:lora`` is not "Exploration"), ``*`` anywhere;
- case and accents fold: ``author:tramer`` finds every Tramèr.

The cuts of the real files in ``tests/data/`` keep this fast: the dump's cut plus the safety
papers' cut (the ones with authors, every accented name among them), with their Parquet decisions;
the same checks on the whole dump are marked slow and data.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paperdeck.model.decision import BADGES
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import run_query
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import DECISIONS_NAME, FIXTURES, REPO, SAFETY_NAME, SHARED_DATA, submission_parts


@dataclass
class Slice:
    """A store of real papers, with what the shared files say about them."""

    store: Store
    searcher: Searcher
    titles: dict[str, str]  # paper id → title as the last file imported gives it
    statuses: dict[str, str]  # paper id → the Parquet status, for the accepted ones
    withdrawn: set[str]  # paper ids the dump marks withdrawn
    authors: dict[str, list[str]]  # paper id → authors, for the safety subset

    def run(self, text: str) -> list[str]:
        query = parse_query(text)
        assert query.error is None, (text, query.error)
        return run_query(self.searcher, query)


def _plain_fold(text: str) -> str:
    """Case and accents folded, independently of paperdeck: NFKD, combining marks dropped, lower case."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def make_slice(tmp: Path, every: int, folder: Path = FIXTURES) -> Slice:
    """The papers of every ``every``-th line of the dump and all of the safety subset (the files
    in ``folder``: the cuts, or the whole files), imported with the Parquet rows of those papers
    and the safety subset's authors."""
    dump_parts = submission_parts(folder)
    decisions_file, authors_file = folder / DECISIONS_NAME, folder / SAFETY_NAME
    authors: dict[str, list[str]] = {}
    titles: dict[str, str] = {}
    with authors_file.open(encoding="utf-8") as lines:
        safety = [json.loads(line) for line in lines if line.strip()]
    for record in safety:
        authors[f"openreview:{record['id']}"] = record["authors"]
    wanted = {record["id"] for record in safety}
    kept_lines: list[str] = []
    withdrawn: set[str] = set()
    for path in dump_parts:
        with path.open(encoding="utf-8") as lines:
            for n, line in enumerate(lines):
                record = json.loads(line)
                if n % every == 0 or record["id"] in wanted:
                    kept_lines.append(line)
                    titles[f"openreview:{record['id']}"] = record["content"]["title"]
                    if record["withdrawn"]:
                        withdrawn.add(f"openreview:{record['id']}")
    ids = {pid.removeprefix("openreview:") for pid in titles}
    dump = tmp / "dump-slice.jsonl"
    dump.write_text("".join(kept_lines), encoding="utf-8")
    table = pq.read_table(decisions_file)
    table = table.filter(pa.compute.is_in(table["openreview_id"], value_set=pa.array(sorted(ids))))
    decisions = tmp / "decisions-slice.parquet"
    pq.write_table(table, decisions)
    statuses = {}
    for row in table.select(["openreview_id", "title", "status"]).to_pylist():
        statuses[f"openreview:{row['openreview_id']}"] = row["status"]
        titles[f"openreview:{row['openreview_id']}"] = row["title"]
    for record in safety:
        titles[f"openreview:{record['id']}"] = record["title"]
    store = Store(tmp / "data")
    import_files(store, [dump, decisions, authors_file])
    some = store.paper_ids[::97]
    for n, pid in enumerate(some):  # user fields, for the user terms and notes
        store.set_star(pid, n % 2 == 0)
        store.set_note(pid, ["robust preference lora", "Tramèr et al. baseline", "re-read §3"][n % 3])
        store.set_status(pid, ("to-read", "read", "skimmed")[n % 3])
    store.change(some[::4], lambda record: record.replaced(tags=("must-read",)))
    return Slice(store, Searcher(store), titles, statuses, withdrawn, authors)


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Slice]:
    yield make_slice(tmp_path_factory.mktemp("slice"), every=1)


# --- counts from the files -----------------------------------------------------------------------


def check_counts(real: Slice) -> None:
    accepted = set(real.statuses)
    assert accepted and set(real.run("decision:accept")) == accepted
    assert set(real.run("decision:accepted")) == accepted == set(real.run("decision:acc"))
    conditional = {pid for pid, status in real.statuses.items() if "Conditional" in status}
    assert set(real.run("decision:cond")) == conditional == set(real.run("decision:COND"))
    orals = {pid for pid, status in real.statuses.items() if status.endswith("Oral")}
    assert set(real.run("decision:oral")) == orals - conditional
    assert set(real.run("decision:withdrawn")) == real.withdrawn - accepted
    assert set(real.run("-decision:accept")) == set(real.store.paper_ids) - accepted

    lora = {pid for pid, title in real.titles.items() if re.search(r"(?<![a-z0-9])lora", _plain_fold(title))}
    inside = {pid for pid, title in real.titles.items() if "lora" in _plain_fold(title)}
    assert set(real.run("title:lora")) == lora
    assert set(real.run("title:*lora")) == inside
    assert not any("exploration" in _plain_fold(real.titles[pid]) and pid not in lora for pid in real.run("title:lora"))

    tramer = {pid for pid, names in real.authors.items() if any("tramer" in _plain_fold(name) for name in names)}
    assert tramer  # the safety subset has some
    for text in ("author:tramer", "author:tramèr", "author:Tramèr", "author:TRAMER"):
        assert set(real.run(text)) == tramer, text
    assert tramer <= set(real.run("tramer")) == set(real.run("tramèr"))


def test_counts_agree_with_the_shared_files(real: Slice) -> None:
    check_counts(real)


def test_every_badge_word_is_a_decision_value(real: Slice) -> None:
    for decision, badge in BADGES.items():
        query = parse_query(f"decision:{badge.strip()}")
        assert query.error is None, badge
        kept = set(run_query(real.searcher, query))
        having = {pid for pid in real.store.paper_ids if (p := real.store.paper(pid)) and p.decision == decision}
        assert having <= kept, badge
    assert "unknown decision 'maybe'" in (parse_query("decision:maybe").error or "")


# --- x and -x split the store in two ------------------------------------------------------------


def check_partition(real: Slice, term: str) -> None:
    everything = set(real.store.paper_ids)
    kept, left = real.run(term), real.run(f"-{term}" if not term.startswith("(") else f"NOT {term}")
    assert len(kept) == len(set(kept)) and len(left) == len(set(left))
    assert not set(kept) & set(left), term
    assert set(kept) | set(left) == everything, term
    grouped = real.run(f"NOT ({term})")
    assert set(grouped) == set(left), term


def _readme_examples() -> list[str]:
    """Every query written in the README's filter-bar section (the table and the examples)."""
    text = (REPO / "docs" / "query.md").read_text(encoding="utf-8")  # the query page (its prose: docs/src)
    section = text[text.index("## Words rank, terms filter") : text.index("## Saved views")]
    found = []
    for snippet in re.findall(r"`([^`]+)`", section):
        query = parse_query(snippet)
        if query.error is None and not query.like and (query.words or query.tree is not None):
            found.append(snippet)
    return found


def test_the_readme_documents_many_queries() -> None:
    assert len(_readme_examples()) > 25


@pytest.mark.parametrize("term", _readme_examples())
def test_each_readme_example_and_its_negation_split_the_store(real: Slice, term: str) -> None:
    check_partition(real, term if " " not in term else f"({term})")


@pytest.fixture(scope="module")
def vocabulary(real: Slice) -> list[str]:
    words: set[str] = set()
    for title in list(real.titles.values())[::5]:
        words.update(re.findall(r"[^\W_]+", title))
    return sorted(words - {"AND", "OR", "NOT"})  # the query's operators (a title in capitals has them)


def terms(vocabulary: list[str]) -> st.SearchStrategy[str]:
    word = st.sampled_from(vocabulary)
    typed = st.one_of(
        word,
        word.map(lambda w: w[: max(1, len(w) // 2)]),  # a prefix
        word.map(lambda w: w[:-1] + "x" if len(w) > 4 else w),  # a typo
        st.sampled_from(["rl", "gan", "lora", "llm", "a", "Tramèr", "dpo:", "p<0.05", "ε", "über"]),
    )
    field = st.sampled_from(["title", "author", "keyword", "area", "abstract", "note"])
    star = st.sampled_from(["", "*"])
    plain = st.one_of(
        typed,
        st.tuples(word, word).map(lambda pair: f'"{pair[0]} {pair[1]}"'),
        st.tuples(field, star, typed).map(lambda t: f"{t[0]}:{t[1]}{t[2]}"),
        st.tuples(field, word, word).map(lambda t: f'{t[0]}:"{t[1]} {t[2]}"'),
        st.sampled_from(["accept", "acc", "cond", "oral", "poster", "reject", "withdrawn", "desk", "pending", "w"]).map(
            "decision:{}".format
        ),
        st.sampled_from(["rating>=6", "rating:3..5", "rating<4", "year:2026", "has:rating", "has:note"]),
        st.sampled_from(["is:starred", "status:to-read", "status:unseen", "tag:must", "has:tags"]),
    )
    return st.one_of(
        plain,
        st.tuples(plain, plain).map(lambda pair: f"({pair[0]} OR {pair[1]})"),
        st.tuples(plain, plain).map(lambda pair: f"({pair[0]} {pair[1]})"),
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_term_and_its_negation_split_the_store(real: Slice, vocabulary: list[str], data: st.DataObject) -> None:
    check_partition(real, data.draw(terms(vocabulary)))


@pytest.mark.parametrize("term", ["rl", "gan", "lora", "diffusion", '"large language"', "title:lora", "author:tramer"])
def test_the_issue_examples_split_the_store(real: Slice, term: str) -> None:
    check_partition(real, term)


# --- the whole dump ----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.data
def test_counts_and_splits_on_the_whole_dump(tmp_path: Path) -> None:
    whole = make_slice(tmp_path, every=1, folder=SHARED_DATA)
    assert len(whole.store.paper_ids) == 19_630
    check_counts(whole)
    assert len(whole.run("decision:accept")) == 5_358
    for term in ("rl", "gan", "lora", '"large language"', "title:lora", *_readme_examples()):
        check_partition(whole, term if " " not in term else f"({term})")


def test_similar_papers_fold_accents_and_case() -> None:
    """Two papers that differ only in accents and case share every term."""
    from paperdeck.model.paper import Paper
    from paperdeck.search.similar import SimilarityIndex

    accented = "Vérifiable privacy attacks on Ångström-scale models by Tramèr"
    papers = [
        Paper(id="p:1", title="Privacy attacks", abstract=accented),
        Paper(
            id="p:2", title="PRIVACY ATTACKS", abstract="Verifiable privacy attacks on angstrom-scale models by Tramer"
        ),
        Paper(id="p:3", title="Graph networks", abstract="Message passing over molecules and proteins."),
    ]
    index = SimilarityIndex(papers)
    (best, score), *_ = index.similar_to("p:1")
    assert best == "p:2" and score > 0.99
    assert {"tramer", "verifiable"} <= set(index.shared_terms("p:1", "p:2", limit=20))


def test_a_soft_hyphen_inside_a_word_does_not_split_it_for_search() -> None:
    """Real ICLR 2026 titles and abstracts hold soft hyphens ("Logical Rea\\u00adsoning"): the word
    is found whole, by every kind of term, and a review's word too."""
    from paperdeck.search.words import fold_text, words
    from paperdeck.store.review_words import review_words

    assert words("Symbolic Logical Rea\u00adsoning") == ["symbolic", "logical", "reasoning"]
    assert fold_text("Rea\u00adsoning") == "reasoning"
    assert review_words("rea\u00adsoning") == ["reasoning"]
