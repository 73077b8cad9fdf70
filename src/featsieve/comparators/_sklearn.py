"""Comparators built from scikit-learn alone: L1 models, permutation importance, SFS.

Each is a thin adapter around scikit-learn's own tool (``SelectFromModel`` on
an L1-penalised linear model, ``permutation_importance``,
``SequentialFeatureSelector``); featsieve adds its input policy and the
honest protocol.
"""

from __future__ import annotations

import numbers

import numpy as np
import sklearn
from sklearn.base import clone
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import BaseSelector
from .._utils import cv_splitter, default_tree, rank_from_scores, scorer_for
from ._common import seed_of

__all__ = ["L1Selector", "PermutationSelector", "SFSSelector"]

_TASK = [StrOptions({"auto", "classification", "regression"})]
_L1_THRESHOLD = 1e-5  # SelectFromModel's own threshold for L1 models


def _sklearn_at_least(major: int, minor: int) -> bool:
    v = tuple(int(p) for p in sklearn.__version__.split(".")[:2])
    return v >= (major, minor)


def _l1_logistic(C, solver, random_state, max_iter):
    """An L1 logistic regression under the spelling of the installed scikit-learn."""
    from sklearn.linear_model import LogisticRegression

    pen = {"l1_ratio": 1.0} if _sklearn_at_least(1, 8) else {"penalty": "l1"}
    return LogisticRegression(C=C, solver=solver, random_state=random_state,
                              max_iter=max_iter, **pen)


class L1Selector(BaseSelector):
    """Columns with a non-zero coefficient in an L1-penalised linear model.

    Classes: L1 logistic regression; numbers: the Lasso; both on standardized
    columns. The penalty runs over a log grid from the value where the first
    column enters (``l1_min_c`` for logistic regression, ``alpha_max`` for the
    Lasso) to ``1000`` times weaker; at each grid value scikit-learn's
    ``SelectFromModel`` keeps the columns with ``|coef| > 1e-5`` (its own
    threshold for L1 models), summed over classes. The selector's own choice
    is the penalty of best cross-validated score on the rows it is fitted on
    (``LogisticRegressionCV`` / ``LassoCV`` over the same grid); under
    ``compare`` every grid value's columns are a candidate
    (:meth:`support_at` with ``penalty=``) and the penalty is tuned on the
    model-validation split like the other methods' knobs.

    Parameters
    ----------
    n_penalties : int, default=10
        Grid size.
    cv : int, default=5
        Folds for the selector's own choice (shuffled, seeded, stratified).
    max_iter : int, default=2000
        Solver iterations.
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the folds and the solvers.
    n_jobs : int or None, default=None
        Folds in parallel.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    scores_ : ndarray of shape (n_features_in_,)
        |coefficient| (summed over classes) at the chosen penalty, on
        standardized columns.
    penalty_ : float
        The chosen ``C`` (logistic; larger is weaker) or ``alpha`` (Lasso).
    path_ : list of (float, ndarray of bool)
        ``(penalty, support)`` per grid value, strongest penalty first.
    n_iter_ : int
        Solver iterations of the fit at the chosen penalty.
    n_model_fits_ : int

    Notes
    -----
    Binary classes use liblinear, more classes saga (multinomial). Cost:
    ``n_penalties * (cv + 1)`` linear fits.

    References
    ----------
    Tibshirani, R. (1996). Regression shrinkage and selection via the lasso.
    JRSS B 58(1). scikit-learn's ``SelectFromModel`` and L1-based selection.

    Examples
    --------
    >>> from featsieve.comparators import L1Selector
    >>> from sklearn.datasets import make_regression
    >>> X, y = make_regression(200, 8, n_informative=3, noise=1.0, shuffle=False,
    ...                        random_state=0)
    >>> L1Selector(random_state=0).fit(X, y).get_support(indices=True)
    array([0, 1, 2])
    """

    _parameter_constraints = {
        "n_penalties": [Interval(numbers.Integral, 1, None, closed="left")],
        "cv": [Interval(numbers.Integral, 2, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "task": _TASK,
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(self, *, n_penalties=10, cv=5, max_iter=2000, task="auto", random_state=None,
                 n_jobs=None):
        self.n_penalties = n_penalties
        self.cv = cv
        self.max_iter = max_iter
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, y):
        from sklearn.feature_selection import SelectFromModel
        from sklearn.preprocessing import StandardScaler

        Xs = StandardScaler().fit_transform(X)
        seed = seed_of(self.random_state)
        cv = cv_splitter(self.task_, self.cv, seed)
        if self.task_ == "classification":
            from sklearn.linear_model import LogisticRegressionCV
            from sklearn.svm import l1_min_c

            solver = "liblinear" if len(np.unique(y)) == 2 else "saga"
            grid = l1_min_c(Xs, y, loss="log") * np.logspace(0, 3, self.n_penalties)
            pen = {"l1_ratios": (1.0,)} if _sklearn_at_least(1, 8) else {"penalty": "l1"}
            extra = {"use_legacy_attributes": False} if _sklearn_at_least(1, 8) else {}
            tuned = LogisticRegressionCV(Cs=grid, cv=cv, solver=solver, scoring="neg_log_loss",
                                         max_iter=self.max_iter, random_state=seed,
                                         n_jobs=self.n_jobs, **pen, **extra).fit(Xs, y)
            chosen = float(np.ravel(tuned.C_)[0])
            models = [_l1_logistic(C, solver, seed, self.max_iter) for C in grid]
        else:
            from sklearn.linear_model import Lasso, LassoCV

            tuned = LassoCV(n_alphas=self.n_penalties, eps=1e-3, cv=cv, max_iter=self.max_iter,
                            n_jobs=self.n_jobs).fit(Xs, y) if not _sklearn_at_least(1, 7) else \
                LassoCV(alphas=self.n_penalties, eps=1e-3, cv=cv, max_iter=self.max_iter,
                        n_jobs=self.n_jobs).fit(Xs, y)
            grid, chosen = np.asarray(tuned.alphas_, float), float(tuned.alpha_)
            models = [Lasso(alpha=a, max_iter=self.max_iter) for a in grid]
        path, coefs, iters = [], [], []
        for pen_value, model in zip(grid, models, strict=True):
            sfm = SelectFromModel(model, threshold=_L1_THRESHOLD).fit(Xs, y)
            path.append((float(pen_value), sfm.get_support()))
            coefs.append(np.abs(np.atleast_2d(sfm.estimator_.coef_)).sum(axis=0))
            iters.append(max(1, int(np.max(sfm.estimator_.n_iter_))))
        at = int(np.argmin(np.abs(np.log(grid) - np.log(chosen))))
        self.path_, self.penalty_, self.n_iter_ = path, chosen, iters[at]
        self.support_, self.scores_ = path[at][1], coefs[at]
        self.n_model_fits_ = len(grid) * (cv.get_n_splits() + 2)
        return self

    def _expand_fitted(self):
        super()._expand_fitted()
        self.path_ = [(value, self._to_input_columns(support, False))
                      for value, support in self.path_]

    def penalty_grid(self) -> list[float]:
        """Penalties of the path whose supports differ (the first of each), non-empty ones.

        The tuning grid of ``compare`` (model-val picks one).
        """
        check_is_fitted(self, "path_")
        out, seen = [], set()
        for value, support in self.path_:
            key = support.tobytes()
            if support.any() and key not in seen:
                seen.add(key)
                out.append(value)
        return out

    def support_at(self, *, penalty: float | None = None, n_features: int | None = None):
        """The columns at another penalty of the path (or the top ``n_features`` by |coef|).

        Parameters
        ----------
        penalty : float, optional
            A penalty of :attr:`path_` (the nearest one on a log scale is used):
            ``C`` for classes, ``alpha`` for numbers.
        n_features : int, optional
            The base class's cut of :attr:`scores_`.

        Returns
        -------
        support : ndarray of bool, shape (n_features_in_,)
        """
        if penalty is None:
            return super().support_at(n_features=n_features)
        check_is_fitted(self, "path_")
        grid = np.array([v for v, _ in self.path_])
        at = int(np.argmin(np.abs(np.log(grid) - np.log(float(penalty)))))
        return self.path_[at][1].copy()


class PermutationSelector(BaseSelector):
    """Columns whose permutation importance on held-out rows is beyond noise.

    The model is fitted once on the rows ``fit`` receives; scikit-learn's
    ``permutation_importance`` shuffles each column ``n_repeats`` times in the
    held-out rows (the selection-validation split under ``compare``, as for
    GBMO) and records the drop in score. Rule: keep a column when its mean
    drop exceeds ``n_std`` standard deviations of its drops over the repeats
    (``mean - n_std * std > 0``, the rule of scikit-learn's permutation
    importance guide with ``n_std=2``); with ``n_features_to_select`` set,
    keep the top k by mean drop instead. Under ``compare`` the multiplier is
    tuned on the model-validation split over {0, 1, 2, 3} from the one fit
    (:meth:`support_at` with ``n_std=``).

    Parameters
    ----------
    estimator : estimator or None, default=None
        The model; a depth-6 decision tree when None.
    n_features_to_select : int, float or None, default=None
        None applies the noise rule.
    n_repeats : int, default=10
        Shuffles per column.
    n_std : float, default=2.0
        Noise rule multiplier.
    scoring : str or None, default=None
        Accuracy for classes, negative MSE for regression when None.
    validation_fraction : float, default=0.4
        Share of the rows held out when ``fit`` gets no ``X_val``.
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the held-out split, the model and the shuffles.
    n_jobs : int or None, default=None
        Columns in parallel.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    scores_ : ndarray of shape (n_features_in_,)
        Mean drop in score (in the scorer's units; accuracy points or MSE).
    importances_std_ : ndarray of shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
    n_model_fits_ : int
        1 (the shuffles only predict).

    References
    ----------
    Breiman, L. (2001). Random forests. Machine Learning 45; scikit-learn's
    ``sklearn.inspection.permutation_importance``.

    Examples
    --------
    >>> from featsieve.comparators import PermutationSelector
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(200, 8, n_informative=3, n_redundant=0,
    ...                            shuffle=False, random_state=0)
    >>> PermutationSelector(random_state=0).fit(X, y).get_support(indices=True)
    array([0, 1, 2])
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "n_features_to_select": [Interval(numbers.Integral, 1, None, closed="left"),
                                 Interval(numbers.Real, 0, 1, closed="right"), None],
        "n_repeats": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_std": [Interval(numbers.Real, 0, None, closed="left")],
        "scoring": [None, str],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither")],
        "task": _TASK,
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }
    _min_samples = 4

    def __init__(self, estimator=None, *, n_features_to_select=None, n_repeats=10, n_std=2.0,
                 scoring=None, validation_fraction=0.4, task="auto", random_state=None,
                 n_jobs=None):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.n_repeats = n_repeats
        self.n_std = n_std
        self.scoring = scoring
        self.validation_fraction = validation_fraction
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, y, X_val=None, y_val=None):
        from sklearn.inspection import permutation_importance

        from ..protocol import holdout_split

        seed = seed_of(self.random_state)
        if X_val is None:
            tr, va = holdout_split(len(y), y, self.validation_fraction,
                                   stratify=self.task_ == "classification", random_state=seed)
            X_tr, y_tr, X_va, y_va = X[tr], y[tr], X[va], y[va]
        else:
            X_va, y_va = self._validate_val(X_val, y_val)
            X_tr, y_tr = X, y
        model = clone(self.estimator) if self.estimator is not None else \
            default_tree(self.task_, max_depth=6, random_state=seed)
        model.fit(X_tr, y_tr)
        res = permutation_importance(model, X_va, y_va, scoring=self.scoring or
                                     scorer_for(self.task_), n_repeats=self.n_repeats,
                                     random_state=seed, n_jobs=self.n_jobs)
        mean, std = res.importances_mean, res.importances_std
        self.scores_, self.importances_std_ = mean, std
        self.ranking_ = rank_from_scores(mean)[1]
        if self.n_features_to_select is None:
            self.support_ = mean - self.n_std * std > 0
        else:
            self.support_ = self.ranking_ <= self._n_to_select(X.shape[1])
        self.n_model_fits_ = 1
        return self

    def _expand_fitted(self):
        super()._expand_fitted()
        self.importances_std_ = self._to_input_columns(self.importances_std_, 0.0)

    def support_at(self, *, n_std: float | None = None, n_features: int | None = None):
        """The noise rule with another multiplier, or the top ``n_features`` by mean drop.

        Parameters
        ----------
        n_std : float, optional
            Keep columns with ``mean - n_std * std > 0``.
        n_features : int, optional
            The base class's cut of :attr:`ranking_`.

        Returns
        -------
        support : ndarray of bool, shape (n_features_in_,)
        """
        if n_std is None:
            return super().support_at(n_features=n_features)
        check_is_fitted(self, "scores_")
        return (self.scores_ - float(n_std) * self.importances_std_ > 0) & ~(
            self.constant_features_ | (self.duplicate_of_ >= 0))


class SFSSelector(BaseSelector):
    """scikit-learn's forward ``SequentialFeatureSelector``, stopped by ``tol``.

    Each round adds the column whose addition gives the best cross-validated
    score; selection stops when the best addition gains less than ``tol``
    (``n_features_to_select="auto"``), or at ``n_features_to_select``
    columns when that is given.

    Parameters
    ----------
    estimator : estimator or None, default=None
        The model; a depth-6 decision tree when None.
    n_features_to_select : int, float or None, default=None
        None: stop by ``tol``.
    tol : float, default=0.005
        Least gain of a round, in the scorer's units (0.005: half an accuracy
        point, or 0.005 of R^2).
    cv : int, default=5
        Folds (shuffled, seeded, stratified for classes).
    scoring : str or None, default=None
        None: accuracy for classes, R^2 for regression (so that ``tol`` has
        no units of y).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the folds.
    n_jobs : int or None, default=None
        Candidate fits in parallel.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    n_model_fits_ : int
        Cross-validation fits over all rounds.

    Notes
    -----
    Cost: about ``cv * d * k`` model fits for k selected columns.

    References
    ----------
    Ferri, F. et al. (1994). Comparative study of techniques for large-scale
    feature selection; scikit-learn's ``SequentialFeatureSelector``.

    Examples
    --------
    >>> from featsieve.comparators import SFSSelector
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(200, 8, n_informative=3, n_redundant=0,
    ...                            shuffle=False, random_state=0)
    >>> SFSSelector(cv=3, random_state=0).fit(X, y).get_support(indices=True)
    array([0, 1, 2, 5])
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "n_features_to_select": [Interval(numbers.Integral, 1, None, closed="left"),
                                 Interval(numbers.Real, 0, 1, closed="right"), None],
        "tol": [Interval(numbers.Real, 0, None, closed="neither")],
        "cv": [Interval(numbers.Integral, 2, None, closed="left")],
        "scoring": [None, str],
        "task": _TASK,
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(self, estimator=None, *, n_features_to_select=None, tol=0.005, cv=5,
                 scoring=None, task="auto", random_state=None, n_jobs=None):
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.tol = tol
        self.cv = cv
        self.scoring = scoring
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, y):
        from sklearn.feature_selection import SequentialFeatureSelector

        d = X.shape[1]
        seed = seed_of(self.random_state)
        model = clone(self.estimator) if self.estimator is not None else \
            default_tree(self.task_, max_depth=6, random_state=seed)
        if d == 1:
            self.support_, self.n_model_fits_ = np.ones(1, bool), 0
            return self
        cv = cv_splitter(self.task_, self.cv, seed)
        k = None if self.n_features_to_select is None else self._n_to_select(d)
        if k == d:  # every column requested: nothing to search
            self.support_, self.n_model_fits_ = np.ones(d, bool), 0
            return self
        sfs = SequentialFeatureSelector(
            model, n_features_to_select="auto" if k is None else k,
            tol=self.tol if k is None else None, direction="forward",
            scoring=self.scoring or ("r2" if self.task_ == "regression" else "accuracy"), cv=cv,
            n_jobs=self.n_jobs).fit(X, y)
        self.support_ = sfs.get_support()
        chosen = int(self.support_.sum())
        rounds = chosen + 1 if (k is None and chosen < d - 1) else chosen
        self.n_model_fits_ = cv.get_n_splits() * sum(d - r for r in range(rounds))
        return self
