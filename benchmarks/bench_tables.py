"""Type handling on a real-sized messy table: what reading kinds, encoding and validation cost.

A synthetic table of 100,000 rows x 50 columns: 40 numeric (10 informative) and 10 text
columns (5 to 50 categories; two of them informative), 5% of all cells missing, a binary
target. ``featsieve.compare`` runs on it; every call of the validation layer
(``validate_Xy`` once for the table, ``validate_Xy``/``validate_X`` inside every selector's
fit: reading kinds, encoding text and dates, NaN, constant and duplicate columns) is timed
apart, and the split is printed: type handling vs the rest of compare (selection, tuning,
refits). The issue's bar (issue 16): type handling under 10% of compare's time.

Usage::

    python benchmarks/bench_tables.py                      # a few minutes on 2 cores
    python benchmarks/bench_tables.py --rows 20000 --methods mi,cc,embedded,gbmo,rfe
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd


def make_table(n_rows: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    num = rng.normal(size=(n_rows, 40))
    X = pd.DataFrame(num, columns=[f"num{i}" for i in range(40)])
    logit = num[:, :10] @ np.linspace(1.0, 0.2, 10)
    for i in range(10):
        k = 5 + 5 * i
        codes = rng.integers(0, k, size=n_rows)
        X[f"text{i}"] = pd.array(np.array([f"level_{c}" for c in range(k)])[codes], dtype="str")
        if i < 2:
            logit += (codes % 2 == 0) * 1.0
    y = pd.Series(np.where(logit + rng.normal(size=n_rows) > 0, "yes", "no"), name="y")
    holes = rng.random(X.shape) < 0.05
    X = X.mask(holes)
    return X, y


class Timer:
    """Accumulated wall time of the wrapped functions (nested calls counted once)."""

    def __init__(self):
        self.seconds = 0.0
        self.calls = 0
        self._depth = 0

    def wrap(self, fn):
        def timed(*args, **kwargs):
            self._depth += 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds += time.perf_counter() - start
                    self.calls += 1
        return timed


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--methods", default="mi,cc,embedded,gbmo,kbest",
                   help="compare's methods ('default' for compare's default set; slow at 100k)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    import featsieve._base as base
    import featsieve.evaluation._compare as cmp
    from featsieve.evaluation import compare

    X, y = make_table(args.rows, args.seed)
    print(f"table: {X.shape[0]} rows x {X.shape[1]} columns (10 text), "
          f"{X.isna().to_numpy().mean():.1%} missing cells")
    timer = Timer()
    base.validate_Xy = timer.wrap(base.validate_Xy)
    base.validate_X = timer.wrap(base.validate_X)
    cmp.validate_Xy = timer.wrap(cmp.validate_Xy)
    methods = None if args.methods == "default" else args.methods.split(",")
    start = time.perf_counter()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare(X, y, methods=methods, random_state=args.seed)
    total = time.perf_counter() - start
    print(f"methods: {', '.join(r['method'] for r in result.rows)}")
    print(f"compare total        {total:8.2f} s")
    print(f"type handling        {timer.seconds:8.2f} s  ({timer.calls} validation calls: kinds, "
          "encoding, NaN, constant/duplicate columns)")
    print(f"selection and models {total - timer.seconds:8.2f} s")
    share = timer.seconds / total
    print(f"type handling share  {share:8.1%}  ({'under' if share < 0.10 else 'OVER'} the 10% bar)")


if __name__ == "__main__":
    main()
