"""A value built once, in a thread, the first time something needs it; everything that needs it
meanwhile waits for that same build (keys typed during a one-second build start no other)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from textual.dom import DOMNode

if TYPE_CHECKING:
    from paperdeck.search.searcher import Lazy

T = TypeVar("T")


async def wait_built(node: DOMNode, lazy: Lazy[T]) -> T:
    """``lazy``'s value. Unless it is built, its build under way (in any thread) is waited for,
    else one is started in a thread worker of ``node``, so the event loop never waits for it and
    waiters hold no thread; cancelling the caller cancels the wait, not the build."""
    value = lazy.built
    if value is not None:
        return value
    future = lazy.future(lambda build: node.run_worker(_build_only(build), thread=True, group="build"))
    return await asyncio.shield(asyncio.wrap_future(future))


def _build_only(build: Callable[[], object]) -> Callable[[], None]:
    """``build`` as a worker's work that returns nothing: the value reaches its waiters through
    the future, and a finished worker (freed only by the cycle collector) holds no index alive
    once the catalogue is read again and the index built anew."""

    def run() -> None:
        build()

    return run
