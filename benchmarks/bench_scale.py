"""Tall and wide tables, and the ordinary ones: what ``featsieve compare`` costs by shape.

Parts (``--part``, several allowed; each unit runs in its own subprocess so that
its peak memory, ``ru_maxrss``, is its own):

- ``tables``: the default ``featsieve compare`` (size-aware method set) on
  digits (1,797 x 64), a 400 x 2,000 table (12 informative) and a
  Caravan-like 5,822 x 85 table (6% positives, integer codes): wall, CPU,
  peak memory, the methods it left out and each method's seconds.
- ``wall``: every registered method at n = 80, d = 20,000 (float32, 3 strong
  columns), built as ``compare`` builds it: it finishes (seconds, peak) or
  refuses up front (``ResourceError``, seconds to refuse); a 5-minute cap per
  method.
- ``tall``: 1,000,000 x 40 float32 classification (8 informative),
  ``compare`` with cc, mi, kbest, embedded, gbmo, flbmo, hsic-lasso, mrmr,
  fastener, rfe (one repeat), each method's seconds as a multiple of one
  LightGBM fit on the full table measured in the same process, and the peak.
- ``wide``: 120 x 100,000 float32 (3 strong columns), ``compare`` with cc, mi,
  kbest, hsic-lasso, mrmr, fastener, embedded, relieff: wall, peak, and whether
  each method's selection holds the strong columns.
- ``anchors``: mrmr-selection (pandas backend, ``mrmr_classif``) against our
  MRMR at d = 100,000 (K = 10); scikit-learn ``SelectKBest(mutual_info_classif)``
  against our ``mi`` filter at n = 1,000,000 (top-10 agreement printed); our
  RFE (``step="auto"``) at d = 20,000 against scikit-learn ``RFE(step=1)``
  timed at d = 2,000 (its d fits grow as d^2 in columns: 20,000 is
  extrapolated, stated).
- ``cluster``: ``compare`` (4 repeats) on a dask ``LocalCluster`` of 1 and
  of 2 worker processes: the speed-up from 1 to 2 workers.

The mRMR anchor needs ``pip install mrmr-selection`` (skipped, printed as nan,
without it). ``--scale s`` multiplies the row count of ``tall``/``anchors``' MI and the
column count of ``wide``/``wall``/``anchors``' mRMR and RFE (e.g. 0.1 for a
quick run). Everything runs under the caller's ``nice``; timings on a shared
machine are upper bounds. Usage::

    nice -n 19 python benchmarks/bench_scale.py --part tables wall --scale 1
    nice -n 19 python benchmarks/bench_scale.py --part tall --scale 0.1
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

HERE = os.path.dirname(os.path.abspath(__file__))

_PRELUDE = textwrap.dedent("""
    import json, resource, time, warnings
    import numpy as np
    warnings.simplefilter("ignore")
    def peak_gb():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    import threading
    _TREE = [0]
    def _sample_tree():  # the process and its workers: the sum of their resident sets
        try:
            import psutil
        except ImportError:
            return
        me = psutil.Process()
        while True:
            try:
                tot = sum(p.memory_info().rss for p in [me] + me.children(recursive=True))
                _TREE[0] = max(_TREE[0], tot)
            except psutil.Error:
                pass
            time.sleep(0.2)
    threading.Thread(target=_sample_tree, daemon=True).start()
    def tree_peak_gb():
        return _TREE[0] / 2**30
    def informative(n, d, k, seed=0, dtype=np.float32):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(n, d)).astype(dtype)
        w = rng.choice([-1.0, 1.0], size=k) * np.linspace(1.0, 0.5, k)
        y = (X[:, :k] @ w + 0.5 * rng.normal(size=n) > 0).astype(int)
        return X, y
""")


def _run(code: str, timeout: float | None = None) -> dict:
    """Run ``code`` (after the prelude) in a fresh interpreter; its last line is JSON."""
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(code)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"outcome": "timeout", "seconds": time.perf_counter() - start}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"outcome": "error", "error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(lines[-1])


# ------------------------------------------------------------------ tables
def _tables_data(tmp):
    import numpy as np
    import pandas as pd
    from sklearn.datasets import load_digits, make_classification

    out = {}
    X, y = load_digits(return_X_y=True)
    out["digits 1797x64"] = (X, y)
    X, y = make_classification(400, 2000, n_informative=12, n_redundant=0, random_state=0)
    out["synthetic 400x2000"] = (X, y)
    X, y = make_classification(5822, 85, n_informative=10, weights=[0.94], flip_y=0.03,
                               random_state=0)
    out["caravan-like 5822x85"] = (np.round(X * 2), y)
    paths = {}
    for name, (X, y) in out.items():
        df = pd.DataFrame(X, columns=[f"c{i}" for i in range(X.shape[1])])
        df["target"] = y
        path = os.path.join(tmp, name.split()[0] + ".csv")
        df.to_csv(path, index=False)
        paths[name] = path
    return paths


def part_tables(args):
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in _tables_data(tmp).items():
            js = os.path.join(tmp, "out.json")
            start = time.perf_counter()
            t0 = os.times()
            proc = subprocess.run([sys.executable, "-m", "featsieve", "compare", path, "-t",
                                   "target", "--n-jobs", "2", "--json", js],
                                  capture_output=True, text=True)
            t1 = os.times()
            wall = time.perf_counter() - start
            cpu = (t1.children_user - t0.children_user) + (t1.children_system -
                                                           t0.children_system)
            left = [ln.split("warning: ", 1)[1].split(":")[0] for ln in proc.stderr.splitlines()
                    if "left out" in ln]
            print(f"\n{name}: exit {proc.returncode}, wall {wall:.0f} s, CPU {cpu:.0f} s; "
                  f"left out: {', '.join(x.removeprefix('left out ') for x in left) or '-'}")
            if proc.returncode == 0:
                res = json.load(open(js))
                print("  " + ", ".join(f"{r['method']} {r['seconds']:.1f}s"
                                       for r in res["results"]))


# -------------------------------------------------------------------- wall
def part_wall(args):
    d = max(100, int(20_000 * args.scale))
    import featsieve

    print(f"\nevery method at n = 80, d = {d} (float32), 5-minute cap; budget "
          f"{os.environ.get('FEATSIEVE_MEMORY_GB', '2')} GB")
    for name in featsieve.methods("classification"):
        if name == "all":
            continue
        res = _run(f"""
            import featsieve
            from featsieve._registry import get_method, make_selector
            from featsieve._resources import ResourceError
            X, y = informative(80, {d}, 3)
            spec = get_method({name!r})
            sel = make_selector({name!r}, task="classification", random_state=0)
            sel.set_params(**spec.path_params_for(80, {d}))
            kw = {{"X_val": X[60:], "y_val": y[60:]}} if spec.uses_selection_val else {{}}
            Xf, yf = (X[:60], y[:60]) if spec.uses_selection_val else (X, y)
            t = time.perf_counter()
            try:
                sel.fit(Xf, yf, **kw)
                out = {{"outcome": "ok", "strong": int(sel.support_[:3].sum()),
                        "selected": int(sel.support_.sum())}}
            except ResourceError as e:
                out = {{"outcome": "refused", "message": str(e)[:160]}}
            out.update(seconds=time.perf_counter() - t, peak_gb=peak_gb())
            print(json.dumps(out))
        """, timeout=300)
        extra = (f"strong {res['strong']}/3 of {res['selected']}" if res.get("outcome") == "ok"
                 else res.get("message", res.get("error", "")))
        print(f"  {name:12s} {res['outcome']:8s} {res.get('seconds', float('nan')):7.1f} s "
              f"{res.get('peak_gb', float('nan')):5.2f} GB  {extra}", flush=True)


# -------------------------------------------------------------- tall, wide
_TALL = ["cc", "mi", "kbest", "embedded", "gbmo", "flbmo", "hsic-lasso", "mrmr", "fastener",
         "rfe"]
_WIDE = ["cc", "mi", "kbest", "hsic-lasso", "mrmr", "fastener", "embedded", "relieff"]


def part_tall(args):
    n = max(2000, int(1_000_000 * args.scale))
    res = _run(f"""
        import featsieve
        from featsieve.models import make_model
        X, y = informative({n}, 40, 8)
        t = time.perf_counter(); make_model("lightgbm", "classification", random_state=0).fit(X, y)
        lgbm = time.perf_counter() - t
        t = time.perf_counter()
        r = featsieve.compare(X, y, methods={_TALL!r}, n_repeats=1, n_jobs=2)
        total = time.perf_counter() - t
        print(json.dumps({{"lgbm": lgbm, "total": total, "peak_gb": peak_gb(),
                          "tree_gb": tree_peak_gb(),
                          "rows": [[x["method"], x["seconds"], x["n_selected"],
                                    x["test_score"], x["strategy"]] for x in r.rows]}}))
    """)
    print(f"\ntall {n:,} x 40 float32 (8 informative): one LightGBM fit {res.get('lgbm', 0):.1f} s")
    if "rows" not in res:
        print("  ", res)
        return
    print(f"  whole compare {res['total']:.0f} s = {res['total'] / res['lgbm']:.1f} LightGBM "
          f"fits; peak {res['peak_gb']:.2f} GB (main process), {res['tree_gb']:.2f} GB (with "
          f"its workers, sum of resident sets)")
    for m, s, k, acc, how in res["rows"]:
        print(f"  {m:12s} {s:8.1f} s  {s / res['lgbm']:6.1f} fits  {k:5.1f} columns  acc {acc:.3f}"
              + (f"  [{how}]" if how else ""))


def part_wide(args):
    d = max(1000, int(100_000 * args.scale))
    res = _run(f"""
        import featsieve
        rng = np.random.default_rng(0)
        X = rng.normal(size=(120, {d})).astype(np.float32)
        y = (X[:, 0] + X[:, 1] + X[:, 2] > 0).astype(int)
        t = time.perf_counter()
        r = featsieve.compare(X, y, methods={_WIDE!r}, n_jobs=2)
        total = time.perf_counter() - t
        print(json.dumps({{"total": total, "peak_gb": peak_gb(), "tree_gb": tree_peak_gb(),
                          "rows": [[x["method"], x["seconds"], x["n_selected"],
                                    sum(s in ("x0", "x1", "x2") for s in x["selected"])]
                                   for x in r.rows]}}))
    """)
    print(f"\nwide 120 x {d:,} float32 (strong: x0, x1, x2)")
    if "rows" not in res:
        print("  ", res)
        return
    print(f"  whole compare {res['total']:.0f} s; peak {res['peak_gb']:.2f} GB (main process), "
          f"{res['tree_gb']:.2f} GB (with its workers, sum of resident sets)")
    for m, s, k, strong in res["rows"]:
        print(f"  {m:12s} {s:8.1f} s  {k:6.1f} columns, strong {strong}/3")


# ----------------------------------------------------------------- anchors
def part_anchors(args):
    d = max(1000, int(100_000 * args.scale))
    res = _run(f"""
        import pandas as pd
        from featsieve.kernel import MRMR
        X, y = informative(120, {d}, 3)
        # ours with mrmr-selection's own criterion (FCQ: F-statistic over mean |r|)
        t = time.perf_counter(); ours = MRMR(10, dependence="f").fit(X, y)
        t_ours = time.perf_counter() - t
        try:
            from mrmr import mrmr_classif
            df = pd.DataFrame(X, columns=[f"x{{i}}" for i in range({d})])
            t = time.perf_counter()
            theirs = mrmr_classif(X=df, y=pd.Series(y), K=10, show_progress=False)
            t_theirs = time.perf_counter() - t
            agree = len(set(theirs) & {{f"x{{i}}" for i in np.flatnonzero(ours.support_)}})
        except ImportError:
            t_theirs, agree = float("nan"), -1
        except MemoryError:  # it allocates a d x d float64 redundancy table
            t_theirs, agree = float("inf"), -2
        print(json.dumps({{"ours": t_ours, "theirs": t_theirs, "agree": agree,
                          "strong": int(ours.support_[:3].sum())}}))
    """)
    if "error" in res:
        print(f"\nmRMR part failed: {res['error']}")
    if res.get("agree") == -2:
        print(f"\nmrmr-selection cannot run at d = {d:,}: it allocates a d x d float64 "
              f"redundancy table ({8 * d * d / 2**30:.1f} GiB)")
    print(f"\nmRMR (FCQ), 120 x {d:,}, K = 10: ours {res.get('ours', float('nan')):.1f} s, "
          f"mrmr-selection {res.get('theirs', float('nan')):.1f} s; common picks "
          f"{res.get('agree')}/10; ours holds {res.get('strong')}/3 strong")
    n = max(5000, int(1_000_000 * args.scale))
    res = _run(f"""
        from sklearn.feature_selection import SelectKBest, mutual_info_classif
        from featsieve.classic import UnivariateFilter
        X, y = informative({n}, 40, 8)
        t = time.perf_counter()
        sk = SelectKBest(mutual_info_classif, k=8).fit(X, y); t_sk = time.perf_counter() - t
        t = time.perf_counter()
        ours = UnivariateFilter("mi", n_features_to_select=8, random_state=0).fit(X, y)
        t_ours = time.perf_counter() - t
        a = set(np.argsort(-sk.scores_)[:8]); b = set(np.flatnonzero(ours.support_))
        print(json.dumps({{"sk": t_sk, "ours": t_ours, "agree": len(a & b)}}))
    """)
    if "error" in res:
        print(f"MI part failed: {res['error']}")
    print(f"MI, {n:,} x 40: SelectKBest(mutual_info_classif) {res.get('sk', float('nan')):.1f} s, "
          f"ours {res.get('ours', float('nan')):.1f} s; top-8 agreement {res.get('agree')}/8")
    d2 = max(1100, int(20_000 * args.scale))
    res = _run(f"""
        from sklearn.feature_selection import RFE
        from sklearn.tree import DecisionTreeClassifier
        from featsieve.classic import RFESelector
        X, y = informative(80, {d2}, 3)
        t = time.perf_counter()
        ours = RFESelector(n_features_to_select=10).fit(X, y); t_ours = time.perf_counter() - t
        small = {min(d2, 2000)}
        t = time.perf_counter()
        RFE(DecisionTreeClassifier(max_depth=6, random_state=0), n_features_to_select=10,
            step=1).fit(X[:, :small], y)
        t_sk = time.perf_counter() - t
        print(json.dumps({{"ours": t_ours, "fits": ours.n_model_fits_, "sk_small": t_sk,
                          "small": small, "strong": int(ours.support_[:3].sum())}}))
    """)
    if "error" in res:
        print(f"RFE part failed: {res['error']}")
    if "ours" in res:
        extrap = res["sk_small"] * (d2 / res["small"]) ** 2
        print(f"RFE, 80 x {d2:,}: ours (step auto) {res['ours']:.1f} s, {res['fits']} fits, "
              f"{res['strong']}/3 strong; scikit-learn RFE(step=1) {res['sk_small']:.1f} s at "
              f"d = {res['small']:,} (extrapolated to d = {d2:,}: ~{extrap:.0f} s)")


# ----------------------------------------------------------------- cluster
def part_cluster(args):
    """``compare`` over 4 repeats on a dask LocalCluster of 1, then 2 worker processes."""
    res = _run("""
        from distributed import Client, LocalCluster
        from joblib import parallel_config
        from featsieve.datasets import load_sonar
        from featsieve.evaluation import compare
        X, y = load_sonar(return_X_y=True)
        kw = dict(methods=["cc", "forward", "rfe"], estimator="lightgbm",
                  seeds=[0, 1, 2, 3])
        out = {}
        for workers in (1, 2):
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster):
                with parallel_config(backend="dask"):
                    compare(X, y, **dict(kw, seeds=[9]))  # warm the workers
                    t = time.perf_counter()
                    r = compare(X, y, **kw)
                    out[workers] = time.perf_counter() - t
        print(json.dumps({"w1": out[1], "w2": out[2]}))
    """)
    if "w1" in res:
        print(f"\ncompare, sonar, 4 repeats x (cc, forward, rfe), LightGBM: 1 worker "
              f"{res['w1']:.1f} s, 2 workers {res['w2']:.1f} s, speed-up "
              f"{res['w1'] / res['w2']:.2f}x")
    else:
        print(res)


PARTS = {"tables": part_tables, "wall": part_wall, "tall": part_tall, "wide": part_wide,
         "anchors": part_anchors, "cluster": part_cluster}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--part", nargs="+", choices=sorted(PARTS), default=["tables"])
    ap.add_argument("--scale", type=float, default=1.0)
    args = ap.parse_args()
    for p in args.part:
        PARTS[p](args)


if __name__ == "__main__":
    main()
