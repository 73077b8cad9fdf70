"""Forest-based comparators: Boruta (all-relevant) and recursive elimination by SHAP.

Both are thin adapters: the algorithms are those of the ``boruta`` package
(BorutaPy) and of scikit-learn's RFECV driven by ``shap``'s tree explainer;
featsieve adds its input policy (:class:`featsieve.BaseSelector`) and the
honest protocol around them.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from .._base import BaseSelector
from .._utils import cv_splitter, scorer_for
from ._common import require, seed_of

__all__ = ["BorutaSelector", "ShapRFESelector"]

_TASK = [StrOptions({"auto", "classification", "regression"})]


class BorutaSelector(BaseSelector):
    """All-relevant selection with BorutaPy on a random forest.

    Each iteration appends a shuffled copy ("shadow") of every column, fits
    the forest and counts a hit for each column whose importance beats the
    ``perc`` percentile of the shadows' importances; a two-sided binomial test
    over iterations (Bonferroni or, with ``two_step``, Benjamini-Hochberg then
    Bonferroni) confirms or rejects columns. This is the ``boruta`` package's
    ``BorutaPy`` unchanged; featsieve passes a clone of the forest and an int
    seed, so the given objects are never modified.

    Parameters
    ----------
    estimator : estimator or None, default=None
        A model with ``feature_importances_`` and an ``n_estimators``
        parameter. None: scikit-learn's random forest for the task with
        ``max_depth`` levels, balanced class weights for classes (BorutaPy's
        recommended setting).
    n_estimators : int or "auto", default="auto"
        Trees per iteration; "auto" lets BorutaPy size the forest from the
        number of columns.
    perc : int in [1, 100], default=100
        Percentile of the shadow importances a column must beat (100: the
        best shadow, the original Boruta).
    alpha : float in (0, 1), default=0.05
        Significance level of the tests.
    two_step : bool, default=True
        Benjamini-Hochberg FDR step before the Bonferroni one (BorutaPy's
        default); False gives the original Boruta's Bonferroni only.
    max_iter : int, default=100
        Iterations at most; columns undecided then are "tentative".
    max_depth : int or None, default=5
        Depth of the default forest (BorutaPy recommends 3 to 7).
    keep_tentative : bool, default=False
        Also keep the tentative columns.
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the shadows and the forests.
    n_jobs : int or None, default=None
        Trees in parallel (the default forest's ``n_jobs``).

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
        Confirmed columns (plus tentative ones with ``keep_tentative``).
    tentative_ : ndarray of bool, shape (n_features_in_,)
        Columns neither confirmed nor rejected after ``max_iter`` iterations.
    ranking_ : ndarray of int, shape (n_features_in_,)
        BorutaPy's ranking: 1 confirmed, 2 tentative, then rejected columns
        by when they were rejected (later is better).
    n_iter_ : int
        Iterations run.
    n_model_fits_ : int
        Forests fitted (one per iteration).

    Raises
    ------
    MethodUnavailableError
        ``boruta`` is not installed: ``pip install 'featsieve[comparators]'``.

    Notes
    -----
    Boruta keeps every column the forest uses more than chance allows, also
    redundant copies of a useful column: it answers "which columns matter",
    not "the smallest good set", so it usually keeps more columns than the
    seeds' methods. Cost: up to ``max_iter`` forest fits on ``2 d`` columns.

    References
    ----------
    Kursa, M. B. and Rudnicki, W. R. (2010). Feature selection with the Boruta
    package. Journal of Statistical Software 36(11). BorutaPy:
    https://github.com/scikit-learn-contrib/boruta_py (Homola, 2015).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from featsieve.comparators import BorutaSelector
    >>> X, y = make_classification(200, 8, n_informative=3, n_redundant=0,
    ...                            shuffle=False, random_state=0)
    >>> BorutaSelector(max_iter=20, random_state=0).fit(X, y).get_support(indices=True)
    array([0, 1, 2])
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left"),
                         StrOptions({"auto"})],
        "perc": [Interval(numbers.Integral, 1, 100, closed="both")],
        "alpha": [Interval(numbers.Real, 0, 1, closed="neither")],
        "two_step": ["boolean"],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "keep_tentative": ["boolean"],
        "task": _TASK,
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(self, estimator=None, *, n_estimators="auto", perc=100, alpha=0.05,
                 two_step=True, max_iter=100, max_depth=5, keep_tentative=False, task="auto",
                 random_state=None, n_jobs=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.perc = perc
        self.alpha = alpha
        self.two_step = two_step
        self.max_iter = max_iter
        self.max_depth = max_depth
        self.keep_tentative = keep_tentative
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _forest(self):
        if self.estimator is not None:
            return clone(self.estimator)
        from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor

        if self.task_ == "classification":
            return RandomForestClassifier(max_depth=self.max_depth, class_weight="balanced",
                                          n_jobs=self.n_jobs)
        return RandomForestRegressor(max_depth=self.max_depth, n_jobs=self.n_jobs)

    def _fit(self, X, y):
        BorutaPy = require("boruta", "boruta").BorutaPy
        bp = BorutaPy(self._forest(), n_estimators=self.n_estimators, perc=self.perc,
                      alpha=self.alpha, two_step=self.two_step, max_iter=self.max_iter,
                      random_state=seed_of(self.random_state), verbose=0)
        bp.fit(X, y)
        tentative = np.asarray(bp.support_weak_, bool)
        support = np.asarray(bp.support_, bool)
        self.support_ = support | tentative if self.keep_tentative else support
        self.tentative_ = self._to_input_columns(tentative, False)
        self.ranking_ = np.asarray(bp.ranking_, np.int64)
        # importance_history_ holds one row per iteration after a row of zeros
        self.n_iter_ = max(1, int(np.shape(bp.importance_history_)[0]) - 1)
        self.n_model_fits_ = self.n_iter_
        return self


class _MeanAbsShap(BaseEstimator):
    """A tree model that, once fitted, exposes mean |SHAP| on its training rows.

    ``feature_importances_[j]`` is the mean over rows of ``|phi_j|`` from
    ``shap.TreeExplainer`` (path-dependent TreeSHAP; summed over classes),
    so scikit-learn's RFECV can eliminate by it.
    """

    def __init__(self, model):
        self.model = model

    def fit(self, X, y):
        shap = require("shap", "shap")
        self.model_ = clone(self.model).fit(X, y)
        if hasattr(self.model_, "classes_"):
            self.classes_ = self.model_.classes_
        try:
            explainer = shap.TreeExplainer(self.model_)
        except Exception as exc:  # shap raises its own types for unknown models
            raise ValueError(
                f"The shap method explains tree models (LightGBM, XGBoost, scikit-learn trees "
                f"and forests); shap's TreeExplainer cannot read {type(self.model).__name__}: "
                f"{exc}. Use --model lightgbm or tree.") from exc
        with warnings.catch_warnings():
            # shap's note that a binary LightGBM's output shape changed: handled below
            warnings.filterwarnings("ignore", message="LightGBM binary classifier",
                                    category=UserWarning)
            # the additivity check trips on LightGBM's float rounding; values are TreeSHAP's
            phi = np.abs(np.asarray(explainer.shap_values(X, check_additivity=False)))
        if phi.ndim == 3 and phi.shape[0] == X.shape[0]:  # (rows, columns, classes)
            phi = phi.transpose(2, 0, 1)
        phi = phi.reshape(-1, X.shape[0], X.shape[1])  # (classes or 1, rows, columns)
        self.feature_importances_ = phi.mean(axis=1).sum(axis=0)
        return self

    def predict(self, X):
        return self.model_.predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = self.model.__sklearn_tags__()
        tags.estimator_type = inner.estimator_type
        return tags


class ShapRFESelector(BaseSelector):
    """Recursive elimination by mean |SHAP| of a tree model, size chosen by CV.

    scikit-learn's ``RFECV`` whose importance is the mean |SHAP| value of the
    fitted model on its training rows (``shap.TreeExplainer``, path-dependent
    TreeSHAP, summed over classes): in each fold the model is refitted on the
    remaining columns and the ``step`` columns of smallest mean |SHAP| are
    dropped; the size of best mean validation score is kept, and the final
    elimination runs on all the rows ``fit`` receives (the training part
    under the honest protocol). probatus' ``ShapRFECV`` was the first choice;
    it explains only class 1 of a multi-class model, so featsieve composes
    shap and RFECV instead.

    Parameters
    ----------
    estimator : estimator or None, default=None
        A tree model ``shap.TreeExplainer`` reads (LightGBM, XGBoost,
        scikit-learn trees and forests). None: LightGBM with 100 trees (the
        comparison's default model).
    step : int or float, default=0.2
        Columns dropped per round (a float is a share of all columns, at
        least one).
    cv : int, default=5
        Folds, shuffled and seeded (stratified for classes).
    scoring : str or None, default=None
        scikit-learn scorer; None: accuracy for classes, negative MSE for
        regression (the comparison's metric).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the folds (and the default model).
    n_jobs : int or None, default=None
        Folds in parallel.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
        1 for the kept columns, then by elimination round (a column dropped
        later ranks better).
    cv_results_ : dict of ndarray
        scikit-learn's per-size results (``n_features``, ``mean_test_score``,
        ``std_test_score``, ``split{k}_test_score``).
    n_model_fits_ : int
        Rounds times folds, plus the final elimination.

    Raises
    ------
    ValueError
        A model shap's tree explainer cannot read.
    MethodUnavailableError
        ``shap`` is not installed: ``pip install 'featsieve[comparators]'``.

    Notes
    -----
    TreeSHAP costs O(trees x leaves x depth^2) per row and model fit.

    References
    ----------
    Lundberg, S. M. et al. (2020). From local explanations to global
    understanding with explainable AI for trees. Nature Machine Intelligence 2.
    Guyon, I. et al. (2002). Gene selection for cancer classification using
    support vector machines. Machine Learning 46 (recursive elimination).

    Examples
    --------
    >>> from featsieve.comparators import ShapRFESelector
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(200, 8, n_informative=3, n_redundant=0,
    ...                            shuffle=False, random_state=0)
    >>> ShapRFESelector(step=1, cv=3, random_state=0).fit(X, y).get_support(indices=True)
    array([0, 1, 2])
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "step": [Interval(numbers.Integral, 1, None, closed="left"),
                 Interval(numbers.Real, 0, 1, closed="neither")],
        "cv": [Interval(numbers.Integral, 2, None, closed="left")],
        "scoring": [None, str],
        "task": _TASK,
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(self, estimator=None, *, step=0.2, cv=5, scoring=None, task="auto",
                 random_state=None, n_jobs=None):
        self.estimator = estimator
        self.step = step
        self.cv = cv
        self.scoring = scoring
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _fit(self, X, y):
        from sklearn.feature_selection import RFECV

        require("shap", "shap")
        d = X.shape[1]
        if d == 1:  # nothing to eliminate
            self.support_, self.ranking_ = np.ones(1, bool), np.ones(1, np.int64)
            self.cv_results_, self.n_model_fits_ = {}, 0
            return self
        if self.estimator is not None:
            model = self.estimator
        else:
            from ..models import make_model

            model = make_model("lightgbm", self.task_, random_state=seed_of(self.random_state))
        cv = cv_splitter(self.task_, self.cv, self.random_state)
        rfe = RFECV(_MeanAbsShap(model), step=self.step, cv=cv,
                    scoring=self.scoring or scorer_for(self.task_),
                    n_jobs=self.n_jobs).fit(X, y)
        step = self.step if self.step >= 1 else max(1, int(self.step * d))
        rounds = int(np.ceil((d - 1) / step)) + 1
        self.support_, self.ranking_ = rfe.support_, rfe.ranking_
        self.cv_results_ = rfe.cv_results_
        self.n_model_fits_ = cv.get_n_splits() * rounds + int(
            np.ceil((d - rfe.n_features_) / step)) + 1
        return self
