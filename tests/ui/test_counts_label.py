"""The counts label draws its line straight where that gives Textual's own segments
(``CountsLabel.render_line``): the same lines as through Textual's content visual, for every
kind of text, in every kind of theme, and the shortcut taken for the counts as typing shows them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.counts_label import CountsLabel, counts_text, cut_at_word, fitted
from rich.cells import cell_len
from textual.strip import Strip
from textual.widget import Widget

from tests.ui.helpers import main_screen, settle

AppFactory = Callable[..., PaperApp]

TEXTS = [
    "37 papers",
    " 9,225 of 19,630 · ★ 12 · starred only · by rating",
    "must read: 12 of 19,630",
    "⚠ unknown field 'x' (fields: title, author, decision)",
    "多模态 view: 3 of 37",
    "tab\there",
    "[bold]not markup[/] of 37",
    "x",
    "a long hint that does not fit on the line beside the filter bar but wraps onto the next line " * 2,
]


async def test_the_counts_line_is_the_one_textual_draws(make_app: AppFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    textual_line = Widget.render_line
    calls: list[int] = []

    def spy(widget: Widget, y: int) -> Strip:
        calls.append(y)
        return textual_line(widget, y)

    monkeypatch.setattr(Widget, "render_line", spy)
    async with app.run_test(size=(120, 16)) as pilot:
        await settle(pilot)
        label = main_screen(app).query_one("#counts", CountsLabel)
        shortcuts = 0
        for theme in ["textual-dark", "solarized-light", "ansi-dark"]:
            app.theme = theme
            for text in TEXTS:
                label.update(text)
                await pilot.pause()
                calls.clear()
                ours = [list(label.render_line(y)) for y in range(label.size.height)]
                shortcuts += not calls
                assert ours == [list(textual_line(label, y)) for y in range(label.size.height)], (theme, text)
    assert shortcuts == 3 * 5  # the texts of printable one-cell characters that fit


NOTES = ["★ 1", "starred only", "by rating", "19,630 marked", "indexing…", "finding similar papers…"]


@given(
    room=st.integers(1, 120),
    present=st.lists(st.booleans(), min_size=len(NOTES), max_size=len(NOTES)),
)
def test_fitted_counts_drop_whole_notes_least_wanted_first_and_keep_what_fits(room: int, present: list[bool]) -> None:
    notes = [note if keep else "" for note, keep in zip(NOTES, present, strict=True)]
    keep = (3, 1, 0, 5, 4, 2)
    text = fitted("19,630 papers", notes, room, keep)
    assert cell_len(text) <= room
    assert not text.endswith("·") and "★ …" not in text and not text.endswith("★…")
    parts = text.split(" · ")
    if text.startswith("19,630 papers"):
        shown = parts[1:]
        assert all(part in notes for part in shown), text  # whole notes only
        left_out = [i for i, note in enumerate(notes) if note and note not in shown]
        if left_out:  # every note more wanted than the most wanted one left out is shown
            first = min(keep.index(i) for i in left_out)
            assert all(notes[i] in shown for i in keep[:first] if notes[i]), text
        for i in left_out:  # and none left out would fit beside those shown
            with_it = [notes[j] for j in range(len(notes)) if notes[j] in shown or j == i]
            assert cell_len(" · ".join(["19,630 papers", *with_it])) > room, (text, notes[i])


@given(total=st.integers(0, 2_000_000), data=st.data())
def test_the_counts_are_as_wide_filtered_or_not(total: int, data: st.DataObject) -> None:
    # The first letter typed (and the filter bar cleared) must not change the label's width,
    # which lays out the whole screen.
    shown = data.draw(st.integers(0, total))
    unfiltered = counts_text(total, total, filtered=False, view=None, notes=["★ 12"])
    filtered = counts_text(shown, total, filtered=True, view=None, notes=["★ 12"])
    assert cell_len(filtered) == cell_len(unfiltered)
    assert unfiltered.split() == [f"{total:,}", "paper" if total == 1 else "papers", "·", "★", "12"]
    assert filtered.split() == [f"{shown:,}", "of", f"{total:,}", "·", "★", "12"]


@given(st.text(alphabet="ab ,—'", min_size=1, max_size=60), st.integers(1, 60))
@example(", aaa", 4)  # a lone comma first is no word: "aaa" is the first, cut where it must be
def test_cut_at_word_keeps_whole_words(text: str, room: int) -> None:
    cut = cut_at_word(text, room)
    assert cell_len(cut) <= room
    if cut != text:
        assert cut.endswith("…")
        kept = cut[:-1]
        assert text.startswith(kept)
        words = [word for word in text[: len(kept) + 1].split() if any(c.isalnum() for c in word)]
        if kept and len(words) > 1:  # more than one word: cut between words
            assert not text[len(kept)].isalnum() or not kept[-1].isalnum()


@given(st.text(st.sampled_from("ab cdéf·"), min_size=1, max_size=60), st.integers(18, 80))
def test_a_long_view_name_gives_way_to_the_count(name: str, room: int) -> None:
    text = counts_text(118, 19_630, filtered=True, view=name, notes=["★ 5,000"], room=room)
    assert ": 118 of 19,630" in text and cell_len(text) <= room
    name = "StarredwOrals in reinforcement learning"
    assert counts_text(118, 19_630, filtered=True, view=name, notes=[], room=32) == "StarredwOrals in…: 118 of 19,630"


def test_short_of_room_the_counts_padding_goes_before_a_note() -> None:
    """At 80 columns (37 cells) ``   48,273 papers · changed first`` dropped the star count: the
    padding that keeps the label's width while typing goes first, and the star count stays."""
    notes = ["", "★ 11", "", "↓changed", "48,273 marked"]
    padded = counts_text(48_273, 48_273, filtered=False, view=None, notes=notes[:2])
    assert padded.startswith("   48,273 papers")  # room enough: padded
    text = counts_text(48_273, 48_273, filtered=False, view=None, notes=notes, room=37, keep=(4, 1, 3))
    assert text == "48,273 papers · ★ 11 · 48,273 marked", text


def test_a_library_of_one_paper_says_one_paper() -> None:
    """The thirteenth round's tester saw ``1 papers · ★ 1`` in the top bar."""
    assert counts_text(1, 1, filtered=False, view=None, notes=["★ 1"]).split(" · ")[0].strip() == "1 paper"
    assert counts_text(2, 2, filtered=False, view=None, notes=[]).strip() == "2 papers"
