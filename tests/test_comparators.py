"""Comparators through their own libraries, and any selector as a method.

Each comparator's test skips when its library is absent (``featsieve[comparators]``
installs them; the ``test`` extra includes it, so CI runs them all).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification, make_friedman1, make_regression
from sklearn.feature_selection import SelectKBest, f_classif

import featsieve
from featsieve._registry import MethodSpec, resolve_method, resolve_methods

COMPARATORS = ["boruta", "shap", "l1", "permutation", "sfs", "knockoff", "abess"]


def _clf(n=200, d=8, informative=3, random_state=0):
    """y depends on the first ``informative`` columns (equal weights); the rest is noise."""
    rng = np.random.default_rng(random_state)
    X = rng.standard_normal((n, d))
    logit = 2.0 * X[:, :informative].sum(axis=1) + rng.logistic(size=n)
    return X, (logit > 0).astype(int)


# ------------------------------------------------------------- the comparators
def test_comparators_are_a_group_outside_the_default_set():
    specs = resolve_methods(["comparators"])
    assert [s.name for s in specs] == COMPARATORS
    assert not any(s.in_default for s in specs)
    assert all(s.extra == "comparators" for s in specs)
    # a group and a member named again: each once, in the given order
    assert [s.name for s in resolve_methods(["l1", "comparators"])][:2] == ["l1", "boruta"]


def test_boruta_keeps_the_columns_the_forest_depends_on():
    pytest.importorskip("boruta")
    X, y = _clf(n=300, d=10)
    sel = featsieve.BorutaSelector(max_iter=30, random_state=0).fit(X, y)
    # all three informative columns confirmed; Boruta's test at alpha=0.05 over 7 noise
    # columns may let one through (here x4), never more
    assert (sel.ranking_[:3] == 1).all() and sel.support_[:3].all()
    assert sel.support_[3:].sum() <= 1
    assert 1 <= sel.n_model_fits_ <= 30
    # regression: Friedman #1 uses x0..x4 (x2 weakly), x5..x9 are noise
    Xr, yr = make_friedman1(300, 10, noise=0.5, random_state=0)
    reg = featsieve.BorutaSelector(max_iter=30, random_state=0).fit(Xr, yr)
    assert {0, 1, 3, 4} <= set(reg.get_support(indices=True)) <= {0, 1, 2, 3, 4}


def test_boruta_does_not_touch_the_given_forest():
    pytest.importorskip("boruta")
    from sklearn.ensemble import RandomForestClassifier

    forest = RandomForestClassifier(n_estimators=20, max_depth=3, random_state=5)
    X, y = _clf()
    featsieve.BorutaSelector(forest, max_iter=5, random_state=0).fit(X, y)
    assert forest.get_params()["n_estimators"] == 20 and forest.random_state == 5
    assert not hasattr(forest, "estimators_")


def test_shap_elimination_ranks_informative_columns_first():
    pytest.importorskip("shap")
    X, y = _clf(n=240, d=8)
    sel = featsieve.ShapRFESelector(step=1, cv=3, random_state=0).fit(X, y)
    assert set(sel.get_support(indices=True)) >= {0, 1, 2}
    assert sel.ranking_[:3].max() < sel.ranking_[3:].min() or sel.support_[3:].any()
    res = pd.DataFrame({k: sel.cv_results_[k] for k in ("n_features", "mean_test_score")})
    assert sorted(res["n_features"]) == list(range(1, 9))
    # the kept size has the best mean validation score (smallest such size on ties)
    best = res["mean_test_score"].max()
    assert sel.support_.sum() == res.loc[res["mean_test_score"] == best, "n_features"].min()
    assert sel.n_model_fits_ == 3 * 8 + (8 - sel.support_.sum()) + 1


def test_shap_importance_is_tree_shap():
    shap = pytest.importorskip("shap")
    from sklearn.ensemble import RandomForestClassifier

    from featsieve.comparators._forest import _MeanAbsShap

    X, y = make_classification(150, 5, n_informative=3, n_redundant=0, n_classes=3,
                               random_state=0)
    forest = RandomForestClassifier(n_estimators=10, max_depth=3, random_state=0)
    imp = _MeanAbsShap(forest).fit(X, y).feature_importances_
    phi = shap.TreeExplainer(forest.fit(X, y)).shap_values(X)  # (rows, columns, classes)
    np.testing.assert_allclose(imp, np.abs(phi).mean(axis=0).sum(axis=1))
    with pytest.raises(ValueError, match="TreeExplainer cannot read"):
        from sklearn.neighbors import KNeighborsClassifier

        _MeanAbsShap(KNeighborsClassifier()).fit(X, y)


def test_l1_equals_select_from_model_at_the_chosen_penalty():
    from sklearn.linear_model import Lasso
    from sklearn.preprocessing import StandardScaler

    X, y = make_regression(150, 10, n_informative=3, noise=1.0, shuffle=False, random_state=0)
    sel = featsieve.L1Selector(random_state=0).fit(X, y)
    ref = Lasso(alpha=sel.penalty_, max_iter=2000).fit(StandardScaler().fit_transform(X), y)
    np.testing.assert_array_equal(sel.support_, np.abs(ref.coef_) > 1e-5)
    np.testing.assert_allclose(sel.scores_, np.abs(ref.coef_), rtol=1e-6, atol=1e-9)
    assert set(sel.get_support(indices=True)) >= {0, 1, 2}
    # the path: strongest penalty first, supports only grow (up to solver ties) and every
    # distinct non-empty support is a candidate for compare's model-val tuning
    sizes = [int(s.sum()) for _, s in sel.path_]
    assert len(sizes) == 10 and sizes[0] <= 1 and sizes[-1] >= 3
    grid = sel.penalty_grid()
    supports = [sel.support_at(penalty=p) for p in grid]
    assert len({m.tobytes() for m in supports}) == len(grid) and all(m.any() for m in supports)
    np.testing.assert_array_equal(sel.support_at(penalty=sel.penalty_), sel.support_)


def test_l1_classification_binary_and_multiclass():
    X, y = _clf(n=240, d=8)
    sel = featsieve.L1Selector(random_state=0).fit(X, y)
    assert set(sel.get_support(indices=True)) >= {0, 1, 2}
    assert sel.penalty_ in [v for v, _ in sel.path_]
    X3, y3 = make_classification(300, 8, n_informative=3, n_redundant=0, n_classes=3,
                                 shuffle=False, random_state=0)
    sel3 = featsieve.L1Selector(n_penalties=4, cv=3, random_state=0).fit(X3, y3)
    assert sel3.support_[:3].sum() >= 2


def test_permutation_rule_equals_sklearn_permutation_importance():
    from sklearn.inspection import permutation_importance
    from sklearn.tree import DecisionTreeClassifier

    X, y = _clf(n=300, d=8)
    Xt, yt, Xv, yv = X[:180], y[:180], X[180:], y[180:]
    tree = DecisionTreeClassifier(max_depth=4, random_state=0)
    sel = featsieve.PermutationSelector(tree, random_state=0).fit(Xt, yt, X_val=Xv, y_val=yv)
    seed = featsieve.comparators._common.seed_of(0)
    ref = permutation_importance(tree.fit(Xt, yt), Xv, yv, scoring="accuracy", n_repeats=10,
                                 random_state=seed)
    np.testing.assert_allclose(sel.scores_, ref.importances_mean)
    np.testing.assert_array_equal(
        sel.support_, ref.importances_mean - 2 * ref.importances_std > 0)
    assert sel.support_[:3].sum() >= 2 and not sel.support_[3:].any()
    top = featsieve.PermutationSelector(tree, n_features_to_select=2, random_state=0).fit(
        Xt, yt, X_val=Xv, y_val=yv)
    assert top.n_features_selected_ == 2 and set(top.get_support(indices=True)) <= {0, 1, 2}
    # compare tunes the rule's multiplier on model-val from the same fit
    np.testing.assert_array_equal(sel.support_at(n_std=0.0), ref.importances_mean > 0)
    np.testing.assert_array_equal(sel.support_at(n_std=2.0), sel.support_)


def test_sfs_forward_stops_by_tol_and_counts_fits():
    from sklearn.linear_model import LogisticRegression

    X, y = _clf(n=300, d=6, informative=2)
    sel = featsieve.SFSSelector(LogisticRegression(), cv=3, random_state=0).fit(X, y)
    chosen = sel.get_support(indices=True).tolist()
    assert chosen == [0, 1]
    # rounds of 6, 5 and 4 candidates (the third adds nothing above tol), 3 folds each
    assert sel.n_model_fits_ == 3 * (6 + 5 + 4)
    fixed = featsieve.SFSSelector(LogisticRegression(), n_features_to_select=3, cv=3,
                                  random_state=0).fit(X, y)
    assert fixed.n_features_selected_ == 3


def test_knockoffs_control_false_discoveries_and_leave_global_rng_alone():
    pytest.importorskip("knockpy")
    rng = np.random.default_rng(0)
    n, d, k = 400, 40, 15
    X = rng.standard_normal((n, d))
    y = X[:, :k] @ np.full(k, 0.6) + rng.standard_normal(n)
    # the caller's global generator is left as it was (knockpy draws from it; see Notes)
    before = np.random.get_state()[1].copy()  # noqa: NPY002
    sel = featsieve.KnockoffSelector(random_state=0).fit(X, y)
    np.testing.assert_array_equal(np.random.get_state()[1], before)  # noqa: NPY002
    found = set(sel.get_support(indices=True))
    assert len(found & set(range(k))) >= 12  # power
    assert len(found - set(range(k))) <= 2  # false discoveries (FDR target 0.1)
    assert np.isfinite(sel.threshold_) and (sel.scores_[sel.support_] >= sel.threshold_).all()
    again = featsieve.KnockoffSelector(random_state=0).fit(X, y)
    np.testing.assert_array_equal(sel.support_, again.support_)
    np.testing.assert_allclose(sel.scores_, again.scores_)


def test_knockoff_plus_needs_about_ten_discoveries_and_offset_zero_does_not():
    pytest.importorskip("knockpy")
    rng = np.random.default_rng(1)
    X = rng.standard_normal((300, 20))
    y = X[:, :3] @ np.array([1.0, 1.0, 1.0]) + 0.5 * rng.standard_normal(300)
    plus = featsieve.KnockoffSelector(random_state=0).fit(X, y)
    assert not plus.support_.any() and not np.isfinite(plus.threshold_)
    plain = featsieve.KnockoffSelector(offset=0, random_state=0).fit(X, y)
    assert plain.get_support(indices=True).tolist() == [0, 1, 2]
    np.testing.assert_allclose(plain.scores_, plus.scores_)  # same statistics, other cut


def test_knockoffs_refuse_more_than_two_classes():
    pytest.importorskip("knockpy")
    X, y = make_classification(120, 6, n_informative=3, n_redundant=0, n_classes=3,
                               random_state=0)
    with pytest.raises(ValueError, match="3 classes.*one class against the rest"):
        featsieve.KnockoffSelector(random_state=0).fit(X, y)


def test_abess_finds_the_true_subset():
    pytest.importorskip("abess")
    X, y = make_regression(200, 12, n_informative=3, noise=1.0, shuffle=False, random_state=0)
    assert featsieve.AbessSelector().fit(X, y).get_support(indices=True).tolist() == [0, 1, 2]
    Xc, yc = _clf(n=300, d=10)
    sel = featsieve.AbessSelector().fit(Xc, yc)
    assert set(sel.get_support(indices=True)) >= {0, 1, 2}
    assert sel.support_.sum() <= 5
    cv = featsieve.AbessSelector(cv=3, random_state=0).fit(X, y)
    assert cv.get_support(indices=True).tolist() == [0, 1, 2]


@pytest.mark.parametrize("name", COMPARATORS)
def test_same_seed_same_selection(name):
    spec = featsieve.get_method(name)
    if not spec.available:
        pytest.skip(f"{', '.join(spec.requires)} not installed")
    X, y = _clf(n=160, d=6)
    fast = {"max_iter": 10, "cv": 3, "step": 1}

    def fit():
        sel = featsieve.make_selector(name, task="classification", random_state=3)
        sel.set_params(**{k: v for k, v in fast.items() if k in sel.get_params()})
        return sel.fit(X, y).support_

    np.testing.assert_array_equal(fit(), fit())


# ------------------------------------------------------------- missing libraries
def test_a_missing_library_names_the_extra(monkeypatch, capsys):
    from sklearn.feature_selection import VarianceThreshold

    spec = MethodSpec("ghost", VarianceThreshold, requires=("surely_absent_pkg",),
                      extra="comparators")
    assert not spec.available
    with pytest.raises(featsieve.MethodUnavailableError,
                       match=r"'ghost' needs surely_absent_pkg.*featsieve\[comparators\]"):
        featsieve.make_selector(spec, task="classification")
    with pytest.raises(ValueError, match="featsieve\\[comparators\\]"):  # also a ValueError
        resolve_methods([spec])
    # the same at fit time, from inside the wrapper
    from featsieve.comparators import _common

    with pytest.raises(ImportError, match=r"pip install 'featsieve\[comparators\]'"):
        _common.require("surely_absent_pkg", "ghost")
    # `featsieve methods` says which are not installed
    from featsieve import _registry
    from featsieve.cli import main

    real = _registry.MethodSpec.available
    monkeypatch.setattr(_registry.MethodSpec, "available",
                        property(lambda self: self.name != "boruta" and real.fget(self)))
    assert main(["methods"]) == 0
    lines = {ln.split()[0]: ln for ln in capsys.readouterr().out.splitlines() if ln.strip()}
    assert "not installed: pip install 'featsieve[comparators]'" in lines["boruta"]
    assert "not installed" not in lines["gbmo"]


def test_import_featsieve_stays_light():
    code = ("import sys, featsieve; featsieve.methods(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'boruta', 'shap', 'probatus', 'knockpy', 'abess', 'cvxpy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_comparator_versions_in_the_report_environment():
    from featsieve.report import package_versions

    env = package_versions()
    for dist in ("boruta", "shap", "knockpy", "abess"):
        assert dist in env


# ------------------------------------------------------------- any selector
USER_MODULE = textwrap.dedent("""
    from sklearn.feature_selection import SelectKBest, f_classif

    class MyKBest(SelectKBest):
        def __init__(self, score_func=f_classif, *, k=3):
            super().__init__(score_func, k=k)

    def make_two(task, random_state=None):
        return SelectKBest(f_classif, k=2)

    NOT_A_SELECTOR = 42
""")


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "fs_user_sel.py").write_text(USER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "fs_user_sel"
    sys.modules.pop("fs_user_sel", None)


def test_resolve_method_entries(user_module):
    spec = resolve_method(f"{user_module}:MyKBest")
    assert spec.name == f"{user_module}:MyKBest" and not spec.in_default
    sel = featsieve.make_selector(f"{user_module}:MyKBest", task="classification")
    assert type(sel).__name__ == "MyKBest" and sel.k == 3
    two = featsieve.make_selector(f"{user_module}:make_two", task="classification")
    assert two.k == 2
    inst = SelectKBest(f_classif, k=4)
    built = featsieve.make_selector(inst, task="classification")
    assert built is not inst and built.k == 4  # a clone
    assert resolve_method("gbmo") is featsieve.get_method("gbmo")
    names = [s.name for s in resolve_methods([inst, SelectKBest(k=2), "cc"])]
    assert names == ["SelectKBest", "SelectKBest-2", "cc"]


def test_a_user_selector_gets_the_run_seed():
    from sklearn.feature_selection import SelectFromModel
    from sklearn.tree import DecisionTreeClassifier

    sel = featsieve.make_selector(SelectFromModel(DecisionTreeClassifier()),
                                  task="classification", random_state=7)
    assert "random_state" not in sel.get_params(deep=False)  # only top-level params are seeded

    class Seeded(SelectKBest):
        def __init__(self, score_func=f_classif, *, k=2, random_state=None):
            super().__init__(score_func, k=k)
            self.random_state = random_state

    assert featsieve.make_selector(Seeded(), task="classification",
                                   random_state=7).random_state == 7
    assert featsieve.make_selector(Seeded(random_state=1), task="classification",
                                   random_state=7).random_state == 1


@pytest.mark.parametrize("entry, match", [
    ("no_such_module_xyz:Sel", "Cannot import module 'no_such_module_xyz'.*PYTHONPATH"),
    ("fs_user_sel:Missing", "has no attribute 'Missing'"),
    ("fs_user_sel:NOT_A_SELECTOR", "not a selector|neither a selector"),
    ("fs_user_sel:", "must look like 'module:attribute'"),
    ("nope", "Unknown method 'nope'"),
])
def test_bad_entries_say_what_to_do(user_module, entry, match):
    with pytest.raises(ValueError, match=match):
        resolve_method(entry)


def test_compare_with_user_instances_and_names():
    X, y = _clf(n=200, d=8)
    res = featsieve.compare(X, y, methods=[SelectKBest(f_classif, k=3), "cc"], random_state=0,
                            n_repeats=2, n_jobs=1)
    rows = {r["method"]: r for r in res.rows}
    assert list(rows) == ["all", "baseline", "SelectKBest", "cc"]
    assert rows["SelectKBest"]["selected"] == ["x0", "x1", "x2"]
    assert rows["SelectKBest"]["model_fits"] == 0 and rows["SelectKBest"]["tuned"] == ""
    # repeats in parallel processes get the user's selector inside its row
    par = featsieve.compare(X, y, seeds=(0, 1), methods=[SelectKBest(f_classif, k=3)], n_jobs=2)
    assert [r["method"] for r in par.rows] == ["all", "baseline", "SelectKBest"]
    assert par.rows[2]["selection_frequency"] == {"x0": 1.0, "x1": 1.0, "x2": 1.0}


def test_compare_audit_runs_for_a_user_selector():
    X, y = _clf(n=120, d=6)
    res = featsieve.compare(X, y, methods=[SelectKBest(f_classif, k=2)], estimator="tree",
                            audit={"noise_features": 20, "n_repeats": 1, "k_values": (2,),
                                   "cv": 2})
    row = res.rows[2]
    assert row["method"] == "SelectKBest" and row["noise_pool"] == 20
    assert np.isfinite(row["nested_cv"])


def test_register_method():
    X, y = _clf(n=200, d=8)
    try:
        spec = featsieve.register_method("anova3", SelectKBest(f_classif, k=3),
                                         tasks=("classification",), summary="ANOVA top 3")
        assert "anova3" in featsieve.methods("classification")
        assert "anova3" not in featsieve.methods("regression")
        assert spec.source == "user" and not spec.in_default
        with pytest.raises(ValueError, match="already registered; pass replace=True"):
            featsieve.register_method("anova3", SelectKBest(k=2))
        featsieve.register_method("anova3", SelectKBest(f_classif, k=2), replace=True)
        res = featsieve.compare(X, y, methods=["anova3"], random_state=0, n_repeats=2)
        assert res.rows[2]["n_selected"] == 2
        with pytest.raises(ValueError, match="already registered"):
            featsieve.register_method("gbmo", SelectKBest(k=2))
        with pytest.raises(ValueError, match="without ':'"):
            featsieve.register_method("a:b", SelectKBest(k=2))
        with pytest.raises(ValueError, match="not a feature selector|neither a selector"):
            featsieve.register_method("bad", 42)
        with pytest.raises(ValueError, match="give the selector"):
            featsieve.register_method("bad")
    finally:
        featsieve._registry._REGISTRY.pop("anova3", None)


def test_cli_compare_with_a_selector_on_pythonpath(tmp_path):
    X, y = _clf(n=200, d=8)
    data = tmp_path / "data.csv"
    pd.DataFrame(X, columns=[f"f{i}" for i in range(8)]).assign(target=y).to_csv(data,
                                                                                  index=False)
    (tmp_path / "mysel.py").write_text(USER_MODULE)
    import os

    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-m", "featsieve", "compare", str(data), "--target", "target",
         "--methods", "mysel:MyKBest,cc", "--model", "tree", "--quiet"],
        capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = [ln.split() for ln in out.stdout.splitlines()]
    mine = [r for r in rows if r and r[0] == "mysel:MyKBest"]
    assert mine and mine[0][1] == "3", out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "featsieve", "compare", str(data), "--target", "target",
         "--methods", "mysel:Nope"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert bad.returncode != 0 and "has no attribute 'Nope'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_path_supports_cover_every_column_with_a_constant_one():
    # ionosphere has a constant column: the L1 path and the permutation rule must span all
    X, y = _clf(n=200, d=6)
    X = np.column_stack([X[:, :2], np.ones(200), X[:, 2:]])
    res = featsieve.compare(X, y, methods=["l1", "permutation"], estimator="tree", n_repeats=2)
    for row in res.rows[2:]:
        assert "x2" not in row["selected"] and row["n_selected"] >= 1
    sel = res.selectors["l1"]
    assert all(len(s) == 7 and not s[2] for _, s in sel.path_)


def test_compare_names_the_comparators_at_once():
    missing = [n for n in COMPARATORS if not featsieve.get_method(n).available]
    if missing:
        pytest.skip(f"not installed: {missing}")
    X, y = _clf(n=160, d=5)
    res = featsieve.compare(X, y, methods=["comparators", "cc"], estimator="tree", n_repeats=1)
    rows = {r["method"]: r for r in res.rows}
    assert list(rows) == ["all", "baseline", *COMPARATORS, "cc"]
    for name in ("boruta", "shap", "l1", "sfs", "abess"):
        assert {"x0", "x1", "x2"} <= set(rows[name]["selected"]), (name, rows[name])
    assert rows["l1"]["tuned"].startswith("penalty=")
    assert rows["permutation"]["tuned"].startswith("sd=")
