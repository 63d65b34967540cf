"""paperdeck benchmark: prints one JSON object of numbers; asserts nothing.

Measures, on the full ICLR 2026 dump (``../shared/data/iclr2026_submissions_reviewtracker.part*.jsonl``,
19,630 papers) when it is there, else on the bundled seeds:

- ``index_build_s``: building the search index (titles, keywords, abstracts), seconds;
- ``keystroke_p50_ms`` / ``keystroke_p95_ms``: one ranking per prefix of scripted queries, ms;
- ``star_p95_ms`` / ``note_p95_ms``: durable star toggle / note save with 5,000 starred papers, ms;
- ``peak_rss_mb``: peak resident memory of this process, MB.
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tui.core.paper import Paper  # noqa: E402
from tui.core.search import SearchIndex  # noqa: E402
from tui.core.sources.seed_text import read_seed_file  # noqa: E402
from tui.core.store import Store  # noqa: E402

DUMP = sorted((REPO.parent / "shared" / "data").glob("iclr2026_submissions_reviewtracker.part*.jsonl"))
QUERIES = ["diffusion", "graph neural", "difusion samplng", "REAP", "specul decod", "transformer attention"]


def load_papers() -> tuple[str, list[Paper]]:
    if DUMP:
        papers = []
        for part in DUMP:
            with part.open(encoding="utf-8") as handle:
                for line in handle:
                    record = json.loads(line)
                    content = record["content"]
                    papers.append(
                        Paper(
                            id=f"openreview:{record['id']}",
                            title=content.get("title") or "",
                            abstract=content.get("abstract") or "",
                            keywords=tuple(content.get("keywords") or ()),
                            venue="ICLR",
                            year=2026,
                        )
                    )
        return "iclr2026 dump", papers
    seen: dict[str, Paper] = {}
    for path in sorted((REPO / "seeds").glob("*.txt")):
        for paper in read_seed_file(path).papers:
            seen.setdefault(paper.id, paper)
    return "seeds", list(seen.values())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    source, papers = load_papers()
    started = time.perf_counter()
    index = SearchIndex(papers)
    index_build_s = time.perf_counter() - started

    keystrokes: list[float] = []
    for query in QUERIES:
        for end in range(1, len(query) + 1):
            started = time.perf_counter()
            index.search(query[:end])
            keystrokes.append((time.perf_counter() - started) * 1000)

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "data")
        ids = [paper.id for paper in papers[:5000]] or ["abs:0"]
        for paper_id in ids:
            store.set_star(paper_id, True)
        star_ms, note_ms = [], []
        for n in range(200):
            paper_id = ids[n % len(ids)]
            started = time.perf_counter()
            store.toggle_star(paper_id)
            star_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            store.set_note(paper_id, f"note {n}")
            note_ms.append((time.perf_counter() - started) * 1000)

    print(
        json.dumps(
            {
                "source": source,
                "papers": len(papers),
                "index_build_s": round(index_build_s, 2),
                "keystrokes": len(keystrokes),
                "keystroke_p50_ms": round(statistics.median(keystrokes), 1),
                "keystroke_p95_ms": round(percentile(keystrokes, 0.95), 1),
                "star_p95_ms": round(percentile(star_ms, 0.95), 2),
                "note_p95_ms": round(percentile(note_ms, 0.95), 2),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
