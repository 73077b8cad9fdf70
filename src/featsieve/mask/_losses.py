"""Losses GBMO and FLBMO read on the selection-validation rows (seed 000 eq. 12-13)."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import get_scorer

_BUILTIN_LOSSES = ("mse", "mae", "log_loss", "zero_one")
_RESPONSE_METHODS = ("predict", "predict_proba", "decision_function")


# ------------------------------------------------------------------ losses
class _Replay:
    """Stands in for a fitted model inside a scikit-learn scorer.

    Response methods return outputs computed beforehand (in one batched call)
    instead of calling the model; every other attribute (``classes_``, tags)
    is the model's. With ``record=True`` it calls the model and remembers
    which response methods the scorer asked for.
    """

    def __init__(self, model, outputs=None, record=False):
        self._model = model
        self._outputs = outputs or {}
        self._record = record
        self._asked: list[str] = []

    def __getattr__(self, name):
        if name in ("_model", "_outputs", "_record", "_asked"):
            raise AttributeError(name)  # not yet set (copy, pickle)
        if name not in _RESPONSE_METHODS:
            return getattr(self._model, name)
        real = getattr(self._model, name)  # AttributeError when the model lacks it

        def call(X):
            if self._record:
                self._asked.append(name)
                return real(X)
            if name not in self._outputs:
                raise RuntimeError(f"The scorer asked for {name}, which it did not read on "
                                   "the unmasked rows; use a scorer that reads one output.")
            return self._outputs[name]

        call.__name__ = name  # scikit-learn reads the response method's name
        return call


class _Loss:
    """A loss over the validation rows, evaluated on precomputed model outputs.

    ``methods`` are the model's response methods the loss reads. ``stacked``
    maps ``({method: outputs of c stacked copies}, y, c)`` to the ``(c, len(y))``
    per-row losses at once (the built-in losses; their mean over the rows,
    weighted by ``weights`` when given, is the loss); otherwise ``block`` maps
    ``({method: outputs of one copy}, y)`` to one float. Lower is better.
    """

    def __init__(self, name, methods, *, block=None, stacked=None, weights=None):
        self.name = name
        self.methods = tuple(methods)
        self.block = block
        self.stacked = stacked
        self.weights = None if weights is None else np.asarray(weights, float) / np.sum(weights)

    def values(self, outs, y, c) -> np.ndarray:
        """Losses of ``c`` stacked copies of the ``len(y)`` validation rows."""
        if self.stacked is not None:
            rows = np.asarray(self.stacked(outs, y, c), dtype=np.float64)
            return rows.mean(axis=1) if self.weights is None else rows @ self.weights
        K = len(y)
        return np.array([self.block({m: o[b * K:(b + 1) * K] for m, o in outs.items()}, y)
                         for b in range(c)], dtype=np.float64)


def _label_positions(model, labels):
    classes = np.asarray(model.classes_)
    pos = np.searchsorted(classes, labels)
    pos = np.clip(pos, 0, len(classes) - 1)
    unseen = np.unique(np.asarray(labels)[classes[pos] != labels])
    if unseen.size:
        raise ValueError(
            f"The selection-validation rows have classes the model was not trained on: "
            f"{unseen.tolist()} (model classes: {classes.tolist()}). Use a stratified split "
            "or pass validation data whose classes the model knows."
        )
    return pos


class _PointwiseError:
    """Mean squared or absolute error of stacked copies (picklable, for any joblib backend)."""

    def __init__(self, squared):
        self.squared = squared

    def __call__(self, o, y, c):
        y = np.asarray(y, dtype=np.float64)
        diff = np.asarray(o["predict"], np.float64).reshape(c, len(y)) - y
        return np.square(diff) if self.squared else np.abs(diff)


def _zero_one(o, y, c):
    return np.asarray(o["predict"]).reshape(c, len(y)) != y


class _LogLoss:
    """-mean log p(true class), probabilities clipped to [eps, 1 - eps] as in scikit-learn."""

    def __init__(self, model):
        self.model = model
        self.pos = None

    def __call__(self, o, y, c):
        if self.pos is None:
            self.pos = _label_positions(self.model, y)
        p = np.asarray(o["predict_proba"])
        eps = np.finfo(p.dtype if p.dtype.kind == "f" else np.float64).eps
        true = p[np.arange(c * len(y)), np.tile(self.pos, c)]
        return -np.log(np.clip(true, eps, 1 - eps)).reshape(c, len(y))


class _ScorerLoss:
    """Minus a scikit-learn scorer, on outputs computed beforehand (weighted rows: the
    scorer's ``sample_weight``)."""

    def __init__(self, scorer, model, n_rows, weights=None):
        self.scorer, self.model, self.n_rows, self.weights = scorer, model, n_rows, weights

    def __call__(self, o, y):
        kw = {} if self.weights is None else {"sample_weight": self.weights}
        return -float(self.scorer(_Replay(self.model, o), np.empty((self.n_rows, 0)), y, **kw))


class _CallableLoss:
    """A user's ``loss(y_true, y_out)`` on one copy's outputs."""

    def __init__(self, fn, method):
        self.fn, self.method = fn, method

    def __call__(self, o, y):
        return float(self.fn(y, o[self.method]))


def _make_loss(loss, *, task, model, labels, n_rows, weights=None) -> _Loss:
    """Resolve the ``loss`` parameter (see :class:`GBMO`) into a :class:`_Loss`.

    ``weights``: one per validation row (``sample_weight``); the built-in losses
    are their weighted means, a scorer gets them as ``sample_weight``; a callable
    loss takes none (ValueError).
    """
    clf = task == "classification"
    if weights is not None and callable(loss) and not _is_scorer(loss):
        raise ValueError("A callable loss takes no sample_weight; use a built-in loss or a "
                         "scikit-learn scorer with weighted rows, or fit without sample_weight.")
    kw = {"weights": weights}
    if loss is None:
        loss = "log_loss" if clf else "mse"
    if isinstance(loss, str) and loss in _BUILTIN_LOSSES:
        if loss in ("mse", "mae"):
            if clf:
                raise ValueError(f"loss={loss!r} is a regression loss; the task is classification.")
            return _Loss(loss, ("predict",), stacked=_PointwiseError(loss == "mse"), **kw)
        if not clf:
            raise ValueError(f"loss={loss!r} is a classification loss; the task is regression.")
        if loss == "zero_one":
            return _Loss(loss, ("predict",), stacked=_zero_one, **kw)
        if not hasattr(model, "predict_proba"):
            raise ValueError(
                f"{type(model).__name__} has no predict_proba, which the default "
                "classification loss (log loss, seed 000 §4) needs. Pass loss='zero_one' "
                "(the error rate: coarse, with many ties broken by the lowest index), a "
                "scikit-learn scorer that reads decision_function (e.g. 'roc_auc' for two "
                "classes), or use a model with predict_proba (e.g. SVC(probability=True))."
            )
        return _Loss(loss, ("predict_proba",), stacked=_LogLoss(model), **kw)
    if isinstance(loss, str) or _is_scorer(loss):
        scorer = get_scorer(loss) if isinstance(loss, str) else loss
        name = loss if isinstance(loss, str) else repr(scorer)
        # the response methods are found on the unmasked rows (see _fit)
        return _Loss(name, (), block=_ScorerLoss(scorer, model, n_rows, weights))
    if callable(loss):
        method = "predict_proba" if clf and hasattr(model, "predict_proba") else "predict"
        name = getattr(loss, "__name__", repr(loss))
        return _Loss(name, (method,), block=_CallableLoss(loss, method))
    raise ValueError(f"loss must be None, one of {_BUILTIN_LOSSES}, a scorer or a callable; "
                     f"got {loss!r}.")


def _is_scorer(obj) -> bool:
    try:
        from sklearn.metrics._scorer import _BaseScorer
    except ImportError:  # pragma: no cover - very old or new scikit-learn
        return False
    return isinstance(obj, _BaseScorer)

