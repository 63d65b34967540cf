"""The statistics cache (``stats-cache.json`` beside the catalogue): what ``paperdeck stats``
counts from the catalogue and the review summaries, kept so that the next ``stats`` reads one
small file instead of parsing the whole catalogue.

Shape: one JSON object ``{"schema": 2, "key": KEY, "counts": {…}, "figures": {…}}``: ``KEY`` is
the catalogue file's ``[size, mtime in ns]`` and the reviews index's, as :func:`cache_key` gives
them; ``counts`` is whatever the caller keeps (JSON); ``figures`` is
:meth:`paperdeck.stats.figures.Figures.to_cache`. A cache whose key is not the store's as it is
on disk now is not used (another import changed the catalogue or the reviews) and is written
again. The user's marks are never cached: they change between two runs and are counted afresh
(:meth:`~paperdeck.stats.figures.Figures.with_progress`).

The cache is derived data: a missing, unreadable or malformed file is counted again, and a
cache that cannot be written is only a slower next run (never an error).
"""

from __future__ import annotations

import contextlib
from typing import Any

import orjson

from paperdeck.model.errors import StoreError
from paperdeck.stats.figures import Figures
from paperdeck.store.atomic import atomic_write_bytes
from paperdeck.store.store import Store

__all__ = ["CACHE_FILE", "cache_key", "read_cache", "write_cache"]

CACHE_FILE = "stats-cache.json"
_SCHEMA = 3  # 2: the figures carry the rating moves; 3: and each venue's (Figures.venues)


def cache_key(store: Store) -> list[Any]:
    """The catalogue's and the reviews index's ``[size, mtime in ns]`` (``None`` for a missing file)."""
    try:
        stat = store.reviews.index_path.stat()
        reviews: list[int] | None = [stat.st_size, stat.st_mtime_ns]
    except OSError:
        reviews = None
    return [store.catalogue_stamp(), reviews]


def read_cache(store: Store) -> tuple[dict[str, Any], Figures] | None:
    """The cached counts and figures when the cache is of the store as it is on disk now, else
    ``None`` (no cache, another key, or a file that is not a cache)."""
    try:
        data = orjson.loads((store.data_dir / CACHE_FILE).read_bytes())
        if data.get("schema") != _SCHEMA or data.get("key") != cache_key(store):
            return None
        return dict(data["counts"]), Figures.from_cache(data["figures"])
    except (OSError, orjson.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError):
        return None


def write_cache(store: Store, key: list[Any], counts: dict[str, Any], figures: Figures) -> None:
    """Keep ``counts`` and ``figures``, counted from the store as it was at ``key`` (taken
    before counting: a change meanwhile leaves a cache that is not used). Best effort."""
    payload = {"schema": _SCHEMA, "key": key, "counts": counts, "figures": figures.to_cache()}
    with contextlib.suppress(StoreError, OSError):
        atomic_write_bytes(store.data_dir / CACHE_FILE, orjson.dumps(payload))
