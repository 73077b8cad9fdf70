"""What "training-free" buys: GBMO's whole elimination path against RFE and backward SFS.

One run on Residential Building (372 x 103, construction cost, min-max scaled
as in ``featsieve reproduce gbmo``) with LightGBM, split by the honest
protocol (seed 000 §4.2): GBMO fits on train (45%) and masks on
selection-validation (30%); RFE and SequentialFeatureSelector fit on both
(75%). Measured in the same run:

- GBMO (seed 000 Algorithms 1-2) with ``slack=inf``: the whole path, 102
  eliminations, from one model fit; by default the masked copies are
  evaluated by featsieve's tree kernel (only the trees that split on the
  masked column are re-descended); then with ``tree_kernel=False``, the |J|
  masked copies of each iteration predicted by LightGBM in one batched call
  (copies that mask a column no tree splits on are not predicted:
  ``skip_unused``), again without the skipping, and again with
  ``batch_size=1`` (one call per candidate, the naive loop). Every variant
  must give the same path;
- scikit-learn ``RFE(step=1)`` down to one feature: the same 102
  eliminations, one fit each;
- scikit-learn ``SequentialFeatureSelector(direction="backward")`` down to
  M/4 features (5-fold CV for every candidate).

Fits are counted by a LightGBM subclass, prediction calls by GBMO itself.
Prints a table and the ratios. Usage::

    python benchmarks/bench_gbmo.py [--model table3|default] [--skip-sfs]

``table3`` (default) is one point of seed 000's Table 3 grid (20 trees of 7
leaves), the model of the paper's experiments; ``default`` is LightGBM's
100 trees of 31 leaves.
"""

from __future__ import annotations

import argparse
import time
import warnings

import lightgbm as lgb
import numpy as np
from sklearn.feature_selection import RFE, SequentialFeatureSelector

from featsieve.datasets import load_residential_building
from featsieve.mask import GBMO
from featsieve.protocol import honest_split

FITS = {"n": 0}


class CountingLGBMRegressor(lgb.LGBMRegressor):
    """LGBMRegressor that counts its fits (clones share the counter)."""

    def fit(self, X, y, **kw):
        FITS["n"] += 1
        return super().fit(X, y, **kw)


PARAMS = {
    "table3": {"num_leaves": 7, "learning_rate": 0.05, "n_estimators": 20, "subsample": 0.8,
               "colsample_bytree": 0.8, "min_child_samples": 5},
    "default": {},
}


def _model(kind):
    return CountingLGBMRegressor(random_state=0, n_jobs=1, verbose=-1, **PARAMS[kind])


def _timed(fn):
    """Run ``fn``; return its result, CPU seconds of this process, wall seconds and fits.

    CPU time is the fairer clock on a shared machine (everything here runs on one
    thread); wall time is printed beside it.
    """
    FITS["n"] = 0
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - t0, FITS["n"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=sorted(PARAMS), default="table3")
    ap.add_argument("--skip-sfs", action="store_true", help="Skip the (slow) backward SFS.")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    X, y = load_residential_building(return_X_y=True)
    X, y = X.to_numpy(float), y.to_numpy(float)
    split = honest_split(y, "regression", random_state=args.seed)
    fit = split.fit
    lo, hi = X[fit].min(axis=0), X[fit].max(axis=0)
    X = (X - lo) / np.where(hi > lo, hi - lo, 1.0)
    y = (y - y[fit].min()) / (y[fit].max() - y[fit].min())
    M = X.shape[1]
    tr, sv = split.train, split.selection_val

    rows = []

    def gbmo(**kw):
        return GBMO(_model(args.model), slack=np.inf, **kw).fit(X[tr], y[tr], X_val=X[sv],
                                                                  y_val=y[sv])

    # the tree kernel is compiled by numba on first use (cached on disk afterwards)
    _, t_compile, _, _ = _timed(lambda: gbmo())
    gb, t_gbmo, w_gbmo, f_gbmo = _timed(gbmo)
    n_elim = len(gb.path_["index"])
    assert gb.tree_kernel_
    rows.append(("GBMO full path (tree kernel, default)", n_elim, f_gbmo, gb.n_predict_calls_,
                 t_gbmo, w_gbmo))
    bm, t_batch, w_batch, f_batch = _timed(lambda: gbmo(tree_kernel=False))
    rows.append(("GBMO full path (model predict, batched)", n_elim, f_batch,
                 bm.n_predict_calls_, t_batch, w_batch))
    ns, t_noskip, w_noskip, f_noskip = _timed(lambda: gbmo(tree_kernel=False, skip_unused=False))
    rows.append(("  ... and skip_unused=False", n_elim, f_noskip,
                 ns.n_predict_calls_, t_noskip, w_noskip))
    nv, t_naive, w_naive, f_naive = _timed(lambda: gbmo(tree_kernel=False, batch_size=1,
                                                        skip_unused=False))
    rows.append(("GBMO full path (one model call per candidate)", n_elim, f_naive,
                 nv.n_predict_calls_, t_naive, w_naive))
    for other in (bm, ns, nv):  # the same path, only the work differs
        assert np.array_equal(other.path_["index"], gb.path_["index"])
        assert np.allclose(other.path_["loss"], gb.path_["loss"], rtol=1e-12, atol=0)
    rfe, t_rfe, w_rfe, f_rfe = _timed(lambda: RFE(_model(args.model), n_features_to_select=1, step=1)
                               .fit(X[fit], y[fit]))
    rows.append(("RFE step=1 to 1 feature", M - 1, f_rfe, None, t_rfe, w_rfe))
    t_sfs = f_sfs = None
    if not args.skip_sfs:
        k = M // 4
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, t_sfs, w_sfs, f_sfs = _timed(lambda: SequentialFeatureSelector(
                _model(args.model), n_features_to_select=k, direction="backward", cv=5,
                scoring="neg_mean_squared_error").fit(X[fit], y[fit]))
        rows.append((f"SFS backward to M/4 = {k} (5-fold)", M - k, f_sfs, None, t_sfs, w_sfs))

    print(f"Residential Building {X.shape[0]} x {M}, LightGBM ({args.model}: "
          f"{PARAMS[args.model] or 'library defaults'}), seed {args.seed}")
    print(f"train {len(tr)} / selection-val {len(sv)} rows (GBMO); RFE and SFS fit on {len(fit)}")
    head = (f"{'method':<46}{'eliminations':>13}{'fits':>8}{'predict calls':>15}"
            f"{'CPU s':>9}{'wall s':>9}")
    print(head)
    print("-" * len(head))
    for name, e, f, p, t, w in rows:
        print(f"{name:<46}{e:>13}{f:>8}{'-' if p is None else p:>15}{t:>9.2f}{w:>9.2f}")
    print()
    print("ratios are of CPU seconds")
    print(f"RFE / GBMO at the same {n_elim} eliminations: time x{t_rfe / t_gbmo:.1f}, "
          f"fits x{f_rfe / max(f_gbmo, 1):.0f} ({f_rfe} vs {f_gbmo})")
    if t_sfs is not None:
        print(f"SFS backward (to M/4, {M - M // 4} eliminations) / GBMO full path: "
              f"time x{t_sfs / t_gbmo:.0f}, fits x{f_sfs / max(f_gbmo, 1):.0f} "
              f"({f_sfs} vs {f_gbmo})")
    print(f"RFE / GBMO through the model's predict (tree_kernel=False): time "
          f"x{t_rfe / t_batch:.1f}")
    print(f"GBMO model prediction calls: batched {bm.n_predict_calls_} vs one per candidate "
          f"{nv.n_predict_calls_} (x{nv.n_predict_calls_ / bm.n_predict_calls_:.0f} fewer), "
          f"time x{t_naive / t_batch:.1f}; masked copies predicted {bm.n_copies_predicted_} of "
          f"{bm.n_candidates_evaluated_} (skip_unused), without skip_unused time "
          f"x{t_noskip / t_batch:.1f}")
    print(f"tree kernel: {gb.n_predict_calls_} model calls (the unmasked rows and near-ties), "
          f"x{t_batch / t_gbmo:.1f} faster than batched model predictions, same path and "
          f"losses; first call {t_compile:.1f} s CPU with numba compilation (cached on disk)")
    print(f"GBMO's whole path costs as much CPU as {t_gbmo / (t_rfe / f_rfe):.1f} of RFE's "
          f"{f_rfe} LightGBM fits")


if __name__ == "__main__":
    main()
