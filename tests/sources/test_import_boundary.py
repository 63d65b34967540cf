"""The import boundary (:mod:`paperdeck.sources.validate`): whatever a paper list holds, the store
written is one paperdeck reads back — through a new ``Store`` and through the command line — with
the same values.

- Non-finite numbers (``inf``, ``nan``, ``1e999``, sums that overflow) in ratings and confidence,
  and counts, years and submission numbers beyond range, in every format that carries them
  (CSV, OpenReview JSON, Paper Copilot JSON, Parquet), are dropped and counted in the import
  summary; the import succeeds.
- A field over its size limit (id, title, abstract, author, keyword, URL …) refuses the file in
  one line naming the paper and the field, and changes nothing.
- A hypothesis round trip: random records (every field of each format, extreme values included)
  written as each format, imported, and opened again.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paperdeck.cli.main import main
from paperdeck.model.errors import SourceError
from paperdeck.model.paper import Paper, Ratings
from paperdeck.sources.base import SourceRead
from paperdeck.sources.importer import import_files
from paperdeck.sources.validate import LIMITS, MAX_AUTHORS, MAX_KEYWORDS, check_read
from paperdeck.store.store import Store

ABSTRACT = "An abstract long enough to be imported as a paper about numbers in lists of papers."
#: Texts that are numbers a float() reads but JSON cannot hold.
NON_FINITE = ("inf", "-inf", "nan", "1e999", "Infinity", "NaN")


def _parquet(columns: dict[str, list[Any]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    pq.write_table(pa.table(columns), sink)
    return sink.getvalue()


def _csv(rows: list[dict[str, Any]]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def _non_finite_files(value: str) -> dict[str, bytes]:
    """One paper with a non-finite rating and confidence, in each format that has them."""
    number = float(value)
    return {
        "csv": _csv(
            [
                {
                    "openreview_url": "https://openreview.net/forum?id=CsvInf0001",
                    "venue": "ICLR 2026 Poster",
                    "title": "Infinite rating paper",
                    "abstract": ABSTRACT,
                    "avg_rating": value,
                    "avg_confidence": value,
                    "n_ratings": "3",
                }
            ]
        ),
        "csv-scores": _csv(
            [{"title": "Scores", "abstract": ABSTRACT, "rating": f"5;{value}", "confidence": f"{value};3"}]
        ),
        "openreview": orjson.dumps(
            [
                {
                    "id": "OrInf00001",
                    "content": {
                        "title": {"value": "Infinite rating paper"},
                        "abstract": {"value": ABSTRACT},
                        "rating": {"value": f"{value};6"},
                        "confidence": {"value": f"{value};1e308;1e308"},
                    },
                }
            ]
        ),
        "papercopilot": orjson.dumps(
            [
                {
                    "id": "PcInf00001",
                    "title": "Infinite rating paper",
                    "status": "Poster",
                    "track": "main",
                    "abstract": ABSTRACT,
                    "rating": f"{value};6",
                    "confidence": f"1e308;1e308;{value}",
                    "rating_avg": value,
                    "confidence_avg": value,
                }
            ]
        ),
        "papercopilot-averages": orjson.dumps(
            [
                {
                    "id": "PcInf00002",
                    "title": "Averages only",
                    "status": "Poster",
                    "track": "main",
                    "abstract": ABSTRACT,
                    "rating_avg": [1e308, value],
                    "confidence_avg": value,
                }
            ]
        ),
        "parquet": _parquet(
            {
                "id": ["PqInf00001"],
                "title": ["Infinite rating paper"],
                "abstract": [ABSTRACT],
                "status": ["Poster"],
                "rating": [[number, 6.0]],
                "confidence": [[number, 1e308, 1e308]],
                "rating_avg": [[number, number]],
                "confidence_avg": [[number, 0.0]],
            }
        ),
    }


SUFFIXES = {"csv": ".csv", "openreview": ".json", "papercopilot": ".json", "parquet": ".parquet"}


def _write(directory: Path, name: str, data: bytes) -> Path:
    path = directory / f"{name}{SUFFIXES[name.split('-')[0]]}"
    path.write_bytes(data)
    return path


def assert_readable(data_dir: Path, imported: list[Paper]) -> None:
    """A new Store and the command line read back exactly what the import left in memory."""
    again = Store(data_dir).papers
    # As written (a provenance pair naming the paper's first source is not written: it is implied).
    assert [paper.to_dict() for paper in again] == [paper.to_dict() for paper in imported]
    for paper in again:
        parts = paper.ratings.to_dict() if paper.ratings else {}
        parts.pop("scale", None)  # the scale recorded at import: text
        for number in (paper.confidence, *parts.values()):
            assert number is None or math.isfinite(number), paper
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["--data-dir", str(data_dir), "list", "--json"])
    assert status == 0, err.getvalue()
    listed = json.loads(out.getvalue())
    expected = json.loads(orjson.dumps([paper.to_dict() for paper in imported]))
    numbers = ("id", "ratings", "confidence", "year", "number", "title_derived")
    assert [{key: row[key] for key in numbers} for row in listed] == [
        {key: paper.get(key, Paper.__dataclass_fields__[key].default) for key in numbers} for paper in expected
    ]


@pytest.mark.parametrize("value", NON_FINITE)
def test_a_non_finite_rating_in_any_format_is_dropped_counted_and_the_store_stays_readable(
    value: str, tmp_path: Path
) -> None:
    files = [_write(tmp_path, name, data) for name, data in _non_finite_files(value).items()]
    for path in files:
        data_dir = tmp_path / f"data-{path.stem}"
        store = Store(data_dir)
        summary = import_files(store, [path])
        assert summary.new == 1, path
        # A reader may pass over a score itself (negative and NaN scores mean "none" there);
        # whatever reaches the boundary non-finite is dropped and counted.
        if path.stem == "csv" or value in ("inf", "1e999", "Infinity"):
            assert any(reason.startswith("non-finite") for reason in summary.dropped), (path, summary)
            assert "dropped (" in summary.summary()
        assert_readable(data_dir, store.papers)


def test_the_import_command_reports_the_dropped_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "csv", _non_finite_files("inf")["csv"])
    assert main(["--data-dir", str(tmp_path / "d"), "import", str(path)]) == 0
    assert "2 values dropped (1 non-finite rating; 1 non-finite confidence)" in capsys.readouterr().out
    assert main(["--data-dir", str(tmp_path / "d"), "import", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["dropped"] == {"non-finite rating": 1, "non-finite confidence": 1}
    assert main(["--data-dir", str(tmp_path / "d"), "list"]) == 0


def test_numbers_out_of_range_are_dropped(tmp_path: Path) -> None:
    huge = "9" * 30
    path = _write(
        tmp_path,
        "csv",
        _csv(
            [
                {
                    "title": "Huge numbers",
                    "abstract": ABSTRACT,
                    "year": huge,
                    "number": huge,
                    "avg_rating": "5",
                    "n_ratings": huge,
                }
            ]
        ),
    )
    store = Store(tmp_path / "data")
    summary = import_files(store, [path])
    (paper,) = store.papers
    assert paper.number is None and paper.ratings == Ratings(5.0, scale="1-5")  # no venue: its value's scale
    assert summary.dropped["submission number out of range"] == 1
    assert summary.dropped["rating count out of range"] == 1
    assert_readable(tmp_path / "data", store.papers)


def _paper(**fields: Any) -> Paper:
    return Paper(**{"id": "openreview:AbCdEfGh12", "title": "T", "abstract": ABSTRACT, **fields})


OVERSIZED: dict[str, Callable[[int], dict[str, Any]]] = {
    **{
        name: (lambda size, name=name: {name: "x" * size})
        for name in LIMITS
        if name not in ("sources", "authors", "keywords")
    },
    "authors": lambda size: {"authors": ("x" * size,)},
    "keywords": lambda size: {"keywords": ("x" * size,)},
    "sources": lambda size: {"sources": ("x" * size,)},
}


@pytest.mark.parametrize("name", sorted(OVERSIZED))
def test_every_field_over_its_limit_refuses_the_file_in_one_line(name: str) -> None:
    limit = LIMITS[name]
    at_limit = check_read(SourceRead(Path("list.json"), "openreview", (_paper(**OVERSIZED[name](limit)),)))
    assert at_limit.read.papers == (_paper(**OVERSIZED[name](limit)),)
    with pytest.raises(SourceError) as caught:
        check_read(SourceRead(Path("list.json"), "openreview", (_paper(**OVERSIZED[name](limit + 1)),)))
    message = str(caught.value)
    assert "\n" not in message and message.startswith("list.json: paper 1 (")
    assert f"{limit + 1:,} characters" in message and f"{limit:,}" in message
    assert "x" * 100 not in message


@pytest.mark.parametrize(("name", "most"), [("authors", MAX_AUTHORS), ("keywords", MAX_KEYWORDS)])
def test_too_many_authors_or_keywords_refuse_the_file(name: str, most: int) -> None:
    check_read(SourceRead(Path("l.csv"), "csv", (_paper(**{name: ("a",) * most}),)))
    with pytest.raises(SourceError, match=f"{most + 1:,} {name}"):
        check_read(SourceRead(Path("l.csv"), "csv", (_paper(**{name: ("a",) * (most + 1)}),)))


def test_an_oversized_keyword_list_in_a_file_changes_nothing(tmp_path: Path) -> None:
    record = {
        "id": "Kw00000001",
        "content": {
            "title": {"value": "T"},
            "abstract": {"value": ABSTRACT},
            "keywords": {"value": ["k"] * (MAX_KEYWORDS + 1)},
        },
    }
    path = tmp_path / "keywords.json"
    path.write_bytes(orjson.dumps([record]))
    store = Store(tmp_path / "data")
    with pytest.raises(SourceError, match="keywords"):
        import_files(store, [path])
    assert Store(tmp_path / "data").is_empty


def test_a_lone_surrogate_is_repaired_not_written() -> None:
    checked = check_read(
        SourceRead(Path("a.json"), "openreview", (_paper(title="bad \ud800 text", authors=("\udcff",)),))
    )
    (paper,) = checked.read.papers
    assert paper.title == "bad \ufffd text" and paper.authors == ("\ufffd",)
    orjson.dumps(paper.to_dict())


# --- the round trip ------------------------------------------------------------------------------

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_NUMBER_TEXT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["", "inf", "nan", "1e999", "-1", "0", "1e308", "9" * 25, "5;6;8", "1e308;1e308", "²"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
_NUMBER = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.none(),
)


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    """A paper's fields as a paper list gives them: texts of any kind, numbers of any size."""
    return {
        "id": draw(st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789_-", min_size=8, max_size=12)),
        "title": draw(_TEXT.filter(str.strip)),
        "abstract": draw(st.one_of(_TEXT, st.just(ABSTRACT))),
        "authors": draw(st.lists(_TEXT.filter(str.strip), max_size=4)),
        "keywords": draw(
            st.lists(_TEXT.filter(lambda text: text.strip() and ";" not in text and "," not in text), max_size=4)
        ),
        "rating": draw(st.one_of(_NUMBER_TEXT, st.lists(_NUMBER, max_size=4))),
        "confidence": draw(st.one_of(_NUMBER_TEXT, st.lists(_NUMBER, max_size=4))),
        "rating_avg": draw(st.one_of(_NUMBER, st.lists(_NUMBER, max_size=2))),
        "number": draw(_NUMBER_TEXT),
        "year": draw(_NUMBER_TEXT),
        "url": draw(st.one_of(_TEXT, st.just("https://example.org/x.pdf"))),
        "tldr": draw(_TEXT),
        "primary_area": draw(_TEXT),
        "status": draw(st.sampled_from(["Poster", "Oral", "Reject", "ICLR 2026 Poster", "", "Withdrawn"])),
    }


def _json_number(value: Any) -> Any:
    """JSON cannot hold inf / nan: such a value is written as the text a scraper would."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, list):
        return [_json_number(item) for item in value]
    return value


def _as_openreview(items: list[dict[str, Any]]) -> bytes:
    notes = []
    for r in items:
        content = {
            "title": r["title"],
            "abstract": r["abstract"],
            "authors": r["authors"],
            "keywords": r["keywords"],
            "rating": _json_number(r["rating"]),
            "confidence": _json_number(r["confidence"]),
            "tldr": r["tldr"],
            "primary_area": r["primary_area"],
            "venue": r["status"],
            "pdf": r["url"],
        }
        notes.append(
            {
                "id": r["id"],
                "number": _json_number(r["number"]),
                "content": {k: {"value": v} for k, v in content.items()},
            }
        )
    return _json(notes)


def _as_papercopilot(items: list[dict[str, Any]]) -> bytes:
    return _json(
        [
            {
                "id": r["id"],
                "title": r["title"],
                "status": r["status"] or "Poster",
                "track": "main",
                "abstract": r["abstract"],
                "author": ";".join(r["authors"]),
                "keywords": ";".join(r["keywords"]),
                "rating": _json_number(r["rating"]),
                "confidence": _json_number(r["confidence"]),
                "rating_avg": _json_number(r["rating_avg"]),
                "tldr": r["tldr"],
                "primary_area": r["primary_area"],
                "pdf": r["url"],
                "site": f"https://openreview.net/forum?id={r['id']}",
            }
            for r in items
        ]
    )


def _json(value: Any) -> bytes:
    """JSON text; the standard library writes integers of any size (orjson refuses them)."""
    return json.dumps(value).encode()


def _cell(value: Any) -> str:
    return ";".join(map(str, value)) if isinstance(value, list) else str(value)


def _as_csv(items: list[dict[str, Any]]) -> bytes:
    return _csv(
        [
            {
                "id": r["id"],
                "title": r["title"],
                "abstract": r["abstract"],
                "authors": ", ".join(r["authors"]),
                "keywords": ", ".join(r["keywords"]),
                "rating": _cell(r["rating"]),
                "confidence": _cell(r["confidence"]),
                "n_ratings": r["number"],
                "number": r["number"],
                "year": r["year"],
                "pdf": r["url"],
                "tldr": r["tldr"],
                "primary_area": r["primary_area"],
                "decision": r["status"],
            }
            for r in items
        ]
    )


def _floats(value: Any) -> list[float] | None:
    items = value if isinstance(value, list) else [value]
    numbers = [float(item) for item in items if isinstance(item, int | float) and abs(item) < 2**1000]
    return numbers or None


def _as_parquet(items: list[dict[str, Any]]) -> bytes:
    return _parquet(
        {
            "id": [r["id"] for r in items],
            "title": [r["title"] for r in items],
            "abstract": [r["abstract"] for r in items],
            "status": [r["status"] for r in items],
            "author": [";".join(r["authors"]) for r in items],
            "keywords": [";".join(r["keywords"]) for r in items],
            "rating": [_floats(r["rating"]) for r in items],
            "confidence": [_floats(r["confidence"]) for r in items],
            "rating_avg": [_floats(r["rating_avg"]) for r in items],
        }
    )


WRITERS: dict[str, tuple[str, Callable[[list[dict[str, Any]]], bytes]]] = {
    "openreview": (".json", _as_openreview),
    "papercopilot": (".json", _as_papercopilot),
    "csv": (".csv", _as_csv),
    "parquet": (".parquet", _as_parquet),
}


@pytest.mark.parametrize("format", list(WRITERS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(items=st.lists(records(), min_size=1, max_size=4, unique_by=lambda r: r["id"]))
def test_whatever_is_imported_is_read_back_the_same(format: str, items: list[dict[str, Any]]) -> None:
    suffix, write = WRITERS[format]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"list{suffix}"
        path.write_bytes(write(items))
        data_dir = Path(tmp) / "data"
        store = Store(data_dir)
        try:
            import_files(store, [path], format)
        except SourceError as error:  # refused: in one line, and nothing written
            assert "\n" not in str(error)
            assert Store(data_dir).is_empty
            return
        assert_readable(data_dir, store.papers)


def test_a_value_of_the_wrong_kind_becomes_text() -> None:
    paper = Paper(id="x", title=None, abstract=3, authors=["a", 5], keywords=("\udc80",))  # type: ignore[arg-type]
    (checked,) = check_read(SourceRead(Path("a.json"), "openreview", (paper,))).read.papers
    assert (checked.title, checked.abstract, checked.authors, checked.keywords) == ("", "3", ("a", "5"), ("\ufffd",))
