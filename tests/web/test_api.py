"""JSON API: /api/regole, /api/collega, /api/modifiche, /api/edizioni, OpenAPI document."""

from __future__ import annotations

import json

import pytest

from judge.corpus.checks import corpus_findings
from judge.web.rules import nearest_rules
from judge.corpus.diff import diff_editions
from judge.web.linker import MAX_LINKER_CHARS


def error_of(r, status):
    assert r.status_code == status, (r.status_code, r.data[:300])
    assert r.mimetype == "application/json"
    err = r.get_json()["error"]
    assert err["status"] == status and isinstance(err["message"], str) and err["message"]
    return err


def test_rule_both_languages_versions_children_citations(client, corpus):
    rule = corpus.get("703.4")
    data = client.get("/api/regole/703.4").get_json()
    assert data["number"] == "703.4" and data["kind"] == rule.kind
    assert data["it"]["text"] == rule.it.text and data["en"]["text"] == rule.en.text
    assert data["it"]["version"] == rule.it.version and data["en"]["version"] == rule.en.version
    assert data["children"] == rule.children
    assert data["parent"] == "703"
    assert data["url"].endswith("/regole/703.4")
    assert data["edition_in_force"]["id"] == corpus.in_force.id
    assert [c["number"] for c in data["citations"]["en"]] == corpus.citations("703.4", "en")
    assert data["cited_by"] == [n for n in corpus.cited_by.get("703.4", []) if n != "703.4"]


def test_rule_warnings(client, corpus):
    f = next(f for f in corpus_findings(corpus) if f.code == "inglese-modificato")
    data = client.get(f"/api/regole/{f.rule}").get_json()
    w = next(w for w in data["warnings"] if w["code"] == "inglese-modificato")
    assert w["related"] == list(f.related) and "/modifiche/" in w["diff_url"]
    data = client.get("/api/regole/703.4q").get_json()
    stale = next(w for w in data["warnings"] if w["code"] == "citazione-obsoleta")
    assert stale["english_citations"] == ["500.5"]
    unknown = next(f for f in corpus_findings(corpus) if f.code == "citazione-irrisolta")
    data = client.get(f"/api/regole/{unknown.rule}").get_json()
    assert any(c["number"] == unknown.related[0] and not c["exists"] and c["url"] is None for c in data["citations"]["it"])


def test_rule_without_community_text_and_chapter(client, corpus):
    rule = next(corpus.get(n) for n in corpus.numbers if not corpus.get(n).it and not corpus.get(n).is_heading)
    data = client.get(f"/api/regole/{rule.number}").get_json()
    assert data["it"] is None and data["translation_available"] is True
    assert data["translation"]["text"] == rule.tr.text and data["translation"]["current"] is True
    # the marker's edition: one whose English of this rule is the text in force
    translated = corpus.edition(data["translation"]["edition"]).rule(rule.number)
    assert (translated.text, translated.examples) == (rule.en.text, rule.en.examples)
    data = client.get("/api/regole/7").get_json()
    assert data["kind"] == "capitolo" and data["children"] == [s.number for s in corpus.sections("7")]


def test_rule_forgiving_redirect(client):
    r = client.get("/api/regole/704.5A")
    assert r.status_code == 301 and r.headers["Location"] == "/api/regole/704.5a"


@pytest.mark.parametrize("bad", ["999.9", "banana", "<script>x</script>", "9" * 300, "10²", "10:::\U0010481b"])
def test_rule_unknown(client, corpus, bad):
    err = error_of(client.get(f"/api/regole/{bad}"), 404)
    assert err["nearest"] == [r.number for r in nearest_rules(corpus, bad[:60])]


def test_unknown_api_path_is_json(client):
    error_of(client.get("/api/nulla"), 404)


def test_collega_json(client, corpus):
    text = "Vedi la regola 704.5a, CR 117.3a e rule 999.1; <script>alert(1)</script>"
    data = client.post("/api/collega", json={"text": text}).get_json()
    assert data["text"] == text
    spans = data["spans"]
    assert [text[s["start"]:s["end"]] for s in spans] == [s["text"] for s in spans]
    numbers = [n["number"] for s in spans for n in s["numbers"]]
    assert numbers == ["704.5a", "117.3a", "999.1"]
    assert spans[0]["url"].endswith("/regole/704.5a") and spans[2]["url"] is None
    assert [r["number"] for r in data["rules"]] == ["704.5a", "117.3a"]
    assert data["rules"][0]["en"] == corpus.get("704.5a").en.text
    assert data["unknown"] == ["999.1"]


def test_collega_plain_text_and_italian(client):
    r = client.post("/api/collega", data="regole 601.2a–c".encode(), content_type="text/plain; charset=utf-8")
    data = r.get_json()
    assert [n["number"] for n in data["spans"][0]["numbers"]] == ["601.2a", "601.2b", "601.2c"]


def test_collega_errors(client):
    error_of(client.post("/api/collega", data="{not json", content_type="application/json"), 400)
    error_of(client.post("/api/collega", json={"testo_sbagliato": 1}), 400)
    error_of(client.post("/api/collega", json={"text": 42}), 400)
    error_of(client.post("/api/collega", json=["a"]), 400)
    empty = client.post("/api/collega", json={"text": "   "}).get_json()
    assert empty["spans"] == [] and empty["rules"] == [] and empty["unknown"] == []
    error_of(client.post("/api/collega", data=b"\x00\x01", content_type="application/octet-stream"), 415)
    err = error_of(client.post("/api/collega", json={"text": "704.5a " * (MAX_LINKER_CHARS // 7 + 10)}), 413)
    assert "troppo lungo" in err["message"]
    error_of(client.post("/api/collega", data="x" * (3 * 1024 * 1024), content_type="text/plain"), 413)
    error_of(client.get("/api/collega"), 405)


def test_modifiche(client, corpus):
    old, new = corpus.editions[-2], corpus.editions[-1]
    data = client.get(f"/api/modifiche/{old.id}..{new.id}").get_json()
    expected = diff_editions(old, new)
    assert [c["number"] for c in data["changes"]] == [c.number for c in expected]
    assert data["counts"]["modificata"] == sum(1 for c in expected if c.kind == "modificata")
    assert data["from"]["id"] == old.id and data["to"]["id"] == new.id
    changed = next(c for c in data["changes"] if c["kind"] == "modificata")
    assert {w["op"] for w in changed["words"]} >= {"="}
    section = changed["number"].split(".")[0]
    data = client.get(f"/api/modifiche/{old.id}..{new.id}?sezione={section}").get_json()
    assert data["section"] == section
    assert data["changes"] and all(c["number"].split(".")[0] == section for c in data["changes"])


@pytest.mark.parametrize("interval,status", [("garbage", 400), ("20251114", 400), ("19990101..20260619", 404), ("20260619..20260619", 400), ("<b>..x", 400)])
def test_modifiche_errors(client, interval, status):
    error_of(client.get(f"/api/modifiche/{interval}"), status)


def test_modifiche_bad_section(client, corpus):
    old, new = corpus.editions[-2], corpus.editions[-1]
    error_of(client.get(f"/api/modifiche/{old.id}..{new.id}?sezione=999"), 404)
    error_of(client.get(f"/api/modifiche/{old.id}..{new.id}?sezione=<script>"), 400)


def test_edizioni(client, corpus):
    data = client.get("/api/edizioni").get_json()
    assert [e["id"] for e in data["editions"]] == [e.id for e in corpus.editions]
    assert data["in_force"]["id"] == corpus.in_force.id


def test_openapi_documents_every_api_route(app, client):
    r = client.get("/api/openapi.json")
    assert r.status_code == 200
    spec = json.loads(r.data)
    assert spec["openapi"].startswith("3.")
    documented = set(spec["paths"])
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.endpoint.startswith("api.") and rule.rule not in ("/api/",):
            path = rule.rule.replace("<path:numero>", "{numero}").replace("<numero>", "{numero}").replace("<intervallo>", "{intervallo}")
            assert path in documented, path
    assert client.get("/api").status_code == 302


def test_every_rule_in_force_reads_in_italian_through_the_api(client, corpus):
    """Every numbered rule of the edition in force: the API gives its Italian text, current, and the
    project's translation of the exact English in force."""
    for r in corpus.in_force.rules:
        rule = corpus.get(r.number)
        data = client.get(f"/api/regole/{r.number}").get_json()
        italian = data["it"] if rule.italian is rule.it else data["translation"]
        assert italian and italian["text"] == rule.italian.text, r.number
        assert data["translation"]["current"] is True, r.number
        translated = corpus.edition(data["translation"]["edition"]).rule(r.number)
        assert translated is not None and (translated.text, translated.examples) == (r.text, r.examples), r.number
