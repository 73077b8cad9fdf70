"""Univariate scores of each column against the target: MI, |correlation|, purity gain.

Seed ``002_2595f2849cd4c4da.txt`` FS17 (purity gain); seed 000 §4.1 (MI and CC baselines).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.feature_selection import mutual_info_classif, mutual_info_regression


def _impurity(counts: np.ndarray) -> np.ndarray:
    """Gini impurity 1 - sum p_k^2 of rows of class counts (0 for empty rows)."""
    tot = counts.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tot > 0, counts / np.maximum(tot, 1), 0.0)
    return 1.0 - (p**2).sum(axis=-1)


def stump_gain_scores(X, y, *, min_samples_leaf: int = 20, thresholds: str = "seed",
                      task: str = "classification", sample_weight=None) -> np.ndarray:
    """Largest impurity decrease of one split on each column (seed 002 FS17).

    For a column and a threshold ``v`` the rows split into ``x < v`` and
    ``x >= v``; the gain is ``G(all) - (n_L G(L) + n_R G(R)) / n`` where ``G``
    is the Gini impurity ``1 - sum_k p_k^2`` for classes (``2p(1-p)`` for two
    classes, as in the seed's ``gini``) or the variance for regression. Splits
    with fewer than ``min_samples_leaf`` rows on a side are skipped; a column
    with no admissible split scores 0.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class codes (classification) or numbers (regression).
    min_samples_leaf : int, default=20
        Fewest rows on each side (FS17: 20).
    thresholds : {"seed", "all"}, default="seed"
        ``"seed"``: the seed's candidates, i.e. every distinct value but the
        smallest when a column has fewer than 10 distinct values, else the 9
        values at positions ``int(i * m / 10)``, i = 1..9, of its ``m`` sorted
        distinct values. ``"all"``: every distinct value (the exact best stump).
    task : {"classification", "regression"}, default="classification"
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Row weights: class proportions, variances and the sides' shares are
        weighted (``min_samples_leaf`` still counts rows).

    Returns
    -------
    scores : ndarray of shape (n_features,)
        Impurity decrease (dimensionless Gini units for classes, units of
        ``y`` squared for regression).

    References
    ----------
    Seed 002, FS17 and its ``score`` function.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    n, d = X.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, np.float64)
    w = w * n / w.sum()  # mean 1: the unweighted formulas are the case w = 1
    if task == "classification":
        codes = np.unique(y, return_inverse=True)[1]
        Y = np.eye(codes.max() + 1)[codes] * w[:, None]  # weighted one-hot, (n, k)
    else:
        yf = y.astype(np.float64)
        Y = np.column_stack([w, w * yf, w * yf**2])
    scores = np.zeros(d)
    for j in range(d):
        order = np.argsort(X[:, j], kind="mergesort")
        xs = X[order, j]
        cum = np.cumsum(Y[order], axis=0)  # cum[i] = stats of the first i+1 rows
        wcum = np.cumsum(w[order])
        uniq = np.unique(xs)
        if thresholds == "seed" and len(uniq) >= 10:
            cand = uniq[[int(i * len(uniq) / 10) for i in range(1, 10)]]
        else:
            cand = uniq[1:]
        if cand.size == 0:
            continue
        n_left = np.searchsorted(xs, cand, side="left")
        ok = (n_left >= min_samples_leaf) & (n - n_left >= min_samples_leaf)
        if not ok.any():
            continue
        n_left = n_left[ok]
        left = cum[n_left - 1]
        total = cum[-1]
        right = total - left
        if task == "classification":
            w_left = wcum[n_left - 1]
            parent = _impurity(total[None, :])[0]
            child = (w_left * _impurity(left) + (wcum[-1] - w_left) * _impurity(right)) / n
        else:
            def _sse(s):
                return s[..., 2] - s[..., 1] ** 2 / s[..., 0]
            parent = _sse(total) / n
            child = (_sse(left) + _sse(right)) / n
        scores[j] = max(0.0, float(np.max(parent - child)))
    return scores


def _category_association(codes, y, task: str, w=None) -> float:
    """Bias-corrected Cramér's V of a categorical column with classes (Bergsma 2013), or the
    bias-corrected correlation ratio (epsilon squared, its square root) with a numeric target.

    Both are in [0, 1], 1 when the column determines the target. The corrections
    remove what a column with many categories gains by chance on the rows it is
    scored on: without them a nearly unique text column (a ticket number, a
    surname) would score almost 1.
    """
    cats, x = np.unique(codes, return_inverse=True)
    if len(cats) < 2:
        return 0.0
    n = len(x)
    if n < 3:
        return 0.0
    w = np.ones(n) if w is None else np.asarray(w, np.float64) * n / np.sum(w)
    if task == "classification":
        classes, t = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            return 0.0
        table = np.zeros((len(cats), len(classes)))
        np.add.at(table, (x, t), w)
        expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / n
        phi2 = ((table - expected) ** 2 / expected).sum() / n
        r, k = table.shape
        phi2 = max(0.0, phi2 - (k - 1) * (r - 1) / (n - 1))
        rc, kc = r - (r - 1) ** 2 / (n - 1), k - (k - 1) ** 2 / (n - 1)
        denom = min(kc - 1, rc - 1)
        return float(np.sqrt(min(1.0, phi2 / denom))) if denom > 0 else 0.0
    yf = np.asarray(y, dtype=np.float64)
    mean = (w @ yf) / n
    total = (w * (yf - mean) ** 2).sum()
    g = len(cats)
    if total <= 0 or n <= g:
        return 0.0
    counts = np.bincount(x, weights=w)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, np.bincount(x, weights=w * yf) / counts, mean)
    between = (counts * (means - mean) ** 2).sum()
    within = total - between
    eps2 = (between - (g - 1) * within / (n - g)) / total
    return float(np.sqrt(min(1.0, max(0.0, eps2))))


def abs_correlation_scores(X, y, *, task: str = "regression", categorical=None,
                           sample_weight=None) -> np.ndarray:
    """Absolute Pearson correlation of each column with the target (the CC baseline).

    For more than two classes the score is the largest absolute correlation
    with a one-vs-rest class indicator. A categorical column (codes) gets the
    association of a category with the target instead, on the same 0-1 scale:
    Cramér's V with classes, the correlation ratio eta with a numeric target, both
    bias-corrected (a column with many categories gains nothing by chance).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    task : {"classification", "regression"}, default="regression"
    categorical : array-like of bool, shape (n_features,), or None, default=None
        Columns holding category codes.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Row weights: weighted means and (co)variances; for a categorical column
        a weighted contingency table or weighted group means (weights rescaled
        to sum to the number of rows, which the bias corrections use).

    Returns
    -------
    scores : ndarray of shape (n_features,) in [0, 1]
        0 for constant columns.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1.0], [1, 2.0], [2, 0.5], [0, 1.5], [1, 3.0], [2, 0.0]])
    >>> y = np.array([0, 1, 2, 0, 1, 2])
    >>> abs_correlation_scores(X, y, task="classification", categorical=[True, False])[0]
    np.float64(1.0)
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, np.float64)
    w = w * n / w.sum()
    if categorical is not None and np.any(categorical):
        cat = np.asarray(categorical, dtype=bool)
        out = np.zeros(X.shape[1])
        if (~cat).any():
            out[~cat] = abs_correlation_scores(X[:, ~cat], y, task=task, sample_weight=w)
        for j in np.flatnonzero(cat):
            out[j] = _category_association(X[:, j], np.asarray(y), task, w)
        return out
    # correlation is scale-free: rescale each column to max |x| = 1 so that squares of huge
    # values (1e308) cannot overflow
    scale = np.max(np.abs(X), axis=0)
    X = X / np.where(scale > 0, scale, 1.0)
    y = np.asarray(y)
    if task == "classification" and len(np.unique(y)) > 2:
        T = (y[:, None] == np.unique(y)[None, :]).astype(np.float64)
    else:
        T = y.astype(np.float64)[:, None]
    Xc = X - (w @ X) / n
    Tc = T - (w @ T) / n
    xs = np.sqrt(w @ Xc**2)
    ts = np.sqrt(w @ Tc**2)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = ((Xc * w[:, None]).T @ Tc) / np.outer(xs, ts)
    return np.nan_to_num(np.abs(r), nan=0.0).max(axis=1)


#: Permutations of the target that estimate a categorical column's chance-level MI.
MI_PERMUTATIONS = 8
#: Rows up to which :func:`mutual_info_scores` runs the k-NN estimator on all
#: columns at once (pairwise distances) rather than one KD-tree per column.
MI_BLOCK_ROWS = 512


def _tree_path(y, n_neighbors=3) -> bool:
    """Whether scikit-learn finds every class's neighbours with its KD-tree: a class
    of c > 1 rows takes its brute-force path (squared norms minus twice the dot
    product, which rounds differently) when ``min(k, c - 1) >= c // 2``."""
    counts = np.unique(np.asarray(y), return_counts=True)[1]
    counts = counts[counts > 1]
    return bool(np.all(np.minimum(n_neighbors, counts - 1) < counts // 2))


def _mi_classif_block(X, y, *, n_neighbors=3, random_state=None, max_bytes=2**25):
    """scikit-learn's ``mutual_info_classif`` on continuous columns, every column
    at once: the same numbers, computed from pairwise distances column by column
    (the counts held for blocks of ``max_bytes``) instead of a KD-tree per column.

    It repeats scikit-learn's steps exactly (scaling by the standard deviation,
    the seeded 1e-10 jitter drawn for the whole matrix, Ross's estimator with
    ``k = min(n_neighbors, class count - 1)``, rows of single-row classes left
    out, ``nextafter`` radius, counts that include the row itself and compare
    squared distances as its KD-tree does), so the scores equal its scores
    when it finds every class's neighbours with its KD-tree (every class of
    more than one row has at least 2k + 2 rows; :func:`mutual_info_scores`
    uses this function only then; ``tests/test_wide_kernels.py`` checks). It pays
    when rows are few and columns many (wide tables), where the per-column
    tree dominates; cost O(n^2) per column, in a compiled loop (:func:`_mi_counts`).
    """
    from scipy.special import digamma
    from sklearn.preprocessing import scale
    from sklearn.utils import check_random_state

    X = np.array(X, dtype=np.float64)  # a copy: scaled and jittered in place
    y = np.asarray(y)
    n, d = X.shape
    rng = check_random_state(random_state)
    X = scale(X, with_mean=False, copy=False)
    X += 1e-10 * np.maximum(1, np.mean(np.abs(X), axis=0)) * rng.standard_normal(size=(n, d))
    labels, codes, counts = np.unique(y, return_inverse=True, return_counts=True)
    keep = counts[codes] > 1  # rows of a single-row class are left out
    X, codes = X[keep], codes[keep]
    m = X.shape[0]
    out = np.zeros(d)
    if m == 0:
        return out
    label_counts = counts[codes].astype(np.float64)
    k_all = np.minimum(n_neighbors, label_counts - 1)
    const = digamma(m) + digamma(k_all).mean() - digamma(label_counts).mean()
    k_rows = k_all.astype(np.int64)
    block = max(1, int(max_bytes // (8 * m)))
    for start in range(0, d, block):
        Xb = np.ascontiguousarray(X[:, start:start + block].T)  # (b, m)
        m_all = np.empty(Xb.shape, dtype=np.int64)
        _mi_counts(Xb, codes.astype(np.int64), k_rows, m_all)
        out[start:start + block] = np.maximum(0.0, const - digamma(m_all).mean(axis=1))
    return out


@njit(cache=True, nogil=True)
def _mi_counts(Xt, codes, k_rows, out):  # pragma: no cover - numba
    """Ross's counts for every column ``f`` (row of ``Xt``) and row ``i``: the rows
    (itself included) whose squared distance is at most the squared radius
    ``nextafter(sqrt(d_k), 0)``, ``d_k`` the ``k_rows[i]``-th smallest squared distance
    to another row of its class -- what scikit-learn's KD-trees find."""
    m = Xt.shape[1]
    top = np.empty(max(1, k_rows.max()))
    for f in range(Xt.shape[0]):
        x = Xt[f]
        for i in range(m):
            k = k_rows[i]
            nb = 0
            for j in range(m):  # the k smallest, kept sorted (ties kept: a multiset)
                if j == i or codes[j] != codes[i]:
                    continue
                v = x[i] - x[j]
                v = v * v
                if nb < k:
                    p = nb
                    nb += 1
                elif v < top[k - 1]:
                    p = k - 1
                else:
                    continue
                while p > 0 and top[p - 1] > v:
                    top[p] = top[p - 1]
                    p -= 1
                top[p] = v
            r = np.nextafter(np.sqrt(top[k - 1]), 0.0)
            r2 = r * r
            cnt = 0
            for j in range(m):
                v = x[i] - x[j]
                if v * v <= r2:
                    cnt += 1
            out[f, i] = cnt


def _noised_target(y, rng) -> np.ndarray:
    """scikit-learn's continuous target for its MI estimator: scaled by its standard
    deviation and jittered by ``1e-10 * max(1, mean |y|)`` standard normals from ``rng``."""
    from sklearn.preprocessing import scale

    c = scale(np.asarray(y, dtype=np.float64), with_mean=False)
    return c + 1e-10 * np.maximum(1, np.mean(np.abs(c))) * rng.standard_normal(size=c.shape[0])


def _mi_discrete_continuous(D, c, n_neighbors=3) -> np.ndarray:
    """Ross's MI of each discrete column of ``D`` (n, d) with one continuous variable
    ``c`` (n,), nats, clipped at 0: scikit-learn's ``_compute_mi_cd(c, D[:, j])``.

    In one dimension every step is a walk on ``c`` sorted once: the ``k``-th
    nearest same-level neighbour merges the nearer of the left and right
    neighbours ``k`` times, and the rows within the radius
    (``nextafter(d_k, 0)``, squared distances compared as a KD-tree compares
    them) are two binary searches. O(n log n) per column instead of one tree
    per level. Levels of one row are left out, as there. Equal to scikit-learn
    where its KD-trees find the neighbours (levels of at least 8 rows for
    ``n_neighbors=3``); on rarer levels its brute-force distances
    (``x^2 - 2xy + y^2``) round differently, which can move a count by one.
    """
    from scipy.special import digamma

    D = np.asarray(D)
    n, d = D.shape
    order = np.argsort(c, kind="stable")
    cs = np.ascontiguousarray(c[order], dtype=np.float64)
    out = np.zeros(d)
    for j in range(d):
        _, codes = np.unique(D[order, j], return_inverse=True)
        codes = codes.astype(np.int64).ravel()
        counts = np.bincount(codes).astype(np.int64)
        m_all = np.zeros(n, dtype=np.int64)
        k_all = np.zeros(n, dtype=np.int64)
        _mi_cd_counts(cs, codes, counts, n_neighbors, m_all, k_all)
        keep = counts[codes] > 1
        m = int(keep.sum())
        if m == 0:
            continue
        mi = (digamma(m) + digamma(k_all[keep]).mean() - digamma(counts[codes][keep]).mean()
              - digamma(m_all[keep]).mean())
        out[j] = max(0.0, mi)
    return out


@njit(cache=True, nogil=True)
def _mi_cd_counts(cs, codes, counts, n_neighbors, m_all, k_all):  # pragma: no cover - numba
    """For sorted ``cs`` and each row's level ``codes``: ``k_all`` (min(k, count - 1)) and
    ``m_all``, the rows of levels with more than one row within the row's radius."""
    n = cs.shape[0]
    n_levels = counts.shape[0]
    start = np.zeros(n_levels + 1, dtype=np.int64)  # rows of each level, in sorted order
    for lv in range(n_levels):
        start[lv + 1] = start[lv] + counts[lv]
    fill = start[:-1].copy()
    pos = np.empty(n, dtype=np.int64)
    for i in range(n):
        pos[fill[codes[i]]] = i
        fill[codes[i]] += 1
    kept = np.empty(n, dtype=np.float64)  # the values of rows of levels with > 1 row
    nk = 0
    for i in range(n):
        if counts[codes[i]] > 1:
            kept[nk] = cs[i]
            nk += 1
    kept = kept[:nk]
    for lv in range(n_levels):
        cnt = counts[lv]
        if cnt < 2:
            continue
        k = min(n_neighbors, cnt - 1)
        a = start[lv]
        brute = k >= cnt // 2  # scikit-learn's NearestNeighbors takes its brute-force path
        for p in range(cnt):
            i = pos[a + p]
            x = cs[i]
            if brute:  # its distances: sqrt(max(0, (x^2 - 2 x z) + z^2)), k-th smallest
                top = np.full(k, np.inf)
                for q in range(cnt):
                    if q == p:
                        continue
                    z = cs[pos[a + q]]
                    v = (x * x + (-2.0 * (x * z))) + z * z
                    v = max(v, 0.0)
                    if v < top[k - 1]:
                        t = k - 1
                        while t > 0 and top[t - 1] > v:
                            top[t] = top[t - 1]
                            t -= 1
                        top[t] = v
                dk = np.sqrt(top[k - 1])
            else:  # its KD-tree: merge the left and right distances, nearest first
                lo, hi = p - 1, p + 1
                dk = 0.0
                for _ in range(k):
                    dl = x - cs[pos[a + lo]] if lo >= 0 else np.inf
                    dr = cs[pos[a + hi]] - x if hi < cnt else np.inf
                    if dl <= dr:
                        dk = abs(dl)
                        lo -= 1
                    else:
                        dk = abs(dr)
                        hi += 1
            r = np.nextafter(dk, 0.0)
            r2 = r * r
            # first index with (kept - x)^2 <= r2 on the left side, last on the right
            left, right = 0, nk
            while left < right:
                mid = (left + right) // 2
                v = kept[mid] - x
                if v < 0 and v * v > r2:
                    left = mid + 1
                else:
                    right = mid
            first = left
            left, right = first, nk
            while left < right:
                mid = (left + right) // 2
                v = kept[mid] - x
                if v <= 0 or v * v <= r2:
                    left = mid + 1
                else:
                    right = mid
            m_all[i] = left - first
            k_all[i] = k


def _mi_regression_mixed(X, y, disc, random_state, n_jobs) -> np.ndarray:
    """``mutual_info_regression(X, y, discrete_features=disc)``: the continuous columns
    by scikit-learn, the discrete ones by :func:`_mi_discrete_continuous` on the target
    jittered as scikit-learn jitters it (the same random stream: the continuous columns'
    jitter first, then the target's)."""
    from sklearn.utils import check_random_state

    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    cont = ~disc
    rng = check_random_state(random_state)
    mi = np.zeros(X.shape[1])
    if cont.any():
        saved = rng.get_state()
        mi[cont] = mutual_info_regression(X[:, cont], y, discrete_features=False,
                                          random_state=rng, n_jobs=n_jobs)
        rng = np.random.RandomState()
        rng.set_state(saved)
        rng.standard_normal(size=(n, int(cont.sum())))
    mi[disc] = _mi_discrete_continuous(X[:, disc], _noised_target(y, rng))
    return mi


def mutual_info_scores(X, y, *, task: str = "classification", random_state=None, n_jobs=None,
                       discrete=None):
    """Mutual information of each column with the target, in nats (the MI baseline).

    Seed 000 §4.1 (the MI baseline). Numeric columns: scikit-learn's
    ``mutual_info_classif``/``mutual_info_regression`` (k-nearest-neighbour
    estimator, 3 neighbours), as they are. ``discrete`` (a bool mask, e.g.
    categorical and boolean columns) is its ``discrete_features``: those columns
    are counted, not smoothed, and their score is **permutation-adjusted**: the
    counted MI minus its chance level, the mean MI of the column against
    ``MI_PERMUTATIONS`` (8) seeded permutations of the target, clipped at 0 (as
    adjusted mutual information subtracts the expected MI). A column with many
    levels (a ticket number, a random code) has a large MI with any target by
    chance; adjusted, it scores near 0 unless it carries a real signal.
    Against a regression target the discrete columns' estimates (and their
    permutations') come from :func:`_mi_discrete_continuous`, a walk on the
    sorted target equal to scikit-learn's per-level neighbour searches (tested
    at 1e-12), O(n log n) per column instead of one tree per level.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Class codes (classification) or numbers (regression).
    task : {"classification", "regression"}, default="classification"
    random_state : int, RandomState or None, default=None
        Seeds the estimator's noise and the permutations (None: the
        permutations use seed 0), so a given ``random_state`` gives the same
        scores for any ``n_jobs``.
    n_jobs : int or None, default=None
    discrete : bool mask of shape (n_features,) or None, default=None
        None or no True entry: scikit-learn's ``"auto"`` (no adjustment). For a
        regression target, a discrete column whose every level occurs once
        scores 0 (the estimator leaves such rows out, so nothing is left).

    Returns
    -------
    scores : ndarray of float64, shape (n_features,)
    """
    fn = mutual_info_classif if task == "classification" else mutual_info_regression
    disc = "auto" if discrete is None or not np.any(discrete) else np.asarray(discrete, bool)
    if task != "classification" and not isinstance(disc, str):
        # scikit-learn's estimator leaves out the rows of a level seen once; a discrete
        # column whose every level is seen once leaves nothing (it raises): MI 0
        Xa = np.asarray(X)
        lonely = np.array([bool(disc[j]) and np.unique(Xa[:, j], return_counts=True)[1].max() < 2
                           for j in range(Xa.shape[1])])
        if lonely.any():
            out = np.zeros(Xa.shape[1])
            if (~lonely).any():
                out[~lonely] = mutual_info_scores(Xa[:, ~lonely], y, task=task,
                                                  random_state=random_state, n_jobs=n_jobs,
                                                  discrete=disc[~lonely])
            return out
    if (task == "classification" and isinstance(disc, str) and hasattr(X, "shape")
            and np.shape(X)[0] <= MI_BLOCK_ROWS and not hasattr(X, "tocsr")
            and np.shape(X)[1] > 1 and _tree_path(y)):  # "auto": dense means continuous
        return _mi_classif_block(X, y, random_state=random_state)
    regression_1d = task != "classification" and not isinstance(disc, str) and not hasattr(
        X, "tocsr")  # discrete columns against a continuous target: the sorted walk
    if regression_1d:
        mi = _mi_regression_mixed(X, y, disc, random_state, n_jobs)
    else:
        mi = np.asarray(fn(X, y, discrete_features=disc, random_state=random_state,
                           n_jobs=n_jobs), dtype=np.float64)
    if isinstance(disc, str):
        return mi
    cols = np.flatnonzero(disc)
    rng = (random_state if isinstance(random_state, np.random.RandomState)
           else np.random.RandomState(0 if random_state is None else random_state))
    Xd = X[:, cols] if hasattr(X, "shape") else np.asarray(X)[:, cols]
    y = np.asarray(y)
    chance = np.zeros(cols.size)
    for _ in range(MI_PERMUTATIONS):
        seed = int(rng.randint(np.iinfo(np.int32).max))
        if regression_1d:
            chance += _mi_discrete_continuous(
                Xd, _noised_target(y[rng.permutation(y.shape[0])], np.random.RandomState(seed)))
        else:
            chance += fn(Xd, y[rng.permutation(y.shape[0])], discrete_features=True,
                         random_state=seed, n_jobs=n_jobs)
    mi[cols] = np.maximum(mi[cols] - chance / MI_PERMUTATIONS, 0.0)
    return mi
