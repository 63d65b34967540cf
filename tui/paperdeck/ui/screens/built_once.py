"""A value built once, in a thread, the first time something needs it; everything that needs it
meanwhile waits for that same build (keys typed during a one-second build start no other)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from textual.dom import DOMNode

T = TypeVar("T")


class BuiltOnce(Generic[T]):
    """``build()`` run at most once, in a thread worker of the node that first asks.

    Args:
        build: makes the value (seconds of work: it runs in a thread).
        name: the worker group, for debugging.
    """

    def __init__(self, build: Callable[[], T], name: str) -> None:
        self._build = build
        self._name = name
        self._started = False
        self._ready = asyncio.Event()
        self.value: T | None = None
        """The value, once built; ``None`` before."""

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    async def get(self, node: DOMNode) -> T:
        """The value: built now (in a thread worker of ``node``) unless built or being built."""
        if not self._started:
            self._started = True
            node.run_worker(self._run(), group=self._name)
        await self._ready.wait()
        assert self.value is not None
        return self.value

    async def _run(self) -> None:
        self.value = await asyncio.to_thread(self._build)
        self._ready.set()
