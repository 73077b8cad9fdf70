"""``compare``: several selectors on one table under the honest protocol."""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.dummy import DummyClassifier, DummyRegressor

from .._registry import (
    MethodSpec,
    build_selector,
    default_methods,
    get_method,
    resolve_methods,
    tuning_candidates,
)
from .._resources import LeftOutWarning
from .._validation import validate_Xy
from ..models import greater_is_better, make_model, metric_name, metric_value, score
from ..protocol import DEFAULT_FRACTIONS, HonestSplit, honest_split

__all__ = ["ComparisonResult", "SeedsComparison", "compare", "compare_seeds",
           "evaluate_support"]


@dataclass
class ComparisonResult:
    """What ``compare`` measured (data first; drawn and written by the front ends).

    Attributes
    ----------
    dataset : str
    task : {"classification", "regression"}
    metric : {"accuracy", "mse"}
        Accuracy is higher-is-better, MSE lower-is-better.
    n_samples, n_features : int
    split : dict
        Rows in each part of the protocol.
    random_state : int or None
    rows : list of dict
        One per method: ``method``, ``n_selected``, ``selected`` (names),
        ``selection_score`` (the number the selection itself optimized or was
        tuned on, in the comparison metric; None for ``all``), ``test_score``
        (model refit on the selected columns, scored once on the test split),
        ``gap`` (optimism: how much better the selection's own number looks
        than the test number; positive = inflated), ``seconds`` (selection and
        tuning wall time), ``model_fits`` (fits spent by selection and tuning),
        ``tuned`` (the chosen candidate, e.g. ``k=10``).
    selectors : dict
        The fitted selectors by method name (not serialized).
    fingerprint : dict
        ``rows``, ``columns`` and ``sha256`` of the validated data
        (:func:`featsieve.io.data_fingerprint`).
    params : dict
        The run's parameters: ``estimator``, ``methods``, ``fractions``,
        ``n_jobs``.
    """

    dataset: str
    task: str
    metric: str
    n_samples: int
    n_features: int
    split: dict
    random_state: int | None
    rows: list = field(default_factory=list)
    selectors: dict = field(default_factory=dict, repr=False)
    fingerprint: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """JSON-ready dict (the schema of ``featsieve compare --json``)."""
        return {
            "dataset": self.dataset,
            "task": self.task,
            "metric": self.metric,
            "greater_is_better": greater_is_better(self.task),
            "n_samples": self.n_samples,
            "n_features": self.n_features,
            "split": self.split,
            "random_state": self.random_state,
            "results": [dict(r) for r in self.rows],
            "fingerprint": dict(self.fingerprint),
            "params": dict(self.params),
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per method (without the list of selected names)."""
        cols = ["method", "n_selected", "selection_score", "test_score", "gap", "seconds",
                "model_fits", "tuned"]
        from ._inflation import AUDIT_COLUMNS  # present after compare(..., audit=True)

        cols += [c for c in AUDIT_COLUMNS if any(c in r for r in self.rows)]
        return pd.DataFrame([{c: r.get(c) for c in cols} for r in self.rows], columns=cols)

    def best(self) -> dict:
        """The row with the best test score (ties: fewer columns)."""
        sign = -1 if greater_is_better(self.task) else 1
        return min(self.rows, key=lambda r: (sign * r["test_score"], r["n_selected"]))

    def verdict(self) -> str:
        """One plain-language line: the best method against all features."""
        best = self.best()
        base = next((r for r in self.rows if r["method"] == "all"), None)
        n_test = self.split.get("test") if isinstance(self.split, dict) else None
        where = f"the untouched test split ({n_test} rows)" if n_test else "the untouched test split"
        text = (f"best {self.metric} on {where}: {best['method']} with "
                f"{best['n_selected']} of {self.n_features} columns ({best['test_score']:.4g})")
        if base is not None and best["method"] != "all":
            tie = best["test_score"] == base["test_score"]
            text += (", a tie with all columns" if tie else
                     f" vs all columns {base['test_score']:.4g}")
        inflated = [r for r in self.rows if r.get("gap") is not None and r["gap"] > 0]
        if inflated:
            worst = max(inflated, key=lambda r: r["gap"])
            text += (f"; the most optimistic selection number was {worst['method']}'s, "
                     f"{worst['gap']:.3g} better than what it delivers on unseen rows")
        return text + "."


def _final_model(model, task, n_selected):
    if n_selected == 0:
        return DummyClassifier() if task == "classification" else DummyRegressor()
    return clone(model)


def evaluate_support(model, task, X_fit, y_fit, X_eval, y_eval, support) -> float:
    """Fit a fresh copy of ``model`` on the selected columns and score it.

    With no selected column the score is that of the majority class / mean.
    """
    support = np.asarray(support, bool)
    est = _final_model(model, task, int(support.sum()))
    cols = support if support.any() else np.ones_like(support)
    est.fit(X_fit[:, cols], y_fit)
    return score(task, y_eval, est.predict(X_eval[:, cols]))


def _frame(X, names, rows):
    return pd.DataFrame(X[rows], columns=names)


def _run_method(spec: MethodSpec, X, y, names, task, split: HonestSplit, model, random_state,
                n_jobs):
    name = spec.name
    start = time.perf_counter()
    d = X.shape[1]
    if name == "all":
        support = np.ones(d, bool)
        row = {"selection_score": None, "model_fits": 0, "tuned": ""}
        selector = None
    else:
        selector = build_selector(spec, task=task, estimator=model,
                                  random_state=random_state, n_jobs=n_jobs)
        if spec.path_params:
            selector.set_params(**spec.path_params_for(*X.shape))
        if spec.uses_selection_val:
            selector.fit(_frame(X, names, split.train), y[split.train],
                         X_val=_frame(X, names, split.selection_val),
                         y_val=y[split.selection_val])
        else:
            selector.fit(_frame(X, names, split.fit), y[split.fit])
        usable = int((~selector.constant_features_).sum()) if hasattr(
            selector, "constant_features_") else d
        cands = tuning_candidates(spec, selector, usable)
        scored = []
        Xf, yf = X[split.fit], y[split.fit]
        Xm, ym = X[split.model_val], y[split.model_val]
        for label, mask in cands.items():
            mask = np.asarray(mask, bool)
            if not mask.any():
                continue
            scored.append((label, mask, evaluate_support(model, task, Xf, yf, Xm, ym, mask)))
        if not scored:
            label, support, model_val_score = "", np.zeros(d, bool), float("nan")
        else:
            sign = 1 if greater_is_better(task) else -1
            label, support, model_val_score = max(
                scored, key=lambda t: (sign * t[2], -int(t[1].sum())))
        own = getattr(selector, "selection_score_", None)
        own = None if own is None else metric_value(task, own)
        fits = int(getattr(selector, "n_model_fits_", 0))
        row = {
            "selection_score": own if own is not None else model_val_score,
            "model_fits": int(fits) + (len(scored) if len(scored) > 1 else 0),
            "tuned": label,
        }
    seconds = time.perf_counter() - start
    test = evaluate_support(model, task, X[split.fit], y[split.fit], X[split.test],
                            y[split.test], support)
    sel = row["selection_score"]
    if sel is None or not np.isfinite(sel):
        gap = None
    else:
        gap = sel - test if greater_is_better(task) else test - sel
    row.update({
        "method": name,
        "n_selected": int(support.sum()),
        "selected": [str(names[i]) for i in np.flatnonzero(support)],
        "test_score": float(test),
        "gap": None if gap is None else float(gap),
        "seconds": round(seconds, 3),
    })
    order = ["method", "n_selected", "selected", "selection_score", "test_score", "gap",
             "seconds", "model_fits", "tuned"]
    return {k: row[k] for k in order}, selector


def compare(X, y, *, methods: list | None = None, estimator="lightgbm", task="auto",
            random_state=0, n_jobs=None, fractions=DEFAULT_FRACTIONS, progress=False,
            dataset="data", audit=False) -> ComparisonResult:
    """Run several selectors on one table under the honest protocol.

    The rows are split once (seeded, stratified for classes) into train /
    selection-val / model-val / test (default 45/30/10/15, seed 000 §4.2).
    Methods that read their own validation score (forward wrapper, GBMO,
    FASTENER) fit on train and score on selection-val; the others fit on
    train ∪ selection-val. A method's candidates (e.g. k in {M/6, M/5, M/4,
    M/2}) are compared on model-val; the chosen columns are then used to refit
    the model on train ∪ selection-val, and the test split is scored once.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    methods : list or None, default=None
        Method entries (:func:`featsieve.resolve_method`): registered names, a
        group name (``"comparators"``), import paths ``"module:Class"``, or
        selector instances (e.g. ``[SelectKBest(k=5), "gbmo"]``; each run fits
        a clone). None runs every registered method that suits the task and
        is in the default set.
    estimator : str or estimator, default="lightgbm"
        A name for :func:`featsieve.models.make_model` or an estimator.
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int or None, default=0
    n_jobs : int or None, default=None
    fractions : tuple of 4 floats, default=(0.45, 0.30, 0.10, 0.15)
    progress : bool, default=False
        Show a progress bar over methods (without a terminal: one line per
        finished method on standard error).
    dataset : str, default="data"
        Name recorded in the result.
    audit : bool or dict, default=False
        Add the selection-audit columns (noise-pool inflation, nested CV) to
        every row with :func:`featsieve.evaluation.add_audit_columns`; a dict
        passes its options (``noise_features``, ``n_repeats``, ...).

    Returns
    -------
    result : ComparisonResult

    Raises
    ------
    KeyError
        Unknown method name.
    ValueError
        Bad input (see README, "Bad input"), or a method that does not suit
        the task.
    """
    names = list(X.columns) if hasattr(X, "columns") else [f"x{i}" for i in range(np.shape(X)[1])]
    data = validate_Xy(X, y, task=task, min_samples=20, min_per_class=4)
    task = data.task
    if methods is None:  # size-aware: leaves out a method whose cost is far beyond the rest
        methods, left_out = default_methods(task, *data.X.shape, estimator=estimator,
                                            n_classes=0 if data.classes is None else
                                            len(data.classes))
        for line in left_out:
            warnings.warn(line, LeftOutWarning, stacklevel=2)
    specs = resolve_methods(methods, task)
    if "all" not in [s.name for s in specs]:
        specs.insert(0, get_method("all"))
    methods = [s.name for s in specs]
    model = make_model(estimator, task, random_state=random_state) if isinstance(
        estimator, str) else estimator
    split = honest_split(data.y, task, fractions=fractions, random_state=random_state)
    from ..io import data_fingerprint
    from ..progress import bar

    result = ComparisonResult(
        dataset=dataset, task=task, metric=metric_name(task), n_samples=data.X.shape[0],
        n_features=data.X.shape[1], split=split.sizes(), random_state=random_state,
        fingerprint=data_fingerprint(data.X, y, feature_names=names),
        params={"estimator": estimator if isinstance(estimator, str) else repr(estimator),
                "methods": list(methods), "fractions": [float(f) for f in fractions],
                "n_jobs": n_jobs},
    )
    pbar = bar(len(methods), desc="methods", unit="method", enabled=progress, lines=True)
    for spec in specs:
        pbar.set_postfix_str(spec.name)
        row, selector = _run_method(spec, data.X, data.y, names, task, split, model,
                                    random_state, n_jobs)
        result.rows.append(row)
        if selector is not None:
            result.selectors[spec.name] = selector
        pbar.update(1)
    pbar.close()
    if audit:
        from ._inflation import add_audit_columns

        add_audit_columns(result, data.X, data.y, estimator=model, random_state=random_state,
                          n_jobs=n_jobs, progress=progress, specs=specs,
                          **(audit if isinstance(audit, dict) else {}))
    return result


@dataclass
class SeedsComparison:
    """``compare`` repeated over several seeds (one :class:`ComparisonResult` each).

    Attributes
    ----------
    runs : list of ComparisonResult
        One per seed, in the order of ``seeds``.
    seeds : list of int
    """

    runs: list
    seeds: list

    # the data and the run parameters are those of every run; read them from the first
    dataset = property(lambda self: self.runs[0].dataset)
    task = property(lambda self: self.runs[0].task)
    metric = property(lambda self: self.runs[0].metric)
    n_samples = property(lambda self: self.runs[0].n_samples)
    n_features = property(lambda self: self.runs[0].n_features)
    split = property(lambda self: self.runs[0].split)
    fingerprint = property(lambda self: self.runs[0].fingerprint)
    params = property(lambda self: self.runs[0].params)

    def summary(self) -> pd.DataFrame:
        """One row per method: mean and standard deviation over seeds.

        Columns: ``method``, ``n_runs``, ``n_selected_mean``, ``n_selected_std``,
        ``selection_score_mean``, ``test_score_mean``, ``test_score_std``,
        ``gap_mean``, ``gap_std``, ``seconds_mean``, ``model_fits_mean``, and
        with ``audit=True`` ``noise_inflation_mean`` and ``nested_cv_mean`` (the
        standard deviation is the sample one, ddof=1; NaN for a single seed).
        """
        df = pd.DataFrame([{**{k: v for k, v in r.items() if k != "selected"},
                            "seed": run.random_state}
                           for run in self.runs for r in run.rows])
        order = list(dict.fromkeys(df["method"]))
        for c in ("selection_score", "gap"):
            df[c] = pd.to_numeric(df[c], errors="coerce")
        g = df.groupby("method", sort=False)
        out = pd.DataFrame({
            "method": order,
            "n_runs": g.size().reindex(order).to_numpy(),
            "n_selected_mean": g["n_selected"].mean().reindex(order).to_numpy(),
            "n_selected_std": g["n_selected"].std().reindex(order).to_numpy(),
            "selection_score_mean": g["selection_score"].mean().reindex(order).to_numpy(),
            "test_score_mean": g["test_score"].mean().reindex(order).to_numpy(),
            "test_score_std": g["test_score"].std().reindex(order).to_numpy(),
            "gap_mean": g["gap"].mean().reindex(order).to_numpy(),
            "gap_std": g["gap"].std().reindex(order).to_numpy(),
            "seconds_mean": g["seconds"].mean().reindex(order).to_numpy(),
            "model_fits_mean": g["model_fits"].mean().reindex(order).to_numpy(),
        })
        for c in ("noise_inflation", "nested_cv"):  # compare(audit=True)
            if c in df.columns:
                vals = pd.to_numeric(df[c], errors="coerce")
                out[f"{c}_mean"] = vals.groupby(df["method"], sort=False).mean(
                    ).reindex(order).to_numpy()
        return out

    def to_dict(self) -> dict:
        """JSON-ready dict: the first run's header, every run, and the summary."""
        first = self.runs[0].to_dict()
        head = {k: first[k] for k in ("dataset", "task", "metric", "greater_is_better",
                                      "n_samples", "n_features", "fingerprint", "params")}
        summary = self.summary().astype(object)
        summary = summary.where(pd.notna(summary), None)
        return {**head, "seeds": list(self.seeds), "runs": [r.to_dict() for r in self.runs],
                "summary": summary.to_dict(orient="records")}

    def verdict(self) -> str:
        """One plain-language line: the best mean test score against all features."""
        s = self.summary()
        sign = 1 if greater_is_better(self.task) else -1
        s = s.assign(_key=-sign * s["test_score_mean"]).sort_values(["_key", "n_selected_mean"])
        best = s.iloc[0]
        text = (f"over {len(self.seeds)} seeds, best mean {self.metric} on the untouched test "
                f"splits: {best['method']} with {best['n_selected_mean']:.3g} of "
                f"{self.n_features} columns on average ({best['test_score_mean']:.4g} "
                f"± {best['test_score_std']:.2g})")
        base = s[s["method"] == "all"]
        if len(base) and best["method"] != "all":
            text += f" vs all columns {base['test_score_mean'].iloc[0]:.4g}"
        return text + "."


def compare_seeds(X, y, *, seeds=(0,), n_jobs=None, progress=False, **kwargs) -> SeedsComparison:
    """Run :func:`compare` once per seed (each seed draws its own split and models).

    The seeds are independent tasks sent through joblib, so
    ``joblib.parallel_config(backend="dask")`` spreads them over a cluster
    (joblib scatters the data once per worker). When more than one seed runs
    at a time, each ``compare`` runs its methods with ``n_jobs=1``; otherwise
    ``n_jobs`` goes to the methods. Results do not depend on ``n_jobs``.

    Parameters
    ----------
    X, y
        As for :func:`compare`.
    seeds : sequence of int, default=(0,)
        One ``random_state`` per run; must be distinct.
    n_jobs : int or None, default=None
        Parallel jobs (joblib) over seeds, or inside the methods for one seed.
    progress : bool, default=False
        One bar over seeds and, when seeds run one after the other, one over
        the methods of the current seed (terminal only).
    **kwargs
        Passed to :func:`compare` (``methods``, ``estimator``, ``task``,
        ``fractions``, ``dataset``).

    Returns
    -------
    result : SeedsComparison

    Raises
    ------
    ValueError
        No seed, repeated seeds, and everything :func:`compare` raises.
    """
    from joblib import Parallel, delayed, effective_n_jobs

    from ..progress import bar

    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds must hold at least one seed; got none.")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct; got {seeds}.")
    outer = min(len(seeds), effective_n_jobs(n_jobs)) if len(seeds) > 1 else 1
    inner = 1 if outer > 1 else n_jobs
    pbar = bar(len(seeds), desc="seeds", unit="seed", enabled=progress and len(seeds) > 1,
               leave=False)
    if outer == 1:
        runs = []
        for s in seeds:
            runs.append(compare(X, y, random_state=s, n_jobs=inner, progress=progress, **kwargs))
            pbar.update(1)
    else:
        runs = []
        gen = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(compare)(X, y, random_state=s, n_jobs=1, progress=False, **kwargs)
            for s in seeds)
        for r in gen:
            runs.append(r)
            pbar.update(1)
    pbar.close()
    return SeedsComparison(runs=runs, seeds=seeds)
