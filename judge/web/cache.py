"""A response cache for pages that depend only on the corpus and the scenario library.

Rule, section, search and API pages are the same for every visitor until the corpus
(or the library) changes, so the rendered bytes are kept in a bounded LRU keyed by
path, the query parameters the view reads, host and those versions, and served with an
ETag (304 on a match).  Parameters a view never reads are not part of the key: appending
``?z=<random>`` to a page serves it from the cache instead of rendering it and evicting
others.  Which parameters a view reads is learnt as it renders (``_Recording``).
Each compressed encoding of a page (judge/web/compress.py) is kept beside it once made,
with its own ETag. Responses that set cookies or touch the session are never kept.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict

from flask import Response, current_app, make_response, request, session
from werkzeug.datastructures import ImmutableMultiDict

from judge.corpus import load_corpus
from judge.web import compress
from judge.web.simulator import library

MAX_BYTES = 8 * 1024 * 1024  # about 800 rule pages with their compressed copies; see docs/deployment.md
MAX_KEY = 2048  # longer URLs are rendered but not kept
CACHE_CONTROL = "public, max-age=300"


class Page:
    """A rendered page and its compressed encodings (made on first request)."""

    __slots__ = ("body", "mimetype", "etag", "encoded", "kept")

    def __init__(self, body: bytes, mimetype: str, etag: str):
        self.body, self.mimetype, self.etag = body, mimetype, etag
        self.encoded: dict[str, bytes] = {}
        self.kept = False  # in the cache (its bytes counted in PageCache.size)

    @property
    def size(self) -> int:
        return len(self.body) + sum(len(b) for b in self.encoded.values())


class PageCache:
    def __init__(self, max_bytes: int = MAX_BYTES):
        self.max_bytes = max_bytes
        self.size = 0
        self.items: OrderedDict[tuple, Page] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> Page | None:
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def put(self, key: tuple, page: Page) -> None:
        if len(page.body) > self.max_bytes // 16:
            return
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                old.kept = False
                self.size -= old.size
            self.items[key] = page
            page.kept = True
            self.size += page.size
            self._trim()

    def add_encoding(self, page: Page, encoding: str, data: bytes) -> None:
        with self.lock:
            if encoding not in page.encoded:
                page.encoded[encoding] = data
                if page.kept:
                    self.size += len(data)
                    self._trim()

    def _trim(self) -> None:
        while self.size > self.max_bytes and self.items:
            _, dropped = self.items.popitem(last=False)
            dropped.kept = False
            self.size -= dropped.size


def _cache() -> PageCache | None:
    if current_app.config.get("PAGE_CACHE") is False:
        return None
    return current_app.extensions.setdefault("judge.page_cache", PageCache())


class _Recording(ImmutableMultiDict):
    """``request.args`` while a cached view renders: remembers the names the view reads
    (``None`` in ``read``: it looked at all of them)."""

    def __init__(self, mapping, read: set):
        super().__init__(mapping)
        self.read = read

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None, type=None):
        self.read.add(key)
        return super().get(key, default, type)

    def getlist(self, key, type=None):
        self.read.add(key)
        return super().getlist(key, type)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)

    def _everything(self, name):
        self.read.add(None)
        return getattr(super(), name)

    def keys(self):
        return self._everything("keys")()

    def items(self, multi=False):
        return self._everything("items")(multi)

    def values(self):
        return self._everything("values")()

    def lists(self):
        return self._everything("lists")()

    def to_dict(self, flat=True):
        return self._everything("to_dict")(flat)

    def __iter__(self):
        return self._everything("__iter__")()

    def __len__(self):
        return self._everything("__len__")()


def _query_key(names: set) -> tuple:
    """The values of the parameters in ``names`` (all of them if it holds None), in order."""
    args = request.args
    if None in names:
        return tuple(sorted(args.items(multi=True)))
    return tuple((n, tuple(args.getlist(n))) for n in sorted(names) if n in args)


def cached(view):
    """Serve the view's 200 responses from the page cache when nothing they depend on changed."""
    read: set = set()          # the query parameters this view has been seen to read

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        cache = _cache()
        if cache is None or len(request.full_path) > MAX_KEY:
            return view(*args, **kwargs)
        versions = (load_corpus().content_hash, library.version(current_app.config.get("SCENARIO_LIBRARY") or None))
        # The host is part of the key: pages print absolute links built from it (permalinks,
        # the API's urls), and a forged Host header must not reach another visitor.
        base = (request.endpoint, request.path, request.host_url, *versions)
        page = cache.get((*base, _query_key(read)))
        if page is None:
            request.__dict__["args"] = _Recording(request.args, read)   # werkzeug caches it there
            resp = make_response(view(*args, **kwargs))
            if resp.status_code != 200 or resp.direct_passthrough or "Set-Cookie" in resp.headers or session.modified:
                return resp
            body = resp.get_data()
            page = Page(body, resp.mimetype, hashlib.blake2b(body, digest_size=12).hexdigest())
            cache.put((*base, _query_key(read)), page)
        return _serve(cache, page)

    return wrapper


# Generated files (judge/web/offline.py's service worker and manifest, the API's description,
# OpenSearch): a few KB each, kept apart from the pages so that no traffic evicts them.
PREPARED_BYTES = 2 * 1024 * 1024
_render_lock = threading.Lock()


def prepared(cache_control: str = CACHE_CONTROL, per_host: bool = False, headers: dict | None = None):
    """Serve a generated file from bytes made once per corpus version (and per host, for a file
    that prints absolute addresses): the view runs once, under a lock (eight clients arriving
    together do not render it eight times), and every request is answered from the bytes with an
    ETag (304 on a match), ``cache_control`` and ``headers``. Always on, even with the page cache
    off: the service worker cost 50 ms of CPU to render (150-350 ms under load) on every visit
    of every phone. The view must read no query parameter (none is part of the key). The version
    is the corpus's: what a file takes from the tournament documents (the service worker's list)
    is made again when the corpus changes or the server restarts, as those files are deployed."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            store = current_app.extensions.setdefault("judge.prepared", PageCache(PREPARED_BYTES))
            key = (request.endpoint, request.path, request.host_url if per_host else "", load_corpus().content_hash)
            page = store.get(key)
            if page is None:
                with _render_lock:
                    page = store.get(key)
                    if page is None:
                        resp = make_response(view(*args, **kwargs))
                        if resp.status_code != 200:
                            return resp
                        body = resp.get_data()
                        page = Page(body, resp.mimetype, hashlib.blake2b(body, digest_size=12).hexdigest())
                        store.put(key, page)
            resp = _serve(store, page, cache_control)
            resp.headers.update(headers or {})
            return resp

        return wrapper

    return decorate


def _serve(cache: PageCache, page: Page, cache_control: str = CACHE_CONTROL) -> Response:
    """The page in the encoding the client asked for, with that encoding's ETag (304 on a match)."""
    resp = Response(page.body, mimetype=page.mimetype)
    encoding = None
    if compress.eligible(page.mimetype, len(page.body)):
        resp.vary.add("Accept-Encoding")
        encoding = compress.negotiate(request.headers.get("Accept-Encoding"))
    if encoding is not None:
        data = page.encoded.get(encoding)
        if data is None:
            data = compress.encode(page.body, encoding)
            cache.add_encoding(page, encoding, data)
        resp.set_data(data)
        resp.headers["Content-Encoding"] = encoding
    resp.set_etag(compress.encoded_etag(page.etag, encoding))
    resp.headers["Cache-Control"] = cache_control
    return resp.make_conditional(request)
