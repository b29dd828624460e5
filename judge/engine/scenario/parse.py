"""Scenarios validated: JSON data to a :class:`judge.engine.state.State`, with Italian errors and
field paths, within the format's limits.

The format is documented in docs/scenario-format.md.  ``parse`` never raises anything but
:class:`ScenarioError` for bad input, whatever the input is.  The limits of every value and the
``Validator`` that reads fields: ``validation``; the newer fields: ``scenario_fields``; the
checks of what the objects refer to: ``scenario_refs``.  Reading and writing files:
``scenario_json``; new scenarios: ``templates``.
"""

from __future__ import annotations

import re
from typing import Any

from judge.engine.errors import ScenarioError
from judge.engine.mechanics import identity
from judge.engine.scenario import card_defaults
from judge.engine.scenario import scenario_combat as scb
from judge.engine.scenario import scenario_fields as sf
from judge.engine.scenario import (scenario_effects, scenario_phases, scenario_refs,
                                   scenario_step_triggers)
from judge.engine.seats import starting_life
from judge.engine.state import (CARD_LISTS, CARD_TYPES, MANA, SUPERTYPES, VARIANTS,
                                ZONES, Card, Combat, Permanent, Player, StackItem, State, Turn)
from judge.engine.steps import STEP_NAMES
# The value limits are re-exported for the modules that read them here (web, scenario_json).
from judge.engine.validation import (EXPECTED, LONG_TEXT_KEYS, MAX_INT,  # noqa: F401
                                     MAX_LONG_TEXT, MAX_TEXT, Validator)

FORMAT = "judge-scenario"
VERSION = 1

# Limits for hostile or broken files, beyond those of every value (validation.py).
MAX_OBJECTS = 10_000       # cards, tokens and permanents in all zones together
MAX_PLAYERS = 16
MAX_FILE_BYTES = 20_000_000

ATTACK_OPTIONS = ("multiple", "choose", "left", "right")

TOP_KEYS = {"format", "version", "title", "description", "question", "answer", "rules",
            "expected", "variant",
            "options", "players", "battlefield", "stack", "turn", "day_night", "monarch",
            "initiative", "combat", "seed", "random_calls", "result", "pending",
            "procedure", "answers", "next_id", "notes", "planar_controller", "waiting_triggers",
            "effects", "sources", "step_triggers"}
CARD_KEYS = {"id", "name", "types", "subtypes", "supertypes", "power", "toughness",
             "loyalty", "defense", "token", "owner", "keywords", "chapters", "enchant",
             "commander", "ongoing", "notes", "copy", "rooms", "venture_marker", "moved_since_sba",
             "card", "colors", "mana_cost", "incarnation"}
PERM_KEYS = CARD_KEYS | {"controller", "tapped", "damage", "damaged_by_deathtouch",
                         "counters", "summoning_sick", "phased_out", "phased_out_indirectly",
                         "doesnt_untap", "attached_to", "protector", "until_end_of_turn",
                         "max_counters", "sector", "control_effect", "goaded_by",
                         *scenario_effects.PERM_KEYS}
PLAYER_KEYS = {"id", "name", "team", "life", "poison", "max_hand_size", *ZONES, "mana_pool",
               "commander_damage", "cant_gain_life", "cant_lose_life", "lost",
               "attempted_draw_from_empty_library", "archenemy", "scheme_deck", "notes",
               "planar_deck", "speed", "completed_dungeons"}
TURN_KEYS = {"number", "active_player", "step", "spells_cast", "last_turn", "cleanup_again",
             "speed_triggered", "extra_turns", "extra_after", *scenario_phases.KEYS}
COMBAT_KEYS = {"defending_players", "attackers", "blockers", "attackers_declared",
               "blockers_declared_by", "first_strikers", "dealt_first_strike",
               "assignments", "assigned_by", "requirements", "delayed"}



def entering_counters(perm) -> dict[str, int]:
    """The counters a permanent of the file gets when the file does not say how many it has: those
    it would have entered with. A file must then write such a counter even at 0 (scenario_json.py)."""
    out: dict[str, int] = {}
    if "planeswalker" in perm.types and perm.loyalty is not None:
        out["loyalty"] = perm.loyalty          # 306.5b
    if "battle" in perm.types and perm.defense is not None:
        out["defense"] = perm.defense          # 310.4b
    if "Saga" in perm.subtypes and perm.chapters:
        out["lore"] = 1                        # 714.3a
    return out

def _count_objects(data: dict) -> int:
    n = 0
    bf = data.get("battlefield")
    if isinstance(bf, list):
        n += len(bf)
    players = data.get("players")
    if isinstance(players, list):
        for pl in players:
            if isinstance(pl, dict):
                for z in CARD_LISTS:
                    v = pl.get(z)
                    if isinstance(v, list):
                        n += len(v)
    return n


def _card(v: Validator, d: Any, path: str, owner: str, on_battlefield: bool) -> Card | None:
    if not isinstance(d, dict):
        v.err(path, "atteso un oggetto (una carta)")
        return None
    v.unknown_keys(d, PERM_KEYS if on_battlefield else CARD_KEYS, path)
    d = card_defaults.with_card(d, path, on_battlefield, v.err)   # "card": the table's values
    cid = v.typed(d, "id", path, "str", required=True)
    name = v.typed(d, "name", path, "str", required=True)
    if cid is not None and not cid.strip():
        v.err(f"{path}.id", "l'id non può essere vuoto")
    types = v.str_list(d, "types", path, CARD_TYPES, "tipo")
    kwargs = dict(
        id=cid or "?", name=name or "?", types=types,
        subtypes=v.str_list(d, "subtypes", path),
        supertypes=v.str_list(d, "supertypes", path, SUPERTYPES, "supertipo"),
        power=v.typed(d, "power", path, "int", nullable=True),
        toughness=v.typed(d, "toughness", path, "int", nullable=True),
        loyalty=v.typed(d, "loyalty", path, "int", nullable=True),
        defense=v.typed(d, "defense", path, "int", nullable=True),
        token=v.typed(d, "token", path, "bool", False),
        owner=v.typed(d, "owner", path, "str", owner) or owner,
        keywords=scb.keyword_list(v, d, "keywords", path),
        colors=scb.colors(v, d, path),
        chapters=v.typed(d, "chapters", path, "int", nullable=True),
        enchant=v.typed(d, "enchant", path, "str", nullable=True),
        commander=v.typed(d, "commander", path, "bool", False),
        ongoing=v.typed(d, "ongoing", path, "bool", False),
        notes=v.typed(d, "notes", path, "str", nullable=True),
        **sf.card_fields(v, d, path),
        **_printed_fields(v, d, path),
    )
    v.nonneg(kwargs["loyalty"], f"{path}.loyalty")
    v.nonneg(kwargs["defense"], f"{path}.defense")
    v.nonneg(kwargs["chapters"], f"{path}.chapters")
    if not on_battlefield:
        return Card(**kwargs)
    counters = scb.counters(v.int_map(d, "counters", path))
    controller = v.typed(d, "controller", path, "str", required=True)
    perm = Permanent(
        **{**kwargs, "owner": v.typed(d, "owner", path, "str", None) or controller or "?"},
        controller=controller or "?",
        tapped=v.typed(d, "tapped", path, "bool", False),
        damage=v.typed(d, "damage", path, "int", 0),
        damaged_by_deathtouch=v.typed(d, "damaged_by_deathtouch", path, "bool", False),
        counters=counters,
        summoning_sick=v.typed(d, "summoning_sick", path, "bool", False),
        phased_out=v.typed(d, "phased_out", path, "bool", False),
        phased_out_indirectly=v.typed(d, "phased_out_indirectly", path, "bool", False),
        doesnt_untap=v.typed(d, "doesnt_untap", path, "bool", False),
        attached_to=v.typed(d, "attached_to", path, "str", nullable=True),
        protector=v.typed(d, "protector", path, "str", nullable=True),
        max_counters=v.int_map(d, "max_counters", path),
        goaded_by=scb.goaded_by(v, d, path),
        **sf.permanent_fields(v, d, path),
        **scenario_effects.permanent_fields(v, d, path),
    )
    v.nonneg(perm.damage, f"{path}.damage")
    # Rules defaults for counters a permanent enters with.
    for kind, n in entering_counters(perm).items():
        if kind not in counters:
            perm.counters[kind] = n
    said = {p for p, _ in v.errors}     # a card's «*» power is already explained (card_defaults)
    if "creature" in perm.types and perm.toughness is None and f"{path}.toughness" not in said:
        v.err(f"{path}.toughness", "obbligatorio per una creatura")
    if "creature" in perm.types and perm.power is None and f"{path}.power" not in said:
        v.err(f"{path}.power", "obbligatorio per una creatura")
    return perm


_MANA_COST = re.compile(r"(?:\{[A-Za-z0-9/½∞]{1,8}\})*")


def _printed_fields(v: Validator, d: dict, path: str) -> dict:
    """The card of the table an object is and its mana cost (colours: scenario_combat.colors)."""
    cost = v.typed(d, "mana_cost", path, "str", None, nullable=True)
    if cost is not None and not _MANA_COST.fullmatch(cost):
        v.err(f"{path}.mana_cost", 'atteso un costo di mana come "{1}{G}" (simboli tra graffe)')
        cost = None
    return {"card": v.typed(d, "card", path, "str", None, nullable=True), "mana_cost": cost}


def parse(data: Any) -> State:
    """Validate a scenario (already decoded from JSON) and build a State."""
    v = Validator()
    if not isinstance(data, dict):
        raise ScenarioError([("", "lo scenario deve essere un oggetto JSON")])
    if data.get("format") != FORMAT:
        v.err("format", f'atteso "{FORMAT}"')
    ver = data.get("version")
    if ver != VERSION or isinstance(ver, bool):
        v.err("version", f"versione non supportata (attesa {VERSION})")
    n_obj = _count_objects(data)
    if n_obj > MAX_OBJECTS:
        raise ScenarioError([("", f"troppi oggetti: {n_obj} (limite {MAX_OBJECTS})")])
    v.unknown_keys(data, TOP_KEYS, "")
    st = State()
    st.title = v.typed(data, "title", "", "str", "") or ""
    for k in LONG_TEXT_KEYS:
        if k in data:
            val = v.typed(data, k, "", "str")
            if val is not None:
                st.extra[k] = val
    for k in ("rules", "expected"):
        if k in data:
            st.extra[k] = data[k]
    if "sources" in data:
        st.extra["sources"] = scenario_effects.sources(v, data)
    if "rules" in data:
        v.str_list(data, "rules", "")
    if "expected" in data and not isinstance(data["expected"], (dict, list)):
        v.err("expected", EXPECTED["dict"])
    variant = v.typed(data, "variant", "", "str", "two-player") or "two-player"
    if variant not in VARIANTS:
        v.err("variant", f'variante sconosciuta "{variant}" (ammesse: {", ".join(VARIANTS)})')
        variant = "two-player"
    st.variant = variant
    opts = v.typed(data, "options", "", "dict", {})
    attack = opts.get("attack", "multiple")
    if "attack" in opts and attack not in ATTACK_OPTIONS:
        v.err("options.attack", f'opzione sconosciuta (ammesse: {", ".join(ATTACK_OPTIONS)})')
        attack = "multiple"
    v.unknown_keys(opts, {"attack", "planechase", "range_of_influence"}, "options")
    st.options = {"attack": attack}
    reach = scb.range_of_influence(v, opts)
    if reach is not None:
        st.options["range_of_influence"] = reach
    if v.typed(opts, "planechase", "options", "bool", False):
        st.options["planechase"] = True
    st.seed = v.typed(data, "seed", "", "int", 0)
    st.random_calls = v.typed(data, "random_calls", "", "int", 0)
    v.nonneg(st.random_calls, "random_calls")
    st.next_id = v.typed(data, "next_id", "", "int", 1)

    # --- players -----------------------------------------------------------
    raw_players = v.typed(data, "players", "", "list", [], required=True)
    if len(raw_players) > MAX_PLAYERS:
        raise ScenarioError([("players", f"troppi giocatori (limite {MAX_PLAYERS})")])
    n = len(raw_players)
    arch_flags = [isinstance(p, dict) and p.get("archenemy") is True for p in raw_players]
    if variant == "archenemy" and not any(arch_flags) and n:
        arch_flags[0] = True
    for i, rp in enumerate(raw_players):
        path = f"players[{i}]"
        if not isinstance(rp, dict):
            v.err(path, "atteso un oggetto (un giocatore)")
            continue
        v.unknown_keys(rp, PLAYER_KEYS, path)
        pid = v.typed(rp, "id", path, "str", required=True) or f"?{i}"
        if variant == "two-headed-giant":
            team_default = "A" if i < n // 2 else "B"
        elif variant == "archenemy":
            team_default = "archenemy" if arch_flags[i] else "eroi"
        else:
            team_default = pid
        pl = Player(
            id=pid,
            name=v.typed(rp, "name", path, "str", pid) or pid,
            team=v.typed(rp, "team", path, "str", team_default) or team_default,
            life=v.typed(rp, "life", path, "int", starting_life(variant, n, arch_flags[i])),
            poison=v.typed(rp, "poison", path, "int", 0),
            max_hand_size=v.typed(rp, "max_hand_size", path, "int", 7, nullable=True),
            mana_pool=v.int_map(rp, "mana_pool", path, MANA),
            commander_damage=v.int_map(rp, "commander_damage", path),
            cant_gain_life=v.typed(rp, "cant_gain_life", path, "bool", False),
            cant_lose_life=v.typed(rp, "cant_lose_life", path, "bool", False),
            lost=v.typed(rp, "lost", path, "bool", False),
            attempted_draw_from_empty_library=v.typed(
                rp, "attempted_draw_from_empty_library", path, "bool", False),
            archenemy=arch_flags[i],
            **sf.player_fields(v, rp, path),
        )
        v.nonneg(pl.poison, f"{path}.poison")
        v.nonneg(pl.max_hand_size, f"{path}.max_hand_size")
        for z in CARD_LISTS:
            cards = v.typed(rp, z, path, "list", [])
            for j, rc in enumerate(cards):
                c = _card(v, rc, f"{path}.{z}[{j}]", pid, False)
                if c is not None:
                    if c.owner != pid and z in ("hand", "library", "graveyard"):
                        v.err(f"{path}.{z}[{j}].owner",
                              "una carta va nella mano, nel grimorio o nel cimitero del suo "
                              "proprietario (regola 400.3)")
                    pl.zone(z).append(c)
        st.players.append(pl)

    # --- battlefield -------------------------------------------------------
    legacy: list[tuple[Permanent, dict]] = []
    for i, rc in enumerate(v.typed(data, "battlefield", "", "list", [])):
        c = _card(v, rc, f"battlefield[{i}]", "", True)
        if c is not None:
            st.battlefield.append(c)  # type: ignore[arg-type]
            legacy.append((c, scenario_effects.legacy_until_end_of_turn(v, rc, f"battlefield[{i}]")))
    st.effects = scenario_effects.read_effects(v, data)
    additions = scenario_phases.read_additions(v, data)     # 500.8–500.10: applied below

    # --- stack -------------------------------------------------------------
    for i, rs in enumerate(v.typed(data, "stack", "", "list", [])):
        path = f"stack[{i}]"
        if not isinstance(rs, dict):
            v.err(path, EXPECTED["dict"])
            continue
        v.unknown_keys(rs, {"id", "kind", "controller", "text", "card", "source", "rules",
                            "effect", "targets"}, path)
        kind = v.typed(rs, "kind", path, "str", "ability")
        if kind not in ("spell", "ability"):
            v.err(f"{path}.kind", 'atteso "spell" o "ability"')
        card = None
        if rs.get("card") is not None:
            card = _card(v, rs["card"], f"{path}.card", "", False)
        ctrl = v.typed(rs, "controller", path, "str", required=True) or "?"
        if card is not None and not card.owner:
            card.owner = ctrl
        if kind == "spell" and card is None:
            v.err(f"{path}.card", "una magia in pila richiede la sua carta")
        st.stack.append(StackItem(
            id=v.typed(rs, "id", path, "str", required=True) or f"?s{i}",
            kind=kind or "ability", controller=ctrl,
            text=v.typed(rs, "text", path, "str", "") or "", card=card,
            source=v.typed(rs, "source", path, "str", nullable=True),
            targets=v.str_list(rs, "targets", path),
            **sf.stack_fields(v, rs, path)))

    # --- turn --------------------------------------------------------------
    rt = v.typed(data, "turn", "", "dict", {})
    v.unknown_keys(rt, TURN_KEYS, "turn")
    st.turn = Turn(
        number=v.typed(rt, "number", "turn", "int", 1),
        active_player=v.typed(rt, "active_player", "turn", "str",
                              st.players[0].id if st.players else "") or "",
        step=v.typed(rt, "step", "turn", "str", "precombat_main") or "precombat_main",
        spells_cast=v.int_map(rt, "spells_cast", "turn"),
        cleanup_again=v.typed(rt, "cleanup_again", "turn", "bool", False),
        speed_triggered=v.str_list(rt, "speed_triggered", "turn"),
        extra_turns=v.str_list(rt, "extra_turns", "turn"),
        extra_after=v.typed(rt, "extra_after", "turn", "str", None, nullable=True),
    )
    if st.turn.number < 1:
        v.err("turn.number", "atteso un intero positivo")
    if st.turn.step not in STEP_NAMES:
        v.err("turn.step", f'sottofase sconosciuta "{st.turn.step}" (ammesse: {", ".join(STEP_NAMES)})')
        st.turn.step = "precombat_main"
    scenario_phases.read(v, rt, st)
    scenario_phases.read_after_skip(v, rt, st)
    lt = v.typed(rt, "last_turn", "turn", "dict", None, nullable=True)
    if lt is not None:
        v.unknown_keys(lt, {"active_player", "spells_cast"}, "turn.last_turn")
        st.turn.last_turn = {
            "active_player": v.typed(lt, "active_player", "turn.last_turn", "str", None, nullable=True),
            "spells_cast": v.int_map(lt, "spells_cast", "turn.last_turn"),
        }

    dn = data.get("day_night")
    if dn not in (None, "day", "night"):
        v.err("day_night", 'atteso null, "day" o "night"')
        dn = None
    st.day_night = dn
    st.monarch = v.typed(data, "monarch", "", "str", None, nullable=True)
    st.initiative = v.typed(data, "initiative", "", "str", None, nullable=True)

    # --- combat --------------------------------------------------------------
    rc = v.typed(data, "combat", "", "dict", None, nullable=True)
    if rc is not None:
        st.combat = _combat(v, rc)

    # --- engine bookkeeping ---------------------------------------------------
    st.result = v.typed(data, "result", "", "dict", None, nullable=True)
    st.pending = v.typed(data, "pending", "", "dict", None, nullable=True)
    st.procedure = v.str_list(data, "procedure", "")
    st.answers = v.typed(data, "answers", "", "dict", {})
    st.planar_controller = v.typed(data, "planar_controller", "", "str", None, nullable=True)
    st.waiting_triggers = sf.waiting_triggers(v, data)
    st.step_triggers = scenario_step_triggers.read(v, data)
    # References as written (an id: the object it is now; «orso#N»: an earlier one) → keys.
    identity.map_refs(st, st.ref_in)

    try:
        scenario_refs.check(v, st)
        sf.check_state(v, st)
        scb.check_refs(v, st)
        scenario_step_triggers.check_refs(v, st)
        scenario_effects.finish(v, st, legacy)
        scenario_phases.apply_additions(v, st, additions)
    except Exception:           # a broken structure already reported above
        if not v.errors:
            raise
    if v.errors:
        raise ScenarioError(v.errors)
    scenario_effects.settle(st)
    combat_errors = scenario_refs.combat_control(st)     # needs the controllers of layer 2
    if combat_errors:
        raise ScenarioError(combat_errors)
    return st


def _combat(v: Validator, rc: dict) -> Combat:
    v.unknown_keys(rc, COMBAT_KEYS, "combat")
    cb = Combat(defending_players=v.str_list(rc, "defending_players", "combat"),
                attackers_declared=v.typed(rc, "attackers_declared", "combat", "bool", True),
                blockers_declared_by=v.str_list(rc, "blockers_declared_by", "combat"),
                dealt_first_strike=v.str_list(rc, "dealt_first_strike", "combat"),
                assigned_by=v.str_list(rc, "assigned_by", "combat"))
    fs = rc.get("first_strikers")
    cb.first_strikers = v.str_list(rc, "first_strikers", "combat") if fs is not None else None
    for i, a in enumerate(v.typed(rc, "attackers", "combat", "list", [])):
        p = f"combat.attackers[{i}]"
        if not isinstance(a, dict):
            v.err(p, EXPECTED["dict"])
            continue
        v.unknown_keys(a, {"id", "target", "blocked", "defender"}, p)
        entry = {"id": v.typed(a, "id", p, "str", required=True),
                 "target": v.typed(a, "target", p, "str", None, nullable=True),
                 "blocked": v.typed(a, "blocked", p, "bool", False)}
        defender = v.typed(a, "defender", p, "str", None, nullable=True)
        if defender is not None:
            entry["defender"] = defender   # the controller of the planeswalker it was attacking
        cb.attackers.append(entry)
    for i, b in enumerate(v.typed(rc, "blockers", "combat", "list", [])):
        p = f"combat.blockers[{i}]"
        if not isinstance(b, dict):
            v.err(p, EXPECTED["dict"])
            continue
        v.unknown_keys(b, {"id", "blocking"}, p)
        blocking = b.get("blocking")
        if isinstance(blocking, str):
            blocking = [blocking]
            b = {**b, "blocking": blocking}
        cb.blockers.append({"id": v.typed(b, "id", p, "str", required=True),
                            "blocking": v.str_list(b, "blocking", p)})
    cb.requirements = scb.requirements(v, rc)
    cb.delayed = scb.delayed(v, rc, sf.effect)
    asg = v.typed(rc, "assignments", "combat", "dict", {})
    for k in list(asg):
        cb.assignments[k] = v.int_map(asg, k, "combat.assignments")
    return cb
