"""Requirements on attacks and blocks: a declaration must obey as many of them as can be obeyed
without breaking a restriction (508.1d for attackers, 509.1c for blockers).

Attack requirements: "attacks each combat if able" (508.1d) and goad (701.15b: a goaded
creature attacks each combat if able, and attacks a player other than the goading player if
able; each player who goaded it adds requirements, 701.15c).  The engine's attack restrictions
each concern one creature, so the most requirements are obeyed creature by creature.

Block requirements: "blocks each combat if able" (509.1c) and provoke (702.39a: the provoked
creature blocks the provoking one if able).  Menace ties blockers together (a provoked creature
blocking a creature with menace needs a second blocker, as in the example of 509.1c), so the
maximum is searched over the blocks of the creatures with requirements, the others helping.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from judge.engine.characteristics import derived
from judge.engine.combat import evasion
from judge.engine.state import Permanent, State

MAX_NODES = 50_000          # choices tried when searching the most requirements (509.1c)


@dataclass(frozen=True)
class Requirement:
    creature: str
    text: str                  # Italian, for messages
    rules: tuple[str, ...]
    attacker: str | None = None    # blocks: this attacker; None: blocks (or attacks) at all
    not_player: str | None = None  # attacks: a player other than this one


# --- attacks (508.1d) ------------------------------------------------------------------------

def attack_requirements(st: State, p: Permanent) -> list[Requirement]:
    out = []
    if derived.has_kw(st, p, "attacks each combat if able"):
        out.append(Requirement(p.id, f"{p.name} attacca in ogni combattimento se può", ("508.1d",)))
    for pid in p.goaded_by:                                  # 701.15b, 701.15c
        who = st.name_of(pid)
        out.append(Requirement(p.id, f"{p.name} è spronata da {who}: attacca in ogni "
                               "combattimento se può", ("508.1d", "701.15b")))
        out.append(Requirement(p.id, f"{p.name} è spronata da {who}: attacca un giocatore "
                               f"diverso da {who} se può", ("508.1d", "701.15b"), not_player=pid))
    return out


def _attack_score(st: State, reqs: list[Requirement], target: str | None) -> int:
    if target is None:
        return 0
    n = 0
    for r in reqs:
        if r.not_player is None:
            n += 1
        elif st.has_player(target) and target != r.not_player:
            n += 1
    return n


def best_attack(st: State, p: Permanent, targets: list[str]) -> tuple[int, str | None]:
    """(most requirements ``p`` can obey, a target that obeys them; None: not attacking)."""
    reqs = attack_requirements(st, p)
    best, choice = 0, None
    for t in targets if reqs else ():
        s = _attack_score(st, reqs, t)
        if s > best:
            best, choice = s, t
    return best, choice


def attack_shortfall(st: State, p: Permanent, targets: list[str],
                     target: str | None) -> tuple[str, list[str]] | None:
    """Why attacking ``target`` (None: not attacking) obeys fewer requirements than ``p`` could
    (508.1d), or None."""
    reqs = attack_requirements(st, p)
    if not reqs:
        return None
    best, _ = best_attack(st, p, targets)
    got = _attack_score(st, reqs, target)
    if got >= best:
        return None
    broken = [r for r in reqs if _attack_score(st, [r], target) == 0
              and any(_attack_score(st, [r], t) for t in targets)]
    rules = ["508.1d"] + (["701.15b"] if any("701.15b" in r.rules for r in broken) else [])
    return ("; ".join(r.text for r in broken) + f" (la dichiarazione rispetta {got} requisiti "
            f"su {best} possibili)"), rules


# --- blocks (509.1c) --------------------------------------------------------------------------

def block_requirements(st: State, p: Permanent) -> list[Requirement]:
    out = []
    if derived.has_kw(st, p, "blocks each combat if able"):
        out.append(Requirement(p.id, f"{p.name} blocca in ogni combattimento se può", ("509.1c",)))
    cb = st.combat
    for r in (cb.requirements if cb else ()):
        if r["blocker"] == p.id:
            out.append(Requirement(p.id, f"{p.name} blocca {st.name_of(r['attacker'])} se può "
                                   "(provocazione)", ("509.1c", *r["rules"]),
                                   attacker=r["attacker"]))
    return out


def _block_score(reqs: list[Requirement], blocking: frozenset[str]) -> int:
    return sum(1 for r in reqs if (r.attacker in blocking if r.attacker else bool(blocking)))


@dataclass
class BlockBoard:
    """One defending player's possible blocks: for each creature able to block, the attackers
    it may block alone (no pair restriction), and its capacity."""
    can: dict[str, list[str]]
    cap: dict[str, float]
    menace: set[str]
    reqs: dict[str, list[Requirement]]


def block_board(st: State, blockers: list[Permanent], attackers: list[Permanent]) -> BlockBoard:
    can, cap, reqs = {}, {}, {}
    for b in blockers:
        can[b.id] = [a.id for a in attackers if evasion.pair_problem(st, b, a) is None]
        cap[b.id] = evasion.capacity(st, b)
        r = block_requirements(st, b)
        if r:
            reqs[b.id] = r
    menace = {a.id for a in attackers if derived.has_kw(st, a, "menace")}
    return BlockBoard(can, cap, menace, reqs)


def _options(board: BlockBoard, bid: str) -> list[frozenset[str]]:
    can = board.can.get(bid, [])
    k = int(min(board.cap[bid], len(can), 3))    # more than 3 at once adds nothing to requirements
    out = [frozenset()]
    for size in range(1, k + 1):
        out += [frozenset(c) for c in combinations(can, size)]
    return out


def _helpers_cover(board: BlockBoard, fixed: dict[str, frozenset[str]]) -> dict[str, list[str]] | None:
    """Blocks by the creatures without requirements that give every creature with menace
    blocked by exactly one of ``fixed`` a second blocker (702.111b); None if impossible."""
    count: dict[str, int] = {}
    for s in fixed.values():
        for a in s:
            count[a] = count.get(a, 0) + 1
    short = [a for a, n in count.items() if n == 1 and a in board.menace]
    helpers = [b for b in board.can if b not in fixed]
    slots: dict[str, list[str]] = {h: [] for h in helpers}
    match: dict[str, str] = {}                     # attacker → helper

    def augment(a: str, seen: set[str]) -> bool:
        for h in helpers:
            if a not in board.can[h] or h in seen:
                continue
            seen.add(h)
            if len(slots[h]) < board.cap[h]:
                slots[h].append(a)
                match[a] = h
                return True
            for other in list(slots[h]):
                if augment(other, seen):
                    slots[h].remove(other)
                    slots[h].append(a)
                    match[a] = h
                    return True
        return False

    for a in short:
        if not augment(a, set()):
            return None
    return {h: s for h, s in slots.items() if s}


def best_blocks(board: BlockBoard) -> tuple[int, dict[str, list[str]]] | None:
    """(most block requirements obeyable, a legal declaration obeying them); None if the
    search is too large to finish (MAX_NODES)."""
    order = sorted(board.reqs, key=lambda b: b)
    order = [b for b in order if b in board.can]
    bound = [sum(len(board.reqs[b]) for b in order[i:]) for i in range(len(order) + 1)]
    best: list = [-1, {}]
    nodes = [0]
    fixed: dict[str, frozenset[str]] = {}

    def dfs(i: int, score: int) -> bool:
        nodes[0] += 1
        if nodes[0] > MAX_NODES:
            return False
        if score + bound[i] <= best[0]:
            return True
        if i == len(order):
            helpers = _helpers_cover(board, fixed)
            if helpers is not None:
                decl = {b: sorted(s) for b, s in fixed.items() if s}
                decl.update(helpers)
                best[0], best[1] = score, decl
            return True
        bid = order[i]
        opts = sorted(_options(board, bid), key=lambda s: -_block_score(board.reqs[bid], s))
        for s in opts:
            fixed[bid] = s
            if not dfs(i + 1, score + _block_score(board.reqs[bid], s)):
                return False
            if best[0] == score + bound[i] and best[0] >= 0:
                break
        del fixed[bid]
        return True

    if not dfs(0, 0):
        return None
    return max(best[0], 0), best[1]


def block_shortfall(st: State, board: BlockBoard, declared: dict[str, list[str]]
                    ) -> tuple[str, list[str]] | None:
    """Why a legal declaration obeys fewer block requirements than possible (509.1c), or None."""
    if not board.reqs:
        return None
    got = sum(_block_score(r, frozenset(declared.get(b, ()))) for b, r in board.reqs.items())
    found = best_blocks(board)
    if found is None or got >= found[0]:
        return None
    best, _ = found
    broken = [r for b, rs in board.reqs.items() for r in rs
              if _block_score([r], frozenset(declared.get(b, ()))) == 0]
    rules = ["509.1c"] + sorted({x for r in broken for x in r.rules if x != "509.1c"})
    return ("; ".join(r.text for r in broken) + f" (la dichiarazione rispetta {got} requisiti su "
            f"{best} possibili senza violare restrizioni)"), rules
