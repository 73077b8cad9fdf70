"""Refit a model on the selected columns and score it: the one refit of ``compare`` and the audit.

Every test number featsieve reports is read the same way (seed 002, "The
Selection's Own Number": the selected set is a trained object, so the model is
refit on it and scored on rows the selection never saw).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.dummy import DummyClassifier, DummyRegressor

from ..models import fit_model, score

__all__ = ["evaluate_support", "final_model", "refit_scores"]


def final_model(model, task: str, n_selected: int):
    """A fresh copy of ``model``; with no column selected, the majority-class / mean predictor."""
    if n_selected == 0:
        return DummyClassifier() if task == "classification" else DummyRegressor()
    return clone(model)


def _fit(model, task, X_fit, y_fit, cols, categorical):
    """The refit model on columns ``cols`` (told which of them are categorical)."""
    est = final_model(model, task, cols.size)
    use = cols if cols.size else slice(None)
    cat = None if categorical is None or not cols.size else np.asarray(categorical, bool)[cols]
    return fit_model(est, X_fit[:, use], y_fit, categorical=cat), use


def refit_scores(model, task: str, X_fit, y_fit, evals, columns, categorical=None) -> list[float]:
    """Fit a fresh copy of ``model`` on ``columns`` of ``X_fit``; its score on each pair of ``evals``.

    Parameters
    ----------
    model : estimator
    task : {"classification", "regression"}
    X_fit : ndarray of shape (n_fit, n_features)
    y_fit : ndarray of shape (n_fit,)
    evals : sequence of (X, y)
        Where to score the refit model (metric units of :func:`featsieve.models.score`).
    columns : array-like of bool of shape (n_features,), or of int
        A support mask, or column indices in the order the model gets them.
        No column: the majority class (classes) or the mean (regression).
    categorical : array-like of bool of shape (n_features,) or None, default=None
        The categorical columns of ``X_fit`` (category codes), for the model's
        native categorical handling or its preparation
        (:func:`featsieve.models.fit_model`).

    Returns
    -------
    scores : list of float
        One per pair of ``evals``.
    """
    cols = np.asarray(columns)
    if cols.dtype == bool:
        cols = np.flatnonzero(cols)
    cols = cols.astype(np.int64, copy=False)
    est, use = _fit(model, task, X_fit, y_fit, cols, categorical)
    return [score(task, y, est.predict(X[:, use])) for X, y in evals]


def evaluate_support(model, task, X_fit, y_fit, X_eval, y_eval, support, metric=None,
                     return_constant=False, categorical=None, fitted=None):
    """Fit a fresh copy of ``model`` on the selected columns and score it on ``(X_eval, y_eval)``.

    With no selected column the model is the majority class (class priors for
    probabilities) / the mean.

    Parameters
    ----------
    model : estimator
    task : {"classification", "regression"}
    X_fit, y_fit, X_eval, y_eval : ndarray
    support : array-like of bool of shape (n_features,)
    metric : Metric or None, default=None
        The comparison's metric (:func:`featsieve.models.resolve_metric`);
        None: accuracy / mean squared error (:func:`featsieve.models.score`).
    return_constant : bool, default=False
        Also return whether the model predicted one value for every row of
        ``X_eval`` (a model too big for the table, or no column).
    categorical : array-like of bool of shape (n_features,) or None, default=None
        The categorical columns (see :func:`refit_scores`).
    fitted : estimator or None, default=None
        ``model`` already fitted on ``X_fit``'s ``support`` columns (no refit).

    Returns
    -------
    score : float
        In the metric's shown units (NaN when the metric cannot score the part).
    constant : bool
        Only with ``return_constant``.
    """
    support = np.asarray(support, dtype=bool)
    if metric is None and not return_constant and fitted is None:
        return refit_scores(model, task, X_fit, y_fit, [(X_eval, y_eval)], support,
                            categorical)[0]
    if fitted is not None:
        est, use = fitted, np.flatnonzero(support)
    else:
        est, use = _fit(model, task, X_fit, y_fit, np.flatnonzero(support), categorical)
    pred = np.asarray(est.predict(X_eval[:, use]))
    value = score(task, y_eval, pred) if metric is None else metric(est, X_eval[:, use], y_eval)
    if not return_constant:
        return value
    if task == "classification":
        constant = np.unique(pred).size == 1
    else:
        constant = bool(np.ptp(pred.astype(float)) <= 1e-12 * (1 + np.abs(pred).max()))
    return value, bool(constant)
