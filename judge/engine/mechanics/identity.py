"""Objects as the rules see them: an object that moves from one zone to another becomes a new
object with no memory of, or relation to, its previous existence (400.7).

A card keeps its id across zones (the judge's handle, the scenario's, the simulator's) and
counts its incarnations; its *key* names one object: «orso», then «orso#2» once it has changed
zones, «orso#3» … (``State.live`` and ``State.resolve`` find an object by its key, and find
nothing for an object that has since changed zones).  Whatever the engine holds about an object
names its key, and is checked against it with the rule of each kind:

| what the engine holds | rule | checked |
|---|---|---|
| the targets of a spell or ability on the stack | 608.2b | as it resolves: a target that changed zones is illegal |
| the source of an ability (its effect on "this creature") | 608.2h, 400.7 | as it resolves: the new object is not affected |
| an object an ability or a delayed ability will affect ("that creature", the tokens to exile, the creature to sacrifice at end of combat) | 603.7c, 400.7 | as it resolves |
| what an Aura, Equipment or Fortification is attached to | 704.5m, 704.5n | state-based actions |
| attacking, blocking, being attacked, combat's requirements | 506.4 | at the zone change: it leaves combat |
| the objects a continuous effect of a resolved spell or ability affects (an effect «until end of turn», a change of control) | 611.2c | at the zone change: the effect forgets it (``continuous.object_left``) |
| goad, the other designations and counters kept on the object | 701.15b, 122.2, 400.7 | at the zone change: they stay with the old object |

The commander designation is not the object's but the card's (903.3): it follows the card, and so
does the combat damage its commander has dealt (903.10a, counted by id).

:func:`held` lists every reference the engine holds (the property tests walk it); :func:`lost`
says, as an object leaves its zone, what the engine held about it, for the log's
``new_object`` event.
"""

from __future__ import annotations

from judge.engine import terms
from judge.engine.context import Ctx
from judge.engine.state import Card, Permanent, State, object_key, split_key

Ref = tuple[str, str]          # (kind, key)


def held(st: State) -> list[Ref]:
    """Every reference by key the engine holds to an object (not to a player or a stack
    item): ``("target", key)``, ``("source", key)``, ``("effect", key)``, ``("delayed",
    key)``, ``("attached", key)``, and combat's ids as ``("combat", id)``."""
    out: list[Ref] = []

    def obj(kind: str, ref) -> None:
        if isinstance(ref, str) and ref and not st.has_player(ref) and \
                not any(i.id == ref for i in st.stack):
            out.append((kind, ref))

    for item in st.stack:
        for t in item.targets:
            obj("target", t)
        obj("source", item.source)
        for r in effect_refs(item.effect):
            obj("effect", r)
    for t in st.waiting_triggers:
        obj("source", t.get("source"))
        for r in effect_refs(t.get("effect")):
            obj("effect", r)
    for p in st.battlefield:
        obj("attached", p.attached_to)
    cb = st.combat
    if cb is not None:
        for t in cb.delayed:
            obj("delayed", t.get("source"))
            for r in effect_refs(t.get("effect")):
                obj("delayed", r)
        for a in cb.attackers:
            out.append(("combat", a["id"]))
            obj("combat", a["target"])
        for b in cb.blockers:
            out.append(("combat", b["id"]))
            out += [("combat", x) for x in b["blocking"]]
        for r in cb.requirements:
            out += [("combat", r["blocker"]), ("combat", r["attacker"])]
    for e in st.effects:
        if isinstance(e.affects, dict):
            # by id, forgotten as the object leaves the battlefield (611.2c, continuous.py)
            out += [("continuous", x) for x in e.affects.get("objects", ()) if not st.has_player(x)]
    return out


# The keys of an effect's data that name objects (registry EFFECTS: exalted's and flanking's
# creature, the monarch's creature, myriad's tokens).
EFFECT_OBJECT_KEYS = ("creature",)
EFFECT_OBJECT_LISTS = ("objects",)


def effect_refs(effect: dict | None) -> list[str]:
    if not effect:
        return []
    out = [effect[k] for k in EFFECT_OBJECT_KEYS if isinstance(effect.get(k), str)]
    for k in EFFECT_OBJECT_LISTS:
        if isinstance(effect.get(k), str) and effect[k]:
            out += effect[k].split(",")
    return out


def lost(st: State, obj: Card, zone: str) -> list[tuple[str, list[str]]]:
    """What the engine held about ``obj`` as it leaves ``zone`` (Italian, with the rule of
    each): it stays with the old object (400.7)."""
    key = obj.key
    out: list[tuple[str, list[str]]] = []
    cb = st.combat
    if zone == "battlefield" and cb is not None and (
            any(a["id"] == obj.id or a["target"] == obj.id for a in cb.attackers)
            or any(b["id"] == obj.id for b in cb.blockers)):
        out.append(("non è più in combattimento", ["506.4"]))
    for item in st.stack:
        if key in item.targets:
            out.append((f"non è più il bersaglio di «{_short(item.text or item.id)}», che lo "
                        "troverà illegale", ["608.2b"]))
    abilities = [t["text"] for t in st.waiting_triggers if key in _about(t.get("source"), t.get("effect"))]
    abilities += [i.text for i in st.stack if key in _about(i.source, i.effect)]
    if abilities:
        out.append((f"per {_names(abilities)} resta l'oggetto di prima", ["608.2h"]))
    if cb is not None:
        delayed = [t["text"] for t in cb.delayed if key in _about(t.get("source"), t.get("effect"))]
        if delayed:
            out.append((f"{_names(delayed)} non lo troverà alla fine del combattimento", ["603.7c"]))
    if isinstance(obj, Permanent):
        if any(_affects(e, obj.id) for e in st.effects):
            out.append(("gli effetti continui che lo modificavano non si applicano al nuovo "
                        "oggetto", ["611.2c"]))
        if obj.goaded_by:
            out.append((f"non è più {terms.done('goad')}", ["701.15b"]))
        if obj.control_effect:
            out.append(("l'effetto che ne cambiava il controllo non si applica al nuovo oggetto",
                        ["611.2c"]))
    return out


def _affects(e, oid: str) -> bool:
    """A continuous effect of a resolved spell or ability that names the object (611.2c)."""
    return e.kind == "resolved" and isinstance(e.affects, dict) and oid in e.affects.get("objects", ())


def _about(source, effect) -> list[str]:
    return ([source] if source else []) + effect_refs(effect)


def _short(text: str) -> str:
    return text.split(":", 1)[0].rstrip().rstrip(".")


def _names(texts: list[str]) -> str:
    quoted = [f"«{_short(t)}»" for t in texts]
    return ("l'abilità " if len(quoted) == 1 else "le abilità ") + ", ".join(quoted)


def note_new_object(ctx: Ctx, old_key: str, new: Card, what: list[tuple[str, list[str]]]) -> None:
    """The log's word that ``new`` is a new object (400.7), with what stayed with the old one."""
    if not what:
        return
    rules = ["400.7"]
    for _, r in what:
        rules += [x for x in r if x not in rules]
    ctx.emit_after(new.id, rules, f"{new.name} ha cambiato zona: ciò che lo riguardava resta "
                   f"all'oggetto di prima ({old_key}), non al nuovo ({new.key}): "
                   + "; ".join(t for t, _ in what) + ".", "new_object", objects=[new.key],
                   previous=old_key, key=new.key)


def known(st: State, key: str) -> bool:
    """``key`` names an object of this game, as it is now or before it changed zones; a token
    that ceased to exist is still known by a key with a number (400.7, 111.7)."""
    if st.find_card(key) is not None:
        return True
    base, n = split_key(key)
    found = st.find_card(base)
    return (found[2].incarnation >= n) if found is not None else n > 1 or "#" in key


def gone(st: State, ref: str) -> tuple[str, list[str]]:
    """Why the object ``ref`` names can't be found where it was (Italian, rules): it left its
    zone, or it came back as a new object (400.7)."""
    base, n = split_key(ref)
    now = st.find_card(base)
    name = st.name_of(ref)
    if now is not None and now[1] == "battlefield" and now[2].incarnation > n:
        return (f"{name} ha cambiato zona ed è un nuovo oggetto ({now[2].key}), non quello di "
                f"prima ({object_key(base, n)})", ["400.7"])
    return f"{name} non è più sul campo di battaglia", []


# --- the scenario format: references as judges write them -------------------------------------

def map_refs(st: State, fn) -> None:
    """Apply ``fn`` to every reference to an object the state holds by key (not combat's ids,
    which always name the object a card is now: it leaves combat as it moves, 506.4)."""
    def one(ref):
        return fn(ref) if isinstance(ref, str) and ref else ref

    for p in st.battlefield:
        p.attached_to = one(p.attached_to)
    for item in st.stack:
        item.targets = [one(t) for t in item.targets]
        item.source = one(item.source)
        item.effect = map_effect(item.effect, fn)
    for t in st.waiting_triggers:
        t["source"] = one(t.get("source"))
        t["effect"] = map_effect(t.get("effect"), fn)
    if st.combat is not None:
        for t in st.combat.delayed:
            t["source"] = one(t.get("source"))
            t["effect"] = map_effect(t.get("effect"), fn)


def map_effect(effect: dict | None, fn) -> dict | None:
    """An effect's data with ``fn`` applied to the references to objects it holds."""
    if not effect:
        return effect
    out = dict(effect)
    for k in EFFECT_OBJECT_KEYS:
        if isinstance(out.get(k), str) and out[k]:
            out[k] = fn(out[k])
    for k in EFFECT_OBJECT_LISTS:
        if isinstance(out.get(k), str) and out[k]:
            out[k] = ",".join(fn(x) for x in out[k].split(","))
    return out
