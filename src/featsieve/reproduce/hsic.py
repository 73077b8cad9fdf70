"""Seed 004's experiments: HSIC Lasso and NOCCO Lasso against mRMR, cKTA, FHSIC, SpAM, FVM
(and QPFS).

``featsieve reproduce hsic`` returns three tables:

1. Figure 1(a)(b): fraction of the true features among the top ``k`` (``k``
   known: 4 for Data1, additive, d = 256; 3 for Data2, non-additive, d = 1000)
   against the number of samples, averaged over runs.
2. Figure 1(c): fit time against ``d = 100 .. 1000`` at ``n = 100`` on Data2.
3. Real data from ``../shared/datasets`` (scikit-feature sets): test accuracy
   of a logistic regression trained on the top-k features, k = 10..50, under
   the honest protocol: selection sees train plus selection-val (75% of the
   rows); the model is refit on those rows and scored once on the 15% test
   rows; model-val is not used because k is reported, not tuned. Sets that are
   absent are skipped with a note.

Quick mode (default) runs 2 runs per point on a reduced grid and one real set
(colon); ``full=True`` runs 30 runs (the seed's count), the n grid 25..200 (Data1) and
50..300 (Data2), ten values of d, and the eight real sets, five splits each.
QPFS (SLSQP, O(d^3) per iteration) runs on Data1 only.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd

from . import ReproduceResult

__all__ = ["run"]

REAL_SETS = ("colon", "ALLAML", "leukemia", "lymphoma", "TOX_171", "Prostate_GE", "COIL20",
             "Isolet")


def _selectors(k: int, d: int, random_state: int, with_qpfs: bool):
    from ..kernel import CKTA, FHSIC, FVM, MRMR, QPFS, HSICLasso, NOCCOLasso, SpAM

    out = {
        "HSIC Lasso": HSICLasso(k),
        "NOCCO Lasso": NOCCOLasso(k),
        "mRMR": MRMR(k),
        "cKTA": CKTA(k),
        "FHSIC": FHSIC(k),
        "SpAM": SpAM(k),
        "FVM": FVM(k),
    }
    if with_qpfs:
        out["QPFS"] = QPFS(k)
    return out


def _recovery(full, random_state, progress):
    from ..datasets import make_hsic_additive, make_hsic_nonadditive

    runs = 30 if full else 2
    grids = {
        "Data1 (additive, d=256)": (make_hsic_additive, 256, 4,
                                    [25, 50, 75, 100, 125, 150, 175, 200] if full
                                    else [50, 100, 200]),
        "Data2 (non-additive, d=1000)": (make_hsic_nonadditive, 1000, 3,
                                         [50, 100, 150, 200, 250, 300] if full
                                         else [50, 100, 150]),
    }
    rows = []
    seeds = np.random.RandomState(random_state).randint(0, 2**31 - 1, size=runs)
    for data_name, (maker, d, k, ns) in grids.items():
        for n in ns:
            for r, seed in enumerate(seeds):
                X, y, support = maker(n_samples=n, n_features=d, random_state=int(seed))
                true = set(np.flatnonzero(support))
                for name, sel in _selectors(k, d, random_state, d <= 300).items():
                    sel.fit(X, y)
                    got = set(np.flatnonzero(sel.support_))
                    rows.append({"data": data_name, "n": n, "run": r, "method": name,
                                 "fraction": len(got & true) / k})
    df = pd.DataFrame(rows)
    table = df.pivot_table(index=["data", "n"], columns="method", values="fraction",
                           aggfunc="mean").reset_index()
    table.columns.name = None
    return table, runs


def _timing(full, random_state):
    from ..datasets import make_hsic_nonadditive

    ds = list(range(100, 1001, 100)) if full else [100, 400, 700, 1000]
    runs = 30 if full else 1
    rows = []
    for d in ds:
        for r in range(runs):
            X, y, _ = make_hsic_nonadditive(n_samples=100, n_features=d,
                                            random_state=random_state + r)
            for name, sel in _selectors(3, d, random_state, False).items():
                t = time.perf_counter()
                sel.fit(X, y)
                rows.append({"d": d, "method": name, "seconds": time.perf_counter() - t})
    table = pd.DataFrame(rows).pivot_table(index="d", columns="method", values="seconds",
                                           aggfunc="mean").reset_index()
    table.columns.name = None
    return table, runs


def _real(full, random_state, notes):
    from sklearn.preprocessing import LabelEncoder

    from ..datasets import load_scikit_feature
    from ..kernel import MRMR, HSICLasso, NOCCOLasso
    from ..models import make_model, score
    from ..protocol import honest_split

    sets = REAL_SETS if full else ("colon",)
    splits = 5 if full else 1
    ks = [10, 20, 30, 40, 50]
    rows = []
    for name in sets:
        try:
            X, y = load_scikit_feature(name, return_X_y=True)
        except FileNotFoundError as exc:
            notes.append(f"real data: {name} skipped ({exc}).")
            continue
        Xv = X.to_numpy()
        yv = LabelEncoder().fit_transform(y.to_numpy())
        for s in range(splits):
            split = honest_split(yv, "classification", random_state=random_state + s)
            fit, test = split.fit, split.test
            sels = {"HSIC Lasso": HSICLasso(max(ks)), "mRMR": MRMR(max(ks))}
            if Xv.shape[0] * 0.75 <= 300:
                sels["NOCCO Lasso"] = NOCCOLasso(max(ks))
            for mname, sel in sels.items():
                t = time.perf_counter()
                sel.fit(Xv[fit], yv[fit])
                secs = time.perf_counter() - t
                for k in ks:
                    if hasattr(sel, "path_active_"):
                        cols = None
                        for a in sel.path_active_:
                            if len(a) >= k + 1:
                                cols = a[:k]
                                break
                        if cols is None:
                            cols = sel.path_active_[-1][:k]
                    else:
                        cols = np.argsort(sel.ranking_, kind="stable")[:k]
                    model = make_model("logistic", "classification", random_state=0)
                    model.fit(Xv[fit][:, cols], yv[fit])
                    acc = score("classification", yv[test], model.predict(Xv[test][:, cols]))
                    rows.append({"data": name, "n": Xv.shape[0], "d": Xv.shape[1],
                                 "split": s, "method": mname, "k": k, "accuracy": acc,
                                 "seconds": secs})
    if not rows:
        return pd.DataFrame(), splits
    df = pd.DataFrame(rows)
    table = df.pivot_table(index=["data", "method"], columns="k", values="accuracy",
                           aggfunc="mean")
    table.columns = [f"k={c}" for c in table.columns]
    table["fit seconds"] = df.groupby(["data", "method"])["seconds"].mean()
    return table.reset_index(), splits


def _figures(tables, out_dir, random_state):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..datasets import make_hsic_nonadditive
    from ..kernel import HSICLasso
    from ..report._kernel import lars_path_plot_data, plot_lars_path

    os.makedirs(out_dir, exist_ok=True)
    paths = []
    rec = tables["Figure 1(a)(b): fraction of true features found"]
    for i, (data, g) in enumerate(rec.groupby("data")):
        fig, ax = plt.subplots(figsize=(5.5, 3.8))
        for m in [c for c in g.columns if c not in ("data", "n")]:
            ax.plot(g["n"], g[m], "-o", ms=3, label=m)
        ax.set_xlabel("number of samples n")
        ax.set_ylabel("fraction of true features selected")
        ax.set_title(f"Figure 1({'ab'[i]}): {data}")
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        p = os.path.join(out_dir, f"hsic_figure1{'ab'[i]}.png")
        fig.savefig(p, dpi=120)
        plt.close(fig)
        paths.append(p)
    tim = tables["Figure 1(c): seconds per fit, n=100, Data2"]
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    for m in [c for c in tim.columns if c != "d"]:
        ax.plot(tim["d"], tim[m], "-o", ms=3, label=m)
    ax.set_xlabel("number of features d")
    ax.set_ylabel("seconds per fit")
    ax.set_yscale("log")
    ax.set_title("Figure 1(c): computation time, n = 100")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    p = os.path.join(out_dir, "hsic_figure1c.png")
    fig.savefig(p, dpi=120)
    plt.close(fig)
    paths.append(p)
    X, y, _ = make_hsic_nonadditive(n_samples=200, n_features=200, random_state=random_state)
    sel = HSICLasso(5).fit(X, y)
    fig = plot_lars_path(lars_path_plot_data(sel), title="HSIC Lasso path, Data2 n=200 d=200")
    p = os.path.join(out_dir, "hsic_lars_path.png")
    fig.savefig(p, dpi=120)
    plt.close(fig)
    paths.append(p)
    return paths


def run(*, full: bool = False, random_state: int = 0, progress: bool = False,
        out_dir=None, results_dir=None, n_jobs=None) -> ReproduceResult:
    """Run the seed 004 reproduction (see the module docstring).

    Parameters
    ----------
    full : bool, default=False
        Paper-size runs (30 per point; long).
    random_state : int, default=0
    progress : bool, default=False
        Unused (no progress bars in this experiment).
    out_dir : path or None, default=None
        Where PNG figures are written (none when None).

    Returns
    -------
    ReproduceResult
    """
    notes: list[str] = []
    rec, runs = _recovery(full, random_state, progress)
    tim, truns = _timing(full, random_state)
    real, splits = _real(full, random_state, notes)
    tables = {
        "Figure 1(a)(b): fraction of true features found": rec,
        "Figure 1(c): seconds per fit, n=100, Data2": tim,
    }
    if len(real):
        tables["Real data: test accuracy of logistic regression on the top-k features"] = real
    notes += [
        f"Figure 1(a)(b): mean over {runs} runs of |selected and true| / k with k known "
        "(4 for Data1, 3 for Data2); QPFS only on Data1 (SLSQP is O(d^3) per iteration).",
        f"Figure 1(c): mean seconds per fit over {truns} run(s) at n = 100 on this machine.",
        f"Real data: {splits} honest split(s) per set (45/30/10/15; selection on train + "
        "selection-val, logistic regression refit there, accuracy on the test rows). HSIC "
        "Lasso's top-k is the path's selection with k features; mRMR's the first k picks; "
        "NOCCO Lasso only where the fit split has at most 300 rows.",
        "NOCCO Lasso uses the seed's epsilon = 1e-3; on Data1 (n = 200) a larger epsilon "
        "(0.1) recovers the four features where 1e-3 finds three (the seed: epsilon 'needs "
        "to be tuned in practice').",
    ]
    figures = _figures(tables, out_dir, random_state) if out_dir is not None else []
    return ReproduceResult(name="hsic", tables=tables, notes=notes, figures=figures,
                           params={"full": full, "random_state": random_state})
