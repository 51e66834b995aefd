"""No import circle inside engine/, bot/ (with bot/store/), cogs/ (with cogs/live/) or i18n/:
every module-level, function-level and `if TYPE_CHECKING:` import counted.

A lazy import inside a function, or one only for a type under `if TYPE_CHECKING:`, hides a
circle from Python but not from a reader: the modules still depend on each other (a type one
module names is part of what it means). `python tests/test_import_cycles.py engine bot/store cogs`
prints the circles of any folders.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST):
    """Every Import/ImportFrom node, those under `if TYPE_CHECKING:` too."""
    return (node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)))


def import_graph(folder: str) -> dict[str, set[str]]:
    """Module -> the modules of the same folder it imports (by dotted name)."""
    base = ROOT / folder
    modules = {_module_name(p): p for p in sorted(base.rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    source = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                # `from pkg import mod` names a submodule when one exists, else the package
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]
            for target in targets:
                while target and target not in modules:  # `import a.b.c` -> the nearest known module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each as a path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(_loop(graph, sorted(group)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _loop(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """One concrete circle through the group's first module (a -> b -> ... -> a)."""
    members = set(group)
    start = group[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & members):
                if w == start:
                    return paths[v] + [start]
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    return group


@pytest.mark.parametrize("folder", ["engine", "bot", "cogs", "i18n"])  # with their subfolders
def test_no_import_circle(folder):
    found = cycles(import_graph(folder))
    assert not found, f"import circles in {folder}/: " + "; ".join(" -> ".join(c) for c in found)


def test_the_walker_finds_a_circle():
    graph = {"engine.a": {"engine.b"}, "engine.b": {"engine.c"}, "engine.c": {"engine.a"}, "engine.d": {"engine.a"}}
    assert cycles(graph) == [["engine.a", "engine.b", "engine.c", "engine.a"]]
    assert cycles({"engine.a": {"engine.b"}, "engine.b": set()}) == []


def test_the_graph_counts_lazy_imports_and_imports_for_types(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "one.py").write_text("from .two import x\n")
    (pkg / "two.py").write_text("def f():\n    from . import one\n\nfrom typing import TYPE_CHECKING\n"
                                "if TYPE_CHECKING:\n    from .three import y\n")
    (pkg / "three.py").write_text("from pkg import two\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    graph = import_graph("pkg")
    assert graph["pkg.two"] == {"pkg.one", "pkg.three"} and graph["pkg.three"] == {"pkg.two"}
    assert cycles(graph) == [["pkg.one", "pkg.two", "pkg.one"]]
    (pkg / "one.py").write_text("")  # the lazy circle gone: the one through a type remains
    assert cycles(import_graph("pkg")) == [["pkg.three", "pkg.two", "pkg.three"]]


if __name__ == "__main__":
    for folder in sys.argv[1:] or ["engine"]:
        found = cycles(import_graph(folder))
        print(f"{folder}: " + ("no import circle" if not found else "; ".join(" -> ".join(c) for c in found)))
