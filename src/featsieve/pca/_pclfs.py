"""Principal-component-loading selection: PCLFS and its smaller-subset extension PCLFS-ext.

Seed: ``003_94dbcfb9c5faa87c.txt`` ("Minimizing features while maintaining
performance in data classification problems"). Features are ordered by the sum
of the absolute loadings of the first two principal components (section
"PCLFS"); the nested subsets of the first i features, i = 1..n, are scored
(the grid scores g); PCLFS keeps the subset with the highest score, PCLFS-ext
(section "Suggested method", Steps 1-5, equations (1)-(2)) keeps a smaller
subset whose score lies within a tolerated drop per removed feature.

Public names: :func:`pca_loading_scores` (pure score, usable in
``SelectKBest``), :func:`pclfs_extended_size` (the extension's pure rule) and
the selector :class:`PCLFS`.
"""

from __future__ import annotations

import numbers

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.metrics import get_scorer
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import BaseSelector
from .._importance import model_importances
from .._utils import rank_from_scores
from ..scores import pca_loading_scores

__all__ = ["pclfs_extended_size", "PCLFS"]


# ----------------------------------------------------------- extension
def _extended_details(grid_scores, max_score_drop: float, sizes=None,
                      n_features: int | None = None) -> dict:
    """Every quantity of the extension's Steps 1-4 (for :func:`pclfs_extended_size` and plots).

    ``sizes``: the subset size of each grid score (default 1..len); neighbours
    in Step 1 are the adjacent grid points. ``n_features``: the n of ``t = T / n``
    (default the largest size).
    """
    g = np.asarray(grid_scores, dtype=np.float64)
    if g.ndim != 1 or g.size == 0:
        raise ValueError(f"grid_scores must be a non-empty 1-D array; got shape {g.shape}.")
    if not np.all(np.isfinite(g)):
        bad = np.flatnonzero(~np.isfinite(g)) + 1
        raise ValueError(f"grid_scores must be finite; subsets of sizes {bad.tolist()} are not.")
    if not isinstance(max_score_drop, numbers.Real) or not max_score_drop >= 0:
        raise ValueError(f"max_score_drop must be a number >= 0; got {max_score_drop!r}.")
    sizes = np.arange(1, g.size + 1) if sizes is None else np.asarray(sizes, dtype=np.int64)
    n = int(sizes[-1]) if n_features is None else int(n_features)
    best = int(np.argmax(g))  # first maximum: the smallest best subset
    n_pclfs = int(sizes[best])
    t = float(max_score_drop) / n
    left = np.concatenate([[-np.inf], g[:-1]])  # g_{j-1}; g_0 = -inf
    right = np.concatenate([g[1:], [-np.inf]])  # g_{j+1}
    local = (g > np.maximum(left, right)) & (sizes < n_pclfs)
    cands = sizes[local]
    grads = (g[best] - g[local]) / (n_pclfs - cands)
    ok = cands[grads < t]
    return {
        "n_pclfs": n_pclfs,
        "threshold": t,
        "local_maxima": cands,
        "gradients": grads,
        "accepted": ok,
        "size": int(ok[0]) if ok.size else n_pclfs,
        "fallback": not ok.size,
    }


def pclfs_extended_size(grid_scores, max_score_drop: float = 0.05) -> int:
    """Subset size chosen by PCLFS-ext from the PCLFS grid scores (seed 003, Steps 1-4).

    With ``g = grid_scores`` (``g[i-1]`` is the score of the first i features
    in PCLFS order), n = ``len(g)`` and n_pclfs the size with the highest score:

    1. candidates are the local maxima ``g_j > max(g_{j-1}, g_{j+1})`` with
       ``j < n_pclfs``;
    2. each candidate is joined to the maximum point; its gradient is
       ``(g_{n_pclfs} - g_j) / (n_pclfs - j)`` (equation (1));
    3. a candidate is kept when its gradient is strictly below
       ``t = max_score_drop / n`` (equation (2));
    4. the smallest kept j is returned; with none kept, n_pclfs (the PCLFS
       result, the seed's "Note").

    Parameters
    ----------
    grid_scores : array-like of shape (n,)
        Finite scores, higher is better (e.g. cross-validated F1).
    max_score_drop : float, default=0.05
        T, the maximum tolerable score reduction over all n features (seed:
        0.05, i.e. t = 0.0011 for SPECTF's 44 features).

    Returns
    -------
    size : int in [1, n_pclfs]
        1-based.

    Raises
    ------
    ValueError
        Empty, not 1-D or non-finite ``grid_scores``; negative or non-numeric
        ``max_score_drop``.

    Notes
    -----
    Edge cases (choices where the seed is silent):

    - Ties for the maximum: n_pclfs is the *first* (smallest) size reaching it,
      as scikit-learn's RFECV does; later equal scores are not candidates.
    - Maximum at i = 1: there is no j < 1, so the result is 1.
    - j = 1 has no left neighbour; g_0 is taken as minus infinity, so size 1
      is a local maximum when ``g_1 > g_2``.
    - Plateaus: the seed's inequality is strict, so no point of a run of
      equal scores is a local maximum (e.g. the 0.8s in
      ``[0.5, 0.8, 0.8, 0.7, 0.9]``), and neither is a point equal to one
      neighbour.
    - The comparison with t is strict (gradient < t); ``max_score_drop=0``
      therefore always falls back to n_pclfs. Gradients are never negative
      because ``g_{n_pclfs}`` is the maximum.

    References
    ----------
    Seed 003 (003_94dbcfb9c5faa87c.txt), section "Suggested method", Steps
    1-4 and equations (1)-(2).

    Examples
    --------
    >>> from featsieve import pclfs_extended_size
    >>> g = [0.50, 0.75, 0.625, 0.8125, 0.8125, 0.875]
    >>> # local maxima before n_pclfs = 6: j = 2 (gradient 0.03125); t = 0.3 / 6 = 0.05
    >>> pclfs_extended_size(g, 0.3)
    2
    >>> pclfs_extended_size(g, 0.1)  # t = 0.0167: nothing is flat enough
    6
    """
    return _extended_details(grid_scores, max_score_drop)["size"]


# ------------------------------------------------------------ selector
def _fold_scores(template, X, y, folds, cols, scorer):
    """Held-out scores of the model on columns ``cols``, one per fold."""
    out = []
    Xc = X[:, cols]
    for train, test in folds:
        est = clone(template).fit(Xc[train], y[train])
        out.append(float(scorer(est, Xc[test], y[test])))
    return out


def _grid_sizes(n: int, max_sizes) -> np.ndarray:
    """Subset sizes PCLFS scores: 1..n, or 1..m//2 then geometric steps to n (m points)."""
    if max_sizes is None or n <= max_sizes:
        return np.arange(1, n + 1)
    head = max_sizes // 2
    tail = np.round(np.geomspace(head + 1, n, max_sizes - head)).astype(np.int64)
    return np.unique(np.concatenate([np.arange(1, head + 1), tail, [n]]))


class PCLFS(BaseSelector):
    """Principal Component Loading Feature Selection, with the PCLFS-ext rule (seed 003).

    1. Order the columns by :func:`pca_loading_scores` (largest first; ties
       keep the column order).
    2. For i = 1..n score the model on the first i columns by
       cross-validation inside the rows given to ``fit`` (``grid_scores_``;
       the n x n_folds fits run in parallel through joblib).
    3. PCLFS keeps the first ``n_features_pclfs_`` columns, the size with the
       highest mean score (the first one on ties).
    4. With ``extended=True`` (PCLFS-ext) the size is
       :func:`pclfs_extended_size` (``n_features_ext_``) and the columns are
       the ``n_features_ext_`` most important of the PCLFS subset according to
       the model fitted on that subset with all rows (Step 5): absolute
       coefficients, ``feature_importances_``, or permutation importance when
       the model has neither (:func:`featsieve._importance.model_importances`).

    Parameters
    ----------
    estimator : classifier or None, default=None
        The model scored on every subset. None is the seed's Logit: a
        standardizing pipeline with ``LogisticRegression(max_iter=2000)``. The
        coefficients of a linear model without a scaler depend on the columns'
        units; put a ``StandardScaler`` before it for Step 5.
    scoring : str or callable, default="f1"
        A scikit-learn scorer name or ``scorer(estimator, X, y)``. ``"f1"`` is
        the seed's F1-score of the positive class, the second of the sorted
        class labels (scikit-learn's ``pos_label=1`` after encoding; for
        SPECTF that is label 1); with more than two classes ``"f1"`` means
        ``"f1_macro"``.
    cv : int or cross-validation splitter, default=5
        An int k gives ``StratifiedKFold(k, shuffle=True)`` seeded from
        ``random_state``, with k lowered to the smallest class count when a
        class has fewer than k rows (at least 2 rows per class are needed). A
        splitter or an iterable of (train, test) index arrays is used as given.
    extended : bool, default=False
        Select with PCLFS-ext instead of PCLFS.
    max_score_drop : float, default=0.05
        T of PCLFS-ext: the maximum tolerable score reduction; the threshold
        on the gradient is t = T / n with n the number of usable columns.
    n_components : int, default=2
        Principal components summed in the ordering (seed: 2).
    loadings : {"coefficients", "correlations"}, default="coefficients"
        Loading convention of :func:`pca_loading_scores` (seed: coefficients).
    sampler : None, "smote" or imbalanced-learn sampler, default=None
        Resampling applied to the *training rows of each fold only* (and to the
        rows of the Step-5 fit), through an imbalanced-learn ``Pipeline``;
        held-out rows are never resampled. ``"smote"`` is
        ``SMOTE(k_neighbors=min(5, m - 1))`` with m the smallest class count
        of any training fold, seeded from ``random_state``. Requires
        imbalanced-learn.
    max_grid_sizes : int or None, default=None
        None: every size 1..n is scored (the seed's grid). An int m: when n > m,
        the grid is the sizes 1..m//2 and ``m - m//2`` sizes spaced
        geometrically from m//2 + 1 to n (n included); PCLFS takes the best
        grid point and PCLFS-ext's local maxima are among adjacent grid points
        (a stated approximation that caps the fits at ``m * n_splits``).
    random_state : int, RandomState or None, default=None
        Seeds the folds and the sampler (the estimator keeps its own).
    n_jobs : int or None, default=None
        Parallel subset evaluations; results are identical for any value.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        Loading scores (higher first in the order; constant columns lowest).
    ranking_ : ndarray of int, shape (n_features_in_,)
        Position in the PCLFS order (1 = first added).
    grid_scores_ : ndarray of shape (n_sizes,)
        Mean held-out score of the first ``grid_sizes_[i]`` columns (with the
        full grid, the first i + 1 columns at index i; n is the number of
        usable (non-constant) columns).
    grid_sizes_ : ndarray of int, shape (n_sizes,)
        The subset sizes scored (1..n unless ``max_grid_sizes`` caps them).
    cv_results_ : dict of ndarrays of shape (n,)
        ``n_features``, ``mean_test_score``, ``std_test_score``,
        ``split{k}_test_score`` and ``feature_added`` (name); loads into
        ``pandas.DataFrame``.
    history_ : list of dict
        Per grid step: ``n_features``, ``added`` (name), ``score``, ``std``.
    n_features_pclfs_ : int
        PCLFS's size (arg max of ``grid_scores_``).
    n_features_ext_ : int
        PCLFS-ext's size for ``max_score_drop`` (always computed).
    importances_ : ndarray of shape (n_features_in_,) or None
        With ``extended=True``: Step-5 importances of the PCLFS subset's
        columns (0 elsewhere); None otherwise.
    support_ : ndarray of bool, shape (n_features_in_,)
    selection_score_ : float or None
        ``grid_scores_`` at the selected size when ``scoring="accuracy"``
        (the comparison metric); None for any other scoring.
    n_splits_ : int
    n_model_fits_ : int
        ``n * n_splits_`` plus 1 for the Step-5 fit when extended.

    Raises
    ------
    ValueError
        At ``fit``: a continuous target (PCLFS is for classification), a class
        with fewer than 2 rows, or a sampler that cannot run on the folds.

    Notes
    -----
    Cost: one SVD and ``n * n_splits`` model fits (plus one when extended);
    memory is that of one model fit per worker.

    References
    ----------
    Seed 003 (003_94dbcfb9c5faa87c.txt): sections "PCLFS" (ordering and grid
    scores) and "Suggested method" (Steps 1-5, equations (1)-(2));
    Matharaarachchi, Domaratzki & Muthukumarana (2021) for PCLFS.

    Examples
    --------
    >>> from featsieve import PCLFS
    >>> from featsieve.datasets import make_pclfs_classification
    >>> X, y, informative = make_pclfs_classification(400, 12, 4, random_state=0)
    >>> sel = PCLFS(extended=True, random_state=0).fit(X, y)
    >>> sel.n_features_ext_ <= sel.n_features_pclfs_
    True
    """

    # classification only: the base class refuses continuous targets
    task = "classification"

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "scoring": [str, callable],
        "cv": ["cv_object"],
        "extended": ["boolean"],
        "max_score_drop": [Interval(numbers.Real, 0, None, closed="left")],
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "loadings": [StrOptions({"coefficients", "correlations"})],
        "sampler": [None, StrOptions({"smote"}), HasMethods(["fit_resample"])],
        "max_grid_sizes": [Interval(numbers.Integral, 2, None, closed="left"), None],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }
    _min_per_class = 2

    def __init__(self, estimator=None, *, scoring="f1", cv=5, extended=False,
                 max_score_drop=0.05, n_components=2, loadings="coefficients", sampler=None,
                 max_grid_sizes=None, random_state=None, n_jobs=None):
        self.estimator = estimator
        self.scoring = scoring
        self.cv = cv
        self.extended = extended
        self.max_score_drop = max_score_drop
        self.n_components = n_components
        self.loadings = loadings
        self.sampler = sampler
        self.max_grid_sizes = max_grid_sizes
        self.random_state = random_state
        self.n_jobs = n_jobs

    def estimate_cost(self, n_samples: int, n_features: int):
        """Model fits of the grid (``n_sizes * n_splits``, each on ``(k-1)/k`` of the
        rows and the subset's columns), one SVD, and the Step-5 fit."""
        from .._resources import Cost, fit_seconds, model_kind

        kind = "logistic" if self.estimator is None else model_kind(self.estimator)
        k = int(self.cv) if isinstance(self.cv, numbers.Integral) else 5
        sizes = _grid_sizes(n_features, self.max_grid_sizes)
        n_tr = n_samples * (k - 1) / k
        secs = k * sum(fit_seconds(kind, n_tr, int(i)) for i in sizes)
        fits = k * len(sizes) + int(self.extended)
        strategy = (f"{len(sizes)} of {n_features} subset sizes"
                    if len(sizes) < n_features else "")
        return Cost(memory_bytes=16 * n_samples * n_features, fits=fits, fit_seconds=secs,
                    flops=4.0 * n_samples * n_features * min(n_samples, n_features),
                    model=kind, strategy=strategy)

    # ------------------------------------------------------------ pieces
    def _folds(self, X, y, rng, groups=None):
        """The CV folds; with ``groups`` (an int ``cv``) each group stays in one fold."""
        if groups is not None and isinstance(self.cv, numbers.Integral):
            from ..protocol import inner_cv

            return inner_cv("classification", int(self.cv), groups=groups, y=y,
                            random_state=rng.randint(0, 2**31 - 1))
        if isinstance(self.cv, numbers.Integral):
            k = int(min(self.cv, np.bincount(y).min()))
            splitter = StratifiedKFold(k, shuffle=True,
                                       random_state=rng.randint(0, 2**31 - 1))
        else:
            splitter = check_cv(self.cv, y, classifier=True)
        return [(np.asarray(tr), np.asarray(te))
                for tr, te in splitter.split(X, y, groups=groups)]

    def _template(self, y, folds, seed):
        if self.estimator is None:
            from ..models import make_model

            est = make_model("logistic", "classification")
        else:
            est = clone(self.estimator)
        if self.sampler is None:
            return est
        from imblearn.pipeline import Pipeline

        if isinstance(self.sampler, str):  # "smote"
            from imblearn.over_sampling import SMOTE

            m = min([int(np.bincount(y[tr], minlength=len(self.classes_)).min())
                     for tr, _ in folds] + [int(np.bincount(y).min())])
            if m < 2:
                raise ValueError(
                    f"SMOTE needs at least 2 rows of every class in each training fold; the "
                    f"smallest class has {m}. Use fewer folds or sampler=None.")
            sampler = SMOTE(k_neighbors=min(5, m - 1), random_state=seed)
        else:
            sampler = clone(self.sampler)
        return Pipeline([("sampler", sampler), ("model", est)])

    def _scorer(self):
        if callable(self.scoring):
            return self.scoring
        name = self.scoring
        if name == "f1" and len(self.classes_) > 2:
            name = "f1_macro"
        return get_scorer(name)

    # --------------------------------------------------------------- fit
    def _fit(self, X, y, groups=None):
        rng = check_random_state(self.random_state)
        n = X.shape[1]
        names = self._fit_feature_names
        scores = pca_loading_scores(X, n_components=self.n_components, loadings=self.loadings,
                                    categorical=self._fit_categorical)
        order, ranking = rank_from_scores(scores)

        folds = self._folds(X, y, rng, groups)
        seed = rng.randint(0, 2**31 - 1)
        template = self._template(y, folds, seed)
        scorer = self._scorer()
        sizes = _grid_sizes(n, self.max_grid_sizes)
        per_size = Parallel(n_jobs=self.n_jobs)(
            delayed(_fold_scores)(template, X, y, folds, order[:i], scorer) for i in sizes
        )
        fold_scores = np.asarray(per_size, dtype=np.float64)  # (n_sizes, n_splits)
        grid = fold_scores.mean(axis=1)
        std = fold_scores.std(axis=1)
        results = {"n_features": sizes, "mean_test_score": grid,
                   "std_test_score": std}
        for k in range(fold_scores.shape[1]):
            results[f"split{k}_test_score"] = fold_scores[:, k]
        results["feature_added"] = np.asarray([names[order[i - 1]] for i in sizes],
                                              dtype=object)

        details = _extended_details(grid, self.max_score_drop, sizes, n)
        n_pclfs, n_ext = details["n_pclfs"], details["size"]
        fits = len(sizes) * len(folds)
        support = np.zeros(n, dtype=bool)
        self.importances_ = None
        if self.extended:
            top = order[:n_pclfs]
            est = clone(template).fit(X[:, top], y)
            fits += 1
            final = est.steps[-1][1] if self.sampler is not None else est
            imp = model_importances(final, X[:, top], y, scoring=scorer,
                                    random_state=seed)
            # most important first; ties keep the PCLFS order
            pick = top[rank_from_scores(imp)[0][:n_ext]]
            support[pick] = True
            full_imp = np.zeros(len(self._usable))
            usable_idx = self._fit_index
            full_imp[usable_idx[top]] = imp
            self.importances_ = full_imp
            self._ext_top, self._ext_imp = top, imp
            chosen = n_ext
        else:
            support[order[:n_pclfs]] = True
            chosen = n_pclfs

        self.scores_, self.ranking_, self.support_ = scores, ranking, support
        self.grid_scores_, self.grid_sizes_, self.cv_results_ = grid, sizes, results
        self.history_ = [{"n_features": int(i), "added": names[order[i - 1]],
                          "score": float(grid[t]), "std": float(std[t])}
                         for t, i in enumerate(sizes)]
        self.n_features_pclfs_, self.n_features_ext_ = int(n_pclfs), int(n_ext)
        self.n_splits_ = len(folds)
        self.n_model_fits_ = int(fits)
        at = int(np.searchsorted(sizes, chosen))  # chosen is a grid size
        self.selection_score_ = float(grid[at]) if self.scoring == "accuracy" else None
        return self

    # ------------------------------------------------------------ helpers
    def support_at(self, *, max_score_drop: float) -> np.ndarray:
        """PCLFS-ext's columns for another T, from this fit (no new model fit).

        The grid scores and the Step-5 importances do not depend on T, so one
        extended fit serves every T.

        Parameters
        ----------
        max_score_drop : float
            T (>= 0).

        Returns
        -------
        support : ndarray of bool, shape (n_features_in_,)

        Raises
        ------
        ValueError
            The selector was fitted with ``extended=False`` (no importances).
        """
        check_is_fitted(self, "grid_scores_")
        if self.importances_ is None:
            raise ValueError("support_at(max_score_drop=) needs a fit with extended=True "
                             "(the Step-5 importances).")
        size = _extended_details(self.grid_scores_, max_score_drop, self.grid_sizes_,
                                 int(self._usable.sum()))["size"]
        top, imp = self._ext_top, self._ext_imp
        pick = top[rank_from_scores(imp)[0][:size]]
        usable_idx = self._fit_index
        support = np.zeros(len(self._usable), dtype=bool)
        support[usable_idx[pick]] = True
        return support

