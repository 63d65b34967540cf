"""The detail pane shows keywords and abstract links rendered like the rest of the paper's text."""

from __future__ import annotations

from paperdeck.model.paper import Paper, UserData
from paperdeck.ui.widgets.detail_content import detail_content


def _detail(paper: Paper) -> str:
    return detail_content(paper, UserData(paper.id)).plain


def test_keywords_with_latex_render() -> None:
    paper = Paper(
        id="abs:kw",
        title="T",
        abstract="A.",
        keywords=("$\\mu$-Transfer", "$(L_0", "L_1)$-smoothness", "\\textbf{RL}"),
    )
    assert "Keywords: μ-Transfer; (L₀, L₁)-smoothness; RL" in _detail(paper).splitlines()


def test_markdown_link_in_abstract_shows_its_text_linked() -> None:
    url = "https://anonymous.4open.science/r/e2e-model-444D/README.md"
    paper = Paper(id="abs:md", title="T", abstract=f"The code is available [here]({url}).")
    content = detail_content(paper, UserData(paper.id))
    assert "The code is available here." in content.plain.splitlines()
    linked = [content.plain[span.start : span.end] for span in content.spans if "link" in str(span.style)]
    assert "here" in linked and f"[here]({url})" not in content.plain
