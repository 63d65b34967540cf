"""The ``$EDITOR`` note file opens on the note: the note first, then a line after which the
paper's context (title, id, link) is not saved, as git's commit message template is laid out.
Typing at the top of the file (vim's ``gg i TEXT :wq``) was lost: line 1 was the title, above the
marker. A file of the former layout (context, marker, note) is still read right."""

from __future__ import annotations

from paperdeck.model.paper import Paper
from paperdeck.reading.note_file import CONTEXT_END, MARKER, NOTE_END, note_from_file, note_template

PAPER = Paper(
    id="openreview:A1",
    title="A title",
    abstract="x",
    openreview_url="https://openreview.net/forum?id=A1",
    keywords=("diffusion", "graphs"),
)


def test_the_file_opens_on_the_note_and_the_context_follows_its_marker() -> None:
    text = note_template(PAPER, "My note.\n\nSecond paragraph.")
    lines = text.splitlines()
    assert lines[:3] == ["My note.", "", "Second paragraph."]
    assert lines.index(NOTE_END) < lines.index("# A title") < lines.index(CONTEXT_END) == len(lines) - 1
    assert note_from_file(text) == "My note.\n\nSecond paragraph."


def test_text_typed_on_the_first_line_is_saved() -> None:
    for note, saved in (("", "TEXT"), ("old note", "TEXTold note")):
        text = note_template(PAPER, note)
        assert note_from_file("TEXT" + text) == saved  # vim: gg i TEXT :wq


def test_the_context_lines_are_not_saved_and_text_after_them_is() -> None:
    text = note_template(PAPER, "Mine.")
    edited = text.replace("# A title", "# A title I changed")
    assert note_from_file(edited) == "Mine."
    assert note_from_file(text + "appended by echo >>\n") == "Mine.\nappended by echo >>"
    no_end = text.replace(CONTEXT_END + "\n", "")
    assert note_from_file(no_end) == "Mine."  # the context alone follows the note's line
    whole = text.replace(NOTE_END + "\n", "")  # the note's line deleted: nothing dropped
    assert note_from_file(whole).startswith("Mine.") and "# A title" in note_from_file(whole)


def test_a_file_of_the_former_layout_is_read_as_before() -> None:
    former = f"# A title\n\n- id: openreview:A1\n\n{MARKER}\n\nThe note, as written.\nLine two.\n"
    assert note_from_file(former) == "The note, as written.\nLine two."
    assert note_from_file(f"# A title\n{MARKER}\n") == ""
