"""A bare id names the paper that has it under any kind of id (``a774902a887c6233`` for
``abs:a774902a887c6233``, as ``ukGxWd2aDG`` names ``openreview:ukGxWd2aDG``) in every one-paper
command, by the quick path as by the full one; an id two papers have is one line naming both.
Found by a README-only tester: ``show a774902a887c6233`` said "no paper with id"."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.cli import quick
from paperdeck.cli.main import main
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store

from tests.helpers import SEEDS, fixture

SAFETY = "iclr2026_accepted_safety-subset_openreview-flat.jsonl"


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The accepted safety subset, the seeds (``abs:`` ids), and one id two papers share."""
    data = tmp_path_factory.mktemp("bare-ids") / "data"
    files = [str(fixture(SAFETY)), *(str(path) for path in sorted(SEEDS.glob("*.txt")))]
    assert main(["import", *files, "--data-dir", str(data)]) == 0
    twins = [Paper(id=f"{kind}:Tw1nPaper0", title=f"A {kind} twin", abstract="An abstract, long enough.")
             for kind in ("openreview", "arxiv")]  # fmt: skip
    Store(data).import_papers(twins)
    return data


def _abs_id(data: Path) -> str:
    return next(pid for pid in Store(data).paper_ids if pid.startswith("abs:"))


def _full(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    with monkeypatch.context() as patch:
        patch.setattr(quick, "run", lambda words, leading: None)
        code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_finds_a_seed_paper_by_its_bare_id_on_both_paths(
    store_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    paper_id = _abs_id(store_dir)
    bare = paper_id.removeprefix("abs:")
    code, out, err = _full(capsys, monkeypatch, "show", bare, "--data-dir", str(store_dir))
    assert (code, err) == (0, "") and paper_id in out
    assert _full(capsys, monkeypatch, "show", paper_id, "--data-dir", str(store_dir))[1] == out
    assert quick.run(["show", bare], str(store_dir)) == 0  # the quick path answers: no whole read
    assert capsys.readouterr().out == out


@pytest.mark.parametrize(
    "command",
    [["star"], ["note", "--text", "a note"], ["tag", "later"], ["status", "to-read"], ["reviews"]],
    ids=lambda c: c[0],
)
def test_every_one_paper_command_takes_the_bare_id(
    store_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    paper_id = _abs_id(store_dir)
    name, *rest = command
    code, _, err = _full(capsys, monkeypatch, name, paper_id.removeprefix("abs:"), *rest, "--data-dir", str(store_dir))
    assert "no paper with id" not in err
    if name != "reviews":
        assert code == 0, err
    record = Store(store_dir).user_data(paper_id)
    assert {"star": record.starred, "note": record.note == "a note", "tag": "later" in record.tags,
            "status": record.status == "to-read", "reviews": True}[name]  # fmt: skip


def test_an_id_two_papers_have_is_one_line_naming_them(
    store_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _full(capsys, monkeypatch, "show", "Tw1nPaper0", "--data-dir", str(store_dir))
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and "arxiv:Tw1nPaper0" in err and "openreview:Tw1nPaper0" in err
    assert quick.run(["show", "Tw1nPaper0"], str(store_dir)) is None  # the full path says it
    code, out, _ = _full(capsys, monkeypatch, "show", "arxiv:Tw1nPaper0", "--data-dir", str(store_dir))
    assert code == 0 and "A arxiv twin" in out


def test_a_pasted_bare_id_in_the_filter_bar_shows_its_paper(store_dir: Path) -> None:
    from paperdeck.search.selection import pasted_paper_term

    store = Store(store_dir)
    paper_id = _abs_id(store_dir)
    assert pasted_paper_term(store, paper_id.removeprefix("abs:")) == f"id:{paper_id}"
    assert pasted_paper_term(store, "Tw1nPaper0") == ""  # two papers: the word searched as a word
