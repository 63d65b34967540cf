"""An escape character inside a bracketed paste stays text, in its place (a tester's find: coloured
terminal output pasted into a note came out with its second half first, and was saved so)."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st
from paperdeck.ui._lines.terminal import PASTE_END, PASTE_START, PASTED_ESCAPE, PasteEscapes
from textual import events
from textual._xterm_parser import XTermParser

PASTED = "one two \x1b[1m three\tfour \x1b]0;title\x07 five\x1b"
TYPED = PASTE_START + PASTED + PASTE_END


def parsed(chunks: list[str], *, guarded: bool = True) -> list[object]:
    """The events Textual's parser makes of ``chunks`` then the end of input, fed as the
    driver feeds them (through :class:`PasteEscapes`), or straight."""
    parser = XTermParser()
    feed = PasteEscapes().feeding(parser) if guarded else parser.feed
    found: list[object] = []
    for chunk in chunks:
        found.extend(feed(chunk))
    found.extend(feed(""))
    return found


def test_a_paste_holding_escapes_is_one_paste_in_its_order() -> None:
    found = parsed([TYPED])
    assert [type(event) for event in found] == [events.Paste]
    assert found[0].text == PASTED.replace("\x1b", PASTED_ESCAPE)  # type: ignore[attr-defined]


def test_without_the_guard_textuals_parser_reorders_the_paste() -> None:
    """What the guard is for: Textual 8.2.8 sends the text after the escape as keys first."""
    found = parsed([TYPED], guarded=False)
    assert any(isinstance(event, events.Key) for event in found)


@given(st.lists(st.integers(min_value=0, max_value=len(TYPED)), max_size=6))
def test_a_paste_split_anywhere_across_chunks_is_the_same_paste(cuts: list[int]) -> None:
    bounds = [0, *sorted(cuts), len(TYPED)]
    chunks = [TYPED[a:b] for a, b in itertools.pairwise(bounds) if b > a]
    found = parsed(chunks)
    assert [type(event) for event in found] == [events.Paste]
    assert found[0].text == PASTED.replace("\x1b", PASTED_ESCAPE)  # type: ignore[attr-defined]


def test_outside_a_paste_nothing_is_changed_or_held() -> None:
    guard = PasteEscapes()
    assert guard("\x1b") == "\x1b"  # the escape key, passed on at once
    assert guard("[A") == "[A"
    assert guard("x\x1b[20") == "x\x1b[20"  # maybe a paste's start: passed on all the same
    assert guard("1~") == "1~"
    assert guard("\x1b[1;5A") == "\x1b[1;5A"


def test_keys_after_a_paste_are_keys_again() -> None:
    found = parsed([TYPED + "q"])
    assert [type(event) for event in found] == [events.Paste, events.Key]
    assert found[1].key == "q"  # type: ignore[attr-defined]
