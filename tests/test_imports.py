"""The layers' shape, read from the source: the engine imports no Discord, database or asyncio,
and the cogs import no store module (tests/test_import_cycles.py finds import circles)."""

import ast
from pathlib import Path

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


def test_the_engine_imports_no_discord_database_or_asyncio():
    for path in (ROOT / "engine").rglob("*.py"):
        roots = {name.split(".")[0] for name in imports(path)}
        assert not roots & {"discord", "sqlmodel", "sqlalchemy", "asyncio", "bot", "cogs"}, path


def test_the_cogs_import_no_store_module():
    for path in (ROOT / "cogs").rglob("*.py"):
        assert not any(name == "bot.store" or name.startswith("bot.store.") for name in imports(path)), path
