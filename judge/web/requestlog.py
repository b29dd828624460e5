"""Structured request logging for `judge serve`: one JSON line per request on stderr.

A WSGI middleware rather than Flask hooks, so it also sees requests Flask rejects
early (413, malformed URLs) and measures the whole response including streaming.
"""

from __future__ import annotations

import json
import sys
import time


MAX_FIELD = 200   # characters of a path or query kept: a 100 KB URL is not a 100 KB log line


class RequestLog:
    def __init__(self, app, stream=None):
        self.app = app
        self.stream = stream or sys.stderr

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        status_holder: list[str] = []

        def _start(status, headers, exc_info=None):
            status_holder.append(status)
            return start_response(status, headers, exc_info)

        size = 0
        try:
            for chunk in self.app(environ, _start):
                size += len(chunk)
                yield chunk
        finally:
            record = {
                "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()),
                "method": (environ.get("REQUEST_METHOD") or "")[:16],
                "path": (environ.get("PATH_INFO") or "")[:MAX_FIELD],
                "query": environ.get("QUERY_STRING", "")[:MAX_FIELD],
                "status": int(status_holder[0].split()[0]) if status_holder else 0,
                "bytes": size,
                "ms": round((time.perf_counter() - started) * 1000, 2),
                "remote": environ.get("REMOTE_ADDR"),
            }
            try:
                self.stream.write(json.dumps(record) + "\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass  # logging must never break a response
