"""Fixtures every test may use: isolated data directories, the bundled seeds, the review sample;
and the gate of the tests marked ``data`` (the full real data, :mod:`tests.helpers`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.helpers import SEEDS, ReviewSample, missing_shared, write_review_sample

#: Under CI (``CI`` set), Hypothesis draws the same examples at every run, so a run fails only when
#: the code changed; a developer's runs draw new ones and may find a new bug (keep it as an example).
#: Neither has a deadline: an example's wall time on a loaded machine is no failure of the code
#: (timings belong to the ``perf`` tests).
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``data`` fails, in one line, when the full real data is not there: it is never
    skipped (``make test`` leaves these tests out; ``make test-data`` runs them)."""
    if item.get_closest_marker("data") is not None:
        missing = missing_shared()
        if missing is not None:
            pytest.fail(missing, pytrace=False)


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may touch the real user data directory."""
    monkeypatch.setenv("PAPERDECK_DATA_DIR", str(tmp_path_factory.mktemp("default-data")))


@pytest.fixture
def seed_files() -> list[Path]:
    """The two bundled ICLR 2026 seed lists."""
    return sorted(SEEDS.glob("*.txt"))


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """An empty data directory for one test."""
    return tmp_path / "data"


@pytest.fixture(scope="session")
def review_sample(tmp_path_factory: pytest.TempPathFactory) -> ReviewSample:
    """The raw v2 replies sample (51 notes on 12 papers, ``tests/data/``) and a JSON Lines file
    of those 12 papers' submissions: import both for a store of reviewed papers."""
    return write_review_sample(tmp_path_factory.mktemp("reviews-sample"))


@pytest.fixture
def summaries_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The review summaries built from here on (``ReviewSummary.from_dict``), each by its venue:
    counted work, for the tests of which summaries a venue scope builds."""
    from paperdeck.model.review_summary import ReviewSummary

    made: list[str] = []
    from_dict = ReviewSummary.from_dict

    def counting(data: dict[str, object]) -> ReviewSummary:
        made.append(str(data.get("venue")))
        return from_dict(data)

    monkeypatch.setattr(ReviewSummary, "from_dict", counting)
    return made
