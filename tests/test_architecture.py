"""The shape of the house: imports follow the data flow (corpus -> index -> web; scenario ->
engine -> events -> web), so no module of judge/ imports one that imports it back, lazy
imports inside functions included (a lazy import hides a cycle from Python, not from a reader).
"""

from __future__ import annotations

import ast
from pathlib import Path

JUDGE = Path(__file__).resolve().parents[1] / "judge"


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
