"""The house plan holds: imports run one way, one method table, a light package import."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

import featsieve

SRC = pathlib.Path(featsieve.__file__).parent
FAMILIES = ("classic", "mask", "genetic", "kernel", "pca", "comparators")
# what a family may import inside the package: the shared base layer only
BASE_LAYER = {"_base", "_validation", "_warnings", "_utils", "_importance", "_elm", "_cart", "_resources", "protocol",
              "models", "scores",
              "progress"}
UPPER = {"evaluation", "report", "cli", "reproduce", "method_table", "_registry", "io",
         "datasets"}


def _imports_of(text: str, package: list[str]) -> set[str]:
    """First component under ``featsieve`` of every import in ``text``.

    ``package`` is the module's package inside featsieve (``["mask"]`` for
    ``featsieve/mask/_gbmo.py``), to resolve relative imports.
    """
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                parts = [*base, *(node.module.split(".") if node.module else [])]
                if not parts:  # "from .. import x": the names are sub-modules
                    parts = [node.names[0].name]
            elif node.module and node.module.split(".")[0] == "featsieve":
                parts = node.module.split(".")[1:]
            else:
                continue
            if parts:
                out.add(parts[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "featsieve" and len(parts) > 1:
                    out.add(parts[1])
    return out


def _featsieve_imports(path: pathlib.Path) -> set[str]:
    return _imports_of(path.read_text(), list(path.relative_to(SRC).parts[:-1]))


def _family_modules():
    for fam in FAMILIES:
        for path in sorted((SRC / fam).rglob("*.py")):
            yield fam, path


@pytest.mark.parametrize("family,path", list(_family_modules()),
                         ids=lambda p: str(p.relative_to(SRC)) if isinstance(p, pathlib.Path)
                         else p)
def test_a_family_imports_only_itself_and_the_base_layer(family, path):
    used = _featsieve_imports(path) - {family}
    assert used <= BASE_LAYER, (
        f"{path.relative_to(SRC)} imports {sorted(used - BASE_LAYER)}: a family imports only "
        f"{sorted(BASE_LAYER)} (docs/architecture.md)")


@pytest.mark.parametrize("path", sorted((SRC / "scores").rglob("*.py")) + [
    SRC / "_base.py", SRC / "_validation.py", SRC / "_warnings.py", SRC / "_utils.py", SRC / "_resources.py",
    SRC / "protocol.py",
    SRC / "models.py", SRC / "progress.py", SRC / "_elm.py", SRC / "_cart.py"], ids=lambda p: str(p.relative_to(SRC)))
def test_the_base_layer_imports_no_family_and_no_upper_layer(path):
    used = _featsieve_imports(path)
    assert not used & (set(FAMILIES) | UPPER), (path, sorted(used & (set(FAMILIES) | UPPER)))


def test_the_import_checker_sees_forbidden_imports():
    text = ("from ..genetic import FASTENER\nfrom .._utils import scorer_for\n"
            "from ._sluf import x\nimport featsieve.evaluation\nfrom .. import report\n")
    assert _imports_of(text, ["mask"]) == {"genetic", "_utils", "mask", "evaluation", "report"}


@pytest.mark.parametrize("upper", ["evaluation", "report", "cli.py"])
def test_front_ends_and_evaluation_hold_no_method_names(upper):
    names = [n for n in featsieve.methods() if n != "all"]
    paths = [SRC / upper] if upper.endswith(".py") else sorted((SRC / upper).rglob("*.py"))
    for path in paths:
        tree = ast.parse(path.read_text())
        consts = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                  and isinstance(n.value, str)}
        found = sorted(consts & set(names))
        assert not found, f"{path.relative_to(SRC)} names methods {found}"


def test_fresh_process_attributes_and_no_heavy_imports():
    code = ("import sys, featsieve; featsieve.models.make_model; featsieve.datasets.load_sonar; "
            "featsieve.scores.mutual_info_scores; "
            "heavy = [m for m in ('matplotlib', 'lightgbm', 'dask', 'ray') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_one_method_table_lists_every_registered_method():
    from featsieve.method_table import METHODS

    assert [s.name for s in METHODS] == featsieve.methods()[: len(METHODS)]
    for spec in METHODS:
        assert spec.name == "all" or spec.cls is not None
        assert spec.source and spec.summary
        assert "seed 0" not in spec.source  # papers, not our seed file names


def test_every_warning_featsieve_emits_is_a_featsieve_warning():
    """Each ``warnings.warn`` in the package names a class (second argument or
    ``category=``) that subclasses ``featsieve.FeatsieveWarning``: one class per cause,
    never a bare UserWarning."""
    import importlib
    import inspect
    import pkgutil

    from featsieve._warnings import FeatsieveWarning

    for info in pkgutil.walk_packages(featsieve.__path__, "featsieve."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    known = {}
    for mod in sys.modules.copy().values():
        if getattr(mod, "__name__", "").startswith("featsieve"):
            for name, obj in vars(mod).items():
                if inspect.isclass(obj) and issubclass(obj, Warning):
                    known[name] = obj
    bad = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "warn"
                    and getattr(node.func.value, "id", None) == "warnings"):
                continue
            cat = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "category"), None)
            name = ast.unparse(cat) if cat is not None else "UserWarning"
            cls = known.get(name.rsplit(".", 1)[-1])
            if cls is None and isinstance(cat, ast.Name) and not name.islower():
                # (a lower-case name re-emits a warning caught from a featsieve call)
                bad.append(f"{path.relative_to(SRC)}:{node.lineno} {name} (not a class?)")
            elif cls is not None and not issubclass(cls, FeatsieveWarning):
                bad.append(f"{path.relative_to(SRC)}:{node.lineno} {name}")
    assert not bad, bad
