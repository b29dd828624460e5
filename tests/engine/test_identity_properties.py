"""Property: no reference the engine holds survives a zone change of its object (400.7).

Random combats with abilities that hold references (targets, sources, delayed abilities,
attachments, combat itself) and random judge actions that move objects between zones.  Every
reference must name the object as it is when it first appears, and must stop finding it once
that object has changed zones; combat must never keep an object that changed zones (506.4).
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine_helpers import perm, scenario
from judge.engine import Game, IllegalAction
from judge.engine.mechanics import identity
from judge.engine.state import split_key

CREATURES = ["c1", "c2", "c3", "d1", "d2"]
KEYWORDS = ["decayed", "mentor", "bushido 1", "provoke", "exalted", "flanking", "myriad",
            "battle cry", "trample", "deathtouch"]


@st.composite
def boards(draw):
    bf = []
    for cid in CREATURES:
        ctl = "p1" if cid.startswith("c") else "p2"
        kws = draw(st.lists(st.sampled_from(KEYWORDS), max_size=2, unique=True))
        if cid == "c1" and "decayed" not in kws:
            kws.append("decayed")                      # a delayed ability at end of combat
        bf.append(perm(cid, controller=ctl, p=draw(st.integers(1, 4)), t=draw(st.integers(1, 4)),
                       keywords=kws))
    bf.append(perm("aura", types=("enchantment",), subtypes=["Aura"], enchant="creature",
                   attached_to=draw(st.sampled_from(CREATURES))))
    bf.append(perm("spada", types=("artifact",), subtypes=["Equipment"],
                   attached_to=draw(st.sampled_from(CREATURES[:3]))))
    hand = [{"id": f"s{i}", "name": f"Magia {i}", "types": ["instant"]} for i in range(3)]
    players = [{"id": "p1", "name": "Alice", "hand": hand, "library": [
                   {"id": f"l{i}", "name": "Isola", "types": ["land"]} for i in range(5)]},
               {"id": "p2", "name": "Bruno", "library": [
                   {"id": f"m{i}", "name": "Isola", "types": ["land"]} for i in range(5)]}]
    return scenario(bf, step="beginning_of_combat", players=players)


OPS = st.one_of(
    st.tuples(st.just("step")),
    st.tuples(st.just("step")),
    st.tuples(st.just("flicker"), st.sampled_from(CREATURES + ["aura", "spada"])),
    st.tuples(st.just("move"), st.sampled_from(CREATURES + ["aura", "spada"]),
              st.sampled_from(["graveyard", "exile", "hand", "battlefield"])),
    st.tuples(st.just("cast"), st.sampled_from(["s0", "s1", "s2"]), st.sampled_from(CREATURES)),
    st.tuples(st.just("trigger"), st.sampled_from(CREATURES)),
    st.tuples(st.just("attach"), st.sampled_from(CREATURES)),
    st.tuples(st.just("goad"), st.sampled_from(CREATURES)),
    st.tuples(st.just("pump"), st.sampled_from(CREATURES)),
)


def apply(g: Game, op: tuple) -> None:
    kind, *args = op
    if g.pending:
        g.decide()
        return
    if kind == "step":
        g.step()
    elif kind == "flicker":
        g.act("move", object=args[0], zone="exile")
        if g.pending:
            g.decide()
        g.act("move", object=args[0], zone="battlefield")
    elif kind == "move":
        g.act("move", object=args[0], zone=args[1])
    elif kind == "cast":
        g.act("cast_spell", player="p1", card=args[0], target=args[1])
    elif kind == "trigger":
        g.act("trigger", controller="p2", text="Abilità di prova", source=args[0])
    elif kind == "attach":
        g.act("attach", object="spada", to=args[0])
    elif kind == "goad":
        g.act("goad", object=args[0], player="p2")
    elif kind == "pump":
        g.act("until_end_of_turn", object=args[0], power=1, toughness=1)


def incarnations(g: Game) -> dict[str, int]:
    out = {}
    for pl in g.state.players:
        for z in ("hand", "library", "graveyard", "exile", "command"):
            out.update({c.id: c.incarnation for c in pl.zone(z)})
    out.update({p.id: p.incarnation for p in g.state.battlefield})
    out.update({i.card.id: i.card.incarnation for i in g.state.stack if i.card is not None})
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.lists(OPS, min_size=1, max_size=25))
def test_no_reference_survives_a_zone_change_of_its_object(data, ops):
    g = Game.from_dict(data)
    g.step()
    g.decide({"attackers": ["c1"] if "exalted" in str(data) else ["c1", "c2"]})
    seen: dict[tuple[str, str], int] = {}           # (kind, ref) → incarnation of its card then
    for op in ops:
        try:
            apply(g, op)
        except IllegalAction:
            continue
        if g.result is not None:
            break
        st_ = g.state
        now = incarnations(g)
        held = set(identity.held(st_))
        for kind, ref in held:
            base, n = split_key(ref)
            if kind == "combat":
                # combat names a card by id: the object it is now, never an earlier one (506.4)
                first = seen.setdefault((kind, ref), now.get(ref, 0))
                assert now.get(ref, 0) == first, (kind, ref, first, now.get(ref))
                continue
            if (kind, ref) not in seen:
                # a reference names the object as it is when the engine takes it
                seen[(kind, ref)] = n
                assert base not in now or now[base] == n or st_.resolve(ref) is not None or \
                    now[base] > n, (kind, ref)
            if base in now and now[base] != n:
                event(f"a {kind} reference outlived its object")
                # its card changed zones since: the reference finds nothing (400.7)
                assert st_.live(ref) is None and st_.resolve(ref) is None, (kind, ref)
        # references that are no longer held are forgotten (a new one may reuse the text)
        for k in [k for k in seen if k not in held]:
            del seen[k]
