"""The app's garbage-collection policy leaves a process it did not start alone."""

from __future__ import annotations

import gc

from paperdeck import collector


def test_resume_and_collect_do_nothing_unless_paperdeck_paused_the_collector() -> None:
    assert gc.isenabled()
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    collector.resume()
    collector.collect_if_due()
    assert gc.isenabled()
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == frozen
