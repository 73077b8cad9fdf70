"""Kernels that make wide tables fast give the reference libraries' numbers.

``mutual_info_scores`` on few rows (all columns at once) equals scikit-learn's
``mutual_info_classif``; ``relieff_scores`` on classes (binary, multiclass; continuous, categorical and
mixed columns) equals skrebate's ``ReliefF``.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_selection import mutual_info_classif

from featsieve.scores import mutual_info_scores, relieff_scores
from featsieve.scores._univariate import _mi_classif_block, _tree_path


@pytest.mark.parametrize("n, d, classes, seed", [(96, 120, 2, 0), (120, 80, 4, 1),
                                                 (200, 60, 3, 2), (40, 30, 2, 3)])
def test_block_mi_equals_scikit_learn(n, d, classes, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[:, :4] = np.round(X[:, :4])  # ties
    X[:, 4] = 2.5  # constant: jitter only
    X[:, 5] = X[:, 6]  # a copy
    y = rng.integers(0, classes, n)
    y[0] = classes + 5  # a class of one row (left out by the estimator)
    assert _tree_path(y)
    ours = mutual_info_scores(X, y, random_state=seed)
    ref = mutual_info_classif(X, y, random_state=seed)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(_mi_classif_block(X, y, random_state=seed,
                                                 max_bytes=8 * n * 7), ref, atol=1e-12)


@pytest.mark.parametrize("n,seed", [(2000, 0), (300, 1), (40, 2)])
def test_discrete_columns_continuous_target_mi_equals_scikit_learn(n, seed):
    from sklearn.feature_selection import mutual_info_regression

    from featsieve.scores._univariate import _mi_discrete_continuous, _noised_target

    rng = np.random.default_rng(seed)
    y = rng.normal(size=n) * 1000 + 5e4  # a price-like target
    D = np.column_stack([
        rng.integers(0, 5, n),  # unrelated levels, all large: its KD-tree path
        (y > 5e4).astype(int) + rng.integers(0, 2, n),  # informative
        np.round((y - 5e4) / 300),  # informative, rare tail levels: its brute-force path
        rng.integers(0, max(2, n // 3), n),  # levels of 1-7 rows (one-row levels left out)
        np.where(rng.random(n) < 0.5, 3.0, 7.0),
    ])
    ref = mutual_info_regression(D, y, discrete_features=True, random_state=seed)
    ours = _mi_discrete_continuous(D, _noised_target(y, np.random.RandomState(seed)))
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)
    assert ours[1] > 0.1 and ours[2] > 0.3  # the informative columns score
    # mixed with continuous columns, as mutual_info_scores calls it: the same stream
    X = np.column_stack([rng.normal(size=n), D, y + rng.normal(size=n) * 500])
    disc = np.array([False, True, True, True, True, True, False])
    got = mutual_info_scores(X, y, task="regression", random_state=seed, discrete=disc)
    ref = mutual_info_regression(X, y, discrete_features=disc, random_state=seed)
    np.testing.assert_allclose(got[~disc], ref[~disc], rtol=0, atol=1e-12)
    # discrete columns are then permutation-adjusted (never above the raw estimate)
    assert np.all(got[disc] <= ref[disc] + 1e-12)


def test_block_mi_is_not_used_where_scikit_learn_takes_its_brute_force_path():
    y = np.repeat([0, 1, 2], [30, 30, 6])  # a class of 6 rows: 3 >= 6 // 2
    assert not _tree_path(y) and _tree_path(np.repeat([0, 1], [8, 9]))
    X = np.random.default_rng(0).normal(size=(66, 20))
    np.testing.assert_array_equal(mutual_info_scores(X, y, random_state=0),
                                  mutual_info_classif(X, y, random_state=0))


def _relieff_table(n, d, kind, classes, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if kind in ("categorical", "mixed"):
        cols = slice(None) if kind == "categorical" else slice(0, d, 2)
        X[:, cols] = np.round(X[:, cols]).clip(-2, 2)  # at most 5 values: categorical
    X[:, -1] = 0.5  # constant
    score = 2 * (X[:, 0] + X[:, 1]) + 0.5 * rng.normal(size=n)
    cuts = np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1])
    y = np.array([f"c{v}" for v in np.searchsorted(cuts, score)])
    return X, y


@pytest.mark.parametrize("n, d, k, kind, classes, seed", [
    (96, 200, 95, "continuous", 2, 0), (60, 40, 10, "continuous", 2, 1),
    (150, 30, 100, "continuous", 2, 2), (120, 25, 10, "categorical", 2, 3),
    (120, 25, 10, "mixed", 2, 4), (150, 20, 12, "continuous", 4, 5),
    (150, 20, 30, "mixed", 5, 6), (160, 15, 8, "categorical", 3, 7),
    (200, 12, 5, "mixed", 13, 8)])
def test_relieff_equals_skrebate(n, d, k, kind, classes, seed):
    skrebate = pytest.importorskip("skrebate")
    X, y = _relieff_table(n, d, kind, classes, seed)
    ref = skrebate.ReliefF(n_features_to_select=5, n_neighbors=k)
    codes = y
    if classes > 10:  # skrebate calls more than 10 labels numbers unless told (and takes
        ref.set_params(label_type="multiclass")  # their std: codes, not strings)
        codes = np.unique(y, return_inverse=True)[1]
    ref.fit(X.copy(), codes)
    before = X.copy()
    ours = relieff_scores(X, y, n_neighbors=k, task="classification")
    np.testing.assert_array_equal(X, before)
    np.testing.assert_allclose(ours, ref.feature_importances_, rtol=0, atol=1e-12)
    assert set(np.argsort(-ours)[:2]) == {0, 1}  # the informative columns lead


def test_relieff_leaves_missing_values_and_numbers_to_skrebate(monkeypatch):
    from featsieve.scores import _baselines

    calls = []
    monkeypatch.setattr(_baselines, "_relieff_classes",
                        lambda *a: calls.append(a) or np.zeros(a[0].shape[1]))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 5))
    relieff_scores(X, rng.integers(0, 3, 50), n_neighbors=5)
    assert len(calls) == 1  # three classes: ours
    Xn = X.copy()
    Xn[3, 1] = np.nan
    out = relieff_scores(Xn, rng.integers(0, 2, 50), n_neighbors=5)  # skrebate
    assert len(calls) == 1 and out.shape == (5,) and np.isfinite(out).all()
    relieff_scores(X, rng.normal(size=50), n_neighbors=5, task="regression")  # skrebate
    assert len(calls) == 1


def _target_copies_one_by_one(X, y, task, skip=None):
    """target_copies' definition column by column (its docstring)."""
    n, d = X.shape
    out = []
    for j in range(d):
        x = X[:, j]
        ok = ~np.isnan(x)
        if (skip is not None and skip[j]) or ok.sum() < max(10, 0.9 * n):
            continue
        if task == "classification":
            pairs = np.unique(np.column_stack([x[ok], y[ok]]), axis=0)
            values = np.unique(pairs[:, 0])
            if 1 < len(values) <= max(2, n // 10) and len(pairs) == len(values):
                out.append(j)
        elif np.std(x[ok]) > 0 and np.std(y[ok]) > 0:
            if abs(np.corrcoef(x[ok], y[ok].astype(float))[0, 1]) >= 0.9999:
                out.append(j)
    return out


@pytest.mark.parametrize("task", ["classification", "regression"])
def test_target_copies_prefilter_equals_the_column_by_column_definition(task):
    from featsieve._validation import target_copies

    rng = np.random.default_rng(7)
    found = 0
    for _ in range(20):
        n, d = int(rng.integers(20, 200)), int(rng.integers(5, 40))
        X = rng.normal(size=(n, d))
        y = rng.integers(0, 3, n) if task == "classification" else rng.normal(size=n)
        X[:, 0::5] = rng.integers(0, 4, size=(n, len(range(0, d, 5))))  # few values
        X[:, 1] = 2.0 * y + 1  # a copy
        X[:, 3] = y
        X[rng.integers(0, n, 3), 3] = np.nan  # a copy with missing values
        X[:, 4] = 7.0  # constant
        skip = rng.random(d) < 0.2
        expected = _target_copies_one_by_one(X, y, task, skip)
        assert target_copies(X, y, task, skip) == expected
        found += len(expected)
    assert found >= 20  # the copies were there to find
