"""The selection audit: how much a feature selection inflates its own number.

Seed 002 (``002_2595f2849cd4c4da.txt``) makes the point: the selected feature
set is a trained object, and a number read on rows that took part in the
selection is not a measurement. This module measures that for any selector:

1. *The selection's own number against the held-out number*: the score the
   selection optimized (``selection_score_``, e.g. the forward wrapper's
   validation accuracy, FS18) or, for a selector without one, the inner
   cross-validated score of the chosen columns on the rows the selector saw;
   against the test score of the model refit on the chosen columns ("The
   Selection's Own Number").
2. *The noise-pool test* (FS21, "If the Selection Is Made from the Whole
   Set"): a pool of seeded noise columns with a known-zero contribution; the
   selector chooses k of them once from the training rows only and once from
   all rows; the model is refit on the training rows; the test-score
   difference is the inflation the test labels bought. Repeated over seeds,
   with mean and standard error, beside the majority / mean baseline.
3. *Nested cross-validation* of ``Pipeline(selector, model)``: the honest
   estimate; and, beside it, the naive one (select once on all rows, then
   cross-validate the model on the chosen columns).

Everything here returns data (:class:`InflationResult`,
:class:`NoisePoolResult`); the CLI prints it.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, fields, replace

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.utils import check_random_state

from .._utils import scorer_for
from .._validation import leak_note, validate_Xy, warn_target_leaks
from ..models import greater_is_better, make_model, metric_name, metric_value, score
from ..progress import bar, track
from ._refit import final_model, refit_scores

__all__ = [
    "AuditConfig",
    "FRONT_END_AUDIT",
    "InflationResult",
    "NoisePoolResult",
    "add_audit_columns",
    "audit_method",
    "nested_cv_score",
    "noise_pool_test",
    "selection_inflation",
]

DEFAULT_K = (2, 4, 8)
DEFAULT_NOISE_FEATURES = 1200  # seed 002 FS21
DEFAULT_FRACTIONS = (0.6, 0.2, 0.2)  # seed 002: 756 / 252 / 252 of 1,260 rows
#: Own number and test number "match" within this share of their scale (at least 1).
MATCH_TOLERANCE = 5e-4


# ----------------------------------------------------------------- helpers
def _seeded(est, seed):
    """A clone of ``est`` whose unset ``random_state`` is fixed to ``seed``."""
    est = clone(est)
    params = est.get_params(deep=False)
    if "random_state" in params and params["random_state"] is None:
        est.set_params(random_state=int(seed))
    return est


def _baseline(task, y_fit, y_eval) -> float:
    """Majority class (classes) or mean (regression) of ``y_fit``, scored on ``y_eval``."""
    if task == "classification":
        majority = np.bincount(y_fit).argmax()
        return score(task, y_eval, np.full(len(y_eval), majority))
    return score(task, y_eval, np.full(len(y_eval), float(np.mean(y_fit))))


def _better_by(task, a, b) -> float:
    """How much better ``a`` is than ``b`` in the task's metric (positive = better)."""
    return float(a - b) if greater_is_better(task) else float(b - a)


def _uses_val(selector) -> bool:
    fit = getattr(selector, "_fit", None)
    if fit is None:
        return False
    try:
        return "X_val" in inspect.signature(fit).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return False


def _column_order(selector, n_features: int) -> np.ndarray:
    """Columns of a fitted selector, best first, for top-k cuts.

    Order by ``ranking_`` (1 = best), then by higher ``scores_``, then by the
    lower column index. Columns that share the worst rank while none of them
    is selected and no score separates them (a forward wrapper that stopped
    early gives every unchosen column the same last rank) are not ranked and
    are left out, so such a selector keeps fewer than k columns rather than
    columns chosen by their index. A selector with neither attribute gives
    its own support (in column order) whatever k is.
    """
    ranking = getattr(selector, "ranking_", None)
    scores = getattr(selector, "scores_", None)
    support = np.asarray(selector.get_support(), dtype=bool)
    if ranking is None and scores is None:
        return np.flatnonzero(support)
    idx = np.arange(n_features)
    r = np.asarray(ranking) if ranking is not None else np.zeros(n_features)
    s = -np.nan_to_num(np.asarray(scores, dtype=np.float64), nan=-np.inf) \
        if scores is not None else np.zeros(n_features)
    order = np.lexsort((idx, s, r))
    if ranking is not None and scores is None:
        worst = r == r.max()
        if worst.sum() > 1 and not support[worst].any():
            order = order[~worst[order]]
    return order


def _split_rows(y, task, fractions, rng):
    """Seeded (stratified) train / val / test row indices in the given fractions."""
    from ..protocol import holdout_split

    fr = tuple(float(f) for f in fractions)
    if len(fr) != 3 or abs(sum(fr) - 1) > 1e-9 or fr[0] <= 0 or fr[2] <= 0 or fr[1] < 0:
        raise ValueError(
            f"fractions must be 3 numbers (train, val, test) summing to 1, train and test "
            f"positive; got {fractions}."
        )
    n = len(y)
    strat = task == "classification"
    n_te = max(1, int(round(fr[2] * n)))
    rest, test = holdout_split(n, y, n_te, stratify=strat, random_state=rng)
    n_va = int(round(fr[1] * n))
    if n_va == 0:
        return np.sort(rest), np.array([], dtype=np.int64), test
    a, b = holdout_split(len(rest), y[rest], n_va, stratify=strat, random_state=rng)
    return rest[a], rest[b], test


def _check_split(split, n):
    parts = [np.asarray(p, dtype=np.int64).ravel() for p in split]
    if len(parts) not in (2, 3):
        raise ValueError(
            f"split must be (train, test) or (train, val, test) row indices; got {len(parts)} parts."
        )
    allidx = np.concatenate(parts)
    if allidx.size and (allidx.min() < 0 or allidx.max() >= n):
        raise ValueError(f"split has row indices outside 0..{n - 1}.")
    if len(np.unique(allidx)) != len(allidx):
        raise ValueError("split parts overlap: a row must be in at most one part.")
    if len(parts[0]) == 0 or len(parts[-1]) == 0:
        raise ValueError("split needs non-empty train and test parts.")
    if len(parts) == 2:
        parts.insert(1, np.array([], dtype=np.int64))
    return parts


# -------------------------------------------------------------- noise pool
@dataclass
class NoisePoolResult:
    """What :func:`noise_pool_test` measured (data first).

    Attributes
    ----------
    task : {"classification", "regression"}
    metric : {"accuracy", "mse"}
    n_noise : int
        Columns in the noise pool.
    k_values : tuple of int
    runs : DataFrame
        One row per (repeat, k, source): ``repeat``, ``seed``, ``k``,
        ``source`` (``"train"``: selected on the training rows only;
        ``"whole"``: selected on every row, test rows included),
        ``n_selected``, ``train_score``, ``test_score`` (model refit on the
        training rows), ``baseline`` (majority class / mean of the training
        rows, scored on the test rows).
    """

    task: str
    metric: str
    n_noise: int
    k_values: tuple
    runs: pd.DataFrame = field(repr=False)

    @property
    def n_repeats(self) -> int:
        return int(self.runs["repeat"].nunique())

    def inflation_runs(self) -> pd.DataFrame:
        """One row per (repeat, k): test scores of both sources and the inflation.

        ``inflation`` is how much better the whole-set selection scores on the
        test rows than the train-only selection (positive = inflated; for MSE
        the train-only MSE minus the whole-set MSE).
        """
        wide = self.runs.pivot_table(index=["repeat", "k"], columns="source",
                                     values=["test_score", "train_score", "n_selected"])
        out = pd.DataFrame({
            "repeat": wide.index.get_level_values(0),
            "k": wide.index.get_level_values(1),
            "n_selected_train": wide[("n_selected", "train")].to_numpy(),
            "n_selected_whole": wide[("n_selected", "whole")].to_numpy(),
            "test_train_only": wide[("test_score", "train")].to_numpy(),
            "test_whole_set": wide[("test_score", "whole")].to_numpy(),
        })
        sign = 1.0 if greater_is_better(self.task) else -1.0
        out["inflation"] = sign * (out["test_whole_set"] - out["test_train_only"])
        base = self.runs.groupby(["repeat", "k"])["baseline"].first().to_numpy()
        out["baseline"] = base
        return out.reset_index(drop=True)

    def summary(self) -> pd.DataFrame:
        """Per k: mean test scores, mean inflation, its spread and standard error.

        Columns: ``k``, ``kept`` (noise columns the selections kept, mean over
        repeats and both sources: below ``k`` when the method chooses its own
        size, so rows of different ``k`` with the same ``kept`` are the same
        selections), ``n_repeats``, ``test_train_only``, ``test_whole_set``,
        ``baseline`` (means over repeats), ``inflation`` (mean),
        ``inflation_sd`` (standard deviation over repeats, ddof=1),
        ``inflation_se`` (sd / sqrt(n_repeats)), ``beyond_noise`` (mean more
        than two standard errors away from zero).
        """
        r = self.inflation_runs()
        rows = []
        for k, g in r.groupby("k", sort=True):
            kept = float((g["n_selected_train"] + g["n_selected_whole"]).mean() / 2)
            rows.append(_mean_row({"k": int(k), "kept": kept}, g))
        return pd.DataFrame(rows)

    def overall(self) -> dict:
        """Inflation averaged over k within each repeat, then over repeats.

        The repeats are the independent units, so the standard error is that
        of the per-repeat averages.
        """
        r = self.inflation_runs()
        per = r.groupby("repeat")[["inflation", "test_train_only", "test_whole_set",
                                   "baseline"]].mean()
        return _mean_row({"k": "all"}, per)

    def to_dict(self) -> dict:
        return {
            "task": self.task,
            "metric": self.metric,
            "n_noise": self.n_noise,
            "k_values": list(self.k_values),
            "n_repeats": self.n_repeats,
            "summary": self.summary().to_dict(orient="records"),
            "overall": self.overall(),
            "runs": self.runs.to_dict(orient="records"),
        }


def _mean_row(head: dict, g: pd.DataFrame) -> dict:
    n = len(g)
    sd = float(g["inflation"].std(ddof=1)) if n > 1 else float("nan")
    se = float(sd / np.sqrt(n)) if n > 1 else float("nan")
    mean = float(g["inflation"].mean())
    return {
        **head,
        "n_repeats": int(n),
        "test_train_only": float(g["test_train_only"].mean()),
        "test_whole_set": float(g["test_whole_set"].mean()),
        "baseline": float(g["baseline"].mean()),
        "inflation": mean,
        "inflation_sd": sd,
        "inflation_se": se,
        "beyond_noise": bool(n > 1 and se > 0 and abs(mean) > 2 * se) or bool(
            n > 1 and se == 0 and mean != 0),
    }


def _noise_repeat(selector, estimator, y, task, train, test, whole, k_values, n_noise,
                  seed, noise):
    """One repeat of the noise-pool test; returns its run rows and the fits spent."""
    rng = np.random.default_rng(seed)
    Z = rng.random((len(y), n_noise)) if noise is None else noise
    sel_seed, model_seed = (int(s) for s in rng.integers(0, 2**31 - 1, size=2))
    model = _seeded(estimator, model_seed)
    base = _baseline(task, y[train], y[test])
    rows, fits = [], 0
    for source, rows_idx in (("train", train), ("whole", whole)):
        sel = _seeded(selector, sel_seed)
        sel.fit(Z[rows_idx], y[rows_idx])
        fits += int(getattr(sel, "n_model_fits_", 0) or 0)
        order = _column_order(sel, Z.shape[1])
        for k in k_values:
            cols = order[:k]
            tr, te = refit_scores(model, task, Z[train], y[train],
                                  [(Z[train], y[train]), (Z[test], y[test])], cols)
            rows.append({"repeat": None, "seed": int(seed), "k": int(k), "source": source,
                         "n_selected": int(len(cols)), "train_score": tr, "test_score": te,
                         "baseline": base})
    return rows, fits


def noise_pool_test(selector, estimator, y, *, task="auto", split=None, test_size=0.2,
                    noise_features=DEFAULT_NOISE_FEATURES, k_values=DEFAULT_K, n_repeats=10,
                    noise=None, random_state=0, n_jobs=None, progress=False) -> NoisePoolResult:
    """How much selecting on all rows (test rows included) inflates the test score.

    Each repeat draws a pool of ``noise_features`` columns of uniform noise on
    [0, 1) with no relation to ``y`` (their contribution is a known zero), and
    lets ``selector`` rank them twice: from the training rows only, and from
    every row (the whole set, test rows included). For each k the model is
    refit on the training rows on the k best columns of each ranking and
    scored on the test rows; the difference of the two test scores is the
    inflation the test labels bought. Without leakage it is zero in
    expectation, so its mean over repeats is compared with its standard error.

    Parameters
    ----------
    selector : featsieve or scikit-learn selector
        Cloned for every fit. The k columns are the k best of one fit by
        ``ranking_``, then ``scores_`` (see Notes); an unset ``random_state`` is
        fixed per repeat (the same for both sources, a paired comparison).
    estimator : estimator or str
        The model refit on the chosen columns (a name for
        :func:`featsieve.models.make_model`).
    y : array-like of shape (n_samples,)
        The real target; only its values and the rows matter.
    task : {"auto", "classification", "regression"}, default="auto"
    split : tuple of index arrays or None, default=None
        ``(train, test)`` or ``(train, test, whole)`` rows, fixed for every
        repeat (``whole`` defaults to train plus test). None draws a new
        seeded (stratified) split per repeat with ``test_size``.
    test_size : float, default=0.2
        Share of test rows when ``split`` is None (seed 002: 252 of 1,260).
    noise_features : int, default=1200
        Columns in the pool (FS21: 1,200). Memory: ``n_samples *
        noise_features`` float64 per running repeat.
    k_values : sequence of int, default=(2, 4, 8)
        Numbers of columns kept (the seed's table).
    n_repeats : int, default=10
        Repeats, each with its own noise, split and seeds.
    noise : ndarray of shape (n_samples, n_noise) or None, default=None
        Use this pool instead of drawing one (e.g. the lesson's own noise
        columns); with a fixed ``split`` the repeats are then identical, so
        use ``n_repeats=1``.
    random_state : int, RandomState or None, default=0
    n_jobs : int or None, default=None
        Repeats run in parallel through joblib; results do not depend on it.
    progress : bool, default=False
        Progress bar over repeats.

    Returns
    -------
    result : NoisePoolResult

    Raises
    ------
    ValueError
        Bad ``y``, ``split``, ``k_values`` (each at least 1 and at most the pool
        size) or ``noise`` shape.

    Notes
    -----
    Cost per repeat: two selector fits on ``n_samples x noise_features`` and
    ``2 * len(k_values)`` model fits on at most ``max(k_values)`` columns. A
    forward wrapper fits one model per remaining column per round, so it
    spends about ``rounds * noise_features`` fits per selection.

    Ranking: columns are ordered by ``ranking_`` (1 = best), then higher
    ``scores_``, then lower index; a selector that ranks only the columns it
    chose (a forward wrapper that stopped early) keeps fewer than k columns,
    and ``n_selected`` says how many. One fit serves every k: a greedy
    forward path is nested, so its first k columns are what ``max_rounds=k``
    would choose.

    References
    ----------
    Seed 002 (002_2595f2849cd4c4da.txt), FS21 and the section "If the
    Selection Is Made from the Whole Set" (``top_k(TRAIN, k)`` vs
    ``top_k(K, k)``, measured with a model trained on TRAIN and read on TEST).

    Examples
    --------
    >>> from featsieve.evaluation import noise_pool_test
    >>> from featsieve.scores import class_mean_separation
    >>> from featsieve import UnivariateFilter
    >>> from featsieve.datasets import load_sonar
    >>> _, y = load_sonar(return_X_y=True)
    >>> res = noise_pool_test(UnivariateFilter(class_mean_separation), "tree", y,
    ...                       noise_features=200, n_repeats=3)
    >>> sorted(res.summary()["k"])
    [2, 4, 8]
    """
    from .._validation import detect_task, encode_target

    task = detect_task(y, task)
    y_enc, _ = encode_target(y, task)
    n = len(y_enc)
    if isinstance(estimator, str):
        estimator = make_model(estimator, task, random_state=0)
    k_values = tuple(int(k) for k in k_values)
    if noise is not None:
        noise = np.asarray(noise, dtype=np.float64)
        if noise.ndim != 2 or noise.shape[0] != n:
            raise ValueError(f"noise must have shape ({n}, n_noise); got {noise.shape}.")
        n_noise = noise.shape[1]
    else:
        n_noise = int(noise_features)
    if not k_values or min(k_values) < 1 or max(k_values) > n_noise:
        raise ValueError(
            f"k_values must be between 1 and the pool size {n_noise}; got {list(k_values)}."
        )
    if int(n_repeats) < 1:
        raise ValueError(f"n_repeats must be at least 1; got {n_repeats}.")
    rng = check_random_state(random_state)
    seeds = rng.randint(0, 2**31 - 1, size=int(n_repeats))
    splits = []
    for s in seeds:
        if split is None:
            tr, va, te = _split_rows(y_enc, task, (1 - test_size, 0.0, test_size),
                                     np.random.RandomState(s))
            splits.append((tr, te, np.sort(np.concatenate([tr, te]))))
        else:
            parts = [np.asarray(p, dtype=np.int64).ravel() for p in split]
            if len(parts) not in (2, 3):
                raise ValueError("split must be (train, test) or (train, test, whole) indices.")
            tr, te = parts[0], parts[1]
            wh = parts[2] if len(parts) == 3 else np.sort(np.concatenate([tr, te]))
            if not (np.isin(tr, wh).all() and np.isin(te, wh).all()):
                raise ValueError("split: whole must contain the train and test rows.")
            if np.intersect1d(tr, te).size:
                raise ValueError("split: train and test rows overlap.")
            splits.append((tr, te, wh))
    jobs = (delayed(_noise_repeat)(selector, estimator, y_enc, task, tr, te, wh, k_values,
                                   n_noise, int(s), noise)
            for s, (tr, te, wh) in zip(seeds, splits, strict=True))
    out = track(Parallel(n_jobs=n_jobs, return_as="generator")(jobs), total=len(seeds),
                desc="noise pool", unit="repeat", enabled=progress)
    rows = []
    for i, (rep_rows, _fits) in enumerate(out):
        for r in rep_rows:
            r["repeat"] = i
        rows.extend(rep_rows)
    return NoisePoolResult(task=task, metric=metric_name(task), n_noise=n_noise,
                           k_values=k_values, runs=pd.DataFrame(rows))


# ------------------------------------------------------------- nested CV
def _cv(task, n_splits, seed):
    cls = StratifiedKFold if task == "classification" else KFold
    return cls(n_splits=n_splits, shuffle=True, random_state=int(seed))


def nested_cv_score(selector, estimator, X, y, *, task="auto", cv=5, random_state=0,
                    n_jobs=None) -> dict:
    """Cross-validate the whole ``Pipeline(selector, model)``: the honest estimate.

    The selection is refit inside every training fold, so no test fold takes
    part in choosing the columns it is scored on.

    Parameters
    ----------
    selector : selector or None
        None cross-validates the model on every column (no selection).
    estimator : estimator or str
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    task : {"auto", "classification", "regression"}, default="auto"
    cv : int, default=5
        Outer folds (stratified and shuffled for classes, seeded).
    random_state : int, RandomState or None, default=0
    n_jobs : int or None, default=None
        Folds in parallel (joblib).

    Returns
    -------
    result : dict
        ``mean``, ``std`` (over folds), ``scores`` (per fold) in the metric
        (accuracy, or MSE: lower is better), ``metric``, ``n_splits``.
    """
    data = validate_Xy(X, y, task=task, min_samples=2 * cv, min_per_class=cv)
    rng = check_random_state(random_state)
    cv_seed, sel_seed, model_seed = rng.randint(0, 2**31 - 1, size=3)
    if isinstance(estimator, str):
        estimator = make_model(estimator, data.task, random_state=int(model_seed))
    model = _seeded(estimator, model_seed)
    sel = None if selector is None else _seeded(selector, sel_seed)
    return _cv_scores(sel, model, data.X, data.y, data.task, cv, cv_seed, n_jobs)


def _cv_scores(selector, model, X, y, task, n_splits, cv_seed, n_jobs, columns=None):
    """CV of ``Pipeline(selector, model)`` (or of the model on ``columns``)."""
    if columns is not None:
        columns = np.asarray(columns, dtype=np.int64)
        est = final_model(model, task, len(columns))
        X = X[:, columns] if len(columns) else X
    else:
        est = model if selector is None else Pipeline([("select", selector), ("model", model)])
    s = cross_val_score(est, X, y, cv=_cv(task, n_splits, cv_seed),
                        scoring=scorer_for(task), n_jobs=n_jobs)
    s = s if task == "classification" else -s
    return {"mean": float(np.mean(s)), "std": float(np.std(s)),
            "scores": [float(v) for v in s], "metric": metric_name(task),
            "n_splits": int(n_splits)}


# ---------------------------------------------------------------- result
@dataclass
class InflationResult:
    """What :func:`selection_inflation` measured (data first; drawn and printed elsewhere).

    Attributes
    ----------
    name : str
        Display name of the selector.
    task : {"classification", "regression"}
    metric : {"accuracy", "mse"}
        Accuracy is higher-is-better, MSE lower-is-better; every gap and
        inflation is signed so that positive means "looks better than it is".
    n_samples, n_features : int
    split : dict
        Rows in ``train``, ``val`` and ``test``.
    own : dict
        ``selection_score`` (the selection's own number), ``own_source``
        (``"selection_score_"``: the score the selector optimized;
        ``"inner_cv"``: cross-validated score of the chosen columns on the rows
        the selector saw), ``test_score`` (model refit on the chosen columns,
        scored once on the test rows), ``gap`` (how much better the own number
        reads than the test one: own minus test for accuracy, test minus own
        for MSE; positive = inflated, and :meth:`verdict` calls it
        optimistic, saying "above" or "below" as the metric's direction
        makes it), ``baseline`` (majority class / mean on the test rows),
        ``n_selected``, ``selected`` (names), ``used_val``.
    noise : NoisePoolResult or None
    noise_note : str
        Why the pool is smaller than asked, when it is.
    nested : dict or None
        :func:`nested_cv_score` of the selector + model pipeline (honest).
    naive : dict or None
        Cross-validation of the model on the columns selected once from every
        row (selection outside the folds: the optimistic reading).
    random_state : int or None
    target_leaks : list of str
        Columns that give the target exactly (:func:`featsieve._validation.warn_target_leaks`);
        the verdict opens with them.
    """

    name: str
    task: str
    metric: str
    n_samples: int
    n_features: int
    split: dict
    own: dict
    noise: NoisePoolResult | None = None
    noise_note: str = ""
    nested: dict | None = None
    naive: dict | None = None
    random_state: int | None = None
    target_leaks: list = field(default_factory=list)

    def estimates(self) -> pd.DataFrame:
        """The numbers a user could quote, one row each, with what they are.

        Columns ``estimate``, ``score``, ``spread`` (std over folds where
        there are folds), ``honest`` (whether the rows scored took no part in
        the selection).
        """
        rows = [
            {"estimate": f"selection's own number ({self.own['own_source']})",
             "score": self.own["selection_score"], "spread": None, "honest": False},
            {"estimate": "held-out test (refit on the chosen columns)",
             "score": self.own["test_score"], "spread": None, "honest": True},
            {"estimate": "majority/mean baseline on the test rows",
             "score": self.own["baseline"], "spread": None, "honest": True},
        ]
        if self.naive is not None:
            rows.append({"estimate": f"{self.naive['n_splits']}-fold CV after selecting on all "
                                     "rows (naive)", "score": self.naive["mean"],
                         "spread": self.naive["std"], "honest": False})
        if self.nested is not None:
            rows.append({"estimate": f"nested {self.nested['n_splits']}-fold CV of selection + "
                                     "model", "score": self.nested["mean"],
                         "spread": self.nested["std"], "honest": True})
        return pd.DataFrame(rows, columns=["estimate", "score", "spread", "honest"])

    def to_dict(self) -> dict:
        """JSON-ready dict (the schema of ``featsieve audit --json``)."""
        return {
            "name": self.name,
            "task": self.task,
            "metric": self.metric,
            "greater_is_better": greater_is_better(self.task),
            "n_samples": self.n_samples,
            "n_features": self.n_features,
            "split": self.split,
            "random_state": self.random_state,
            "own": dict(self.own),
            "noise_pool": None if self.noise is None else self.noise.to_dict(),
            "noise_note": self.noise_note,
            "nested_cv": self.nested,
            "naive_cv": self.naive,
            "target_leaks": list(self.target_leaks),
            "verdict": self.verdict(),
        }

    def verdict(self) -> str:
        """Plain-language reading of the measurements, one sentence each."""
        o = self.own
        gap = o["gap"]
        if gap is None or not np.isfinite(gap):
            parts = [f"{self.name} gave no number of its own to check."]
        else:
            # gap > 0: the own number reads better than the test rows, which for a
            # lower-is-better metric (mse) means it sits below them
            higher = greater_is_better(self.task)
            word = "above" if (gap > 0) == higher else "below"
            # "matches": within 0.05 % of the scores' scale (an accuracy's 1, an mse's size)
            scale = max(1.0, abs(o["test_score"]), abs(o["selection_score"]))
            if abs(gap) < MATCH_TOLERANCE * scale:
                parts = [f"{self.name}'s own number ({o['selection_score']:.4g}) matches what it "
                         f"delivers on unseen rows ({o['test_score']:.4g} {self.metric})."]
            else:
                parts = [f"{self.name}'s own number is {abs(gap):.2g} {word} what it delivers "
                         f"on unseen rows ({o['selection_score']:.4g} vs {o['test_score']:.4g} "
                         f"{self.metric}, {'higher' if higher else 'lower'} is better): "
                         f"{'optimistic' if gap > 0 else 'pessimistic'}."]
        if self.noise is not None:
            ov = self.noise.overall()
            ks = ",".join(str(k) for k in self.noise.k_values)
            if ov["n_repeats"] > 1:
                state = ("beyond noise: selecting with the test rows inflates the score"
                         if ov["beyond_noise"] and ov["inflation"] > 0 else
                         "beyond noise, in the deflating direction" if ov["beyond_noise"] else
                         "within noise")
                spread = (f"{ov['inflation']:+.3g} ± {ov['inflation_se']:.2g} {self.metric}, "
                          f"mean ± standard error over {ov['n_repeats']} repeats, k={ks}")
            else:
                state = "one repeat, so no spread"
                spread = f"{ov['inflation']:+.3g} {self.metric}, k={ks}"
            parts.append(
                f"On a pool of {self.noise.n_noise} pure-noise columns, choosing them from all "
                f"rows instead of the training rows made the noise-only models look "
                f"{abs(ov['inflation']):.3g} {'better' if ov['inflation'] >= 0 else 'worse'} "
                f"on the test rows ({spread}): {state}.")
        if self.nested is not None:
            t = (f"The honest estimate (nested {self.nested['n_splits']}-fold CV of selection + "
                 f"model) is {self.nested['mean']:.4g} ± {self.nested['std']:.2g}")
            if self.naive is not None:
                t += (f"; selecting once on all rows and then cross-validating reads "
                      f"{self.naive['mean']:.4g}")
            parts.append(t + ".")
        if self.target_leaks:
            parts.insert(0, leak_note(self.target_leaks) + ".")
        return " ".join(p[:1].upper() + p[1:] for p in parts)


# ------------------------------------------------------------------ config
@dataclass(frozen=True)
class AuditConfig:
    """How :func:`selection_inflation` measures: the split, the noise pool, the CV.

    Parameters
    ----------
    fractions : tuple of 3 floats, default=(0.6, 0.2, 0.2)
        Train / val / test shares when no split is given (seed 002: 756 / 252 / 252).
    use_val : bool or "auto", default="auto"
        Pass the val rows as ``X_val``/``y_val``; "auto" does so when the
        selector's ``_fit`` takes ``X_val`` (featsieve's forward wrapper, mask
        and genetic selectors).
    noise_features : int, default=1200
        Noise-pool size (seed 002 FS21). 0 skips the noise-pool test.
    k_values : tuple of int, default=(2, 4, 8)
        Columns kept from the pool (the seed's table).
    n_repeats : int, default=10
        Noise-pool repeats.
    max_noise_fits : int or None, default=None
        Cap on the model fits of the noise-pool test. The fits a selection
        spends per column are read from the fit of measurement 1
        (``n_model_fits_`` over the number of columns); the pool is shrunk
        (never below ``4 * max(k_values)`` columns) so that
        ``2 * n_repeats * pool * fits_per_column`` stays under the cap. None
        or 0: no cap.
    cv : int, default=5
        Folds of the inner CV (own number), the naive CV and the nested CV.
    nested : bool, default=True
        Run the nested and naive cross-validations.

    Examples
    --------
    >>> AuditConfig().with_options(n_repeats=3).n_repeats
    3
    """

    fractions: tuple = DEFAULT_FRACTIONS
    use_val: bool | str = "auto"
    noise_features: int = DEFAULT_NOISE_FEATURES
    k_values: tuple = DEFAULT_K
    n_repeats: int = 10
    max_noise_fits: int | None = None
    cv: int = 5
    nested: bool = True

    def with_options(self, **options) -> AuditConfig:
        """A copy with some fields changed.

        Raises
        ------
        TypeError
            A name that is no field, with the list of fields.
        """
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"Unknown audit options {unknown}; AuditConfig has {sorted(known)}.")
        if "k_values" in options:
            options["k_values"] = tuple(int(k) for k in options["k_values"])
        return replace(self, **options)

    def noise_pool(self, model_fits, n_features: int) -> tuple[int, str]:
        """Columns of the noise pool under the ``max_noise_fits`` cap, and why it shrank.

        Parameters
        ----------
        model_fits : int or None
            Fits the selection spent on ``n_features`` columns (None or 0: unknown,
            no cap).
        n_features : int

        Returns
        -------
        pool : int
        note : str
            Empty unless the cap shrank the pool.
        """
        pool = int(self.noise_features)
        if not self.max_noise_fits or not model_fits:
            return pool, ""
        per_col = float(model_fits) / max(n_features, 1)
        cap = int(self.max_noise_fits / (2 * int(self.n_repeats) * per_col))
        new = min(pool, max(4 * max(self.k_values), cap))
        if new >= pool:
            return pool, ""
        return new, (f"noise pool reduced from {pool} to {new} columns: this selection spends "
                     f"about {per_col:.2g} model fits per column, and "
                     f"max_noise_fits={self.max_noise_fits}")


#: The front ends' audit (``featsieve audit``, ``compare --audit``): 5 repeats, at most
#: 3000 noise-pool fits, so that ``featsieve audit`` on Sonar stays under 2 minutes.
FRONT_END_AUDIT = AuditConfig(n_repeats=5, max_noise_fits=3000)


# ------------------------------------------------------------------- main
def selection_inflation(selector, estimator, X, y, *, config=None, task="auto", split=None,
                        noise_selector=None, name=None, random_state=0, n_jobs=None,
                        progress=False, **options) -> InflationResult:
    """Audit a selector: how much does its selection inflate its own number?

    Three measurements (seed 002, "The Selection's Own Number" and "If the
    Selection Is Made from the Whole Set"):

    1. **Own vs held-out.** The rows are split into train / val / test. A
       selector that reads a validation set (``X_val``) is fit on train and
       scored by itself on val; the model is refit on train with the chosen
       columns and scored on test. Any other selector is fit on train and val
       together, its own number is ``selection_score_`` when it has one, else
       the ``cv``-fold score of the model on the chosen columns over those
       same rows; the model is refit on them and scored on test. The gap is
       own minus test (positive = inflated).
    2. **Noise pool** (:func:`noise_pool_test`): the inflation of test scores
       when the selection may see the test rows, on columns whose
       contribution is a known zero, over ``n_repeats`` seeds.
    3. **Nested cross-validation** (:func:`nested_cv_score`) of
       ``Pipeline(selector, model)``: the honest estimate; beside it the
       naive CV of the model on columns selected once from every row.

    Parameters
    ----------
    selector : selector
        Any featsieve or scikit-learn selector (cloned; never modified).
    estimator : estimator or str
        The model refit on the chosen columns; a name for
        :func:`featsieve.models.make_model` ("tree" is the seed's depth-6 tree).
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    config : AuditConfig or None, default=None
        How to measure (split fractions, noise pool, repeats, cap, folds);
        None: ``AuditConfig()``.
    task : {"auto", "classification", "regression"}, default="auto"
    split : tuple of index arrays or None, default=None
        ``(train, val, test)`` or ``(train, test)`` rows (e.g. a dataset's own
        split column). None draws a seeded (stratified) split with
        ``config.fractions``. The noise pool uses train + val as its training
        rows and the same test rows when a split is given; otherwise it draws
        a new split per repeat with the same test share.
    noise_selector : selector or None, default=None
        Selector for the noise pool; None uses ``selector``.
    name : str or None, default=None
        Display name; the selector's class name when None.
    random_state : int, RandomState or None, default=0
        One generator, drawn in a fixed order for the split, the CV folds,
        the noise repeats and any unset ``random_state`` of the selector and
        the model.
    n_jobs : int or None, default=None
        Noise repeats and CV folds in parallel (joblib); results do not
        depend on it.
    progress : bool, default=False
    **options
        Fields of :class:`AuditConfig` that replace those of ``config``
        (``noise_features=60, n_repeats=2``).

    Returns
    -------
    result : InflationResult
        ``noise_note`` says when ``max_noise_fits`` shrank the pool.

    Raises
    ------
    ValueError
        Bad input (see README, "Bad input"), a bad ``split`` or ``fractions``.
    TypeError
        An option that is no field of :class:`AuditConfig`.

    References
    ----------
    Seed 002 (002_2595f2849cd4c4da.txt): FS18 and "The Selection's Own
    Number" (the wrapper's 0.8413 on validation vs 0.7579 on test); FS21 and
    "If the Selection Is Made from the Whole Set". Nested cross-validation
    of the whole selection-plus-model pipeline is the standard remedy for
    selection bias (Ambroise & McLachlan, PNAS 99(10), 2002).

    Examples
    --------
    >>> from featsieve import ForwardSelector
    >>> from featsieve.datasets import load_sonar
    >>> from featsieve.evaluation import selection_inflation
    >>> X, y = load_sonar(return_X_y=True)
    >>> res = selection_inflation(ForwardSelector(max_rounds=3), "tree", X, y,
    ...                           noise_features=60, n_repeats=2, cv=3)
    >>> res.own["own_source"]
    'selection_score_'
    """
    cfg = (config if config is not None else AuditConfig()).with_options(**options)
    names = [str(c) for c in X.columns] if hasattr(X, "columns") else None
    data = validate_Xy(X, y, task=task, min_samples=10, min_per_class=2)
    task, Xa, ya = data.task, data.X, data.y
    leaks = warn_target_leaks(data, names or [str(c) for c in data.feature_names], stacklevel=2)
    n, d = Xa.shape
    frame = pd.DataFrame(Xa, columns=names or [str(c) for c in data.feature_names])
    rng = check_random_state(random_state)
    split_seed, cv_seed, sel_seed, model_seed, noise_seed = rng.randint(0, 2**31 - 1, size=5)
    if isinstance(estimator, str):
        estimator = make_model(estimator, task, random_state=int(model_seed))
    model = _seeded(estimator, model_seed)
    sel = _seeded(selector, sel_seed)
    if split is None:
        parts = _split_rows(ya, task, cfg.fractions, np.random.RandomState(split_seed))
    else:
        parts = _check_split(split, n)
    val_mode = _uses_val(sel) if cfg.use_val == "auto" else bool(cfg.use_val)
    noise_on = bool(cfg.noise_features and int(cfg.noise_features) > 0)
    steps = bar(total=1 + noise_on + 2 * bool(cfg.nested), desc="audit", unit="step",
                enabled=progress, leave=False, lines=True)  # lines outside a terminal
    steps.set_postfix_str("own selection and its test score")
    own = _own_number(sel, model, frame, ya, task, parts, val_mode, cfg.cv, cv_seed, n_jobs)
    steps.update()
    train, val, test = parts
    result = InflationResult(
        name=name or type(selector).__name__, task=task, metric=metric_name(task),
        n_samples=n, n_features=d - int(np.sum(np.asarray(data.columns.left_out, bool)
                                                | np.asarray(data.constant, bool))),
        split={"train": int(len(train)), "val": int(len(val)), "test": int(len(test))},
        own=own, random_state=random_state if isinstance(random_state, int) else None,
        target_leaks=leaks,
    )
    if noise_on:
        pool, result.noise_note = cfg.noise_pool(own["model_fits"], d)
        fit_rows = np.sort(np.concatenate([train, val]))
        steps.set_postfix_str(f"noise pool ({pool} columns, {cfg.n_repeats} repeats)")
        result.noise = noise_pool_test(
            noise_selector if noise_selector is not None else sel, model, ya, task=task,
            split=None if split is None else (fit_rows, test), test_size=len(test) / n,
            noise_features=pool, k_values=cfg.k_values, n_repeats=cfg.n_repeats,
            random_state=int(noise_seed), n_jobs=n_jobs, progress=progress)
        steps.update()
    if cfg.nested:
        # the selector sees the named frame, so its warnings name the real columns
        steps.set_postfix_str(f"nested {cfg.cv}-fold CV")
        result.nested = _cv_scores(sel, model, frame, ya, task, cfg.cv, cv_seed, n_jobs)
        steps.update()
        steps.set_postfix_str(f"selection on all rows, then {cfg.cv}-fold CV")
        full = clone(sel).fit(frame, ya)  # selection on every row, outside the folds
        fcols = np.flatnonzero(np.asarray(full.get_support(), dtype=bool))
        result.naive = _cv_scores(None, model, Xa, ya, task, cfg.cv, cv_seed, n_jobs,
                                  columns=fcols)
        result.naive["n_selected"] = int(len(fcols))
        steps.update()
    steps.close()
    return result


def _own_number(sel, model, frame, y, task, parts, val_mode, cv, cv_seed, n_jobs) -> dict:
    """Measurement 1: fit ``sel``; its own number against the refit model's test score."""
    train, val, test = parts
    X = frame.to_numpy()
    if val_mode and len(val) == 0:
        raise ValueError("The selector reads a validation set but the split has no val rows.")
    if val_mode:
        rows = train
        sel.fit(frame.iloc[train], y[train], X_val=frame.iloc[val], y_val=y[val])
    else:
        rows = np.sort(np.concatenate([train, val]))
        sel.fit(frame.iloc[rows], y[rows])
    cols = np.flatnonzero(np.asarray(sel.get_support(), dtype=bool))
    (test_score,) = refit_scores(model, task, X[rows], y[rows], [(X[test], y[test])], cols)
    own = getattr(sel, "selection_score_", None)
    if own is not None:
        source, own = "selection_score_", metric_value(task, own)
    else:
        source, own = "inner_cv", _inner_cv(model, task, X, y, rows, cols, cv, cv_seed, n_jobs)
    fits = getattr(sel, "n_model_fits_", None)
    return {
        "selection_score": own, "own_source": source, "test_score": float(test_score),
        "gap": _better_by(task, own, test_score) if np.isfinite(own) else None,
        "baseline": _baseline(task, y[rows], y[test]),
        "n_selected": int(len(cols)), "selected": [str(frame.columns[i]) for i in cols],
        "used_val": bool(val_mode), "model_fits": None if fits is None else int(fits),
    }


def _inner_cv(model, task, X, y, rows, cols, cv, cv_seed, n_jobs) -> float:
    """The ``cv``-fold score of the model on ``cols`` over ``rows`` (NaN if too few rows)."""
    Xs = X[np.ix_(rows, cols)] if len(cols) else X[rows]
    n_cv = min(cv, int(np.bincount(y[rows]).min()) if task == "classification" else cv)
    if n_cv < 2:
        return float("nan")
    s = cross_val_score(final_model(model, task, len(cols)), Xs, y[rows],
                        cv=_cv(task, n_cv, cv_seed), scoring=scorer_for(task), n_jobs=n_jobs)
    return float(np.mean(s)) if task == "classification" else float(-np.mean(s))


# ------------------------------------------------- front-end conveniences
def _method_selectors(method, task, estimator, random_state, n_jobs):
    """The ``method`` (a name, entry or resolved spec) as ``select`` builds it, and its
    noise-pool twin.

    The twin carries the row's ``path_params`` (e.g. RFE eliminated down to one
    column), so that one fit ranks every column; None when the row has none.
    """
    from .._registry import build_selector, resolve_method

    spec = resolve_method(method)
    kw = dict(task=task, estimator=estimator, random_state=random_state, n_jobs=n_jobs)
    noise = build_selector(spec, **kw).set_params(**spec.path_params) if spec.path_params \
        else None
    return spec, build_selector(spec, **kw), noise


def audit_method(method: str, X, y, *, estimator="lightgbm", task="auto", random_state=0,
                 n_jobs=None, split=None, config=None, progress=False,
                 **options) -> InflationResult:
    """:func:`selection_inflation` of a registered method (what ``featsieve audit`` runs).

    The method is built as ``featsieve select`` builds it
    (:func:`featsieve.make_selector` with ``estimator`` as its model); the
    noise pool uses the same method with the registry's ``path_params`` (e.g.
    RFE eliminated down to one column), so that one fit ranks every column.
    A method that reads a validation set gets the val rows as ``X_val``.

    Parameters
    ----------
    method : str
        A registered name other than ``"all"``.
    X, y, task, random_state, n_jobs, split, progress
        As in :func:`selection_inflation`.
    estimator : str or estimator, default="lightgbm"
    config : AuditConfig or None, default=None
        None: :data:`FRONT_END_AUDIT` (5 repeats, at most 3000 noise-pool fits).
    **options
        Fields of :class:`AuditConfig` that replace those of ``config``.

    Returns
    -------
    result : InflationResult

    Raises
    ------
    KeyError
        Unknown method.
    ValueError
        ``"all"`` (nothing is selected, so nothing can inflate), a method that
        does not suit the task, or bad input.

    Warns
    -----
    MissingTargetWarning
        Rows whose target is missing are left out (as in ``compare`` and ``select``).
    """
    from .._validation import detect_task, to_pandas

    if method == "all":
        raise ValueError("'all' selects nothing, so there is no selection to audit; "
                         "name a selection method (see `featsieve methods`).")
    cfg = (config if config is not None else FRONT_END_AUDIT).with_options(**options)
    # the task from the rows with a target; validate_Xy (in selection_inflation) leaves the
    # others out with its one MissingTargetWarning, as compare and select do
    y_known = to_pandas(y)
    if not hasattr(y_known, "iloc"):
        y_known = np.asarray(y_known)
    if y_known.ndim == 1:
        y_known = y_known[~np.asarray(pd.isna(y_known))]
    resolved = detect_task(y_known, task)
    if isinstance(estimator, str):
        estimator = make_model(estimator, resolved, random_state=random_state)
    spec, sel, noise_sel = _method_selectors(method, resolved, estimator, random_state, n_jobs)
    return selection_inflation(
        sel, estimator, X, y, config=cfg.with_options(use_val=spec.uses_selection_val),
        task=resolved, split=split, noise_selector=noise_sel, name=f"the {spec.name} selector",
        random_state=random_state, n_jobs=n_jobs, progress=progress)


AUDIT_COLUMNS = ("noise_inflation", "noise_se", "noise_pool", "nested_cv", "nested_cv_sd")


def _audit_columns(name, X, y, task, model, random_state, n_jobs, *, config, model_fits,
                   spec=None):
    """The audit columns of one ``compare`` row (see :func:`featsieve.evaluation.compare`)."""
    rng = check_random_state(random_state)
    noise_seed, cv_seed = (int(s) for s in rng.randint(0, 2**31 - 1, size=2))
    out = dict.fromkeys(AUDIT_COLUMNS)
    if name == "all":
        nested = _cv_scores(None, model, X, y, task, config.cv, cv_seed, n_jobs)
    else:
        _, sel, noise_sel = _method_selectors(spec if spec is not None else name, task, model,
                                              random_state, n_jobs)
        nested = _cv_scores(sel, model, X, y, task, config.cv, cv_seed, n_jobs)
        if noise_sel is None:
            noise_sel = clone(sel)
        pool, _ = config.noise_pool(model_fits, X.shape[1])
        if pool > 0:
            ov = noise_pool_test(noise_sel, model, y, task=task, noise_features=pool,
                                 k_values=config.k_values, n_repeats=config.n_repeats,
                                 random_state=noise_seed, n_jobs=n_jobs).overall()
            out.update(noise_inflation=ov["inflation"], noise_se=ov["inflation_se"],
                       noise_pool=pool)
    out.update(nested_cv=nested["mean"], nested_cv_sd=nested["std"])
    return out


def add_audit_columns(result, X, y, *, estimator, random_state=0, n_jobs=None, config=None,
                      progress=False, specs=None, **options):
    """Add the selection-audit columns to every row of a ``ComparisonResult``.

    Per method: ``noise_inflation`` and ``noise_se`` (the noise-pool
    inflation of :func:`noise_pool_test`, averaged over k and repeats, with
    its standard error; None for ``all``), ``noise_pool`` (columns in the
    pool after the ``max_noise_fits`` cap), ``nested_cv`` and
    ``nested_cv_sd`` (:func:`nested_cv_score` of the method's pipeline over
    every row; for ``all`` the plain CV of the model).

    Parameters
    ----------
    result : ComparisonResult
        Modified in place (its rows gain the columns) and returned.
    X, y : the data ``compare`` ran on (encoded or raw)
    estimator : estimator
        The comparison's model.
    random_state, n_jobs, config, **options
        As in :func:`audit_method` (``use_val``, ``fractions`` and ``nested``
        do not apply: every row gets the nested CV).
    progress : bool, default=False
    specs : list of MethodSpec or None, default=None
        The resolved methods of the rows (a user's selector instance has no
        registered name); None resolves each row's method name.

    Returns
    -------
    result : ComparisonResult
    """
    by_name = {s.name: s for s in specs or ()}
    cfg = (config if config is not None else FRONT_END_AUDIT).with_options(**options)
    data = validate_Xy(X, y, task=result.task, min_samples=10, min_per_class=2)
    with bar(total=len(result.rows), desc="audit", unit="method", enabled=progress,
             lines=True) as steps:  # one line per method outside a terminal
        for row in result.rows:
            steps.set_postfix_str(row["method"])
            row.update(_audit_columns(
                row["method"], data.X, data.y, result.task, estimator, random_state, n_jobs,
                config=cfg, model_fits=row.get("model_fits"), spec=by_name.get(row["method"])))
            steps.update()
    return result
