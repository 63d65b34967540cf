"""``paperdeck star A B C D E F`` (six papers in six shards) with EIO or ENOSPC at each writing
system call in turn (EIO at the odd ones, ENOSPC at the even ones): all six are starred or none
is, and the line printed says which."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.store.store import Store
from paperdeck.store.transaction import NOT_FINISHED
from paperdeck.store.user_data import SHARDS, doc_id_for

from tests.helpers import run
from tests.store.faults import NOTHING_CHANGED, Faults, copy_tree


def _six_in_six_shards(template: Path) -> list[str]:
    papers = [Paper(id=f"title:{n}", title=f"Deep nets, part {n}", abstract="") for n in range(40)]
    Store(template).import_papers(papers)
    by_shard: dict[int, str] = {}
    for paper in papers:
        by_shard.setdefault(doc_id_for(paper.id) % SHARDS, paper.id)
    return list(by_shard.values())[:6]


@pytest.mark.parametrize("kind", ["eio", "enospc"])
def test_star_of_six_papers_is_all_or_none_and_says_which(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = tmp_path / "template"
    ids = _six_in_six_shards(template)
    assert len(ids) == 6
    count = copy_tree(template, tmp_path / "count")
    with Faults(count) as counting:
        assert run(capsys, "star", *ids, "--data-dir", str(count))[0] == 0
    assert counting.calls > 6
    outcomes = {"all": 0, "none": 0}
    for call in range(1 if kind == "eio" else 2, counting.calls + 1, 2):  # every call, by one kind or the other
        data_dir = copy_tree(template, tmp_path / "run")
        with Faults(data_dir, call, kind):
            code, _, err = run(capsys, "star", *ids, "--data-dir", str(data_dir))
        starred = sum(Store(data_dir).user_data(pid).starred for pid in ids)
        assert starred in (0, 6), f"call {call}: {starred} of 6 starred; said {err!r}"
        if starred == 6:
            outcomes["all"] += 1
            assert code == 0 or NOT_FINISHED in err, f"call {call}: {err!r}"
        else:
            outcomes["none"] += 1
            assert code == 2 and NOTHING_CHANGED in err and len(err.strip().splitlines()) == 1, f"call {call}: {err!r}"
    assert outcomes["all"] and outcomes["none"]
