"""Two writers on one store at once lose nothing.

* Writer A is a Python process holding one ``Store`` open, as the app does, for all its writes.
* Writer B is a Python process running the CLI's code (``paperdeck.cli.main.main``: ``star``, ``unstar``,
  ``note``), a fresh store per command, as separate ``paperdeck`` runs do.
* Meanwhile the test itself runs the installed ``paperdeck star|unstar|note`` a few times.

Each owns some papers (stars set and unset, toggles, notes appended line by line) and all of them
star a shared set of papers with ``set_star(True)`` only, so the final state of every paper is
known from the acknowledged operations. Afterwards: no operation lost, and writer A's long-lived
store, reloaded, shows exactly what is on disk (the other writers' changes included).

Default: 200 operations per writer; ``slow`` (or ``PAPERDECK_FULL=1``): 1,000 each.

And two processes importing into one store at once: every acknowledged import stays in the
catalogue (each merges into the catalogue on disk, under the import lock).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO / "seeds"
PAPERDECK = Path(sys.executable).parent / "paperdeck"
FULL = os.environ.get("PAPERDECK_FULL") == "1"

WRITER_A = textwrap.dedent(
    """
    import json, random, sys
    from paperdeck.store.store import Store

    data_dir, ops = sys.argv[1], int(sys.argv[2])
    mine, shared = json.loads(sys.argv[3]), json.loads(sys.argv[4])
    rng = random.Random(1)
    store = Store(data_dir)
    print(json.dumps({"ready": True}), flush=True)
    sys.stdin.readline()
    for op in range(ops):
        dice = rng.random()
        if dice < 0.25:
            pid = rng.choice(shared)
            store.set_star(pid, True)
            event = {"op": op, "kind": "star", "id": pid, "starred": True}
        elif dice < 0.5:
            pid, starred = rng.choice(mine), rng.random() < 0.5
            store.set_star(pid, starred)
            event = {"op": op, "kind": "star", "id": pid, "starred": starred}
        elif dice < 0.6:
            pid = rng.choice(mine)
            record = store.toggle_star(pid)
            event = {"op": op, "kind": "star", "id": pid, "starred": record.starred}
        else:
            pid = rng.choice(mine)
            line = f"A{op} ✎ private"
            old = store.user_data(pid).note
            record = store.set_note(pid, f"{old}\\n{line}" if old else line)
            event = {"op": op, "kind": "append", "id": pid, "line": line, "note": record.note}
        print(json.dumps(event), flush=True)  # acknowledged: the call has returned
    print(json.dumps({"done": True}), flush=True)
    sys.stdin.readline()  # the other writers have finished
    # A last note on each own paper: some share a shard with writer B's papers, so these writes
    # replace shards B wrote after this store last read them; the reload must still show B's work.
    for op, pid in enumerate(mine, start=ops):
        line = f"A{op} ✎ last"
        old = store.user_data(pid).note
        record = store.set_note(pid, f"{old}\\n{line}" if old else line)
        event = {"op": op, "kind": "append", "id": pid, "line": line, "note": record.note}
        print(json.dumps(event), flush=True)
    store.reload_user_data()
    view = {pid: [r.starred, r.note] for pid, r in store.all_user_data.items()}
    print(json.dumps({"view": view}), flush=True)
    """
)

WRITER_B = textwrap.dedent(
    """
    import contextlib, io, json, random, sys
    from paperdeck.cli.main import main

    data_dir, ops = sys.argv[1], int(sys.argv[2])
    mine, shared = json.loads(sys.argv[3]), json.loads(sys.argv[4])
    rng = random.Random(2)
    notes = {pid: "" for pid in mine}

    def cli(*argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main([*argv, "--data-dir", data_dir, "--json"])
        assert status == 0, (argv, status)
        return json.loads(out.getvalue())

    print(json.dumps({"ready": True}), flush=True)
    sys.stdin.readline()
    for op in range(ops):
        dice = rng.random()
        if dice < 0.25:
            pid = rng.choice(shared)
            cli("star", pid)
            event = {"op": op, "kind": "star", "id": pid, "starred": True}
        elif dice < 0.6:
            pid, starred = rng.choice(mine), rng.random() < 0.5
            [record] = cli("star" if starred else "unstar", pid)
            assert record["starred"] is starred
            event = {"op": op, "kind": "star", "id": pid, "starred": starred}
        else:
            pid = rng.choice(mine)
            line = f"B{op} ✎ private"
            notes[pid] = f"{notes[pid]}\\n{line}" if notes[pid] else line
            record = cli("note", pid, "--text", notes[pid])
            event = {"op": op, "kind": "append", "id": pid, "line": line, "note": record["note"]}
        print(json.dumps(event), flush=True)
    """
)


_STARTED: list[subprocess.Popen[str]] = []


@pytest.fixture(autouse=True)
def _no_writer_outlives_its_test() -> Iterator[None]:
    yield
    while _STARTED:
        process = _STARTED.pop()
        if process.poll() is None:  # a failed check left it waiting
            process.kill()
            process.wait(timeout=30)


def _start(tmp_path: Path, name: str, script: str, args: list[str]) -> subprocess.Popen[str]:
    path = tmp_path / f"{name}.py"
    path.write_text(script, "utf-8")
    process = subprocess.Popen(
        [sys.executable, str(path), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
    )  # fmt: skip
    _STARTED.append(process)
    return process


def _lines_until_done(writer: subprocess.Popen[str]) -> list[str]:
    """Writer A's lines up to its ``done``: it then waits for the word to reload."""
    assert writer.stdout is not None
    lines = []
    while (line := writer.stdout.readline()) and json.loads(line) != {"done": True}:
        lines.append(line)
    assert line, "writer A ended before it was done"
    return lines


class Expected:
    """The state every acknowledged operation implies, paper by paper."""

    def __init__(self) -> None:
        self.starred: dict[str, bool] = {}
        self.lines: dict[str, list[str]] = {}
        self.acknowledged = 0

    def apply(self, event: dict[str, Any]) -> None:
        self.acknowledged += 1
        pid = event["id"]
        if event["kind"] == "star":
            self.starred[pid] = event["starred"]
        else:
            self.lines.setdefault(pid, []).append(event["line"])
            # Each writer appends to its own papers only: what it got back is what it wrote.
            assert event["note"] == "\n".join(self.lines[pid])

    def lost(self, store: Store) -> list[str]:
        problems = []
        for pid, starred in self.starred.items():
            if store.user_data(pid).starred != starred:
                problems.append(f"{pid}: starred should be {starred}")
        for pid, lines in self.lines.items():
            if store.user_data(pid).note != "\n".join(lines):
                problems.append(f"{pid}: note lacks lines ({len(lines)} appended)")
        return problems


def run_two_writers(tmp_path: Path, ops: int, cli_runs: int) -> None:
    data_dir = tmp_path / "data"
    store = Store(data_dir)
    import_files(store, sorted(SEEDS.glob("*.txt")))
    ids = store.paper_ids
    assert len(ids) == 37
    own_a, own_b, own_cli, shared = ids[:10], ids[10:20], ids[20:25], ids[25:]
    shards = {pid: doc_id_for(pid) % SHARDS for pid in ids}
    assert {shards[p] for p in own_a} & {shards[p] for p in own_b}, "no shard in common"
    common = [str(data_dir), str(ops)]
    writers = {
        "A": _start(tmp_path, "a", WRITER_A, [*common, json.dumps(own_a), json.dumps(shared)]),
        "B": _start(tmp_path, "b", WRITER_B, [*common, json.dumps(own_b), json.dumps(shared)]),
    }
    for name, writer in writers.items():
        assert writer.stdout is not None and writer.stderr is not None
        ready = writer.stdout.readline()
        assert ready, f"writer {name} did not start:\n{writer.stderr.read()}"
        assert json.loads(ready) == {"ready": True}
    started = time.monotonic()
    for writer in writers.values():
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()

    # The installed command, meanwhile: its own papers, plus stars on the shared ones.
    expected = Expected()
    cli_notes: dict[str, str] = {}
    cli_events = []
    for run in range(cli_runs):
        pid = own_cli[run % len(own_cli)]
        if run % 3 == 0:
            other = shared[run % len(shared)]
            args = ["star", pid, other]
            cli_events += [{"kind": "star", "id": i, "starred": True} for i in (pid, other)]
        elif run % 3 == 1:
            args = ["unstar", pid]
            cli_events.append({"kind": "star", "id": pid, "starred": False})
        else:
            line = f"CLI{run} ✎ private"
            cli_notes[pid] = f"{cli_notes[pid]}\n{line}" if pid in cli_notes else line
            args = ["note", pid, "--text", cli_notes[pid]]
            cli_events.append({"kind": "append", "id": pid, "line": line, "note": cli_notes[pid]})
        done = subprocess.run(
            [str(PAPERDECK), *args, "--data-dir", str(data_dir)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    for event in cli_events:  # acknowledged: each run returned 0
        expected.apply(event)

    a_lines: list[str] = []
    reader = threading.Thread(target=lambda: a_lines.extend(_lines_until_done(writers["A"])))
    reader.start()  # drain A while B runs: a full pipe would stall A
    b_out, b_err = writers["B"].communicate(timeout=300)
    assert writers["B"].returncode == 0, f"writer B failed:\n{b_err}"
    reader.join(timeout=300)
    assert not reader.is_alive()
    a_out, a_err = writers["A"].communicate("reload\n", timeout=60)
    assert writers["A"].returncode == 0, f"writer A failed:\n{a_err}"
    took = time.monotonic() - started
    outputs = {
        "A": [json.loads(line) for line in [*a_lines, *a_out.splitlines()]],
        "B": [json.loads(line) for line in b_out.splitlines()],
    }

    for name, count in (("A", ops + len(own_a)), ("B", ops)):
        events = [e for e in outputs[name] if "op" in e]
        assert [e["op"] for e in events] == list(range(count)), f"writer {name} skipped operations"
        for event in events:
            expected.apply(event)
    on_disk = Store(data_dir)
    lost = expected.lost(on_disk)
    print(
        f"\n2 writers x {ops} operations + {cli_runs} paperdeck runs in {took:.1f} s: "
        f"{expected.acknowledged} acknowledged, {len(lost)} lost"
    )
    assert not lost, lost[:10]
    assert expected.acknowledged == 2 * ops + len(own_a) + len(cli_events)
    assert all(on_disk.user_data(pid).starred for pid in shared if pid in expected.starred)

    # Writer A's own long-lived store, reloaded at the end, sees everything on disk.
    view = next(e["view"] for e in outputs["A"] if "view" in e)
    disk = {pid: [r.starred, r.note] for pid, r in on_disk.all_user_data.items()}
    assert view == disk, "writer A's reloaded view differs from the disk"
    assert any(pid in view for pid in own_b), "writer A never saw writer B's papers"


def test_two_writers_lose_nothing(tmp_path: Path) -> None:
    run_two_writers(tmp_path, ops=1000 if FULL else 200, cli_runs=6)


@pytest.mark.slow
def test_two_writers_1000_operations_each_lose_nothing(tmp_path: Path) -> None:
    run_two_writers(tmp_path, ops=1000, cli_runs=15)


IMPORTER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from paperdeck.sources.importer import import_files
    from paperdeck.store.store import Store

    data_dir, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    store = Store(data_dir)  # one store for all its imports, as a long-running process keeps
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range(count):
        path = data_dir.parent / f"{name}-{i}.txt"
        abstract = f"We propose {name.upper()}{i}Net, a method for concurrent imports ({i})."
        path.write_text(f"ICLR 2026\\n\\n{abstract}\\n", "utf-8")
        import_files(store, [path])
        print(path.name, flush=True)  # acknowledged
    """
)


def test_two_importers_at_once_lose_no_imported_paper(tmp_path: Path) -> None:
    """Each import merges into the catalogue as it is on disk, not into the copy its process
    read earlier: otherwise each process's catalogue write drops the other's papers."""
    data_dir = tmp_path / "data"
    store = Store(data_dir)
    import_files(store, [sorted(SEEDS.glob("*.txt"))[0]])
    store.set_star(store.paper_ids[0], True)
    count = 12
    importers = [_start(tmp_path, f"i{n}", IMPORTER, [str(data_dir), n, str(count)]) for n in "xy"]
    for importer in importers:
        assert importer.stdout is not None and importer.stdout.readline() == "ready\n"
    for importer in importers:
        assert importer.stdin is not None
        importer.stdin.write("go\n")
        importer.stdin.flush()
    acknowledged = []
    for importer in importers:
        out, err = importer.communicate(timeout=120)
        assert importer.returncode == 0, err
        acknowledged += out.split()
    assert len(acknowledged) == 2 * count
    reopened = Store(data_dir)
    sources = {source for paper in reopened.papers for source in paper.sources}
    lost = [name for name in acknowledged if name not in sources]
    print(f"\n2 importers x {count} imports: {len(acknowledged)} acknowledged, {len(lost)} lost")
    assert not lost
    assert len(reopened.papers) == 19 + 2 * count
    assert reopened.user_data(store.paper_ids[0]).starred
