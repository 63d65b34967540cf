"""The process tuning (``paperdeck.runtime``) leaves a process it did not tune alone, and restores
what it found when the app ends, however it ends."""

from __future__ import annotations

import ast
import gc
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from paperdeck import runtime

from tests.waits import block_until


@pytest.fixture(autouse=True)
def python_defaults() -> Iterator[None]:
    """Each test starts, and leaves the process, with the collector and switch interval it found;
    it starts once no pause of an earlier test's thread (an import an app left running as it
    ended) holds the collector off."""
    block_until(lambda: runtime._pauses == 0, what="an earlier test's collector pause to end")
    enabled, thresholds, interval = gc.isenabled(), gc.get_threshold(), sys.getswitchinterval()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    sys.setswitchinterval(interval)
    if enabled:
        gc.enable()


def test_resume_and_collect_do_nothing_unless_paperdeck_paused_the_collector() -> None:
    assert gc.isenabled()
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    runtime.loaded()
    runtime.collect_if_due()
    assert gc.isenabled()
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == frozen


def test_tuned_turns_the_collector_off_then_loaded_freezes_and_turns_it_on() -> None:
    gc.set_threshold(700, 10, 10)
    with runtime.tuned():
        assert not gc.isenabled()
        assert sys.getswitchinterval() == pytest.approx(runtime.SWITCH_INTERVAL_S)
        runtime.loaded()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (700, 10, runtime.FULL_PASS_AFTER)
        frozen = gc.get_freeze_count()
        runtime.loaded()  # once only: nothing frozen twice
        assert gc.get_freeze_count() == frozen


def test_tuned_restores_the_state_it_found_on_exit() -> None:
    gc.set_threshold(555, 7, 3)
    sys.setswitchinterval(0.002)
    with runtime.tuned():
        runtime.loaded()
    assert gc.isenabled()
    assert gc.get_threshold() == (555, 7, 3)
    assert gc.get_freeze_count() == 0
    assert sys.getswitchinterval() == pytest.approx(0.002)


def test_tuned_leaves_what_it_froze_frozen_for_a_process_about_to_exit() -> None:
    gc.set_threshold(555, 7, 3)
    with runtime.tuned(unfreeze=False):
        runtime.loaded()
        frozen = gc.get_freeze_count()
    assert frozen > 0 and gc.get_freeze_count() > frozen // 2  # (objects freed since leave it)
    assert gc.isenabled() and gc.get_threshold() == (555, 7, 3)


def test_tuned_leaves_a_collector_it_found_off_off() -> None:
    gc.disable()
    with runtime.tuned():
        runtime.loaded()
        assert gc.isenabled()
    assert not gc.isenabled()


def test_tuned_restores_the_state_when_the_body_raises() -> None:
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    with pytest.raises(KeyboardInterrupt), runtime.tuned():
        runtime.loaded()
        raise KeyboardInterrupt
    assert gc.isenabled()
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0
    assert sys.getswitchinterval() == pytest.approx(interval)
    runtime.loaded()  # outside again: a no-op
    assert gc.get_freeze_count() == 0


def test_tuned_restores_the_state_when_the_app_ends_before_it_was_loaded() -> None:
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    with pytest.raises(RuntimeError, match="boom"), runtime.tuned():
        raise RuntimeError("boom")
    assert gc.isenabled()
    assert gc.get_threshold() == thresholds
    assert sys.getswitchinterval() == pytest.approx(interval)


def test_tuned_cannot_be_entered_twice() -> None:
    with runtime.tuned():
        with pytest.raises(RuntimeError, match="already active"), runtime.tuned():
            pass
        assert not gc.isenabled()  # the outer one still holds
    assert gc.isenabled()


def test_collect_if_due_runs_a_full_pass_only_when_due_inside_tuned(monkeypatch: pytest.MonkeyPatch) -> None:
    collected: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    count = [(0, 0, runtime.FULL_PASS_DUE)]
    monkeypatch.setattr(gc, "get_count", lambda: count[0])
    runtime.collect_if_due()  # outside tuned(): never
    with runtime.tuned():
        runtime.collect_if_due()  # collector still off: not yet
        runtime.loaded()
        count[0] = (0, 0, runtime.FULL_PASS_DUE - 1)
        runtime.collect_if_due()  # not due
        count[0] = (0, 0, runtime.FULL_PASS_DUE)
        runtime.collect_if_due()
    assert collected == [2]


def test_runtime_imports_only_the_standard_library() -> None:
    """It sits below every room: the launcher, the app and the bench all use it."""
    tree = ast.parse(Path(runtime.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {"gc", "sys"} <= imported
    assert {name.split(".")[0] for name in imported} <= {*sys.stdlib_module_names, "__future__"}
