"""No import circle among ``referee`` or ``vision`` modules (issue 19, "No import circle anywhere").

The import graph is read from the source files with ``ast``, every import counted: those at
the top of a module and those inside a function (a lazy import hides a circle from Python,
not from a reader).  A registry is read from above: ``referee.families`` imports the family
packages, and nothing they import reaches back to it (shared/STYLE.md "Everywhere").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (``from p import sub`` names ``p.sub``)."""
    paths = {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
                targets += [f"{base}.{a.name}" if f"{base}.{a.name}" in paths else base for a in node.names]
        deps = set()
        for target in targets:
            while target and target not in paths:  # ``referee.cards.BY_ID`` -> ``referee.cards``
                target = target.rpartition(".")[0]
            if target and target != name:
                deps.add(target)
        graph[name] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
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


def in_web(module: str) -> bool:
    return module == "referee.web" or module.startswith("referee.web.")


@pytest.mark.parametrize(
    "web",
    [
        pytest.param(False, id="referee-without-web"),
        # Pinned bugs: referee.web <-> its blueprint modules (get_db read from the app factory's
        # package) and referee/web/archive.py <-> referee/web/sessions.py (issue 19).
        pytest.param(True, id="referee-web"),
    ],
)
def test_no_import_circle(web):
    found = [c for c in circles(import_graph("referee")) if any(in_web(m) == web for m in c)]
    assert not found, f"import circles: {found}"


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_the_family_registry_is_read_from_above():
    """No module reachable from a family package imports the registry or its readers back."""
    graph = import_graph("referee")
    readers = {"referee.families", "referee.ruleset", "referee.describe", "referee.api"}
    seen, todo = set(), [m for m in graph["referee.families"] if m not in readers]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += graph[m]
    assert not seen & readers, sorted(seen & readers)


def test_no_import_circle_in_vision():
    # pinned: vision <-> vision.detector (BACKENDS) and vision.train.classifier <-> vision.train.effnet
    assert not circles(import_graph("vision")), circles(import_graph("vision"))
