"""``--sort ORDER`` on ``paperdeck search`` and ``paperdeck list``: the app's sort orders (``O``),
their keys and names from the one declaration of them (``SORTS``, ``SORT_LABELS``)."""

from __future__ import annotations

import json

import pytest
from paperdeck.store.settings import SORT_LABELS, SORTS

from tests.helpers import ReviewSample, run


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory, review_sample: ReviewSample) -> str:
    """A store of a few reviewed papers (rated), one of them starred."""
    from paperdeck.cli.main import main

    data = str(tmp_path_factory.mktemp("sort-option") / "data")
    files = [str(review_sample.papers_file), str(review_sample.notes_file)]
    assert main(["import", *files, "--data-dir", data]) == 0
    return data


def _papers(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    code, out, err = run(capsys, *args, "--json", "--limit", "0")
    assert code == 0, err
    papers: list[dict[str, object]] = json.loads(out)
    return papers


def _mean(paper: dict[str, object]) -> float | None:
    ratings = paper.get("ratings")
    mean = ratings.get("mean") if isinstance(ratings, dict) else None
    return float(mean) if isinstance(mean, int | float) else None


def test_list_sort_rating_puts_the_highest_mean_first_and_the_unrated_last(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = _papers(capsys, "list", "--data-dir", store_dir)
    rated = _papers(capsys, "list", "--sort", "rating", "--data-dir", store_dir)
    assert sorted(p["id"] for p in rated) == sorted(p["id"] for p in listed)  # type: ignore[type-var]
    means = [_mean(p) for p in rated]
    known = [m for m in means if m is not None]
    assert len(known) >= 3 and known == sorted(known, reverse=True)
    assert means[: len(known)] == known  # the unrated after
    assert [p["id"] for p in rated] != [p["id"] for p in listed]  # the order is not the list's
    assert _papers(capsys, "list", "--sort", "list", "--data-dir", store_dir) == listed
    assert _papers(capsys, "list", "--sort", "relevance", "--data-dir", store_dir) == listed


def test_search_sort_title_orders_the_matches_by_title(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    ranked = _papers(capsys, "search", "learning", "--data-dir", store_dir)
    by_title = _papers(capsys, "search", "learning", "--sort", "title", "--data-dir", store_dir)
    assert len(ranked) >= 3 and {p["id"] for p in by_title} == {p["id"] for p in ranked}
    titles = [str(p["title"]).casefold() for p in by_title]
    assert titles == sorted(titles) and by_title != ranked
    assert _papers(capsys, "search", "learning", "--sort", "relevance", "--data-dir", store_dir) == ranked


def test_list_sort_keeps_the_starred_and_limit_options(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    rated = _papers(capsys, "list", "--sort", "rating", "--data-dir", store_dir)
    first, third = str(rated[0]["id"]), str(rated[2]["id"])
    assert run(capsys, "star", third, first, "--data-dir", store_dir)[0] == 0
    try:
        starred = _papers(capsys, "list", "--sort", "rating", "--starred", "--data-dir", store_dir)
        assert [p["id"] for p in starred] == [first, third]
        code, out, err = run(capsys, "list", "--sort", "rating", "--limit", "1", "--data-dir", store_dir)
        assert code == 0 and len(out.splitlines()) == 1 and first in out and "1 of" in err
    finally:
        run(capsys, "unstar", first, third, "--data-dir", store_dir)


@pytest.mark.parametrize("command", [("search", "learning"), ("list",), ("export", "--format", "json")])
def test_sort_takes_the_app_s_orders_and_names_them(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        run(capsys, command[0], "--help")
    shown = " ".join(capsys.readouterr().out.split())
    for key in SORTS:
        assert key in shown and SORT_LABELS[key] in shown
    with pytest.raises(SystemExit) as exited:
        run(capsys, *command, "--sort", "newest")
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "invalid choice: 'newest'" in err and "rating_pct" in err


def test_the_former_key_of_the_best_lowest_sort_still_names_it(
    store_dir: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``lowest`` was the key of the order now named "best lowest rating" (``best_lowest``): a script
    that passes it gets the same order, not an error."""
    best = _papers(capsys, "list", "--sort", "best_lowest", "--data-dir", store_dir)
    assert _papers(capsys, "list", "--sort", "lowest", "--data-dir", store_dir) == best
    assert [p["id"] for p in best] != [p["id"] for p in _papers(capsys, "list", "--data-dir", store_dir)]


def test_rise_and_fall_say_when_no_rating_moved(store_dir: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester's find: ``list --sort fall --venue colm`` listed papers in plain order, silently
    (no review of the sample moved its rating)."""
    for command in (["list"], ["search", "learning"]):
        code, out, err = run(capsys, *command, "--sort", "fall", "--data-dir", store_dir)
        assert code == 0 and out and err.splitlines()[-1] == "No rating moved in these papers: list order."
        code, _, err = run(capsys, *command, "--sort", "fall", "--json", "--data-dir", store_dir)
        assert code == 0 and "moved" not in err
