"""The layers' shape, read from the source: no import circle inside engine/, bot/store/, bot/ or
cogs/; the engine imports no Discord, database or asyncio; the cogs import no store module."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module `path` imports, anywhere in it (inside functions too), resolved to full names;
    `from package import name` counts as importing `package.name` where that is a module."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def graph(*folders: str) -> dict[str, set[str]]:
    files = [path for folder in folders for path in (ROOT / folder).rglob("*.py")]
    names = {module_name(path) for path in files}
    edges = {}
    for path in files:
        name = module_name(path)
        found = imports(path)
        # importing `package.module` is not importing `package` (its __init__ runs, but nothing of it is used)
        edges[name] = {m for m in found if m in names and m != name and not any(
            other.startswith(m + ".") and other in names for other in found)}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("folder", ["bot", "cogs"])
def test_no_import_circles(folder):
    assert circles(graph(folder)) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engine_imports_no_discord_database_or_asyncio():
    for path in (ROOT / "engine").rglob("*.py"):
        roots = {name.split(".")[0] for name in imports(path)}
        assert not roots & {"discord", "sqlmodel", "sqlalchemy", "asyncio", "bot", "cogs"}, path


def test_the_cogs_import_no_store_module():
    for path in (ROOT / "cogs").rglob("*.py"):
        assert not any(name == "bot.store" or name.startswith("bot.store.") for name in imports(path)), path
