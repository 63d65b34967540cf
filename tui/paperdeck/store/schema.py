"""The mark every file of the store starts with: which program wrote it, at which schema.

Each TinyDB file paperdeck writes (the catalogue, the user shards, the follows) holds a ``meta``
table whose document 1 is :func:`meta`; :func:`check_schema` refuses, on reading, a file another
program wrote or a newer paperdeck did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperdeck.model.errors import StoreError

__all__ = ["SCHEMA_VERSION", "check_schema", "meta"]

#: Version of the store layout, recorded in each file's "meta" table.
SCHEMA_VERSION = 2


def meta() -> dict[str, Any]:
    """The ``meta`` document of a file this paperdeck writes: ``{"app": "paperdeck", "schema": 2}``."""
    return {"app": "paperdeck", "schema": SCHEMA_VERSION}


def check_schema(data: dict[str, Any], path: Path) -> None:
    """Refuse a file that is not ours or was written by a newer paperdeck.

    Args:
        data: the file's parsed tables (``{"meta": {"1": {...}}, ...}``).
        path: the file, named in the error.

    Raises:
        StoreError: the file holds data but no paperdeck mark, or a schema newer than
            :data:`SCHEMA_VERSION`.
    """
    table = data.get("meta")
    schema = app = None
    if isinstance(table, dict) and table:
        first = next(iter(table.values()))
        schema = first.get("schema") if isinstance(first, dict) else None
        app = first.get("app", "paperdeck") if isinstance(first, dict) else None
    if app != "paperdeck" or not isinstance(schema, int):
        # Every file paperdeck writes says "paperdeck" and its schema before it holds any data,
        # so a file without that mark is another program's (TinyDB's default table, another
        # app's meta): taken for an empty store, it would be overwritten by the first import.
        # Only a file holding no data at all is safe to take.
        if set(data) - {"meta", "papers", "aliases", "user", "_default"} or any(data.values()):
            raise StoreError(
                path,
                "not a paperdeck store (another program's file?); move it aside or pass "
                "--data-dir — paperdeck will not overwrite it",
            )
        return
    if schema > SCHEMA_VERSION:
        raise StoreError(
            path, f"written by a newer paperdeck (schema {schema}, this one reads {SCHEMA_VERSION}); upgrade"
        )
