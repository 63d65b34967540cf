"""Hostile text in titles, abstracts, authors and notes: shown literally, layout intact, no crash,
still searchable — at 80×24 and 200×60."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.widgets.paper_detail import PaperDetail
from paperdeck.ui.widgets.paper_list import PaperList
from textual.widgets import Static

from tests.ui.conftest import FIXED_TIME, highlighted, main_screen, paper_list, settle

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
