"""bench/procs.py and the start-up keys of bench/cold_start.py: what they count is the child's own."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import procs
from cold_start import PtyRun, cpu_keys


def test_a_childs_peak_memory_is_its_own_not_the_parents() -> None:
    held = bytearray(b"\x01") * (160 * 2**20)  # 160 MB resident in this process
    run = procs.run_child([sys.executable, "-c", "pass"])
    assert run.returncode == 0
    assert run.peak_rss_mb < 80  # a child forked from this process directly would report ≥ 160 MB
    assert len(held) == 160 * 2**20


#: Holds ``MB`` MB (every page touched), runs ``argv`` (if any) and prints its own CPU seconds.
_HOLDER = """
import subprocess, sys, time
held = bytearray(b"\\x01") * (int(sys.argv[1]) * 2**20)
print(time.process_time(), flush=True)
if len(sys.argv) > 2:
    subprocess.run(sys.argv[2:], check=True)
"""

#: Holds 80 MB until the waiter's running sum (``REPORT.tree``, KB) of the process tree reaches
#: ``argv[1]`` MB (it finds the waiter as its parent's parent, and ``REPORT`` in its command line).
_HELD_UNTIL_SUMMED = """
import os, sys, time
held = bytearray(b"\\x01") * (80 * 2**20)
parent = open(f"/proc/{os.getppid()}/stat").read()
waiter = int(parent[parent.rindex(")") + 2 :].split()[1])
report = open(f"/proc/{waiter}/cmdline", "rb").read().split(b"\\0")[3].decode() + ".tree"
for _ in range(12_000):  # a bound: the test fails, it does not hang, if the sum is never written
    try:
        if int(open(report).read() or 0) >= int(sys.argv[1]) * 1024:
            break
    except OSError:
        pass
    time.sleep(0.01)
else:
    sys.exit(7)
print(time.process_time(), flush=True)
"""


def test_a_childs_processes_cpu_counted_their_memory_largest_and_summed() -> None:
    grandchild = [sys.executable, "-c", _HELD_UNTIL_SUMMED, "150"]
    run = procs.run_child([sys.executable, "-c", _HOLDER, "80", *grandchild], keep_output=True)
    assert run.returncode == 0
    parent_cpu, grandchild_cpu = map(float, run.stdout.split())
    assert run.cpu_s >= parent_cpu + grandchild_cpu  # the process it waited for counted too
    assert run.peak_rss_mb < 130  # the largest of the two (~90 MB each), not their sum
    assert run.tree_peak_rss_mb >= 150  # both at once, summed


def test_a_store_is_built_from_nothing_by_one_process(tmp_path: Path) -> None:
    with procs.store_built_alone(tmp_path / "work") as data_dir:
        assert data_dir == tmp_path / "work" / "data" and data_dir.is_dir()
        with pytest.raises(SystemExit, match="another process is building"), procs.store_built_alone(tmp_path / "work"):
            pass
        (data_dir / "catalogue.json").write_text("{}")  # a store left there
    with pytest.raises(SystemExit, match="is not empty"), procs.store_built_alone(tmp_path / "work"):
        pass


def test_a_childs_cpu_exit_status_and_output() -> None:
    spin = "import sys; n = 0\nfor i in range(3_000_000): n += i\nprint(n); sys.exit(3)"
    run = procs.run_child([sys.executable, "-c", spin], keep_output=True)
    assert run.returncode == 3
    assert run.stdout.strip() == str(sum(range(3_000_000)))
    assert run.cpu_s > 0
    wall_ms, cpu_ms = procs.time_child([sys.executable, "-c", spin])
    assert cpu_ms > 0 and wall_ms > 0


def test_paperdeck_runs_this_checkouts_code() -> None:
    code = "import paperdeck, sys; sys.stdout.write(paperdeck.__file__)"
    run = procs.run_child([sys.executable, "-c", code], procs.paperdeck_env(), keep_output=True)
    assert Path(run.stdout).resolve().is_relative_to(procs.TUI.resolve())
    assert procs.paperdeck_env("/x/y")["PAPERDECK_DATA_DIR"] == "/x/y"


def test_a_running_processs_cpu_and_memory() -> None:
    assert procs.proc_cpu_ms(os.getpid()) > 0
    assert procs.proc_status_mb(os.getpid(), "VmHWM") >= procs.proc_status_mb(os.getpid(), "VmRSS") > 0


def test_no_instruction_count_without_valgrind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert procs.instructions([sys.executable, "-c", "pass"]) is None


def test_the_cpu_ratios_are_medians_of_the_pairs() -> None:
    cold = [PtyRun(0, c) for c in (250, 270, 900)]  # a pair slowed by the machine moves both
    floor = [PtyRun(0, f, 0, f + 30) for f in (200, 180, 600)]
    ready = [PtyRun(0, 0, 0, r) for r in (330, 340, 1000)]
    keys = cpu_keys(cold, ready, floor)
    assert keys["cold_start_cpu_vs_floor"] == 1.5  # 1.25, 1.5, 1.5
    assert keys["ready_cpu_vs_floor_ready"] == round(1000 / 630, 2)  # 1.43, 1.62, 1.59
    assert keys["cold_start_cpu_ms"] == 270


def test_a_process_ends_itself_at_the_text_it_waits_for() -> None:
    from paint_ir import exit_at_text_argv, run_to_exit

    painted = "import sys, time\nsys.__stderr__.write('first \\x1b[1mrow\\x1b[0m MARK'); sys.__stderr__.flush()\n"
    forever = "time.sleep(600)\n"
    assert run_to_exit(exit_at_text_argv(painted + forever, [], "MARK"), dict(os.environ), "MARK", timeout=120) == 0
    # Typed: the result is looked for after the marker, its style codes taken out.
    typed = (
        painted + "line = sys.stdin.readline()\n"
        "sys.__stderr__.write('\\x1b[7mfound\\x1b[0m ' + line.strip()); sys.__stderr__.flush()\n" + forever
    )
    argv = exit_at_text_argv(typed, [], "MARK", "found /REAP")
    assert run_to_exit(argv, dict(os.environ), "MARK", "/REAP\n", timeout=120) == 0
    # Never written: the wait ends and says so.
    with pytest.raises(RuntimeError, match="did not end"):
        run_to_exit(exit_at_text_argv(painted + forever, [], "NEVER"), dict(os.environ), "NEVER", timeout=3)


def test_no_paint_instruction_counts_without_valgrind(monkeypatch: pytest.MonkeyPatch) -> None:
    import paint_ir

    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert paint_ir.paint_ir_keys("/nowhere", "title", "REAP", "result") == {}
