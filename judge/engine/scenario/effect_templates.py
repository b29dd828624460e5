"""Effect templates for the famous layer cards, the classic «skip» cards (614.10, 614.10b) and
the cards that add phases and steps (500.8–500.10): a table a judge picks from in the builder
(the card's text beside), never a parser of card text.  Each template is an effect record of
the scenario format (docs/scenario-format.md, «Effetti continui», «Saltare sottofasi, fasi e
turni», «Fasi e sottofasi aggiuntive») with blanks the judge fills:
``{source}`` the permanent with the ability, ``{target}`` an object, ``{color}`` a colour,
``{type}`` a creature type, ``{power}``/``{toughness}`` numbers, ``{player}`` a player.

``for_card(name)`` gives the templates of a card (English name); ``fill(template, values)``
the effect, or Italian errors for the blanks left empty.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from judge.engine.state import MANA_COLORS

BLANKS = {"source": "Il permanente con l'abilità", "target": "L'oggetto bersaglio",
          "color": "Il colore scelto", "type": "Il tipo di creatura scelto",
          "power": "Forza", "toughness": "Costituzione", "player": "Il giocatore"}


@dataclass(frozen=True)
class Template:
    label: str                    # Italian: which ability or which use of the card
    effect: dict
    blanks: tuple[str, ...] = field(default=())


def _creatures(**extra) -> dict:
    return {"filter": {"types": ["creature"], **extra}}


def _static(text: str, affects: Any, does: list[dict], **kw) -> dict:
    return {"kind": "static", "source": "{source}", "text": text, "affects": affects,
            "does": does, **kw}


def _until_eot(text: str, does: list[dict], **kw) -> dict:
    return {"kind": "resolved", "text": text, "affects": {"objects": ["{target}"]}, "does": does,
            "duration": "end_of_turn", **kw}


PT = lambda p, t: {"op": "modify_pt", "power": p, "toughness": t}          # noqa: E731
ANIMATE_MV = [{"op": "add_types", "types": ["creature"]}, {"op": "set_pt", "from": "mana_value"}]
CONTROL = [{"op": "control", "player": "you"}]
ANTHEM = "Le creature che controlli prendono +{n}/+{n}."
S, T = ("source",), ("target",)

TABLE: dict[str, tuple[Template, ...]] = {
    "Humility": (Template("Umiltà", _static(
        "Tutte le creature perdono tutte le abilità e hanno forza e costituzione base 1/1.",
        _creatures(), [{"op": "lose_all_abilities"}, {"op": "set_pt", "power": 1, "toughness": 1}]),
        S),),
    "Opalescence": (Template("Animazione degli incantesimi", _static(
        "Ogni altro incantesimo non Aura è una creatura oltre ai suoi altri tipi e ha forza base e "
        "costituzione base pari al suo valore di mana.",
        {"filter": {"types": ["enchantment"], "not_subtypes": ["Aura"], "other": True}}, ANIMATE_MV),
        S),),
    "March of the Machines": (Template("Animazione degli artefatti", _static(
        "Ogni artefatto non creatura è una creatura artefatto con forza e costituzione pari al suo "
        "valore di mana.", {"filter": {"types": ["artifact"], "not_types": ["creature"]}},
        ANIMATE_MV), S),),
    "Enchanted Evening": (Template("Tutti i permanenti sono incantesimi", _static(
        "Tutti i permanenti sono incantesimi oltre ai loro altri tipi.", {"filter": {}},
        [{"op": "add_types", "types": ["enchantment"]}]), S),),
    "Mycosynth Lattice": (
        Template("Tutti i permanenti sono artefatti", _static(
            "Tutti i permanenti sono artefatti oltre ai loro altri tipi.", {"filter": {}},
            [{"op": "add_types", "types": ["artifact"]}]), S),
        Template("Tutto è incolore", _static(
            "Tutte le carte fuori dal campo di battaglia, le magie e i permanenti sono incolori.",
            {"filter": {"zones": "all"}}, [{"op": "set_colors", "colors": []}]), S)),
    "Painter's Servant": (Template("Colore scelto", _static(
        "Tutte le carte fuori dal campo di battaglia, le magie e i permanenti sono del colore "
        "scelto oltre ai loro altri colori.", {"filter": {"zones": "all"}},
        [{"op": "add_colors", "colors": ["{color}"]}]), ("source", "color")),),
    "Blood Moon": (Template("Le terre non base sono Montagne", _static(
        "Le terre non base sono Montagne.",
        {"filter": {"types": ["land"], "not_supertypes": ["basic"]}},
        [{"op": "set_subtypes", "subtypes": ["Mountain"]}]), S),),
    "Magus of the Moon": (Template("Le terre non base sono Montagne", _static(
        "Le terre non base sono Montagne.",
        {"filter": {"types": ["land"], "not_supertypes": ["basic"]}},
        [{"op": "set_subtypes", "subtypes": ["Mountain"]}]), S),),
    "Urborg, Tomb of Yawgmoth": (Template("Ogni terra è una Palude", _static(
        "Ogni terra è una Palude oltre ai suoi altri tipi di terra.", {"filter": {"types": ["land"]}},
        [{"op": "add_subtypes", "subtypes": ["Swamp"]}]), S),),
    "Conspiracy": (Template("Tipo di creatura scelto", _static(
        "Le creature che controlli sono del tipo scelto; lo stesso per le magie creatura che "
        "controlli e le carte creatura che possiedi fuori dal campo di battaglia.",
        {"filter": {"types": ["creature"], "controller": "you"}},
        [{"op": "set_subtypes", "subtypes": ["{type}"]}]), ("source", "type")),),
    "Glorious Anthem": (Template("+1/+1", _static(ANTHEM.format(n=1), _creatures(controller="you"),
                                                  [PT(1, 1)]), S),),
    "Dictate of Heliod": (Template("+2/+2", _static(ANTHEM.format(n=2), _creatures(controller="you"),
                                                    [PT(2, 2)]), S),),
    "Honor of the Pure": (Template("Creature bianche +1/+1", _static(
        "Le creature bianche che controlli prendono +1/+1.",
        _creatures(controller="you", colors=["W"]), [PT(1, 1)]), S),),
    "Lord of Atlantis": (Template("Signore dei Tritoni", _static(
        "Le altre creature Tritone prendono +1/+1 e hanno passa-isole.",
        _creatures(subtypes=["Merfolk"], other=True),
        [PT(1, 1), {"op": "add_abilities", "abilities": ["islandwalk"]}]), S),),
    "Godhead of Awe": (Template("Le altre creature sono 1/1", _static(
        "Le altre creature hanno forza e costituzione base 1/1.", _creatures(other=True),
        [{"op": "set_pt", "power": 1, "toughness": 1}]), S),),
    "Holy Strength": (Template("+1/+2 alla creatura incantata", _static(
        "La creatura incantata prende +1/+2.", "attached", [PT(1, 2)]), S),),
    "Control Magic": (Template("Controllo della creatura incantata", _static(
        "Controlli la creatura incantata.", "attached", CONTROL), S),),
    "Mind Control": (Template("Controllo della creatura incantata", _static(
        "Controlli la creatura incantata.", "attached", CONTROL), S),),
    "Confiscate": (Template("Controllo del permanente incantato", _static(
        "Controlli il permanente incantato.", "attached", CONTROL), S),),
    "Darksteel Mutation": (Template("Insetto 0/1 indistruttibile", _static(
        "La creatura incantata è una creatura artefatto Insetto con forza e costituzione base 0/1 "
        "e ha indistruttibile, e perde tutte le altre abilità, i tipi di carta e i tipi di creatura.",
        "attached", [{"op": "set_types", "types": ["artifact", "creature"]},
                     {"op": "set_subtypes", "subtypes": ["Insect"]}, {"op": "lose_all_abilities"},
                     {"op": "add_abilities", "abilities": ["indestructible"]},
                     {"op": "set_pt", "power": 0, "toughness": 1}]), S),),
    "Lignify": (Template("Arboreo 0/4", _static(
        "La creatura incantata è un Arboreo con forza e costituzione base 0/4 e perde tutte le "
        "abilità.", "attached", [{"op": "set_subtypes", "subtypes": ["Treefolk"]},
                                 {"op": "lose_all_abilities"},
                                 {"op": "set_pt", "power": 0, "toughness": 4}]), S),),
    "Ensoul Artifact": (Template("Artefatto 5/5", _static(
        "L'artefatto incantato è una creatura con forza e costituzione base 5/5 oltre ai suoi "
        "altri tipi.", "attached", [{"op": "add_types", "types": ["creature"]},
                                    {"op": "set_pt", "power": 5, "toughness": 5}]), S),),
    "Song of the Dryads": (Template("Foresta incolore", _static(
        "Il permanente incantato è una terra Foresta incolore.", "attached",
        [{"op": "set_types", "types": ["land"]}, {"op": "set_subtypes", "subtypes": ["Forest"]},
         {"op": "set_colors", "colors": []}]), S),),
    "Mirror Gallery": (Template("Niente regola delle leggende", _static(
        "La «regola delle leggende» non si applica.", "game", [{"op": "no_legend_rule"}]), S),),
    "Tarmogoyf": (Template("Forza e costituzione dai cimiteri", _static(
        "La forza è pari al numero di tipi di carta tra le carte in tutti i cimiteri, la "
        "costituzione a quel numero più 1 (scrivi i valori).", "self",
        [{"op": "set_pt", "power": "{power}", "toughness": "{toughness}"}], cda=True),
        ("source", "power", "toughness")),),
    "Clone": (Template("Entra come copia", {
        "kind": "resolved", "source": "{source}", "text": "Entra come copia di una creatura.",
        "affects": "self", "does": [{"op": "copy", "of": "{target}"}], "duration": "source"},
        ("source", "target")),),
    "Quicksilver Gargantuan": (Template("Copia, tranne che è 7/7", {
        "kind": "resolved", "source": "{source}", "text": "Entra come copia di una creatura, "
        "tranne che è 7/7.", "affects": "self",
        "does": [{"op": "copy", "of": "{target}", "except": {"set": {"power": 7, "toughness": 7}}}],
        "duration": "source"}, ("source", "target")),),
    "Copy Artifact": (Template("Copia, ed è un incantesimo", {
        "kind": "resolved", "source": "{source}", "text": "Entra come copia di un artefatto, "
        "tranne che è un incantesimo oltre ai suoi altri tipi.", "affects": "self",
        "does": [{"op": "copy", "of": "{target}", "except": {"add_types": ["enchantment"]}}],
        "duration": "source"}, ("source", "target")),),
    "Act of Treason": (Template("Controllo fino alla fine del turno e rapidità", _until_eot(
        "Prendi il controllo della creatura bersaglio fino alla fine del turno; acquisisce "
        "rapidità.", CONTROL + [{"op": "add_abilities", "abilities": ["haste"]}],
        controller="{player}"), ("target", "player")),),
    "Threaten": (Template("Controllo fino alla fine del turno e rapidità", _until_eot(
        "Prendi il controllo della creatura bersaglio fino alla fine del turno; acquisisce "
        "rapidità.", CONTROL + [{"op": "add_abilities", "abilities": ["haste"]}],
        controller="{player}"), ("target", "player")),),
    "Twisted Image": (Template("Scambia forza e costituzione", _until_eot(
        "Scambia forza e costituzione della creatura bersaglio fino alla fine del turno.",
        [{"op": "switch_pt"}]), T),),
    "Giant Growth": (Template("+3/+3 fino alla fine del turno", _until_eot(
        "La creatura bersaglio prende +3/+3 fino alla fine del turno.", [PT(3, 3)]), T),),
    "Turn to Frog": (Template("Rana blu 1/1", _until_eot(
        "Fino alla fine del turno la creatura bersaglio perde tutte le abilità e diventa una Rana "
        "blu con forza e costituzione base 1/1.",
        [{"op": "lose_all_abilities"}, {"op": "set_colors", "colors": ["U"]},
         {"op": "set_subtypes", "subtypes": ["Frog"]},
         {"op": "set_pt", "power": 1, "toughness": 1}]), T),),
    "Mishra's Factory": (Template("Diventa un Assemblatore 2/2", {
        "kind": "resolved", "source": "{source}", "text": "Fino alla fine del turno diventa una "
        "creatura artefatto Assemblatore 2/2; è ancora una terra.", "affects": "self",
        "does": [{"op": "add_types", "types": ["artifact", "creature"]},
                 {"op": "set_subtypes", "subtypes": ["Assembly-Worker"]},
                 {"op": "set_pt", "power": 2, "toughness": 2}], "duration": "end_of_turn"}, S),),
}


def _skips(text: str, event: str, part: str | None, affects: Any, **kw) -> dict:
    """A record that skips a step, phase or turn (614.10; docs/scenario-format.md)."""
    d = {"text": text, "event": event, "affects": affects, "instead": [{"op": "skip"}], **kw}
    if part is not None:
        d["when"] = {event: part}
    return d


STATIC = {"kind": "static", "source": "{source}"}
NEXT = {"kind": "resolved", "uses": 1, "duration": "game"}
TABLE.update({
    "Necropotence": (Template("Salta la sottofase di acquisizione", _skips(
        "Salta la tua sottofase di acquisizione.", "step", "draw", {"players": "you"},
        **STATIC), S),),
    "Stasis": (Template("I giocatori saltano la sottofase di STAP", _skips(
        "I giocatori saltano le loro sottofasi di STAP.", "step", "untap", "game", **STATIC),
        S),),
    "Eon Hub": (Template("I giocatori saltano il mantenimento", _skips(
        "I giocatori saltano le loro sottofasi di mantenimento.", "step", "upkeep", "game",
        **STATIC), S),),
    "Fatigue": (Template("Salta la prossima sottofase di acquisizione", _skips(
        "Il giocatore bersaglio salta la sua prossima sottofase di acquisizione.", "step", "draw",
        {"players": ["{player}"]}, **NEXT), ("player",)),),
    "Lethal Vapors": (Template("Salti il tuo prossimo turno", _skips(
        "Salti il tuo prossimo turno (chi ha attivato l'abilità).", "turn", None,
        {"players": ["{player}"]}, **NEXT), ("player",)),),
})


def _adds(text: str, what: str, parts: list[str], **where) -> dict:
    """A record that adds phases or steps to this turn (500.8–500.10; docs/scenario-format.md,
    «Fasi e sottofasi aggiuntive»): the effect has just resolved, its controller is the player."""
    return {"text": text, "controller": "{player}", "adds": {what: parts}, **where}


ASSAULT = ("Dopo questa fase principale, c'è una fase di combattimento aggiuntiva seguita da una "
           "fase principale aggiuntiva.")
P = ("player",)
TABLE.update({
    **{card: (Template("Combattimento e fase principale aggiuntivi", _adds(
        ASSAULT, "phases", ["combat", "postcombat_main"], after={"phase": "main"}), P),)
       for card in ("Relentless Assault", "Aggravated Assault", "Fury of the Horde")},
    "World at War": (Template("Dopo la prima fase principale post-combattimento", _adds(
        "Dopo la prima fase principale post-combattimento di questo turno, c'è una fase di "
        "combattimento aggiuntiva seguita da una fase principale aggiuntiva.", "phases",
        ["combat", "postcombat_main"], after={"phase": "postcombat_main", "first": True}), P),),
    "Savage Beating": (Template("Un combattimento aggiuntivo dopo questo", _adds(
        "Dopo questa fase, c'è una fase di combattimento aggiuntiva.", "phases", ["combat"],
        after={"phase": "combat"}), P),),
    "Paradox Haze": (Template("Un mantenimento aggiuntivo dopo questo", _adds(
        "Quel giocatore ottiene una sottofase di mantenimento aggiuntiva dopo questa sottofase.",
        "steps", ["upkeep"], after={"step": "upkeep"}), P),),
    "Sphinx of the Second Sun": (Template("Una fase iniziale aggiuntiva", _adds(
        "Ottieni una fase iniziale aggiuntiva dopo questa fase.", "phases", ["beginning"],
        after={"phase": "postcombat_main"}, you_get=True), P),),
    "Time Vault": (Template("Salti il turno, poi Time Vault si STAPpa", _skips(
        "Se stai per iniziare il tuo turno mentre Time Vault è TAPpato, puoi invece saltare quel "
        "turno. Se lo fai, STAPpa Time Vault.", "turn", None, {"players": "you"}, **STATIC,
        optional=True, then={"act": "untap", "object": "{source}"}), S),),
})


def cards() -> list[str]:
    return sorted(TABLE)


def for_card(name: str) -> tuple[Template, ...]:
    return TABLE.get(name, ())


def fill(template: Template, values: dict[str, Any], card: str) -> tuple[dict, list[tuple[str, str]]]:
    """The effect with its blanks filled (``values`` by blank name), or the Italian errors of
    the blanks left empty or wrong."""
    errors: list[tuple[str, str]] = []
    for b in template.blanks:
        v = values.get(b)
        if v in (None, ""):
            errors.append((b, f"{BLANKS[b]}: campo obbligatorio"))
        elif b == "color" and v not in MANA_COLORS:
            errors.append((b, f"{BLANKS[b]}: uno tra {', '.join(MANA_COLORS)}"))
        elif b in ("power", "toughness") and not (isinstance(v, int) and not isinstance(v, bool)):
            errors.append((b, f"{BLANKS[b]}: atteso un intero"))
    if errors:
        return {}, errors
    effect = copy.deepcopy(template.effect)
    effect["card"] = card
    return _fill(effect, values), []


def _fill(value: Any, values: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    if isinstance(value, str) and value.startswith("{") and value.endswith("}") and value[1:-1] in BLANKS:
        return values[value[1:-1]]
    return value
