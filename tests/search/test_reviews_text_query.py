"""``review:`` terms over the review text, checked against words read straight from a slice of the
real review parts; the word index kept right through re-imports and changed notes."""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paperdeck.cli.selecting import select_ids
from paperdeck.model.errors import StoreError
from paperdeck.search.query import QUERY_HELP, parse_query
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import REPO, review_parts, submissions_of

PARTS = review_parts()
TERMS = ["baseline", "ablation", "theorem", "reproducib", "llm", "hallucinat", "convergence"]


def _head_lines(path: Path, count: int, skip: int = 0) -> list[bytes]:
    with gzip.open(path, "rb") as handle:
        lines = [line for _, line in zip(range(skip + count), handle, strict=False)]
    return lines[skip:]


def _texts(note: dict[str, Any]) -> list[str]:
    """Every text of a note's content, straight from the file (lists of text joined)."""
    found = []
    for field in (note.get("content") or {}).values():
        value = field.get("value") if isinstance(field, dict) else None
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            found += [item for item in value if isinstance(item, str)]
    return found


def _words(text: str) -> set[str]:
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    folded = "".join(c for c in folded if not 0x300 <= ord(c) < 0x370)
    return set(re.findall(r"[^\W_]+", folded))


def _slice(tmp: Path, count: int, skip: int = 0) -> tuple[list[Path], dict[str, set[str]]]:
    """``count`` lines of every part (after ``skip``) as gzip files; the words of each forum."""
    paths, words = [], defaultdict(set)
    for number, part in enumerate(PARTS, start=1):
        lines = _head_lines(part, count, skip)
        for line in lines:
            note = json.loads(line)
            for text in _texts(note):
                words[note["forum"]] |= _words(text)
        path = tmp / f"part{number}.{skip}.jsonl.gz"
        path.write_bytes(gzip.compress(b"".join(lines)))
        paths.append(path)
    return paths, dict(words)


def _papers(tmp: Path, forums: set[str]) -> Path:
    return submissions_of(forums, tmp / "papers.jsonl")


def _having(words: dict[str, set[str]], *values: str, inner: bool = False) -> set[str]:
    def has(found: set[str], value: str) -> bool:
        return any((value in w) if inner else w.startswith(value) for w in found)

    return {f"openreview:{forum}" for forum, found in words.items() if all(has(found, v) for v in values)}


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, dict[str, set[str]]]:
    tmp = tmp_path_factory.mktemp("review-text")
    paths, words = _slice(tmp, 150)
    store = Store(tmp / "data")
    import_files(store, [_papers(tmp, set(words)), *paths])
    return store, words


@pytest.mark.parametrize("term", TERMS)
def test_review_terms_find_the_papers_whose_review_text_has_the_word(
    reviewed: tuple[Store, dict[str, set[str]]], term: str
) -> None:
    store, words = reviewed
    expected = _having(words, term)
    assert expected, term
    assert set(select_ids(store, f"review:{term}")) == expected
    assert set(select_ids(store, f"-review:{term}")) == set(store.paper_ids) - expected
    assert set(select_ids(store, f"NOT review:{term.upper()}")) == set(store.paper_ids) - expected


def test_substring_form_several_words_and_combinations(reviewed: tuple[Store, dict[str, set[str]]]) -> None:
    store, words = reviewed
    assert set(select_ids(store, "review:*former")) == _having(words, "former", inner=True)
    assert set(select_ids(store, "review:weak review:baseline")) == _having(words, "weak", "baseline")
    either = _having(words, "theorem") | _having(words, "hallucinat")
    assert set(select_ids(store, "review:theorem OR review:hallucinat")) == either
    assert set(select_ids(store, "review:zzqqxxnotaword")) == set()
    assert parse_query("review:").error is not None


def _sections(store: Store) -> dict[str, list[list[str]]]:
    """Each forum's review text, section by section, as words (folded, straight from the notes)."""
    from paperdeck.text.fold import fold_text

    forums = sorted(store.reviews.summaries())
    return {
        f"openreview:{forum}": [
            re.findall(r"[^\W_]+", fold_text(text))
            for note in notes
            for _, text in (*note.sections, *note.score_labels)
        ]
        for forum, notes in store.reviews.reviews_of(forums)
    }


def _holding(sections: dict[str, list[list[str]]], phrase: list[str], inner: bool = False) -> set[str]:
    """The forums whose sections hold ``phrase``: its words one after another, the first whole
    (``inner``: a word ending with it), the middle ones whole, the last a word's start."""

    def holds(words: list[str]) -> bool:
        count = len(phrase)
        for i in range(len(words) - count + 1):
            first = words[i].endswith(phrase[0]) if inner else words[i] == phrase[0]
            if first and words[i + 1 : i + count - 1] == phrase[1:-1] and words[i + count - 1].startswith(phrase[-1]):
                return True
        return False

    return {forum for forum, texts in sections.items() if any(holds(words) for words in texts)}


PHRASES = [("weak baseline", False), ("the proposed method", False), ("eak baseline", True), ("of the", False)]


def test_a_review_phrase_keeps_exactly_the_papers_whose_reviews_hold_it(
    reviewed: tuple[Store, dict[str, set[str]]],
) -> None:
    store, words = reviewed
    sections = _sections(store)
    for phrase, inner in PHRASES:
        expected = _holding(sections, phrase.split(), inner)
        assert expected, phrase
        typed = f'review:"{"*" if inner else ""}{phrase}"'
        assert set(select_ids(store, typed)) == expected, phrase
        assert set(select_ids(store, f"-{typed}")) == set(store.paper_ids) - expected, phrase
    # The phrase is not just both words somewhere (what review:"weak baseline" used to keep).
    assert _holding(sections, ["weak", "baseline"]) < _having(words, "weak", "baseline")


def test_an_index_without_word_order_says_so_and_the_next_import_makes_it_again(tmp_path: Path) -> None:
    paths, words = _slice(tmp_path, 30)
    store = Store(tmp_path / "data")
    import_files(store, [_papers(tmp_path, set(words)), *paths])
    directory = store.reviews.directory
    name = orjson.loads((directory / "index.json").read_bytes())["words"]
    for suffix in ("seq.npy", "seqstarts.npy"):
        (directory / f"{name}.{suffix}").unlink()  # as an older paperdeck wrote it
    assert set(select_ids(Store(store.data_dir), "review:baseline")) == _having(words, "baseline")
    with pytest.raises(StoreError, match=r"no word order.*import the reviews again"):
        select_ids(Store(store.data_dir), 'review:"weak baseline"')
    import_files(Store(store.data_dir), paths[:1])  # nothing new: the index is made again, whole
    fresh = Store(store.data_dir)
    assert set(select_ids(fresh, 'review:"weak baseline"')) == _holding(_sections(fresh), ["weak", "baseline"])


def test_the_word_index_follows_more_imports_and_changed_notes(tmp_path: Path) -> None:
    first, words = _slice(tmp_path, 40)
    more, more_words = _slice(tmp_path, 40, skip=40)
    for forum, found in more_words.items():
        words.setdefault(forum, set()).update(found)
    store = Store(tmp_path / "data")
    import_files(store, [_papers(tmp_path, set(words)), *first])
    import_files(store, more)
    for term in TERMS:
        assert set(select_ids(Store(store.data_dir), f"review:{term}")) == _having(words, term), term
    # A note replaced by a newer version: its old words go, its new ones come.
    note = json.loads(_head_lines(PARTS[0], 1)[0])
    lines = [line for path in [*first, *more] for line in gzip.decompress(path.read_bytes()).splitlines()]
    forum_notes = [json.loads(line) for line in lines]
    forum_notes = [n for n in forum_notes if n["forum"] == note["forum"] and n["id"] != note["id"]]
    note["tmdate"] = int(note.get("tmdate") or 0) + 1
    # its text replaced, its rating kept: a version without one is no version (store.review_history)
    note["content"] = {"comment": {"value": "Quixotically zygomorphic."}, "rating": note["content"]["rating"]}
    changed = tmp_path / "changed.jsonl"
    changed.write_bytes(json.dumps(note).encode() + b"\n")
    import_files(store, [changed])
    rest = set().union(*(_words(t) for n in forum_notes for t in _texts(n)))
    fresh = Store(store.data_dir)
    assert f"openreview:{note['forum']}" in set(select_ids(fresh, "review:zygomorph"))
    assert set(select_ids(fresh, "review:quixotic")) == {f"openreview:{note['forum']}"}
    for term in TERMS:
        kept = f"openreview:{note['forum']}" in set(select_ids(fresh, f"review:{term}"))
        assert kept == any(w.startswith(term) for w in rest), term


def test_reviews_imported_before_the_word_index_get_one_on_the_next_import(tmp_path: Path) -> None:
    paths, words = _slice(tmp_path, 30)
    store = Store(tmp_path / "data")
    import_files(store, [_papers(tmp_path, set(words)), *paths])
    directory = store.reviews.directory
    index = orjson.loads((directory / "index.json").read_bytes())
    for path in directory.glob(f"{index.pop('words')}.*"):
        path.unlink()
    (directory / "index.json").write_bytes(orjson.dumps(index))
    with pytest.raises(StoreError, match=r"no word index yet.*import the reviews again"):
        select_ids(Store(store.data_dir), "review:baseline")  # said, not an empty answer
    import_files(Store(store.data_dir), paths[:1])  # nothing new: the index is built all the same
    assert set(select_ids(Store(store.data_dir), "review:baseline")) == _having(words, "baseline")


def test_review_terms_are_in_the_help_and_the_readme() -> None:
    assert "review:" in QUERY_HELP
    assert "`review:" in (REPO / "docs" / "query.md").read_text(encoding="utf-8")


def _index_sequences(directory: Path, name: str) -> dict[str, list[list[bytes]]]:
    """Each forum's words in order, as the index keeps them, cut into sections at the breaks."""
    import numpy as np
    from paperdeck.store.review_words import WordIndex

    index = WordIndex(directory, name)
    assert index.sequence is not None and index.sequence_starts is not None
    words, brk = index.words(), np.iinfo(index.sequence.dtype).max
    found: dict[str, list[list[bytes]]] = {}
    for n, forum in enumerate(index.forums):
        sections: list[list[bytes]] = [[]]
        for number in index.sequence[index.sequence_starts[n] : index.sequence_starts[n + 1]].tolist():
            if number == brk:
                sections.append([])
            else:
                sections[-1].append(words[number])
        found[forum] = sections
    return found


def _index_words(directory: Path, name: str) -> dict[str, set[bytes]]:
    from paperdeck.store.review_words import WordIndex

    index = WordIndex(directory, name)
    found: dict[str, set[bytes]] = {forum: set() for forum in index.forums}
    for number, word in enumerate(index.words()):
        for paper in index.postings[index.starts[number] : index.starts[number + 1]].tolist():
            found[index.forums[paper]].add(word)
    return found


_PIECES = ["Weak", "baseline", "LLM", "x2", "_", " ", "\n", "-", "’", "—", "\u00a0", "\u200b", "naïve",
           "e\u0301", "Ångström", "αβγ", "Σ", "论文", "ﬁnd", "½", "…", "\u2028", "a" * 70, "é" * 40, "%",
           "$x^2$", "\x1b[31m"]  # fmt: skip


@given(
    papers=st.lists(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join), min_size=1, max_size=6),
    changed=st.sets(st.integers(0, 5), max_size=3),
    batch=st.sampled_from([1 << 22, 64]),
)
@settings(max_examples=60, deadline=None)
def test_the_word_index_holds_exactly_each_papers_words_whatever_the_text(
    papers: list[str], changed: set[int], batch: int
) -> None:
    """The index built in batches of hashed bytes holds, for every paper, the words
    :func:`review_words` finds in its text (cut to their first bytes), and nothing else — also
    when some papers' reviews are replaced on a later import."""
    import tempfile
    from types import SimpleNamespace

    from paperdeck.store.review_words import MAX_WORD_BYTES, WordIndex, WordIndexBuilder, review_words

    def notes(text: str) -> list[Any]:
        return [SimpleNamespace(sections=(("summary", text), ("strengths", f"{text[::-1]}x")), score_labels=())]

    def expected(text: str) -> set[bytes]:
        return {w.encode("utf-8", "surrogatepass")[:MAX_WORD_BYTES] for w in review_words(f"{text} {text[::-1]}x")}

    def in_order(text: str) -> list[list[bytes]]:
        sections = (text, f"{text[::-1]}x")
        return [[w.encode("utf-8", "surrogatepass")[:MAX_WORD_BYTES] for w in review_words(t)] for t in sections]

    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        WordIndexBuilder.BATCH_BYTES, saved = batch, WordIndexBuilder.BATCH_BYTES
        try:
            first = WordIndexBuilder(None)
            for n, text in enumerate(papers):
                first.add(f"f{n}", notes(text))
            first.write(directory, "words.g1")
            assert _index_words(directory, "words.g1") == {f"f{n}": expected(t) for n, t in enumerate(papers)}
            assert _index_sequences(directory, "words.g1") == {f"f{n}": in_order(t) for n, t in enumerate(papers)}
            again = WordIndexBuilder(WordIndex(directory, "words.g1"))
            texts = {f"f{n}": text for n, text in enumerate(papers)}
            for n in sorted(changed):
                texts[f"f{n}"] = f"Zygomorphic {papers[-1 - n % len(papers)]} quixotic"
                again.add(f"f{n}", notes(texts[f"f{n}"]))
            again.write(directory, "words.g2")
        finally:
            WordIndexBuilder.BATCH_BYTES = saved
        assert _index_words(directory, "words.g2") == {forum: expected(text) for forum, text in texts.items()}
        assert _index_sequences(directory, "words.g2") == {forum: in_order(text) for forum, text in texts.items()}


def test_a_word_index_made_in_a_process_of_its_own_is_the_one_made_here(tmp_path: Path) -> None:
    """What a large import does (batches folded by a spawned process, the index written there):
    the same files as the batches folded here, and a write that fails says so in one line."""
    from types import SimpleNamespace

    from paperdeck.store.review_words import WordIndex, WordIndexBuilder

    texts = {f"f{n}": f"Weak baseline {n}; naïve — “LLM” Ångström {'x' * n}" for n in range(40)}
    made = {}
    saved = WordIndexBuilder.BATCH_BYTES
    WordIndexBuilder.BATCH_BYTES = 256  # several batches
    try:
        for in_process in (False, True):
            directory = tmp_path / str(in_process)
            directory.mkdir()
            first = WordIndexBuilder(None, in_process=in_process)
            for forum, text in texts.items():
                first.add(forum, [SimpleNamespace(sections=(("summary", text),), score_labels=())])
            first.write(directory, "words.g1")
            again = WordIndexBuilder(WordIndex(directory, "words.g1"), in_process=in_process)
            for n in range(0, 40, 3):
                again.add(f"f{n}", [SimpleNamespace(sections=(("summary", "quixotic"),), score_labels=())])
            again.write(directory, "words.g2")
            made[in_process] = {p.name: p.read_bytes() for p in directory.iterdir()}
        assert made[True] == made[False]
        broken = WordIndexBuilder(None, in_process=True)
        for forum, text in texts.items():
            broken.add(forum, [SimpleNamespace(sections=(("summary", text),), score_labels=())])
        with pytest.raises(StoreError) as caught:
            broken.write(tmp_path / "missing" / "dir", "words.g1")
        assert "\n" not in str(caught.value) and "missing" in str(caught.value)
    finally:
        WordIndexBuilder.BATCH_BYTES = saved


def test_a_word_index_written_tells_its_parts_here_and_in_its_process(tmp_path: Path) -> None:
    """The reviews' word index was written in one call (in its process: no progress while it
    ran); its parts (each batch's pairs read back, each bucket of postings, each batch of words
    in order) are told as they are done, as a percentage that never goes back, from the process
    too (sent, then taken while the import waits). Counted, not timed."""
    from types import SimpleNamespace

    from paperdeck.store.review_words import WordIndexBuilder

    texts = {f"f{n}": f"Weak baseline {n}; naïve — “LLM” Ångström {'x' * n} word{n}" for n in range(60)}
    saved = (WordIndexBuilder.BATCH_BYTES, WordIndexBuilder.BUCKET_PAIRS)
    WordIndexBuilder.BATCH_BYTES, WordIndexBuilder.BUCKET_PAIRS = 256, 64  # several batches and buckets
    told: dict[bool, list[tuple[int, int]]] = {}
    try:
        for in_process in (False, True):
            directory = tmp_path / str(in_process)
            directory.mkdir()
            builder = WordIndexBuilder(None, in_process=in_process)
            for forum, text in texts.items():
                builder.add(forum, [SimpleNamespace(sections=(("summary", text),), score_labels=())])
            counts: list[tuple[int, int]] = []
            told[in_process] = counts
            builder.write(directory, "words.g1", told=lambda done, total, counts=counts: counts.append((done, total)))
    finally:
        WordIndexBuilder.BATCH_BYTES, WordIndexBuilder.BUCKET_PAIRS = saved
    here = told[False]
    percents = [done for done, _ in here]
    assert len(here) > 10 and all(total == 100 for _, total in here)
    assert percents == sorted(set(percents)) and percents[0] > 0 and percents[-1] == 100  # never back
    # from the process (its own class attributes: one bucket, the batches as here): at least its last count
    assert told[True][-1] == (100, 100)
    assert [d for d, _ in told[True]] == sorted({d for d, _ in told[True]})
