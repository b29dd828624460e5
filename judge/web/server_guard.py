"""What waitress's own settings do not cover against slow, greedy or non-reading clients.

waitress serves every connection from one event loop and runs requests in a pool of worker
threads.  Three ways a handful of clients could take it over, and what stops each here:

* **Pipelining without reading.**  A client sends many requests in one packet and never
  reads the answers; after each answer waitress blocks the worker until the connection's
  output buffer drains below ``outbuf_high_watermark`` — forever, since the channel timeout
  only closes idle channels.  Here the worker never waits between pipelined requests: once
  the unread output passes the watermark, the remaining requests are dropped and the
  connection is closed when (if ever) the output is read; RFC 9112 §9.3.2 has clients retry
  unanswered pipelined requests.  A single answer larger than the watermark may still wait
  for the client, but never longer than ``stall_timeout`` without progress.
* **Header and body trickles** (slowloris): one byte every few seconds keeps a connection
  "active" for ever.  A request must have its headers within ``header_timeout`` seconds of
  its first byte, and its body must arrive at ``min_body_rate`` bytes per second on average
  after a grace of ``header_timeout``; the event loop's maintenance (every
  ``cleanup_interval`` seconds) closes those that fall behind.
* **One client, every connection.**  At most ``per_client`` open connections per client
  address (not counting a trusted proxy, which speaks for many clients); more are closed as
  soon as they are accepted.

The reverse proxy of docs/deployment.md adds its own limits in front of all this.
"""

from __future__ import annotations

import time
from collections import Counter

HEADER_TIMEOUT = 10.0         # seconds from a request's first byte to the end of its headers
MIN_BODY_RATE = 4096          # bytes per second, on average, for a request body
STALL_TIMEOUT = 20.0          # seconds a worker waits for a client that reads nothing
PER_CLIENT = 100              # open connections per client address


def guard_channel(base):
    """A subclass of waitress's HTTPChannel ``base`` with the protections above (the limits
    are read from the server: ``server.judge_guard``)."""

    class GuardedChannel(base):
        _task_writing = False
        request_started = None          # monotonic time of the first byte of ``_tracked``
        _tracked = None

        def __init__(self, server, sock, addr, adj, map=None):
            super().__init__(server, sock, addr, adj, map)
            guard = server.judge_guard
            self.client = addr[0] if isinstance(addr, tuple) and addr else str(addr)
            guard.connections[self.client] += 1
            self._counted = True
            if guard.over_limit(self.client):
                self.will_close = True          # closed by the event loop before reading anything

        def del_channel(self, map=None):
            if getattr(self, "_counted", False):
                self._counted = False
                connections = self.server.judge_guard.connections
                connections[self.client] -= 1
                if connections[self.client] <= 0:
                    del connections[self.client]
            super().del_channel(map)

        def received(self, data):
            result = super().received(data)
            if self.request is not self._tracked:       # a new request began in this data
                self._tracked = self.request
                self.request_started = None if self.request is None else time.monotonic()
            return result

        def overdue(self, now: float) -> bool:
            """Is the request being received too slow (headers or body)?"""
            req, started = self.request, self.request_started
            if req is None or started is None or req.completed:
                return False
            guard = self.server.judge_guard
            if not req.headers_finished:
                return now - started > guard.header_timeout
            body = max(req.content_length or 0, getattr(req, "body_bytes_received", 0))
            return now - started > 2 * guard.header_timeout + body / guard.min_body_rate

        def write_soon(self, data):
            self._task_writing = True
            try:
                return super().write_soon(data)
            finally:
                self._task_writing = False

        def _flush_outbufs_below_high_watermark(self):
            if self.total_outbufs_len <= self.adj.outbuf_high_watermark:
                return
            if not self._task_writing:
                # Between two pipelined requests: answer no more of them on this connection.
                with self.requests_lock:
                    for queued in self.requests[1:]:
                        queued.close()
                    del self.requests[1:]
                    self.close_when_flushed = True
                return
            self._wait_for_client()

        def _wait_for_client(self):
            """One answer larger than the watermark: wait while the client reads, at most
            ``stall_timeout`` without progress, then give up the connection."""
            stall = self.server.judge_guard.stall_timeout
            with self.outbuf_lock:
                last, since = self.total_outbufs_len, time.monotonic()
                while self.connected and self.total_outbufs_len > self.adj.outbuf_high_watermark:
                    if self.total_outbufs_len < last:
                        last, since = self.total_outbufs_len, time.monotonic()
                    elif time.monotonic() - since > stall:
                        self.will_close = True
                        self.connected = False      # write_soon then raises ClientDisconnected
                        self.server.pull_trigger()
                        return
                    self.server.pull_trigger()
                    self.outbuf_lock.wait(timeout=1.0)

    return GuardedChannel


class Guard:
    """The limits of one server, and its open connections per client."""

    def __init__(self, per_client: int = PER_CLIENT, header_timeout: float = HEADER_TIMEOUT,
                 min_body_rate: float = MIN_BODY_RATE, stall_timeout: float = STALL_TIMEOUT,
                 trusted: str | None = None):
        self.per_client, self.header_timeout = per_client, header_timeout
        self.min_body_rate, self.stall_timeout = min_body_rate, stall_timeout
        self.trusted = {a.strip() for a in (trusted or "").split(",") if a.strip()}
        self.connections: Counter[str] = Counter()

    def over_limit(self, client: str) -> bool:
        if not self.per_client or "*" in self.trusted or client in self.trusted:
            return False
        return self.connections[client] > self.per_client


def install(server, guard: Guard) -> None:
    """Put the guard on a waitress server (or each listener of a multi-socket one)."""
    for listener in [server, *getattr(server, "map", {}).values()]:
        if not hasattr(listener, "channel_class"):
            continue
        listener.judge_guard = guard
        listener.channel_class = guard_channel(listener.channel_class)
        plain = listener.maintenance

        def maintenance(now, plain=plain, listener=listener):
            plain(now)
            mono = time.monotonic()
            for channel in list(listener.active_channels.values()):
                if getattr(channel, "overdue", None) and channel.overdue(mono):
                    channel.will_close = True

        listener.maintenance = maintenance
