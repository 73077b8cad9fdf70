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
