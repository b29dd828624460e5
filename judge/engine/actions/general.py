"""Judge actions outside the turn structure, each citing the rule that governs it.

Call them through ``Game.act(name, **params)``; each is a transaction
(refused with an Italian IllegalAction and no change, or applied and logged).
After an action the game checks state-based actions, as it would before any
player receives priority (704.3).
"""

from __future__ import annotations

from typing import Any

from judge.engine import seats, terms
from judge.engine.characteristics import continuous, derived, keywords
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction, shown
from judge.engine.mechanics import damage, leaving, ops, targeting, triggers
from judge.engine.mechanics.sba_acts import ask_in_apnap_order
from judge.engine.registry import action
from judge.engine.state import MANA, PERMANENT_TYPES, SUPERTYPES, Card, Permanent, Player
from judge.engine.validation import MAX_INT

MOVE_ZONES = ("hand", "library", "graveyard", "exile", "command", "battlefield")
TOKEN_TYPES = PERMANENT_TYPES + ("kindred",)


def int_arg(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{what}: atteso un intero")
    if value < minimum or value > MAX_INT:
        raise IllegalAction(f"{what}: atteso un intero fra {minimum} e {MAX_INT}")
    return value


def player_arg(ctx: Ctx, pid: Any, in_game: bool = True) -> Player:
    if not isinstance(pid, str) or not ctx.s.has_player(pid):
        raise IllegalAction(f'giocatore sconosciuto "{shown(pid)}"')
    pl = ctx.s.player(pid)
    if in_game and pl.lost:
        raise IllegalAction(f"{pl.name} ha già lasciato la partita", ["800.4a"])
    return pl


def text_arg(value: Any, what: str, limit: int = 500) -> str:
    if not isinstance(value, str) or not value or len(value) > limit:
        raise IllegalAction(f"{what}: attesa una stringa non vuota (al massimo {limit} caratteri)")
    return value


def list_arg(value: Any, what: str, allowed: tuple[str, ...] | None = None) -> list[str]:
    """A list of short strings (``None``: empty), each among ``allowed`` if given."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 20:
        raise IllegalAction(f"{what}: attesa una lista (al massimo 20 elementi)")
    for x in value:
        if not isinstance(x, str) or not x or len(x) > 100:
            raise IllegalAction(f"{what}: ogni elemento è una stringa non vuota")
        if allowed is not None and x not in allowed:
            raise IllegalAction(f'{what}: valore sconosciuto "{x}" (ammessi: {", ".join(allowed)})')
    return list(value)


def keyword_arg(value: Any) -> list[str]:
    """Keywords in English or Italian («volare», «protezione dal rosso»), stored in English."""
    texts = list_arg(value, "keywords")
    try:
        return keywords.canonical(texts)
    except keywords.KeywordError as e:
        raise IllegalAction(f"keywords: {e.message}", e.rules) from None


def keywords_it(ctx: Ctx, texts: list[str]) -> str:
    return keywords.italian_list(texts, ctx.s.name_of)


def perm_arg(ctx: Ctx, oid: Any) -> Permanent:
    p = ctx.s.perm(oid) if isinstance(oid, str) else None
    if p is None:
        raise IllegalAction(f'"{shown(oid)}" non è un permanente sul campo di battaglia')
    if p.phased_out:
        raise IllegalAction(f"{p.name} è scomparso per intermittenza ed è trattato come se non "
                            "esistesse", ["702.26b"])
    return p


@action("deal_damage", cites=("120.1a", "120.3a", "120.3b", "120.3c", "120.3d", "120.3e",
                              "120.3f", "120.3h", "120.8", "702.2b", "702.15b", "702.90b",
                              "702.90c", "702.80a", "119.7", "119.8", "903.10a", "725.2",
                              "726.2", "310.12b", "702.11b", "702.11d", "702.18a", "702.16b",
                              "702.16e", "702.16j", "702.16k", "615.6", "702.21a", "801.4"),
        summary="Infliggi danno a un giocatore, una creatura, un planeswalker o una battaglia")
def deal_damage(ctx: Ctx, target: str, amount: int, source: str | None = None,
                combat: bool = False) -> None:
    amount = int_arg(amount, "danno")
    src: Card | None = None
    if source is not None:
        found = ctx.s.find_card(source) if isinstance(source, str) else None
        if found is None:
            raise IllegalAction(f'fonte sconosciuta "{shown(source)}"')
        src = found[2]
    if not isinstance(target, str):
        raise IllegalAction(f'bersaglio sconosciuto "{shown(target)}"')
    if not ctx.s.has_player(target):
        t = perm_arg(ctx, target)
        if not {"creature", "planeswalker", "battle"} & set(derived.types(ctx.s, t)):
            raise IllegalAction(f"{t.name} non è una battaglia, una creatura o un planeswalker: "
                                "non può subire danno", ["120.1a"])
    else:
        player_arg(ctx, target)
    if amount == 0:
        ctx.emit(["120.8"], "Una fonte che infliggerebbe 0 danni non infligge danno.", "damage")
        return
    note = targeting.untargeted_note(ctx.s, target, src, None)
    if note:
        ctx.emit(note[1], note[0] + ".", "note", objects=[target])
    dealt = damage.deal_damage(ctx, src, target, amount, [], combat=bool(combat))
    if combat and dealt and isinstance(src, Permanent) and ctx.s.has_player(target):
        triggers.combat_damage_to_players(ctx, [(src, target)])      # 725.2, 726.2


@action("gain_life", cites=("119.3", "119.7"), summary="Un giocatore guadagna punti vita")
def gain_life(ctx: Ctx, player: str, amount: int) -> None:
    ops.change_life(ctx, player_arg(ctx, player), int_arg(amount, "punti vita"), ["119.3"])


@action("lose_life", cites=("119.3", "119.8"), summary="Un giocatore perde punti vita")
def lose_life(ctx: Ctx, player: str, amount: int) -> None:
    ops.change_life(ctx, player_arg(ctx, player), -int_arg(amount, "punti vita"), ["119.3"])


@action("set_life", cites=("119.5", "119.7", "119.8"),
        summary="Il totale di punti vita diventa un numero: si guadagna o si perde la differenza")
def set_life(ctx: Ctx, player: str, value: int) -> None:
    pl = player_arg(ctx, player)
    value = int_arg(value, "punti vita", -MAX_INT)
    ops.change_life(ctx, pl, value - pl.life, ["119.5"])


@action("pay_life", cites=("119.4", "119.4a", "119.4b", "119.8"), summary="Un giocatore paga punti vita")
def pay_life(ctx: Ctx, player: str, amount: int) -> None:
    pl = player_arg(ctx, player)
    amount = int_arg(amount, "punti vita")
    if amount == 0:
        ctx.emit(["119.4b"], f"{pl.name} paga 0 punti vita: è sempre possibile.", "pay_life",
                 players=[pl.id])
        return
    rule = "119.4a" if ctx.s.variant == "two-headed-giant" else "119.4"
    if pl.life < amount:
        raise IllegalAction(f"{pl.name} non può pagare {amount} punti vita: ne ha solo {pl.life}",
                            [rule])
    if not ops.can_lose_life(ctx, pl):
        raise IllegalAction(f"{pl.name} non può perdere punti vita, quindi non può pagarli", ["119.8"])
    ops.change_life(ctx, pl, -amount, [rule], " pagandoli")


@action("draw", cites=("121.1", "121.2", "121.4"),
        summary=f"Un giocatore {terms.verb('draw')} N carte, una alla volta")
def draw(ctx: Ctx, player: str, count: int = 1) -> None:
    pl = player_arg(ctx, player)
    count = int_arg(count, "numero di carte")
    rules = ["121.1"] + (["121.2"] if count > 1 else [])
    ops.draw_cards(ctx, pl, count, rules)


@action("each_player_draws", cites=("121.2c", "121.2d", "121.4"),
        summary=f"Ogni giocatore {terms.verb('draw')} N carte, in ordine APNAP")
def each_player_draws(ctx: Ctx, count: int = 1) -> None:
    count = int_arg(count, "numero di carte")
    rule = "121.2d" if seats.shared_team_turns(ctx.s.variant) else "121.2c"
    for pl in seats.apnap(ctx.s):
        ops.draw_cards(ctx, pl, count, [rule])


@action("discard", cites=("701.9a", "701.9b"),
        summary=f"Un giocatore {terms.verb('discard')} carte (a caso se richiesto)")
def discard(ctx: Ctx, player: str, cards: list[str] | None = None, random: int = 0) -> None:
    pl = player_arg(ctx, player)
    if cards is not None and not isinstance(cards, list):
        raise IllegalAction("cards: attesa una lista di id di carte", ["701.9a"])
    ids = list(cards or [])
    n_random = int_arg(random, "numero di carte a caso")
    for cid in ids:
        if not isinstance(cid, str) or not any(c.id == cid for c in pl.hand):
            raise IllegalAction(f'"{shown(cid)}" non è nella mano di {pl.name}', ["701.9a"])
    if len(set(ids)) != len(ids):
        raise IllegalAction("la stessa carta è indicata due volte", ["701.9a"])
    rules = ["701.9a"]
    if n_random:
        rest = [c.id for c in pl.hand if c.id not in ids]
        k = min(n_random, len(rest))
        ids += ctx.rng().sample(rest, k)
        rules = ["701.9a", "701.9b"]
    for cid in ids:
        name = ctx.s.name_of(cid)
        ctx.emit(rules, f"{pl.name} {terms.verb('discard')} {name}.", "discard", objects=[cid],
                 players=[pl.id])
        ops.move(ctx, cid, "graveyard", cause="discard")      # 614: it may go elsewhere


@action("mill", cites=("701.17a", "701.17b"), summary=f"Un giocatore {terms.verb('mill')} N carte")
def mill(ctx: Ctx, player: str, count: int = 1) -> None:
    pl = player_arg(ctx, player)
    count = int_arg(count, "numero di carte")
    n = min(count, len(pl.library))
    milled = pl.library[:n]
    rules = ["701.17a"] + (["701.17b"] if n < count else [])
    ctx.emit(rules, f"{pl.name} {terms.verb('mill')} {n} carte"
             + (f" (ne aveva solo {n})" if n < count else "")
             + (f": {', '.join(c.name for c in milled)}." if milled else "."), "mill",
             objects=[c.id for c in milled], players=[pl.id])
    for card in milled:
        ops.move(ctx, card.id, "graveyard", cause="mill")    # 614: it may go elsewhere


@action("each_player_discards", cites=("701.9a", "101.4"),
        summary=f"Ogni giocatore {terms.verb('discard')} N carte: scelgono in ordine APNAP, poi tutti "
                "insieme")
def each_player_discards(ctx: Ctx, count: int = 1) -> list[str]:
    count = int_arg(count, "numero di carte", 1)
    return [f"each_discard:{count}"]           # choices are asked as a step of the procedure


def each_player_discards_now(ctx: Ctx, count: int) -> None:
    """101.4: each player in APNAP order chooses (knowing the earlier choices, 101.4b),
    then every discard happens at the same time."""
    st = ctx.s
    chosen = []
    for pid in ask_in_apnap_order(ctx, [p.id for p in st.in_game()]):
        pl = st.player(pid)
        n = min(count, len(pl.hand))
        ids = [c.id for c in pl.hand]
        if 0 < n < len(ids):
            ids = ctx.ask({
                "id": f"discard_each:{pid}", "kind": "discard", "player": pid,
                "rules": ["701.9a", "101.4"],
                "prompt": f"{pl.name} sceglie {n} carte da scartare (i giocatori scelgono in "
                          "ordine APNAP, poi scartano tutti insieme).",
                "options": {"count": n, "cards": [{"id": c.id, "name": c.name} for c in pl.hand]},
                "default": {"cards": ids[-n:]},
            })["cards"]
        chosen.append((pl, ids[:n]))
    for pl, ids in chosen:
        if not ids:
            continue
        ctx.emit(["701.9a", "101.4"],
                 f"{pl.name} {terms.verb('discard')} {', '.join(map(ctx.s.name_of, ids))}.",
                 "discard", objects=ids, players=[pl.id])
        for cid in ids:
            ops.move(ctx, cid, "graveyard", cause="discard")


@action("move", cites=("400.7", "400.3", "111.8", "110.2", "110.2a"),
        summary="Sposta un oggetto in un'altra zona (diventa un nuovo oggetto); sul campo di "
                "battaglia lo controlla chi ce lo mette (110.2a), se non indicato il proprietario")
def move(ctx: Ctx, object: str, zone: str, controller: str | None = None,
         bottom: bool = False) -> None:
    if zone not in MOVE_ZONES:
        raise IllegalAction(f'zona sconosciuta "{zone}" (ammesse: {", ".join(MOVE_ZONES)})')
    found = ctx.s.find_card(object) if isinstance(object, str) else None
    if found is None:
        raise IllegalAction(f'oggetto sconosciuto "{object}"')
    _, src, obj = found
    if obj.token and src != "battlefield":
        raise IllegalAction(f"{obj.name} è una pedina che ha lasciato il campo di battaglia: non può "
                            "cambiare zona", ["111.8"])
    if src == zone:
        raise IllegalAction(f"{obj.name} è già in quella zona")
    ctl = None
    if zone == "battlefield":
        ctl = controller or obj.owner
        player_arg(ctx, ctl)
    elif controller is not None:
        raise IllegalAction("il controllore si indica solo per il campo di battaglia: nelle altre "
                            "zone un oggetto è del suo proprietario (400.3)", ["400.3"])
    new, _ = ops.move(ctx, object, zone, controller=ctl, bottom=bool(bottom))
    now = ctx.s.find_card(new.id)
    if now is None or now[1] != zone:
        return                       # a replacement effect sent it elsewhere: its log says where
    rules = ["400.7"] + (["400.3"] if zone in ("hand", "library", "graveyard") else [])
    dest = terms.zone("a", zone) + (f" di {ctx.s.name_of(new.owner)}" if zone != "battlefield" else "")
    who = ""
    if zone == "battlefield":
        rules += ["110.2", "110.2a"]
        who = (f", sotto il controllo di {ctx.name(ctl)}, che ce lo mette" if controller else
               f", sotto il controllo del suo proprietario, {ctx.name(ctl)} (nessun altro giocatore "
               "indicato come chi ce lo mette)")
    ctx.emit(rules, f"{obj.name} passa {terms.zone('da', src)} {dest}{who} e diventa un nuovo "
             f"oggetto ({new.key}).", "move", objects=[new.id], players=[new.owner],
             source_zone=src, zone=zone, key=new.key)


@action("destroy", cites=("701.8a", "702.12b"), summary="Distruggi un permanente")
def destroy(ctx: Ctx, object: str) -> None:
    p = perm_arg(ctx, object)
    if derived.has_kw(ctx.s, p, "indestructible"):
        ctx.emit(["702.12b"], f"{p.name} è indistruttibile: non viene distrutto.", "indestructible",
                 objects=[p.id])
        return
    ctx.emit(["701.8a"], f"Si distrugge {p.name}: va nel cimitero del suo proprietario.",
             "destroy", objects=[p.id])
    ops.move(ctx, p.id, "graveyard", cause="destroy")     # regeneration may replace it (701.19)


@action("sacrifice", cites=("701.21a",), summary=f"Il controllore {terms.verb('sacrifice')} un permanente")
def sacrifice(ctx: Ctx, object: str) -> None:
    p = perm_arg(ctx, object)
    ctl = derived.controller(ctx.s, p)
    ctx.emit(["701.21a"], f"{ctx.name(ctl)} {terms.verb('sacrifice')} {p.name}.", "sacrifice",
             objects=[p.id], players=[ctl])
    ops.move(ctx, p.id, "graveyard", cause="sacrifice")   # not a destruction (701.21a)


@action("exile", cites=("701.13a", "111.8"), summary="Esilia un oggetto")
def exile(ctx: Ctx, object: str) -> None:
    found = ctx.s.find_card(object) if isinstance(object, str) else None
    if found is None:
        raise IllegalAction(f'oggetto sconosciuto "{object}"')
    _, src, obj = found
    if obj.token and src != "battlefield":
        raise IllegalAction(f"{obj.name} è una pedina fuori dal campo di battaglia", ["111.8"])
    if src == "exile":
        raise IllegalAction(f"{obj.name} è già in esilio")
    ctx.emit(["701.13a"], f"Si esilia {obj.name}.", "exile", objects=[object])
    ops.move(ctx, object, "exile")


@action("add_counters", cites=("122.1", "122.6", "122.1f", "810.10"),
        summary="Metti segnalini su un permanente o su un giocatore (veleno)")
def add_counters(ctx: Ctx, target: str, kind: str, count: int = 1) -> None:
    count = int_arg(count, "numero di segnalini", 1)
    text_arg(kind, "tipo di segnalino", 50)
    if ctx.s.has_player(target):
        pl = player_arg(ctx, target)
        if kind != "poison":
            raise IllegalAction("a un giocatore si possono dare solo segnalini veleno (poison)")
        ops.put_counters(ctx, pl.id, kind, count, ["122.1f"] + (
            ["810.10"] if ctx.s.variant == "two-headed-giant" else []))
        return
    p = perm_arg(ctx, target)
    if p.counters.get(kind, 0) + count > MAX_INT:
        raise IllegalAction("troppi segnalini")
    ops.put_counters(ctx, p.id, kind, count, ["122.6"])      # 614.16: they may be changed


@action("remove_counters", cites=("122.1", "310.12b"),
        summary="Rimuovi segnalini da un permanente o da un giocatore")
def remove_counters(ctx: Ctx, target: str, kind: str, count: int = 1) -> None:
    count = int_arg(count, "numero di segnalini", 1)
    text_arg(kind, "tipo di segnalino", 50)
    if ctx.s.has_player(target):
        pl = player_arg(ctx, target)
        if kind != "poison" or pl.poison < count:
            raise IllegalAction(f"{pl.name} non ha {count} segnalini {kind}")
        for p in ops.life_group(ctx, pl):
            p.poison -= count
        ctx.emit(["122.1"], f"{pl.name} perde {count} segnalini veleno.", "counters",
                 players=[pl.id])
        return
    p = perm_arg(ctx, target)
    have = p.counters.get(kind, 0)
    if have < count:
        raise IllegalAction(f"{p.name} ha solo {have} segnalini {kind}", ["122.1"])
    p.counters[kind] = have - count
    if not p.counters[kind]:
        del p.counters[kind]
    ctx.emit(["122.1"], f"Si rimuovono {count} segnalini {terms.counter(kind)} da {p.name} "
             f"({have} → {have - count}).",
             "counters", objects=[p.id])
    if kind == "defense" and have == count:
        triggers.last_defense_removed(ctx, p)                   # 310.12b


@action("create_token", cites=("111.2", "701.7a"), summary="Crea una pedina")
def create_token(ctx: Ctx, controller: str, name: str, types: list[str] | None = None,
                 subtypes: list[str] | None = None, supertypes: list[str] | None = None,
                 power: int | None = None, toughness: int | None = None,
                 keywords: list[str] | None = None, count: int = 1, id: str | None = None) -> None:
    pl = player_arg(ctx, controller)
    count = int_arg(count, "numero di pedine", 1)
    if count > 100:
        raise IllegalAction("al massimo 100 pedine alla volta")
    # 111.1: a token is a permanent
    types = list_arg(types, "types", TOKEN_TYPES) or ["creature"]
    subtypes = list_arg(subtypes, "subtypes")
    supertypes = list_arg(supertypes, "supertypes", SUPERTYPES)
    keywords = keyword_arg(keywords)
    if "creature" in types or power is not None or toughness is not None:
        power = int_arg(power if power is not None else 0, "forza", -MAX_INT)
        toughness = int_arg(toughness if toughness is not None else 0, "costituzione", -MAX_INT)
    name = text_arg(name, "nome della pedina", 200)
    if id is not None and (not isinstance(id, str) or not id or len(id) > 100 or count != 1
                           or id in ctx.s.all_ids()):
        raise IllegalAction(f'id "{shown(id)}" già usato o non utilizzabile')
    def make() -> Card:
        return Card(id=id if id and not ctx.s.find_card(id) else ctx.s.new_id("pedina"),
                    name=name, types=list(types), subtypes=list(subtypes),
                    supertypes=list(supertypes), power=power, toughness=toughness, token=True,
                    owner=pl.id, keywords=list(keywords))
    # 614.16, 616.1g: how many is an event of its own, then each one enters the battlefield
    made = ops.create_tokens(ctx, pl.id, make, count, ["111.2", "701.7a"])
    count = len(made)
    if not made:
        return
    ctx.emit(["111.2", "701.7a"], f"{pl.name} crea {count} pedina/e {name}; ne è proprietario e "
             "controllore.", "create_token", objects=[m.id for m in made], players=[pl.id])


@action("add_mana", cites=("106.4",), summary="Aggiungi mana alla riserva di un giocatore")
def add_mana(ctx: Ctx, player: str, mana: dict[str, int]) -> None:
    pl = player_arg(ctx, player)
    if not isinstance(mana, dict) or not mana:
        raise IllegalAction('mana atteso come {"R": 2, "G": 1}')
    for k, n in mana.items():
        if k not in MANA:
            raise IllegalAction(f'tipo di mana sconosciuto "{k}" (ammessi: {", ".join(MANA)})')
        int_arg(n, "quantità di mana", 1)
    for k, n in mana.items():
        pl.mana_pool[k] = pl.mana_pool.get(k, 0) + n
    desc = ", ".join(f"{n} {k}" for k, n in mana.items())
    ctx.emit(["106.4"], f"{pl.name} aggiunge {desc} alla sua riserva di mana.", "add_mana",
             players=[pl.id])


@action("shuffle", cites=("701.24a",),
        summary=f"Un giocatore {terms.verb('shuffle')} il suo grimorio (con seme deterministico)")
def shuffle(ctx: Ctx, player: str) -> None:
    pl = player_arg(ctx, player)
    ctx.rng().shuffle(pl.library)
    ctx.emit(["701.24a"], f"{pl.name} {terms.verb('shuffle')} il suo grimorio.", "shuffle",
             players=[pl.id])


@action("set_day_night", cites=("731.1",), summary="Diventa giorno o notte")
def set_day_night(ctx: Ctx, value: str) -> None:
    if value not in ("day", "night"):
        raise IllegalAction('atteso "day" o "night"', ["731.1"])
    if ctx.s.day_night == value:
        raise IllegalAction("la designazione è già quella", ["731.1"])
    ctx.s.day_night = value
    ctx.emit(["731.1"], f"Diventa {'giorno' if value == 'day' else 'notte'}.", "day_night",
             value=value)


@action("become_monarch", cites=("725.3",), summary="Un giocatore diventa il monarca")
def become_monarch(ctx: Ctx, player: str) -> None:
    pl = player_arg(ctx, player)
    ctx.s.monarch = pl.id
    ctx.emit(["725.3"], f"{pl.name} diventa il monarca.", "monarch", players=[pl.id])


@action("take_initiative", cites=("726.3", "726.2", "726.5"),
        summary=f"Un giocatore prende l'iniziativa (e {terms.verb(terms.VENTURE)} Undercity)")
def take_initiative(ctx: Ctx, player: str) -> None:
    pl = player_arg(ctx, player)
    again = ctx.s.initiative == pl.id
    ctx.s.initiative = pl.id
    ctx.emit(["726.3", "726.5"] if again else ["726.3"], f"{pl.name} prende l'iniziativa"
             + (" (l'aveva già: non c'è una seconda iniziativa)." if again else "."),
             "initiative", players=[pl.id])
    triggers.took_initiative(ctx, pl.id)


@action("concede", cites=("104.3a", "810.8b", "800.4a"),
        summary="Un giocatore concede la partita (in qualsiasi momento, anche durante una scelta)")
def concede(ctx: Ctx, player: str) -> None:
    pl = player_arg(ctx, player)
    if ctx.s.variant == "two-headed-giant":
        # 810.8b: the whole team leaves the game immediately and loses
        leaving.lose(ctx, [(pl.id, ["104.3a", "810.8b"], "concede")], team_rule="810.8b")
    else:
        leaving.lose(ctx, [(pl.id, ["104.3a"], "concede")])
