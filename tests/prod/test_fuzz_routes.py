"""Every route, fed random and hostile input: never a 5xx, errors in Italian, nothing echoed unescaped."""

import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

HOSTILE = [
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "' OR 1=1 --", "../../etc/passwd",
    "%00", "\x00\x01\x1f", "{{7*7}}", "${jndi:ldap://x}", "text:(", "\"unbalanced", "((((", "*?~^",
    "9" * 400, "é" * 300, "\u202e\u200b", "704.5a" * 50, "NOT AND OR", "-1", "1e309", "null", "[]", "{}",
]
payloads = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=120))
RAW_MARKERS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"]


def routes(app):
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        out.append((rule.rule, sorted(rule.methods - {"HEAD", "OPTIONS"})))
    return out


def fill(rule: str, value: str) -> str:
    return re.sub(r"<(?:[^:>]+:)?[^>]+>", quote(value, safe=""), rule)


def check_response(resp, payload=None):
    assert resp.status_code < 500, (resp.status_code, resp.request.path if resp.request else None)
    body = resp.get_data(as_text=True)
    assert "Traceback" not in body
    if resp.mimetype == "text/html":  # JSON carries text as data; nosniff keeps browsers from rendering it
        for marker in RAW_MARKERS:
            if payload and marker in payload:
                assert marker not in body, "user input rendered unescaped"
    if 400 <= resp.status_code < 500:
        if resp.is_json:
            err = resp.get_json()["error"]
            assert err["message"] and err["status"] == resp.status_code
        elif resp.mimetype == "text/html":
            assert 'lang="it"' in body


def _csrf(client):
    with client.session_transaction() as s:
        s["_csrf"] = "t" * 43
    return "t" * 43


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(value=payloads, query=payloads)
def test_get_every_route_with_hostile_arguments(app, value, query):
    client = app.test_client()
    for rule, methods in routes(app):
        if "GET" not in methods:
            continue
        url = fill(rule, value)
        resp = client.get(url, query_string={"q": query, "lingua": query, "sezione": query, "pagina": query, "limite": query})
        check_response(resp, value + query)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(value=payloads, field=payloads)
def test_post_every_route_with_hostile_forms_and_json(app, value, field):
    client = app.test_client()
    token = _csrf(client)
    for rule, methods in routes(app):
        if "POST" not in methods:
            continue
        url = fill(rule, value)
        form = {"csrf_token": token, "testo": field, "text": field, "scenario": field, "json": field, "nome": field, "q": field}
        check_response(client.post(url, data=form), field)
        check_response(client.post(url, data=field.encode("utf-8", "surrogatepass"), content_type="application/json"), field)
        check_response(client.post(url, json={"text": field, "testo": field, "scenario": {"players": field}}), field)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=st.sampled_from(["Accept", "Accept-Language", "Cookie", "Content-Type", "If-None-Match", "Referer", "User-Agent", "X-Forwarded-For"]),
       value=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=200))
def test_hostile_headers(app, header, value):
    client = app.test_client()
    for path in ["/", "/salute", "/regole/704.5a", "/api/regole/704.5a", "/cerca?q=pila", "/api/cerca?q=pila"]:
        check_response(client.get(path, headers={header: value}))


def test_post_without_csrf_token_is_refused_in_italian(app):
    client = app.test_client()
    for rule, methods in routes(app):
        if "POST" in methods and not rule.startswith("/api/") and "<" not in rule:
            resp = client.post(rule, data={"testo": "regola 704.5a"})
            assert resp.status_code == 400, rule
            assert "CSRF" in resp.get_data(as_text=True)


def test_oversized_body_gets_413_in_italian(app):
    client = app.test_client()
    big = "x" * (app.config["MAX_CONTENT_LENGTH"] + 10)
    resp = client.post("/api/collega", data=big, content_type="text/plain")
    assert resp.status_code == 413
    assert "troppo grande" in resp.get_json()["error"]["message"]


def test_a_range_past_the_end_of_a_file_is_explained_in_italian(client):
    r = client.get("/static/style.css", headers={"Range": "bytes=99999999-"})
    assert r.status_code == 416
    assert "Intervallo" in r.get_data(as_text=True)
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/", "/salute", "/regole/704.5a", "/pagina-che-non-esiste", "/api/regole/xyz"])
def test_security_headers_on_every_response(client, path):
    resp = client.get(path)
    csp = resp.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert resp.headers["Referrer-Policy"]
    assert resp.headers["X-Frame-Options"] == "DENY"


def test_pages_are_cached_with_etags_and_revalidated(app):
    client = app.test_client()
    first = client.get("/regole/704.5a")
    assert first.status_code == 200 and first.headers["ETag"]
    assert "max-age" in first.headers["Cache-Control"]
    again = client.get("/regole/704.5a")
    assert again.get_data() == first.get_data() and again.headers["ETag"] == first.headers["ETag"]
    not_modified = client.get("/regole/704.5a", headers={"If-None-Match": first.headers["ETag"]})
    assert not_modified.status_code == 304 and not not_modified.get_data()
    # Errors and redirects are never kept.
    assert "ETag" not in client.get("/regole/999.9").headers
    assert client.get("/regole/704.5A").status_code in (301, 308)


def test_the_cache_follows_the_corpus(tmp_path):
    """A page rendered for one corpus is not served for another (the key holds the content hash)."""
    import shutil

    from judge import RULES_EN_DIR, RULES_IT_DIR
    from judge.web import cache, create_app

    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "i")})
    client = app.test_client()
    before = client.get("/api/regole/121.1").get_json()
    it = tmp_path / "rules_it"
    shutil.copytree(RULES_IT_DIR, it)
    path = it / "121.md"
    path.write_text(path.read_text(encoding="utf-8").replace("Un giocatore pesca una carta", "UN GIOCATORE PESCA", 1), encoding="utf-8")
    from judge import corpus as corpus_module

    real = corpus_module.load_corpus
    changed = real(it, RULES_EN_DIR, max_age=0)
    try:
        cache.load_corpus = lambda: changed  # what a server sees after the file was edited
        import judge.web.api as api

        api_load = api.load_corpus
        api.load_corpus = lambda: changed
        after = client.get("/api/regole/121.1").get_json()
    finally:
        cache.load_corpus = real
        api.load_corpus = api_load
    assert before != after
    assert "UN GIOCATORE PESCA" in str(after)


@pytest.mark.parametrize("path", ["/api/regole/702.19c", "/regole/702.19d", "/api/modifiche/20251114..20260619"])
def test_a_forged_host_never_reaches_another_visitor(app, path):
    """Pages print absolute links built from the Host header (permalinks, the API's urls): a page
    kept in the cache for one host is never served to a request for another."""
    client = app.test_client()
    forged = client.get(path, base_url="http://evil.example")
    assert forged.status_code == 200 and "evil.example" in forged.get_data(as_text=True)
    plain = client.get(path)
    assert plain.status_code == 200
    assert "evil.example" not in plain.get_data(as_text=True)
    assert "http://localhost/" in plain.get_data(as_text=True)
