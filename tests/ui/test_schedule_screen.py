"""My schedule (``P``): star three papers of one session and two in clashing sessions, open the
screen at 80×24, see the walking order and the clash; the detail pane says when and where."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperdeck.model.paper import Paper
from paperdeck.model.safe_text import shown_line
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from paperdeck.ui.screens.schedule import ScheduleScreen
from textual.pilot import Pilot
from textual.widgets import Static

from tests.helpers import SAFETY_NAME, fixture
from tests.ui.helpers import FIXED_TIME, main_screen, paper_list, settle
from tests.waits import wait_for


def schedule_store(tmp_path: Path) -> Store:
    """The safety cut's 47 accepted ICLR 2026 papers and the made-up programme of 20 of them."""
    store = Store(tmp_path / "data", now=lambda: FIXED_TIME)
    import_files(store, [fixture(SAFETY_NAME), fixture("iclr-2026-orals-posters.json")])
    return store


async def filter_to(pilot: Pilot[Any], query: str) -> None:
    await pilot.press("slash", "ctrl+u", *query, "enter")
    await settle(pilot)


def screen_text(screen: ScheduleScreen) -> str:
    body = screen.query_one("#schedule-plan", Static)
    return "\n".join("".join(s.text for s in body.render_line(y)) for y in range(body.size.height))


async def opened_plan(app: PaperApp, pilot: Pilot[None]) -> ScheduleScreen:
    """The plan opened with ``P``, once it is made and, when it holds events, one is highlighted."""
    await pilot.press("P")
    screen = app.screen
    assert isinstance(screen, ScheduleScreen)
    await wait_for(
        pilot,
        lambda: screen.plan is not None and (screen.highlighted is not None or not screen.plan.items),
        what="the plan",
    )
    await pilot.pause()
    return screen


async def test_three_in_one_session_walk_in_poster_order_and_the_clash_is_flagged(tmp_path: Path) -> None:
    store = schedule_store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await filter_to(pilot, 'session:"poster session 1"')
        starred = []
        for _ in range(3):
            starred.append(paper_list(app).highlighted_id)
            await pilot.press("s", "j")
        await filter_to(pilot, "room:amphi")  # PALC's oral, 16:00-17:00
        starred.append(paper_list(app).highlighted_id)
        await pilot.press("s")
        await filter_to(pilot, "title:moeedit")  # a poster of Poster Session 2, 15:00-17:30
        starred.append(paper_list(app).highlighted_id)
        await pilot.press("s")
        await settle(pilot)
        assert all(store.user_data(pid or "").starred for pid in starred) and len(set(starred)) == 5
        screen = await opened_plan(app, pilot)
        plan = screen.plan
        assert plan is not None
        first = [item for item in plan.items if item.event.session == "Poster Session 1"]
        assert {item.paper_id for item in first} == set(starred[:3])
        positions = [int(item.event.poster.lstrip("#")) for item in first]
        assert positions == sorted(positions) and plan.items[:3] == tuple(first)  # the walk comes first
        clashing = {item.event.session for item in plan.items if item.clashes}
        assert clashing == {"Poster Session 2", "Oral Session 2A"}
        text = screen_text(screen)
        assert text.count("⚠ clash") == 2
        assert text.index("Poster Session 1") < text.index("Poster Session 2")
        title = str(screen.query_one("#schedule-title", Static).render())
        assert "2 clashing" in title
        await pilot.press("escape")
        assert app.screen is main_screen(app)


async def test_the_detail_pane_says_when_and_where(tmp_path: Path) -> None:
    store = schedule_store(tmp_path)
    app = PaperApp(store=store)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await filter_to(pilot, "room:amphi")
        await settle(pilot)
        body = main_screen(app).query_one("#detail-body", Static)
        # the events are read ahead in a worker: wait for the pane to have them (a loaded machine)
        await wait_for(pilot, lambda: "When: Oral" in str(body.render()), what=lambda: str(body.render()))
        text = str(body.render())
        assert "When: Poster · Thursday 2026-04-23 15:00–17:30 (UTC-03:00) · Poster Session 2 · Hall 3 · #109" in text
        assert "When: Oral · Thursday 2026-04-23 16:00–17:00 (UTC-03:00) · Oral Session 2A · Amphitheater" in text


async def export_to(pilot: Pilot[Any], target: Path) -> None:
    """Open the export dialog (``E``), type ``target`` and press enter."""
    from paperdeck.ui.screens.export import ExportPrompt
    from textual.widgets import Input

    await settle(pilot)
    await pilot.press("E")
    await settle(pilot)
    assert isinstance(pilot.app.screen, ExportPrompt)
    pilot.app.screen.query_one(Input).value = str(target)
    await pilot.press("enter")


async def test_the_export_dialog_writes_the_schedule_as_a_calendar(tmp_path: Path) -> None:
    from icalendar import Calendar

    store = schedule_store(tmp_path)
    for paper_id in ("openreview:sWs0cCuM8I", "openreview:0cmuYj3WeG"):  # a poster; a poster and an oral
        store.set_star(paper_id, True)
    app = PaperApp(store=store)
    target = tmp_path / "conference.ics"
    async with app.run_test(size=(80, 24)) as pilot:
        await export_to(pilot, target)
        await wait_for(pilot, target.exists, what="the calendar written")
        await settle(pilot)
    events = Calendar.from_ical(target.read_bytes()).walk("VEVENT")
    assert sorted(str(e["summary"]).split(":")[0] for e in events) == ["Oral", "Poster", "Poster"]


async def test_the_export_dialog_keeps_a_calendar_it_would_write_empty(tmp_path: Path) -> None:
    """No starred paper has an event: the dialog says so and leaves the file as it was, as
    ``paperdeck export`` and ``plan --ics`` do (an export of nothing keeps the file)."""

    store = schedule_store(tmp_path)
    target = tmp_path / "conference.ics"
    target.write_bytes(b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    before = target.read_bytes()
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await export_to(pilot, target)  # "that file exists: enter again replaces it"
        await settle(pilot)
        await pilot.press("enter")

        def said() -> str:
            return " ".join(str(n.message) for n in app._notifications if n.severity == "error")

        def shown() -> object:
            return [str(n.message) for n in app._notifications] or "a message"

        await wait_for(pilot, lambda: "left as it was" in said(), what=shown)
        assert "nothing written (conference.ics left as it was)" in said()
    assert target.read_bytes() == before


async def test_a_calendar_of_nothing_to_a_new_file_says_only_nothing_written(tmp_path: Path) -> None:
    """A tester's find: "(colm.ics left as it was)" for a file that never existed."""
    store = schedule_store(tmp_path)
    target = tmp_path / "conference.ics"
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await export_to(pilot, target)

        def said() -> str:
            return " ".join(str(n.message) for n in app._notifications if n.severity == "error")

        await wait_for(pilot, lambda: "nothing written" in said(), what=lambda: said() or "the refusal")
        assert said().endswith("; nothing written") and "left as it was" not in said()
    assert not target.exists()


async def test_at_80_columns_a_long_title_is_cut_with_an_ellipsis(tmp_path: Path) -> None:
    """The plan's lines are cut as the list cuts its titles: to the screen's cells, with ``…``."""
    from rich.cells import cell_len

    store = schedule_store(tmp_path)
    chosen = list(store.events_by_paper())
    for paper_id in chosen:
        store.set_star(paper_id, True)
    titles = {shown_line((store.paper(pid) or Paper(pid, "", "")).title) for pid in chosen}
    assert any(cell_len(title) > 66 for title in titles)  # longer than the title's room at 80 columns
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await opened_plan(app, pilot)
        body = screen.query_one("#schedule-plan", Static)
        lines = [line.rstrip() for line in screen_text(screen).splitlines()]
        # a title line, the highlighted event's too ("▸" in its first cell)
        titled = [line for line in lines if line[:1] in " ▸" and line[1:].startswith(" " * 12)]
        shown = [line[1:].strip() for line in titled if line.strip(" ▸")]
        assert screen.plan is not None and len(shown) == len(screen.plan.items)
        for line in shown:
            assert line in titles or (line.endswith("…") and any(t.startswith(line[:-1]) for t in titles)), line
        assert any(line.endswith("…") for line in shown)
        assert all(cell_len(line) <= body.size.width for line in lines)


async def test_enter_shows_the_highlighted_events_paper_and_s_unstars_it(tmp_path: Path) -> None:
    """The fifteenth round's tester: the plan was view-only. ``j`` highlights the next event,
    ``enter`` closes the plan on its paper in the list (the list's filter hid it: ``id:`` shows
    it), ``s`` unstars the highlighted paper, which leaves the plan, undoable on the list."""
    store = schedule_store(tmp_path)
    plan_ids = ["openreview:tz9mJmgrdM", "openreview:sbEb0Ld6MK", "openreview:4KVeb0Vv13"]
    for paper_id in plan_ids:
        store.set_star(paper_id, True)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await filter_to(pilot, "title:zzzznothing")  # the list shows none of them

        screen = await opened_plan(app, pilot)
        assert screen.plan is not None and [i.paper_id for i in screen.plan.items[:3]] == [
            "openreview:sbEb0Ld6MK", "openreview:4KVeb0Vv13", "openreview:tz9mJmgrdM",
        ]  # fmt: skip
        assert "▸" in screen_text(screen)
        await pilot.press("j")
        second = screen.highlighted
        assert second is not None and second.paper_id == "openreview:4KVeb0Vv13"
        marked = [line for line in screen_text(screen).splitlines() if line.startswith("▸")]
        assert len(marked) == 2 and shown_line(second.title)[:20] in marked[1], marked
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is main_screen(app)
        await wait_for(pilot, lambda: paper_list(app).highlighted_id == second.paper_id, what="its paper in the list")
        await filter_to(pilot, "")  # the whole list: the paper is on a row, the cursor goes there
        screen = await opened_plan(app, pilot)
        await pilot.press("j", "j")
        third = screen.highlighted
        assert third is not None and third.paper_id == "openreview:tz9mJmgrdM"
        await pilot.press("s")
        await wait_for(pilot, lambda: not store.user_data(third.paper_id).starred, what="unstarred")
        await wait_for(
            pilot,
            lambda: screen.plan is not None and third.paper_id not in {i.paper_id for i in screen.plan.items},
            what="the plan made again without it",
        )
        assert screen.highlighted is not None and screen.highlighted.paper_id == "openreview:4KVeb0Vv13"  # the last
        await pilot.press("k", "enter")
        await settle(pilot)
        assert app.screen is main_screen(app)
        await wait_for(pilot, lambda: paper_list(app).highlighted_id == "openreview:sbEb0Ld6MK", what="on its row")


async def test_enter_on_a_paper_outside_the_venue_scope_widens_the_scope(tmp_path: Path) -> None:
    """The fifteenth round's second tester: scope ICLR 2026 + COLM 2025, ``enter`` on a CVPR 2019
    event set ``id:…`` and showed "No papers match". Here the scope is COLM 2025 and the event an
    ICLR 2026 paper's: the scope takes ICLR 2026 in, one line says so and names the filter
    replaced, and the paper is highlighted."""
    store = schedule_store(tmp_path)
    import_files(store, [fixture("papercopilot_colm2025.json")])
    store.set_star("openreview:sbEb0Ld6MK", True)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main = main_screen(app)
        main.list_filter.set_scope(["COLM 2025"])
        await filter_to(pilot, "language")
        await opened_plan(app, pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is main
        await wait_for(pilot, lambda: paper_list(app).highlighted_id == "openreview:sbEb0Ld6MK", what="its paper")
        assert main.list_filter.scope == frozenset()  # both venues of the store: every venue
        said = [str(n.message) for n in app._notifications]
        assert "Scope: + ICLR 2026 · the filter was: language" in said, said


async def test_u_in_the_plan_undoes_the_star_and_the_footer_says_star_or_unstar(tmp_path: Path) -> None:
    """The fifteenth round's second tester: ``u`` in the plan did nothing and said nothing (on the
    list it undoes), and the footer said ``s Star`` where ``s`` unstars. ``u`` undoes the list's
    last step (the plan's ``s`` is one) and the plan is made again; the footer says
    ``Star/unstar``."""
    from paperdeck.ui.widgets.footer import PaperFooter

    store = schedule_store(tmp_path)
    store.set_star("openreview:sbEb0Ld6MK", True)
    store.set_star("openreview:4KVeb0Vv13", True)
    app = PaperApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await opened_plan(app, pilot)
        from textual.widgets._footer import FooterKey

        shown = [key.description for key in screen.query_one(PaperFooter).query(FooterKey)]
        assert "Star/unstar" in shown, shown
        first = screen.highlighted
        assert first is not None
        await pilot.press("s")
        await wait_for(pilot, lambda: not store.user_data(first.paper_id).starred, what="unstarred")

        def planned() -> set[str]:
            return {item.paper_id for item in screen.plan.items} if screen.plan is not None else set()

        await wait_for(pilot, lambda: first.paper_id not in planned(), what="the plan without it")
        await pilot.press("u")
        await wait_for(pilot, lambda: store.user_data(first.paper_id).starred, what="starred again")
        await wait_for(pilot, lambda: first.paper_id in planned(), what="the plan with it again")
        assert app.screen is screen
