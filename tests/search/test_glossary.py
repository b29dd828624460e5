import re

from judge.corpus.citations import find_citations
from judge.corpus.terminology import load_terminology
from judge.search.analysis import fold
from judge.search.glossary import (
    GLOSSARY_FILE, Glossary, Jargon, get_glossary, glossary_entries, jargon_of, load_glossary, terminology_pairs,
)


def test_file_has_header_and_enough_pairs():
    lines = [ln for ln in GLOSSARY_FILE.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    assert lines[0].split("\t")[:2] == ["italiano", "inglese"]
    rows = load_glossary()
    assert len(rows) >= 100
    assert all(e.italian and e.english for e in rows)
    assert len({(e.italian.lower(), e.english.lower()) for e in rows}) == len(rows), "duplicate rows"
    assert len(glossary_entries()) >= 400


def test_one_terminology_table_no_pair_defined_twice():
    """glossario.tsv holds only what rules_it/terminologia.tsv does not: the same pair is never in both."""
    table = {(fold(e.italian), fold(e.english)) for e in terminology_pairs(load_terminology())}
    twice = [(e.italian, e.english) for e in load_glossary() if (fold(e.italian), fold(e.english)) in table]
    assert twice == []


def test_search_expands_with_the_terminology_table():
    g = get_glossary()
    for it, en in [("intermittenza", "phasing"), ("manovrare", "crew"), ("cangiante", "changeling"), ("egida", "ward"),
                   ("grimorio", "library"), ("travolgere", "trample")]:
        [(_, _, ids)] = g.match([fold(w) for w in it.split()])
        assert any(en in g.concepts[i].english for i in ids), (it, en)


def test_required_pairs_present():
    pairs = {(fold(e.italian), fold(e.english)) for e in glossary_entries()}
    for it, en in [
        ("stap", "untap"), ("grimorio", "library"), ("pila", "stack"), ("cancellazione", "cleanup"),
        ("mantenimento", "upkeep"), ("azioni generate dallo stato", "state-based actions"),
        ("azioni generate dallo stato", "sba"),
    ]:
        assert (it, en) in pairs
    jargon = {fold(e.english) for e in load_glossary()}  # jargon lives in glossario.tsv
    assert {"etb", "apnap", "ltb", "eot", "cmc"} <= jargon


def test_concepts_join_rows_that_share_a_term():
    g = get_glossary()
    sba = [c for c in g.concepts if "SBA" in c.english]
    assert len(sba) == 1
    assert "state-based actions" in sba[0].english and "azioni generate dallo stato" in sba[0].italian


def test_no_runaway_concepts():
    # Rows chained through a shared word would merge unrelated ideas; keep concepts small.
    assert max(len(c.all_terms) for c in get_glossary().concepts) <= 8


def test_italian_terms_come_from_our_italian_texts(corpus):
    italian_text = " ".join(
        fold(t.text) for r in corpus.rules.values() for t in [r.it] if t is not None
    )
    entries = glossary_entries()
    found = sum(1 for e in entries if fold(e.italian) in italian_text)
    assert found / len(entries) >= 0.3


def test_matching_is_by_stems_and_prefers_longest_terms():
    g = get_glossary()
    ws = ["le", "azioni", "generate", "dallo", "stato"]
    [(start, end, ids)] = g.match(ws)
    assert (start, end) == (1, 5)
    assert any("SBA" in g.concepts[i].english for i in ids)
    # Inflected forms match too.
    assert g.match(["azione", "generata", "dallo", "stato"])


def test_parser_tolerates_odd_lines(tmp_path):
    p = tmp_path / "g.tsv"
    p.write_text("# comment\nitaliano\tinglese\tnota\n\nsolo una colonna\npila\tstack\n\t\n", encoding="utf-8")
    assert [(e.italian, e.english, e.note) for e in load_glossary(p)] == [("pila", "stack", "")]


def test_number_words_find_the_digits_the_rules_write(engine):
    # The rules write "loyalty 0" / "fedeltà 0"; players write "zero".
    top = [h.number for h in engine.search("planeswalker con fedeltà zero").hits[:5]]
    assert "704.5i" in top
    top = [h.number for h in engine.search("creatura con costituzione zero").hits[:5]]
    assert "704.5f" in top


def test_jargon_rows_say_which_term_is_jargon_and_what_it_means(tmp_path):
    p = tmp_path / "g.tsv"
    p.write_text(
        "italiano\tinglese\tnota\n"
        "azioni generate dallo stato\tSBA\tgergo\n"
        "non si risolve\tfizzle\tgergo: la magia non si risolve (regola 608.2b)\n"
        "saccare\tsacrifice\tgergo italiano: sacrificare\n"
        "grimorio\tlibrary\tnome sulle carte\n",
        encoding="utf-8",
    )
    jargon = [jargon_of(e) for e in load_glossary(p)]
    assert jargon[0] == Jargon("SBA", "azioni generate dallo stato")  # no explanation: the other term
    assert jargon[1] == Jargon("fizzle", "la magia non si risolve (regola 608.2b)")
    assert jargon[2] == Jargon("saccare", "sacrificare")  # the Italian column is the jargon
    assert jargon[3] is None


def test_jargon_is_explained_in_any_form_it_is_typed_and_only_jargon_is():
    g = get_glossary()
    assert [j.term for j in g.jargon(["SBA"])] == ["SBA"]
    assert [j.term for j in g.jargon(["fizza"])] == ["fizzare"]  # inflected Italian jargon
    assert g.jargon(["fizzle"])[0].meaning == g.jargon(["fizzare"])[0].meaning
    assert len(g.jargon(["tutorare"])) == 1  # "tutor" and "tutorare" mean the same: said once
    assert g.jargon(["grimorio vuoto"]) == [] and g.jargon(["azioni generate dallo stato"]) == []


def test_every_rule_a_jargon_explanation_cites_exists(corpus):
    explained = [j for e in load_glossary() if (j := jargon_of(e)) is not None]
    assert len(explained) >= 30 and all(j.meaning.strip() for j in explained)
    # Jargon is what the rules do not name: no jargon term is a term of the Comprehensive Rules' glossary.
    official = {re.sub(r"\s*\(.*?\)", "", t).strip().lower() for t in corpus.glossary}  # "Mana Burn (Obsolete)"
    assert [j.term for j in explained if j.term.lower() in official] == []
    cited = [n for j in explained for c in find_citations(j.meaning) for n in c.numbers]
    assert len(cited) >= 10
    assert [n for n in cited if n not in corpus] == []
