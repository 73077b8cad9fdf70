"""Print the markdown tables of the reproduction pages from results/<seed>.json.

    python docs/reproductions/render.py fastener   # or gbmo, hsic, pclfs, lesson

The pages (``<seed>.md``) paste these blocks; the numbers are never typed by hand.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent


def md(df: pd.DataFrame, digits: int = 3) -> str:
    """A GitHub markdown table (no tabulate needed)."""
    def cell(v):
        if isinstance(v, float):
            return "" if math.isnan(v) else f"{v:.{digits}f}".rstrip("0").rstrip(".") \
                if abs(v) < 1e4 else f"{v:,.0f}"
        return "" if v is None else str(v)

    lines = ["| " + " | ".join(map(str, df.columns)) + " |",
             "|" + "|".join("---:" if pd.api.types.is_numeric_dtype(df[c]) and df[c].dtype != bool else "---" for c in df.columns) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def load(seed: str) -> dict:
    return json.loads((HERE / "results" / f"{seed}.json").read_text())


def tables(seed: str) -> dict[str, pd.DataFrame]:
    return {k: pd.DataFrame(v) for k, v in load(seed)["tables"].items()}


def _col(df, name):
    return df[name] if name in df else pd.Series(float("nan"), index=df.index)


def _evals(a, b):
    return [f"{x:,.0f} / " + (f"{y:,.0f}" if y == y else "-") for x, y in zip(a, b, strict=True)]


def fastener():
    t = tables("fastener")["AUF of test F1 (mean, sd over splits) beside seed Tables 3-4"]
    seed = t[t.protocol == "seed"]
    ours = {m: _col(seed, f"{m} mean") for m in ("FS-SDS", "DT-fwd", "FASTENER")}
    out = pd.DataFrame({
        "data set": seed.dataset,
        "FS-SDS paper": seed["seed FS-SDS"], "FS-SDS ours": ours["FS-SDS"],
        "FS-SDS diff": ours["FS-SDS"] - seed["seed FS-SDS"],
        "DT-fwd paper": seed["seed DT-fwd"], "DT-fwd ours": ours["DT-fwd"],
        "DT-fwd diff": ours["DT-fwd"] - seed["seed DT-fwd"],
        "FASTENER paper": seed["seed FASTENER"], "FASTENER ours": ours["FASTENER"],
        "FASTENER diff": ours["FASTENER"] - seed["seed FASTENER"],
        "FASTENER evals paper / ours": _evals(seed["seed FASTENER evals"],
                                              _col(seed, "FASTENER evals")),
    })
    print("### The seed's protocol (like for like with Tables 3-4)\n")
    print(md(out))
    h = t[t.protocol == "honest"]
    out = pd.DataFrame({
        "data set": h.dataset, "FASTENER": h["FASTENER mean"],
        "POSS (same budget)": _col(h, "POSS mean"), "FS-SDS": _col(h, "FS-SDS mean"),
        "DT-forward": _col(h, "DT-fwd mean"),
        "FASTENER - POSS": h["FASTENER mean"] - _col(h, "POSS mean"),
        "FASTENER evals": h["FASTENER evals"], "FS-SDS evals": _col(h, "FS-SDS evals"),
        "paper FASTENER (its protocol)": h["seed FASTENER"],
    })
    print("\n### Honest protocol (headline)\n")
    print(md(out))
    conv = tables("fastener").get("POSS vs FASTENER: selection-val AUF at equal evaluation budgets")
    if conv is not None:
        print("\n### POSS vs FASTENER at equal budgets (selection-val AUF, mean over sets)\n")
        print(md(conv))


def fastener_facts():
    """The figures the page's prose quotes ("The differences, one by one"), computed."""
    t = tables("fastener")["AUF of test F1 (mean, sd over splits) beside seed Tables 3-4"]
    s = t[t.protocol == "seed"].set_index("dataset")
    h = t[t.protocol == "honest"].set_index("dataset")
    n = len(s)
    d = s["FASTENER mean"] - s["seed FASTENER"]
    print("\n### Figures quoted in the prose\n")
    print(f"- splits per set: {sorted(set(s['FASTENER splits']) | set(h['FASTENER splits']))}")
    print(f"- sd over splits (seed protocol, FASTENER): {s['FASTENER sd'].min():.3f}-"
          f"{s['FASTENER sd'].max():.3f}")
    print(f"- FASTENER - seed (seed protocol): mean {d.mean():+.3f}, median {d.median():+.3f}, "
          f"within 0.05 on {(d.abs() <= 0.05).sum()} of {n}, higher on {(d > 0).sum()}; "
          "largest: " + ", ".join(f"{k} {v:+.3f}" for k, v in d.nlargest(5).items()))
    dd = s["DT-fwd mean"] - s["seed DT-fwd"]
    print(f"- DT-fwd - seed (seed protocol): mean {dd.mean():+.3f}, higher on {(dd > 0).sum()}")
    for name, x in (("seed", s), ("honest", h)):
        g = x["FASTENER mean"] - x["DT-fwd mean"]
        ratio = x["FASTENER evals"].sum() / x["DT-fwd evals"].sum()
        print(f"- {name}: FASTENER >= DT-fwd on {(g >= 0).sum()} of {n} (mean {g.mean():+.3f}); "
              f"evaluations ratio {ratio:.3f}; FASTENER evals {x['FASTENER evals'].min():,.0f}-"
              f"{x['FASTENER evals'].max():,.0f}")
        f = x["FASTENER mean"] - x["FS-SDS mean"]
        print(f"- {name}: FASTENER >= FS-SDS on {(f >= 0).sum()} of {n} (mean {f.mean():+.3f}); "
              f"FS-SDS evals {x['FS-SDS evals'].min():,.0f}-{x['FS-SDS evals'].max():,.0f}")
    gap = h["FASTENER mean"] - s["FASTENER mean"]
    below = (h["FASTENER mean"] < h["seed FASTENER"]).sum()
    between = ((h["FASTENER mean"] <= s["seed FASTENER"])
               & (s["seed FASTENER"] <= s["FASTENER mean"])).sum()
    print(f"- honest - seed protocol (FASTENER): mean {gap.mean():+.3f}; honest below the seed's "
          f"number on {below} of {n}; the seed's number between our two on {between}")
    fs = s["FS-SDS mean"] - s["seed FS-SDS"]
    print(f"- FS-SDS - seed (seed protocol): mean {fs.mean():+.3f}, higher on {(fs > 0).sum()}")
    p = h["FASTENER mean"] - h["POSS mean"]
    print(f"- honest: FASTENER > POSS on {(p > 0).sum()} of {n} (mean AUF "
          f"{h['FASTENER mean'].mean():.3f} against {h['POSS mean'].mean():.3f})")


def lesson():
    t = tables("lesson")
    m = t["FS15-FS19: three methods, three feature sets (depth-6 tree fit on train)"]
    seed, sk = m[m.model == "seed"].reset_index(drop=True), m[m.model == "sklearn"].reset_index(
        drop=True)
    print("### FS15-FS19: three methods, three feature sets\n")
    print(md(pd.DataFrame({
        "method": seed.method, "columns paper": seed.published_columns,
        "columns ours (lesson tree)": seed["columns"], "columns ours (sklearn tree)": sk["columns"],
        "held-out paper": seed.published_held_out, "held-out ours (lesson tree)": seed.held_out,
        "diff": seed.held_out - seed.published_held_out,
        "held-out ours (sklearn tree)": sk.held_out,
        "diff (sklearn)": sk.held_out - seed.published_held_out}), 4))
    w = t["wrapper: its own (validation) number vs the test number"]
    print("\n### The wrapper's own number against the test number\n")
    print(md(w[["model", "validation", "test", "gap", "published_validation", "published_test",
                "published_gap"]], 4))
    n = t["FS21 noise pool, the lesson's 1,200 noise columns"]
    ns, nk = n[n.model == "seed"].reset_index(drop=True), n[n.model == "sklearn"].reset_index(
        drop=True)
    print("\n### FS21: top-k noise columns selected on train vs on the whole set\n")
    print(md(pd.DataFrame({
        "k": ns.selected, "selected on": ns.source, "held-out paper": ns.published_held_out,
        "held-out ours (lesson tree)": ns.held_out, "diff": ns.held_out - ns.published_held_out,
        "held-out ours (sklearn tree)": nk.held_out,
        "inflation paper": ns.published_inflation, "inflation ours (lesson tree)": ns.inflation,
        "inflation ours (sklearn tree)": nk.inflation}), 4))
    key = [k for k in t if k.startswith("FS21 noise pool over")][0]
    o = t[key]
    print(f"\n### {key}\n")
    print(md(o[["selector", "k", "test_train_only", "test_whole_set", "inflation",
                "inflation_se", "beyond_noise"]], 4))
    a = t["selection audit (selection_inflation, lesson split, sklearn tree)"]
    print("\n### Selection audit of the three methods (sklearn tree)\n")
    print(md(a, 4))
    print("\n### The lesson's directions\n")
    print(md(t["direction checks"], 4))


def generic(seed: str):
    for title, df in tables(seed).items():
        if title.startswith("per-"):
            continue
        print(f"\n### {title}\n")
        print(md(df))


def main(argv):
    seed = argv[1]
    res = load(seed)
    p = res["params"]
    print(f"command: `{p.get('command')}`  \nruntime: {p.get('runtime_seconds')} s; machine: "
          f"{p.get('machine')}  \nversions: {p.get('versions')}\n")
    {"fastener": fastener, "lesson": lesson}.get(seed, lambda: generic(seed))()
    for n in res["notes"]:
        print(f"- {n}")
    if seed == "fastener":
        fastener_facts()


if __name__ == "__main__":
    main(sys.argv)
