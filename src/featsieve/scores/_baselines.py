"""Scores of the similarity-based baselines of seed 001 §5.2 (k-best, ReliefF).

Pure functions ``(X, y) -> one score per column`` (STYLE.md habit 4), so they
plug into :class:`featsieve.UnivariateFilter` and scikit-learn's ``SelectKBest``.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["anova_f_scores", "relieff_scores"]


def anova_f_scores(X, y, *, task: str = "classification") -> np.ndarray:
    """ANOVA F statistic of each column (scikit-learn ``f_classif``/``f_regression``).

    The k-best baseline of seed 001 §5.2 (scikit-learn's ``SelectKBest`` with
    its default score). Constant columns score 0.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    task : {"classification", "regression"}, default="classification"

    Returns
    -------
    scores : ndarray of shape (n_features,)
    """
    from sklearn.feature_selection import f_classif, f_regression

    fn = f_classif if task == "classification" else f_regression
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        F, _ = fn(np.asarray(X, dtype=np.float64), y)
    # a perfect separator has F = inf: it ranks first, not last
    return np.nan_to_num(np.asarray(F, dtype=np.float64), nan=0.0,
                         posinf=np.finfo(np.float64).max)


def relieff_scores(X, y, *, n_neighbors: int = 100, max_samples: int | None = None,
                   random_state=None, n_jobs: int = 1) -> np.ndarray:
    """ReliefF feature weights from ``skrebate`` (the maintained implementation).

    Seed 001 §5.2 compares FASTENER with ReliefF on EO data, run on 20 % of the
    training rows because ReliefF is quadratic in the rows; ``max_samples``
    does the same (a seeded random subset).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Classes or numbers (skrebate decides from the number of distinct values).
    n_neighbors : int, default=100
        skrebate's default; capped at ``n_rows - 1``.
    max_samples : int or None, default=None
        Rows used; None: all.
    random_state : int, RandomState or None, default=None
        For the row subset.
    n_jobs : int, default=1

    Returns
    -------
    scores : ndarray of shape (n_features,)
        ReliefF weights (higher is more relevant; may be negative).

    Raises
    ------
    ImportError
        skrebate is not installed (``pip install skrebate``).

    Notes
    -----
    Time O(n^2 d) for n rows, d columns. On its most common input (two classes,
    no missing value, every column with more than 10 distinct values: skrebate's
    "continuous" data) the same scores come from featsieve's vectorized
    implementation of skrebate's steps (:func:`_relieff_binary_continuous`;
    equal to skrebate to 1e-9, ``tests/test_id_missing_mi.py``): skrebate
    scores one column at a time in Python, which on a wide table (10^5 columns)
    takes minutes. Every other input goes to skrebate.

    References
    ----------
    Seed 001 §2.2, §5.2; Kononenko (1994), ReliefF; Urbanowicz et al. (2018),
    skrebate.
    """
    from skrebate import ReliefF

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if max_samples is not None and X.shape[0] > max_samples:
        rows = np.sort(check_random_state(random_state).choice(X.shape[0], max_samples,
                                                               replace=False))
        X, y = X[rows], y[rows]
    k = max(1, min(int(n_neighbors), X.shape[0] - 1))
    if _binary_continuous(X, y):
        return _relieff_binary_continuous(X, y, k)
    est = ReliefF(n_features_to_select=min(10, X.shape[1]), n_neighbors=k, n_jobs=n_jobs)
    est.fit(X, y)
    return np.nan_to_num(np.asarray(est.feature_importances_, dtype=np.float64), nan=0.0)


#: skrebate's ``categorical_threshold``: columns with at most this many distinct
#: values are "categorical" to it.
_RELIEFF_CATEGORICAL = 10


def _binary_continuous(X, y) -> bool:
    """Two classes, no NaN and every column skrebate calls continuous."""
    if len(set(y.tolist())) != 2 or X.shape[1] == 0 or np.isnan(X).any():
        return False
    S = np.sort(X, axis=0)
    distinct = 1 + (S[1:] != S[:-1]).sum(axis=0)
    return bool((distinct > _RELIEFF_CATEGORICAL).all())


def _relieff_binary_continuous(X, y, k: int) -> np.ndarray:
    """skrebate's ReliefF (0.62) for two classes on continuous columns, vectorized
    over the columns: the same distance array (Manhattan distance of the columns
    scaled to [0, 1]), the same neighbours (its ``argsort`` walk keeping the first
    ``k`` hits and ``k`` misses), and per row the hits' and misses' mean
    |difference| / range, (misses - hits) / n, summed over the rows."""
    from scipy.spatial.distance import pdist, squareform

    n = X.shape[0]
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = hi - lo
    dist = squareform(pdist((X - lo) / span, metric="cityblock"))
    np.fill_diagonal(dist, float(np.iinfo(np.int64).max))  # skrebate: sys.maxsize
    scores = np.zeros(X.shape[1])
    for i in range(n):
        hits, misses = [], []
        for j in np.argsort(dist[i]):
            near = hits if y[j] == y[i] else misses
            if len(near) < k:
                near.append(j)
            if len(hits) >= k and len(misses) >= k:
                break
        part = np.zeros(X.shape[1])
        ch, cm = len(hits), len(misses)
        if ch:
            part -= (np.abs(X[i] - X[hits]) / span).sum(axis=0) / ch
        if cm:
            part += (np.abs(X[i] - X[misses]) / span).sum(axis=0) / cm
        scores += part / n
    return scores
