"""The quick path of ``paperdeck show`` (:mod:`paperdeck.cli.quick`, :mod:`paperdeck.store.one_paper`):
the same output as the full path, byte for byte, on every paper of fixture stores; the full path
taken for whatever it cannot answer exactly; and what it imports (counted, not timed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from paperdeck.cli import quick
from paperdeck.cli.main import main
from paperdeck.store import one_paper
from paperdeck.store.store import Store

from tests.helpers import SEEDS, ReviewSample, fixture

SAFETY = "iclr2026_accepted_safety-subset_openreview-flat.jsonl"


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory, review_sample: ReviewSample) -> Path:
    """A store of reviewed papers (their reviews imported), an accepted subset and the seeds, with
    marks on a few papers: starred, noted (a control character in it), tagged, a status."""
    data = tmp_path_factory.mktemp("cli-quick") / "data"
    files = [str(review_sample.papers_file), str(review_sample.notes_file), str(fixture(SAFETY))]
    files += [str(path) for path in sorted(SEEDS.glob("*.txt"))]
    assert main(["import", *files, "--data-dir", str(data)]) == 0
    ids = Store(data).paper_ids
    marked = ids[:: max(1, len(ids) // 6)]
    for n, paper_id in enumerate(marked):
        args = ["--data-dir", str(data)]
        assert main([*args, "star", paper_id]) == 0
        assert main([*args, "note", paper_id, "--text", f"read this\x1b[31m twice\nsee §{n}"]) == 0
        assert main([*args, "tag", paper_id, "Must Read", "moe"]) == 0
        assert main([*args, "status", paper_id, "to-read"]) == 0
    return data


def _full(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    """``main(args)`` with the quick path turned off."""
    with monkeypatch.context() as patch:
        patch.setattr(quick, "run", lambda words, leading: None)
        code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _quick(capsys: pytest.CaptureFixture[str], data: Path, given: str) -> tuple[int | None, str, str]:
    code = quick.run(["show", given], str(data))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_prints_what_the_full_path_prints_for_every_paper(
    store_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = Store(store_dir).paper_ids
    answered = 0
    for paper_id in ids:
        given = [paper_id]
        if paper_id.startswith("openreview:"):
            given.append(paper_id.removeprefix("openreview:"))  # a bare forum id
        for name in given:
            code, out, err = _quick(capsys, store_dir, name)
            full = _full(capsys, monkeypatch, "--data-dir", str(store_dir), "show", name)
            if code is None:
                assert (out, err) == ("", "")  # nothing said before the full path
                continue
            answered += 1
            assert (code, out, err) == full, name
    # most papers are answered by the quick path (those with a moved rating are not)
    assert answered >= len(ids) * 3 // 4


def test_main_takes_the_quick_path_and_the_output_is_the_same(
    store_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    paper_id = Store(store_dir).paper_ids[0]
    calls: list[list[str]] = []
    real = quick.run

    def counted(words: list[str], leading: str | None) -> int | None:
        calls.append(words)
        return real(words, leading)

    monkeypatch.setattr(quick, "run", counted)
    assert main(["--data-dir", str(store_dir), "show", paper_id]) == 0
    out = capsys.readouterr().out
    assert calls == [["show", paper_id]]
    assert _full(capsys, monkeypatch, "--data-dir", str(store_dir), "show", paper_id)[1] == out


@pytest.mark.parametrize(
    "words",
    [
        ["show", "x", "--json"],
        ["show", "x", "--raw"],
        ["show", "--help"],
        ["show"],
        ["show", "-x"],
        ["star", "x"],
        ["status", "x", "later"],
        ["note", "x"],
        ["note", "x", "--text=y"],
        ["tag", "x"],
        ["tag", "x", "#-y"],
        ["tag", "x", " "],
        ["tag", "x", " , "],  # commas and blanks only: a blank tag
        ["untag", "x", "-y"],
        ["star", "x", "-y"],
        ["star", "x", "-y"],
    ],
)
def test_options_and_other_commands_take_the_full_path(store_dir: Path, words: list[str]) -> None:
    assert quick.run(words, str(store_dir)) is None


def test_no_data_directory_named_takes_the_full_path(store_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paper_id = Store(store_dir).paper_ids[0]
    monkeypatch.delenv(quick.DATA_DIR_ENV, raising=False)
    assert quick.run(["show", paper_id], None) is None
    monkeypatch.setenv(quick.DATA_DIR_ENV, str(store_dir))
    assert quick.run(["show", paper_id], None) == 0


def _own_store(review_sample: ReviewSample, tmp_path: Path) -> Path:
    """A store of the reviewed papers for one test to change."""
    data = tmp_path / "data"
    assert main(["import", str(review_sample.papers_file), str(review_sample.notes_file), "--data-dir", str(data)]) == 0
    assert (data / "paper-index.bin").exists()
    return data


def test_what_the_quick_path_cannot_answer_exactly_goes_to_the_full_path(
    review_sample: ReviewSample, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _own_store(review_sample, tmp_path)
    capsys.readouterr()
    paper_id = next(pid for pid in Store(data).paper_ids if pid.startswith("openreview:"))
    assert _quick(capsys, data, paper_id)[0] == 0
    assert _quick(capsys, data, "openreview:nosuchpaper")[0] is None  # the full path says "no paper"
    assert _quick(capsys, data, "https://openreview.net/forum?id=x")[0] is None  # a link
    # a change an interrupted paperdeck left to finish
    journal = data / ".paperdeck-journal-1.json"
    journal.write_text("{}")
    assert _quick(capsys, data, paper_id)[0] is None
    journal.unlink()
    # a temporary file to clean up
    stray = data / "reviews" / ".paperdeck-x.tmp"
    stray.write_text("")
    assert _quick(capsys, data, paper_id)[0] is None
    stray.unlink()
    # a shard of another program, or of a newer paperdeck
    (data / "user").mkdir(exist_ok=True)
    shard = data / "user" / "3f.json"
    for text in ('{"_default": {"1": {"a": 1}}}', '{"meta": {"1": {"app": "paperdeck", "schema": 9}}, "user": {}}'):
        shard.write_text(text)
        assert _quick(capsys, data, paper_id)[0] is None
    shard.unlink()
    assert _quick(capsys, data, paper_id)[0] == 0
    # a programme: its events are shown
    (data / "schedule.json").write_text("{}")
    assert _quick(capsys, data, paper_id)[0] is None
    (data / "schedule.json").unlink()
    # a stale index: the catalogue replaced since
    catalogue = data / "catalogue.json"
    os.utime(catalogue, ns=(1, 1))
    assert _quick(capsys, data, paper_id)[0] is None
    code, out, _ = _full(capsys, monkeypatch, "--data-dir", str(data), "show", paper_id)
    assert code == 0 and paper_id in out  # the full path answers (and writes the index again)
    assert _quick(capsys, data, paper_id)[0] == 0


def test_a_document_the_standard_json_reads_otherwise_than_orjson_is_not_read() -> None:
    for text in (b'{"a": NaN}', b'{"a": "\\ud800"}', b'{"a": 1, "a": 2}', b'{"a": 1', b"\xff", b'{"a": 1e400}'):
        with pytest.raises(one_paper.NotHere):
            one_paper._loads(text)
    assert one_paper._loads(b'{"a": [1, 2.5, "\\u00e9"]}') == {"a": [1, 2.5, "é"]}


def test_a_paper_of_an_unexpected_shape_is_not_read(tmp_path: Path) -> None:
    from paperdeck.store.paper_index import write_paper_index

    data = tmp_path / "data"
    data.mkdir()
    docs = [
        b'{"id": "p:1", "title": "T", "abstract": "A"}',
        b'{"id": "p:2", "title": "T", "abstract": "A", "surprise": 1}',
        b'{"id": "p:3", "title": "T", "abstract": "A", "authors": ["a", 2]}',
        b'{"id": "p:4", "title": "T", "abstract": "A", "year": 99999999999999999999}',
    ]
    text = b""
    spans = []
    for doc in docs:
        spans.append((one_paper._loads(doc)["id"] if b"9999" not in doc else "p:4", (len(text), len(text) + len(doc))))
        text += doc + b"\n"
    (data / "catalogue.json").write_bytes(text)
    stat = (data / "catalogue.json").stat()
    assert write_paper_index(data / "paper-index.bin", (stat.st_ino, stat.st_mtime_ns, stat.st_size), spans, {})
    assert one_paper.paper_document(str(data), "p:1")["title"] == "T"
    for paper_id in ("p:2", "p:3", "p:4", "p:5"):
        with pytest.raises(one_paper.NotHere):
            one_paper.paper_document(str(data), paper_id)


def test_the_names_and_the_hash_are_the_store_modules() -> None:
    from paperdeck.paths import DATA_DIR_ENV
    from paperdeck.store import atomic, catalogue, paper_index, reviews, schema, store, transaction, user_data
    from paperdeck.store.schedule import SCHEDULE_FILE

    assert catalogue.Catalogue(Path("/nowhere"), rows=False).path.name == one_paper.CATALOGUE_FILE
    assert (one_paper.USER_DIR, one_paper.SHARDS) == (user_data.USER_DIR, user_data.SHARDS)
    assert (one_paper.REVIEWS_DIR, one_paper.REVIEWS_INDEX) == (reviews.REVIEWS_DIR, reviews.INDEX_FILE)
    assert one_paper.REVIEWS_SCHEMA == reviews._SCHEMA
    assert (one_paper.SCHEDULE_FILE, one_paper.LEGACY_USER_FILE) == (SCHEDULE_FILE, store.LEGACY_USER_FILE)
    assert one_paper.JOURNAL_PREFIX == transaction.JOURNAL_PREFIX
    assert (one_paper.TEMP_PREFIX, one_paper.TEMP_SUFFIX) == (atomic.TEMP_PREFIX, atomic.TEMP_SUFFIX)
    assert schema.meta() == one_paper.META
    assert one_paper.STATUSES == user_data.STATUSES
    assert quick.DATA_DIR_ENV == DATA_DIR_ENV
    assert paper_index.INDEX_FILE == "paper-index.bin"
    from paperdeck.model.user import clean_tag, split_tags

    for tag in ("Must Read", " #moe", "###", "# must read", 'a"b', "ÉTÉ", "ﬁ", "  ", "#", "-x", "a\tb"):
        assert quick.clean_tag(tag) == clean_tag(tag), tag
    for texts in (["x, y"], ["robotics,", "hands"], [","], [""], ["a,,b", " , c"]):
        assert quick.split_tags(texts) == split_tags(texts), texts
    for paper_id in ("openreview:abc", "abs:0123", "title:é-2026:x"):
        doc_id = user_data.doc_id_for(paper_id)
        assert one_paper.shard_of(paper_id) == (doc_id, doc_id % user_data.SHARDS)


#: Runs ``main()`` on the process's own arguments, then prints the modules it left imported.
_PROBE = """
import sys
from paperdeck.cli.main import main
code = main()
sys.stdout.flush()
print("\\nMODULES " + " ".join(sorted(sys.modules)))
sys.exit(code)
"""


@pytest.mark.parametrize(
    "commands",
    [
        [["show"]],
        [["star"], ["unstar"]],
        [["status", "read"], ["status", "unseen"]],
        [["note", "--text", "x"], ["note", "--text", ""]],
        [["tag", "x"], ["untag", "x"]],
    ],
)
def test_the_quick_path_imports_no_model_and_no_heavy_library(store_dir: Path, commands: list[list[str]]) -> None:
    from paperdeck.cli.shown import has_markup

    plain = next(
        p.id
        for p in Store(store_dir).papers
        if not has_markup(p.title + p.abstract) and p.openreview_id and not Store(store_dir).user_data(p.id).starred
    )
    env = {**os.environ, "PAPERDECK_DATA_DIR": str(store_dir)}
    for command in commands:
        argv = [sys.executable, "-c", _PROBE, command[0], plain, *command[1:]]
        result = subprocess.run(argv, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        loaded = set(result.stdout.rsplit("\nMODULES ", 1)[1].split())
        assert "paperdeck.store.one_paper" in loaded  # the quick path answered
        heavy = {"orjson", "dataclasses", "pathlib", "typing", "argparse", "textual", "rapidfuzz", "numpy", "tinydb"}
        assert heavy & loaded == set()
        assert {m for m in loaded if m.startswith("paperdeck.")} <= {
            "paperdeck.cli",
            "paperdeck.cli.main",
            "paperdeck.cli.quick",
            "paperdeck.cli.shown",
            "paperdeck.model",
            "paperdeck.model.rating_text",  # the rule for a mean rating: imports nothing
            "paperdeck.model.safe_text",
            "paperdeck.store",
            "paperdeck.store.one_paper",
            "paperdeck.store.paper_index",
        }


#: Markup the renderer reads, in the title, the abstract and the keywords of papers made from the
#: first paper of the safety subset (each a new id): math symbols (pylatexenc's and the renderer's
#: own), fractions, fonts, accents, entities, Markdown, links, code, a keyword list split inside
#: math.
_MARKED = [
    (
        r"$\alpha$-DPO: \textbf{Bold} $\mathbb{R}^d$ and \'{e}t\'{e}",
        r"We show $\frac{1}{2}\sum_{i=1}^n x_i \leq \epsilon$ with \texttt{code}, **bold**, _it_, `x`"
        r" &amp; &#169; [a link](https://example.org/a_(b)) https://arxiv.org/abs/1 \cite{x} \Omega \aleph"
        '\n\n$$\\int_0^1 f(x)\\,dx \\approx \\hat{y}$$ \\v{c} \\"{\\i} \\t{oo} \\url{example.org/x}',
        ["$(L_0", "L_1)$-smoothness", r"$\mu$-Transfer", r"\textit{in-context} learning", "plain"],
    ),
    ("A title", r"Only $\beta_{t}^{\top}$ and \ding{51}.", [r"$\ell_p$ robustness"]),
]


@pytest.fixture(scope="module")
def marked_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A store of the papers of :data:`_MARKED`; their ids."""
    import json

    folder = tmp_path_factory.mktemp("cli-quick-marked")
    first = json.loads(fixture(SAFETY).read_text("utf-8").splitlines()[0])
    lines = []
    for n, (title, abstract, keywords) in enumerate(_MARKED):
        paper = {**first, "id": f"mArKuP{n}", "forum": f"mArKuP{n}", "number": 90_000 + n}
        paper.update(title=title, abstract=abstract, keywords=keywords)
        lines.append(json.dumps(paper))
    papers = folder / "marked.jsonl"
    papers.write_text("\n".join(lines) + "\n", "utf-8")
    data = folder / "data"
    assert main(["import", str(papers), "--data-dir", str(data)]) == 0
    return data, [f"openreview:mArKuP{n}" for n in range(len(_MARKED))]


def test_markup_in_the_title_abstract_and_keywords_is_shown_as_the_full_path_shows_it(
    marked_store: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, ids = marked_store
    for paper_id in ids:
        code, out, err = _quick(capsys, data, paper_id)
        assert code == 0  # keywords with markup too: rendered as the full path renders them
        full = _full(capsys, monkeypatch, "--data-dir", str(data), "show", paper_id)
        assert (code, out, err) == full
        assert "\\" not in out.split("\n\n", 1)[0]  # the markup was rendered
    assert "α-DPO: Bold ℝᵈ and été" in _quick(capsys, data, ids[0])[1]
    assert "(L₀, L₁)-smoothness; μ-Transfer" in _quick(capsys, data, ids[0])[1]


def test_show_of_a_paper_with_math_imports_no_dataclass_typing_nor_latex_library(
    marked_store: tuple[Path, list[str]],
) -> None:
    """The renderer, for a title, abstract and keywords with every kind of markup, imports none of
    what made ``show`` of such a paper cost several times a bare interpreter: dataclasses (and the
    inspect, ast, tokenize it imports), typing, enum's users, pylatexenc, urllib (a plain link)."""
    data, ids = marked_store
    env = {**os.environ, "PAPERDECK_DATA_DIR": str(data)}
    for paper_id in ids:
        argv = [sys.executable, "-c", _PROBE, "show", paper_id]
        result = subprocess.run(argv, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        loaded = set(result.stdout.rsplit("\nMODULES ", 1)[1].split())
        assert {"paperdeck.store.one_paper", "paperdeck.text.render"} <= loaded  # the quick path rendered it
        heavy = {"dataclasses", "inspect", "ast", "tokenize", "typing", "pylatexenc", "urllib.parse", "ipaddress"}
        assert heavy & loaded == set()
        assert {"orjson", "pathlib", "argparse", "textual", "numpy", "tinydb", "logging"} & loaded == set()


# -- star and unstar --------------------------------------------------------------------------

_NOW = "2026-12-01T10:20:30.123456+00:00"


class _FixedDatetime:
    """Stands in for :class:`datetime.datetime` in the store's clock: always :data:`_NOW`."""

    @staticmethod
    def now(zone: object = None) -> _FixedDatetime:
        return _FixedDatetime()

    def isoformat(self) -> str:
        return _NOW


def _files(data: Path) -> dict[str, bytes]:
    """Every file of the store's ``user/`` directory and the lock files, with their bytes and modes."""
    found = {}
    for path in sorted((data / "user").glob("*")) if (data / "user").exists() else []:
        found[path.name] = path.read_bytes() + f" mode {path.stat().st_mode:o}".encode()
    for name in (".commit.lock",):
        found[name] = b"present" if (data / name).exists() else b"absent"
    return found


def test_star_and_unstar_write_what_the_full_path_writes(
    review_sample: ReviewSample, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import paperdeck.store.store as store_module

    files = [str(review_sample.papers_file), str(review_sample.notes_file)]
    quick_dir, full_dir = tmp_path / "quick", tmp_path / "full"
    for data in (quick_dir, full_dir):
        assert main(["import", *files, "--data-dir", str(data)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(store_module, "datetime", _FixedDatetime)
    monkeypatch.setattr(quick, "_utc_now", lambda: _NOW)
    ids = Store(quick_dir).paper_ids
    by_shard: dict[int, list[str]] = {}
    for paper_id in ids:
        by_shard.setdefault(one_paper.shard_of(paper_id)[1], []).append(paper_id)
    pair = next(group for group in by_shard.values() if len(group) > 1)[:2]
    one, other = ids[0], next(pid for pid in ids if one_paper.shard_of(pid)[1] != one_paper.shard_of(ids[0])[1])
    bare = one.removeprefix("openreview:")
    steps: list[list[str]] = [
        ["star", one],  # a new shard
        ["star", one],  # already starred: nothing written
        ["unstar", bare],  # by the bare forum id; the record, empty, removed
        ["unstar", one],  # not starred
        ["star", *pair],  # two papers of one shard
        ["star", pair[0], one],  # one already starred, one in another shard: the full path
        ["note", other, "--text", "a note ✎\x1b[31m"],
        ["star", other],  # a record with a note: updated in place, its keys in their order
        ["unstar", other],  # kept for its note
        ["unstar", pair[1], pair[1]],  # twice the same paper
        ["status", other, "read"],
        ["status", other, "read"],  # already read: nothing written
        ["note", other, "--text", "  "],  # a blank note deletes it
        ["note", other, "--text", ""],  # no note to delete
        ["status", other, "unseen"],  # the record, empty, removed
        ["status", pair[0], "skimmed"],
        ["note", pair[0], "--text", "-1 is the sign"],  # (the full path: a text beginning with -)
        ["tag", pair[0], "moe"],
        ["tag", pair[0], "Must Read", "#moe", 'say "hi"'],  # cleaned as stored; one already there
        ["tag", pair[0], "moe"],  # already tagged: nothing written
        ["untag", pair[0], "MOE", "nothere"],
        ["untag", pair[0], "nothere"],  # not tagged
        ["unstar", pair[0]],  # kept for its note, tags and status
        ["untag", pair[0], "must-read", "say-hi"],
        ["tag", pair[0], "to-cite, robotics,", "hands"],  # a comma separates tags
        ["untag", pair[0], "robotics,hands"],
    ]
    answered = 0
    for step in steps:
        code, out, err = quick.run(step, str(quick_dir)), *capsys.readouterr()
        if code is None:
            assert (out, err) == ("", "")
            assert main(["--data-dir", str(quick_dir), *step]) == 0  # the full path, for both to go on alike
            out, err = capsys.readouterr()
        else:
            answered += 1
        assert (0, out, err) == _full(capsys, monkeypatch, "--data-dir", str(full_dir), *step), step
        assert _files(quick_dir) == _files(full_dir), step
    assert answered >= 20  # all but the two shards and the dashed note


def test_star_leaves_everything_as_it_was_when_it_cannot_write_it(
    review_sample: ReviewSample, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _own_store(review_sample, tmp_path)
    capsys.readouterr()
    paper_id = Store(data).paper_ids[0]
    shard = data / "user" / f"{one_paper.shard_of(paper_id)[1]:02x}.json"
    # the shard's lock held by another process: the full path waits for it
    (data / "user").mkdir()
    fd = one_paper._lock(str(data / "user" / ".lock"))
    try:
        assert quick.run(["star", paper_id], str(data)) is None
    finally:
        one_paper._unlock(fd)
    assert not shard.exists()
    # a read-only shard: the full path says so
    assert quick.run(["star", paper_id], str(data)) == 0
    assert capsys.readouterr().out.startswith(f"starred {paper_id}")
    before = shard.read_bytes()
    shard.chmod(0o400)
    assert quick.run(["unstar", paper_id], str(data)) is None
    assert shard.read_bytes() == before
    shard.chmod(0o600)
    # a document id TinyDB would write otherwise
    shard.write_bytes(before.replace(b'"user":{"', b'"user":{"0'))
    assert quick.run(["unstar", paper_id], str(data)) is None
    assert not [p for p in (data / "user").iterdir() if p.name.endswith(".tmp")]
    assert capsys.readouterr() == ("", "")


def test_json_of_the_standard_library_writes_a_shard_as_orjson_does() -> None:
    import json

    import orjson

    doc = {"meta": {"1": {"app": "paperdeck", "schema": 2}}, "user": {"12": {
        "paper_id": "openreview:x", "starred": True, "note": 'a "q" \\ \n\t\x1b\x7f\x85 é ✎ 🙂 \u2028 </>',
        "status": "read", "tags": ["a", "b"], "created": "", "updated": ""}}}  # fmt: skip
    assert json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode() == orjson.dumps(doc)


def test_an_interrupt_in_the_quick_path_is_said_as_the_full_path_says_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def interrupted(words: list[str], leading: str | None) -> int | None:
        raise KeyboardInterrupt

    monkeypatch.setattr(quick, "run", interrupted)
    assert main(["--data-dir", str(tmp_path), "show", "x"]) == 130
    assert capsys.readouterr().err == "paperdeck: interrupted; nothing was changed\n"


def test_a_copied_stores_first_show_makes_its_indexes_again(
    review_sample: ReviewSample, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store copied or restored (new inodes: the paper index and the summaries' span index are
    of the old files) is answered by the full path once, which writes both again; then ``show``
    takes the quick path and finds the summary by its span index, not in the file's text."""
    import shutil

    from paperdeck.store.paper_index import open_index

    made = _own_store(review_sample, tmp_path)
    data = tmp_path / "copied"
    shutil.copytree(made, data, copy_function=shutil.copy2)
    reviews = data / "reviews"
    (summaries,) = reviews.glob("summaries.g*[0-9].json")
    spans = summaries.with_name(summaries.name.removesuffix(".json") + ".spans.json")
    assert open_index(spans, summaries) is None
    paper_id = Store(made).paper_ids[0]
    assert main(["--data-dir", str(data), "show", paper_id]) == 0
    capsys.readouterr()
    for index_path, of in ((data / "paper-index.bin", data / "catalogue.json"), (spans, summaries)):
        index = open_index(index_path, of)
        assert index is not None, index_path.name
        index.close()
    monkeypatch.setattr(one_paper, "_summary_in_text", lambda path, prefix: pytest.fail("read in the text"))
    code, out, _ = _quick(capsys, data, paper_id)
    assert code == 0 and paper_id in out
