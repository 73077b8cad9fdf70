"""Classic selectors: the filter, wrapper and embedded families of seed 002.

Seed: ``002_2595f2849cd4c4da.txt`` (FS15-FS21). The filter scores each column
alone (mutual information and absolute correlation are the MI and CC baselines
of seed 000 §4.1; the single-split purity gain is FS17); the wrapper is forward
selection read on a validation set (FS18); the embedded method keeps the
columns that carry at least a share of a fitted model's importance (FS19).
RFE and RFECV are scikit-learn's and are only registered here.
"""

from __future__ import annotations

import numbers

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.feature_selection import RFE, RFECV, mutual_info_classif, mutual_info_regression
from sklearn.metrics import get_scorer
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from ._base import BaseSelector
from ._importance import model_importances
from ._registry import MethodSpec, ranking_candidates, register
from ._validation import N_FEATURES_CONSTRAINT
from .protocol import holdout_split

__all__ = [
    "stump_gain_scores",
    "abs_correlation_scores",
    "mutual_info_scores",
    "UnivariateFilter",
    "ForwardSelector",
    "EmbeddedSelector",
    "RFESelector",
    "RFECVSelector",
]


# ---------------------------------------------------------------- scores
def _impurity(counts: np.ndarray) -> np.ndarray:
    """Gini impurity 1 - sum p_k^2 of rows of class counts (0 for empty rows)."""
    tot = counts.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tot > 0, counts / np.maximum(tot, 1), 0.0)
    return 1.0 - (p**2).sum(axis=-1)


def stump_gain_scores(X, y, *, min_samples_leaf: int = 20, thresholds: str = "seed",
                      task: str = "classification") -> np.ndarray:
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
    if task == "classification":
        codes = np.unique(y, return_inverse=True)[1]
        Y = np.eye(codes.max() + 1)[codes]  # one-hot, (n, k)
    else:
        yf = y.astype(np.float64)
        Y = np.column_stack([np.ones(n), yf, yf**2])
    scores = np.zeros(d)
    for j in range(d):
        order = np.argsort(X[:, j], kind="mergesort")
        xs = X[order, j]
        cum = np.cumsum(Y[order], axis=0)  # cum[i] = stats of the first i+1 rows
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
            parent = _impurity(total[None, :])[0]
            child = (n_left * _impurity(left) + (n - n_left) * _impurity(right)) / n
        else:
            def _sse(s):
                return s[..., 2] - s[..., 1] ** 2 / s[..., 0]
            parent = _sse(total) / n
            child = (_sse(left) + _sse(right)) / n
        scores[j] = max(0.0, float(np.max(parent - child)))
    return scores


def abs_correlation_scores(X, y, *, task: str = "regression") -> np.ndarray:
    """Absolute Pearson correlation of each column with the target (the CC baseline).

    For more than two classes the score is the largest absolute correlation
    with a one-vs-rest class indicator.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    task : {"classification", "regression"}, default="regression"

    Returns
    -------
    scores : ndarray of shape (n_features,) in [0, 1]
        0 for constant columns.
    """
    X = np.asarray(X, dtype=np.float64)
    # correlation is scale-free: rescale each column to max |x| = 1 so that squares of huge
    # values (1e308) cannot overflow
    scale = np.max(np.abs(X), axis=0)
    X = X / np.where(scale > 0, scale, 1.0)
    y = np.asarray(y)
    if task == "classification" and len(np.unique(y)) > 2:
        T = (y[:, None] == np.unique(y)[None, :]).astype(np.float64)
    else:
        T = y.astype(np.float64)[:, None]
    Xc = X - X.mean(axis=0)
    Tc = T - T.mean(axis=0)
    xs = np.sqrt((Xc**2).sum(axis=0))
    ts = np.sqrt((Tc**2).sum(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (Xc.T @ Tc) / np.outer(xs, ts)
    return np.nan_to_num(np.abs(r), nan=0.0).max(axis=1)


def mutual_info_scores(X, y, *, task: str = "classification", random_state=None, n_jobs=None):
    """Mutual information of each column with the target, in nats (the MI baseline).

    A thin call to scikit-learn's ``mutual_info_classif``/``mutual_info_regression``
    (k-nearest-neighbour estimator, 3 neighbours).
    """
    fn = mutual_info_classif if task == "classification" else mutual_info_regression
    return fn(X, y, random_state=random_state, n_jobs=n_jobs)


_SCORE_FUNCS = ("mi", "cc", "purity")


# --------------------------------------------------------------- filter
class UnivariateFilter(BaseSelector):
    """Keep the columns whose univariate score is highest (filter family).

    Parameters
    ----------
    score_func : {"mi", "cc", "purity"} or callable, default="mi"
        ``"mi"``: mutual information (nats); ``"cc"``: absolute correlation;
        ``"purity"``: single-split purity gain (:func:`stump_gain_scores`,
        seed 002 FS17). A callable takes ``(X, y)`` and returns one score per
        column (higher is more relevant), e.g. ``featsieve.hsic_scores``.
    n_features_to_select : int, float or None, default=None
        Keep the best k columns (a float in (0, 1] is a fraction). Ignored when
        ``threshold`` is set; None keeps half the usable columns.
    threshold : float or None, default=None
        Keep every column whose score is at least this (FS17 uses 0.004 for the
        purity gain).
    min_samples_leaf : int, default=20
        For ``"purity"``: fewest rows on each side of the split.
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        For the mutual-information estimator.
    n_jobs : int or None, default=None
        For the mutual-information estimator.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
        1 for the best score; ties broken by the lower column index.
    support_ : ndarray of bool, shape (n_features_in_,)

    Examples
    --------
    >>> from featsieve import UnivariateFilter
    >>> from featsieve.datasets import load_sonar
    >>> X, y = load_sonar(return_X_y=True)
    >>> UnivariateFilter("cc", n_features_to_select=5).fit(X, y).get_feature_names_out().shape
    (5,)
    """

    _parameter_constraints = {
        "score_func": [StrOptions(set(_SCORE_FUNCS)), callable],
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "threshold": [Interval(numbers.Real, None, None, closed="neither"), None],
        "min_samples_leaf": [Interval(numbers.Integral, 1, None, closed="left")],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(self, score_func="mi", *, n_features_to_select=None, threshold=None,
                 min_samples_leaf=20, task="auto", random_state=None, n_jobs=None):
        self.score_func = score_func
        self.n_features_to_select = n_features_to_select
        self.threshold = threshold
        self.min_samples_leaf = min_samples_leaf
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, y):
        if self.score_func == "mi":
            scores = mutual_info_scores(X, y, task=self.task_, random_state=self.random_state,
                                        n_jobs=self.n_jobs)
        elif self.score_func == "cc":
            scores = abs_correlation_scores(X, y, task=self.task_)
        elif self.score_func == "purity":
            scores = stump_gain_scores(X, y, min_samples_leaf=self.min_samples_leaf,
                                       task=self.task_)
        else:
            scores = np.asarray(self.score_func(X, y), dtype=np.float64).ravel()
            if scores.shape != (X.shape[1],):
                raise ValueError(
                    f"score_func returned shape {scores.shape}; expected ({X.shape[1]},)."
                )
        scores = np.nan_to_num(np.asarray(scores, dtype=np.float64), nan=0.0)
        order = np.lexsort((np.arange(len(scores)), -scores))
        ranking = np.empty(len(scores), dtype=np.int64)
        ranking[order] = np.arange(1, len(scores) + 1)
        if self.threshold is not None:
            support = scores >= self.threshold
        else:
            k = self._n_to_select(X.shape[1])
            support = ranking <= k
        self.scores_, self.ranking_, self.support_ = scores, ranking, support
        return self


# -------------------------------------------------------------- wrapper
def _fit_score(estimator, X_tr, y_tr, X_va, y_va, cols, scorer):
    est = clone(estimator).fit(X_tr[:, cols], y_tr)
    return scorer(est, X_va[:, cols], y_va)


class ForwardSelector(BaseSelector):
    """Forward selection read on a validation set (wrapper family, seed 002 FS18).

    Each round fits the model once per remaining column, adds the column whose
    addition scores highest on the validation rows, and stops when the best
    score does not exceed the previous round's (the seed starts from 0, so the
    first round always adds a column when the score is positive) or after
    ``max_rounds`` rounds. Candidates of one round are evaluated in parallel
    through joblib; ties go to the lower column index (the seed's ``max`` over
    ``(score, name)`` would prefer the later name; we choose the index rule so
    that renaming columns cannot change the result).

    Parameters
    ----------
    estimator : estimator or None, default=None
        The model refit for every candidate; a depth-6 decision tree (the
        seed's model, FS16) when None.
    max_rounds : int, default=8
        At most this many columns are added (FS18).
    scoring : str or callable or None, default=None
        scikit-learn scorer; accuracy for classes and negative MSE for
        regression when None (higher is better).
    validation_fraction : float, default=0.4
        When ``fit`` gets no ``X_val``: share of the rows held out as the
        validation set (0.4 of train + selection-val is the protocol's 30 of 75).
    tol : float or None, default=0.0
        A round must gain more than this to continue. None: never stop early,
        always add ``max_rounds`` columns (seed 001's DT-forward, whose
        evaluation counts in Table 4 are exactly those of 15 full rounds).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the internal split.
    n_jobs : int or None, default=None
        Parallel candidate fits.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
        Order in which columns were added (1 = first); unselected columns share
        the worst rank.
    history_ : list of dict
        Per round: ``round``, ``added`` (name), ``score`` (validation score with
        it), ``n_candidates``, ``accepted``.
    selection_score_ : float
        The validation score of the final set: the number the selection
        optimized (seed 002: "the selection's own number").
    n_model_fits_ : int

    References
    ----------
    Seed 002 (002_2595f2849cd4c4da.txt), FS18 and ``wrapper_select``.
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "max_rounds": [Interval(numbers.Integral, 1, None, closed="left")],
        "scoring": [None, str, callable],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither")],
        "tol": [Interval(numbers.Real, 0, None, closed="left"), None],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }
    _min_samples = 4

    def __init__(self, estimator=None, *, max_rounds=8, scoring=None, validation_fraction=0.4,
                 tol=0.0, task="auto", random_state=None, n_jobs=None):
        self.estimator = estimator
        self.max_rounds = max_rounds
        self.scoring = scoring
        self.validation_fraction = validation_fraction
        self.tol = tol
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, y, X_val=None, y_val=None):
        clf = self.task_ == "classification"
        if self.estimator is None:
            from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

            est = (DecisionTreeClassifier if clf else DecisionTreeRegressor)(
                max_depth=6, random_state=0)
        else:
            est = self.estimator
        scorer = get_scorer(self.scoring or ("accuracy" if clf else "neg_mean_squared_error"))
        if X_val is None:
            tr, va = holdout_split(len(y), y, self.validation_fraction, stratify=clf,
                                   random_state=check_random_state(self.random_state))
            X_tr, y_tr, X_va, y_va = X[tr], y[tr], X[va], y[va]
        else:
            X_va, y_va = self._validate_val(X_val, y_val)
            X_tr, y_tr = X, y
        names = self._fit_feature_names
        d = X.shape[1]
        chosen: list[int] = []
        best = 0.0 if clf else -np.inf
        history, fits = [], 0
        parallel = Parallel(n_jobs=self.n_jobs)
        for rnd in range(1, min(self.max_rounds, d) + 1):
            cands = [j for j in range(d) if j not in chosen]
            scores = parallel(
                delayed(_fit_score)(est, X_tr, y_tr, X_va, y_va, chosen + [j], scorer)
                for j in cands
            )
            fits += len(cands)
            i = int(np.argmax(scores))  # first maximum: lowest column index
            accepted = self.tol is None or scores[i] > best + self.tol
            history.append({"round": rnd, "added": names[cands[i]], "score": float(scores[i]),
                            "n_candidates": len(cands), "accepted": bool(accepted)})
            if not accepted:
                break
            best = float(scores[i])
            chosen.append(cands[i])
        if not chosen:  # no column beats the empty start: keep the best single column
            chosen = [cands[i]]
            best = float(scores[i])
        support = np.zeros(d, dtype=bool)
        support[chosen] = True
        ranking = np.full(d, len(chosen) + 1, dtype=np.int64)
        ranking[chosen] = np.arange(1, len(chosen) + 1)
        self.support_, self.ranking_ = support, ranking
        self.history_, self.selection_score_, self.n_model_fits_ = history, best, fits
        return self


# ------------------------------------------------------------- embedded
class EmbeddedSelector(BaseSelector):
    """Keep columns carrying at least a share of a fitted model's importance (FS19).

    Parameters
    ----------
    estimator : estimator or None, default=None
        Fitted once on all rows given to ``fit``. None means the seed's model:
        a depth-8 decision tree (FS19), whose importance is the row-weighted
        Gini decrease of its splits.
    threshold : float, default=0.01
        Minimum share of the total importance (FS19: one percent).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        For the default tree.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        Importance shares (sum to 1).
    ranking_ : ndarray of int, shape (n_features_in_,)
    support_ : ndarray of bool, shape (n_features_in_,)
    estimator_ : fitted estimator
    n_model_fits_ : int
        Always 1.

    References
    ----------
    Seed 002 (002_2595f2849cd4c4da.txt), FS19 and ``embedded_select``.
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "threshold": [Interval(numbers.Real, 0, 1, closed="both")],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, threshold=0.01, task="auto", random_state=None):
        self.estimator = estimator
        self.threshold = threshold
        self.task = task
        self.random_state = random_state

    def _fit(self, X, y):
        if self.estimator is None:
            from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

            cls = DecisionTreeClassifier if self.task_ == "classification" else \
                DecisionTreeRegressor
            est = cls(max_depth=8, random_state=self.random_state)
        else:
            est = clone(self.estimator)
        est.fit(X, y)
        imp = model_importances(est, X, y, random_state=self.random_state)
        total = imp.sum()
        shares = imp / total if total > 0 else np.zeros_like(imp)
        order = np.lexsort((np.arange(len(shares)), -shares))
        ranking = np.empty(len(shares), dtype=np.int64)
        ranking[order] = np.arange(1, len(shares) + 1)
        self.estimator_, self.scores_, self.ranking_ = est, shares, ranking
        self.support_ = shares >= self.threshold if total > 0 else np.zeros(len(shares), bool)
        self.n_model_fits_ = 1
        return self


# ------------------------------------------------------------------ RFE
def _default_tree(task, random_state=0, max_depth=6):
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    cls = DecisionTreeClassifier if task == "classification" else DecisionTreeRegressor
    return cls(max_depth=max_depth, random_state=random_state)


def _importance_getter(estimator):
    return model_importances(estimator)


class RFESelector(BaseSelector):
    """scikit-learn's recursive feature elimination under featsieve's input policy.

    A thin wrapper: the elimination is :class:`sklearn.feature_selection.RFE`;
    featsieve adds the shared validation (constant and duplicate columns, names,
    the ``n_features_to_select`` policy) and reads importances from the last
    step of a Pipeline (``coef_`` or ``feature_importances_``).

    Parameters
    ----------
    estimator : estimator or None, default=None
        Needs ``coef_`` or ``feature_importances_`` after fitting (at the end
        of a Pipeline is fine); a depth-6 decision tree when None.
    n_features_to_select : int, float or None, default=None
        None keeps half the usable columns.
    step : int or float, default=1
        Columns removed per iteration (a float is a fraction).
    task : {"auto", "classification", "regression"}, default="auto"

    Attributes
    ----------
    support_, ranking_ : ndarray of shape (n_features_in_,)
        ``ranking_`` 1 for kept columns, then the reverse elimination order.
    n_model_fits_ : int
    rfe_ : fitted sklearn RFE

    References
    ----------
    Guyon et al. (2002); the RFE baseline of seed 000 §4.1 and seed 003.
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "step": [Interval(numbers.Real, 0, None, closed="neither")],
        "task": [StrOptions({"auto", "classification", "regression"})],
    }

    def __init__(self, estimator=None, *, n_features_to_select=None, step=1, task="auto"):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.task = task

    def _fit(self, X, y):
        d = X.shape[1]
        k = self._n_to_select(d)
        if k == d:  # nothing to eliminate
            self.rfe_ = None
            self.support_, self.ranking_ = np.ones(d, bool), np.ones(d, np.int64)
            self.n_model_fits_ = 0
            return self
        est = self.estimator if self.estimator is not None else _default_tree(self.task_)
        rfe = RFE(est, n_features_to_select=k, step=self.step,
                  importance_getter=_importance_getter).fit(X, y)
        step = self.step if self.step >= 1 else max(1, int(self.step * d))
        self.rfe_, self.support_, self.ranking_ = rfe, rfe.support_, rfe.ranking_
        self.n_model_fits_ = int(np.ceil((d - k) / step)) + 1
        return self


class RFECVSelector(BaseSelector):
    """scikit-learn's RFECV under featsieve's input policy (see :class:`RFESelector`).

    Parameters
    ----------
    estimator : estimator or None, default=None
    step : int or float, default=1
    cv : int or CV splitter, default=5
        An int means stratified (classes) or plain k-fold, shuffled with
        ``random_state``.
    scoring : str, callable or None, default=None
        Accuracy for classes, negative MSE for regression when None.
    min_features_to_select : int, default=1
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
    n_jobs : int or None, default=None
        Folds in parallel.

    Attributes
    ----------
    support_, ranking_ : ndarray of shape (n_features_in_,)
    cv_results_ : dict of arrays
        scikit-learn's per-size CV scores (mean over folds, not sums).
    n_model_fits_ : int
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "step": [Interval(numbers.Real, 0, None, closed="neither")],
        "cv": [Interval(numbers.Integral, 2, None, closed="left"), "cv_object"],
        "scoring": [None, str, callable],
        "min_features_to_select": [Interval(numbers.Integral, 1, None, closed="left")],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(self, estimator=None, *, step=1, cv=5, scoring=None, min_features_to_select=1,
                 task="auto", random_state=None, n_jobs=None):
        self.estimator = estimator
        self.step = step
        self.cv = cv
        self.scoring = scoring
        self.min_features_to_select = min_features_to_select
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, y):
        d = X.shape[1]
        if d == 1:  # one usable column: nothing to eliminate
            self.rfecv_, self.cv_results_ = None, {}
            self.support_, self.ranking_ = np.ones(1, bool), np.ones(1, np.int64)
            self.n_model_fits_ = 0
            return self
        est = self.estimator if self.estimator is not None else _default_tree(self.task_)
        cv = _cv(self.task_, self.random_state, self.cv) if isinstance(
            self.cv, numbers.Integral) else self.cv
        min_k = min(self.min_features_to_select, d)
        rfecv = RFECV(est, step=self.step, cv=cv, scoring=self.scoring or _scoring(self.task_),
                      min_features_to_select=min_k, n_jobs=self.n_jobs,
                      importance_getter=_importance_getter).fit(X, y)
        step = self.step if self.step >= 1 else max(1, int(self.step * d))
        per_path = int(np.ceil((d - min_k) / step)) + 1
        self.rfecv_, self.support_, self.ranking_ = rfecv, rfecv.support_, rfecv.ranking_
        self.cv_results_ = rfecv.cv_results_
        self.n_model_fits_ = cv.get_n_splits() * per_path + int(
            np.ceil((d - rfecv.n_features_) / step)) + 1
        return self


# ------------------------------------------------------------- registry
def _scoring(task):
    return "accuracy" if task == "classification" else "neg_mean_squared_error"


register(MethodSpec(
    name="all", build=lambda **kw: None, source="baseline",
    summary="no selection: every column",
))
register(MethodSpec(
    name="mi",
    build=lambda *, task, n_features_to_select, random_state, n_jobs, **_: UnivariateFilter(
        "mi", n_features_to_select=n_features_to_select, task=task,
        random_state=random_state, n_jobs=n_jobs),
    source="seed 000 §4.1 (MI baseline); seed 002 filter family",
    summary="filter: mutual information with the target (k tuned on model-val)",
    candidates=ranking_candidates, fits=lambda s: 0,
))
register(MethodSpec(
    name="cc",
    build=lambda *, task, n_features_to_select, **_: UnivariateFilter(
        "cc", n_features_to_select=n_features_to_select, task=task),
    source="seed 000 §4.1 (CC baseline); seed 002 filter family",
    summary="filter: absolute correlation with the target (k tuned on model-val)",
    candidates=ranking_candidates, fits=lambda s: 0,
))
register(MethodSpec(
    name="purity",
    build=lambda *, task, n_features_to_select, **_: UnivariateFilter(
        "purity", task=task, n_features_to_select=n_features_to_select,
        threshold=0.004 if (task == "classification" and n_features_to_select is None) else None),
    source="seed 002 FS17",
    summary="filter: single-split Gini gain >= 0.004 with 20 rows a side (regression: "
            "variance gain, k tuned)",
    candidates=lambda sel, n: (
        {"threshold=0.004": sel.support_} if sel.threshold is not None
        else ranking_candidates(sel, n)),
    fits=lambda s: 0,
))
register(MethodSpec(
    name="forward",
    build=lambda *, task, estimator, random_state, n_jobs, **_: ForwardSelector(
        estimator, task=task, random_state=random_state, n_jobs=n_jobs,
        scoring=_scoring(task)),
    source="seed 002 FS18",
    summary="wrapper: forward selection on the selection-val split, <= 8 rounds",
    uses_selection_val=True, needs_estimator=True,
))
register(MethodSpec(
    name="embedded",
    build=lambda *, task, estimator, random_state, **_: EmbeddedSelector(
        estimator, task=task, random_state=random_state),
    source="seed 002 FS19",
    summary="embedded: columns with >= 1% of the model's importance",
    needs_estimator=True,
))
register(MethodSpec(
    name="rfe",
    build=lambda *, task, estimator, n_features_to_select, **_: RFESelector(
        estimator, n_features_to_select=n_features_to_select, step=1, task=task),
    source="seed 000 §4.1, seed 003 (RFE baseline; scikit-learn)",
    summary="scikit-learn RFE, step 1 (k tuned on model-val from one elimination path)",
    candidates=ranking_candidates, needs_estimator=True,
    path_params={"n_features_to_select": 1},
))
register(MethodSpec(
    name="rfecv",
    build=lambda *, task, estimator, random_state, n_jobs, **_: RFECVSelector(
        estimator, step=1, cv=5, task=task, random_state=random_state, n_jobs=n_jobs),
    source="seed 003 (RFECV baseline; scikit-learn)",
    summary="scikit-learn RFECV, step 1, 5-fold",
    needs_estimator=True,
))


def _cv(task, random_state, n_splits=5):
    from sklearn.model_selection import KFold, StratifiedKFold

    seed = check_random_state(random_state).randint(0, 2**31 - 1)
    cls = StratifiedKFold if task == "classification" else KFold
    return cls(n_splits=n_splits, shuffle=True, random_state=seed)
