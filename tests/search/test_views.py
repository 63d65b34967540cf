"""Saved views in the core: built-in views, the user's in order, names and queries checked, counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from paperdeck.model.paper import Paper
from paperdeck.search.query import parse_query
from paperdeck.search.searcher import Searcher
from paperdeck.search.selection import run_query
from paperdeck.search.views import BUILTIN_VIEWS, NAME_MAX, View, all_views, check_query, clean_name, view_count
from paperdeck.store.settings import Settings, SettingsFile
from paperdeck.store.store import Store


def test_builtin_views_come_first_and_a_saved_one_can_redefine_them() -> None:
    builtin = ["Starred", "To read", "Unseen", "With notes", "Like my stars", "What changed"]
    assert [v.name for v in all_views({})] == builtin
    views = all_views({"Orals": "decision:oral", "Starred": "is:starred decision:oral"})
    assert [v.name for v in views] == [*builtin, "Orals"]
    assert views[0] == View("Starred", "is:starred decision:oral") and not views[0].builtin
    assert all(v.builtin for v in BUILTIN_VIEWS)


@pytest.mark.parametrize(
    ("typed", "name"), [("  Orals   to\tread ", "Orals to read"), ("a\x1b[31mb", "a[31mb"), ("★ stars", "★ stars")]
)
def test_clean_name(typed: str, name: str) -> None:
    assert clean_name(typed) == name


@pytest.mark.parametrize("typed", ["", "   ", "\x00\x1b", "x" * (NAME_MAX + 1)])
def test_bad_names_are_refused(typed: str) -> None:
    with pytest.raises(ValueError):
        clean_name(typed)


def test_check_query() -> None:
    assert check_query("  decision:oral  ") == "decision:oral"
    for bad in ("", "  ", "rating>=", "(unclosed"):
        with pytest.raises(ValueError):
            check_query(bad)


def test_views_persist_in_config_json_and_junk_is_dropped(tmp_path: Path) -> None:
    settings = SettingsFile(tmp_path)
    settings.update(views={"Orals": "decision:oral", "RL": "area:reinforcement"})
    reread = SettingsFile(tmp_path).settings.views
    assert list(reread.items()) == [("Orals", "decision:oral"), ("RL", "area:reinforcement")]
    assert Settings.from_dict({"views": {"ok": "x", "bad": 3}}).views == {"ok": "x"}
    assert Settings.from_dict({"views": ["not", "a", "dict"]}).views == {}


def _three_papers_b_starred(tmp_path: Path) -> tuple[Store, Searcher]:
    """Two orals (A on diffusion, B on graphs, B starred) and a poster C on both; its searcher."""
    store = Store(tmp_path / "data")
    store.import_papers(
        [
            Paper(id="openreview:A", title="Diffusion models", abstract="denoising diffusion", decision="oral"),
            Paper(id="openreview:B", title="Graph networks", abstract="graph message passing", decision="oral"),
            Paper(id="openreview:C", title="Diffusion again", abstract="denoising graph", decision="poster"),
        ]
    )
    store.set_star("openreview:B", True)
    searcher = Searcher(store)
    return store, searcher


def test_view_counts(tmp_path: Path) -> None:
    store, searcher = _three_papers_b_starred(tmp_path)
    assert view_count(searcher, View("Starred", "is:starred")) == 1
    assert view_count(searcher, View("Orals", "decision:oral")) == 2
    assert view_count(searcher, View("Words", "diffusion")) is None  # needs the index
    assert view_count(Searcher(store), View("Like", "like:starred diffusion"), build=True) == 2  # builds the index
    searcher.index.get()
    assert view_count(searcher, View("Words", "diffusion decision:oral")) == 1
    assert view_count(searcher, View("Broken", "rating>=")) is None
    like = View("Like my stars", "like:starred")
    assert view_count(searcher, like) == 2  # every paper but the starred one
    assert view_count(searcher, View("Like orals", "like:starred decision:oral")) == 1
    assert searcher.similarity.built is None  # likeness only orders them: counted without its index
    searcher.similarity.get()
    assert view_count(searcher, like) == 2
    assert len(run_query(searcher, parse_query("like:starred decision:oral"))) == 1
    assert view_count(searcher, View("Gone", "like:openreview:nope")) is None


def test_a_like_view_is_counted_as_its_list_leaves_papers_out(tmp_path: Path) -> None:
    """A tester's find: the views list (``v``) said 37 for a saved ``like:ID`` view whose list
    showed 36: it counted the paper itself, which ``like:ID`` leaves out."""
    _, searcher = _three_papers_b_starred(tmp_path)
    for query in ("like:openreview:A", "like:A decision:oral", "like:A like:starred", "like:starred like:B"):
        shown = run_query(searcher, parse_query(query))
        assert view_count(searcher, View("Like", query)) == len(shown), query
    assert view_count(searcher, View("Like A", "like:openreview:A")) == 2


def test_two_windows_saving_views_keep_each_others(tmp_path: Path) -> None:
    first, second = SettingsFile(tmp_path), SettingsFile(tmp_path)
    first.save_view("A", "decision:oral")
    second.save_view("B", "is:starred")  # second never read A: it re-reads the file before writing
    first.update(theme="gruvbox")
    assert SettingsFile(tmp_path).settings.views == {"A": "decision:oral", "B": "is:starred"}
    second.save_view("a", "rating>=6")  # the same name in another case replaces it, in its place
    second.delete_view("b")
    reread = SettingsFile(tmp_path).settings
    assert reread.views == {"a": "rating>=6"} and reread.theme == "gruvbox"


def test_names_from_a_hand_edited_config_are_cleaned() -> None:
    views = all_views({"red\x1b[31m": "x", "": "y", "   ": "z", "starred": "is:starred tag:x", "Q": "a\n  b"})
    names = [v.name for v in views]
    assert names[0] == "starred" and views[0].query == "is:starred tag:x"  # replaced the built-in
    assert "red[31m" in names and "" not in names and len(names) == 8
    assert views[-1] == View("Q", "a b")
