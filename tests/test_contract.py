"""The estimator contract for every registered method: columns are matched by label."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import featsieve
from test_robustness import METHODS, build


def _table():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.normal(size=(80, 5)), columns=[10, 11, 12, 13, 14])
    y = (X[10] + X[12] > 0).astype(int).to_numpy()
    return X, y


@pytest.mark.parametrize("name", METHODS)
def test_reordered_integer_labels_at_transform_are_refused(name):
    if not featsieve.get_method(name).available:
        pytest.skip(f"{name}'s library is not installed")
    X, y = _table()
    sel = build(name, "classification")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel.fit(X, y)
    same = sel.transform(X)
    assert np.asarray(same).shape == (80, sel.n_features_selected_)
    with pytest.raises(ValueError, match="another order"):
        sel.transform(X[[14, 13, 12, 11, 10]])


def test_a_requested_count_is_honoured_or_named_as_unused():
    X, y = _table()
    for name in featsieve.methods("classification"):
        spec = featsieve.get_method(name)
        if spec.cls is None or not spec.available:
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sel = featsieve.make_selector(name, task="classification", n_features_to_select=2,
                                          random_state=0)
        takes = "n_features_to_select" in sel.get_params()
        cut = spec.tuning is not None and spec.tuning.cut == "n_features"
        said = any("was not used" in str(w.message) for w in caught)
        assert takes or cut or said, name  # never a silent different count
        assert not (said and takes), name


def test_an_id_column_left_out_by_compare_is_left_out_by_every_method():
    rng = np.random.default_rng(0)
    n = 300
    X = pd.DataFrame({"RowNumber": np.arange(1, n + 1), "a": rng.normal(size=n),
                      "b": rng.normal(size=n)})
    y = (X["a"] + 0.3 * rng.normal(size=n) > 0).astype(int).to_numpy()
    y = np.where(np.arange(n) > n // 2, 1 - y, y)  # the row order carries signal
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = featsieve.compare(X, y, methods=["gbmo", "embedded", "cc"], estimator="tree",
                                n_repeats=2)
    for row in res.rows:
        assert "RowNumber" not in row["selection_frequency"], row["method"]
