"""Words in scripts written without spaces (CJK, kana, Thai…) are found inside a run, as ``note:``
finds them: such a run is one "word" of the index, with no word starts inside it.

The Japanese title is the hostile store's (tester round 16: ``/tmp/tester16/hd``), the note the
one that tester piped into ``paperdeck note`` (``…第二行 中文``); the Thai abstract is made up."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.highlight import highlight_terms, text_spans
from paperdeck.search.index import SearchIndex
from paperdeck.store.store import Store

JAPANESE = "超長い 日本語のタイトル：大規模言語モデルの全角文字テスト 🎉🎉🎉 עברית ערבית مرحبا بالعالم"
PAPERS = [
    Paper(id="openreview:J", title=JAPANESE, abstract="An abstract."),
    Paper(id="openreview:A", title="Diffusion sampling", abstract="本文では言語を扱う。"),
    Paper(id="openreview:K", title="Graph networks", abstract="x", keywords=("機械学習",), authors=("山田太郎",)),
    Paper(id="openreview:T", title="Exploration of LoRA", abstract="ภาษาไทยเป็นภาษาที่ไม่มีช่องว่าง"),
]
NOTES = {"openreview:K": "first line\n第二行 中文"}


@pytest.fixture
def index() -> SearchIndex:
    return SearchIndex(PAPERS, NOTES)


def found(index: SearchIndex, query: str) -> set[str]:
    return {pid.removeprefix("openreview:") for pid in index.search_ids(query)}


def test_a_word_of_an_unspaced_script_is_found_inside_a_run(index: SearchIndex) -> None:
    """A tester's find: ``言語`` and ``タイトル`` found nothing (only a run's start matched:
    ``大規模言語モデル``), ``二行`` not the note ``note:二行`` found."""
    assert found(index, "言語") == {"J", "A"}  # a title's run, an abstract's
    assert found(index, "タイトル") == {"J"}
    assert found(index, "大規模言語モデル") == {"J"}  # a run's start, as before
    assert found(index, "学習") == {"K"}  # a keyword
    assert found(index, "太郎") == {"K"}  # an author
    assert found(index, "二行") == found(index, "中文") == {"K"}  # the note
    assert found(index, "ไม่มี") == {"T"}  # Thai, in an abstract
    assert found(index, "言語 テスト") == {"J"}  # every word, as always
    assert found(index, "言語 graph") == set()


def test_latin_words_still_match_from_a_word_start(index: SearchIndex) -> None:
    from paperdeck.search.words import unspaced

    assert found(index, "lora") == {"T"} and found(index, "ora") == set()  # not inside "Exploration"
    assert not unspaced("exploration") and not unspaced("tramèr") and not unspaced("모델")  # Hangul is spaced
    assert unspaced("言語") and unspaced("ภาษา") and unspaced("llm中文")


def test_a_match_inside_a_run_ranks_as_a_prefix_does(index: SearchIndex) -> None:
    """In the title above in the abstract, as for any word; not marked as a typo."""
    assert index.search_ids("言語")[0] == "openreview:J"
    assert index.typo_words("言語") == ()


def test_the_part_found_inside_a_run_is_highlighted() -> None:
    spans = text_spans(JAPANESE, highlight_terms(["言語", "テスト"]))
    assert [JAPANESE[low:high] for low, high in spans] == ["言語", "テスト"]
    thai = "ภาษาไทยเป็นภาษา and LoRA"
    spans = text_spans(thai, highlight_terms(["ภาษา", "lora"]))
    assert [thai[low:high] for low, high in spans] == ["ภาษา", "ภาษา", "LoRA"]


def test_paperdeck_search_finds_a_note_s_word_inside_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from paperdeck.cli.main import main

    store = Store(tmp_path / "data")
    store.import_papers(PAPERS)
    store.set_note("openreview:K", NOTES["openreview:K"])
    for query in ("二行", "言語", "タイトル"):
        assert main(["search", query, "--data-dir", str(store.data_dir)]) == 0, query
        out = capsys.readouterr().out
        assert ("openreview:K" if query == "二行" else "openreview:J") in out, (query, out)


def test_a_tag_term_of_an_unspaced_script_matches_inside_a_tag() -> None:
    """``tag:`` keeps a tag starting so; a tag in such a script has no starts inside it either."""
    from paperdeck.model.paper import UserData
    from paperdeck.search.corpus import TextCorpus
    from paperdeck.search.query import parse_query
    from paperdeck.search.selection import PaperLookups

    users = {"openreview:K": UserData("openreview:K", tags=("機械学習", "must-read"))}
    index, corpus = SearchIndex(PAPERS), TextCorpus(PAPERS)
    lookups = PaperLookups(lambda: PAPERS, lambda: users, lambda: index, lambda: corpus)

    def kept(text: str) -> list[str]:
        mask = parse_query(text).mask(lookups)
        assert mask is not None
        return [paper.id.removeprefix("openreview:") for n, paper in enumerate(PAPERS) if mask[n]]

    assert kept("tag:学習") == kept("tag:機械") == kept("tag:機械学習") == ["K"]
    assert kept("tag:must") == ["K"] and kept("tag:ust") == []  # a Latin tag: from its start, as before
