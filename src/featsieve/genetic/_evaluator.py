"""Subset evaluation shared by FASTENER and POSS: fit on train, score on selection-val.

The evaluator holds the training and selection-validation arrays once (float32
and column-major when the model is a scikit-learn tree, which works in float32
anyway); each evaluation gathers only the item's columns, so no copy of the
whole table is made per evaluation. It is shared read-only by the threads of a
generation.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

from .._cart import PresortedCART, supports
from ._bitset import from_bits

__all__ = ["SubsetEvaluator", "make_metric", "f1_from_labels", "evaluation_dtype", "gather_rows"]


def f1_from_labels(y_true, y_pred, n_classes: int, average: str = "macro") -> float:
    """F1 from integer class codes, as scikit-learn's ``f1_score``.

    ``average="binary"`` scores class 1; ``"macro"`` averages over the labels
    present in ``y_true`` or ``y_pred`` (scikit-learn's default labels), a
    class with no true and no predicted positive counting 0.
    """
    y_true = np.asarray(y_true, dtype=np.int64)
    y_pred = np.asarray(y_pred, dtype=np.int64)
    K = max(int(n_classes), int(y_true.max(initial=0)) + 1, int(y_pred.max(initial=0)) + 1)
    cm = np.bincount(y_true * K + y_pred, minlength=K * K).reshape(K, K)
    tp = np.diag(cm).astype(np.float64)
    fp = cm.sum(axis=0) - tp
    fn = cm.sum(axis=1) - tp
    denom = 2 * tp + fp + fn
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(denom > 0, 2 * tp / np.where(denom > 0, denom, 1), 0.0)
    if average == "binary":
        return float(f1[1]) if K > 1 else 0.0
    present = (cm.sum(axis=0) + cm.sum(axis=1)) > 0
    if average == "weighted":
        support = cm.sum(axis=1).astype(np.float64)
        return float((f1 * support).sum() / support.sum()) if support.sum() else 0.0
    return float(f1[present].mean()) if present.any() else 0.0


def make_metric(scoring, task: str, n_classes: int = 2):
    """A higher-is-better ``metric(y_true, y_pred) -> float`` and its name.

    Parameters
    ----------
    scoring : str or callable
        ``"auto"``: F1 for two classes (class code 1 positive), macro F1 for
        more (seed 001 §3, §5.1), and ``-RMSE`` for regression (§7);
        ``"f1"``, ``"f1_macro"``, ``"f1_weighted"``, ``"accuracy"``,
        ``"neg_rmse"``, ``"neg_mse"``, ``"r2"``; or a callable
        ``(y_true, y_pred) -> float`` (higher is better).
    task : {"classification", "regression"}
    n_classes : int, default=2

    Raises
    ------
    ValueError
        A classification metric for regression or the reverse.
    """
    if callable(scoring):
        return scoring, getattr(scoring, "__name__", "custom")
    clf = task == "classification"
    name = scoring
    if scoring == "auto":
        name = ("f1" if n_classes <= 2 else "f1_macro") if clf else "neg_rmse"
    if name in ("f1", "f1_macro", "f1_weighted", "accuracy") and not clf:
        raise ValueError(f"scoring={scoring!r} needs classes; the task is regression.")
    if name in ("neg_rmse", "neg_mse", "r2") and clf:
        raise ValueError(f"scoring={scoring!r} needs a numeric target; the task is "
                         "classification.")
    if name == "f1":
        avg = "binary" if n_classes <= 2 else "macro"
        return (lambda t, p: f1_from_labels(t, p, n_classes, avg)), name
    if name == "f1_macro":
        return (lambda t, p: f1_from_labels(t, p, n_classes, "macro")), name
    if name == "f1_weighted":
        return (lambda t, p: f1_from_labels(t, p, n_classes, "weighted")), name
    if name == "accuracy":
        return (lambda t, p: float(np.mean(np.asarray(t) == np.asarray(p)))), name
    if name == "neg_rmse":
        return (lambda t, p: -float(np.sqrt(np.mean((np.asarray(t, float)
                                                     - np.asarray(p, float)) ** 2)))), name
    if name == "neg_mse":
        return (lambda t, p: -float(np.mean((np.asarray(t, float)
                                             - np.asarray(p, float)) ** 2))), name
    if name == "r2":
        from sklearn.metrics import r2_score

        return (lambda t, p: float(r2_score(t, p))), name
    raise ValueError(f"Unknown scoring {scoring!r}.")


def _is_float32_model(est) -> bool:
    mod = type(est).__module__
    return mod.startswith("sklearn.tree") or mod.startswith("sklearn.ensemble._forest")


def evaluation_dtype(est):
    """float32 for scikit-learn trees and forests (they compute in float32), else float64."""
    return np.float32 if _is_float32_model(est) else np.float64


def gather_rows(X, rows, dtype) -> np.ndarray:
    """``X[rows]`` as a column-major array of ``dtype``, filled one column at a
    time so that no intermediate copy in ``X``'s dtype is made."""
    out = np.empty((len(rows), X.shape[1]), dtype=dtype, order="F")
    for j in range(X.shape[1]):
        out[:, j] = X[rows, j]
    return out


class SubsetEvaluator:
    """Fit a fresh model on an item's columns of the training part and score it
    on the same columns of the selection-validation part.

    Parameters
    ----------
    estimator : estimator
        Cloned for every evaluation.
    X_train, y_train, X_val, y_val : arrays
        Held once; X parts are converted to float32 column-major when the model
        is a scikit-learn tree or forest (they compute in float32), else kept
        float64.
    metric : callable
        ``metric(y_true, y_pred) -> float``, higher is better.
    task : {"classification", "regression"}
    tree_kernel : bool, default=True
        True: when the model is a plain Gini ``DecisionTreeClassifier``
        (:func:`featsieve._cart.supports`) and neither part has a missing
        value, trees are grown by :class:`featsieve._cart.PresortedCART`
        on the training columns sorted once here (the same tree but for ties
        between equally good splits); False: the model is cloned and
        fitted for every evaluation.

    Attributes
    ----------
    tree_kernel_ : {"presorted", "estimator"}
        What grows the models.

    Notes
    -----
    Memory per evaluation: one ``(n_train, |item|)`` block for the fit and one
    ``(n_val, |item|)`` block for the prediction (the presorted kernel: 8 bytes
    per training cell of the item, plus 4 bytes per training cell once for the
    sorted orders); nothing of size ``n_samples * n_features`` is copied after
    construction.
    """

    def __init__(self, estimator, X_train, y_train, X_val, y_val, metric, task,
                 tree_kernel=True):
        dtype = evaluation_dtype(estimator)
        self.estimator = estimator
        self.X_train = np.asfortranarray(X_train, dtype=dtype)
        self.X_val = np.asfortranarray(X_val, dtype=dtype)
        self.y_train = np.asarray(y_train)
        self.y_val = np.asarray(y_val)
        self.metric = metric
        self.task = task
        self.n_features = self.X_train.shape[1]
        if task == "classification":
            vals, counts = np.unique(self.y_train, return_counts=True)
            self._constant = vals[np.argmax(counts)]
        else:
            self._constant = float(np.mean(self.y_train))
        self._cart = None
        if (tree_kernel and task == "classification" and supports(estimator)
                and np.isfinite(self.X_train).all() and np.isfinite(self.X_val).all()):
            self._cart = PresortedCART(self.X_train, self.y_train, estimator)
        self.tree_kernel_ = "presorted" if self._cart is not None else "estimator"

    def columns(self, bits: int) -> np.ndarray:
        return from_bits(bits, self.n_features)

    def fit_score(self, bits: int):
        """``(score, fitted model)`` of an item; the empty item predicts the
        majority class (mean for regression) and has model None."""
        cols = self.columns(bits)
        if cols.size == 0:
            pred = np.full(len(self.y_val), self._constant)
            return float(self.metric(self.y_val, pred)), None
        if self._cart is not None:
            model = self._cart.fit(cols)
        else:
            model = clone(self.estimator).fit(self.X_train[:, cols], self.y_train)
        pred = model.predict(self.X_val[:, cols])
        return float(self.metric(self.y_val, pred)), model

    def evaluate_batch(self, items, thresholds):
        """Evaluate ``items`` (bitsets); keep a model only when its score beats
        ``thresholds[i]`` (the front's best score at that size or below when
        the batch was dispatched: below it the item can never enter the front)."""
        out = []
        for bits, thr in zip(items, thresholds, strict=False):
            score, model = self.fit_score(bits)
            out.append((score, model if score > thr else None))
        return out

    def permutation_decrease(self, model, bits: int, base_score: float, seed: int):
        """Algorithm 3, lines 9-12: score decrease when each gene is shuffled.

        Returns ``(genes, decrease)``: the item's column indices and
        ``base_score - score with that column permuted`` on the selection-val
        rows, using the stored ``model`` (no refit).
        """
        rng = np.random.default_rng(seed)
        cols = self.columns(bits)
        Xv = np.array(self.X_val[:, cols], order="F")  # |item| columns only
        dec = np.empty(cols.size)
        for i in range(cols.size):
            keep = Xv[:, i].copy()
            Xv[:, i] = keep[rng.permutation(len(keep))]
            dec[i] = base_score - float(self.metric(self.y_val, model.predict(Xv)))
            Xv[:, i] = keep
        return cols, dec
