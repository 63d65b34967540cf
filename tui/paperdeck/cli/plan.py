"""``paperdeck plan``: the user's conference plan (:mod:`paperdeck.reading.plan`) as text, as
JSON, or written as an iCalendar file (:mod:`paperdeck.export.ics`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from paperdeck.cli.output import emit, print_error
from paperdeck.export import nothing_written
from paperdeck.model.errors import PaperdeckError
from paperdeck.model.safe_text import file_name
from paperdeck.store.store import Store

__all__ = ["add_plan_arguments", "cmd_plan"]


class PlanError(PaperdeckError):
    """A plan that cannot be made as asked (an unknown time zone): one line."""


def add_plan_arguments(parser: argparse.ArgumentParser) -> None:
    """``--tz NAME`` and ``--ics FILE``."""
    parser.add_argument("--tz", metavar="NAME", help="show times in this IANA time zone (default: the system's)")
    parser.add_argument(
        "--ics", metavar="FILE", type=Path,
        help="write the plan as an iCalendar file (one event per chosen event; exporting again updates it); "
        "a plan of no event writes nothing",
    )  # fmt: skip


def cmd_plan(store: Store, args: argparse.Namespace) -> int:
    """Print the plan of the starred and to-read papers that have events (``--json`` for
    scripts); with ``--ics``, also write it as a calendar and say how many events it holds. A
    calendar that would hold no event is not written (the file kept as it was, as an export of
    nothing keeps it): the plan is printed, one line on standard error says why, and the status
    is 1.

    Raises:
        PlanError: ``--tz`` names no time zone.
        StoreError, ExportError: the store cannot be read, or the calendar cannot be written.
    """
    from paperdeck.reading.plan import ZoneError, build_plan, plan_dict, plan_lines, time_zone

    try:
        zone, zone_name = time_zone(args.tz)
    except ZoneError as exc:
        raise PlanError(str(exc)) from None
    papers = {paper.id: paper for paper in store.papers}
    plan = build_plan(papers, store.events_by_paper(), store.all_user_data, zone, zone_name)
    data = plan_dict(plan)
    lines = plan_lines(plan, width=200)
    if args.ics is not None:
        from paperdeck.export.ics import empty_calendar_reason, write_calendar

        if (empty := empty_calendar_reason(plan.items)) is not None:
            emit(args, data, "\n".join(lines))
            print_error(f"plan: {empty}; {nothing_written(args.ics, file_name(args.ics))}")
            return 1

        left_out = write_calendar(args.ics, plan.items, data_dir=store.data_dir)
        written = len(plan.items) - left_out
        line = f"{file_name(args.ics)}: {written:,} event{'' if written == 1 else 's'} written"
        if left_out:
            line += f" ({left_out:,} without a time left out)"
        lines += ["", line]
        data["ics"] = {"path": str(args.ics), "events": written, "without_time": left_out}
    emit(args, data, "\n".join(lines))
    return 0
