"""The layers stay apart: the rules core imports no app or vision code; vision imports no scoring or web.

Developers' guide, "What is where"; shared/STYLE.md "Everywhere".
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP_LAYERS = {"cli.py", "store", "backup.py", "web"}
FORBIDDEN_IN_CORE = ("flask", "sqlite3", "sqlite_utils", "cv2", "PIL", "onnxruntime", "numpy", "vision",
                     "requests", "urllib", "socket", "http", "referee.web", "referee.store", "referee.cli")


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def core_modules():
    for path in sorted((ROOT / "referee").rglob("*.py")):
        rel = path.relative_to(ROOT / "referee")
        if rel.parts[0] not in APP_LAYERS:
            yield path


@pytest.mark.parametrize("path", list(core_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_imports_no_app_layer(path):
    bad = {n for n in imports(path) for f in FORBIDDEN_IN_CORE if n == f or n.startswith(f + ".")}
    assert not bad, f"{path} imports {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "vision").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_vision_imports_no_scoring_or_web(path):
    bad = {n for n in imports(path) if n.startswith("referee") and n != "referee.cards"} | {
        n for n in imports(path) if n.split(".")[0] in ("flask", "sqlite3", "sqlite_utils")}
    assert not bad, f"{path} imports {bad}"
