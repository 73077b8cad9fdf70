"""Feature importances of a fitted model, whatever kind of model it is."""

from __future__ import annotations

import numpy as np

__all__ = ["model_importances"]


def _final_step(estimator):
    from .models import inner_model

    return inner_model(estimator)


def _per_input(estimator, imp: np.ndarray) -> np.ndarray:
    """Importances of the prepared columns summed back per input column.

    A Pipeline step with ``owner_`` (:class:`featsieve.models.TablePrep`: the
    input column of each output column, e.g. a one-hot block and a
    missing-value indicator) maps the final step's importances back, so an
    original column's importance is the sum of its parts'.
    """
    from .models import _unwrap_target

    for _, step in (getattr(_unwrap_target(estimator), "steps", None) or [])[:-1]:
        owner = getattr(step, "owner_", None)
        if owner is not None and len(owner) == len(imp):
            return np.bincount(owner, weights=imp, minlength=step.n_features_in_)
    return imp


def model_importances(estimator, X=None, y=None, *, scoring=None, random_state=None,
                      n_repeats=5, n_jobs=None) -> np.ndarray:
    """Non-negative importance of each input column of a fitted model.

    Uses, in order: ``feature_importances_`` (trees, boosting), the absolute
    coefficients ``coef_`` (summed over classes; linear models, also at the end
    of a Pipeline whose earlier steps keep the columns, such as a scaler, or
    prepare them: the parts :class:`featsieve.models.TablePrep` makes of one
    column, one-hot categories and a missing-value indicator, are summed), or
    scikit-learn's permutation importance on ``(X, y)`` when the model has
    neither.

    Parameters
    ----------
    estimator : fitted estimator or Pipeline
    X, y : array-like, optional
        Needed only for permutation importance.
    scoring, random_state, n_repeats, n_jobs
        Passed to :func:`sklearn.inspection.permutation_importance`.

    Returns
    -------
    importances : ndarray of shape (n_features,), float64, >= 0

    Raises
    ------
    ValueError
        The model has no importances and no ``X``/``y`` were given.
    """
    final = _final_step(estimator)
    if hasattr(final, "feature_importances_"):
        return _per_input(estimator, np.asarray(final.feature_importances_, dtype=np.float64))
    if hasattr(final, "coef_"):
        coef = np.atleast_2d(np.asarray(final.coef_, dtype=np.float64))
        return _per_input(estimator, np.abs(coef).sum(axis=0))
    if X is None or y is None:
        raise ValueError(
            f"{type(final).__name__} has neither feature_importances_ nor coef_; pass X and y "
            "to compute permutation importance."
        )
    from sklearn.inspection import permutation_importance

    res = permutation_importance(estimator, X, y, scoring=scoring, n_repeats=n_repeats,
                                 random_state=random_state, n_jobs=n_jobs)
    return np.maximum(res.importances_mean, 0.0)
