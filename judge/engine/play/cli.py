"""`judge scenario …`: create scenario files and step them from the command line.

Messages for users are Italian; errors exit with code 2 (bad file or bad
options) or 1 (an action the rules refuse), never with a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from judge.engine.characteristics import explain
from judge.engine.errors import IllegalAction, ScenarioError
from judge.engine.events import Event
from judge.engine.play.game import Game
from judge.engine.play.step_target import StepTarget
from judge.engine.registry import ACTIONS
from judge.engine.scenario.scenario_json import dumps, format_json
from judge.engine.scenario.templates import new_scenario
from judge.engine.state import VARIANTS
from judge.engine.steps import BY_NAME, STEP_NAMES


def _fail(message: str, code: int, as_json: bool = False, errors: list | None = None) -> None:
    """Stop with ``code``: the message on standard error, or, with --json, as JSON on standard output
    (``{"error": {"code", "message", "errors"}}``: whoever reads JSON gets JSON, failures included)."""
    if as_json:
        click.echo(json.dumps({"error": {"code": code, "message": message, "errors": errors or []}},
                              ensure_ascii=False, indent=2))
    else:
        click.echo(f"Errore: {message}", err=True)
    sys.exit(code)


def _load(path: str, as_json: bool = False) -> Game:
    try:
        return Game.load(path)
    except ScenarioError as e:
        if as_json:
            _fail(f"Scenario non valido: {path}", 2, True, [{"path": p or None, "message": m} for p, m in e.errors])
        click.echo(f"Scenario non valido: {path}", err=True)
        for p, m in e.errors:
            click.echo(f"  {p}: {m}" if p else f"  {m}", err=True)
        sys.exit(2)


def _parse_json_arg(value: str, what: str, as_json: bool = False) -> Any:
    text = value
    if not value.lstrip().startswith(("[", "{", "null")):
        try:
            text = Path(value).read_text(encoding="utf-8-sig")
        except OSError as e:
            _fail(f"{what}: impossibile leggere {value}: {e.strerror or e}", 2, as_json)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        _fail(f"{what}: JSON non valido ({e})", 2, as_json)
    except RecursionError:
        _fail(f"{what}: JSON troppo annidato", 2, as_json)


def _print_events(events: list[Event]) -> None:
    for e in events:
        if e.kind in ("step", "turn"):
            click.echo(click.style(f"{', '.join(e.rules)} — {e.text}", bold=True))
        else:
            click.echo(f"  {', '.join(e.rules)} — {e.text}")


def _print_pending(p: dict) -> None:
    click.echo(click.style(f"Decisione in sospeso ({p['kind']}, regole {', '.join(p['rules'])}):",
                           bold=True))
    click.echo(f"  {p['prompt']}")
    click.echo(f"  opzioni: {json.dumps(p['options'], ensure_ascii=False)}")
    click.echo(f"  predefinita: {json.dumps(p['default'], ensure_ascii=False)}")
    click.echo("  Rispondi con --decisioni (JSON o file) oppure usa --predefinite.")


@click.group("scenario")
def scenario() -> None:
    """Scenari per giudici: crea una situazione di gioco e falla avanzare secondo le regole."""


@scenario.command("nuovo")
@click.option("--variante", type=click.Choice(VARIANTS), default="two-player", show_default=True,
              help="Variante di gioco.")
@click.option("--giocatori", type=click.IntRange(2, 16), default=None,
              help="Numero di giocatori (predefinito secondo la variante).")
@click.option("--titolo", default=None, help="Titolo dello scenario.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="File da scrivere (predefinito: standard output).")
def nuovo(variante: str, giocatori: int | None, titolo: str | None, output: str | None) -> None:
    """Scrive uno scenario pronto da modificare, con i punti vita iniziali della variante
    (regola 119.1), il limite di carte in mano e le squadre."""
    try:
        data = new_scenario(variante, giocatori, titolo)
    except ScenarioError as e:
        _fail(str(e), 2)
    text = format_json(data)
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as e:
            _fail(f"impossibile scrivere {output}: {e.strerror or e}", 2)
        click.echo(f"Scenario scritto in {output}.")
    else:
        click.echo(text, nl=False)


def _answer_pending(game: Game, answers: list, defaults: bool) -> bool:
    """Answer the pending decision if we can; False if we must stop."""
    if answers:
        ans = answers.pop(0)
        if isinstance(ans, dict) and "kind" in ans:
            if ans["kind"] != game.pending["kind"]:
                raise IllegalAction(f"la decisione in sospeso è {game.pending['kind']}, non {ans['kind']}")
            ans = {k: v for k, v in ans.items() if k != "kind"}
        game.decide(ans)
        return True
    if defaults:
        game.decide(None)
        return True
    return False


@scenario.command("passo")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--passi", type=click.IntRange(1, 10_000), default=None,
              help="Quanti passi fare (ogni passo: tutti passano la priorità).")
@click.option("--fino-a", "fino_a", type=click.Choice(STEP_NAMES), default=None,
              help="Avanza fino a questa sottofase o fase.")
@click.option("--decisioni", default=None,
              help="Risposte alle decisioni, in ordine: JSON (una risposta o una lista) o file.")
@click.option("--predefinite", is_flag=True, help="Usa la risposta predefinita per le altre decisioni.")
@click.option("--json", "as_json", is_flag=True, help="Stampa JSON: scenario, eventi, decisione in sospeso.")
@click.option("--salva", type=click.Path(dir_okay=False), default=None,
              help="Scrivi il nuovo stato in questo file (può essere lo stesso).")
@click.option("--sul-posto", "-i", "in_place", is_flag=True,
              help="Scrivi il nuovo stato in FILE stesso, così il comando successivo riparte da lì.")
def passo(file: str, passi: int | None, fino_a: str | None, decisioni: str | None,
          predefinite: bool, as_json: bool, salva: str | None, in_place: bool) -> None:
    """Fa avanzare lo scenario FILE e mostra che cosa succede e per quale regola.

    Senza --sul-posto o --salva FILE non cambia: rieseguire il comando ripete lo stesso passo."""
    if passi is not None and fino_a is not None:
        _fail("usa --passi oppure --fino-a, non entrambi", 2, as_json)
    salva = _target(file, salva, in_place, as_json)
    game = _load(file, as_json)
    answers: list = []
    if decisioni is not None:
        parsed = _parse_json_arg(decisioni, "--decisioni", as_json)
        answers = parsed if isinstance(parsed, list) else [parsed]
    start = len(game.events)
    code, problem = 0, ""
    target = StepTarget(fino_a) if fino_a is not None else None
    stepped = False
    try:
        if game.pending is not None:
            _answer_pending(game, answers, predefinite)
        remaining = passi or 1
        budget = 10_000
        while budget > 0 and game.result is None:
            budget -= 1
            if game.pending is not None:
                if not _answer_pending(game, answers, predefinite):
                    break
                continue
            if target is not None and stepped and (target.reached(game.state)
                                                   or target.stop_at_turn_end(game.state)):
                break
            if fino_a is None and remaining <= 0:
                break
            before, n_events = (game.state.turn.number, game.state.turn.step), len(game.events)
            game.step()
            stepped = True
            remaining -= 1
            if target is not None:
                target.observe(before, game.state, game.events[n_events:])
    except IllegalAction as e:
        problem = f"Rifiutato: {e}"
        code = 1
    except (ValueError, TypeError, KeyError, AttributeError) as e:   # never a traceback
        problem = (f"Errore interno del motore ({type(e).__name__}: {e}); lo stato non è cambiato "
                   "dall'ultima operazione riuscita.")
        code = 1
    if code and not as_json:
        click.echo(problem, err=True)
    events = game.events[start:]
    stopped = ""
    if target is not None and target.skipped_turn is not None and game.pending is None and game.result is None:
        stopped = (f"{target.reason(game.state)}. Mi fermo alla fine del turno invece di proseguire nei "
                   "turni successivi.")
    if _save_and_print(game, events, salva, as_json, stopped=stopped, problem=problem if code else None):
        if game.result is not None:
            r = game.result
            if r["draw"]:
                click.echo(click.style("La partita è finita in pareggio.", bold=True))
            else:
                names = " e ".join(game.state.name_of(w) for w in r["winners"])
                verb = "vincono" if len(r["winners"]) > 1 else "vince"
                click.echo(click.style(f"La partita è finita: {verb} {names}.", bold=True))
        s = game.state
        click.echo(f"Ora: turno {s.turn.number}, {BY_NAME[s.turn.step].label}, giocatore attivo "
                   f"{s.name_of(s.turn.active_player)}.")
        if stopped:
            click.echo(stopped)
        _save_note(salva, file)
    sys.exit(code)


@scenario.command("azione")
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("nome", type=click.Choice(sorted(ACTIONS)))
@click.argument("parametri", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Stampa JSON: scenario, eventi, decisione in sospeso.")
@click.option("--salva", type=click.Path(dir_okay=False), default=None,
              help="Scrivi il nuovo stato in questo file.")
@click.option("--sul-posto", "-i", "in_place", is_flag=True, help="Scrivi il nuovo stato in FILE stesso.")
def azione(file: str, nome: str, parametri: tuple[str, ...], as_json: bool, salva: str | None,
           in_place: bool) -> None:
    """Esegue un'azione del giudice (es. deal_damage target=p2 amount=3) e mostra le regole."""
    salva = _target(file, salva, in_place, as_json)
    game = _load(file, as_json)
    params: dict[str, Any] = {}
    for item in parametri:
        if "=" not in item:
            _fail(f'parametro "{item}": atteso nome=valore', 2, as_json)
        k, v = item.split("=", 1)
        try:
            params[k] = json.loads(v)
        except json.JSONDecodeError:
            params[k] = v
        except RecursionError:
            _fail(f'parametro "{k}": JSON troppo annidato', 2, as_json)
    try:
        events = game.act(nome, **params)
    except IllegalAction as e:
        _fail(str(e), 1, as_json)
    except (ValueError, TypeError, KeyError, AttributeError) as e:   # never a traceback
        _fail(f"parametri non validi per {nome} ({type(e).__name__}: {e})", 1, as_json)
    if _save_and_print(game, events, salva, as_json):
        _save_note(salva, file)


def _target(file: str, salva: str | None, in_place: bool, as_json: bool = False) -> str | None:
    if in_place and salva is not None and Path(salva).resolve() != Path(file).resolve():
        _fail("usa --sul-posto oppure --salva FILE, non entrambi", 2, as_json)
    return file if in_place else salva


def _save_and_print(game, events, salva: str | None, as_json: bool, stopped: str | None = None,
                    problem: str | None = None) -> bool:
    """Write the new state where asked, then print the events (JSON or text).
    Returns True when the text form was printed, so callers may add to it.  The JSON form says
    too where the state went (``saved``: the file, or null when nothing was written) and, for
    ``passo --fino-a``, why it stopped short of the step (``stopped``)."""
    if salva:
        try:
            Path(salva).write_text(dumps(game.state), encoding="utf-8")
        except OSError as e:
            _fail(f"impossibile scrivere {salva}: {e.strerror or e}", 2)
    if as_json:
        out = {"scenario": game.to_dict(), "events": [e.to_dict() for e in events],
               "pending": game.pending, "saved": salva or None,
               # how each characteristic changed by an effect or counter came to be (613)
               "characteristics": explain.explain_board(game.state),
               "layer_notes": explain.notes(game.state)}
        if stopped is not None:
            out["stopped"] = stopped or None
        if problem:  # what was refused, after the events that happened before it
            out["error"] = {"code": 1, "message": problem, "errors": []}
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return False
    _print_events(events)
    if game.pending is not None:
        _print_pending(game.pending)
    return True


def _save_note(salva: str | None, file: str) -> None:
    """Text output says where the new state went: without it, running the same command again
    silently repeats the same step."""
    if salva:
        click.echo(f"Stato salvato in {salva}.")
    else:
        click.echo(f"Stato non salvato: {file} è invariato, quindi lo stesso comando ripete lo stesso "
                   "passo. Per proseguire usa --sul-posto (o --salva ALTRO.json).")


@scenario.command("perche")
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("oggetto")
@click.option("--json", "as_json", is_flag=True, help="Stampa la spiegazione in JSON.")
def perche(file: str, oggetto: str, as_json: bool) -> None:
    """Perché OGGETTO di FILE ha le caratteristiche che ha: gli effetti livello per livello (613)."""
    game = _load(file)
    why = explain.explain(game.state, oggetto)
    if why is None:
        _fail(f"oggetto sconosciuto «{oggetto}»", 2)
    if as_json:
        click.echo(json.dumps(why, ensure_ascii=False, indent=2))
        return
    res = why["result"]["text"]
    click.echo(f"{why['name']}: {res['types']}"
               + (f" {why['result']['power']}/{why['result']['toughness']}"
                  if why["result"]["power"] is not None else "")
               + f"; colori: {res['colors']}; abilità: {res['abilities']}; "
                 f"controllore: {res['controller']} (613.1)")
    for r in why["rows"]:
        click.echo(f"  {r['seq']:>3}. livello {r['layer_label']} — {r['label']}: {r['what']}")
        click.echo(f"       perché ora: {r['why_text']} [{', '.join(r['rules'])}]")
    for n in why["notes"]:
        click.echo(f"  nota: {n['text']} [{', '.join(n['rules'])}]")


@scenario.command("verifica")
@click.argument("file", type=click.Path(dir_okay=False))
def verifica(file: str) -> None:
    """Controlla che FILE sia uno scenario valido e, se ha un blocco «expected», che lo rispetti."""
    game = _load(file)
    data = json.loads(Path(file).read_text(encoding="utf-8-sig"))
    if not data.get("expected"):
        click.echo(f"Scenario valido: {game.state.title or file}.")
        return
    from judge.engine.play.library import verify
    fails, _ = verify(data)
    if fails:
        click.echo(f"Lo scenario non si comporta come documentato: {file}", err=True)
        for f in fails:
            click.echo(f"  {f}", err=True)
        sys.exit(1)
    click.echo(f"Scenario valido e conforme al risultato atteso: {game.state.title or file}.")
