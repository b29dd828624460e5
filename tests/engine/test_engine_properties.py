"""Property tests: random valid scenarios stepped for many steps."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import RULES
from judge.engine import Game, IllegalAction
from judge.engine.characteristics.keywords import REGISTRY, examples
from judge.engine.mechanics.dungeon import UNDERCITY_ROOMS
from judge.engine.mechanics.resolve import resolving
from judge.engine.scenario.parse import parse
from judge.engine.scenario.scenario_json import to_dict

# Every keyword and ability the engine knows, written as a scenario may (no player qualities:
# the players vary).
KEYWORDS = [e for spec in REGISTRY for e in examples(spec) if "player" not in e]
from judge.engine.steps import STEP_NAMES

VARIANTS = ["two-player", "free-for-all", "commander", "two-headed-giant"]


@st.composite
def scenarios(draw):
    variant = draw(st.sampled_from(VARIANTS))
    n = {"two-player": 2, "two-headed-giant": 4}.get(variant) or draw(st.integers(3, 5))
    pids = [f"p{i}" for i in range(n)]
    counter = iter(range(10_000))

    def cid():
        return f"c{next(counter)}"

    def zone_cards(k):
        return [{"id": cid(), "name": draw(st.sampled_from(["Isola", "Orso", "Shock"])),
                 "types": ["land"]} for _ in range(k)]

    players = []
    life = draw(st.integers(1, 40))
    for pid in pids:
        pl = {"id": pid, "name": pid.upper(), "library": zone_cards(draw(st.integers(0, 6))),
              "hand": zone_cards(draw(st.integers(0, 10))),
              "poison": draw(st.integers(0, 9)) if variant != "two-headed-giant" else 0,
              "max_hand_size": draw(st.sampled_from([7, 7, 2, None]))}
        pl["life"] = life if variant == "two-headed-giant" else draw(st.integers(1, 40))
        players.append(pl)
    battlefield = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["creature", "creature", "creature", "land", "saga", "pw",
                                     "aura", "equipment", "legend", "siege", "engine"]))
        ctl = draw(st.sampled_from(pids))
        base = {"id": cid(), "controller": ctl, "tapped": draw(st.booleans()),
                "summoning_sick": draw(st.booleans())}
        if kind in ("creature", "legend"):
            base.update(name="Leggenda" if kind == "legend" else draw(st.sampled_from(["Orso", "Lupo", "Drago"])),
                        types=["creature"], power=draw(st.integers(0, 6)),
                        toughness=draw(st.integers(1, 6)),
                        keywords=draw(st.lists(st.sampled_from(KEYWORDS), max_size=3, unique=True)),
                        damage=draw(st.integers(0, 2)),
                        counters=draw(st.dictionaries(st.sampled_from(["+1/+1", "-1/-1"]),
                                                      st.integers(0, 2), max_size=2)))
            if kind == "legend":
                base["supertypes"] = ["legendary"]
            if variant == "commander" and draw(st.booleans()):
                base["commander"] = True
        elif kind == "land":
            base.update(name="Foresta", types=["land"])
        elif kind == "saga":
            base.update(name="Saga", types=["enchantment"], subtypes=["Saga"], chapters=3,
                        counters={"lore": draw(st.integers(1, 3))})
        elif kind == "pw":
            base.update(name="Jace", types=["planeswalker"], counters={"loyalty": draw(st.integers(0, 5))})
        elif kind == "siege":
            base.update(name="Assedio", types=["battle"], subtypes=["Siege"],
                        counters={"defense": draw(st.integers(0, 4))},
                        protector=draw(st.sampled_from(pids + [None])))
        elif kind == "engine":
            base.update(name="Bolide", types=["artifact"], keywords=["start your engines!"])
        else:
            targets = [b["id"] for b in battlefield]
            if not targets:
                continue
            base.update(name="Aura" if kind == "aura" else "Spada",
                        types=["enchantment"] if kind == "aura" else ["artifact"],
                        subtypes=["Aura"] if kind == "aura" else ["Equipment"],
                        attached_to=draw(st.sampled_from(targets)))
        battlefield.append(base)
    stack = []
    if draw(st.integers(0, 3)) == 0:
        # an initiative venture about to resolve for a player whose Undercity branches: the
        # engine stops mid-resolution for the room (701.49b)
        who = draw(st.sampled_from(players))
        who["command"] = [{"id": cid(), "name": "Undercity", "types": ["dungeon"],
                           "subtypes": ["Undercity"], "venture_marker": "Secret Entrance",
                           "rooms": [{"name": n, "text": x, "to": list(to)} for n, x, to in UNDERCITY_ROOMS]}]
        stack.append({"id": cid(), "kind": "ability", "controller": who["id"], "text": "Iniziativa",
                      "effect": {"kind": "initiative_venture"}})
    return {"format": "judge-scenario", "version": 1, "title": "random", "variant": variant,
            "players": players, "battlefield": battlefield, "stack": stack,
            "turn": {"number": draw(st.integers(1, 5)), "active_player": draw(st.sampled_from(pids)),
                     "step": draw(st.sampled_from(STEP_NAMES))},
            "day_night": draw(st.sampled_from([None, "day", "night"])),
            "monarch": draw(st.sampled_from([None] + pids)),
            "initiative": draw(st.sampled_from([None] + pids)),
            "options": {"attack": draw(st.sampled_from(["multiple", "choose", "left"]))},
            "seed": draw(st.integers(0, 100))}


def card_ids(g: Game) -> Counter:
    s = g.state
    ids = [p.id for p in s.battlefield if not p.token]
    for pl in s.players:
        for z in ("hand", "library", "graveyard", "exile", "command", "scheme_deck"):
            # dungeons come from outside the game and leave it once completed (309.2, 309.7)
            ids += [c.id for c in pl.zone(z) if not c.token and "dungeon" not in c.types]
    ids += [i.card.id for i in s.stack if i.card is not None and not i.card.token]
    return Counter(ids)


def answer(g: Game, data) -> None:
    """Answer the pending decision: sometimes the default, sometimes something bolder (which
    requirements or menace may make illegal: then it is refused, nothing changes, and the
    default is taken)."""
    p = g.pending
    bold = None
    if p["kind"] == "declare_attackers" and data.draw(st.booleans()):
        bold = {"attackers": [{"id": c["id"], "target": data.draw(st.sampled_from(c["targets"]))}
                              for c in p["options"]["creatures"]
                              if c["targets"] and data.draw(st.booleans())]}
    elif p["kind"] == "declare_blockers" and data.draw(st.booleans()):
        bold = {"blockers": [{"id": c["id"], "blocking": data.draw(st.sampled_from(c["can_block"]))}
                             for c in p["options"]["creatures"] if data.draw(st.booleans())]}
    if bold is not None:
        before = g.to_dict()
        try:
            g.decide(bold)
            return
        except IllegalAction as e:
            assert e.rules and g.to_dict() == before
    g.decide()


def stack_edited_mid_resolution(g: Game, data) -> None:
    """The judge edits the board while an object waits mid-resolution for its controller's
    choice and puts an ability anywhere on the stack: the same object finishes resolving
    (608.2), the new one stays where it was put."""
    _, resolving_id = resolving(g.state.procedure)
    d = g.to_dict()
    at = data.draw(st.integers(0, len(d["stack"])))
    d["stack"].insert(at, {"id": "messa-dal-giudice", "kind": "ability", "text": "Nuova",
                           "controller": data.draw(st.sampled_from([p.id for p in g.state.in_game()]))})
    side = Game.from_dict(d)
    ev = side.decide()
    assert [e.objects[0] for e in ev if e.kind == "resolve"] == [resolving_id]
    assert "messa-dal-giudice" in [i.id for i in side.state.stack]


def assert_514_3a(g: Game) -> None:
    """Priority in a cleanup step brings another cleanup step before the next turn (514.3a);
    without priority there, none (514.3).  For games loaded without ``cleanup_again``."""
    owed = False
    for e in g.events:
        if e.kind == "priority" and e.step == "cleanup":
            owed = True
        elif e.kind == "skip_step" and "514.3a" in e.rules:
            assert owed, "another cleanup step without priority in the one before"
            owed = False
        elif e.kind == "turn":
            assert not owed, "priority in the cleanup step, then the next turn (514.3a)"
    assert g.result is not None or g.state.turn.cleanup_again == owed


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.data())
def test_random_games_keep_invariants(data_in, data):
    g = Game.from_dict(data_in)
    start = g.to_dict()
    cards = card_ids(g)
    assert all(n == 1 for n in cards.values())
    checkpoints = [(0, start)]
    for i in range(150):
        lives = {p.id: p.life for p in g.state.players}
        if g.result is not None:
            break
        if len(g.state.in_game()) > 2 and data.draw(st.integers(0, 40)) == 0:
            # a player concedes, at any time (104.3a), even during a choice
            g.act("concede", player=data.draw(st.sampled_from([p.id for p in g.state.in_game()])))
        elif g.pending is not None:
            if g.state.procedure[0].startswith("resolve:") and data.draw(st.booleans()):
                stack_edited_mid_resolution(g, data)
            answer(g, data)
        else:
            g.step()
        # no card lost or duplicated (tokens aside; objects of a player who left
        # a multiplayer game leave with them, 800.4a)
        gone = Counter(oid for e in g.events if e.kind == "leave_game" for oid in e.data["left"])
        assert card_ids(g) + Counter({k: 1 for k in gone if k in cards}) == cards
        # every life change is tied to events of this operation
        last = g._past[-1][1]
        new_events = g.events[last:]
        for p in g.state.players:
            delta = sum(e.data.get("delta", 0) for e in new_events
                        if e.kind == "life" and p.id in e.players)
            assert p.life - lives[p.id] == delta, (p.id, [str(e) for e in new_events])
        for e in new_events:
            assert e.rules and set(e.rules) <= RULES, e.rules
            assert isinstance(e.text, str) and e.text
        if i % 10 == 0:
            checkpoints.append((len(g.history), g.to_dict()))
    assert_514_3a(g)
    # the state always serialises to a valid scenario
    final = g.to_dict()
    json.dumps(final)
    assert to_dict(parse(final)) == final
    # undo restores the exact earlier states
    for idx, snap in reversed(checkpoints):
        g.undo_to(idx)
        assert g.to_dict() == snap
    assert g.to_dict() == start


@settings(max_examples=80, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                    max_leaves=20))
def test_garbage_never_tracebacks(garbage):
    from judge.engine import ScenarioError
    base = {"format": "judge-scenario", "version": 1, "players": [{"id": "p1"}, {"id": "p2"}]}
    for data in (garbage, {"format": "judge-scenario", "version": 1, "players": garbage},
                 *({**base, key: garbage} for key in ("battlefield", "stack", "pending", "result",
                                                      "procedure", "waiting_triggers", "answers")),
                 {**base, "pending": {"id": "x", "kind": "legend_rule", "player": "p1",
                                      "prompt": "", "options": garbage, "default": garbage},
                  "procedure": ["sba"]}):
        try:
            parse(data)
        except ScenarioError:
            pass


@st.composite
def cleanup_scenarios(draw):
    """Small boards at the end or cleanup step with what can give priority in the cleanup
    step: creatures dying once «until end of turn» effects end (514.2, 704.5f), abilities
    waiting (603.3), objects on the stack, an initiative venture that stops for its
    controller's room (701.49b) so that they can concede mid-choice."""
    variant = draw(st.sampled_from(["two-player", "free-for-all"]))
    pids = [f"p{i}" for i in range(2 if variant == "two-player" else draw(st.integers(3, 4)))]
    players = [{"id": pid, "name": pid.upper(),
                "library": [{"id": f"{pid}l{i}", "name": "Isola", "types": ["land"]} for i in range(3)],
                "hand": [{"id": f"{pid}h{i}", "name": "Isola", "types": ["land"]}
                         for i in range(draw(st.integers(0, 9)))]} for pid in pids]
    battlefield = [{"id": f"b{i}", "name": "Orso", "controller": draw(st.sampled_from(pids)),
                    "types": ["creature"], "power": 2, "toughness": 1,
                    "counters": {"-1/-1": draw(st.integers(0, 1))},
                    "until_end_of_turn": {"toughness": draw(st.integers(0, 2))}}
                   for i in range(draw(st.integers(0, 3)))]
    stack = [{"id": f"s{i}", "kind": "ability", "controller": draw(st.sampled_from(pids)),
              "text": f"Abilità {i}"} for i in range(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        who = draw(st.sampled_from(players))
        who["command"] = [{"id": "und", "name": "Undercity", "types": ["dungeon"],
                           "subtypes": ["Undercity"], "venture_marker": "Secret Entrance",
                           "rooms": [{"name": n, "text": x, "to": list(to)} for n, x, to in UNDERCITY_ROOMS]}]
        stack.append({"id": "ven", "kind": "ability", "controller": who["id"], "text": "Iniziativa",
                      "effect": {"kind": "initiative_venture"}})
    waiting = [{"id": f"w{i}", "controller": draw(st.sampled_from(pids)), "text": f"In attesa {i}"}
               for i in range(draw(st.integers(0, 1)))]
    return {"format": "judge-scenario", "version": 1, "title": "cleanup", "variant": variant,
            "players": players, "battlefield": battlefield, "stack": stack,
            "waiting_triggers": waiting, "initiative": draw(st.sampled_from([None] + pids)),
            "turn": {"number": 3, "active_player": draw(st.sampled_from(pids)),
                     "step": draw(st.sampled_from(["end", "cleanup"]))}}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cleanup_scenarios(), st.data())
def test_514_3a_priority_in_cleanup_brings_another_cleanup_step(data_in, data):
    """Whenever a player gets priority in a cleanup step, another cleanup step begins before
    the next turn (514.3a), and one begins only then (514.3: normally nobody gets priority
    there) — whoever concedes, whenever (104.3a), and whatever the judge puts on the stack."""
    g = Game.from_dict(data_in)
    start = g.to_dict()
    for _ in range(40):
        if g.result is not None or g.state.turn.number > 3:
            break
        in_game = [p.id for p in g.state.in_game()]
        roll = data.draw(st.integers(0, 9))
        if roll == 0 and len(in_game) > 2:
            g.act("concede", player=data.draw(st.sampled_from(in_game)))
        elif g.pending is not None:
            g.decide()
        elif roll == 1:
            g.act("trigger", controller=data.draw(st.sampled_from(in_game)), text="Del giudice",
                  check_sba=data.draw(st.booleans()))
        else:
            g.step()
    for e in g.events:
        assert e.rules and set(e.rules) <= RULES, e.rules
    assert_514_3a(g)
    g.undo_to(0)
    assert g.to_dict() == start
