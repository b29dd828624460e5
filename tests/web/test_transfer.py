"""Compression (gzip/brotli as negotiated, with the page cache's ETags) and trailing-slash redirects."""

import gzip

import brotli
import pytest

from judge.web import create_app
from judge.web.compress import MIN_BYTES, negotiate


def decoded(resp) -> bytes:
    enc = resp.headers.get("Content-Encoding")
    data = resp.get_data()
    return {"gzip": gzip.decompress, "br": brotli.decompress}.get(enc, lambda b: b)(data)


@pytest.mark.parametrize("header, expected", [
    ("gzip, deflate, br", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip"), ("gzip;q=0", None),
    ("", None), ("identity", None), ("*", "br"), ("br;q=0, *;q=0.5", "gzip"), ("gzip;q=zz, br", "br"),
])
def test_negotiation(header, expected):
    assert negotiate(header) == expected


@pytest.mark.parametrize("path", ["/glossario", "/modifiche/20251114..20260619", "/regole/704", "/api/glossario",
                                  "/cerca?q=grimorio+vuoto", "/api/cerca?q=grimorio+vuoto"])
@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_html_and_json_over_1kb_are_compressed(client, path, encoding):
    plain = client.get(path)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert len(plain.get_data()) > MIN_BYTES
    assert "Accept-Encoding" in plain.headers.get("Vary", "")
    packed = client.get(path, headers={"Accept-Encoding": encoding})
    assert packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < len(plain.get_data()) / 2
    assert decoded(packed) == plain.get_data()


def test_big_pages_shrink_a_lot(client):
    for path in ("/regole/702", "/modifiche/20260227..20260417"):  # the biggest pages
        plain = client.get(path).get_data()
        packed = client.get(path, headers={"Accept-Encoding": "br"}).get_data()
        assert len(packed) < len(plain) / 5, path


def test_small_responses_are_not_compressed(client):
    r = client.get("/salute", headers={"Accept-Encoding": "gzip, br"})
    assert len(r.get_data()) < MIN_BYTES and "Content-Encoding" not in r.headers


def test_uncached_pages_are_compressed_too(tmp_path):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "TESTING": True, "SECRET_KEY": "t", "PAGE_CACHE": False})
    c = app.test_client()
    r = c.get("/regole/704", headers={"Accept-Encoding": "gzip"})
    assert r.headers["Content-Encoding"] == "gzip" and b"704" in gzip.decompress(r.get_data())
    assert "Accept-Encoding" in r.headers["Vary"]
    # Error pages are compressed as well (a 404 with the nearest rules is well over 1 KB).
    missing = c.get("/regole/704.99", headers={"Accept-Encoding": "br"})
    assert missing.status_code == 404 and "regola" in brotli.decompress(missing.get_data()).decode()


def test_each_encoding_has_its_own_etag_and_revalidates(client):
    plain = client.get("/regole/704.5a")
    gz = client.get("/regole/704.5a", headers={"Accept-Encoding": "gzip"})
    br = client.get("/regole/704.5a", headers={"Accept-Encoding": "br"})
    tags = {plain.headers["ETag"], gz.headers["ETag"], br.headers["ETag"]}
    assert len(tags) == 3
    again = client.get("/regole/704.5a", headers={"Accept-Encoding": "gzip", "If-None-Match": gz.headers["ETag"]})
    assert again.status_code == 304 and not again.get_data()
    assert "Accept-Encoding" in again.headers["Vary"]
    # A tag of another encoding is not a match: the body differs.
    other = client.get("/regole/704.5a", headers={"Accept-Encoding": "br", "If-None-Match": gz.headers["ETag"]})
    assert other.status_code == 200 and other.headers["Content-Encoding"] == "br"
    assert client.get("/regole/704.5a", headers={"If-None-Match": plain.headers["ETag"]}).status_code == 304


def test_compressed_bodies_are_kept_in_the_page_cache(app, client):
    client.get("/glossario", headers={"Accept-Encoding": "br"})
    cache = app.extensions["judge.page_cache"]
    # The page just asked for (other tests may have cached /glossario?q=… in this app).
    page = next(p for k, p in cache.items.items() if k[1] == "/glossario" and k[-1] == ())
    assert "br" in page.encoded
    assert cache.size == sum(p.size for p in cache.items.values())


# -- trailing slash ------------------------------------------------------------------------------

@pytest.mark.parametrize("path, target", [
    ("/regole/704.5a/", "/regole/704.5a"), ("/regole/704/", "/regole/704"), ("/cerca/?q=pila", "/cerca?q=pila"),
    ("/glossario/", "/glossario"), ("/api/regole/704.5a/", "/api/regole/704.5a"), ("/regole/704.5a//", "/regole/704.5a"),
    ("/salute/", "/salute"),
])
def test_trailing_slash_redirects(client, path, target):
    r = client.get(path)
    assert r.status_code == 301 and r.headers["Location"] == target
    assert client.get(target).status_code == 200


def test_trailing_slash_redirect_keeps_the_method_for_posts(client):
    r = client.post("/api/collega/", json={"testo": "vedi 704.5a"})
    assert r.status_code == 308 and r.headers["Location"] == "/api/collega"


def test_routes_written_with_a_slash_and_unknown_addresses_stay(client):
    assert client.get("/modifiche/").status_code == 302  # its own route (to the latest editions)
    assert client.get("/").status_code == 200
    assert client.get("/non-esiste/").status_code == 404


@pytest.mark.parametrize("raw", ["//example.org/", "//glossario/", "///regole/704.5a/"])
def test_no_redirect_to_another_host(client, raw):
    r = client.get("/", environ_overrides={"PATH_INFO": raw})
    assert r.status_code in (301, 404)
    if r.status_code == 301:
        assert r.headers["Location"].startswith("/") and not r.headers["Location"].startswith("//")
