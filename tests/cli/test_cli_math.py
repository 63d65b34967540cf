"""The command line prints titles, abstracts and reviews as the app shows them (LaTeX math as
Unicode, no styles: ``$\\alpha$-DPO`` → ``α-DPO``); ``--raw`` prints the source text; ``--json``
always holds the source text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.cli.output import shown_text
from paperdeck.text.render import render_plain

from tests.helpers import SHARED_DATA, SUBMISSION_PART_NAMES, ReviewSample, run

#: The real record (ICLR 2026 submission 6618, ``shared/data``'s first submissions part), its
#: abstract cut to the sentences with math.
TITLE = "$\\alpha$-DPO: Robust Preference Alignment for Diffusion Models via $\\alpha$ Divergence"
SHOWN = "α-DPO: Robust Preference Alignment for Diffusion Models via α Divergence"
ABSTRACT = (
    "To address this limitation, we propose $\\alpha$-DPO, which reformulates preference alignment "
    "through the lens of $\\alpha$-divergence. Furthermore, we introduce a dynamic scheduling mechanism "
    "that adaptively adjusts $\\alpha$ according to the observed preference distribution."
)
RECORD = {
    "id": "wqbnA6PcKr", "number": 6618, "cdate": 1757990709780, "mdate": 1759897904806, "withdrawn": False,
    "content": {"title": TITLE, "abstract": ABSTRACT, "primary_area": "reinforcement learning",
                "keywords": ["diffusion model; preference alignment; noise robustness", "$\\alpha$-divergence"],
                "venue": "ICLR 2026 Conference Submission"},
}  # fmt: skip
PAPER_ID = "openreview:wqbnA6PcKr"


@pytest.fixture
def store_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    source = tmp_path / "iclr2026_submissions_alpha.jsonl"
    source.write_text(json.dumps(RECORD) + "\n", "utf-8")
    data = str(tmp_path / "data")
    code, _, err = run(capsys, "import", str(source), "--data-dir", data)
    assert code == 0, err
    return data


def test_search_and_list_print_the_title_as_the_app_shows_it(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in (("search", "DPO"), ("list",)):
        code, out, err = run(capsys, *args, "--data-dir", store_dir)
        assert code == 0, err
        assert out.rstrip().endswith(SHOWN) and "$" not in out, args
        code, out, _ = run(capsys, *args, "--raw", "--data-dir", store_dir)
        assert out.rstrip().endswith(TITLE), args


def test_show_prints_title_keywords_and_abstract_rendered(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", PAPER_ID, "--data-dir", store_dir)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == SHOWN
    assert "keywords: diffusion model; preference alignment; noise robustness; α-divergence" in lines
    assert render_plain(ABSTRACT) in out and "we propose α-DPO, which" in out and "$" not in out
    code, raw, _ = run(capsys, "show", PAPER_ID, "--raw", "--data-dir", store_dir)
    assert raw.splitlines()[0] == TITLE and ABSTRACT in raw


def test_json_holds_the_source_text(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("show", PAPER_ID), ("search", "DPO"), ("list",)):
        code, out, err = run(capsys, *args, "--json", "--data-dir", store_dir)
        assert code == 0, err
        record = json.loads(out)
        record = record[0] if isinstance(record, list) else record
        assert record["title"] == TITLE, args


def test_reviews_print_their_math_rendered(
    review_sample: ReviewSample, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    code, _, err = run(
        capsys, "import", str(review_sample.papers_file), str(review_sample.notes_file), "--data-dir", data
    )
    assert code == 0, err
    shown_any = False
    for line in json.loads(run(capsys, "list", "--json", "--data-dir", data)[1]):
        code, out, err = run(capsys, "reviews", line["id"], "--data-dir", data)
        assert code == 0, err
        code, raw, _ = run(capsys, "reviews", line["id"], "--raw", "--data-dir", data)
        if "$" in raw:
            shown_any = True
            assert out.count("$") < raw.count("$"), line["id"]
    assert shown_any  # some review of the sample writes math


def test_text_without_markup_is_printed_as_it_is() -> None:
    assert shown_text("Plain title: no math (2026)") == "Plain title: no math (2026)"
    assert shown_text("C$^3$-Bench") == "C³-Bench"
    assert shown_text("C$^3$-Bench", raw=True) == "C$^3$-Bench"


@pytest.mark.data
def test_the_real_alpha_dpo_paper_is_shown_rendered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    code, _, err = run(capsys, "import", str(SHARED_DATA / SUBMISSION_PART_NAMES[0]), "--data-dir", data)
    assert code == 0, err
    code, out, err = run(capsys, "show", PAPER_ID, "--data-dir", data)
    assert code == 0, err
    assert out.splitlines()[0] == SHOWN


def test_marking_commands_name_the_paper_by_its_shown_title(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("star", PAPER_ID), ("note", PAPER_ID, "--text", "mine"), ("status", PAPER_ID, "read"),
                 ("tag", PAPER_ID, "alignment")):  # fmt: skip
        code, out, err = run(capsys, *args, "--data-dir", store_dir)
        assert code == 0, err
        assert out.rstrip().endswith(SHOWN), args


def test_every_command_that_prints_the_title_renders_it(
    store_dir: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``changes`` (a decision changed by a later record) and the one-paper commands print the
    title as ``search`` and ``show`` do: one renderer and sanitiser for every title printed."""
    later = {**RECORD, "mdate": RECORD["mdate"] + 1000}  # type: ignore[operator]
    later["content"] = {**RECORD["content"], "venue": "ICLR 2026 Poster"}  # type: ignore[dict-item]
    source = tmp_path / "iclr2026_accepted_alpha.jsonl"
    source.write_text(json.dumps(later) + "\n", "utf-8")
    code, _, err = run(capsys, "import", str(source), "--data-dir", store_dir)
    assert code == 0, err
    for args in (
        ("changes",),
        ("star", PAPER_ID),
        ("status", PAPER_ID, "read"),
        ("note", PAPER_ID, "--text", "x"),
        ("tag", PAPER_ID, "math"),
    ):
        code, out, err = run(capsys, *args, "--data-dir", store_dir)
        assert code == 0, (args, err)
        assert SHOWN in out and TITLE not in out, (args, out)
