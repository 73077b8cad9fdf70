"""The filter family of seed 002: keep the columns whose univariate score is highest."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import BaseSelector
from .._resources import ROWS_SCORES, capped_rows
from .._utils import rank_from_scores
from .._validation import N_FEATURES_CONSTRAINT
from ..scores import abs_correlation_scores, mutual_info_scores, stump_gain_scores

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
        For the mutual-information estimator and its target permutations.
    n_jobs : int or None, default=None
        For the mutual-information estimator.
    max_samples : int, "auto" or None, default="auto"
        Rows the scores are computed on (tall tables). ``"auto"``: for
        ``"mi"`` (a k-nearest-neighbour estimate, ``O(n log n)`` per column)
        a seeded, stratified subsample of 100,000 rows when there are more;
        the other scores are linear in the rows and read every row. An int
        caps every score function at that many rows; None reads every row.
        A subsample is stated in a ``ScalableFormWarning`` and ``strategy_``.

    Notes
    -----
    ``fit(..., sample_weight=)``: ``"cc"`` and ``"purity"`` weight the rows
    (weighted correlation, Cramér's V and correlation ratio; weighted impurities);
    ``"mi"`` and callables raise a TypeError naming ``sample_weight``.

    Missing values are imputed before scoring (``BaseSelector``: the training
    median; a categorical column's missing rows are a category of their own).
    Categorical columns: ``"mi"`` counts them and booleans as discrete
    (scikit-learn's ``discrete_features``), their MI minus its chance level
    under seeded target permutations (:func:`featsieve.mutual_info_scores`), so a
    many-level column (a ticket number) does not win by chance; ``"cc"`` scores them by Cramér's V
    (classes) or the correlation ratio (numeric target) instead of a
    correlation of codes; ``"purity"`` and callables see the category codes
    (a split of codes ``< v`` / ``>= v``, codes in the order of the categories);
    a callable that accepts ``categorical=`` is given the categorical columns'
    mask (``kbest``'s ANOVA F scores such a column by its levels' indicators).

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
        1 for the best score; ties broken by the lower column index.
    support_ : ndarray of bool, shape (n_features_in_,)
    n_samples_used_ : int
        Rows the scores were computed on.
    strategy_ : str
        The row subsample, when one was drawn (empty otherwise).

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
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                        StrOptions({"auto"}), None],
    }

    def __init__(self, score_func="mi", *, n_features_to_select=None, threshold=None,
                 min_samples_leaf=20, task="auto", random_state=None, n_jobs=None,
                 max_samples="auto"):
        self.score_func = score_func
        self.n_features_to_select = n_features_to_select
        self.threshold = threshold
        self.min_samples_leaf = min_samples_leaf
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.max_samples = max_samples

    def _row_cap(self):
        if self.max_samples == "auto":
            return ROWS_SCORES if (isinstance(self.score_func, str)
                                   and self.score_func == "mi") else None
        return self.max_samples

    def _fit(self, X, y, sample_weight=None):
        if sample_weight is not None and self.score_func not in ("cc", "purity"):
            raise TypeError(
                f"UnivariateFilter({self.score_func!r}) does not use sample_weight: "
                "scikit-learn's mutual-information estimator and a callable score are "
                "unweighted. Use score_func='cc' or 'purity' (weighted), or fit without "
                "sample_weight.")
        rows, self.strategy_ = capped_rows(
            type(self).__name__, y, self._row_cap(), auto=ROWS_SCORES,
            stratify=self.task_ == "classification", random_state=self.random_state)
        if rows is not None:
            X, y = X[rows], y[rows]
            if sample_weight is not None:
                sample_weight = np.asarray(sample_weight)[rows]
        self.n_samples_used_ = X.shape[0]
        if self.score_func == "mi":
            scores = mutual_info_scores(X, y, task=self.task_, random_state=self.random_state,
                                        n_jobs=self.n_jobs, discrete=self._fit_discrete)
        elif self.score_func == "cc":
            scores = abs_correlation_scores(X, y, task=self.task_,
                                            categorical=self._fit_categorical,
                                            sample_weight=sample_weight)
        elif self.score_func == "purity":
            scores = stump_gain_scores(X, y, min_samples_leaf=self.min_samples_leaf,
                                       task=self.task_, sample_weight=sample_weight)
        else:  # a callable that takes categorical= gets the categorical columns
            kw = ({"categorical": self._fit_categorical}
                  if _takes_keyword(self.score_func, "categorical") else {})
            scores = np.asarray(self.score_func(X, y, **kw), dtype=np.float64).ravel()
            if scores.shape != (X.shape[1],):
                raise ValueError(
                    f"score_func returned shape {scores.shape}; expected ({X.shape[1]},)."
                )
        scores = np.nan_to_num(np.asarray(scores, dtype=np.float64), nan=0.0)
        _, ranking = rank_from_scores(scores)
        if self.threshold is not None:
            support = scores >= self.threshold
        else:
            k = self._n_to_select(X.shape[1])
            support = ranking <= k
        self.scores_, self.ranking_, self.support_ = scores, ranking, support
        self.n_model_fits_ = 0
        return self


def _takes_keyword(fn, name: str) -> bool:
    """Whether callable ``fn`` (a function or a ``functools.partial``) accepts ``name=``."""
    import inspect

    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
