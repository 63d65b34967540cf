"""The documentation: the generated pages of docs/ are what docs/generate.py writes (a stale page
says to run ``make docs``), every relative link of the README and docs/ leads to a file (and a
heading, when it names one), and the README stays a newcomer's page."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
README = REPO / "README.md"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("paperdeck_docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


GENERATE = _generator()


@pytest.mark.parametrize("name", sorted(GENERATE.PAGES))
def test_each_generated_page_is_what_the_generator_writes(name: str) -> None:
    committed = (DOCS / name).read_text(encoding="utf-8") if (DOCS / name).exists() else ""
    assert committed == GENERATE.render(name), f"docs/{name} is stale: run `make docs` and commit it"


@pytest.mark.parametrize("name", sorted(GENERATE.PAGES))
def test_each_generated_page_says_it_is_generated(name: str) -> None:
    first = GENERATE.render(name).splitlines()[0]
    assert first.startswith("<!--") and "make docs" in first and "Do not edit" in first


def test_a_generated_page_does_not_depend_on_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    narrow = GENERATE.render("cli.md")
    monkeypatch.setenv("COLUMNS", "200")
    assert GENERATE.render("cli.md") == narrow


def test_a_stale_page_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in GENERATE.PAGES:
        (tmp_path / name).write_text(GENERATE.render(name), encoding="utf-8")
    monkeypatch.setattr(GENERATE, "DOCS", tmp_path)
    assert GENERATE.stale() == []
    (tmp_path / "keys.md").write_text("edited by hand\n", encoding="utf-8")
    assert GENERATE.stale() == ["keys.md"]


# -- links ------------------------------------------------------------------------------------------

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6} +(.+?) *$", re.MULTILINE)


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md")), *sorted(REPO.glob("CHANGELOG.md"))]


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as ``-``."""
    text = heading.replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return {_anchor(heading) for heading in _HEADING.findall(text)}


def _links(page: Path) -> list[str]:
    text = _CODE.sub("", _FENCE.sub("", page.read_text(encoding="utf-8")))
    return _LINK.findall(text)


@pytest.mark.parametrize("page", _pages(), ids=lambda page: page.relative_to(REPO).as_posix())
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    for link in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", link):  # https:, mailto:: not ours to check
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert not Path(path).is_absolute(), f"{page.name}: {link} is not relative"
        assert target.exists(), f"{page.name}: {link} leads to no file"
        assert REPO in target.parents or target == REPO, f"{page.name}: {link} leaves the repository"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target), f"{page.name}: {link} names no heading of {target.name}"


def test_the_docs_link_every_page_from_the_index() -> None:
    linked = {link.partition("#")[0] for link in _links(DOCS / "index.md")}
    for page in DOCS.glob("*.md"):
        assert page.name == "index.md" or page.name in linked, f"docs/index.md does not link {page.name}"


# -- the README ----------------------------------------------------------------------------------


def test_the_readme_is_a_page_for_newcomers() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "make run" in text and "make test" in text
    assert "docs/images/" in text and "docs/index.md" in text
