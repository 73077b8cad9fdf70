"""The embedded family of seed 002 (FS19) and scikit-learn's RFE / RFECV."""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.feature_selection import RFECV
from sklearn.model_selection import check_cv
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from .._base import BaseSelector
from .._importance import model_importances
from .._resources import (
    ROWS_ELIMINATION,
    Cost,
    ScalableFormWarning,
    capped_rows,
    fit_seconds,
    model_kind,
    row_cap,
)
from .._utils import cv_splitter, default_tree, rank_from_scores, scorer_for
from .._validation import N_FEATURES_CONSTRAINT
from ..models import fit_model
from ..protocol import inner_cv


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
    prefit : bool, default=False
        ``estimator`` is already fitted on the rows and every column that
        ``fit`` is given, in their given order (as scikit-learn's
        ``SelectFromModel(prefit=True)``): ``fit`` reads its importances
        without fitting it again (constant and copied columns are still never
        selected). ``compare`` uses it to share the ``all`` row's model,
        fitted on the same rows.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        Importance shares (sum to 1).
    ranking_ : ndarray of int, shape (n_features_in_,)
    support_ : ndarray of bool, shape (n_features_in_,)
    estimator_ : fitted estimator
    n_model_fits_ : int
        1 (0 with ``prefit``).

    Raises
    ------
    ValueError
        ``prefit=True`` with no estimator, or with an estimator fitted on
        another number of columns than ``X`` has.

    References
    ----------
    Seed 002 (002_2595f2849cd4c4da.txt), FS19 and ``embedded_select``.
    """

    _missing = "model"  # NaN to the model when it takes NaN, else imputed (BaseSelector)

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "threshold": [Interval(numbers.Real, 0, 1, closed="both")],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
        "prefit": ["boolean"],
    }

    def __init__(self, estimator=None, *, threshold=0.01, task="auto", random_state=None,
                 prefit=False):
        self.estimator = estimator
        self.threshold = threshold
        self.task = task
        self.random_state = random_state
        self.prefit = prefit

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """One model fit on the whole table (``n_samples x n_features``; none with ``prefit``)."""
        kind = model_kind(self.estimator)
        fits = 0 if self.prefit else 1
        return Cost(memory_bytes=8 * n_samples * n_features, fits=fits,
                    fit_seconds=fits * fit_seconds(kind, n_samples, n_features), model=kind)

    def _fit(self, X, y, sample_weight=None):
        if self.prefit:
            est = self.estimator
            n_in = getattr(est, "n_features_in_", None)
            if est is None or n_in != self.n_features_in_:
                raise ValueError(
                    f"EmbeddedSelector(prefit=True) needs an estimator fitted on the "
                    f"{self.n_features_in_} columns given to fit; got "
                    f"{'none' if est is None else f'one fitted on {n_in} columns'}. Pass "
                    f"prefit=False to fit it here.")
        elif self.estimator is None:
            est = default_tree(self.task_, max_depth=8, random_state=self.random_state)
        else:
            est = self.estimator
        if not self.prefit:
            # sample_weight: the model's own fit takes it (its importances follow the weights)
            est = fit_model(est, X, y, categorical=self._fit_categorical,
                            sample_weight=sample_weight)
        if self.prefit:  # fitted on every input column, in the given order
            imp = np.asarray(model_importances(est), dtype=float)[self._fit_index]
        else:
            imp = model_importances(est, X, y, random_state=self.random_state)
        total = imp.sum()
        shares = imp / total if total > 0 else np.zeros_like(imp)
        _, ranking = rank_from_scores(shares)
        self.estimator_, self.scores_, self.ranking_ = est, shares, ranking
        self.support_ = shares >= self.threshold if total > 0 else np.zeros(len(shares), bool)
        self.n_model_fits_ = 0 if self.prefit else 1
        self.strategy_ = "the importances of a model fitted before (prefit)" if self.prefit \
            else ""
        return self



def _importance_getter(estimator):
    return model_importances(estimator)


#: ``step="auto"``: one column per iteration up to this many columns ...
AUTO_STEP_MAX_FEATURES = 1000
#: ... above, this fraction of the columns per iteration (about 100 iterations)
AUTO_STEP_FRACTION = 0.01
#: ... and for RFECV, which runs one path per fold plus the final one (about 20 per path)
AUTO_STEP_FRACTION_CV = 0.05


def _resolve_step(step, d: int, owner: str | None = None,
                  fraction: float = AUTO_STEP_FRACTION) -> tuple[int, str]:
    """Columns removed per iteration and the strategy line (``"auto"`` by shape).

    With ``owner`` a switch to more than one column per iteration warns
    (:class:`~featsieve._resources.ScalableFormWarning`).
    """
    if step == "auto":
        if d <= AUTO_STEP_MAX_FEATURES:
            return 1, ""
        per = max(1, int(fraction * d))
        text = (f"step {per} ({fraction:.0%} of {d} columns per iteration, "
                f"above {AUTO_STEP_MAX_FEATURES} columns)")
        if owner:
            warnings.warn(f"{owner}: {text}.", ScalableFormWarning, stacklevel=4)
        return per, text
    return (int(step) if step >= 1 else max(1, int(step * d))), ""


def _capped(sel, X, y):
    """``(X, y, strategy)``: the rows the elimination fits read (``max_samples``)."""
    rows, text = capped_rows(type(sel).__name__, y, sel.max_samples, auto=ROWS_ELIMINATION,
                             stratify=sel.task_ == "classification",
                             random_state=sel.random_state, what="elimination fits")
    if rows is not None:
        X, y = X[rows], y[rows]
    sel.n_samples_used_ = int(X.shape[0])
    return X, y, text


def _capped_n(sel, n: int) -> int:
    cap = row_cap(sel.max_samples, ROWS_ELIMINATION)
    return n if cap is None else min(n, cap)


def _path_seconds(kind, n_rows, d, k, step) -> tuple[int, float]:
    """Fits and rough seconds of one elimination path from d down to k columns."""
    sizes = list(range(d, k, -step)) + [k] if d > k else [d]
    return len(sizes), sum(fit_seconds(kind, n_rows, m) for m in sizes)


#: ``max_samples`` of RFE and RFECV, one paragraph for both docstrings
_MAX_SAMPLES_DOC = """max_samples : int, "auto" or None, default="auto"
        Rows every elimination fit reads (tall tables): ``"auto"``, a seeded
        subsample (stratified for classes) of 100,000 rows when there are
        more; an int, that many; None, every row. The importances that order
        the elimination are then those of models fit on the subsample; stated
        in a ``ScalableFormWarning`` and ``strategy_`` (``n_samples_used_``:
        the rows)."""


class RFESelector(BaseSelector):
    __doc__ = f"""scikit-learn's recursive feature elimination under featsieve's input policy.

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
    step : int, float or "auto", default="auto"
        Columns removed per iteration (a float is a fraction of the usable
        columns). ``"auto"``: 1 up to 1,000 usable columns; above, 1% of them
        per iteration (about 100 model fits instead of d), stated in
        ``strategy_``.
    task : {{"auto", "classification", "regression"}}, default="auto"
    {_MAX_SAMPLES_DOC}
    random_state : int, RandomState or None, default=None
        Seeds the row subsample of ``max_samples``.

    Attributes
    ----------
    support_, ranking_ : ndarray of shape (n_features_in_,)
        ``ranking_`` 1 for kept columns, then the reverse elimination order.
    n_model_fits_ : int
    step_ : int
        Columns removed per iteration.
    strategy_ : str
        Why ``step="auto"`` removed more than one column per iteration, and
        the row subsample of ``max_samples`` (empty otherwise).
    n_samples_used_ : int
        Rows the elimination fits read.
    estimator_ : fitted estimator
        The model refit on the kept columns (absent when nothing was eliminated).
    rfe_ : None
        Kept for compatibility: the elimination is scikit-learn's RFE loop
        written out (:func:`_rfe_path`), so that each fit is told which of its
        columns are categorical (LightGBM's native categorical splits,
        :func:`featsieve.models.fit_model`); on a numeric table it gives
        scikit-learn's ``RFE`` support and ranking.

    References
    ----------
    Guyon et al. (2002); the RFE baseline of seed 000 §4.1 and seed 003.
    """

    _missing = "model"  # NaN to the model when it takes NaN, else imputed (BaseSelector)

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "step": [Interval(numbers.Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                        StrOptions({"auto"}), None],
        "random_state": ["random_state"],
    }

    def __init__(self, estimator=None, *, n_features_to_select=None, step="auto", task="auto",
                 max_samples="auto", random_state=None):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.task = task
        self.max_samples = max_samples
        self.random_state = random_state

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """Model fits of the elimination path (``step`` by shape) on ``n_samples`` rows."""
        d = n_features
        v = self.n_features_to_select
        k = max(1, d // 2) if v is None else (max(1, int(round(v * d))) if
                                                isinstance(v, float) and v <= 1 else min(int(v), d))
        step, strategy = _resolve_step(self.step, d)
        kind = model_kind(self.estimator)
        fits, secs = _path_seconds(kind, _capped_n(self, n_samples), d, k, step)
        return Cost(memory_bytes=8 * n_samples * d, fits=fits, fit_seconds=secs, model=kind,
                    strategy=strategy)

    def _fit(self, X, y, sample_weight=None):
        d = X.shape[1]
        k = self._n_to_select(d)
        step, strategy = _resolve_step(self.step, d, type(self).__name__)
        X, y, rows = _capped(self, X, y)
        self.strategy_ = "; ".join(t for t in (strategy, rows) if t)
        self.step_ = step
        if k == d:  # nothing to eliminate
            self.rfe_ = None
            self.support_, self.ranking_ = np.ones(d, bool), np.ones(d, np.int64)
            self.n_model_fits_ = 0
            return self
        est = self.estimator if self.estimator is not None else default_tree(self.task_, random_state=0, max_depth=6)
        self.support_, self.ranking_, self.estimator_ = _rfe_path(
            est, X, y, k, step, self._fit_categorical, sample_weight)
        self.rfe_ = None
        self.n_model_fits_ = int(np.ceil((d - k) / step)) + 1
        return self


def _rfe_path(estimator, X, y, k: int, step: int, categorical, sample_weight=None):
    """scikit-learn's RFE elimination (``RFE._fit``), each fit told the categorical columns.

    The loop of :class:`sklearn.feature_selection.RFE` (importances squared,
    ``np.argsort``, the ``step`` lowest removed, ranking incremented for the
    removed ones), written out so that every model fit goes through
    :func:`featsieve.models.fit_model` with the categorical columns of its
    subset (LightGBM's native categorical splits; scikit-learn's RFE passes
    the subsets to the model without saying which columns they are).

    ``sample_weight`` goes to every fit. Returns ``(support, ranking, final_model)``.
    """
    d = X.shape[1]
    support = np.ones(d, dtype=bool)
    ranking = np.ones(d, dtype=np.int64)
    while support.sum() > k:
        features = np.flatnonzero(support)
        model = fit_model(estimator, X[:, features], y, categorical=categorical[features],
                          sample_weight=sample_weight)
        imp = np.asarray(_importance_getter(model), dtype=np.float64)
        imp = imp ** 2 if imp.ndim == 1 else (imp ** 2).sum(axis=0)
        ranks = np.ravel(np.argsort(imp))
        support[features[ranks][:min(step, int(support.sum()) - k)]] = False
        ranking[~support] += 1
    features = np.flatnonzero(support)
    return support, ranking, fit_model(estimator, X[:, features], y,
                                       categorical=categorical[features],
                                       sample_weight=sample_weight)


class RFECVSelector(BaseSelector):
    __doc__ = f"""scikit-learn's RFECV under featsieve's input policy (see :class:`RFESelector`).

    Parameters
    ----------
    estimator : estimator or None, default=None
    step : int, float or "auto", default="auto"
        As in :class:`RFESelector`, but ``"auto"`` removes 5% of the columns per
        iteration above 1,000 (RFECV runs one path per fold and the final one:
        about 20 iterations each instead of 100).
    cv : int or CV splitter, default=5
        An int means stratified (classes) or plain k-fold, shuffled with
        ``random_state``.
    scoring : str, callable or None, default=None
        Accuracy for classes, negative MSE for regression when None.
    min_features_to_select : int, default=1
    task : {{"auto", "classification", "regression"}}, default="auto"
    random_state : int, RandomState or None, default=None
    n_jobs : int or None, default=None
        Folds in parallel.
    {_MAX_SAMPLES_DOC}

    Attributes
    ----------
    support_, ranking_ : ndarray of shape (n_features_in_,)
    cv_results_ : dict of arrays
        scikit-learn's per-size CV scores (mean over folds, not sums).
    n_model_fits_ : int
    step_ : int
    strategy_ : str
    n_samples_used_ : int
    """

    _missing = "model"  # NaN to the model when it takes NaN, else imputed (BaseSelector)

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "step": [Interval(numbers.Real, 0, None, closed="neither"), StrOptions({"auto"})],
        "cv": [Interval(numbers.Integral, 2, None, closed="left"), "cv_object"],
        "scoring": [None, str, callable],
        "min_features_to_select": [Interval(numbers.Integral, 1, None, closed="left")],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                        StrOptions({"auto"}), None],
    }

    def __init__(self, estimator=None, *, step="auto", cv=5, scoring=None,
                 min_features_to_select=1, task="auto", random_state=None, n_jobs=None,
                 max_samples="auto"):
        self.max_samples = max_samples
        self.estimator = estimator
        self.step = step
        self.cv = cv
        self.scoring = scoring
        self.min_features_to_select = min_features_to_select
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """One elimination path per fold (on ``(k-1)/k`` of the rows) and the final one."""
        d = n_features
        k = int(self.cv) if isinstance(self.cv, numbers.Integral) else 5
        step, strategy = _resolve_step(self.step, d, fraction=AUTO_STEP_FRACTION_CV)
        kind = model_kind(self.estimator)
        n_samples = _capped_n(self, n_samples)
        f1, s1 = _path_seconds(kind, n_samples * (k - 1) / k, d,
                               min(self.min_features_to_select, d), step)
        f2, s2 = _path_seconds(kind, n_samples, d, max(1, d // 2), step)
        return Cost(memory_bytes=8 * n_samples * d, fits=k * f1 + f2,
                    fit_seconds=k * s1 + s2, model=kind, strategy=strategy)

    def _fit(self, X, y, groups=None):
        d = X.shape[1]
        step, strategy = _resolve_step(self.step, d, type(self).__name__,
                                       AUTO_STEP_FRACTION_CV)
        X, y, rows = _capped(self, X, y)
        self.strategy_ = "; ".join(t for t in (strategy, rows) if t)
        self.step_ = step
        if d == 1:  # one usable column: nothing to eliminate
            self.rfecv_, self.cv_results_ = None, {}
            self.support_, self.ranking_ = np.ones(1, bool), np.ones(1, np.int64)
            self.n_model_fits_ = 0
            return self
        est = self.estimator if self.estimator is not None else default_tree(self.task_, random_state=0, max_depth=6)
        cv = cv_splitter(self.task_, self.cv, self.random_state) if isinstance(
            self.cv, numbers.Integral) else self.cv
        if groups is not None and isinstance(self.cv, numbers.Integral):
            # folds that keep each group whole (StratifiedGroupKFold / GroupKFold)
            cv = check_cv(inner_cv(self.task_, self.cv, groups=groups, y=y,
                                   random_state=self.random_state))
        min_k = min(self.min_features_to_select, d)
        rfecv = RFECV(est, step=step, cv=cv, scoring=self.scoring or scorer_for(self.task_),
                      min_features_to_select=min_k, n_jobs=self.n_jobs,
                      importance_getter=_importance_getter).fit(
                          X, y, **({} if groups is None else {"groups": groups}))
        per_path = int(np.ceil((d - min_k) / step)) + 1
        self.rfecv_, self.support_, self.ranking_ = rfecv, rfecv.support_, rfecv.ranking_
        self.cv_results_ = rfecv.cv_results_
        self.n_model_fits_ = cv.get_n_splits() * per_path + int(
            np.ceil((d - rfecv.n_features_) / step)) + 1
        return self
