"""Quick reference of the turn: phases and steps, what happens automatically in each.

Every rule number cited here is a number of the English edition in force, pinned
like every reference of the project (rules_en/riferimenti.tsv); ``EVIDENCE`` pairs each number with a
phrase of its English text that the summary relies on, and the tests check both,
so a renumbering in a new edition is noticed instead of silently linking the
wrong rule. (The Italian 703.4q still says "Vedi regola 500.4": older numbering.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.corpus.turn_names import FIRST_MAIN, SECOND_MAIN, capital, turn_name


def name(term: str) -> str:
    """A phase or step as the whole site names it (the terminology table, judge/corpus/turn_names.py)."""
    return capital(turn_name(term))


@dataclass(frozen=True)
class Step:
    name: str  # Italian
    name_en: str
    section: str  # the section of the step (or phase, for main phases)
    automatic: tuple[str, ...]  # what happens without anyone choosing to: turn-based actions, triggers
    priority: str  # who can do what during the step
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Phase:
    name: str
    name_en: str
    section: str
    steps: tuple[Step, ...] = field(default_factory=tuple)
    summary: str = ""


PHASES: tuple[Phase, ...] = (
    Phase(
        name("beginning phase"), "Beginning phase", "501",
        summary="Tre sottofasi, in quest'ordine: STAP, mantenimento, acquisizione (regola 501.1).",
        steps=(
            Step(
                name("untap step"), "Untap step", "502",
                automatic=(
                    "I permanenti con fase del giocatore attivo scompaiono e quelli fuori fase ricompaiono (regola 502.1).",
                    "Se è giorno e nel turno precedente il giocatore attivo non ha lanciato magie, diventa notte; "
                    "se è notte e ne ha lanciate due o più, diventa giorno (regola 502.2).",
                    "Il giocatore attivo STAPpa i permanenti che controlla, tutti insieme (regola 502.3).",
                ),
                priority="Nessuno riceve priorità: non si lanciano magie né si attivano abilità; le abilità innescate "
                "in questa sottofase aspettano il mantenimento (regola 502.4).",
            ),
            Step(
                name("upkeep step"), "Upkeep step", "503",
                automatic=(
                    "Nessuna azione generata dal turno (regola 503.1).",
                    "Le abilità innescate durante la STAP e quelle «all'inizio del tuo mantenimento» vanno in pila "
                    "prima che il giocatore attivo riceva priorità (regola 503.1a).",
                ),
                priority="Il giocatore attivo riceve priorità (regola 503.1): istantanei e abilità attivate.",
            ),
            Step(
                name("draw step"), "Draw step", "504",
                automatic=("Il giocatore attivo pesca una carta (regola 504.1).",),
                priority="Poi il giocatore attivo riceve priorità (regola 504.2).",
                notes=(
                    "In una partita a due giocatori, chi gioca per primo salta l'acquisizione del suo primo turno "
                    "(regola 103.8a).",
                ),
            ),
        ),
    ),
    Phase(
        name(FIRST_MAIN), "Precombat main phase", "505",
        summary="La fase principale non ha sottofasi (regola 505.2).",
        steps=(
            Step(
                name(FIRST_MAIN), "Precombat main phase", "505",
                automatic=(
                    "In una partita Archenemy, l'archenemy mette in moto il primo intrigo (regola 505.3).",
                    "Il giocatore attivo mette un segnalino sapere su ogni sua Saga (regola 505.4).",
                    "Se controlla Attraction, tira per visitarle (regola 505.5).",
                ),
                priority="Poi il giocatore attivo riceve priorità (regola 505.6). Solo in una fase principale, con la "
                "pila vuota, si lanciano normalmente creature, artefatti, incantesimi, planeswalker e stregonerie "
                "(regole 505.6a e 117.1a).",
                notes=(
                    "Con la pila vuota e la priorità, il giocatore attivo può giocare una terra, normalmente una sola "
                    "per turno (regole 505.6b e 305.2).",
                ),
            ),
        ),
    ),
    Phase(
        name("combat phase"), "Combat phase", "506",
        summary="Cinque sottofasi: inizio combattimento, dichiarazione degli attaccanti, dichiarazione dei "
        "bloccanti, danno da combattimento, fine combattimento (regola 506.1).",
        steps=(
            Step(
                name("beginning of combat step"), "Beginning of combat step", "507",
                automatic=(
                    "Nelle partite multigiocatore in cui non tutti gli avversari sono in difesa, il giocatore attivo "
                    "sceglie il giocatore in difesa (regola 507.1).",
                ),
                priority="Il giocatore attivo riceve priorità (regola 507.2).",
            ),
            Step(
                name("declare attackers step"), "Declare attackers step", "508",
                automatic=(
                    "Il giocatore attivo dichiara gli attaccanti (regola 508.1): creature STAPpate, con rapidità "
                    "o controllate ininterrottamente dall'inizio del suo turno (regole 508.1a e 302.6).",
                    "Le creature attaccanti vengono TAPpate: non è un costo (regola 508.1f).",
                    "Si innescano le abilità «quando attacca» (regola 508.1m).",
                ),
                priority="Poi il giocatore attivo riceve priorità (regola 508.2).",
                notes=(
                    "Se nessuna creatura attacca, le sottofasi di dichiarazione dei bloccanti e di danno da "
                    "combattimento vengono saltate (regola 508.8).",
                ),
            ),
            Step(
                name("declare blockers step"), "Declare blockers step", "509",
                automatic=(
                    "Il giocatore in difesa dichiara i bloccanti (regola 509.1): creature STAPpate, ognuna "
                    "normalmente blocca un solo attaccante, più creature possono bloccare lo stesso attaccante "
                    "(regola 509.1a).",
                    "Un attaccante con almeno un bloccante resta «bloccato» fino alla fine del combattimento, anche se "
                    "i bloccanti vengono rimossi (regola 509.1h).",
                ),
                priority="Poi il giocatore attivo riceve priorità (regola 509.2).",
            ),
            Step(
                name("combat damage step"), "Combat damage step", "510",
                automatic=(
                    "I giocatori assegnano il danno da combattimento delle proprie creature, pari alla forza "
                    "(regole 510.1 e 510.1a).",
                    "Tutto il danno assegnato viene inflitto simultaneamente (regola 510.2).",
                ),
                priority="Poi il giocatore attivo riceve priorità (regola 510.3).",
                notes=(
                    "Con attacco improvviso o doppio attacco ci sono due sottofasi di danno (regola 510.4).",
                    "Un attaccante bloccato infligge danno ai bloccanti, non al giocatore, salvo abilità come "
                    "travolgere (regole 510.1c e 702.19b).",
                ),
            ),
            Step(
                name("end of combat step"), "End of combat step", "511",
                automatic=(
                    "Si innescano le abilità «alla fine del combattimento» (regola 511.2).",
                    "Quando la sottofase termina, tutte le creature, le battaglie e i planeswalker sono rimossi "
                    "dal combattimento (regola 511.3).",
                ),
                priority="Il giocatore attivo riceve priorità (regola 511.1).",
            ),
        ),
    ),
    Phase(
        name(SECOND_MAIN), "Postcombat main phase", "505",
        summary="Come la fase principale pre-combattimento per magie, terre e priorità (regole 505.1 e 505.6); Saga, intrighi e "
        "Attraction avanzano solo nella fase principale pre-combattimento (regole 505.3, 505.4 e 505.5).",
    ),
    Phase(
        name("ending phase"), "Ending phase", "512",
        summary="Due sottofasi: finale e cancellazione (regola 512.1).",
        steps=(
            Step(
                name("end step"), "End step", "513",
                automatic=("Si innescano le abilità «all'inizio della sottofase finale» (regole 513.1a e 513.2).",),
                priority="Nessuna azione generata dal turno; il giocatore attivo riceve priorità (regola 513.1).",
            ),
            Step(
                name("cleanup step"), "Cleanup step", "514",
                automatic=(
                    "Il giocatore attivo scarta fino al numero massimo di carte in mano, normalmente sette "
                    "(regole 514.1 e 402.2).",
                    "Poi, simultaneamente, il danno segnato sui permanenti viene rimosso e gli effetti «fino alla "
                    "fine del turno» e «in questo turno» terminano (regola 514.2).",
                ),
                priority="Normalmente nessuno riceve priorità (regola 514.3); ma se ci sono azioni generate dallo "
                "stato o abilità innescate, i giocatori ricevono priorità e segue un'altra sottofase di "
                "cancellazione (regola 514.3a).",
            ),
        ),
    ),
)

ALWAYS: tuple[str, ...] = (
    "Una fase o sottofase in cui si riceve priorità termina quando la pila è vuota e tutti i giocatori passano "
    "in successione (regola 500.2); STAP e cancellazione senza priorità finiscono quando le loro azioni sono "
    "completate (regola 500.3).",
    "All'inizio di ogni fase o sottofase si innescano le abilità «all'inizio di…», che vanno in pila la prossima "
    "volta che un giocatore riceverebbe priorità (regola 500.6).",
    "Alla fine di ogni fase e di ogni sottofase terminano gli effetti che durano «fino alla fine» di quella fase o "
    "sottofase e poi il mana non speso nella riserva di ogni giocatore si svuota: è un'azione generata dal turno "
    "che non usa la pila (regole 500.5 e 703.4q).",
)

MANA_BURN = (
    "Il «danno da mana» (mana burn: perdere 1 punto vita per ogni mana rimasto nella riserva) non esiste più: "
    "è stato eliminato dalle regole nel 2009, con Magic 2010. Oggi il mana non speso si svuota semplicemente "
    "alla fine di ogni sottofase e fase, senza perdita di punti vita (regola 500.5). Se una vecchia tabella o il "
    "testo italiano citano la regola 500.4 per questo, usano una numerazione superata: nell'edizione in vigore "
    "la 500.4 riguarda gli effetti che terminano quando una fase o sottofase inizia."
)

# Rule number -> phrase of its English text (edition in force) that the summary above relies on.
EVIDENCE: dict[str, str] = {
    "500.2": "ends when the stack is empty and all players pass in succession",
    "500.3": "The only such steps are the untap step",
    "500.4": "As a step or phase begins",
    "500.5": "any unspent mana left in a player’s mana pool empties",
    "500.6": "any abilities that trigger “at the beginning of” that phase or step trigger",
    "501.1": "untap, upkeep, and draw",
    "502.1": "phase out",
    "502.2": "it becomes night",
    "502.3": "untap them all simultaneously",
    "502.4": "No player receives priority during the untap step",
    "503.1": "The upkeep step has no turn-based actions",
    "503.1a": "triggered at the beginning of the upkeep",
    "504.1": "the active player draws a card",
    "504.2": "the active player gets priority",
    "103.8a": "skips the draw step",
    "505.2": "The main phase has no steps",
    "505.3": "Archenemy",
    "505.4": "lore counter",
    "505.5": "Attractions",
    "505.6": "the active player gets priority",
    "505.6a": "sorcery spells",
    "505.6b": "play one land card",
    "117.1a": "during their main phase",
    "305.2": "one land during their turn",
    "506.1": "beginning of combat, declare attackers, declare blockers, combat damage, and end of combat",
    "507.1": "That player",
    "507.2": "the active player gets priority",
    "508.1": "the active player declares attackers",
    "508.1a": "must be untapped",
    "302.6": "continuously",
    "508.1f": "isn’t a cost",
    "508.1m": "Any abilities that trigger on attackers being declared trigger",
    "508.2": "the active player gets priority",
    "508.8": "skip the declare blockers and combat damage steps",
    "509.1": "the defending player declares blockers",
    "509.1a": "must be untapped",
    "509.1h": "becomes a blocked creature",
    "509.2": "the active player gets priority",
    "510.1": "assigns its combat damage",
    "510.1a": "equal to its power",
    "510.2": "dealt simultaneously",
    "510.3": "the active player gets priority",
    "510.4": "first strike",
    "510.1c": "assigns its combat damage to the creatures blocking it",
    "702.19b": "trample",
    "511.1": "The end of combat step has no turn-based actions",
    "511.2": "at end of combat",
    "511.3": "removed from combat",
    "505.1": "two main phases",
    "512.1": "end and cleanup",
    "513.1": "The end step has no turn-based actions",
    "513.1a": "at the beginning of the end step",
    "513.2": "at the beginning of the end step",
    "514.1": "maximum hand size (normally seven)",
    "402.2": "normally seven cards",
    "514.2": "all damage marked on permanents",
    "514.3": "no player receives priority during the cleanup step",
    "514.3a": "state-based actions",
    "703.4q": "mana",
}
