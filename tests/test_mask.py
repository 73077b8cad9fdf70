import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression, RidgeClassifier
from sklearn.metrics import get_scorer
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

import featsieve
from featsieve.datasets import make_gbmo_synthetic
from featsieve.mask import FLBMO, GBMO, MU_GRID, gbmo_stop_iteration


# --------------------------------------------------------------- fixtures
def _linear_problem(seed=0, n=120):
    """8 columns; y uses 0, 2, 5, 6; the fitted model's coefficients of 1, 3, 4, 7
    are set to exactly 0, so masking them ties and the lowest index must win."""
    rng = np.random.default_rng(seed)
    X = rng.normal(1.0, 1.0, size=(n, 8))
    y = 3 * X[:, 0] - 2 * X[:, 2] + 0.5 * X[:, 5] + 1.5 * X[:, 6] + rng.normal(0, 0.3, n)
    model = LinearRegression().fit(X, y)
    model.coef_[[1, 3, 4, 7]] = 0.0
    return model, X, y


def _brute_force_path(model, X, y, fill):
    """Every candidate of every step predicted on its own (eq. 11-14 written out)."""
    remaining, m = list(range(X.shape[1])), np.ones(X.shape[1])
    path = []
    while len(remaining) > 1:
        losses = []
        for j in remaining:
            mj = m.copy()
            mj[j] = 0
            Xm = X * mj + fill * (1 - mj)  # Hadamard product; masked columns take `fill`
            losses.append(np.mean((model.predict(Xm) - y) ** 2))
        best = min(range(len(remaining)), key=lambda k: (losses[k], remaining[k]))
        path.append((remaining[best], losses[best]))
        m[remaining[best]] = 0
        remaining.pop(best)
    return path


class CountingRegressor(RegressorMixin, BaseEstimator):
    """LinearRegression that counts fit and predict calls (class-level counters)."""

    fits = 0
    predicts = 0

    def fit(self, X, y):
        type(self).fits += 1
        self.lr_ = LinearRegression().fit(X, y)
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        type(self).predicts += 1
        return self.lr_.predict(X)


@pytest.fixture
def counting():
    CountingRegressor.fits = CountingRegressor.predicts = 0
    return CountingRegressor


# ------------------------------------------------- algorithm vs brute force
@pytest.mark.parametrize("mask_value", ["zero", "mean", "vector"])
def test_elimination_order_matches_brute_force_on_8_features(mask_value):
    model, X, y = _linear_problem()
    fill = {"zero": np.zeros(8), "mean": X.mean(axis=0),
            "vector": np.arange(8, dtype=float)}[mask_value]
    mv = fill if mask_value == "vector" else mask_value
    want = _brute_force_path(model, X, y, fill)
    sel = FLBMO(model, n_features_to_select=1, prefit=True, mask_value=mv).fit(X, y)
    got = list(zip(sel.path_["index"], sel.path_["loss"], strict=True))
    assert [j for j, _ in got] == [j for j, _ in want]
    np.testing.assert_allclose([v for _, v in got], [v for _, v in want], rtol=1e-12)
    # the four zero-coefficient columns tie and go first, lowest index first
    assert list(sel.path_["index"][:4]) == [1, 3, 4, 7]
    np.testing.assert_allclose(sel.mask_values_, fill)


def test_gbmo_stop_rule_with_loss0_infinite():
    model, X, y = _linear_problem()
    fill = np.zeros(8)
    want = _brute_force_path(model, X, y, fill)
    losses = [v for _, v in want]
    for mu in (0.0, 0.001, 0.05, 1.0):
        # Algorithm 2: stop at the first t with Loss_t > Loss_{t-1} (1 + mu), Loss_0 = inf
        t_stop = next((t for t in range(1, len(losses)) if losses[t] > losses[t - 1] * (1 + mu)),
                      None)
        n_removed = len(losses) if t_stop is None else t_stop
        sel = GBMO(model, slack=mu, prefit=True).fit(X, y)
        assert sel.n_features_selected_ == 8 - n_removed
        expected_removed = {j for j, _ in want[:n_removed]}
        assert set(np.flatnonzero(~sel.support_)) == expected_removed
        h = sel.history_
        assert all(r["accepted"] for r in h[:n_removed])
        if t_stop is not None:
            assert h[-1]["accepted"] is False and len(h) == n_removed + 1
            assert h[-1]["n_remaining"] == 8 - n_removed
    # the ties (equal losses) are accepted even with mu = 0: at least 4 columns go
    assert GBMO(model, slack=0.0, prefit=True).fit(X, y).n_features_selected_ <= 4


def test_first_elimination_always_accepted():
    # every masking hurts a lot, yet Loss_0 = inf means one column is always removed
    rng = np.random.default_rng(1)
    X = rng.normal(5, 1, size=(80, 3))
    y = X @ np.array([1.0, 2.0, 3.0])
    sel = GBMO(LinearRegression().fit(X, y), slack=0.0, prefit=True).fit(X, y)
    assert [r["accepted"] for r in sel.history_] == [True, False]
    assert sel.n_features_selected_ == 2
    assert sel.history_[0]["feature"] == "x0"  # the smallest coefficient
    assert sel.selection_loss_ == pytest.approx(sel.history_[0]["loss"])
    assert sel.base_loss_ == pytest.approx(0.0, abs=1e-12)


def test_gbmo_stop_iteration_helper():
    assert gbmo_stop_iteration([5.0, 4.0, 4.0, 4.5, 3.0], 0.1) == 4
    assert gbmo_stop_iteration([5.0, 4.0, 4.0, 4.5, 3.0], 0.2) is None
    assert gbmo_stop_iteration([1e9], 0.0) is None  # Loss_0 = inf
    # a negative loss (minus a score): the slack tolerates a relative worsening
    assert gbmo_stop_iteration([-0.9, -0.89], 0.05) is None
    assert gbmo_stop_iteration([-0.9, -0.80], 0.05) == 2


def test_stop_rules_read_a_path():
    from featsieve.mask import SizeStop, SlackStop

    losses = [5.0, 4.0, 4.0, 4.5, 3.0]
    assert SlackStop(0.1).n_removed(losses, 8) == 3  # iteration 4 is rejected
    assert SlackStop(0.1).n_recorded(3, len(losses)) == 4  # ... and recorded
    assert SlackStop(np.inf).n_removed(losses[:3], 4) == 3  # down to one feature
    with pytest.raises(ValueError, match="refit with slack >= 0.2"):
        SlackStop(0.2).n_removed(losses, 8)  # the path ends before the rule fires
    assert SizeStop(6).n_removed(losses, 8) == 2 and SizeStop(6).n_recorded(2, 5) == 2
    assert SizeStop(3).target_size(8) == 3 and SlackStop(0.0).target_size(8) == 1
    with pytest.raises(ValueError, match="reached 3 features"):
        SizeStop(2).n_removed(losses, 8)
    assert SlackStop(0.0).accepts(1.0, 1.0) and not SlackStop(0.0).accepts(1.1, 1.0)


def test_history_and_counts_are_views_of_the_one_path():
    X, y, _ = make_gbmo_synthetic(200, 12, 3, distribution="normal", random_state=2)
    sel = GBMO(LinearRegression(), slack=0.001, random_state=0).fit(X, y)
    stored = vars(sel)
    assert "history_" not in stored and "n_candidates_evaluated_" not in stored
    p = sel.path_
    assert [r["accepted"] for r in sel.history_] == p["accepted"].tolist()
    assert p["accepted"].sum() == 12 - sel.n_features_selected_
    assert sel.n_candidates_evaluated_ == sum(range(12 - len(p["loss"]) + 1, 13))
    with pytest.raises(NotFittedError):
        GBMO(LinearRegression()).history_  # noqa: B018


# ------------------------------------------------ one path serves every mu / eta
def test_one_path_serves_every_mu_and_eta():
    X, y, _ = make_gbmo_synthetic(200, 16, 4, distribution="normal", random_state=3)
    est = DecisionTreeRegressor(max_depth=4, random_state=0)
    big = GBMO(est, slack=max(MU_GRID), random_state=0).fit(X, y)
    for mu in MU_GRID:
        own = GBMO(est, slack=mu, random_state=0).fit(X, y)
        np.testing.assert_array_equal(big.support_at(slack=mu), own.support_)
    full = FLBMO(est, n_features_to_select=1, random_state=0).fit(X, y)
    for eta in (2, 3, 4, 8):
        own = FLBMO(est, n_features_to_select=eta, random_state=0).fit(X, y)
        np.testing.assert_array_equal(full.support_at(n_features=eta), own.support_)
        assert own.n_features_selected_ == eta
    # FLBMO's path is GBMO's path: same order, same losses
    k = len(big.path_["index"])
    np.testing.assert_array_equal(full.path_["index"][:k], big.path_["index"])
    with pytest.raises(ValueError, match="refit with slack"):
        GBMO(est, slack=0.0, random_state=0).fit(X, y).support_at(slack=10.0)


def test_registry_candidates_tune_mu_and_eta_from_one_fit():
    from featsieve._registry import get_method, tuning_candidates

    X, y, _ = make_gbmo_synthetic(200, 12, 3, distribution="normal", random_state=0)
    spec = get_method("gbmo")
    assert spec.uses_selection_val and spec.takes_model and spec.in_default
    sel = featsieve.make_selector("gbmo", task="regression", estimator=LinearRegression(),
                                  random_state=0).set_params(**spec.path_params)
    sel.fit(X, y)
    cands = tuning_candidates(spec, sel, 12)
    import re

    values = [float(v) for label in cands for v in re.findall(r"[0-9.]+(?:e-?[0-9]+)?", label)]
    assert sorted(values) == sorted(MU_GRID)  # every value once ("mu=a (same as b,c)")
    for label, mask in cands.items():
        mu = float(re.match(r"mu=([0-9.e-]+)", label).group(1))
        np.testing.assert_array_equal(mask, sel.support_at(slack=mu))
    fspec = get_method("flbmo")
    fsel = featsieve.make_selector("flbmo", task="regression", estimator=LinearRegression(),
                                   random_state=0).set_params(**fspec.path_params).fit(X, y)
    sizes = sorted(int(m.sum()) for m in tuning_candidates(fspec, fsel, 12).values())
    # k_grid(12), a narrow table: log-spaced 1..12 (1, 2, 3, 5, 8, 12) plus {12/6, 12/5,
    # 12/4, 12/2} (2, 2, 3, 6) plus M - 1 and M (11, 12)
    assert sizes == [1, 2, 3, 5, 6, 8, 11, 12]


# ------------------------------------------------------------- counting work
def test_fit_counted_exactly_once_and_predict_calls_batched(counting):
    X, y, _ = make_gbmo_synthetic(150, 10, 3, distribution="normal", random_state=0)
    sel = FLBMO(counting(), n_features_to_select=1, random_state=0).fit(X, y)
    assert counting.fits == 1 == sel.n_model_fits_
    # one call for the unmasked loss, then one batched call per iteration
    assert counting.predicts == sel.n_predict_calls_ == 1 + 9
    assert sel.n_candidates_evaluated_ == sum(range(2, 11))  # naive: one call per copy
    counting.fits = counting.predicts = 0
    sel = FLBMO(counting(), n_features_to_select=1, batch_size=3, random_state=0).fit(X, y)
    chunks = sum(-(-r // 3) for r in range(2, 11))
    assert counting.predicts == sel.n_predict_calls_ == 1 + chunks


def test_prefit_fits_nothing(counting):
    X, y, _ = make_gbmo_synthetic(150, 10, 3, distribution="normal", random_state=0)
    model = counting().fit(X, y)
    counting.fits = 0
    sel = GBMO(model, prefit=True).fit(X, y)
    assert counting.fits == 0 == sel.n_model_fits_
    assert sel.estimator_ is model
    with pytest.raises(NotFittedError):
        GBMO(LinearRegression(), prefit=True).fit(X, y)
    with pytest.raises(ValueError, match="X_val"):
        GBMO(model, prefit=True).fit(X, y, X_val=X, y_val=y)


def test_explicit_validation_data_is_used():
    X, y, _ = make_gbmo_synthetic(200, 8, 3, distribution="normal", random_state=2)
    sel = GBMO(LinearRegression(), slack=0.05).fit(X[:100], y[:100], X_val=X[100:],
                                                    y_val=y[100:])
    model = LinearRegression().fit(X[:100], y[:100])
    np.testing.assert_allclose(sel.estimator_.coef_, model.coef_)
    assert sel.base_loss_ == pytest.approx(np.mean((model.predict(X[100:]) - y[100:]) ** 2))


def test_n_jobs_and_batch_size_do_not_change_the_result():
    X, y, _ = make_gbmo_synthetic(150, 12, 3, distribution="normal", random_state=4)
    est = DecisionTreeRegressor(max_depth=5, random_state=0)
    a = FLBMO(est, n_features_to_select=2, batch_size=2, n_jobs=1, random_state=0).fit(X, y)
    b = FLBMO(est, n_features_to_select=2, batch_size=2, n_jobs=2, random_state=0).fit(X, y)
    c = FLBMO(est, n_features_to_select=2, random_state=0).fit(X, y)
    for other in (b, c):
        np.testing.assert_array_equal(a.path_["index"], other.path_["index"])
        np.testing.assert_array_equal(a.path_["loss"], other.path_["loss"])
    d = FLBMO(est, n_features_to_select=2, random_state=1).fit(X, y)
    assert not np.array_equal(a.path_["loss"], d.path_["loss"])  # another split


def test_skipping_unused_columns_is_exact():
    lgb = pytest.importorskip("lightgbm")
    from sklearn.ensemble import RandomForestRegressor

    from featsieve.mask import unused_columns

    X, y, _ = make_gbmo_synthetic(200, 30, 4, distribution="normal", random_state=6)
    for est in (lgb.LGBMRegressor(n_estimators=15, num_leaves=4, random_state=0, verbose=-1,
                                  n_jobs=1),
                RandomForestRegressor(n_estimators=5, max_depth=3, random_state=0)):
        on = FLBMO(est, n_features_to_select=1, random_state=0).fit(X, y)
        off = FLBMO(est, n_features_to_select=1, skip_unused=False, random_state=0).fit(X, y)
        np.testing.assert_array_equal(on.path_["index"], off.path_["index"])
        np.testing.assert_array_equal(on.path_["loss"], off.path_["loss"])
        unused = unused_columns(on.estimator_, 30)
        assert 0 < unused.sum() < 30
        assert off.n_copies_predicted_ == off.n_candidates_evaluated_ == sum(range(2, 31))
        assert on.n_copies_predicted_ < off.n_copies_predicted_
    tree = DecisionTreeRegressor(max_depth=1).fit(X, y)
    assert unused_columns(tree, 30).sum() == 29
    model, _, _ = _linear_problem()
    np.testing.assert_array_equal(np.flatnonzero(unused_columns(model, 8)), [1, 3, 4, 7])
    assert unused_columns(CountingRegressor().fit(X, y), 30) is None


# ---------------------------------------------------------- classification
def test_log_loss_matches_sklearn_and_prefit_keeps_labels():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 6)), columns=list("abcdef"))
    y = np.where(X["b"] - X["e"] + 0.3 * rng.normal(size=200) > 0, "yes", "no")
    model = LogisticRegression().fit(X, y)
    sel = FLBMO(model, prefit=True, n_features_to_select=2).fit(X, y)
    log_loss = get_scorer("neg_log_loss")
    assert sel.base_loss_ == pytest.approx(-log_loss(model, X, y), rel=1e-10)
    assert list(sel.get_feature_names_out()) == ["b", "e"]
    assert sel.history_[0]["feature"] in {"a", "c", "d", "f"}
    Xm = X.copy()
    Xm[sel.history_[0]["feature"]] = 0.0
    assert sel.history_[0]["loss"] == pytest.approx(-log_loss(model, Xm, y), rel=1e-10)


def test_classifier_without_predict_proba():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 5))
    y = (X[:, 1] > 0).astype(int)
    with pytest.raises(ValueError, match="predict_proba"):
        GBMO(RidgeClassifier()).fit(X, y)
    sel = FLBMO(RidgeClassifier(), loss="zero_one", n_features_to_select=1,
                random_state=0).fit(X, y)
    assert list(np.flatnonzero(sel.support_)) == [1]
    # a scorer reading decision_function: its minus score is negative, the rule still works
    sel = GBMO(RidgeClassifier(), loss="roc_auc", slack=0.01, random_state=0).fit(X, y)
    assert sel.support_[1] and sel.loss_ == "roc_auc"
    assert sel.base_loss_ < 0


def test_scorer_loss_equals_builtin():
    X, y, _ = make_gbmo_synthetic(150, 8, 3, distribution="normal", random_state=5)
    a = FLBMO(LinearRegression(), loss="mae", n_features_to_select=1, random_state=0).fit(X, y)
    b = FLBMO(LinearRegression(), loss="neg_mean_absolute_error", n_features_to_select=1,
              random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.path_["index"], b.path_["index"])
    np.testing.assert_allclose(a.path_["loss"], b.path_["loss"])
    c = FLBMO(LinearRegression(), n_features_to_select=1, random_state=0,
              loss=lambda yt, yp: float(np.mean(np.abs(yt - yp)))).fit(X, y)
    np.testing.assert_allclose(a.path_["loss"], c.path_["loss"])


def test_bad_parameters():
    X, y, _ = make_gbmo_synthetic(100, 5, 2, distribution="normal", random_state=0)
    with pytest.raises(ValueError, match="mask_value has 3 values"):
        GBMO(LinearRegression(), mask_value=[0, 0, 0]).fit(X, y)
    with pytest.raises(ValueError, match="regression"):
        GBMO(LogisticRegression(), loss="log_loss", task="regression").fit(X, y)
    with pytest.raises(ValueError, match="slack"):
        GBMO(LinearRegression(), slack=-1).fit(X, y)


def test_constant_column_never_selected_and_prefit_sees_every_column():
    X, y, _ = make_gbmo_synthetic(150, 6, 2, distribution="normal", random_state=0)
    X = np.column_stack([X, np.full(150, 3.0)])
    with pytest.warns(featsieve.ConstantFeatureWarning):
        sel = FLBMO(LinearRegression(), n_features_to_select=2, random_state=0).fit(X, y)
    assert not sel.support_[6] and len(sel.path_["index"]) == 4  # 6 usable columns -> 2
    model = LinearRegression().fit(X, y)
    with pytest.warns(featsieve.ConstantFeatureWarning):
        sel = FLBMO(model, n_features_to_select=2, prefit=True).fit(X, y)
    assert not sel.support_[6] and len(sel.path_["index"]) == 5  # the model has 7 inputs


# ----------------------------------------------------- recovery (seed §4.3)
def test_synthetic_lightgbm_one_path_recovers_the_10_informative():
    lgb = pytest.importorskip("lightgbm")

    X, y, support = make_gbmo_synthetic(distribution="normal", random_state=0)  # 300 x 100, 10 informative
    model = lgb.LGBMRegressor(n_estimators=400, learning_rate=0.03, num_leaves=4,
                              min_child_samples=5, colsample_bytree=0.5, random_state=0,
                              n_jobs=1, verbose=-1)
    sel = GBMO(model, slack=np.inf, random_state=0).fit(X, y)  # the whole path, one fit
    assert sel.n_model_fits_ == 1 and len(sel.path_["index"]) == 99
    # FLBMO with eta = 10 keeps exactly the informative columns
    np.testing.assert_array_equal(sel.support_at(n_features=10), support)
    # GBMO with mu = 0.05 stops with all 10 and at most 1 redundant
    gbmo = sel.support_at(slack=0.05)
    assert gbmo[:10].all() and gbmo[10:].sum() <= 1


# ------------------------------------------------------- scikit-learn checks
def _split_weights(estimator):
    # the rows are split into training and selection-validation parts: a duplicated row can
    # land on both sides, a row of weight 2 on one, so weights are not duplicated rows here
    why = "GBMO/FLBMO split their rows: weight 2 is not a duplicated row"
    return {c: why for c in ("check_sample_weight_equivalence_on_dense_data",
                             "check_sample_weight_equivalence_on_sparse_data")}


@parametrize_with_checks([
    GBMO(DecisionTreeRegressor(max_depth=2, random_state=0), task="regression", random_state=0),
    FLBMO(DecisionTreeRegressor(max_depth=2, random_state=0), task="regression",
          random_state=0),
], expected_failed_checks=_split_weights)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ------------------------------------------------------------------ report
def test_plot_data_and_figures():
    from featsieve.report._mask import figures, mask_plot_data

    model, X, y = _linear_problem()
    sel = GBMO(model, slack=0.0, prefit=True).fit(X, y)
    data = mask_plot_data(sel)
    assert list(data["iteration"]) == [r["iteration"] for r in sel.history_]
    assert list(data["n_remaining"]) == [r["n_remaining"] for r in sel.history_]
    np.testing.assert_allclose(data["loss"], [r["loss"] for r in sel.history_])
    # a longer path gives the same run for a smaller slack
    full = GBMO(model, slack=np.inf, prefit=True).fit(X, y)
    assert full.history_[-1]["n_remaining"] == 1 and all(r["accepted"] for r in full.history_)
    assert full.history_for(slack=0.0) == sel.history_
    derived = mask_plot_data(full, slack=0.0)
    np.testing.assert_array_equal(derived["n_remaining"], data["n_remaining"])
    figs = figures("gbmo", sel)
    assert [t for t, _ in figs] == ["remaining features vs iteration",
                                    "validation loss vs iteration"]
    import matplotlib.pyplot as plt

    for _, fig in figs:
        plt.close(fig)


# ------------------------------------------------------------- tree kernel
def _tree_models():
    lgb = pytest.importorskip("lightgbm")
    from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier, RandomForestRegressor
    from sklearn.tree import DecisionTreeClassifier

    kw = {"n_estimators": 25, "num_leaves": 6, "min_child_samples": 5, "random_state": 0,
          "verbose": -1, "n_jobs": 1}
    return [
        ("regression", lgb.LGBMRegressor(**kw)),
        ("regression", lgb.LGBMRegressor(zero_as_missing=True, **kw)),
        ("binary", lgb.LGBMClassifier(**kw)),
        ("multiclass", lgb.LGBMClassifier(**kw)),
        ("regression", RandomForestRegressor(n_estimators=8, max_depth=6, random_state=0)),
        ("regression", DecisionTreeRegressor(max_depth=6, random_state=0)),
        ("binary", DecisionTreeClassifier(max_depth=5, random_state=0)),
        ("multiclass", RandomForestClassifier(n_estimators=8, max_depth=5, random_state=0)),
        ("binary", ExtraTreesClassifier(n_estimators=8, max_depth=5, random_state=0)),
        # best-first growth (max_leaf_nodes): node ids not in preorder
        ("binary", DecisionTreeClassifier(max_leaf_nodes=14, random_state=0)),
        ("regression", RandomForestRegressor(n_estimators=6, max_leaf_nodes=20, random_state=0)),
    ]


def _tree_problem(kind, seed=0, n=240, d=12):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(n, d))
    y = X[:, 0] + np.sin(3 * X[:, 1]) + X[:, 2] * X[:, 3] + rng.normal(0, 0.1, n)
    if kind == "binary":
        y = (y > np.median(y)).astype(int)
    elif kind == "multiclass":
        y = np.digitize(y, np.quantile(y, [0.33, 0.66]))
    return X, y


@pytest.mark.parametrize("i", range(11))
def test_tree_kernel_reproduces_the_models_masked_predictions(i):
    from featsieve.mask._tree_kernel import tree_table

    kind, est = _tree_models()[i]
    X, y = _tree_problem(kind)
    model = est.fit(X[:160], y[:160])
    Xv = X[160:].copy()
    Xv[:, 5] = 0.0  # an already-masked column
    table = tree_table(model, X.shape[1])
    method = "predict" if kind == "regression" else "predict_proba"
    leaves = table.leaves(Xv)
    raw = table.raw(leaves)
    np.testing.assert_allclose(table.outputs(raw), getattr(model, method)(Xv), rtol=1e-12,
                               atol=1e-15)
    if kind == "regression":  # tree-by-tree sums in the library's order: the same bits
        np.testing.assert_array_equal(table.outputs(raw), model.predict(Xv))
    fill = np.linspace(-0.5, 0.5, X.shape[1])
    masked, changed = table.masked_raw(Xv, leaves, raw, np.arange(X.shape[1]), fill)
    for j in range(X.shape[1]):
        Z = Xv.copy()
        Z[:, j] = fill[j]
        ref = getattr(model, method)(Z)
        np.testing.assert_allclose(table.outputs(masked[j]), ref, rtol=1e-12, atol=1e-15)
        # "not changed" means exactly the current outputs
        assert changed[j] == (not np.array_equal(ref, getattr(model, method)(Xv)))


@pytest.mark.parametrize("kind", ["regression", "binary", "multiclass"])
def test_tree_kernel_reproduces_categorical_splits_and_their_masking(kind):
    # LightGBM's categorical splits (a set of categories goes left; NaN, negative and unseen
    # codes go right), masked to NaN as GBMO masks a categorical column
    lgb = pytest.importorskip("lightgbm")
    from featsieve.mask._tree_kernel import tree_table

    rng = np.random.default_rng(4)
    n = 400
    X = rng.uniform(-1, 1, size=(n, 6))
    X[:, 0] = rng.integers(0, 12, n)  # categories 0..11, some with a strong effect
    X[:, 1] = rng.integers(0, 4, n)
    X[rng.random(n) < 0.1, 1] = np.nan  # missing categories
    effect = np.array([0, 2, -1, 0, 3, 0, -2, 1, 0, 0, 2, -3], float)
    y = effect[X[:, 0].astype(int)] + np.nan_to_num(X[:, 1]) * 0.5 + X[:, 2] \
        + rng.normal(0, 0.2, n)
    if kind == "binary":
        y = (y > np.median(y)).astype(int)
    elif kind == "multiclass":
        y = np.digitize(y, np.quantile(y, [0.33, 0.66]))
    est = (lgb.LGBMRegressor if kind == "regression" else lgb.LGBMClassifier)(
        n_estimators=25, num_leaves=8, min_child_samples=5, min_data_per_group=5,
        cat_smooth=1, random_state=0, verbose=-1, n_jobs=1)
    model = est.fit(X[:300], y[:300], categorical_feature=[0, 1])
    table = tree_table(model, X.shape[1])
    assert table is not None and table.has_categorical
    Xv = X[300:].copy()
    Xv[:5, 0] = [12, 15, -1, 2.7, np.nan]  # unseen, negative, a fraction (truncated), NaN
    method = "predict" if kind == "regression" else "predict_proba"
    leaves = table.leaves(Xv)
    raw = table.raw(leaves)
    np.testing.assert_allclose(table.outputs(raw), getattr(model, method)(Xv), rtol=1e-12,
                               atol=1e-15)
    fill = np.array([np.nan, np.nan, 0.0, 0.0, 0.0, 0.0])
    masked, changed = table.masked_raw(Xv, leaves, raw, np.arange(X.shape[1]), fill)
    assert changed[0] and changed[1]
    for j in range(X.shape[1]):
        Z = Xv.copy()
        Z[:, j] = fill[j]
        np.testing.assert_allclose(table.outputs(masked[j]), getattr(model, method)(Z),
                                   rtol=1e-12, atol=1e-15)


def test_gbmo_on_text_columns_takes_the_tree_kernel_and_the_models_path():
    lgb = pytest.importorskip("lightgbm")
    rng = np.random.default_rng(5)
    n = 300
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=["a", "b", "c", "d"])
    X["town"] = rng.choice(["north", "south", "east", "west", "harbour"], n)
    X["kind"] = rng.choice(["flat", "house", None], n)
    y = X["a"] + X["town"].map({"north": 1.0, "south": -1.0, "harbour": 2.0}).fillna(0) \
        + rng.normal(0, 0.3, n)
    kw = dict(n_features_to_select=2, random_state=0)
    est = lgb.LGBMRegressor(n_estimators=30, num_leaves=8, min_child_samples=5, verbose=-1,
                            random_state=0, n_jobs=1)
    on = FLBMO(est, **kw).fit(X, y)
    off = FLBMO(est, tree_kernel=False, **kw).fit(X, y)
    assert on.tree_kernel_ and not off.tree_kernel_
    np.testing.assert_array_equal(on.path_["index"], off.path_["index"])
    np.testing.assert_allclose(on.path_["loss"], off.path_["loss"], rtol=1e-12, atol=0)
    assert "a" in list(on.get_feature_names_out())


@pytest.mark.parametrize("i", range(11))
def test_tree_kernel_gives_the_path_of_the_models_predict(i):
    kind, est = _tree_models()[i]
    X, y = _tree_problem(kind, seed=1)
    for loss in (None, "zero_one" if kind != "regression" else "neg_mean_absolute_error"):
        on = FLBMO(est, n_features_to_select=1, loss=loss, random_state=0).fit(X, y)
        off = FLBMO(est, n_features_to_select=1, loss=loss, tree_kernel=False,
                    random_state=0).fit(X, y)
        assert on.tree_kernel_ and not off.tree_kernel_
        np.testing.assert_array_equal(on.path_["index"], off.path_["index"])
        np.testing.assert_allclose(on.path_["loss"], off.path_["loss"], rtol=1e-12, atol=0)
        assert on.n_predict_calls_ < off.n_predict_calls_
        assert on.n_candidates_evaluated_ == off.n_candidates_evaluated_


def test_tree_kernel_lets_the_model_settle_ties():
    # the error rate takes few values: many candidates tie exactly, and the
    # model's own predictions must decide between them (lowest index first)
    lgb = pytest.importorskip("lightgbm")
    X, y = _tree_problem("binary", seed=3, n=150, d=15)
    est = lgb.LGBMClassifier(n_estimators=30, num_leaves=8, min_child_samples=5,
                             random_state=0, verbose=-1, n_jobs=1)
    on = FLBMO(est, n_features_to_select=1, loss="zero_one", random_state=0).fit(X, y)
    off = FLBMO(est, n_features_to_select=1, loss="zero_one", tree_kernel=False,
                random_state=0).fit(X, y)
    assert on.n_predict_calls_ > 1  # near-ties went to the model
    np.testing.assert_array_equal(on.path_["index"], off.path_["index"])
    np.testing.assert_array_equal(on.path_["loss"], off.path_["loss"])


def test_tree_kernel_falls_back_when_it_cannot_reproduce_the_model(monkeypatch):
    from sklearn.ensemble import GradientBoostingRegressor

    import featsieve.mask._tree_kernel as tk

    X, y = _tree_problem("regression", seed=2, n=150, d=8)
    sel = FLBMO(GradientBoostingRegressor(n_estimators=10, random_state=0),
                n_features_to_select=2, random_state=0).fit(X, y)
    assert not sel.tree_kernel_  # not a supported model: predicted through the model
    real = tk.tree_table

    def off_by_a_bit(model, d):
        table = real(model, d)
        table.value = table.value * (1 + 1e-6)
        return table

    monkeypatch.setattr(tk, "tree_table", off_by_a_bit)
    est = DecisionTreeRegressor(max_depth=4, random_state=0)
    sel = FLBMO(est, n_features_to_select=2, random_state=0).fit(X, y)
    ref = FLBMO(est, n_features_to_select=2, tree_kernel=False, random_state=0).fit(X, y)
    assert not sel.tree_kernel_
    np.testing.assert_array_equal(sel.path_["index"], ref.path_["index"])


def test_columns_in_another_order_are_refused():
    from sklearn.ensemble import RandomForestRegressor

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(200, 4)), columns=list("abcd"))
    y = 3 * X.a + 2 * X.b
    model = RandomForestRegressor(10, random_state=0).fit(X[:100], y[:100])
    with pytest.raises(ValueError, match="another order"):
        GBMO(model, prefit=True).fit(X[100:][["d", "c", "b", "a"]], y[100:])
    with pytest.raises(ValueError, match="missing"):
        GBMO(model, prefit=True).fit(X[100:][["a", "b", "c"]].assign(e=1.0), y[100:])
    with pytest.raises(ValueError, match="another order"):
        GBMO(RandomForestRegressor(5)).fit(X[:100], y[:100], X_val=X[100:][["b", "a", "c", "d"]],
                                           y_val=y[100:])
    # weights reach the model and the loss; a callable loss cannot weight its rows
    GBMO(RandomForestRegressor(5, random_state=0)).fit(X, y, sample_weight=np.ones(200))
    with pytest.raises(ValueError, match="sample_weight"):
        GBMO(RandomForestRegressor(5), loss=lambda t, p: float(np.mean((t - p) ** 2))).fit(
            X, y, sample_weight=np.ones(200))
    sel = GBMO(model, prefit=True, slack=0.01).fit(X[100:], y[100:])
    assert {"a", "b"} <= set(sel.get_feature_names_out())


def test_losses_travel_to_worker_processes():
    # the stdlib multiprocessing backend pickles with pickle, not cloudpickle
    from joblib import parallel_config
    from sklearn.ensemble import RandomForestClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(160, 6))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    est = RandomForestClassifier(5, max_depth=4, random_state=0)
    paths = []
    for backend in ("threading", "multiprocessing"):
        with parallel_config(backend=backend):
            for loss in (None, "accuracy"):
                paths.append(FLBMO(est, n_features_to_select=2, loss=loss, tree_kernel=False,
                                   batch_size=2, n_jobs=2, random_state=0).fit(X, y).path_["index"])
    np.testing.assert_array_equal(paths[0], paths[2])
    np.testing.assert_array_equal(paths[1], paths[3])


def test_tree_kernel_settles_wide_ties_with_one_prediction_of_the_current_rows():
    """A tree on 30 rows of 300 columns reads a handful: at most steps every other column
    ties with the few that move no row, and the model settles the tie. Copies that moved no
    row get the model's loss on the current rows (one prediction), not one prediction each:
    the path is the one of predicting every copy through the model."""
    from sklearn.tree import DecisionTreeClassifier

    rows = []

    class Counting(DecisionTreeClassifier):
        def predict_proba(self, X, check_input=True):
            rows.append(len(X))
            return super().predict_proba(X, check_input)

    rng = np.random.default_rng(6)
    X = rng.normal(size=(40, 300))
    y = (X[:, :3].sum(axis=1) > 0).astype(int)
    kw = {"slack": 0.5, "random_state": 0}
    fast = GBMO(Counting(random_state=0), **kw).fit(X[:30], y[:30], X_val=X[30:],
                                                      y_val=y[30:])
    assert fast.tree_kernel_ and len(fast.history_) == 299
    assert sum(rows) < 6_000  # 380,670 rows when every tied copy was predicted
    ref = GBMO(DecisionTreeClassifier(random_state=0), tree_kernel=False, **kw).fit(
        X[:30], y[:30], X_val=X[30:], y_val=y[30:])
    assert not ref.tree_kernel_
    assert [(h["feature"], h["loss"]) for h in fast.history_] == \
        [(h["feature"], h["loss"]) for h in ref.history_]
