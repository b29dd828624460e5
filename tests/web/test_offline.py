"""The offline copy's server side: manifest, service worker, the edition's data and the compact
search index (their behaviour in a browser with the network cut: tests/e2e/test_offline.py)."""

from __future__ import annotations

import gzip
import json
import math
import os
import shutil
from pathlib import Path

import brotli
import pytest

from judge import build_cache
from judge.corpus import italian_date
from judge.search import question
from judge.search.analysis import terms
from judge.search.answers import ANSWER_CHARS, FRAME_WITHIN, MAX_TOP_RULES, SENTENCE_CHARS, SENTENCE_END
from judge.search.frames import load_frames
from judge.search.learned import (CARD_QUESTION_LIKENESS, NEIGHBOURS, RULE_QUESTION_LIKENESS, WORD_NEIGHBOURS,
                                  read_card_questions, read_questions, read_rule_questions)
from judge.search.query import COVERAGE_IDF
from judge.search.snippets import SNIPPET_CHARS
from judge.web import create_app
from judge.web.offline import build_all, version


@pytest.fixture(scope="module")
def files(app, corpus):
    build_all(app.instance_path, corpus)  # what the builder process does
    sw = app.test_client().get("/sw.js").get_data(as_text=True)
    config = json.loads(sw.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    return config


def test_manifest_makes_an_installable_app(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    m = r.get_json()
    assert m["lang"] == "it" and m["display"] == "standalone" and m["start_url"] == "/"
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.mimetype == icon["type"]
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_service_worker_names_the_edition_and_keeps_what_the_issue_lists(client, corpus, files):
    r = client.get("/sw.js")
    assert r.mimetype == "text/javascript" and r.headers["Cache-Control"] == "no-cache"
    assert r.headers["Service-Worker-Allowed"] == "/"
    assert files["versione"] == version(corpus) and files["edizione"]["data"] == italian_date(corpus.in_force.date)
    kept = set(files["file"])
    assert {"/", "/glossario", "/indice-analitico", "/indice-analitico?lingua=en", "/turno", "/offline/regola",
            "/offline/cerca"} <= kept
    assert files["dati"] in kept and any(f.startswith("/offline/ricerca-") for f in kept)
    for url in files["file"]:
        assert client.get(url).status_code == 200, url


def test_edition_data_holds_every_rule_in_both_languages_with_labels(client, corpus, files):
    r = client.get(files["dati"], headers={"Accept-Encoding": "br"})
    assert r.headers["Content-Encoding"] == "br" and "immutable" in r.headers["Cache-Control"]
    data = json.loads(brotli.decompress(r.get_data()))
    assert data["versione"] == version(corpus) and data["edizione"]["id"] == corpus.in_force.id
    by_number = {x["n"]: x for x in data["regole"]}
    assert list(by_number) == list(corpus.numbers)
    for n in ("702.19b", "121.8", "704.5z", "7", "508"):
        rule, got = corpus.get(n), by_number[n]
        assert got["en"][0] == rule.en.text and data["etichette"][got["en"][2]] == rule.en.label
        if rule.italian:
            assert got["it"][0] == rule.italian.text and data["etichette"][got["it"][2]] == rule.italian.label
            assert got["it"][3] == rule.italian.layer
    assert by_number["702.19b"]["t"] == "702.19b Travolgere" and by_number["702.19b"]["p"] == "702.19"
    # A section's and a chapter's preview are /api/anteprima's (a section shows its first rule).
    for n in ("702", "7", "121"):
        online = client.get(f"/api/anteprima/{n}").get_json()
        text, label, layer, lang = by_number[n]["a"]
        assert (text, layer, lang) == (online["text"], online["layer"], online["lang"])
        assert (data["etichette"][label] if label is not None else None) == online["label"]
    assert by_number["702"]["a"][0].startswith("702.1 ") and by_number["7"]["a"][1] is None
    # A community rule keeps the project's translation under it; the labels' full wording is there too.
    rule = corpus.get("121.1")
    assert by_number["121.1"]["alt"][0] == rule.tr.text and data["versioni"][by_number["121.1"]["it"][2]] == rule.italian.version
    # The checks' warnings, as the page shows them.
    assert any("112.10" in w[1] for w in by_number["101.2a"]["w"])


def _offline_index(client, files) -> dict:
    url = next(f for f in files["file"] if f.startswith("/offline/ricerca-"))
    return json.loads(gzip.decompress(client.get(url, headers={"Accept-Encoding": "gzip"}).get_data()))


def test_search_index_holds_the_servers_own_scores(client, corpus, files, app):
    """Each term's score in each document is the server's (to a percent): the browser adds up what
    the server would compute, so the offline ranking is the server's."""
    from judge.search.engines import get_engine
    from judge.search.query import FIELDS

    ix = _offline_index(client, files)
    assert ix["regole"] == list(corpus.numbers)
    scale = ix["pesi"]

    def postings(lang, key):
        doc, out = 0, {}
        for pair in ix["termini"][lang][key].split():
            d, w = pair.split(":")
            doc += int(d, 36)
            number, doc_lang = ix["regole"][doc // 2], "en" if doc % 2 else "it"
            out[(number, doc_lang)] = math.exp(int(w, 36) / scale["passi"] - scale["scarto"])
        return out

    engine = get_engine(app.instance_path, corpus)
    sc = engine.scorer
    for lang, stem in (("it", "travolg"), ("en", "layer"), ("it", "cimiter")):
        docs, scores = sc._fields(FIELDS[lang], (stem,))
        want = {(sc.stored[d]["number"], sc.stored[d]["lang"]): float(s) for d, s in zip(docs, scores)}
        got = postings(lang, stem)
        assert set(got) == set(want), stem
        assert all(abs(got[k] - want[k]) <= 0.01 * want[k] for k in want), stem
    # Every Italian stem of 702.19b's text points at its Italian document.
    for stem in set(terms(corpus.get("702.19b").italian.text, "it")):
        assert ("702.19b", "it") in postings("it", stem), stem
    assert ix["inglese"]["trample"] == "trampl" and ix["inglese"]["attacking"] == "attack"
    # "ETB" is a glossary concept with the Italian words of what it means, and a headword of the
    # English analytic index: its rules lead.
    wanted = ["it", " ".join(terms("entrare nel campo di battaglia", "it"))]
    assert any(wanted in ix["glossario"]["concetti"][cid] for cid in ix["glossario"]["forme"]["etb"])
    assert ix["rubriche"]["en"]["etb"]
    # The server's weights, read from its modules (a change there reaches the copy).
    from judge.search.layout import ITALIAN_BOOST
    from judge.search.query import W_HEADING_ONLY, W_HEADWORD
    assert (scale["italiano"], scale["solo_nome"], scale["rubrica"]) == (ITALIAN_BOOST, W_HEADING_ONLY, W_HEADWORD)


def test_a_phrase_in_quotes_is_scored_offline_from_the_rules_texts_as_the_server_scores_it(client, corpus, files, app):
    """static/js/frasi.js scores a phrase from the texts of the edition's data with the index's BM25 constants
    and Whoosh's kept lengths: the rule text of every document is the data's, its terms in order are the
    field's positions, and the norms made from them as the browser makes them are the server's."""
    from bisect import bisect_left

    from judge.search.arrays import POSITION_BITS
    from judge.search.engines import get_engine

    ix = _offline_index(client, files)
    data = json.loads(client.get(files["dati"]).get_data())
    engine = get_engine(app.instance_path, corpus)
    sc, scale = engine.scorer, ix["pesi"]
    assert [r["n"] for r in data["regole"]] == ix["regole"]
    by_number = {r["n"]: r for r in data["regole"]}
    for lang in ("it", "en"):
        docs = [d for d, f in enumerate(sc.stored) if f["lang"] == lang]
        texts = {d: by_number[sc.stored[d]["number"]][lang][0] for d in docs}
        assert all(texts[d] == sc.stored[d]["text"] for d in docs)
        seqs = {d: terms(texts[d], lang) for d in docs}
        average = sum(len(s) for s in seqs.values()) / scale["documenti"]
        kept = scale["lunghezze"]
        norm = {d: scale["k1"] * ((1 - scale["b"]) + scale["b"] * kept[bisect_left(kept, len(s))] / average)
                for d, s in seqs.items()}
        want = sc.norm[f"body_{lang}"]
        assert all(abs(norm[d] - want[d]) <= 1e-5 * want[d] for d in docs), lang
        # The field's positions are the terms in order, one after the other: what a phrase is matched on.
        at: dict[int, dict[int, str]] = {}
        for t in sc.terms(f"body_{lang}"):
            for k in sc.postings(f"body_{lang}", t).keys:
                at.setdefault(int(k) >> POSITION_BITS, {})[int(k) & ((1 << POSITION_BITS) - 1)] = t
        for d, s in seqs.items():
            positions = sorted(at.get(d, {}))
            assert [at[d][p] for p in positions] == s
            assert positions == list(range(positions[0], positions[0] + len(s))) if s else not positions


def test_glossary_data_holds_what_its_search_compares(client, corpus, files):
    url = next(f for f in files["file"] if f.startswith("/offline/glossario-"))
    data = json.loads(client.get(url).get_data())
    by_term = {e["term"]: e for e in data["voci"]}
    assert len(by_term) == len(corpus.glossary)
    trample = by_term["Trample"]
    assert trample["it_term"] == "Travolgere" and trample["r"] == [terms("Travolgere", "it"), terms("Trample", "en")]
    assert trample["anchor"] == "t-trample"
    assert data["gergo"]["en"]["sba"][0][0] == "SBA"


def _search_index(client, files) -> dict:
    url = next(f for f in files["file"] if f.startswith("/offline/ricerca-"))
    return json.loads(gzip.decompress(client.get(url, headers={"Accept-Encoding": "gzip"}).get_data()))


def test_search_index_reads_questions_as_the_server_does(client, files):
    """The frames, the questions learned from (the tuning half, the rules' and the cards' questions) and the
    server's weights."""
    ix = _search_index(client, files)
    frames = load_frames()
    assert len(ix["cornici"]) == len(frames)
    phrases, subject, rules = ix["cornici"][frames.index(next(f for f in frames if "506.4" in f.rules))]
    tokens = [t for p in phrases for t in p]
    assert rules[0] == "506.4" and ["stesso", terms("stesso", "it")[0]] in tokens
    assert ["lo", None] in tokens  # a stop word matches as written
    # The memory: the situations as [stems, rules], the rules' and cards' questions with their likeness factor.
    situations = [q for q in ix["domande"] if len(q) == 2]
    others = [q for q in ix["domande"] if len(q) == 3]
    assert len(situations) == len(read_questions()) and all(rs for _, rs in situations)
    assert len(others) == len(read_rule_questions()) + len(read_card_questions()) and all(q[1] for q in others)
    assert {q[2] for q in others} == {RULE_QUESTION_LIKENESS, CARD_QUESTION_LIKENESS}
    assert ix["pesi"]["cornice"] == question.W_FRAME and ix["pesi"]["domande"] == question.W_LEARNED
    assert ix["pesi"]["domande_parole"] == question.W_LEARNED_WORDS
    assert (ix["pesi"]["vicine"], ix["pesi"]["vicine_parole"]) == (NEIGHBOURS, WORD_NEIGHBOURS)
    assert ix["pesi"]["parola_cornice"] == question.W_FRAME_WORD
    # The coverage's rarity of a unit (query.py _rarity): its exponent and the documents it counts among.
    assert ix["pesi"]["rarita"] == COVERAGE_IDF and len(ix["regole"]) < ix["pesi"]["documenti"] <= 2 * len(ix["regole"])


def test_search_index_frames_say_what_they_ask(client, files):
    """The quick answer to a frame offline (static/js/risposta-offline.js): each frame's name beside its row,
    what each name asks once (frames.py Frame.asks), and the server's sentence pattern and lengths (answers.py);
    the frames' rows as before."""
    ix = _search_index(client, files)
    frames, answer = load_frames(), ix["risposta"]
    assert len(answer["cornici"]) == len(ix["cornici"]) == len(frames)
    assert all(len(row) == 3 for row in ix["cornici"])
    assert [answer["chiede"].get(name, "") for name in answer["cornici"]] == [f.asks for f in frames]
    row = answer["cornici"][frames.index(next(f for f in frames if f.rules[:1] == ("603.3a",)))]
    assert answer["chiede"][row] == "chi controlla, chi possiede?"
    assert answer["fine_frase"] == SENTENCE_END.pattern
    assert (answer["caratteri"], answer["entro"]) == (SENTENCE_CHARS, FRAME_WITHIN)
    assert ["it", terms("forza", "it")[0]] in answer["forza_costituzione"]
    assert ["en", terms("toughness", "en")[0]] in answer["forza_costituzione"]


def test_search_index_holds_each_rules_analytic_index_entries_in_order(client, corpus, files):
    """The quick answer from an entry offline (static/js/risposta-offline.js): read back as the browser reads it,
    each rule's entries of each language, in the order answers.py best_entry meets them (its ties go to the first),
    and the lengths and the count of a headword's rules the server's answer uses."""
    ix = _search_index(client, files)
    read: dict[tuple[str, str], list[str]] = {}
    for lang in ("it", "en"):
        heading = ""
        for line in ix["voci"][lang].split("\n"):
            first, topic, positions = line.split("\t")
            heading = first or heading
            for p in positions.split():
                read.setdefault((ix["regole"][int(p, 36)], lang), []).append(f"{heading}: {topic}")
    want = {(n, lang): [e.text for e in index.for_rule(n)]
            for lang, index in corpus.analytic_indexes.items() for n in index.rules if n in corpus}
    assert read == want and len(want) > 2000
    assert read[("603.6a", "en")][0].startswith("ETB: ")
    # A headword is written once for the lines under it.
    assert sum(1 for line in ix["voci"]["it"].split("\n") if not line.split("\t")[0]) > 1000
    answer = ix["risposta"]
    assert (answer["caratteri_testo"], answer["caratteri_voce"], answer["rubriche_massime"]) == \
        (ANSWER_CHARS, SNIPPET_CHARS, MAX_TOP_RULES)


def test_a_change_to_the_searchs_data_tables_is_a_new_copy(corpus, tmp_path, monkeypatch):
    """The question frames travel in the copy's search index: a new frame names a new copy, as new code does."""
    from judge.web import offline

    for table in ("cornici.tsv", "domande.json", "glossario.tsv"):
        shutil.copy(offline.SEARCH_DATA / table, tmp_path / table)
    monkeypatch.setattr(offline, "SEARCH_DATA", tmp_path)
    before = version(corpus)
    assert version(corpus) == before
    with (tmp_path / "cornici.tsv").open("a", encoding="utf-8") as f:
        f.write("ancora\tvale ancora\t\t506.4\n")
    assert version(corpus) != before


def test_a_change_to_the_cards_a_question_may_name_is_a_new_copy(corpus, tmp_path, monkeypatch):
    """The cards travel in the copy's search index (judge/search/offline_cards.py): a new card table, or a
    new rule that a card's text invokes, names a new copy."""
    from judge.cards.table import CARDS_FILE, default_directory
    from judge.web import offline

    (tmp_path / "carte").mkdir()
    (tmp_path / "testi").mkdir()
    shutil.copy(default_directory() / CARDS_FILE, tmp_path / "carte" / CARDS_FILE)
    shutil.copy(offline.CARDS_DATA / "testo_regole.tsv", tmp_path / "testi" / "testo_regole.tsv")
    monkeypatch.setenv("JUDGE_CARTE", str(tmp_path / "carte"))
    monkeypatch.setattr(offline, "CARDS_DATA", tmp_path / "testi")
    before = version(corpus)
    with (tmp_path / "testi" / "testo_regole.tsv").open("a", encoding="utf-8") as f:
        f.write("\\binstead\\b\t614.1a\tsostituzione\n")
    after_text = version(corpus)
    with (tmp_path / "carte" / CARDS_FILE).open("ab") as f:
        f.write(gzip.compress(b""))
    assert len({before, after_text, version(corpus)}) == 3


def test_the_search_index_carries_the_cards_a_question_may_name(client, files):
    ix = _offline_index(client, files)
    cards = ix["carte"]
    lines = cards["schede"].split("\n")
    assert len(lines) == len(cards["regole"].split()) > 30_000
    # «rest», «peace»: words of the rules, but no rule says «rest in peace»; «riposa» is no word of the rules
    assert "i1Rest in Peace|1Riposa in Pace" in lines
    assert "i2Serra Angel|1Angelo di Serra" in lines  # an example of the rules says «Serra Angel»
    assert cards["peso"] == question.W_CARD


def test_an_old_versions_file_is_not_served(client):
    r = client.get("/offline/regole-20200101-0000000000000000.json")
    assert r.status_code == 404 and "altra versione" in r.get_data(as_text=True)


def test_offline_pages_render_in_the_browser_from_the_data(client, files):
    for path, script in (("/offline/regola", "offline.js"), ("/offline/cerca", "ricerca-offline.js")):
        body = client.get(path).get_data(as_text=True)
        assert f'data-dati="{files["dati"]}"' in body and script in body and "radici.js" in body
    page = client.get("/offline/cerca").get_data(as_text=True)
    assert "la stessa correzione dei refusi" in page and "senza correzione dei refusi" not in page
    assert page.index("ortografia.js") < page.index("ricerca-offline.js")
    # The syntax and the phrases (static/js/sintassi.js, frasi.js) before the search that uses them.
    assert page.index("sintassi.js") < page.index("frasi.js") < page.index("ricerca-offline.js")
    assert "<kbd>NOT</kbd>" in page and "senza frasi" not in page
    body = client.get("/offline/glossario").get_data(as_text=True)
    assert "/offline/glossario-" in body and "ricerca-offline.js" in body


@pytest.mark.parametrize("page, title", [("carte", "Carte"), ("simulatore", "Simulatore"),
                                         ("collega", "Collega le citazioni"), ("pagina", "Pagina non disponibile")])
def test_pages_that_need_the_network_have_a_fallback_that_says_what_works(client, files, page, title):
    url = f"/offline/senza-rete/{page}"
    assert url in files["file"] and (url in files["senza_rete"] or url == files["altrove"])
    body = client.get(url).get_data(as_text=True)
    assert f"<title>{title} (senza rete) · judge</title>" in body and f"<h1>{title}: serve la rete</h1>" in body
    assert "Che cosa funziona senza rete" in body and 'href="/glossario"' in body


def _cache_without_the_copy(tmp_path, monkeypatch) -> Path:
    """This run's build cache (corpus, checks, index) linked into a new folder, without the offline
    copy: a machine where nothing built the copy yet, at no cost of rebuilding the rest."""
    fresh = tmp_path / "cache"
    shutil.copytree(build_cache.folder(), fresh, copy_function=os.link,
                    ignore=shutil.ignore_patterns("copia-offline"))
    monkeypatch.setenv(build_cache.ENV, str(fresh))  # read by this process and the builder it starts
    return fresh


def test_a_server_without_warm_up_builds_the_copy_in_another_process(tmp_path, corpus, monkeypatch):
    """No files yet: pages don't install the copy (stato says so), a data file answers 503, and the
    files appear, built by a separate process, without the server building them in a thread."""
    import time

    _cache_without_the_copy(tmp_path, monkeypatch)
    app = create_app({"INSTANCE_PATH": str(tmp_path / "istanza"), "TESTING": True, "SECRET_KEY": "t"})
    client = app.test_client()
    first = client.get("/offline/stato").get_json()
    assert first == {"pronta": False, "versione": version(corpus), "edizione": corpus.in_force.id}
    r = client.get(f"/offline/regole-{version(corpus)}.json")
    assert r.status_code == 503 and r.headers["Retry-After"] == "60"
    deadline = time.monotonic() + 300
    while not client.get("/offline/stato").get_json()["pronta"]:
        assert time.monotonic() < deadline, "copia offline non costruita"
        time.sleep(0.5)
    assert client.get(f"/offline/regole-{version(corpus)}.json").status_code == 200


def test_the_copy_is_built_once_per_machine_and_linked_into_each_instance(tmp_path, corpus, monkeypatch):
    """Built once in the build cache: a second server on another instance folder has the copy at
    once (no build, no process: the same files, linked), and says so on its first /offline/stato."""
    fresh = _cache_without_the_copy(tmp_path, monkeypatch)
    build_all(tmp_path / "uno", corpus)                              # what the first builder does
    entries = [p for p in (fresh / "copia-offline").iterdir() if p.is_dir()]
    assert len(entries) == 1
    second = create_app({"INSTANCE_PATH": str(tmp_path / "due"), "TESTING": True, "SECRET_KEY": "t"})
    assert second.test_client().get("/offline/stato").get_json()["pronta"] is True
    names = sorted(p.name for p in entries[0].iterdir())
    assert len(names) == 9 and names == sorted(p.name for p in (tmp_path / "due" / "offline").iterdir())
    for name in names:
        assert (tmp_path / "due" / "offline" / name).stat().st_ino == (entries[0] / name).stat().st_ino
    r = second.test_client().get(f"/offline/regole-{version(corpus)}.json")
    assert r.status_code == 200 and json.loads(r.get_data())["versione"] == version(corpus)


def test_an_instance_folder_that_cannot_be_written_answers_without_the_copy(tmp_path, corpus, monkeypatch):
    fresh = _cache_without_the_copy(tmp_path, monkeypatch)
    build_all(tmp_path / "uno", corpus)                              # the copy is in the cache
    assert (fresh / "copia-offline").is_dir()
    blocked = tmp_path / "bloccata"
    blocked.mkdir()
    (blocked / "offline").write_text("not a folder")                # nothing can be linked in there
    app = create_app({"INSTANCE_PATH": str(blocked), "TESTING": True, "SECRET_KEY": "t"})
    r = app.test_client().get("/offline/stato")
    assert r.status_code == 200 and r.get_json()["pronta"] is False
    r = app.test_client().get(f"/offline/regole-{version(corpus)}.json")
    assert r.status_code == 503 and "in preparazione" in r.get_data(as_text=True)
