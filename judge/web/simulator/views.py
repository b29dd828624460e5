"""What the stepper page shows, computed from the engine's state: the board, the pending
decision, the judge-action panel and, for a library scenario, its question and whether the
board has reached the expected outcome."""

from __future__ import annotations

import json
from typing import Any, Mapping

from judge.cards import types_it
from judge.corpus import load_corpus
from judge.engine import italian, seats
from judge.engine.characteristics import derived, explain
from judge.engine.play.game import ANYTIME_ACTIONS
from judge.engine.play.library import check_state
from judge.engine.scenario.expected import state_problems
from judge.engine.state import CARD_LISTS
from judge.engine.terms import SECTOR_IT
from judge.web.simulator import actions as acts
from judge.web.simulator import forms


def english_type_line(c) -> str:
    """A permanent's type line in English, as its card prints it («Legendary Creature — Bear»),
    from its characteristics as the layers computed them (613)."""
    left = " ".join(t.capitalize() for t in (*c.supertypes, *c.types))
    return f"{left} — {' '.join(c.subtypes)}" if c.subtypes else left


def board(game) -> dict:
    """The board: players with their permanents and the marks of their state, the stack."""
    st = game.state
    corpus = load_corpus()
    cb = st.combat
    attacking = {a["id"]: a for a in (cb.attackers if cb else [])}
    blocking = {b["id"]: b["blocking"] for b in (cb.blockers if cb else [])}
    perms = []
    why = explain.explain_board(st)
    effects = {e.id: e for e in st.effects}
    for p in st.battlefield:
        c = derived.ch(st, p)
        badges = []
        if p.tapped:
            badges.append(("tap", "TAPpato"))
        if p.summoning_sick and "creature" in c.types:
            badges.append(("sick", "debolezza da evocazione"))
        if p.phased_out:
            badges.append(("phased", "fuori fase"))
        if p.damage:
            badges.append(("damage", f"danno {p.damage}"))
        for k, n in p.counters.items():
            if n:
                badges.append(("counter", f"{n} × {forms.COUNTERS_IT.get(k, k)}"))
        if p.id in attacking:
            t = attacking[p.id]["target"]
            badges.append(("attack", f"attacca {st.name_of(t) if t else '—'}"
                           + (" (bloccata)" if attacking[p.id].get("blocked") else "")))
        if p.id in blocking:
            badges.append(("block", "blocca " + ", ".join(st.name_of(x) for x in blocking[p.id])))
        if p.attached_to:
            badges.append(("attached", f"assegnato a {st.name_of(p.attached_to)}"))
        if p.face_down:
            badges.append(("face-down", "a faccia in giù"))
        if "battle" in c.types:
            badges.append(("protector", f"protettore: {st.name_of(p.protector) if p.protector else 'nessuno'}"))
        if p.sector:
            badges.append(("sector", f"settore {SECTOR_IT.get(p.sector, p.sector)}"))
        if p.copy:
            badges.append(("copy", "copia"))
        if p.goaded_by:
            badges.append(("goad", "spronata da " + ", ".join(st.name_of(x) for x in p.goaded_by)))
        ctl = c.controller or p.controller
        perms.append({
            "p": p, "c": c, "controller": ctl,
            "pt": f"{c.power or 0}/{c.toughness or 0}" if "creature" in c.types else "",
            "name": c.name if c.name and c.name != p.name else "",
            "types": types_it.italian_type_line(list(c.types), list(c.supertypes),
                                                list(c.subtypes), corpus)
                     + (" (ogni tipo di creatura)" if c.every_creature_type else ""),
            "types_en": english_type_line(c),
            "keywords": explain.value_it(st, "abilities", c.abilities, effects) if c.abilities else "",
            "badges": badges, "why": why.get(p.id),
            "attacking": p.id in attacking, "blocking": p.id in blocking,
            "owner_note": (f"di {st.name_of(p.owner)}" if p.owner != ctl else ""),
        })
    players = []
    for pl in st.players:
        pool = ", ".join(f"{n} {forms.MANA_IT.get(k, k)}" for k, n in pl.mana_pool.items() if n)
        cmd = [(st.name_of(c), n) for c, n in pl.commander_damage.items() if n]
        players.append({"pl": pl, "active": pl.id == st.turn.active_player,
                        "perms": [x for x in perms if x["controller"] == pl.id],
                        "monarch": st.monarch == pl.id, "initiative": st.initiative == pl.id,
                        "planar": st.options.get("planechase") and seats.planar_controller(st) == pl.id,
                        "pool": pool, "commander_damage": cmd})
    waiting = [(t["text"], st.name_of(t["controller"])) for t in st.waiting_triggers]
    return {"players": players, "stack": list(reversed(st.stack)), "waiting": waiting, "state": st,
            "notes": explain.notes(st),
            "rules": sorted({r for x in why.values() for row in x["rows"] for r in row["rules"]}
                            | {r for x in why.values() for r in x["rules"]}
                            | {r for n in explain.notes(st) for r in n["rules"]})}


def decision_view(game) -> dict | None:
    p = game.pending
    if p is None:
        return None
    st = game.state
    # Names as the log writes them: a permanent whose name another shares, with its controller.
    labels = italian.battlefield_labels(st)
    names = {}
    options = p.get("options") or {}
    for o in options.get("creatures") or []:
        names[o["id"]] = labels.get(o["id"], st.name_of(o["id"]))
        for key in ("targets", "can_block", "recipients"):
            for t in o.get(key) or []:
                names[t] = labels.get(t, st.name_of(t))
    for key in ("attackers", "cannot_block", "cannot_attack"):
        for o in options.get(key) or []:
            names[o["id"]] = labels.get(o["id"], st.name_of(o["id"]))
    for o in options.get("creatures") or []:
        for x in o.get("cannot_block") or []:
            names[x["id"]] = labels.get(x["id"], st.name_of(x["id"]))
    return {"p": p, "names": names, "player_name": st.name_of(p.get("player")),
            "default_json": json.dumps(p.get("default"), ensure_ascii=False),
            "sectors": SECTOR_IT}


# --- the judge-action panel -----------------------------------------------------------------

def judge_panel(game, args: Mapping[str, str], sel: Mapping[str, Any] | None,
                field_errors: dict[str, list[str]] | None) -> dict:
    """The panel's state: the catalog, the chosen action's form (``?giudice=name``), the
    actions for an object or player picked on the board (``?oggetto=id``)."""
    st = game.state
    name = (sel.get("nome") if sel is not None and sel.get("azione") == "giudice" else None) \
        or args.get("giudice", "")
    spec = acts.spec_for(name) if name in acts.ACTIONS else None
    picked = args.get("oggetto", "")
    what = acts.what_is(st, picked) if picked else None
    if what is None:
        picked = ""
    values: dict[str, Any] = {}
    if spec is not None:
        values = _form_values(spec, st, sel, picked, what)
    return {
        "catalog": acts.catalog(), "spec": spec, "values": values,
        "errors": field_errors or {}, "options": acts.board_options(st) if spec else {},
        "picked": picked, "picked_name": st.name_of(picked) if picked else "",
        "picked_actions": acts.actions_for(st, picked) if picked else [],
        "open": bool(spec or picked), "zones": acts.MOVE_ZONES, "zone_labels": acts.ZONE_LABELS,
        "counter_names": [forms.COUNTERS_IT.get(k, k) for k in acts.COUNTER_SUGGESTIONS],
        "keywords": forms.keyword_suggestions(),
        "types": [(k, forms.TYPES_IT.get(k, k)) for k in acts.CARD_TYPES],
        "supertypes": [(k, forms.SUPERTYPES_IT.get(k, k)) for k in acts.SUPERTYPES],
        "mana": [(m, forms.MANA_IT[m]) for m in acts.MANA],
        "field": acts.field_name, "anytime": ANYTIME_ACTIONS,
    }


def _form_values(spec, st, sel, picked: str, what: str | None) -> dict[str, Any]:
    """Field name → value to show: what was submitted, else the pick, else a default."""
    if sel is not None:
        return {k: (sel.getlist(k) if hasattr(sel, "getlist") and len(sel.getlist(k)) > 1
                    else sel.get(k)) for k in sel}
    out: dict[str, Any] = {}
    filled = False
    for p in spec.params:
        f = acts.field_name(0, p.name)
        if what and not filled and what in acts.ACCEPTS.get(p.kind, ()):
            out[f] = picked
            filled = True
        elif p.kind == "player" and p.required:       # an optional one has its own default
            out[f] = st.turn.active_player
        elif p.kind == "int" and p.default:
            out[f] = str(p.default)
        elif p.kind == "zone" and p.required:
            out[f] = "graveyard"
    return out


# --- library scenarios: the question and the expected outcome -------------------------------------

def lesson(game, scenario: dict) -> dict | None:
    """The question a (library) scenario asks, its rules, its answer, the expected state in
    words and whether the board now matches it."""
    extra = game.state.extra
    question = extra.get("question")
    if not question:
        return None
    exp = extra.get("expected") if isinstance(extra.get("expected"), dict) else {}
    state = exp.get("state") or {}
    if state_problems(state, [p.id for p in game.state.players]):
        state = {}                   # an imported file's malformed block: nothing to show or check
    reached = bool(state) and not check_state(game, state)
    return {"question": question, "answer": extra.get("answer", ""),
            "rules": [r for r in extra.get("rules") or [] if isinstance(r, str)],
            "expected": expected_lines(game.state, state, scenario), "reached": reached}


def _names(st, scenario: dict) -> dict[str, str]:
    """Names of every player and object of the starting scenario (objects may have left)."""
    out: dict[str, str] = {}
    for p in scenario.get("players") or []:
        if isinstance(p, dict):
            out[str(p.get("id"))] = str(p.get("name", p.get("id")))
            for z in CARD_LISTS:
                for c in p.get(z) or []:
                    if isinstance(c, dict):
                        out[str(c.get("id"))] = str(c.get("name", c.get("id")))
    for c in scenario.get("battlefield") or []:
        if isinstance(c, dict):
            out[str(c.get("id"))] = str(c.get("name", c.get("id")))
    for oid in list(out):
        cur = st.name_of(oid)
        if cur != oid:
            out[oid] = cur
    return out


def expected_lines(st, exp: dict, scenario: dict) -> list[str]:
    """An ``expected.state`` block in Italian, one line per check."""
    names = _names(st, scenario)

    def n(x: Any) -> str:
        return names.get(str(x), str(x))

    def many(ids) -> str:
        return ", ".join(n(x) for x in ids) or "nessuno"

    def mana(pool: dict) -> str:
        return ", ".join(f"{k} {forms.MANA_IT.get(m, m)}" for m, k in pool.items()) or "vuota"

    def attached(to: Any) -> str:
        return f"assegnato a {n(to)}" if to else "non assegnato a niente"

    def counters(c: dict) -> str:
        return forms.counters_text(c) or "nessuno"

    def tapped(v: Any) -> str:
        return "TAPpato" if v else "STAPpato"

    def same(v: Any) -> Any:
        return v

    def speed(v: Any) -> Any:
        return "nessuna" if v is None else v

    def dungeons(v: Any) -> str:
        return ", ".join(map(str, v)) or "nessuno"

    def sector(v: Any) -> str:
        return SECTOR_IT.get(v, "nessuno") if v else "nessuno"

    # per player or per object: the key, the sentence, how its value reads
    per_id = (("life", "Punti vita di {}: {}", same), ("poison", "Segnalini veleno di {}: {}", same),
              ("hand_size", "Carte in mano a {}: {}", same), ("mana_pool", "Riserva di mana di {}: {}", mana),
              ("speed", "Velocità di {}: {}", speed),
              ("completed_dungeons", "Dungeon completati da {}: {}", dungeons),
              ("counters", "Segnalini su {}: {}", counters), ("damage", "Danno segnato su {}: {}", same),
              ("tapped", "{}: {}", tapped), ("attached_to", "{}: {}", attached),
              ("controller", "Controllore di {}: {}", n), ("protector", "Protettore di {}: {}", n),
              ("sector", "Settore di {}: {}", sector))
    lines = [text.format(n(k), show(v)) for key, text, show in per_id
             for k, v in (exp.get(key) or {}).items()]
    if "battlefield" in exp:
        lines.append(f"Sul campo di battaglia: {many(exp['battlefield'])}")
    if exp.get("not_battlefield"):
        lines.append(f"Non più sul campo di battaglia: {many(exp['not_battlefield'])}")
    for key, ids in (exp.get("zones") or {}).items():
        pid, _, zone = str(key).partition(".")
        lines.append(f"{acts.ZONE_LABELS.get(zone, zone)} di {n(pid)}: {many(ids)}")
    for oid in exp.get("phased_out") or []:
        lines.append(f"{n(oid)}: fuori fase")
    if "lost" in exp:
        lines.append(f"Hanno perso la partita: {many(exp['lost'])}")
    if "result" in exp:
        r = exp["result"] or {}
        if r.get("draw"):
            lines.append("La partita finisce in pareggio")
        elif r.get("winners"):
            lines.append(f"Vince la partita: {many(r['winners'])}")
        else:
            lines.append("La partita continua")
    if "turn" in exp:
        lines.append(f"Turno {exp['turn']}")
    if "step" in exp:
        lines.append(f"Momento del turno: {forms.STEPS_IT.get(exp['step'], exp['step'])}")
    if "active_player" in exp:
        lines.append(f"Giocatore attivo: {n(exp['active_player'])}")
    if "day_night" in exp:
        lines.append({"day": "È giorno", "night": "È notte"}.get(exp["day_night"], "Né giorno né notte"))
    for key, label in (("monarch", "Monarca"), ("initiative", "Ha l'iniziativa"),
                       ("planar_controller", "Controllore planare")):
        if key in exp:
            lines.append(f"{label}: {n(exp[key]) if exp[key] else 'nessuno'}")
    if "stack" in exp:
        lines.append("In pila, dal fondo alla cima: " + (", ".join(f"«{t}»" for t in exp["stack"])
                                                        or "niente"))
    return lines + _layer_lines(st, exp, n)


def _layer_lines(st, exp: dict, n) -> list[str]:
    """The characteristics (613) an ``expected.state`` block checks, in Italian."""
    effects = {e.id: e for e in st.effects}
    labels = {e.id: (e.card or e.text or e.id) for e in st.effects}
    lines = []
    for oid, chars in (exp.get("characteristics") or {}).items():
        if not isinstance(chars, dict):
            lines.append(f"{n(oid)}: non sul campo di battaglia")
            continue
        parts = []
        if "power" in chars or "toughness" in chars:
            parts.append(f"{chars.get('power', '?')}/{chars.get('toughness', '?')}")
        for key in ("name", "types", "subtypes", "supertypes", "colors", "abilities", "controller"):
            if key in chars:
                parts.append(f"{explain.CHAR_IT[key]} {explain.value_it(st, key, chars[key], effects)}")
        if "static_abilities" in chars:
            statics = ", ".join(labels.get(x, x) for x in chars["static_abilities"])
            parts.append("abilità statiche " + (statics or "nessuna"))
        lines.append(f"{n(oid)}: " + "; ".join(str(p) for p in parts))
    for oid, rows in (exp.get("explanation") or {}).items():
        steps = ", ".join(f"livello {r.get('layer')} {labels.get(str(r.get('key')), r.get('key'))}"
                          for r in rows if isinstance(r, dict))
        lines.append(f"Effetti su {n(oid)}, in ordine: {steps or 'nessuno'}")
    for note in exp.get("notes") or []:
        if isinstance(note, dict):
            lines.append(f"Non si applica: {labels.get(str(note.get('key')), note.get('key'))}")
    return lines


def decision_rules(pending: dict | None) -> set[str]:
    """Every rule number a pending decision's options cite (``"rules": [...]`` at any depth): the
    page links them with their previews."""
    found: set[str] = set()

    def walk(x) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "rules" and isinstance(v, list):
                    found.update(r for r in v if isinstance(r, str))
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk((pending or {}).get("options"))
    return found
