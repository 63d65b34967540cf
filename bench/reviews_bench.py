"""Reviews benchmark part (``bench/bench.py reviews`` runs only this, after the dump's import).

- ``reviews_import_s``: import of the three review parts (gzip JSON Lines) into the store holding
  the dump, seconds (reading, checking, shard files, summaries, the catalogue's ratings);
- ``reviews_store_mb`` and ``reviews_store_ratio``: the ``reviews/`` directory on disk, and its size
  over the unpacked notes';
- ``reviews_open_p50_ms`` / ``reviews_open_p95_ms``: one paper's reviews read in a fresh store
  (the index already read, as the app has it once a paper was shown), 500 papers at random;
  ``reviews_first_open_ms``: the first one, reading the index too;
- ``reviews_query_p50_ms`` / ``reviews_query_p95_ms``: ``review:`` queries over all review text
  (:data:`REVIEW_QUERIES`, 5 rounds) through ``run_query``, the search index built and the word
  index read; ``reviews_query_first_ms``: the first ``review:`` query in a fresh store, reading
  the word index too;
- score history (:func:`measure_history`): ``reviews_history_versions``, the earlier versions the
  import kept (1,177 in the shipped parts: of 932 official reviews, and of comments);
  ``reviews_history_open_p50_ms`` / ``reviews_history_open_p95_ms``: one paper's reviews read in a
  fresh store, as above, for papers with a review whose rating moved (500 of them at random);
  ``reviews_history_reimport_s``: the three parts imported again into the store holding them (every
  note merged with the stored one; nothing added), seconds; ``reviews_history_update_s``: a file of
  a newer version of 2,000 reviews (another rating each) imported into it, each becoming a
  version, seconds.
"""

from __future__ import annotations

import gzip
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

#: The shared real data: ``$PAPERDECK_SHARED``, else ``../shared`` beside the repository (as the tests find it).
SHARED = Path(os.environ.get("PAPERDECK_SHARED") or Path(__file__).resolve().parents[2] / "shared")
REVIEW_PARTS = sorted((SHARED / "reviews").glob("iclr2026_reviews_reviewtracker.part*.jsonl.gz"))


REVIEW_QUERIES = [
    "review:baseline",
    'review:"weak baseline"',
    "review:*former",
    "-review:theorem",
    "review:hallucinat decision:accept",
    "review:a",
    "diffusion review:reproducib",
    "review:llm OR review:agent",
]


def measure_review_queries(data_dir: Path, percentile: Callable[[list[float], float], float]) -> dict[str, float]:
    """The ``reviews_query_*`` numbers (see the module docstring) on the store in ``data_dir``."""
    from paperdeck.search.searcher import Searcher

    searcher = Searcher(Store(data_dir))
    searcher.index.get()  # as the app has it, built in a worker
    return time_queries(searcher, REVIEW_QUERIES, percentile, "reviews_query")


def time_queries(
    searcher: Any, queries: Sequence[str], percentile: Callable[[list[float], float], float], key: str
) -> dict[str, float]:
    """``{key}_first_ms`` (the first query, which builds what the rest reuse), ``{key}_p50_ms`` and
    ``{key}_p95_ms`` of ``queries`` run five times each through ``searcher`` (wall time, ms)."""
    from paperdeck.search.query import parse_query
    from paperdeck.search.selection import run_query

    started = time.perf_counter()
    run_query(searcher, parse_query(queries[0]))
    first_ms = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(5):
        for text in queries:
            started = time.perf_counter()
            query = parse_query(text)
            assert query.error is None, (text, query.error)
            run_query(searcher, query)
            times.append((time.perf_counter() - started) * 1000)
    return {
        f"{key}_first_ms": round(first_ms, 1),
        f"{key}_p50_ms": round(percentile(times, 0.5), 1),
        f"{key}_p95_ms": round(percentile(times, 0.95), 1),
    }


def measure_history(store: Store, percentile: Callable[[list[float], float], float]) -> dict[str, float | int]:
    """The ``reviews_history_*`` numbers but the versions count (see the module docstring) on
    ``store``, which holds every review part; it holds 2,000 more versions after."""
    import tempfile

    import orjson

    summaries = Store(store.data_dir, lazy=True).reviews.summaries()
    moved = sorted(forum for forum, summary in summaries.items() if summary.moved)
    fresh = Store(store.data_dir, lazy=True)
    fresh.reviews.reviews(moved[0])  # the index read, as the app has it
    times = []
    for forum in random.Random(15).sample(moved, min(500, len(moved))):
        started = time.perf_counter()
        fresh.reviews.reviews(forum)
        times.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    again = import_files(store, REVIEW_PARTS)
    reimport_s = time.perf_counter() - started
    assert again.reviews is not None and again.reviews.versions == 0, again.summary()
    later: list[dict[str, object]] = []
    with gzip.open(REVIEW_PARTS[0], "rb") as handle:
        for line in handle:
            note = orjson.loads(line)
            if note["invitations"][0].endswith("/-/Official_Review") and len(later) < 2_000:
                note["tmdate"] += 86_400_000
                note["content"]["rating"]["value"] = 10 - note["content"]["rating"]["value"]
                later.append(note)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "later.jsonl"
        path.write_bytes(b"".join(orjson.dumps(note) + b"\n" for note in later))
        started = time.perf_counter()
        update = import_files(store, [path])
        update_s = time.perf_counter() - started
    assert update.reviews is not None and update.reviews.versions == len(later), update.summary()
    return {
        "reviews_history_open_p50_ms": round(percentile(times, 0.5), 2),
        "reviews_history_open_p95_ms": round(percentile(times, 0.95), 2),
        "reviews_history_reimport_s": round(reimport_s, 2),
        "reviews_history_update_s": round(update_s, 2),
    }


def _unpacked_bytes(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        with gzip.open(path, "rb") as handle:
            while chunk := handle.read(1 << 22):
                total += len(chunk)
    return total


def measure_reviews(store: Store, percentile: Callable[[list[float], float], float]) -> dict[str, float | int]:
    """Import the review parts into ``store`` and time reading them back (see the module docstring)."""
    started = time.perf_counter()
    summary = import_files(store, REVIEW_PARTS)
    import_s = time.perf_counter() - started
    directory = store.reviews.directory
    size = sum(path.stat().st_size for path in directory.iterdir() if path.is_file())
    ratio = size / _unpacked_bytes(REVIEW_PARTS)
    forums = sorted(Store(store.data_dir, lazy=True).reviews.summaries())
    fresh = Store(store.data_dir, lazy=True)
    picks = random.Random(15).sample(forums, 500)
    started = time.perf_counter()
    fresh.reviews.reviews(picks[0])
    first_ms = (time.perf_counter() - started) * 1000
    times = []
    for forum in picks[1:]:
        started = time.perf_counter()
        fresh.reviews.reviews(forum)
        times.append((time.perf_counter() - started) * 1000)
    reviews = summary.reviews
    return {
        "reviews_notes": (reviews.new + reviews.updated + reviews.unchanged) if reviews else 0,
        "reviews_import_s": round(import_s, 2),
        "reviews_store_mb": round(size / 1e6, 1),
        "reviews_store_ratio": round(ratio, 2),
        "reviews_first_open_ms": round(first_ms, 1),
        "reviews_open_p50_ms": round(percentile(times, 0.5), 2),
        "reviews_open_p95_ms": round(percentile(times, 0.95), 2),
        **measure_review_queries(store.data_dir, percentile),
        "reviews_history_versions": reviews.versions if reviews else 0,
        **measure_history(store, percentile),  # last: it adds versions to the store
    }
