"""Real tables, the models' side (issue 16): LightGBM gets categorical columns natively in
every path that fits it; scikit-learn models and the ELM prepare the table inside themselves
(TablePrep: median + missing indicator, one-hot categories), and importances come back one
per original column."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from featsieve._elm import ELMClassifier, ELMRegressor
from featsieve._importance import model_importances
from featsieve.classic import EmbeddedSelector, ForwardSelector, RFESelector
from featsieve.evaluation._refit import refit_scores
from featsieve.mask import GBMO
from featsieve.models import TablePrep, fit_model, make_model

lgb = pytest.importorskip("lightgbm")


def stump():
    """One tree of two leaves: only a categorical split separates codes {1, 4} from the rest."""
    return lgb.LGBMClassifier(n_estimators=1, num_leaves=2, learning_rate=1.0,
                              min_child_samples=5, min_data_per_group=5, verbose=-1,
                              random_state=0)


def codes_problem(n=600, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 6, n)
    x = rng.normal(size=n)
    y = ((c == 1) | (c == 4)).astype(int)
    return np.c_[x, c.astype(float)], y, c


def table_problem(n=400, seed=0):
    """A DataFrame whose class is decided by a text column's non-adjacent categories."""
    _, y, c = codes_problem(n, seed)
    rng = np.random.default_rng(seed + 1)
    X = pd.DataFrame({"x": rng.normal(size=n),
                      "shade": np.array(list("abcdef"))[c],
                      "z": rng.normal(size=n)})
    X.loc[rng.random(n) < 0.05, "x"] = np.nan
    return X, pd.Series(np.where(y == 1, "yes", "no"))


def split_kinds(model) -> set:
    out = set()

    def walk(node):
        if "decision_type" in node:
            out.add(node["decision_type"])
            walk(node["left_child"])
            walk(node["right_child"])

    for t in model.booster_.dump_model()["tree_info"]:
        walk(t["tree_structure"])
    return out


def test_refit_tells_lightgbm_the_categorical_columns():
    X, y, _ = codes_problem()
    evals = [(X[400:], y[400:])]
    as_codes = refit_scores(stump(), "classification", X[:400], y[:400], evals, [0, 1])[0]
    native = refit_scores(stump(), "classification", X[:400], y[:400], evals, [0, 1],
                          categorical=[False, True])[0]
    assert native == 1.0 and as_codes < 0.8
    # a subset: the mask follows the chosen columns
    assert refit_scores(stump(), "classification", X[:400], y[:400], evals, [1],
                        categorical=[False, True])[0] == 1.0


@pytest.mark.parametrize("make", [
    lambda: EmbeddedSelector(stump()),
    lambda: RFESelector(stump(), n_features_to_select=1),
    lambda: GBMO(stump(), random_state=0),
])
def test_model_selectors_fit_lightgbm_with_native_categories(make):
    X, y = table_problem()
    sel = make().fit(X, y)
    assert "==" in split_kinds(sel.estimator_)  # a categorical split on 'shade'
    assert "shade" in sel.get_feature_names_out()


def test_gbmo_masks_a_categorical_column_as_missing():
    X, y = table_problem()
    sel = GBMO(make_model("lightgbm", "classification", random_state=0), random_state=0)
    sel.fit(X, y)
    assert np.isnan(sel.mask_values_[1]) and sel.mask_values_[0] == 0.0
    # a model that does not take NaN: the imputation's missing category (code k = 6)
    from sklearn.linear_model import LogisticRegression

    lin = GBMO(LogisticRegression(max_iter=500), random_state=0).fit(X, y)
    assert lin.mask_values_[1] == 6.0 and lin.mask_values_[0] == 0.0


def test_forward_scores_a_text_column_through_native_splits():
    X, y = table_problem()
    sel = ForwardSelector(stump(), max_rounds=1, random_state=0).fit(X, y)
    assert list(sel.get_feature_names_out()) == ["shade"]
    assert sel.history_[0]["score"] == pytest.approx(1.0)


def test_rfe_loop_equals_scikit_learn_on_numbers():
    from sklearn.datasets import make_classification
    from sklearn.feature_selection import RFE
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=200, n_features=12, n_informative=4, random_state=3)
    tree = DecisionTreeClassifier(max_depth=4, random_state=0)
    ours = RFESelector(tree, n_features_to_select=3, step=2).fit(X, y)
    ref = RFE(tree, n_features_to_select=3, step=2).fit(X, y)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_array_equal(ours.ranking_, ref.ranking_)
    assert ours.n_model_fits_ == 6


def test_tableprep_parts_and_importances_per_original_column():
    X = np.array([[1.0, 0], [np.nan, 1], [3.0, 2], [5.0, np.nan], [2.0, 1], [4.0, 0]])
    prep = TablePrep(categorical=[False, True]).fit(X)
    out = prep.transform(X)
    # x, x missing, categories 0, 1, 2 and missing
    assert out.shape == (6, 6)
    np.testing.assert_array_equal(prep.owner_, [0, 0, 1, 1, 1, 1])
    assert out[1, 0] == 3.0 and out[1, 1] == 1.0  # the median and the indicator
    unseen = prep.transform(np.array([[1.0, 7.0]]))  # an unseen code: no category set
    assert unseen[0, 2:].sum() == 0
    rng = np.random.default_rng(0)
    Xb = np.c_[rng.normal(size=80), rng.integers(0, 4, 80).astype(float), rng.normal(size=80)]
    Xb[rng.random(80) < 0.1, 0] = np.nan
    yb = (Xb[:, 1] == 2).astype(int)
    model = fit_model(make_model("logistic", "classification"), Xb, yb,
                      categorical=[False, True, False])
    imp = model_importances(model)
    assert imp.shape == (3,) and int(np.argmax(imp)) == 1


@pytest.mark.parametrize("cls", [ELMClassifier, ELMRegressor])
def test_elm_takes_missing_values_and_categories(cls):
    X, y, c = codes_problem(300)
    X[::7, 0] = np.nan
    X[::11, 1] = np.nan
    target = y if cls is ELMClassifier else y.astype(float)
    m = make_model("elm", "classification" if cls is ELMClassifier else "regression",
                   random_state=0)
    assert isinstance(m, cls)
    fitted = fit_model(m, X[:200], target[:200], categorical=[False, True])
    assert isinstance(fitted, cls) and fitted.prep_.owner_.tolist().count(1) == 7
    pred = fitted.predict(X[200:])
    assert np.all(np.isfinite(np.asarray(pred, dtype=float)))
    if cls is ELMClassifier:  # one-hot categories make {1, 4} learnable
        assert (pred == y[200:]).mean() > 0.9


def test_mlp_regression_scales_a_large_target():
    """House-price sized targets: the network fits a standardised target, so it beats the
    mean; categories, row weights and clones still reach the Pipeline inside."""
    from sklearn.base import clone
    from sklearn.compose import TransformedTargetRegressor

    from featsieve._resources import model_kind
    from featsieve.models import inner_model, takes_sample_weight

    rng = np.random.default_rng(0)
    n = 400
    X = np.c_[rng.normal(size=n), rng.integers(0, 3, n).astype(float), rng.normal(size=n)]
    X[::13, 0] = np.nan
    y = 2e5 + 5e4 * np.nan_to_num(X[:, 0]) + 3e4 * (X[:, 1] == 1) + rng.normal(0, 1e4, n)
    m = make_model("mlp", "regression", random_state=0)
    assert isinstance(m, TransformedTargetRegressor)
    assert clone(m).get_params()["regressor__mlpregressor__random_state"] == 0
    assert model_kind(m) == "mlp" and takes_sample_weight(m)
    w = np.ones(300)
    fitted = fit_model(m, X[:300], y[:300], categorical=[False, True, False], sample_weight=w)
    prep = fitted.regressor_.steps[0][1]
    assert prep.categorical.tolist() == [False, True, False]  # the inner TablePrep got them
    assert prep.owner_.tolist() == [0, 2, 0, 1, 1, 1]  # x, z, x missing, three categories
    assert m.regressor.steps[0][1].categorical is None  # the caller's model is untouched
    assert type(inner_model(fitted)).__name__ == "MLPRegressor"
    mse = np.mean((fitted.predict(X[300:]) - y[300:]) ** 2)
    mean_mse = np.mean((y[:300].mean() - y[300:]) ** 2)
    assert mse < 0.2 * mean_mse  # unscaled, the network stayed far above the mean's error
    imp = model_importances(fitted, X[300:], y[300:], random_state=0)
    assert imp.shape == (3,) and int(np.argmax(imp)) == 0
    assert isinstance(make_model("mlp", "classification"), type(m.regressor))  # a Pipeline
