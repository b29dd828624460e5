"""New scenarios: a ready-to-edit board for each variant, with the rules' starting values and
libraries of placeholder cards."""

from __future__ import annotations

from typing import Any

from judge.engine.errors import ScenarioError
from judge.engine.scenario.parse import FORMAT, MAX_PLAYERS, VERSION
from judge.engine.seats import starting_life
from judge.engine.state import VARIANTS
from judge.engine.terms import TWO_HEADED_GIANT as THG


PLACEHOLDER_CARD = "Carta"    # a card whose identity does not matter (the builder shows a run as "30")
PLACEHOLDER_LIBRARY = 30       # enough for 30 turns before 704.5b ends the game


def placeholder_library(pid: str, n: int = PLACEHOLDER_LIBRARY) -> list[dict]:
    return [{"id": f"{pid}-c{j}", "name": PLACEHOLDER_CARD, "types": []} for j in range(1, n + 1)]


def new_scenario(variant: str = "two-player", players: int | None = None,
                 title: str | None = None) -> dict:
    """A ready-to-edit scenario for a variant: starting life (119.1), hand size, teams, and
    libraries of placeholder cards, so that stepping does not end the game at once (704.5b)."""
    if variant not in VARIANTS:
        raise ScenarioError([("variant", f'variante sconosciuta "{variant}" (ammesse: {", ".join(VARIANTS)})')])
    defaults = {"two-player": 2, "free-for-all": 4, "commander": 4, "two-headed-giant": 4,
                "brawl": 2, "archenemy": 4, "vanguard": 2}
    n = players if players is not None else defaults[variant]
    if variant == "two-player" and n != 2:
        raise ScenarioError([("players", "una partita a due giocatori ha esattamente 2 giocatori")])
    if variant == "free-for-all" and n < 3:
        raise ScenarioError([("players", "il tutti contro tutti richiede almeno 3 giocatori")])
    if variant == "two-headed-giant" and (n < 4 or n % 2):
        raise ScenarioError([("players", f"il {THG} richiede due squadre uguali di almeno 2 giocatori")])
    if not 2 <= n <= MAX_PLAYERS:
        raise ScenarioError([("players", f"numero di giocatori fra 2 e {MAX_PLAYERS}")])
    names = ["Alice", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Marco",
             "Nadia", "Oscar", "Paola", "Rocco", "Sara", "Tullio", "Ugo", "Vera"]
    out_players = []
    for i in range(n):
        pid = f"p{i + 1}"
        arch = variant == "archenemy" and i == 0
        if variant == "two-headed-giant":
            team = "A" if i < n // 2 else "B"
        elif variant == "archenemy":
            team = "archenemy" if arch else "eroi"
        else:
            team = pid
        pl: dict[str, Any] = {
            "id": pid, "name": names[i], "team": team,
            "life": starting_life(variant, n, arch), "poison": 0, "max_hand_size": 7,
            "hand": [], "library": placeholder_library(pid), "graveyard": [], "exile": [],
            "command": [],
            "mana_pool": {}, "commander_damage": {},
        }
        if variant in ("commander", "brawl"):
            pl["command"] = [{"id": f"{pid}-cmd", "name": f"Comandante di {names[i]}",
                              "types": ["creature"], "supertypes": ["legendary"],
                              "power": 3, "toughness": 3, "commander": True}]
        if arch:
            pl["archenemy"] = True
            pl["scheme_deck"] = [{"id": f"schema{j}", "name": f"Intrigo {j}", "types": ["scheme"]}
                                 for j in range(1, 3)]
        out_players.append(pl)
    return {
        "format": FORMAT, "version": VERSION,
        "title": title or f"Nuovo scenario ({variant})",
        "description": "",
        "variant": variant,
        "options": {"attack": "multiple"},
        "players": out_players,
        "battlefield": [],
        "turn": {"number": 1, "active_player": "p1", "step": "upkeep"},
        "day_night": None, "monarch": None, "initiative": None, "combat": None,
        "seed": 0,
    }
