"""Check a library scenario against its documented ``expected`` block.

``verify(data)`` loads the scenario, performs ``expected.actions`` and returns
the list of failures (Italian strings; empty when the scenario behaves as
documented) together with the events.  The format of ``expected`` is
documented in docs/scenario-format.md; ``expected.problems`` checks its shape first.
"""

from __future__ import annotations

from typing import Any

from judge.engine.characteristics import derived, explain, layers
from judge.engine.errors import IllegalAction
from judge.engine.events import Event
from judge.engine.play.game import Game
from judge.engine.scenario.expected import problems

_ACT_KEYS = {"act"}


def _short(value: Any, limit: int = 120) -> str:
    """An action of a validated ``expected`` block, quoted in a failure with its content (which
    action failed), cut short.  Not ``errors.shown``: that one names an unchecked value's
    structure by its kind, never rendering something of unknown depth."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _do(game: Game, action: dict) -> list[Event]:
    """One action of a block that ``expected.problems`` accepted."""
    if "step" in action:
        out: list[Event] = []
        for _ in range(action["step"]):
            out += game.step()
        return out
    if "step_to" in action:
        return game.step_to(action["step_to"], defaults=bool(action.get("defaults")))
    if "decide" in action:
        return game.decide(action["decide"])
    params = {k: v for k, v in action.items() if k not in _ACT_KEYS}
    return game.act(action["act"], **params)


def _match_event(exp: dict, events: list[Event]) -> bool:
    for e in events:
        if e.rules != exp["rules"]:
            continue
        if "kind" in exp and e.kind != exp["kind"]:
            continue
        if not set(exp.get("objects", [])) <= set(e.objects):
            continue
        if not set(exp.get("players", [])) <= set(e.players):
            continue
        return True
    return False


def replacement_lines(events: list[Event]) -> list[dict]:
    """The replacement effects' explanation in the log (614–616): step, rules, effect."""
    out = []
    for e in events:
        r = e.data.get("replacement")
        if r is not None:
            out.append({"step": r["step"], "rules": list(e.rules),
                        **({"effect": r["effect"]} if r.get("effect") else {})})
    return out


def _replacement_log(want: list[dict], events: list[Event]) -> list[str]:
    got = replacement_lines(events)
    shown = [(g["step"], g["rules"], g.get("effect")) for g in got]
    if len(got) != len(want):
        return [f"spiegazione delle sostituzioni: attese {len(want)} righe, ottenute {shown}"]
    fails = []
    for i, (w, g) in enumerate(zip(want, got)):
        for k, v in w.items():
            if g.get(k) != v:
                fails.append(f"spiegazione delle sostituzioni, riga {i + 1}: {k} atteso {v!r}, "
                             f"ottenuto {g.get(k)!r}")
    return fails


def check_state(game: Game, exp: dict) -> list[str]:
    """How the current state differs from an ``expected.state`` block (empty: it matches)."""
    s = game.state
    fails = []

    def want(label: str, got: Any, expected: Any) -> None:
        if got != expected:
            fails.append(f"{label}: atteso {expected!r}, ottenuto {got!r}")

    for pid, n in exp.get("life", {}).items():
        want(f"punti vita di {pid}", s.player(pid).life, n)
    for pid, n in exp.get("poison", {}).items():
        want(f"segnalini veleno di {pid}", s.player(pid).poison, n)
    for pid, n in exp.get("hand_size", {}).items():
        want(f"carte in mano a {pid}", len(s.player(pid).hand), n)
    for pid, pool in exp.get("mana_pool", {}).items():
        want(f"riserva di mana di {pid}", {k: v for k, v in s.player(pid).mana_pool.items() if v}, pool)
    if "battlefield" in exp:
        want("campo di battaglia", sorted(p.id for p in s.battlefield), sorted(exp["battlefield"]))
    for oid in exp.get("not_battlefield", []):
        if s.perm(oid) is not None:
            fails.append(f"{oid} non dovrebbe essere sul campo di battaglia")
    for key, ids in exp.get("zones", {}).items():
        pid, zone = key.split(".", 1)
        want(f"zona {key}", [c.id for c in s.player(pid).zone(zone)], ids)
    for oid, counters in exp.get("counters", {}).items():
        want(f"segnalini su {oid}", s.perm(oid).counters if s.perm(oid) else None, counters)
    for oid, n in exp.get("damage", {}).items():
        want(f"danno su {oid}", s.perm(oid).damage if s.perm(oid) else None, n)
    for oid, v in exp.get("tapped", {}).items():
        want(f"{oid} TAPpato", s.perm(oid).tapped if s.perm(oid) else None, v)
    for oid, to in exp.get("attached_to", {}).items():
        at = s.perm(oid).attached_to if s.perm(oid) else "(assente)"
        want(f"{oid} assegnato a", s.ref_out(at) if at and at != "(assente)" else at, to)
    for oid in exp.get("phased_out", []):
        want(f"{oid} scomparso", s.perm(oid).phased_out if s.perm(oid) else None, True)
    if "lost" in exp:
        want("giocatori che hanno perso", sorted(p.id for p in s.players if p.lost), sorted(exp["lost"]))
    if "result" in exp:
        want("risultato", s.result, exp["result"])
    if "turn" in exp:
        want("turno", s.turn.number, exp["turn"])
    if "step" in exp:
        want("sottofase", s.turn.step, exp["step"])
    if "day_night" in exp:
        want("giorno/notte", s.day_night, exp["day_night"])
    if "active_player" in exp:
        want("giocatore attivo", s.turn.active_player, exp["active_player"])
    for key, label in (("monarch", "monarca"), ("initiative", "iniziativa"),
                       ("planar_controller", "controllore planare")):
        if key in exp:
            want(label, getattr(s, key), exp[key])
    for pid, n in exp.get("speed", {}).items():
        want(f"velocità di {pid}", s.player(pid).speed, n)
    for pid, names in exp.get("completed_dungeons", {}).items():
        want(f"dungeon completati da {pid}", s.player(pid).completed_dungeons, names)
    for oid, v in exp.get("controller", {}).items():            # layer 2 included (613.1b)
        want(f"controllore di {oid}", derived.controller(s, s.perm(oid)) if s.perm(oid) else None, v)
    for key, label in (("protector", "protettore"), ("sector", "settore")):
        for oid, v in exp.get(key, {}).items():
            want(f"{label} di {oid}", getattr(s.perm(oid), key) if s.perm(oid) else None, v)
    if "stack" in exp:
        want("pila (dal fondo alla cima)", [i.text for i in s.stack], exp["stack"])
    fails += _layers(s, exp)
    return fails


def _layers(s, exp: dict) -> list[str]:
    """The characteristics the layers compute (613) and the order of their explanation."""
    fails = []
    for oid, chars in exp.get("characteristics", {}).items():
        p = s.perm(oid)
        if p is None or chars is None:
            if (p is None) != (chars is None):
                fails.append(f"caratteristiche di {oid}: atteso {chars!r}, ottenuto "
                             f"{'assente' if p is None else 'presente'}")
            continue
        got = layers.chars(s, p)
        got_json = {**got.to_json(), "every_creature_type": got.every_creature_type}
        got_json["subtypes"] = list(got.subtypes)
        for key, value in chars.items():
            have = got_json[key]
            same = (sorted(have) == sorted(value)) if isinstance(value, list) else have == value
            if not same:
                fails.append(f"{key} di {oid}: atteso {value!r}, ottenuto {have!r}")
    for oid, rows in exp.get("explanation", {}).items():
        got_rows = (explain.explain(s, oid) or {}).get("rows", [])
        if len(got_rows) != len(rows):
            fails.append(f"spiegazione di {oid}: attese {len(rows)} righe, ottenute "
                         f"{[(r['layer'], r['key']) for r in got_rows]}")
            continue
        for i, (want_row, row) in enumerate(zip(rows, got_rows)):
            for key, value in want_row.items():
                have = row[key] if key != "after" else sorted(row["after"])
                ok = set(value) <= set(have) if key == "rules" else (
                    sorted(value) == have if key == "after" else have == value)
                if not ok:
                    fails.append(f"spiegazione di {oid}, riga {i + 1}: {key} atteso {value!r}, "
                                 f"ottenuto {have!r}")
    if "notes" in exp:
        got_notes = [{"key": n["key"], "reason": n["reason"], "layer": n["layer"]}
                     for n in explain.notes(s)]
        for n in exp["notes"]:
            if not any(all(g[k] == v for k, v in n.items()) for g in got_notes):
                fails.append(f"nota attesa non trovata: {n!r} (note: {got_notes!r})")
    return fails


def verify(data: Any) -> tuple[list[str], list[Event]]:
    """Run a scenario's ``expected`` block; returns (failures, events).  A block of the
    wrong shape is not run: its failures are the problems found, each with its field path.
    Anything else the engine raises is a bug and propagates."""
    game = Game.from_dict(data)
    exp = data.get("expected") or {}
    wrong = problems(exp, [p.id for p in game.state.players])
    if wrong:
        return wrong, []
    fails: list[str] = []
    events: list[Event] = []
    _verify(game, exp, fails, events)
    return fails, events


def _verify(game: Game, exp: dict, fails: list[str], events: list[Event]) -> None:
    pending_after = {p["after"]: p for p in exp.get("pending_after", [])}
    refused = {r["after"]: r for r in exp.get("refused", [])}
    for i, action in enumerate(exp.get("actions", [])):
        try:
            events += _do(game, action)
        except IllegalAction as e:
            fails.append(f"azione {i} ({_short(action)}) rifiutata: {e}")
            break
        if i in pending_after:
            pa = pending_after[i]
            pend = game.pending or {}
            for k, v in pa.items():
                got = ([e["id"] for e in (pend.get("options") or {}).get("effects", [])]
                       if k == "offered" else pend.get(k))
                if k != "after" and got != v:
                    fails.append(f"dopo l'azione {i}: decisione {k} attesa {v!r}, ottenuta {got!r}")
        if i in refused:
            r = refused[i]
            before = game.to_dict()
            try:
                game.decide(r["answer"])
                fails.append(f"dopo l'azione {i}: la risposta {r['answer']} doveva essere rifiutata")
            except IllegalAction as e:
                if r.get("rules") and e.rules != r["rules"]:
                    fails.append(f"rifiuto con regole {e.rules}, attese {r['rules']}")
                if game.to_dict() != before:
                    fails.append("il rifiuto ha modificato lo stato")
    for ev in exp.get("events", []):
        if not _match_event(ev, events):
            fails.append(f"evento atteso non trovato: {ev}")
    if "replacement_log" in exp:
        fails += _replacement_log(exp["replacement_log"], events)
    if "steps_seen" in exp:
        seen = [e.step for e in events if e.kind == "step"]
        it = iter(seen)
        if not all(any(s == x for x in it) for s in exp["steps_seen"]):
            fails.append(f"sottofasi attese {exp['steps_seen']}, viste {seen}")
    fails += check_state(game, exp.get("state", {}))
