"""Every importer, fed junk: it imports the file fully or refuses it with one ``SourceError`` line
naming the file — never another exception, never a hang — and a refused import changes nothing.

Inputs: random bytes, prefixes and byte-flipped copies of real files (their cuts in ``tests/data/``
and the bundled seeds), real text re-encoded as GBK, Latin-1, CP1252, Shift-JIS or UTF-16 without a BOM,
random JSON records with the keys the importers look for, a 10 MB abstract, a million short lines,
JSON nested 100,000 deep, and one id twice with different content.

Hypothesis runs a moderate number of examples per importer by default; ``-m slow`` (or
``PAPERDECK_FULL=1``) runs the heavier profile. Each test prints how many examples ran.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import os
import shutil
import signal
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paperdeck.model.errors import SourceError
from paperdeck.sources import FORMAT_NAMES, read_source
from paperdeck.sources.base import SourceRead
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.helpers import FIXTURES, SEEDS

FULL = os.environ.get("PAPERDECK_FULL") == "1"

FORMATS = list(FORMAT_NAMES)
SUFFIX = {
    "schedule": ".json",
    "openreview": ".json",
    "papercopilot": ".json",
    "parquet": ".parquet",
    "bibtex": ".bib",
    "arxiv": ".xml",
    "csv": ".csv",
    "seed": ".txt",
}
#: Per example: longer than this is a hang (the slowest real case, 1 MB of BibTeX, takes ~6 s on an
#: idle machine): a guard generous enough for a loaded one, not a bound on speed (those are perf).
EXAMPLE_DEADLINE_S = 60.0
#: Prefixes of real files are cut within their first this many bytes (BibTeX parses ~0.2 MB/s).
DEFAULT_CUT = 48_000
FULL_CUT = 400_000
#: Examples run per importer in this session (the counts are also printed).
EXAMPLES: Counter[str] = Counter()


def test_every_format_has_a_suffix() -> None:
    assert set(FORMATS) == set(SUFFIX), "a new format module: add its suffix here"
    assert len(FORMATS) >= 7


# --- helpers ------------------------------------------------------------------------------------


class Hang(BaseException):
    """An importer ran past the deadline (a BaseException: no ``except Exception`` eats it)."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def assert_clear_refusal(error: SourceError, path: Path) -> None:
    """One line, naming the file, with a reason; a position when there is one."""
    message = str(error)
    assert message.splitlines() == [message], f"not one line: {message!r}"
    assert message.startswith(f"{path}:"), f"does not name the file first: {message!r}"
    assert error.reason.strip(), "no reason given"
    assert len(message) < len(str(path)) + 400, f"too long to read: {message[:500]!r}…"
    if error.line is not None:
        assert error.line >= 1
        assert message.startswith(f"{path}:{error.line}: ")


def outcome(path: Path, format: str | None, within_s: float = EXAMPLE_DEADLINE_S) -> str:
    """Read ``path``: ``"imported"`` or ``"refused"``; anything else (or no answer within
    ``within_s`` seconds) fails the test."""
    try:
        with deadline(within_s):
            result = read_source(path, format)
    except SourceError as error:
        assert_clear_refusal(error, path)
        return "refused"
    assert isinstance(result, SourceRead)
    assert len({paper.id for paper in result.papers}) == len(result.papers), "one id twice"
    for paper in result.papers:
        assert paper.id and isinstance(paper.abstract, str) and isinstance(paper.title, str)
    if result.notice is not None:
        assert result.notice.splitlines() == [result.notice]
    return "imported"


def tree_digest(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` by relative path → SHA-256 of its bytes."""
    return {
        str(path.relative_to(directory)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


# --- the real files, and inputs made from them ---------------------------------------------------


def _real_files() -> list[Path]:
    """The seeds and every cut of a real paper list (not the README, the cutting script)."""
    files = sorted(SEEDS.glob("*.txt"))
    files += sorted(p for p in FIXTURES.iterdir() if p.is_file() and p.suffix not in {".md", ".py"})
    return files


@pytest.fixture(scope="module")
def work_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def real_heads(work_dir: Path) -> dict[str, bytes]:
    """The first bytes of each real file, plus a small Parquet table made from the real one."""
    limit = FULL_CUT if FULL else DEFAULT_CUT
    heads = {}
    for path in _real_files():
        with path.open("rb") as handle:
            heads[path.name] = handle.read(limit)
    import pyarrow.parquet as pq

    table = pq.read_table(next(FIXTURES.glob("*.parquet"))).slice(0, 12)
    sink = io.BytesIO()
    pq.write_table(table, sink)
    heads["small.parquet"] = sink.getvalue()
    return heads


def test_the_real_files_are_there(real_heads: dict[str, bytes]) -> None:
    assert len(real_heads) >= 10, f"expected the real files' cuts in {FIXTURES}"
    assert any(name.endswith(".txt") for name in real_heads)
    assert real_heads["small.parquet"].startswith(b"PAR1")


ENCODINGS = ("gbk", "gb2312", "latin-1", "cp1252", "shift_jis", "utf-16-le", "utf-16-be", "big5")

JSON_KEYS = (
    "id", "forum", "replyto", "number", "title", "abstract", "authors", "author", "keywords",
    "content", "venue", "venueid", "invitations", "domain", "status", "track", "site", "tldr",
    "TLDR", "pdf", "url", "primary_area", "rating", "confidence", "rating_avg", "github", "aff",
    "withdrawn", "decision", "openreview", "year", "value",
)  # fmt: skip
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
    | st.sampled_from(["", "ICLR 2026 Poster", "Reject", "5;6;8", "-1", "Submitted to ICLR 2025"])
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(JSON_KEYS) | st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=16,
)
json_records = st.dictionaries(st.sampled_from(JSON_KEYS), json_values, max_size=10)


@st.composite
def json_documents(draw: st.DrawFn) -> bytes:
    """Random records shaped like the real ones, as a JSON array, JSON Lines or ``{"notes": …}``."""
    records = draw(st.lists(json_records | json_values, max_size=6))
    shape = draw(st.sampled_from(["array", "lines", "notes", "one"]))
    if shape == "lines":
        return b"\n".join(orjson.dumps(record) for record in records)
    if shape == "notes":
        return orjson.dumps({"count": len(records), "notes": records})
    if shape == "one":
        return orjson.dumps(records[0] if records else {})
    return orjson.dumps(records)


@st.composite
def csv_documents(draw: st.DrawFn) -> bytes:
    """A header of known and unknown column names, then rows of random cells."""
    names = ["title", "authors", "abstract", "decision", "venue", "year", "id", "url", "pdf", "x"]
    header = draw(st.lists(st.sampled_from(names) | st.text(max_size=8), min_size=1, max_size=6))
    rows = draw(st.lists(st.lists(st.text(max_size=30), max_size=len(header) + 1), max_size=8))
    out = io.StringIO()
    writer = csv.writer(out, delimiter=draw(st.sampled_from([",", "\t", ";"])))
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


@st.composite
def bibtex_documents(draw: st.DrawFn) -> bytes:
    names = ["title", "author", "abstract", "booktitle", "year", "eprint", "doi", "url", "note"]
    text = ""
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["inproceedings", "article", "misc", "string", "comment"]))
        key = draw(st.sampled_from(["a", "b", "key:1", ""]))
        fields = draw(st.dictionaries(st.sampled_from(names), st.text(max_size=30), max_size=5))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
        text += f"@{kind}{{{key},\n{body}\n}}\n"
    return text.encode("utf-8")


@st.composite
def atom_documents(draw: st.DrawFn) -> bytes:
    def esc(text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;")

    entries = ""
    for _ in range(draw(st.integers(0, 4))):
        number = draw(st.sampled_from(["2101.00001v1", "2101.00001v2", "api/errors#x", "junk", ""]))
        title, summary = draw(st.text(max_size=30)), draw(st.text(max_size=60))
        entries += (
            f"<entry><id>http://arxiv.org/abs/{number}</id><title>{esc(title)}</title>"
            f"<summary>{esc(summary)}</summary><author><name>{esc(title)}</name></author></entry>"
        )
    feed = f'<feed xmlns="http://www.w3.org/2005/Atom"><title>arxiv.org</title>{entries}</feed>'
    return feed.encode("utf-8", errors="surrogatepass")


def _cut(data: bytes, at: int) -> bytes:
    return data[: at % (len(data) + 1)]


@st.composite
def real_file_inputs(draw: st.DrawFn, heads: dict[str, bytes]) -> bytes:
    """A prefix of a real file, byte-flipped or re-encoded or not."""
    data = heads[draw(st.sampled_from(sorted(heads)))]
    kind = draw(st.sampled_from(["prefix", "prefix", "flips", "encoding", "whole"]))
    if kind == "whole":
        return data
    if kind == "prefix":
        return _cut(data, draw(st.integers(0, 2**31)))
    if kind == "flips":
        mutable = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            if mutable:
                position = draw(st.integers(0, len(mutable) - 1))
                mutable[position] = draw(st.integers(0, 255))
        return bytes(mutable)
    text = _cut(data, draw(st.integers(0, 2**31))).decode("utf-8", errors="replace")
    return text.encode(draw(st.sampled_from(ENCODINGS)), errors="replace")


def _inputs(format: str, heads: dict[str, bytes]) -> st.SearchStrategy[bytes]:
    choices = [st.binary(max_size=3000), real_file_inputs(heads)]
    if format in {"openreview", "papercopilot"}:
        choices.append(json_documents())
    elif format == "csv":
        choices.append(csv_documents())
    elif format == "bibtex":
        choices.append(bibtex_documents())
    elif format == "arxiv":
        choices.append(atom_documents())
    elif format == "parquet":
        choices.append(real_file_inputs({"small.parquet": heads["small.parquet"]}))
    elif format == "seed":
        texts = st.text(max_size=400).map(lambda text: text.encode("utf-8", "surrogatepass"))
        choices.append(texts)
    return st.one_of(choices)


def _examples(default: int) -> int:
    return default * 5 if FULL else default


def _fuzz(format: str | None, heads: dict[str, bytes], work_dir: Path, examples: int) -> None:
    """Run ``examples`` Hypothesis examples against one importer (``None``: format detection)."""
    label = format or "detect"
    formats = [format] if format else FORMATS
    strategy = st.one_of([_inputs(name, heads) for name in formats])
    outcomes: Counter[str] = Counter()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=strategy, suffix=st.sampled_from(sorted(set(SUFFIX.values()))))
    def run(data: bytes, suffix: str) -> None:
        path = work_dir / f"input-{label}{suffix if format is None else SUFFIX[label]}"
        path.write_bytes(data)
        outcomes[outcome(path, format)] += 1

    started = time.monotonic()
    run()
    EXAMPLES[label] += outcomes.total()
    print(
        f"\nfuzz {label}: {outcomes.total()} examples ({outcomes['imported']} imported, "
        f"{outcomes['refused']} refused) in {time.monotonic() - started:.1f} s"
    )
    assert outcomes.total() >= min(examples, 20)
    assert outcomes["refused"] > 0  # the junk reached the parser and was turned down


@pytest.mark.parametrize("format", FORMATS)
def test_random_and_damaged_input_is_imported_or_refused_in_one_line(
    format: str, real_heads: dict[str, bytes], work_dir: Path
) -> None:
    _fuzz(format, real_heads, work_dir, _examples(150))


def test_format_detection_never_crashes(real_heads: dict[str, bytes], work_dir: Path) -> None:
    _fuzz(None, real_heads, work_dir, _examples(200))


# --- the extreme inputs, for every format ---------------------------------------------------------


@functools.cache
def _ten_mb_abstract() -> str:
    words = ["We", "propose", "FooNet,", "$x^2$", "a", "model", "for", "\\textbf{bar}", "tasks."]
    text = " ".join(words[i % len(words)] for i in range(1_700_000))
    assert len(text) >= 10_000_000
    return text


TWO_TITLES = ("Learning to Fuzz Paper Importers", "An Entirely Different Title")


def _extreme_inputs(format: str) -> dict[str, bytes]:
    big = _ten_mb_abstract()
    seed = sorted(SEEDS.glob("*.txt"))[0].read_text("utf-8")
    note = {"id": "x1", "content": {"title": {"value": "T"}, "abstract": {"value": big}}}
    copilot = {"id": "x1", "title": "T", "status": "Poster", "track": "main", "abstract": big}
    row = {"id": 1, "name": "T", "eventtype": "Poster", "starttime": "2026-04-24T10:00:00-03:00"}
    ten_mb = {
        "schedule": orjson.dumps({"count": 1, "results": [{**row, "session": big}]}),
        "openreview": orjson.dumps([note]),
        "papercopilot": orjson.dumps([copilot]),
        "parquet": _parquet({"title": ["T"], "abstract": [big], "status": ["Poster"]}),
        "bibtex": b"@inproceedings{a, title={T}, abstract={" + big.encode() + b"}}\n",
        "arxiv": (
            '<feed xmlns="http://www.w3.org/2005/Atom"><title>arxiv.org</title><entry>'
            f"<id>http://arxiv.org/abs/2101.00001v1</id><title>T</title><summary>{big}</summary>"
            "</entry></feed>"
        ).encode(),
        "csv": b'title,abstract\nT,"' + big.encode() + b'"\n',
        "seed": b"ICLR 2026\n\n" + big.encode() + b"\n",
    }[format]
    first, second = TWO_TITLES
    forum = "AbCdEfGh12"
    twice = {
        "schedule": orjson.dumps({"count": 2, "results": [{**row, "name": first}, {**row, "name": second}]}),
        "openreview": orjson.dumps(
            [
                {"id": forum, "content": {"title": {"value": first}, "abstract": {"value": "a"}}},
                {"id": forum, "content": {"title": {"value": second}, "abstract": {"value": "b"}}},
            ]
        ),
        "papercopilot": orjson.dumps(
            [
                {"id": forum, "title": first, "status": "Poster", "track": "x", "abstract": "a"},
                {"id": forum, "title": second, "status": "Reject", "track": "x", "abstract": "b"},
            ]
        ),
        "parquet": _parquet({"id": [forum] * 2, "title": [first, second], "abstract": ["a", "b"]}),
        "bibtex": (
            f"@misc{{k1, title={{{first}}}, abstract={{a}}, doi={{10.1/x}}}}\n"
            f"@misc{{k2, title={{{second}}}, abstract={{b}}, doi={{10.1/x}}}}\n"
        ).encode(),
        "arxiv": (
            '<feed xmlns="http://www.w3.org/2005/Atom"><title>arxiv.org</title>'
            f"<entry><id>http://arxiv.org/abs/2101.00001v1</id><title>{first}</title>"
            "<summary>a</summary></entry>"
            f"<entry><id>http://arxiv.org/abs/2101.00001v2</id><title>{second}</title>"
            "<summary>b</summary></entry></feed>"
        ).encode(),
        "csv": f"id,title,abstract\n{forum},{first},a\n{forum},{second},b\n".encode(),
        "seed": b"ICLR 2026\n\nThe same abstract.\n\nthe SAME   abstract.\n\nAnother one.\n",
    }[format]
    return {
        "ten-mb-abstract": ten_mb,
        "million-short-lines": b"".join(b"x%d\n" % (i % 10) for i in range(1_000_000)),
        "million-json-lines": b'{"a": 1}\n' * 1_000_000 if FULL else b'{"a": 1}\n' * 100_000,
        "nested-100k-arrays": b"[" * 100_000,
        "nested-100k-objects": b'{"a":' * 100_000,
        "nested-notes": b'{"notes": [' + b"[" * 100_000,
        "nested-in-a-record": b'[{"id": "x", "title": ' + b"[" * 100_000 + b"]" * 100_000 + b"}]",
        "nested-xml": b"<a>" * 100_000,
        "nested-braces": b"@misc{k, title=" + b"{" * 100_000 + b"}" * 100_000 + b"}\n",
        "same-id-twice": twice,
        "utf-16-no-bom": seed.encode("utf-16-le"),
        "gbk": seed.encode("gbk", "replace"),
        "latin-1": "Résumé: café naïve — “quotes” 論文".encode("latin-1", "replace"),
        "empty": b"",
        "only-a-bom": b"\xef\xbb\xbf",
        "nul-bytes": b"title\x00abstract\n",
    }


def _parquet(columns: dict[str, list[Any]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    pq.write_table(pa.table(columns), sink)
    return sink.getvalue()


@pytest.mark.parametrize("format", FORMATS)
def test_extreme_inputs_are_imported_or_refused(format: str, work_dir: Path) -> None:
    results = {}
    for label, data in _extreme_inputs(format).items():
        path = work_dir / f"{label}{SUFFIX[format]}"
        path.write_bytes(data)
        results[label] = outcome(path, format)  # a hang fails it (EXAMPLE_DEADLINE_S)
        path.unlink()
    print(f"\n{format}: " + ", ".join(f"{label} {result}" for label, result in results.items()))
    assert set(results.values()) <= {"imported", "refused"}


@pytest.mark.parametrize("format", FORMATS)
def test_one_id_twice_with_different_content_gives_one_paper(format: str, work_dir: Path) -> None:
    """The same paper twice in one file (same id, DOI or arXiv id; the same abstract in seed
    text) with different content is one paper: the first record, or the records merged."""
    path = work_dir / f"twice{SUFFIX[format]}"
    path.write_bytes(_extreme_inputs(format)["same-id-twice"])
    result = read_source(path, format)
    if format == "seed":
        assert [paper.abstract for paper in result.papers] == ["The same abstract.", "Another one."]
        return
    if format == "schedule":  # a programme makes no paper: one event, the second skipped as a duplicate
        assert not result.papers and [e.title for e in result.events] == [TWO_TITLES[0]]
        assert [skip.reason for skip in result.skipped] == ["duplicate event (1)"]
        return
    assert len(result.papers) == 1, result.skipped
    assert len(result.skipped) == 1
    assert result.papers[0].title in TWO_TITLES


@pytest.mark.parametrize(
    ("name", "data", "format"),
    [
        ("cut.json", b'[{"id": "x1", "content": {"title": {"value": "T"}, "abs', "openreview"),
        ("cut.jsonl", b'{"id": "a", "title": "A"}\n{"id": "b", "title": ', "papercopilot"),
        ("cut.xml", b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>\n<title>T', "arxiv"),
        ("cut.csv", b'title,abstract\nA,a\nB,"b\n', "csv"),
        ("cut.bib", b"@misc{a, title={A}}\n\n@misc{b, title={B\n", "bibtex"),
    ],
)
def test_a_cut_file_is_refused_with_its_position(name: str, data: bytes, format: str, work_dir: Path) -> None:
    path = work_dir / name
    path.write_bytes(data)
    with pytest.raises(SourceError) as caught:
        read_source(path, format)
    assert_clear_refusal(caught.value, path)
    assert caught.value.line is not None and caught.value.line >= 1


def test_a_csv_header_is_quoted_on_one_short_line(work_dir: Path) -> None:
    path = work_dir / "header.csv"
    path.write_bytes(b'foo,"b\nar",\x1b[31mred\x1b[0m,' + b"z" * 100_000 + b"\nx,y,z,w\n")
    with pytest.raises(SourceError) as caught:
        read_source(path, "csv")
    assert_clear_refusal(caught.value, path)
    assert "\x1b" not in str(caught.value)


# --- through import_files into a real store: a refused import changes no byte -----------------


@pytest.fixture(scope="module")
def template_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with the seeds, a star and a note."""
    data_dir = tmp_path_factory.mktemp("template") / "data"
    store = Store(data_dir)
    import_files(store, sorted(SEEDS.glob("*.txt")))
    store.set_star(store.papers[0].id, True)
    store.set_note(store.papers[1].id, "private: my reading notes")
    return data_dir


def _fresh_copy(template: Path, target: Path) -> Path:
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(template, target)
    return target


def _import_checked(data_dir: Path, files: list[Path], format: str | None) -> str:
    """Import ``files``; a refusal must leave every byte of the store as it was."""
    before = tree_digest(data_dir)
    store = Store(data_dir)
    try:
        with deadline(EXAMPLE_DEADLINE_S * 2):
            import_files(store, files, format)
    except SourceError as error:
        assert_clear_refusal(error, error.path)
        assert error.path in files
        assert tree_digest(data_dir) == before, "a refused import changed the store"
        assert "my reading notes" not in str(error)
        return "refused"
    reopened = Store(data_dir)
    assert reopened.user_data(reopened.papers[1].id).note == "private: my reading notes"
    return "imported"


def test_refused_imports_leave_the_store_byte_identical(
    template_store: Path, real_heads: dict[str, bytes], work_dir: Path
) -> None:
    good = sorted(SEEDS.glob("*.txt"))[0]
    data_dir = work_dir / "store"
    counts: Counter[str] = Counter()

    @settings(
        max_examples=_examples(25),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        data=st.one_of([_inputs(name, real_heads) for name in FORMATS]),
        format=st.sampled_from([None, *FORMATS]),
    )
    def run(data: bytes, format: str | None) -> None:
        _fresh_copy(template_store, data_dir)
        bad = work_dir / f"bad{SUFFIX[format] if format else '.json'}"
        bad.write_bytes(data)
        files = [good, bad] if format in (None, "seed") else [bad]
        counts[_import_checked(data_dir, files, format)] += 1

    run()
    print(f"\nimport_files into a store: {dict(counts)}")
    assert counts["refused"] >= 1
    assert sum(counts.values()) >= min(_examples(25), 20)


@pytest.mark.parametrize("format", FORMATS)
def test_each_format_refused_mid_batch_changes_nothing(format: str, template_store: Path, work_dir: Path) -> None:
    data_dir = _fresh_copy(template_store, work_dir / f"store-{format}")
    bad = work_dir / f"broken{SUFFIX[format]}"
    bad.write_bytes(b"\x00\x01\x02 not a paper list \xff\xfe" * 10)
    files = [sorted(SEEDS.glob("*.txt"))[1], bad]
    assert _import_checked(data_dir, files, format) == "refused"


def test_a_ten_mb_abstract_is_refused_by_the_import_and_changes_nothing(template_store: Path, work_dir: Path) -> None:
    """Readers take it; the import refuses a paper no real list has, naming it."""
    data_dir = _fresh_copy(template_store, work_dir / "store-big")
    path = work_dir / "big.txt"
    path.write_text("ICLR 2026\n\n" + _ten_mb_abstract() + "\n", "utf-8")
    assert _import_checked(data_dir, [path], None) == "refused"


#: Seconds past which a pathological input counts as hung in ``make test`` (a guard, not a bound:
#: the bounds that prove linear time are the ``perf`` cases, run alone).
HANG_S = 120.0


@pytest.mark.parametrize("within_s", [HANG_S, pytest.param(30.0, marks=pytest.mark.perf)], ids=["hang-guard", "perf"])
def test_a_ten_mb_abstract_given_to_the_store_gets_its_title_in_linear_time(tmp_path: Path, within_s: float) -> None:
    """Below the importer, ``Store.import_papers`` takes any abstract; deriving a title from a
    10 MB one (a name repeated 190,000 times) was quadratic: minutes. Now it reads its start."""
    from paperdeck.model.paper import Paper, abstract_id

    big = _ten_mb_abstract()
    store = Store(tmp_path / "data")
    with deadline(within_s):
        store.import_papers([Paper(id=abstract_id(big), title="", abstract=big, title_derived=True)])
    assert Store(tmp_path / "data").papers[0].title.startswith("FooNet")


@pytest.mark.slow
@pytest.mark.parametrize("format", FORMATS)
def test_random_and_damaged_input_heavier_profile(format: str, real_heads: dict[str, bytes], work_dir: Path) -> None:
    _fuzz(format, real_heads, work_dir, 400)


# --- regressions the fuzzing found ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl", "deep-record.json", "deep.txt"])
def test_deeply_nested_json_is_detected_without_a_recursion_error(name: str, work_dir: Path) -> None:
    """Format detection peeks at the first record with the standard json module, which raised
    RecursionError (not a SourceError) on 100,000 nested brackets."""
    path = work_dir / name
    nested = b"[" * 100_000 if name != "deep-record.json" else b'{"id": ' + b"[" * 100_000
    path.write_bytes(nested if name != "deep.jsonl" else b'{"a": ' * 100_000)
    assert outcome(path, None) in {"imported", "refused"}


def test_a_parquet_string_that_is_not_utf8_is_refused(work_dir: Path) -> None:
    """pyarrow reads the file, then fails converting a damaged string (UnicodeDecodeError)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    table = pa.table({"title": ["Zqxj Title Of A Paper"], "abstract": ["An abstract."]})
    pq.write_table(table, sink, compression="NONE", use_dictionary=False, write_statistics=False)
    path = work_dir / "damaged.parquet"
    path.write_bytes(sink.getvalue().replace(b"Zqxj", b"\xff\xfeqj"))
    with pytest.raises(SourceError) as caught:
        read_source(path, "parquet")
    assert_clear_refusal(caught.value, path)
    assert "not a valid Parquet file" in str(caught.value)


@pytest.mark.parametrize("within_s", [HANG_S, pytest.param(10.0, marks=pytest.mark.perf)], ids=["hang-guard", "perf"])
def test_bibtex_braces_nested_100000_deep_take_linear_time(work_dir: Path, within_s: float) -> None:
    """Each ``{`` looked through every open brace (any(kept)), and each ``\\`` copied the rest of
    the text: quadratic, minutes for one field. Now a second or so."""
    path = work_dir / "deep.bib"
    title = "{" * 100_000 + "T" + "}" * 100_000
    commands = "\\emph{x} " * 100_000
    path.write_text(f"@misc{{k, title={{{title}}}, booktitle={{{commands}}}, year={{2020}}}}\n", "utf-8")
    # read to the end in time; its one-letter title is a placeholder, so the file yields no paper
    assert outcome(path, "bibtex", within_s) == "refused"


def test_a_ten_mb_abstract_in_a_csv_is_imported(work_dir: Path) -> None:
    """The csv module refuses a field over 128 KiB by default; the other formats take it."""
    path = work_dir / "big.csv"
    big = _ten_mb_abstract().encode()
    path.write_bytes(b'title,abstract\nLearning to Fuzz Paper Importers,"' + big + b'"\n')
    result = read_source(path, "csv")
    assert len(result.papers) == 1 and len(result.papers[0].abstract) >= 10_000_000
