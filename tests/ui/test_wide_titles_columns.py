"""The list's columns stay straight whatever the titles hold (tester round 16: at 80×24 in tmux
3.3a, titles with ZWJ emoji, emoji with variation selectors, flags, skin tones and Devanagari
vowel signs pushed the venue column; each such title is drawn in a form terminals agree on by
:func:`paperdeck.text.steady_width.steady_width`, its vowel signs kept: they are the words).
A terminal that counts every character alone
is what the test measures by: the venue starts at the same cell of every row."""

from __future__ import annotations

import csv
from pathlib import Path

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from rich.cells import cell_len

from tests.ui.helpers import paper_list, settle

TITLES = [
    "Plain title for the baseline row",
    "👩\u200d🔬 Scientists and 👨\u200d👩\u200d👧\u200d families of agents",
    "❤\ufe0f ✔\ufe0f ☺\ufe0f Emoji with variation selectors",
    "🇫🇷🇩🇪 Flags in a title",
    "👍🏽 Skin tones in a title",
    "किताब हिन्दी Devanagari vowel signs",
    "สวัสดี น้ำ Thai marks",
    "中文 ＡＢ full-width and CJK",
]


def _store(tmp_path: Path) -> Store:
    path = tmp_path / "wide-titles.csv"
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["title", "venue", "year"])
        for n, title in enumerate(TITLES):
            writer.writerow([title, "COLM" if n % 2 else "ICLR", "2025" if n % 2 else "2026"])
    store = Store(tmp_path / "data")
    import_files(store, [path])
    return store


async def test_the_venue_column_starts_at_one_cell_in_every_row_at_80_columns(tmp_path: Path) -> None:
    app = PaperApp(store=_store(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        papers = paper_list(app)
        starts = set()
        for y in range(len(TITLES)):
            row = papers.render_line(y).text
            venue = min(at for name in ("ICLR 2026", "COLM 2025") if (at := row.find(name)) >= 0)
            starts.add(sum(cell_len(char) for char in row[:venue]))  # each character alone
            assert cell_len(row[:venue]) == sum(cell_len(char) for char in row[:venue]), row
        assert len(starts) == 1, starts
