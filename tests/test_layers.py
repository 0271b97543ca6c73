"""The layers stay apart: the rules core imports no app or vision code; vision imports no scoring or web;
vision's runtime imports neither its scene synthesis (vision.synth) nor its training (vision.train), and
synthesis imports no training.

Developers' guide, "What is where"; shared/STYLE.md "Everywhere".
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP_LAYERS = {"cli.py", "store.py", "backup.py", "web"}
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


def imports_by_function(path: Path) -> set[tuple[str, str | None]]:
    """``(module, enclosing function or None)`` for each import in ``path``; ``from vision import x``
    counts as ``vision.x``."""
    found = set()

    def visit(node, fn):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Import):
                found.update((a.name, fn) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found.add((child.module, fn))
                if child.module == "vision":
                    found.update((f"vision.{a.name}", fn) for a in child.names)
            visit(child, fn)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def reaches(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


#: The one arrow from the runtime into training, taken only when asked for: the ``ultralytics`` backend
#: (a training-side backend that needs the train extra) loads ``classifier.pt`` through the classifier's
#: own loader, so the network is defined once.
RUNTIME_INTO_TRAIN = {("vision/detector.py", "vision.train.classifier", "_init_torch")}


@pytest.mark.parametrize("path", sorted((ROOT / "vision").glob("*.py")), ids=rel)
def test_vision_runtime_imports_no_synth_or_train(path):
    bad = {(rel(path), n, fn) for n, fn in imports_by_function(path)
           if reaches(n, "vision.synth") or reaches(n, "vision.train")} - RUNTIME_INTO_TRAIN
    assert not bad, f"the runtime reaches into synthesis or training: {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "vision" / "synth").rglob("*.py")), ids=rel)
def test_vision_synth_imports_no_train(path):
    bad = {n for n, _ in imports_by_function(path) if reaches(n, "vision.train")}
    assert not bad, f"{path} imports {bad}"


def test_the_runtime_arrow_into_train_is_where_it_is_said():
    # the allowance above must name an import that exists, or it would hide a new one
    for where, module, fn in RUNTIME_INTO_TRAIN:
        assert (module, fn) in imports_by_function(ROOT / where)
