"""``compare``: several selectors on one table under the honest protocol, repeated.

Every repeat draws one honest split (seeded; the same splits for every method, so
differences between methods are paired), runs every method on it and scores the
refit model once on the repeat's test part. The repeats are then summarised per
method: the test mean with a corrected interval, the paired difference to all
features with a corrected, Holm-adjusted test, and the stability of the selection.
"""

from __future__ import annotations

import copy
import inspect
import re
import time as _time
import warnings
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils import check_random_state

from .._base import BaseSelector
from .._registry import (
    MethodSpec,
    build_selector,
    default_methods,
    get_method,
    method_cost,
    resolve_methods,
    tuning_candidates,
    use_k_grid,
)
from .._registry import methods as registered_methods
from .._resources import LeftOutWarning
from .._utils import canonical_rank
from .._validation import (
    ConstantFeatureWarning,
    DuplicateFeatureWarning,
    FewerFeaturesWarning,
    TargetLeakWarning,
    leak_note,
    to_pandas,
    validate_Xy,
    warn_target_leaks,
)
from .._warnings import ProtocolWarning
from ..models import Metric, fit_model, make_model, metric_value, resolve_metric
from ..protocol import DEFAULT_FRACTIONS, HonestSplit, honest_split, inner_cv
from ._refit import evaluate_support
from ._stats import corrected_t, holm, nogueira_stability

__all__ = ["ComparisonResult", "compare", "default_repeats", "evaluate_support"]

ALL = "all"  # every column: the reference every method is tested against
BASELINE = "baseline"  # no column: the majority class / the mean
_BASELINE_SPEC = MethodSpec(BASELINE, None, source="baseline",
                            summary="no column: the majority class / the mean")
ALPHA = 0.05
#: Fewer test rows per repeat than this get a note: one split's test score is then mostly noise.
FEW_TEST_ROWS = 20
# metrics between 0 and 1: their test intervals are clipped to [0, 1]
_UNIT_METRICS = ("accuracy", "balanced_accuracy", "top_k_accuracy", "roc_auc", "f1",
                 "precision", "recall", "jaccard", "average_precision")
# error metrics (never negative): their test intervals are clipped below at 0
_ERROR_METRICS = ("mse", "mae", "log_loss", "root_mean", "mean_", "median_absolute")
# the columns of the printed table and of ``to_frame()``, in order
FRAME_COLUMNS = ["method", "n_selected", "n_selected_range", "test_mean", "test_halfwidth",
                 "test_ci",
                 "diff_vs_all", "diff_ci", "p_value", "p_value_adj", "vs_all", "stability",
                 "stability_ci", "selection_score", "gap", "seconds", "model_fits", "tuned",
                 "constant_model", "test_score"]


def default_repeats(n_samples: int) -> tuple[int, str]:
    """How many repeats ``compare`` runs by default, and why.

    5 below 10,000 rows, 3 below 100,000, 2 above (each repeat is a whole
    comparison; on big tables one test part is already large).

    Returns
    -------
    n_repeats : int
    reason : str
    """
    if n_samples < 10_000:
        return 5, "5 repeats (the default below 10,000 rows)"
    if n_samples < 100_000:
        return 3, "3 repeats (the default from 10,000 to 100,000 rows)"
    return 2, "2 repeats (the default from 100,000 rows)"


@dataclass
class ComparisonResult:
    """What ``compare`` measured (data first; drawn and written by the front ends).

    Attributes
    ----------
    dataset : str
    task : {"classification", "regression"}
    metric : str
        The metric's shown name (``accuracy``, ``balanced_accuracy``, ``mse``,
        ``mean_absolute_error``, ...).
    greater_is_better : bool
    n_samples, n_features : int
        Rows, and feature columns (ID-like columns and columns constant on every
        row, left out, are not counted).
    split : dict
        Rows in each part of the protocol (first repeat).
    seeds : list of int
        One per repeat that ran, in order; ``random_state`` is the first.
    rows : list of dict
        One per method, ``all`` and ``baseline`` first. Per repeat
        (``repeats``: ``seed``, ``n_selected``, ``selected``, ``test_score``,
        ``selection_score``, ``gap``, ``tuned``, ``seconds``, ``model_fits``,
        ``constant``) and summarised: ``test_mean``, ``test_ci`` ([lo, hi],
        95%, corrected resampled t; clipped to [0, 1] for metrics such as
        accuracy), ``test_halfwidth`` (half its width before clipping: the
        ``±`` of the printed table), ``test_scores``, ``diff_vs_all``
        (method minus all features, paired), ``diff_ci``, ``p_value``,
        ``p_value_adj`` (Holm over the run's methods), ``vs_all`` ("better",
        "worse", "tie"), ``diff_test`` (the test behind ``p_value``:
        "corrected t", or "sign" when every paired difference is equal, see
        :func:`~featsieve.evaluation._stats.corrected_t`; a note says so),
        ``k_at_top`` (the k grid's largest count when the tuned k was it in
        every repeat, else None; a note says so), ``stability`` and
        ``stability_ci`` (Nogueira et al.; the interval clipped to the
        measure's range, and None with a note when the selections keep all
        but fewer than one column on average, or fewer than one:
        :func:`~featsieve.evaluation.nogueira_stability`),
        ``selection_frequency`` ({column: share of repeats}, columns never
        selected left out), ``n_selected`` (mean), ``n_selected_range``
        ([min, max]), ``selected`` (columns kept in at least half of the
        repeats, most frequent first; ties in featsieve's canonical column order,
        :func:`featsieve._utils.canonical_rank`, so not in the given one),
        ``selection_score`` and ``gap`` (means),
        ``seconds`` and ``model_fits`` (means per repeat; a refit of columns
        another method of the repeat already scored is shared, not repeated,
        so ``seconds`` leaves it out while ``model_fits`` counts it),
        ``strategy`` (the scalable form the first repeat's fit chose by shape,
        e.g. a row subsample; also in ``notes``), ``tuned`` (most
        common choice), ``constant_model`` (repeats whose refit model predicted
        one value for every test row) and ``test_score`` (= ``test_mean``).
    selectors : dict
        The first repeat's fitted selectors by method name (not serialized).
    tuned_cuts : dict
        The first repeat's chosen cut per method (``{"n_features": 10}``; None
        for a method without one) and ``supports`` its chosen columns: what
        the report's method figures draw.
    fingerprint : dict
    params : dict
        ``estimator``, ``methods``, ``fractions``, ``n_jobs``, ``scoring``,
        ``groups``, ``time``, ``k_grid``, ``time_budget``.
    failed : list of dict
        One per method that raised in a repeat: ``method`` and ``failed`` (the
        exception's type and first line). Its numbers are in no row; the other
        methods complete (``to_dict()["complete"]`` is False).
    interrupted : bool
        The run was stopped (Ctrl-C, SIGTERM) and holds the repeats that
        finished (``to_dict()["complete"]`` is False; a note says how many).
    notes : list of str
        Plain-language lines: how the number of repeats and the metric were
        chosen, a time budget that stopped repeats, what a grouped or
        time-ordered run does; rows left out for a missing target, columns
        left out (ID-like, constant), methods the size-aware default set left
        out (also warned), rows whose p-value is the sign test's (every paired
        difference equal: no interval), methods whose tuned k was the top of
        the k grid in every repeat.
    """

    dataset: str
    task: str
    metric: str
    greater_is_better: bool
    n_samples: int
    n_features: int
    split: dict
    seeds: list
    rows: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    selectors: dict = field(default_factory=dict, repr=False)
    tuned_cuts: dict = field(default_factory=dict, repr=False)
    supports: dict = field(default_factory=dict, repr=False)
    fingerprint: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    interrupted: bool = False

    @property
    def random_state(self):
        return self.seeds[0] if self.seeds else None

    @property
    def n_repeats(self) -> int:
        return len(self.seeds)

    def to_dict(self) -> dict:
        """JSON-ready dict (the schema of ``featsieve compare --json``).

        ``results`` holds one row per selection (``all`` first, then the methods);
        in it ``selected`` is the consensus of typical size (the median count over
        repeats of the most often kept columns, ties in the canonical column order),
        ``n_selected`` is ``len(selected)`` and ``n_selected_mean`` the mean count
        over repeats (the printed table's ``n_selected``). The no-column reference (majority class /
        mean) is the separate ``baseline`` row; failed methods are in ``failed``.
        """
        return {
            "dataset": self.dataset,
            "task": self.task,
            "metric": self.metric,
            "greater_is_better": self.greater_is_better,
            "n_samples": self.n_samples,
            "n_features": self.n_features,
            "split": self.split,
            "n_repeats": self.n_repeats,
            "seeds": list(self.seeds),
            "random_state": self.random_state,
            "results": [_json_row(r) for r in self.rows if r["method"] != BASELINE],
            "baseline": next((dict(r) for r in self.rows if r["method"] == BASELINE), None),
            "failed": [dict(r) for r in self.failed],
            "complete": not self.failed and not self.interrupted,
            "interrupted": self.interrupted,
            "notes": list(self.notes),
            "fingerprint": dict(self.fingerprint),
            "params": dict(self.params),
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per method: the columns of the printed table (``FRAME_COLUMNS``); a
        method that failed has a row too, without numbers, its reason in ``failed``."""
        cols = list(FRAME_COLUMNS)
        from ._inflation import AUDIT_COLUMNS  # present after compare(..., audit=True)

        cols += [c for c in AUDIT_COLUMNS if any(c in r for r in self.rows)]
        rows = [{c: r.get(c) for c in cols} for r in self.rows]
        if self.failed:  # a method that raised: its row, no numbers, and why
            cols.append("failed")
            rows += [{"method": f["method"], "failed": f["failed"]} for f in self.failed]
        return pd.DataFrame(rows, columns=cols)

    # ------------------------------------------------------------ verdict
    def _sign(self) -> int:
        return 1 if self.greater_is_better else -1

    def _base(self):
        return next((r for r in self.rows if r["method"] == ALL), None)

    def best(self) -> dict:
        """The row with the best test mean (ties: fewer columns); no empty selection."""
        rows = [r for r in self.rows if r["method"] != BASELINE and r["n_selected"] > 0
                and r["test_mean"] is not None]
        return min(rows, key=lambda r: (-self._sign() * r["test_mean"], r["n_selected"]))

    def one_se_choice(self) -> dict | None:
        """The smallest selection whose test mean is within one standard error of the best.

        The standard error is the best row's corrected one (Nadeau & Bengio);
        rows with empty selections, the baseline and rows whose model predicted
        a constant in most repeats are not candidates. None with one repeat.
        """
        best = self.best()
        se = best.get("test_se")
        if se is None:
            return None
        ok = [r for r in self.rows if r["method"] != BASELINE and r["n_selected"] > 0
              and r["test_mean"] is not None and not self._constant(r)
              and self._sign() * (best["test_mean"] - r["test_mean"]) <= se + 1e-12]
        return min(ok, key=lambda r: (r["n_selected"], -self._sign() * r["test_mean"]))

    def _constant(self, row) -> bool:
        return row.get("constant_model", 0) * 2 > self.n_repeats

    def verdict(self) -> str:
        """Plain-language lines: only what the repeats support.

        - The model on all columns predicted a constant in most repeats: no
          method is named best (the table is too small for the model).
        - No row is "better" nor "worse": "no method is distinguishable from
          all features", with the all-features score and its interval; some
          "worse" and none "better": "no method is better than all features",
          the score, then "worse: ..." (never "indistinguishable" next to a
          list of worse ones).
        - Otherwise the better methods, and the smallest selection whose
          test mean is within one standard error of the best row's (the
          one-standard-error rule, :meth:`one_se_choice`), then "Worse than
          all features: ..." when some are.
        - Then the rows whose model
          predicted a constant, and the most optimistic selection number.

        A column that gives the target exactly (the notes' "target leak?")
        opens the verdict: every number after it can read the target.
        """
        body = self._verdict_body()
        leak = next((n for n in self.notes if n.startswith("target leak?")), None)
        return body if leak is None else f"{leak[:1].upper()}{leak[1:]}. {body}"

    def _verdict_body(self) -> str:
        base = self._base()
        r = self.n_repeats
        how = (f"{self.metric} over {r} repeat{'s' if r > 1 else ''}"
               + (", corrected resampled t-test (Nadeau & Bengio 2003), Holm-adjusted, "
                  f"level {ALPHA}" if r > 1 else ""))
        if base is not None and self._constant(base):
            return (f"The model refit on all {self.n_features} columns predicted one value for "
                    f"every test row in {base['constant_model']} of {r} repeats: the table is "
                    "too small for it (try --model tree or logistic/linear), so no method is "
                    f"named best ({how}).")
        if base is None:
            b = self.best()
            return f"best {how}: {b['method']} ({_fmt_ci(b)})."
        if r == 1:
            b = self.best()
            return (f"One repeat cannot tell methods apart (no interval): best {self.metric} "
                    f"on the test split was {b['method']} with {b['n_selected']:g} of "
                    f"{self.n_features} columns ({b['test_mean']:.4g}; all columns "
                    f"{base['test_mean']:.4g}). Run more repeats (--repeats 5).")
        better = [x for x in self.rows if x.get("vs_all") == "better" and not self._constant(x)]
        worse = [x["method"] for x in self.rows if x.get("vs_all") == "worse"
                 and x["method"] != BASELINE]
        flagged = [x["method"] for x in self.rows if self._constant(x)
                   and x["method"] != BASELINE]
        text = []
        if not better and not worse:
            text.append(f"No method is distinguishable from all features ({how}); all "
                        f"{self.n_features} columns score {_fmt_ci(base)}.")
        elif not better:
            text.append(f"No method is better than all features ({how}); all "
                        f"{self.n_features} columns score {_fmt_ci(base)}; worse: "
                        f"{', '.join(worse)}.")
        else:
            better.sort(key=lambda x: -self._sign() * x["test_mean"])
            names = ", ".join(f"{x['method']} ({x['test_mean']:.4g}, {x['n_selected']:g} "
                              f"columns)" for x in better)
            text.append(f"Better than all {self.n_features} columns ({base['test_mean']:.4g}; "
                        f"{how}): {names}.")
            choice = self.one_se_choice()
            if choice is not None:
                b = self.best()
                text.append(f"Smallest selection within one standard error of the best "
                            f"({b['method']}, {b['test_mean']:.4g} ± {b['test_se']:.2g}): "
                            f"{choice['method']} with {choice['n_selected']:g} columns on "
                            f"average ({choice['test_mean']:.4g}).")
        if better and worse:
            text.append(f"Worse than all features: {', '.join(worse)}.")
        if flagged:
            text.append(f"The refit model predicted a constant in most repeats for: "
                        f"{', '.join(flagged)}.")
        inflated = [x for x in self.rows if x.get("gap") is not None and x["gap"] > 0]
        if inflated:
            w = max(inflated, key=lambda x: x["gap"])
            text.append(f"Most optimistic selection number: {w['method']}'s, {w['gap']:.3g} "
                        "better on average than what it delivers on unseen rows.")
        return " ".join(text)


def _fmt_ci(row) -> str:
    lo, hi = row["test_ci"]
    if lo is None or lo == hi:
        return f"{row['test_mean']:.4g}"
    return f"{row['test_mean']:.4g} (95% interval {lo:.4g} to {hi:.4g})"


# ---------------------------------------------------------------- one repeat
def _frame(X, names, rows):
    # the table as given (text, categories, dates, missing cells), so each selector reads it
    return X.iloc[rows] if hasattr(X, "iloc") else pd.DataFrame(X[rows], columns=names)


def _all_numbers(table) -> bool:
    """Whether every column of ``table`` is a finite number (what a scikit-learn selector
    takes as it is)."""
    if hasattr(table, "dtypes"):
        if not all(pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t)
                   for t in table.dtypes):
            return False
        values = table.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        values = np.asarray(table)
        if not np.issubdtype(values.dtype, np.number):
            return False
    return bool(np.isfinite(values).all())


def _accepts(fn, name) -> bool:
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return False


def _numeric_view(encoded, names, rows_fit):
    """The table for a selector that is not featsieve's (e.g. scikit-learn's
    ``SelectKBest``): featsieve's encoding (text and categories as codes, dates as days),
    missing cells filled with the column's median on the rows the selector fits on, the
    original column names kept (so its support maps back column for column)."""
    med = np.nanmedian(encoded[rows_fit], axis=0) if len(rows_fit) else np.zeros(
        encoded.shape[1])
    med = np.where(np.isnan(med), 0.0, med)
    filled = np.where(np.isnan(encoded), med, encoded)
    return pd.DataFrame(filled, columns=[str(n) for n in names])


def _fit_selector(spec, selector, table, y, names, split, task, random_state, *, groups,
                  ordered, columns, encoded=None):
    """Fit one method on its part of a repeat: train (+ selection-val as ``X_val``) or train
    and selection-val; grouped or time-ordered inner folds; the column kinds. A selector
    that is not featsieve's reads :func:`_numeric_view` of ``encoded`` when the table holds
    anything but finite numbers."""
    rows_fit = split.train if spec.uses_selection_val else split.fit
    foreign = not (isinstance(selector, BaseSelector) or _accepts(selector.fit, "columns"))
    if foreign and encoded is not None and not _all_numbers(table):
        table = _numeric_view(encoded, names, rows_fit)
    fit_params = {}
    if groups is not None or ordered:
        params = selector.get_params(deep=False)
        if "cv" in params:  # a selector that cross-validates inside its part
            folds = inner_cv(task, params["cv"] if isinstance(params["cv"], int) else 5,
                             groups=None if groups is None else groups[rows_fit],
                             time=ordered, y=y[rows_fit], random_state=random_state)
            selector.set_params(cv=folds)
        if groups is not None and _accepts(type(selector)._fit, "groups"):
            fit_params["groups"] = groups[rows_fit]
    if columns is not None and (isinstance(selector, BaseSelector)
                                or _accepts(selector.fit, "columns")):
        fit_params["columns"] = columns  # the kinds, read once for the whole table
    with warnings.catch_warnings():
        # compare named a column that gives the target once, for the whole table
        warnings.simplefilter("ignore", TargetLeakWarning)
        if spec.path_params:  # a path fit asks for more than the tuned cut will keep
            warnings.simplefilter("ignore", FewerFeaturesWarning)
        if spec.uses_selection_val:
            selector.fit(_frame(table, names, split.train), y[split.train],
                         X_val=_frame(table, names, split.selection_val),
                         y_val=y[split.selection_val], **fit_params)
        else:
            selector.fit(_frame(table, names, split.fit), y[split.fit], **fit_params)


class _CanonicalOrder:
    """A fitted Pipeline step that puts the given columns in featsieve's canonical order.

    ``owner_[i]`` is the given column that output column ``i`` is (the
    ``owner_`` of :class:`featsieve.models.TablePrep`), so
    :func:`featsieve._importance.model_importances` of a Pipeline that starts
    with it gives the importances in the given order.
    """

    def __init__(self, order):
        self.order = order
        self.owner_ = np.asarray(order, dtype=np.int64)
        self.n_features_in_ = self.owner_.size

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        return np.asarray(X)[:, self.owner_]


class _Refits:
    """The refits of one repeat, shared by its methods (the same columns are fitted once).

    ``score(part, support)`` fits a fresh copy of the model on the repeat's fit
    part (train + selection-val) restricted to ``support`` and scores it on
    ``part`` (``"model_val"`` or ``"test"``); a support already scored on that
    part is not fitted again (the model is seeded, so the number is the one a
    second fit would give). ``score_many`` fits the new ones through joblib
    (threads: the parts are shared, not copied).

    Every model sees its columns in featsieve's canonical order
    (:func:`featsieve._utils.canonical_rank` of ``names``), as the selectors
    do: a model's ties between columns (LightGBM breaks them by column index)
    then do not depend on the order the columns were given in, and neither do
    the scores.
    """

    def __init__(self, X, y, split, model, task, metric, n_jobs=None, categorical=None,
                 names=None):
        import threading

        from .._utils import canonical_rank

        rank = None if names is None else canonical_rank(list(names))
        # order[i]: the given column at canonical place i (None: the given order is canonical)
        self.order = None if rank is None else np.argsort(rank, kind="stable")

        def cols(A):
            return A if self.order is None else np.take(A, self.order, axis=1)

        self.model, self.task, self.metric, self.n_jobs = model, task, metric, n_jobs
        self.categorical = categorical if categorical is None or self.order is None else (
            np.asarray(categorical, bool)[self.order])
        self.fit = (cols(X[split.fit]), y[split.fit])
        self.parts = {"model_val": (cols(X[split.model_val]), y[split.model_val]),
                      "test": (cols(X[split.test]), y[split.test])}
        self._done: dict = {}
        self._full = None
        self._lock = threading.Lock()

    def full_model(self):
        """The model refit on every column of the fit part (in the canonical order), fitted
        once and kept (the ``all`` row's)."""
        with self._lock:
            if self._full is None:
                self._full = fit_model(clone(self.model), *self.fit, categorical=(
                    None if self.categorical is None else np.asarray(self.categorical, bool)))
            return self._full

    def full_model_in_given_order(self):
        """:meth:`full_model` as a model of the given columns, for a ``prefit_full_model``
        method: itself when the given order is canonical, else a Pipeline that first puts
        the columns in the canonical order (its importances come back in the given order)."""
        full = self.full_model()
        if self.order is None:
            return full
        from sklearn.pipeline import Pipeline

        steps = list(full.steps) if isinstance(full, Pipeline) else [("model", full)]
        return Pipeline([("canonical_order", _CanonicalOrder(self.order)), *steps])

    def shares_full_model(self, names, columns=None, constant=None) -> bool:
        """Whether a method fitting the model on every column of the fit part does the
        same computation as :meth:`full_model`: a numeric table with no missing value, no
        constant or left-out column (the selector fits on the columns in the canonical
        order, as the refits do)."""
        X_fit = self.fit[0]
        if constant is not None and np.asarray(constant, bool).any():
            return False
        if columns is not None and (np.asarray(columns.categorical, bool).any()
                                    or np.asarray(columns.left_out, bool).any()):
            return False
        if X_fit.dtype.kind != "f" or np.isnan(X_fit).any():
            return False
        return True

    def _run(self, part, support):
        Xe, ye = self.parts[part]
        if self.order is not None:
            support = support[self.order]
        full = support.size > 0 and bool(support.all())
        return evaluate_support(self.model, self.task, *self.fit, Xe, ye, support, self.metric,
                                return_constant=True, categorical=self.categorical,
                                fitted=self.full_model() if full else None)

    def score_many(self, part, supports) -> list:
        """``(score, constant)`` of each support on ``part``, in order."""
        keys = [(part, np.packbits(m).tobytes(), int(m.size)) for m in supports]
        todo = {k: m for k, m in zip(keys, supports, strict=True) if k not in self._done}
        if len(todo) > 1 and self.n_jobs not in (None, 1):
            from joblib import Parallel, delayed

            out = Parallel(n_jobs=self.n_jobs, prefer="threads")(
                delayed(self._run)(part, m) for m in todo.values())
        else:
            out = [self._run(part, m) for m in todo.values()]
        self._done.update(zip(todo, out, strict=True))
        return [self._done[k] for k in keys]

    def score(self, part, support):
        return self.score_many(part, [np.asarray(support, bool)])[0]


def _tune(spec, selector, d, refits: _Refits, usable: int):
    """The candidate ``compare`` keeps: ``(label, cut, support, model_val_score, n_scored)``.

    Every candidate of the spec's tuning grid is refit and scored on model-val
    (an empty selection is never a candidate); the best wins, ties to fewer
    columns. When the metric cannot score model-val: the smallest candidate.
    """
    cands = tuning_candidates(spec, selector, usable, with_values=True)
    kept = [(label, c, np.asarray(mask, bool)) for label, (c, mask) in cands.items()
            if np.asarray(mask, bool).any()]
    values = refits.score_many("model_val", [m for _, _, m in kept])
    scored = [(label, c, m, v[0]) for (label, c, m), v in zip(kept, values, strict=True)]
    finite = [t for t in scored if np.isfinite(t[3])]
    sign = 1 if refits.metric.greater_is_better else -1
    if finite:
        return (*max(finite, key=lambda t: (sign * t[3], -int(t[2].sum()))), len(scored))
    if scored:
        return (*min(scored, key=lambda t: int(t[2].sum())), len(scored))
    return "", None, np.zeros(d, bool), float("nan"), 0


def _k_top(spec, selector, usable: int, label: str):
    """The largest count of the method's k grid when the tuned candidate is it (a label
    such as ``k=8 (same as 10)`` lists the values of merged equal supports), else None."""
    tuning = spec.tuning
    if tuning is None or tuning.cut != "n_features" or tuning.label == "size" or not label:
        return None  # "size": a genetic front's sizes, not the k grid
    values = [v for v in tuning.values(selector, usable) if isinstance(v, (int, np.integer))]
    if not values:
        return None
    top = int(max(values))
    return top if str(top) in re.findall(r"[0-9.]+", label.split("=", 1)[-1]) else None


def _run_method(spec: MethodSpec, X, y, names, task, split: HonestSplit, model, metric: Metric,
                random_state, n_jobs, groups=None, ordered=False, table=None, columns=None,
                refits: _Refits | None = None, constant=None):
    name = spec.name
    table = X if table is None else table
    d = X.shape[1]
    cat = None if columns is None else columns.categorical  # for the refit models
    refits = refits if refits is not None else _Refits(X, y, split, model, task, metric,
                                                       categorical=cat, names=names)
    start = _time.perf_counter()
    selector, cut = None, None
    if name in (ALL, BASELINE):
        support = np.ones(d, bool) if name == ALL else np.zeros(d, bool)
        if name == ALL and columns is not None:  # ID-like columns are no features
            support &= ~columns.left_out
        if name == ALL and constant is not None:  # nor columns constant on the whole table
            support &= ~np.asarray(constant, bool)
        row = {"selection_score": None, "model_fits": 0, "tuned": ""}
    else:
        selector = build_selector(spec, task=task, estimator=model,
                                  random_state=random_state, n_jobs=n_jobs)
        if spec.path_params:
            selector.set_params(**spec.path_params_for(*X.shape))
        shared = spec.prefit_full_model and refits.shares_full_model(names, columns, constant)
        if shared:
            selector.set_params(estimator=refits.full_model_in_given_order(), prefit=True)
        _fit_selector(spec, selector, table, y, names, split, task, random_state,
                      groups=groups, ordered=ordered, columns=columns, encoded=X)
        never = np.zeros(d, bool)  # constant, copies and ID-like columns: not in the k grid
        if hasattr(selector, "constant_features_"):
            never |= np.asarray(selector.constant_features_, bool)
        if hasattr(selector, "duplicate_of_"):
            never |= np.asarray(selector.duplicate_of_) >= 0
        if columns is not None:
            never |= columns.left_out
        if constant is not None:
            never |= np.asarray(constant, bool)
        usable = int((~never).sum())
        label, cut, support, model_val_score, n_scored = _tune(spec, selector, d, refits,
                                                               usable=usable)
        own = getattr(selector, "selection_score_", None)
        default_metric = metric.scorer == resolve_metric(None, task).scorer
        own = metric_value(task, own) if (own is not None and default_metric) else None
        fits = int(getattr(selector, "n_model_fits_", 0))
        row = {
            "selection_score": own if own is not None else model_val_score,
            "model_fits": fits + (n_scored if n_scored > 1 else 0),
            "tuned": label,
            "strategy": ("reads the all row's model (the same fit on the same rows)" if shared
                         else str(getattr(selector, "strategy_", "") or "")),
            "k_top": _k_top(spec, selector, usable, label),
        }
    seconds = _time.perf_counter() - start
    test, constant = refits.score("test", support)
    sel = row["selection_score"]
    if sel is None or not np.isfinite(sel):
        gap = None
    else:
        gap = sel - test if metric.greater_is_better else test - sel
    row.update({
        "method": name,
        "n_selected": int(support.sum()),
        "support": support,
        "test_score": float(test),
        "gap": None if gap is None else float(gap),
        "seconds": round(seconds, 3),
        "constant": constant and name != BASELINE,
        "cut": cut,
        "selection_score": None if sel is None or not np.isfinite(sel) else float(sel),
    })
    return row, selector


def _repeat(X, y, names, task, specs, estimator, metric, seed, *, fractions, groups,
            ordered, window, k_values, n_jobs, keep_selectors, started, budget, progress,
            table=None, columns=None, constant=None):
    """One honest split and every method on it (None: the time budget was spent)."""
    if budget is not None and started is not None and _time.time() - started > budget:
        return None
    split = honest_split(y, task, fractions=fractions, random_state=seed,
                         groups=groups, time=np.arange(len(y)) if ordered else None,
                         time_window=window)
    if isinstance(estimator, str):
        model = make_model(estimator, task, random_state=seed, n_samples=len(split.fit))
    else:
        model = clone(estimator)
    from ..progress import bar

    pbar = bar(len(specs), desc=f"seed {seed}", unit="method", enabled=progress,
               leave=False, lines=True)
    rows, selectors = [], {}
    refits = _Refits(X, y, split, model, task, metric, n_jobs,
                     categorical=None if columns is None else columns.categorical, names=names)
    # warnings are collected and raised again by the caller's process, once each
    interrupted = False
    with use_k_grid(k_values), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            for spec in specs:
                pbar.set_postfix_str(spec.name)
                try:
                    row, sel = _run_method(spec, X, y, names, task, split, model, metric,
                                           seed, n_jobs, groups=groups, ordered=ordered,
                                           table=table, columns=columns,
                                           refits=refits, constant=constant)
                except Exception as exc:  # one method's failure never sinks the run
                    if spec.name in (ALL, BASELINE):
                        raise
                    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                    row, sel = {"method": spec.name,
                                "failed": f"{type(exc).__name__}: {text}"[:300]}, None
                rows.append(row)
                if keep_selectors and sel is not None:
                    selectors[spec.name] = sel
                pbar.update(1)
        except KeyboardInterrupt:  # Ctrl-C / SIGTERM: keep the methods that finished
            interrupted = True
    pbar.close()
    seen = list(dict.fromkeys((w.category, str(w.message)) for w in caught))
    return {"seed": seed, "split": split.sizes(), "rows": rows, "selectors": selectors,
            "warnings": seen, "interrupted": interrupted}


# ---------------------------------------------------------------- summary
def _json_row(row: dict) -> dict:
    """A results row of the JSON: ``n_selected`` counts ``selected`` (the consensus of
    typical size), ``n_selected_mean`` is the mean count over repeats."""
    out = dict(row)
    if "selected" in out:
        out["n_selected_mean"] = out["n_selected"]
        out["n_selected"] = len(out["selected"])
    return out


def _summarise(method, reps, base_scores, names, task, metric, n_train, n_test):
    """One table row from the per-repeat rows of one method."""
    tests = np.array([r["test_score"] for r in reps], float)
    Z = np.array([r["support"] for r in reps], bool)
    counts = Z.sum(axis=1)
    t = corrected_t(tests, n_train=n_train, n_test=n_test)
    out = {"method": method,
           "n_selected": round(float(counts.mean()), 2),
           "n_selected_range": [int(counts.min()), int(counts.max())]}
    freq = Z.mean(axis=0)
    rank = canonical_rank(list(names))
    order = np.lexsort((np.arange(len(freq)) if rank is None else rank, -freq))
    # the consensus of typical size: the median count's most often kept columns (ties by
    # the canonical column order, not the given one), so a method whose repeats disagree
    # still names its usual picks
    m = int(round(float(np.median(counts))))
    out["selected"] = [str(names[i]) for i in order[:m] if freq[i] > 0]
    out["selection_frequency"] = {str(names[i]): round(float(freq[i]), 4)
                                  for i in order if freq[i] > 0}
    half = None if t["ci"][0] is None else (t["ci"][1] - t["ci"][0]) / 2
    if t["ci"][0] is not None and metric.name.startswith(_UNIT_METRICS):
        t["ci"] = [max(0.0, t["ci"][0]), min(1.0, t["ci"][1])]  # e.g. no accuracy above 1
    elif t["ci"][0] is not None and metric.name.startswith(_ERROR_METRICS):
        t["ci"] = [max(0.0, t["ci"][0]), t["ci"][1]]  # no negative squared error
    out.update(test_mean=t["mean"], test_halfwidth=half, test_ci=t["ci"], test_se=t["se"],
               test_scores=[float(v) for v in tests])
    if base_scores is not None and method != ALL:
        diff = tests - base_scores
        dt = corrected_t(diff, n_train=n_train, n_test=n_test)
        out.update(diff_vs_all=dt["mean"], diff_ci=dt["ci"], p_value=dt["p_value"],
                   diff_test=dt["test"])
    else:
        out.update(diff_vs_all=None, diff_ci=[None, None], p_value=None, diff_test=None)
    if method in (ALL, BASELINE):
        out.update(stability=None, stability_ci=[None, None])
    else:
        st = nogueira_stability(Z)
        out.update(stability=st["stability"], stability_ci=st["ci"])
        out["_stability_note"] = st["note"]  # a note of the comparison, not a column
    sels = [r["selection_score"] for r in reps if r["selection_score"] is not None]
    gaps = [r["gap"] for r in reps if r["gap"] is not None]
    tuned = Counter(r["tuned"] for r in reps).most_common(1)[0]
    out.update(
        selection_score=float(np.mean(sels)) if sels else None,
        gap=float(np.mean(gaps)) if gaps else None,
        seconds=round(float(np.mean([r["seconds"] for r in reps])), 3),
        model_fits=int(round(np.mean([r["model_fits"] for r in reps]))),
        tuned=tuned[0] if tuned[1] == len(reps) else f"{tuned[0]} ({tuned[1]}/{len(reps)})",
        constant_model=int(sum(r["constant"] for r in reps)),
        test_score=t["mean"],
        strategy=reps[0].get("strategy", ""),
        k_at_top=(max(r["k_top"] for r in reps)
                  if all(r.get("k_top") is not None for r in reps) else None),
        repeats=[{"seed": int(s), "n_selected": r["n_selected"],
                  "selected": [str(names[i]) for i in np.flatnonzero(r["support"])],
                  "test_score": r["test_score"], "selection_score": r["selection_score"],
                  "gap": r["gap"], "tuned": r["tuned"], "seconds": r["seconds"],
                  "model_fits": r["model_fits"], "constant": r["constant"]}
                 for s, r in ((r["_seed"], r) for r in reps)],
    )
    return out


def _verdicts(rows, greater_is_better):
    """Holm-adjust the p-values across the run's methods and set ``vs_all``.

    The family is the run's selection methods; the baseline's test (no column
    against all columns) is a sanity check outside it (adjusted = raw).
    """
    fam = [r["p_value"] if r["method"] != BASELINE else None for r in rows]
    adj = holm(fam)
    sign = 1 if greater_is_better else -1
    for r, a in zip(rows, adj, strict=True):
        if r["method"] == BASELINE:
            a = r["p_value"]
        r["p_value_adj"] = a
        if r["method"] == ALL:
            r["vs_all"] = None
        elif a is not None and a < ALPHA and r["diff_vs_all"]:
            r["vs_all"] = "better" if sign * r["diff_vs_all"] > 0 else "worse"
        else:
            r["vs_all"] = "tie"


def _column(X, spec, what):
    """``groups=``/``time=``: a column name of X (then dropped from X) or values."""
    if spec is None:
        return X, None, None
    if isinstance(spec, str):
        if not hasattr(X, "columns") or spec not in list(X.columns):
            cols = list(X.columns)[:10] if hasattr(X, "columns") else []
            raise ValueError(f"{what}={spec!r} is not a column of X (columns: "
                             f"{', '.join(map(str, cols))}{' ...' if len(cols) == 10 else ''}).")
        return X.drop(columns=[spec]), np.asarray(X[spec]), spec
    name = getattr(spec, "name", None)  # a pandas Series keeps its column's name
    return X, np.asarray(spec), str(name) if name is not None else f"<{what} values>"


def _time_key(values):
    v = pd.Series(values)
    if v.dtype == object or pd.api.types.is_string_dtype(v):
        try:
            v = pd.to_datetime(v)
        except (ValueError, TypeError):
            raise ValueError("time: the column holds neither numbers nor dates; give a "
                             "numeric or date column.") from None
    if v.isna().any():
        raise ValueError(f"time has {int(v.isna().sum())} missing values; give every row a "
                         "time.")
    return v.to_numpy()


def _rows_in_order(data, groups_v, groups_name, time_v):
    """The validated rows (and the table as given), in time order when ``time`` is given;
    groups and times follow the rows whose target is known."""
    Xv, yv = data.X, data.y
    table = data.table if hasattr(data.table, "iloc") else None
    if data.rows is not None:  # rows whose target is missing were left out
        groups_v = None if groups_v is None else groups_v[data.rows]
        time_v = None if time_v is None else time_v[data.rows]
    if groups_v is not None and pd.isna(pd.Series(groups_v)).any():
        raise ValueError(f"groups ({groups_name}) has "
                         f"{int(pd.isna(pd.Series(groups_v)).sum())} missing values; give "
                         "every row a group (or fill them, e.g. with 'unknown').")
    if groups_v is not None and len(groups_v) != len(yv):
        raise ValueError(f"groups must hold one value per row ({len(yv)}); got {len(groups_v)}.")
    if time_v is not None:
        key = _time_key(time_v)
        if len(key) != len(yv):
            raise ValueError(f"time must hold one value per row ({len(yv)}); got {len(key)}.")
        order = np.argsort(key, kind="stable")  # rows in time order: index order = time order
        Xv, yv = Xv[order], yv[order]
        table = None if table is None else table.iloc[order]
    return Xv, yv, table, groups_v, time_v


def _seed_list(seeds, n_repeats, random_state, n_rows, notes) -> list:
    """One seed per repeat (given, or ``random_state, random_state + 1, ...``); says how."""
    if seeds is not None:
        seeds = [int(s) for s in seeds]
        if not seeds:
            raise ValueError("seeds must hold at least one seed; got none.")
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"seeds must be distinct; got {seeds}.")
        notes.append(f"{len(seeds)} repeats, seeds given")
    else:
        if n_repeats is None:
            n_repeats, why = default_repeats(n_rows)
            notes.append(why)
        else:
            n_repeats = int(n_repeats)
            if n_repeats < 1:
                raise ValueError(f"n_repeats must be at least 1; got {n_repeats}.")
            notes.append(f"{n_repeats} repeat{'s' if n_repeats > 1 else ''} (asked for)")
        if isinstance(random_state, (int, np.integer)):
            first = int(random_state)
        else:  # None or a RandomState: draw the first seed from it
            first = int(check_random_state(random_state).randint(0, 2**31 - 1 - n_repeats))
        seeds = [first + i for i in range(n_repeats)]
    if len(seeds) < 3:
        notes.append(f"only {len(seeds)} repeat{'s' if len(seeds) > 1 else ''}: the intervals "
                     "and tests have 1 degree of freedom or none and say little (use at least 3, "
                     "5 by default below 10,000 rows)")
    return seeds


def _run_repeats(X, y, names, task, specs, estimator, metric, seeds, windows, kw, *,
                 n_jobs, outer, progress) -> list:
    """Every repeat (through joblib when several run at once), in seed order; None for a
    repeat the time budget did not start.

    An interrupt (KeyboardInterrupt: Ctrl-C, or SIGTERM through the CLI's handler)
    stops the run: the repeats that finished are returned, and the last one marked
    ``"interrupted"`` (a repeat cut short holds the methods that finished in it).
    """
    from joblib import Parallel, delayed

    from ..progress import bar

    r, started = len(seeds), kw["started"]
    pbar = bar(r, desc="repeats", unit="repeat", enabled=progress and r > 1, lines=True)
    reps = []
    try:
        if outer == 1:
            for i, s in enumerate(seeds):
                reps.append(_repeat(X, y, names, task, specs, estimator, metric, s,
                                    window=windows[i], keep_selectors=i == 0,
                                    progress=progress,
                                    **{**kw, "started": started if i else None}))
                if reps[-1] is not None and reps[-1]["interrupted"]:
                    break  # not "finished": the progress line is not printed
                pbar.update(1)
        else:
            # a last round with fewer repeats than workers splits their methods into
            # groups, one per idle worker (balanced by the cost models); every method's
            # row is computed as in a whole repeat, so the result does not change
            head = r - r % outer if r > outer else r
            tail = r - head
            groups = _method_groups(specs, max(1, outer // tail) if tail else 1, task,
                                    X.shape, estimator)
            units = [(i, specs) for i in range(head)] + [(i, g) for i in range(head, r)
                                                         for g in groups]
            gen = Parallel(n_jobs=n_jobs, return_as="generator")(
                delayed(_repeat)(X, y, names, task, part, estimator, metric, seeds[i],
                                 window=windows[i], keep_selectors=i == 0, progress=False,
                                 **{**kw, "started": started if i else None})
                for i, part in units)
            parts: dict = {}
            for (i, _), rep in zip(units, gen, strict=False):
                parts.setdefault(i, []).append(rep)
                if len(parts[i]) == (len(groups) if i >= head else 1):
                    reps.append(_merge_parts(parts.pop(i), specs))
                    pbar.update(1)
    except KeyboardInterrupt:
        reps.append({"interrupted": True, "rows": []})  # the repeats that finished stay
    pbar.close()
    return reps


def _method_groups(specs, n_groups: int, task, shape, estimator) -> list:
    """``specs`` in ``n_groups`` groups of about equal estimated cost (the longest
    first to the lightest group; :func:`featsieve._registry.method_cost`), each in
    table order; ``all`` counts one model fit on every column, ``baseline`` nothing,
    and a method reading the ``all`` row's model stays in its group."""
    if n_groups <= 1 or len(specs) <= 1:
        return [list(specs)]
    from .._resources import fit_seconds, model_kind

    n, d = shape
    kind = estimator if isinstance(estimator, str) else model_kind(estimator)
    one_fit = fit_seconds(kind, 0.75 * n, d)
    cost = {}
    for spec in specs:
        try:
            c = None if spec.name in (ALL, BASELINE) else method_cost(
                spec.name, task, n, d, estimator=estimator)
        except Exception:  # a cost model never blocks a run
            c = None
        cost[spec.name] = one_fit if c is None else c.seconds
        if spec.name == BASELINE:
            cost[spec.name] = 0.0  # the majority class / mean: no model
        elif spec.prefit_full_model:
            cost[spec.name] = 0.1 * one_fit  # the all row's model, read
    # a method reading the all row's model stays in its group (the model is fitted once)
    blocks = [[sp.name] for sp in specs if not sp.prefit_full_model and sp.name != ALL]
    blocks.append([sp.name for sp in specs if sp.prefit_full_model or sp.name == ALL])
    load = [0.0] * min(n_groups, len(blocks))
    member: list = [[] for _ in load]
    for block in sorted((b for b in blocks if b), key=lambda b: -sum(cost[m] for m in b)):
        g = int(np.argmin(load))
        load[g] += sum(cost[m] for m in block)
        member[g].extend(block)
    order = {sp.name: i for i, sp in enumerate(specs)}
    return [sorted((sp for sp in specs if sp.name in m), key=lambda sp: order[sp.name])
            for m in member if m]


def _merge_parts(parts: list, specs) -> dict:
    """One repeat's record from the records of its method groups (rows in table order)."""
    if len(parts) == 1:
        return parts[0]
    order = {sp.name: i for i, sp in enumerate(specs)}
    out = dict(parts[0])
    out["rows"] = sorted((row for p in parts for row in p["rows"]),
                         key=lambda row: order.get(row["method"], len(order)))
    out["selectors"] = {k: v for p in parts for k, v in p["selectors"].items()}
    out["warnings"] = list(dict.fromkeys(w for p in parts for w in p["warnings"]))
    out["interrupted"] = any(p["interrupted"] for p in parts)
    return out


def _finished(reps) -> tuple[list, bool]:
    """The repeats to summarise and whether the run was interrupted.

    After an interrupt the whole repeats are kept; when none finished, the
    methods that finished in the first one. Raises KeyboardInterrupt when not
    even ``all`` finished (nothing to write).
    """
    reps = [x for x in reps if x is not None]
    if not any(x["interrupted"] for x in reps):
        return reps, False
    whole = [x for x in reps if not x["interrupted"]]
    if not whole:
        whole = [x for x in reps[:1] if any(r["method"] == ALL for r in x["rows"])]
    if not whole:
        raise KeyboardInterrupt
    return whole, True


def _collect(reps, methods, names, task, metric, notes) -> tuple[list, list]:
    """The table's rows (one per method over the repeats) and the failed methods' rows."""
    sizes = reps[0]["split"]
    n_test = sizes["test"]
    n_train = sum(sizes.values()) - n_test
    by_method = {m: [] for m in methods}
    methods = [m for m in methods if any(row["method"] == m for rep in reps
                                         for row in rep["rows"])]  # after an interrupt
    failures: dict = {}  # a method that raised in any repeat: one "failed" row, no numbers
    for rep in reps:
        for row in rep["rows"]:
            if "failed" in row:
                failures.setdefault(row["method"], row["failed"])
            else:
                by_method[row["method"]].append({**row, "_seed": rep["seed"]})
    base_scores = np.array([x["test_score"] for x in by_method[ALL]], float)
    rows = [_summarise(m, by_method[m], base_scores, names, task, metric, n_train, n_test)
            for m in methods if m not in failures]
    if n_test < FEW_TEST_ROWS:
        notes.append(f"{n_test} test rows per repeat: each test score rests on them alone and "
                     "moves a lot from split to split (the intervals count the repeats: run "
                     "more of them)")
    whys: dict = {}  # one note per reason, naming its methods
    for r in rows:
        why = r.pop("_stability_note", None)
        if why:
            whys.setdefault(why, []).append(r["method"])
    notes += [f"{', '.join(ms)}: stability {why}" for why, ms in whys.items()]
    failed = [{"method": m, "failed": failures[m]} for m in methods if m in failures]
    if failed:
        notes.append(f"{len(failed)} method(s) failed; their rows say why: "
                     + ", ".join(f["method"] for f in failed))
    return rows, failed


def _add_audit(result, data, audit, *, estimator, specs, n_jobs, progress, structured):
    """``compare(..., audit=...)``: the audit columns on every row but the baseline."""
    from ._inflation import add_audit_columns

    if structured:
        warnings.warn("the audit columns (noise pool, nested CV) use shuffled folds: they "
                      "do not keep groups whole or time order yet.", ProtocolWarning,
                      stacklevel=3)
    seed = result.seeds[0]
    model = make_model(estimator, result.task, random_state=seed) if isinstance(
        estimator, str) else estimator
    view = copy.copy(result)  # the same row dicts, without the baseline (no selection)
    view.rows = [r for r in result.rows if r["method"] != BASELINE]
    add_audit_columns(view, data.X, data.y, estimator=model, random_state=seed,
                      n_jobs=n_jobs, progress=progress,
                      specs=[s for s in specs if s.name != BASELINE],
                      **(audit if isinstance(audit, dict) else {}))


def _data_notes(data, n_rows: int, names) -> list:
    """Notes on the table itself: rows whose target is missing (left out) and columns
    constant on every row (left out of the column count, ``all`` and every selection)."""
    notes = []
    if data.rows is not None:
        notes.append(f"target missing on {n_rows - len(data.rows)} of {n_rows} rows; those "
                     "rows are left out")
    const = [str(names[j]) for j in np.flatnonzero(data.constant & ~data.columns.left_out)]
    if const:
        notes.append(f"constant, left out (not counted as features): {', '.join(const)}")
    return notes


def _equal_diff_notes(rows) -> list:
    """Rows whose paired differences to all features are equal in every repeat.

    The corrected t is then undefined: the p-value is the exact sign test's
    (``2 ** (1 - J)``, :func:`~featsieve.evaluation._stats.corrected_t`) and there is no
    interval, so the note names the test (the printed table shows the value with
    "(all equal)" rather than "± 0").
    """
    notes, same = [], []
    for r in rows:
        if r.get("diff_test") != "sign":
            continue
        j = len(r["test_scores"])
        if r["diff_vs_all"] == 0:
            same.append(r["method"])
            continue
        call = "" if r["p_value"] < ALPHA else " (too few repeats to call it)"
        notes.append(f"{r['method']}: all {j} paired differences to all features equal "
                     f"({r['diff_vs_all']:+.3g}), no interval; sign test p = "
                     f"{r['p_value']:.2g}{call}")
    if same:
        notes.insert(0, f"{', '.join(same)}: the same test score as all features in every "
                     "repeat (paired differences all 0, no interval; p = 1)")
    return notes


def _k_top_notes(rows, n_features: int) -> list:
    """One note per top value: methods whose tuned k was the grid's largest in every repeat."""
    tops: dict = {}
    for r in rows:
        top = r.get("k_at_top")
        if top is not None and top < n_features:
            tops.setdefault(top, []).append(r["method"])
    notes = []
    for top, methods in tops.items():
        grid = sorted({top, min(n_features, top + max(1, top // 2)), min(n_features, 2 * top)})
        notes.append(f"{', '.join(methods)}: tuned k at the top of its grid in every repeat "
                     f"(largest {top}; a repeat's grid ends at the columns usable in it); a "
                     f"larger k may score better (--k-grid "
                     f"{','.join(map(str, grid))}, or k_grid= in Python)")
    return notes


def _specs_for(methods, task, shape, *, estimator, data, n_repeats) -> tuple[list, list]:
    """The rows to run: ``all``, the baseline, then the methods (the size-aware default set
    when None, with one warning per method it leaves out), and those lines (for ``notes``)."""
    left_out: list = []
    if methods is None:  # size-aware: leaves out a method whose cost is far beyond the rest
        methods, left_out = default_methods(
            task, *shape, estimator=estimator,
            n_classes=0 if data.classes is None else len(data.classes), n_repeats=n_repeats)
        for line in left_out:
            warnings.warn(line, LeftOutWarning, stacklevel=3)
    specs = [s for s in resolve_methods(methods, task) if s.name not in (ALL, BASELINE)]
    return [get_method(ALL), _BASELINE_SPEC, *specs], list(left_out)  # the repeats' rows


def compare(X, y, *, methods: list | None = None, estimator="lightgbm", task="auto",
            scoring: str | None = None, n_repeats: int | None = None, seeds=None,
            random_state=0, groups=None, time=None, k_grid=None,
            time_budget: float | None = None, n_jobs=None, fractions=DEFAULT_FRACTIONS,
            progress=False, dataset="data", audit=False, categorical=None,
            numeric=None) -> ComparisonResult:
    """Run several selectors on one table under the honest protocol, repeated.

    Each repeat splits the rows (seeded, stratified for classes) into train /
    selection-val / model-val / test (default 45/30/10/15, seed 000 §4.2);
    every method sees the same splits, so differences are paired. Methods
    that read their own validation score (forward wrapper, GBMO, FASTENER)
    fit on train and score on selection-val; the others fit on train ∪
    selection-val. A method's candidates (e.g. k on :func:`~featsieve._registry.k_grid`)
    are compared on model-val in the run's metric (an empty selection is
    never a candidate); the chosen columns are then used to refit the model
    on train ∪ selection-val, and the test part is scored once.

    Over the repeats, per method: the test mean and its 95% interval, and
    the paired difference to all features with its interval and p-value, by
    the corrected resampled t of Nadeau & Bengio (2003) (``n_train`` = the
    rows of a split outside the test part); p-values Holm-adjusted over the
    run's methods (the baseline's is left unadjusted); ``vs_all``
    "better"/"worse" when the adjusted p-value is
    under 0.05, else "tie" (when every paired difference of a method is
    equal the t is undefined: its p-value is the exact sign test's,
    ``2 ** (1 - J)``, there is no interval, and a note names the test; the CLI
    shows such a value as "(all equal)", never "± 0"); the stability of the selection (Nogueira,
    Sechidis & Brown 2018) and each column's selection frequency. A
    ``baseline`` row (no column: majority class / mean) is always included.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    methods : list of str or None, default=None
        Registered names; None runs every registered method that suits the
        task and is in the default set.
    estimator : str or estimator, default="lightgbm"
        A name for :func:`featsieve.models.make_model` (built per repeat for
        the size of its fit part, see ``n_samples`` there) or an estimator.
    task : {"auto", "classification", "regression"}, default="auto"
    scoring : str or None, default=None
        A scikit-learn scorer name, for tuning on model-val and for the test
        scores (:func:`featsieve.models.resolve_metric`; None: accuracy, or
        balanced accuracy when the smallest class is under 20% of the rows;
        mean squared error for regression).
    n_repeats : int or None, default=None
        None: :func:`default_repeats` (5 below 10,000 rows).
    seeds : sequence of int or None, default=None
        One seed per repeat (overrides ``n_repeats``); default
        ``random_state, random_state + 1, ...``.
    random_state : int or None, default=0
    groups : str, array-like of shape (n_samples,) or None, default=None
        Group labels (or the name of a column of ``X``, which is then not a
        feature): no group straddles two parts, and selectors that
        cross-validate inside their part (a ``cv`` parameter) get group-whole
        folds; a selector whose ``fit`` takes ``groups`` gets them.
    time : str, array-like of shape (n_samples,) or None, default=None
        Row times (or a column name, then not a feature): every split is in
        time order (train, selection-val, model-val, test), repeat ``i`` of
        ``R`` using the earliest ``0.7 + 0.3 (i + 1) / R`` share of the rows
        (a rolling origin); selectors that cross-validate get
        forward-chaining folds. Exclusive with ``groups``.
    k_grid : sequence of int or float, or None, default=None
        Replace the default grid of numbers of columns to keep (counts, or
        fractions in (0, 1) of the usable columns).
    time_budget : float or None, default=None
        Seconds: no repeat starts after this much time has passed (the first
        always runs); ``notes`` says how many ran.
    n_jobs : int or None, default=None
        Parallel jobs (joblib) over repeats; with a single repeat, inside
        the methods. Results do not depend on it.
    fractions : tuple of 4 floats, default=(0.45, 0.30, 0.10, 0.15)
    progress : bool, default=False
        A progress bar over repeats (and over methods when repeats run one
        after the other).
    dataset : str, default="data"
    audit : bool or dict, default=False
        Add the selection-audit columns (noise-pool inflation, nested CV) to
        every row with :func:`featsieve.evaluation.add_audit_columns` (on the
        first seed); a dict passes its options.
    categorical, numeric : list of column labels or None, default=None
        Kind overrides (:func:`featsieve._validation.describe_columns`). The kinds
        are read once for the whole table and passed to every selector, which
        reads the table as given (text, categories, dates, missing cells).

    Returns
    -------
    result : ComparisonResult

    Raises
    ------
    KeyError
        Unknown method name.
    ValueError
        Bad input (see README, "Bad input"), a method that does not suit the
        task, an unknown metric, bad groups/time, too few groups.

    Examples
    --------
    >>> import featsieve
    >>> from featsieve.datasets import load_sonar
    >>> X, y = load_sonar(return_X_y=True)
    >>> r = featsieve.compare(X, y, methods=["cc"], estimator="tree", n_repeats=3)
    >>> [row["method"] for row in r.rows], r.seeds
    (['all', 'baseline', 'cc'], [0, 1, 2])
    >>> r.rows[2]["vs_all"] in {"better", "worse", "tie"}
    True
    """
    from joblib import effective_n_jobs

    X, groups_v, groups_name = _column(X, groups, "groups")
    X, time_v, time_name = _column(X, time, "time")
    if groups_v is not None and time_v is not None:
        raise ValueError("Give groups or time, not both.")
    names = list(X.columns) if hasattr(X, "columns") else [f"x{i}" for i in range(np.shape(X)[1])]
    data = validate_Xy(X, y, task=task, min_samples=20, min_per_class=4,
                       categorical=categorical, numeric=numeric)
    task = data.task
    raw_y = y
    leaks = warn_target_leaks(data, names, stacklevel=2)
    Xv, yv, table, groups_v, time_v = _rows_in_order(data, groups_v, groups_name, time_v)
    metric = resolve_metric(scoring, task, yv)
    specs, left_out = _specs_for(methods, task, Xv.shape, estimator=estimator, data=data,
                                 n_repeats=len(seeds) if seeds is not None else n_repeats or
                                 default_repeats(len(yv))[0])
    notes = _data_notes(data, np.shape(raw_y)[0], names) + left_out  # also warned (stderr)
    if leaks:
        notes.insert(0, leak_note(leaks))
    constant = data.constant & ~data.columns.left_out
    if methods is None:
        extra = [m for m in registered_methods(task) if not get_method(m).in_default]
        if extra:
            notes.append(f"not in the default set (slower or specialised; run them with "
                         f"--methods): {', '.join(extra)}")
    methods = [s.name for s in specs]
    seeds = _seed_list(seeds, n_repeats, random_state, len(yv), notes)
    if metric.reason:
        notes.append(f"metric {metric.name}: {metric.reason}")
    if k_grid is not None:
        k_grid = list(k_grid)
        if not k_grid or any(not (v > 0) for v in k_grid):
            raise ValueError(f"k_grid must be positive counts or fractions; got {k_grid}.")
    r = len(seeds)
    windows = [0.7 + 0.3 * (i + 1) / r for i in range(r)] if time_v is not None else [1.0] * r
    outer = min(r, effective_n_jobs(n_jobs)) if r > 1 else 1
    inner = 1 if outer > 1 else n_jobs
    started = _time.time()
    kw = dict(fractions=fractions, groups=groups_v, ordered=time_v is not None,
              k_values=k_grid, n_jobs=inner, started=started, budget=time_budget,
              table=table, columns=data.columns, constant=constant)
    reps = _run_repeats(Xv, yv, names, task, specs, estimator, metric, seeds, windows,
                        kw, n_jobs=n_jobs, outer=outer, progress=progress)
    reps, interrupted = _finished(reps)
    similar: dict = {}  # the same warning with other numbers: shown once, with a count
    consts = {str(names[j]) for j in np.flatnonzero(constant)}
    for category, message in (w for x in reps for w in x["warnings"]):
        if (issubclass(category, ConstantFeatureWarning) and consts
                and set(re.findall(r"'([^']*)'", message)) <= consts):
            continue  # constant on the whole table: named once in the notes
        if issubclass(category, (ConstantFeatureWarning, DuplicateFeatureWarning)):
            # found in a repeat's training rows, which can miss a rare value of a column
            what = ("constant" if category is ConstantFeatureWarning else
                    "an exact copy of another column (only the first of a group)")
            message = (f"Not selectable in a repeat, {what} in its training rows (where a "
                       f"rare value can be missing): {message.split(': ', 1)[-1]}")
        similar.setdefault((category, re.sub(r"\d+(\.\d+)?", "#", message)), []).append(message)
    for (category, _), messages in similar.items():
        more = f" (and {len(messages) - 1} similar)" if len(messages) > 1 else ""
        warnings.warn(messages[0] + more, category, stacklevel=2)
    if interrupted:
        notes.append(f"interrupted: {len(reps)} of {r} repeats finished"
                     + ("" if reps[0]["rows"] and len(reps[0]["rows"]) == len(specs) else
                        f" (the first with {len(reps[0]['rows'])} of {len(specs)} methods)"))
    elif len(reps) < r:
        notes.append(f"time budget {time_budget:g} s: {len(reps)} of {r} repeats ran")
    seeds = [x["seed"] for x in reps]
    if groups_v is not None:
        notes.append(f"groups ({groups_name}, {len(np.unique(groups_v))} groups): no group "
                     "straddles two parts; selectors with a cv parameter got group-whole folds")
    if time_v is not None:
        notes.append(f"time-ordered ({time_name}): train, selection-val, model-val and test "
                     "follow each other in time; repeat i of R splits the earliest "
                     "0.7 + 0.3 (i + 1)/R of the rows (a rolling origin)")
    first = reps[0]
    sizes = first["split"]
    ids = [str(names[j]) for j in np.flatnonzero(data.columns.left_out)]
    if ids:  # not features: out of the column count, the k grid and every selection
        notes.append(f"ID-like column{'s' if len(ids) > 1 else ''} left out (a distinct value "
                     f"on every row; not counted as features): {', '.join(ids)}")
    notes.extend(f"{x['method']}: {x['strategy']}" for x in first["rows"] if x.get("strategy"))
    rows, failed = _collect(reps, methods, names, task, metric, notes)
    if failed:
        warnings.warn(f"{len(failed)} method(s) failed (their rows say why): " + "; ".join(
            f"{f['method']}: {f['failed']}" for f in failed), ProtocolWarning, stacklevel=2)
    _verdicts(rows, metric.greater_is_better)
    notes.extend(_equal_diff_notes(rows))
    notes.extend(_k_top_notes(rows, Xv.shape[1] - len(ids) - len(consts)))
    from ..io import data_fingerprint

    result = ComparisonResult(
        dataset=dataset, task=task, metric=metric.name,
        greater_is_better=metric.greater_is_better, n_samples=Xv.shape[0],
        n_features=Xv.shape[1] - len(ids) - len(consts), split=sizes, seeds=seeds,
        rows=rows, failed=failed,
        selectors=first["selectors"],
        tuned_cuts={x["method"]: x["cut"] for x in first["rows"] if "failed" not in x},
        supports={x["method"]: x["support"] for x in first["rows"] if "failed" not in x},
        fingerprint=data_fingerprint(to_pandas(X), to_pandas(raw_y), feature_names=names),
        params={"estimator": estimator if isinstance(estimator, str) else repr(estimator),
                "methods": [m for m in methods if m not in (ALL, BASELINE)],
                "fractions": [float(f) for f in fractions], "n_jobs": n_jobs,
                "scoring": metric.scorer, "groups": groups_name, "time": time_name,
                "k_grid": k_grid, "time_budget": time_budget},
        notes=notes, interrupted=interrupted,
    )
    if audit and not interrupted:
        try:
            _add_audit(result, data, audit, estimator=estimator, specs=specs, n_jobs=n_jobs,
                       progress=progress, structured=groups_v is not None or time_v is not None)
        except KeyboardInterrupt:  # the comparison is whole: keep it, say what the audit lacks
            result.interrupted = True
            lacking = [r["method"] for r in result.rows
                       if r["method"] != BASELINE and "nested_cv" not in r]
            result.notes.append("interrupted during the audit: the comparison's columns are "
                                "complete; the audit columns are missing for "
                                + ", ".join(lacking))
    return result
