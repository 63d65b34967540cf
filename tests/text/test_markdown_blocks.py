"""Markdown blocks of review notes: headings, rules, lists, quotes and code are read as such, and
no character is lost but the blocks' own markers."""

from __future__ import annotations

from paperdeck.text.markdown_blocks import Block, markdown_blocks


def test_a_rebuttals_blocks_are_read_as_a_reader_sees_them() -> None:
    text = (
        "# Response to Reviewer hsV6\nWe thank the reviewer.\n\n---\n\nQ1. Novelty\n---\n"
        "- first $x^2$\n  - nested\n2) second\n> the reviewer wrote\n```\nkeep # this *as is*\n```\n**Done**"
    )
    assert markdown_blocks(text) == [
        Block("heading", "Response to Reviewer hsV6", 1),
        Block("text", "We thank the reviewer."),
        Block("rule", ""),
        Block("heading", "Q1. Novelty", 2),
        Block("item", "first $x^2$", 0, "•"),
        Block("item", "nested", 1, "•"),
        Block("item", "second", 0, "2."),
        Block("quote", "the reviewer wrote"),
        Block("code", "keep # this *as is*"),
        Block("text", "**Done**"),
    ]


def test_text_that_only_looks_like_markdown_stays_text() -> None:
    for text in ("#hashtag is no heading", "*emphasis* at the start", "3.5 is a rating", "a -- b", "$-x$ - y"):
        assert markdown_blocks(text) == [Block("text", text)], text
    assert markdown_blocks("") == []
    assert markdown_blocks("a\n\nb") == [Block("text", "a\n\nb")]  # paragraphs: render_abstract's
    assert markdown_blocks("```\nnever closed") == [Block("code", "never closed")]
