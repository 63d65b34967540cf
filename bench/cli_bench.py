"""The command line as scripts feel it: whole processes, timed from outside.

Usage: python bench/cli_bench.py DATA_DIR  — prints the keys below for a store holding papers (its
search index saved, as ``paperdeck import`` leaves it). ``paperdeck`` runs this checkout's code
(bench/procs.py ``paperdeck_argv``). Wall ms and CPU ms (``ru_utime + ru_stime`` of ``os.wait4``:
the process's own, every thread) of each run; the commands are run in turn, interleaved, 7 rounds.

- ``cli_search_vs_fzf`` / ``cli_search_cpu_vs_fzf``: ``paperdeck search REAP --limit 10`` ÷
  ``fzf --exact --filter REAP`` over the same text (each paper's title, keywords and abstract on one
  line), run in turn, A B A B …, the median of the pairs' ratios in wall time / in CPU time (the
  machine's speed drifts: a pair shares it); ``cli_search_ms``, ``cli_search_cpu_ms``, ``fzf_ms``,
  ``fzf_cpu_ms`` the medians. fzf is installed with apt-get when missing and this runs as root; else
  the ratios are absent (``null``) and ``fzf_absent`` says why;
- ``cli_show_ms`` / ``cli_show_cpu_ms``: ``paperdeck show ID`` (the first submission of the dump's
  middle part, the same paper at every scale: :func:`same_paper`), median;
  ``cli_star_ms`` / ``cli_star_cpu_ms``: ``paperdeck star ID`` and ``unstar`` in turn (each a durable
  write), median; ``cli_version_ms`` / ``cli_version_cpu_ms``: ``paperdeck --version``;
  ``python_pass_ms`` / ``python_pass_cpu_ms``: ``python -c pass``, the yardstick, in the same rounds;
- instruction counts (``valgrind --tool=callgrind --callgrind-out-file=/dev/null``, "Collected",
  one run each: they hold still): ``python_pass_ir``, ``cli_version_ir``, ``cli_show_ir``,
  ``cli_star_ir`` (then unstarred), ``cli_note_ir`` (``note ID --text …``, then the note deleted),
  ``cli_status_ir`` (``status ID skimmed``, then ``unseen``), and ``cli_show_ir_vs_pass``,
  ``cli_star_ir_vs_pass``, ``cli_version_ir_vs_pass`` (÷ ``python_pass_ir``). Without valgrind these
  keys are absent and ``"ir": "valgrind not installed"`` says so.

The app's modules are byte-compiled first (see bench/cold_start.py). The store is written to (star,
note, status), and each write is taken back.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tui"))

from procs import instructions, paperdeck_argv, paperdeck_env, time_child  # noqa: E402

RUNS = 7
QUERY = "REAP"


def ensure_fzf() -> tuple[str | None, str]:
    """fzf's path, installing it with apt-get if it is missing (as root); else ``None`` and why."""
    found = shutil.which("fzf")
    if found:
        return found, ""
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return None, "fzf is not installed and apt-get cannot install it here (not root, or no apt-get)"
    subprocess.run(["apt-get", "install", "-y", "-q", "fzf"], capture_output=True, check=False)
    found = shutil.which("fzf")
    return (found, "") if found else (None, "apt-get install fzf failed")


def fzf_text(data_dir: Path, path: Path) -> None:
    """Write each paper's title, keywords and abstract, one line per paper."""
    from paperdeck.store.store import Store

    with path.open("w", encoding="utf-8", errors="surrogatepass") as out:
        for paper in Store(data_dir).papers:
            line = " ".join((paper.title, "; ".join(paper.keywords), paper.abstract))
            out.write(" ".join(line.split()) + "\n")


def run_ms(argv: list[str], stdin: Path | None = None, env: dict[str, str] | None = None) -> float:
    """ms of one whole process, its output thrown away."""
    return time_child(argv, env, stdin)[0]


def _medians(name: str, runs: list[tuple[float, float]]) -> dict[str, object]:
    return {f"{name}_ms": round(statistics.median(w for w, _ in runs)),
            f"{name}_cpu_ms": round(statistics.median(c for _, c in runs))}  # fmt: skip


def _ratio(a: list[float], b: list[float]) -> float:
    return round(statistics.median(x / y for x, y in zip(a, b, strict=True)), 2)


def measure_ir(data_dir: Path, paper_id: str) -> dict[str, object]:
    """The instruction counts of the module docstring (each write taken back after)."""
    env = paperdeck_env(data_dir)
    counts = {"python_pass_ir": instructions([sys.executable, "-c", "pass"])}
    if counts["python_pass_ir"] is None:
        return {"ir": "valgrind not installed"}
    commands = {
        "cli_version_ir": (["--version"], None),
        "cli_show_ir": (["show", paper_id], None),
        "cli_star_ir": (["star", paper_id], ["unstar", paper_id]),
        "cli_note_ir": (["note", paper_id, "--text", "compare with the baseline"], ["note", paper_id, "--text", ""]),
        "cli_status_ir": (["status", paper_id, "skimmed"], ["status", paper_id, "unseen"]),
    }
    for key, (args, undo) in commands.items():
        counts[key] = instructions(paperdeck_argv(*args), env)
        if undo is not None:
            time_child(paperdeck_argv(*undo), env)
    base = counts["python_pass_ir"]
    result: dict[str, object] = dict(counts)
    for key in ("cli_show_ir", "cli_star_ir", "cli_version_ir"):
        value = counts[key]
        result[f"{key}_vs_pass"] = round(value / base, 2) if value is not None and base else None
    return result


def same_paper(ids: list[str]) -> str:
    """The paper ``show``/``star`` are measured on: the first submission of the dump's second part
    (an original, in the store at every scale, so that 1× and N× are compared on the same paper),
    else the store's middle paper."""
    from scale import DUMP

    with contextlib.suppress(OSError, ValueError, IndexError, KeyError, TypeError):
        with DUMP[len(DUMP) // 2].open(encoding="utf-8") as part:
            paper_id = f"openreview:{json.loads(part.readline())['id']}"
        if paper_id in set(ids):
            return paper_id
    return ids[len(ids) // 2]


def measure_cli(data_dir: Path, ir: bool = True) -> dict[str, object]:
    """The keys of the module docstring for the store in ``data_dir`` (without the instruction
    counts unless ``ir``)."""
    from cold_start import compile_app
    from paperdeck.store.store import Store

    compile_app()
    env = paperdeck_env(data_dir)
    search = paperdeck_argv("search", QUERY, "--limit", "10")
    ids = Store(data_dir, lazy=True).paper_ids
    paper_id = same_paper(ids)
    result: dict[str, object] = {}
    fzf, absent = ensure_fzf()
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "papers.txt"
        if fzf is None:
            print(f"bench: cli_search_vs_fzf absent: {absent}", file=sys.stderr)
            result.update(cli_search_vs_fzf=None, cli_search_cpu_vs_fzf=None, fzf_absent=absent)
        else:
            fzf_text(data_dir, text)
            time_child([fzf, "--exact", "--filter", QUERY], stdin=text)  # warm-up
        time_child(search, env)
        time_child(paperdeck_argv("show", paper_id), env)
        searches, fzfs, shows, stars, versions, passes = [], [], [], [], [], []
        for _ in range(RUNS):  # interleaved: the machine's speed drifts
            searches.append(time_child(search, env))
            if fzf is not None:
                fzfs.append(time_child([fzf, "--exact", "--filter", QUERY], stdin=text))
            shows.append(time_child(paperdeck_argv("show", paper_id), env))
            stars.append(time_child(paperdeck_argv("star", paper_id), env))
            time_child(paperdeck_argv("unstar", paper_id), env)
            versions.append(time_child(paperdeck_argv("--version"), env))
            passes.append(time_child([sys.executable, "-c", "pass"]))
        if fzf is not None:
            result.update(
                cli_search_vs_fzf=_ratio([w for w, _ in searches], [w for w, _ in fzfs]),
                cli_search_cpu_vs_fzf=_ratio([c for _, c in searches], [c for _, c in fzfs]),
                **_medians("fzf", fzfs),
                cli_search_vs_fzf_runs=[round(w / f, 2) for (w, _), (f, _) in zip(searches, fzfs, strict=True)],
                cli_search_cpu_vs_fzf_runs=[round(c / f, 2) for (_, c), (_, f) in zip(searches, fzfs, strict=True)],
            )
    for name, runs in (("cli_search", searches), ("cli_show", shows), ("cli_star", stars),
                       ("cli_version", versions), ("python_pass", passes)):  # fmt: skip
        result.update(_medians(name, runs))
    if ir:
        result.update(measure_ir(data_dir, paper_id))
    return result


if __name__ == "__main__":
    print(json.dumps(measure_cli(Path(sys.argv[1]))))
