"""Validation rows reach selectors through scikit-learn's metadata routing."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import featsieve

USES_VAL = [n for n in featsieve.methods() if featsieve.get_method(n).uses_selection_val]


def _fast(name, params):
    fast = {"max_rounds": 2, "n_generations": 40 if name == "poss" else 3,
            "max_evaluations": 40}
    return {k: v for k, v in fast.items() if k in params}


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(160, 6)) * 1000.0  # a scaler matters
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X[:100], y[:100], X[100:], y[100:]


@pytest.mark.parametrize("name", USES_VAL)
def test_pipeline_passes_x_val_with_routing_on(name):
    X, y, Xv, yv = _data()
    sel = featsieve.make_selector(name, task="classification", random_state=0,
                                  estimator=DecisionTreeClassifier(max_depth=3, random_state=0))
    params = sel.get_params()
    sel.set_params(**_fast(name, params))
    with sklearn.config_context(enable_metadata_routing=True):
        sel.set_fit_request(X_val=True, y_val=True)
        pipe = Pipeline([("scale", StandardScaler()), ("select", sel)],
                        transform_input=["X_val"])
        pipe.fit(X, y, X_val=Xv, y_val=yv)
    fitted = pipe.named_steps["select"]
    assert fitted.n_features_selected_ >= 1
    # the same as fitting the selector on the scaled rows directly
    sc = StandardScaler().fit(X)
    direct = featsieve.make_selector(name, task="classification", random_state=0,
                                     estimator=DecisionTreeClassifier(max_depth=3,
                                                                      random_state=0))
    direct.set_params(**_fast(name, params))
    direct.fit(sc.transform(X), y, X_val=sc.transform(Xv), y_val=yv)
    np.testing.assert_array_equal(fitted.support_, direct.support_)


def test_a_method_without_validation_rows_refuses_them():
    X, y, Xv, yv = _data()
    with pytest.raises(TypeError, match="uses no validation rows"):
        featsieve.UnivariateFilter("cc").fit(X, y, X_val=Xv, y_val=yv)
