"""Every scenario of the project's library opens in the stepper and in the builder, and the
rule pages link to the scenarios that exercise them."""

from __future__ import annotations

import re

import pytest

from judge.web import create_app, library

from .conftest import TOKEN_RE

ENTRIES = library.library()


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    app = create_app({"INSTANCE_PATH": str(tmp_path_factory.mktemp("lib")), "TESTING": True,
                      "SECRET_KEY": "t"})
    c = app.test_client()
    tok = TOKEN_RE.search(c.get("/simulatore").get_data(as_text=True)).group(1)
    return c, tok


@pytest.mark.skipif(not ENTRIES, reason="libreria vuota")
@pytest.mark.parametrize("slug", [e.slug for e in ENTRIES])
def test_library_scenario_runs_in_the_stepper(real, slug):
    c, tok = real
    r = c.get(f"/simulatore/libreria/{slug}/avvia")
    assert r.status_code == 303
    g = r.location
    for _ in range(4):                       # a few turns, taking every default decision
        html = c.get(g).get_data(as_text=True)
        if 'class="sc-result"' in html:
            break
        r = c.post(g, data={"csrf_token": tok,
                            "azione": "predefinita" if 'id="sc-dec-h"' in html else "turno"})
        assert r.status_code == 303, re.findall(r'id="sc-errore">(.*?)</div>', r.get_data(as_text=True), re.S)
        g = r.location
    html = c.get(g).get_data(as_text=True)
    assert 'class="sc-rule' in html                         # the log cites rules
    r = c.get(g + "/modifica")
    assert c.get(r.location).status_code == 200             # the state opens in the builder
    assert c.get(f"/simulatore/libreria/{slug}").status_code == 303


@pytest.mark.skipif(not ENTRIES, reason="libreria vuota")
def test_rule_page_lists_library_scenarios(real):
    c, _ = real
    entry = next(e for e in ENTRIES if e.rules)
    number = entry.rules[0]
    html = c.get(f"/regole/{number}").get_data(as_text=True)
    assert "Prova nel simulatore" in html
    assert f'href="/simulatore/libreria/{entry.slug}/avvia"' in html
    assert "Prova nel simulatore" not in c.get("/regole/100.1").get_data(as_text=True) or \
        library.scenarios_for_rule("100.1")
