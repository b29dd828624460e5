"""Compressed responses: HTML, JSON and other text over 1 KB, in brotli or gzip as the client asks.

Cached pages (judge/web/cache.py) keep each encoding once compressed; everything else is
compressed here, after the view. A compressed body gets its own ETag (the plain one plus
"-br"/"-gzip"), and every response whose body could be compressed says ``Vary: Accept-Encoding``,
so shared caches never hand a compressed body to a client that did not ask for it.
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

try:
    import brotli
except ImportError:  # pragma: no cover - brotli is a dependency; gzip alone still works
    brotli = None

MIN_BYTES = 1024
TYPES = frozenset({
    "text/html", "text/plain", "text/css", "text/javascript", "application/javascript", "application/json",
    "application/problem+json", "application/xml", "image/svg+xml", "application/opensearchdescription+xml",
})
GZIP_LEVEL = 6
BROTLI_QUALITY = 5  # dynamic pages: most of brotli's gain at a fraction of quality 11's time


def _offers(accept_encoding: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name.strip():
            out[name.strip().lower()] = q
    return out


def negotiate(accept_encoding: str | None) -> str | None:
    """"br", "gzip" or None for an Accept-Encoding header (q=0 refuses; "*" stands for any other)."""
    offers = _offers(accept_encoding or "")
    for enc in ("br", "gzip") if brotli is not None else ("gzip",):
        q = offers.get(enc, offers.get("*", 0.0))
        if q > 0:
            return enc
    return None


def eligible(mimetype: str | None, size: int) -> bool:
    return mimetype in TYPES and size >= MIN_BYTES


def encode(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(body, quality=BROTLI_QUALITY)
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


def encoded_etag(etag: str, encoding: str | None) -> str:
    return f"{etag}-{encoding}" if encoding else etag


def _compress(response: Response) -> Response:
    if response.direct_passthrough or response.is_streamed or "Content-Encoding" in response.headers:
        return response
    code = response.status_code
    if not (200 <= code < 300 or code >= 400) or not eligible(response.mimetype, response.content_length or 0):
        return response
    response.vary.add("Accept-Encoding")
    encoding = negotiate(request.headers.get("Accept-Encoding"))
    if encoding is None:
        return response
    response.set_data(encode(response.get_data(), encoding))
    response.headers["Content-Encoding"] = encoding
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(encoded_etag(etag, encoding), weak=weak)
    return response


def init_app(app: Flask) -> None:
    app.after_request(_compress)
