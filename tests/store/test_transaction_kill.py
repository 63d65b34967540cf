"""Real ``kill -9`` (SIGKILL of a ``paperdeck`` process) at writing system calls of an import
of a paper list with its reviews, and of ``paperdeck star`` of six papers: the store opened
afterwards holds the whole state before or the whole state after."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from paperdeck.cli.main import main
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.store.user_data import SHARDS, doc_id_for

from tests.helpers import REPO, write_review_sample
from tests.store.faults import Faults, copy_tree, state

KILLS = 8  # kill points per operation, spread over its calls


def _killed_at(call: int, data_dir: Path, args: list[str]) -> int:
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from tests.store.faults import Faults
        from paperdeck.cli.main import main
        with Faults(Path({str(data_dir)!r}), {call}, "sigkill"):
            sys.exit(main({args!r}))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=REPO, timeout=120)
    return done.returncode


def _check(template: Path, tmp_path: Path, args: list[str]) -> tuple[int, int]:
    before = state(copy_tree(template, tmp_path / "before"), times=False)
    after_dir = copy_tree(template, tmp_path / "after")
    with Faults(after_dir) as counting:
        assert main([*args, "--data-dir", str(after_dir)]) == 0
    after = state(after_dir, times=False)
    assert before != after
    killed = completed = 0
    for call in range(1, counting.calls + 1, max(1, counting.calls // KILLS)):
        data_dir = copy_tree(template, tmp_path / "run")
        code = _killed_at(call, data_dir, [*args, "--data-dir", str(data_dir)])
        assert code == -signal.SIGKILL
        seen = state(data_dir, times=False)
        assert seen in (before, after), f"killed at call {call}: a half state"
        killed += 1
        completed += seen == after
    return killed, completed


@pytest.mark.slow
def test_kill_9_during_an_import_of_papers_with_their_reviews(tmp_path: Path) -> None:
    sample = write_review_sample(tmp_path)
    template = tmp_path / "template"
    store = Store(template)
    store.import_papers([Paper(id="title:a", title="Deep nets", abstract="")])
    store.set_star("title:a", True)
    killed, completed = _check(template, tmp_path, ["import", str(sample.papers_file), str(sample.notes_file)])
    print(f"import: {killed} kills, {completed} completed by the restart, 0 half states")
    assert killed >= KILLS and 0 < completed < killed


@pytest.mark.slow
def test_kill_9_during_a_star_of_six_papers_in_six_shards(tmp_path: Path) -> None:
    template = tmp_path / "template"
    papers = [Paper(id=f"title:{n}", title=f"Deep nets, part {n}", abstract="") for n in range(40)]
    Store(template).import_papers(papers)
    by_shard: dict[int, str] = {}
    for paper in papers:
        by_shard.setdefault(doc_id_for(paper.id) % SHARDS, paper.id)
    killed, completed = _check(template, tmp_path, ["star", *list(by_shard.values())[:6]])
    print(f"star: {killed} kills, {completed} completed by the restart, 0 half states")
    assert killed >= KILLS and completed < killed
