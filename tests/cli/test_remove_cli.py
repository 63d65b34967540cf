"""``paperdeck remove ID|QUERY…`` and ``paperdeck import --undo`` / ``remove --undo``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.store.store import Store

from tests.helpers import SEEDS, run


@pytest.fixture
def data(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> str:
    """A store of the bundled seeds (37 papers), as the command line made it."""
    folder = str(tmp_path / "data")
    assert run(capsys, "import", *map(str, sorted(SEEDS.glob("*.txt"))), "--data-dir", folder)[0] == 0
    return folder


def test_remove_by_id_says_what_it_removed_and_keeps_the_marks(capsys: pytest.CaptureFixture[str], data: str) -> None:
    target = Store(data).paper_ids[3]
    assert run(capsys, "star", target, "--data-dir", data)[0] == 0
    code, out, err = run(capsys, "remove", target, "--data-dir", data)
    assert code == 0 and target in err  # the paper it removes, listed first
    assert "Removed 1 paper; `paperdeck remove --undo` takes it back" in out and "holds 36 papers" in out
    assert run(capsys, "show", target, "--data-dir", data)[0] == 2
    code, out, _ = run(capsys, "remove", "--undo", "--data-dir", data)
    assert code == 0 and "Undid the removal" in out and "1 paper back" in out
    code, out, _ = run(capsys, "show", target, "--json", "--data-dir", data)
    assert code == 0 and json.loads(out)["starred"] is True


def test_remove_by_query_and_json(capsys: pytest.CaptureFixture[str], data: str) -> None:
    code, out, _ = run(capsys, "remove", "reinforcement", "learning", "--yes", "--json", "--data-dir", data)
    removed = json.loads(out)["removed"]
    assert code == 0 and removed and json.loads(out)["papers"] == 37 - len(removed)
    assert not set(removed) & set(Store(data).paper_ids)


def test_a_query_naming_several_papers_or_every_paper_is_not_removed_unasked(
    capsys: pytest.CaptureFixture[str], data: str
) -> None:
    """A query is fuzzy (a title's words find other papers): more than one paper named by one is
    asked for, whatever the count; a blank query (a script's empty variable) is refused."""
    code, out, err = run(capsys, "remove", "reinforcement", "learning", "--data-dir", data)
    assert (code, out) == (2, "") and "add --yes to remove papers a query names" in err
    for blank in ("", "  "):
        code, out, err = run(capsys, "remove", blank, "--yes", "--data-dir", data)
        assert (code, out) == (2, "") and "an empty query names every paper" in err
    assert len(Store(data).paper_ids) == 37
    target = Store(data).papers[0]
    code, out, _ = run(capsys, "remove", f'title:"{target.title}"', "--data-dir", data)  # one paper: not asked
    assert code == 0 and "Removed 1 paper" in out


def test_removing_more_than_fifty_asks_and_without_a_terminal_refuses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: str
) -> None:
    records = [{"id": f"Bulk{n:06d}", "content": {"title": f"Bulk paper {n}", "abstract": f"Bulk {n}."}}
               for n in range(60)]  # fmt: skip
    bulk = tmp_path / "bulk.jsonl"
    bulk.write_text("\n".join(json.dumps(record) for record in records) + "\n", "utf-8")
    assert run(capsys, "import", str(bulk), "--data-dir", data)[0] == 0
    before = Store(data).paper_ids
    code, out, err = run(capsys, "remove", "title:bulk", "--data-dir", data)
    assert (code, out) == (2, "") and "this would remove 60 papers; add --yes" in err and "nothing was removed" in err
    assert Store(data).paper_ids == before
    code, out, _ = run(capsys, "remove", "title:bulk", "--yes", "--data-dir", data)
    assert code == 0 and "Removed 60 papers" in out and len(Store(data).paper_ids) == 37


def test_remove_of_nothing_changes_nothing(capsys: pytest.CaptureFixture[str], data: str) -> None:
    code, out, err = run(capsys, "remove", "zzqqxxnonesuch", "--data-dir", data)
    assert (code, out) == (1, "") and "no paper matches 'zzqqxxnonesuch'; nothing was removed" in err  # nothing to do
    assert run(capsys, "remove", "--data-dir", data)[0] == 2
    assert len(Store(data).paper_ids) == 37


def test_import_undo_takes_back_the_last_import_once(capsys: pytest.CaptureFixture[str], data: str) -> None:
    code, out, _ = run(capsys, "import", "--undo", "--data-dir", data)
    assert code == 0 and "Undid the import of" in out and "37 papers taken away" in out
    assert Store(data).is_empty
    code, out, err = run(capsys, "import", "--undo", "--data-dir", data)
    assert (code, out) == (1, "") and "nothing to undo: no import to take back" in err  # nothing to do


def test_each_undo_names_the_other_when_the_last_change_was_of_the_other_kind(
    capsys: pytest.CaptureFixture[str], data: str
) -> None:
    code, _, err = run(capsys, "remove", "--undo", "--data-dir", data)
    assert code == 1 and "the last change was the import" in err and "`paperdeck import --undo`" in err
    assert len(Store(data).paper_ids) == 37
    run(capsys, "remove", Store(data).paper_ids[0], "--data-dir", data)
    code, _, err = run(capsys, "import", "--undo", "--data-dir", data)
    assert code == 1 and "`paperdeck remove --undo` takes it back" in err


def test_import_without_files_or_with_both_is_refused(capsys: pytest.CaptureFixture[str], data: str) -> None:
    code, _, err = run(capsys, "import", "--data-dir", data)
    assert code == 2 and "import needs files to import, or --undo" in err
    code, _, err = run(capsys, "import", str(sorted(SEEDS.glob("*.txt"))[0]), "--undo", "--data-dir", data)
    assert code == 2 and "import takes no files" in err


def test_changes_names_a_removed_paper_as_no_longer_in_the_store(capsys: pytest.CaptureFixture[str], data: str) -> None:
    target = Store(data).paper_ids[0]
    assert run(capsys, "remove", target, "--data-dir", data)[0] == 0
    code, out, _ = run(capsys, "changes", "--data-dir", data)
    assert code == 0 and f"{target}  (no longer in the store)" in out and "removed from the store" in out
    code, out, _ = run(capsys, "changes", "--json", "--data-dir", data)
    gone = [item for item in json.loads(out)["papers"] if item["removed"]]
    assert code == 0 and [item["id"] for item in gone] == [target] and "removed" in gone[0]["kinds"]


def test_stats_count_the_marks_of_the_papers_in_the_store_only(capsys: pytest.CaptureFixture[str], data: str) -> None:
    """A removed paper's star, note and status are kept for when it comes back, but it is no
    paper of the store: ``stats`` (and ``--json``, its progress) count it no more, as the list's
    ``is:starred`` does not, until it is back."""
    ids = Store(data).paper_ids
    gone, kept = ids[3], ids[5]
    for paper_id in (gone, kept):
        assert run(capsys, "star", paper_id, "--data-dir", data)[0] == 0
        assert run(capsys, "note", paper_id, "--text", "mine", "--data-dir", data)[0] == 0
        assert run(capsys, "status", paper_id, "read", "--data-dir", data)[0] == 0

    def counted() -> tuple[str, dict[str, object]]:
        code, out, _ = run(capsys, "stats", "--data-dir", data)
        assert code == 0
        code, answer, _ = run(capsys, "stats", "--json", "--data-dir", data)
        assert code == 0
        return out.splitlines()[0], json.loads(answer)

    assert run(capsys, "remove", gone, "--data-dir", data)[0] == 0
    line, answer = counted()
    assert line == "36 papers, 1 starred, 1 with notes"
    assert (answer["papers"], answer["starred"], answer["notes"]) == (36, 1, 1)
    assert answer["figures"]["progress"]["starred"] == 1  # type: ignore[index]
    assert answer["figures"]["progress"]["statuses"]["read"] == 1  # type: ignore[index]
    assert run(capsys, "remove", "--undo", "--data-dir", data)[0] == 0  # the marks come back with it
    line, answer = counted()
    assert line == "37 papers, 2 starred, 2 with notes" and answer["starred"] == answer["notes"] == 2


def test_import_undo_of_reviews_alone_says_it_took_the_reviews_away(
    capsys: pytest.CaptureFixture[str], data: str
) -> None:
    """A tester's find: the undo of an import that brought reviews alone (of papers the store does
    not hold: no paper added or changed) said "no paper changed"."""
    from tests.helpers import write_review_sample

    sample = write_review_sample(Path(data).parent)
    assert run(capsys, "import", str(sample.notes_file), "--data-dir", data)[0] == 0
    code, out, _ = run(capsys, "import", "--undo", "--data-dir", data)
    assert code == 0 and f"): {len(sample.notes())} reviews and comments taken away. The store holds" in out, out
    assert Store(data).reviews.counts()["notes"] == 0


def test_an_undo_after_a_backup_restore_asks_for_yes_and_says_the_restore_stays(
    capsys: pytest.CaptureFixture[str], data: str, tmp_path: Path
) -> None:
    """A tester restored a backup, then `import --undo` took back an older import without a word
    about the restore (which is not undoable): it now asks for --yes, and then says so."""
    paper_id = Store(Path(data)).paper_ids[0]
    assert run(capsys, "star", paper_id, "--data-dir", data)[0] == 0
    backup = tmp_path / "backup.json"
    assert run(capsys, "export", "--user-data", "-o", str(backup), "--data-dir", data)[0] == 0
    assert run(capsys, "unstar", paper_id, "--data-dir", data)[0] == 0
    assert run(capsys, "import", str(backup), "--data-dir", data)[0] == 0  # the restore: stars it again
    catalogue = (Path(data) / "catalogue.json").read_bytes()
    code, out, err = run(capsys, "import", "--undo", "--data-dir", data)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "a backup restore (" in err and "`paperdeck import --undo --yes`" in err and "nothing was changed" in err
    assert (Path(data) / "catalogue.json").read_bytes() == catalogue
    code, out, _ = run(capsys, "import", "--undo", "--yes", "--data-dir", data)
    assert code == 0 and "Undid the import of" in out and "The backup restore of" in out and "is not undone" in out
    assert Store(Path(data)).user_data(paper_id).starred  # the restored marks stay
