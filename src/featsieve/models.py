"""Models the front ends offer by name, and the comparison metrics.

LightGBM is imported only when a LightGBM model is built, so
``import featsieve`` stays light (STYLE.md habit 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.metrics import accuracy_score, mean_squared_error

__all__ = ["MODEL_NAMES", "Metric", "TablePrep", "fit_model", "make_model", "metric_name",
           "resolve_metric", "score", "greater_is_better"]

MODEL_NAMES = ("lightgbm", "mlp", "tree", "logistic", "linear", "elm")


def make_model(name: str, task: str, *, random_state=None, n_samples: int | None = None):
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
    n_samples : int or None, default=None
        Rows the model will be fit on. LightGBM's leaves need
        ``min_child_samples`` rows (default 20), so on small tables every
        tree is a single leaf and the model predicts a constant; given
        ``n_samples``, the minimum is ``min(20, max(2, n_samples // 10))``
        (and ``min_child_weight`` 1e-3), so a 30-row part can still split.

    Returns
    -------
    estimator : unfitted scikit-learn compatible estimator
        LightGBM runs single-threaded (``n_jobs=1``) so that featsieve's own
        joblib parallelism does not oversubscribe the cores. ``mlp`` is a
        Pipeline (:class:`TablePrep`, ``StandardScaler``, the network); for
        regression that Pipeline sits inside a
        :class:`~sklearn.compose.TransformedTargetRegressor` that
        standardises the target (``StandardScaler``) for the fit and maps
        the predictions back to the target's units: an unscaled target in
        the hundreds of thousands (house prices) leaves the network's
        predictions far from it and its error above that of predicting the
        mean.

    Notes
    -----
    Models see featsieve's encoded table (one column per original column:
    numbers, booleans 0/1, category codes, dates as days; NaN where missing)
    and are fit through :func:`fit_model`, which tells them which columns are
    categorical. LightGBM takes missing values and categorical columns
    natively (``categorical_feature=``: a split groups categories; on small
    tables ``min_data_per_group`` follows ``min_child_samples``). The decision
    tree takes NaN natively and category codes as numbers. ``mlp``,
    ``logistic``/``linear`` and ``elm`` prepare the table inside themselves
    with :class:`TablePrep` (training median plus a missing-value indicator
    for numbers; one-hot categories, missing rows a category of their own),
    so keeping an original column keeps all of its encoded parts and
    dropping it drops them all.

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
        m = None if n_samples is None else int(min(20, max(2, n_samples // 10)))
        # min_data_per_group (100 rows per group of categories by default) follows
        # min_child_samples, so a categorical column can split on a small table too
        small = {} if m is None else {"min_child_samples": m, "min_data_per_group": m}
        return cls(n_estimators=100, random_state=random_state, n_jobs=1, verbose=-1, **small)
    if name == "mlp":
        from sklearn.neural_network import MLPClassifier, MLPRegressor
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        cls = MLPClassifier if clf else MLPRegressor
        pipe = make_pipeline(
            TablePrep(),
            StandardScaler(),
            cls(hidden_layer_sizes=(64,), max_iter=500, early_stopping=False,
                random_state=random_state),
        )
        if clf:
            return pipe
        from sklearn.compose import TransformedTargetRegressor

        # the network fits a standardised target (its weights start near zero and its
        # loss is scaled by the target's variance); predictions come back in y's units
        return TransformedTargetRegressor(regressor=pipe, transformer=StandardScaler())
    if name == "tree":
        from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

        cls = DecisionTreeClassifier if clf else DecisionTreeRegressor
        return cls(max_depth=6, random_state=random_state)
    if name in ("logistic", "linear"):
        from sklearn.linear_model import LinearRegression, LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        est = LogisticRegression(max_iter=2000) if clf else LinearRegression()
        return make_pipeline(TablePrep(), StandardScaler(), est)
    if name == "elm":
        from ._elm import ELMClassifier, ELMRegressor

        cls = ELMClassifier if clf else ELMRegressor
        return cls(n_hidden=160, activation="sigmoid", random_state=random_state)
    raise ValueError(f"Unknown model {name!r}; choose one of {', '.join(MODEL_NAMES)}.")


class TablePrep(TransformerMixin, BaseEstimator):
    """Missing cells and category codes made ready for a scikit-learn model.

    The documented preprocessing of featsieve's scikit-learn models (``mlp``,
    ``logistic``/``linear``, ``elm``), the first step of their own Pipeline.
    Its input is featsieve's encoded table (one column per original column,
    NaN where missing); its output holds numbers only:

    - numeric, boolean and date columns: a missing cell takes the column's
      training median, and a 0/1 indicator column says it was missing
      (:class:`~sklearn.impute.SimpleImputer` with ``add_indicator=True``:
      indicators for the columns with a missing cell in training; an
      all-missing column is zeros);
    - categorical columns (``categorical``; codes ``0..k-1``): one-hot
      encoded, missing rows a category of their own, a category not seen in
      training all zeros (:class:`~sklearn.preprocessing.OneHotEncoder` with
      ``handle_unknown="ignore"``).

    Every output column comes from one input column, so a selection that
    keeps an original column gives the model all of its parts, and dropping
    the column drops them all.

    Parameters
    ----------
    categorical : array-like of bool of shape (n_features,), array-like of int, or None, \
default=None
        The categorical columns of the input (a mask or positions); None:
        none. :func:`fit_model` sets it for the columns a model is fit on.

    Attributes
    ----------
    transformer_ : ColumnTransformer or None
        None when the fitted table had no categorical column and no missing
        cell: the output is then the input (a missing cell met later takes the
        column's training median, as the imputer would), without the
        transformer's per-call cost (an ELM search prepares thousands of
        small tables).
    medians_ : ndarray of shape (n_features,) or None
        The training medians of that case.
    owner_ : ndarray of int, shape (n_output_columns,)
        The input column each output column comes from (importances of the
        model behind it are summed back per input column by
        :func:`featsieve._importance.model_importances`).
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0], [np.nan, 1], [3.0, 2], [5.0, np.nan]])
    >>> TablePrep(categorical=[False, True]).fit_transform(X).shape  # x, missing, 4 categories
    (4, 6)
    """

    def __init__(self, categorical=None):
        self.categorical = categorical

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def _categorical_mask(self, d: int) -> np.ndarray:
        if self.categorical is None:
            return np.zeros(d, dtype=bool)
        c = np.asarray(self.categorical)
        if c.dtype == bool:
            if c.shape != (d,):
                raise ValueError(f"TablePrep: categorical has {c.size} entries for {d} "
                                 "columns.")
            return c
        mask = np.zeros(d, dtype=bool)
        if c.size and (c.min() < 0 or c.max() >= d):
            raise ValueError(f"TablePrep: categorical positions {c.tolist()} outside the {d} "
                             "columns.")
        mask[c.astype(np.int64)] = True
        return mask

    def fit(self, X, y=None):
        """Learn the medians, which columns had missing cells, and the categories."""
        from sklearn.compose import ColumnTransformer
        from sklearn.impute import SimpleImputer
        from sklearn.preprocessing import OneHotEncoder
        from sklearn.utils.validation import validate_data

        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        cat = self._categorical_mask(X.shape[1])
        self.medians_ = None
        if not cat.any() and not np.isnan(X).any():  # nothing to prepare
            self.transformer_ = None
            self.medians_ = np.median(X, axis=0) if len(X) else np.zeros(X.shape[1])
            self.owner_ = np.arange(X.shape[1], dtype=np.int64)
            return self
        parts = []
        if (~cat).any():
            parts.append(("numbers", SimpleImputer(strategy="median", add_indicator=True,
                                                   keep_empty_features=True),
                          np.flatnonzero(~cat)))
        if cat.any():
            parts.append(("categories", OneHotEncoder(handle_unknown="ignore",
                                                      sparse_output=False),
                          np.flatnonzero(cat)))
        self.transformer_ = ColumnTransformer(parts, sparse_threshold=0.0).fit(X)
        owner = []  # the input column of every output column, in the output's order
        for name, fitted, cols in self.transformer_.transformers_:
            if name == "numbers":
                owner += list(cols)
                if fitted.indicator_ is not None:
                    owner += [cols[i] for i in fitted.indicator_.features_]
            elif name == "categories":
                owner += [c for c, cats in zip(cols, fitted.categories_, strict=True)
                          for _ in cats]
        self.owner_ = np.asarray(owner, dtype=np.int64)
        return self

    def transform(self, X):
        """The prepared table: numbers, missing-value indicators and one-hot categories."""
        from sklearn.utils.validation import check_is_fitted, validate_data

        check_is_fitted(self, "owner_")
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan",
                          reset=False)
        if self.transformer_ is None:
            missing = np.isnan(X)
            if missing.any():
                X = np.where(missing, self.medians_, X)
            return X
        return self.transformer_.transform(X)


def _is_lightgbm(estimator) -> bool:
    return type(estimator).__module__.partition(".")[0] == "lightgbm"


def inner_model(estimator):
    """The model that does the fitting: inside a target transform, then a Pipeline's last step.

    A :class:`~sklearn.compose.TransformedTargetRegressor` (``mlp`` for
    regression) is looked into (its fitted ``regressor_`` when there is one,
    else ``regressor``), and so is the Pipeline found there.
    """
    from sklearn.pipeline import Pipeline

    estimator = _unwrap_target(estimator)
    if isinstance(estimator, Pipeline):
        estimator = estimator.steps[-1][1]
    return estimator


def _unwrap_target(estimator):
    """The regressor inside a ``TransformedTargetRegressor``, else ``estimator`` itself."""
    from sklearn.compose import TransformedTargetRegressor

    if isinstance(estimator, TransformedTargetRegressor):
        return getattr(estimator, "regressor_", estimator.regressor)
    return estimator


def takes_sample_weight(estimator) -> bool:
    """Whether ``estimator``'s fit takes ``sample_weight`` (that of :func:`inner_model`)."""
    from sklearn.utils.validation import has_fit_parameter

    return has_fit_parameter(inner_model(estimator), "sample_weight")


def fit_model(estimator, X, y, categorical=None, sample_weight=None):
    """Fit a fresh copy of ``estimator`` on ``X``, telling it which columns are categorical.

    The one place featsieve's models learn the column kinds: LightGBM gets the
    categorical columns as ``categorical_feature`` (native categorical splits;
    NaN is missing for every column); every :class:`TablePrep` step of a
    Pipeline (also inside a ``TransformedTargetRegressor``), and the ELM's
    own preparation, get them as ``categorical``.
    Other estimators are fit on ``X`` as it is (category codes as numbers).

    Parameters
    ----------
    estimator : unfitted estimator
        Cloned, never modified.
    X : ndarray of shape (n_samples, n_features)
        featsieve's encoded columns (category codes ``0..k-1``, NaN missing).
    y : ndarray of shape (n_samples,)
    categorical : array-like of bool of shape (n_features,) or None, default=None
        The categorical columns of ``X``.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Row weights for the model's fit (a Pipeline's last step gets them,
        also inside a ``TransformedTargetRegressor``).

    Returns
    -------
    model : fitted estimator

    Raises
    ------
    TypeError
        ``sample_weight`` for a model whose fit takes none.
    """
    from sklearn.base import clone

    est = clone(estimator)
    mask = None if categorical is None else np.asarray(categorical, dtype=bool)
    if mask is not None and mask.shape != (np.shape(X)[1],):
        raise ValueError(f"categorical has {mask.size} entries; X has {np.shape(X)[1]} "
                         "columns.")
    kw = {}
    if _is_lightgbm(est):
        if mask is not None and mask.any():
            kw["categorical_feature"] = np.flatnonzero(mask).tolist()
    else:
        _set_categorical(est, mask)
    if sample_weight is not None:
        from sklearn.pipeline import Pipeline

        if not takes_sample_weight(est):
            raise TypeError(f"{type(est).__name__}.fit takes no sample_weight; use a model "
                            "that does (LightGBM, scikit-learn trees) or fit without "
                            "sample_weight.")
        inner = _unwrap_target(est)  # a target transform passes fit parameters on as they are
        key = (f"{inner.steps[-1][0]}__sample_weight" if isinstance(inner, Pipeline)
               else "sample_weight")
        kw[key] = sample_weight
    return est.fit(X, y, **kw)


def _set_categorical(est, mask) -> None:
    """Set ``categorical`` on ``est`` (an ELM) or on its Pipeline's :class:`TablePrep` steps.

    The Pipeline may sit inside a target transform (``mlp`` for regression).
    """
    from ._elm import _BaseELM

    est = _unwrap_target(est)
    if isinstance(est, (TablePrep, _BaseELM)):
        est.set_params(categorical=mask)
    for _, step in getattr(est, "steps", []):
        if isinstance(step, TablePrep):
            step.set_params(categorical=mask)


@dataclass(frozen=True)
class Metric:
    """The comparison's metric: a scikit-learn scorer, shown in its natural units.

    scikit-learn scorers are higher-is-better (losses are negated:
    ``neg_mean_absolute_error``); a comparison shows losses as themselves,
    lower is better (``mean_absolute_error``; ``neg_mean_squared_error`` is
    shown as ``mse``).

    Attributes
    ----------
    name : str
        How tables and reports name it.
    scorer : str
        The scikit-learn scorer name (:func:`sklearn.metrics.get_scorer`).
    greater_is_better : bool
    reason : str
        Why this metric (e.g. the default chosen for an imbalanced target).
    """

    name: str
    scorer: str
    greater_is_better: bool
    reason: str = ""

    def __call__(self, estimator, X, y) -> float:
        """The fitted ``estimator``'s score on ``(X, y)`` in the shown units.

        NaN when the scorer cannot score this part (e.g. ROC AUC on a part
        holding one class).
        """
        from sklearn.metrics import get_scorer

        try:
            v = float(get_scorer(self.scorer)(estimator, X, y))
        except ValueError:
            return float("nan")
        return v if self.greater_is_better else -v

    def from_higher_is_better(self, value: float) -> float:
        """A higher-is-better number in the scorer's sign (e.g. -MSE) in the shown units."""
        return float(value) if self.greater_is_better else -float(value)


IMBALANCE = 0.20  # minority class share under which accuracy is not the default


def resolve_metric(scoring, task: str, y=None) -> Metric:
    """The comparison metric for ``scoring`` (a scorer name, or None for the default).

    Parameters
    ----------
    scoring : str or None
        Any scikit-learn scorer name (``balanced_accuracy``, ``f1``,
        ``roc_auc``, ``average_precision``, ``neg_log_loss``, ``r2``,
        ``neg_mean_absolute_error``, ...); ``mse``, ``mae`` and ``log_loss``
        are accepted for their ``neg_`` scorers. None: accuracy for classes
        (balanced accuracy when the smallest class is under 20% of the rows,
        where accuracy rewards predicting the majority), mean squared error
        for regression.
    task : {"classification", "regression"}
    y : array-like or None
        The encoded target (for the default's class balance).

    Returns
    -------
    metric : Metric

    Raises
    ------
    ValueError
        Unknown scorer name (the message lists a few valid ones).
    """
    from sklearn.metrics import get_scorer_names

    reason = ""
    if scoring is None:
        if task == "classification":
            scoring = "accuracy"
            if y is not None:
                counts = np.bincount(np.asarray(y).astype(int))
                share = counts[counts > 0].min() / counts.sum()
                if share < IMBALANCE:
                    scoring = "balanced_accuracy"
                    n_classes = int((counts > 0).sum())
                    reason = (f"the smallest class is {share:.1%} of the rows (under "
                              f"{IMBALANCE:.0%}): balanced accuracy, not accuracy, so that "
                              "predicting the majority class scores 1/classes "
                              f"({1 / n_classes:.4g} for {n_classes})")
        else:
            scoring = "neg_mean_squared_error"
    aliases = {"mse": "neg_mean_squared_error", "mae": "neg_mean_absolute_error",
               "log_loss": "neg_log_loss", "rmse": "neg_root_mean_squared_error"}
    scoring = aliases.get(scoring, scoring)
    if scoring not in get_scorer_names():
        raise ValueError(
            f"Unknown metric {scoring!r}: give a scikit-learn scorer name such as "
            "accuracy, balanced_accuracy, f1, roc_auc, average_precision, neg_log_loss, r2, "
            "neg_mean_absolute_error, neg_mean_squared_error "
            "(sklearn.metrics.get_scorer_names() lists them all).")
    if task == "classification" and y is not None and len(np.unique(y)) > 2 and scoring in (
            "roc_auc", "average_precision", "f1", "precision", "recall", "jaccard"):
        better = {"roc_auc": "roc_auc_ovr", "average_precision": "balanced_accuracy"}.get(
            scoring, f"{scoring}_macro")
        raise ValueError(f"The metric {scoring!r} is for two classes; the target has "
                         f"{len(np.unique(y))}. Use {better!r} (or another multi-class "
                         "scorer).")
    if task == "regression" and scoring in ("accuracy", "balanced_accuracy", "roc_auc",
                                             "f1", "average_precision", "neg_log_loss"):
        raise ValueError(f"The metric {scoring!r} is for classes; the target is numeric "
                         "(regression). Use r2, neg_mean_absolute_error or "
                         "neg_mean_squared_error, or --task classification.")
    if task == "classification" and scoring in ("r2", "neg_mean_squared_error",
                                                 "neg_mean_absolute_error",
                                                 "neg_root_mean_squared_error"):
        raise ValueError(f"The metric {scoring!r} is for numbers; the target holds classes. "
                         "Use accuracy, balanced_accuracy, f1_macro or roc_auc_ovr, or --task "
                         "regression.")
    if scoring.startswith("neg_"):
        name = "mse" if scoring == "neg_mean_squared_error" else scoring[4:]
        return Metric(name, scoring, False, reason)
    return Metric(scoring, scoring, True, reason)


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
