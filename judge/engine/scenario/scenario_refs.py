"""A parsed scenario's cross-references, checked once every object has been read: ids are
unique, players, permanents and attachments named anywhere exist, the variant has the right
players and teams, combat declares creatures.

Called by ``scenario.parse`` with its ``Validator``; the newer fields' own cross-checks are
``scenario_fields.check_state``.
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.characteristics import derived
from judge.engine.mechanics import identity
from judge.engine.state import CARD_LISTS, Player, State
from judge.engine.terms import TWO_HEADED_GIANT as THG
from judge.engine.validation import Validator


def check(v: Validator, st: State) -> None:
    """Report what a parsed scenario refers to and does not hold, and what its variant forbids."""
    seen: dict[str, str] = {}

    def claim(oid: str, path: str) -> None:
        if oid in seen:
            v.err(path, f'id duplicato "{oid}" (già usato in {seen[oid]})')
        else:
            seen[oid] = path

    for i, p in enumerate(st.players):
        claim(p.id, f"players[{i}].id")
    for i, p in enumerate(st.players):
        for z in CARD_LISTS:
            for j, c in enumerate(p.zone(z)):
                claim(c.id, f"players[{i}].{z}[{j}].id")
                if not st.has_player(c.owner):
                    v.err(f"players[{i}].{z}[{j}].owner", f'giocatore sconosciuto "{c.owner}"')
    for i, c in enumerate(st.battlefield):
        claim(c.id, f"battlefield[{i}].id")
    for i, s in enumerate(st.stack):
        claim(s.id, f"stack[{i}].id")
        if s.card is not None and s.card.id != s.id:
            claim(s.card.id, f"stack[{i}].card.id")
    players = {p.id for p in st.players}
    all_ids = set(seen)
    if st.players:
        n = len(st.players)
        if st.variant == "two-player" and n != 2:
            v.err("players", "una partita a due giocatori richiede esattamente 2 giocatori")
        if st.variant == "free-for-all" and n < 3:
            v.err("players", "il tutti contro tutti richiede almeno 3 giocatori")
        if st.variant in ("commander", "brawl", "vanguard", "archenemy") and n < 2:
            v.err("players", "servono almeno 2 giocatori")
        if st.variant == "two-headed-giant":
            teams: dict[str, list[Player]] = {}
            for p in st.players:
                teams.setdefault(p.team, []).append(p)
            sizes = {len(t) for t in teams.values()}
            if len(teams) != 2 or len(sizes) != 1 or sizes.pop() < 2:
                v.err("players", f"il {THG} richiede due squadre della stessa dimensione, di "
                                 "almeno 2 giocatori (regole 810.1, 810.11)")
            for t in teams.values():
                for i, p in enumerate(st.players):
                    if p in t and (p.life != t[0].life or p.poison != t[0].poison):
                        v.err(f"players[{i}].life", "i compagni di squadra condividono punti vita "
                                                    "e segnalini veleno (regole 810.4, 810.10)")
        if st.variant == "archenemy" and sum(p.archenemy for p in st.players) != 1:
            v.err("players", "una partita Archenemy ha esattamente un arcinemico (regola 904.2a)")
    else:
        v.err("players", "serve almeno un giocatore")
    for i, c in enumerate(st.battlefield):
        for key in ("controller", "owner"):
            if getattr(c, key) not in players:
                v.err(f"battlefield[{i}].{key}", f'giocatore sconosciuto "{getattr(c, key)}"')
        if c.protector is not None and c.protector not in players:
            v.err(f"battlefield[{i}].protector", f'giocatore sconosciuto "{c.protector}"')
        if c.attached_to is not None:
            if c.attached_to not in all_ids and not identity.known(st, c.attached_to):
                v.err(f"battlefield[{i}].attached_to", f'oggetto sconosciuto "{c.attached_to}"')
            elif c.attached_to == c.key:
                v.err(f"battlefield[{i}].attached_to", "un permanente non può essere assegnato a se stesso")
    # cycles in attached_to (by key: an object that changed zones is not the one attached to)
    index = {c.key: c for c in st.battlefield}
    for i, c in enumerate(st.battlefield):
        chain = [c.key]
        cur = c.attached_to
        while cur is not None and cur in index:
            if cur in chain:
                if cur == c.key and len(chain) > 1:
                    v.err(f"battlefield[{i}].attached_to",
                          "ciclo negli oggetti assegnati: " + " → ".join(chain + [cur]))
                break
            chain.append(cur)
            cur = index[cur].attached_to
    for i, s in enumerate(st.stack):
        if s.controller not in players:
            v.err(f"stack[{i}].controller", f'giocatore sconosciuto "{s.controller}"')
        if s.card is not None and s.card.owner not in players:
            v.err(f"stack[{i}].card.owner", f'giocatore sconosciuto "{s.card.owner}"')
    if st.turn.active_player not in players:
        v.err("turn.active_player", f'giocatore sconosciuto "{st.turn.active_player}"')
    for k in st.turn.spells_cast:
        if k not in players:
            v.err(f"turn.spells_cast.{k}", f'giocatore sconosciuto "{k}"')
    for key in ("monarch", "initiative"):
        val = getattr(st, key)
        if val is not None and val not in players:
            v.err(key, f'giocatore sconosciuto "{val}"')
    if st.combat is not None:
        cb = st.combat
        for i, d in enumerate(cb.defending_players):
            if d not in players:
                v.err(f"combat.defending_players[{i}]", f'giocatore sconosciuto "{d}"')
        attacker_ids = set()
        for i, a in enumerate(cb.attackers):
            perm = index.get(a["id"])
            if perm is None:
                v.err(f"combat.attackers[{i}].id", f'permanente sconosciuto "{a["id"]}"')
                continue
            attacker_ids.add(a["id"])
            if "creature" not in perm.types:
                v.err(f"combat.attackers[{i}].id", f'"{perm.name}" non è una creatura (regola 506.3)')
            t = a["target"]
            if t is not None and t not in players and not (
                    t in index and ({"planeswalker", "battle"} & set(index[t].types))):
                v.err(f"combat.attackers[{i}].target",
                      "si può attaccare solo un giocatore, un planeswalker o una battaglia (regola 506.3)")
            if a.get("defender") is not None and a["defender"] not in players:
                v.err(f"combat.attackers[{i}].defender", f'giocatore sconosciuto "{a["defender"]}"')
        for i, b in enumerate(cb.blockers):
            perm = index.get(b["id"])
            if perm is None:
                v.err(f"combat.blockers[{i}].id", f'permanente sconosciuto "{b["id"]}"')
                continue
            if "creature" not in perm.types:
                v.err(f"combat.blockers[{i}].id", f'"{perm.name}" non è una creatura (regola 506.3)')
            for j, x in enumerate(b["blocking"]):
                if x not in attacker_ids:
                    v.err(f"combat.blockers[{i}].blocking[{j}]", f'"{x}" non è una creatura attaccante')


def combat_control(st: State) -> list[tuple[str, str]]:
    """Attacking creatures are controlled by the attacking player (506.2: the active player;
    the active team with shared team turns, 506.2b, 805.10a), blocking creatures by a
    defending player (506.2, 509.1): a creature whose controller changed has left combat
    (506.4).  The errors, with their field paths."""
    cb = st.combat
    if cb is None or not st.has_player(st.turn.active_player):
        return []
    ap = st.player(st.turn.active_player)
    team = seats.shared_team_turns(st.variant)
    active = {p.id for p in st.players if p.team == ap.team} if team else {ap.id}
    if len(active) > 1:
        attackers, rules = "della squadra attiva", "regole 506.2b, 805.10a"
    else:
        attackers, rules = f"del giocatore attivo ({st.name_of(st.turn.active_player)})", "regola 506.2"
    errors = []
    for key, entries, attacking in (("attackers", cb.attackers, True),
                                    ("blockers", cb.blockers, False)):
        for i, a in enumerate(entries):
            p = st.perm(a["id"])
            if p is None:
                continue
            ctl = derived.controller(st, p)
            if (ctl in active) == attacking:
                continue
            if attacking:
                why = f"attacca, ma la controlla {st.name_of(ctl)}: attaccano solo le creature {attackers}"
            else:
                why = (f"blocca, ma la controlla {st.name_of(ctl)}: bloccano solo le creature dei "
                       f"giocatori in difesa, non quelle {attackers}")
            errors.append((f"combat.{key}[{i}].id", f"{p.name} {why} ({rules}); una creatura che "
                           "cambia controllore lascia il combattimento (regola 506.4)"))
    return errors
