"""Property tests of block declarations: whatever the board, no declaration the engine accepts
breaks a restriction of 509.1a–b, none obeys fewer requirements than some legal one (509.1c),
and the default declaration is always accepted.  The restrictions are written again here from
the rules' text, independently of the engine's code."""

from __future__ import annotations

from itertools import combinations, product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import perm, scenario
from judge.engine import Game, IllegalAction
from judge.engine.registry import DECISIONS

ATTACKER_KW = ["flying", "menace", "intimidate", "fear", "shadow", "horsemanship", "skulk",
               "islandwalk", "protection from red", "protection from creatures",
               "can't be blocked", "trample"]
BLOCKER_KW = ["flying", "reach", "shadow", "horsemanship", "can't block", "decayed",
              "can block only creatures with flying", "can block an additional creature each combat",
              "blocks each combat if able"]
COLORS = ["W", "U", "B", "R", "G"]


@st.composite
def boards(draw):
    n_att = draw(st.integers(1, 3))
    n_blk = draw(st.integers(1, 4))
    attackers = [perm(f"x{i}", tapped=True, p=draw(st.integers(0, 4)), t=3,
                      keywords=draw(st.lists(st.sampled_from(ATTACKER_KW), max_size=3, unique=True)),
                      colors=draw(st.lists(st.sampled_from(COLORS), max_size=2, unique=True)))
                 for i in range(n_att)]
    blockers = [perm(f"m{i}", controller="p2", p=draw(st.integers(0, 4)), t=3,
                     tapped=draw(st.booleans()) and draw(st.booleans()),
                     types=("artifact", "creature") if draw(st.booleans()) and draw(st.booleans())
                     else ("creature",),
                     keywords=draw(st.lists(st.sampled_from(BLOCKER_KW), max_size=2, unique=True)),
                     colors=draw(st.lists(st.sampled_from(COLORS), max_size=2, unique=True)))
                for i in range(n_blk)]
    lands = [perm("isola", controller="p2", types=("land",), subtypes=["Island"])] \
        if draw(st.booleans()) else []
    return attackers, blockers, lands


def has(c: dict, k: str) -> bool:
    return k in c.get("keywords", [])


def pair_ok(att: dict, blk: dict, lands: list) -> bool:
    """509.1b and the evasion rules, from their text."""
    if has(att, "can't be blocked") or has(blk, "can't block") or has(blk, "decayed"):
        return False
    if has(att, "flying") and not (has(blk, "flying") or has(blk, "reach")):         # 702.9b
        return False
    if has(att, "shadow") != has(blk, "shadow"):                                      # 702.28b
        return False
    if has(att, "horsemanship") and not has(blk, "horsemanship"):                     # 702.31b
        return False
    artifact = "artifact" in blk["types"]
    if has(att, "fear") and not (artifact or "B" in blk["colors"]):                   # 702.36b
        return False
    if has(att, "intimidate") and not (artifact or set(att["colors"]) & set(blk["colors"])):
        return False                                                                  # 702.13b
    if has(att, "skulk") and blk["power"] > att["power"]:                             # 702.118b
        return False
    if has(att, "islandwalk") and lands:                                              # 702.14c
        return False
    if has(att, "protection from red") and "R" in blk["colors"]:                      # 702.16f
        return False
    if has(att, "protection from creatures"):
        return False
    if has(blk, "can block only creatures with flying") and not has(att, "flying"):
        return False
    return True


def legal(decl: dict[str, list[str]], atts: dict, blks: dict, lands: list) -> bool:
    count: dict[str, int] = {}
    for b, targets in decl.items():
        blk = blks[b]
        if blk.get("tapped") or not targets:
            return False                                                              # 509.1a
        cap = 2 if has(blk, "can block an additional creature each combat") else 1
        if len(targets) > cap or len(set(targets)) != len(targets):
            return False
        for a in targets:
            if not pair_ok(atts[a], blk, lands):
                return False
            count[a] = count.get(a, 0) + 1
    return all(not (n == 1 and has(atts[a], "menace")) for a, n in count.items())    # 702.111b


def obeyed(decl: dict, blks: dict) -> int:
    return sum(1 for b, blk in blks.items() if has(blk, "blocks each combat if able") and decl.get(b))


def all_declarations(atts: dict, blks: dict):
    per = []
    for b, blk in blks.items():
        opts = [None] + [[a] for a in atts] + [list(c) for c in combinations(atts, 2)]
        per.append([(b, o) for o in opts])
    for choice in product(*per):
        yield {b: o for b, o in choice if o}


def pending(board):
    attackers, blockers, lands = board
    g = Game.from_dict(scenario(
        [*attackers, *blockers, *lands], step="declare_attackers",
        combat={"defending_players": ["p2"],
                "attackers": [{"id": a["id"], "target": "p2"} for a in attackers]}))
    g.step()
    return g


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.data())
def test_no_accepted_declaration_breaks_a_restriction_or_obeys_too_few(board, data):
    attackers, blockers, lands = board
    atts = {a["id"]: a for a in attackers}
    blks = {b["id"]: b for b in blockers}
    g = pending(board)
    decls = list(all_declarations(atts, blks))
    legal_ones = [d for d in decls if legal(d, atts, blks, lands)]
    best = max(obeyed(d, blks) for d in legal_ones)           # no blocks is always legal
    if g.pending is None:                                      # nobody could block
        assert all(not d for d in legal_ones)
        return
    validate = DECISIONS["declare_blockers"]
    default = validate(g.state, g.pending, g.pending["default"])
    as_dict = {b["id"]: b["blocking"] for b in default["blockers"]}
    assert legal(as_dict, atts, blks, lands) and obeyed(as_dict, blks) == best
    # every legal declaration, and a random sample of the illegal ones
    illegal = [d for d in decls if d not in legal_ones]
    data.draw(st.randoms(use_true_random=False)).shuffle(illegal)
    for decl in legal_ones[:200] + illegal[:40]:
        answer = {"blockers": [{"id": b, "blocking": t} for b, t in decl.items()]}
        try:
            validate(g.state, g.pending, answer)
            accepted = True
        except IllegalAction:
            accepted = False
        expected = legal(decl, atts, blks, lands) and obeyed(decl, blks) == best
        assert accepted == expected, (decl, accepted)
