"""Generated files served from bytes made once per version (issue 38): the service worker, the
manifest, the API's description and OpenSearch. /sw.js was rendered on every request (50 ms of CPU,
150-350 ms under load; eight clients pushed rule pages to 2.8 s)."""

from __future__ import annotations

import threading

import pytest

from judge.web import create_app, offline

FILES = {
    "/sw.js": "no-cache",
    "/manifest.webmanifest": "public, max-age=3600",
    "/api/openapi.json": "public, max-age=300",
    "/opensearch.xml": "public, max-age=86400",
}


@pytest.fixture()
def fresh(tmp_path):
    """An app whose files were never made, with the page cache off (the files are kept anyway)."""
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t", "PAGE_CACHE": False})


@pytest.mark.parametrize("path", FILES)
def test_each_file_has_an_etag_its_cache_header_and_a_304(fresh, path):
    client = fresh.test_client()
    for encoding in ("", "gzip", "br"):
        r = client.get(path, headers={"Accept-Encoding": encoding})
        assert r.status_code == 200 and r.headers["Cache-Control"] == FILES[path]
        etag = r.headers["ETag"]
        again = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
        assert client.get(path, headers={"Accept-Encoding": encoding}).data == r.data


def test_the_tournament_documents_offline_file_is_prepared_too(fresh):
    from judge.web.tournament import offline_data_url

    client = fresh.test_client()
    with fresh.test_request_context():
        url = offline_data_url()
    r = client.get(url)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get(url, headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    assert client.get("/offline/tornei-0000.json").status_code == 404


def test_the_service_worker_keeps_its_scope_header_on_a_304(fresh):
    client = fresh.test_client()
    etag = client.get("/sw.js").headers["ETag"]
    r = client.get("/sw.js", headers={"If-None-Match": etag})
    assert r.status_code == 304 and r.headers["Service-Worker-Allowed"] == "/"


def test_eight_clients_at_once_have_it_made_once(fresh, monkeypatch):
    made = []
    real = offline.precache_list

    def counting(corpus):
        made.append(1)
        return real(corpus)

    monkeypatch.setattr(offline, "precache_list", counting)
    start = threading.Barrier(8)
    bodies: list[bytes] = []

    def visit():
        client = fresh.test_client()
        start.wait()
        for _ in range(20):
            bodies.append(client.get("/sw.js").data)

    threads = [threading.Thread(target=visit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1 and len(bodies) == 160 and len(set(bodies)) == 1


def test_a_file_that_prints_its_host_is_kept_per_host(fresh):
    client = fresh.test_client()
    one = client.get("/opensearch.xml", base_url="http://uno.example").get_data(as_text=True)
    two = client.get("/opensearch.xml", base_url="http://due.example").get_data(as_text=True)
    assert "uno.example" in one and "due.example" in two and "uno.example" not in two
