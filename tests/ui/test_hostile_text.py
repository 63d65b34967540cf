"""Hostile text in titles, abstracts, authors and notes: shown literally, layout intact, no crash,
still searchable — at 80×24 and 200×60."""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paperdeck.model.errors import PaperdeckError
from paperdeck.model.paper import Paper, UserData, with_tags
from paperdeck.model.safe_text import web_link
from paperdeck.sources import read_source
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.detail_content import detail_content
from paperdeck.ui.widgets.paper_detail import PaperDetail
from paperdeck.ui.widgets.paper_list import PaperList
from textual.drivers.headless_driver import HeadlessDriver
from textual.style import Style
from textual.widgets import Static

from tests.hostile_corpus import raw_controls, terminal_log_problems, write_corpus
from tests.ui.helpers import FIXED_TIME, highlighted, main_screen, paper_list, settle
from tests.waits import wait_for

HOSTILE = [
    Paper(
        id="abs:markup",
        title="[bold red]Markup[/] [CLS] [/INST] [link=x]y[/link] $x$ 50%",
        abstract="[b]not bold[/b] " * 20,
    ),
    Paper(
        id="abs:ansi",
        title="Escapes \x1b[31mred\x1b[0m \x1b]52;c;ZXZpbA==\x07 \x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\",
        abstract="\x1b[2J\x1b[H clear screen attempt \x9b31m and C1 " * 10,
    ),
    Paper(
        id="abs:bidi",
        title="Bidi \u202eevil\u202c and \u2066isolate\u2069 text",
        abstract="zero\u200bwidth\u00a0nbsp " * 30,
    ),
    Paper(id="abs:long", title="Unbroken " + "x" * 5000, abstract="y" * 5000),
    Paper(
        id="abs:cjk",
        title="多模态大模型 😀🚀 emoji and CJK 論文",
        abstract="中文摘要 " * 100,
        authors=("张三", "Zoë Ünïcode"),
    ),
]
BENIGN = Paper(id="abs:plain", title="A plain paper", abstract="Plain text. " * 20)


def make_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers([BENIGN, *HOSTILE])
    store.set_note("abs:ansi", "note with \x1b[31m escape and [bold]markup[/bold]")
    return store


def screen_text(app: PaperApp) -> str:
    return "\n".join(
        str(widget.render()) for widget in main_screen(app).query(Static) if widget.id in ("detail-body", "counts")
    )


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_every_hostile_paper_renders_literally_with_layout_intact(tmp_path: Path, size: tuple[int, int]) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        regions = (screen.query_one(PaperList).region, screen.query_one(PaperDetail).region)
        for _ in HOSTILE:
            await pilot.press("j")
            await pilot.pause()
            text = screen_text(app)
            assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
            # The panes keep their places and sizes whatever the text.
            assert (screen.query_one(PaperList).region, screen.query_one(PaperDetail).region) == regions
            # Every visible list line fits the pane.
            strips = [screen.query_one(PaperList).render_line(y) for y in range(3)]
            assert all(
                strip.cell_length == screen.query_one(PaperList).scrollable_content_region.width for strip in strips
            )
        assert highlighted(app).id == "abs:cjk"
        assert "张三, Zoë Ünïcode" in screen_text(app)


async def test_markup_escapes_and_bidi_are_shown_not_obeyed(tmp_path: Path) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("j")  # the markup paper
        await pilot.pause()
        text = screen_text(app)
        assert "[bold red]Markup[/] [CLS] [/INST] [link=x]y[/link] x 50%" in text
        assert "[b]not bold[/b]" in text
        await pilot.press("j")  # the escape-code paper and its note
        await pilot.pause()
        text = screen_text(app)
        assert "␛[31mred␛[0m ␛]52;c;ZXZpbA==␇" in text
        assert "note with ␛[31m escape and [bold]markup[/bold]" in text
        await pilot.press("j")
        await pilot.pause()
        assert "⟨U+202E⟩evil⟨U+202C⟩" in screen_text(app)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("markup", "abs:markup"),
        ("escapes", "abs:ansi"),
        ("bidi", "abs:bidi"),
        ("unbroken", "abs:long"),
        ("emoji", "abs:cjk"),
        ("多模态大模型", "abs:cjk"),
    ],
)
async def test_hostile_papers_are_still_found(tmp_path: Path, query: str, expected: str) -> None:
    app = PaperApp(store=make_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *query)
        await settle(pilot)
        assert paper_list(app).highlighted_id == expected


# -- Every byte the app writes, over a store imported from hostile files of every format -------


class RecordingDriver(HeadlessDriver):
    """A headless driver that keeps what the app writes to the terminal and the links it opens
    (the app draws for it as for a real terminal: it is not headless to the app)."""

    written: ClassVar[list[str]] = []
    opened: ClassVar[list[str]] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        self.written.append(data)

    def flush(self) -> None:
        pass

    def open_url(self, url: str, new_tab: bool = True) -> None:
        self.opened.append(url)


AUTOLINK = b"ICLR 2026\n\nWe study terminals and links in abstracts of papers, see https://a.example/x\x07\x1b]52;c;cHduZWQ=\x07 for the code and data of this work.\n"  # noqa: E501
#: A paper of a store written before links were checked at import.
OLD_STORE_PAPER = Paper(
    id="abs:oldstore",
    title="A paper from an old store with a javascript link",
    abstract="Old abstract. A [markdown link](javascript:alert(1)) and \\href{file:///etc/passwd}{a LaTeX one}.",
    pdf_url="javascript:alert(1)//\x1b]52;c;cHduZWQ=\x07",
)


def hostile_store(tmp_path: Path) -> Store:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    (tmp_path / "autolink.txt").write_bytes(AUTOLINK)
    taken = []
    for path in [tmp_path / "autolink.txt", *write_corpus(tmp_path / "files")]:
        with contextlib.suppress(PaperdeckError):  # a file refused as a whole (NUL in a CSV…)
            read_source(path)
            taken.append(path)
    import_files(store, taken)
    store.import_papers([OLD_STORE_PAPER])
    for paper in store.papers[:: max(1, len(store.papers) // 8)]:
        store.change([paper.id], lambda r: with_tags(r, add=["tag\x1b]52;c;cHduZWQ=\x07\u202e"]))
    return store


async def recorded_app(store: Store) -> PaperApp:
    RecordingDriver.written.clear()
    RecordingDriver.opened.clear()
    app = PaperApp(store=store)
    app.driver_class = RecordingDriver
    return app


def log() -> str:
    return "".join(RecordingDriver.written)


@pytest.mark.slow  # every paper of the corpus, one by one
async def test_no_escape_sequence_from_the_data_reaches_the_terminal(tmp_path: Path) -> None:
    store = hostile_store(tmp_path)
    assert len(store.papers) >= 90
    app = await recorded_app(store)
    copied: list[str] = []
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        await settle(pilot)
        for number in range(len(store.papers)):
            await pilot.press("j")
            await pilot.pause()
            if number % 7 == 0:
                await pilot.press("y")  # the title and link to the clipboard
                await pilot.pause()
                copied.append(app.clipboard)
                await pilot.press("o")  # the link chooser, or the one link refused
                await pilot.pause()
                await pilot.press("escape")
                await pilot.pause()
        await pilot.press("g")
        await pilot.press("t")  # the tag prompt shows the paper's tags
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    problems = terminal_log_problems(log())
    assert not problems, f"{len(problems)} problems, e.g. {problems[:5]}"
    assert copied and all(not raw_controls(text) for text in copied), copied
    assert all(url.startswith(("http://", "https://")) for url in RecordingDriver.opened)
    # The drawing shows what the data held (the escapes as ␛, the tags as written).
    assert "␛]52;c;cHduZWQ=␇" in log()


async def test_a_url_ending_in_bel_links_only_up_to_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    (tmp_path / "autolink.txt").write_bytes(AUTOLINK)
    import_files(store, [tmp_path / "autolink.txt"])
    app = await recorded_app(store)
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
    written = log()
    assert "\x1b]8;id=" in written  # the app does link URLs
    targets = set(re.findall(r"\x1b\]8;[^;]*;([^\x1b\x07]+)", written))
    assert targets == {"https://a.example/x"}
    assert "␇␛]52;c;cHduZWQ=␇ for the code" in written
    assert not terminal_log_problems(written)


async def test_o_and_clicks_refuse_a_link_that_is_not_http_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []

    def browser(url: str) -> bool:
        opened.append(url)
        return True

    monkeypatch.setattr("paperdeck.ui.links.open_in_browser", browser)
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers([OLD_STORE_PAPER])
    app = await recorded_app(store)
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        app.action_open_link("file:///etc/passwd")
        app.action_open_link("https://openreview.net/forum?id=ok")
        await app.workers.wait_for_complete()
        await pilot.pause()
        messages = [notification.message for notification in app._notifications]
    assert opened == ["https://openreview.net/forum?id=ok"]
    refused = [message for message in messages if message.startswith("Not opened")]
    assert len(refused) == 2
    assert "javascript:alert(1)//␛]52;c;cHduZWQ=␇ is not an http(s) link" in refused[0]
    assert not raw_controls("".join(messages))
    # Neither the stored link nor the abstract's Markdown and LaTeX links became hyperlinks.
    assert not re.findall(r"\x1b\]8;[^;]*;([^\x1b\x07]+)", log())
    assert not terminal_log_problems(log())


async def test_the_clipboard_gets_no_control_character(tmp_path: Path) -> None:
    # the source's own entry (its title the paper's, so it is copied as it was) carries the escape
    own = "@misc{k,\n  title={A paper from an old store with a javascript link},\n  note={\x1b]52;c;cHduZWQ=\x07}\n}"
    paper = replace(OLD_STORE_PAPER, bibtex=own)
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers([paper])
    app = await recorded_app(store)
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
        title_and_link = app.clipboard
        await pilot.press("Y")
        await pilot.pause()
        bibtex = app.clipboard
    assert title_and_link == "A paper from an old store with a javascript link\njavascript:alert(1)//␛]52;c;cHduZWQ=␇"
    assert bibtex == own.replace("\x1b", "␛").replace("\x07", "␇") + "\n"
    assert not terminal_log_problems(log())


async def test_a_hand_edited_config_cannot_reach_the_terminal_through_views_or_keys(tmp_path: Path) -> None:
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers([BENIGN])
    (tmp_path / "data" / "config.json").write_text(
        json.dumps(
            {
                "views": {"Evil\x1b]52;c;cHduZWQ=\x07 view": "plain \x1b]52;c;cHduZWQ=\x07\x9b666m"},
                "keymap": {"main.star": "f,\x1b[666m", "main.copy": "\x9b666m"},
            }
        ),
        encoding="utf-8",
    )
    app = await recorded_app(store)
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("v")  # the views list: names and queries
        await pilot.pause()
        await pilot.press("escape")
        await pilot.press("7")  # the user's view (after the six built-in ones): its query in the filter bar
        await settle(pilot)
        await pilot.press("question_mark")  # help: the keys in effect
        await pilot.pause()
    assert "plain ␛]52;c;cHduZWQ=␇⟨U+009B⟩666m" in log()
    assert not terminal_log_problems(log())


async def test_the_note_editor_shows_a_restored_notes_escapes_and_keeps_them(tmp_path: Path) -> None:
    note = "restored \x1b]52;c;cHduZWQ=\x07 and \x9b666m \u202eend\tx"
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    store.import_papers([BENIGN])
    store.set_note(BENIGN.id, note)
    app = await recorded_app(store)
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("end", "!", "ctrl+s")
        await wait_for(pilot, lambda: store.user_data(BENIGN.id).note == note + "!", what="the note saved")
    assert "restored ␛]52;c;cHduZWQ=␇ and �666m" in log()
    assert not terminal_log_problems(log())
    assert store.user_data(BENIGN.id).note == note + "!"  # the note as written, plus the key typed


# -- Any text in any field: the detail pane shows no control character and links only web links --

_ANY_TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from(["\x1b", "\x07", "\x9b", "\x9c", "\u202e", "\r"]))
_LINKISH = st.one_of(
    _ANY_TEXT,
    st.builds(str.__add__, st.sampled_from(["https://", "http://", "javascript:", "file://"]), _ANY_TEXT),
)


@settings(max_examples=150, deadline=None)
@given(
    title=_ANY_TEXT,
    abstract=st.builds(lambda a, url, b: f"{a} {url} {b}", _ANY_TEXT, _LINKISH, _ANY_TEXT),
    tldr=_ANY_TEXT,
    words=st.lists(_ANY_TEXT, max_size=3),
    venue=_ANY_TEXT,
    link=_LINKISH,
    note=_ANY_TEXT,
)
def test_any_text_in_any_field_shows_no_control_and_links_only_web_links(
    title: str, abstract: str, tldr: str, words: list[str], venue: str, link: str, note: str
) -> None:
    paper = Paper(
        id=f"abs:{title[:8]}",
        title=title,
        abstract=abstract,
        tldr=tldr,
        authors=tuple(words),
        keywords=tuple(words),
        primary_area=venue,
        venue=venue,
        decision_raw=venue,
        sources=tuple(words),
        pdf_url=link,
        openreview_url=link,
        code_url=link,
        arxiv_url=link,
    )
    user = UserData(paper.id, note=note, tags=tuple(words), status="read")
    content = detail_content(paper, user)
    assert not raw_controls(content.plain.replace("\n", " "))
    links = [span.style.link for span in content.spans if isinstance(span.style, Style) and span.style.link]
    assert all(web_link(target) == target for target in links), links
