"""Seed 001: FASTENER vs POSS, FS-SDS and DT-forward on the scikit-feature sets (Tables 3-4, Figs. 8-9).

For every data set and split: an 80:20 stratified train/test split (§5.1); each
method selects on the training part only (FASTENER and POSS score items on a
seeded 20 % selection-validation part of it, DT-forward on the same share);
every item of the resulting front with at most K = 20 features is refit on the
training part and its F1 measured once on the untouched test part; the AUF of
those test F1 values is the number reported (the seed's "AUF of F1 score,
produced by the models trained on training data sets using the selected feature
subset and evaluated on corresponding test subsets"). POSS gets exactly the
evaluation budget FASTENER spent, so the two can be compared at equal cost,
and their AUF-against-evaluations curves give the convergence comparison
(§5.3: FASTENER "converges about three-times faster", AUF "on average 5 %
larger").

FASTENER, POSS, FS-SDS and DT-forward score their candidates on the same
selection-val rows. DT-forward runs 15 full rounds (``DT_FORWARD_ROUNDS``):
Table 4's evaluation counts are exactly 15 * d - 105 on every data set. FS-SDS
(Table 3) uses the seed's extreme learning machine (160 sigmoid neurons) for its
search and for the refits of its front, with featsieve's default swarm (20
agents x 20 iterations per size k = 1..20, at most ~8,400 fits; the seed reports
30,000 evaluations).

Two protocols, each a labelled row group of the table:

- ``honest`` (the headline): selection never sees the test rows, as above.
- ``seed``: the seed's own protocol (§5.1, §5.4), for a like-for-like
  comparison with its numbers: each method selects on the 80 % training part
  with F1 scored on the 20 % test part, and every front item of at most K
  features is refit and scored on 30 stratified 80:20 re-splits of all rows
  (seeds 20-49, "random seeds from 20 to 50"); the AUF is their mean. The
  re-splits share rows with the selection's scoring set, which is the
  "feature selection bias" the seed itself names.

Every (data set, split, protocol, method) is one unit of
:func:`featsieve.reproduce._units.run_units`: cached in the results directory
and resumed.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from . import ReproduceResult
from ._units import run_units

__all__ = ["run", "units", "compute_unit", "SEED_TABLES", "QUICK_DATASETS", "FULL_DATASETS"]

#: What the quick run (the default) reduces, printed before its tables by the CLI.
QUICK_RUN = (
    "2 data sets instead of 17, 1 split instead of 10, 30 generations instead of 200 (so "
    "far fewer evaluations), a small FS-SDS swarm"
)

# seed 001 Table 3 (FS-SDS mean AUF) and Table 4 (DT-forward, FASTENER: mean AUF, eval_n)
SEED_TABLES = {
    #               FS-SDS  DTfwd  DTfwd_n  FAST   FAST_n
    "ALLAML":       (0.643, 0.826, 106830, 0.776, 11238),
    "arcene":       (0.608, 0.659, 149895, 0.707, 12083),
    "BASEHOCK":     (0.580, 0.753, 72825, 0.742, 13847),
    "COIL20":       (0.655, 0.707, 15255, 0.687, 14214),
    "colon":        (0.658, 0.751, 29895, 0.763, 11256),
    "GLIOMA":       (0.549, 0.592, 66405, 0.618, 11674),
    "Isolet":       (0.365, 0.409, 9150, 0.396, 14572),
    "leukemia":     (0.620, 0.866, 105945, 0.824, 11248),
    "lung_discrete": (0.533, 0.526, 4770, 0.511, 11753),
    "lymphoma":     (0.539, 0.586, 60285, 0.590, 11719),
    "orlraws10P":   (0.675, 0.760, 154455, 0.694, 13571),
    "PCMAC":        (0.596, 0.722, 49230, 0.710, 15768),
    "Prostate_GE":  (0.676, 0.787, 89385, 0.748, 14002),
    "RELATHE":      (0.520, 0.684, 64725, 0.667, 15541),
    "TOX_171":      (0.421, 0.469, 86115, 0.553, 14759),
    "warpPIE10P":   (0.582, 0.669, 36195, 0.633, 13630),
    "Yale":         (0.380, 0.407, 15255, 0.436, 15307),
}
QUICK_DATASETS = ("lung_discrete", "colon")
FULL_DATASETS = tuple(SEED_TABLES)
K = 20
# Table 4's DT-forward eval_n is 15 * d - 105 on every set (e.g. colon, d = 2000: 29,895):
# 15 full rounds of forward selection, without early stopping
DT_FORWARD_ROUNDS = 15
#: The seed's re-splits for scoring a front (§5.1: "random seeds from 20 to 50").
SEED_RESPLITS = tuple(range(20, 50))
BUDGET_SHARES = (0.1, 0.25, 0.5, 0.75, 1.0)
#: FS-SDS in quick mode: 10 agents x 5 iterations per size (full mode: FSSDS's defaults).
QUICK_FSSDS = {"n_agents": 10, "n_iterations": 5}
MAIN_TABLE = "AUF of test F1 (mean, sd over splits) beside seed Tables 3-4"
CONV_TABLE = "POSS vs FASTENER: selection-val AUF at equal evaluation budgets"


def _split_keeping_rare(y, seed, *, min_rows, outer):
    """Stratified 80:20 split of ``y``'s rows; the rows of classes with fewer
    than ``min_rows`` rows all stay in the first part.

    lymphoma has two classes of 2 rows: split like the others they could leave
    a single row where a selector fits (its input checks need 2 per class).
    ``outer``: scikit-learn's ``train_test_split(random_state=seed)`` (the
    first part in its shuffled order), else :func:`holdout_split` (sorted).
    """
    from sklearn.model_selection import train_test_split

    from ..protocol import holdout_split

    counts = np.bincount(y)
    rare = np.flatnonzero(np.isin(y, np.flatnonzero(counts < min_rows)))
    idx = np.setdiff1d(np.arange(len(y)), rare)
    if outer:
        first, second = train_test_split(idx, test_size=0.2, stratify=y[idx],
                                         random_state=seed)
        return np.concatenate([first, rare]), second
    first, second = holdout_split(len(idx), y[idx], 0.2, stratify=True, random_state=seed)
    return np.sort(np.concatenate([idx[first], rare])), idx[second]


def _tree(seed):
    from sklearn.tree import DecisionTreeClassifier

    # §5.1: Gini, at least two samples to split
    return DecisionTreeClassifier(criterion="gini", min_samples_split=2, random_state=seed)


def _f1(y_true, y_pred, n_classes):
    from ..genetic import f1_from_labels

    return f1_from_labels(y_true, y_pred, n_classes, "binary" if n_classes <= 2 else "macro")


def _elm(seed):
    from .._elm import ELMClassifier

    # §5.1: FS-SDS's extreme learning machine, 160 sigmoid hidden neurons
    return ELMClassifier(n_hidden=160, activation="sigmoid", random_state=seed)


def _test_auf(items, Xtr, ytr, Xte, yte, n_classes, seed, model=_tree):
    """AUF (K = 20) of test F1 of each (size -> columns) item refit on train."""
    from ..evaluation import area_under_front

    scores = {}
    for size, cols in items.items():
        if 0 < size <= K:
            m = model(seed).fit(Xtr[:, cols], ytr)
            scores[size] = _f1(yte, m.predict(Xte[:, cols]), n_classes)
    return area_under_front(scores, K)


def _forward_front(fwd):
    """DT-forward's nested subsets as a front: round r -> its first r columns."""
    order = np.argsort(fwd.ranking_, kind="stable")
    items, val = {}, {}
    accepted = [h for h in fwd.history_ if h["accepted"]]
    for r, h in enumerate(accepted, start=1):
        items[r] = list(order[:r])
        val[r] = h["score"]
    return items, val


def _curve(selector):
    """The selector's AUF against evaluations, change points only: [[evals, auf], ...]."""
    out = []
    for r in selector.history_:
        if not out or r["auf"] != out[-1][1]:
            out.append([int(r["n_evaluations"]), float(r["auf"])])
    last = selector.history_[-1]
    if out and last["n_evaluations"] != out[-1][0]:
        out.append([int(last["n_evaluations"]), float(last["auf"])])
    return out


def _auf_at(curve, budget):
    """AUF of a curve after at most ``budget`` evaluations (NaN before its first point)."""
    ok = [a for e, a in curve if e <= budget]
    return ok[-1] if ok else np.nan


def _first_reaching(curve, target):
    for e, a in curve:
        if a >= target - 1e-12:
            return e
    return np.nan


def _fast_f1_scorer(estimator, X, y, n_classes):
    return _f1(y, estimator.predict(X), n_classes)


# ------------------------------------------------------------------ units
def units(names, n_splits: int, n_generations: int, random_state: int = 0,
          protocols=("honest", "seed"), fssds=None) -> list[dict]:
    """The units of a run, in the order they run: FASTENER (split-major: every
    set's split 0 first), then FS-SDS, then DT-forward (the most work: 15 d - 105
    tree fits per split), each split by split, the honest protocol before the
    seed's, the cheapest sets (Table 4's evaluation counts) first, so a run that
    stops early still covers as many sets as it can."""
    genetic = {"honest": "FASTENER+POSS", "seed": "FASTENER"}

    def unit(name, s, proto, method):
        u = {"dataset": name, "split": s, "protocol": proto, "method": method,
             "seed": 2020 + random_state + s, "n_generations": n_generations}
        if method != "FS-SDS":  # the decision trees of the searches: the presorted kernel
            u["trees"] = "presorted"
        return {**u, "fssds": dict(fssds)} if method == "FS-SDS" and fssds else u

    by_cost = sorted(names, key=lambda n: SEED_TABLES.get(n, (0, 0, np.inf))[2])
    return ([unit(n, s, p, genetic[p]) for s in range(n_splits) for n in names
             for p in protocols]
            + [unit(n, s, p, m) for m in ("FS-SDS", "DT-forward") for s in range(n_splits)
               for p in protocols for n in by_cost])


def _load(name):
    from ..datasets import load_scikit_feature

    X, y = load_scikit_feature(name, return_X_y=True)
    y = np.unique(y.to_numpy(), return_inverse=True)[1]
    return X.to_numpy(dtype=np.float64), y


def _select(method, unit, X, y, X_val, y_val, n_classes):
    """The fitted selector of ``method`` (FASTENER, FS-SDS or DT-forward) and its
    model evaluations; every candidate is scored by F1 on ``(X_val, y_val)``."""
    from ..classic import ForwardSelector
    from ..genetic import FASTENER, FSSDS

    seed = unit["seed"]
    if method == "FASTENER":
        sel = FASTENER(_tree(seed), n_generations=unit["n_generations"], random_state=seed)
    elif method == "FS-SDS":  # the seed's comparator (Table 3): ELM, featsieve's defaults
        sel = FSSDS(_elm(seed), random_state=seed, **unit.get("fssds", {}))
    else:  # DT-forward: 15 full rounds, no early stop (Table 4's counts)
        sel = ForwardSelector(_tree(seed), max_rounds=min(DT_FORWARD_ROUNDS, X.shape[1]),
                              tol=None, scoring=partial(_fast_f1_scorer, n_classes=n_classes),
                              random_state=seed)
    sel.fit(X, y, X_val=X_val, y_val=y_val)
    return sel, int(getattr(sel, "n_evaluations_", None) or sel.n_model_fits_)


def _front_items(sel):
    if hasattr(sel, "pareto_front_"):
        return {int(r.size): [int(c) for c in r.columns] for r in sel.pareto_front_.itertuples()}
    return {k: [int(c) for c in v] for k, v in _forward_front(sel)[0].items()}


def _val_auf(sel) -> float:
    from ..evaluation import area_under_front

    return float(sel.auf_) if hasattr(sel, "auf_") else area_under_front(
        _forward_front(sel)[1], K)


TAGS = {"FASTENER": "fastener", "POSS": "poss", "DT-forward": "dtfwd", "FS-SDS": "fssds"}


def compute_unit(unit: dict) -> dict:
    """Run one unit (see :func:`units`) and return its JSON-able record."""
    X, y = _load(unit["dataset"])
    n_classes = int(y.max()) + 1
    seed, method = unit["seed"], unit["method"]
    model = _elm if method == "FS-SDS" else _tree
    tr, te = _split_keeping_rare(y, seed, min_rows=5, outer=True)
    Xtr, Xte, ytr, yte = X[tr], X[te], y[tr], y[te]
    t0 = time.perf_counter()
    if unit["protocol"] == "seed":
        # §5.1: select on the training part, F1 scored on the test part; each front
        # item then refit and scored on 30 re-splits of all rows
        sel, evals = _select(method, unit, Xtr, ytr, Xte, yte, n_classes)
        sec = time.perf_counter() - t0
        items = _front_items(sel)
        aufs = [_test_auf(items, X[a], y[a], X[b], y[b], n_classes, seed, model)
                for a, b in (_split_keeping_rare(y, r, min_rows=2, outer=True)
                             for r in SEED_RESPLITS)]
        return {"auf": float(np.mean(aufs)), "auf_sd_resplits": float(np.std(aufs, ddof=1)),
                "evals": evals, "sec": sec, "sizes": sorted(items)}
    # honest: a selection-val part of the training rows; the test rows are scored once
    fit, val = _split_keeping_rare(ytr, seed, min_rows=4, outer=False)
    args = (Xtr[fit], ytr[fit], Xtr[val], ytr[val])
    if method != "FASTENER+POSS":
        sel, evals = _select(method, unit, *args, n_classes)
        tag = TAGS[method]
        return {f"{tag}_auf": _test_auf(_front_items(sel), Xtr, ytr, Xte, yte, n_classes, seed,
                                        model),
                f"{tag}_auf_val": _val_auf(sel), f"{tag}_evals": evals,
                f"{tag}_sec": time.perf_counter() - t0}
    return _fastener_and_poss(unit, args, (Xtr, ytr, Xte, yte), n_classes)


def _fastener_and_poss(unit, args, outer, n_classes):
    """FASTENER, then POSS with exactly FASTENER's evaluation budget (§5.3)."""
    from ..genetic import POSS

    seed = unit["seed"]
    t0 = time.perf_counter()
    fa, budget = _select("FASTENER", unit, *args, n_classes)
    rec = {"fastener_sec": time.perf_counter() - t0}
    t0 = time.perf_counter()
    po = POSS(_tree(seed), n_generations=50 * budget, max_evaluations=budget,
              random_state=seed).fit(args[0], args[1], X_val=args[2], y_val=args[3])
    rec["poss_sec"] = time.perf_counter() - t0
    for key, sel in (("fastener", fa), ("poss", po)):
        rec[f"{key}_auf"] = _test_auf(_front_items(sel), *outer, n_classes, seed)
        rec[f"{key}_auf_val"] = float(sel.auf_)
        rec[f"{key}_evals"] = int(sel.n_evaluations_)
        rec[f"{key}_curve"] = _curve(sel)
        rec[f"{key}_front_val"] = [[int(r.size), float(r.score)]
                                   for r in sel.pareto_front_.itertuples()]
    return rec


# ----------------------------------------------------------------- tables
def _raw(unit_list, results) -> pd.DataFrame:
    """One row per (data set, split, protocol): the units' records merged."""
    rows: dict[tuple, dict] = {}
    for u, r in zip(unit_list, results, strict=True):
        key = (u["dataset"], u["split"], u["protocol"])
        row = rows.setdefault(key, {"dataset": u["dataset"], "split": u["split"],
                                    "protocol": u["protocol"]})
        if u["protocol"] == "seed":
            tag = TAGS[u["method"]]
            row.update({f"{tag}_{k}": v for k, v in r.items() if k != "sizes"})
        else:
            row.update({k: v for k, v in r.items() if not k.endswith(("_curve", "_front_val"))})
    return pd.DataFrame(list(rows.values()))


def _main_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Per protocol and data set: ours (mean, sd, evaluations) beside the seed's."""
    table = []
    for (proto, name), g in raw.groupby(["protocol", "dataset"], sort=False):
        seed_vals = SEED_TABLES.get(name, (np.nan,) * 5)
        row = {"protocol": proto, "dataset": name}
        methods = (("FASTENER", "fastener"), ("POSS", "poss"), ("DT-fwd", "dtfwd"),
                   ("FS-SDS", "fssds"))
        for label, key in methods:
            if f"{key}_auf" in g:
                row[f"{label} splits"] = int(g[f"{key}_auf"].notna().sum())
                row[f"{label} mean"] = g[f"{key}_auf"].mean()
                row[f"{label} sd"] = g[f"{key}_auf"].std(ddof=1)
                row[f"{label} evals"] = g[f"{key}_evals"].mean()
        row.update({"seed FASTENER": seed_vals[3], "seed FASTENER evals": seed_vals[4],
                    "seed DT-fwd": seed_vals[1], "seed DT-fwd evals": seed_vals[2],
                    "seed FS-SDS": seed_vals[0]})
        row["FASTENER - seed"] = row.get("FASTENER mean", np.nan) - seed_vals[3]
        row["DT-fwd - seed"] = row.get("DT-fwd mean", np.nan) - seed_vals[1]
        row["FS-SDS - seed"] = row.get("FS-SDS mean", np.nan) - seed_vals[0]
        table.append(row)
    proto_order = {"honest": 0, "seed": 1}
    return (pd.DataFrame(table).sort_values("protocol", key=lambda c: c.map(proto_order),
                                            kind="stable").reset_index(drop=True))


def _convergence(unit_list, results):
    """Selection-val AUF of FASTENER and POSS at shares of FASTENER's budget, and the
    speed-up (evaluations POSS needed for its final AUF / FASTENER's for the same)."""
    conv, speedups = [], []
    for u, r in zip(unit_list, results, strict=True):
        if u["method"] != "FASTENER+POSS":
            continue
        budget = r["fastener_evals"]
        for share in BUDGET_SHARES:
            b = max(1, int(budget * share))
            conv.append({"dataset": u["dataset"], "split": u["split"], "budget_share": share,
                         "fastener": _auf_at(r["fastener_curve"], b),
                         "poss": _auf_at(r["poss_curve"], b)})
        target = r["poss_curve"][-1][1]
        speedups.append(_first_reaching(r["poss_curve"], target)
                        / _first_reaching(r["fastener_curve"], target))
    cv = pd.DataFrame(conv)
    if not len(cv):
        return pd.DataFrame(), cv, speedups
    table = cv.groupby("budget_share", as_index=False)[["fastener", "poss"]].mean()
    table["FASTENER / POSS"] = table.fastener / table.poss
    table.columns = ["share of FASTENER's budget", "FASTENER AUF (sel-val)",
                     "POSS AUF (sel-val)", "FASTENER / POSS"]
    return table, cv, speedups


def _notes(main, cv, speedups, missing) -> list[str]:
    notes = []
    if len(cv):
        final = cv[cv.budget_share == 1.0]
        gain = (final.fastener / final.poss).mean() - 1
        notes.append(f"At FASTENER's full budget its selection-val AUF is {100 * gain:+.1f}% "
                     "relative to POSS with the same number of evaluations (seed §5.3 on EO "
                     "data: about +5%).")
        speed = [r for r in speedups if np.isfinite(r)]
        med = f"median {np.median(speed):.2f} over {len(speed)} runs" if speed else "-"
        notes.append(f"Evaluations POSS needed to reach its final AUF divided by those "
                     f"FASTENER needed to reach the same AUF: {med}; FASTENER never "
                     f"reached POSS's final AUF in {len(speedups) - len(speed)} of "
                     f"{len(speedups)} runs (seed §5.3 on EO data: about 3x faster).")
    has_both = len(main) and {"FASTENER mean", "DT-fwd mean"} <= set(main.columns)
    for proto, g in main.groupby("protocol", sort=False) if has_both else []:
        g = g.dropna(subset=["FASTENER mean", "DT-fwd mean"])
        wins = int((g["FASTENER mean"] >= g["DT-fwd mean"]).sum())
        notes.append(
            f"{proto} protocol: FASTENER's mean AUF is at least DT-forward's on {wins} of "
            f"{len(g)} data sets (seed Table 4: slightly under half), with "
            f"{g['FASTENER evals'].sum() / max(g['DT-fwd evals'].sum(), 1):.2f}x its "
            f"evaluations in total; mean difference to the seed: FASTENER "
            f"{g['FASTENER - seed'].mean():+.3f}, DT-forward {g['DT-fwd - seed'].mean():+.3f}.")
    notes.append("honest: selection on the training rows only, AUF of F1 on the untouched "
                 "test rows (the headline). seed: the seed's protocol (selection scored on the "
                 "test rows, fronts re-scored on 30 re-splits of all rows), for comparison "
                 "with its numbers like for like. FS-SDS searches and refits with the seed's ELM.")
    if missing:
        notes.append(f"Skipped (not found): {', '.join(missing)}.")
    return notes


# ---------------------------------------------------------------- figures
def _figures(unit_list, results, out_dir) -> list[str]:
    """Figs. 8-9 analogue: AUF against evaluations, FASTENER vs POSS (split 0 of each
    set), and the mean ratio at shares of the budget."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    curves = [(u["dataset"], r) for u, r in zip(unit_list, results, strict=True)
              if u["method"] == "FASTENER+POSS" and u["split"] == 0]
    if not curves:
        return []
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ncol = min(4, len(curves))
    nrow = -(-len(curves) // ncol)
    fig = Figure(figsize=(3.2 * ncol, 2.4 * nrow))
    axes = np.atleast_1d(fig.subplots(nrow, ncol, squeeze=False)).ravel()
    for ax, (name, r) in zip(axes, curves, strict=False):
        for key, label in (("fastener", "FASTENER"), ("poss", "POSS")):
            c = np.array(r[f"{key}_curve"])
            ax.step(c[:, 0], c[:, 1], where="post", lw=1.2, label=label)
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in axes[len(curves):]:
        ax.set_visible(False)
    axes[0].legend(fontsize=7, loc="lower right")
    fig.supxlabel("model evaluations", fontsize=9)
    fig.supylabel("AUF (K = 20) of selection-val F1", fontsize=9)
    fig.tight_layout()
    path = out / "fastener_convergence.png"
    fig.savefig(path, dpi=100)
    return [str(path)]


def run(*, full: bool = False, random_state: int = 0, progress: bool = False, out_dir=None,
        datasets=None, n_splits: int | None = None, n_generations: int | None = None,
        protocols=("honest", "seed"), fssds=None, results_dir=None,
        n_jobs: int | None = None, only_cached: bool = False) -> ReproduceResult:
    """Run the FASTENER reproduction.

    Parameters
    ----------
    full : bool, default=False
        Quick (default): lung_discrete and colon, 1 split, 30 generations, a
        small FS-SDS swarm (:data:`QUICK_FSSDS`); a couple of minutes on 2 cores. Full: the 17 scikit-feature sets of the
        seed's Tables 3-4, 10 splits, 200 generations (§5.4; many CPU-hours).
    random_state : int, default=0
        Split ``i`` uses seed ``2020 + random_state + i`` (the seed used 2020).
    progress : bool, default=False
        A bar over units with an ETA.
    out_dir : path or None, default=None
        When given, PNG figures are written there.
    datasets : list of str or None, default=None
        Override the data sets.
    n_splits, n_generations : int or None, default=None
        Override the mode's values.
    protocols : tuple of {"honest", "seed"}, default=("honest", "seed")
    fssds : dict or None, default=None
        Parameters of :class:`~featsieve.genetic.FSSDS` (``n_agents``,
        ``n_iterations``, ``sizes``); None: its defaults (full) or
        :data:`QUICK_FSSDS` (quick).
    results_dir : path or None, default=None
        Cache of finished units; a rerun resumes from it.
    n_jobs : int or None, default=None
        joblib workers over units.
    only_cached : bool, default=False
        Tables from the units ``results_dir`` holds, computing nothing (a
        stopped run's partial results; the ``splits`` columns say how many).

    Returns
    -------
    result : ReproduceResult
        Tables :data:`MAIN_TABLE` (one row per protocol and data set) and
        :data:`CONV_TABLE`, and ``"per-split rows"``.
    """
    names = list(datasets) if datasets is not None else list(
        FULL_DATASETS if full else QUICK_DATASETS)
    missing = [n for n in names if not _available(n)]
    names = [n for n in names if n not in missing]
    n_splits = n_splits or (10 if full else 1)
    n_gen = n_generations or (200 if full else 30)
    if fssds is None and not full:
        fssds = QUICK_FSSDS
    unit_list = units(names, n_splits, n_gen, random_state, protocols, fssds)
    results = run_units("fastener", unit_list, compute_unit, results_dir=results_dir,
                        n_jobs=n_jobs, progress=progress, desc="fastener units",
                        only_cached=only_cached)
    done = [i for i, r in enumerate(results) if r is not None]
    counts = {"done": len(done), "total": len(unit_list)}
    unit_list, results = [unit_list[i] for i in done], [results[i] for i in done]
    raw = _raw(unit_list, results) if unit_list else pd.DataFrame()
    main = _main_table(raw) if len(raw) else pd.DataFrame()
    conv_table, cv, speedups = _convergence(unit_list, results)
    tables = {MAIN_TABLE: main}
    if len(conv_table):
        tables[CONV_TABLE] = conv_table
    tables["per-split rows"] = raw
    figures = _figures(unit_list, results, out_dir) if out_dir is not None else []
    return ReproduceResult(
        name="fastener", tables=tables, notes=_notes(main, cv, speedups, missing),
        figures=figures,
        params={"full": full, "units": counts, "random_state": random_state, "datasets": names,
                "n_splits": n_splits, "n_generations": n_gen, "K": K,
                "protocols": list(protocols), "seed_resplits": list(SEED_RESPLITS)},
    )


def _available(name) -> bool:
    try:
        _load(name)
    except FileNotFoundError:
        return False
    return True
