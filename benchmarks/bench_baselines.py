"""The seeds' baselines: time per fit at the seeds' sizes, and FS-SDS beside FASTENER.

Two parts (``--part time``, ``--part auf`` or ``--part all``, the default):

time
    Seed 004 Figure 1's sizes: Data1 (additive, n = 200, d = 256, k = 4) and
    Data2 (non-additive, n = 100, d = 1000, k = 3, the size of Figure 1(c));
    wall time per fit of SpAM, FVM, HSIC Lasso and NOCCO Lasso (one run each,
    after a warm-up fit on a small table), with the fraction of true features
    each selected. Then FS-SDS's cost per subset evaluation (an ELM with 160
    sigmoid neurons on colon's 62 x 2000, k = 10) and the time the seed's
    budget would take (30,000 evaluations per k, k = 1..20; seed 001 Table 3).

auf
    Seed 001 Table 3's comparison on two scikit-feature sets (colon,
    lung_discrete from ``../shared/datasets``): each split is 80:20 stratified
    train/test, the train part 80:20 into fit/selection-val; FS-SDS (ELM, k =
    1..20, ``--agents`` agents x ``--iterations`` iterations per k) and
    FASTENER (decision tree, the seed's model, with the same number of
    evaluations as FS-SDS spent) both score subsets by macro F1 on
    selection-val. Printed per split: AUF on selection-val (what each
    optimized), AUF on the test rows (each front item refit on the fit part
    with the method's own model), distinct evaluations (fits) and, for FS-SDS,
    proposals (scorings, the seed's per-k count). Seed 001 Table 3 reports
    FS-SDS below FASTENER on both sets' means except lung_discrete.

Usage::

    python benchmarks/bench_baselines.py                 # ~ 3-4 minutes on 2 cores
    python benchmarks/bench_baselines.py --part auf --seeds 0 1 2 --agents 20 --iterations 10
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np


def _fraction(sel, support):
    return sel.support_[support].sum() / support.sum()


def run_time():
    from featsieve.datasets import make_hsic_additive, make_hsic_nonadditive
    from featsieve.kernel import FVM, HSICLasso, NOCCOLasso, SpAM

    makers = {"Data1 (n=200, d=256, k=4)": (make_hsic_additive, 200, 256, 4),
              "Data2 (n=100, d=1000, k=3)": (make_hsic_nonadditive, 100, 1000, 3)}
    methods = {"SpAM": SpAM, "FVM": FVM, "HSIC Lasso": HSICLasso, "NOCCO Lasso": NOCCOLasso}
    Xw, yw, _ = make_hsic_additive(n_samples=50, n_features=10, random_state=0)
    print("time per fit (seed 004 Figure 1 sizes; fraction of true features selected)")
    for data, (maker, n, d, k) in makers.items():
        X, y, support = maker(n_samples=n, n_features=d, random_state=0)
        cells = []
        for name, cls in methods.items():
            cls(2).fit(Xw, yw)  # warm-up (imports, BLAS)
            t0 = time.perf_counter()
            sel = cls(k).fit(X, y)
            cells.append(f"{name} {time.perf_counter() - t0:6.2f} s ({_fraction(sel, support):.2f})")
        print(f"  {data}: " + "  ".join(cells), flush=True)

    from featsieve.datasets import load_scikit_feature
    from featsieve.genetic import FSSDS

    X, y = load_scikit_feature("colon", return_X_y=True)
    X, y = X.to_numpy(float), np.unique(y.to_numpy(), return_inverse=True)[1]
    t0 = time.perf_counter()
    sel = FSSDS(sizes=[10], n_agents=20, n_iterations=10, scoring="f1_macro",
                random_state=0).fit(X, y)
    sec = time.perf_counter() - t0
    per = sec / max(sel.n_evaluations_, 1)
    print(f"  FS-SDS on colon (62 x 2000), k = 10, 20 agents x 10 iterations: {sec:.2f} s, "
          f"{sel.n_evaluations_} fits ({1000 * per:.1f} ms per ELM fit); the seed's budget "
          f"(30,000 per k, k = 1..20) would take about {per * 600_000 / 3600:.1f} h",
          flush=True)


def _test_auf(front_cols, model, Xf, yf, Xte, yte):
    from sklearn.base import clone

    from featsieve.evaluation import area_under_front
    from featsieve.genetic import f1_from_labels

    n_classes = int(max(yf.max(), yte.max())) + 1
    pairs = []
    for size, cols in front_cols.items():
        m = clone(model).fit(Xf[:, cols], yf)
        pairs.append((size, f1_from_labels(yte, m.predict(Xte[:, cols]), n_classes, "macro")))
    return area_under_front(pairs, 20)


def run_auf(datasets, seeds, agents, iterations, n_jobs):
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier

    from featsieve._elm import ELMClassifier
    from featsieve.datasets import load_scikit_feature
    from featsieve.genetic import FASTENER, FSSDS

    print(f"\nFS-SDS (ELM, k = 1..20, {agents} agents x {iterations} iterations per k) beside "
          "FASTENER (tree, the same number of fits); AUF of macro F1, K = 20")
    for name in datasets:
        X, y = load_scikit_feature(name, return_X_y=True)
        X, y = X.to_numpy(float), np.unique(y.to_numpy(), return_inverse=True)[1]
        print(f"{name}: {X.shape[0]} x {X.shape[1]}, {len(np.unique(y))} classes", flush=True)
        rows = []
        for seed in seeds:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y,
                                                  random_state=seed)
            Xf, Xv, yf, yv = train_test_split(Xtr, ytr, test_size=0.2, stratify=ytr,
                                              random_state=seed)
            elm = ELMClassifier(random_state=seed)
            tree = DecisionTreeClassifier(random_state=seed)
            t0 = time.perf_counter()
            sds = FSSDS(elm, sizes=20, n_agents=agents, n_iterations=iterations,
                        scoring="f1_macro", random_state=seed, n_jobs=n_jobs).fit(
                Xf, yf, X_val=Xv, y_val=yv)
            t_sds = time.perf_counter() - t0
            t0 = time.perf_counter()
            fas = FASTENER(tree, n_generations=100_000, max_evaluations=sds.n_evaluations_,
                           scoring="f1_macro", random_state=seed, n_jobs=n_jobs).fit(
                Xf, yf, X_val=Xv, y_val=yv)
            t_fas = time.perf_counter() - t0
            row = {
                "seed": seed,
                "auf_val_fssds": sds.auf_, "auf_val_fastener": fas.auf_,
                "auf_test_fssds": _test_auf({r.size: list(r.columns) for r in
                                             sds.pareto_front_.itertuples()}, elm, Xf, yf,
                                            Xte, yte),
                "auf_test_fastener": _test_auf({r.size: list(r.columns) for r in
                                                fas.pareto_front_.itertuples()}, tree, Xf,
                                               yf, Xte, yte),
                "evals_fssds": sds.n_evaluations_,
                "proposals_fssds": int(sds.best_per_size_["n_proposals"].sum()),
                "evals_fastener": fas.n_evaluations_,
                "sec_fssds": t_sds, "sec_fastener": t_fas,
            }
            rows.append(row)
            print("  " + "  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                   for k, v in row.items()), flush=True)
        m = {k: np.mean([r[k] for r in rows]) for k in rows[0] if k != "seed"}
        print(f"  mean over {len(rows)} splits: AUF(val) FS-SDS {m['auf_val_fssds']:.3f} vs "
              f"FASTENER {m['auf_val_fastener']:.3f}; AUF(test) FS-SDS "
              f"{m['auf_test_fssds']:.3f} vs FASTENER {m['auf_test_fastener']:.3f}; fits "
              f"{m['evals_fssds']:.0f} vs {m['evals_fastener']:.0f} (FS-SDS proposals "
              f"{m['proposals_fssds']:.0f})", flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", choices=["time", "auf", "all"], default="all")
    p.add_argument("--datasets", nargs="+", default=["colon", "lung_discrete"])
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    p.add_argument("--agents", type=int, default=10)
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--n-jobs", type=int, default=None)
    a = p.parse_args(argv)
    warnings.simplefilter("ignore", UserWarning)
    if a.part in ("time", "all"):
        run_time()
    if a.part in ("auf", "all"):
        run_auf(a.datasets, a.seeds, a.agents, a.iterations, a.n_jobs)


if __name__ == "__main__":
    main()
