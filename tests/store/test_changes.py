"""Snapshots and changes: every import records per paper what changed, and "since I last looked".

A slice of the real ICLR 2026 submissions and their review notes is imported, then the same slice
with some ratings, one confidence and some decisions changed (modified copies in ``tmp_path`` of
the cuts in ``tests/data/``): exactly those changes must be recorded, by review note id,
and shown by ``paperdeck changes --json`` and the ``is:changed`` / ``changed:`` terms.
"""

from __future__ import annotations

import gzip
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from paperdeck.cli.main import main
from paperdeck.cli.selecting import select_ids
from paperdeck.model.changes import PaperChange, ScoreChange, combined
from paperdeck.model.errors import StoreError
from paperdeck.model.paper import Paper
from paperdeck.sources.importer import import_files
from paperdeck.store.backup import read_backup, write_backup
from paperdeck.store.catalogue import Catalogue
from paperdeck.store.changes import CHANGES_FILE
from paperdeck.store.store import Store

from tests.helpers import review_parts, submission_parts

REVIEWS = review_parts()[0]
SUBMISSIONS = submission_parts()[0]
DAY_MS = 86_400_000
#: Submission positions in the slice whose status changes, and to what (``venue`` or withdrawn).
NEW_STATUS = {1: "ICLR 2026 Oral", 4: "ICLR 2026 Poster", 7: "withdrawn"}
DECIDED = {"ICLR 2026 Oral": "oral", "ICLR 2026 Poster": "poster", "withdrawn": "withdrawn"}


def clock() -> Callable[[], str]:
    """A clock for the store: one second later on each call, from 2026-11-20."""
    ticks = itertools.count()

    def now() -> str:
        tick = next(ticks)
        return f"2026-11-20T{tick // 3600:02d}:{tick // 60 % 60:02d}:{tick % 60:02d}.000000+00:00"

    return now


@dataclass
class Slice:
    before: list[Path]
    after: list[Path]
    #: (forum, review id, signature, field, old, new) of every score changed in ``after``.
    scores: set[tuple[str, str, str, str, float, float]]
    #: forum → new decision.
    decisions: dict[str, str]
    forums: list[str]


def _write(path: Path, records: list[dict[str, Any]], compress: bool = False) -> Path:
    data = "".join(json.dumps(record) + "\n" for record in records).encode()
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


@pytest.fixture(scope="module")
def real_slice(tmp_path_factory: pytest.TempPathFactory) -> Slice:
    return changed_slice(tmp_path_factory.mktemp("slice"))


def changed_slice(folder: Path) -> Slice:
    """The first real ICLR 2026 review notes and their papers, and a later copy of them with
    every fourth review's rating, one confidence and three statuses changed (files in ``folder``)."""
    with gzip.open(REVIEWS, "rb") as handle:
        notes = [json.loads(line) for line in itertools.islice(handle, 60)]
    forums = list(dict.fromkeys(note["forum"] for note in notes))
    wanted = set(forums)
    with SUBMISSIONS.open("rb") as handle:
        papers = [record for line in handle if (record := json.loads(line))["id"] in wanted]
    assert len(papers) == len(forums) >= 10
    changed_papers = json.loads(json.dumps(papers))
    decisions = {}
    for position, status in NEW_STATUS.items():
        paper = changed_papers[position]
        if status == "withdrawn":
            paper["withdrawn"] = True
        else:
            paper["content"]["venue"] = status
        decisions[paper["id"]] = DECIDED[status]
    changed_notes = json.loads(json.dumps(notes))
    scores = set()
    reviews = [note for note in changed_notes if note["invitations"][0].endswith("/-/Official_Review")]
    for number, note in enumerate(reviews):
        field = "confidence" if number == 3 else "rating" if number % 4 == 0 else ""
        if not field:
            continue
        old = note["content"][field]["value"]
        # a rating stays on ICLR 2026's scale (0, 2, … 10): off it, the file would be refused
        new = old + 2 if old <= 3 or (field == "rating" and old <= 6) else old - (2 if field == "rating" else 1)
        note["content"][field]["value"] = new
        note["tmdate"] += 7 * DAY_MS
        signature = note["signatures"][0].rsplit("/", 1)[-1]
        scores.add((note["forum"], note["id"], signature, field, float(old), float(new)))
    before = [_write(folder / "papers.jsonl", papers), _write(folder / "reviews.jsonl.gz", notes, True)]
    after = [
        _write(folder / "papers-later.jsonl", changed_papers),
        _write(folder / "reviews-later.jsonl.gz", changed_notes, True),
    ]
    return Slice(before, after, scores, decisions, forums)


def _store(data_dir: Path) -> Store:
    return Store(data_dir, now=clock())


def test_the_first_import_is_the_baseline_and_the_same_files_again_change_nothing(
    real_slice: Slice, data_dir: Path
) -> None:
    store = _store(data_dir)
    import_files(store, real_slice.before)
    import_files(store, real_slice.before)
    assert store.changes() == []
    assert not (data_dir / CHANGES_FILE).exists()


def test_exactly_the_changed_ratings_confidences_and_decisions_are_recorded(real_slice: Slice, data_dir: Path) -> None:
    store = _store(data_dir)
    import_files(store, real_slice.before)
    means_before = {p.openreview_id: p.ratings.mean if p.ratings else None for p in store.papers}
    decisions_before = {p.openreview_id: p.decision for p in store.papers}
    store.first_look()  # the app opened the store: what follows is news
    import_files(store, real_slice.after)
    by_paper = store.changes_by_paper()
    forum_of = {p.id: p.openreview_id for p in store.papers}
    recorded = {
        (forum_of[pid], s.review, s.signature, s.field, s.old, s.new) for pid, c in by_paper.items() for s in c.scores
    }
    assert recorded == real_slice.scores
    decisions = {forum_of[pid]: c.decision for pid, c in by_paper.items() if c.decision is not None}
    assert decisions == {forum: (decisions_before[forum], new) for forum, new in real_slice.decisions.items()}
    scored = {forum for forum, _, _, field, _, _ in real_slice.scores if field == "rating"}
    for pid, change in by_paper.items():
        forum = forum_of[pid]
        assert change.kinds <= {"decision", "rating", "confidence"}, change
        assert not change.new and not change.added and not change.title and not change.abstract
        paper = store.paper(pid)
        assert paper is not None
        if forum in scored:  # the mean moved from the old ratings' to the new ones'
            assert change.mean == (means_before[forum], paper.ratings.mean if paper.ratings else None)
    assert set(forum_of[pid] for pid in by_paper) == real_slice.decisions.keys() | {s[0] for s in real_slice.scores}
    for score in (s for c in by_paper.values() for s in c.scores):
        assert score.new_time - score.old_time == 7 * DAY_MS
    # Every change is new to the user: nothing was opened since; all of them are in the What changed view.
    changed = store.changed_since_looked()
    assert set(changed) == set(by_paper)
    assert set(select_ids(store, "is:changed")) == set(by_paper)
    assert set(select_ids(store, "changed:decision")) == {p for p, c in by_paper.items() if c.decision is not None}
    assert set(select_ids(store, "changed:rating")) == {p for p in by_paper if forum_of[p] in scored}
    for term in ("is:changed", "changed:rating", "changed:decision", "changed:confidence"):
        kept, rest = set(select_ids(store, term)), set(select_ids(store, f"-{term}"))
        assert not kept & rest and kept | rest == set(store.paper_ids), term  # exact complements


def test_paperdeck_changes_json_reports_exactly_those(
    real_slice: Slice, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = _store(data_dir)
    import_files(store, real_slice.before)
    store.first_look()  # the app opened the store: what follows is news
    import_files(store, real_slice.after)
    capsys.readouterr()
    assert main(["changes", "--json", "--data-dir", str(data_dir)]) == 0
    report = json.loads(capsys.readouterr().out)
    papers = report["papers"]
    forum = {item["id"]: item["id"].removeprefix("openreview:") for item in papers}
    scores = {
        (forum[item["id"]], s["review"], s["signature"], s["field"], s["old"], s["new"])
        for item in papers
        for s in item["scores"]
    }
    assert scores == real_slice.scores
    decisions = {forum[item["id"]]: item["decision"]["new"] for item in papers if item["decision"]}
    assert decisions == real_slice.decisions
    assert all(item["unseen"] and item["title"] for item in papers)
    assert main(["changes", "--since", "2099-01-01", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr().out.strip() == "no changes recorded since 2099-01-01T00:00:00+00:00"
    assert main(["changes", "--data-dir", str(data_dir)]) == 0
    text = capsys.readouterr().out
    assert "decision under-review → oral" in text and "rating " in text and " → " in text


def test_since_takes_dates_and_refuses_other_text(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Store(data_dir)
    with pytest.raises(SystemExit):
        main(["changes", "--since", "last \x1b[31mweek", "--data-dir", str(data_dir)])
    error = capsys.readouterr().err
    assert "not a date" in error and "\x1b" not in error


def test_opening_a_paper_clears_its_mark_until_the_next_change(
    real_slice: Slice, data_dir: Path, tmp_path: Path
) -> None:
    store = _store(data_dir)
    import_files(store, real_slice.before)
    store.first_look()  # the app opened the store: what follows is news
    import_files(store, real_slice.after)
    changed = sorted(store.changed_since_looked())
    forum, review = sorted(real_slice.scores)[0][:2]
    first = f"openreview:{forum}"
    before = store.user_data(first)
    store.set_looked(first)
    assert first not in store.changed_since_looked()
    assert set(select_ids(store, "is:changed")) == set(changed) - {first}
    record = store.user_data(first)
    assert record.looked and (record.updated, record.created, record.starred) == (before.updated, before.created, False)
    with gzip.open(real_slice.after[1], "rb") as handle:
        notes = [json.loads(line) for line in handle]
    for note in notes:  # the reviewer edits the review once more
        if note["id"] == review:
            note["tmdate"] += DAY_MS
            note["content"]["rating"]["value"] += 2
    import_files(store, [_write(tmp_path / "third.jsonl.gz", notes, True)])
    assert "rating" in store.changed_since_looked()[first]
    again = Store(data_dir)  # the look is on disk
    assert again.user_data(first).looked == record.looked


def test_a_failed_import_records_nothing(real_slice: Slice, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(data_dir)
    import_files(store, real_slice.before)

    def fail(*args: object, **kwargs: object) -> None:
        raise StoreError(data_dir, "disk full")

    monkeypatch.setattr(Catalogue, "_write", fail)
    with pytest.raises(StoreError):
        import_files(store, real_slice.after)
    assert store.changes() == []


def test_a_line_cut_short_by_a_crash_is_skipped_and_the_next_append_starts_afresh(data_dir: Path) -> None:
    store = _store(data_dir)
    one = PaperChange("2026-11-20T00:00:00+00:00", "openreview:a", decision=("under-review", "oral"))
    two = PaperChange("2026-11-21T00:00:00+00:00", "openreview:b", title=True)
    store.change_log.append([one])
    with (data_dir / CHANGES_FILE).open("ab") as handle:
        handle.write(b'{"at": "2026-11-20T01:00:00+00:00", "id": "openre')
    store.change_log.append([two, PaperChange("2026-11-21T00:00:00+00:00", "openreview:c")])  # empty: left out
    assert store.changes() == [one, two]
    assert store.changes(since="2026-11-21") == [two]


def test_the_history_line_names_each_review_and_its_dates() -> None:
    nov22, nov29 = 1763769600000, 1764374400000  # 2025-11-22 and 2025-11-29, 00:00 UTC
    change = PaperChange(
        "2025-11-29T10:00:00+00:00",
        "openreview:x",
        decision=("under-review", "poster"),
        scores=(
            ScoreChange("n1", "Reviewer_hsV6", "rating", 4, 6, nov22, nov29),
            ScoreChange("n1", "Reviewer_hsV6", "confidence", 3, 4, nov22, nov29),
        ),
        mean=(4.5, 5.5),
    )
    assert change.lines() == [
        "decision under-review → poster",
        "rating 4.5 → 5.5: Reviewer_hsV6 4 → 6, 2025-11-22 → 11-29",
        "confidence: Reviewer_hsV6 3 → 4, 2025-11-22 → 11-29",
    ]
    assert PaperChange.from_dict(json.loads(json.dumps(change.to_dict()))) == change


def test_changes_of_one_paper_combine_first_old_to_last_new() -> None:
    a = PaperChange("t1", "p", scores=(ScoreChange("n1", "R1", "rating", 4, 6, 1, 2),), mean=(4, 5))
    b = PaperChange("t2", "p", scores=(ScoreChange("n1", "R1", "rating", 6, 8, 2, 3),), mean=(5, 6), added=("n2",))
    c = PaperChange("t3", "p", decision=("under-review", "oral"))
    joined = combined([a, b, c])
    assert joined is not None
    assert joined.scores == (ScoreChange("n1", "R1", "rating", 4, 8, 1, 3),)
    assert (joined.mean, joined.added, joined.decision, joined.at) == ((4, 6), ("n2",), ("under-review", "oral"), "t3")
    back = PaperChange("t4", "p", scores=(ScoreChange("n1", "R1", "rating", 8, 4, 3, 4),), mean=(6, 4))
    assert combined([a, b, back]) == PaperChange("t4", "p", added=("n2",))
    undone = PaperChange("t2", "p", scores=(ScoreChange("n1", "R1", "rating", 6, 4, 2, 3),), mean=(5, 4))
    assert combined([a, undone]) is None


def test_the_last_look_follows_a_paper_that_gets_a_better_id(data_dir: Path) -> None:
    abstract = "We study sparse mixtures of experts and how routing collapses at scale. " * 3
    store = _store(data_dir)
    store.import_papers([Paper(id="abs:00000000000000aa", title="", abstract=abstract, title_derived=True)])
    looked = store.set_looked("abs:00000000000000aa").looked
    real = Paper(id="openreview:Zz9", title="Routing collapse in sparse experts", abstract=abstract,
                 openreview_id="Zz9", decision="poster")  # fmt: skip
    store.import_papers([real])
    assert store.resolve("abs:00000000000000aa") == "openreview:Zz9"
    assert store.user_data("openreview:Zz9").looked == looked
    assert "abs:00000000000000aa" not in store.all_user_data
    assert Store(data_dir).user_data("openreview:Zz9").looked == looked
    # The merge's own move (the seed became its OpenReview record) was recorded after the look.
    assert store.paper_changes("abs:00000000000000aa") == store.paper_changes("openreview:Zz9") != []


def test_a_backup_keeps_the_last_look_and_reads_back(data_dir: Path, tmp_path: Path) -> None:
    store = _store(data_dir)
    store.import_papers([Paper(id="openreview:A", title="A paper", abstract="An abstract of A " * 5)])
    store.set_star("openreview:A", True)
    looked = store.set_looked("openreview:A").looked
    backup = tmp_path / "backup.json"
    write_backup(store, backup)
    records = read_backup(backup).records  # before: "unknown field 'looked'", the backup refused
    assert [(r.paper_id, r.starred, r.looked) for r in records] == [("openreview:A", True, looked)]


def test_paperdeck_changes_prints_hostile_titles_signatures_and_decisions_as_data(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from paperdeck.model.review import Review

    from tests.hostile_corpus import PAYLOADS, assert_clean

    evil = " ".join(PAYLOADS[kind] for kind in ("csi", "osc52-bel", "c1", "bidi", "rich"))
    store = _store(data_dir)
    store.import_papers([Paper(id="openreview:E1", title=f"Evil {evil}", abstract="An abstract " * 10,
                               openreview_id="E1")])  # fmt: skip

    def note(rating: float, tmdate: int) -> Review:
        return Review("n1", "E1", "E1", "review", f"Reviewer_{evil}", tmdate=tmdate, scores=(("rating", rating),))

    decision = Review("d1", "E1", "E1", "decision", "Program_Chairs", tmdate=5,
                      sections=(("decision", f"Accept {evil}"),))  # fmt: skip
    store.import_reviews([note(4, 1)])
    store.import_reviews([note(6, 2), decision])
    assert store.changes()
    for args in (["changes"], ["changes", "--json"]):
        assert main([*args, "--data-dir", str(data_dir)]) == 0
        out, err = capsys.readouterr()
        assert "4 → 6" in out or '"old": 4.0' in out
        assert_clean(out + err, " ".join(args))


def test_new_papers_are_news_in_a_refresh_not_in_a_conferences_first_list(data_dir: Path) -> None:
    def paper(n: int, venue: str = "ICLR") -> Paper:
        return Paper(id=f"openreview:{venue}{n}", title=f"Paper {n} of {venue}", abstract=f"Abstract {n} " * 8,
                     venue=venue, year=2026, openreview_id=f"{venue}{n}")  # fmt: skip

    store = _store(data_dir)
    store.import_papers([paper(n) for n in range(2)])  # the seeds: a baseline
    store.import_papers([paper(n) for n in range(10)])  # the full list: its first snapshot
    assert store.changes() == []
    store.import_papers([paper(n) for n in range(12)])  # a refresh brings two new submissions
    store.import_papers([paper(n, "NeurIPS") for n in range(5)])  # another conference's first list
    assert [(c.paper_id, c.kinds) for c in store.changes()] == [
        ("openreview:ICLR10", frozenset({"new"})),
        ("openreview:ICLR11", frozenset({"new"})),
    ]


def test_a_change_undone_over_the_span_but_new_since_the_last_look_is_listed(
    real_slice: Slice, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rating moved, the user looked, it moved back: over the whole span nothing changed, but the
    app marks the paper changed; `paperdeck changes` lists it, with the move since the look."""
    store = _store(data_dir)
    import_files(store, real_slice.before)
    store.first_look()  # the app opened the store: what follows is news
    import_files(store, real_slice.after)
    per_forum: dict[str, list[tuple[Any, ...]]] = {}
    for item in real_slice.scores:
        per_forum.setdefault(item[0], []).append(item)
    forum, (only,) = next((f, items) for f, items in sorted(per_forum.items())
                          if len(items) == 1 and items[0][3] == "rating" and f not in real_slice.decisions)  # fmt: skip
    _, review, _, _, old, new = only
    paper = f"openreview:{forum}"
    store.set_looked(paper)
    with gzip.open(real_slice.after[1], "rb") as handle:
        notes = [json.loads(line) for line in handle]
    for note in notes:
        if note["id"] == review:
            note["tmdate"] += DAY_MS
            note["content"]["rating"]["value"] = old  # back where it was before the span
    import_files(store, [_write(tmp_path / "back.jsonl.gz", notes, True)])
    assert "rating" in store.changed_since_looked()[paper]
    capsys.readouterr()
    assert main(["changes", "--json", "--data-dir", str(data_dir)]) == 0
    listed = {item["id"]: item for item in json.loads(capsys.readouterr().out)["papers"]}
    assert paper in listed and listed[paper]["unseen"]
    moves = {(s["review"], s["field"], s["old"], s["new"]) for s in listed[paper]["scores"]}
    assert (review, "rating", new, old) in moves


def test_the_marks_are_not_resolved_again_while_nothing_changes(real_slice: Slice, data_dir: Path) -> None:
    """The app checks the user data for another process's writes every few seconds and asks for
    the changed papers at every frame: with no stars or notes yet (no user directory), a check
    that finds nothing leaves the cached marks as they are (it used to resolve every change
    recorded again: 50 ms at each check with the decisions imported)."""
    store = _store(data_dir)
    import_files(store, real_slice.before)
    store.first_look()
    import_files(store, real_slice.after)
    user = store._user
    assert not user.directory.is_dir()  # nobody starred anything yet
    changed = store.changed_since_looked()
    assert changed
    version = user.version
    for _ in range(3):
        assert store.reload_user_data() is False
        assert user.version == version
        assert store.changed_since_looked() is changed  # the cached result, not resolved again
    store.set_looked(next(iter(changed)))  # a record written: resolved again, the paper left out
    assert user.version > version and store.changed_since_looked().keys() == changed.keys() - {next(iter(changed))}
