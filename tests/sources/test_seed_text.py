"""The seed reader: format, line endings, encodings, refusals, duplicates, stable ids."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.errors import SourceError
from paperdeck.model.paper import abstract_id
from paperdeck.sources.seed_text import parse_seed_text, read_seed_file

ABSTRACT_A = "We propose FooNet, a network for foo. It works well on bar benchmarks."
ABSTRACT_B = "Diffusion models sample by reversing a noising process; we make it faster."


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_bundled_seeds_hold_19_abstracts_each_and_37_papers_together(seed_files: list[Path]) -> None:
    lists = [read_seed_file(path) for path in seed_files]
    assert [len(seed_list.papers) for seed_list in lists] == [19, 19]
    ids = {paper.id for seed_list in lists for paper in seed_list.papers}
    assert len(ids) == 37
    for seed_list in lists:
        assert seed_list.header == "ICLR 2026 论文列表"
        assert (seed_list.venue, seed_list.year) == ("ICLR", 2026)
        assert all(paper.venue == "ICLR" and paper.year == 2026 for paper in seed_list.papers)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_line_endings_and_bom(tmp_path: Path, newline: str, bom: bytes) -> None:
    text = newline.join(["ICLR 2026 论文列表", "", ABSTRACT_A, "", ABSTRACT_B, ""])
    seed_list = read_seed_file(write(tmp_path, "list.txt", bom + text.encode("utf-8")))
    assert seed_list.header == "ICLR 2026 论文列表"
    assert [paper.abstract for paper in seed_list.papers] == [ABSTRACT_A, ABSTRACT_B]


def test_hard_wrapped_paragraphs_are_joined_and_whitespace_trimmed() -> None:
    text = "  ICLR 2026 论文列表  \n\n   We propose FooNet,\n  a network   for foo.\n \t \nSecond one.\n\n\n"
    seed_list = parse_seed_text(text, "x.txt")
    assert [paper.abstract for paper in seed_list.papers] == [
        "We propose FooNet, a network   for foo.",
        "Second one.",
    ]


def test_whitespace_only_line_separates_blocks() -> None:
    seed_list = parse_seed_text(f"ICLR 2026\n{ABSTRACT_A}\n   \n{ABSTRACT_B}", "x.txt")
    # The header line is glued to the first abstract: still the header, not part of it.
    assert seed_list.header == "ICLR 2026"
    assert [paper.abstract for paper in seed_list.papers] == [ABSTRACT_A, ABSTRACT_B]


def test_short_first_line_of_a_wrapped_abstract_is_not_a_header() -> None:
    seed_list = parse_seed_text("We propose FooNet, a network\nfor foo.\n\nSecond one.\n", "x.txt")
    assert seed_list.header == ""
    assert seed_list.papers[0].abstract == "We propose FooNet, a network for foo."


def test_file_without_header() -> None:
    seed_list = parse_seed_text(f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n", "x.txt")
    assert seed_list.header == ""
    assert (seed_list.venue, seed_list.year) == ("", None)
    assert len(seed_list.papers) == 2


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", "ICLR 2026 论文列表\n".encode()])
def test_empty_file_has_no_papers_and_a_notice(tmp_path: Path, content: bytes) -> None:
    seed_list = read_seed_file(write(tmp_path, "empty.txt", content))
    assert seed_list.papers == ()
    assert seed_list.notice is not None and "empty.txt" in seed_list.notice


def test_gb18030_file_is_decoded(tmp_path: Path) -> None:
    text = f"ICLR 2026 论文列表\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n"
    seed_list = read_seed_file(write(tmp_path, "gbk.txt", text.encode("gb18030")))
    assert seed_list.header == "ICLR 2026 论文列表"
    assert len(seed_list.papers) == 2


def test_utf16_with_bom_is_decoded(tmp_path: Path) -> None:
    text = f"ICLR 2026 论文列表\n\n{ABSTRACT_A}\n"
    seed_list = read_seed_file(write(tmp_path, "u16.txt", text.encode("utf-16")))
    assert [paper.abstract for paper in seed_list.papers] == [ABSTRACT_A]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "not a text file"),
        (bytes(range(1, 32)) * 50, "not a text file"),
        ("Résumé of café naïveté, déjà vu.\n\nAnother élan.".encode("latin-1"), "not UTF-8"),
    ],
)
def test_non_text_is_refused_with_one_line_naming_the_file(tmp_path: Path, data: bytes, reason: str) -> None:
    path = write(tmp_path, "bad.txt", data)
    with pytest.raises(SourceError) as caught:
        read_seed_file(path)
    message = str(caught.value)
    assert "\n" not in message
    assert str(path) in message
    assert reason in message


def test_missing_file_and_directory_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        read_seed_file(tmp_path / "missing.txt")
    with pytest.raises(SourceError, match="directory"):
        read_seed_file(tmp_path)


def test_a_stray_escape_code_is_data_not_a_refusal() -> None:
    seed_list = parse_seed_text("Header\n\nText with \x1b[31m red in it.\n", "x.txt")
    assert "\x1b[31m" in seed_list.papers[0].abstract


def test_same_abstract_twice_differing_in_case_and_spacing_is_one_paper() -> None:
    text = f"{ABSTRACT_A}\n\n{ABSTRACT_A.upper()}\n\n{ABSTRACT_A.replace(' ', '   ')}\n"
    assert len(parse_seed_text(text, "x.txt").papers) == 1


def test_ids_are_stable_across_wrapping_renaming_and_moving(tmp_path: Path) -> None:
    one = parse_seed_text(f"H\n\n{ABSTRACT_A}\n", tmp_path / "a.txt").papers[0]
    wrapped = ABSTRACT_A.replace(", a ", ",\na ")
    two = parse_seed_text(f"Other header\n\n{wrapped}\n", tmp_path / "sub" / "b.txt").papers[0]
    assert one.id == two.id == abstract_id(ABSTRACT_A)
    assert one.id.startswith("abs:") and len(one.id) == 4 + 16
    assert one.sources == ("a.txt",) and two.sources == ("b.txt",)
