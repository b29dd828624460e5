"""A rule across editions (lineage), citations read in an older edition (pinned), and the
Italian citations that moved vs the Italian rules that are outdated (staleness)."""

from __future__ import annotations

import shutil

import pytest

from judge import RULES_EN_DIR, RULES_IT_DIR
from judge.corpus import load_corpus
from judge.corpus.checks import check
from judge.corpus.pinned import known, resolve
from judge.corpus.staleness import MOVED, UNKNOWN, VALID, quoted_titles, verdict


@pytest.fixture(scope="module")
def old(corpus):
    return corpus.edition("20251114")


@pytest.mark.parametrize("cited,now,status", [
    ("726.1", "727.1", "spostata"),  # Restarting the Game
    ("725.1", "726.1", "spostata"),  # The Initiative
    ("726", "727", "spostata"),
    ("722.1", "723.1", "spostata"),
    ("729.2j", "730.2j", "spostata e modificata"),
    ("723.1a", "724.1a", "spostata"),  # only its citation followed the renumbering: same meaning
    ("104.6", "104.6", "invariata"),  # idem, same number
    ("107.3e", "107.3e", "modificata"),
    ("702.124p", "702.124n", "spostata"),
    ("702.124k", None, "rimossa"),
    ("7", "7", "invariata"),
    ("999.9", None, "inesistente"),
])
def test_follow_a_number_from_the_older_edition(corpus, old, cited, now, status):
    w = corpus.lineage.follow(cited, old)
    assert (w.now, w.status) == (now, status)
    r = resolve(cited, corpus, old)
    assert (r.now, r.status) == (now, status)
    assert (r.notice is None) == (status == "invariata")


def test_notices_say_where_the_rule_is(corpus, old):
    assert resolve("726.1", corpus, old).notice == "726.1 nell'edizione del 14 novembre 2025 è oggi 727.1."
    assert "non esiste più" in resolve("702.124k", corpus, old).notice
    assert "testo modificato" in resolve("729.2j", corpus, old).notice
    # Read in the edition in force, a number is itself.
    assert resolve("726.1", corpus).now == "726.1" and resolve("726.1", corpus).notice is None


def test_history_follows_the_rule_across_numbers(corpus):
    versions = corpus.lineage.history("727.1")
    # Restarting the Game moved when Preparation Cards (722) came in, on 17 April 2026.
    assert [(v.edition.id, v.number) for v in versions] == [
        ("20251114", "726.1"), ("20260116", "726.1"), ("20260227", "726.1"),
        ("20260417", "727.1"), ("20260619", "727.1"), ("20260925", "727.1")]
    # Until then the number 727.1 meant another rule (Rad Counters), today 728.1.
    assert all(v.homonym and v.homonym_now == "728.1" for v in versions[:3])
    assert [v.step.kind for v in versions[1:]] == ["invariata", "invariata", "spostata", "invariata", "invariata"]
    assert [v.number for v in corpus.lineage.history("722.1")] == [None, None, None, "722.1", "722.1", "722.1"]


def test_known_numbers_include_older_editions(corpus):
    test = known(corpus)
    assert test("704.5a") and test("702.124p") and test("7") and not test("999.9") and not test("192.168")


def test_quoted_titles():
    text = 'finché il processo non viene invertito (vedi regola 730, "Gestione delle azioni illegali"). Vedi 701.25.'
    assert quoted_titles(text) == {"730": "Gestione delle azioni illegali"}
    assert quoted_titles("See rule 733, “Handling Illegal Actions.”") == {"733": "Handling Illegal Actions"}


def test_verdicts_on_the_real_italian_texts(corpus):
    # 507.2: the Italian cites 603 with its title, and 603 is still that section: the Italian text is outdated.
    assert verdict(corpus, "603", "Gestione delle Abilità Innescate", ["117"]) == (VALID, "603")
    # 121.8: Handling Illegal Actions was 730 for the Italian, it is 733 today.
    assert verdict(corpus, "730", "Gestione delle azioni illegali", ["601.2i", "733"]) == (MOVED, "733")
    # 703.4g: an English title quoted in the Italian text names the rule today (701.52).
    assert verdict(corpus, "701.49", "Roll to visit your attractions", ["701.52"]) == (MOVED, "701.52")
    # No title and no trace evidence: unknown, the wording stays a hedge.
    assert verdict(corpus, "500.4", None, ["500.5"]) == (UNKNOWN, None)


def test_507_2_is_outdated_italian_not_a_stale_citation(corpus):
    rule = corpus.get("507.2")
    codes = [o.code for o in rule.community_outdated]
    assert codes == ["italiano-superato"]
    finding = next(f for f in check(corpus) if f.rule == "507.2" and f.code == "italiano-superato")
    assert "603" in finding.message and "117" in finding.message
    assert "probabilmente" not in finding.message and "cita 117" in finding.message
    assert finding.related == ("603",)


def test_moved_citations_name_the_number_today(corpus):
    findings = {(f.rule, f.code): f for f in check(corpus)}
    f = findings[("121.8", "citazione-obsoleta")]
    assert f.related == ("733",) and "730 è oggi 733" in f.message
    assert findings[("703.4g", "citazione-obsoleta")].related == ("701.52",)
    hedge = findings[("703.4q", "citazione-obsoleta")]
    assert "probabilmente" in hedge.message and hedge.related == ("500.5",)


def _planted(tmp_path, old: str, new: str):
    it = tmp_path / "rules_it"
    shutil.copytree(RULES_IT_DIR, it)
    path = it / "121.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_corpus(it, RULES_EN_DIR, max_age=0)


def test_the_trace_tells_a_moved_citation_without_a_title(tmp_path):
    """An Italian text written under 20251114 cites 732 (Handling Illegal Actions then): the trace
    takes it to 733, which the English cites."""
    corpus = _planted(tmp_path, '(vedi regola 730, "Gestione delle azioni illegali")', "(vedi regola 732)")
    (why,) = [o for o in corpus.get("121.8").community_outdated if o.code == "citazione-obsoleta"]
    assert why.only_it == ("732",) and why.now == ("733",)


def test_a_title_that_still_names_the_cited_number_makes_the_italian_outdated(tmp_path):
    corpus = _planted(tmp_path, '(vedi regola 730, "Gestione delle azioni illegali")',
                      '(vedi regola 730, "Amalgamare con permanenti")')
    codes = {o.code: o for o in corpus.get("121.8").community_outdated}
    assert "italiano-superato" in codes and "citazione-obsoleta" not in codes
    assert codes["italiano-superato"].only_it == ("730",)
