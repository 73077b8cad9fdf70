"""Models the front ends offer by name, and the comparison metrics.

LightGBM is imported only when a LightGBM model is built, so
``import featsieve`` stays light (STYLE.md habit 1).
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import accuracy_score, mean_squared_error

__all__ = ["MODEL_NAMES", "make_model", "metric_name", "score", "greater_is_better"]

MODEL_NAMES = ("lightgbm", "mlp", "tree", "logistic", "linear", "elm")


def make_model(name: str, task: str, *, random_state=None):
    """Build a model by name for a task.

    Parameters
    ----------
    name : {"lightgbm", "mlp", "tree", "logistic", "linear", "elm"}
        ``logistic`` and ``linear`` are the same choice: logistic regression
        for classes, ridge-free least squares for regression. ``elm``: an
        extreme learning machine with 160 sigmoid hidden neurons (FS-SDS's
        classifier in seed 001 §5.1; :mod:`featsieve._elm`).
    task : {"classification", "regression"}
    random_state : int or None, default=None

    Returns
    -------
    estimator : unfitted scikit-learn compatible estimator
        LightGBM runs single-threaded (``n_jobs=1``) so that featsieve's own
        joblib parallelism does not oversubscribe the cores.

    Notes
    -----
    Models see featsieve's encoded table (one column per original column:
    numbers, booleans 0/1, category codes, dates as days; NaN where missing).
    LightGBM and the decision tree take NaN natively (a learned direction for
    missing values). ``mlp`` and ``logistic``/``linear`` are pipelines that
    first impute a missing value with the column's training median
    (``SimpleImputer``; an all-missing column is kept as zeros), then
    standardize; category codes enter them as numbers (ordinal encoding), so
    keeping a column keeps its one encoded column and dropping it drops it.

    Raises
    ------
    ValueError
        Unknown name or task.
    """
    clf = task == "classification"
    if task not in ("classification", "regression"):
        raise ValueError(f"Unknown task {task!r}.")
    if name == "lightgbm":
        import lightgbm as lgb

        cls = lgb.LGBMClassifier if clf else lgb.LGBMRegressor
        return cls(n_estimators=100, random_state=random_state, n_jobs=1, verbose=-1)
    if name == "mlp":
        from sklearn.neural_network import MLPClassifier, MLPRegressor
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        cls = MLPClassifier if clf else MLPRegressor
        return make_pipeline(
            _imputer(),
            StandardScaler(),
            cls(hidden_layer_sizes=(64,), max_iter=500, early_stopping=False,
                random_state=random_state),
        )
    if name == "tree":
        from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

        cls = DecisionTreeClassifier if clf else DecisionTreeRegressor
        return cls(max_depth=6, random_state=random_state)
    if name in ("logistic", "linear"):
        from sklearn.linear_model import LinearRegression, LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        est = LogisticRegression(max_iter=2000) if clf else LinearRegression()
        return make_pipeline(_imputer(), StandardScaler(), est)
    if name == "elm":
        from ._elm import ELMClassifier, ELMRegressor

        cls = ELMClassifier if clf else ELMRegressor
        return cls(n_hidden=160, activation="sigmoid", random_state=random_state)
    raise ValueError(f"Unknown model {name!r}; choose one of {', '.join(MODEL_NAMES)}.")


def _imputer():
    from sklearn.impute import SimpleImputer

    return SimpleImputer(strategy="median", keep_empty_features=True)


def metric_name(task: str) -> str:
    """The comparison metric: accuracy for classes, mean squared error for regression."""
    return "accuracy" if task == "classification" else "mse"


def greater_is_better(task: str) -> bool:
    """Whether the comparison metric of ``task`` is higher-is-better (accuracy) or not (MSE)."""
    return task == "classification"


def metric_value(task: str, selection_score: float) -> float:
    """A selector's ``selection_score_`` (higher is better) in the comparison metric's units.

    Selectors report higher-is-better scores; for a lower-is-better metric
    (MSE) that is the metric's negative, so the sign is flipped back.

    Examples
    --------
    >>> metric_value("regression", -2.5)
    2.5
    """
    s = float(selection_score)
    return s if greater_is_better(task) else -s


def score(task: str, y_true, y_pred) -> float:
    """The comparison metric of :func:`metric_name` (accuracy, or MSE: lower is better)."""
    if task == "classification":
        return float(accuracy_score(y_true, y_pred))
    return float(mean_squared_error(np.asarray(y_true, float), np.asarray(y_pred, float)))
