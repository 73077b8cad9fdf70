"""FASTENER at Earth-observation scale, and against the reference implementation.

Parts (``--part``; ``all`` runs eo and ref):

eo
    A synthetic EO-sized table (``featsieve.datasets.make_eo_synthetic``:
    480,000 rows x 182 features, 24 balanced classes, 30 informative columns)
    and FASTENER with a budget of 1000 model evaluations. Prints wall time,
    peak resident memory, evaluations per second, the front and how many of its
    columns are truly informative. Per-generation progress goes to stderr
    (``logging``) so a long run can be followed.

ref
    On a mid-size scikit-feature set (Isolet by default, 1560 x 617, 26
    classes), featsieve's FASTENER and the PyPI reference ``fastener`` (1.0.4)
    with the same evaluation budget, the same split (80:20 stratified
    train/test, then 80:20 of train into fit/selection-val), the same model (a
    fully grown decision tree, ``random_state=0``), the same score (macro F1 on
    the selection-val rows), the same initial item ({feature 0}), pool size 3,
    reset/purge every 5 generations. Prints AUF on selection-val (what both
    optimized), AUF on the untouched test rows (each front item refit on the
    fit part), wall time, and the ratios ours/reference; the summary gives the
    paired differences with wins/ties/losses over the splits. Each side uses
    its own MI estimate (scikit-learn's ``mutual_info_classif`` on the fit
    rows in both). ``--with-option`` also runs ``max_bucket_size=3`` (the
    reference's bucket size; the seed prefers 2).

eo-ref
    FASTENER against the reference ``fastener`` 1.0.4 on the same EO-sized
    table (480,000 rows, halved into fit and selection-val parts as in the
    seed's §5.1 EO protocol) with the seed's full-depth tree, a budget of
    ``--ref-evals`` evaluations each (200 by the issue), both on one core
    (``n_jobs=1``: the reference evaluates serially) and, to isolate the search
    as ``ref-search`` does, the same mutual-information weights given to both
    (scikit-learn's ``mutual_info_classif`` on 20,000 seeded fit rows, our
    ``weights_max_samples`` default; the reference would estimate them on all
    240,000 rows, which alone takes minutes). Prints each side's wall time,
    the ratio, evaluations and AUF on selection-val.

kernel
    The tree every EO evaluation grows, two ways on the same fit part of the
    EO-sized table (half its rows): featsieve's presorted CART kernel
    (``featsieve._cart.PresortedCART``, what FASTENER, POSS and DT-forward use
    for a plain Gini tree; the one-off argsort of the columns timed apart) and
    scikit-learn's ``DecisionTreeClassifier``, at item sizes 1, 5, 20 and 60
    columns. Prints each fit's seconds, the ratio, node counts and the share
    of selection-val rows on which the two trees predict the same class (they
    differ only where two splits tie exactly), beside the same share between two
    scikit-learn trees that differ only in ``random_state`` (its tie-breaking),
    and each tree's accuracy on those rows.

eo-estimate
    Before the EO run: times the tree at a few item sizes on the full-size
    parts and projects the wall time of the budget from the item sizes of the
    same run on a 2% row sample (a fully grown tree on 240,000 rows takes
    seconds to tens of seconds per fit, so 1000 evaluations can take hours).

Usage::

    python benchmarks/bench_fastener.py --part ref --seeds 0 1 2 3 4 5 6 7 8 9
    python benchmarks/bench_fastener.py --part kernel         # ~ 4 minutes
    python benchmarks/bench_fastener.py --part eo-estimate    # ~ 3 minutes
    python benchmarks/bench_fastener.py --part eo             # the full EO run
    python benchmarks/bench_fastener.py --part eo-ref --ref-evals 200   # vs fastener 1.0.4
    python benchmarks/bench_fastener.py --part eo --rows 48000 --evals 200   # smaller

Needs ``pip install fastener`` for the ``ref`` part (it is skipped with a
message otherwise) and the scikit-feature sets in ``../shared/datasets`` (or
``$FEATSIEVE_DATA``).
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import resource
import sys
import tempfile
import time

import numpy as np

from featsieve.evaluation import area_under_front
from featsieve.genetic import FASTENER


def _peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2


def _tree(max_depth=None, min_samples_leaf=1):
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=0, max_depth=max_depth,
                                  min_samples_leaf=min_samples_leaf)


# ------------------------------------------------------------------- EO part
def run_eo(rows, evals, n_jobs, max_depth, min_samples_leaf, seed):
    from featsieve.datasets._eo import make_eo_synthetic

    t0 = time.perf_counter()
    X, y, support = make_eo_synthetic(n_samples=rows, random_state=seed)
    t_gen = time.perf_counter() - t0
    rss_data = _peak_rss_gb()
    print(f"EO table {X.shape[0]:,} x {X.shape[1]} ({X.dtype}, {X.nbytes / 1e9:.2f} GB), "
          f"{len(np.unique(y))} classes, {support.sum()} informative; generated in "
          f"{t_gen:.1f} s; peak RSS so far {rss_data:.2f} GB", flush=True)
    sel = FASTENER(_tree(max_depth, min_samples_leaf), n_generations=100_000,
                   max_evaluations=evals, validation_fraction=0.5, random_state=seed,
                   n_jobs=n_jobs)
    t0 = time.perf_counter()
    sel.fit(X, y)
    wall = time.perf_counter() - t0
    peak = _peak_rss_gb()
    print(f"FASTENER: {sel.n_evaluations_} evaluations in {len(sel.history_) - 1} generations, "
          f"wall {wall:.1f} s, {sel.n_evaluations_ / wall:.3f} evaluations/s, "
          f"peak RSS {peak:.2f} GB (data alone {rss_data:.2f} GB), cache hits "
          f"{sel.n_cache_hits_}, AUF(K=20) {sel.auf_:.4f}")
    print("front (size, macro F1 on selection-val, informative columns in the item):")
    for r in sel.pareto_front_.itertuples():
        print(f"  {r.size:3d}  {r.score:.4f}  {int(support[list(r.columns)].sum())}/{r.size}")
    return {"wall": wall, "evals": sel.n_evaluations_, "peak_gb": peak, "auf": sel.auf_}


def estimate_eo(rows, evals, n_jobs, max_depth, min_samples_leaf, seed):
    """Projected wall time of the EO run before running it.

    Times one fit + prediction of the tree at a few item sizes on the full-size
    parts (the sizes a run meets), takes the sizes of the items a FASTENER run
    evaluates from the same run on a 2% row sample (same generator, same seed),
    and sums the interpolated per-item times over the budget, divided by
    ``n_jobs`` (evaluations of a generation run in parallel).
    """
    from featsieve.datasets._eo import make_eo_synthetic
    from featsieve.genetic._evaluator import gather_rows

    X, y, _ = make_eo_synthetic(n_samples=rows, random_state=seed)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(y))
    tr, va = perm[: len(y) // 2], perm[len(y) // 2:]
    Xtr, Xva = gather_rows(X, tr, np.float32), gather_rows(X, va, np.float32)
    ks, secs = [1, 2, 5, 10, 20, 30], []
    for k in ks:
        cols = np.sort(rng.choice(X.shape[1], k, replace=False))
        t0 = time.perf_counter()
        _tree(max_depth, min_samples_leaf).fit(Xtr[:, cols], y[tr]).predict(Xva[:, cols])
        secs.append(time.perf_counter() - t0)
        print(f"  {k:3d} features: fit + predict {secs[-1]:.1f} s", flush=True)
    sizes = []

    class _Sized(type(_tree())):  # records the item size of every evaluation
        def fit(self, X, y, **kw):
            sizes.append(X.shape[1])
            return super().fit(X, y, **kw)

    small = max(2400, rows // 50)
    Xs, ys, _ = make_eo_synthetic(n_samples=small, random_state=seed)
    FASTENER(_Sized(random_state=0, max_depth=max_depth, min_samples_leaf=min_samples_leaf),
             n_generations=100_000, max_evaluations=evals, validation_fraction=0.5,
             random_state=seed).fit(Xs, ys)
    sizes = np.array(sizes)
    per_item = np.interp(sizes, ks, secs)
    big = sizes > ks[-1]
    per_item[big] = secs[-1] * sizes[big] / ks[-1]
    cum = np.cumsum(per_item) / max(1, n_jobs)
    print(f"item sizes over {len(sizes)} evaluations (from {small} rows): mean "
          f"{sizes.mean():.1f}, median {np.median(sizes):.0f}, 90% {np.percentile(sizes, 90):.0f}")
    for n in sorted({100, 200, 300, 400, 500, 750, evals} & set(range(1, len(sizes) + 1))):
        print(f"  projected wall for {n:4d} evaluations on {n_jobs} cores: "
              f"{cum[n - 1] / 60:.0f} min")
    return cum


# ------------------------------------------------------------ reference part
class _Budget(Exception):
    pass


_DATA = {}


class _Counted:
    """Counts the reference's model evaluations and stops it at the budget."""

    def __init__(self, inner, budget):
        self.inner, self.budget, self.count = inner, budget, 0

    def __call__(self, genes):
        if self.count >= self.budget:
            raise _Budget
        self.count += 1
        return self.inner(genes)


def _ref_eval(model, genes, shuffle_indices=None):
    """Evaluation function in the reference's API (module level: it pickles)."""
    from fastener.item import Result
    from sklearn.metrics import f1_score

    Xv, yv = _DATA["X_val"], _DATA["y_val"]
    test = Xv[:, genes]
    if shuffle_indices:
        test = test.copy()
        for j in shuffle_indices:
            _DATA["rng"].shuffle(test[:, j])
    return Result(f1_score(yv, model.predict(test), average="macro"))


class _FixedGain:
    """Stands in for the reference's MI call with precomputed weights (picklable)."""

    def __init__(self, w):
        self.w = np.asarray(w)

    def __call__(self, X, y):
        return self.w


def run_reference(X_fit, y_fit, X_val, y_val, budget, seed, weights=None):
    from fastener import fastener as ref
    from fastener.item import (
        IntersectionMatingWithWeightedRandomInformationGain,
        RandomEveryoneWithEveryone,
        RandomFlipMutationStrategy,
    )
    from sklearn.tree import DecisionTreeClassifier

    _DATA.update(X_val=X_val, y_val=y_val, rng=np.random.RandomState(seed))
    n = X_fit.shape[1]
    mating = RandomEveryoneWithEveryone(
        pool_size=3, mating_strategy=IntersectionMatingWithWeightedRandomInformationGain())
    if weights is not None:
        mating.mating_strategy.informationGainAlgorithm = _FixedGain(weights)
    old = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the reference writes log/<folder>/generation_*.pickle
        try:
            t0 = time.perf_counter()
            opt = ref.EntropyOptimizer(
                functools.partial(DecisionTreeClassifier, random_state=0), X_fit, y_fit,
                _ref_eval, n, mating, RandomFlipMutationStrategy(1 / n), initial_genes=[[0]],
                config=ref.Config(output_folder=f"run{seed}", random_seed=seed,
                                  number_of_rounds=100_000, reset_to_pareto_rounds=5))
            counted = _Counted(opt._fitness_function, budget)
            opt._fitness_function = counted
            import contextlib
            import io

            with contextlib.redirect_stdout(io.StringIO()):  # it prints every round
                try:
                    opt.mainloop()
                except _Budget:
                    pass
            wall = time.perf_counter() - t0
        finally:
            os.chdir(old)
    front = {k: it.result.score for k, it in opt.pareto_front.items()}
    cols = {k: list(np.flatnonzero(it.genes)) for k, it in opt.pareto_front.items()}
    return front, cols, wall, counted.count


def _test_auf(cols_by_size, X_fit, y_fit, X_test, y_test):
    from sklearn.metrics import f1_score

    out = {}
    for k, cols in cols_by_size.items():
        if not cols:
            continue
        m = _tree().fit(X_fit[:, cols], y_fit)
        out[k] = f1_score(y_test, m.predict(X_test[:, cols]), average="macro")
    return area_under_front(out)


def _paired(df, a, b):
    """Mean paired difference, its sd, and wins/ties/losses of column a against b."""
    d = df[a] - df[b]
    return (f"paired difference {d.mean():+.4f} (sd {d.std():.4f}, se {d.std() / len(d) ** 0.5:.4f}), "
            f"wins/ties/losses {(d > 0).sum()}/{(d == 0).sum()}/{(d < 0).sum()}")


def _reference_data(dataset):
    """``(X, y)`` of a scikit-feature set with integer classes, or None without ``fastener``."""
    try:
        import fastener  # noqa: F401
    except ImportError:
        print("reference part skipped: pip install fastener")
        return None
    from featsieve.datasets import load_scikit_feature

    X, y = load_scikit_feature(dataset, return_X_y=True)
    return X.to_numpy(dtype=np.float64), np.unique(y.to_numpy(), return_inverse=True)[1]


def run_ref(dataset, budget, n_jobs, seeds, with_option=False):
    data = _reference_data(dataset)
    if data is None:
        return None
    X, y = data
    from sklearn.model_selection import train_test_split

    print(f"{dataset}: {X.shape[0]} x {X.shape[1]}, {len(np.unique(y))} classes; budget "
          f"{budget} evaluations; n_jobs={n_jobs} for featsieve", flush=True)
    rows = []
    for seed in seeds:
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y,
                                              random_state=seed)
        Xf, Xv, yf, yv = train_test_split(Xtr, ytr, test_size=0.2, stratify=ytr,
                                          random_state=seed)
        t0 = time.perf_counter()
        ours = FASTENER(_tree(), n_generations=100_000, max_evaluations=budget,
                        scoring="f1_macro", initial="first", random_state=seed,
                        weights_max_samples=None, n_jobs=n_jobs).fit(Xf, yf, X_val=Xv,
                                                                     y_val=yv)
        t_ours = time.perf_counter() - t0
        ours_cols = {r.size: list(r.columns) for r in ours.pareto_front_.itertuples()}
        ref_front, ref_cols, t_ref, ref_evals = run_reference(Xf, yf, Xv, yv, budget, seed)
        row = {
            "seed": seed,
            "auf_val_ours": ours.auf_, "auf_val_ref": area_under_front(ref_front),
            "auf_test_ours": _test_auf(ours_cols, Xf, yf, Xte, yte),
            "auf_test_ref": _test_auf(ref_cols, Xf, yf, Xte, yte),
            "sec_ours": t_ours, "sec_ref": t_ref,
            "evals_ours": ours.n_evaluations_, "evals_ref": ref_evals,
        }
        if with_option:
            # buckets of 3 (the reference's default; the seed, §6.1, prefers 2 on its EO
            # data), end to end like the default
            tuned = FASTENER(_tree(), n_generations=100_000, max_evaluations=budget,
                             scoring="f1_macro", initial="first", random_state=seed,
                             weights_max_samples=None, max_bucket_size=3,
                             n_jobs=n_jobs).fit(Xf, yf, X_val=Xv, y_val=yv)
            tuned_cols = {r.size: list(r.columns) for r in tuned.pareto_front_.itertuples()}
            row["auf_val_tuned"] = tuned.auf_
            row["auf_test_tuned"] = _test_auf(tuned_cols, Xf, yf, Xte, yte)
        rows.append(row)
        print("  " + "  ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}"
                               for k, v in row.items()), flush=True)
    import pandas as pd

    df = pd.DataFrame(rows)
    m, sd = df.mean(numeric_only=True), df.std(numeric_only=True)
    print(f"\nend to end (each side its own MI estimate), mean over {len(df)} splits (sd):\n"
          f"  AUF(selection-val) ours {m.auf_val_ours:.4f} ({sd.auf_val_ours:.4f}) vs reference "
          f"{m.auf_val_ref:.4f} ({sd.auf_val_ref:.4f}), ratio "
          f"{m.auf_val_ours / m.auf_val_ref:.3f}; {_paired(df, 'auf_val_ours', 'auf_val_ref')}\n"
          f"  AUF(test) ours {m.auf_test_ours:.4f} vs reference {m.auf_test_ref:.4f}, ratio "
          f"{m.auf_test_ours / m.auf_test_ref:.3f}; "
          f"{_paired(df, 'auf_test_ours', 'auf_test_ref')}\n"
          f"  wall ours {m.sec_ours:.1f} s vs reference {m.sec_ref:.1f} s, ratio of means "
          f"{m.sec_ours / m.sec_ref:.3f} (per split: "
          f"{', '.join(f'{r:.2f}' for r in df.sec_ours / df.sec_ref)})")
    auf_met = m.auf_val_ours >= m.auf_val_ref
    wall_met = m.sec_ours <= 0.5 * m.sec_ref
    print(f"  issue 5 targets: AUF at least the reference's: {'met' if auf_met else 'NOT met'}; "
          f"wall at most half the reference's: {'met' if wall_met else 'NOT met'}")
    if with_option:
        print(f"  option max_bucket_size=3: AUF(selection-val) {m.auf_val_tuned:.4f} "
              f"(ratio {m.auf_val_tuned / m.auf_val_ref:.3f}), AUF(test) "
              f"{m.auf_test_tuned:.4f} (ratio {m.auf_test_tuned / m.auf_test_ref:.3f})")
    return df


def run_ref_search(dataset, budget, n_jobs, seeds):
    """Search only: MI computed once per split and given to both, so the AUF
    difference is the search's, over many splits; time excludes the MI estimate."""
    data = _reference_data(dataset)
    if data is None:
        return None
    X, y = data
    import pandas as pd
    from sklearn.feature_selection import mutual_info_classif
    from sklearn.model_selection import train_test_split
    from threadpoolctl import threadpool_limits

    print(f"{dataset}, search only (shared MI), budget {budget}, {len(seeds)} splits",
          flush=True)
    rows = []
    for seed in seeds:
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, stratify=y,
                                              random_state=seed)
        Xf, Xv, yf, yv = train_test_split(Xtr, ytr, test_size=0.2, stratify=ytr,
                                          random_state=seed)
        with threadpool_limits(1):
            w = mutual_info_classif(Xf, yf, random_state=seed)
        t0 = time.perf_counter()
        ours = FASTENER(_tree(), n_generations=100_000, max_evaluations=budget,
                        scoring="f1_macro", initial="first", random_state=seed, weights=w,
                        n_jobs=n_jobs).fit(Xf, yf, X_val=Xv, y_val=yv)
        t_ours = time.perf_counter() - t0
        ours_cols = {r.size: list(r.columns) for r in ours.pareto_front_.itertuples()}
        ref_front, ref_cols, t_ref, _ = run_reference(Xf, yf, Xv, yv, budget, seed, weights=w)
        row = {"seed": seed, "auf_val_ours": ours.auf_, "auf_val_ref": area_under_front(ref_front),
               "auf_test_ours": _test_auf(ours_cols, Xf, yf, Xte, yte),
               "auf_test_ref": _test_auf(ref_cols, Xf, yf, Xte, yte),
               "sec_ours": t_ours, "sec_ref": t_ref}
        rows.append(row)
        print("  " + "  ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}"
                               for k, v in row.items()), flush=True)
    df = pd.DataFrame(rows)
    m, sd = df.mean(numeric_only=True), df.std(numeric_only=True)
    d_val = df.auf_val_ours - df.auf_val_ref
    d_test = df.auf_test_ours - df.auf_test_ref
    print(f"\nmean over {len(df)} splits (sd): AUF(selection-val) ours {m.auf_val_ours:.4f} "
          f"({sd.auf_val_ours:.4f}) vs reference {m.auf_val_ref:.4f} ({sd.auf_val_ref:.4f}); "
          f"paired difference {d_val.mean():+.4f} (sd {d_val.std():.4f}); AUF(test) ours "
          f"{m.auf_test_ours:.4f} vs reference {m.auf_test_ref:.4f}, paired difference "
          f"{d_test.mean():+.4f} (sd {d_test.std():.4f}); search wall ours {m.sec_ours:.1f} s "
          f"vs reference {m.sec_ref:.1f} s (ratio {m.sec_ours / m.sec_ref:.3f})")
    return df


def run_eo_ref(rows, budget, seed):
    """Ours and the reference, one core each, on the EO-sized table (see ``eo-ref``)."""
    try:
        import fastener  # noqa: F401
    except ImportError:
        print("eo-ref part skipped: pip install fastener")
        return None
    from sklearn.feature_selection import mutual_info_classif

    from featsieve.datasets._eo import make_eo_synthetic
    from featsieve.genetic._evaluator import gather_rows

    X, y, support = make_eo_synthetic(n_samples=rows, random_state=seed)
    perm = np.random.default_rng(seed).permutation(len(y))
    fit, val = np.sort(perm[: len(y) // 2]), np.sort(perm[len(y) // 2:])
    Xf, Xv = gather_rows(X, fit, np.float32), gather_rows(X, val, np.float32)
    yf, yv = y[fit], y[val]
    sub = np.sort(np.random.default_rng(seed).choice(len(yf), min(20_000, len(yf)),
                                                      replace=False))
    t0 = time.perf_counter()
    w = mutual_info_classif(Xf[sub], yf[sub], random_state=seed)
    print(f"EO table {X.shape[0]:,} x {X.shape[1]}, {len(np.unique(y))} classes; MI weights "
          f"on {len(sub):,} fit rows in {time.perf_counter() - t0:.1f} s (shared, not timed "
          f"below); budget {budget} evaluations each, one core each", flush=True)
    t0 = time.perf_counter()
    ours = FASTENER(_tree(), n_generations=100_000, max_evaluations=budget,
                    scoring="f1_macro", initial="first", random_state=seed, weights=w,
                    n_jobs=1).fit(Xf, yf, X_val=Xv, y_val=yv)
    t_ours = time.perf_counter() - t0
    print(f"  featsieve FASTENER: {ours.n_evaluations_} evaluations, wall {t_ours:.1f} s, "
          f"AUF(selection-val) {ours.auf_:.4f}, peak RSS {_peak_rss_gb():.2f} GB", flush=True)
    front, _, t_ref, evals = run_reference(Xf, yf, Xv, yv, budget, seed, weights=w)
    print(f"  fastener 1.0.4:     {evals} evaluations, wall {t_ref:.1f} s, AUF(selection-val) "
          f"{area_under_front(front):.4f}, peak RSS {_peak_rss_gb():.2f} GB")
    print(f"  wall ours / reference: {t_ours / t_ref:.3f}")
    return {"ours": t_ours, "ref": t_ref}


# ------------------------------------------------------------------ kernel part
def run_kernel(rows, seed, sizes=(1, 5, 20, 60)):
    from sklearn.tree import DecisionTreeClassifier

    from featsieve._cart import PresortedCART
    from featsieve.datasets._eo import make_eo_synthetic

    X, y, _ = make_eo_synthetic(n_samples=rows, random_state=seed)
    half = rows // 2
    X_fit, y_fit = np.asfortranarray(X[:half]), y[:half]
    X_val, y_val = X[half:], y[half:]
    t0 = time.perf_counter()
    cart = PresortedCART(X_fit, y_fit, DecisionTreeClassifier())
    t_bind = time.perf_counter() - t0
    cart.fit([0])  # the numba compile (cached on disk after the first run)
    print(f"fit part {half:,} x {X.shape[1]}, {len(np.unique(y))} classes; columns argsorted "
          f"once in {t_bind:.1f} s")
    print("columns  ours s  sklearn s  sklearn/ours  nodes ours/sklearn  same prediction "
          "(sklearn seeds 0/1)  accuracy ours/sklearn")
    rng = np.random.default_rng(seed)
    for m in sizes:
        cols = np.sort(rng.choice(X.shape[1], m, replace=False))
        t0 = time.perf_counter()
        tree = cart.fit(cols)
        t1 = time.perf_counter()
        sk = DecisionTreeClassifier(random_state=0).fit(X_fit[:, cols], y_fit)
        t2 = time.perf_counter()
        sk1 = DecisionTreeClassifier(random_state=1).fit(X_fit[:, cols], y_fit)
        p_ours, p_sk = tree.predict(X_val[:, cols]), sk.predict(X_val[:, cols])
        same = float(np.mean(p_ours == p_sk))
        same_sk = float(np.mean(sk1.predict(X_val[:, cols]) == p_sk))
        print(f"{m:7d}  {t1 - t0:6.2f}  {t2 - t1:9.2f}  {(t2 - t1) / (t1 - t0):12.1f}  "
              f"{tree.node_count:>8,}/{sk.tree_.node_count:<8,}  {same:.3f} ({same_sk:.3f})"
              f"  {np.mean(p_ours == y_val):.4f}/{np.mean(p_sk == y_val):.4f}", flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--part", choices=["eo", "eo-estimate", "eo-ref", "kernel", "ref",
                                      "ref-search", "all"],
                   default="all")
    p.add_argument("--rows", type=int, default=480_000)
    p.add_argument("--evals", type=int, default=1000)
    p.add_argument("--max-depth", type=int, default=None,
                   help="tree depth for the EO part (default: fully grown, the seed's tree)")
    p.add_argument("--min-samples-leaf", type=int, default=1)
    p.add_argument("--dataset", default="Isolet")
    p.add_argument("--ref-evals", type=int, default=1000)
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    p.add_argument("--n-jobs", type=int, default=2)
    p.add_argument("--with-option", action="store_true",
                   help="ref part: also run the max_bucket_size=3 option (the reference's "
                        "bucket size)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(message)s")
    if args.part in ("ref", "all"):
        logging.getLogger("featsieve.genetic").setLevel(logging.WARNING)
        run_ref(args.dataset, args.ref_evals, args.n_jobs, args.seeds, args.with_option)
    if args.part == "ref-search":
        logging.getLogger("featsieve.genetic").setLevel(logging.WARNING)
        run_ref_search(args.dataset, args.ref_evals, args.n_jobs, args.seeds)
    if args.part == "eo-ref":
        logging.getLogger("featsieve.genetic").setLevel(logging.WARNING)
        run_eo_ref(args.rows, args.ref_evals, args.seeds[0])
    if args.part == "kernel":
        run_kernel(args.rows, args.seeds[0])
    if args.part == "eo-estimate":
        logging.getLogger("featsieve.genetic").setLevel(logging.WARNING)
        estimate_eo(args.rows, args.evals, args.n_jobs, args.max_depth, args.min_samples_leaf,
                    args.seeds[0])
    if args.part in ("eo", "all"):
        logging.getLogger("featsieve.genetic").setLevel(logging.INFO)
        run_eo(args.rows, args.evals, args.n_jobs, args.max_depth, args.min_samples_leaf,
               args.seeds[0])


if __name__ == "__main__":
    main()
