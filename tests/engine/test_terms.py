"""The engine names things as the terminology table does (rules_it/terminologia.tsv): its
name tables are the table's, its log uses the table's words (shuffle is «rimescolare», so
the log says «rimescola»), and no module keeps a private dictionary of names beside them.
The table is read here again, independently of the engine."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from judge.corpus.terminology import italian_form_pattern, load_terminology
from judge.engine import Game, terms
from judge.engine.characteristics import keywords
from judge.engine.characteristics.keywords import NAMES as KEYWORDS
from judge.engine.play.library import verify
from judge.engine.registry import ACTIONS, EFFECTS, SBAS, TBAS
from judge.engine.scenario.templates import new_scenario
from judge.engine.state import CARD_LISTS, CARD_TYPES, MANA, SECTORS, ZONES

TABLE = load_terminology()
ENGINE = Path(terms.__file__).parent
LIBRARY = sorted((ENGINE.parents[1] / "scenarios").glob("*.json"))


def table(term: str) -> str:
    it = TABLE.italian(term)
    assert it is not None, f"«{term}» manca nella tabella"
    return it


def stem(infinitive: str) -> str:
    """«rimescolare» → «rimescol», «avventurarsi nel dungeon» → «avventur»: what every form of
    the verb starts with."""
    verb = infinitive.split()[0].lower()
    return re.sub(r"(are|ere|ire)$", "", re.sub(r"(a|e|i)rsi$", r"\1re", verb))


def test_the_engines_names_are_the_tables():
    assert set(terms.ZONE_TERMS) == {*ZONES, *CARD_LISTS, "battlefield", "stack"}
    assert terms.ZONE_IT == {z: table(t) for z, t in terms.ZONE_TERMS.items()}
    assert {k: keywords.KEYWORD_IT[k] for k in KEYWORDS} == {k: table(k) for k in KEYWORDS}
    for kind in keywords.LANDWALKS:                              # «passa-isole»
        assert keywords.italian(kind) == table(kind)
    assert terms.TYPE_IT == {t: table(t) for t in CARD_TYPES}
    assert terms.MANA_IT == {m: table(terms.MANA_TERMS[m]) for m in MANA}
    assert terms.SECTOR_IT == {s: table(s) for s in SECTORS}
    assert terms.COUNTER_IT == {k: table(t).removeprefix("segnalino ")
                                for k, t in terms.COUNTER_TERMS.items()}
    assert terms.TWO_HEADED_GIANT == table("Two-Headed Giant")
    assert terms.ZONE_IT["exile"] == table("exile")                # not «zona di esilio»


def test_the_log_verbs_are_the_tables_verbs():
    for kind, term in terms.VERB_TERMS.items():
        assert re.search(italian_form_pattern(stem(table(term))), terms.verb(term).lower()), kind
    assert terms.verb("shuffle") == "rimescola" and terms.done("tap") == "TAPpato"
    assert terms.third_person("avventurarsi nel dungeon") == "si avventura nel dungeon"
    assert terms.third_person("esplorare il dungeon") == "esplora il dungeon"
    assert terms.third_person("concedere") == "concede"
    with pytest.raises(ValueError):
        terms.third_person("esilio")
    with pytest.raises(LookupError):
        terms.italian("no such term")


def test_zone_names_take_their_article():
    assert terms.zone("da", "exile") == "dall'" + table("exile")
    assert terms.zone("a", "graveyard") == "al " + table("graveyard")
    assert terms.zone("in", "hand") == "nella " + table("hand")
    assert terms.zone("in", "battlefield") == "sul " + table("battlefield")
    assert terms.zone("in", "command") == "nella " + table("command zone")


# --- no private dictionaries ---------------------------------------------------------------

NAMED = {*ZONES, *CARD_LISTS, "battlefield", "stack", *KEYWORDS, *CARD_TYPES, *MANA, *SECTORS,
         *terms.COUNTER_TERMS}


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_private_table_of_names(path):
    """A dict from two or more things the engine names (zones, keywords, types, colours,
    sectors, counters) to texts is a name table: only terms.py has them, from the table."""
    if path.name == "terms.py":
        return
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict) and node.keys and all(isinstance(k, ast.Constant) for k in node.keys):
            keys = [k.value for k in node.keys]
            named = [k for k in keys if k in NAMED]
            assert not (len(named) >= 2 and all(_is_text(v) for v in node.values)), \
                f"{path.name}:{node.lineno}: nomi italiani di {named} fuori da terms.py"


# --- the words of the log --------------------------------------------------------------------

def _board() -> dict:
    d = new_scenario("two-player", title="Parole del registro")
    d["battlefield"] = [
        {"id": "orso", "name": "Orso", "types": ["creature"], "power": 2, "toughness": 2, "controller": "p1"},
        {"id": "spada", "name": "Spada", "types": ["artifact"], "subtypes": ["Equipment"], "controller": "p1"},
        {"id": "jace", "name": "Jace", "types": ["planeswalker"], "controller": "p2", "counters": {"loyalty": 3}},
    ]
    d["players"][0]["hand"] = [{"id": "h1", "name": "Fulmine", "types": ["instant"]},
                               {"id": "h2", "name": "Shock", "types": ["instant"]}]
    d["players"][1]["graveyard"] = [{"id": "g1", "name": "Cadavere", "types": ["creature"],
                                     "power": 1, "toughness": 1}]
    return d


JUDGE_ACTIONS = [
    ("shuffle", {"player": "p2"}), ("draw", {"player": "p1", "count": 2}),
    ("discard", {"player": "p1", "cards": ["h1"]}), ("mill", {"player": "p2", "count": 2}),
    ("tap", {"object": "orso"}), ("untap", {"object": "orso"}),
    ("goad", {"object": "orso", "player": "p2"}),
    ("attach", {"object": "spada", "to": "orso"}), ("cast_spell", {"player": "p1", "card": "h2"}),
    ("move", {"object": "g1", "zone": "exile"}), ("move", {"object": "g1", "zone": "hand"}),
    ("move", {"object": "g1", "zone": "battlefield"}), ("move", {"object": "orso", "zone": "library"}),
    ("until_end_of_turn", {"object": "jace", "keywords": ["flying", "first strike"]}),
    ("add_counters", {"target": "jace", "kind": "loyalty", "count": 2}),
    ("remove_counters", {"target": "jace", "kind": "loyalty", "count": 1}),
    ("sacrifice", {"object": "spada"}), ("venture", {"player": "p2", "undercity": True}),
    ("add_mana", {"player": "p1", "mana": {"R": 2}}),
]


@pytest.fixture(scope="module")
def log() -> list:
    """The events of every library scenario and of the judge actions above."""
    events = []
    for path in LIBRARY:
        events += verify(json.loads(path.read_text(encoding="utf-8")))[1]
    game = Game.from_dict(_board())
    for name, params in JUDGE_ACTIONS:
        events += game.act(name, **params)
    events += game.step_to("cleanup")                # the mana pool empties (mana names)
    return events


def test_the_log_says_each_action_with_the_tables_verb(log):
    kinds = {e.kind for e in log}
    assert set(terms.VERB_TERMS) <= kinds
    for e in log:
        if e.kind in terms.VERB_TERMS:
            word = stem(table(terms.VERB_TERMS[e.kind]))
            assert re.search(italian_form_pattern(word), e.text.lower()), (e.kind, e.text)


def test_the_log_names_zones_keywords_and_counters_as_the_table(log):
    moves = [e for e in log if e.kind == "move"]
    assert {e.data["source_zone"] for e in moves} >= {"graveyard", "exile", "hand", "battlefield"}
    for e in moves:
        for z in (e.data["source_zone"], e.data["zone"]):
            assert table(terms.ZONE_TERMS[z]) in e.text, e.text
    effect = next(e for e in log if e.kind == "effect" and "Jace" in e.text)
    assert table("flying") in effect.text and table("first strike") in effect.text
    counters = [e for e in log if e.kind == "counters" and "Jace" in e.text]
    assert counters and all(table("loyalty") in e.text for e in counters)
    empty = next(e for e in log if e.kind == "mana_empty")
    assert table("red") in empty.text


def test_nothing_the_engine_says_uses_a_word_the_table_avoids(log):
    texts = [e.text for e in log]
    texts += [f.summary for reg in (ACTIONS, SBAS, TBAS, EFFECTS) for f in reg.values()]
    for path in LIBRARY:
        data = json.loads(path.read_text(encoding="utf-8"))
        texts += [data[k] for k in ("title", "description", "question", "answer") if k in data]
    for text in texts:
        for term in TABLE:
            assert term.avoided_in(text) is None, (term.term, text)
