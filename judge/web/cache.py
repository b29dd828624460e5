"""A response cache for pages that depend only on the corpus and the scenario library.

Rule, section, search and API pages are the same for every visitor until the corpus
(or the library) changes, so the rendered bytes are kept in a bounded LRU keyed by
path, query string and those versions, and served with an ETag (304 on a match).
Responses that set cookies or touch the session are never kept.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict

from flask import Response, current_app, make_response, request, session

from judge.corpus import load_corpus
from judge.web import library

MAX_BYTES = 32 * 1024 * 1024  # keeps the server well under its memory goal
MAX_KEY = 2048  # longer URLs are rendered but not kept
CACHE_CONTROL = "public, max-age=300"


class PageCache:
    def __init__(self, max_bytes: int = MAX_BYTES):
        self.max_bytes = max_bytes
        self.size = 0
        self.items: OrderedDict[tuple, tuple[bytes, str, str]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple):
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def put(self, key: tuple, body: bytes, mimetype: str, etag: str) -> None:
        if len(body) > self.max_bytes // 16:
            return
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.size -= len(old[0])
            self.items[key] = (body, mimetype, etag)
            self.size += len(body)
            while self.size > self.max_bytes and self.items:
                _, (dropped, _, _) = self.items.popitem(last=False)
                self.size -= len(dropped)


def _cache() -> PageCache | None:
    if current_app.config.get("PAGE_CACHE") is False:
        return None
    return current_app.extensions.setdefault("judge.page_cache", PageCache())


def cached(view):
    """Serve the view's 200 responses from the page cache when nothing they depend on changed."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        cache = _cache()
        full = request.full_path
        if cache is None or len(full) > MAX_KEY:
            return view(*args, **kwargs)
        versions = (load_corpus().content_hash, library.version(current_app.config.get("SCENARIO_LIBRARY") or None))
        key = (request.endpoint, full, *versions)
        hit = cache.get(key)
        if hit is not None:
            body, mimetype, etag = hit
            resp = Response(body, mimetype=mimetype)
        else:
            resp = make_response(view(*args, **kwargs))
            if resp.status_code != 200 or resp.direct_passthrough or "Set-Cookie" in resp.headers or session.modified:
                return resp
            body = resp.get_data()
            etag = hashlib.blake2b(body, digest_size=12).hexdigest()
            cache.put(key, body, resp.mimetype, etag)
        resp.set_etag(etag)
        resp.headers["Cache-Control"] = CACHE_CONTROL
        return resp.make_conditional(request)

    return wrapper
