"""Paper text is data: control characters are made visible, never sent to the terminal."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from paperdeck.model.safe_text import one_line, visible


def test_escape_sequences_become_visible() -> None:
    shown = visible("a\x1b[31mred\x1b]52;c;ZXZpbA==\x07b")
    assert "\x1b" not in shown and "\x07" not in shown
    assert shown == "a␛[31mred␛]52;c;ZXZpbA==␇b"


def test_bidi_overrides_are_shown() -> None:
    assert visible("x\u202ey") == "x⟨U+202E⟩y"


def test_markup_like_text_is_untouched() -> None:
    text = "[CLS] [/INST] [bold]x[/bold] <think> 5% $x$"
    assert visible(text) == text


def test_one_line_folds_newlines_and_runs_of_space() -> None:
    assert one_line("a\n  b\tc\r\nd") == "a b c d"


@given(st.text())
def test_no_control_character_survives(text: str) -> None:
    shown = visible(text)
    assert not any(ord(ch) < 32 and ch != "\n" for ch in shown)
    assert not any(0x7F <= ord(ch) <= 0x9F for ch in shown)
