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
    Time O(n^2 d) for n rows, d columns.

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
    est = ReliefF(n_features_to_select=min(10, X.shape[1]), n_neighbors=k, n_jobs=n_jobs)
    est.fit(X, y)
    return np.nan_to_num(np.asarray(est.feature_importances_, dtype=np.float64), nan=0.0)
