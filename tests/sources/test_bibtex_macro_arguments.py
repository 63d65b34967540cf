"""A BibTeX title's macro with several arguments, outside math, keeps every argument's braces.

The sixteenth round (left16): ``title={On \\frac{a}{b} Losses}`` imported as ``On \\frac{a}b
Losses``: the braces after a macro were kept as its argument, but only the first group's — the
second was taken for braces that protect case, and dropped — so the app's renderer, which reads
``\\frac{a}{b}`` as ``a/b``, showed the LaTeX as it was left. Every group right after a macro's
argument is one too, and an optional ``[…]`` argument with the group after it
(``\\sqrt[3]{x}``); the braces after a script (``MEGS^{2}{X}``) and the braces that protect
case are handled as before. Titles made up for the cases."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.cli.shown import shown_text
from paperdeck.sources import read_source
from paperdeck.sources.bibtex import strip_braces


@pytest.mark.parametrize(
    ("field", "title", "shown"),
    [
        ("On \\frac{a}{b} Losses", "On \\frac{a}{b} Losses", "On a/b Losses"),
        ("{On \\frac{a}{b} Losses}", "On \\frac{a}{b} Losses", "On a/b Losses"),
        ("Using \\frac{1}{2}-Approximations", "Using \\frac{1}{2}-Approximations", "Using ½-Approximations"),
        ("Learning {\\frac{\\alpha}{\\sqrt{b}}}", "Learning \\frac{\\alpha}{\\sqrt{b}}", "Learning α/(√b)"),
        ("\\sqrt[3]{x} Roots", "\\sqrt[3]{x} Roots", "∛x Roots"),
        ("\\binom{n}{k} and {GAN}s", "\\binom{n}{k} and GANs", None),
        ("A \\emph{New} Way {GAN}", "A \\emph{New} Way GAN", None),  # a group after a space: case only
        ("MEGS^{2}{X}", "MEGS^{2}X", None),  # a script's group is its only one
    ],
)
def test_every_argument_of_a_macro_keeps_its_braces(field: str, title: str, shown: str | None) -> None:
    assert strip_braces(field) == title
    if shown is not None:
        assert shown_text(title) == shown


def test_a_bibtex_entry_imports_its_titles_macro_whole(tmp_path: Path) -> None:
    bib = tmp_path / "frac.bib"
    bib.write_text(
        "@inproceedings{k1,\n  title = {On \\frac{a}{b} Losses},\n  author = {Ann Lee},\n  year = {2026}\n}\n"
    )
    (paper,) = read_source(bib).papers
    assert paper.title == "On \\frac{a}{b} Losses"
    assert shown_text(paper.title) == "On a/b Losses"
