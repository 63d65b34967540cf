"""The views in ``config.json`` (:class:`paperdeck.store.settings.SettingsFile`): the sort each
was saved with (``view_sorts``, apart from ``views``: a file written before it is read as it
was), and renaming one in its place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paperdeck.search.views import all_views
from paperdeck.store.settings import Settings, SettingsFile


def test_a_views_file_without_sorts_reads_as_before(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"views": {"Orals": "decision:oral"}}))
    settings = SettingsFile(tmp_path)
    assert settings.refused == () and settings.settings.view_sorts == {}
    (view,) = all_views(settings.settings.views, settings.settings.view_sorts)[6:]
    assert (view.name, view.query, view.sort) == ("Orals", "decision:oral", "")


def test_a_view_keeps_its_sort_and_a_bad_one_is_refused_alone() -> None:
    data = {"views": {"A": "x", "B": "y"}, "view_sorts": {"A": "rating", "B": "bogus"}}
    settings, refused = Settings.checked(data)
    assert settings.view_sorts == {"A": "rating"}
    assert len(refused) == 1 and "view_sorts 'B'" in refused[0]
    assert [view.sort for view in all_views(settings.views, settings.view_sorts)[6:]] == ["rating", ""]


def test_rename_keeps_the_place_query_and_sort_and_never_replaces_a_view(tmp_path: Path) -> None:
    settings = SettingsFile(tmp_path)
    settings.save_view("One", "decision:oral", "rating")
    settings.save_view("Two", "has:note")
    settings.save_view("Three", "is:starred", "title")
    settings.rename_view("two", "Second")  # any case
    saved = json.loads((tmp_path / "config.json").read_text())
    assert list(saved["views"].items()) == [("One", "decision:oral"), ("Second", "has:note"), ("Three", "is:starred")]
    assert saved["view_sorts"] == {"One": "rating", "Three": "title"}
    settings.rename_view("One", "First")
    assert SettingsFile(tmp_path).settings.view_sorts == {"First": "rating", "Three": "title"}
    with pytest.raises(ValueError, match="exists"):
        settings.rename_view("First", "three")
    assert list(SettingsFile(tmp_path).settings.views) == ["First", "Second", "Three"]
    settings.delete_view("first")
    assert SettingsFile(tmp_path).settings.view_sorts == {"Three": "title"}
