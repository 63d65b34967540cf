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


def test_a_long_note_is_shown_cut_with_what_is_left_told() -> None:
    """A note of a million characters held the highlight for seconds at each pass: the pane renders
    its first NOTE_SHOWN_CHARS (cut at a space) and says how much more there is; a short one whole."""

    from paperdeck.ui.widgets.detail_content import NOTE_SHOWN_CHARS

    paper = Paper(id="abs:note", title="T", abstract="The abstract.")
    note = "word $x^2$ **bold** https://example.org/a " * 25_000  # ~1 M characters
    shown = detail_content(paper, UserData(paper.id).replaced(note=note)).plain
    assert len(shown) < NOTE_SHOWN_CHARS + 1_000 and "The abstract." in shown
    left = len(note) - len(note[: note.rfind(" ", NOTE_SHOWN_CHARS - 200, NOTE_SHOWN_CHARS)])
    assert f"({left:,} more characters: n shows the whole note)" in shown.splitlines()
    short = detail_content(paper, UserData(paper.id).replaced(note="a short note")).plain
    assert "a short note" in short.splitlines() and "more characters" not in short


def test_the_ratings_spread_is_rounded_once() -> None:
    """COLM 2025's "$100K or 100 Days…" (ratings 6;6;7;9, Paper Copilot's list): the spread is
    1.2247…, shown ± 1.22 (it was kept as 1.225, then shown 1.23)."""
    from paperdeck.sources.papercopilot import ratings_from

    ratings = ratings_from("6;6;7;9")
    assert ratings is not None and ratings.std == (1.5) ** 0.5 and ratings.mean == 7.0
    paper = Paper(id="abs:std", title="T", abstract="A.", ratings=ratings)
    assert "rating 7.0 ± 1.22 (4 reviews, 6–9)" in _detail(paper)
