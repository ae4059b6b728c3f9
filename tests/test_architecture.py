"""The package's layers depend one way, and only the UI imports Qt.

rules ← match ← store ← tournament ← exports ← ui / cli: a lower layer never imports a
higher one, so the rules stay testable without a database and the core without Qt.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "referee_desk"
LAYERS = ["rules", "match", "store", "tournament", "exports", "ui", "cli"]
#: What each layer may import from the package (itself included).
ALLOWED = {
    "rules": {"rules"},
    "match": {"rules", "match"},
    "store": {"rules", "match", "store"},
    "tournament": {"rules", "match", "store", "tournament"},
    "exports": {"rules", "match", "store", "tournament", "exports"},
    "ui": set(LAYERS) - {"cli"},
    "cli": set(LAYERS),
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_point_down(layer: str) -> None:
    wrong = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            inside = parts[0] == "referee_desk" and len(parts) > 1 and parts[1] in LAYERS
            if inside and parts[1] not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("layer", [name for name in LAYERS if name not in ("ui", "cli")])
def test_only_the_ui_imports_qt(layer: str) -> None:
    qt = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for name in _imports(path)
        if name.split(".")[0] in ("PySide6", "shiboken6")
    ]
    assert not qt, "\n".join(qt)


def test_cli_loads_qt_only_to_open_the_desk() -> None:
    """The headless subcommands never import Qt (``referee-desk rules`` must start fast)."""
    offenders = [
        path.name
        for path in sorted((PACKAGE / "cli").glob("*.py"))
        if any(name.split(".")[0] == "PySide6" for name in _imports(path))
    ]
    assert not offenders
