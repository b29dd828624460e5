"""A least-recently-used cache bounded in bytes.

Every cache that traffic can fill (search results, scored query leaves, snippets' word positions,
changes between editions) is bounded by what it holds, not by a count of entries: 80,000 empty
arrays and 1,000 full result pages are not the same memory. Sizes are estimates given by the
caller (``sizeof``), made to err on the side of too much.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
ENTRY_OVERHEAD = 200  # a dict slot, the ordering link, the key tuple and the size kept beside it


class ByteLRU(Generic[V]):
    def __init__(self, max_bytes: int, sizeof: Callable[[V], int]):
        self.max_bytes = max_bytes
        self.sizeof = sizeof
        self.bytes = 0
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            got = self._items.get(key)
            if got is None:
                return None
            self._items.move_to_end(key)
            return got[0]

    def put(self, key: Hashable, value: V) -> V:
        size = self.sizeof(value) + ENTRY_OVERHEAD
        if size > self.max_bytes // 4:  # one entry never takes over the cache
            return value
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._items[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes and self._items:
                _, (_, dropped) = self._items.popitem(last=False)
                self.bytes -= dropped
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0


def text_size(*texts: str | None) -> int:
    """Bytes of Python strings, as the interpreter holds them."""
    return sum(sys.getsizeof(t) for t in texts if t)
