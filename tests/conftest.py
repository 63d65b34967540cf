"""Shared fixtures: paths to the bundled seeds and the shared real data, isolated data dirs."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO / "seeds"
SHARED_DATA = REPO.parent / "shared" / "data"


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
