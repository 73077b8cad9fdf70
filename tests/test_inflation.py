import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from featsieve import ForwardSelector, RandomSelector, UnivariateFilter
from featsieve.cli import main
from featsieve.datasets import load_subscribers
from featsieve.evaluation import (
    compare,
    nested_cv_score,
    noise_pool_test,
    selection_inflation,
)
from featsieve.evaluation._inflation import _column_order
from featsieve.scores import class_mean_separation


def tree(depth=6):
    return DecisionTreeClassifier(max_depth=depth, random_state=0)


@pytest.fixture(scope="module")
def subscribers():
    b = load_subscribers()
    sp = b.split.to_numpy()
    return b.data, b.target.to_numpy(), sp


# ------------------------------------------------------------- the score
def test_class_mean_separation_by_hand():
    X = np.array([[0.0, 1.0, 5.0], [2.0, 1.0, 5.0], [4.0, 3.0, 5.0], [6.0, 3.0, 5.0]])
    # class 0 means (1, 1, 5), class 1 means (5, 3, 5)
    np.testing.assert_allclose(class_mean_separation(X, ["a", "a", "b", "b"]), [4.0, 2.0, 0.0])
    # three classes: largest distance between two class means
    X3 = np.array([[0.0], [1.0], [10.0], [12.0], [3.0], [5.0]])
    y3 = [0, 0, 1, 1, 2, 2]  # means 0.5, 11, 4
    np.testing.assert_allclose(class_mean_separation(X3, y3), [10.5])


def test_class_mean_separation_is_the_seeds_top_k(subscribers):
    # seed 002: top_k(source, k) = the k noise columns with the largest |mean1 - mean0|
    b = load_subscribers(include_noise=True)
    noise = b.data[[f"noise_{j}" for j in range(1200)]].to_numpy()
    y = b.target.to_numpy()
    tr = np.flatnonzero(b.split.to_numpy() == "train")
    by_hand = np.abs(noise[tr][y[tr] == 1].mean(0) - noise[tr][y[tr] == 0].mean(0))
    np.testing.assert_allclose(class_mean_separation(noise[tr], y[tr]), by_hand)
    sel = UnivariateFilter(class_mean_separation, n_features_to_select=8).fit(noise[tr], y[tr])
    assert set(np.flatnonzero(sel.support_)) == set(np.argsort(-by_hand)[:8])


def test_class_mean_separation_refuses_continuous_target():
    with pytest.raises(ValueError, match="class labels"):
        class_mean_separation(np.ones((5, 2)), np.linspace(0.1, 0.9, 5))


# ------------------------------------------------------ random selector
def test_random_selector_ignores_y_but_depends_on_rows():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 40))
    y = rng.integers(0, 2, 60)
    a = RandomSelector(5, random_state=3).fit(X, y)
    b = RandomSelector(5, random_state=3).fit(X, 1 - y)  # other labels: same columns
    np.testing.assert_array_equal(a.support_, b.support_)
    assert a.support_.sum() == 5
    c = RandomSelector(5, random_state=3).fit(X[:50], y[:50])  # other rows: another draw
    assert not np.array_equal(a.support_, c.support_)


@parametrize_with_checks([RandomSelector(2, random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ------------------------------------------------------------ ordering
class _Fitted:
    def __init__(self, ranking=None, scores=None, support=None):
        if ranking is not None:
            self.ranking_ = np.asarray(ranking)
        if scores is not None:
            self.scores_ = np.asarray(scores, float)
        self.support_ = np.asarray(support, bool)

    def get_support(self):
        return self.support_


def test_column_order_rules():
    # a forward path that stopped after 2 columns: the rest share the last rank and are left out
    fwd = _Fitted(ranking=[3, 2, 3, 1, 3], support=[0, 1, 0, 1, 0])
    assert _column_order(fwd, 5).tolist() == [3, 1]
    # a full ranking: every column, best first
    full = _Fitted(ranking=[2, 5, 1, 4, 3], support=[1, 0, 1, 0, 0])
    assert _column_order(full, 5).tolist() == [2, 0, 4, 3, 1]
    # scores only: higher first, ties by the lower index
    sc = _Fitted(scores=[0.1, 0.5, 0.5, 0.0], support=[0, 1, 1, 0])
    assert _column_order(sc, 4).tolist() == [1, 2, 0, 3]
    # neither: the selector's own support
    own = _Fitted(support=[0, 1, 0, 1])
    assert _column_order(own, 4).tolist() == [1, 3]


# --------------------------------------------------- the noise-pool test
def test_noise_pool_acceptance_random_vs_separation(subscribers):
    """Issue 7 acceptance: over 20 seeds the inflation of a selector that ignores y is
    within two standard errors of zero; top-k by class-mean separation inflates."""
    _, y, sp = subscribers
    tr, te = np.flatnonzero(sp == "train"), np.flatnonzero(sp == "test")
    split = (tr, te, np.arange(len(y)))  # the seed's arrangement: whole set = every row
    rand = noise_pool_test(RandomSelector(8, random_state=0), tree(), y, split=split,
                           n_repeats=20, random_state=0)
    sep = noise_pool_test(UnivariateFilter(class_mean_separation, n_features_to_select=8),
                          tree(), y, split=split, n_repeats=20, random_state=0)
    r, s = rand.overall(), sep.overall()
    assert r["n_repeats"] == s["n_repeats"] == 20
    assert r["inflation_sd"] > 0  # the two sources really chose different columns
    assert abs(r["inflation"]) < 2 * r["inflation_se"]
    assert s["inflation"] > 0
    assert s["inflation"] / s["inflation_se"] > r["inflation"] / r["inflation_se"]
    # the seed's baseline: majority class of TRAIN scored on TEST (published 0.7579)
    assert s["baseline"] == pytest.approx(191 / 252)
    summ = sep.summary()
    assert summ["k"].tolist() == [2, 4, 8] and summ["kept"].tolist() == [2, 4, 8]
    assert (summ["n_repeats"] == 20).all()
    # a selector with its own support only keeps 3 columns whatever k: kept says so
    from sklearn.base import BaseEstimator

    class ThreeColumns(BaseEstimator):
        def fit(self, X, y):
            self.support_ = np.arange(X.shape[1]) < 3
            return self

        def get_support(self):
            return self.support_

    own = noise_pool_test(ThreeColumns(), tree(), y, split=split, n_repeats=2,
                          random_state=0).summary()
    assert own["kept"].tolist() == [2, 3, 3]
    assert own.loc[1, "inflation"] == own.loc[2, "inflation"]


def test_noise_pool_by_hand_one_repeat(subscribers):
    # with the lesson's own noise columns and split, one repeat is the seed's table
    b = load_subscribers(include_noise=True)
    noise = b.data[[f"noise_{j}" for j in range(1200)]].to_numpy()
    y, sp = b.target.to_numpy(), b.split.to_numpy()
    tr, te = np.flatnonzero(sp == "train"), np.flatnonzero(sp == "test")
    res = noise_pool_test(UnivariateFilter(class_mean_separation, n_features_to_select=8),
                          tree(), y, split=(tr, te, np.arange(len(y))), noise=noise,
                          n_repeats=1, k_values=(4,))
    sep_whole = class_mean_separation(noise, y)
    cols = np.argsort(-sep_whole, kind="stable")[:4]
    want = tree().fit(noise[tr][:, cols], y[tr]).score(noise[te][:, cols], y[te])
    got = res.runs.query("source == 'whole'")["test_score"].item()
    assert got == pytest.approx(want)


def test_noise_pool_n_jobs_and_seed_determinism():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    kw = dict(noise_features=80, n_repeats=4, k_values=(2, 4))
    sel = UnivariateFilter(class_mean_separation, n_features_to_select=4)
    a = noise_pool_test(sel, tree(3), y, random_state=7, n_jobs=1, **kw).runs
    b = noise_pool_test(sel, tree(3), y, random_state=7, n_jobs=2, **kw).runs
    c = noise_pool_test(sel, tree(3), y, random_state=8, n_jobs=1, **kw).runs
    pd.testing.assert_frame_equal(a, b)
    assert not a["test_score"].equals(c["test_score"])


def test_noise_pool_regression_baseline_and_sign():
    rng = np.random.default_rng(1)
    y = rng.normal(size=100)
    tr, te = np.arange(70), np.arange(70, 100)
    from sklearn.tree import DecisionTreeRegressor

    res = noise_pool_test(UnivariateFilter("cc", n_features_to_select=2),
                          DecisionTreeRegressor(max_depth=2, random_state=0), y,
                          split=(tr, te), noise_features=30, n_repeats=2, k_values=(1, 2))
    assert res.metric == "mse"
    assert res.runs["baseline"].iloc[0] == pytest.approx(np.mean((y[te] - y[tr].mean()) ** 2))
    inf = res.inflation_runs()
    # MSE is lower-is-better: inflation = train-only MSE minus whole-set MSE
    np.testing.assert_allclose(inf["inflation"], inf["test_train_only"] - inf["test_whole_set"])


def test_noise_pool_bad_k():
    with pytest.raises(ValueError, match="k_values"):
        noise_pool_test(RandomSelector(2), tree(), [0, 1] * 20, noise_features=5, k_values=(8,))


# ------------------------------------------------ own number vs held-out
def test_forward_own_number_equals_a_hand_fit(subscribers):
    X, y, sp = subscribers
    tr, va, te = (np.flatnonzero(sp == s) for s in ("train", "val", "test"))
    res = selection_inflation(ForwardSelector(tree(), max_rounds=8), tree(), X, y,
                              split=(tr, va, te), noise_features=0, nested=False)
    fwd = ForwardSelector(tree(), max_rounds=8).fit(X.iloc[tr], y[tr], X_val=X.iloc[va],
                                                    y_val=y[va])
    cols = list(fwd.get_feature_names_out())
    assert res.own["used_val"] and res.own["own_source"] == "selection_score_"
    assert res.own["selected"] == cols
    assert res.own["selection_score"] == pytest.approx(fwd.selection_score_)
    test = tree().fit(X.iloc[tr][cols], y[tr]).score(X.iloc[te][cols], y[te])
    assert res.own["test_score"] == pytest.approx(test)
    assert res.own["gap"] == pytest.approx(fwd.selection_score_ - test)
    # seed 002's lesson: the wrapper's validation number exceeds its test number
    assert res.own["gap"] > 0.05
    assert res.own["baseline"] == pytest.approx(191 / 252)


def test_own_number_inflated_on_pure_noise():
    # no column carries signal: the wrapper's own number must sit far above the test number
    rng = np.random.default_rng(2)
    X = rng.random((240, 60))
    y = rng.integers(0, 2, 240)
    res = selection_inflation(ForwardSelector(tree(3), max_rounds=4), tree(3), X, y,
                              noise_features=0, nested=False, random_state=0)
    assert res.own["selection_score"] > 0.6
    assert res.own["gap"] > 0.1
    assert "above what it delivers on unseen rows" in res.verdict()


def test_filter_own_number_is_inner_cv_and_perfect_signal():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 10))
    y = (X[:, 6] > 0).astype(int)
    res = selection_inflation(UnivariateFilter("cc", n_features_to_select=1), tree(2), X, y,
                              noise_features=0, nested=False)
    assert res.own["own_source"] == "inner_cv" and res.own["selected"] == ["x6"]
    assert res.own["selection_score"] > 0.97 and res.own["test_score"] > 0.97
    assert abs(res.own["gap"]) < 0.03


# ------------------------------------------------------------ nested CV
def test_nested_cv_equals_sklearn_pipeline_cv():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(150, 12))
    y = (X[:, 0] + X[:, 3] > 0).astype(int)
    sel = UnivariateFilter("cc", n_features_to_select=3)
    got = nested_cv_score(sel, tree(3), X, y, cv=5, random_state=11)
    cv_seed = np.random.RandomState(11).randint(0, 2**31 - 1, size=3)[0]
    want = cross_val_score(Pipeline([("s", sel), ("m", tree(3))]), X, y,
                           cv=StratifiedKFold(5, shuffle=True, random_state=cv_seed))
    np.testing.assert_allclose(got["scores"], want)
    assert got["mean"] == pytest.approx(want.mean())


def test_naive_cv_beats_nested_on_pure_noise():
    # selecting on every row and then cross-validating is the classic selection bias
    rng = np.random.default_rng(5)
    X = rng.random((80, 300))
    y = np.array([0, 1] * 40)
    res = selection_inflation(UnivariateFilter(class_mean_separation, n_features_to_select=5),
                              "logistic", X, y, noise_features=0, random_state=0)
    assert res.naive["mean"] > 0.7
    assert res.nested["mean"] < 0.65
    est = res.estimates()
    assert est["honest"].tolist() == [False, True, True, False, True]


def test_selection_inflation_deterministic_and_json(sonar):
    X, y = sonar
    kw = dict(noise_features=40, n_repeats=2, cv=3, random_state=3)
    a = selection_inflation(UnivariateFilter("cc", n_features_to_select=5), "tree", X, y, **kw)
    b = selection_inflation(UnivariateFilter("cc", n_features_to_select=5), "tree", X, y,
                            n_jobs=2, **kw)
    da, db = a.to_dict(), b.to_dict()
    assert json.dumps(da, default=str) == json.dumps(db, default=str)
    assert da["noise_pool"]["n_noise"] == 40 and da["split"] == {"train": 124, "val": 42,
                                                                  "test": 42}


def test_pool_shrinks_under_the_fit_budget(sonar):
    X, y = sonar
    res = selection_inflation(ForwardSelector(tree(3), max_rounds=2), tree(3), X, y,
                              max_noise_fits=400, n_repeats=2, nested=False)
    # about 2 fits per column -> 400 / (2 * 2 * ~2) ~ 50 columns, never below 4 * max(k) = 32
    assert 32 <= res.noise.n_noise < 1200
    assert "reduced from 1200" in res.noise_note


def test_audit_config_is_the_one_set_of_options(sonar):
    from featsieve.evaluation import FRONT_END_AUDIT, AuditConfig

    X, y = sonar
    cfg = AuditConfig(noise_features=40, n_repeats=2, cv=3)
    a = selection_inflation(UnivariateFilter("cc", n_features_to_select=5), "tree", X, y,
                            config=cfg, random_state=3)
    b = selection_inflation(UnivariateFilter("cc", n_features_to_select=5), "tree", X, y,
                            noise_features=40, n_repeats=2, cv=3, random_state=3)
    assert json.dumps(a.to_dict(), default=str) == json.dumps(b.to_dict(), default=str)
    with pytest.raises(TypeError, match="Unknown audit options \\['repeats'\\]"):
        selection_inflation(UnivariateFilter("cc"), "tree", X, y, repeats=2)
    # the cap: 2 fits per column, 400 fits, 2 repeats -> 400 / (2 * 2 * 2) = 50 columns
    assert AuditConfig(max_noise_fits=400, n_repeats=2).noise_pool(120, 60)[0] == 50
    assert AuditConfig(max_noise_fits=40, n_repeats=2).noise_pool(120, 60)[0] == 32  # 4 * max k
    assert AuditConfig(max_noise_fits=None).noise_pool(120, 60) == (1200, "")
    assert FRONT_END_AUDIT.noise_pool(None, 60) == (1200, "")  # no fits counted: no cap
    assert FRONT_END_AUDIT.with_options(k_values=[2, 3]).k_values == (2, 3)


def test_one_refit_and_score_for_compare_and_the_audit(sonar):
    from featsieve.evaluation import evaluate_support
    from featsieve.evaluation._refit import refit_scores

    X, y = sonar
    Xa, ya = X.to_numpy(), pd.factorize(y)[0]
    tr, te = np.arange(0, 150), np.arange(150, len(ya))
    mask = np.zeros(Xa.shape[1], bool)
    mask[[3, 10, 44]] = True
    want = float(np.mean(tree(3).fit(Xa[tr][:, mask], ya[tr]).predict(Xa[te][:, mask])
                         == ya[te]))
    assert evaluate_support(tree(3), "classification", Xa[tr], ya[tr], Xa[te], ya[te],
                            mask) == want
    assert refit_scores(tree(3), "classification", Xa[tr], ya[tr], [(Xa[te], ya[te])],
                        [3, 10, 44]) == [want]
    # nothing selected: the majority class of the fitting rows
    majority = np.bincount(ya[tr]).argmax()
    assert refit_scores(tree(3), "classification", Xa[tr], ya[tr], [(Xa[te], ya[te])],
                        []) == [float(np.mean(ya[te] == majority))]


def test_input_not_modified(sonar):
    X, y = sonar
    X0, y0 = X.copy(), y.copy()
    selection_inflation(UnivariateFilter("cc", n_features_to_select=3), "tree", X, y,
                        noise_features=20, n_repeats=1, cv=3)
    pd.testing.assert_frame_equal(X, X0)
    pd.testing.assert_series_equal(y, y0)


# ------------------------------------------------------------------ CLI
def test_cli_audit_prints_verdict(capsys):
    rc = main(["audit", "sonar", "--method", "cc", "--model", "tree", "--noise-features", "60",
               "--repeats", "2", "-q"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "== Noise pool: 60 noise columns" in out
    assert "own number" in out and "nested 5-fold CV" in out


def test_cli_audit_says_its_steps_outside_a_terminal(capsys):
    rc = main(["audit", "sonar", "--method", "cc", "--model", "tree", "--noise-features", "60",
               "--repeats", "2"])
    err = capsys.readouterr().err  # not a terminal: one line per finished step
    steps = [ln.split(" done in ")[0] for ln in err.splitlines() if " done in " in ln]
    assert rc == 0 and steps == [
        "featsieve: audit 1/4: own selection and its test score",
        "featsieve: audit 2/4: noise pool (60 columns, 2 repeats)",
        "featsieve: audit 3/4: nested 5-fold CV",
        "featsieve: audit 4/4: selection on all rows, then 5-fold CV"]


def test_cli_audit_refuses_all(capsys):
    assert main(["audit", "sonar", "--method", "all", "-q"]) == 2
    assert "nothing" in capsys.readouterr().err


def _odd_table(tmp_path, n_missing):
    """A small CSV: signal, noise, a constant column and ``n_missing`` missing targets."""
    rng = np.random.default_rng(0)
    n = 120
    signal = rng.normal(size=n)
    df = pd.DataFrame({"signal": signal, "noise": rng.normal(size=n), "const": "NYC",
                       "other": rng.normal(size=n),
                       "label": np.where(signal > 0, "yes", "no").astype(object)})
    df.loc[: n_missing - 1, "label"] = None
    path = tmp_path / "odd.csv"
    df.to_csv(path, index=False)
    return str(path)


def test_cli_audit_leaves_out_missing_target_rows_like_select(tmp_path, capsys):
    path = _odd_table(tmp_path, 4)
    rc = main(["audit", path, "--target", "label", "--method", "cc", "--model", "tree",
               "--noise-features", "0"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    warning = "The target 'label' is missing on 4 of 120 rows; those rows are left out."
    assert warning in err
    assert out.startswith("odd.csv: 116 rows x 3 columns")  # the constant one not counted
    assert main(["select", path, "--target", "label", "--method", "cc", "-q"]) == 0
    main(["select", path, "--target", "label", "--method", "cc"])
    assert warning in capsys.readouterr().err  # the same words as select's


def test_cli_audit_warnings_name_real_columns_once(tmp_path, capsys):
    path = _odd_table(tmp_path, 0)
    rc = main(["audit", path, "--target", "label", "--method", "cc", "--model", "tree",
               "--noise-features", "10", "--repeats", "1"])
    err = capsys.readouterr().err
    assert rc == 0, err
    constant = [line for line in err.splitlines() if "Constant feature" in line]
    assert constant == ["featsieve: warning: Constant feature columns carry no information "
                        "and will never be selected: 'const'."]
    assert "'x2'" not in err


def test_compare_audit_columns(sonar):
    X, y = sonar
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = compare(X, y, methods=["cc"], estimator="tree",
                    audit={"noise_features": 50, "n_repeats": 2, "cv": 3})
    df = r.to_frame()
    assert {"noise_inflation", "noise_se", "nested_cv", "nested_cv_sd"} <= set(df.columns)
    all_row, cc_row = df.iloc[0], df.iloc[2]
    assert df.iloc[1]["method"] == "baseline" and np.isnan(df.iloc[1]["nested_cv"])
    assert np.isnan(all_row["noise_inflation"]) and 0.5 < all_row["nested_cv"] <= 1
    assert cc_row["noise_pool"] == 50 and np.isfinite(cc_row["noise_inflation"])


def test_compare_audit_interrupted_keeps_the_comparison(sonar, monkeypatch):
    from featsieve.evaluation import _inflation

    X, y = sonar
    real, calls = _inflation._audit_columns, []

    def audit_then_ctrl_c(method, *args, **kwargs):
        calls.append(method)
        if len(calls) == 2:  # Ctrl-C while the second method's audit runs
            raise KeyboardInterrupt
        return real(method, *args, **kwargs)

    monkeypatch.setattr(_inflation, "_audit_columns", audit_then_ctrl_c)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = compare(X, y, methods=["cc"], estimator="tree", n_repeats=2,
                    audit={"noise_features": 20, "n_repeats": 1, "cv": 3})
    assert r.interrupted and not r.to_dict()["complete"]
    df = r.to_frame().set_index("method")
    assert list(df.index) == ["all", "baseline", "cc"] and df["test_mean"].notna().all()
    assert 0.5 < df.loc["all", "nested_cv"] <= 1 and np.isnan(df.loc["cc", "nested_cv"])
    assert ("interrupted during the audit: the comparison's columns are complete; the audit "
            "columns are missing for cc") in r.notes


# ------------------------------------------------- seed 002 reproduced
def test_seed_tree_by_hand():
    from featsieve.reproduce.lesson import SeedTree

    x = np.arange(1, 11, dtype=float)[:, None]
    y = np.array([0, 0, 0, 1, 0, 1, 1, 1, 1, 1])
    t = SeedTree(max_depth=1).fit(x, y)
    # best split x < 6 (gain 0.32, see test_classic): left 0 0 0 1 0 -> 0, right all 1 -> 1
    assert t.tree_["feature"] == 0 and t.tree_["threshold"] == 6.0
    assert t.predict(x).tolist() == [0] * 5 + [1] * 5
    # a second column with the same best gain comes later: the first column keeps the split
    t2 = SeedTree(max_depth=1).fit(np.hstack([x, x]), y)
    assert t2.tree_["feature"] == 0 and t2.feature_importances_.tolist() == [1.0, 0.0]
    # 20 distinct values: only decile thresholds, so the perfect cut x < 3 is not available
    x20 = np.arange(20, dtype=float)[:, None]
    y20 = (np.arange(20) >= 3).astype(int)
    # x < 2: gain 0.255 - 0.9 * 2(17/18)(1/18) = 0.1606; x < 4: 0.255 - 0.2 * 0.375 = 0.18
    t20 = SeedTree(max_depth=1).fit(x20, y20)
    assert t20.tree_["threshold"] == 4.0
    assert t20.score(x20, y20) == pytest.approx(19 / 20)


def test_lesson_published_numbers_with_the_seed_tree():
    """Our selectors + the re-implemented lesson tree give the lesson's printed tables."""
    from featsieve.reproduce.lesson import PUBLISHED, SeedTree, _methods_table, _noise_table

    b = load_subscribers(include_noise=True)
    X = b.data[[c for c in b.data.columns if not c.startswith("noise_")]]
    noise = b.data[[f"noise_{j}" for j in range(1200)]].to_numpy()
    y, sp = b.target.to_numpy(), b.split.to_numpy()
    tr, va, te = (np.flatnonzero(sp == s) for s in ("train", "val", "test"))
    rows, wrapper, importance = _methods_table(X, y, tr, va, te, "seed", 0)
    for r in rows:
        cols, train, held, contrib = PUBLISHED["methods"][r["method"]]
        assert r["columns"] == cols
        assert round(r["train"], 4) == train and round(r["held_out"], 4) == held
        if contrib is not None:
            assert round(r["contrib"], 4) == contrib
    assert round(wrapper["validation"], 4) == 0.8413 and round(wrapper["test"], 4) == 0.7579
    assert [(n, round(v, 3)) for n, v in importance] == PUBLISHED["importance"]
    nrows, base = _noise_table(noise, y, tr, te, SeedTree(), "seed")
    assert round(base, 4) == 0.7579
    for r in nrows:
        assert (round(r["train"], 4), round(r["held_out"], 4)) == \
            PUBLISHED["noise"][(r["selected"], r["source"])]
        if r["inflation"] is not None:
            assert round(r["inflation"], 4) == PUBLISHED["inflation"][r["selected"]]


@pytest.mark.parametrize("task,metric,own,test,sentence", [
    # mse is lower-is-better: an own number under the test number is the optimistic one
    ("regression", "mse", 6.633e8, 7.676e8, "is 1e+08 below what it delivers on unseen rows "
     "(6.633e+08 vs 7.676e+08 mse, lower is better): optimistic."),
    ("regression", "mse", 7.676e8, 6.633e8, "is 1e+08 above what it delivers on unseen rows "
     "(7.676e+08 vs 6.633e+08 mse, lower is better): pessimistic."),
    ("classification", "accuracy", 0.9, 0.8, "is 0.1 above what it delivers on unseen rows "
     "(0.9 vs 0.8 accuracy, higher is better): optimistic."),
    ("classification", "accuracy", 0.8, 0.9, "is 0.1 below what it delivers on unseen rows "
     "(0.8 vs 0.9 accuracy, higher is better): pessimistic."),
    # "matches" is relative to the scores' size: 3,000 on an mse of 7.7e8 is no difference,
    # 0.003 on an accuracy is one
    ("regression", "mse", 7.676e8 + 3000, 7.676e8, "(7.676e+08) matches what it delivers on "
     "unseen rows (7.676e+08 mse)."),
    ("classification", "accuracy", 0.803, 0.8, "is 0.003 above what it delivers on unseen rows "
     "(0.803 vs 0.8 accuracy, higher is better): optimistic."),
])
def test_verdict_direction_follows_the_metric(task, metric, own, test, sentence):
    from featsieve.evaluation._inflation import InflationResult, _better_by

    res = InflationResult("forward", task, metric, 100, 5, {}, {
        "selection_score": own, "test_score": test, "gap": _better_by(task, own, test)})
    assert res.verdict() == "Forward's own number " + sentence
