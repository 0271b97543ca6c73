"""The layers stay apart: the arrows that must never exist, read from every module's imports.

- the rules core (``referee/`` but the app layers) imports no app layer (web, store, CLI,
  backup), no vision and no I/O library;
- vision imports no scoring and no web (``referee.cards`` only, for the card ids);
- vision's runtime (``vision/*.py``) imports neither its scene synthesis (``vision.synth``) nor its
  training (``vision.train``), but for one named arrow; synthesis imports no training;
- the store imports no web and no vision;
- a game family package imports no other family package (what two share lives in the core);
- the app layers (web, store, CLI with ``textout``, backup) import only vision's runtime: ``pip install -e .``
  runs them without the ``train`` and ``vision`` extras;
- every import in ``referee/`` and ``vision/`` is absolute, so the checks above read it.

docs/ARCHITECTURE.md, "The arrows"; README "Where things live"; shared/STYLE.md "Everywhere";
issue 19 item 7.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The app layers beside the rules core: the CLI (``cli.py``, ``textout.py``), the store, backup, web.
APP_LAYERS = {"cli.py", "textout.py", "store", "backup.py", "web"}
FORBIDDEN_IN_CORE = (
    "flask",
    "sqlite3",
    "sqlite_utils",
    "cv2",
    "PIL",
    "onnxruntime",
    "numpy",
    "vision",
    "requests",
    "urllib",
    "socket",
    "http",
    "referee.web",
    "referee.store",
    "referee.cli",
    "referee.textout",
    "referee.backup",
)
FORBIDDEN_IN_STORE = ("flask", "vision", "referee.web", "referee.cli", "referee.backup")


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function; ``from a import b``
    gives both ``a`` and ``a.b`` (``b`` may be a module: ``from referee import web``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def matching(names: set[str], forbidden: tuple[str, ...]) -> set[str]:
    return {n for n in names for f in forbidden if n == f or n.startswith(f + ".")}


def core_modules():
    for path in sorted((ROOT / "referee").rglob("*.py")):
        rel = path.relative_to(ROOT / "referee")
        if rel.parts[0] not in APP_LAYERS:
            yield path


def ids(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", list(core_modules()), ids=ids)
def test_core_imports_no_app_layer(path):
    bad = matching(imports(path), FORBIDDEN_IN_CORE)
    assert not bad, f"{path} imports {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "vision").rglob("*.py")), ids=ids)
def test_vision_imports_no_scoring_or_web(path):
    names = imports(path)
    # the card list, and the standard-library check and write of the command line's output files
    allowed = matching(names, ("referee.cards", "referee.paths"))
    scoring = {n for n in names if n.startswith("referee")} - {"referee"} - allowed
    bad = scoring | {n for n in names if n.split(".")[0] in ("flask", "sqlite3", "sqlite_utils")}
    assert not bad, f"{path} imports {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "referee" / "store").rglob("*.py")), ids=ids)
def test_store_imports_no_web(path):
    bad = matching(imports(path), FORBIDDEN_IN_STORE)
    assert not bad, f"{path} imports {bad}"


FAMILIES = sorted(p.parent.name for p in (ROOT / "referee").glob("*/__init__.py") if p.parent.name not in APP_LAYERS)


def test_the_family_packages_are_found():
    assert {"roppyakken", "hachihachi", "koikoi", "gostop"} <= set(FAMILIES)


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_package_imports_no_other_family(family):
    others = tuple(f"referee.{f}" for f in FAMILIES if f != family)
    bad = {(ids(p), n) for p in sorted((ROOT / "referee" / family).rglob("*.py"))
           for n in matching(imports(p), others)}
    assert not bad, f"one family reaches into another: {bad}; share it through the core"


def app_modules():
    for layer in sorted(APP_LAYERS):
        path = ROOT / "referee" / layer
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


@pytest.mark.parametrize("path", list(app_modules()), ids=ids)
def test_the_app_imports_only_the_vision_runtime(path):
    bad = matching(imports(path), ("vision.synth", "vision.train"))
    assert not bad, f"{path} imports {bad}: the app runs without synthesis and training"


@pytest.mark.parametrize("path", sorted([*(ROOT / "referee").rglob("*.py"), *(ROOT / "vision").rglob("*.py")]),
                         ids=ids)
def test_imports_are_absolute(path):
    # imports() reads absolute names only: a relative import would slip past every check here
    relative = [n.lineno for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(n, ast.ImportFrom) and n.level]
    assert not relative, f"{path} has relative imports on lines {relative}; write them absolute"


def test_the_checks_see_a_module_imported_by_name(tmp_path):
    # ``from referee import web`` once slipped past: only ``referee`` was read.
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from referee import web\n", encoding="utf-8")
    assert matching(imports(module), FORBIDDEN_IN_STORE) == {"referee.web"}


def imports_by_function(path: Path) -> set[tuple[str, str | None]]:
    """``(module, enclosing function or None)`` for each module :func:`imports` reads in ``path``."""
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
                found.update((f"{child.module}.{a.name}", fn) for a in child.names)
            visit(child, fn)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found


#: The one arrow from the runtime into training, taken only when asked for: the ``ultralytics`` backend
#: (a training-side backend that needs the train extra) loads ``classifier.pt`` through the classifier's
#: own loader, so the network is defined once.
RUNTIME_INTO_TRAIN = {("vision/detector.py", "vision.train.classifier", "_init_torch"),
                      ("vision/detector.py", "vision.train.classifier.load_classifier", "_init_torch")}


@pytest.mark.parametrize("path", sorted((ROOT / "vision").glob("*.py")), ids=ids)
def test_vision_runtime_imports_no_synth_or_train(path):
    bad = {(ids(path), n, fn) for n, fn in imports_by_function(path)
           if matching({n}, ("vision.synth", "vision.train"))} - RUNTIME_INTO_TRAIN
    assert not bad, f"the runtime reaches into synthesis or training: {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "vision" / "synth").rglob("*.py")), ids=ids)
def test_vision_synth_imports_no_train(path):
    bad = matching(imports(path), ("vision.train",))
    assert not bad, f"{path} imports {bad}"


def test_the_runtime_arrow_into_train_is_where_it_is_said():
    # the allowance above must name an import that exists, or it would hide a new one
    for where, module, fn in RUNTIME_INTO_TRAIN:
        assert (module, fn) in imports_by_function(ROOT / where)


def test_the_runtime_check_sees_a_subpackage_imported_by_name(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from vision import synth\n", encoding="utf-8")
    assert ("vision.synth", "f") in imports_by_function(module)
