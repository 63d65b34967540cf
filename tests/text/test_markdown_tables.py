"""Markdown tables and images in review notes (the thirteenth round's tester: ``|a|b|\\n|-|-|\\n|1|2|``
showed raw pipes, ``![img](http://x/y.png)`` showed as ``!img``): tables laid out as aligned text
fitting a width, images as ``[image: alt] <url>`` with the URL linked only when it is http(s)."""

from __future__ import annotations

import pytest
from paperdeck.text.markdown_blocks import markdown_blocks
from paperdeck.text.markdown_tables import split_tables, table_lines
from paperdeck.text.render import render_abstract, render_plain

TESTER = "|a|b|\n|-|-|\n|1|2|"
WIDE = (
    "| Method | Accuracy $\\alpha$ | Notes |\n|:--|--:|:-:|\n"
    "| **Ours** | 91.2 | a very long note that goes on and on and on and on |\n| Base\\|line | 88 | 短い |"
)


def test_the_testers_table_is_laid_out_in_columns() -> None:
    assert table_lines(TESTER, 80) == ["a │ b", "──┼──", "1 │ 2"]


def test_cells_are_rendered_aligned_and_an_escaped_pipe_stays_in_its_cell() -> None:
    lines = table_lines(WIDE, 200)
    assert lines[0].startswith("Method    │ Accuracy α │")
    assert lines[2].startswith("Ours      │       91.2 │ a very long note")  # bold as its words, right-aligned
    assert lines[3].startswith("Base|line │         88 │")
    assert lines[3].endswith("短い")  # centred in its column
    assert len({line.index("│") for line in lines if "│" in line}) == 1


@pytest.mark.parametrize("width", [40, 30, 12])
def test_a_table_too_wide_is_cut_to_the_width_with_an_ellipsis(width: int) -> None:
    lines = table_lines(WIDE, width)
    assert all(len(line) <= max(width, 3 * 2 + 2 * 3) for line in lines), lines
    assert any("…" in line for line in lines)
    assert lines[0].startswith("M")


def test_a_table_is_a_block_of_its_own_and_split_from_the_text_around_it() -> None:
    text = f"Before.\n{TESTER}\n\nAfter."
    assert [b.kind for b in markdown_blocks(text)] == ["text", "table", "text"]
    assert split_tables(text) == [("Before.", False), (TESTER, True), ("\nAfter.", False)]
    # as GitHub reads it: a line right under a table is one more row of it, a blank line ends it
    assert table_lines(f"{TESTER}\nAfter.", 80)[-1] == "After. │"
    fenced = f"```\n{TESTER}\n```"
    assert [b.kind for b in markdown_blocks(fenced)] == ["code"]
    assert split_tables(fenced) == [(fenced, False)]
    assert [b.kind for b in markdown_blocks("a | b\nno delimiter | here")] == ["text"]


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("see ![img](http://x/y.png) here", "see [image: img] <http://x/y.png> here"),
        ("![](https://a.example/c.png)", "[image] <https://a.example/c.png>"),
        ("![a *b*](https://a.example/c)", "[image: a b] <https://a.example/c>"),
        ("![evil](javascript:x)", "[image: evil]"),
        ("![evil](file:///etc/passwd)", "[image: evil]"),
        ("Wow! [a](https://a.example)", "Wow! a"),
    ],
)
def test_an_image_is_named_and_its_url_shown_when_it_is_http(source: str, shown: str) -> None:
    assert render_plain(source) == shown
    links = {segment.link for segment in render_abstract(source) if segment.link}
    assert links <= {"http://x/y.png", "https://a.example/c.png", "https://a.example/c", "https://a.example"}
    assert not any(link.startswith(("javascript:", "file:")) for link in links)


SPEED = "We ran it on an RTX 3060 GPU:\n|a|b|\n|-|-|\n|1|2|\n\nThe next paragraph."


def test_paperdeck_reviews_sets_a_table_apart_by_a_blank_line_before_and_after() -> None:
    """The thirteenth round's tester: the table started straight after ``…RTX 3060 GPU:`` and the
    next paragraph followed it directly."""
    from paperdeck.cli.reviews import _section_lines

    assert _section_lines(SPEED, False, 80) == [
        "We ran it on an RTX 3060 GPU:", "", "a │ b", "──┼──", "1 │ 2", "", "The next paragraph."
    ]  # fmt: skip
    spaced = SPEED.replace("GPU:\n", "GPU:\n\n")
    assert _section_lines(spaced, False, 80) == _section_lines(SPEED, False, 80)  # never two blank lines
    assert _section_lines("|a|b|\n|-|-|\n|1|2|", False, 80)[0] == "a │ b"  # none before the first
