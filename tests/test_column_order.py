"""The answer does not depend on the order of named columns (issue 15, item 2).

Every registered method, both tasks where it has them: a fixed permutation of a
named table's columns, fitted with the same ``random_state``, selects the same
names and gives every per-column fitted attribute in the given order. A method
registered later is covered without edits.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from test_robustness import METHODS, build

LABELS = ["b", "x10", "x2", "a", "c7", "d", "x1", "e"]
PERM = [5, 2, 7, 0, 3, 6, 1, 4]


def _table(task):
    rng = np.random.default_rng(11)
    X = pd.DataFrame(rng.normal(size=(90, len(LABELS))), columns=LABELS)
    # two strong columns, two weaker, two that tie in kind (exact copies of noise)
    X["c7"] = X["d"].to_numpy()
    t = 1.2 * X["x2"] - 1.0 * X["a"] + 0.5 * X["e"] * X["b"] + 0.4 * rng.normal(size=90)
    y = (t > 0).astype(int).to_numpy() if task == "classification" else t.to_numpy()
    return X, y


def _fit(name, task, X, y):
    sel = build(name, task)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel.fit(X, y)
    return sel


def _per_column(sel):
    """Public fitted arrays with one entry per input column."""
    d = sel.n_features_in_
    out = {}
    for key, value in vars(sel).items():
        if key.endswith("_") and not key.startswith("_") and key not in (
                "feature_names_in_", "duplicate_of_"):
            if (isinstance(value, np.ndarray) and value.ndim >= 1 and value.shape[0] == d
                    and value.dtype != object):
                out[key] = value
    return out


@pytest.mark.parametrize("task", ["classification", "regression"])
@pytest.mark.parametrize("name", METHODS)
def test_a_column_permutation_gives_the_same_names(name, task):
    X, y = _table(task)
    a = _fit(name, task, X, y)
    b = _fit(name, task, X.iloc[:, PERM], y)
    assert sorted(b.get_feature_names_out()) == sorted(a.get_feature_names_out())
    assert list(b.feature_names_in_) == [LABELS[j] for j in PERM]
    # every per-column attribute is in the given order
    pa, pb = _per_column(a), _per_column(b)
    assert pa.keys() == pb.keys()
    for key in pa:
        np.testing.assert_allclose(pb[key], pa[key][PERM], rtol=1e-6, atol=1e-9,
                                   err_msg=f"{name}.{key}")
    # the copies: the same representative whatever the order
    names_a = {LABELS[j]: (LABELS[i] if i >= 0 else None) for j, i in enumerate(a.duplicate_of_)}
    names_b = {LABELS[PERM[j]]: (LABELS[PERM[i]] if i >= 0 else None)
               for j, i in enumerate(b.duplicate_of_)}
    assert names_a == names_b
    # transform reads the user's order
    out = b.transform(X.iloc[:, PERM])
    np.testing.assert_array_equal(np.asarray(out),
                                  X.iloc[:, PERM][list(b.get_feature_names_out())].to_numpy())


def test_numpy_input_keeps_positions_as_identities():
    from featsieve._utils import canonical_rank

    assert canonical_rank(["x0", "x1", "x2", "x10"]) is None
    assert canonical_rank([0, 1, 2, 10]) is None
    assert canonical_rank(["b", 2, "a", 1]).tolist() == [3, 1, 2, 0]


# ------------------------------------------------------------------ compare
def _compare_rows(X, y):
    import featsieve

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = featsieve.compare(X, y, methods=["embedded", "cc"], n_repeats=2, random_state=0)
    return {r["method"]: r for r in res.rows}


def test_compare_rows_do_not_depend_on_the_column_order():
    # binary columns tie often for LightGBM, which breaks ties by column index; a refit
    # on the given order scored the `all` row and embedded (which reads its model)
    # differently, and the consensus broke ties at half the repeats by the given order
    rng = np.random.default_rng(0)
    names = ["age", "b2", "b10", "c", "d", "e1", "f", "g", "h", "k", "m", "z"]
    X = pd.DataFrame(rng.integers(0, 2, size=(200, 12)).astype(float), columns=names)
    X["h"] = rng.normal(size=200).round(1)
    X["z"] = (X["age"] + X["b2"]) % 2
    t = (X["age"] + X["b2"] - X["c"] + 0.5 * X["h"] + X["d"] * X["e1"]
         + rng.normal(scale=0.8, size=200))
    y = (t > np.median(t)).astype(int).to_numpy()
    perm = list(rng.permutation(12))
    a, b = _compare_rows(X, y), _compare_rows(X.iloc[:, perm], y)
    assert list(a) == list(b) == ["all", "baseline", "embedded", "cc"]
    for m in a:
        for key in ("test_scores", "selected", "selection_frequency", "n_selected",
                    "n_selected_range", "tuned", "model_fits", "strategy", "selection_score",
                    "stability"):
            assert b[m][key] == a[m][key], (m, key)
        # per repeat: the same names (listed in the given order)
        assert [set(r["selected"]) for r in b[m]["repeats"]] == [
            set(r["selected"]) for r in a[m]["repeats"]]
    assert a["embedded"]["strategy"].startswith("reads the all row's model")  # in both orders
