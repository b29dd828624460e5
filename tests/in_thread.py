"""A waitress server run in a thread of the test process, and stopped without noise."""

from __future__ import annotations

import threading
from contextlib import contextmanager


@contextmanager
def serving(server):
    """Runs ``server`` (waitress) in a daemon thread until the block ends.

    Closing the listening socket while the loop thread sits in select() makes that thread die
    with EBADF, which pytest then reports against whatever test runs next: the stop is expected,
    so that one error is not."""
    stopping = threading.Event()

    def run():
        try:
            server.run()
        except OSError:
            if not stopping.is_set():
                raise

    threading.Thread(target=run, daemon=True).start()
    try:
        yield server
    finally:
        stopping.set()
        server.close()
