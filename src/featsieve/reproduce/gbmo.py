"""``featsieve reproduce gbmo``: seed 000's experiments (Table 4, Tables 5-8, Figures 1-4).

Seed: ``000_dd912381c0e6a8a4.txt`` §4. Every run follows the seed's protocol
(§4.1-4.2): the rows are split 45% train / 30% selection-validation / 10%
model-validation / 15% test (seeded, stratified for classes). GBMO and FLBMO
fit the model on train and mask on selection-validation; CC, MI and RFE
select on train ∪ selection-validation. Each method's knob (``mu`` for GBMO,
``eta`` for the others) is chosen on model-validation, and the test split is
scored once. One GBMO path (``slack=inf``) gives every ``mu`` and every
``eta``: GBMO and FLBMO share it.

Choices where the seed is silent or where we depart from it (also in the
notes of the result). The synthetic choices were measured over 30 seeds
(0-29) per variant; the success criterion is issue 3's "all 10 informative
and at most 1 redundant feature" for GBMO (mu from {0.00025, 0.001, 0.01,
0.05} on model-validation):

- GBMO and FLBMO's final model is refit on the training split (45%) with the
  selected columns, as in eq. (16)-(17), and ``mu`` / ``eta`` are chosen by
  that model's loss on model-validation. CC, MI, RFE and "all features" refit
  on train ∪ selection-validation (§4.2: their training split is the union).
  On the synthetic data, refitting GBMO on the union instead let the
  30-row model-validation split pick a too-small ``mu``: 18/30 seeds
  against 26/30 with eq. (16) (same path model).
- Ties in model-validation loss between knob values go to the fewest
  features (the seed is silent; the authors' script keeps the smallest
  ``mu``). With the refit on train exact ties are rare and both rules gave
  the same 26/30.
- Synthetic X ~ U(0, 1): the seed does not say; the authors' published
  script (``synth_data_experiments.py``) draws ``np.random.rand``. We also
  run X ~ N(0, 1) as a sensitivity check: there zero masking sets a column
  to its centre, the terms are U-shaped, and GBMO succeeds in 2/30 seeds.
- Synthetic model: §4.2 tunes LightGBM by cross-validation over Table 3.
  Over Table 3 itself the 5-fold CV optimum sits on the grid's edge in 30/30
  seeds (20 trees, learning rate 0.05); that model explains well under half
  of the variance of y (test MSE ~1.9 against var(y) ~2.9), drops
  informative features, and GBMO succeeds in 0/30 seeds (FLBMO with eta = 10
  in 1/30; the authors' script's 20-40 trees: 4/30). ``full=True``
  therefore tunes over :data:`SYNTHETIC_GRID` (Table 3 with n_estimators up
  to 500 and depth-one trees added): CV picks 500 stumps with learning rate
  0.05 in 30/30 seeds (again the widened grid's edge; we did not widen
  further), min_child_samples 10 in 27/30, colsample_bytree 0.6 or 0.8
  half each; GBMO succeeds in 25/30, FLBMO with eta = 10 in 29/30. Without
  the stumps (Table 3 with more trees only): 16/30. Quick mode fixes the
  modal pick (:data:`SYNTHETIC_LGBM`): 26/30, FLBMO with eta = 10 in 29/30.
  The previous quick model (500 stumps, min_child_samples 5, all columns per
  tree, refit on the union) gave 20/30. The full-mode search is about 1,000
  LightGBM fits per seed and split (minutes).
- Real data are min-max scaled with the minimum and maximum of train ∪
  selection-validation, features and (for Residential Building) the target:
  the seed's MSE of 65e-4 with all features only makes sense for a target
  in [0, 1] (its variance is 0.027 after this scaling). Zero masking
  (the seed's) then sets a column to its training minimum.
- Real data, quick mode (default): fixed hyperparameters, one point of
  Table 3; ``full=True`` tunes them over Table 3 by 5-fold cross-validation
  (on train for GBMO/FLBMO, on train ∪ selection-validation for the others,
  as in §4.2). LightGBM's ``subsample`` does nothing unless
  ``subsample_freq > 0``; like the seed's grid we pass it as is.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.metrics import get_scorer

from .._registry import k_grid
from . import ReproduceResult
from ._units import run_units

__all__ = ["run", "units", "compute_unit", "PAPER_TABLE4", "PAPER_TABLES_5_8"]

#: What the quick run (the default) reduces, printed before its tables by the CLI.
QUICK_RUN = (
    "models at one point of Table 3 instead of tuned by 5-fold CV, real data over 3 seeds "
    "instead of 10"
)

#: Seed 000 Table 4: (informative, redundant) selected on the synthetic data.
PAPER_TABLE4 = {"GBMO": (10, 0), "FLBMO": (10, 0), "CC": (7, 13), "MI": (10, 5), "RFE": (10, 5)}

#: Seed 000 Tables 5-8: (test loss, n selected) per model, dataset and method.
#: Residential Building MSE is in units of 1e-4.
PAPER_TABLES_5_8 = {
    "mlp": {
        "residential_building": {"all": (63.18, 105), "mi": (27.55, 24), "cc": (20.82, 30),
                                 "gbmo": (18.76, 46), "flbmo": (37.53, 20)},
        "sonar": {"all": (0.1677, 60), "mi": (0.2097, 10), "cc": (0.1795, 12),
                  "gbmo": (0.1411, 45), "flbmo": (0.1466, 10)},
    },
    "lightgbm": {
        "residential_building": {"all": (65.31, 105), "mi": (86.65, 30), "cc": (49.58, 30),
                                 "rfe": (85.30, 60), "gbmo": (44.48, 12), "flbmo": (45.93, 24)},
        "sonar": {"all": (0.4563, 60), "mi": (0.4957, 10), "cc": (0.4687, 30),
                  "rfe": (0.4944, 12), "gbmo": (0.3974, 16), "flbmo": (0.4301, 30)},
    },
}

MU_GRID = (0.00025, 0.001, 0.01, 0.05)
SYNTHETIC_ETA = (6, 10, 15, 20)  # §4.3

#: Table 3 grids.
LGBM_GRID = {"num_leaves": [7, 15], "learning_rate": [0.01, 0.025, 0.05],
             "n_estimators": [10, 20], "subsample": [0.6, 0.8],
             "colsample_bytree": [0.6, 0.8], "min_child_samples": [5, 10]}
MLP_GRID = {"hidden_layer_sizes": [(20,), (40,), (10,), (20, 10)],
            "activation": ["relu", "logistic"], "alpha": [0.0001, 0.001, 0.01],
            "learning_rate_init": [0.001, 0.01]}

#: Quick mode: one point of each grid (real data).
QUICK_LGBM = {"num_leaves": 7, "learning_rate": 0.05, "n_estimators": 20, "subsample": 0.8,
              "colsample_bytree": 0.8, "min_child_samples": 5}
QUICK_MLP = {"hidden_layer_sizes": (20,), "activation": "relu", "alpha": 0.001,
             "learning_rate_init": 0.01}
#: Synthetic data (§4.3): Table 3's LightGBM grid widened where its cross-validated optimum
#: sits on the edge (n_estimators 20 and learning_rate 0.05 in 30/30 seeds: 10-20 trees
#: underfit ten additive terms from 135 rows), plus depth-one trees (num_leaves=2) for an
#: additive target. ``subsample`` is left out: without ``subsample_freq`` it does nothing.
SYNTHETIC_GRID = {"num_leaves": [2, 7, 15], "learning_rate": [0.01, 0.025, 0.05],
                  "n_estimators": [10, 20, 40, 100, 200, 500],
                  "colsample_bytree": [0.6, 0.8], "min_child_samples": [5, 10]}
#: Quick mode, synthetic data: the point of SYNTHETIC_GRID that 5-fold CV on the training
#: split picks in most seeds (500 stumps, learning rate 0.05: 30/30; min_child_samples 10:
#: 27/30; colsample_bytree 0.8: 15/30, else 0.6).
SYNTHETIC_LGBM = {"n_estimators": 500, "learning_rate": 0.05, "num_leaves": 2,
                  "min_child_samples": 10, "colsample_bytree": 0.8}
#: X distributions for the synthetic data (the seed does not give one; the authors'
#: published script draws U(0, 1)).
SYNTHETIC_X = {"uniform": "U(0, 1)", "normal": "N(0, 1)"}

_LABEL = {"all": "All features", "mi": "MI", "cc": "CC", "rfe": "RFE", "gbmo": "GBMO",
          "flbmo": "FLBMO"}


# ----------------------------------------------------------------- models
def _base_model(name, task, seed):
    if name == "lightgbm":
        import lightgbm as lgb

        cls = lgb.LGBMClassifier if task == "classification" else lgb.LGBMRegressor
        return cls(random_state=seed, n_jobs=1, verbose=-1)
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    cls = MLPClassifier if task == "classification" else MLPRegressor
    return cls(max_iter=1000, random_state=seed)



def _tuned_mu(label: str) -> float:
    """The slack mu a ``tuned`` label names first (``mu=0.01``, ``mu=0.01 (same as 0.05)``,
    ``mu=0.01 (3/5)``)."""
    return float(re.match(r"[^=]*=\s*([-+0-9.eE]+)", label).group(1))

def _loss_scorer(task):
    return get_scorer("neg_log_loss" if task == "classification" else "neg_mean_squared_error")


def _tuned(name, task, seed, full, X, y, params=None, grid=None):
    """The model with Table 3 hyperparameters: fixed (quick) or 5-fold CV-tuned (full).

    ``params`` fixes the hyperparameters (quick mode of the synthetic data); ``grid``
    replaces Table 3's grid in full mode.
    """
    model = _base_model(name, task, seed)
    if params is not None and not full:
        return model.set_params(**params)
    if not full:
        return model.set_params(**(QUICK_LGBM if name == "lightgbm" else QUICK_MLP))
    from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold

    cv = (StratifiedKFold if task == "classification" else KFold)(5, shuffle=True,
                                                                  random_state=seed)
    if grid is None:
        grid = LGBM_GRID if name == "lightgbm" else MLP_GRID
    search = GridSearchCV(model, grid, scoring=_loss_scorer(task), cv=cv).fit(X, y)
    return model.set_params(**search.best_params_)


# --------------------------------------------------------------- protocol
def _top_k(order, k, n):
    mask = np.zeros(n, bool)
    mask[np.asarray(order)[:k]] = True
    return mask


def _pick(cands):
    """The knob with the lowest model-validation loss; exact ties go to the fewest features.

    ``cands``: ``(model_val_loss, n_selected, label, mask, test_loss)`` per knob value.
    """
    return min(cands, key=lambda c: c[:2])


def _protocol(X, y, task, model_name, seed, *, full, methods, eta_grid, scale, model_params=None,
              grid=None):
    """One seed of §4.2. Returns ({method: row}, the GBMO selector, the split).

    GBMO and FLBMO refit on the training split (eq. 16-17) with the hyperparameters
    tuned there; CC, MI, RFE and all features on train ∪ selection-val (§4.2).
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.feature_selection import RFE

    from ..classic import UnivariateFilter
    from ..mask import GBMO
    from ..protocol import honest_split

    X = np.asarray(X, dtype=np.float64)
    if task == "classification":
        classes, y = np.unique(np.asarray(y), return_inverse=True)
    else:
        y = np.asarray(y, dtype=np.float64)
    split = honest_split(y, task, random_state=seed)
    fit = split.fit
    if scale:
        lo, hi = X[fit].min(axis=0), X[fit].max(axis=0)
        X = (X - lo) / np.where(hi > lo, hi - lo, 1.0)
        if task == "regression":
            ylo, yhi = y[fit].min(), y[fit].max()
            y = (y - ylo) / (yhi - ylo)
    d = X.shape[1]
    scorer = _loss_scorer(task)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model_fit = _tuned(model_name, task, seed, full, X[fit], y[fit], model_params, grid)
        model_tr = _tuned(model_name, task, seed, full, X[split.train], y[split.train],
                          model_params, grid)

        cands: dict[str, dict] = {"all": {"all": np.ones(d, bool)}}
        gbmo = None
        if "gbmo" in methods or "flbmo" in methods:
            gbmo = GBMO(model_tr, slack=np.inf, random_state=seed).fit(
                X[split.train], y[split.train], X_val=X[split.selection_val],
                y_val=y[split.selection_val])
            cands["gbmo"] = {f"mu={mu:g}": gbmo.support_at(slack=mu) for mu in MU_GRID}
            cands["flbmo"] = {f"eta={k}": gbmo.support_at(n_features=k) for k in eta_grid}
        for m in ("mi", "cc"):
            if m in methods:
                f = UnivariateFilter(m, task=task, random_state=seed).fit(X[fit], y[fit])
                order = np.argsort(f.ranking_, kind="stable")
                cands[m] = {f"eta={k}": _top_k(order, k, d) for k in eta_grid}
        if "rfe" in methods and model_name == "lightgbm":
            kmin = min(eta_grid)
            rfe = RFE(clone(model_fit), n_features_to_select=kmin, step=1).fit(X[fit], y[fit])
            cands["rfe"] = {f"eta={k}": rfe.ranking_ <= k - kmin + 1 for k in eta_grid}

        rows = {}
        fitted: dict[tuple, tuple] = {}
        for method, cs in cands.items():
            if method not in methods and method != "all":
                continue
            # eq. (16)-(17): GBMO/FLBMO's model is refit on the training split
            on_train = method in ("gbmo", "flbmo")
            rows_fit, base = (split.train, model_tr) if on_train else (fit, model_fit)
            scored = []
            for label, mask in cs.items():
                key = (on_train, tuple(np.flatnonzero(mask)))
                if key not in fitted:
                    est = clone(base).fit(X[rows_fit][:, mask], y[rows_fit])
                    fitted[key] = (-scorer(est, X[split.model_val][:, mask], y[split.model_val]),
                                   -scorer(est, X[split.test][:, mask], y[split.test]))
                val, test = fitted[key]
                scored.append((val, int(mask.sum()), label, mask, test))
            val, n_sel, label, mask, test = _pick(scored)
            rows[method] = {"method": method, "seed": seed, "n_selected": n_sel,
                            "model_val_loss": val, "test_loss": test, "tuned": label,
                            "refit_on": "train" if on_train else "train+selection-val",
                            "support": mask}
    return rows, gbmo, split


# -------------------------------------------------------------- experiments
def _synthetic_data(seed, distribution):
    """Eq. (18) on 300 x 100: ``y = sum_{j<10} x_j^2 + sin(x_j)``, X drawn from ``distribution``."""
    from ..datasets import make_gbmo_synthetic

    return make_gbmo_synthetic(distribution=distribution, random_state=seed)


def _plot_data(gbmo, mu):
    """The series of Figures 1-4 (JSON-able), from one GBMO path."""
    from ..report._mask import mask_plot_data

    data = mask_plot_data(gbmo, slack=mu)
    return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in data.items()}


def _synthetic_unit(unit):
    """One seed of Table 4: features selected by each method, and the GBMO path's plot data."""
    seed, distribution = unit["seed"], unit["distribution"]
    X, y, support = _synthetic_data(seed, distribution)
    methods = ("gbmo", "flbmo", "cc", "mi", "rfe")
    rows, gbmo, split = _protocol(X, y, "regression", "lightgbm", seed,
                                  full=unit["tune_synthetic"], methods=methods,
                                  eta_grid=SYNTHETIC_ETA, scale=False,
                                  model_params=SYNTHETIC_LGBM, grid=SYNTHETIC_GRID)
    # FLBMO with eta fixed at 10: the same path, refit on train like FLBMO (eq. 17)
    flbmo10 = gbmo.support_at(n_features=10)
    est = clone(gbmo.estimator).fit(X[split.train][:, flbmo10], y[split.train])
    rows["flbmo10"] = {"support": flbmo10, "tuned": "eta=10",
                       "test_loss": float(np.mean((est.predict(X[split.test][:, flbmo10])
                                                   - y[split.test]) ** 2))}
    out = []
    for m in methods + ("flbmo10", "all"):
        r = rows[m]
        out.append({"X": SYNTHETIC_X[distribution],
                    "method": {"flbmo10": "FLBMO (eta=10)"}.get(m) or _LABEL[m],
                    "seed": seed, "informative": int(r["support"][support].sum()),
                    "redundant": int(r["support"][~support].sum()),
                    "tuned": r["tuned"], "test_mse": r["test_loss"]})
    mu = _tuned_mu(rows["gbmo"]["tuned"])
    return {"rows": out, "plot": _plot_data(gbmo, mu), "mu": mu}


def _table4(df) -> pd.DataFrame:
    table = []
    for label in df.method.unique():
        sub = df[df.method == label]
        ok = int(((sub.informative == 10) & (sub.redundant <= 1)).sum())
        paper = PAPER_TABLE4.get(label.split(" ")[0], ("", ""))  # no paper row: blank
        table.append({
            "method": label,
            "informative (mean)": round(sub.informative.mean(), 1),
            "redundant (mean)": round(sub.redundant.mean(), 1),
            "per seed (inf/red)": " ".join(f"{a}/{b}" for a, b in
                                           zip(sub.informative, sub.redundant, strict=True)),
            "10 and <=1 redundant": f"{ok}/{len(sub)}",
            "test MSE (mean)": round(sub.test_mse.mean(), 3),
            "paper informative": paper[0],
            "paper redundant": paper[1],
        })
    return pd.DataFrame(table)


def _real_unit(unit):
    """One (model, data set, seed) of Tables 5-8."""
    from ..datasets import load_residential_building, load_sonar

    ds, model_name, seed = unit["dataset"], unit["model"], unit["seed"]
    if ds == "sonar":
        (X, y), task = load_sonar(return_X_y=True), "classification"
    else:
        (X, y), task = load_residential_building(return_X_y=True), "regression"
    methods = ("mi", "cc", "gbmo", "flbmo") + (("rfe",) if model_name == "lightgbm" else ())
    res, gbmo, _ = _protocol(X, y, task, model_name, seed, full=unit["tune_real"],
                             methods=methods, eta_grid=k_grid(X.shape[1]), scale=True)
    rows = [{"model": model_name, "dataset": ds, **{k: v for k, v in r.items()
                                                   if k != "support"}} for r in res.values()]
    mu = _tuned_mu(res["gbmo"]["tuned"])
    return {"rows": rows, "plot": _plot_data(gbmo, mu), "mu": mu}


def units(full: bool, random_state: int = 0, *, real_seeds: int | None = None,
          synthetic_seeds: int = 5, tune_synthetic: bool | None = None,
          models=("lightgbm", "mlp"), tune_models=None) -> list[dict]:
    """The units: synthetic (seed, distribution), then real (model, seed, data set),
    model-major so that the cheap LightGBM runs finish first."""
    tune_synthetic = full if tune_synthetic is None else tune_synthetic
    tune_models = set(models if full else ()) if tune_models is None else set(tune_models)
    n_real = real_seeds or (10 if full else 3)
    syn = [{"part": "synthetic", "distribution": dist, "seed": random_state + i,
            "tune_synthetic": tune_synthetic}
           for i in range(synthetic_seeds) for dist in SYNTHETIC_X]
    real = [{"part": "real", "model": m, "seed": random_state + i, "dataset": ds,
             "tune_real": m in tune_models}
            for m in models for i in range(n_real) for ds in ("residential_building", "sonar")]
    return syn + real


def compute_unit(unit: dict) -> dict:
    """Run one unit (see :func:`units`); a JSON-able record."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return (_synthetic_unit if unit["part"] == "synthetic" else _real_unit)(unit)


def _tables_5_8(df):
    out = {}
    for model_name, table in (("mlp", "Table 5 + 7 (MLP)"), ("lightgbm", "Table 6 + 8 (LightGBM)")):
        sub = df[df.model == model_name]
        lines = []
        for method in ("all", "mi", "cc", "rfe", "gbmo", "flbmo"):
            if method not in set(sub.method):
                continue
            row = {"method": _LABEL[method]}
            for ds, unit, scale in (("residential_building", "RB MSE(1e-4)", 1e4),
                                    ("sonar", "Sonar log loss", 1.0)):
                r = sub[(sub.dataset == ds) & (sub.method == method)]
                paper = PAPER_TABLES_5_8[model_name][ds].get(method)
                loss = r.test_loss * scale
                row[f"{unit} ours"] = f"{loss.mean():.4g} ± {loss.std(ddof=0):.2g}"
                row[f"{unit} paper"] = paper[0] if paper else None
                row[f"{unit} diff"] = round(loss.mean() - paper[0], 4) if paper else None
                row[f"{ds.split('_')[0]} n ours"] = round(r.n_selected.mean(), 1)
                row[f"{ds.split('_')[0]} n paper"] = paper[1] if paper else None
            lines.append(row)
        out[table] = pd.DataFrame(lines)
    return out


def _save_figures(out_dir, synthetic, rb_mlp):
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ..report._mask import plot_loss, plot_remaining

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for rec, tag, what in ((synthetic, "synthetic", "synthetic data U(0, 1), LightGBM"),
                           (rb_mlp, "residential_building", "Residential Building, MLP")):
        if rec is None:
            continue
        mu = rec["mu"]
        data = {k: np.asarray(v) if isinstance(v, list) else v for k, v in rec["plot"].items()}
        n1, n2 = (1, 2) if tag == "synthetic" else (3, 4)
        for n, draw, name in ((n1, plot_remaining, "remaining"), (n2, plot_loss, "loss")):
            fig = draw(data, title=f"Figure {n}: GBMO (mu={mu:g}), {what}")
            path = out / f"gbmo_figure{n}_{tag}_{name}.png"
            fig.savefig(path, dpi=120)
            plt.close(fig)
            paths.append(str(path))
    return paths


def run(*, full: bool = False, random_state: int = 0, progress: bool = False,
        out_dir=None, results_dir=None, n_jobs=None, real_seeds: int | None = None,
        tune_synthetic: bool | None = None, models=("lightgbm", "mlp"), tune_models=None,
        only_cached: bool = False) -> ReproduceResult:
    """Reproduce seed 000 §4: Table 4 (synthetic), Tables 5-8 (real data), Figures 1-4.

    Parameters
    ----------
    full : bool, default=False
        Tune LightGBM and MLP over the seed's Table 3 grids (the synthetic
        data: :data:`SYNTHETIC_GRID`) by 5-fold CV and average the real data
        over 10 seeds (quick: fixed hyperparameters, 3 seeds). The synthetic
        table always uses 5 seeds.
    random_state : int, default=0
        The first seed; seeds are ``random_state, random_state + 1, ...``.
    progress : bool, default=False
        A bar over units with an ETA.
    out_dir : path or None
        Where Figures 1-4 are written as PNG (nothing is written when None).
    results_dir : path or None, default=None
        Cache of finished units; a rerun resumes from it.
    n_jobs : int or None, default=None
        joblib workers over units.
    real_seeds : int or None, default=None
        Override the number of real-data seeds.
    tune_synthetic : bool or None, default=None
        Tune the synthetic model over :data:`SYNTHETIC_GRID` (default: ``full``);
        False fixes :data:`SYNTHETIC_LGBM`.
    models : tuple of {"lightgbm", "mlp"}, default=("lightgbm", "mlp")
        The real-data models, in the order their units run.
    tune_models : list of str or None, default=None
        The models tuned over Table 3 by 5-fold CV (default: all when ``full``);
        the others use one point of Table 3 (:data:`QUICK_LGBM`, :data:`QUICK_MLP`).
    only_cached : bool, default=False
        Tables from what ``results_dir`` holds, computing nothing.

    Returns
    -------
    result : ReproduceResult
        Tables "Table 4 ...", "Table 5 + 7 (MLP)", "Table 6 + 8 (LightGBM)",
        the per-seed rows, notes and figure paths.
    """
    unit_list = units(full, random_state, real_seeds=real_seeds, tune_synthetic=tune_synthetic,
                      models=models, tune_models=tune_models)
    results = run_units("gbmo", unit_list, compute_unit, results_dir=results_dir,
                        n_jobs=n_jobs, progress=progress, desc="gbmo units",
                        only_cached=only_cached)
    done = [(u, r) for u, r in zip(unit_list, results, strict=True) if r is not None]
    syn = pd.DataFrame([row for u, r in done if u["part"] == "synthetic" for row in r["rows"]])
    real_rows = pd.DataFrame([row for u, r in done if u["part"] == "real" for row in r["rows"]])
    res = ReproduceResult(name="gbmo", params={
        "full": full, "random_state": random_state,
        "units": {"done": len(done), "total": len(unit_list)},
        "synthetic_seeds": sorted({u["seed"] for u, _ in done if u["part"] == "synthetic"}),
        "real_seeds": {m: sorted({u["seed"] for u, _ in done if u.get("model") == m})
                       for m in models},
        "tuned": {"synthetic": unit_list[0]["tune_synthetic"],
                  **{m: any(u.get("tune_real") for u in unit_list if u.get("model") == m)
                     for m in models}}})
    for dist in SYNTHETIC_X.values():
        if len(syn) and (syn.X == dist).any():
            res.tables[f"Table 4 (synthetic 300 x 100, X ~ {dist}, LightGBM): features "
                       "selected"] = _table4(syn[syn.X == dist])
    if len(real_rows):
        res.tables.update(_tables_5_8(real_rows))
    res.tables["per-seed synthetic rows"] = syn
    res.tables["per-seed real-data rows"] = real_rows
    res.notes += _notes(res.tables, real_rows)
    if out_dir is not None:
        first = {(u["part"], u.get("distribution"), u.get("model"), u.get("dataset")): r
                 for u, r in reversed(done)}
        res.figures += _save_figures(
            out_dir, first.get(("synthetic", "uniform", None, None)),
            first.get(("real", None, "mlp", "residential_building")))
    return res


def _notes(tables, real_rows) -> list[str]:
    notes = []
    for title, table4 in tables.items():
        if not title.startswith("Table 4"):
            continue
        ok = dict(zip(table4.method, table4["10 and <=1 redundant"], strict=True))
        mse = dict(zip(table4.method, table4["test MSE (mean)"], strict=True))
        notes.append(
            f"Synthetic, X ~ {title.split('X ~ ')[1].split(', LightGBM')[0]}: all 10 informative and at most 1 redundant "
            f"feature in {ok['GBMO']} seeds for GBMO (mu tuned on model-val), {ok['FLBMO']} for "
            f"FLBMO (eta tuned over {{6, 10, 15, 20}}), {ok['FLBMO (eta=10)']} for FLBMO with "
            f"eta = 10; mean test MSE GBMO {mse['GBMO']:.3f} (refit on train), all features "
            f"{mse['All features']:.3f} (refit on train ∪ selection-val).")
    if len(real_rows):
        rb = real_rows[(real_rows.dataset == "residential_building")
                       & (real_rows.model == "lightgbm")]
        mean = rb.groupby("method").test_loss.mean()
        notes.append(f"Residential Building, LightGBM, mean test MSE over {rb.seed.nunique()} "
                     f"seeds: GBMO {mean.get('gbmo', np.nan) * 1e4:.2f}e-4 vs all features "
                     f"{mean.get('all', np.nan) * 1e4:.2f}e-4.")
    return notes + NOTES


#: Fixed notes on the protocol (measured once; see the module docstring).
NOTES = [
        "Measured over 30 seeds (0-29) with this protocol and X ~ U(0, 1) (quick model): GBMO "
        "all 10 and <= 1 redundant in 26/30 (so at least 4 of 5 seeds with probability ~0.87), "
        "FLBMO with eta = 10 exactly the 10 in 29/30. The misses: a redundant column the "
        "model leans on, whose zero-masking raises the loss by more than the largest mu (5%), "
        "or a too-small mu picked on the 30-row model-val split.",
        "Our Residential Building has 103 features (V-1..V-8 and V-11..V-29 at 5 lags); the "
        "seed's tables say 105 (it likely counted the two targets).",
        "Features and the Residential Building target are min-max scaled on train ∪ "
        "selection-val; the seed's MSE values imply a target in [0, 1].",
        "GBMO and FLBMO refit on the train split with the selected columns (eq. 16-17) and "
        "their mu / eta are chosen by that model's model-val loss; CC, MI, RFE and all "
        "features refit on train ∪ selection-val (§4.2). Exact ties in model-val loss go to "
        "the fewest features. The test split is scored once. (Refitting GBMO on the union "
        "instead: 18/30 synthetic seeds; the 30-row model-val split then cannot tell 10 "
        "columns from 12.)",
        "Synthetic model: Table 3's LightGBM grid, tuned by 5-fold CV on train, puts its "
        "optimum on the grid's edge (20 trees, learning rate 0.05) in 30/30 seeds and explains "
        "well under half of var(y); GBMO then drops informative features (0/30 seeds). "
        "--full tunes over Table 3 widened to n_estimators <= 500 and num_leaves 2 "
        "(SYNTHETIC_GRID; 25/30 seeds); quick mode fixes the point CV picks there in most "
        "seeds: 500 stumps, learning rate 0.05, min_child_samples 10, colsample_bytree 0.8.",
        "Real data: quick mode uses one point of Table 3; --full tunes the Table 3 grids by "
        "5-fold CV and uses 10 seeds.",
        "The seed does not say how the synthetic X is drawn; the authors' script draws "
        "U(0, 1), the table that counts. N(0, 1) is a sensitivity check: zero masking then "
        "sets a column to its centre and the terms are U-shaped; GBMO succeeds in 2/30 "
        "seeds there.",
]
