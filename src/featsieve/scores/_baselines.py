"""Scores of the similarity-based baselines of seed 001 §5.2 (k-best, ReliefF).

Pure functions ``(X, y) -> one score per column`` (STYLE.md habit 4), so they
plug into :class:`featsieve.UnivariateFilter` and scikit-learn's ``SelectKBest``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.utils import check_random_state

__all__ = ["anova_f_scores", "relieff_scores"]


def anova_f_scores(X, y, *, task: str = "classification", categorical=None) -> np.ndarray:
    """ANOVA F statistic of each column (scikit-learn ``f_classif``/``f_regression``).

    The k-best baseline of seed 001 §5.2 (scikit-learn's ``SelectKBest`` with
    its default score). Constant columns score 0. A categorical column (its
    codes in ``X``) scores the largest F of its levels' one-hot indicators, so
    its score does not depend on how its categories are spelled or ordered
    (the F of the codes themselves would); scikit-learn's ``SelectKBest``
    takes numbers only.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    task : {"classification", "regression"}, default="classification"
    categorical : array-like of bool of shape (n_features,) or None, default=None
        The categorical columns (None: none).

    Returns
    -------
    scores : ndarray of shape (n_features,)
    """
    import warnings

    from sklearn.feature_selection import f_classif, f_regression

    fn = f_classif if task == "classification" else f_regression
    X = np.asarray(X, dtype=np.float64)

    def f_of(A):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            F, _ = fn(A, y)
        # a perfect separator has F = inf: it ranks first, not last
        return np.nan_to_num(np.asarray(F, dtype=np.float64), nan=0.0,
                             posinf=np.finfo(np.float64).max)

    cat = np.zeros(X.shape[1], bool) if categorical is None else np.asarray(categorical, bool)
    scores = np.zeros(X.shape[1])
    if (~cat).any():
        scores[~cat] = f_of(X[:, ~cat])
    for j in np.flatnonzero(cat):
        levels, codes = np.unique(X[:, j], return_inverse=True)  # NaN: a level of its own
        if len(levels) > 1:
            onehot = np.zeros((X.shape[0], len(levels)))
            onehot[np.arange(X.shape[0]), codes.ravel()] = 1.0
            scores[j] = f_of(onehot).max()
    return scores


def relieff_scores(X, y, *, n_neighbors: int = 100, max_samples: int | None = None,
                   random_state=None, n_jobs: int = 1, task: str | None = None) -> np.ndarray:
    """ReliefF feature weights as ``skrebate`` computes them (the maintained implementation).

    Seed 001 §5.2 compares FASTENER with ReliefF on EO data, run on 20 % of the
    training rows because ReliefF is quadratic in the rows; ``max_samples``
    does the same (a seeded random subset).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Classes or numbers.
    n_neighbors : int, default=100
        skrebate's default; capped at ``n_rows - 1``.
    max_samples : int or None, default=None
        Rows used; None: all.
    random_state : int, RandomState or None, default=None
        For the row subset.
    n_jobs : int, default=1
        skrebate's workers (the inputs it scores itself, see Notes).
    task : {"classification", "regression"} or None, default=None
        ``"classification"``: the target's values are classes however many there
        are (Kononenko's multiclass ReliefF; skrebate's ``label_type="multiclass"``
        above two); ``"regression"``: numbers (skrebate's continuous endpoint);
        None: skrebate's own rule (2 values: binary, 3 to 10: multiclass, more:
        continuous).

    Returns
    -------
    scores : ndarray of shape (n_features,)
        ReliefF weights (higher is more relevant; may be negative).

    Raises
    ------
    ImportError
        skrebate is not installed (``pip install skrebate``) and the input is one
        featsieve leaves to it.

    Notes
    -----
    Time O(n^2 d) for n rows, d columns. For classes (binary or multiclass) and
    no missing value the same scores come from featsieve's vectorized
    implementation of skrebate's steps (:func:`_relieff_classes`: the neighbours
    by numpy, the score sums by a compiled loop; equal to skrebate to 1e-12,
    ``tests/test_wide_kernels.py``): skrebate scores one row and one column at a
    time in Python, which takes seconds on a table of a thousand rows and
    minutes on a wide one. Missing values and numeric targets
    go to skrebate.

    References
    ----------
    Seed 001 §2.2, §5.2; Kononenko (1994), ReliefF; Urbanowicz et al. (2018),
    skrebate.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if max_samples is not None and X.shape[0] > max_samples:
        rows = np.sort(check_random_state(random_state).choice(X.shape[0], max_samples,
                                                               replace=False))
        X, y = X[rows], y[rows]
    k = max(1, min(int(n_neighbors), X.shape[0] - 1))
    n_labels = len(np.unique(y))
    if task is None:
        label_type = ("binary" if n_labels == 2 else "multiclass" if n_labels <= 10
                      else "continuous")
    elif task == "classification":
        label_type = "binary" if n_labels == 2 else "multiclass"
    else:
        label_type = "continuous"
    if label_type != "continuous" and n_labels >= 2 and X.shape[1] and not np.isnan(X).any():
        return _relieff_classes(X, y, k)
    from skrebate import ReliefF

    est = ReliefF(n_features_to_select=min(10, X.shape[1]), n_neighbors=k, n_jobs=n_jobs)
    if task is not None and "label_type" in est.get_params():
        est.set_params(label_type=label_type)
    est.fit(X, y)
    return np.nan_to_num(np.asarray(est.feature_importances_, dtype=np.float64), nan=0.0)


#: skrebate's ``categorical_threshold``: columns with at most this many distinct
#: values are "categorical" to it.
_RELIEFF_CATEGORICAL = 10


def _relieff_classes(X, y, k: int) -> np.ndarray:
    """skrebate's ReliefF (0.8) for a binary or multiclass target on data without missing
    values, vectorized over the columns.

    The same steps in the same order: a column with at most 10 distinct values is
    categorical (difference 0/1), any other continuous (|difference| / range; on a
    table of both kinds 1 when the |difference| exceeds the column's standard
    deviation, skrebate's ramp). The distance array: Hamming over categorical
    columns, Manhattan over continuous ones scaled to [0, 1], on a mixed table the
    Hamming fraction times the number of columns plus the Manhattan sum. Each row's
    neighbours: skrebate's ``argsort`` walk, keeping the first ``k`` rows of each
    class (the row itself last, at ``sys.maxsize``: counted as a hit when its
    class has at most ``k`` other rows). Per row: minus the hits' mean
    difference plus, for each other class c with ``m_c`` neighbours among ``M``
    misses, ``sum_c(diff) * (m_c / M) * (classes - 1) / M`` (two classes: the
    misses' mean); the rows' terms divided by n and summed."""
    import sys

    from scipy.spatial.distance import pdist, squareform

    n, d = X.shape
    labels, code = np.unique(y, return_inverse=True)
    n_classes = len(labels)
    S = np.sort(X, axis=0)
    categorical = 1 + (S[1:] != S[:-1]).sum(axis=0) <= _RELIEFF_CATEGORICAL
    cont = ~categorical
    lo, span = X.min(axis=0), X.max(axis=0) - X.min(axis=0)
    if categorical.all():
        dist = squareform(pdist(X, metric="hamming"))
    else:
        scaled = (X[:, cont] - lo[cont]) / span[cont]
        dist = squareform(pdist(scaled, metric="cityblock"))
        if categorical.any():
            dist = np.add(squareform(pdist(X[:, categorical], metric="hamming")) * d, dist)
    np.fill_diagonal(dist, float(sys.maxsize))
    mixed = bool(categorical.any() and cont.any())
    # per column: 0 categorical (0/1), 1 continuous (|diff| / range), 2 continuous on a
    # mixed table (skrebate's ramp: 1 above the column's standard deviation)
    kind = np.where(categorical, 0, 2 if mixed else 1).astype(np.int8)
    span_c = np.where(cont, span, 1.0)
    eye = np.eye(n_classes, dtype=bool)
    rows = np.full((n, min(n, k * n_classes + 1)), -1, dtype=np.int64)
    weights = np.zeros(rows.shape)
    for i in range(n):
        order = np.argsort(dist[i])
        onehot = eye[code[order]]
        keep = onehot & (np.cumsum(onehot, axis=0) <= k)
        counts = keep.sum(axis=0)
        m = counts.sum() - counts[code[i]]
        # hits: -1 / hits; misses of class c: (m_c / M) * (classes - 1) / M
        w_class = np.where(np.arange(n_classes) == code[i], -1.0 / counts[code[i]],
                           counts / m * (n_classes - 1) / m if m else 0.0)
        nb = order[keep.any(axis=1)]
        rows[i, :len(nb)] = nb
        weights[i, :len(nb)] = w_class[code[nb]] / n
    scores = np.zeros(d)
    _relieff_accumulate(X, rows, weights, kind, span_c, X.std(axis=0), scores)
    return scores


@njit(cache=True, nogil=True)
def _relieff_accumulate(X, rows, weights, kind, span, sd, out):  # pragma: no cover - numba
    """``out[f] += weights[i, q] * diff_f(X[i], X[rows[i, q]])`` over rows ``i`` and their
    neighbours ``q`` (``rows`` padded with -1), the difference of :func:`_relieff_classes`."""
    for i in range(X.shape[0]):
        for q in range(rows.shape[1]):
            j = rows[i, q]
            if j < 0:
                break
            w = weights[i, q]
            for f in range(X.shape[1]):
                a = abs(X[i, f] - X[j, f])
                if kind[f] == 0:
                    v = 1.0 if a != 0.0 else 0.0
                elif kind[f] == 1:
                    v = a / span[f]
                else:
                    v = 1.0 if a > sd[f] else a / span[f]
                out[f] += w * v
