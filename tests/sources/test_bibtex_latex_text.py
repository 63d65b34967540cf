"""The BibTeX reader reads LaTeX text escapes as the text they stand for (``\\&`` → ``&``,
``\\textasciicircum{}`` → ``^``, ``{\\"o}`` → ``ö``, ``--`` → ``–``), keeps math and the macros the
app renders as written, and never reads ``%`` as a comment. Titles from the fixtures and the shared
data: ``MEGS^{2}`` is an ICLR 2026 submission's title (``/work/shared/data``'s review tracker
parts), the others are in tests/data's ICLR 2026 and ICLR 2018 cuts; the Zhao et al. entry is
lines 2703–2709 of ``/work/shared/data/iclr2018_smart-scholar.bib`` as they are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from paperdeck.export.bibtex import bibtex_text
from paperdeck.sources import read_source
from paperdeck.sources.bibtex import latex_text, strip_braces

from tests.helpers import BIB_2018_NAME, SHARED_DATA

TITLES = [
    "MEGS^{2}: Memory-Efficient Gaussian Splatting via Spherical Gaussians and Unified Pruning",
    "The Personality Illusion: Revealing Dissociation Between Self-Reports & Behavior in LLMs",
    "TINKER: Diffusion's Gift to 3D--Multi-View Consistent Editing From Sparse Inputs without Per-Scene Optimization",
    "C$^3$-Bench: Evaluating and Achieving Controllable Code Completion in Code LLM",
    "$\\ell_1$-regression with Heavy-tailed Distributions",
    "snake_case, 50% of #1, we propose \\ourmethod{} for $5 and $10",
]


@pytest.mark.parametrize("title", TITLES)
def test_a_title_exported_is_read_back_as_it_was(title: str) -> None:
    assert strip_braces(bibtex_text(title)) == title


def test_text_escapes_are_read_as_text_and_math_is_kept() -> None:
    assert strip_braces("MEGS\\textasciicircum{}{2}: Memory") == "MEGS^{2}: Memory"
    assert strip_braces("Self-Reports \\& Behavior, 50\\% \\_ \\#1 \\$5") == "Self-Reports & Behavior, 50% _ #1 $5"
    assert strip_braces("{Schr{\\\"o}dinger} and Erd\\H{o}s, R\\'enyi, \\c{C}a\\u{g}lar, \\ss") == (
        "Schrödinger and Erdős, Rényi, Çağlar, ß"
    )
    assert strip_braces("pages 1--2 --- a dash") == "pages 1–2 — a dash"
    assert strip_braces("{{MACH}}: $O(d\\log{K})$ -- $x--y$") == "MACH: $O(d\\log{K})$ – $x--y$"
    assert strip_braces("\\emph{Kept} \\alpha \\textbackslash{}citep{x}") == "\\emph{Kept} \\alpha \\citep{x}"
    assert strip_braces("\\textbackslash ell\\_1-regression") == "\\ell_1-regression"  # NeurIPS 2018's own entry


def test_a_per_cent_sign_is_never_a_comment() -> None:
    assert strip_braces("50% of {A}ll % not a comment {B}") == "50% of All % not a comment B"
    assert latex_text("a % b\nc {D}") == "a % b c {D}"


def test_an_abstract_keeps_its_braces_but_loses_its_escapes(tmp_path: Path) -> None:
    path = tmp_path / "one.bib"
    path.write_text(
        "@misc{x,\n title = {A 50\\% Title},\n url = {https://openreview.net/forum?id=Abcdef123},\n"
        " abstract = {Gains of 7\\% over \\textbackslash{}citep{ImprovedGAN2016} in $\\mathbb{R}^{d}$ -{}- {Big}}\n}\n",
        "utf-8",
    )
    (paper,) = read_source(path).papers
    assert paper.title == "A 50% Title"
    assert paper.abstract == "Gains of 7% over \\citep{ImprovedGAN2016} in $\\mathbb{R}^{d}$ -- {Big}"


ZHAO_2018 = (
    """@inproceedings{2018-ICLRWorkshop-Zhao-Multiple,
  title={Multiple Source Domain Adaptation with Adversarial Learning},
  author={Han Zhao and Shanghang Zhang and Guanhang Wu and Jo\\~{a}o P. Costeira and """
    + """Jos\\'{e} M. F. Moura and Geoffrey J. Gordon},
  year={2018},
  booktitle={ICLRWorkshop},
  pdflink={https://openreview.net/pdf?id=ryDNZZZAW}
}
"""
)


def test_an_outside_entry_reads_its_accents(tmp_path: Path) -> None:
    path = tmp_path / "iclr2018.bib"
    path.write_text(ZHAO_2018, "utf-8")
    (paper,) = read_source(path).papers
    assert paper.authors[3:5] == ("João P. Costeira", "José M. F. Moura")


#: A text escape left in a title or a name: ``\\&``, ``\\'``, ``\\~{a}``, ``\\textasciicircum``.
_LEFT = re.compile(r"\\(?:[%&#_'\"`~^=.]|text[a-z]+)")


@pytest.mark.data
@pytest.mark.parametrize("name", [BIB_2018_NAME, "iclr2018_smart-scholar.bib"])
def test_the_shared_bibtex_files_leave_no_text_escape(name: str) -> None:
    papers = read_source(SHARED_DATA / name).papers
    assert len(papers) > 400
    left = [text for paper in papers for text in (paper.title, *paper.authors) if _LEFT.search(text)]
    assert left == []
    assert any("João P. Costeira" in paper.authors for paper in papers)
