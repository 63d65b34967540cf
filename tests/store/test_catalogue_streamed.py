"""The catalogue written as it is serialised: :func:`paperdeck.store.catalogue.catalogue_pieces`
gives the file in bounded pieces, byte for byte what ``orjson.dumps`` makes of the whole, and an
import hands those pieces to the writer, never the whole text. The papers are those of the
committed cuts of the real dump parts (``tests/data/``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store import catalogue as catalogue_module
from paperdeck.store.catalogue import catalogue_bytes, catalogue_pieces
from paperdeck.store.schema import meta
from paperdeck.store.store import Store
from paperdeck.store.user_data import doc_id_for

from tests.helpers import submission_parts


def test_the_pieces_are_the_whole_file_and_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "store")
    import_files(store, submission_parts())
    store.catalogue.load()
    papers, aliases = dict(store.catalogue.held_papers), {"openreview:old1": next(iter(store.catalogue.held_papers))}
    monkeypatch.setattr(catalogue_module, "PIECE_BYTES", 4096)
    spans: dict[str, tuple[int, int]] = {}
    pieces = list(catalogue_pieces(papers, aliases, spans))
    largest = max(len(orjson.dumps(paper.to_dict())) for paper in papers.values())
    assert len(pieces) > 10 and max(map(len, pieces)) < 4096 + largest + 64
    text = b"".join(pieces)
    whole = {
        "meta": {"1": meta()},
        "papers": {str(doc_id_for(pid)): paper.to_dict() for pid, paper in papers.items()},
        "aliases": {"1": aliases},
    }
    assert text == orjson.dumps(whole)
    assert text == catalogue_bytes(papers, aliases)[0]
    assert spans.keys() == papers.keys()
    for paper_id, (start, end) in spans.items():
        assert orjson.loads(text[start:end]) == papers[paper_id].to_dict()


def test_an_import_writes_the_catalogue_in_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[int] = []
    write = catalogue_module.atomic_write_bytes

    def counted(path: Path, payload: Any) -> None:
        assert not isinstance(payload, bytes)  # never the whole text at once

        def pieces() -> Any:
            for piece in payload:
                written.append(len(piece))
                yield piece

        write(path, pieces())

    monkeypatch.setattr(catalogue_module, "atomic_write_bytes", counted)
    monkeypatch.setattr(catalogue_module, "PIECE_BYTES", 8192)
    store = Store(tmp_path / "store")
    import_files(store, submission_parts())
    size = (tmp_path / "store" / "catalogue.json").stat().st_size
    assert sum(written) == size and len(written) > 5 and max(written) < size / 5
    again = Store(tmp_path / "store")
    again.catalogue.load()
    assert len(again.catalogue.held_papers) == len(store.catalogue.held_papers) > 100
