"""The shape of the house: imports follow the data flow (corpus -> index -> web; scenario ->
engine -> events -> web), so no module of judge/ imports one that imports it back, lazy
imports inside functions included (a lazy import hides a cycle from Python, not from a reader).

Inside the rules engine the rooms go one way too (ENGINE_ROOMS): a module imports only its own
room and the rooms of earlier layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

JUDGE = Path(__file__).resolve().parents[1] / "judge"

# The rules engine's rooms in the order data flows, layer by layer: a module may import its own
# room and the rooms of the layers before it, never a later layer nor another room of its own
# layer.  "core" is the modules directly in judge/engine/ (state, events, errors, registry,
# context, seats, steps, terms, validation); judge/engine/__init__.py only re-exports the public
# names (Game from play) and is not a room.  A new package of the engine goes into this list.
ENGINE_ROOMS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("characteristics",),
    ("mechanics",),
    ("combat", "scenario"),
    ("actions",),
    ("play",),
)


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, dict[str, int]]:
    """Module -> {module of the same tree it imports: line of the first such import}.

    Every import statement counts, wherever it is (module level, inside a function, under an
    ``if`` or a ``try``).  ``from P import n`` is an edge to ``P.n`` when that is a module, else
    to ``P``.  Importing ``P.m`` also runs ``P/__init__.py``; that implicit edge is not counted,
    so a package may import its own submodules to gather them (``judge.web.simulator``)."""
    mods = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {}
    for name, path in mods.items():
        is_package = path.name == "__init__.py"
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    package = package[:len(package) - node.level + 1]
                    base = ".".join(package + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            else:
                continue
            for target in targets:
                if target in mods and target != name:
                    edges.setdefault(target, node.lineno)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def a_cycle(graph: dict[str, dict[str, int]], component: list[str]) -> list[str]:
    """One closed path through ``component``, each step with the line of its import."""
    inside = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w, line in sorted(graph[v].items()):
            step = f"{w} (line {line} of {v})"
            if w == start:
                return paths[v] + [step]
            if w in inside and w not in paths:
                paths[w] = paths[v] + [step]
                queue.append(w)
    return component          # unreachable for a strongly connected component


def test_no_import_cycles_in_judge():
    graph = import_graph(JUDGE)
    assert sum(len(e) for e in graph.values()) > len(graph)      # the parser sees the imports
    found = cycles(graph)
    assert not found, "import cycles in judge/ (move the code to where its domain is):\n" + "\n".join(
        " -> ".join(a_cycle(graph, c)) for c in found)


def room_of(module: str, engine: str, packages: set[str]) -> str | None:
    """The room of an engine module: its package under ``engine`` (the package's own
    ``__init__`` included), or "core" for a module directly in it; None for ``engine`` itself
    and for modules outside it."""
    if not module.startswith(engine + "."):
        return None
    rest = module[len(engine) + 1:].split(".")
    return rest[0] if len(rest) > 1 or module in packages else "core"


def wrong_way_imports(graph: dict[str, dict[str, int]], engine: str,
                      rooms: tuple[tuple[str, ...], ...]) -> list[str]:
    """Imports between rooms of ``engine`` against ``rooms`` (layers, earliest first), and
    modules in a room the list does not name."""
    layer = {room: i for i, names in enumerate(rooms) for room in names}
    packages = {m for m in graph if any(o.startswith(m + ".") for o in graph)}
    wrong = []
    for module, edges in sorted(graph.items()):
        here = room_of(module, engine, packages)
        if here is None:
            continue
        if here not in layer:
            wrong.append(f"{module}: room {here!r} is not in ENGINE_ROOMS (place it in the order)")
            continue
        for target, line in sorted(edges.items()):
            there = room_of(target, engine, packages)
            if there is None or there == here or there not in layer:
                continue
            if layer[there] >= layer[here]:
                wrong.append(f"{module} (line {line}) imports {target}: {here} may not import {there}")
    return wrong


def test_engine_rooms_import_one_way():
    graph = import_graph(JUDGE)
    packages = {m for m in graph if any(o.startswith(m + ".") for o in graph)}
    rooms = {room_of(m, "judge.engine", packages) for m in graph} - {None}
    assert {"core", "characteristics", "mechanics", "combat", "actions", "play"} <= rooms
    wrong = wrong_way_imports(graph, "judge.engine", ENGINE_ROOMS)
    assert not wrong, ("imports against the engine's rooms (move the function to the room its "
                       "data belongs to, see docs/engine.md):\n" + "\n".join(wrong))


def test_engine_module_names_are_unique():
    """A module's name says where it is (docs/engine.md): no two rooms hold a module of the same
    name, so ``grep``, tracebacks and imports never need the room to tell them apart."""
    seen: dict[str, list[str]] = {}
    for path in (JUDGE / "engine").rglob("*.py"):
        if path.name != "__init__.py":
            seen.setdefault(path.name, []).append(str(path.relative_to(JUDGE)))
    assert not {name: where for name, where in seen.items() if len(where) > 1}


def test_the_rooms_check_finds_wrong_way_and_unplaced_imports(tmp_path):
    eng = tmp_path / "eng"
    files = {
        "__init__.py": "from eng.top.a import A\n",        # the package's face: not a room
        "state.py": "",
        "low/__init__.py": "",
        "low/x.py": "from eng import state\ndef f():\n    from eng.top import a\n",   # lazy, upward
        "low/y.py": "from eng.low import x\n",             # its own room
        "mid/__init__.py": "",
        "mid/m.py": "from eng.side import s\n",            # same layer
        "side/__init__.py": "",
        "side/s.py": "from eng.low import y\n",
        "top/__init__.py": "",
        "top/a.py": "from eng.low import x\nfrom eng.mid import m\nfrom eng import state\n",
        "new/__init__.py": "from eng.new import n\n",
        "new/n.py": "",
    }
    for rel, text in files.items():
        (eng / rel).parent.mkdir(parents=True, exist_ok=True)
        (eng / rel).write_text(text)
    graph = import_graph(eng)
    rooms = (("core",), ("low",), ("mid", "side"), ("top",))
    assert wrong_way_imports(graph, "eng", rooms) == [
        "eng.low.x (line 3) imports eng.top.a: low may not import top",
        "eng.mid.m (line 1) imports eng.side.s: mid may not import side",
        "eng.new: room 'new' is not in ENGINE_ROOMS (place it in the order)",
        "eng.new.n: room 'new' is not in ENGINE_ROOMS (place it in the order)",
    ]


def test_the_check_finds_lazy_and_relative_cycles(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "from pkg import b\n",
        "b.py": "def f():\n    from pkg.a import x\n    return x\n",       # lazy, back to a
        "c.py": "from .sub import d\n",
        "sub/__init__.py": "",
        "sub/d.py": "try:\n    from ..c import y\nexcept ImportError:\n    pass\n",
        "e.py": "import pkg.a\nfrom pkg.sub import d\n",                    # imports, not imported
    }
    for rel, text in files.items():
        (pkg / rel).write_text(text)
    graph = import_graph(pkg)
    assert graph["pkg.e"] == {"pkg.a": 1, "pkg.sub.d": 2}
    assert sorted(cycles(graph)) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.sub.d"]]
    assert a_cycle(graph, ["pkg.a", "pkg.b"]) == [
        "pkg.a", "pkg.b (line 1 of pkg.a)", "pkg.a (line 2 of pkg.b)"]
