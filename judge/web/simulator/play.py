"""The stepper's model: a game document (starting scenario + actions), replayed by the engine.

A saved game is::

    {"format": "judge-partita", "version": 1,
     "scenario": {…the starting scenario…},
     "actions": [{"type": "step"}, {"type": "step_to", "step": "cleanup"},
                 {"type": "next_turn"}, {"type": "decide", "answer": {…} | null},
                 {"type": "act", "name": "deal_damage", "params": {…} | [{…}, …]}],
     "redo": [ …actions undone, the next one to redo first… ]}

A document is the whole truth about a state and its log (the engine is
deterministic: the seed is in the scenario), and undo/redo are list operations
on the document.  The web keeps no Game between requests; history
opens a document from a cached snapshot instead of replaying it all.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from judge.engine import Game, IllegalAction, ScenarioError
from judge.engine.events import Event
from judge.engine.registry import ACTIONS
from judge.engine.steps import STEP_NAMES
from judge.web.simulator import actions as judge_actions, judge_sentences
from judge.engine.state import CARD_LISTS
from judge.web.simulator.forms import MAX_ACTIONS, MAX_CARDS, MAX_PERMANENTS, STEPS_IT, limit_errors

GAME_FORMAT = "judge-partita"
GAME_VERSION = 1
ACTION_TYPES = ("step", "step_to", "next_turn", "decide", "act")


def new_game(scenario: dict) -> dict:
    return {"format": GAME_FORMAT, "version": GAME_VERSION, "scenario": scenario,
            "actions": [], "redo": []}


def is_game(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("format") == GAME_FORMAT


def check_game(doc: Any) -> list[tuple[str, str]]:
    """Structural errors of a game document (Italian, with paths); the scenario is checked
    by the engine when replayed."""
    errs: list[tuple[str, str]] = []
    if not isinstance(doc, dict):
        return [("", "la partita deve essere un oggetto JSON")]
    if doc.get("version") != GAME_VERSION:
        errs.append(("version", f"versione non supportata (attesa {GAME_VERSION})"))
    for k in doc:
        if k not in ("format", "version", "scenario", "actions", "redo"):
            errs.append((k, "campo sconosciuto"))
    if not isinstance(doc.get("scenario"), dict):
        errs.append(("scenario", "campo obbligatorio: lo scenario di partenza"))
    else:
        errs += [(f"scenario.{p}" if p else "scenario", m) for p, m in limit_errors(doc["scenario"])]
    for key in ("actions", "redo"):
        acts = doc.get(key, [])
        if not isinstance(acts, list):
            errs.append((key, "attesa una lista"))
            continue
        if len(acts) > MAX_ACTIONS:
            errs.append((key, f"troppe azioni: {len(acts)} (il limite è {MAX_ACTIONS})"))
            continue
        for i, a in enumerate(acts):
            p = f"{key}[{i}]"
            if not isinstance(a, dict) or a.get("type") not in ACTION_TYPES:
                errs.append((p, f'azione non valida (tipi ammessi: {", ".join(ACTION_TYPES)})'))
            elif a["type"] == "step_to" and a.get("step") not in STEP_NAMES:
                errs.append((f"{p}.step", f'sottofase sconosciuta (ammesse: {", ".join(STEP_NAMES)})'))
            elif a["type"] == "step_to" and not isinstance(a.get("turn_end", False), bool):
                errs.append((f"{p}.turn_end", "atteso un booleano (true/false)"))
            elif a["type"] == "act":
                errs += _act_errors(a, p)
            elif set(a) - {"type", "step", "answer", "turn_end"}:
                errs.append((p, "campo sconosciuto nell'azione"))
    return errs


MAX_ROWS = 20        # a judge action repeated in one history entry (several triggers …)


def _act_errors(a: dict, p: str) -> list[tuple[str, str]]:
    errs = []
    if set(a) - {"type", "name", "params"}:
        errs.append((p, "campo sconosciuto nell'azione (ammessi: type, name, params)"))
    if a.get("name") not in ACTIONS:
        errs.append((f"{p}.name", f'azione del giudice sconosciuta «{str(a.get("name"))[:60]}» '
                                  f'(ammesse: {", ".join(sorted(ACTIONS))})'))
    params = a.get("params", {})
    rows = params if isinstance(params, list) else [params]
    if not rows or len(rows) > MAX_ROWS or not all(isinstance(r, dict) for r in rows):
        errs.append((f"{p}.params", f"atteso un oggetto, o una lista di 1–{MAX_ROWS} oggetti, "
                                    'con i parametri (per esempio {"target": "p2", "amount": 3})'))
    return errs


ENGINE_FAULTS = (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError)


def perform(game: Game, action: dict) -> list[Event]:
    """Perform one action; anything but a clean result is an IllegalAction (Italian).

    A state edited by hand can hold a pending decision that no longer fits the board;
    the engine may then fail in unexpected ways, which must not become a server error.
    """
    try:
        return _perform(game, action)
    except IllegalAction:
        raise
    except ENGINE_FAULTS as e:
        raise IllegalAction("il motore non riesce a eseguire questa azione su questo stato "
                            f"(probabilmente una decisione in sospeso non più coerente con il "
                            f"tavolo: {type(e).__name__})") from None


def _perform(game: Game, action: dict) -> list[Event]:
    t = action.get("type")
    if t == "step":
        return game.step()
    if t == "step_to":
        return game.step_to(action["step"], turn_end=action.get("turn_end") is True)
    if t == "next_turn":
        return game.next_turn()
    if t == "decide":
        return game.decide(action.get("answer"))
    if t == "act":
        return _act(game, action["name"], action.get("params", {}))
    raise IllegalAction(f"azione sconosciuta «{t}»")


def _act(game: Game, name: str, params: dict | list[dict]) -> list[Event]:
    """A judge action; a list of parameter sets repeats it, as one history entry: all or
    nothing (the engine's own undo takes back the ones done when one is refused)."""
    rows = params if isinstance(params, list) else [params]
    events: list[Event] = []
    for i, row in enumerate(rows):
        try:
            events += game.act(name, **row)
        except IllegalAction as e:
            if i:
                game.undo(i)
            if len(rows) > 1:
                raise IllegalAction(f"riga {i + 1}: {e.message}", e.rules) from None
            raise
    too_many = size_error(game.state)
    if too_many:                # the web's limits hold for a game's states too (pedine, pila)
        game.undo(len(rows))
        raise IllegalAction(too_many)
    return events


def size_error(st) -> str:
    """The web's limits on a state's size (MAX_PERMANENTS, MAX_CARDS), in Italian; "" if within."""
    cards = len(st.battlefield) + len(st.stack) + sum(
        len(p.zone(z)) for p in st.players for z in CARD_LISTS)
    if len(st.battlefield) > MAX_PERMANENTS:
        return f"troppi permanenti: {len(st.battlefield)} (il limite è {MAX_PERMANENTS})"
    if cards > MAX_CARDS:
        return f"troppi oggetti: {cards} in tutto (il limite è {MAX_CARDS})"
    return ""


def describe(action: dict, st=None) -> str:
    """An action in Italian, for buttons and the log."""
    t = action.get("type")
    if t == "step":
        return "Passo successivo"
    if t == "step_to":
        return f"Avanza fino a: {STEPS_IT.get(action.get('step'), action.get('step'))}"
    if t == "next_turn":
        return "Avanza al turno successivo"
    if t == "decide":
        return "Decisione" + (" (predefinita)" if action.get("answer") is None else "")
    if t == "act":
        return "Azione del giudice: " + judge_actions.describe(str(action.get("name")),
                                                               action.get("params") or {}, st)
    return str(t)


def log_label(action: dict, st=None) -> str:
    """A judge's action as the log and its Markdown copy say it: a sentence where the action has
    one (judge_sentences.py), else ``describe``."""
    if action.get("type") == "act":
        said = judge_sentences.sentence(str(action.get("name")), action.get("params") or {}, st)
        if said:
            return said
    return describe(action, st)


@dataclass
class Played:
    """A game document opened: the engine at its current state and the events of its last
    actions (``steps``: all of them when ``complete``; see history)."""

    game: Game
    steps: list[tuple[int, dict, list[Event]]] = field(default_factory=list)
    broken: tuple[int, str] | None = None     # (action index, Italian message) when replay stopped
    key: str | None = None                    # history key of the current state (history)
    complete: bool = True                     # steps hold every action's events
    n_actions: int = 0
    doc_data: bytes = b""                     # the document's canonical JSON, when loaded

    @property
    def events(self) -> list[Event]:
        return [e for _, _, evs in self.steps for e in evs]


def replay(doc: dict) -> Played:
    """Replay a (checked) game document.  ScenarioError if its scenario is invalid."""
    game = Game.from_dict(copy.deepcopy(doc["scenario"]))
    played = Played(game, n_actions=len(doc.get("actions") or []))
    for i, a in enumerate(doc.get("actions") or []):
        try:
            evs = perform(game, a)
        except IllegalAction as e:
            played.broken = broken_at(i, a, e)
            break
        played.steps.append((i, a, evs))
    return played


def broken_at(i: int, action: dict, e: IllegalAction) -> tuple[int, str]:
    cited = f" (regola {', '.join(e.rules)})" if e.rules else ""
    return i, f"l'azione {i + 1} ({describe(action)}) non si può più eseguire: {e.message}{cited}"


def trim(played: Played, log: int | None) -> Played:
    """Keep the events of the last actions only: at least ``log`` events (None: all)."""
    if log is None:
        return played
    total, keep = 0, len(played.steps)
    while keep > 0 and total < log:
        keep -= 1
        total += len(played.steps[keep][2])
    played.complete = keep == 0
    played.steps = played.steps[keep:]
    return played


# --- document operations (pure: each returns a new document) -------------------------

# Documents are never changed in place, so the new one shares the scenario and the actions.

def with_action(doc: dict, action: dict) -> dict:
    return {**doc, "actions": [*(doc.get("actions") or []), action], "redo": []}


def undone(doc: dict) -> dict | None:
    acts = list(doc.get("actions") or [])
    if not acts:
        return None
    last = acts.pop()
    return {**doc, "actions": acts, "redo": [last, *(doc.get("redo") or [])]}


def redone(doc: dict) -> dict | None:
    redo = list(doc.get("redo") or [])
    if not redo:
        return None
    return {**doc, "actions": [*(doc.get("actions") or []), redo[0]], "redo": redo[1:]}


# --- decisions from a form --------------------------------------------------------------

def answer_from_form(pending: dict, form) -> Any:
    """The engine answer for a pending decision from the stepper's form fields.

    Field names use positions in the decision's option lists (``att-0``), never
    object ids, so any id is safe in a form.  Returns None for "take the default".
    """
    kind = pending.get("kind")
    opts = pending.get("options") or {}
    if kind == "declare_attackers":
        out = []
        for i, c in enumerate(opts.get("creatures") or []):
            t = form.get(f"att-{i}", "")
            if t:
                out.append({"id": c["id"], "target": t})
        return {"attackers": out}
    if kind == "declare_blockers":
        out = []
        for i, c in enumerate(opts.get("creatures") or []):
            chosen = [t for t in (form.getlist(f"blk-{i}") if hasattr(form, "getlist")
                                  else [form.get(f"blk-{i}", "")]) if t]
            if chosen:           # several for a creature that can block more (509.1a)
                out.append({"id": c["id"], "blocking": chosen})
        return {"blockers": out}
    if kind == "combat_damage_assignment":
        asg: dict[str, dict[str, int]] = {}
        for i, c in enumerate(opts.get("creatures") or []):
            row: dict[str, int] = {}
            for j, rid in enumerate(c.get("recipients") or []):
                raw = (form.get(f"dmg-{i}-{j}") or "0").strip()
                if not re.fullmatch(r"\d{1,6}", raw):
                    raise IllegalAction(f"danno non valido per {c.get('name')}: «{raw[:20]}» "
                                        "(atteso un intero non negativo)", ["510.1"])
                if int(raw):
                    row[rid] = int(raw)
            asg[c["id"]] = row
        return {"assignments": asg}
    if kind == "discard":
        return {"cards": list(form.getlist("scarta")) if hasattr(form, "getlist") else []}
    if kind == "legend_rule":
        return {"keep": form.get("keep", "")}
    if kind in ("choose_defending_player", "choose_protector"):
        return {"player": form.get("player", "")}
    if kind == "order_triggers":
        return {"order": _trigger_order(pending, form)}
    if kind == "commander_zone":
        return {"to_command_zone": list(form.getlist("comandante")) if hasattr(form, "getlist") else []}
    if kind == "venture_room":
        return {"room": form.get("room", "")}
    if kind == "choose_target":
        return {"target": form.get("target", "")}
    if kind == "replacement_order":
        return {"apply": form.get("apply", "")}
    if kind == "replacement_card":
        return {"card": form.get("card", "")}
    if kind in ("ward_payment", "may_apply"):
        key = "pay" if kind == "ward_payment" else "apply"
        return {key: form.get(key, "") == "1"}
    if kind == "sacrifice_permanents":
        return {"permanents": list(form.getlist("sacrifica")) if hasattr(form, "getlist") else []}
    if kind == "myriad_tokens":
        return {"attack": {o["player"]: form.get(f"myr-{i}") or None
                           for i, o in enumerate(opts.get("opponents") or [])}}
    if kind == "choose_sectors":
        return {"sectors": {c["id"]: form.get(f"sect-{i}", "")
                            for i, c in enumerate(opts.get("creatures") or [])}}
    raw = (form.get("risposta_json") or "").strip()
    if not raw:
        return None
    import json
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):     # too deep for the parser: invalid too
        raise IllegalAction("risposta JSON non valida") from None


def _trigger_order(pending: dict, form) -> list[str]:
    """``ord-i``: the position on the stack of the i-th ability (1: put there first)."""
    abilities = (pending.get("options") or {}).get("abilities") or []
    positions = []
    for i in range(len(abilities)):
        raw = str(form.get(f"ord-{i}", i + 1)).strip()
        positions.append(int(raw) if re.fullmatch(r"\d{1,3}", raw) else 0)
    if sorted(positions) != list(range(1, len(abilities) + 1)):
        raise IllegalAction("ogni posizione una volta sola: numera le abilità da 1 a "
                            f"{len(abilities)}", list(pending.get("rules") or []))
    return [a["id"] for _, a in sorted(zip(positions, abilities), key=lambda t: t[0])]


# --- the log ------------------------------------------------------------------------------

@dataclass
class LogGroup:
    turn: int
    step: str
    label: str
    entries: list[tuple[int, Event]]          # (action index, event)


def log_groups(played: Played) -> list[LogGroup]:
    """Events grouped by turn and step, oldest first."""
    groups: list[LogGroup] = []
    for i, _, evs in played.steps:
        for e in evs:
            if not groups or (groups[-1].turn, groups[-1].step) != (e.turn, e.step):
                groups.append(LogGroup(e.turn, e.step,
                                       f"Turno {e.turn} · {STEPS_IT.get(e.step, e.step)}", []))
            groups[-1].entries.append((i, e))
    return groups


def md_escape(text: str) -> str:
    """Text safe in Markdown: formatting characters escaped, angle brackets as entities
    (so no renderer turns a card name into HTML)."""
    text = re.sub(r"([\\`*_\[\]#|])", r"\\\1", text)
    return text.replace("<", "&lt;").replace(">", "&gt;")


def markdown_log(title: str, played: Played, rule_url, permalink: str) -> str:
    """The log as Markdown with rule links, ready to paste into a ruling."""
    lines = [f"# {md_escape(title or 'Scenario')}", "", f"Partita: <{permalink}>", ""]
    judge = {i: a for i, a, _ in played.steps if a.get("type") == "act"}
    turn = None
    for g in log_groups(played):
        if g.turn != turn:
            lines += [f"## Turno {g.turn}", ""]
            turn = g.turn
        lines += [f"### {STEPS_IT.get(g.step, g.step).capitalize()}", ""]
        for i, e in g.entries:
            if i in judge:          # the judge's own action, named once before its events
                lines.append(f"- *{md_escape(log_label(judge.pop(i), played.game.state))}*")
            links = ", ".join(f"[{n}]({rule_url(n)})" for n in e.rules)
            lines.append(f"- {md_escape(e.text)}" + (f" ({links})" if links else ""))
        lines.append("")
    if played.game.pending:
        p = played.game.pending
        lines += ["## In attesa", "", f"- {md_escape(p.get('prompt', ''))} ("
                  + ", ".join(f"[{n}]({rule_url(n)})" for n in p.get("rules", [])) + ")", ""]
    return "\n".join(lines).rstrip() + "\n"


def validate_scenario(data: Any) -> list[tuple[str, str]]:
    """Engine validation plus the web's limits, as ``[(path, message)]`` (empty: valid)."""
    errs = limit_errors(data)
    if errs:
        return errs
    try:
        Game.from_dict(copy.deepcopy(data))
    except ScenarioError as e:
        return list(e.errors)
    return []
