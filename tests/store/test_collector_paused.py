"""``paperdeck.runtime.collector_paused``: the cycle collector is off for an import or a fetch and
comes back as it was found, also after an error."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from paperdeck import runtime
from paperdeck.sources.importer import import_files
from paperdeck.store.store import Store

from tests.waits import block_until


@pytest.fixture
def collector_on() -> Iterator[None]:
    # (an import an earlier test's app left running as it ended may hold the collector off)
    block_until(lambda: runtime._pauses == 0, what="an earlier test's collector pause to end")
    was = gc.isenabled()
    gc.enable()
    yield
    if was:  # as found, whatever the test left
        gc.enable()
    else:
        gc.disable()


def test_the_collector_is_off_inside_and_on_again_after(collector_on: None) -> None:
    with runtime.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), runtime.collector_paused():
        raise ValueError("a bad file")
    assert gc.isenabled()


def test_a_collector_found_off_stays_off(collector_on: None) -> None:
    gc.disable()
    with runtime.collector_paused():
        pass
    assert not gc.isenabled()


def test_an_import_runs_with_the_collector_off(
    collector_on: None, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    store = Store(data_dir)
    original = store.import_papers

    def import_papers(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "import_papers", import_papers)
    paper_list = tmp_path / "list.txt"
    paper_list.write_text("A long enough abstract about graph neural networks and their training.\n", encoding="utf-8")
    import_files(store, [paper_list])
    assert seen == [False] and gc.isenabled()


def test_a_command_pauses_the_collector_while_it_opens_the_store_only(
    collector_on: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paperdeck.cli.main import main

    seen: list[bool] = []
    opened = Store.__init__

    def spying_init(self: Store, *args: object, **kwargs: object) -> None:
        seen.append(gc.isenabled())
        opened(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "__init__", spying_init)
    frozen = gc.get_freeze_count()
    assert main(["list", "--data-dir", str(tmp_path)]) == 0
    assert seen == [False]  # off while the store opened
    assert gc.isenabled()  # on again for the command and after it
    assert gc.get_freeze_count() == frozen  # called with arguments (not the process's own): nothing frozen
    capsys.readouterr()
