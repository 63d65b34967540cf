"""The app's first query, words only, filters the list from the saved search index without
importing numpy (whose import alone costs about as long as the index takes to read): run in a
child process, where nothing else has imported it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from paperdeck.search.searcher import build_index
from paperdeck.store.store import Store

_SCRIPT = """
import asyncio, sys
from paperdeck.store.store import Store
from paperdeck.ui.app import PaperApp
from tests.ui.helpers import counts, settle

async def main() -> None:
    app = PaperApp(store=Store(sys.argv[1], lazy=True))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"difusion")
        await settle(pilot)
        print(counts(app), "numpy" in sys.modules, sep="|")

asyncio.run(main())
"""


def test_the_first_words_only_query_filters_without_numpy(seeded_store: Store) -> None:
    build_index(seeded_store)  # saved beside the catalogue, as an import leaves it
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(seeded_store.data_dir)],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    shown, numpy_imported = done.stdout.strip().splitlines()[-1].split("|")
    assert " of 37" in shown and numpy_imported == "False", done.stdout + done.stderr
