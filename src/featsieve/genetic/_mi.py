"""Mutual information of each continuous feature with a class target, by sorting.

The estimator is scikit-learn's ``mutual_info_classif`` (Ross 2014, the k-NN
estimator for a continuous x and a discrete y), which seed 001 §3.3 uses for
the crossover weights: the same scaling, the same seeded tie-breaking noise,
the same k-th-neighbour radius and neighbour counts. Only the neighbour search
differs: in one dimension the k nearest neighbours of a point are among the k
points on either side of it in sorted order, and the points within a radius
are a contiguous run of the sorted column, so a sort and ``searchsorted``
replace the per-class ``NearestNeighbors`` and the ``KDTree`` that
scikit-learn builds for every feature. The values agree with scikit-learn's to
rounding (see the tests); the cost is one sort per feature.
"""

from __future__ import annotations

import numpy as np
from scipy.special import digamma
from sklearn.preprocessing import scale
from sklearn.utils import check_random_state

__all__ = ["mutual_info_classif_sorted"]


def mutual_info_classif_sorted(X, y, *, n_neighbors: int = 3, random_state=None) -> np.ndarray:
    """Mutual information (nats) of every column of ``X`` with the classes ``y``.

    Same estimator, preprocessing and random draws as
    ``sklearn.feature_selection.mutual_info_classif(X, y, n_neighbors=...,
    random_state=...)`` with every feature continuous.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Dense, finite.
    y : array-like of shape (n_samples,)
        Class labels.
    n_neighbors : int, default=3
        k of the k-NN estimator.
    random_state : int, RandomState or None, default=None
        Seeds the tie-breaking noise (1e-10 of the column scale), as in
        scikit-learn.

    Returns
    -------
    mi : ndarray of shape (n_features,)
        Non-negative estimates in nats.

    Notes
    -----
    O(n log n) per feature (a sort) and O(n) memory per feature, instead of
    one nearest-neighbour index per class and one KD-tree per feature. Up to
    ``MI_BLOCK_ROWS`` (512) rows, where scikit-learn's KD-tree path applies,
    :func:`featsieve.scores._univariate._mi_classif_block` computes the same
    numbers for every column in one compiled loop (a wide table's columns
    cost no Python call each).

    References
    ----------
    B. C. Ross, "Mutual Information between Discrete and Continuous Data Sets",
    PLoS ONE 9(2), 2014; seed 001 §3.3 (crossover weights).
    """
    from ..scores._univariate import MI_BLOCK_ROWS, _mi_classif_block, _tree_path

    if np.shape(X)[0] <= MI_BLOCK_ROWS and _tree_path(y, n_neighbors):  # few rows: all
        # columns at once in a compiled loop (no per-column Python call), the same numbers
        return _mi_classif_block(X, y, n_neighbors=n_neighbors, random_state=random_state)
    X = np.array(X, dtype=np.float64)  # a copy, as scikit-learn's copy=True
    n, d = X.shape
    rng = check_random_state(random_state)
    X = scale(X, with_mean=False, copy=False)
    means = np.maximum(1, np.mean(np.abs(X), axis=0))
    X += 1e-10 * means * rng.standard_normal(size=(n, d))
    _, codes = np.unique(np.asarray(y), return_inverse=True)
    codes = codes.ravel()
    counts = np.bincount(codes)
    keep = counts[codes] > 1  # points of single-point classes are ignored
    return np.array([_mi_cd(X[:, j], codes, counts, keep, n_neighbors) for j in range(d)])


def _mi_cd(c, codes, counts, keep, n_neighbors):
    n = c.shape[0]
    # sort by (class, value): each class is a contiguous sorted run
    order = np.lexsort((c, codes))
    s = c[order]
    cls = codes[order]
    start = np.searchsorted(cls, cls, side="left")
    end = np.searchsorted(cls, cls, side="right")
    pos = np.arange(n)
    k_pt = np.minimum(n_neighbors, counts[cls] - 1)
    kmax = int(k_pt.max()) if n else 0
    cand = np.full((2 * max(kmax, 1), n), np.inf)
    for j in range(1, kmax + 1):
        left = pos - j
        ok = left >= start
        cand[2 * j - 2, ok] = np.abs(s[ok] - s[left[ok]])
        right = pos + j
        ok = right < end
        cand[2 * j - 1, ok] = np.abs(s[right[ok]] - s[ok])
    cand.sort(axis=0)
    valid = k_pt > 0
    radius = np.empty(n)
    radius[valid] = np.nextafter(cand[k_pt[valid] - 1, pos[valid]], 0)
    # back to the original order, dropping single-point classes
    r = np.empty(n)
    r[order] = radius
    k_all = np.empty(n)
    k_all[order] = k_pt
    r, k_all, x = r[keep], k_all[keep], c[keep]
    label_counts = counts[codes[keep]]
    m = x.shape[0]
    srt = np.sort(x)
    lo = np.searchsorted(srt, x - r, side="left")
    hi = np.searchsorted(srt, x + r, side="right")
    # x -/+ r is rounded: settle the two boundary points with the distance itself
    # (scikit-learn counts the points at distance <= r)
    for _ in range(2):
        inc = (lo > 0) & (np.abs(x - srt[np.maximum(lo - 1, 0)]) <= r)
        lo = lo - inc
        exc = (lo < hi) & (np.abs(x - srt[np.minimum(lo, m - 1)]) > r)
        lo = lo + exc
        inc = (hi < m) & (np.abs(srt[np.minimum(hi, m - 1)] - x) <= r)
        hi = hi + inc
        exc = (hi > lo) & (np.abs(srt[np.maximum(hi - 1, 0)] - x) > r)
        hi = hi - exc
    m_all = hi - lo
    mi = (digamma(m) + np.mean(digamma(k_all)) - np.mean(digamma(label_counts))
          - np.mean(digamma(m_all)))
    return max(0.0, float(mi))
