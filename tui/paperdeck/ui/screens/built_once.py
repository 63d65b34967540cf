"""A value built once, in a thread, the first time something needs it; everything that needs it
meanwhile waits for that same build (keys typed during a one-second build start no other)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.dom import DOMNode

if TYPE_CHECKING:
    from paperdeck.search.searcher import Lazy

T = TypeVar("T")


async def wait_built(node: DOMNode, lazy: Lazy[T]) -> T:
    """``lazy``'s value. Unless it is built, :meth:`Lazy.get <paperdeck.search.searcher.Lazy.get>`
    runs in a thread worker of ``node`` (which waits for a build under way instead of starting
    another), so the event loop never waits for it; cancelling the caller cancels the wait, not
    the build."""
    value = lazy.built
    if value is not None:
        return value
    worker = node.run_worker(lazy.get, thread=True, group="build")
    built: T = await worker.wait()
    return built
