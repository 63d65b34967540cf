"""The abstract renderer: LaTeX, math and Markdown in real ICLR 2026 text, to styled segments."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paperdeck.text import latex_math
from paperdeck.text.abstract_parser import parse_markup
from paperdeck.text.nodes import plain_text
from paperdeck.text.render import (
    Segment,
    math_to_unicode,
    render_abstract,
    render_keywords,
    render_plain,
)

from tests.helpers import FIXTURES, SEEDS, SHARED_CASES


def styled(text: str, **style: object) -> list[str]:
    """The texts of the segments of ``render_abstract(text)`` whose attributes match ``style``."""
    return [s.text for s in render_abstract(text) if all(getattr(s, k) == v for k, v in style.items())]


def is_subsequence(needle: str, haystack: str) -> bool:
    chars = iter(haystack)
    return all(c in chars for c in needle)


# --- The required rows: (input, accepted outputs of render_plain) ---

REQUIRED = [
    pytest.param(
        r"we propose \texttt{MCPMark}, a benchmark",
        ["we propose MCPMark, a benchmark"],
        id="1-texttt",
    ),
    pytest.param(
        "improves accuracy by 5% over the base model",
        ["improves accuracy by 5% over the base model"],
        id="2-percent",
    ),
    pytest.param(
        r"reaches only $52.56$\% pass@1",
        ["reaches only 52.56% pass@1"],
        id="3-math-then-escaped-percent",
    ),
    pytest.param(
        r"sample from $\mu$ in $\mathbb{R}^d$",
        ["sample from μ in ℝ^d", "sample from μ in ℝᵈ"],
        id="4-greek-blackboard",
    ),
    pytest.param(
        r"a lower bound of $\Omega(\sqrt{s})$",
        ["a lower bound of Ω(√s)", "a lower bound of Ω(√(s))"],
        id="5-sqrt",
    ),
    pytest.param(
        r"$f : \mathbb{F}_2^n \to \{-1, +1\}$",
        ["f : 𝔽₂ⁿ → {-1, +1}", "f : 𝔽_2^n → {-1, +1}"],
        id="6-braces",
    ),
    pytest.param(r"\underline{\textbf{R}}andom P\underline{\textbf{o}}licy", ["Random Policy"], id="7-nested"),
    pytest.param(
        "**G**enerating **R**ewards **A**s **C**od**E**",
        ["Generating Rewards As CodE"],
        id="8-md-bold",
    ),
    pytest.param(
        r"Codes are available at \url{https://anonymous.4open.science/r/x/}",
        ["Codes are available at https://anonymous.4open.science/r/x/"],
        id="9-url",
    ),
    pytest.param("$a*b*c$", ["a*b*c"], id="10-stars-in-math"),
    pytest.param(
        "(**Head-Masked Nullspace Steering (HMNS)**)",
        ["(Head-Masked Nullspace Steering (HMNS))"],
        id="11-parens",
    ),
    pytest.param(r"\emph{Relative Value Learning} (RV)", ["Relative Value Learning (RV)"], id="12-emph"),
]


@pytest.mark.parametrize(("source", "accepted"), REQUIRED)
def test_required_rows_read_as_expected(source: str, accepted: list[str]) -> None:
    assert render_plain(source) in accepted


#: A copy of ``shared/cases/render-abstract.md`` (tests/data/cut.py copies it anew).
CASES_FILE = FIXTURES / "render-abstract.md"


def test_every_case_of_the_shared_file_is_a_required_row() -> None:
    """Each input row of ``shared/cases/render-abstract.md`` is tested above: a new row fails here."""
    rows = [
        line.split("|")[2].strip()
        for line in CASES_FILE.read_text(encoding="utf-8").splitlines()
        if re.match(r"\|\s*\d+\s*\|", line)
    ]
    inputs = [re.fullmatch(r"`(.*)`(?: in .*)?", cell).group(1) for cell in rows]  # type: ignore[union-attr]
    assert len(inputs) == 12
    tested = {param.values[0] for param in REQUIRED}
    assert [source for source in inputs if source not in tested] == []


@pytest.mark.data
def test_the_copied_cases_are_the_shared_ones() -> None:
    """The copy in tests/data/ is the shared file as it is now: a new row there fails here until
    ``python tests/data/cut.py`` copies it again."""
    assert CASES_FILE.read_bytes() == (SHARED_CASES / CASES_FILE.name).read_bytes()


def test_row_4_greek_and_blackboard() -> None:
    out = render_plain(r"sample from $\mu$ in $\mathbb{R}^d$")
    assert "μ" in out
    assert "ℝᵈ" in out or "ℝ^d" in out


def test_row_7_bold_underline_letters() -> None:
    source = r"\underline{\textbf{R}}andom P\underline{\textbf{o}}licy"
    assert styled(source, bold=True, underline=True) == ["R", "o"]
    assert styled(source, bold=False, underline=False) == ["andom P", "licy"]


def test_row_8_only_initials_bold() -> None:
    source = "**G**enerating **R**ewards **A**s **C**od**E**"
    assert styled(source, bold=True) == ["G", "R", "A", "C", "E"]
    assert "".join(styled(source, bold=False)) == "enerating ewards s od"


def test_row_9_url_is_a_link() -> None:
    url = "https://anonymous.4open.science/r/x/"
    assert styled(rf"Codes are available at \url{{{url}}}", link=url) == [url]


def test_row_11_inner_part_bold() -> None:
    assert styled("(**Head-Masked Nullspace Steering (HMNS)**)", bold=True) == ["Head-Masked Nullspace Steering (HMNS)"]


def test_row_12_italic_first_part() -> None:
    assert styled(r"\emph{Relative Value Learning} (RV)", italic=True) == ["Relative Value Learning"]


def test_row_1_texttt_is_code() -> None:
    assert styled(r"we propose \texttt{MCPMark}, a benchmark", code=True) == ["MCPMark"]


# --- Text mode ---


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            "gains 5%\nmore text here\n\nnext 100% para",
            "gains 5%\nmore text here\n\nnext 100% para",
            id="percent-at-end-of-line-is-not-a-comment",
        ),
        pytest.param(r"by 12.5\% and 3\%", "by 12.5% and 3%", id="escaped-percent"),
        pytest.param(r"R\&D, a\_b, \#1, \$5, \{x\}", "R&D, a_b, #1, $5, {x}", id="escapes"),
        pytest.param(
            "append <think> and <answer> tags",
            "append <think> and <answer> tags",
            id="angle-tokens",
        ),
        pytest.param(r"token \<BOS\> first", "token <BOS> first", id="escaped-angle-tokens"),
        pytest.param(
            "the [CLS] and [/INST] tokens, [bold]",
            "the [CLS] and [/INST] tokens, [bold]",
            id="brackets",
        ),
        pytest.param("costs $5 today", "costs $5 today", id="unmatched-dollar"),
        pytest.param("from $5 and $10 each", "from $5 and $10 each", id="prices-are-not-math"),
        pytest.param("$5-$10", "$5-$10", id="price-range"),
        pytest.param("snake_case_name and a_b", "snake_case_name and a_b", id="snake-case"),
        pytest.param("2*3*4 and a * b", "2*3*4 and a * b", id="arithmetic-stars"),
        pytest.param(
            r"we use \foo and \mymethod{} here",
            r"we use \foo and \mymethod{} here",
            id="unknown-macro",
        ),
        pytest.param(r"see \citep{smith2020}", r"see \citep{smith2020}", id="unknown-macro-with-arg"),
        pytest.param(r"{\bf{A}}daptive {\em i.e.} done", "Adaptive i.e. done", id="declarations"),
        pytest.param(
            r"Schr\"odinger and na\"{\i}ve, Kurdyka--\L{}ojasiewicz",
            "Schrödinger and naïve, Kurdyka--Łojasiewicz",
            id="accents",
        ),
        pytest.param(r"\ding{182} first \ding{51} ok \ding{999}x", "❶ first ✓ ok x", id="ding"),
        pytest.param("``quoted'' and ``double\"", "“quoted” and “double”", id="latex-quotes"),
        pytest.param("&lt;/think&gt; &mdash; A & B", "</think> — A & B", id="entities"),
        pytest.param(r"A\textsuperscript{2}S", "A²S", id="textsuperscript"),
        pytest.param(r"sets like {1, 2} stay", "sets like {1, 2} stay", id="literal-braces"),
        pytest.param(r"line one\\ line two", "line one\n line two", id="line-break"),
        pytest.param(r"\textbf{unclosed bold", r"\textbf{unclosed bold", id="unclosed-argument-kept"),
        pytest.param(r"Reflect \\(\\to\\) Call", "Reflect → Call", id="doubled-backslashes"),
        pytest.param(r"norm\$\times\$direction", "norm×direction", id="escaped-dollars-around-latex"),
        pytest.param("a\r\nb\rc", "a\nb\nc", id="line-endings"),
        pytest.param("", "", id="empty"),
    ],
)
def test_text_mode(source: str, expected: str) -> None:
    assert render_plain(source) == expected


def test_nested_emphasis() -> None:
    segments = render_abstract("*a **b** c* and _**both**_")
    assert [(s.text, s.bold, s.italic) for s in segments] == [
        ("a ", False, True),
        ("b", True, True),
        (" c", False, True),
        (" and ", False, False),
        ("both", True, True),
    ]


def test_emphasis_does_not_cross_paragraphs() -> None:
    assert render_plain("a *b\n\nc* d") == "a *b\n\nc* d"
    assert styled("a *b\n\nc* d", italic=True) == []


def test_backtick_code() -> None:
    assert styled("the `Attention` module and `FFN`", code=True) == ["Attention", "FFN"]
    assert render_plain("a single ` tick") == "a single ` tick"


def test_url_followed_by_period_and_parens() -> None:
    segments = render_abstract("See https://github.com/x/y_z. Also (https://a.org/b) and https://w.org/A_(b).")
    assert [s.link for s in segments if s.link] == [
        "https://github.com/x/y_z",
        "https://a.org/b",
        "https://w.org/A_(b)",
    ]
    assert render_plain("See https://github.com/x/y_z.") == "See https://github.com/x/y_z."


def test_angle_bracket_url_keeps_brackets() -> None:
    segments = render_abstract("code: <https://x.org/a>")
    assert "".join(s.text for s in segments) == "code: <https://x.org/a>"
    assert [s.text for s in segments if s.link] == ["https://x.org/a"]


def test_href_and_markdown_link() -> None:
    assert styled(r"at \href{https://x.y/z}{\textbf{here}}", link="https://x.y/z", bold=True) == ["here"]
    # the URL stays visible after a link text: not every terminal can follow links
    assert render_plain(r"at \href{https://x.y/z}{here}.") == "at here (https://x.y/z)."
    assert render_plain(r"\href{https://x.y/z}{https://x.y/z}") == "https://x.y/z"


@pytest.mark.parametrize(
    ("source", "shown", "links"),
    [
        pytest.param(
            "our [project page](https://p.io/a_b) now",
            "our project page now",
            [("project page", "https://p.io/a_b")],
            id="text-linked",
        ),
        pytest.param(  # seed abstract (Decision-focused learning)
            "is available [here](https://anonymous.4open.science/r/e2e-model-444D/README.md).",
            "is available here.",
            [("here", "https://anonymous.4open.science/r/e2e-model-444D/README.md")],
            id="seed-here",
        ),
        pytest.param(
            r"[**Project**](http://x.org/p\_q)",
            "Project",
            [("Project", "http://x.org/p_q")],
            id="styled-text-http",
        ),
        pytest.param("[ ](https://a.b/c)", "https://a.b/c", [("https://a.b/c", "https://a.b/c")], id="blank-text"),
        pytest.param(
            "see [x](javascript:alert(1)) or [y](ftp://h/f)",
            "see [x](javascript:alert(1)) or [y](ftp://h/f)",
            [],
            id="not-http-stays-raw",
        ),
    ],
)
def test_markdown_link_shows_its_text_linked(source: str, shown: str, links: list[tuple[str, str]]) -> None:
    segments = render_abstract(source)
    assert "".join(s.text for s in segments) == shown
    assert [(s.text, s.link) for s in segments if s.link] == links


def test_footnote_keeps_its_text() -> None:
    assert render_plain(r"available\footnote{\url{https://a.b/c}}.") == "available (https://a.b/c)."


# LaTeX quotes as titles and abstracts of ICLR 2026 (../shared/data) write them: curled, the two
# kinds mixed as written; apostrophes, straight pairs, code and primes in math left alone.
QUOTES = [
    ("Curing \"Miracle Steps'' in LLM Math Reasoning", "Curing “Miracle Steps” in LLM Math Reasoning"),
    ("models exhibit ''Aha moment'' behaviour", "models exhibit “Aha moment” behaviour"),
    ("the ''data owner-server interaction\" and", "the “data owner-server interaction” and"),
    ("which predicts ''yes'' (resp. ''no'') token", "which predicts “yes” (resp. “no”) token"),
    ("our novel ''knee point''-based Early-Stopping", "our novel “knee point”-based Early-Stopping"),
    ("rich ``chemical world,'' is", "rich “chemical world,” is"),
    ("Reflection - Problem Solving'', thereby", "Reflection - Problem Solving”, thereby"),
    ("a `word' here", "a ‘word’ here"),
    ("the authors' work, it's 'quoted'", "the authors' work, it's 'quoted'"),
    ('a plain "straight" pair', 'a plain "straight" pair'),
    ("`code` and `it's`", "code and it's"),
    ("$f''(x)$ and $g'' + h$", "f''(x) and g'' + h"),
]


@pytest.mark.parametrize(("source", "expected"), QUOTES, ids=[s for s, _ in QUOTES])
def test_latex_quotes_are_curled_and_apostrophes_kept(source: str, expected: str) -> None:
    assert render_plain(source) == expected


def test_a_title_with_latex_quotes_is_shown_curled_everywhere() -> None:
    from paperdeck.export.titles import shown_title
    from paperdeck.model.paper import Paper
    from paperdeck.model.safe_text import shown_line
    from paperdeck.store.rows import PaperRow

    title = "Curing \"Miracle Steps'' in LLM Math Reasoning"
    shown = "Curing “Miracle Steps” in LLM Math Reasoning"
    assert shown_line(title) == shown_title(title) == PaperRow.of(Paper("x", title, "")).title == shown
    assert PaperRow.of(Paper("y", "exhibit ''Aha moment''", "")).title == "exhibit “Aha moment”"


def test_adjacent_equal_styles_merge() -> None:
    assert render_abstract(r"\textbf{a}\textbf{b} c") == [Segment("ab", bold=True), Segment(" c")]


# --- Math ---


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("$$x^2$$", "x²", id="display-dollars"),
        pytest.param(r"\(\alpha\)", "α", id="paren-delimiters"),
        pytest.param(r"\[\beta_i\]", "βᵢ", id="bracket-delimiters"),
        pytest.param(r"$5\%$ and $a % b$", "5% and a % b", id="percent-in-math"),
        pytest.param(r"$\mathcal{O}(n \log n)$", "O(n log n)", id="mathcal-keeps-letter"),
        pytest.param(r"$\frac{1}{2}$ and $\frac{a+b}{c}$", "½ and (a+b)/c", id="frac"),
        pytest.param(r"$x_{\text{KL}}$", "x_KL", id="unmappable-subscript"),
        pytest.param(r"$\text{COCO}\mbox{-}20^{i}$", "COCO-20ⁱ", id="text-and-mbox"),
        pytest.param(r"$360^\circ\times 180^\circ$", "360°× 180°", id="degrees"),
        pytest.param(r"$\sim$15K and $<$0.1\%", "∼15K and <0.1%", id="symbol-before-digit"),
        pytest.param(r"$ K $-means", "K-means", id="spaced-single-token"),
        pytest.param(r"$\\downarrow$ and $20\\%$", "↓ and 20%", id="doubled-backslashes"),
        pytest.param(r"$\cO(n) \cdot \foo{x}$", r"O(n) · \foo{x}", id="unknown-math-macro-kept"),
        pytest.param(r"$\leq$ $\neq$ $\ne$ $\in$ $\infty$", "≤ ≠ ≠ ∈ ∞", id="symbols"),
    ],
)
def test_math_spans(source: str, expected: str) -> None:
    assert render_plain(source) == expected


# Long super- and subscripts, each taken from a real ICLR 2026 abstract (the dump in ../shared/data
# or the seeds): Unicode scripts when every character has one, else a readable fallback, never braces.
SCRIPTS = [
    (r"\varepsilon^{-2/3}", "ε^(−2/3)"),
    (r"\mathcal{O}(T^{-1/2} \delta^{-1/2})", "O(T^(−1/2) δ^(−1/2))"),
    (r"\tilde{\mathcal{O}}(T^{2/3})", "Õ(T^(2/3))"),
    (r"\widetilde{\mathcal{O}}(K^{3/4})", "Õ(K^(3/4))"),
    (r"T^{3/4}", "T^(3/4)"),
    (r"\tilde{\mathcal{O}}(p \epsilon^{-4-2/p})", "Õ(p ϵ^(−4−2/p))"),
    (r"N^{-2\alpha/(2\alpha+d)}", "N^(−2α/(2α+d))"),
    (r"O(K^{1/3}T^{1-d/3})", "O(K^(1/3)T^(1−d/3))"),
    (r"T^{(d+1)/(2d+1)}", "T^((d+1)/(2d+1))"),
    (r"A\in\mathbb{R}^{d\times r}", "A∈ℝ^(d× r)"),
    (r"\widetilde O(k/e^{\epsilon/\log k})", "Õ(k/e^(ϵ/log k))"),
    (r"N_{avg}", "N_avg"),
    (r"\beta N_{eff}", "β N_eff"),
    (r"W_{\mathrm{new}}=\exp(\eta AB)\,W_0", "W_new=exp(η AB) W₀"),
    (r"\Delta_\theta-\Delta_{\mathrm{ref}}", "Δ_θ-Δ_ref"),
    (r"\rho_{\text{selfbias}}", "ρ_selfbias"),
    (r"\epsilon_{decay}I", "ϵ_(decay)I"),
    (r"P_{Y|X}", "P_(Y|X)"),
    (r"64.0_{\pm2.5}", "64.0_(±2.5)"),
    (r"\max_{v\in\mathcal{F}}", "max_(v∈F)"),
    (r"Z=\int_{\mathbb{R}^d}\mathrm{e}^{-V(x)}\mathrm{d}x", "Z=∫_(ℝᵈ)e⁻ⱽ⁽ˣ⁾dx"),
    (r"\ell_\infty", "ℓ_∞"),
    (r"\ell_1", "ℓ₁"),
    (r"x^{(t)}", "x⁽ᵗ⁾"),
    (r"\{(X_i, D_i, Y_i)\}_{i=1}^{n}", "{(Xᵢ, Dᵢ, Yᵢ)}ᵢ₌₁ⁿ"),
    (r"\widetilde{O}(s^{14})", "Õ(s¹⁴)"),
    (r"\rho_{\text{non-iid}}", "ρ_(non-iid)"),
]


@pytest.mark.parametrize(("source", "expected"), SCRIPTS, ids=[s for s, _ in SCRIPTS])
def test_long_scripts_render_readably(source: str, expected: str) -> None:
    out = render_plain(f"${source}$")
    assert out == expected
    assert "{" not in out.replace("{(", "") and "^{" not in out and "_{" not in out


@settings(max_examples=300, deadline=None)
@given(
    base=st.sampled_from(["x", r"\epsilon", "N", "T", ")"]),
    kind=st.sampled_from("^_"),
    body=st.text(alphabet="abcgqz0123456789+-=/()*|,", min_size=1, max_size=8),
)
def test_no_script_shows_braces(base: str, kind: str, body: str) -> None:
    out = math_to_unicode(f"{base}{kind}{{{body}}}")
    assert "{" not in out and "}" not in out


def test_math_segments_are_marked_math() -> None:
    segments = render_abstract(r"in $\mathbb{R}^d$ now")
    assert [(s.text, s.math) for s in segments] == [("in ", False), ("ℝᵈ", True), (" now", False)]


def test_text_styles_inside_math() -> None:
    assert styled(r"$\underline{\textbf{S}}$mall", bold=True, underline=True, math=True) == ["S"]
    assert styled(r"**bold $x$ here**", bold=True) == ["bold ", "x", " here"]


# A fraction followed by a factor must not read as dividing it; a script with more than one
# character and no Unicode form is bracketed (the first two from ICLR 2026 sE8DCSJTzd and a seed).
FRACTIONS = [
    (r"log~Z(h) = \frac{1}{2}\eta^2 + \mathcal{O}(\eta^3)", "log Z(h) = ½η² + O(η³)"),
    (r"\frac{1}{2}\eta^2", "½η²"),
    (r"\tfrac{1}{2}", "½"),
    (r"\dfrac34 n", "¾ n"),
    (r"e^{i\pi}", "e^(iπ)"),
    (r"e^{-i\pi}", "e^(−iπ)"),
    (r"\frac{a+b}{c+d}", "(a+b)/(c+d)"),
    (r"\frac{a}{b}x", "(a/b)x"),
    (r"\frac{a+b}{c}(x+y)", "((a+b)/c)(x+y)"),
    (r"\frac{1}{100}\sum_i x_i", "(1/100)∑ᵢ xᵢ"),
    (r"\frac{a}{b} + x", "a/b + x"),
    (r"\frac{a}{b}, x", "a/b, x"),
    (r"\sqrt{\frac{a}{b}}", "√(a/b)"),
    (r"\frac{\frac{1}{n}x}{2}", "((1/n)x)/2"),
    (r"x^{\frac{a}{b}}y", "x^(a/b)y"),
]


@pytest.mark.parametrize(("source", "expected"), FRACTIONS, ids=[s for s, _ in FRACTIONS])
def test_fractions_and_scripts_are_unambiguous(source: str, expected: str) -> None:
    assert math_to_unicode(source) == expected


def test_math_to_unicode_examples() -> None:
    assert math_to_unicode(r"\mathbb{F}_2^n \to \{-1, +1\}") == "𝔽₂ⁿ → {-1, +1}"
    assert math_to_unicode(r"\tilde{\mathcal{O}}(\sqrt{T})") == "Õ(√T)"
    assert math_to_unicode(r"\sqrt{n \log n}") == "√(n log n)"
    assert math_to_unicode(r"x^{-1}_{i+1}") == "x⁻¹ᵢ₊₁"
    assert math_to_unicode(r"\left\{ x \right.") == "{ x"
    assert math_to_unicode(r"\widehat{w_p} \overline{xy}") == "ŵₚ x̅y̅"
    assert math_to_unicode(r"\operatorname*{argmax}_x \binom{n}{k}") == "argmaxₓ (n choose k)"


def test_math_falls_back_to_source(monkeypatch: pytest.MonkeyPatch) -> None:
    assert math_to_unicode(r"\,") == r"\,"  # converts to nothing: show the source

    def broken(_: str) -> str:
        raise ValueError("boom")

    monkeypatch.setattr(latex_math, "_convert_source", broken)
    assert math_to_unicode(r" \alpha ") == r"\alpha"
    assert render_plain(r"see $\alpha$!") == r"see \alpha!"


def test_long_or_multi_paragraph_dollar_is_not_math() -> None:
    assert render_plain("$a\n\nb$") == "$a\n\nb$"
    long = "$" + "x " * 200 + "y$"
    assert render_plain(long) == long


# --- Robustness ---

LATEXISH = st.lists(
    st.sampled_from(
        [
            "\\",
            "$",
            "$$",
            "{",
            "}",
            "^",
            "_",
            "*",
            "**",
            "`",
            "``",
            "&",
            "&lt;",
            "%",
            "#",
            "~",
            "[",
            "]",
            "(",
            ")",
            "\\(",
            "\\)",
            "\\[",
            "\\]",
            "\\\\",
            "\\textbf",
            "\\emph",
            "\\frac",
            "\\sqrt",
            "\\url",
            "\\href",
            "\\bf",
            "\\mathbb",
            "\\left",
            "\\begin",
            '\\"',
            "\\'",
            "\\c",
            "\\ding",
            "\\footnote",
            "\\textsuperscript",
            "https://a.b/c",
            "](",
            "x",
            "1",
            " ",
            "\n",
            "\n\n",
            "é",
            "\ue001",
        ]
    ),
    max_size=60,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=300), LATEXISH))
def test_render_never_raises_and_segments_are_clean(text: str) -> None:
    segments = render_abstract(text)
    assert all(s.text for s in segments)
    assert all(
        (a.bold, a.italic, a.underline, a.code, a.math, a.link)
        != (b.bold, b.italic, b.underline, b.code, b.math, b.link)
        for a, b in pairwise(segments)
    )
    assert isinstance(render_plain(text), str)
    assert isinstance(math_to_unicode(text), str)


@given(st.one_of(st.text(max_size=300), LATEXISH))
def test_parse_tree_plain_text_is_the_rendered_text(text: str) -> None:
    # The parser sizes up \href and \textsuperscript arguments with plain_text: it must agree.
    assert plain_text(parse_markup(text)) == render_plain(text)


PLAIN_ALPHABET = st.characters(exclude_characters="\\$*_`&", exclude_categories=["Cs"])


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=PLAIN_ALPHABET, max_size=300))
def test_plain_text_keeps_every_character(text: str) -> None:
    expected = re.sub(r"\n[ \t]*\n\s*", "\n\n", text.replace("\r\n", "\n").replace("\r", "\n"))
    out = render_plain(text)
    assert is_subsequence(expected, out)
    assert out == expected


def seed_abstracts() -> list[str]:
    abstracts = []
    for path in sorted(SEEDS.glob("*.txt")):
        body = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").partition("\n")[2]
        abstracts += [a.strip() for a in re.split(r"\n\s*\n", body) if a.strip()]
    return abstracts


def test_every_seed_abstract_renders_without_silent_loss() -> None:
    abstracts = seed_abstracts()
    assert len(abstracts) >= 30
    for abstract in abstracts:
        out = render_plain(abstract)
        assert len(out) >= 0.6 * len(abstract), abstract[:80]


def test_brace_symbols_render_as_braces() -> None:
    """Exported BibTeX writes an unpaired brace as ``\\textbraceleft{}``; read back, it shows as ``{``."""
    assert render_plain(r"A \textbraceleft{}x and y\textbraceright{} z") == "A {x and y} z"


@pytest.mark.parametrize(
    ("keywords", "shown"),
    [
        pytest.param(["$\\mu$-Transfer", "top-$k$ selection"], ["μ-Transfer", "top-k selection"], id="math"),
        pytest.param(
            ["$(L_0", "L_1)$-smoothness", "optimization"],
            ["(L₀, L₁)-smoothness", "optimization"],
            id="split-inside-math-joined",
        ),
        pytest.param(["\\textbf{RL}", "kernel  $k$-means"], ["RL", "kernel k-means"], id="macro-and-spaces"),
        pytest.param(["$x", "price $5", " "], ["$x", "price $5"], id="unclosed-dollar-kept"),
        pytest.param([], [], id="none"),
    ],
)
def test_keywords_render_like_titles(keywords: list[str], shown: list[str]) -> None:
    assert render_keywords(keywords) == shown


#: The bare URL's pattern as first written, the stand-ins (past Latin-1) in its class.
_URL_AS_FIRST_WRITTEN = re.compile(r"https?://(?:[^\s<>\"{}`\\\x00-\x1f\x7f-\x9f\u2400-\u2426\u27e8]|\\[_%#&~])+")


@given(
    st.sampled_from(["http://", "https://"]),
    st.text(st.sampled_from("ab.,)(/_\\%~ \x07\x9b␇␦␧⟨⟩é→\ue000"), max_size=16),
)
def test_a_bare_url_ends_where_the_pattern_as_first_written_ended_it(scheme: str, rest: str) -> None:
    """The URL's pattern leaves the control characters' stand-ins out (cheaper to compile) and the
    reader ends the URL at the first: the same link and the same text as the whole pattern gave."""
    from paperdeck.text import markdown_inline

    src = scheme + rest
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_inline, "_url", lambda: _URL_AS_FIRST_WRITTEN)
        before = markdown_inline.read_bare_url(src, 0)
    after = markdown_inline.read_bare_url(src, 0)
    assert [(n.kind, n.text, [c.text for c in n.children]) for n in after[0]] == [
        (n.kind, n.text, [c.text for c in n.children]) for n in before[0]
    ]
    assert after[1] == before[1]
