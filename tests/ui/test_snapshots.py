"""How it looks: SVG snapshots at a fixed size (update with --snapshot-update, then review)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.note_editor import NoteEditor
from textual.pilot import Pilot

from tests.ui.helpers import SIZE
from tests.waits import screen_settled, steady_cursors, wait_for

SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def _steady_cursors(monkeypatch: pytest.MonkeyPatch) -> None:
    steady_cursors(monkeypatch)


def seeded_app(tmp_path: Path, seed_files: list[Path], *, star_and_note: bool = False) -> PaperApp:
    store = Store(tmp_path / "data", now=lambda: "2026-11-29T12:00:00+00:00")
    import_files(store, seed_files)
    if star_and_note:
        store.set_star(store.papers[1].id, True)
        store.set_note(store.papers[1].id, "Compare with the **GNN** baseline in §4.")
        store.set_star(store.papers[4].id, True)
    return PaperApp(store=store)


def test_main_screen(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    app = seeded_app(tmp_path, seed_files, star_and_note=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=screen_settled)


def test_filtered(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("slash", *"difusion")
        await screen_settled(pilot)

    assert snap_compare(seeded_app(tmp_path, seed_files), terminal_size=SIZE, run_before=run_before)


def test_math_abstract(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("slash", *"Boolean functions Fourier")
        await screen_settled(pilot)
        await pilot.press("enter")
        await screen_settled(pilot)

    assert snap_compare(seeded_app(tmp_path, seed_files), terminal_size=SIZE, run_before=run_before)


def test_note_editor(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await screen_settled(pilot)
        await pilot.press("j", "n")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, NoteEditor), what="the note editor")
        await screen_settled(pilot)

    app = seeded_app(tmp_path, seed_files, star_and_note=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_help(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await screen_settled(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(seeded_app(tmp_path, seed_files), terminal_size=SIZE, run_before=run_before)


def test_main_screen_80x24(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    """At 80×24 the detail pane is below the list, which is the screen's width."""
    app = seeded_app(tmp_path, seed_files, star_and_note=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=screen_settled)


def test_filtered_40_columns(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    """At 40 columns the list is alone, its matched words marked; Help and Quit in the footer."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("slash", *"prun", "enter")
        await screen_settled(pilot)

    assert snap_compare(seeded_app(tmp_path, seed_files), terminal_size=(40, 20), run_before=run_before)


def test_reader_80x24(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    """``enter`` shows the highlighted paper full screen."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await screen_settled(pilot)
        await pilot.press("j", "enter")
        await screen_settled(pilot)

    app = seeded_app(tmp_path, seed_files, star_and_note=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_export_prompt_80x24(
    snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export prompt's lines wrap inside it at 80 columns (it names the working directory:
    a fixed one)."""
    app = seeded_app(tmp_path, seed_files)
    monkeypatch.chdir("/")

    async def run_before(pilot: Pilot[Any]) -> None:
        await screen_settled(pilot)
        await pilot.press("E")
        await screen_settled(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_venue_picker_80x24(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    """``c`` over a library of two venues (the ICLR 2026 seeds and three COLM 2025 papers): each
    venue ticked with its paper count, and the venue column behind it."""
    app = seeded_app(tmp_path, seed_files)
    colm = [
        Paper(id=f"title:colm-2025:{n:012x}", title=title, abstract="An abstract.", venue="COLM", year=2025)
        for n, title in enumerate(("Language models as judges", "Long-context retrieval", "Tokenizer drift"))
    ]
    app.store.import_papers(colm)

    async def run_before(pilot: Pilot[Any]) -> None:
        await screen_settled(pilot)
        await pilot.press("c")
        await screen_settled(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_followed(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Papers a follow matches are marked ◆ after the note mark; the detail pane says why."""
    store = Store(tmp_path / "data", now=lambda: "2026-11-29T12:00:00+00:00")
    names = [("Jane Doe", "Ann Lee"), ("Bob Smith",), ("Jané Doe",), ("Zed Ward",)]
    store.import_papers(
        Paper(id=f"openreview:P{n}", title=title, authors=names[n], abstract=f"About {title.lower()}.")
        for n, title in enumerate(["Diffusion for graphs", "Sparse attention", "Denoising proteins", "Graph RL"])
    )
    store.follows.add("author", "Jane Doe")
    store.follows.add("keyword", "graph")
    assert snap_compare(PaperApp(store=store), terminal_size=SIZE, run_before=screen_settled)


def test_terminal_too_small(snap_compare: SnapCompare, tmp_path: Path, seed_files: list[Path]) -> None:
    """At 24×8 one centred notice in place of the panes."""
    assert snap_compare(seeded_app(tmp_path, seed_files), terminal_size=(24, 8), run_before=screen_settled)
