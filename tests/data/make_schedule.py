"""Write ``iclr-2026-orals-posters.json``: a Miniconf-shaped programme of real ICLR 2026 accepted
papers with MADE-UP sessions, rooms, poster positions and times (run by hand; the same bytes each run).

The ids and titles are the first 20 records of ``iclr2026_accepted_safety-subset_openreview-flat.jsonl``
(this folder's cut of ``shared/data/`` of the same name: ICLR 2026 accepted papers, their decisions in
its ``venue``). Nothing else in the programme is real: ICLR 2026's programme was not published when
this was written, so every session, room, poster position and time is invented to test paperdeck.
The bad rows at the end (a workshop, a hidden row, a placeholder, a duplicate, a time without an
offset, an end before the start, a row of 2025, a title no paper has) are invented too.

    python tests/data/make_schedule.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "iclr2026_accepted_safety-subset_openreview-flat.jsonl"
TARGET = HERE / "iclr-2026-orals-posters.json"
MADE_UP = (
    "MADE UP for paperdeck's tests: the ids and titles are real ICLR 2026 accepted papers; every session, "
    "room, poster position and time here is invented (see tests/data/README.md)"
)
DAY1, DAY2 = "2026-04-23", "2026-04-24"
#: (session, room, start, end) — invented; Rio de Janeiro's offset, -03:00.
SESSIONS = {
    "Poster Session 1": ("Hall 3", f"{DAY1}T10:30:00-03:00", f"{DAY1}T13:00:00-03:00"),
    "Poster Session 2": ("Hall 3", f"{DAY1}T15:00:00-03:00", f"{DAY1}T17:30:00-03:00"),
    "Oral Session 2A": ("Amphitheater", f"{DAY1}T16:00:00-03:00", f"{DAY1}T17:00:00-03:00"),
    "Poster Session 3": ("Hall 2", f"{DAY2}T10:30:00-03:00", f"{DAY2}T13:00:00-03:00"),
    "Night Poster Session": ("Hall 1", f"{DAY2}T22:00:00-03:00", f"{DAY2}T23:59:00-03:00"),
}


def row(n: int, paper: dict, session: str, kind: str = "Poster", *, link: bool = True, position: str = "") -> dict:
    room, start, end = SESSIONS[session]
    out = {
        "id": 40000 + n,
        "uid": f"made-up-{n}",
        "name": paper["title"],
        "authors": [{"fullname": "A. Author", "institution": "Made-Up University"}],
        "eventtype": kind,
        "event_type": f"{kind} Session",
        "session": session,
        "room_name": room,
        "poster_position": position or (f"#{100 + n}" if kind == "Poster" else ""),
        "starttime": start,
        "endtime": end,
        "virtualsite_url": f"https://iclr.cc/virtual/2026/{kind.lower()}/{40000 + n}",
        "visible": True,
        "related_events_ids": [],
    }
    if link:
        out["paper_url"] = f"https://openreview.net/forum?id={paper['id']}"
    return out


def main() -> None:
    papers = [json.loads(line) for line in SOURCE.read_text(encoding="utf-8").splitlines()[:20]]
    rows = []
    # Poster Session 1: papers 0-7; Poster Session 2: 8-12; Poster Session 3: 13-17; night: 18-19.
    plan = ["Poster Session 1"] * 8 + ["Poster Session 2"] * 5 + ["Poster Session 3"] * 5 + ["Night Poster Session"] * 2
    for n, (paper, session) in enumerate(zip(papers, plan, strict=True)):
        # papers 5 and 6 have no forum link: joined by title (one HTML-escaped, one doubly escaped author)
        item = row(n, paper, session, link=n not in (5, 6))
        if n == 5:
            item["authors"] = [{"fullname": "Jos&eacute; Garc&iacute;a", "institution": "R&amp;D Lab"}]
        if n == 6:
            item["authors"] = [{"fullname": "Ren&amp;eacute; Dupont", "institution": "A &amp;amp; B"}]
        rows.append(item)
    # The night session runs across midnight for paper 19 (22:30 to 00:30 the next day).
    rows[19]["starttime"], rows[19]["endtime"] = f"{DAY2}T22:30:00-03:00", "2026-04-25T00:30:00-03:00"
    # Paper 9 (Poster Session 2) also has an oral in Oral Session 2A: one paper, two events.
    oral = row(20, papers[9], "Oral Session 2A", "Oral")
    oral["related_events_ids"] = [40009]
    rows[9]["related_events_ids"] = [40020]
    rows.append(oral)
    bad = [
        {**row(21, papers[0], "Poster Session 1"), "eventtype": "Workshop", "name": "A made-up workshop"},
        {**row(22, papers[1], "Poster Session 1"), "visible": False},
        {**row(23, papers[2], "Poster Session 1"), "id": "2026-Oral--placeholder", "name": "placeholder"},
        dict(rows[3]),  # the same event twice
        {**row(24, papers[4], "Poster Session 1"), "starttime": f"{DAY1}T10:30:00", "endtime": f"{DAY1}T13:00:00"},
        {
            **row(25, papers[7], "Poster Session 1"),
            "starttime": f"{DAY1}T13:00:00-03:00",
            "endtime": f"{DAY1}T10:30:00-03:00",
        },
        {
            **row(26, papers[8], "Poster Session 1"),
            "starttime": "2025-04-24T10:00:00+08:00",
            "endtime": "2025-04-24T12:00:00+08:00",
            "virtualsite_url": "https://iclr.cc/virtual/2025/poster/26",
        },
        {**row(27, papers[10], "Poster Session 3", link=False), "name": "A Made-Up Paper That No Catalogue Holds"},
    ]
    rows += bad
    page = {"count": len(rows), "_made_up": MADE_UP, "next": None, "previous": None, "results": rows}
    TARGET.write_text(json.dumps(page, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
