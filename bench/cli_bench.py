"""The command line as scripts feel it: whole processes, timed from outside.

Usage: python bench/cli_bench.py DATA_DIR  — prints {"cli_search_vs_fzf": …, "cli_search_ms": …,
"fzf_ms": …, "cli_show_ms": …, "cli_star_ms": …} for a store holding papers (its search index saved,
as ``paperdeck import`` leaves it).

- ``cli_search_vs_fzf``: ``paperdeck search REAP --limit 10`` ÷ ``fzf --exact --filter REAP`` over
  the same text (each paper's title, keywords and abstract on one line), run in turn, A B A B …,
  the median of the pairs' ratios (the machine's speed drifts: a pair shares it). fzf is installed
  with apt-get when missing and this runs as root; else the ratio is absent (``null``) and
  ``fzf_absent`` says why;
- ``cli_show_ms``: ``paperdeck show ID``, median; ``cli_star_ms``: ``paperdeck star ID`` and
  ``unstar`` in turn (each a durable write), median.

The app's modules are byte-compiled first (see bench/cold_start.py).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

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
    started = time.perf_counter()
    with open(stdin if stdin is not None else os.devnull, "rb") as given:
        subprocess.run(argv, stdin=given, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return (time.perf_counter() - started) * 1000


def measure_cli(data_dir: Path) -> dict[str, object]:
    """The keys of the module docstring for the store in ``data_dir``."""
    from cold_start import compile_app
    from paperdeck.store.store import Store

    compile_app()
    paperdeck = str(Path(sys.executable).parent / "paperdeck")
    env = dict(os.environ, PAPERDECK_DATA_DIR=str(data_dir))
    search = [paperdeck, "search", QUERY, "--limit", "10"]
    result: dict[str, object] = {}
    fzf, absent = ensure_fzf()
    with tempfile.TemporaryDirectory() as tmp:
        if fzf is None:
            print(f"bench: cli_search_vs_fzf absent: {absent}", file=sys.stderr)
            result.update(cli_search_vs_fzf=None, fzf_absent=absent)
            searches = [run_ms(search, env=env) for _ in range(RUNS)]
        else:
            text = Path(tmp) / "papers.txt"
            fzf_text(data_dir, text)
            run_ms(search, env=env)  # warm-up, each
            run_ms([fzf, "--exact", "--filter", QUERY], stdin=text)
            searches, fzfs = [], []
            for _ in range(RUNS):
                searches.append(run_ms(search, env=env))
                fzfs.append(run_ms([fzf, "--exact", "--filter", QUERY], stdin=text))
            ratios = [a / b for a, b in zip(searches, fzfs, strict=True)]
            result.update(cli_search_vs_fzf=round(statistics.median(ratios), 2), fzf_ms=round(statistics.median(fzfs)),
                          cli_search_vs_fzf_runs=[round(r, 2) for r in ratios])  # fmt: skip
        result["cli_search_ms"] = round(statistics.median(searches))
        paper_id = Store(data_dir, lazy=True).paper_ids[len(Store(data_dir, lazy=True).paper_ids) // 2]
        run_ms([paperdeck, "show", paper_id], env=env)
        shows = [run_ms([paperdeck, "show", paper_id], env=env) for _ in range(RUNS)]
        stars = [run_ms([paperdeck, ("star", "unstar")[n % 2], paper_id], env=env) for n in range(RUNS + 1)][1:]
        result.update(cli_show_ms=round(statistics.median(shows)), cli_star_ms=round(statistics.median(stars)))
    return result


if __name__ == "__main__":
    print(json.dumps(measure_cli(Path(sys.argv[1]))))
