"""HSIC Lasso: featsieve against the reference package ``pyhsiclasso`` in the same run.

Every measurement runs in its own Python subprocess; the peak memory is the
operating system's account of that process (``resource.getrusage`` maxrss),
the time is the wall time of the fit alone (data generation and imports
excluded). Data2 of seed 004 (``Y = X1 exp(2 X2) + X3^2 + E``), regression,
3 features requested, ``n_jobs=-1`` on both sides.

    python benchmarks/bench_hsic.py            # the issue's sizes (several minutes)
    python benchmarks/bench_hsic.py --quick    # small sizes, for development
    python benchmarks/bench_hsic.py --no-reference   # ours only

Cases:
1. vanilla (B = 0), n = d = 1000: time, peak memory and selection, ours vs reference;
2. block B = 20, M = 3, n = d = 1000, on the reference's own permutations:
   identical selections over 10 seeds, time ratio, true features found;
3. Data2 n = d = 1000 vanilla, ours over 10 seeds: seeds finding all 3;
4. large: block n = 20,000, d = 1,000 (ours; the reference too with
   --large-reference, about 15 GB) and vanilla n = 100, d = 20,000 (both).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import time
import warnings


def _worker(spec: dict) -> dict:
    import resource

    from featsieve.datasets import make_hsic_nonadditive

    X, y, _ = make_hsic_nonadditive(n_samples=spec["n"], n_features=spec["d"],
                                    random_state=spec["seed"])
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    B, M = spec["B"], spec["M"]
    if spec["side"] == "ours":
        from featsieve.kernel import HSICLasso, pyhsiclasso_permutations

        perms = pyhsiclasso_permutations(spec["n"], M) if B else None
        t = time.perf_counter()
        sel = HSICLasso(3, block_size=B, n_permutations=M, permutations=perms,
                        n_jobs=-1).fit(X, y)
        secs = time.perf_counter() - t
        order = [int(j) for j in sel.selected_order_]
        extra = {"passes": sel.n_passes_, "gram_columns": sel.n_gram_columns_}
    else:
        from pyHSICLasso import HSICLasso as Ref

        ref = Ref()
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref.input(X, y)
            t = time.perf_counter()
            ref.regression(num_feat=3, B=B, M=M, n_jobs=-1)
            secs = time.perf_counter() - t
        order = [int(j) for j in ref.A]
        extra = {}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {**spec, "seconds": secs, "peak_mb": peak, "rss_before_fit_mb": rss0,
            "selected": order, "all_true": sorted(order) == [0, 1, 2], **extra}


def run_case(side, n, d, B=0, M=1, seed=0, timeout=3600):
    spec = {"side": side, "n": n, "d": d, "B": B, "M": M, "seed": seed}
    proc = subprocess.run([sys.executable, __file__, "--worker", json.dumps(spec)],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if proc.returncode != 0:
        return {**spec, "error": proc.stderr.strip().splitlines()[-1:] or ["killed"],
                "returncode": proc.returncode}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _fmt(r):
    if "error" in r:
        return f"{r['side']:>9} n={r['n']:>6} d={r['d']:>6} B={r['B']:>3} M={r['M']}: FAILED {r['error']}"
    return (f"{r['side']:>9} n={r['n']:>6} d={r['d']:>6} B={r['B']:>3} M={r['M']} seed={r['seed']}: "
            f"{r['seconds']:8.2f} s  peak {r['peak_mb']:8.0f} MB  selected {r['selected']}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--large-reference", action="store_true")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--skip", default="", help="comma list of cases to skip: 1,2,3,4")
    ap.add_argument("--json", help="write every measurement here")
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return 0
    skip = {s for s in args.skip.split(",") if s}
    ref = not args.no_reference
    n = d = 200 if args.quick else 1000
    seeds = 2 if args.quick else args.seeds
    rows = []
    print(f"bench_hsic: Data2, 3 features, n_jobs=-1, {os.cpu_count()} cores")

    if "1" not in skip:
        print(f"\n[1] vanilla HSIC Lasso n={n} d={d}")
        ours = run_case("ours", n, d)
        rows.append(ours)
        print(_fmt(ours))
        if ref:
            theirs = run_case("reference", n, d)
            rows.append(theirs)
            print(_fmt(theirs))
            if "error" not in theirs and "error" not in ours:
                print(f"    time ratio reference/ours: {theirs['seconds'] / ours['seconds']:.1f}x "
                      f"(goal >= 10x); peak memory ratio ours/reference: "
                      f"{ours['peak_mb'] / theirs['peak_mb']:.3f} (goal <= 0.1); "
                      f"same selection in the same order: {ours['selected'] == theirs['selected']}")

    if "2" not in skip:
        print(f"\n[2] block HSIC Lasso B=20 M=3 n={n} d={d}, {seeds} seeds, reference permutations")
        same, t_o, t_r, hit_o, hit_r = 0, [], [], 0, 0
        for s in range(seeds):
            o = run_case("ours", n, d, B=20, M=3, seed=s)
            rows.append(o)
            print(_fmt(o))
            t_o.append(o.get("seconds", float("nan")))
            hit_o += bool(o.get("all_true"))
            if ref:
                r = run_case("reference", n, d, B=20, M=3, seed=s)
                rows.append(r)
                print(_fmt(r))
                t_r.append(r.get("seconds", float("nan")))
                hit_r += bool(r.get("all_true"))
                same += o.get("selected") == r.get("selected")
        print(f"    ours: all 3 true features in {hit_o}/{seeds} seeds; median "
              f"{sorted(t_o)[len(t_o) // 2]:.2f} s")
        if ref:
            print(f"    reference: all 3 true in {hit_r}/{seeds}; median "
                  f"{sorted(t_r)[len(t_r) // 2]:.2f} s")
            print(f"    identical selections (same order): {same}/{seeds}; time ratio "
                  f"reference/ours (medians): "
                  f"{sorted(t_r)[len(t_r) // 2] / sorted(t_o)[len(t_o) // 2]:.1f}x (goal >= 5x)")

    if "3" not in skip:
        print(f"\n[3] Data2 n={n} d={d} vanilla, ours, {seeds} seeds")
        hits = 0
        for s in range(seeds):
            o = run_case("ours", n, d, seed=s)
            rows.append(o)
            print(_fmt(o))
            hits += bool(o.get("all_true"))
        print(f"    all 3 true features in {hits}/{seeds} seeds (acceptance: >= 9 of 10)")

    if "4" not in skip and not args.quick:
        print("\n[4] large problems (24 GB machine)")
        for (nn, dd, B, M) in ((20000, 1000, 20, 3), (100, 20000, 0, 1)):
            sides = ["ours"]
            # the reference's block design at n=20000 is 1.2e9 float32 plus a float64 copy
            # (about 15 GB): only with --large-reference
            if ref and (nn == 100 or args.large_reference):
                sides.append("reference")
            got = {}
            for side in sides:
                got[side] = r = run_case(side, nn, dd, B=B, M=M)
                rows.append(r)
                print(_fmt(r))
            if len(got) == 2 and not any("error" in r for r in got.values()):
                o, r = got["ours"], got["reference"]
                print(f"    time ratio reference/ours: {r['seconds'] / o['seconds']:.1f}x; peak "
                      f"memory ours/reference: {o['peak_mb'] / r['peak_mb']:.3f}; same "
                      f"selection: {o['selected'] == r['selected']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
